"""webmcp-lint: a static analyzer for WebMCP tool definitions."""

__version__ = "0.1.0"

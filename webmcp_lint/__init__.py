"""webmcp-lint: a static analyzer for WebMCP tool definitions."""

__version__ = "0.1.0"
OWN_CACHE_DIR = ".webmcp_lint_cache"  # the cache's default folder (in the current directory), which discovery skips

"""Subcommands whose work is more than running the linter (the CLI in webmcp_lint/cli.py stays thin)."""

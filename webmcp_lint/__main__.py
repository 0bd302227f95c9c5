from webmcp_lint.cli import run

run()

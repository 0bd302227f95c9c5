from webmcp_lint.program import run

run()

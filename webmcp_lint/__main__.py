from webmcp_lint.cli import main

main()

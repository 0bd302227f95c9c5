"""``webmcp-lint server``: the language server for editors."""

from __future__ import annotations

import gc

import click


@click.command("server")
@click.option("--stdio", is_flag=True, help="Accepted for editors that pass it; stdio is the only transport.")
def language_server(stdio) -> None:
    """Run the language server (LSP over stdin/stdout) for editors."""
    from webmcp_lint.server import serve  # pygls loads only for the server, not for `--help`

    # The program starts with the cycle collector off (program.run): right for a run that ends, not for a server
    # that lints on every keystroke, whose models hold reference cycles (memos kept on their owners).
    gc.enable()
    serve()

"""Command line: ``webmcp-lint check|rules|rule|server|tools``, in Ruff's and ESLint's conventions.

Exit codes: 0 clean, 1 findings at or above ``--fail-on``, 2 usage, config
or internal error (one line, no traceback unless ``--verbose``).

Each command lives in a module of webmcp_lint/commands, imported only when
that command runs (or ``--help`` lists them): ``check`` never pays for the
manifest of ``tools`` or the table renderer of ``rules``. The program's entry point is program.run.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterator, Mapping

import click

from webmcp_lint import __version__
from webmcp_lint.commands import CommandError

COMMANDS = {
    "check": "webmcp_lint.commands.check:check",
    "rule": "webmcp_lint.commands.rules:show_rule",
    "rules": "webmcp_lint.commands.rules:list_rules",
    "server": "webmcp_lint.commands.server:language_server",
    "tools": "webmcp_lint.commands.tools:list_tools",
}


class LazyCommands(Mapping):
    """Command name -> click command, importing the command's module on first access."""

    def __getitem__(self, name: str) -> click.Command:
        module, attribute = COMMANDS[name].split(":")
        return getattr(importlib.import_module(module), attribute)

    def __iter__(self) -> Iterator[str]:
        return iter(COMMANDS)

    def __len__(self) -> int:
        return len(COMMANDS)


class Commands(click.Group):
    """The command group: a command's CommandError becomes its one-line message and exit code 2."""

    def invoke(self, ctx: click.Context):
        try:
            return super().invoke(ctx)
        except CommandError as error:
            error.show()
            ctx.exit(error.exit_code)


@click.group(cls=Commands, commands=LazyCommands(), context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, "--version", prog_name="webmcp-lint", message="%(prog)s %(version)s")
def main() -> None:
    """Static analysis for WebMCP tool definitions in JavaScript and TypeScript."""


if __name__ == "__main__":  # python -m webmcp_lint.cli, as before the program had its own module
    from webmcp_lint.program import run

    run()

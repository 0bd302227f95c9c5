"""Command line: ``webmcp-lint check|rules|rule|server|tools``, in Ruff's and ESLint's conventions.

Exit codes: 0 clean, 1 findings at or above ``--fail-on``, 2 usage, config
or internal error (one line, no traceback unless ``--verbose``).

Each command lives in a module of webmcp_lint/commands, imported only when
that command runs (or ``--help`` lists them): ``check`` never pays for the
manifest of ``tools`` or the table renderer of ``rules``.
"""

from __future__ import annotations

import gc
import importlib
import os
import sys
from collections.abc import Iterator, Mapping

import click

from webmcp_lint import __version__

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


@click.group(commands=LazyCommands(), context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, "--version", prog_name="webmcp-lint", message="%(prog)s %(version)s")
def main() -> None:
    """Static analysis for WebMCP tool definitions in JavaScript and TypeScript."""


def run() -> None:
    """The program (console script and ``python -m webmcp_lint``): ``main``, then an immediate exit.

    A normal exit frees every object of the run one at a time, 20 to 200 ms after the report on the
    200-file benchmark, for a process that ends anyway (mypy's hard_exit does the same). A profiler or a
    coverage tracer (also coverage on sys.monitoring, which sets no trace function) gets the interpreter's
    normal exit, since it writes its data then.

    The cycle collector stays off for the whole process (commands.without_cycle_collection says why): its
    passes while the commands import would free nothing, and the one a command would set off by turning
    it back on at its end would sweep the whole run's heap just before the exit.
    """
    gc.disable()
    status = 0
    try:
        main()
    except SystemExit as stop:
        status = stop.code
    measured = sys.getprofile() is not None or sys.gettrace() is not None or "coverage" in sys.modules
    if not isinstance(status, int) or measured:
        sys.exit(status)
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except (OSError, ValueError):
        sys.exit(status)  # the interpreter's exit reports what could not be written
    os._exit(status)


if __name__ == "__main__":
    run()

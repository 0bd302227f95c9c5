"""The subcommands, one module each, imported only when that command runs (see ``COMMANDS`` in cli.py).

What several commands share lives here: exit codes, the one-line error, output
and colour decisions. It imports no click: what ``check`` does once its options
are parsed (check_run.py) runs in a process that never loads click
(program.py says why), and ``--version`` stays cheap.
"""

from __future__ import annotations

import contextlib
import gc
import os
import sys
from typing import TYPE_CHECKING, Iterator

if TYPE_CHECKING:
    from webmcp_lint.engine import LintResult

EXIT_CLEAN, EXIT_FINDINGS, EXIT_ERROR = 0, 1, 2


class CommandError(Exception):
    """A usage, config or internal error: exit 2 with one line (cli.Commands and program.run show it)."""

    exit_code = EXIT_ERROR

    def show(self) -> None:
        echo(f"webmcp-lint: error: {self}", err=True)


def echo(text: str, *, err: bool = False, nl: bool = True) -> None:
    """Write ``text`` to stdout (stderr with ``err``) at once, like click.echo but keeping colour codes the
    caller chose to write (``use_color`` decides, FORCE_COLOR included)."""
    stream = sys.stderr if err else sys.stdout
    stream.write(f"{text}\n" if nl else text)
    stream.flush()


def write_output(path: str, text: str) -> None:
    """Write a report, listing or baseline to ``path``, making its missing folders (as ESLint's and Ruff's
    ``--output-file`` do); a path that cannot be written is a usage error, not a traceback."""
    try:
        os.makedirs(os.path.dirname(path) or os.curdir, exist_ok=True)
        with open(path, "w", encoding="utf-8") as output:
            output.write(text)
    except OSError as error:
        raise CommandError(f"{path}: cannot write: {error.strerror or error}") from None


@contextlib.contextmanager
def one_line_errors(verbose: bool) -> Iterator[None]:
    """Exit 2 with one line for an unexpected error, never a traceback (unless --verbose)."""
    try:
        yield
    except CommandError:
        raise
    except Exception as error:  # noqa: BLE001 - the promise is one line, never a traceback
        if verbose:
            raise
        raise CommandError(f"internal error: {type(error).__name__}: {error}") from None


@contextlib.contextmanager
def without_cycle_collection() -> Iterator[None]:
    """Pause Python's cycle collector while a command analyses and reports (the program keeps it off from its
    start, program.run; this covers ``main`` called as a library or from tests).

    The analysis holds on to almost everything it makes until the report, so the collector's repeated passes
    over the growing heap free little and cost a fifth of the CPU. Freeing by reference counting goes on as
    usual; the cycles the memos make are collected as each unit ends (units._lint_unit_at).
    """
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def require_existing_paths(result: LintResult) -> None:
    missing = [notice.path for notice in result.notices if notice.message == "no such file or directory"]
    if missing:
        raise CommandError(f"no such file or directory: {', '.join(missing)}")


def use_color(no_color: bool, output_file: str | None) -> bool:
    if no_color or output_file or os.environ.get("NO_COLOR"):
        return False
    if os.environ.get("FORCE_COLOR"):
        return True
    return sys.stdout.isatty()


def echo_notices(result: LintResult) -> None:
    for notice in result.notices:
        echo(f"webmcp-lint: {'error' if notice.internal_error else 'notice'}: {notice.path}: {notice.message}", err=True)

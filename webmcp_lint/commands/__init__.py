"""The subcommands, one module each, imported only when that command runs (see ``COMMANDS`` in cli.py).

What several commands share lives here: exit codes, the one-line error, output
and colour decisions. It imports no click: what ``check`` does once its options
are parsed (check_run.py) runs in a process that never loads click
(program.py says why), and ``--version`` stays cheap.
"""

from __future__ import annotations

import codecs
import contextlib
import gc
import os
import re
import sys
from typing import TYPE_CHECKING, Iterator

if TYPE_CHECKING:
    from webmcp_lint.engine import LintResult

EXIT_CLEAN, EXIT_FINDINGS, EXIT_ERROR = 0, 1, 2


class CommandError(Exception):
    """A usage, config or internal error: exit 2 with one line (shown by cli.Commands under click, and by
    check_run.run_check_command where the program runs a check without click)."""

    exit_code = EXIT_ERROR

    def show(self) -> None:
        echo(f"webmcp-lint: error: {self}", err=True)


ANSI_SEQUENCE = re.compile(r"\033\[[;?0-9]*[a-zA-Z]")  # what click.echo strips


def echo(text: str, *, err: bool = False, nl: bool = True, color: bool | None = None) -> None:
    """Write ``text`` to stdout (stderr with ``err``) at once, as click.echo does: colour codes stripped when
    ``color`` is False, or None and the stream is no terminal, and a stream that claims ASCII written in
    UTF-8. Unlike click.echo, ``color=True`` (``use_color``: FORCE_COLOR) keeps them on a pipe."""
    stream = sys.stderr if err else sys.stdout
    message = f"{text}\n" if nl else text
    if "\033" in message and (color is False or (color is None and not stream.isatty())):
        message = ANSI_SEQUENCE.sub("", message)  # looked for first: a report of a MB is searched 40x faster
    binary = getattr(stream, "buffer", None)
    if binary is not None and codecs.lookup(getattr(stream, "encoding", None) or "ascii").name == "ascii":
        stream.flush()
        binary.write(message.encode("utf-8", "replace"))
        binary.flush()
        return
    stream.write(message)
    stream.flush()


def write_output(path: str, text: str) -> None:
    """Write a report, listing or baseline to ``path``, making its missing folders (as ESLint's and Ruff's
    ``--output-file`` do); a path that cannot be written is a usage error, not a traceback."""
    from pathlib import Path  # not for the command-line parser process, which imports this module (program.py)

    target = Path(path)
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
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

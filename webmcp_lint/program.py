"""The program: the entry point of the console script and of ``python -m webmcp_lint``.

A ``check`` starts as two processes where there is fork. Parsing the command
line needs click, whose import (with the standard modules it loads: inspect,
typing, enum, datetime, uuid...) takes about as long as the analysis modules'
(~25 ms each), and the check itself needs the analysis and no click. So the
program forks first thing: the child imports click, parses the command line
and hands the check's options over a pipe (or prints the help or a usage
error and hands over click's exit code), while this process imports the
analysis, then runs the check with those options. A check's serial start is
the longer of the two imports, not their sum: about 20 ms less on each check,
4% of a cold run over the 200-file benchmark (472 -> 451 ms, medians of 16
interleaved runs). Other commands, and runs under a profiler or a coverage
tracer, take one process.
"""

from __future__ import annotations

import gc
import marshal
import os
import sys
from functools import partial
from typing import NoReturn

from webmcp_lint.children import reap

EXIT_ERROR = 2  # commands.EXIT_ERROR, without importing the commands before the fork


def run() -> NoReturn:
    """Run the command line, then exit at once.

    A normal exit frees every object of the run one at a time, 20 to 200 ms after the report on the
    200-file benchmark, for a process that ends anyway (mypy's hard_exit does the same). A profiler or a
    coverage tracer (also coverage on sys.monitoring, which sets no trace function) gets the interpreter's
    normal exit, since it writes its data then.

    The cycle collector stays off for the whole process (commands.without_cycle_collection says why): its
    passes while the commands import would free nothing, and the one a command would set off by turning
    it back on at its end would sweep the whole run's heap just before the exit.
    """
    gc.disable()
    measured = sys.getprofile() is not None or sys.gettrace() is not None or "coverage" in sys.modules
    if sys.argv[1:2] == ["check"] and hasattr(os, "fork") and not measured:
        status = _check_beside_its_parser()
    else:
        status = _in_one_process()
    if not isinstance(status, int) or measured:
        sys.exit(status)
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except (OSError, ValueError):
        sys.exit(status)  # the interpreter's exit reports what could not be written
    os._exit(status)


def _in_one_process() -> int | str | None:
    """The command line, parsed and run here; click's exit status."""
    from webmcp_lint.cli import main

    try:
        main()
    except SystemExit as stop:
        return stop.code
    return 0


def _check_beside_its_parser() -> int:
    """A check whose command line a forked child parses while this process imports the analysis."""
    word_out, word_in = os.pipe()
    try:
        parser = os.fork()
    except OSError:  # no more processes allowed
        os.close(word_out)
        os.close(word_in)
        return _in_one_process()
    if parser == 0:
        os.close(word_out)
        _parse_command_line(word_in)
    os.close(word_in)
    try:
        try:
            from webmcp_lint.commands import check_run

            check_run.load_analysis()
            received = _read_all(word_out)
        finally:
            os.close(word_out)
        try:
            word = marshal.loads(received)
        except (EOFError, ValueError, TypeError):  # the child said nothing whole: it died
            return _ended_without_a_word(parser)
        if isinstance(word, int):  # its exit code: it printed the help or a usage error
            return word
        return check_run.run_check_command(word)
    finally:
        reap(parser)


def _parse_command_line(word_in: int) -> NoReturn:
    """The forked child: parse the command line with click and hand the check's options to the parent; or print
    the help or the usage error and hand over click's exit code (the parent cannot always wait for it: a
    caller that ignores SIGCHLD has the system reap it)."""
    status = EXIT_ERROR
    try:
        from webmcp_lint.cli import main

        main(obj=partial(_hand_over_options, word_in))  # the check command calls it with its options
    except SystemExit as stop:  # the help or a usage error: click's standalone mode ends in one
        if stop.code is None:
            status = 0
        elif isinstance(stop.code, int):
            status = stop.code
        _hand_over(word_in, status)
    except KeyboardInterrupt:  # Ctrl-C reaches both processes: the parent reports it
        pass
    except Exception:  # noqa: BLE001 - shown as the interpreter would; the parent then ends with 2
        import traceback  # only here: its import (linecache, tokenize, textwrap) is start-up time of every check

        traceback.print_exc()
    finally:
        try:
            sys.stdout.flush()
            sys.stderr.flush()
        finally:
            os._exit(status)


def _hand_over_options(word_in: int, options: dict) -> NoReturn:
    _hand_over(word_in, options)
    os._exit(0)  # nothing was written to flush


def _hand_over(word_in: int, word: dict | int) -> None:
    """Send the parent the check's options, or an exit code (marshal: plain values only)."""
    blob = memoryview(marshal.dumps(word))
    while blob:
        blob = blob[os.write(word_in, blob):]


def _read_all(pipe: int) -> bytes:
    chunks = []
    while chunk := os.read(pipe, 1 << 16):
        chunks.append(chunk)
    return b"".join(chunks)


def _ended_without_a_word(parser: int) -> int:
    """The program's exit code when the command-line parser died before it said anything whole."""
    try:
        code = os.waitstatus_to_exitcode(os.waitpid(parser, 0)[1])
    except ChildProcessError:  # already reaped by the system
        code = None
    how = f"by signal {-code}" if code is not None and code < 0 else "without handing over the options"
    sys.stderr.write(f"webmcp-lint: error: the command-line parser ended {how}\n")
    return EXIT_ERROR

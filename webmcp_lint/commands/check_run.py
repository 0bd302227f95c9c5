"""What ``webmcp-lint check`` does once its options are parsed: lint, then report in one of the formats.

No click here: in the program, this runs in a process that never loads it
(program.py). The fixer and the baseline load only when their options ask for them.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from webmcp_lint.cache import DEFAULT_CACHE_DIR
from webmcp_lint.commands import (EXIT_CLEAN, EXIT_ERROR, EXIT_FINDINGS, CommandError, echo, echo_notices,
                                  one_line_errors, require_existing_paths, use_color, without_cycle_collection,
                                  write_output)
from webmcp_lint.config import ConfigError, RuleLayer, run_settings
from webmcp_lint.diagnostics import Severity
from webmcp_lint.discovery import Skip, explicit_skip_reason
from webmcp_lint.engine import LintResult, Notice, Settings, lint_paths, lint_sources, read_paths, source_from_bytes
from webmcp_lint.formats import RenderOptions, render
from webmcp_lint.selection import SelectorError, split_selectors
from webmcp_lint.source import SourceFile

if TYPE_CHECKING:
    from webmcp_lint.fixes import FixRun


def exit_code(result: LintResult, fail_on: Severity, exit_zero: bool) -> int:
    if result.internal_errors:
        return EXIT_ERROR
    if exit_zero:
        return EXIT_CLEAN
    failing = any(diagnostic.severity.rank >= fail_on.rank for diagnostic in result.diagnostics)
    return EXIT_FINDINGS if failing else EXIT_CLEAN


def _stdin_sources(stdin_filename: str | None, settings: Settings) -> tuple[list[SourceFile], LintResult, bytes]:
    """Standard input as the file ``stdin_filename`` names (none when it is skipped: binary, or excluded under
    ``--force-exclude``), the result so far, and the input's bytes."""
    name = stdin_filename or "stdin.js"
    result = LintResult()
    raw = sys.stdin.buffer.read()
    reason = explicit_skip_reason(Path(name), settings.exclusion, settings.force_exclude and bool(stdin_filename))
    if reason is not None:
        result.skipped.append(Skip(name, reason))
        return [], result, raw
    source = source_from_bytes(Path(name), name, raw, result, explicit=True)
    return [source] if source is not None else [], result, raw


def _stdin_result(stdin_filename: str | None, settings: Settings) -> LintResult:
    sources, result, _ = _stdin_sources(stdin_filename, settings)
    return lint_sources(sources, settings, result)


def _fix_run(paths: list[str], stdin_filename: str | None, settings: Settings,
             unsafe: bool) -> tuple[FixRun, bytes | None]:
    """Fix in memory: the files named (or stdin), re-linted until stable; nothing written yet. Also standard
    input's bytes, when it is what is fixed."""
    from webmcp_lint.fixes import fix_sources

    if paths == ["-"]:
        sources, base, stdin_bytes = _stdin_sources(stdin_filename, settings)
        return fix_sources(sources, settings, unsafe, base), stdin_bytes
    sources, base = read_paths(paths, settings)
    return fix_sources(sources, settings, unsafe, base), None


def _report_fixes(run: FixRun, *, diff: bool, show_fixes: bool, stdin_bytes: bytes | None,
                  output_file: str | None) -> bool:
    """Print the diff (to ``output_file`` if given), or write the fixed files (stdout for stdin: the input as it
    came when it was skipped, so a caller replacing its buffer with the output never empties it); say what was not
    applied. True if anything changed."""
    from_stdin = stdin_bytes is not None
    from webmcp_lint.fixes import describe_fixes, unified_diff, write_fixed

    for rejection in run.rejected:
        diagnostic = rejection.diagnostic
        line, column = diagnostic.start_position()
        echo(f"webmcp-lint: notice: {diagnostic.path}:{line}:{column}: {diagnostic.code} fix {rejection.reason}",
             err=True)
    changed = run.changed
    if diff:
        diffs = "".join(unified_diff(original, fixed) for original, fixed in changed)
        if output_file:
            write_output(output_file, diffs)
        elif diffs:
            echo(diffs, nl=False)
        count = len(run.applied)
        echo(f"Would fix {count} problem{'s' if count != 1 else ''} in {len(changed)} "
             f"file{'s' if len(changed) != 1 else ''}.", err=True)
        return bool(changed)
    for original, fixed in changed:
        if from_stdin:
            continue
        problem = write_fixed(original, fixed)
        if problem:  # reported with the other notices; an error, so the exit code is 2
            run.result.notices.append(Notice(original.display_path, problem, internal_error=True))
    if from_stdin:
        if not run.originals:
            sys.stdout.buffer.write(stdin_bytes)
        for source in run.originals.values():
            fixed = run.fixed.get(source.display_path, source)
            sys.stdout.buffer.write(source.encode_back(fixed.text))
        sys.stdout.flush()
    if show_fixes:
        echo(describe_fixes(run.applied), nl=False, err=from_stdin)
    return bool(changed)


@without_cycle_collection()
def run_check(paths, output_format, output_file, select, extend_select, ignore, fail_on, exit_zero,
              statistics, quiet, no_color, stdin_filename, verbose, fix, unsafe_fixes, show_diff, show_fixes,
              config_file, isolated, force_exclude, baseline_file, write_baseline_file, sarif_category,
              jobs, cache_dir, no_cache) -> int:
    """Lint ``paths`` with the options of ``check`` (cli.py declares them); the exit code."""
    paths = list(paths) or ["."]
    if config_file and isolated:
        raise CommandError("--config and --isolated cannot be combined")
    command_line = RuleLayer(split_selectors(select) or None, split_selectors(extend_select), split_selectors(ignore))
    try:
        settings, config = run_settings([stdin_filename or "."] if paths == ["-"] else paths, config_file=config_file,
                                        isolated=isolated, command_line=command_line, verbose=verbose,
                                        force_exclude=force_exclude)
    except (ConfigError, SelectorError) as error:
        raise CommandError(str(error)) from None
    fail_on = fail_on or (config.fail_on.value if config.fail_on else "warning")
    fix_run = stdin_bytes = None
    with one_line_errors(verbose):
        if fix or show_diff:
            fix_run, stdin_bytes = _fix_run(paths, stdin_filename, settings, unsafe_fixes)
            result = fix_run.result
        elif paths == ["-"]:
            result = _stdin_result(stdin_filename, settings)
        else:
            result = lint_paths(paths, settings, jobs=jobs or os.cpu_count() or 1,
                                cache_dir=None if no_cache else Path(cache_dir or DEFAULT_CACHE_DIR),
                                keep_models=False)
    require_existing_paths(result)
    if write_baseline_file:
        from webmcp_lint.baseline import baseline_text

        write_output(write_baseline_file, baseline_text(Path(write_baseline_file), result.diagnostics))
        count = len(result.diagnostics)
        echo(f"webmcp-lint: wrote {count} finding{'s' if count != 1 else ''} to {write_baseline_file}", err=True)
        return EXIT_ERROR if result.internal_errors else EXIT_CLEAN
    if baseline_file:
        from webmcp_lint.baseline import BaselineError, new_findings

        try:
            result.diagnostics = new_findings(Path(baseline_file), result.diagnostics)
        except BaselineError as error:
            raise CommandError(str(error)) from None
    if fix_run is not None:
        changed = _report_fixes(fix_run, diff=show_diff, show_fixes=show_fixes, stdin_bytes=stdin_bytes,
                                output_file=output_file)
        if show_diff:
            return EXIT_FINDINGS if changed and not exit_zero else EXIT_CLEAN
    fix_summary = (("unsafe_fixes", unsafe_fixes), ("fixed", len(fix_run.applied) if fix_run else 0))
    options = RenderOptions(color=use_color(no_color, output_file), statistics=statistics, quiet=quiet,
                            extra=fix_summary + (("settings", settings), ("sarif_category", sarif_category)))
    report = render(output_format, result, options)
    kept_colour = options.color or None  # colour forced (FORCE_COLOR) stays on a pipe; else as click.echo does
    if fix_run is not None and paths == ["-"] and not output_file:
        echo(report, nl=False, err=True, color=kept_colour)  # stdout holds the fixed code
    elif output_file:
        write_output(output_file, report)
    else:
        try:
            echo(report, nl=False, color=kept_colour)
        except BrokenPipeError:
            raise  # its reader went away (``| head``): run_check_command ends quietly
        except OSError as error:  # a full disk, /dev/full: as for -o, a usage error, not a traceback
            _discard_standard_output()
            raise CommandError(f"cannot write the report to standard output: {error.strerror or error}") from None
    if output_format not in ("text", "concise") and not quiet:
        for skip in [*result.skipped, *result.unreadable_directories]:
            echo(f"webmcp-lint: notice: {skip.path}: skipped ({skip.reason})", err=True)
    echo_notices(result)
    return exit_code(result, Severity(fail_on), exit_zero)


def load_analysis() -> None:
    """Import what every check imports on its way (rules, extractors, the unit runner) ahead of time: the
    program does it while its command-line parser loads click (program.py)."""
    from webmcp_lint import units  # noqa: F401 - imported by lint_paths when it runs
    from webmcp_lint.extract import all_extractors
    from webmcp_lint.rules import all_rules

    all_rules()
    all_extractors()


def run_check_command(options: dict) -> int:
    """``run_check`` with the options the command line gave, ending as click's standalone mode ends a command:
    a CommandError's line and exit 2, "Aborted!" and exit 1 on Ctrl-C, a quiet exit 1 when stdout's reader
    went away (``| head``)."""
    try:
        return run_check(**options)
    except CommandError as error:
        error.show()
        return error.exit_code
    except (KeyboardInterrupt, EOFError):
        echo("\nAborted!", err=True)
        return EXIT_FINDINGS
    except BrokenPipeError:
        _discard_standard_output()
        return EXIT_FINDINGS


def _discard_standard_output() -> None:
    """What is still buffered for standard output goes nowhere (writing it at the exit would fail again)."""
    os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())

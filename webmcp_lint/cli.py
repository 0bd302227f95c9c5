"""Command line: ``webmcp-lint check|rules|rule|tools``, in Ruff's and ESLint's conventions.

Exit codes: 0 clean, 1 findings at or above ``--fail-on``, 2 usage, config
or internal error (one line, no traceback unless ``--verbose``).
"""

from __future__ import annotations

import contextlib
import os
import shutil
import sys
from pathlib import Path
from typing import Iterator

import click

from webmcp_lint import __version__
from webmcp_lint.baseline import BaselineError, new_findings, write_baseline
from webmcp_lint.cache import DEFAULT_CACHE_DIR
from webmcp_lint.commands.tools import FORMATS as TOOLS_FORMATS, drift, render as render_surface
from webmcp_lint.config import ConfigError, RuleLayer, run_settings
from webmcp_lint.diagnostics import Severity
from webmcp_lint.engine import LintResult, Notice, Settings, lint_paths, lint_sources, read_paths, source_from_bytes
from webmcp_lint.fixes import FixRun, describe_fixes, fix_sources, unified_diff, write_fixed
from webmcp_lint.formats import RenderOptions, available_formats, render
from webmcp_lint.pages import load_page
from webmcp_lint.rules import all_rules, find_rule
from webmcp_lint.selection import SelectorError, split_selectors
from webmcp_lint.source import SourceFile
from webmcp_lint.surface import DEFAULT_FAIL_LEVEL, LEVELS, ManifestError, build_manifest, linted_root, load_manifest

EXIT_CLEAN, EXIT_FINDINGS, EXIT_ERROR = 0, 1, 2


class UsageFailure(click.ClickException):
    """A usage, config or internal error: exit 2 with one line."""

    exit_code = EXIT_ERROR

    def show(self, file=None) -> None:
        click.echo(f"webmcp-lint: error: {self.format_message()}", err=True)


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, "--version", prog_name="webmcp-lint", message="%(prog)s %(version)s")
def main() -> None:
    """Static analysis for WebMCP tool definitions in JavaScript and TypeScript."""


@contextlib.contextmanager
def one_line_errors(verbose: bool) -> Iterator[None]:
    """Exit 2 with one line for an unexpected error, never a traceback (unless --verbose)."""
    try:
        yield
    except click.ClickException:
        raise
    except Exception as error:  # noqa: BLE001 - the promise is one line, never a traceback
        if verbose:
            raise
        raise UsageFailure(f"internal error: {type(error).__name__}: {error}") from None


def require_existing_paths(result: LintResult) -> None:
    missing = [notice.path for notice in result.notices if notice.message == "no such file or directory"]
    if missing:
        raise UsageFailure(f"no such file or directory: {', '.join(missing)}")


def use_color(no_color: bool, output_file: str | None) -> bool:
    if no_color or output_file or os.environ.get("NO_COLOR"):
        return False
    if os.environ.get("FORCE_COLOR"):
        return True
    return sys.stdout.isatty()


def exit_code(result: LintResult, fail_on: Severity, exit_zero: bool) -> int:
    if result.internal_errors:
        return EXIT_ERROR
    if exit_zero:
        return EXIT_CLEAN
    failing = any(diagnostic.severity.rank >= fail_on.rank for diagnostic in result.diagnostics)
    return EXIT_FINDINGS if failing else EXIT_CLEAN


def _stdin_sources(stdin_filename: str | None) -> tuple[list[SourceFile], LintResult]:
    name = stdin_filename or "stdin.js"
    result = LintResult()
    source = source_from_bytes(Path(name), name, sys.stdin.buffer.read(), result, explicit=True)
    return [source] if source is not None else [], result


def _stdin_result(stdin_filename: str | None, settings: Settings) -> LintResult:
    sources, result = _stdin_sources(stdin_filename)
    return lint_sources(sources, settings, result)


def _fix_run(paths: list[str], stdin_filename: str | None, settings: Settings, unsafe: bool) -> FixRun:
    """Fix in memory: the files named (or stdin), re-linted until stable; nothing written yet."""
    sources, base = _stdin_sources(stdin_filename) if paths == ["-"] else read_paths(paths, settings)
    return fix_sources(sources, settings, unsafe, base)


def _report_fixes(run: FixRun, *, diff: bool, show_fixes: bool, from_stdin: bool) -> bool:
    """Print the diff, or write the fixed files (stdout for stdin); say what was not applied. True if anything changed."""
    for rejection in run.rejected:
        diagnostic = rejection.diagnostic
        line, column = diagnostic.start_position()
        click.echo(f"webmcp-lint: notice: {diagnostic.path}:{line}:{column}: {diagnostic.code} fix {rejection.reason}",
                   err=True)
    changed = run.changed
    if diff:
        for original, fixed in changed:
            click.echo(unified_diff(original, fixed), nl=False)
        count = len(run.applied)
        click.echo(f"Would fix {count} problem{'s' if count != 1 else ''} in {len(changed)} "
                   f"file{'s' if len(changed) != 1 else ''}.", err=True)
        return bool(changed)
    for original, fixed in changed:
        if from_stdin:
            continue
        problem = write_fixed(original, fixed)
        if problem:  # reported with the other notices; an error, so the exit code is 2
            run.result.notices.append(Notice(original.display_path, problem, internal_error=True))
    if from_stdin:
        for source in run.originals.values():
            fixed = run.fixed.get(source.display_path, source)
            sys.stdout.buffer.write(source.encode_back(fixed.text))
            sys.stdout.flush()
    if show_fixes:
        click.echo(describe_fixes(run.applied), nl=False, err=from_stdin)
    return bool(changed)


@main.command()
@click.argument("paths", nargs=-1, type=click.Path())
@click.option("--format", "output_format", default="text", show_default=True,
              type=click.Choice(available_formats()), help="Output format.")
@click.option("-o", "--output-file", type=click.Path(dir_okay=False), help="Write the report to a file.")
@click.option("--select", multiple=True, help="Rules to enable: codes, prefixes (WM4), slugs or ALL.")
@click.option("--extend-select", multiple=True, help="Rules to enable on top of --select.")
@click.option("--ignore", multiple=True, help="Rules to disable.")
@click.option("--fail-on", type=click.Choice(["error", "warning", "info"]),
              help="Lowest severity that makes the exit code 1.  [default: the config's fail-on, else warning]")
@click.option("--exit-zero", is_flag=True, help="Exit 0 even when problems are found.")
@click.option("--statistics", is_flag=True, help="Count findings per rule.")
@click.option("-q", "--quiet", is_flag=True, help="Print findings only, no summary when clean.")
@click.option("--no-color", is_flag=True, help="Plain output even on a terminal.")
@click.option("--stdin-filename", help="File name for code read from stdin (-).")
@click.option("-v", "--verbose", is_flag=True, help="Tracebacks for internal errors.")
@click.option("--fix", is_flag=True, help="Apply safe fixes, then report what is left.")
@click.option("--unsafe-fixes", is_flag=True, help="Also apply (with --fix) and mark fixes that may change behaviour.")
@click.option("--diff", "show_diff", is_flag=True, help="Print the fixes as a unified diff; write nothing.")
@click.option("--show-fixes", is_flag=True, help="List what --fix fixed.")
@click.option("--config", "config_file", type=click.Path(exists=True, dir_okay=False),
              help="Use this config file instead of searching for one.")
@click.option("--isolated", is_flag=True, help="Ignore every config file.")
@click.option("--force-exclude", is_flag=True, help="Apply excludes to paths named on the command line too (pre-commit).")
@click.option("--baseline", "baseline_file", type=click.Path(dir_okay=False),
              help="Report only findings not recorded in this baseline.")
@click.option("--write-baseline", "write_baseline_file", type=click.Path(dir_okay=False),
              help="Record the current findings in this file and exit 0.")
@click.option("--sarif-category", help="SARIF automationDetails.id: tells apart several uploads to code scanning.")
@click.option("-j", "--jobs", type=click.IntRange(min=1),
              help="Processes that lint files in parallel (1: none).  [default: the number of CPUs]")
@click.option("--cache-dir", type=click.Path(file_okay=False),
              help=f"Where to keep the results of unchanged files.  [default: {DEFAULT_CACHE_DIR}]")
@click.option("--no-cache", is_flag=True, help="Neither read nor write the cache.")
def check(paths, output_format, output_file, select, extend_select, ignore, fail_on, exit_zero,
          statistics, quiet, no_color, stdin_filename, verbose, fix, unsafe_fixes, show_diff, show_fixes,
          config_file, isolated, force_exclude, baseline_file, write_baseline_file, sarif_category,
          jobs, cache_dir, no_cache) -> None:
    """Lint files and directories (default: the current directory; - reads stdin)."""
    paths = list(paths) or ["."]
    if config_file and isolated:
        raise UsageFailure("--config and --isolated cannot be combined")
    command_line = RuleLayer(split_selectors(select) or None, split_selectors(extend_select), split_selectors(ignore))
    try:
        settings, config = run_settings([stdin_filename or "."] if paths == ["-"] else paths, config_file=config_file,
                                        isolated=isolated, command_line=command_line, verbose=verbose,
                                        force_exclude=force_exclude)
    except (ConfigError, SelectorError) as error:
        raise UsageFailure(str(error)) from None
    fail_on = fail_on or (config.fail_on.value if config.fail_on else "warning")
    fix_run = None
    with one_line_errors(verbose):
        if fix or show_diff:
            fix_run = _fix_run(paths, stdin_filename, settings, unsafe_fixes)
            result = fix_run.result
        elif paths == ["-"]:
            result = _stdin_result(stdin_filename, settings)
        else:
            result = lint_paths(paths, settings, jobs=jobs or os.cpu_count() or 1,
                                cache_dir=None if no_cache else Path(cache_dir or DEFAULT_CACHE_DIR))
    require_existing_paths(result)
    if write_baseline_file:
        count = write_baseline(Path(write_baseline_file), result.diagnostics)
        click.echo(f"webmcp-lint: wrote {count} finding{'s' if count != 1 else ''} to {write_baseline_file}", err=True)
        sys.exit(EXIT_ERROR if result.internal_errors else EXIT_CLEAN)
    if baseline_file:
        try:
            result.diagnostics = new_findings(Path(baseline_file), result.diagnostics)
        except BaselineError as error:
            raise UsageFailure(str(error)) from None
    if fix_run is not None:
        changed = _report_fixes(fix_run, diff=show_diff, show_fixes=show_fixes, from_stdin=paths == ["-"])
        if show_diff:
            sys.exit(EXIT_FINDINGS if changed else EXIT_CLEAN)
    fix_summary = (("unsafe_fixes", unsafe_fixes), ("fixed", len(fix_run.applied) if fix_run else 0))
    options = RenderOptions(color=use_color(no_color, output_file), statistics=statistics, quiet=quiet,
                            extra=fix_summary + (("settings", settings), ("sarif_category", sarif_category)))
    report = render(output_format, result, options)
    if fix_run is not None and paths == ["-"] and not output_file:
        click.echo(report, nl=False, err=True)  # stdout holds the fixed code
    elif output_file:
        Path(output_file).write_text(report, encoding="utf-8")
    else:
        click.echo(report, nl=False)
    if output_format not in ("text", "concise") and not quiet:
        for skip in result.skipped:
            click.echo(f"webmcp-lint: notice: {skip.path}: skipped ({skip.reason})", err=True)
    for notice in result.notices:
        click.echo(f"webmcp-lint: {'error' if notice.internal_error else 'notice'}: {notice.path}: {notice.message}", err=True)
    sys.exit(exit_code(result, Severity(fail_on), exit_zero))


@main.command("rules")
@click.option("--format", "output_format", type=click.Choice(["text", "json"]), default="text", show_default=True)
def list_rules(output_format) -> None:
    """List every rule: code, slug, severity, fix, summary."""
    rows = []
    for rule in all_rules():
        page = load_page(rule.code)
        rows.append((rule.code, rule.slug, rule.severity.value, rule.fix, page.summary if page else ""))
    if output_format == "json":
        import json

        keys = ("code", "slug", "severity", "fix", "summary")
        click.echo(json.dumps([dict(zip(keys, row)) for row in rows], indent=2))
        return
    from rich.console import Console
    from rich.table import Table

    table = Table("code", "slug", "severity", "fix", "summary", box=None, pad_edge=False)
    for row in rows:
        table.add_row(*row)
    Console(no_color=not sys.stdout.isatty(), width=200 if not sys.stdout.isatty() else None).print(table)


@main.command("server")
@click.option("--stdio", is_flag=True, help="Accepted for editors that pass it; stdio is the only transport.")
def language_server(stdio) -> None:
    """Run the language server (LSP over stdin/stdout) for editors."""
    from webmcp_lint.server import serve  # pygls loads only for the server

    serve()


@main.command("rule")
@click.argument("code_or_slug")
def show_rule(code_or_slug) -> None:
    """Print a rule's page (what it flags, why, examples, fix)."""
    rule = find_rule(code_or_slug)
    if rule is None:
        raise UsageFailure(f"unknown rule '{code_or_slug}' (see `webmcp-lint rules`)")
    page = load_page(rule.code)
    if page is None:
        raise UsageFailure(f"no page for {rule.code}")
    click.echo(page.text, nl=not page.text.endswith("\n"))


@main.command("tools")
@click.argument("paths", nargs=-1, type=click.Path())
@click.option("--format", "output_format", default="table", show_default=True,
              type=click.Choice(TOOLS_FORMATS), help="table, a JSON manifest, or a Markdown page.")
@click.option("-o", "--output-file", type=click.Path(dir_okay=False), help="Write the listing to a file.")
@click.option("--against", "manifest_file", type=click.Path(exists=True, dir_okay=False),
              help="Instead of the listing (unless -o), report drift from this committed JSON manifest, one line "
                   "per change.")
@click.option("--fail-on-change", type=click.Choice(LEVELS), default=DEFAULT_FAIL_LEVEL, show_default=True,
              help="With --against: exit 1 on changes at this level or above (added > removed > exposure > any).")
@click.option("--config", "config_file", type=click.Path(exists=True, dir_okay=False),
              help="Use this config file instead of searching for one.")
@click.option("--isolated", is_flag=True, help="Ignore every config file.")
@click.option("--no-color", is_flag=True, help="Plain output even on a terminal.")
@click.option("-v", "--verbose", is_flag=True, help="Tracebacks for internal errors.")
def list_tools(paths, output_format, output_file, manifest_file, fail_on_change, config_file, isolated, no_color,
               verbose) -> None:
    """List every WebMCP tool the code defines (the agent surface), or its drift from a manifest."""
    paths = list(paths) or ["."]
    if config_file and isolated:
        raise UsageFailure("--config and --isolated cannot be combined")
    try:
        settings, _ = run_settings(paths, config_file=config_file, isolated=isolated, command_line=RuleLayer(),
                                   verbose=verbose)
        committed = load_manifest(Path(manifest_file).read_text(encoding="utf-8")) if manifest_file else None
    except (ConfigError, ManifestError, OSError, UnicodeDecodeError) as error:
        raise UsageFailure(f"{manifest_file}: {error}" if isinstance(error, ManifestError) else str(error)) from None
    with one_line_errors(verbose):
        result = lint_paths(paths, settings)
        manifest = build_manifest(result, linted_root(paths))
    require_existing_paths(result)
    for notice in result.notices:
        click.echo(f"webmcp-lint: {'error' if notice.internal_error else 'notice'}: {notice.path}: {notice.message}", err=True)
    width = shutil.get_terminal_size().columns if sys.stdout.isatty() and not output_file else None
    listing = render_surface(manifest, output_format, color=use_color(no_color, output_file), width=width)
    if output_file:
        Path(output_file).write_text(listing, encoding="utf-8")
    elif committed is None:
        click.echo(listing, nl=False)
    if result.internal_errors:
        sys.exit(EXIT_ERROR)
    if committed is not None:
        report = drift(committed, manifest, fail_on_change)
        click.echo(report.text(manifest_file), nl=False)
        sys.exit(EXIT_FINDINGS if report.failing else EXIT_CLEAN)
    sys.exit(EXIT_CLEAN)


if __name__ == "__main__":
    main()

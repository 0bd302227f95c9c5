"""``webmcp-lint check``: its options. check_run.py does the work, so the process that parses the
command line (program.py) needs nothing but click and this module.
"""

from __future__ import annotations

import click

from webmcp_lint import OWN_CACHE_DIR
from webmcp_lint.formats import available_formats


@click.command()
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
              help=f"Where to keep the results of unchanged files.  [default: {OWN_CACHE_DIR}]")
@click.option("--no-cache", is_flag=True, help="Neither read nor write the cache.")
@click.pass_context
def check(context: click.Context, **options) -> None:
    """Lint files and directories (default: the current directory; - reads stdin)."""
    if context.obj is not None:  # the program's command-line process hands the options over (program.py) with
        context.obj(options)  # marshal: each value must stay a str, int, bool, None or a tuple of them
        return
    from webmcp_lint.commands.check_run import run_check

    context.exit(run_check(**options))

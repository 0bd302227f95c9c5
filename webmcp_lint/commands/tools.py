"""``webmcp-lint tools``: the agent surface as a table, a JSON manifest or a Markdown page, and its drift.

Everything shown comes from the manifest (webmcp_lint/surface.py), so the
three formats always agree and a committed manifest compares with the
current code field by field.
"""

from __future__ import annotations

import io
import json
import shutil
import sys
from pathlib import Path

import click

from webmcp_lint.commands import (EXIT_CLEAN, EXIT_ERROR, EXIT_FINDINGS, CommandError, echo, echo_notices,
                                  one_line_errors, require_existing_paths, use_color, without_cycle_collection,
                                  write_output)
from webmcp_lint.config import ConfigError, RuleLayer, run_settings
from webmcp_lint.engine import lint_paths
from webmcp_lint.record import Record
from webmcp_lint.surface import (DEFAULT_FAIL_LEVEL, LEVELS, Change, ManifestError, build_manifest, compare,
                                 linted_root, load_manifest, manifest_json)

FORMATS = ("table", "json", "markdown")
DEFAULT_WIDTH = 160  # the table's width when not printed to a terminal
BOUND_KEYWORDS = (("minimum", "min"), ("exclusiveMinimum", "min excl."), ("maximum", "max"),
                  ("exclusiveMaximum", "max excl."), ("minLength", "min length"), ("maxLength", "max length"),
                  ("minItems", "min items"), ("maxItems", "max items"))


def render(manifest: dict, output_format: str, *, color: bool = False, width: int | None = None) -> str:
    if output_format == "json":
        return manifest_json(manifest)
    if output_format == "markdown":
        return render_markdown(manifest)
    return render_table(manifest, color=color, width=width)


# --- shared wording -----------------------------------------------------------------------------

def _value(value) -> str:
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False, sort_keys=True)


def parameter_type(parameter: dict) -> str:
    kind = parameter.get("type")
    if kind is None:
        return "any"
    text = " | ".join(_value(item) for item in kind) if isinstance(kind, list) else _value(kind)
    if parameter.get("format"):
        text += f" ({parameter['format']})"
    return text


def parameter_details(parameter: dict) -> list[str]:
    """Enum, default and bounds of a parameter, each as a short phrase."""
    details = []
    if "enum" in parameter:
        values = parameter["enum"]
        details.append("one of " + (", ".join(_value(item) for item in values) if isinstance(values, list)
                                    else _value(values)))
    if "const" in parameter:
        details.append(f"always {_value(parameter['const'])}")
    if "default" in parameter:
        details.append(f"default {_value(parameter['default'])}")
    details.extend(f"{label} {_value(parameter[keyword])}" for keyword, label in BOUND_KEYWORDS if keyword in parameter)
    if "pattern" in parameter:
        details.append(f"pattern {_value(parameter['pattern'])}")
    return details


def source_label(tool: dict, separator: str = ", ") -> str:
    source = tool["source"]
    framework = source.get("framework")
    kind = source["kind"] + (f" ({framework})" if framework and not source["kind"].startswith(framework) else "")
    return f"{kind}{separator}{source['path']}:{source['line']}"


def signal_label(registration: dict) -> str:
    if not registration.get("registered"):
        return "not registered"
    signal = registration.get("signal")
    if signal is None:
        return "while the form is in the page"
    return {True: "a signal unregisters it", False: "no signal: stays until the page unloads"}.get(
        signal, "signal not known statically")


def annotation_label(tool: dict, separator: str = ", ") -> str:
    """The annotations set or true; the others are false by default."""
    declared = set(tool.get("annotations_declared") or ())
    shown = [f"{key}: {_value(value)}" for key, value in sorted(tool["annotations"].items())
             if key in declared or value is not False]
    if len(shown) < len(tool["annotations"]):
        shown.append("others false (default)" if shown else "all false (default)")
    return separator.join(shown)


def _parameters(tool: dict) -> list[dict] | None:
    parameters = tool.get("parameters")
    return parameters if isinstance(parameters, list) else None


# --- table ------------------------------------------------------------------------------------

def render_table(manifest: dict, *, color: bool, width: int | None) -> str:
    from rich.console import Console
    from rich.table import Table
    from rich.text import Text

    tools = manifest["tools"]
    table = Table("tool", "source", "parameters", "annotations", "registration", "flags", "findings",
                  show_lines=True, pad_edge=False)
    table.columns[1].overflow = "fold"
    for tool in tools:
        heading = Text(str(tool["name"]), style="bold")
        if tool.get("title"):
            heading.append(f"\n{tool['title']}", style="italic")
        if tool.get("description"):
            heading.append(f"\n{tool['description']}", style="dim")
        parameters = _parameters(tool)
        if parameters is None:
            parameter_text = "not known statically"
        else:
            parameter_text = "\n".join(
                f"{parameter['name']}{'*' if parameter.get('required') else ''}: {parameter_type(parameter)}"
                + "".join(f"; {detail}" for detail in parameter_details(parameter))
                for parameter in parameters) or "none"
        registration = tool["registration"]
        exposure = "".join(f"\nexposedTo {origin}" for origin in registration.get("exposed_to") or ())
        table.add_row(heading, source_label(tool, "\n"), parameter_text, annotation_label(tool, "\n"),
                      signal_label(registration) + exposure, "\n".join(tool["flags"]) or "-", str(tool["findings"]))
    buffer = io.StringIO()
    console = Console(file=buffer, force_terminal=color, no_color=not color, width=width or DEFAULT_WIDTH,
                      highlight=False)
    if tools:
        console.print(table)
    console.print(_summary(tools))
    return buffer.getvalue()


def _summary(tools: list[dict]) -> str:
    if not tools:
        return "No WebMCP tools found."
    counts = {flag: sum(1 for tool in tools if flag in tool["flags"])
              for flag in ("consequential", "cross-origin", "untrusted-content", "auto-submit")}
    shown = ", ".join(f"{count} {flag}" for flag, count in counts.items() if count)
    noun = "tool" if len(tools) == 1 else "tools"
    return f"{len(tools)} {noun}" + (f" ({shown})" if shown else "") + "."


# --- markdown ---------------------------------------------------------------------------------

def _cell(text: str) -> str:
    return " ".join(str(text).split()).replace("|", "\\|")


def render_markdown(manifest: dict) -> str:
    """A page a team can commit as the documentation of its agent surface."""
    tools = manifest["tools"]
    lines = ["# Agent surface", "", f"Tools this codebase exposes to agents, as found by webmcp-lint. {_summary(tools)}",
             ""]
    if tools:
        lines += ["| Tool | Source | Flags | Findings |", "|---|---|---|---|"]
        lines += [f"| `{_cell(tool['name'])}` | {_cell(source_label(tool))} | {_cell(', '.join(tool['flags']) or '-')} "
                  f"| {tool['findings']} |" for tool in tools]
    for tool in tools:
        lines += ["", f"## `{_cell(tool['name'])}`", ""]
        if tool.get("title"):
            lines += [f"**{_cell(tool['title'])}**", ""]
        if tool.get("description"):
            lines += [f"> {_cell(tool['description'])}", ""]
        registration = tool["registration"]
        origins = ", ".join(f"`{origin}`" for origin in registration.get("exposed_to") or ()) or "this origin only"
        lines += [
            f"- Source: {_cell(source_label(tool))}",
            f"- Registration: {signal_label(registration)}; exposed to {origins}",
            f"- Annotations: {annotation_label(tool)}",
            f"- Flags: {', '.join(tool['flags']) or 'none'}",
            f"- Lint findings: {tool['findings']}",
        ]
        parameters = _parameters(tool)
        if parameters is None:
            lines += ["", "Parameters: not known statically."]
        elif parameters:
            lines += ["", "| Parameter | Type | Required | Description | Constraints |", "|---|---|---|---|---|"]
            lines += [f"| `{_cell(parameter['name'])}` | {_cell(parameter_type(parameter))} | "
                      f"{'yes' if parameter.get('required') else 'no'} | {_cell(_value(parameter.get('description') or ''))} | "
                      f"{_cell('; '.join(parameter_details(parameter)))} |" for parameter in parameters]
        else:
            lines += ["", "Parameters: none."]
    return "\n".join(lines) + "\n"


# --- drift ------------------------------------------------------------------------------------

class DriftReport(Record):
    __slots__ = ("changes", "threshold")
    _compared = __slots__

    def __init__(self, changes: list[Change], threshold: str) -> None:
        self.changes = changes
        self.threshold = threshold

    @property
    def failing(self) -> list[Change]:
        return [change for change in self.changes if change.fails(self.threshold)]

    def text(self, against: str) -> str:
        if not self.changes:
            return f"No drift from {against}.\n"
        lines = [change.line() for change in self.changes]
        failing = len(self.failing)
        noun = "change" if len(self.changes) == 1 else "changes"
        lines.append(f"{len(self.changes)} {noun} from {against}; {failing} at or above --fail-on-change "
                     f"{self.threshold}.")
        return "\n".join(lines) + "\n"


def drift(committed: dict, current: dict, threshold: str) -> DriftReport:
    return DriftReport(compare(committed, current), threshold)


# --- the command ------------------------------------------------------------------------------

@click.command("tools")
@click.argument("paths", nargs=-1, type=click.Path())
@click.option("--format", "output_format", default="table", show_default=True,
              type=click.Choice(FORMATS), help="table, a JSON manifest, or a Markdown page.")
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
@without_cycle_collection()
def list_tools(paths, output_format, output_file, manifest_file, fail_on_change, config_file, isolated, no_color,
               verbose) -> None:
    """List every WebMCP tool the code defines (the agent surface), or its drift from a manifest."""
    paths = list(paths) or ["."]
    if config_file and isolated:
        raise CommandError("--config and --isolated cannot be combined")
    try:
        settings, _ = run_settings(paths, config_file=config_file, isolated=isolated, command_line=RuleLayer(),
                                   verbose=verbose)
        committed = load_manifest(Path(manifest_file).read_text(encoding="utf-8")) if manifest_file else None
    except (ConfigError, ManifestError, OSError, UnicodeDecodeError) as error:
        raise CommandError(f"{manifest_file}: {error}" if isinstance(error, ManifestError) else str(error)) from None
    with one_line_errors(verbose):
        result = lint_paths(paths, settings)
        manifest = build_manifest(result, linted_root(paths))
    require_existing_paths(result)
    echo_notices(result)
    width = shutil.get_terminal_size().columns if sys.stdout.isatty() and not output_file else None
    color = use_color(no_color, output_file)
    listing = render(manifest, output_format, color=color, width=width)
    if output_file:
        write_output(output_file, listing)
    elif committed is None:
        echo(listing, nl=False, color=color or None)  # colour forced (FORCE_COLOR) stays on a pipe, as in check
    if result.internal_errors:
        sys.exit(EXIT_ERROR)
    if committed is not None:
        report = drift(committed, manifest, fail_on_change)
        click.echo(report.text(manifest_file), nl=False)
        sys.exit(EXIT_FINDINGS if report.failing else EXIT_CLEAN)
    sys.exit(EXIT_CLEAN)

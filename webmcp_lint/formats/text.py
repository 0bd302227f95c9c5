"""``--format text`` (code frames, colour on a TTY) and ``--format concise`` (one line each).

Lines are made of (text, style) pieces. Rich writes them in colour; without
colour, a line is its texts joined, which is what Rich writes for it too,
without importing Rich (a third of the start of a run) or printing each line
through it (a millisecond per finding). A line holding a backslash or a
control character still goes through Rich, which has rules for them.
"""

from __future__ import annotations

import io
import re
from collections import Counter
from typing import TYPE_CHECKING, Optional

from webmcp_lint.diagnostics import Diagnostic, Severity
from webmcp_lint.engine import LintResult
from webmcp_lint.fixes import is_applicable
from webmcp_lint.formats import RenderOptions, output_format

if TYPE_CHECKING:
    from rich.console import Console

SEVERITY_STYLE = {Severity.ERROR: "bold red", Severity.WARNING: "yellow", Severity.INFO: "cyan"}
Piece = tuple[str, Optional[str]]  # some text of a line and its Rich style (None: plain)
_ONLY_RICH_WRITES_EXACTLY = re.compile(r"[\x00-\x1f\x7f\\]")  # control characters, backslashes


class _Writer:
    """Lines of pieces, written as Rich's console would write them."""

    def __init__(self, options: RenderOptions) -> None:
        self.color = options.color
        self.buffer = io.StringIO()
        self._console: Console | None = None

    def line(self, *pieces: Piece) -> None:
        plain = "".join(text for text, _ in pieces)
        if self.color or _ONLY_RICH_WRITES_EXACTLY.search(plain):
            self.console.print(_markup(pieces))
        else:
            self.buffer.write(plain + "\n")

    @property
    def console(self) -> Console:
        if self._console is None:
            from rich.console import Console

            self._console = Console(file=self.buffer, force_terminal=self.color, no_color=not self.color,
                                    highlight=False, width=10_000, soft_wrap=True, emoji=False)
        return self._console


def _markup(pieces: tuple[Piece, ...]) -> str:
    from rich.markup import escape

    return "".join(f"[{style}]{escape(text)}[/{style}]" if style else escape(text) for text, style in pieces)


def _location(diagnostic: Diagnostic) -> str:
    line, column = diagnostic.start_position()
    return f"{diagnostic.path}:{line}:{column}"


def _head(diagnostic: Diagnostic, options: RenderOptions) -> tuple[Piece, ...]:
    style = SEVERITY_STYLE[diagnostic.severity]
    marker = " [*]" if is_applicable(diagnostic.fix, options.get("unsafe_fixes", False)) else ""
    return ((_location(diagnostic), "bold"), (": ", None), (diagnostic.severity.value, style), (" ", None),
            (diagnostic.code, "bold"), (f"{marker} ", None), (diagnostic.message, None), (" ", None),
            (f"({diagnostic.slug})", "dim"))


def _frame(diagnostic: Diagnostic) -> list[tuple[Piece, ...]]:
    """The offending line(s) with the range underlined (at most three lines)."""
    source = diagnostic.source
    first = source.line_index(diagnostic.start)
    last = source.line_index(max(diagnostic.start, diagnostic.end - 1))
    lines = []
    width = len(str(last + 1))
    for index in range(first, min(last, first + 2) + 1):
        text = source.line_text(index).expandtabs(1)
        line_start = source.line_starts[index]
        # Continuation lines of a multi-line range are underlined from their first non-blank character.
        start_col = len(source.slice(line_start, diagnostic.start)) if index == first else len(text) - len(text.lstrip())
        end_col = len(source.slice(line_start, diagnostic.end)) if index == last else len(text)
        end_col = max(end_col, start_col + 1)
        shown = text if len(text) <= 160 else text[:160] + "…"
        lines.append((("  ", None), (f"{index + 1:>{width}} |", "dim"), (" ", None), (shown, None)))
        if start_col < 160:
            underline = " " * start_col + "^" * max(1, min(end_col, 160) - start_col)
            lines.append((("  ", None), (f"{'':>{width}} |", "dim"), (" ", None),
                          (underline, SEVERITY_STYLE[diagnostic.severity])))
    return lines


def summary_line(result: LintResult) -> str:
    total = len(result.diagnostics)
    files = len({diagnostic.path for diagnostic in result.diagnostics})
    if total == 0:
        return f"No problems found in {result.files_checked} file{'s' if result.files_checked != 1 else ''}."
    parts = (f"{result.count(Severity.ERROR)} error{'s' if result.count(Severity.ERROR) != 1 else ''}, "
             f"{result.count(Severity.WARNING)} warning{'s' if result.count(Severity.WARNING) != 1 else ''}, "
             f"{result.count(Severity.INFO)} info")
    return f"Found {total} problem{'s' if total != 1 else ''} ({parts}) in {files} file{'s' if files != 1 else ''}."


def fixes_available_line(result: LintResult, unsafe_fixes: bool) -> str:
    """How many findings --fix would fix, and how many more --unsafe-fixes would."""
    fixable = sum(1 for diagnostic in result.diagnostics if is_applicable(diagnostic.fix, unsafe_fixes))
    hidden = sum(1 for diagnostic in result.diagnostics
                 if diagnostic.fix is not None and not is_applicable(diagnostic.fix, unsafe_fixes))
    option = "--fix --unsafe-fixes" if unsafe_fixes else "--fix"
    more = f"{hidden} hidden fix{'es' if hidden != 1 else ''} can be enabled with --unsafe-fixes" if hidden else ""
    if fixable:
        return f"[*] {fixable} fixable with {option}" + (f" ({more})." if more else ".")
    return f"No fixes available ({more})." if more else ""


def _footer(result: LintResult, options: RenderOptions, writer: _Writer) -> None:
    if options.statistics:
        counts = Counter((diagnostic.code, diagnostic.slug) for diagnostic in result.diagnostics)
        for (code, slug), count in sorted(counts.items(), key=lambda item: (-item[1], item[0])):
            writer.line((f"{count:>5}  {code}  {slug}", None))
    if not options.quiet or result.diagnostics:
        writer.line((summary_line(result), None))
        fixed = options.get("fixed", 0)
        if fixed:
            writer.line((f"Fixed {fixed} problem{'s' if fixed != 1 else ''}.", None))
        line = fixes_available_line(result, options.get("unsafe_fixes", False))
        if line:
            writer.line((line, "dim"))
    if result.skipped or result.skipped_dirs:
        reasons = Counter(skip.reason for skip in result.skipped)
        detail = ", ".join(f"{count} {reason}" for reason, count in sorted(reasons.items()))
        line = f"Skipped {len(result.skipped)} file{'s' if len(result.skipped) != 1 else ''}"
        line += f" ({detail})" if detail else ""
        if result.skipped_dirs:
            line += f" and {len(result.skipped_dirs)} director{'ies' if len(result.skipped_dirs) != 1 else 'y'}"
        writer.line((f"{line}.", "dim"))
        if not options.quiet:
            for skip in [*result.skipped, *result.unreadable_directories]:
                writer.line((f"  skipped {skip.path}: {skip.reason}", "dim"))


@output_format("text")
def render_text(result: LintResult, options: RenderOptions) -> str:
    writer = _Writer(options)
    for diagnostic in result.diagnostics:
        writer.line(*_head(diagnostic, options))
        if options.show_source:
            for line in _frame(diagnostic):
                writer.line(*line)
            writer.line()
    _footer(result, options, writer)
    return writer.buffer.getvalue()


@output_format("concise")
def render_concise(result: LintResult, options: RenderOptions) -> str:
    writer = _Writer(options)
    for diagnostic in result.diagnostics:
        writer.line(*_head(diagnostic, options))
    _footer(result, options, writer)
    return writer.buffer.getvalue()

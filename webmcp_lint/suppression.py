"""Suppression comments: parsing ``webmcp-lint-disable...`` directives and matching findings to them.

Directives, in ``//``, ``/* */`` or HTML ``<!-- -->`` comments, naming rule
codes, slugs or prefixes (none means every rule), with an optional
``-- reason``:

* ``webmcp-lint-disable-next-line WM401, WM403``: the line after the comment;
* ``webmcp-lint-disable-line WM401``: the comment's own line(s);
* ``webmcp-lint-disable WM4`` ... ``webmcp-lint-enable WM4``: from the comment
  to the first later ``enable`` naming the rule (or naming none), else the end
  of the file; as the file's first comment it covers the whole file.

Matching runs after every rule has reported and before WM003
(unused-suppression), which reads what matching recorded here.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Iterable

from tree_sitter import Node

from webmcp_lint.diagnostics import Diagnostic
from webmcp_lint.discovery import explicitly_excluded
from webmcp_lint.model import FileAnalysis, Project, Script
from webmcp_lint.record import Record
from webmcp_lint.rules import all_rules
from webmcp_lint.selection import SelectorError, expand
from webmcp_lint.source import SourceFile
from webmcp_lint.suggest import closest

if TYPE_CHECKING:
    from webmcp_lint.engine import Settings
    from webmcp_lint.rules import Rule

MARKER = b"webmcp-lint-"
UNUSED_SUPPRESSION = "WM003"
DISABLE_NEXT_LINE, DISABLE_LINE, DISABLE, ENABLE = "disable-next-line", "disable-line", "disable", "enable"
DIRECTIVE_KINDS = (DISABLE_NEXT_LINE, DISABLE_LINE, DISABLE, ENABLE)
_DIRECTIVE = re.compile(r"webmcp-lint-(?P<kind>[A-Za-z]+(?:-[A-Za-z]+)*)(?P<rest>.*)", re.DOTALL)
# ``on=`` of rules that read the outcome of matching: ``check(analysis, enabled_codes)``, run after it.
AFTER_SUPPRESSIONS = "after-suppressions"
_COMMENT_DELIMITERS = (("<!--", "-->"), ("/*", "*/"), ("//", ""))


class Selector(Record):
    """One rule reference in a directive; ``codes`` is empty when it names no rule."""

    __slots__ = ("text", "codes", "suggestion", "used")
    _compared = __slots__

    def __init__(self, text: str, codes: frozenset[str], suggestion: str | None = None, used: bool = False) -> None:
        self.text = text
        self.codes = codes
        self.suggestion = suggestion
        self.used = used


class Directive(Record):
    """One suppression comment and, after matching, what it suppressed."""

    __slots__ = ("kind", "source", "start", "end", "selectors", "file_level", "suppressed")
    _compared = __slots__

    def __init__(self, kind: str, source: SourceFile, start: int, end: int, selectors: list[Selector] | None = None,
                 file_level: bool = False, suppressed: int = 0) -> None:
        self.kind = kind  # one of DIRECTIVE_KINDS, or the misspelled word
        self.source = source
        self.start = start
        self.end = end
        self.selectors = [] if selectors is None else selectors
        self.file_level = file_level
        self.suppressed = suppressed

    @property
    def known(self) -> bool:
        return self.kind in DIRECTIVE_KINDS

    @property
    def suppresses(self) -> bool:
        return self.kind in (DISABLE_NEXT_LINE, DISABLE_LINE, DISABLE)

    @property
    def all_rules(self) -> bool:
        return not self.selectors

    def names(self, code: str) -> bool:
        return self.all_rules or any(code in selector.codes for selector in self.selectors)

    def lines(self) -> range:
        """0-based lines a line directive covers."""
        first, last = self.source.line_index(self.start), self.source.line_index(max(self.start, self.end - 1))
        return range(last + 1, last + 2) if self.kind == DISABLE_NEXT_LINE else range(first, last + 1)


def parse_directive(text: str, source: SourceFile, start: int, end: int) -> Directive | None:
    """The directive a comment holds, or None when the comment is not one."""
    body = _comment_body(text)
    match = _DIRECTIVE.match(body)
    if match is None:
        return None
    kind = match.group("kind").lower()
    rest = match.group("rest").split("--", 1)[0] if kind in DIRECTIVE_KINDS else ""
    names = [name for name in re.split(r"[\s,]+", rest.strip()) if name]
    return Directive(kind, source, start, end, [_selector(name) for name in names])


def _comment_body(text: str) -> str:
    stripped = text.strip()
    for opening, closing in _COMMENT_DELIMITERS:
        if stripped.startswith(opening):
            stripped = stripped[len(opening):]
            if closing and stripped.endswith(closing):
                stripped = stripped[:-len(closing)]
            break
    return stripped.lstrip("*/! \t\r\n")


def _selector(name: str) -> Selector:
    try:
        return Selector(name, frozenset(rule.code for rule in expand(name)))
    except SelectorError:
        return Selector(name, frozenset(), suggest_rule(name))


def suggest_rule(name: str) -> str | None:
    """The rule code or slug a misspelled selector most likely means (``WM1O2`` is ``WM102``)."""
    rules = all_rules()
    codes = {rule.code for rule in rules}
    digits = name.upper().translate(str.maketrans("OIL", "011"))
    if digits in codes:
        return digits
    return closest(name, [rule.code for rule in rules] + [rule.slug for rule in rules])


def script_directives(script: Script) -> list[Directive]:
    """The directives of a script's comments; a file without the marker has none to look for."""
    if MARKER not in script.source.data:
        return []
    return directives_in_comments(script.of_kind("comment"), script.source)


def directives_in_comments(comments: Iterable[Node], source: SourceFile) -> list[Directive]:
    """Directives among a script's comment nodes (the caller has checked the file holds the marker)."""
    found = []
    for comment in comments:
        if MARKER not in source.data[comment.start_byte:comment.end_byte]:
            continue
        directive = parse_directive(source.slice(comment.start_byte, comment.end_byte), source,
                                    comment.start_byte, comment.end_byte)
        if directive is not None:
            found.append(directive)
    return found


def misspelled_kind(kind: str) -> str | None:
    return closest(kind, DIRECTIVE_KINDS)


# --- matching -------------------------------------------------------------------------------------------


def apply_suppressions(project: Project, settings: "Settings", diagnostics: list[Diagnostic],
                       run_late_rule: Callable[["Rule", str, Callable[[], Iterable]], None]) -> None:
    """Drop (in place) the findings per-file-ignores or a directive suppress, and those in an excluded file the run
    reached only through an import (the excludes say its findings are not wanted), then run the rules reading the
    outcome.

    ``run_late_rule`` is the engine's rule runner: it turns a crash into a
    notice and appends what late rules (WM003) report to ``diagnostics``.
    """
    directives_by_path = {analysis.source.display_path: analysis.suppressions for analysis in project.files}
    excluded_imports = {analysis.source.display_path for analysis in project.files if analysis.imported_only
                        and explicitly_excluded(Path(analysis.source.path), settings.exclusion)}
    for analysis in project.files:
        mark_file_level(analysis)
    ignores = settings.per_file_ignores  # most runs have none, and most files no directive: nothing to ask then
    kept = []
    for diagnostic in diagnostics:
        if ignores and settings.ignored_in_file(diagnostic.code, diagnostic.source):
            continue
        if excluded_imports and diagnostic.source.display_path in excluded_imports:
            continue
        directives = directives_by_path.get(diagnostic.source.display_path)
        if directives and _suppress(directives, diagnostic):
            continue
        kept.append(diagnostic)
    diagnostics[:] = kept
    late_rules = [rule for rule in settings.rules if rule.on == AFTER_SUPPRESSIONS]
    for analysis in project.files:
        if not analysis.suppressions or analysis.imported_only:
            continue
        enabled = frozenset(rule.code for rule in settings.rules
                            if not settings.ignored_in_file(rule.code, analysis.source))
        for rule in late_rules:
            if rule.code in enabled:
                run_late_rule(rule, analysis.source.display_path,
                              lambda rule=rule, analysis=analysis: rule.check(analysis, enabled))


def mark_file_level(analysis: FileAnalysis) -> None:
    """A ``disable`` that is the file's first comment, with no ``enable`` after it, covers the whole file.

    (A component's markup before its script counts too.) With an ``enable``
    it is a block, covering only the code between the two. Directives that
    come without their parse trees (a file linted as a separate unit) keep
    the marks made where the trees were.
    """
    if not analysis.scripts or not analysis.suppressions or any(
            directive.kind == ENABLE for directive in analysis.suppressions):
        return
    firsts = [script.of_kind("comment")[0].start_byte for script in analysis.scripts if script.of_kind("comment")]
    first = min(firsts, default=None)
    for directive in analysis.suppressions:
        directive.file_level = directive.kind == DISABLE and directive.start == first


def _suppress(directives: list[Directive], diagnostic: Diagnostic) -> bool:
    """Whether any directive covers the finding; every covering directive is credited."""
    line = None  # worked out for the first line directive that names the code: most findings meet none
    covered = False
    for index, directive in enumerate(directives):
        if not directive.suppresses or not directive.names(diagnostic.code):
            continue
        if directive.kind == DISABLE:
            hit = _in_block(directives, index, diagnostic)
        else:
            if line is None:
                line = diagnostic.source.line_index(diagnostic.start)
            hit = line in directive.lines()
        if hit:
            covered = True
            directive.suppressed += 1
            for selector in directive.selectors:
                if diagnostic.code in selector.codes:
                    selector.used = True
    return covered


def _in_block(directives: list[Directive], index: int, diagnostic: Diagnostic) -> bool:
    """Inside ``disable`` number ``index``: after it (or anywhere, file-level) and before its ``enable``."""
    directive = directives[index]
    if diagnostic.start < directive.start and not directive.file_level:
        return False
    later_enables = (other for other in directives
                     if other.kind == ENABLE and other.start > directive.start and other.names(diagnostic.code))
    closing = min((other.start for other in later_enables), default=None)
    return closing is None or diagnostic.start < closing

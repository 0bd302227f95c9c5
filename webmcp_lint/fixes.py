"""Applying fixes: byte-range edits, re-linted and repeated until nothing changes.

A fix is a tuple of edits into ``SourceFile.data``. One pass applies, per
file, every applicable fix whose edits overlap no fix already taken (the
others wait for the next pass, which re-lints the edited text and finds them
at their new offsets). A fix that would make a cleanly parsing file fail to
parse is refused. Files that do not parse are left alone: their findings may
rest on error recovery. Writes are atomic and keep the file's encoding and
line endings.
"""

from __future__ import annotations

import difflib
import os
import stat
import tempfile
from collections import Counter
from pathlib import Path

from webmcp_lint.diagnostics import Diagnostic, Edit, Fix
from webmcp_lint.engine import LintResult, Settings, file_scripts, lint_sources
from webmcp_lint.languages import HTML
from webmcp_lint.record import HashedRecord, Record
from webmcp_lint.source import SourceFile
from webmcp_lint.syntax import first_error

MAX_PASSES = 10
NOT_PARSING = "not applied: the file does not parse, fix its syntax first"
BREAKS_PARSE = "not applied: the fix would make the file fail to parse"
OVERLAPS = "not applied: its edits overlap another fix"
STILL_CHANGING = f"not applied: the file was still changing after {MAX_PASSES} passes"


def is_applicable(fix: Fix | None, unsafe: bool) -> bool:
    """Safe fixes always apply; unsafe ones only when asked for (``--unsafe-fixes``)."""
    return fix is not None and bool(fix.edits) and (fix.applicability == "safe" or unsafe)


def edits_overlap(first: Edit, second: Edit) -> bool:
    """Ranges that share bytes, or two edits at the same start (their order would be a guess)."""
    return first.start == second.start or (first.start < second.end and second.start < first.end)


def line_ending(data: bytes) -> str:
    """The file's dominant line ending, used for the newlines a fix inserts."""
    crlf = data.count(b"\r\n")
    return "\r\n" if crlf and crlf * 2 >= data.count(b"\n") else "\n"


def with_line_ending(text: str, newline: str) -> str:
    """``text`` with its newlines written as ``newline``."""
    return text if newline == "\n" else text.replace("\r\n", "\n").replace("\n", newline)


def apply_edits(source: SourceFile, edits: list[Edit]) -> SourceFile:
    """The source with non-overlapping ``edits`` applied (inserted newlines follow the file's)."""
    newline = line_ending(source.data)
    pieces = []
    position = 0
    for edit in sorted(edits, key=lambda item: (item.start, item.end)):
        pieces.append(source.data[position:edit.start])
        pieces.append(with_line_ending(edit.text, newline).encode("utf-8", errors="surrogatepass"))
        position = edit.end
    pieces.append(source.data[position:])
    text = b"".join(pieces).decode("utf-8", errors="surrogatepass")
    return SourceFile(source.path, source.display_path, text, source.encoding)


def parses_cleanly(source: SourceFile) -> bool:
    """Every script of the file parses without ERROR or MISSING nodes (markup always does)."""
    return all(first_error(script.tree.root_node) is None
               for script in file_scripts(source, frozenset()) if script.language != HTML)


class Rejection(HashedRecord):
    """A fix that was not applied, and why."""

    __slots__ = ("diagnostic", "reason")
    _compared = __slots__

    def __init__(self, diagnostic: Diagnostic, reason: str) -> None:
        self.diagnostic = diagnostic
        self.reason = reason


class FilePass(Record):
    """One pass over one file: the fixes taken, the fixes refused, and the new text."""

    __slots__ = ("source", "applied", "rejected")
    _compared = __slots__

    def __init__(self, source: SourceFile) -> None:
        self.source = source
        self.applied: list[Diagnostic] = []
        self.rejected: list[Rejection] = []


def fix_file(source: SourceFile, diagnostics: list[Diagnostic], unsafe: bool) -> FilePass:
    """Apply the applicable fixes of ``diagnostics`` (all in ``source``) that do not collide or break the parse."""
    outcome = FilePass(source)
    fixable = sorted((d for d in diagnostics if is_applicable(d.fix, unsafe)),
                     key=lambda d: (min(edit.start for edit in d.fix.edits), d.code))
    if not fixable:
        return outcome
    if not parses_cleanly(source):
        outcome.rejected = [Rejection(diagnostic, NOT_PARSING) for diagnostic in fixable]
        return outcome
    taken: list[Diagnostic] = []
    taken_edits: list[Edit] = []
    duplicates: list[Diagnostic] = []
    for diagnostic in fixable:
        edits = diagnostic.fix.edits
        if any(edits == other.fix.edits for other in taken):
            duplicates.append(diagnostic)  # two findings offering the same change: make it once
        elif any(not 0 <= edit.start <= edit.end <= len(source.data) for edit in edits):
            outcome.rejected.append(Rejection(diagnostic, "not applied: its edits fall outside the file"))
        elif any(edits_overlap(a, b) for index, a in enumerate(edits) for b in edits[index + 1:]):
            outcome.rejected.append(Rejection(diagnostic, "not applied: the fix's own edits overlap"))
        elif any(edits_overlap(edit, other) for edit in edits for other in taken_edits):
            outcome.rejected.append(Rejection(diagnostic, OVERLAPS))
        else:
            taken.append(diagnostic)
            taken_edits.extend(edits)
    fixed = apply_edits(source, taken_edits)
    if not parses_cleanly(fixed):
        taken, fixed = _without_breaking_fixes(source, taken, outcome)
    outcome.source = fixed
    outcome.applied = taken + [d for d in duplicates if any(d.fix.edits == t.fix.edits for t in taken)]
    return outcome


def _without_breaking_fixes(source: SourceFile, candidates: list[Diagnostic],
                            outcome: FilePass) -> tuple[list[Diagnostic], SourceFile]:
    """Add the fixes one at a time, keeping each only if the file still parses (the rare slow path)."""
    kept: list[Diagnostic] = []
    current = source
    for diagnostic in candidates:
        trial = apply_edits(source, [edit for d in kept + [diagnostic] for edit in d.fix.edits])
        if parses_cleanly(trial):
            kept.append(diagnostic)
            current = trial
        else:
            outcome.rejected.append(Rejection(diagnostic, BREAKS_PARSE))
    return kept, current


class FixRun(Record):
    """What repeated fixing did: the findings left, the fixed texts, and the fixes taken or refused."""

    __slots__ = ("result", "originals", "fixed", "applied", "rejected", "passes")
    _compared = __slots__

    def __init__(self, result: LintResult, originals: dict[str, SourceFile]) -> None:
        self.result = result
        self.originals = originals
        self.fixed: dict[str, SourceFile] = {}
        self.applied: list[Diagnostic] = []
        self.rejected: list[Rejection] = []
        self.passes = 0

    @property
    def changed(self) -> list[tuple[SourceFile, SourceFile]]:
        """(original, fixed) for every file whose text changed, in path order."""
        return [(self.originals[path], self.fixed[path]) for path in sorted(self.fixed)
                if self.fixed[path].text != self.originals[path].text]


def fix_sources(sources: list[SourceFile], settings: Settings, unsafe: bool,
                base: LintResult | None = None) -> FixRun:
    """Lint, apply fixes, re-lint, at most ``MAX_PASSES`` times; nothing is written here.

    ``base`` carries what was found before linting (skipped files, notices); each
    pass starts from a copy of it so the final result reports them once.
    """
    base = base or LintResult()
    current = {source.display_path: source for source in sources}
    run = FixRun(LintResult(), dict(current))
    for _ in range(MAX_PASSES):
        run.result = _lint(list(current.values()), settings, base)
        run.passes += 1
        by_file: dict[str, list[Diagnostic]] = {}
        for diagnostic in run.result.diagnostics:
            if is_applicable(diagnostic.fix, unsafe) and diagnostic.path in current:
                by_file.setdefault(diagnostic.path, []).append(diagnostic)
        run.rejected = []
        changed = False
        for path, diagnostics in by_file.items():
            outcome = fix_file(diagnostics[0].source, diagnostics, unsafe)
            run.rejected.extend(outcome.rejected)
            if outcome.applied and outcome.source.text != current[path].text:
                run.applied.extend(outcome.applied)
                current[path] = run.fixed[path] = outcome.source
                changed = True
        if not changed:
            return run
    run.result = _lint(list(current.values()), settings, base)
    run.rejected = [Rejection(diagnostic, STILL_CHANGING) for diagnostic in run.result.diagnostics
                    if is_applicable(diagnostic.fix, unsafe)]
    return run


def _lint(sources: list[SourceFile], settings: Settings, base: LintResult) -> LintResult:
    fresh = LintResult(skipped=list(base.skipped), skipped_dirs=list(base.skipped_dirs), notices=list(base.notices))
    return lint_sources(sources, settings, fresh)


def write_fixed(original: SourceFile, fixed: SourceFile) -> str | None:
    """Write ``fixed`` over the file atomically, in its encoding; return why not, or None when written."""
    try:
        data = original.encode_back(fixed.text)
    except UnicodeEncodeError:
        return f"not written: the fixed text cannot be encoded as {original.encoding}"
    path = Path(original.path).resolve()  # a symlink keeps pointing at the fixed file
    try:
        on_disk = SourceFile.from_bytes(path, original.display_path, path.read_bytes())
        if on_disk.text != original.text:
            return "not written: the file changed on disk while it was being fixed"
        mode = stat.S_IMODE(path.stat().st_mode)
        handle, temporary = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
        try:
            with os.fdopen(handle, "wb") as stream:
                stream.write(data)
                stream.flush()
                os.fsync(stream.fileno())
            os.chmod(temporary, mode)
            os.replace(temporary, path)
        except BaseException:
            Path(temporary).unlink(missing_ok=True)
            raise
    except OSError as error:
        return f"not written: {error.strerror or error}"
    return None


def unified_diff(original: SourceFile, fixed: SourceFile) -> str:
    """A ``diff -u`` of one file's fix, marking a last line without a newline as diff does."""
    lines = []
    for line in difflib.unified_diff(original.text.splitlines(keepends=True), fixed.text.splitlines(keepends=True),
                                     f"a/{original.display_path}", f"b/{fixed.display_path}"):
        lines.append(line if line.endswith("\n") else line + "\n\\ No newline at end of file\n")
    return "".join(lines)


def describe_fixes(applied: list[Diagnostic]) -> str:
    """``--show-fixes``: what was fixed, per file and rule."""
    if not applied:
        return "No fixes applied.\n"
    lines = [f"Fixed {len(applied)} problem{'s' if len(applied) != 1 else ''}:"]
    per_file: dict[str, Counter] = {}
    for diagnostic in applied:
        per_file.setdefault(diagnostic.path, Counter())[(diagnostic.code, diagnostic.slug)] += 1
    for path in sorted(per_file):
        lines.append(f"- {path}:")
        for (code, slug), count in sorted(per_file[path].items()):
            lines.append(f"    {count} × {code} ({slug})")
    return "\n".join(lines) + "\n"

"""Linting a run as independent units: in parallel processes, and from a cache.

A unit is one file that passes the prefilter, linted as its own small
project: the file plus whatever its imports pull in through a ProjectIndex
over every discovered file. Its raw findings (nothing suppressed yet), its
suppression directives and every file its analysis looked at (with the
digest of what it saw) come back as plain data, so they cross a process
boundary and fit in a cache entry that stays valid while those files do.

Every rule runs in the units, the whole-project ones too: duplicate names
(WM203) and direct registrations (WM502) are decided file by file, WM105
reports once per tsconfig (identical findings from several units are
deduplicated) and reading every source, as it does, makes the unit depend on
every file. Only the page rules (``on=PAGES``) see tools of other files that merely import
them (a page); when some file imports a file with tools, they run again in
one pass over all files (cached under a digest of every file), replacing what
the units said. The parent merges the units in file order, then
deduplicates, applies suppressions and runs WM003 exactly as a single
whole-project run does, so the output is the same.
"""

from __future__ import annotations

import gc
import marshal
import os
import sys
from pathlib import Path
from typing import Generator, Iterator, NoReturn

from webmcp_lint import __version__
from webmcp_lint.cache import PROJECT_SLOT, Cache, Sealed, digest, sealed
from webmcp_lint.children import reap
from webmcp_lint.diagnostics import Diagnostic, Edit, Fix, Severity
from webmcp_lint.engine import (LintResult, Notice, Settings, adopt_imported_scripts, RuleRunner, analyze_source,
                                build_project, finish_diagnostics, run_checks, subscribed_kinds)
from webmcp_lint.extract import may_hold_webmcp
from webmcp_lint.frameworks import assign_frameworks
from webmcp_lint.model import FileAnalysis, Project
from webmcp_lint.rules import PAGES
from webmcp_lint.project_index import (ABSENT, EVERY_SOURCE, PRESENT, FileFacts, ProjectIndex, absolute,
                                       file_digest, text_digest)
from webmcp_lint.source import BinaryFileError, SourceFile
from webmcp_lint.suppression import AFTER_SUPPRESSIONS, Directive, Selector, mark_file_level

MIN_UNITS_FOR_POOL = 32  # below this, starting worker processes costs more than it saves
RESULTS_PIPE_SIZE = 1 << 20  # Linux's default pipe-max-size
MAX_TOKENS = 1024  # batches of units to take in parallel runs: their 4-byte tokens fit one pipe write (PIPE_BUF)
# A unit's parse trees stay where it ran; formats only ask whether a file had a parse error.
PARSE_ERROR_ELSEWHERE = (None, None)
SEVERITY_BY_VALUE = {severity.value: severity for severity in Severity}  # a dict lookup, not an enum call


class _Run:
    """What every unit needs; worker processes inherit it by fork instead of receiving it."""

    def __init__(self, sources: dict[Path, SourceFile], units: list[SourceFile], settings: Settings,
                 kinds: frozenset[str], check: _Validator, cache: Cache | None, settings_key: str) -> None:
        self.sources = sources  # every discovered file, by absolute path
        self.units = units
        self.settings = settings
        self.kinds = kinds
        self.check = check
        self.cache = cache  # whether entries record what they looked at
        self.settings_key = settings_key
        self.facts = FileFacts()  # shared by the units' indexes
        self.unit_rules = [rule for rule in settings.rules if rule.on != AFTER_SUPPRESSIONS]
        # The absolute path entries write for each discovered file, by the identity of its SourceFile.
        self.entry_paths = {id(source): str(path) for path, source in sources.items()}
        self.keys: dict[int, str] = {}  # by the position of their unit, worked out when first needed

    def entry_path(self, source: SourceFile) -> str:
        return self.entry_paths.get(id(source)) or str(absolute(source.path))

    def slot(self, position: int) -> str:
        """Where the cache keeps the entry of the unit at ``position``: its absolute path."""
        return self.entry_path(self.units[position])

    def key(self, position: int) -> str:
        """The cache key of the unit at ``position``: a digest of its text, path and the settings."""
        key = self.keys.get(position)
        if key is None:
            unit = self.units[position]
            key = self.keys[position] = digest(self.settings_key, "unit", self.slot(position), unit.display_path,
                                               self.check.digest(unit))
        return key


_RUN: _Run | None = None
_EXITING_WORKERS: list[int] = []  # process ids of workers that sent their entries, not yet waited for


def lint_units(sources: list[SourceFile], settings: Settings, result: LintResult, jobs: int,
               cache_dir: Path | None) -> LintResult:
    """Lint ``sources`` unit by unit (``jobs`` processes), reusing valid entries of the cache in ``cache_dir``."""
    global _RUN
    by_path = {absolute(source.path): source for source in sources}
    units = [source for source in sources if may_hold_webmcp(source.data)]
    check = _Validator(by_path)
    files = _Files(by_path)
    with_cache = cache_dir is not None and bool(units)  # no unit, nothing to read or write
    settings_key = settings_digest(settings) if with_cache else ""  # keys only matter to a cache
    cache = Cache(cache_dir, settings_key) if with_cache else None
    run = _Run(by_path, units, settings, subscribed_kinds(settings.rules), check, cache, settings_key)
    # A first run (no folder for these settings) has nothing to look up: its keys are worked out as its units
    # are linted, in parallel (_taken_units), not here before them.
    outcomes = [check.cached(cache.load(run.slot(position), run.key(position)), files, unit)
                for position, unit in enumerate(units)] if cache and cache.has_entries() else [None] * len(units)
    missing = [position for position, outcome in enumerate(outcomes) if outcome is None]
    collecting_per_unit = not gc.isenabled()  # the CLI: _lint_unit_at collects what each unit leaves
    try:
        _RUN = run
        if collecting_per_unit:
            # What exists now (modules, settings, the sources) lives until the run ends: frozen, the units'
            # collections never look at it, and a forked worker's first collection does not copy its pages.
            gc.freeze()
        try:
            for position, entry, entry_sealed in _computed(missing, jobs):
                outcomes[position] = _Outcome.of(entry, files, units[position])
                if cache:
                    # A worker's entry comes sealed. This process seals its own here, each as soon as it is computed
                    # (while the workers still lint), and seals again an entry that completing changed.
                    completed = check.complete(entry)
                    if completed or entry_sealed is None:
                        entry_sealed = sealed(entry)
                    cache.store(run.slot(position), run.key(position), entry_sealed)
            project = None
            if any(rule.on == PAGES for rule in settings.rules) and _pages_span_files(run, outcomes):
                project_key = digest(settings_key, "pages", check.every_source()) if cache else ""
                project = check.cached(cache.load(PROJECT_SLOT, project_key), files, None) if cache else None
                if project is None:
                    entry = _page_pass(run)
                    project = _Outcome.of(entry, files, None)
                    if cache:
                        check.complete(entry)
                        cache.store(PROJECT_SLOT, project_key, sealed(entry))
        finally:
            _RUN = None
            if collecting_per_unit:
                gc.unfreeze()
        if cache:
            cache.save()
        result.files_checked += len(sources)
        _merge(run, outcomes, project, result)
    finally:
        _reap_exiting_workers()
    return result


def settings_digest(settings: Settings) -> str:
    """Everything besides the file that decides a unit's findings: rules, severities, ignores, where paths start."""
    ignores = sorted(f"{entry.pattern}\0{sorted(entry.codes)}\0{entry.root}" for entry in settings.per_file_ignores)
    return digest(__version__, os.getcwd(), str(settings.verbose), str(settings.max_file_size),
                  *(f"{rule.code}={settings.severity(rule).value}" for rule in settings.rules), *ignores)


def _computed(positions: list[int], jobs: int) -> Iterator[tuple[int, dict, Sealed | None]]:
    """The entries of the units at ``positions`` of the current run, as (position, entry, the entry sealed for the
    cache by the worker that computed it, or None) in any order."""
    if jobs > 1 and len(positions) > MIN_UNITS_FOR_POOL and hasattr(os, "fork"):
        # Workers inherit the run by fork; where there is no fork (Windows), units run in this process.
        reported = yield from _computed_in_forks(positions, jobs)
        positions = [position for position in positions if position not in reported]  # a worker died
    for position in positions:
        yield position, _lint_unit_at(position), None


def _computed_in_forks(positions: list[int], jobs: int) -> Generator[tuple[int, dict, Sealed | None], None, set[int]]:
    """This process and ``jobs - 1`` forked ones take units, largest first, until none are left; returns the
    positions reported.

    What is left to take is a pipe of 4-byte tokens (each a batch of units) written before the fork, and a
    process takes one by reading 4 bytes: a pipe read is atomic, so the work balances without a manager
    process, queues or threads. A forked process sends each entry back as soon as it is computed (_Results);
    this process's own entries never cross a boundary.
    """
    assert _RUN is not None
    by_size = sorted(positions, key=lambda position: -len(_RUN.units[position].data))
    batch = -(-len(by_size) // MAX_TOKENS)
    batches = [by_size[start:start + batch] for start in range(0, len(by_size), batch)]
    tokens, tokens_in = os.pipe()
    os.write(tokens_in, b"".join(number.to_bytes(4, "little") for number in range(len(batches))))
    os.close(tokens_in)  # 4 kB at most: fits an empty pipe at once, and reads end when the tokens do
    sys.stdout.flush()
    sys.stderr.flush()
    workers: list[_Results] = []
    finished = False
    try:
        for _ in range(min(jobs, len(batches)) - 1):  # never more processes than batches to take
            results, results_in = os.pipe()
            _widen(results_in)
            try:
                pid = os.fork()
            except OSError:  # no more processes allowed: the ones started do the work
                os.close(results)
                os.close(results_in)
                break
            if pid == 0:
                _work_in_fork(tokens, batches, results_in)
            os.close(results_in)
            workers.append(_Results(pid, results))
        reported = set()
        # Each entry is passed on at once, so the caller's work on it happens while the workers still lint; so is
        # each entry a worker has sent by the end of a unit of this process.
        for own_position, own_entry in _taken_units(tokens, batches):
            reported.add(own_position)
            yield own_position, own_entry, None
            for worker in workers:
                for arrived in worker.arrived():
                    reported.add(arrived[0])
                    yield arrived
        for worker in workers:
            for arrived in worker.arrived(until_the_end=True):
                reported.add(arrived[0])
                yield arrived
        finished = True
        return reported
    finally:
        os.close(tokens)
        for worker in workers:
            os.close(worker.pipe)
            if finished:  # it sent everything and is exiting: reaped once the findings are merged
                _EXITING_WORKERS.append(worker.pid)
            else:  # this process failed: the workers' units are of no use
                import signal  # only here: its import (enums of every signal) is start-up time of every run

                os.kill(worker.pid, signal.SIGKILL)
                reap(worker.pid)


def _reap_exiting_workers() -> None:
    """Wait for the workers that sent their entries. A process's exit frees its memory before it is done
    (tens of MB, several ms), so waiting for it only after the merge lets that happen beside the merge."""
    while _EXITING_WORKERS:
        reap(_EXITING_WORKERS.pop())


def _work_in_fork(tokens: int, batches: list[list[int]], results_in: int) -> NoReturn:
    """A forked worker: take units until none are left, sending each entry as it is computed, as marshal bytes
    (with their digest and the unit's key when there is a cache: the main process stores them as they are);
    exit without unwinding the parent's stack (no cleanup, no atexit: the parent owns them)."""
    assert _RUN is not None
    status = 1
    try:
        keyed = _RUN.cache is not None
        for position, entry in _taken_units(tokens, batches):
            entry_digest, entry_bytes = sealed(entry) if keyed else (None, marshal.dumps(entry))
            frame = marshal.dumps((position, entry_bytes, entry_digest, _RUN.keys[position] if keyed else None))
            unsent = memoryview(len(frame).to_bytes(4, "little") + frame)
            while unsent:
                unsent = unsent[os.write(results_in, unsent):]
        status = 0
    finally:
        try:  # closed before the exit, which frees the process's memory before it closes files: the parent's
            os.close(results_in)  # read ends now, not after that
        finally:
            os._exit(status)


def _widen(pipe: int) -> None:
    """Let a worker's results (about 2 kB a unit) fit the pipe, where Linux allows: the worker then writes them
    without waiting for this process to read each 64 kB (a wait per read on a busy machine)."""
    try:
        import fcntl  # POSIX only, like fork

        fcntl.fcntl(pipe, fcntl.F_SETPIPE_SZ, RESULTS_PIPE_SIZE)
    except (AttributeError, OSError):  # not Linux, or above the system's pipe-max-size: the default works too
        pass


def _taken_units(tokens: int, batches: list[list[int]]) -> Iterator[tuple[int, dict]]:
    """The entries of the batches this process takes, until no token is left; with a cache, the key of each is
    worked out meanwhile (into ``_RUN.keys``)."""
    assert _RUN is not None
    keyed = _RUN.cache is not None
    while token := os.read(tokens, 4):
        for position in batches[int.from_bytes(token, "little")]:
            entry = _lint_unit_at(position)
            if keyed:
                _RUN.key(position)
            yield position, entry


class _Results:
    """A worker's entries as it sends them: frames of a 4-byte size and the marshal data of (position, the entry's
    marshal bytes, their digest, key), read without waiting while this process lints, so that its work on them
    happens meanwhile."""

    def __init__(self, pid: int, pipe: int) -> None:
        self.pid = pid
        self.pipe = pipe
        os.set_blocking(pipe, False)
        self._pending = bytearray()  # what arrived of frames not yet complete
        self._broken = False

    def arrived(self, until_the_end: bool = False) -> list[tuple[int, dict, Sealed | None]]:
        """The entries whose frames have arrived; ``until_the_end``: all of them (the worker closes its end when
        done, or dies: a frame it did not finish is dropped, and its units are computed here)."""
        if until_the_end:
            os.set_blocking(self.pipe, True)
        while not self._broken:
            try:
                chunk = os.read(self.pipe, RESULTS_PIPE_SIZE)
            except BlockingIOError:
                break
            if not chunk:
                break
            self._pending += chunk
        return self._complete_entries()

    def _complete_entries(self) -> list[tuple[int, dict, Sealed | None]]:
        assert _RUN is not None
        entries = []
        pending = self._pending
        start = 0
        while not self._broken and len(pending) - start >= 4:
            end = start + 4 + int.from_bytes(pending[start:start + 4], "little")
            if end > len(pending):
                break
            try:
                position, entry_bytes, entry_digest, key = marshal.loads(pending[start + 4:end])
                entry = marshal.loads(entry_bytes)
            except (EOFError, ValueError, TypeError):
                self._broken = True
                break
            if key is not None:
                _RUN.keys[position] = key
            entries.append((position, entry, None if entry_digest is None else (entry_digest, entry_bytes)))
            start = end
        del pending[:start]
        return entries


def _pages_span_files(run: _Run, outcomes: list[_Outcome]) -> bool:
    """Whether some file imports a file with tools, so that a page holds tools of several files.

    As in WM612: a file with scripts by its import statements, one the
    prefilter rejected (or that has no script) when its text names a module with tools.
    """
    with_tools = {absolute(unit.path) for unit, outcome in zip(run.units, outcomes) if outcome.has_tools}
    if not with_tools:
        return False
    stems = {path.stem.encode() for path in with_tools}
    imports_by_file = {absolute(unit.path): outcome.imports for unit, outcome in zip(run.units, outcomes)}
    for path, source in run.sources.items():
        imports = imports_by_file.get(path)
        if imports is None:
            if any(stem in source.data for stem in stems):
                return True
        elif any(Path(target) in with_tools and Path(target) != path for target in imports):
            return True
    return False


def _lint_unit_at(position: int) -> dict:
    """The entry of one unit (the main process stores it in the cache, wherever it was computed)."""
    assert _RUN is not None
    entry = lint_unit(_RUN, _RUN.units[position])
    if not gc.isenabled():
        # With the cycle collector off (the CLI), a unit leaves ~0.5 MB in reference cycles (memos kept on their
        # owners, scripts and the index), its tree among them. Collected at once (the youngest generation: what
        # the unit made), that memory is what the next unit allocates: a cold run over the 200-file benchmark
        # takes 34k page faults instead of 12k without it, about 60 ms of system time.
        gc.collect(0)
    return entry


def lint_unit(run: _Run, source: SourceFile) -> dict:
    """One file as its own project: every rule but the whole-project ones, findings not yet suppressed."""
    settings = run.settings
    result = LintResult()
    index = ProjectIndex(run.sources, run.kinds, run.facts)
    build_project([source], index, settings, result, prefiltered=True)  # units are the files that pass it
    project = result.project
    run_checks(project, run.unit_rules, RuleRunner(settings, result))
    primary = project.files[0] if project.files else FileAnalysis(source)
    for analysis in project.files:
        mark_file_level(analysis)
    return {
        "diagnostics": [_plain_diagnostic(diagnostic, run) for diagnostic in result.diagnostics],
        "positions": _plain_positions(result.diagnostics, run),
        "directives": [_plain_directive(directive) for directive in primary.suppressions],
        "parse_error": bool(primary.parse_errors),
        "has_tools": bool(primary.tools),
        "imports": [str(path) for path in index.imported_files(primary.scripts, primary.source.path)]
        if primary.scripts else None,
        "files": [[run.entry_path(analysis.source), analysis.source.display_path] for analysis in project.files[1:]],
        # The suppression comments of the modules it imported that the run does not lint (for the findings in them).
        "imported_directives": [[run.entry_path(analysis.source), analysis.source.display_path,
                                 [_plain_directive(directive) for directive in analysis.suppressions]]
                                for analysis in project.files[1:] if analysis.imported_only and analysis.suppressions],
        "notices": _plain_notices(result, index),
        "looked_at": _plain_looked_at(run, index),
    }


def _page_pass(run: _Run) -> dict:
    """The page rules over every file at once (those the prefilter rejects are not parsed, as in a whole run)."""
    settings = run.settings
    result = LintResult()
    index = ProjectIndex(run.sources, run.kinds, run.facts)
    candidates = {id(unit) for unit in run.units}
    project = result.project
    project.index = index
    for source in run.sources.values():
        if id(source) not in candidates:
            project.files.append(FileAnalysis(source))
        else:
            try:
                project.files.append(analyze_source(source, run.kinds, index, prefiltered=True))
            except Exception:  # noqa: BLE001 - its unit reports the internal error
                project.files.append(FileAnalysis(source))
    adopt_imported_scripts(project)
    assign_frameworks(project, index)
    run_checks(project, [rule for rule in settings.rules if rule.on == PAGES], RuleRunner(settings, result))
    return {
        "diagnostics": [_plain_diagnostic(diagnostic, run) for diagnostic in result.diagnostics],
        "positions": _plain_positions(result.diagnostics, run),
        "notices": _plain_notices(result, index),
        "looked_at": _plain_looked_at(run, index),
    }


# plain data ---------------------------------------------------------------------------------

def _plain_diagnostic(diagnostic: Diagnostic, run: _Run) -> list:
    fix = diagnostic.fix
    plain_fix = None if fix is None else [fix.applicability, fix.description,
                                          [[edit.start, edit.end, edit.text] for edit in fix.edits]]
    # Slugs and messages repeat across units: interned, marshal writes each once per worker frame and cache file,
    # and what it reads back is one string again, not a copy per unit.
    return [diagnostic.code, sys.intern(diagnostic.slug), diagnostic.severity.value,
            sys.intern(diagnostic.message), run.entry_path(diagnostic.source), diagnostic.source.display_path,
            diagnostic.start, diagnostic.end, diagnostic.tool_name, plain_fix]


def _plain_positions(diagnostics: list[Diagnostic], run: _Run) -> list[list]:
    """Per file the findings point into, the (line, column) of their offsets: worked out here beside the other
    units, not in the merge (which sorts by them) or the report (which writes them). [path, display path,
    offsets, lines, columns]."""
    offsets_by_source: dict[int, tuple[SourceFile, list[int]]] = {}
    for diagnostic in diagnostics:
        offsets = offsets_by_source.setdefault(id(diagnostic.source), (diagnostic.source, []))[1]
        offsets += (diagnostic.start, diagnostic.end)
        if diagnostic.fix is not None:
            for edit in diagnostic.fix.edits:
                offsets += (edit.start, edit.end)
    plain = []
    for source, offsets in offsets_by_source.values():
        positions = source.positions(offsets)
        plain.append([run.entry_path(source), source.display_path, list(positions),
                      [line for line, _ in positions.values()], [column for _, column in positions.values()]])
    return plain


def _plain_looked_at(run: _Run, index: ProjectIndex) -> dict[str, str]:
    """What the cache checks before it reuses an entry (nothing to record without a cache)."""
    return dict(index.looked_at) if run.cache is not None else {}


def _plain_directive(directive: Directive) -> list:
    return [directive.kind, directive.start, directive.end, directive.file_level,
            [[selector.text, sorted(selector.codes), selector.suggestion] for selector in directive.selectors]]


def _plain_notices(result: LintResult, index: ProjectIndex) -> list:
    return ([[notice.path, notice.message, notice.internal_error] for notice in result.notices]
            + [[path, message, False] for path, message in index.notices])


class _Validator:
    """Whether what a cached entry saw still holds; digests computed once per run."""

    def __init__(self, sources: dict[Path, SourceFile]) -> None:
        self.sources = sources
        self._digests: dict[int, str] = {}
        self._on_disk: dict[str, str] = {}
        self._every: str | None = None

    def digest(self, source: SourceFile) -> str:
        known = self._digests.get(id(source))
        if known is None:
            known = self._digests[id(source)] = text_digest(source.data)
        return known

    def every_source(self) -> str:
        """One digest of every discovered file (paths, display paths, texts)."""
        if self._every is None:
            self._every = digest(*(f"{path}\0{source.display_path}\0{self.digest(source)}"
                                   for path, source in self.sources.items()))
        return self._every

    def complete(self, entry: dict) -> bool:
        """Put the digest of every file where the analysis read them all (a worker could not compute it cheaply);
        whether the entry changed (then it is sealed again)."""
        looked_at = entry["looked_at"]
        if str(EVERY_SOURCE) in looked_at:
            looked_at[str(EVERY_SOURCE)] = self.every_source()
            return True
        return False

    def cached(self, entry: dict | None, files: _Files, unit: SourceFile | None) -> _Outcome | None:
        """A cache entry's outcome if every file it looked at is as it was; None if not, or if it is malformed."""
        try:
            if entry is None or not all(self.holds(path, seen) for path, seen in entry["looked_at"].items()):
                return None
            return _Outcome.of(entry, files, unit)
        except (KeyError, TypeError, ValueError, AttributeError, IndexError):
            return None

    def holds(self, path: str, seen: str) -> bool:
        if path == str(EVERY_SOURCE):
            return seen == self.every_source()
        source = self.sources.get(Path(path))
        if seen in (PRESENT, ABSENT):
            exists = source is not None or os.path.isfile(path)
            return exists == (seen == PRESENT)
        if source is not None:
            return self.digest(source) == seen
        if path not in self._on_disk:
            self._on_disk[path] = file_digest(Path(path))
        return self._on_disk[path] == seen


# merging ------------------------------------------------------------------------------------

class _Outcome:
    """A unit's (or the project pass's) entry rebuilt on this run's sources."""

    __slots__ = ("diagnostics", "directives", "parse_error", "files", "imported_directives", "notices", "has_tools",
                 "imports")

    def __init__(self, diagnostics: list[Diagnostic], directives: list[Directive], parse_error: bool,
                 files: list[SourceFile], imported_directives: list[tuple[SourceFile, list[Directive]]],
                 notices: list[tuple[str, str, bool]], has_tools: bool, imports: list[str] | None) -> None:
        self.diagnostics = diagnostics
        self.directives = directives
        self.parse_error = parse_error
        self.files = files  # the other files its project held (imported modules)
        self.imported_directives = imported_directives  # of those the run does not lint
        self.notices = notices
        self.has_tools = has_tools
        self.imports = imports  # the files its import statements name; None when it has no script

    @classmethod
    def of(cls, entry: dict, files: _Files, unit: SourceFile | None) -> _Outcome:
        """Raises (TypeError, ValueError...) on an entry of the wrong shape: the caller treats it as a miss."""
        outcome = cls([_diagnostic(plain, files) for plain in entry["diagnostics"]],
                      [_directive(plain, unit) for plain in entry.get("directives", [])] if unit is not None else [],
                      bool(entry.get("parse_error")),
                      [files.get(path, shown) for path, shown in entry.get("files", [])],
                      [_imported_directives(files.get(path, shown), plains)
                       for path, shown, plains in entry.get("imported_directives", [])],
                      [(str(path), str(message), bool(is_error)) for path, message, is_error in entry["notices"]],
                      bool(entry.get("has_tools")),
                      None if entry.get("imports") is None else [str(path) for path in entry["imports"]])
        known = [_known_positions(plain, files) for plain in entry["positions"]]  # all read before any is kept
        for source, positions in known:
            source.remember_positions(positions)
        return outcome


def _merge(run: _Run, outcomes: list[_Outcome], project: _Outcome | None, result: LintResult) -> None:
    """Put the units' findings together (the page pass's replacing theirs for the page rules), then finish them as
    one whole-project run would."""
    settings = run.settings
    analyses = {path: FileAnalysis(source) for path, source in run.sources.items()}
    by_source = {id(analysis.source): analysis for analysis in analyses.values()}
    for unit, outcome in zip(run.units, outcomes):
        # Two files named on the command line can share an absolute path (``d/link/../a.js`` and ``d/a.js``): the
        # second one's analysis stands for both, as in a whole-project run.
        analysis = by_source.get(id(unit)) or analyses[absolute(unit.path)]
        analysis.suppressions = outcome.directives
        analysis.parse_errors = [PARSE_ERROR_ELSEWHERE] if outcome.parse_error else []
        for source in outcome.files:
            analyses.setdefault(absolute(source.path), FileAnalysis(source, imported_only=True))
        for source, directives in outcome.imported_directives:
            imported = analyses[absolute(source.path)]
            if imported.imported_only and not imported.suppressions:  # several units may import one module
                imported.suppressions = directives
    result.project = Project(files=list(analyses.values()))
    parts = [*outcomes, project] if project is not None else outcomes
    page_codes = {rule.code for rule in settings.rules if rule.on == PAGES}
    # In file order, not in the rule order of a whole-project run: finish_diagnostics sorts by a key that holds
    # the code, so only findings of one rule can tie, and those are in file order either way (as is the first of
    # identical ones, which it keeps).
    result.diagnostics.extend(diagnostic for outcome in parts for diagnostic in outcome.diagnostics
                              if project is None or outcome is project or diagnostic.code not in page_codes)
    notices = dict.fromkeys(notice for outcome in parts for notice in outcome.notices)
    internal = [Notice(path, message, True) for path, message, is_error in notices if is_error]
    runner = RuleRunner(settings, result)
    result.notices.extend(internal)
    finish_diagnostics(result.project, settings, result, runner)
    result.notices.extend(Notice(path, message) for path, message, is_error in notices if not is_error)


class _Files:
    """The SourceFile a finding points into: a discovered one, else read again (an imported module)."""

    def __init__(self, sources: dict[Path, SourceFile]) -> None:
        self._known = {str(path): source for path, source in sources.items()}  # by the paths entries hold
        self._read: dict[str, SourceFile] = {}

    def get(self, path: str, shown: str) -> SourceFile:
        source = self._known.get(path) or self._read.get(path)
        if source is None:
            try:
                source = SourceFile.from_bytes(Path(path), shown, Path(path).read_bytes())
            except (OSError, BinaryFileError):
                source = SourceFile(Path(path), shown, "")  # vanished since: positions fall back to the start
            self._read[path] = source
        return source


def _diagnostic(plain: list, files: _Files) -> Diagnostic:
    code, slug, severity, message, path, shown, start, end, tool_name, plain_fix = plain
    fix = None if plain_fix is None else Fix(str(plain_fix[0]), tuple(
        Edit(int(start_), int(end_), str(text)) for start_, end_, text in plain_fix[2]), str(plain_fix[1]))
    return Diagnostic(str(code), str(slug), SEVERITY_BY_VALUE[severity], str(message), files.get(str(path), str(shown)),
                      int(start), int(end), None if tool_name is None else str(tool_name), fix)


def _known_positions(plain: list, files: _Files) -> tuple[SourceFile, dict[int, tuple[int, int]]]:
    path, shown, offsets, lines, columns = plain
    return files.get(str(path), str(shown)), dict(
        zip(map(int, offsets), zip(map(int, lines), map(int, columns), strict=True), strict=True))


def _imported_directives(source: SourceFile, plains: list) -> tuple[SourceFile, list[Directive]]:
    return source, [_directive(plain, source) for plain in plains]


def _directive(plain: list, source: SourceFile) -> Directive:
    kind, start, end, file_level, selectors = plain
    return Directive(str(kind), source, int(start), int(end), [
        Selector(str(text), frozenset(map(str, codes)), None if suggestion is None else str(suggestion))
        for text, codes, suggestion in selectors], bool(file_level))


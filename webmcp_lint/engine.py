"""The analysis pipeline: read, prefilter, parse once, walk once, extract, run rules.

Per file: one parse per script, one query pass collecting every node kind
that extractors, the scope index and node rules subscribed to. Extractors
fill a FileAnalysis; rules read it (or the nodes they subscribed to) and
never walk the tree again. A bug in one rule on one file becomes a notice
(and exit 2), not a crash, and the other rules and files still report.
"""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path
from typing import Callable, Iterable

from webmcp_lint.diagnostics import Diagnostic, Severity
from webmcp_lint.discovery import EXCLUSION_REASONS, Skip, discover
from webmcp_lint.evaluate import Evaluator
from webmcp_lint.extract import all_extractors, may_hold_webmcp
from webmcp_lint.embedded import is_embedding, split_markup
from webmcp_lint.languages import HTML, SCRIPT_LANGUAGE_BY_SUFFIX, lower_suffix, nodes_by_kind, parse
from webmcp_lint.model import FileAnalysis, Finding, Project, Script
from webmcp_lint.frameworks import assign_frameworks
from webmcp_lint.project_index import ProjectIndex
from webmcp_lint.record import Record
from webmcp_lint.rules import FILES, FORM_TOOLS, PAGES, PROJECT, TOOLS, NodeKinds, Rule, all_rules
from webmcp_lint.scope import BINDING_KINDS, build_index
from webmcp_lint.source import BinaryFileError, SourceFile
from webmcp_lint.suppression import apply_suppressions, script_directives
from webmcp_lint.syntax import first_error

DEFAULT_MAX_FILE_SIZE = 8 * 1024 * 1024
MINIFIED_AVERAGE_LINE = 1000
READ_CHUNK = 1 << 16
# Windows' O_BINARY: looked up once, not raised per file. O_NONBLOCK: opening a named pipe does not wait for a writer
# (it is then skipped, as a device is); a regular file reads as without it.
OPEN_FLAGS = os.O_RDONLY | getattr(os, "O_BINARY", 0) | getattr(os, "O_NONBLOCK", 0)


class NotARegularFile(OSError):
    """A named pipe, socket or device: reading one could wait forever or never end (``/dev/zero``)."""


class Settings(Record):
    """What one run checks; built by the CLI (and later the config file)."""

    _compared = ("rules", "severity_overrides", "max_file_size", "verbose", "per_file_ignores", "exclusion",
                 "force_exclude")

    def __init__(self, rules: list[Rule] | None = None, severity_overrides: dict[str, Severity] | None = None,
                 max_file_size: int = DEFAULT_MAX_FILE_SIZE, verbose: bool = False,
                 per_file_ignores: list | None = None, exclusion: object | None = None,
                 force_exclude: bool = False) -> None:
        self.rules = all_rules() if rules is None else rules
        self.severity_overrides = {} if severity_overrides is None else severity_overrides
        self.max_file_size = max_file_size
        self.verbose = verbose
        # config.PerFileIgnore: a glob and the codes it turns off
        self.per_file_ignores = [] if per_file_ignores is None else per_file_ignores
        self.exclusion = exclusion  # config.Exclusion from a config file; None keeps the default excluded dirs
        self.force_exclude = force_exclude  # apply the exclusion to paths named on the command line too

    def severity(self, rule: Rule) -> Severity:
        return self.severity_overrides.get(rule.code, rule.severity)

    def ignored_in_file(self, code: str, source: SourceFile) -> bool:
        return any(code in entry.codes and entry.matches(source.path) for entry in self.per_file_ignores)


class Notice(Record):
    """Something the user must know that is not a finding: a skipped file, an internal error."""

    _compared = ("path", "message", "internal_error")

    def __init__(self, path: str, message: str, internal_error: bool = False) -> None:
        self.path = path
        self.message = message
        self.internal_error = internal_error


class LintResult(Record):
    """What a run found: findings, the files it checked or skipped, notices, and the project it analysed."""

    _compared = ("diagnostics", "files_checked", "skipped", "skipped_dirs", "notices", "project")

    def __init__(self, diagnostics: list[Diagnostic] | None = None, files_checked: int = 0,
                 skipped: list[Skip] | None = None, skipped_dirs: list[Skip] | None = None,
                 notices: list[Notice] | None = None, project: Project | None = None) -> None:
        self.diagnostics = [] if diagnostics is None else diagnostics
        self.files_checked = files_checked
        self.skipped = [] if skipped is None else skipped
        self.skipped_dirs = [] if skipped_dirs is None else skipped_dirs
        self.notices = [] if notices is None else notices
        self.project = Project() if project is None else project

    @property
    def internal_errors(self) -> list[Notice]:
        return [notice for notice in self.notices if notice.internal_error]

    @property
    def unreadable_directories(self) -> list[Skip]:
        """The skipped directories the run could not look into (not those excluded on purpose): their files are
        unchecked, so they are named wherever skipped files are."""
        return [skip for skip in self.skipped_dirs if skip.reason not in EXCLUSION_REASONS]

    def count(self, severity: Severity) -> int:
        return sum(1 for diagnostic in self.diagnostics if diagnostic.severity == severity)


def language_for(path: str) -> str | None:
    """The script language of a file by its suffix."""
    return SCRIPT_LANGUAGE_BY_SUFFIX.get(lower_suffix(path))


def subscribed_kinds(rules: Iterable[Rule]) -> frozenset[str]:
    kinds = set(BINDING_KINDS)
    for extractor in all_extractors():
        kinds |= extractor.kinds
    for rule in rules:
        if isinstance(rule.on, NodeKinds):
            kinds |= rule.on.kinds
    return frozenset(kinds)


def build_script(source: SourceFile, language: str, kinds: frozenset[str], ranges=None, tree=None,
                 index: ProjectIndex | None = None) -> Script:
    """One Script; ``ranges`` limit the parse to embedded scripts, ``tree`` is an already parsed one.

    With the run's ``index``, imports resolve across files, and a whole file
    already parsed as some other file's import (in this project, or in an
    earlier unit of this process) is reused, not parsed again.
    """
    whole_file = not ranges and tree is None
    nodes = None
    if index is not None and whole_file:
        cached = index.cached_script(source, language)
        if cached is not None:
            return cached
        shared = index.imported_parse(source, language, kinds)
        if shared is not None:
            tree, nodes = shared
    if tree is None:
        tree = parse(source.data, language, ranges)
    if nodes is None:
        nodes = nodes_by_kind(tree.root_node, language, kinds)
    scopes = build_index(nodes, source.data, language)
    script = Script(source, language, tree, nodes, scopes, Evaluator(scopes))
    if index is not None:
        index.attach(script, whole_file)
    return script


def analyze_source(source: SourceFile, kinds: frozenset[str], index: ProjectIndex | None = None, *,
                   prefiltered: bool = False) -> FileAnalysis:
    """Parse and extract one file (no rules yet); ``prefiltered``: the caller has seen it pass the prefilter (a
    unit), so its text is not searched again."""
    analysis = FileAnalysis(source)
    if not prefiltered and not may_hold_webmcp(source.data):
        return analysis
    analysis.scripts.extend(file_scripts(source, kinds, index))
    if not analysis.scripts:
        return analysis
    analysis.has_webmcp_code = True
    for script in analysis.scripts:
        # Markup is forgiving (browsers recover from anything): only script parse errors count.
        error = first_error(script.root) if script.language != HTML else None
        if error is not None:
            analysis.parse_errors.append((script, error))
    for extractor in all_extractors():
        for script in analysis.scripts:
            extractor.extract(script, analysis)
    return analysis


def file_scripts(source: SourceFile, kinds: frozenset[str], index: ProjectIndex | None = None) -> list[Script]:
    """A file's parse trees: the whole script, or an HTML/Vue/Svelte file's markup then its script sections."""
    language = language_for(source.display_path)
    if language is not None:
        return [build_script(source, language, kinds, index=index)]
    if not is_embedding(source.display_path):
        return []
    markup = split_markup(source.data, source.display_path)
    return [build_script(source, HTML, kinds, tree=markup.tree, index=index)] + [
        build_script(source, section.language, kinds, section.ranges, section.tree, index=index)
        for section in markup.sections
    ]


NO_CONTEXT = object()  # run_over's default: the rule's check takes the item alone


class RuleRunner:
    """Runs rules, turning findings into diagnostics and rule crashes into notices."""

    def __init__(self, settings: Settings, result: LintResult) -> None:
        self.settings = settings
        self.result = result

    def run(self, rule: Rule, where: str, call: Callable[[], Iterable[Finding]]) -> None:
        """One call of a rule made by someone else (the late rules after suppressions); a crash is a notice at
        ``where``."""
        try:
            for finding in call() or ():
                self.result.diagnostics.append(self._diagnostic(rule, finding))
        except Exception as error:  # noqa: BLE001 - contained per rule and file, reported
            self._crashed(rule, where, error)

    def run_over(self, rule: Rule, items: Iterable, context: object = NO_CONTEXT, *, where: str | None = None) -> None:
        """``rule.check(item, context)`` (or ``rule.check(item)`` without one) for each item, in one loop (50k
        calls on 200 files: no closure per call).

        The context is a plain argument: a call spreading a tuple builds the arguments anew and is not inlined
        by the interpreter (half a microsecond a call). A crash in one call is a notice at ``where`` (by
        default the item's file), and the other items still run.
        """
        check = rule.check
        diagnostics = self.result.diagnostics
        with_context = context is not NO_CONTEXT
        for item in items:
            try:
                findings = check(item, context) if with_context else check(item)
                if findings is not None:
                    for finding in findings:
                        diagnostics.append(self._diagnostic(rule, finding))
            except Exception as error:  # noqa: BLE001 - contained per rule and file, reported
                self._crashed(rule, where if where is not None else item.source.display_path, error)

    def _diagnostic(self, rule: Rule, finding: Finding) -> Diagnostic:
        return Diagnostic(rule.code, rule.slug, self.settings.severity(rule), finding.message,
                          finding.source, finding.start, finding.end, finding.tool_name, finding.fix)

    def _crashed(self, rule: Rule, where: str, error: Exception) -> None:
        detail = _traceback() if self.settings.verbose else f"{type(error).__name__}: {error}"
        self.result.notices.append(Notice(where, f"internal error in {rule.code} {rule.slug}: {detail}", True))


def _traceback() -> str:
    import traceback  # only --verbose reports of internal errors need it

    return traceback.format_exc()


def run_rules(project: Project, settings: Settings, result: LintResult) -> None:
    runner = RuleRunner(settings, result)
    run_checks(project, settings.rules, runner)
    finish_diagnostics(project, settings, result, runner)


def run_checks(project: Project, rules: Iterable[Rule], runner: RuleRunner) -> None:
    """Run ``rules`` over the project; their raw findings (nothing suppressed yet) go to the runner's result.

    The facts the rules shared (memo.per_object) live on the model's objects, so they go with the project.
    """
    _run_checks(project, rules, runner)


def _run_checks(project: Project, rules: Iterable[Rule], runner: RuleRunner) -> None:
    tools = list(project.tools)
    form_tools = [tool for tool in tools if tool.form is not None]
    for rule in rules:
        if isinstance(rule.on, NodeKinds):
            for analysis in project.files:
                for script in analysis.scripts:
                    nodes = [node for kind in rule.on.kinds for node in script.of_kind(kind)]
                    if nodes:
                        runner.run_over(rule, nodes, script, where=analysis.source.display_path)
        elif rule.on == FILES:
            runner.run_over(rule, project.files)
        elif rule.on == TOOLS:
            runner.run_over(rule, tools, project)
        elif rule.on == FORM_TOOLS:
            runner.run_over(rule, form_tools, project)
        elif rule.on == PROJECT or rule.on == PAGES:
            runner.run_over(rule, (project,), where="<project>")


def finish_diagnostics(project: Project, settings: Settings, result: LintResult, runner: RuleRunner) -> None:
    """Drop duplicates and suppressed findings, run the rules that read suppressions (WM003), sort."""
    result.diagnostics = _deduplicated(result.diagnostics)
    apply_suppressions(project, settings, result.diagnostics, runner.run)
    result.diagnostics.sort(key=Diagnostic.sort_key)


def _deduplicated(diagnostics: list[Diagnostic]) -> list[Diagnostic]:
    seen = set()
    unique = []
    for diagnostic in diagnostics:
        key = (diagnostic.code, diagnostic.path, diagnostic.start, diagnostic.end, diagnostic.message)
        if key not in seen:
            seen.add(key)
            unique.append(diagnostic)
    return unique


def read_source(path: Path, shown: str, settings: Settings, result: LintResult, explicit: bool) -> SourceFile | None:
    """Read one file, or record why it was skipped."""
    try:
        raw = _file_bytes(path, settings.max_file_size)
    except IsADirectoryError:
        result.skipped.append(Skip(shown, "is a directory"))
        return None
    except NotARegularFile:
        result.skipped.append(Skip(shown, "not a regular file (a pipe, socket or device)"))
        return None
    except FileNotFoundError:
        result.skipped.append(Skip(shown, "file vanished before it could be read"))
        return None
    except PermissionError:  # also what opening a directory raises on Windows
        result.skipped.append(Skip(shown, "is a directory" if os.path.isdir(path) else "permission denied"))
        return None
    except OSError as error:
        reason = "symlink loop" if error.errno == 40 else f"cannot read: {error.strerror or error}"
        result.skipped.append(Skip(shown, reason))
        return None
    if raw is None:
        result.skipped.append(Skip(shown, f"larger than {settings.max_file_size} bytes"))
        return None
    return source_from_bytes(path, shown, raw, result, explicit)


def _file_bytes(path: Path, max_size: int) -> bytes | None:
    """A file's bytes, or None when it is (or grows) larger than ``max_size``; raises IsADirectoryError for a
    directory and NotARegularFile for a pipe, socket or device.

    One open, one fstat and mostly one read: a third of what pathlib's stat() and read_bytes() cost, in the
    serial part of a run (every file is read before any is linted).
    """
    descriptor = os.open(path, OPEN_FLAGS)
    try:
        status = os.fstat(descriptor)  # one stat answers both questions
        if stat.S_ISDIR(status.st_mode):
            raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR), str(path))
        if not stat.S_ISREG(status.st_mode):
            raise NotARegularFile(str(path))
        if status.st_size > max_size:
            return None
        # A byte more than it holds is asked: exactly its size back is taken for the end. Anything else (it grew
        # or shrank since the fstat, or a read stopped short: Linux's 2 GiB cap, some network file systems) reads
        # on to the end, as read_bytes does. (A file growing while it is read may or may not have its new bytes
        # read, as with any reader: here, when a short read happens to stop at its old size.)
        first = os.read(descriptor, status.st_size + 1)
        if len(first) == status.st_size:
            return first
        chunks = [first]
        total = len(first)
        while total <= max_size and (chunk := os.read(descriptor, READ_CHUNK)):
            chunks.append(chunk)
            total += len(chunk)
        return b"".join(chunks) if total <= max_size else None
    finally:
        os.close(descriptor)


def source_from_bytes(path: Path, shown: str, raw: bytes, result: LintResult, explicit: bool) -> SourceFile | None:
    try:
        source = SourceFile.from_bytes(path, shown, raw)
    except BinaryFileError:
        result.skipped.append(Skip(shown, "binary (contains NUL bytes)"))
        return None
    if not explicit and len(raw) > 4096 and _minified(raw):
        result.skipped.append(Skip(shown, "minified (lines average over 1,000 characters)"))
        return None
    return source


def _minified(raw: bytes) -> bool:
    """Whether the lines average over MINIFIED_AVERAGE_LINE bytes. Most files have lines enough not to in their
    first eighth already (counting newlines is a pass over every byte read, in the serial start of a run)."""
    lines_needed = -(-len(raw) // MINIFIED_AVERAGE_LINE)  # the fewest that keep the average at or under it
    if raw.count(b"\n", 0, len(raw) // 8) + 1 >= lines_needed:
        return False
    return len(raw) / (raw.count(b"\n") + 1) > MINIFIED_AVERAGE_LINE


def lint_sources(sources: list[SourceFile], settings: Settings, result: LintResult | None = None) -> LintResult:
    """Analyse already-read sources as one project and run every selected rule."""
    result = result or LintResult()
    index = ProjectIndex(sources, subscribed_kinds(settings.rules))
    build_project(sources, index, settings, result)
    result.files_checked += len(sources)
    run_rules(result.project, settings, result)
    result.notices.extend(Notice(path, message) for path, message in index.notices)
    return result


def build_project(sources: Iterable[SourceFile], index: ProjectIndex, settings: Settings, result: LintResult, *,
                  prefiltered: bool = False) -> None:
    """Parse and extract ``sources`` into ``result.project`` (rules not run yet); ``prefiltered``: every source
    passed the prefilter already."""
    project = result.project
    project.index = index
    for source in sources:
        try:
            project.files.append(analyze_source(source, index.kinds, index, prefiltered=prefiltered))
        except Exception as error:  # noqa: BLE001 - one bad file must not stop the run
            detail = _traceback() if settings.verbose else f"{type(error).__name__}: {error}"
            result.notices.append(Notice(source.display_path, f"internal error while analysing: {detail}", True))
    adopt_imported_scripts(project)
    assign_frameworks(project, index)


def adopt_imported_scripts(project: Project) -> None:
    """A module parsed only because a tool was imported from it joins its file's analysis, so every rule sees it,
    and so do its suppression comments (for the findings in it)."""
    by_path = {analysis.source.display_path: analysis for analysis in project.files}
    for tool in project.tools:
        script = tool.script
        if script is None:
            continue
        analysis = by_path.get(script.source.display_path)
        if analysis is None:
            analysis = by_path[script.source.display_path] = FileAnalysis(script.source, imported_only=True)
            project.files.append(analysis)
        if all(existing is not script for existing in analysis.scripts):
            analysis.scripts.append(script)
            if analysis.imported_only:
                analysis.suppressions.extend(script_directives(script))


def read_paths(paths: list[str], settings: Settings) -> tuple[list[SourceFile], LintResult]:
    """Discover and read files; the result holds the skips and notices so far (the fixer lints it repeatedly)."""
    found = discover(paths, exclusion=settings.exclusion, force_exclude=settings.force_exclude)
    result = LintResult(skipped=list(found.skipped), skipped_dirs=list(found.skipped_dirs))
    for missing in found.missing:
        result.notices.append(Notice(missing, "no such file or directory"))
    sources = []
    for path in found.files:
        shown = found.display_path(path)
        source = read_source(path, shown, settings, result, path in found.explicit)
        if source is not None:
            sources.append(source)
    return sources, result


def lint_paths(paths: list[str], settings: Settings, jobs: int = 1, cache_dir: Path | None = None, *,
               keep_models: bool = True) -> LintResult:
    """Lint files and directories as one project.

    With ``jobs`` > 1, a ``cache_dir`` or ``keep_models`` False, each file is
    linted as its own unit (webmcp_lint.units): in parallel, reusing the
    cached findings of unchanged files, and dropping each file's parse trees
    and tool model once its rules ran (memory stays flat however many files
    there are). The findings are the same, but ``result.project`` then holds
    no parse trees: commands that need the tool model keep the default.
    """
    sources, result = read_paths(paths, settings)
    if jobs > 1 or cache_dir is not None or not keep_models:
        from webmcp_lint.units import lint_units  # the unit runner builds on this module

        return lint_units(sources, settings, result, jobs, cache_dir)
    return lint_sources(sources, settings, result)


def lint_text(text: str, filename: str = "input.js", settings: Settings | None = None) -> LintResult:
    """Lint one in-memory file (tests, stdin, the language server)."""
    source = SourceFile(Path(filename), filename, text)
    return lint_sources([source], settings or Settings())

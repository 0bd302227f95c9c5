"""Which files to lint: directory walking, .gitignore, default excludes, and skip reasons."""

from __future__ import annotations

import os
import re
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Iterator

from webmcp_lint import OWN_CACHE_DIR
from webmcp_lint.embedded import EMBEDDING_SUFFIXES
from webmcp_lint.record import Record
from webmcp_lint.languages import SCRIPT_LANGUAGE_BY_SUFFIX

if TYPE_CHECKING:
    import pathspec

DEFAULT_EXCLUDED_DIRS = frozenset({
    "node_modules", ".git", "dist", "build", "out", "coverage", ".next", ".nuxt",
    ".svelte-kit", "vendor", OWN_CACHE_DIR,
})
LINTED_SUFFIXES = frozenset(SCRIPT_LANGUAGE_BY_SUFFIX) | EMBEDDING_SUFFIXES
# Why a walk leaves a directory out on purpose; any other reason (permission denied, a symlink loop) is a directory
# the run could not look into, and is named like a skipped file.
EXCLUSION_REASONS = frozenset({"excluded by default", "excluded by configuration"})
UNSUPPORTED_FILE = "not a JavaScript, TypeScript, HTML, Vue or Svelte file"


class Skip(Record):
    """A file or directory left out, and why (reported as a notice)."""

    __slots__ = ("path", "reason")
    _compared = __slots__

    def __init__(self, path: str, reason: str) -> None:
        self.path = path
        self.reason = reason


class Discovery(Record):
    """What the command-line paths expand to: the files to lint (those named explicitly too), the skips, the missing."""

    __slots__ = ("files", "explicit", "skipped", "skipped_dirs", "missing", "resolved", "shown")
    _compared = __slots__

    def __init__(self) -> None:
        self.files: list[Path] = []
        self.explicit: set[Path] = set()
        self.skipped: list[Skip] = []
        self.skipped_dirs: list[Skip] = []
        self.missing: list[str] = []
        self.resolved: dict[Path, Path] = {}  # walked files: the resolved path the walk worked out
        self.shown: dict[Path, str] = {}  # walked files: display_path worked out once per directory

    def display_path(self, path: Path) -> str:
        """``display_path(path)`` without resolving a walked file a second time."""
        return self.shown.get(path) or display_path(path, resolved=self.resolved.get(path))


def display_path(path: Path, cwd: Path | None = None, resolved: Path | None = None) -> str:
    """Relative to the current directory with forward slashes when under it, else absolute.

    ``resolved``: ``path.resolve()`` when the caller knows it already.
    """
    try:
        if not path.is_absolute():
            return Path(os.path.normpath(path)).as_posix()
        return (resolved or _resolved_file(path)).relative_to(_resolved_cwd(os.fspath(cwd or os.getcwd()))).as_posix()
    except (ValueError, OSError):
        return path.as_posix()


def _resolved_file(path: Path) -> Path:
    """``path.resolve()`` with its directory resolved once per run of files, not once per file."""
    if path.name in ("", ".", "..") or path.is_symlink():
        return path.resolve()
    return _resolved_directory(path.parent) / path.name


@lru_cache(maxsize=4096)
def _resolved_directory(directory: Path) -> Path:
    return directory.resolve()


@lru_cache(maxsize=16)
def _resolved_cwd(directory: str) -> Path:
    """The current directory resolved, keyed by its name (no Path built and hashed for every file shown)."""
    return Path(directory).resolve()


def _shown_directory(shown: Path, real: Path | None) -> str | None:
    """What ``display_path`` shows of a walked directory's files (not symlinks) before their names, so that a
    file costs a concatenation: how it shows a file named ``x`` there, without the ``x`` (normpath and
    relative_to leave a path's last name as it is). None when an absolute directory could not be resolved.

    ``real``: the directory resolved, as the walk worked it out."""
    if real is None and shown.is_absolute():
        return None
    return display_path(shown / "x", resolved=None if real is None else real / "x")[:-1]


class GitIgnore:
    """Nested .gitignore files, each matched relative to its own directory."""

    def __init__(self) -> None:
        self._specs: dict[Path, pathspec.GitIgnoreSpec | None] = {}
        self._chains: dict[tuple[Path, Path], tuple[tuple[Path, pathspec.GitIgnoreSpec], ...]] = {}

    def _spec(self, directory: Path) -> pathspec.GitIgnoreSpec | None:
        if directory not in self._specs:
            spec = None
            ignore_file = directory / ".gitignore"
            try:
                if ignore_file.is_file():
                    spec = _gitignore_spec(ignore_file.read_text(encoding="utf-8", errors="replace").splitlines())
            except OSError:
                spec = None
            self._specs[directory] = spec
        return self._specs[directory]

    def chain(self, directory: Path, stop_at: Path) -> tuple[tuple[Path, pathspec.GitIgnoreSpec], ...]:
        """The .gitignore files that apply to the entries of ``directory``, nearest first, up to ``stop_at`` (the
        repository root); worked out once per directory, not once per entry."""
        climbed = []
        chain: tuple[tuple[Path, pathspec.GitIgnoreSpec], ...] = ()
        while True:
            known = self._chains.get((directory, stop_at))
            if known is not None:
                chain = known
                break
            climbed.append(directory)
            if directory == stop_at or directory.parent == directory:
                break
            directory = directory.parent
        for directory in reversed(climbed):
            spec = self._spec(directory)
            if spec is not None:
                chain = ((directory, spec), *chain)
            self._chains[(directory, stop_at)] = chain
        return chain


def _gitignore_spec(lines: list[str]) -> pathspec.GitIgnoreSpec:
    """The matcher of a .gitignore's lines; a line that is no valid pattern (a lone ``!``, ``[z-a]``) matches
    nothing, as git treats it, instead of stopping the run."""
    import pathspec  # only a tree with a .gitignore needs its matcher

    try:
        return pathspec.GitIgnoreSpec.from_lines(lines)
    except (ValueError, re.error):
        return pathspec.GitIgnoreSpec.from_lines([line for line in lines if pattern_error(line) is None])


def pattern_error(pattern: str) -> str | None:
    """Why ``pattern`` is no gitignore-style pattern (``[z-a]``, a lone ``!``), or None when it is one."""
    import pathspec

    try:
        pathspec.GitIgnoreSpec.from_lines([pattern])
    except (ValueError, re.error) as error:
        return str(error)
    return None


def _ignored(chain: tuple[tuple[Path, pathspec.GitIgnoreSpec], ...], path: Path, is_dir: bool) -> bool:
    """True when a .gitignore of ``chain`` (GitIgnore.chain of the directory holding ``path``) ignores it."""
    for ignore_directory, spec in chain:
        if spec.match_file(path.relative_to(ignore_directory).as_posix() + ("/" if is_dir else "")):
            return True
    return False


def _suffix(name: str) -> str:
    """``Path(name).suffix`` of a directory entry's name, without building a Path for every entry."""
    dot = name.rfind(".")
    return name[dot:] if 0 < dot < len(name) - 1 else ""


def repository_root(start: Path) -> Path:
    for candidate in (start, *start.parents):
        if (candidate / ".git").exists():
            return candidate
    return start


def discover(paths: list[str], *, excluded_dirs: frozenset[str] = DEFAULT_EXCLUDED_DIRS,
             suffixes: frozenset[str] = LINTED_SUFFIXES, respect_gitignore: bool = True,
             exclusion=None, force_exclude: bool = False) -> Discovery:
    """Expand command-line paths into files; explicit files are kept unless ``force_exclude``.

    ``exclusion`` (a config file's patterns, with ``excludes(path, is_dir)``)
    replaces ``excluded_dirs``: the config lists the defaults unless it
    overrides them.
    """
    _resolved_directory.cache_clear()  # directories are resolved once per run: symlinks may change between runs
    _resolved_cwd.cache_clear()
    if exclusion is not None:
        excluded_dirs = frozenset()
    result = Discovery()
    gitignore = GitIgnore()
    seen: set[Path] = set()
    for raw in paths:
        path = Path(raw)
        try:
            is_dir = path.is_dir()
            exists = is_dir or path.exists() or path.is_symlink()
        except OSError as error:
            result.skipped.append(Skip(raw, f"cannot access: {error.strerror or error}"))
            continue
        if not exists:
            result.missing.append(raw)
            continue
        if not is_dir:
            try:
                resolved = path.resolve(strict=True)
            except (OSError, RuntimeError) as error:
                result.skipped.append(Skip(display_path(path), _os_reason(error)))
                continue
            reason = explicit_skip_reason(path, exclusion, force_exclude, excluded_dirs, suffixes)
            if reason is not None:
                result.skipped.append(Skip(display_path(path), reason))
                continue
            if resolved not in seen:
                seen.add(resolved)
                result.files.append(path)
                result.explicit.add(path)
            continue
        root = path.resolve()
        stop_at = repository_root(root)
        for file, resolved, shown in _walk(root, path, result, gitignore, stop_at, excluded_dirs, suffixes,
                                           respect_gitignore, exclusion):
            identity = file if resolved is None else resolved  # unresolvable directory: the file stands for itself
            if identity not in seen:
                seen.add(identity)
                result.files.append(file)
                if resolved is not None:
                    result.resolved[file] = resolved
                if shown is not None:
                    result.shown[file] = shown
    return result


def explicit_skip_reason(path: Path, exclusion, force_exclude: bool,
                         excluded_dirs: frozenset[str] = DEFAULT_EXCLUDED_DIRS,
                         suffixes: frozenset[str] = LINTED_SUFFIXES) -> str | None:
    """Why a file named on the command line (or given as ``--stdin-filename``) is not linted, or None."""
    if force_exclude and explicitly_excluded(path, exclusion, excluded_dirs):
        return "excluded"
    if _suffix(path.name).lower() not in suffixes:
        return UNSUPPORTED_FILE
    return None


def explicitly_excluded(path: Path, exclusion, excluded_dirs: frozenset[str] = DEFAULT_EXCLUDED_DIRS) -> bool:
    """Whether the excludes name ``path`` (``--force-exclude`` drops such a file named on the command line)."""
    if exclusion is not None:
        return exclusion.excludes(path)
    shown = Path(display_path(path))  # the folders above the current one are the user's, not the project's
    return not shown.is_absolute() and ".." not in shown.parts \
        and any(part in excluded_dirs for part in shown.parts[:-1])


def _os_reason(error: BaseException) -> str:
    if isinstance(error, RuntimeError) or getattr(error, "errno", None) == 40:
        return "symlink loop"
    if isinstance(error, FileNotFoundError):
        return "broken symlink or file vanished"
    if isinstance(error, PermissionError):
        return "permission denied"
    return f"cannot access: {getattr(error, 'strerror', None) or error}"


def _walk(root: Path, shown_root: Path, result: Discovery, gitignore: GitIgnore, stop_at: Path,
          excluded_dirs: frozenset[str], suffixes: frozenset[str], respect_gitignore: bool,
          exclusion=None) -> Iterator[tuple[Path, Path | None, str | None]]:
    """Iterative walk that follows directory symlinks once (a loop gives a notice, not a hang).

    Yields each file as named, resolved (for telling apart two names of one
    file) and as display_path shows it when the walk knows (None otherwise):
    a directory's resolved path is carried down to its entries, so only
    symlinks are resolved on their own.
    """
    visited: set[tuple[int, int]] = set()
    stack: list[tuple[Path, Path, Path | None]] = [(root, shown_root, root)]  # directory, as shown, resolved
    while stack:
        directory, shown, real = stack.pop()
        try:
            stat = directory.stat()
        except OSError as error:
            result.skipped_dirs.append(Skip(display_path(shown), _os_reason(error)))
            continue
        key = (stat.st_dev, stat.st_ino)
        if key in visited:
            result.skipped_dirs.append(Skip(display_path(shown), "symlink loop"))
            continue
        visited.add(key)
        try:
            entries = sorted(os.scandir(directory), key=lambda entry: entry.name)
        except OSError as error:
            result.skipped_dirs.append(Skip(display_path(shown), _os_reason(error)))
            continue
        if real is None:  # reached through a symlink
            try:
                real = directory.resolve()
            except (OSError, RuntimeError):
                real = None
        ignore_chain = gitignore.chain(directory, stop_at) if respect_gitignore else ()
        shown_directory = _shown_directory(shown, real)
        subdirectories = []
        for entry in entries:
            name = entry.name
            try:
                is_dir = entry.is_dir()
            except OSError:
                is_dir = False
            if is_dir:
                if name == OWN_CACHE_DIR:  # the linter's own cache, whatever the excludes: not worth a word in a report
                    continue
                entry_path = directory / name
                entry_shown = shown / name
                if name in excluded_dirs:
                    result.skipped_dirs.append(Skip(display_path(entry_shown), "excluded by default"))
                    continue
                if exclusion is not None and exclusion.excludes(entry_path, True):
                    result.skipped_dirs.append(Skip(display_path(entry_shown), "excluded by configuration"))
                    continue
                if ignore_chain and _ignored(ignore_chain, entry_path, True):
                    continue
                real_subdirectory = None if real is None or entry.is_symlink() else real / name
                subdirectories.append((entry_path, entry_shown, real_subdirectory))
                continue
            if _suffix(name).lower() not in suffixes:
                continue
            entry_shown = shown / name
            if ignore_chain or exclusion is not None:  # they match the file's path: made only for them
                entry_path = directory / name
                if ignore_chain and _ignored(ignore_chain, entry_path, False):
                    continue
                if exclusion is not None and exclusion.excludes(entry_path):
                    result.skipped.append(Skip(display_path(entry_shown), "excluded by configuration"))
                    continue
            if name.endswith((".min.js", ".min.mjs", ".min.cjs")):
                result.skipped.append(Skip(display_path(entry_shown), "minified"))
                continue
            shown_as = None  # a symlink is shown by where it leads
            if entry.is_symlink():
                try:
                    resolved = (directory / name).resolve(strict=True)
                except (OSError, RuntimeError) as error:
                    result.skipped.append(Skip(display_path(entry_shown), _os_reason(error)))
                    continue
            else:
                resolved = real / name if real is not None else None
                if shown_directory is not None:
                    shown_as = shown_directory + name
            yield entry_shown, resolved, shown_as
        stack.extend(reversed(subdirectories))

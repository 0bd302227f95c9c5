"""Configuration files: ``[tool.webmcp-lint]`` in pyproject.toml, or ``webmcp-lint.toml`` / ``.webmcp-lint.toml``.

The closest file from the linted path upwards wins (in one directory:
``.webmcp-lint.toml``, then ``webmcp-lint.toml``, then a pyproject.toml that
has the table). Paths in ``exclude`` and ``per-file-ignores`` are
gitignore-style globs relative to the file's directory. Command-line options
override the file. A mistake exits 2 naming the file, the line and the key.

tomllib gives no positions, so the line of a bad key or value is found by
scanning the TOML text for it (the table header's line when not found).
"""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from webmcp_lint.diagnostics import Severity
from webmcp_lint.discovery import DEFAULT_EXCLUDED_DIRS, pattern_error
from webmcp_lint.engine import DEFAULT_MAX_FILE_SIZE, Settings
from webmcp_lint.record import HashedRecord, Record
from webmcp_lint.rules import Rule, all_rules
from webmcp_lint.selection import SelectorError, expand
from webmcp_lint.suggest import closest, did_you_mean
from webmcp_lint.suppression import suggest_rule

if TYPE_CHECKING:
    import pathspec

TABLE = "webmcp-lint"
CONFIG_NAMES = (".webmcp-lint.toml", "webmcp-lint.toml", "pyproject.toml")
LIST_KEYS = ("select", "extend-select", "ignore", "exclude", "extend-exclude")
KEYS = (*LIST_KEYS, "per-file-ignores", "fail-on", "max-file-size", "severity")
SEVERITIES = tuple(severity.value for severity in Severity)


class ConfigError(ValueError):
    """A configuration mistake, already worded as ``file:line: message``."""


class Exclusion(HashedRecord):
    """gitignore-style patterns, matched relative to ``root`` (the config file's directory)."""

    __slots__ = ("patterns", "root")
    _compared = __slots__

    def __init__(self, patterns: tuple[str, ...], root: Path) -> None:
        self.patterns = patterns
        self.root = root

    @property
    def spec(self) -> pathspec.PathSpec:
        return _spec(self.patterns)

    def excludes(self, path: Path, is_dir: bool = False) -> bool:
        relative = _relative(path, self.root)
        return relative is not None and self.spec.match_file(relative + ("/" if is_dir else ""))


class PerFileIgnore(HashedRecord):
    """A ``per-file-ignores`` entry: the codes turned off in files matching ``pattern`` (relative to ``root``)."""

    __slots__ = ("pattern", "codes", "root")
    _compared = __slots__

    def __init__(self, pattern: str, codes: frozenset[str], root: Path) -> None:
        self.pattern = pattern
        self.codes = codes
        self.root = root

    def matches(self, path: Path) -> bool:
        relative = _relative(path, self.root)
        return relative is not None and _spec((self.pattern,)).match_file(relative)


class RuleLayer(Record):
    """One source of rule selection (the file, then the command line), in Ruff's model."""

    __slots__ = ("select", "extend_select", "ignore")
    _compared = __slots__

    def __init__(self, select: list[str] | None = None, extend_select: list[str] | None = None,
                 ignore: list[str] | None = None) -> None:
        self.select = select
        self.extend_select = [] if extend_select is None else extend_select
        self.ignore = [] if ignore is None else ignore


class Config(Record):
    """What a config file says, resolved to rules and paths."""

    __slots__ = ("path", "rules", "fail_on", "max_file_size", "severity_overrides", "per_file_ignores", "exclusion")
    _compared = __slots__

    def __init__(self, path: Path | None = None) -> None:
        self.path = path
        self.rules = RuleLayer()
        self.fail_on: Severity | None = None
        self.max_file_size: int | None = None
        self.severity_overrides: dict[str, Severity] = {}
        self.per_file_ignores: list[PerFileIgnore] = []
        self.exclusion: Exclusion | None = None


def _spec(patterns: tuple[str, ...]) -> pathspec.PathSpec:
    import pathspec  # only configs with excludes or per-file ignores match globs

    return _SPECS.get(patterns) or _SPECS.setdefault(patterns, pathspec.GitIgnoreSpec.from_lines(patterns))


_SPECS: dict[tuple[str, ...], pathspec.PathSpec] = {}


def _relative(path: Path, root: Path) -> str | None:
    """``path`` relative to ``root`` (both made absolute without following symlinks, which may loop); None for a
    path outside it, which the config's patterns (relative to its folder) cannot name."""
    try:
        return Path(os.path.abspath(path)).relative_to(os.path.abspath(root)).as_posix()
    except ValueError:
        return None


# --- finding and reading the file -------------------------------------------------------------------


def _tomllib():
    """The TOML parser, imported only when there is a file to read (most runs have none)."""
    if sys.version_info >= (3, 11):
        import tomllib
    else:  # pragma: no cover - exercised on Python 3.10 only
        import tomli as tomllib
    return tomllib


def find_config(start: Path) -> Path | None:
    """The closest config file from ``start`` (a file or directory) upwards."""
    start = Path(os.path.abspath(start))
    directory = start if start.is_dir() else start.parent
    for candidate in (directory, *directory.parents):
        for name in CONFIG_NAMES:
            path = candidate / name
            if path.is_file() and (name != "pyproject.toml" or _has_table(path)):
                return path
    return None


# A ``[tool.webmcp-lint]`` header (or a sub-table of it), told apart from other tools' tables in a file that does
# not parse: such a file is ours to report.
_OWN_TABLE_HEADER = re.compile(r"""^\s*\[\s*tool\s*\.\s*(?:webmcp-lint|"webmcp-lint"|'webmcp-lint')\s*[\].]""",
                               re.MULTILINE)


def _has_table(pyproject: Path) -> bool:
    tomllib = _tomllib()
    try:
        text = pyproject.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return False  # an unreadable pyproject.toml of someone else's tool is not ours to report
    try:
        document = tomllib.loads(text)
    except tomllib.TOMLDecodeError:
        return bool(_OWN_TABLE_HEADER.search(text))  # broken: ours to report only when it holds our table
    return isinstance(document.get("tool"), dict) and TABLE in document["tool"]


def common_directory(paths: list[str]) -> Path:
    """Where the search for a config starts: the deepest directory holding every linted path."""
    resolved = [os.path.abspath(path) for path in paths if path != "-"] or [os.getcwd()]
    common = Path(os.path.commonpath(resolved))
    return common if common.is_dir() else common.parent


def load_config(path: Path) -> Config:
    """Read and check one config file; raises ConfigError naming file, line and key."""
    shown = _shown(path)
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise ConfigError(f"{shown}: cannot read the configuration: {getattr(error, 'strerror', None) or error}") from None
    tomllib = _tomllib()
    try:
        document = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        line = re.search(r"at line (\d+)", str(error))
        raise ConfigError(f"{shown}:{line.group(1) if line else 1}: invalid TOML: {error}") from None
    table_path: tuple[str, ...] = ()
    if path.name == "pyproject.toml":
        table_path = ("tool", TABLE)
        tool = document.get("tool", {})
        document = tool.get(TABLE, {}) if isinstance(tool, dict) else {}
        if not isinstance(document, dict):
            raise ConfigError(f"{shown}:{_line_of(text, (), TABLE)}: [tool.{TABLE}] must be a table")
    return _Reader(path, shown, text, table_path).read(document)


def _shown(path: Path) -> str:
    try:
        return Path(os.path.abspath(path)).relative_to(os.getcwd()).as_posix()
    except ValueError:
        return path.as_posix()


class _Reader:
    """Checks one document's keys and values, locating each mistake in the text."""

    def __init__(self, path: Path, shown: str, text: str, table_path: tuple[str, ...]) -> None:
        self.path, self.shown, self.text, self.table_path = path, shown, text, table_path
        self.root = Path(os.path.abspath(path)).parent

    def fail(self, key: str, message: str, value: str | None = None, table: tuple[str, ...] = ()) -> ConfigError:
        line = _line_of(self.text, self.table_path + table, key, value)
        return ConfigError(f"{self.shown}:{line}: {message}")

    def read(self, document: dict[str, Any]) -> Config:
        config = Config(path=self.path)
        for key in document:
            if key not in KEYS:
                raise self.fail(key, f"unknown key `{key}`{did_you_mean(closest(key, KEYS))}")
        lists = {key: self.strings(document, key) for key in LIST_KEYS if key in document}
        for key in ("select", "extend-select", "ignore"):
            for selector in lists.get(key, []):
                self.codes(key, selector)
        config.rules = RuleLayer(lists.get("select"), lists.get("extend-select", []), lists.get("ignore", []))
        for key in ("exclude", "extend-exclude"):
            for pattern in lists.get(key, []):
                self.glob(key, pattern)
        if "exclude" in lists or "extend-exclude" in lists:
            base = lists["exclude"] if "exclude" in lists else sorted(DEFAULT_EXCLUDED_DIRS)
            config.exclusion = Exclusion(tuple(base) + tuple(lists.get("extend-exclude", [])), self.root)
        if "fail-on" in document:
            config.fail_on = self.severity("fail-on", document["fail-on"])
        if "max-file-size" in document:
            size = document["max-file-size"]
            if isinstance(size, bool) or not isinstance(size, int) or size <= 0:
                raise self.fail("max-file-size", f"`max-file-size` must be a positive number of bytes, not {size!r}")
            config.max_file_size = size
        config.per_file_ignores = self.per_file_ignores(document.get("per-file-ignores", {}))
        config.severity_overrides = self.severity_overrides(document.get("severity", {}))
        return config

    def strings(self, document: dict[str, Any], key: str) -> list[str]:
        value = document[key]
        if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
            raise self.fail(key, f"`{key}` must be a list of strings, not {_type_name(value)}")
        return value

    def glob(self, key: str, pattern: str, table: tuple[str, ...] = ()) -> None:
        """Raises when ``pattern`` is no gitignore-style pattern (``[z-a]``, a lone ``!``)."""
        error = pattern_error(pattern)
        if error is not None:
            raise self.fail(key, f"`{table[-1] if table else key}` holds `{pattern}`, which is not a valid glob "
                                 f"({error})", value=pattern, table=table)

    def codes(self, key: str, selector: str, table: tuple[str, ...] = ()) -> list[Rule]:
        try:
            return expand(selector)
        except SelectorError:
            raise self.fail(key, f"`{key}` names `{selector}`, which is no rule{did_you_mean(suggest_rule(selector))}",
                            value=selector, table=table) from None

    def severity(self, key: str, value: Any, table: tuple[str, ...] = ()) -> Severity:
        if not isinstance(value, str) or value not in SEVERITIES:
            suggestion = closest(value, SEVERITIES, {"warn": "warning", "note": "info"}) if isinstance(value, str) else None
            raise self.fail(key, f"`{key}` must be one of {', '.join(SEVERITIES)}, not {value!r}"
                                 f"{did_you_mean(suggestion)}", table=table)
        return Severity(value)

    def per_file_ignores(self, value: Any) -> list[PerFileIgnore]:
        if not isinstance(value, dict):
            raise self.fail("per-file-ignores", "`per-file-ignores` must be a table of globs to lists of rules")
        entries = []
        for pattern, selectors in value.items():
            if not isinstance(selectors, list) or not all(isinstance(item, str) for item in selectors):
                raise self.fail(pattern, f"`per-file-ignores` entry `{pattern}` must be a list of rules, "
                                         f"not {_type_name(selectors)}", table=("per-file-ignores",))
            self.glob(pattern, pattern, table=("per-file-ignores",))
            codes = frozenset(rule.code for selector in selectors
                              for rule in self.codes(pattern, selector, table=("per-file-ignores",)))
            entries.append(PerFileIgnore(pattern, codes, self.root))
        return entries

    def severity_overrides(self, value: Any) -> dict[str, Severity]:
        if not isinstance(value, dict):
            raise self.fail("severity", "`severity` must be a table of rules to error, warning or info")
        overrides: dict[str, Severity] = {}
        for selector, level in value.items():
            severity = self.severity(selector, level, table=("severity",))
            for rule in self.codes(selector, selector, table=("severity",)):
                overrides[rule.code] = severity
        return overrides


def _type_name(value: Any) -> str:
    names = {str: "a string", int: "a number", float: "a number", bool: "a boolean", dict: "a table", list: "a list"}
    return names.get(type(value), type(value).__name__)


def _line_of(text: str, table: tuple[str, ...], key: str, value: str | None = None) -> int:
    """1-based line of ``key`` (or of the quoted ``value`` from the key on) inside ``table``; else the
    table header's line, else 1.

    Handles ``[a.b]`` headers, dotted keys (``b.key = ...`` under ``[a]``),
    inline tables and quoted keys, which covers how these files are written.
    """
    lines = text.splitlines()
    key_pattern = rf"""(?:{re.escape(key)}|"{re.escape(key)}"|'{re.escape(key)}')\s*="""
    fallback: tuple[int, int, int] | None = None  # (header line, region start, region end) of the deepest table
    for depth in range(len(table), -1, -1):
        header = _header_index(lines, table[:depth]) if depth else -1
        if header is None:
            continue
        start = header + 1
        end = next((index for index in range(start, len(lines)) if lines[index].lstrip().startswith("[")), len(lines))
        dotted = "".join(rf"""(?:{re.escape(part)}|"{re.escape(part)}")\s*\.\s*""" for part in table[depth:])
        key_line = _first_line_matching(lines, re.compile(r"(?:^|[{,])\s*" + dotted + key_pattern), start, end)
        if key_line is None and depth < len(table):
            # An inline table (one line in TOML): ``severity = { WM604 = "warn" }``.
            inline = "".join(rf"""(?:{re.escape(part)}|"{re.escape(part)}")\s*[.=]\s*""" for part in table[depth:])
            key_line = _first_line_matching(
                lines, re.compile(r"(?:^|[{,])\s*" + inline + r"\{(?:.*?,)?\s*" + key_pattern), start, end)
        if key_line is not None:
            value_line = _first_line_matching(lines, _quoted(value), key_line, end) if value is not None else None
            return (value_line if value_line is not None else key_line) + 1
        if depth and fallback is None:
            fallback = (header, start, end)
    if fallback is None:
        return 1
    header, start, end = fallback
    value_line = _first_line_matching(lines, _quoted(value), start, end) if value is not None else None
    return (value_line if value_line is not None else header) + 1


def _quoted(value: str) -> re.Pattern:
    return re.compile(rf"""["']{re.escape(value)}["']""")


def _first_line_matching(lines: list[str], pattern: re.Pattern, start: int, end: int) -> int | None:
    return next((index for index in range(start, end) if pattern.search(lines[index])), None)


def _header_index(lines: list[str], table: tuple[str, ...]) -> int | None:
    parts = r"\s*\.\s*".join(rf"""(?:{re.escape(part)}|"{re.escape(part)}")""" for part in table)
    header = re.compile(rf"^\s*\[\s*{parts}\s*\]")
    return next((index for index, line in enumerate(lines) if header.match(line)), None)


# --- resolving a run's settings ---------------------------------------------------------------------


def resolve_rules(layers: list[RuleLayer]) -> list[Rule]:
    """Ruff's stacking: a layer's ``select`` replaces what came before, then it extends and ignores."""
    rules = all_rules()
    chosen = {rule.code: rule for rule in rules}
    for layer in layers:
        if layer.select is not None:
            chosen = {rule.code: rule for selector in layer.select for rule in expand(selector, rules)}
        for selector in layer.extend_select:
            chosen.update((rule.code, rule) for rule in expand(selector, rules))
        for selector in layer.ignore:
            for rule in expand(selector, rules):
                chosen.pop(rule.code, None)
    return sorted(chosen.values(), key=lambda rule: rule.code)


def run_settings(search_from: list[str], *, config_file: str | None, isolated: bool, command_line: RuleLayer,
                 verbose: bool = False, force_exclude: bool = False) -> tuple[Settings, Config]:
    """The run's settings: the config file (``--config``, else the closest one, none with ``--isolated``)
    overridden by the command line. Raises ConfigError, or SelectorError for a bad command-line rule."""
    if isolated:
        config = Config()
    elif config_file:
        config = load_config(Path(config_file))
    else:
        found = find_config(common_directory(search_from))
        config = load_config(found) if found is not None else Config()
    settings = Settings(
        rules=resolve_rules([config.rules, command_line]),
        severity_overrides=config.severity_overrides,
        max_file_size=config.max_file_size or DEFAULT_MAX_FILE_SIZE,
        verbose=verbose,
        per_file_ignores=config.per_file_ignores,
        exclusion=config.exclusion,
        force_exclude=force_exclude,
    )
    return settings, config

"""The project around the linted files: modules and their exports, package.json, tsconfig.json.

Built once per run. Import resolution is lazy: a module is parsed the first
time a definition needs one of its exports (a factory module holds no
WebMCP trigger word, so the prefilter alone would never parse it), and each
file is parsed at most once per run whether it is linted, imported or both.

Relative ES module imports resolve like bundlers do (exact file, added
extension, ``.js`` written for a ``.ts`` file, ``dir/index.*``), and so do
the paths the governing tsconfig.json or jsconfig.json maps (``@/tools/x``,
webmcp_lint.tsconfig); any other specifier is a package. Exports are
named and default declarations, ``export { x as y }``, ``export ... from``
(re-exports), and CommonJS ``module.exports`` / ``exports.x`` with ``require``.
Problems (a missing module, an import cycle, a package.json that is not
JSON) become notices; they never stop the run.
"""

from __future__ import annotations

import os
from collections import OrderedDict
from functools import lru_cache, partial
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Hashable, Iterable, Iterator, Mapping

from tree_sitter import Node, Tree

from webmcp_lint.digests import new_hash
from webmcp_lint.evaluate import FUNCTION_NODE_KINDS, JSFunction, JSObject, Prop, Unknown, Value, member
from webmcp_lint.jsonc import BinaryFileError, JsonDocument, JsonError, load_json_document
from webmcp_lint.languages import SCRIPT_LANGUAGE_BY_SUFFIX
from webmcp_lint.record import Record
from webmcp_lint.scope import Binding, pattern_names, specifier_names, specifier_text
from webmcp_lint.source import SourceFile
from webmcp_lint.tsconfig import CONFIG_NAMES, PathMapping, compiling_config, path_mapping

if TYPE_CHECKING:
    from webmcp_lint.model import Script

MAX_MODULE_SIZE = 8 * 1024 * 1024
MAX_SHARED_PARSES = 32  # parses of imported modules the units of one process keep for one another
MAX_ORIGIN_HOPS = 6  # local modules a re-exported package name may pass through
RESOLVED_SUFFIXES = (".ts", ".tsx", ".mts", ".cts", ".js", ".jsx", ".mjs", ".cjs")
# `import "./api.js"` in TypeScript names the file api.ts (and so on).
TYPESCRIPT_FOR = {".js": (".ts", ".tsx"), ".jsx": (".tsx",), ".mjs": (".mts",), ".cjs": (".cts",)}


# What a run saw of a file it looked at beyond its linted file (see ProjectIndex.looked_at).
PRESENT, ABSENT = "present", "absent"
# Recorded (as the key, with itself as the value) when an analysis read every discovered source, not one by path.
EVERY_SOURCE = Path("<every discovered source>")


def absolute(path: Path) -> Path:
    return _absolute(path, None if path.is_absolute() else os.getcwd())


@lru_cache(maxsize=16384)
def _absolute(path: Path, cwd: str | None) -> Path:
    """Memoized per working directory (``cwd`` is None for a path that is already absolute). A path that is
    absolute and normal already (every discovered file under an absolute root) is its own answer: no new Path."""
    text = str(path)
    normal = os.path.abspath(text)
    return path if normal == text else Path(normal)


def text_digest(data: bytes) -> str:
    """The digest the cache compares: of a file's text as analysed (SourceFile.data)."""
    return new_hash(data).hexdigest()


def is_relative_specifier(specifier: str) -> bool:
    return specifier in (".", "..") or specifier.startswith(("./", "../"))


class ModuleExports(Record):
    """What one module exports, as syntax: evaluated only when an importer asks."""

    _compared = ("locals", "values", "reexports", "star_reexports", "commonjs")

    def __init__(self) -> None:
        self.locals: dict[str, str] = {}  # exported name -> local binding name
        self.values: dict[str, Node] = {}  # exported name -> expression or declaration
        self.reexports: dict[str, tuple[str, str]] = {}  # name -> (specifier, name there)
        self.star_reexports: list[str] = []  # export * from "..."
        self.commonjs: Node | None = None  # module.exports = <node>

    @property
    def names(self) -> list[str]:
        return list(dict.fromkeys([*self.locals, *self.values, *self.reexports]))


class FileFacts:
    """What a run learns about the file system, shared by the indexes of its units (a plain holder: two are
    never compared).

    ``lookups`` holds each search's answer with the text of every path it
    checked, so an index answering from it still records those paths in its
    ``looked_at``. ``directories`` holds the absolute directory of each file
    an import was resolved from (a unit asks several times: pathlib is slow).
    ``imported_parses`` holds the last parse trees of imported modules (with the
    text each was parsed from and its nodes by kind), so the units that import
    a module, and the module's own unit, do not parse it again.
    """

    def __init__(self) -> None:
        self.on_disk: dict[Path, bool] = {}
        self.lookups: dict[Hashable, tuple[Path | None, tuple[tuple[str, bool], ...]]] = {}
        self.directories: dict[Path, str] = {}
        self.imported_parses: OrderedDict[tuple, tuple[bytes, Tree, dict[str, list[Node]]]] = OrderedDict()


def _shared_parse_key(source: SourceFile, language: str, kinds: frozenset[str]) -> tuple[str, str, frozenset[str]]:
    """A parse is shared for one file, language and set of node kinds (its nodes by kind hold only those)."""
    return str(absolute(source.path)), language, kinds


class ProjectIndex:
    """Modules, their exports and the JSON configuration files of one run."""

    def __init__(self, sources: Iterable[SourceFile] | Mapping[Path, SourceFile], kinds: frozenset[str],
                 facts: FileFacts | None = None) -> None:
        self.kinds = kinds
        # Every file the analysis looked at (by its path's text), with what it found: the text's digest,
        # PRESENT or ABSENT. A cached result stays valid only while all of these still hold.
        self.looked_at: dict[str, str] = {}
        # A mapping (absolute path -> source) is shared as is: parallel units reuse one run's table.
        self.sources: Mapping[Path, SourceFile] = _Sources(sources if isinstance(sources, Mapping) else {
            absolute(source.path): source for source in sources}, self.looked_at)
        self.notices: list[tuple[str, str]] = []
        self._notice_keys: set[tuple[str, str]] = set()
        self._scripts: dict[Path, Script | None] = {}
        self._exports: dict[int, ModuleExports] = {}
        self._resolving: list[tuple[Path, str]] = []
        self._json: dict[Path, JsonDocument | None] = {}
        self._path_mappings: dict[Path, PathMapping | None] = {}  # by config file
        self._mapping_of_importer: dict[Path, PathMapping | None] = {}  # a file asks once for each of its imports
        # The answers of the searches whose checked paths this index already recorded in ``looked_at``.
        self._recorded_lookups: dict[Hashable, Path | None] = {}
        # The last file ``directory_of`` answered for (asked for one file many times in a row).
        self._last_directory: tuple[Path | None, str] = (None, "")
        # Indexes of one run may share what they learn of the disk (each still records what it asks).
        self.facts = facts if facts is not None else FileFacts()

    # scripts ----------------------------------------------------------------------------
    def attach(self, script: Script, whole_file: bool = True) -> None:
        """Let ``script``'s evaluator follow its imports; remember it as its file's parse."""
        script.evaluator.resolve_import = partial(self._resolve_import, script)
        script.index = self
        if whole_file:
            self._scripts.setdefault(absolute(script.source.path), script)

    def cached_script(self, source: SourceFile, language: str) -> Script | None:
        script = self._scripts.get(absolute(source.path))
        return script if script is not None and script.language == language else None

    def parsed_scripts(self) -> Iterator[Script]:
        """Every whole file this index parsed, linted or only imported."""
        return (script for script in self._scripts.values() if script is not None)

    def module_script(self, path: Path) -> Script | None:
        """The parse of the module at ``path`` (linted or only imported), built at most once."""
        if path in self._scripts:
            return self._scripts[path]
        self._scripts[path] = None  # also guards against re-entry while building
        language = SCRIPT_LANGUAGE_BY_SUFFIX.get(path.suffix.lower())
        source = self.sources.get(path) or self._read_module(path)
        self.looked_at[str(path)] = text_digest(source.data) if source is not None else ABSENT
        if language is None or source is None:
            return None
        from webmcp_lint.engine import build_script  # the engine builds scripts; it imports this module

        script = build_script(source, language, self.kinds, index=self)
        self._scripts[path] = script
        self._share_parse(script)
        return script

    def imported_parse(self, source: SourceFile, language: str,
                       kinds: frozenset[str]) -> tuple[Tree, dict[str, list[Node]]] | None:
        """The tree and nodes of ``kinds`` of ``source`` as some unit of this run imported it, if its text is the
        same."""
        key = _shared_parse_key(source, language, kinds)
        known = self.facts.imported_parses.get(key)
        if known is None or known[0] != source.data:
            return None
        self.facts.imported_parses.move_to_end(key)
        return known[1], known[2]

    def _share_parse(self, script: Script) -> None:
        """Keep an imported module's parse for the other units (trees never change; a few are kept at most)."""
        parses = self.facts.imported_parses
        key = _shared_parse_key(script.source, script.language, self.kinds)  # module_script parses with these
        parses[key] = (script.source.data, script.tree, script.nodes)
        parses.move_to_end(key)
        if len(parses) > MAX_SHARED_PARSES:
            parses.popitem(last=False)

    def _read_module(self, path: Path) -> SourceFile | None:
        from webmcp_lint.discovery import display_path

        try:
            if path.stat().st_size > MAX_MODULE_SIZE:
                return None
            return SourceFile.from_bytes(path, display_path(path), path.read_bytes())
        except (OSError, BinaryFileError):
            return None

    # files ------------------------------------------------------------------------------
    def is_file(self, path: Path) -> bool:
        """A linted source (maybe in memory only) or a file on disk."""
        found = path in self.sources or self.on_disk(path)
        self.looked_at.setdefault(str(path), PRESENT if found else ABSENT)
        return found

    def on_disk(self, path: Path) -> bool:
        known = self._on_disk(path)
        self.looked_at.setdefault(str(path), PRESENT if known else ABSENT)
        return known

    def _on_disk(self, path: Path) -> bool:
        known = self.facts.on_disk.get(path)
        if known is None:
            try:
                known = path.is_file()
            except OSError:
                known = False
            self.facts.on_disk[path] = known
        return known

    def first_file(self, key: Hashable, candidates: Callable[[], Iterable[Path]]) -> Path | None:
        """The first of ``candidates`` that is a file (searched once per run under ``key``), recording each checked
        (once per index: ``looked_at`` only ever gains paths, so recording them again would change nothing)."""
        if key in self._recorded_lookups:
            return self._recorded_lookups[key]
        known = self.facts.lookups.get(key)
        if known is None:
            checked = []
            found = None
            for candidate in candidates():
                present = candidate in self.sources or self._on_disk(candidate)
                checked.append((str(candidate), present))
                if present:
                    found = candidate
                    break
            known = self.facts.lookups[key] = (found, tuple(checked))
        for path, present in known[1]:
            self.looked_at.setdefault(path, PRESENT if present else ABSENT)
        self._recorded_lookups[key] = known[0]
        return known[0]

    def resolve_specifier(self, importer: Path, specifier: str) -> Path | None:
        """The file an import names: a relative one, or one the governing tsconfig.json (or jsconfig.json) maps in
        ``compilerOptions.paths``; None for a package or a missing module. Searched once per run."""
        directory = self.directory_of(importer)
        if is_relative_specifier(specifier):
            return self.first_file(("module", directory, specifier), lambda: _module_candidates(directory, specifier))
        mapping = self._path_mapping(directory, importer)
        targets = mapping.targets(_without_query(specifier)) if mapping is not None else []
        if not targets:
            return None
        return self.first_file(("mapped", *targets),
                               lambda: (candidate for target in targets for candidate in _file_candidates(target)))

    def _path_mapping(self, directory: str, importer: Path) -> PathMapping | None:
        """The import paths mapped by the tsconfig.json or jsconfig.json nearest ``directory`` (the folder of
        ``importer``), if any: for a solution config (Vite's and create-vue's root tsconfig.json, which only
        references others), by the referenced config that compiles the importer."""
        if importer in self._mapping_of_importer:
            return self._mapping_of_importer[importer]
        config = self.first_file(("config", directory), lambda: (
            folder / name for folder in _folders_up(directory) for name in CONFIG_NAMES))
        mapping = None
        if config is not None:
            config = compiling_config(config, [absolute(importer)], self)
            if config not in self._path_mappings:
                self._path_mappings[config] = path_mapping(config, self)
            mapping = self._path_mappings[config]
        self._mapping_of_importer[importer] = mapping
        return mapping

    def directory_of(self, file: Path) -> str:
        """The absolute directory holding ``file``, as text (a key cheaper to hash than a Path)."""
        last_file, directory = self._last_directory
        if file is last_file:
            return directory
        directory = self.facts.directories.get(file)
        if directory is None:
            directory = self.facts.directories[file] = os.path.dirname(absolute(file))
        self._last_directory = (file, directory)
        return directory

    def imported_files(self, scripts: Iterable[Script], importer: Path) -> list[Path]:
        """The files the import statements of ``scripts`` (of the file at ``importer``) name, where they exist."""
        paths = []
        for script in scripts:
            for name in script.import_specifiers():
                path = self.resolve_specifier(importer, name) if name else None
                if path is not None:
                    paths.append(absolute(path))
        return paths

    # import resolution ------------------------------------------------------------------
    def _resolve_import(self, script: Script, binding: Binding, depth: int) -> Value:
        specifier = binding.import_source or ""
        unknown = Unknown("import", (binding.name,))
        importer = absolute(script.source.path)
        target = self.resolve_specifier(importer, specifier)
        if target is None and not is_relative_specifier(specifier):
            return unknown  # a package (or a path no config maps)
        on_disk = self.on_disk(importer)
        if target is not None and not on_disk and target not in self.sources:
            target = None  # an in-memory snippet only sees the other linted files, not the disk
        if target is None:
            if on_disk:
                self.notice(script.source.display_path, f"cannot resolve import '{specifier}': no such module; "
                                                        "definitions that use it are not checked")
            return unknown
        module = self.module_script(target)
        if module is None:
            return unknown
        value = self.export_value(module, binding.imported_name or "default", depth, script.source.display_path)
        if isinstance(value, Unknown) and not value.references:
            return Unknown(value.reason, (binding.name,))
        return value

    def package_origin(self, script: Script, specifier: str, name: str) -> tuple[str, str] | None:
        """The package export a local module passes on (``export { useWebMCP } from "use-webmcp-tool"``).

        Follows re-exports and re-exported imports through local modules, a few
        hops at most; None when the name is defined locally or cannot be traced.
        """
        importer = absolute(script.source.path)
        for _ in range(MAX_ORIGIN_HOPS):
            target = self.resolve_specifier(importer, specifier)
            if target is None and not is_relative_specifier(specifier):
                return specifier, name  # the package itself
            module = self.module_script(target) if target is not None else None
            if module is None or name in ("*", "default"):
                return None
            exports = self.exports(module)
            if name in exports.reexports:
                specifier, name = exports.reexports[name]
            elif name in exports.locals:
                binding = module.scopes.binding_in(module.tree.root_node, exports.locals[name])
                if binding is None or binding.kind != "import" or binding.import_source is None:
                    return None
                specifier, name = binding.import_source, binding.imported_name or "default"
            elif len(exports.star_reexports) == 1:
                specifier = exports.star_reexports[0]
            else:
                return None
            importer = absolute(module.source.path)
        return None

    def export_value(self, module: Script, name: str, depth: int, importer: str) -> Value:
        """The value ``module`` exports as ``name`` ("default", "*" for the namespace, or a name)."""
        key = (absolute(module.source.path), name)
        if key in self._resolving:
            chain = " -> ".join(path.name for path, _ in self._resolving[self._resolving.index(key):])
            self.notice(importer, f"import cycle ({chain} -> {key[0].name}) while resolving '{name}'; "
                                  "definitions that use it are not checked")
            return Unknown("cycle")
        self._resolving.append(key)
        try:
            return self._export_value(module, name, depth)
        finally:
            self._resolving.pop()

    def _export_value(self, module: Script, name: str, depth: int) -> Value:
        exports = self.exports(module)
        if name == "*":
            return self._namespace(module, exports, depth)
        if name in exports.locals:
            return self._local_value(module, exports.locals[name], depth)
        if name in exports.values:
            node = exports.values[name]
            if node.type in FUNCTION_NODE_KINDS:
                return JSFunction(node, module.evaluator)
            return module.evaluator.value(node, depth + 1)
        if name in exports.reexports:
            specifier, there = exports.reexports[name]
            return self._reexported(module, specifier, there, depth)
        if exports.commonjs is not None:
            whole = module.evaluator.value(exports.commonjs, depth + 1)
            return whole if name == "default" else member(whole, name)
        for specifier in exports.star_reexports:
            value = self._reexported(module, specifier, name, depth)
            if not (isinstance(value, Unknown) and value.reason == "import"):
                return value
        return Unknown("import")

    def _local_value(self, module: Script, local: str, depth: int) -> Value:
        binding = module.scopes.binding_in(module.tree.root_node, local)
        if binding is None:
            return Unknown("import", (local,))
        return module.evaluator.binding_value(binding, depth + 1)

    def _reexported(self, module: Script, specifier: str, name: str, depth: int) -> Value:
        target = self.resolve_specifier(absolute(module.source.path), specifier)
        if target is None:
            if is_relative_specifier(specifier):
                self.notice(module.source.display_path, f"cannot resolve re-export from '{specifier}': no such module")
            return Unknown("import", (name,))
        there = self.module_script(target)
        if there is None:
            return Unknown("import", (name,))
        return self.export_value(there, name, depth + 1, module.source.display_path)

    def _namespace(self, module: Script, exports: ModuleExports, depth: int) -> Value:
        if exports.commonjs is not None and not exports.names:
            return module.evaluator.value(exports.commonjs, depth + 1)
        namespace = JSObject(None, open=bool(exports.star_reexports))
        for exported in exports.names:
            namespace.props[exported] = Prop(exported, None, None, self.export_value(
                module, exported, depth + 1, module.source.display_path))
        return namespace

    def exports(self, module: Script) -> ModuleExports:
        """The export statements (and CommonJS assignments) at the top of ``module``."""
        root = module.tree.root_node
        cached = self._exports.get(root.id)
        if cached is None:
            cached = self._exports[root.id] = collect_exports(root)
        return cached

    # JSON configuration -----------------------------------------------------------------
    def json_document(self, path: Path) -> JsonDocument | None:
        """A parsed package.json / tsconfig.json, or None (missing, unreadable, or not JSON: a notice)."""
        path = absolute(path)
        if path in self._json:
            return self._json[path]
        from webmcp_lint.discovery import display_path

        document = None
        shown = display_path(path)
        self.looked_at[str(path)] = file_digest(path)
        try:
            if path.is_file():
                document = load_json_document(path, shown)
        except (OSError, BinaryFileError) as error:
            self.notice(shown, f"cannot read: {getattr(error, 'strerror', None) or error}")
        except JsonError as error:
            self.notice(shown, f"not valid JSON ({error}); ignored")
        self._json[path] = document
        return document

    def nearest(self, start: Path, filename: str) -> Path | None:
        """The closest ``filename`` in ``start``'s directory or above it."""
        return self._nearest(str(absolute(start)), filename)

    def _nearest(self, start: str, filename: str) -> Path | None:
        return self.first_file(("nearest", start, filename), lambda: _directories_up(start, filename))

    def nearest_package_json(self, file: Path) -> JsonDocument | None:
        """The package.json that governs ``file``; an invalid one still governs (and gave a notice)."""
        path = self._nearest(self.directory_of(file), "package.json")
        return self.json_document(path) if path is not None else None

    def notice(self, path: str, message: str) -> None:
        if (path, message) not in self._notice_keys:
            self._notice_keys.add((path, message))
            self.notices.append((path, message))


class _Sources(Mapping):
    """The run's sources by absolute path; going through all of them is recorded in ``looked_at``."""

    def __init__(self, table: Mapping[Path, SourceFile], looked_at: dict[str, str]) -> None:
        self._table = table
        self._looked_at = looked_at

    def __getitem__(self, path: Path) -> SourceFile:
        return self._table[path]

    def get(self, path: Path, default=None):
        return self._table.get(path, default)

    def __contains__(self, path: object) -> bool:
        return path in self._table

    def __len__(self) -> int:
        return len(self._table)

    def __iter__(self) -> Iterator[Path]:
        self._looked_at[str(EVERY_SOURCE)] = str(EVERY_SOURCE)
        return iter(self._table)


def _folders_up(start: str) -> tuple[Path, ...]:
    """``start`` (or its directory when it is not one) and each directory above it."""
    directory = Path(start)
    if not directory.is_dir():
        directory = directory.parent
    return (directory, *directory.parents)


def _directories_up(start: str, filename: str) -> Iterator[Path]:
    """``filename`` in ``start`` (or its directory when it is not one) and in each directory above."""
    return (folder / filename for folder in _folders_up(start))


def _without_query(specifier: str) -> str:
    """A specifier without the query or fragment bundlers allow after it (``./icon.svg?raw``); a leading ``#``
    starts a name (``#/tools``, Node's subpath imports, Nuxt's ``#imports``), not a fragment."""
    specifier = specifier.split("?", 1)[0]
    fragment = specifier.find("#", 1)
    return specifier if fragment == -1 else specifier[:fragment]


def _module_candidates(directory: str, specifier: str) -> Iterator[Path]:
    """The files a relative specifier may name, in the order bundlers try them."""
    return _file_candidates(os.path.normpath(os.path.join(directory, _without_query(specifier))))


def _file_candidates(path: str) -> Iterator[Path]:
    """The files an import of ``path`` may name: the file itself, the TypeScript file a ``.js`` name stands for,
    the name with an extension added, a folder's index."""
    base = Path(path)
    yield base
    for suffix in TYPESCRIPT_FOR.get(base.suffix.lower(), ()):
        yield base.with_suffix(suffix)
    for suffix in RESOLVED_SUFFIXES:
        yield Path(str(base) + suffix)
    for suffix in RESOLVED_SUFFIXES:
        yield base / ("index" + suffix)


def file_digest(path: Path) -> str:
    """What ``looked_at`` records for a file on disk: its text's digest, or ABSENT when it cannot be read."""
    try:
        if not path.is_file():
            return ABSENT
        return text_digest(SourceFile.from_bytes(path, str(path), path.read_bytes()).data)
    except (OSError, BinaryFileError):
        return ABSENT


def collect_exports(root: Node) -> ModuleExports:
    """Read the top-level export statements and CommonJS assignments of a program."""
    exports = ModuleExports()
    for statement in root.named_children:
        if statement.type == "export_statement":
            _collect_export_statement(statement, exports)
        elif statement.type == "expression_statement":
            _collect_commonjs(statement, exports)
    return exports


def _collect_export_statement(statement: Node, exports: ModuleExports) -> None:
    from webmcp_lint.evaluate import string_value

    source_node = statement.child_by_field_name("source")
    specifier = string_value(source_node) if source_node is not None else None
    is_default = any(child.type == "default" for child in statement.children)
    declaration = statement.child_by_field_name("declaration")
    value = statement.child_by_field_name("value")
    for child in statement.named_children:
        if child.type == "export_clause":
            for specifier_node in child.named_children:
                names = specifier_names(specifier_node) if specifier_node.type == "export_specifier" else None
                if names is None:
                    continue
                local, exported = map(specifier_text, names)
                if specifier is not None:
                    exports.reexports[exported] = (specifier, local)
                else:
                    exports.locals[exported] = local
        elif child.type == "namespace_export" and specifier is not None:
            alias = next((grand for grand in child.named_children), None)
            if alias is not None:
                exports.reexports[specifier_text(alias)] = (specifier, "*")
    if specifier is not None and not any(child.type in ("export_clause", "namespace_export")
                                         for child in statement.named_children):
        exports.star_reexports.append(specifier)
    if declaration is not None:
        name_node = declaration.child_by_field_name("name")
        if declaration.type in ("lexical_declaration", "variable_declaration"):
            for declarator in declaration.named_children:
                pattern = declarator.child_by_field_name("name") if declarator.type == "variable_declarator" else None
                if pattern is not None:
                    for identifier, _ in pattern_names(pattern):
                        local = identifier.text.decode("utf-8", errors="replace")
                        exports.locals[local] = local
        elif name_node is not None:
            local = name_node.text.decode("utf-8", errors="replace")
            exports.locals[local] = local
            if is_default:
                exports.values["default"] = declaration
        elif is_default:
            exports.values["default"] = declaration
    elif value is not None and is_default:
        exports.values["default"] = value


def _collect_commonjs(statement: Node, exports: ModuleExports) -> None:
    assignment = next((child for child in statement.named_children if child.type == "assignment_expression"), None)
    if assignment is None:
        return
    left = assignment.child_by_field_name("left")
    right = assignment.child_by_field_name("right")
    if left is None or right is None or left.type != "member_expression":
        return
    target = left.text.decode("utf-8", errors="replace").replace(" ", "")
    if target == "module.exports":
        exports.commonjs = right
        return
    holder = left.child_by_field_name("object")
    name = left.child_by_field_name("property")
    if holder is not None and name is not None and holder.text.replace(b" ", b"") in (b"exports", b"module.exports"):
        exports.values[name.text.decode("utf-8", errors="replace")] = right

"""WM105: a TypeScript project that uses WebMCP without the webmcp-types package configured.

Project level: linted TypeScript files that use ``document.modelContext`` (or
the ``WebMCP`` type namespace) are grouped by their nearest tsconfig.json.
The package must be declared in a package.json at or above it, and enabled:
listed in ``compilerOptions.types`` (of the tsconfig, the ones it extends, or
one it references), reachable through ``typeRoots``, or referenced from a
source file (``/// <reference types="webmcp-types" />`` or an import).
"""

from __future__ import annotations

import re
from pathlib import Path, PurePosixPath
from typing import Any, Iterator

from webmcp_lint.jsonc import JsonDocument
from webmcp_lint.languages import TSX, TYPESCRIPT
from webmcp_lint.model import FileAnalysis, Finding, Project
from webmcp_lint.project_index import ProjectIndex, absolute
from webmcp_lint.rules import PROJECT, rule
from webmcp_lint.tsconfig import compiler_options, compiling_config, is_solution, references

PACKAGE = "webmcp-types"
DECLARING_FIELDS = ("dependencies", "devDependencies")
# A source that loads the types itself: a triple-slash reference or an import of the package. Searched only in a
# TypeScript project that lacks the types setting, so compiled there (``re`` keeps it), not at every start.
TYPES_IN_SOURCE = (
    rb"""///\s*<reference\s+types\s*=\s*["']webmcp-types["']|\bfrom\s*["']webmcp-types["']|\bimport\s*["']webmcp-types["']""")


def uses_webmcp_in_typescript(analysis: FileAnalysis) -> bool:
    if any(ref.script.language in (TYPESCRIPT, TSX) for ref in analysis.model_context_refs):
        return True
    return any(script.language in (TYPESCRIPT, TSX) and b"WebMCP." in script.source.data for script in analysis.scripts)


def _package_jsons(index: ProjectIndex, directory: Path) -> Iterator[JsonDocument | None]:
    """Every package.json from ``directory`` up (None for one that is not JSON)."""
    start = directory
    while True:
        found = index.nearest(start, "package.json")
        if found is None:
            return
        yield index.json_document(found)
        if found.parent == found.parent.parent:
            return
        start = found.parent.parent


def _declares_package(document: JsonDocument) -> bool:
    value = document.value if isinstance(document.value, dict) else {}
    return any(isinstance(value.get(field), dict) and PACKAGE in value[field] for field in DECLARING_FIELDS)


def _enables_package(options: dict[str, Any]) -> bool:
    types = options.get("types")
    if isinstance(types, list) and PACKAGE in types:
        return True
    roots = options.get("typeRoots")
    for root in roots if isinstance(roots, list) else []:
        name = PurePosixPath(str(root).replace("\\", "/").rstrip("/")).name
        if name == PACKAGE or (name == "node_modules" and not isinstance(types, list)):
            return True
    return False


def _tsconfig_enables(path: Path, index: ProjectIndex) -> bool:
    if not is_solution(path, index) and _enables_package(compiler_options(path, index)):
        return True
    return any(_enables_package(compiler_options(referenced, index)) for referenced in references(path, index))


def _sources_load_types(index: ProjectIndex, directory: Path) -> bool:
    prefix = str(directory) + "/"
    return any(str(path).startswith(prefix) and re.search(TYPES_IN_SOURCE, source.data)
               for path, source in index.sources.items())


def _finding(document: JsonDocument, message: str, *key_paths: tuple[str, ...]) -> Finding:
    start, end = document.span(*key_paths)
    return Finding(document.source, start, end, message)


@rule("WM105", "webmcp-types-not-configured", "warning", on=PROJECT)
def webmcp_types_not_configured(project: Project) -> Iterator[Finding]:
    index = project.index
    if index is None:
        return
    tsconfigs: dict[Path, list[Path]] = {}
    for analysis in project.files:
        if uses_webmcp_in_typescript(analysis):
            source = absolute(analysis.source.path)
            found = index.nearest(source.parent, "tsconfig.json")
            if found is not None:
                tsconfigs.setdefault(found, []).append(source)
    for path, sources in tsconfigs.items():
        tsconfig = index.json_document(path)
        if tsconfig is None:
            continue  # not JSON: the index gave a notice
        packages = list(_package_jsons(index, path.parent))
        if packages and packages[0] is None:
            continue  # the nearest package.json is not JSON: its dependencies are unknown
        if not any(document is not None and _declares_package(document) for document in packages):
            if packages:
                yield _finding(packages[0], "webmcp-types is not in this TypeScript project's dependencies, so "
                                            "document.modelContext has no types; run `npm install --save-dev "
                                            "webmcp-types` and add it to compilerOptions.types in tsconfig.json.",
                               ("devDependencies",), ("dependencies",))
            else:
                yield _finding(tsconfig, "webmcp-types is not installed in this TypeScript project; run `npm "
                                         "install --save-dev webmcp-types` and add it to compilerOptions.types.",
                               ("compilerOptions", "types"), ("compilerOptions",))
            continue
        if _tsconfig_enables(path, index) or _sources_load_types(index, path.parent):
            continue
        tsconfig = index.json_document(compiling_config(path, sources, index)) or tsconfig
        yield _finding(tsconfig, "TypeScript does not load webmcp-types here: add \"webmcp-types\" to "
                                 "compilerOptions.types (or a `/// <reference types=\"webmcp-types\" />` line).",
                       ("compilerOptions", "types"), ("compilerOptions",))

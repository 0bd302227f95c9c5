"""tsconfig.json and jsconfig.json: the configs one extends, its compiler options, and the import paths it maps.

A config's ``compilerOptions`` are its own over those of the configs it extends, and of those, later entries of
an ``extends`` list over earlier ones, as TypeScript merges them. ``paths`` maps import specifiers (``@/*``) to
files: relative to ``baseUrl`` when the configs set one (relative to the config that sets it), else to the config
that sets ``paths``; the pattern with the longest prefix wins. TypeScript, Vite and webpack plugins, Next.js and
Angular resolve imports through it. Every config is read through the project index, which records it for the
cache.
"""

from __future__ import annotations

import os
from pathlib import Path, PurePosixPath
from typing import TYPE_CHECKING, Any

from webmcp_lint.record import Record

if TYPE_CHECKING:
    from webmcp_lint.project_index import ProjectIndex

MAX_CONFIGS = 8  # configs an extends chain may hold (a loop or a long chain stops there)
CONFIG_NAMES = ("tsconfig.json", "jsconfig.json")  # the config that governs a folder, the first found going up


def config_path(base: Path, reference: str, index: ProjectIndex) -> Path | None:
    """The file an ``extends`` or ``references`` entry of the config at ``base`` names (a relative path or a
    package in node_modules), if it exists."""
    if reference.startswith((".", "/")):
        target = Path(os.path.normpath(base.parent / reference))
        candidates = [target, Path(str(target) + ".json"), target / "tsconfig.json"]
    else:
        candidates = []
        for directory in (base.parent, *base.parent.parents):
            target = directory / "node_modules" / reference
            candidates += [target, Path(str(target) + ".json"), target / "tsconfig.json"]
    return next((candidate for candidate in candidates if index.is_file(candidate)), None)


def _object(path: Path, index: ProjectIndex) -> dict[str, Any]:
    """The config at ``path`` as an object ({} when it is missing, not JSON, or not an object)."""
    document = index.json_document(path)
    return document.value if document is not None and isinstance(document.value, dict) else {}


def _chain(path: Path, index: ProjectIndex) -> list[tuple[Path, dict[str, Any]]]:
    """The config at ``path`` and the configs it extends, each with its own compilerOptions, the one whose options
    win first: a config before what it extends, and a later ``extends`` entry (with what it extends) before an
    earlier one."""
    chain: list[tuple[Path, dict[str, Any]]] = []
    seen: set[Path] = set()
    waiting = [path]
    while waiting and len(chain) < MAX_CONFIGS:
        current = waiting.pop()
        if current in seen:
            continue
        seen.add(current)
        value = _object(current, index)
        options = value.get("compilerOptions")
        chain.append((current, options if isinstance(options, dict) else {}))
        extends = value.get("extends")
        references = [extends] if isinstance(extends, str) else extends if isinstance(extends, list) else []
        for reference in references:  # the last one is taken next
            base = config_path(current, reference, index) if isinstance(reference, str) else None
            if base is not None:
                waiting.append(base)
    return chain


def compiler_options(path: Path, index: ProjectIndex) -> dict[str, Any]:
    """The compilerOptions in force for the config at ``path``."""
    merged: dict[str, Any] = {}
    for _, options in reversed(_chain(path, index)):
        merged.update(options)
    return merged


def is_solution(path: Path, index: ProjectIndex) -> bool:
    """A config that only references others (``"files": []``, as Vite's templates write the root one): it compiles
    no file, so its own compilerOptions reach none."""
    value = _object(path, index)
    return value.get("files") == [] and "include" not in value \
        and isinstance(value.get("references"), list) and bool(value["references"])


def references(path: Path, index: ProjectIndex) -> list[Path]:
    """The configs the one at ``path`` references that exist."""
    listed = _object(path, index).get("references")
    found = []
    for reference in listed if isinstance(listed, list) else []:
        target = reference.get("path") if isinstance(reference, dict) else None
        referenced = config_path(path, target, index) if isinstance(target, str) else None
        if referenced is not None:
            found.append(referenced)
    return found


def compiling_config(path: Path, sources: list[Path], index: ProjectIndex) -> Path:
    """The config that compiles ``sources`` (where their types setting and import paths are read): the one at
    ``path`` itself, or for a solution config the referenced one whose ``include`` holds them (else its first
    reference)."""
    if not is_solution(path, index):
        return path
    referenced = references(path, index)
    for candidate in referenced:
        include = _object(candidate, index).get("include")
        if isinstance(include, list) and any(_includes(candidate.parent, pattern, source)
                                             for pattern in include if isinstance(pattern, str) for source in sources):
            return candidate
    return referenced[0] if referenced else path


def _includes(base: Path, pattern: str, source: Path) -> bool:
    """An ``include`` entry (a folder, or a glob) of the config in ``base`` holds ``source``."""
    try:
        relative = PurePosixPath(source.relative_to(base).as_posix())
    except ValueError:
        return False
    pattern = pattern.replace("\\", "/").removeprefix("./").rstrip("/")
    folder = pattern.split("*", 1)[0].rstrip("/")
    return relative.match(pattern) or not folder or relative.as_posix().startswith(folder + "/")


class PathMapping(Record):
    """The ``paths`` of one config: each pattern's text before and after its ``*`` (None for an exact one) and
    its substitutions, and the folder they are relative to."""

    _compared = ("patterns", "base")

    def __init__(self, patterns: tuple[tuple[str, str | None, tuple[str, ...]], ...], base: str) -> None:
        self.patterns = patterns
        self.base = base

    def targets(self, specifier: str) -> list[str]:
        """The paths ``specifier`` maps to, in the order they are tried (no extension added yet); none when no
        pattern matches it."""
        best: tuple[int, str, tuple[str, ...]] | None = None  # (length of the prefix, the star's text, substitutions)
        for prefix, suffix, substitutions in self.patterns:
            if suffix is None:
                if specifier == prefix:
                    best = (len(prefix), "", substitutions)  # an exact pattern beats any with a star
                    break
            elif specifier.startswith(prefix) and specifier.endswith(suffix) \
                    and len(specifier) >= len(prefix) + len(suffix) and (best is None or len(prefix) > best[0]):
                best = (len(prefix), specifier[len(prefix):len(specifier) - len(suffix)], substitutions)
        if best is None:
            return []
        _, star, substitutions = best
        return [os.path.normpath(os.path.join(self.base, substitution.replace("*", star, 1)))
                for substitution in substitutions]


def path_mapping(path: Path, index: ProjectIndex) -> PathMapping | None:
    """The import paths the config at ``path`` maps, or None when it maps none."""
    chain = _chain(path, index)
    paths_owner = next(((config, options["paths"]) for config, options in chain
                        if isinstance(options.get("paths"), dict)), None)
    if paths_owner is None:
        return None
    config, paths = paths_owner
    base_url_owner = next(((owner, options["baseUrl"]) for owner, options in chain
                           if isinstance(options.get("baseUrl"), str)), None)
    base = os.path.join(base_url_owner[0].parent, base_url_owner[1]) if base_url_owner else str(config.parent)
    return mapping_of(paths, base)


def mapping_of(paths: dict[str, Any], base: str) -> PathMapping:
    """A ``paths`` object as a mapping relative to ``base``, without what TypeScript rejects (two stars)."""
    patterns = []
    for pattern, substitutions in paths.items():
        if not isinstance(substitutions, list) or pattern.count("*") > 1:
            continue
        prefix, star, suffix = pattern.partition("*")
        patterns.append((prefix, suffix if star else None,
                         tuple(item for item in substitutions if isinstance(item, str) and item.count("*") <= 1)))
    return PathMapping(tuple(patterns), os.path.normpath(base))

"""Rules and extractors are plug-ins: every module of their package, found by listing its folder."""

from __future__ import annotations

import importlib
import os
from importlib.machinery import all_suffixes
from types import ModuleType

# Longest first, so that "x.cpython-311-x86_64-linux-gnu.so" loses its whole suffix, not ".so".
MODULE_SUFFIXES = tuple(sorted(all_suffixes(), key=len, reverse=True))


def plugin_modules(package: str, folders: list[str]) -> list[ModuleType]:
    """Every module of ``package`` (its name and ``__path__``), imported: each registers what it defines."""
    return [importlib.import_module(f"{package}.{name}") for name in module_names(folders)]


def module_names(folders: list[str]) -> list[str]:
    """The modules pkgutil.iter_modules would list in ``folders`` (sources, bytecode, extensions; no name with
    a dot, so no editor lock file like ``.#platform.py``), without importing inspect as it does: 8 ms of every
    check's serial start."""
    names = set()
    for folder in folders:
        for file_name in os.listdir(folder):
            suffix = next((suffix for suffix in MODULE_SUFFIXES if file_name.endswith(suffix)), None)
            name = file_name[:-len(suffix)] if suffix else ""
            if name and "." not in name and name != "__init__":
                names.add(name)
    return sorted(names)

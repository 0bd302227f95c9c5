"""Rules and extractors are plug-ins: every module of their package, found by listing its folder."""

from __future__ import annotations

import importlib
import os
from types import ModuleType

MODULE_SUFFIX = ".py"


def plugin_modules(package: str, folders: list[str]) -> list[ModuleType]:
    """Every module of ``package`` (its name and ``__path__``), imported: each registers what it defines.

    Not pkgutil.iter_modules: it imports inspect (and with it ast, dis and tokenize), 8 ms of every
    check's serial start, to strip a suffix.
    """
    return [importlib.import_module(f"{package}.{name[:-len(MODULE_SUFFIX)]}")
            for folder in folders for name in sorted(os.listdir(folder))
            if name.endswith(MODULE_SUFFIX) and name != "__init__.py"]

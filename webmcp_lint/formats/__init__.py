"""Output formats. Each module registers a function ``render(result, options) -> str``.

Formats convert byte ranges to positions themselves: 1-based lines, columns in
code points (text, json) or UTF-16 code units (SARIF, editors).
"""

from __future__ import annotations

import importlib
import pkgutil
from dataclasses import dataclass
from typing import Callable

from webmcp_lint.engine import LintResult


@dataclass(frozen=True)
class RenderOptions:
    color: bool = False
    show_source: bool = True
    statistics: bool = False
    quiet: bool = False
    extra: tuple[tuple[str, object], ...] = ()

    def get(self, key: str, default=None):
        return dict(self.extra).get(key, default)


FORMATS: dict[str, Callable[[LintResult, RenderOptions], str]] = {}


def output_format(name: str):
    def register(render: Callable[[LintResult, RenderOptions], str]):
        FORMATS[name] = render
        return render

    return register


def available_formats() -> list[str]:
    if not _loaded:
        for module in pkgutil.iter_modules(__path__):
            importlib.import_module(f"{__name__}.{module.name}")
        _loaded.append(True)
    return sorted(FORMATS)


_loaded: list[bool] = []


def render(name: str, result: LintResult, options: RenderOptions) -> str:
    available_formats()
    return FORMATS[name](result, options)

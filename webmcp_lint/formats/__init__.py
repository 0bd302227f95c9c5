"""Output formats. Each module registers a function ``render(result, options) -> str``.

Formats convert byte ranges to positions themselves: 1-based lines, columns in
code points (text, json) or UTF-16 code units (SARIF, editors).
"""

from __future__ import annotations

import importlib
import json
from dataclasses import dataclass
from json.encoder import encode_basestring
from typing import TYPE_CHECKING, Callable

if TYPE_CHECKING:
    from webmcp_lint.engine import LintResult

# Which module registers each format: a run imports only the one it renders (the text format's
# rich or SARIF's XML and page texts cost more than a JSON report). tests/test_ci_formats.py checks the table.
FORMAT_MODULES = {
    "concise": "text",
    "github": "github",
    "gitlab": "gitlab",
    "json": "json_format",
    "json-lines": "json_lines",
    "junit": "junit",
    "sarif": "sarif",
    "text": "text",
}


@dataclass(frozen=True)
class RenderOptions:
    """How to render: colour, code frames, statistics, quiet, and per-format ``extra`` settings (read with ``get``)."""

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
    return sorted(FORMAT_MODULES)


def render(name: str, result: LintResult, options: RenderOptions) -> str:
    if name not in FORMATS:
        importlib.import_module(f"{__name__}.{FORMAT_MODULES[name]}")
    return FORMATS[name](result, options)


def indented_json(value) -> str:
    """``json.dumps(value, indent=2, ensure_ascii=False)``, about twice as fast: with an indent, json
    encodes in Python one generator per value; this writes each scalar with json's own C string encoder."""
    chunks: list[str] = []
    _write_json(value, 0, chunks)
    return "".join(chunks)


_SCALAR_JSON: dict[type, Callable[[object], str]] = {
    str: encode_basestring, int: int.__repr__, bool: lambda flag: "true" if flag else "false",
    type(None): lambda _: "null",
}


def _write_json(value, level: int, chunks: list[str]) -> None:
    """Depth-bounded by the documents the formats build (a handful of levels)."""
    scalar = _SCALAR_JSON.get(type(value))
    if scalar is not None:
        chunks.append(scalar(value))
    elif isinstance(value, dict):
        if not value:
            chunks.append("{}")
            return
        inner = "\n" + "  " * (level + 1)
        separator = "{" + inner
        for key, item in value.items():
            name = encode_basestring(key if isinstance(key, str) else json.dumps(key))
            scalar = _SCALAR_JSON.get(type(item))
            if scalar is not None:
                chunks.append(f"{separator}{name}: {scalar(item)}")
            else:
                chunks.append(f"{separator}{name}: ")
                _write_json(item, level + 1, chunks)
            separator = "," + inner
        chunks.append("\n" + "  " * level + "}")
    elif isinstance(value, (list, tuple)):
        if not value:
            chunks.append("[]")
            return
        inner = "\n" + "  " * (level + 1)
        separator = "[" + inner
        for item in value:
            chunks.append(separator)
            _write_json(item, level + 1, chunks)
            separator = "," + inner
        chunks.append("\n" + "  " * level + "]")
    else:  # floats, str and int subclasses (enums): exactly as json writes them
        chunks.append(json.dumps(value, ensure_ascii=False))

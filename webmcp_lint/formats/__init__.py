"""Output formats. Each module registers a function ``render(result, options) -> str``.

Formats convert byte ranges to positions themselves: 1-based lines, columns in
code points (text, json) or UTF-16 code units (SARIF, editors).
"""

from __future__ import annotations

import importlib
import json
from functools import lru_cache
from json.encoder import encode_basestring
from typing import TYPE_CHECKING, Callable

from webmcp_lint.record import HashedRecord

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


class RenderOptions(HashedRecord):
    """How to render: colour, code frames, statistics, quiet, and per-format ``extra`` settings (read with ``get``).

    A plain class, not a dataclass: it is the last one a run would create at import, in the serial start."""

    __slots__ = ("color", "show_source", "statistics", "quiet", "extra")
    _compared = __slots__

    def __init__(self, color: bool = False, show_source: bool = True, statistics: bool = False, quiet: bool = False,
                 extra: tuple[tuple[str, object], ...] = ()) -> None:
        self.color = color
        self.show_source = show_source
        self.statistics = statistics
        self.quiet = quiet
        self.extra = extra

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


def indented_json(value, level: int = 0, end: str = "") -> str:
    """``json.dumps(value, indent=2, ensure_ascii=False)`` for the values reports hold (objects with string keys:
    any other key is a TypeError) (``level``: the depth of ``value`` in a larger document), several times as
    fast: with an indent, json encodes in Python one generator per value; this writes each scalar with json's
    own C string encoder and each object through a template made once per shape (``object_template``),
    filled in one ``%``. ``end``: what follows the document (a report's last newline), joined with it instead
    of added to a copy of a report of a megabyte."""
    chunks: list[str] = []
    _write_json(value, level, chunks)
    chunks.append(end)
    return "".join(chunks)


class RawJSON(str):
    """Text already written as JSON for its place in the document (a format's own faster path), kept as is."""


def _as_written(text: RawJSON) -> str:
    return text  # joined as it is: str() would copy it


_SCALAR_JSON: dict[type, Callable[[object], str]] = {
    str: encode_basestring, int: int.__repr__, bool: ("false", "true").__getitem__, type(None): "null".format,
    RawJSON: _as_written,
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
        items = []
        for item in value.values():
            scalar = _SCALAR_JSON.get(type(item))
            if scalar is not None:
                items.append(scalar(item))
            else:
                nested: list[str] = []
                _write_json(item, level + 1, nested)
                items.append("".join(nested))
        chunks.append(object_template(tuple(value), level) % tuple(items))
    elif isinstance(value, (list, tuple)):
        if not value:
            chunks.append("[]")
            return
        inner = "\n" + "  " * (level + 1)
        separator = "[" + inner
        for item in value:
            chunks.append(separator)
            scalar = _SCALAR_JSON.get(type(item))  # the items of a long list are mostly scalars or written already
            if scalar is not None:
                chunks.append(scalar(item))
            else:
                _write_json(item, level + 1, chunks)
            separator = "," + inner
        chunks.append("\n" + "  " * level + "]")
    else:  # floats, str and int subclasses (enums): exactly as json writes them
        chunks.append(json.dumps(value, ensure_ascii=False))


@lru_cache(maxsize=256)
def object_template(keys: tuple, level: int) -> str:
    """An indented JSON object with these keys (strings, as every format writes) at this depth, a ``%s`` for each value."""
    inner = "\n" + "  " * (level + 1)
    names = (encode_basestring(key).replace("%", "%%") for key in keys)
    return "{" + inner + ("," + inner).join(f"{name}: %s" for name in names) + "\n" + "  " * level + "}"

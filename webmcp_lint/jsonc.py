"""JSON with comments and trailing commas (tsconfig.json, and package.json read leniently).

TypeScript accepts ``//`` and ``/* */`` comments and trailing commas in
tsconfig.json. The scanner blanks them out (keeping every offset) and
records where each object key is, so a finding can point at ``"types"``.
It is iterative: a deeply nested file cannot exhaust Python's stack here.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from webmcp_lint.record import Record
from webmcp_lint.source import BinaryFileError, SourceFile

KeyPath = tuple[str | int, ...]
MAX_SPAN_DEPTH = 8  # keys deeper than this get no span (findings point at top-level settings)


class JsonError(ValueError):
    """The text is not JSON even with comments and trailing commas allowed."""


class JsonDocument(Record):
    """A parsed JSON file: its source (for findings), its value, and the byte span of each key."""

    __slots__ = ("source", "value", "key_spans")
    _compared = __slots__

    def __init__(self, source: SourceFile, value: Any, key_spans: dict[KeyPath, tuple[int, int]] | None = None) -> None:
        self.source = source
        self.value = value
        self.key_spans = {} if key_spans is None else key_spans

    def get(self, *path: str) -> Any:
        """The value at ``path`` of nested objects, or None."""
        current = self.value
        for step in path:
            if not isinstance(current, dict):
                return None
            current = current.get(step)
        return current

    def span(self, *candidates: KeyPath) -> tuple[int, int]:
        """The span of the first key path that exists, else the document's first byte."""
        for path in candidates:
            if path in self.key_spans:
                return self.key_spans[path]
        return (0, min(1, len(self.source.data)))


def parse_jsonc(text: str) -> tuple[Any, dict[KeyPath, tuple[int, int]]]:
    """Parse JSON with comments and trailing commas; key spans are character offsets."""
    out = list(text)
    spans: dict[KeyPath, tuple[int, int]] = {}
    # One frame per open container: [kind, its key path, current key or index, expecting a key].
    stack: list[list[Any]] = []
    last_comma: int | None = None  # offset of a comma not yet followed by a value
    index, length = 0, len(text)
    while index < length:
        char = text[index]
        if char == '"':
            end = _string_end(text, index)
            if stack and stack[-1][0] == "{" and stack[-1][3] and len(stack) <= MAX_SPAN_DEPTH:
                try:
                    key = json.loads(text[index:end])
                except ValueError as error:
                    raise JsonError(f"bad string at offset {index}") from error
                frame = stack[-1]
                frame[2], frame[3] = key, False
                spans[frame[1] + (key,)] = (index, end)
            last_comma = None
            index = end
            continue
        if text.startswith("//", index):
            end = text.find("\n", index)
            end = length if end == -1 else end
            _blank(out, index, end)
            index = end
            continue
        if text.startswith("/*", index):
            end = text.find("*/", index + 2)
            end = length if end == -1 else end + 2
            _blank(out, index, end)
            index = end
            continue
        if char in "{[":
            parent_path: KeyPath = ()
            if stack and len(stack) < MAX_SPAN_DEPTH:
                parent_path = stack[-1][1] + (stack[-1][2],)
            stack.append([char, parent_path, 0 if char == "[" else None, char == "{"])
            last_comma = None
        elif char in "}]":
            if last_comma is not None:
                out[last_comma] = " "  # trailing comma
            last_comma = None
            if stack:
                stack.pop()
        elif char == ",":
            last_comma = index
            if stack:
                frame = stack[-1]
                if frame[0] == "[":
                    frame[2] += 1
                else:
                    frame[3] = True
        elif not char.isspace():
            last_comma = None
        index += 1
    try:
        value = json.loads("".join(out))
    except (ValueError, RecursionError) as error:
        raise JsonError(str(error)) from error
    return value, spans


def _string_end(text: str, start: int) -> int:
    """Offset just past the string literal starting at ``start``."""
    index = start + 1
    while index < len(text):
        char = text[index]
        if char == "\\":
            index += 2
            continue
        if char == '"' or char == "\n":
            return index + 1
        index += 1
    return len(text)


def _blank(out: list[str], start: int, end: int) -> None:
    for offset in range(start, end):
        if out[offset] not in "\r\n":
            out[offset] = " "


def load_json_document(path: Path, shown: str) -> JsonDocument:
    """Read and parse a JSON(C) file; raises OSError, BinaryFileError or JsonError."""
    source = SourceFile.from_bytes(path, shown, path.read_bytes())
    value, spans = parse_jsonc(source.text)
    encoded = {path_: (_byte_offset(source.text, start), _byte_offset(source.text, end))
               for path_, (start, end) in spans.items()}
    return JsonDocument(source, value, encoded)


def _byte_offset(text: str, char_offset: int) -> int:
    return len(text[:char_offset].encode("utf-8", errors="surrogatepass"))


__all__ = ["BinaryFileError", "JsonDocument", "JsonError", "load_json_document", "parse_jsonc"]

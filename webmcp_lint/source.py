"""Source text of one file: decoding, and byte offsets to line/column.

Everything downstream (tree-sitter, findings, fixes) works on byte offsets
into ``SourceFile.data``, the UTF-8 encoding of the decoded text. A file in
another encoding is transcoded once here, so its positions stay exact in
characters; ``encoding`` remembers how to write it back.
"""

from __future__ import annotations

import bisect
import codecs
from itertools import accumulate
from pathlib import Path
from typing import Iterable

from webmcp_lint.record import Record

BOMS = (
    (codecs.BOM_UTF8, "utf-8-sig"),
    (codecs.BOM_UTF32_LE, "utf-32"),
    (codecs.BOM_UTF32_BE, "utf-32"),
    (codecs.BOM_UTF16_LE, "utf-16"),
    (codecs.BOM_UTF16_BE, "utf-16"),
)


class BinaryFileError(ValueError):
    """Raised for bytes that are not text (NUL bytes outside a UTF-16/32 BOM)."""


def decode(raw: bytes) -> tuple[str, str]:
    """Return (text, encoding). UTF-8 first, a BOM's encoding, else cp1252/latin-1."""
    for bom, encoding in BOMS:
        if raw.startswith(bom):
            return raw.decode(encoding, errors="replace"), encoding
    if b"\x00" in raw:
        raise BinaryFileError("contains NUL bytes")
    try:
        return raw.decode("utf-8"), "utf-8"
    except UnicodeDecodeError:
        pass
    try:
        return raw.decode("cp1252"), "cp1252"
    except UnicodeDecodeError:
        return raw.decode("latin-1"), "latin-1"


class SourceFile(Record):
    """A file's text with its position index (built lazily, once)."""

    __slots__ = ("path", "display_path", "_text", "encoding", "data", "_line_starts", "_known_positions")
    _compared = ("path", "display_path", "text", "encoding")  # data and the line index follow from the text

    def __init__(self, path: Path, display_path: str, text: str | None, encoding: str = "utf-8",
                 utf8: bytes | None = None) -> None:
        """``utf8``: the text's UTF-8 bytes when the caller has them (no second encoding); ``text`` may then be
        None, decoded from them on first use (linting reads the bytes only)."""
        self.path = path
        self.display_path = display_path
        self._text = text
        self.encoding = encoding
        self.data = utf8 if utf8 is not None else text.encode("utf-8", errors="surrogatepass")
        self._line_starts: list[int] | None = None
        self._known_positions: dict[int, tuple[int, int]] | None = None  # worked out where findings were made

    @classmethod
    def from_bytes(cls, path: Path, display_path: str, raw: bytes) -> "SourceFile":
        if raw.isascii() and b"\x00" not in raw:  # UTF-8 as it is (no BOM is ASCII): no text to decode yet
            return cls(path, display_path, None, utf8=raw)
        text, encoding = decode(raw)
        # Bytes that decoded as strict UTF-8 (no BOM) are exactly the text's encoding: keep them.
        return cls(path, display_path, text, encoding, utf8=raw if encoding == "utf-8" else None)

    @property
    def text(self) -> str:
        text = self._text
        if text is None:
            text = self._text = self.data.decode("utf-8")
        return text

    @property
    def line_starts(self) -> list[int]:
        starts = self._line_starts
        if starts is None:
            # Each line starts where the one before it and its newline end (a running sum, all in C).
            starts = list(accumulate(map((1).__add__, map(len, self.data.split(b"\n"))), initial=0))
            starts.pop()  # the end of the text, one past its last byte
            self._line_starts = starts
        return starts

    def line_index(self, offset: int) -> int:
        """0-based line holding byte ``offset``."""
        return bisect.bisect_right(self.line_starts, offset) - 1

    def line_bytes(self, line_index: int) -> bytes:
        starts = self.line_starts
        end = starts[line_index + 1] if line_index + 1 < len(starts) else len(self.data)
        return self.data[starts[line_index]:end].rstrip(b"\r\n")

    def line_text(self, line_index: int) -> str:
        return self.line_bytes(line_index).decode("utf-8", errors="replace")

    def position(self, offset: int, *, utf16: bool = False) -> tuple[int, int]:
        """1-based (line, column) of a byte offset; columns in code points or UTF-16 units."""
        known = self._known_positions
        if known is not None and not utf16 and offset in known:
            return known[offset]
        data = self.data
        offset = max(0, min(offset, len(data)))
        starts = self.line_starts
        line = bisect.bisect_right(starts, offset) - 1
        prefix_bytes = data[starts[line]:offset]
        if prefix_bytes.isascii():  # one code point and one UTF-16 unit per byte: no need to decode
            return line + 1, len(prefix_bytes) + 1
        prefix = prefix_bytes.decode("utf-8", errors="replace")
        if utf16:
            column = sum(2 if ord(ch) > 0xFFFF else 1 for ch in prefix)
        else:
            column = len(prefix)
        return line + 1, column + 1

    def positions(self, offsets: Iterable[int]) -> dict[int, tuple[int, int]]:
        """``position`` (code points) of each offset, in one pass over the text up to the last one, with no line
        index: a unit works out where its few findings are, beside the other units, not in the serial merge."""
        data = self.data
        size = len(data)
        found = {}
        line = 0  # newlines before ``scanned``
        line_start = 0
        scanned = 0
        for offset in sorted(offsets):
            clamped = offset if 0 <= offset <= size else max(0, min(offset, size))
            newline = data.rfind(b"\n", scanned, clamped)
            if newline >= 0:
                line += data.count(b"\n", scanned, clamped)
                line_start = newline + 1
            scanned = clamped
            prefix = data[line_start:clamped]
            column = len(prefix) if prefix.isascii() else len(prefix.decode("utf-8", errors="replace"))
            found[offset] = (line + 1, column + 1)
        return found

    def remember_positions(self, positions: dict[int, tuple[int, int]]) -> None:
        """``positions`` of offsets worked out on this same text elsewhere: in a worker process, or by the run
        that wrote a cache entry."""
        if self._known_positions is None:
            self._known_positions = positions
        else:
            self._known_positions.update(positions)

    def offset(self, line: int, column: int, *, utf16: bool = False) -> int:
        """Byte offset of a 1-based (line, column); the inverse of ``position``."""
        starts = self.line_starts
        line_index = max(0, min(line - 1, len(starts) - 1))
        text = self.line_text(line_index)
        units = 0
        chars = 0
        while chars < len(text) and units < column - 1:
            units += 2 if (utf16 and ord(text[chars]) > 0xFFFF) else 1
            chars += 1
        return starts[line_index] + len(text[:chars].encode("utf-8", errors="surrogatepass"))

    def slice(self, start: int, end: int) -> str:
        return self.data[start:end].decode("utf-8", errors="replace")

    def encode_back(self, text: str) -> bytes:
        """Encode edited text the way the file was stored (BOM included)."""
        return text.encode(self.encoding, errors="surrogatepass")

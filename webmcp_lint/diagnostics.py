"""Diagnostics (a finding plus its rule) and fixes, as byte ranges until output."""

from __future__ import annotations

import enum

from webmcp_lint.record import HashedRecord, Record
from webmcp_lint.source import SourceFile


class Severity(str, enum.Enum):
    ERROR = "error"
    WARNING = "warning"
    INFO = "info"

    @property
    def rank(self) -> int:
        return {"error": 3, "warning": 2, "info": 1}[self.value]


class Edit(HashedRecord):
    """Replace bytes [start, end) with ``text``."""

    __slots__ = ("start", "end", "text")
    _compared = __slots__

    def __init__(self, start: int, end: int, text: str) -> None:
        self.start = start
        self.end = end
        self.text = text


class Fix(HashedRecord):
    __slots__ = ("applicability", "edits", "description")
    _compared = __slots__

    def __init__(self, applicability: str, edits: tuple[Edit, ...], description: str = "") -> None:
        self.applicability = applicability  # "safe" | "unsafe"
        self.edits = edits
        self.description = description


class Diagnostic(Record):
    _compared = ("code", "slug", "severity", "message", "source", "start", "end", "tool_name", "fix")
    __slots__ = (*_compared, "_start_position")

    def __init__(self, code: str, slug: str, severity: Severity, message: str, source: SourceFile, start: int,
                 end: int, tool_name: str | None = None, fix: Fix | None = None) -> None:
        self.code = code
        self.slug = slug
        self.severity = severity
        self.message = message
        self.source = source
        self.start = start
        self.end = end
        self.tool_name = tool_name
        self.fix = fix
        self._start_position: tuple[int, int] | None = None

    @property
    def path(self) -> str:
        return self.source.display_path

    def start_position(self, *, utf16: bool = False) -> tuple[int, int]:
        if utf16:
            return self.source.position(self.start, utf16=True)
        # Kept: the sort and every output format ask for it (a line look-up and a prefix decode each time).
        position = self._start_position
        if position is None:
            position = self._start_position = self.source.position(self.start)
        return position

    def end_position(self, *, utf16: bool = False) -> tuple[int, int]:
        return self.source.position(self.end, utf16=utf16)

    def sort_key(self) -> tuple:
        line, column = self.start_position()
        return (self.path, line, column, self.code, self.message)

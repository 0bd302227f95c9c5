"""Diagnostics (a finding plus its rule) and fixes, as byte ranges until output."""

from __future__ import annotations

import enum
from dataclasses import dataclass, field

from webmcp_lint.source import SourceFile


class Severity(str, enum.Enum):
    ERROR = "error"
    WARNING = "warning"
    INFO = "info"

    @property
    def rank(self) -> int:
        return {"error": 3, "warning": 2, "info": 1}[self.value]


@dataclass(frozen=True)
class Edit:
    """Replace bytes [start, end) with ``text``."""

    start: int
    end: int
    text: str


@dataclass(frozen=True)
class Fix:
    applicability: str  # "safe" | "unsafe"
    edits: tuple[Edit, ...]
    description: str = ""


@dataclass
class Diagnostic:
    code: str
    slug: str
    severity: Severity
    message: str
    source: SourceFile
    start: int
    end: int
    tool_name: str | None = None
    fix: Fix | None = None
    extra: dict = field(default_factory=dict)

    @property
    def path(self) -> str:
        return self.source.display_path

    def start_position(self, *, utf16: bool = False) -> tuple[int, int]:
        return self.source.position(self.start, utf16=utf16)

    def end_position(self, *, utf16: bool = False) -> tuple[int, int]:
        return self.source.position(self.end, utf16=utf16)

    def sort_key(self) -> tuple:
        line, column = self.start_position()
        return (self.path, line, column, self.code, self.message)

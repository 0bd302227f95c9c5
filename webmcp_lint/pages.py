"""Rule pages (``rules/WMxxx.md``): front matter, sections and their code examples.

The wheel ships the pages as ``webmcp_lint/rule_pages``; a source checkout
reads the top-level ``rules/`` folder, so both print the same page.
"""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path

from webmcp_lint.record import Record

FENCE = re.compile(r"^```([^\n`]*)\n(.*?)^```[ \t]*$", re.MULTILINE | re.DOTALL)


class Example(Record):
    __slots__ = ("language", "code", "filename")
    _compared = __slots__

    def __init__(self, language: str, code: str, filename: str | None = None) -> None:
        self.language = language
        self.code = code
        self.filename = filename  # set for multi-file examples


class RulePage(Record):
    __slots__ = ("code", "meta", "body", "text", "sections")
    _compared = __slots__

    def __init__(self, code: str, meta: dict[str, str], body: str, text: str,
                 sections: dict[str, str] | None = None) -> None:
        self.code = code
        self.meta = meta
        self.body = body
        self.text = text
        self.sections = {} if sections is None else sections

    @property
    def summary(self) -> str:
        return self.meta.get("summary", "")

    def examples(self, section: str) -> list[list[Example]]:
        """Each entry is one example project: a single file, or every ``file=`` block of the section."""
        single: list[list[Example]] = []
        project: list[Example] = []
        for match in FENCE.finditer(self.sections.get(section, "")):
            info = match.group(1).split()
            language = info[0] if info else "js"
            filename = next((part[5:] for part in info[1:] if part.startswith("file=")), None)
            example = Example(language, match.group(2), filename)
            if filename:
                project.append(example)
            else:
                single.append([example])
        return single + ([project] if project else [])


def pages_directory() -> Path:
    packaged = Path(__file__).parent / "rule_pages"
    if packaged.is_dir():
        return packaged
    return Path(__file__).resolve().parent.parent / "rules"


def parse_page(code: str, text: str) -> RulePage:
    meta: dict[str, str] = {}
    body = text
    if text.startswith("---\n"):
        end = text.find("\n---", 4)
        if end != -1:
            for line in text[4:end].splitlines():
                if ":" in line:
                    key, value = line.split(":", 1)
                    meta[key.strip()] = value.split(" #", 1)[0].strip()
            body = text[end + 4:].lstrip("\n")
    sections: dict[str, str] = {}
    current = None
    for line in body.splitlines(keepends=True):
        heading = re.match(r"^## (.+?)\s*$", line)
        if heading:
            current = heading.group(1)
            sections[current] = ""
        elif current is not None:
            sections[current] += line
    return RulePage(code, meta, body, text, sections)


@lru_cache(maxsize=None)
def load_page(code: str) -> RulePage | None:
    path = pages_directory() / f"{code}.md"
    try:
        return parse_page(code, path.read_text(encoding="utf-8"))
    except OSError:
        return None

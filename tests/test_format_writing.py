"""The formats' fast paths write exactly what their slow references write: ``json.dumps(indent=2,
ensure_ascii=False)`` for JSON, Rich for text."""

from __future__ import annotations

import enum
import json
import re
from pathlib import Path

import pytest

from webmcp_lint.diagnostics import Diagnostic, Edit, Fix, Severity
from webmcp_lint.engine import LintResult
from webmcp_lint.formats import RenderOptions, indented_json, render
from webmcp_lint.formats.json_format import diagnostic_json, summary_json
from webmcp_lint.source import SourceFile


class Colour(str, enum.Enum):
    RED = "red"


DOCUMENTS = [
    {},
    [],
    "plain",
    {"a": 1, "b": [True, False, None, 1.5, -3], "c": {"nested": [[], {}, [{"x": "y"}]]}},
    {"100%s %d": "a key with % signs", "ü\u2028\"\\": "é\ud83d\ude00\n\t\x01"},
    [{"same": 1, "keys": 2}, {"same": 3, "keys": [4]}, {"keys": 5, "same": 6}],  # one shape, then another order
    {"enum": Colour.RED, "values": [Colour.RED]},
]


@pytest.mark.parametrize("document", DOCUMENTS)
def test_indented_json_writes_what_json_dumps_writes(document):
    assert indented_json(document) == json.dumps(document, indent=2, ensure_ascii=False)


def test_indented_json_at_a_depth_fits_its_place_in_a_larger_document():
    inner = {"k": [1, {"v": None}]}
    outer = json.dumps({"a": {"b": inner}}, indent=2, ensure_ascii=False)
    assert f'"b": {indented_json(inner, 2)}' in outer


def test_the_json_report_writes_each_finding_as_json_dumps_writes_its_object():
    source = SourceFile.from_bytes(Path("a.js"), "dir/é.js", 'const x = "ü";\nlet y = 100%;\n'.encode())
    result = LintResult()
    result.files_checked = 1
    result.diagnostics = [
        Diagnostic("WM001", "some-rule", Severity.ERROR, 'Quote " and \\ and % and \u2028.', source, 11, 14),
        Diagnostic("WM002", "other", Severity.INFO, "Tool text.", source, 15, 27, tool_name="tööl",
                   fix=Fix("safe", (Edit(11, 14, '"a"'), Edit(15, 18, "")), "describe")),
    ]
    report = render("json", result, RenderOptions())
    expected = {
        "version": 1,
        "tool": json.loads(report)["tool"],
        "diagnostics": [diagnostic_json(diagnostic) for diagnostic in result.diagnostics],
        "summary": summary_json(result),
    }
    assert report == json.dumps(expected, indent=2, ensure_ascii=False) + "\n"
    assert json.loads(report)["diagnostics"][1]["fix"]["edits"][0] == {
        "line": 1, "column": 12, "end_line": 1, "end_column": 14, "text": '"a"'}


TRICKY_TEXTS = ["plain", "[bold]x[/bold]", "a[0] = b", "\\[escaped", "ends with \\", "tab\there", "bell\x07 cr\r esc\x1b",
                "[/]", "[link=x]y", "emoji :smile:", "wide 漢字 😀", "multi\nline", "[*] star", "a]b[c", ""]


def tricky_result() -> LintResult:
    text = "\n".join(f"let v{number} = {value!r};" for number, value in enumerate(TRICKY_TEXTS)) + "\n\tx = [1];\n"
    source = SourceFile.from_bytes(Path("a.js"), "dir/[a]/a.js", text.encode())
    result = LintResult()
    result.files_checked = 1
    for number, message in enumerate(TRICKY_TEXTS + ["tabbed line"]):
        start = source.line_starts[number] + 1
        fix = Fix("safe" if number % 2 else "unsafe", (Edit(start, start + 1, "y"),)) if number % 3 else None
        result.diagnostics.append(Diagnostic("WM101", "some-rule", list(Severity)[number % 3], message, source, start,
                                             start + 4 + number, fix=fix))
    return result


@pytest.mark.parametrize("name", ["text", "concise"])
@pytest.mark.parametrize("options", [RenderOptions(), RenderOptions(statistics=True, extra=(("unsafe_fixes", True),))])
def test_text_without_colour_is_what_rich_writes(name, options, monkeypatch):
    """Without colour, most lines skip Rich: they must read exactly as Rich would have written them."""
    from webmcp_lint.formats import text

    result = tricky_result()
    fast = render(name, result, options)
    monkeypatch.setattr(text, "_ONLY_RICH_WRITES_EXACTLY", re.compile(""))  # every line through Rich
    assert fast == render(name, result, options)
    assert "[*] star" in fast and "dir/[a]/a.js:1:2" in fast

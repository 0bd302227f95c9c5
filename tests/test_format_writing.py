"""The formats' fast paths write exactly what their slow references write: ``json.dumps(indent=2,
ensure_ascii=False)`` for JSON, Rich for text, the upload action's loop for SARIF line hashes."""

from __future__ import annotations

import enum
import json
import random
import re
from pathlib import Path

import pytest

from webmcp_lint import sarif_fingerprint
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


def reference_line_hashes(content: bytes) -> list[str]:
    """The upload action's loop (github/codeql-action src/fingerprints.ts), one UTF-16 unit at a time."""
    encoded = content.decode("utf-8", errors="replace").encode("utf-16-le")
    units = [int.from_bytes(encoded[at:at + 2], "little") for at in range(0, len(encoded), 2)]
    window = [0] * 100
    starts_at = [0] * 100  # the number of the line whose window starts at each slot (0: none)
    hashes: dict[int, str] = {}
    counts: dict[str, int] = {}
    raw = index = line = 0
    line_start, previous_cr = True, False

    def feed(unit: int, new_line: int) -> None:
        nonlocal raw, index
        if starts_at[index]:
            value = format(raw, "x")
            counts[value] = counts.get(value, 0) + 1
            hashes[starts_at[index]] = f"{value}:{counts[value]}"
        starts_at[index] = new_line
        raw = (37 * raw + unit - pow(37, 100, 1 << 64) * window[index]) & ((1 << 64) - 1)
        window[index] = unit
        index = (index + 1) % 100

    for unit in [*units, 65535]:
        if unit in (0x20, 0x09) or (previous_cr and unit == 0x0A):
            previous_cr = False
            continue
        previous_cr = unit == 0x0D
        if previous_cr:
            unit = 0x0A
        new_line = 0
        if line_start:
            line += 1
            new_line = line
        line_start = unit == 0x0A
        feed(unit, new_line)
    for _ in range(100):
        feed(0, 0)
    return [hashes[number] for number in range(1, line + 1)]


PIECES = ["a", "b", " ", "\t", "\r", "\n", "\r\n", "\r \n", "\n\n", "é", "😀", "\ufeff", "x" * 120, "}\n"]


@pytest.mark.parametrize("chunk", [3, 1 << 16])
def test_sarif_line_hashes_are_the_actions_one_unit_at_a_time(chunk, monkeypatch):
    """The prefix-sum computation (in chunks of line starts) gives the action's hashes and occurrence counts."""
    monkeypatch.setattr(sarif_fingerprint, "_CHUNK", chunk)
    generator = random.Random(9)
    contents = [b"", b"a", b"a\n", b"\r\n", b"\xff\xfe bad utf-8\n", ("}\n" * 300).encode()]
    contents += ["".join(generator.choice(PIECES) for _ in range(generator.randint(0, 90))).encode()
                 for _ in range(300)]
    for content in contents:
        assert sarif_fingerprint.line_hashes(content) == reference_line_hashes(content), content

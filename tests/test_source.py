"""SourceFile: how raw bytes become text and the UTF-8 bytes everything else reads."""

from __future__ import annotations

import codecs
from pathlib import Path

import pytest

from webmcp_lint.source import BinaryFileError, SourceFile


@pytest.mark.parametrize("raw, text, encoding", [
    (b"let a = 1;\n", "let a = 1;\n", "utf-8"),
    ("let é = '😀';\n".encode("utf-8"), "let é = '😀';\n", "utf-8"),
    (codecs.BOM_UTF8 + b"let a = 1;\n", "let a = 1;\n", "utf-8-sig"),
    ("let a = 'ü';\n".encode("utf-16"), "let a = 'ü';\n", "utf-16"),
    ("let a = '€';\n".encode("cp1252"), "let a = '€';\n", "cp1252"),
])
def test_bytes_are_decoded_by_their_encoding(raw, text, encoding):
    source = SourceFile.from_bytes(Path("a.js"), "a.js", raw)
    assert (source.text, source.encoding, source.data) == (text, encoding, text.encode("utf-8"))
    assert source == SourceFile(Path("a.js"), "a.js", text, encoding)


@pytest.mark.parametrize("raw", [b"let a = 1;\x00\n", "let é = 1;\x00\n".encode("utf-8")])
def test_nul_bytes_outside_a_bom_are_binary(raw):
    with pytest.raises(BinaryFileError):
        SourceFile.from_bytes(Path("a.bin.js"), "a.bin.js", raw)


def test_a_source_read_from_bytes_differs_from_one_with_another_text():
    source = SourceFile.from_bytes(Path("a.js"), "a.js", b"let a = 1;\n")
    assert source != SourceFile(Path("a.js"), "a.js", "let a = 2;\n")
    assert repr(source) == f"SourceFile(path={Path('a.js')!r}, display_path='a.js', text='let a = 1;\\n', encoding='utf-8')"


POSITIONED_TEXT = "let a = 1;\r\nlet é = '😀';\n\nconst 中 = `\n  x`;"


def test_positions_of_several_offsets_are_what_position_gives_for_each():
    """Including offsets inside a multi-byte character, on a CR or newline, and out of range (clamped)."""
    source = SourceFile(Path("a.js"), "a.js", POSITIONED_TEXT)
    offsets = [*range(-2, len(source.data) + 3), 17, 3]
    expected = {offset: SourceFile(Path("a.js"), "a.js", POSITIONED_TEXT).position(offset) for offset in offsets}
    assert source.positions(offsets) == expected
    assert source._line_starts is None  # no line index for a few positions


def test_remembered_positions_answer_position_in_code_points_only():
    source = SourceFile(Path("a.js"), "a.js", "let a = '😀';")
    source.remember_positions({9: (7, 3), 13: (8, 4)})
    assert (source.position(9), source.position(13)) == ((7, 3), (8, 4))
    assert source.position(13, utf16=True) == (1, 12) and source.position(14) == (1, 12)

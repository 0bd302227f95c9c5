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

"""Reading files before linting: what is read, and why a file is skipped."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from webmcp_lint.engine import LintResult, Settings, language_for, read_source, source_from_bytes
from webmcp_lint.languages import SCRIPT_LANGUAGE_BY_SUFFIX


def _read(path, settings=None):
    result = LintResult()
    source = read_source(path, path.name, settings or Settings(rules=[]), result, explicit=True)
    return source, [skip.reason for skip in result.skipped]


def test_a_file_is_read_whole_however_large(tmp_path):
    text = "const a = 'é';\n" * 20_000  # several reads' worth
    path = tmp_path / "big.js"
    path.write_text(text, encoding="utf-8")
    source, skips = _read(path)
    assert skips == []
    assert source.text == text


@pytest.mark.parametrize("grown_by", [1, 100_000])
def test_a_file_that_grew_after_its_size_was_read_is_read_to_its_end(tmp_path, monkeypatch, grown_by):
    """One read takes a byte more than the size fstat gave; when it fills, the file grew and is read on."""
    text = "x" * 1000 + "y" * grown_by
    path = tmp_path / "growing.js"
    path.write_text(text)
    real_fstat = os.fstat

    def earlier_fstat(descriptor):
        status = real_fstat(descriptor)
        return os.stat_result((*status[:6], status.st_size - grown_by, *status[7:]))

    monkeypatch.setattr(os, "fstat", earlier_fstat)
    source, skips = _read(path)
    assert skips == [] and source.text == text


def test_a_read_that_stops_short_is_followed_to_the_end(tmp_path, monkeypatch):
    """Linux returns at most 2 GiB - 4 KiB from one read, and some network file systems less: a short read is not
    the end."""
    text = "z" * 1000
    path = tmp_path / "large.js"
    path.write_text(text)
    real_read = os.read
    monkeypatch.setattr(os, "read", lambda descriptor, size: real_read(descriptor, min(size, 100)))
    source, skips = _read(path)
    assert skips == [] and source.text == text


def test_an_empty_file_is_read(tmp_path):
    path = tmp_path / "empty.js"
    path.write_bytes(b"")
    source, skips = _read(path)
    assert skips == [] and source.text == ""


def test_a_directory_is_skipped(tmp_path):
    folder = tmp_path / "looks.js"
    folder.mkdir()
    assert _read(folder) == (None, ["is a directory"])


def test_a_file_over_the_size_limit_is_skipped_and_one_at_the_limit_is_read(tmp_path):
    path = tmp_path / "a.js"
    path.write_bytes(b"x" * 100)
    assert _read(path, Settings(rules=[], max_file_size=99)) == (None, ["larger than 99 bytes"])
    source, skips = _read(path, Settings(rules=[], max_file_size=100))
    assert skips == [] and source.text == "x" * 100


@pytest.mark.parametrize("newlines_at", ["start", "end"])
@pytest.mark.parametrize(("size", "minified"), [(5000, False), (5001, True)])
def test_a_discovered_file_whose_lines_average_over_1000_bytes_is_skipped_as_minified(newlines_at, size, minified):
    """Four newlines: five lines of 1,000 bytes on average are not minified, of 1,000.2 are; wherever they are."""
    code = b"x" * (size - 4)
    raw = b"\n" * 4 + code if newlines_at == "start" else code + b"\n" * 4
    result = LintResult()
    source = source_from_bytes(Path("a.js"), "a.js", raw, result, explicit=False)
    assert (source is None) == minified
    assert [skip.reason for skip in result.skipped] == (["minified (lines average over 1,000 characters)"]
                                                        if minified else [])


def test_a_missing_file_is_skipped(tmp_path):
    assert _read(tmp_path / "gone.js") == (None, ["file vanished before it could be read"])


@pytest.mark.parametrize("name", ["a.js", "A.JSX", "dir/b.mts", "c.d.ts", "x.TSX", "..js", ".js", "a.", "noext",
                                  "dir.js/file", "e.cjs.bak"])
def test_a_files_language_follows_its_suffix_as_path_reads_it(name):
    assert language_for(name) == SCRIPT_LANGUAGE_BY_SUFFIX.get(Path(name).suffix.lower())

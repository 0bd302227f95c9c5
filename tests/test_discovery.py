"""Discovery: nested .gitignore files, one name per file behind symlinks, and how walked files are shown."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from webmcp_lint.discovery import discover, display_path
from webmcp_lint.engine import Settings, read_paths

CODE = "navigator.modelContext;\n"


def write(root: Path, *names: str) -> None:
    for name in names:
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(CODE)


def shown(paths: list[str]) -> list[str]:
    sources, _ = read_paths(paths, Settings(rules=[]))
    return [source.display_path for source in sources]


def test_each_gitignore_applies_below_its_own_directory(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / ".git").mkdir()
    write(tmp_path, "a/b/deep.js", "a/b/x.gen.js", "a/b/local.js", "a/b/only-here.js", "a/b/build-out/y.js",
          "a/local.js", "a/only-here.js", "c/local.js", "c/z.gen.js", "top.js")
    (tmp_path / ".gitignore").write_text("*.gen.js\n")
    (tmp_path / "a" / ".gitignore").write_text("local.js\n")
    (tmp_path / "a" / "b" / ".gitignore").write_text("/only-here.js\nbuild-out/\n")
    assert shown(["."]) == ["top.js", "a/only-here.js", "a/b/deep.js", "c/local.js"]


def test_a_gitignore_line_that_is_no_pattern_matches_nothing_and_the_others_still_apply(tmp_path, monkeypatch):
    """Git takes a lone ``!`` or ``[z-a]`` without complaint; one such line must not stop the run."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / ".git").mkdir()
    write(tmp_path, "kept.js", "ignored.js", "sub/lib/kept.js", "sub/lib/also-ignored.js")
    (tmp_path / ".gitignore").write_text("!\nignored.js\n[z-a]\n")
    (tmp_path / "sub" / "lib" / ".gitignore").write_text("also-ignored.js\n!\n")
    assert shown(["."]) == ["kept.js", "sub/lib/kept.js"]


@pytest.mark.parametrize("config", ["", 'extend-exclude = ["generated/"]\n', 'exclude = ["generated/"]\n'])
def test_the_linters_own_cache_folder_is_never_walked_nor_counted(tmp_path, monkeypatch, config):
    """A second run must report what the first did: the cache the first wrote is no skipped folder."""
    from webmcp_lint.config import RuleLayer, run_settings

    monkeypatch.chdir(tmp_path)
    write(tmp_path, "app.js", ".webmcp_lint_cache/notes.js")
    (tmp_path / "webmcp-lint.toml").write_text(config)
    settings, _ = run_settings(["."], config_file=None, isolated=False, command_line=RuleLayer())
    sources, result = read_paths(["."], settings)
    assert result.skipped_dirs == [] and [source.display_path for source in sources] == ["app.js"]


def test_a_file_behind_a_directory_symlink_is_linted_once_under_the_first_name_walked(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    write(tmp_path, "src/real.js")
    os.symlink(tmp_path / "src", tmp_path / "alias")
    found = discover(["."])
    assert [path.as_posix() for path in found.files] == ["alias/real.js"]
    assert shown(["."]) == ["alias/real.js"]


def test_a_walked_file_named_by_an_absolute_path_is_shown_by_its_resolved_path(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    write(tmp_path, "src/real.js", "src/sub/nested.js")
    os.symlink(tmp_path / "src", tmp_path / "alias")
    assert shown([str(tmp_path / "alias")]) == ["src/real.js", "src/sub/nested.js"]
    assert discover([str(tmp_path / "alias")]).resolved == {
        tmp_path / "alias" / "real.js": tmp_path.resolve() / "src" / "real.js",
        tmp_path / "alias" / "sub" / "nested.js": tmp_path.resolve() / "src" / "sub" / "nested.js"}


@pytest.mark.parametrize("name, linted", [("UP.JS", True), ("..js", True), (".js", False), ("a.", False)])
def test_suffixes_are_read_as_pathlib_reads_them(tmp_path, monkeypatch, name, linted):
    monkeypatch.chdir(tmp_path)
    write(tmp_path, f"d/{name}")
    assert shown(["d"]) == ([f"d/{name}"] if linted else [])


@pytest.mark.parametrize("named", [".", "./src/..", "src", "src/./sub/..", "../{here}/src", "{tmp}", "{tmp}/src",
                                   "{tmp}/alias", "{tmp}/../{here}/src"])
def test_walked_files_are_shown_as_display_path_shows_each(tmp_path, monkeypatch, named):
    """The walk works out how a directory's files are shown once; each file must come out as display_path has it."""
    monkeypatch.chdir(tmp_path)
    write(tmp_path, "top.js", "src/real.js", "src/sub/nested.js")
    os.symlink(tmp_path / "src", tmp_path / "alias")
    os.symlink(tmp_path / "src" / "real.js", tmp_path / "src" / "sub" / "link.js")
    found = discover([named.format(tmp=tmp_path, here=tmp_path.name)])
    assert found.files
    assert [found.display_path(path) for path in found.files] == [display_path(path) for path in found.files]

"""Baselines: --write-baseline records findings, --baseline reports only new ones."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from support import project_in

from webmcp_lint.cli import main

BAD = "const mc = navigator.modelContext;\n"  # one WM101


def run(*args: str):
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


def new_codes(*args: str) -> tuple[int, list[tuple[str, int]]]:
    result = run("check", "--format", "json", "--baseline", "baseline.json", *args)
    document = json.loads(result.stdout)
    return result.exit_code, [(d["path"], d["line"]) for d in document["diagnostics"]]


@pytest.fixture
def project(tmp_path: Path, monkeypatch) -> Path:
    project_in(tmp_path, monkeypatch, {"src/a.js": "// first\n" + BAD})
    result = run("check", "--write-baseline", "baseline.json")
    assert result.exit_code == 0 and "wrote 1 finding to baseline.json" in result.stderr
    return tmp_path


def test_baselined_findings_are_not_reported(project):
    assert new_codes() == (0, [])
    assert run("check").exit_code == 1


def test_lines_added_above_and_reindenting_keep_a_finding_baselined(project):
    (project / "src" / "a.js").write_text("// first\n// more\n\nfunction f() {}\n  " + BAD.replace(" = ", "  =  "))
    assert new_codes() == (0, [])


def test_a_second_copy_of_a_baselined_line_is_new(project):
    (project / "src" / "a.js").write_text("// first\n" + BAD + BAD)
    assert new_codes() == (1, [("src/a.js", 3)])


def test_a_changed_line_is_new(project):
    (project / "src" / "a.js").write_text("// first\nconst context = navigator.modelContext;\n")
    assert new_codes() == (1, [("src/a.js", 2)])


def test_a_finding_moved_to_another_file_is_new(project):
    (project / "src" / "a.js").write_text("// first\n")
    (project / "src" / "b.js").write_text(BAD)
    assert new_codes() == (1, [("src/b.js", 1)])


def test_paths_are_relative_to_the_baseline_so_the_working_directory_does_not_matter(project, monkeypatch):
    recorded = json.loads((project / "baseline.json").read_text())
    assert [(entry["code"], entry["path"], entry["count"]) for entry in recorded["findings"]] == [
        ("WM101", "src/a.js", 1)]
    monkeypatch.chdir(project / "src")
    result = run("check", "--format", "json", "--baseline", "../baseline.json", ".")
    assert result.exit_code == 0 and json.loads(result.stdout)["diagnostics"] == []


def test_tool_name_is_part_of_the_key(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    # The finding's line (the throw) stays the same; only the tool it belongs to changes.
    tool = ('document.modelContext?.registerTool({{ name: "{}", description: "Reads the answer for the user.",\n'
            '  execute() {{ throw new Error("no"); }} }});\n')
    (tmp_path / "a.js").write_text(tool.format("first_tool"))
    assert run("check", "--select", "WM401", "--write-baseline", "baseline.json").exit_code == 0
    assert run("check", "--select", "WM401", "--baseline", "baseline.json").exit_code == 0
    (tmp_path / "a.js").write_text(tool.format("second_tool"))
    assert run("check", "--select", "WM401", "--baseline", "baseline.json").exit_code == 1


def test_missing_or_malformed_baseline_exits_2(project):
    result = run("check", "--baseline", "nope.json")
    assert result.exit_code == 2 and "nope.json: cannot read the baseline" in result.stderr
    (project / "bad.json").write_text("{not json")
    result = run("check", "--baseline", "bad.json")
    assert result.exit_code == 2 and "bad.json: not a webmcp-lint baseline (invalid JSON" in result.stderr
    (project / "other.json").write_text('{"version": 1, "findings": [{"code": "WM101"}]}')
    result = run("check", "--baseline", "other.json")
    assert result.exit_code == 2 and "lacks code, path or line_hash" in result.stderr


def test_a_baseline_is_written_into_missing_folders_relative_to_itself(project):
    result = run("check", "--write-baseline", "ci/baselines/webmcp.json")
    assert result.exit_code == 0 and "wrote 1 finding to ci/baselines/webmcp.json" in result.stderr
    [entry] = json.loads(Path("ci/baselines/webmcp.json").read_text())["findings"]
    assert entry["path"] == "../../src/a.js"
    assert run("check", "--baseline", "ci/baselines/webmcp.json").exit_code == 0


def test_a_baseline_that_cannot_be_written_exits_2_with_one_line(project):
    Path("ci").write_text("a file, not a folder\n")
    result = CliRunner().invoke(main, ["check", "--write-baseline", "ci/webmcp.json"])
    assert result.exit_code == 2
    assert result.stderr.startswith("webmcp-lint: error: ci/webmcp.json: cannot write:")
    assert result.exception is None or isinstance(result.exception, SystemExit)

"""The command line: exit codes, output shapes, selection, stdin, skipped files."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner
from support import project_in

from webmcp_lint import __version__
from webmcp_lint.cli import main

ROOT = Path(__file__).resolve().parent.parent
BAD = 'const mc = navigator.modelContext;\n'
CLEAN = 'export const answer = 42;\n'


def run(*args: str, stdin: str | None = None):
    return CliRunner().invoke(main, list(args), input=stdin, catch_exceptions=False)


@pytest.fixture
def project(tmp_path: Path, monkeypatch) -> Path:
    return project_in(tmp_path, monkeypatch, {"src/bad.js": BAD, "src/clean.js": CLEAN})


def test_findings_exit_1_and_clean_exit_0(project):
    assert run("check", "src/bad.js").exit_code == 1
    assert run("check", "src/clean.js").exit_code == 0


def test_exit_zero_and_fail_on(project):
    assert run("check", "src", "--exit-zero").exit_code == 0
    (project / "src" / "bad.js").write_text("document.modelContext?.registerTool(def);\n")
    # WM002 (info) and WM106 (info) only: not failing by default, failing with --fail-on info.
    result = run("check", "src", "--select", "WM002", "--format", "json")
    assert json.loads(result.stdout)["summary"]["infos"] >= 1
    assert result.exit_code == 0
    assert run("check", "src", "--select", "WM002", "--fail-on", "info").exit_code == 1


def test_json_shape(project):
    result = run("check", "src", "--format", "json")
    document = json.loads(result.stdout)
    assert document["version"] == 1
    assert document["tool"] == {"name": "webmcp-lint", "version": __version__}
    assert document["summary"] == {"files_checked": 2, "files_skipped": 0, "errors": 1, "warnings": 0, "infos": 0}
    (diagnostic,) = document["diagnostics"]
    assert list(diagnostic) == ["code", "name", "severity", "message", "path", "line", "column", "end_line",
                                "end_column", "tool_name", "fix"]
    assert diagnostic["path"] == "src/bad.js"
    assert (diagnostic["line"], diagnostic["column"], diagnostic["end_line"], diagnostic["end_column"]) == (1, 12, 1, 34)
    assert diagnostic["fix"] == {"applicability": "safe", "edits": [
        {"line": 1, "column": 12, "end_line": 1, "end_column": 21, "text": "document"}]}


def test_columns_count_code_points(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    Path("a.js").write_text('const s = "é😀"; const mc = navigator.modelContext;\n', encoding="utf-8")
    (diagnostic,) = json.loads(run("check", "a.js", "--format", "json").stdout)["diagnostics"]
    assert diagnostic["column"] == len('const s = "é😀"; const mc = ') + 1


def test_select_ignore_prefix_and_slug(project):
    assert run("check", "src", "--ignore", "WM1").exit_code == 0
    assert run("check", "src", "--ignore", "deprecated-navigator-model-context").exit_code == 0
    assert run("check", "src", "--select", "WM10").exit_code == 1
    result = CliRunner().invoke(main, ["check", "src", "--select", "WM9999"])
    assert result.exit_code == 2
    assert "unknown rule selector" in result.output


def test_unknown_selector_suggests(project):
    result = CliRunner().invoke(main, ["check", "src", "--ignore", "deprecated-navigator-model-contxt"])
    assert result.exit_code == 2 and "did you mean deprecated-navigator-model-context" in result.output


def test_missing_path_is_a_usage_error(project):
    result = CliRunner().invoke(main, ["check", "nope/"])
    assert result.exit_code == 2 and "no such file" in result.output


def test_stdin_with_filename(project):
    result = run("check", "-", "--stdin-filename", "src/x.ts", "--format", "json", stdin=BAD)
    document = json.loads(result.stdout)
    assert [d["path"] for d in document["diagnostics"]] == ["src/x.ts"]
    assert result.exit_code == 1


def test_text_output_has_frame_and_summary(project):
    output = run("check", "src", "--no-color").output
    assert "src/bad.js:1:12: error WM101 [*]" in output
    assert "1 | const mc = navigator.modelContext;" in output
    assert "^" * len("navigator.modelContext") in output
    assert "Found 1 problem (1 error, 0 warnings, 0 info) in 1 file." in output
    assert "\x1b[" not in output


def test_concise_and_statistics(project):
    output = run("check", "src", "--format", "concise", "--statistics").output
    assert output.splitlines()[0].startswith("src/bad.js:1:12: error WM101")
    assert "    1  WM101  deprecated-navigator-model-context" in output


def test_output_file(project):
    result = run("check", "src", "--format", "json", "-o", "report.json")
    assert result.output == ""
    assert json.loads(Path("report.json").read_text())["summary"]["errors"] == 1


@pytest.mark.parametrize("command", ["check", "tools"])
def test_an_output_files_missing_folders_are_made(project, command):
    result = run(command, "src", "--format", "json", "-o", "reports/today/out.json")
    assert result.output == "" and result.exit_code in (0, 1)
    assert json.loads(Path("reports/today/out.json").read_text())


@pytest.mark.parametrize("command", ["check", "tools"])
def test_an_output_file_that_cannot_be_written_exits_2_with_one_line(project, command):
    Path("reports").write_text("a file, not a folder\n")
    result = run(command, "src", "--format", "json", "-o", "reports/out.json")
    assert result.exit_code == 2
    assert result.stderr.startswith("webmcp-lint: error: reports/out.json: cannot write:")
    assert "Traceback" not in result.output


def test_skips_are_counted_and_explicit_paths_linted(project):
    (project / "node_modules" / "lib").mkdir(parents=True)
    (project / "node_modules" / "lib" / "index.js").write_text(BAD)
    (project / "src" / "bundle.min.js").write_text(BAD)
    (project / "src" / "blob.js").write_bytes(b"navigator.modelContext\x00\x01")
    (project / "src" / "wide.js").write_text("var a = '" + "x" * 5000 + "'; navigator.modelContext;\n")
    (project / ".gitignore").write_text("ignored.js\n")
    (project / "src" / "ignored.js").write_text(BAD)
    document = json.loads(run("check", ".", "--format", "json").stdout)
    assert {d["path"] for d in document["diagnostics"]} == {"src/bad.js"}
    assert document["summary"]["files_skipped"] == 3  # minified name, binary, long lines
    explicit = json.loads(run("check", "src/ignored.js", "node_modules/lib/index.js", "--format", "json").stdout)
    assert {d["path"] for d in explicit["diagnostics"]} == {"src/ignored.js", "node_modules/lib/index.js"}


def test_text_summary_names_skips(project):
    (project / "src" / "blob.js").write_bytes(b"\x00\x01")
    output = run("check", "src", "--no-color").output
    assert "Skipped 1 file (1 binary (contains NUL bytes))" in output
    assert "skipped src/blob.js: binary" in output


def test_an_explicit_file_of_another_type_is_a_named_skip(project):
    (project / "notes.txt").write_text(BAD)
    output = run("check", "notes.txt", "src/bad.js", "--no-color", "--no-cache").output
    assert "Found 1 problem" in output and "in 1 file." in output
    assert "skipped notes.txt: not a JavaScript, TypeScript, HTML, Vue or Svelte file" in output
    stdin = run("check", "-", "--stdin-filename", "notes.txt", "--no-color", stdin=BAD).output
    assert "in 0 files" in stdin and "skipped notes.txt: not a JavaScript, TypeScript, HTML, Vue or Svelte file" in stdin


def test_a_folder_the_walk_cannot_enter_is_named_like_a_skipped_file(project):
    (project / "src" / "loop").symlink_to(project / "src")
    text = run("check", "src", "--no-color", "--no-cache").output
    assert "  skipped src/loop: symlink loop" in text
    result = run("check", "src", "--format", "json", "--no-cache")
    assert "webmcp-lint: notice: src/loop: skipped (symlink loop)" in result.stderr
    (project / "node_modules").mkdir()  # left out on purpose: counted, not named
    assert "node_modules" not in run("check", ".", "--no-color", "--no-cache").output


def test_stdin_under_force_exclude_is_skipped_when_its_name_is_excluded(project):
    (project / "webmcp-lint.toml").write_text('extend-exclude = ["generated/"]\n')
    options = ("check", "-", "--stdin-filename", "generated/x.js", "--format", "json")
    skipped = run(*options, "--force-exclude", stdin=BAD)
    assert skipped.exit_code == 0 and json.loads(skipped.stdout)["summary"]["files_skipped"] == 1
    assert run(*options, stdin=BAD).exit_code == 1  # named explicitly, without --force-exclude: linted
    fixed = run("check", "-", "--stdin-filename", "generated/x.js", "--force-exclude", "--fix", stdin=BAD)
    assert fixed.exit_code == 0 and fixed.stdout == BAD


def test_stdin_that_cannot_be_linted_comes_back_unchanged_from_fix(project):
    """An editor replaces its buffer with what --fix prints: a skipped input must not come back empty."""
    binary = "navigator.modelContext;\x00\n"
    result = run("check", "-", "--stdin-filename", "x.js", "--fix", stdin=binary)
    assert result.exit_code == 0 and result.stdout == binary


def test_a_report_that_cannot_be_written_to_standard_output_exits_2_with_one_line(tmp_path):
    if not os.path.exists("/dev/full"):
        pytest.skip("needs /dev/full")
    (tmp_path / "a.js").write_text(BAD)
    with open("/dev/full", "w") as full:
        completed = subprocess.run([sys.executable, "-m", "webmcp_lint", "check", str(tmp_path / "a.js"), "--no-cache"],
                                   stdout=full, stderr=subprocess.PIPE, text=True)
    assert (completed.returncode, completed.stderr) == (
        2, "webmcp-lint: error: cannot write the report to standard output: No space left on device\n")


def test_rules_and_rule_commands():
    listing = run("rules", "--format", "json")
    rows = json.loads(listing.stdout)
    assert {"code": "WM101", "slug": "deprecated-navigator-model-context", "severity": "error", "fix": "safe"}.items() \
        <= next(row for row in rows if row["code"] == "WM101").items()
    page = run("rule", "WM101").output
    assert page.startswith("---\ncode: WM101") and "## Incorrect" in page
    assert run("rule", "deprecated-navigator-model-context").output == page
    assert CliRunner().invoke(main, ["rule", "WM999"]).exit_code == 2


def test_version():
    assert run("--version").output.strip() == f"webmcp-lint {__version__}"


def test_python_dash_m_entry_point(tmp_path):
    (tmp_path / "a.js").write_text(BAD)
    completed = subprocess.run([sys.executable, "-m", "webmcp_lint", "check", str(tmp_path / "a.js"), "--format", "concise"],
                               capture_output=True, text=True, env={**os.environ, "NO_COLOR": "1"})
    assert completed.returncode == 1
    assert "WM101" in completed.stdout


def test_the_program_exits_at_once_only_after_writing_everything(tmp_path):
    """program.run ends the process without the interpreter's teardown: the whole report must be out by then."""
    (tmp_path / "a.js").write_text(BAD * 3000)
    program = [sys.executable, "-m", "webmcp_lint", "check", str(tmp_path / "a.js"), "--format", "json", "--no-cache"]
    completed = subprocess.run(program, capture_output=True, text=True)
    assert completed.returncode == 1
    assert len(json.loads(completed.stdout)["diagnostics"]) == 3000
    missing = subprocess.run([*program[:4], str(tmp_path / "missing.js")], capture_output=True, text=True)
    assert (missing.returncode, missing.stderr) == (2, f"webmcp-lint: error: no such file or directory: {tmp_path / 'missing.js'}\n")


def test_a_profiler_gets_the_normal_exit_to_write_its_data(tmp_path):
    profile = tmp_path / "profile.out"
    completed = subprocess.run([sys.executable, "-m", "cProfile", "-o", str(profile), "-m", "webmcp_lint", "--version"],
                               capture_output=True, text=True)
    assert completed.returncode == 0 and completed.stdout == f"webmcp-lint {__version__}\n"
    assert profile.stat().st_size > 0

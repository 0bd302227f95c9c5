"""CI formats: github workflow commands, JUnit XML, GitLab Code Quality, JSON lines."""

from __future__ import annotations

import importlib
import json
import pkgutil
import xml.etree.ElementTree as ElementTree
from pathlib import Path

import pytest
from click.testing import CliRunner
from support import project_in

from webmcp_lint import formats
from webmcp_lint.cli import main
from webmcp_lint.formats import available_formats

BAD = "const mc = navigator.modelContext;\n"  # WM101 error
INFO = ('document.modelContext?.registerTool({ name: "get_quarterly_sales_summary_by_region_x",\n'
        '  description: "Summarises this quarter sales by region for the user.", execute() { return 1; } });\n')


def output(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, ["check", *args], catch_exceptions=False)
    return result.exit_code, result.stdout


@pytest.fixture
def project(tmp_path: Path, monkeypatch) -> Path:
    return project_in(tmp_path, monkeypatch, {"src/bad.js": BAD, "src/clean.js": "export const answer = 42;\n"})


def test_every_format_is_registered():
    assert {"sarif", "github", "junit", "gitlab", "json-lines"} <= set(available_formats())


def test_the_format_table_names_the_module_that_registers_each_format():
    """render imports only FORMAT_MODULES[name], so a format missing there or listed under another module breaks."""
    for module in pkgutil.iter_modules(formats.__path__):
        importlib.import_module(f"{formats.__name__}.{module.name}")
    registered_by = {name: render.__module__.rsplit(".", 1)[1] for name, render in formats.FORMATS.items()}
    assert registered_by == formats.FORMAT_MODULES


def test_github_workflow_command(project):
    status, text = output("--format", "github")
    assert status == 1
    assert text == ("::error file=src/bad.js,line=1,col=12,endLine=1,endColumn=34,"
                    "title=WM101 deprecated-navigator-model-context::navigator.modelContext is no longer supported "
                    "(deprecated in Chromium 150); use document.modelContext.\n")


def test_github_levels_and_escaping(project):
    (project / "src" / "a,b:c%.js").write_text(INFO)
    _, text = output("--format", "github", "--select", "WM209", "src/a,b:c%.js")
    assert text.startswith("::notice file=src/a%2Cb%3Ac%25.js,line=1,")
    from webmcp_lint.formats.github import escape_data

    assert escape_data("50%\r\nnext") == "50%25%0D%0Anext"


def test_github_is_empty_when_clean(project):
    assert output("--format", "github", "src/clean.js") == (0, "")


def test_junit_one_testcase_per_file_and_a_failure_per_finding(project):
    (project / "src" / "bad.js").write_text(BAD + BAD)
    status, text = output("--format", "junit")
    assert status == 1
    root = ElementTree.fromstring(text.encode())
    suite = root.find("testsuite")
    cases = {case.get("name"): case for case in suite.findall("testcase")}
    assert set(cases) == {"src/bad.js", "src/clean.js"}
    assert suite.get("tests") == "2" and suite.get("failures") == "1"
    failures = cases["src/bad.js"].findall("failure")
    assert [failure.get("type") for failure in failures] == ["WM101 deprecated-navigator-model-context"] * 2
    assert failures[1].text.startswith("src/bad.js:2:12: error WM101 ")
    assert cases["src/clean.js"].findall("failure") == []


def test_junit_escapes_markup_and_drops_characters_xml_cannot_hold(project):
    (project / "src" / "bad.js").write_text('const s = "<&>\x01";\n' + BAD)
    _, text = output("--format", "junit")
    assert "\x01" not in text
    ElementTree.fromstring(text.encode())


def test_gitlab_code_quality(project):
    status, text = output("--format", "gitlab")
    [issue] = json.loads(text)
    assert status == 1
    assert issue["check_name"] == "WM101" and issue["severity"] == "major"
    assert issue["location"] == {"path": "src/bad.js", "lines": {"begin": 1, "end": 1},
                                 "positions": {"begin": {"line": 1, "column": 12}, "end": {"line": 1, "column": 34}}}
    assert issue["description"].startswith("WM101 deprecated-navigator-model-context: ")
    assert len(issue["fingerprint"]) == 64


def test_gitlab_fingerprint_is_stable_and_unique(project):
    first = json.loads(output("--format", "gitlab")[1])[0]["fingerprint"]
    (project / "src" / "bad.js").write_text("// moved down\n\n" + BAD)
    assert json.loads(output("--format", "gitlab")[1])[0]["fingerprint"] == first
    (project / "src" / "bad.js").write_text(BAD + BAD)
    fingerprints = [issue["fingerprint"] for issue in json.loads(output("--format", "gitlab")[1])]
    assert len(set(fingerprints)) == 2 and first in fingerprints


def test_gitlab_severities(project):
    (project / "src" / "bad.js").write_text(INFO)
    issues = json.loads(output("--format", "gitlab", "--select", "WM209")[1])
    assert [issue["severity"] for issue in issues] == ["info"]
    assert json.loads(output("--format", "gitlab", "src/clean.js")[1]) == []


def test_json_lines(project):
    (project / "src" / "bad.js").write_text(BAD + BAD)
    status, text = output("--format", "json-lines")
    lines = text.splitlines()
    assert status == 1 and len(lines) == 2
    records = [json.loads(line) for line in lines]
    assert [(r["code"], r["path"], r["line"], r["column"]) for r in records] == [
        ("WM101", "src/bad.js", 1, 12), ("WM101", "src/bad.js", 2, 12)]
    assert output("--format", "json-lines", "src/clean.js") == (0, "")

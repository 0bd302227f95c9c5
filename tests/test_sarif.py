"""SARIF 2.1.0: every document validates against the official schema; what code scanning and editors read."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest
from click.testing import CliRunner
from support import project_in

from webmcp_lint.cli import main
from webmcp_lint.engine import LintResult, Notice, Settings, lint_text
from webmcp_lint.formats import RenderOptions, render
from webmcp_lint.sarif_fingerprint import primary_location_line_hash
from webmcp_lint.selection import select_rules

SCHEMA = json.loads((Path(__file__).parent / "data" / "sarif-schema-2.1.0.json").read_text())
VALIDATOR = jsonschema.validators.validator_for(SCHEMA)(SCHEMA)
BAD = "const mc = navigator.modelContext;\n"  # WM101, with a safe fix


def valid_sarif(text: str) -> dict:
    document = json.loads(text)
    errors = sorted(VALIDATOR.iter_errors(document), key=lambda error: list(error.path))
    assert not errors, [f"{list(error.path)}: {error.message}" for error in errors[:5]]
    return document


def sarif(*args: str) -> tuple[int, dict]:
    result = CliRunner().invoke(main, ["check", "--format", "sarif", *args], catch_exceptions=False)
    return result.exit_code, valid_sarif(result.stdout)


@pytest.fixture
def project(tmp_path: Path, monkeypatch) -> Path:
    return project_in(tmp_path, monkeypatch, {"src/bad.js": BAD})


def test_schema_is_the_official_draft_4_schema():
    assert VALIDATOR.__class__ is jsonschema.Draft4Validator
    with pytest.raises(jsonschema.ValidationError):
        VALIDATOR.validate({"version": "2.1.0", "runs": [{"tool": {}}]})


def test_result_shape(project):
    status, document = sarif()
    assert status == 1 and document["version"] == "2.1.0"
    [run] = document["runs"]
    assert run["columnKind"] == "utf16CodeUnits"
    assert run["originalUriBaseIds"]["%SRCROOT%"]["uri"] == project.resolve().as_uri() + "/"
    [result] = run["results"]
    assert result["ruleId"] == "WM101" and result["level"] == "error"
    assert run["tool"]["driver"]["rules"][result["ruleIndex"]]["id"] == "WM101"
    location = result["locations"][0]["physicalLocation"]
    assert location["artifactLocation"] == {"uri": "src/bad.js", "uriBaseId": "%SRCROOT%"}
    assert location["region"] == {"startLine": 1, "startColumn": 12, "endLine": 1, "endColumn": 34}
    assert result["partialFingerprints"]["primaryLocationLineHash"] == primary_location_line_hash(BAD.encode(), 1)


def test_fix_is_a_replacement(project):
    _, document = sarif()
    [fix] = document["runs"][0]["results"][0]["fixes"]
    [change] = fix["artifactChanges"]
    assert change["artifactLocation"]["uri"] == "src/bad.js"
    [replacement] = change["replacements"]
    assert replacement["insertedContent"]["text"] == "document"
    assert replacement["deletedRegion"] == {"startLine": 1, "startColumn": 12, "endLine": 1, "endColumn": 21}


def test_driver_lists_every_enabled_rule_with_its_page(project):
    _, document = sarif("--select", "WM1,WM6", "--ignore", "WM102")
    driver = document["runs"][0]["tool"]["driver"]
    assert driver["name"] == "webmcp-lint" and driver["semanticVersion"] == driver["version"]
    ids = [rule["id"] for rule in driver["rules"]]
    assert "WM101" in ids and "WM601" in ids and "WM102" not in ids and "WM401" not in ids
    wm101 = driver["rules"][ids.index("WM101")]
    assert wm101["name"] == "deprecated-navigator-model-context"
    assert wm101["help"]["markdown"].startswith("# WM101")
    assert wm101["shortDescription"]["text"].startswith("navigator.modelContext")
    assert wm101["defaultConfiguration"]["level"] == "error"
    assert "security" not in wm101["properties"]["tags"] and "security-severity" not in wm101["properties"]
    wm601 = driver["rules"][ids.index("WM601")]
    assert "security" in wm601["properties"]["tags"] and float(wm601["properties"]["security-severity"]) >= 7
    assert wm601["properties"]["precision"] in ("very-high", "high", "medium", "low")


def test_info_is_a_note_and_severity_overrides_reach_the_descriptor(project):
    (project / "webmcp-lint.toml").write_text('[severity]\nWM101 = "info"\n')
    status, document = sarif()
    run = document["runs"][0]
    assert status == 0 and run["results"][0]["level"] == "note"
    descriptor = run["tool"]["driver"]["rules"][run["results"][0]["ruleIndex"]]
    assert descriptor["defaultConfiguration"]["level"] == "note"


def test_columns_count_utf16_code_units(project):
    (project / "src" / "bad.js").write_text("const s = '😀é'; const mc = navigator.modelContext;\n")
    _, document = sarif()
    region = document["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["region"]
    # '😀' is two UTF-16 units: "const s = '😀é'; const mc = " is 28 units.
    assert region["startColumn"] == 29 and region["endColumn"] == 29 + len("navigator.modelContext")


def test_fingerprint_is_stable_when_lines_are_added_above(project):
    _, before = sarif()
    (project / "src" / "bad.js").write_text("// a comment\n\nfunction unrelated() {}\n" + BAD)
    _, after = sarif()
    first, second = (doc["runs"][0]["results"][0] for doc in (before, after))
    assert second["locations"][0]["physicalLocation"]["region"]["startLine"] == 4
    assert first["partialFingerprints"] == second["partialFingerprints"]


def test_fingerprints_differ_for_two_identical_lines(project):
    (project / "src" / "bad.js").write_text(BAD + BAD)
    _, document = sarif()
    hashes = [result["partialFingerprints"]["primaryLocationLineHash"] for result in document["runs"][0]["results"]]
    assert len(hashes) == 2 and hashes[0] != hashes[1]
    # Lines over 100 characters hash the same text, so only the occurrence counter tells them apart.
    long_line = BAD.rstrip("\n") + " // " + "x" * 100 + "\n"
    (project / "src" / "bad.js").write_text(long_line + long_line)
    _, document = sarif()
    hashes = [result["partialFingerprints"]["primaryLocationLineHash"] for result in document["runs"][0]["results"]]
    assert hashes[0].split(":")[0] == hashes[1].split(":")[0] and hashes[0].endswith(":1") and hashes[1].endswith(":2")


def test_fingerprint_hashes_the_file_as_stored_with_its_bom(project):
    raw = b"\xef\xbb\xbf" + BAD.encode()
    (project / "src" / "bad.js").write_bytes(raw)
    _, document = sarif()
    result = document["runs"][0]["results"][0]
    assert result["partialFingerprints"]["primaryLocationLineHash"] == primary_location_line_hash(raw, 1)


def test_skipped_files_become_notifications(project):
    (project / "src" / "blob.js").write_bytes(b"\x00\x01binary")
    _, document = sarif()
    invocation = document["runs"][0]["invocations"][0]
    assert invocation["executionSuccessful"] is True
    notes = invocation["toolExecutionNotifications"]
    assert any(note["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == "src/blob.js"
               and "binary" in note["message"]["text"] for note in notes)


def test_unparsable_file_becomes_a_notification(project):
    (project / "src" / "broken.js").write_text("const mc = navigator.modelContext;\nfunction (\n")
    _, document = sarif()
    notes = document["runs"][0]["invocations"][0]["toolExecutionNotifications"]
    assert any("does not parse" in note["message"]["text"] for note in notes)


def test_internal_error_marks_the_run_unsuccessful():
    result = lint_text(BAD, "app.js", Settings(rules=select_rules(["WM101"], None, None)))
    result.notices.append(Notice("app.js", "internal error in WM101: boom", internal_error=True))
    document = valid_sarif(render("sarif", result, RenderOptions()))
    invocation = document["runs"][0]["invocations"][0]
    assert invocation["executionSuccessful"] is False
    assert invocation["toolExecutionNotifications"][-1]["level"] == "error"


def test_category_sets_automation_details(project):
    _, document = sarif("--sarif-category", "webmcp/frontend")
    assert document["runs"][0]["automationDetails"] == {"id": "webmcp/frontend/"}
    _, plain = sarif()
    assert "automationDetails" not in plain["runs"][0]


def test_clean_run_and_paths_needing_escapes(project):
    (project / "src" / "bad.js").write_text("export const answer = 42;\n")
    status, document = sarif()
    assert status == 0 and document["runs"][0]["results"] == []
    (project / "src" / "my tools#1.js").write_text(BAD)
    _, document = sarif()
    uri = document["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
    assert uri == "src/my%20tools%231.js"


def test_absolute_path_outside_the_root_is_a_file_uri(project, tmp_path_factory):
    outside = tmp_path_factory.mktemp("outside") / "tool.js"
    outside.write_text(BAD)
    _, document = sarif(str(outside))
    location = document["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"]
    assert location == {"uri": outside.resolve().as_uri()}


def test_wm003_and_suppressed_findings(project):
    (project / "src" / "bad.js").write_text("// webmcp-lint-disable-next-line WM101\n" + BAD + "// webmcp-lint-disable-line WM102\n")
    _, document = sarif()
    results = document["runs"][0]["results"]
    assert [(r["ruleId"], r["level"], r["locations"][0]["physicalLocation"]["region"]["startLine"]) for r in results] == [
        ("WM003", "note", 3)]


def test_empty_result_renders_valid_sarif():
    document = valid_sarif(render("sarif", LintResult(), RenderOptions()))
    assert document["runs"][0]["results"] == []


def test_every_fixture_app_gives_valid_sarif(monkeypatch):
    """All rule families, fixes, markup and framework files at once."""
    monkeypatch.chdir(Path(__file__).resolve().parent.parent)
    status, document = sarif("fixtures")
    results = document["runs"][0]["results"]
    assert status == 1 and results and any("fixes" in result for result in results)
    assert {result["locations"][0]["physicalLocation"]["artifactLocation"]["uri"].rsplit(".", 1)[-1]
            for result in results} >= {"js", "ts", "tsx", "html", "vue"}
    rules = document["runs"][0]["tool"]["driver"]["rules"]
    assert all(rules[result["ruleIndex"]]["id"] == result["ruleId"] for result in results)

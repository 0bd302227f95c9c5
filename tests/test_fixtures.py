"""The fixture apps: every `expect:` comment is reported on its line, and nothing else is.

Only rules that are registered are compared, so a fixture can be written ahead
of its rule.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from webmcp_lint.engine import Settings, lint_paths
from webmcp_lint.rules import all_rules

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"
EXPECT = re.compile(r"(?://|<!--|/\*)\s*expect:\s*((?:WM\d{3}[\s,]*)+)")
APPS = sorted(path.name for path in FIXTURES.iterdir() if path.is_dir())


def expectations(app: Path) -> set[tuple[str, int, str]]:
    expected = set()
    for path in sorted(app.rglob("*")):
        if not path.is_file():
            continue
        relative = path.relative_to(app).as_posix()
        if path.name == "expect.txt":
            for line in path.read_text(encoding="utf-8").splitlines():
                if ":" in line:
                    name, codes = line.split(":", 1)
                    for code in codes.split():
                        expected.add((str((path.parent.relative_to(app) / name.strip()).as_posix()), 0, code))
            continue
        try:
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            continue
        for number, line in enumerate(text.splitlines(), start=1):
            match = EXPECT.search(line)
            if match:
                for code in re.findall(r"WM\d{3}", match.group(1)):
                    expected.add((relative, number, code))
    return expected


@pytest.mark.parametrize("app", APPS)
def test_fixture_findings_match_expectations(app, monkeypatch):
    root = FIXTURES / app
    monkeypatch.chdir(root)
    registered = {rule.code for rule in all_rules()}
    result = lint_paths(["."], Settings())
    assert not result.internal_errors, result.internal_errors
    whole_file = {(path, code) for path, line, code in expectations(root) if line == 0}
    expected = {item for item in expectations(root) if item[2] in registered and item[1] != 0}
    actual = set()
    for diagnostic in result.diagnostics:
        line, _ = diagnostic.start_position()
        if (diagnostic.path, diagnostic.code) in whole_file:
            continue
        actual.add((diagnostic.path, line, diagnostic.code))
    for path, code in whole_file:
        if code in registered:
            assert any(d.path == path and d.code == code for d in result.diagnostics), f"{path}: {code} not reported"
    missing = sorted(expected - actual)
    unexpected = sorted(actual - expected)
    assert not missing and not unexpected, f"missing: {missing}\nunexpected: {unexpected}"

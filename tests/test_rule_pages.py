"""Documentation that cannot rot: every rule page's examples are linted.

An Incorrect example must yield its rule; a Correct one must not. Pages
written ahead of their rule are skipped until the rule is registered.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from support import lint_project

from webmcp_lint.engine import Settings, lint_text
from webmcp_lint.pages import load_page
from webmcp_lint.rules import all_rules

EXTENSIONS = {"js": ".js", "jsx": ".jsx", "ts": ".ts", "tsx": ".tsx", "html": ".html", "vue": ".vue",
              "svelte": ".svelte", "mjs": ".mjs", "json": ".json"}
RULES = all_rules()


def _cases():
    for rule in RULES:
        page = load_page(rule.code)
        if page is None:
            continue
        for section, expect in (("Incorrect", True), ("Correct", False)):
            for index, project in enumerate(page.examples(section)):
                yield pytest.param(rule.code, project, expect, id=f"{rule.code}-{section}-{index}")


@pytest.mark.parametrize(("code", "project", "expect_flagged"), list(_cases()))
def test_page_example(code, project, expect_flagged, tmp_path: Path):
    if len(project) == 1 and project[0].filename is None:
        example = project[0]
        result = lint_text(example.code, "example" + EXTENSIONS.get(example.language, ".js"), Settings())
    else:
        result = lint_project(tmp_path, {example.filename: example.code for example in project})
    assert not result.internal_errors, result.internal_errors
    found = [d for d in result.diagnostics if d.code == code]
    if expect_flagged:
        assert found, f"{code}: Incorrect example not flagged:\n" + "\n".join(e.code for e in project)
    else:
        assert not found, f"{code}: Correct example flagged: {[d.message for d in found]}"


@pytest.mark.parametrize("rule", RULES, ids=lambda rule: rule.code)
def test_every_rule_has_a_consistent_page(rule):
    page = load_page(rule.code)
    assert page is not None, f"rules/{rule.code}.md is missing"
    assert page.meta.get("slug") == rule.slug
    assert page.meta.get("severity") == rule.severity.value
    assert page.meta.get("fix") == rule.fix
    assert page.summary, "summary missing"
    for section in ("What it flags", "Why", "Incorrect", "Correct", "Fix"):
        assert section in page.sections, f"section {section} missing"
    assert page.examples("Incorrect") and page.examples("Correct")


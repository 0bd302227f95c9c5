"""Suppression comments and WM003 unused-suppression."""

from __future__ import annotations

from support import lint, lint_project

from webmcp_lint.config import PerFileIgnore
from webmcp_lint.engine import Settings, lint_text
from webmcp_lint.selection import select_rules

NAVIGATOR = 'navigator.modelContext?.registerTool(tool);'


def _codes(code: str, filename: str = "app.js", select: list[str] | None = None) -> list[tuple[str, int]]:
    return [(d.code, d.start_position()[0]) for d in lint(code, filename, select or ["WM101", "WM003"])]


def test_disable_next_line_suppresses_the_next_line_only():
    code = f"// webmcp-lint-disable-next-line WM101\n{NAVIGATOR}\n{NAVIGATOR}\n"
    assert _codes(code) == [("WM101", 3)]


def test_disable_line_suppresses_its_own_line():
    code = f"{NAVIGATOR} // webmcp-lint-disable-line WM101\n{NAVIGATOR}\n"
    assert _codes(code) == [("WM101", 2)]


def test_slugs_prefixes_and_several_codes_with_a_reason():
    for names in ("deprecated-navigator-model-context", "WM1", "WM403, WM101 -- migrating next sprint", "WM403 WM101"):
        code = f"// webmcp-lint-disable-next-line {names}\n{NAVIGATOR}\n"
        assert _codes(code, select=["WM101", "WM003"]) == [], names


def test_no_code_means_every_rule():
    code = f"// webmcp-lint-disable-next-line\n{NAVIGATOR}\n"
    assert _codes(code) == []


def test_a_directive_for_another_rule_does_not_suppress():
    code = f"// webmcp-lint-disable-next-line WM102\n{NAVIGATOR}\n"
    assert _codes(code, select=["WM101", "WM102", "WM003"]) == [("WM003", 1), ("WM101", 2)]


def test_block_disable_until_enable():
    code = (f"{NAVIGATOR}\n/* webmcp-lint-disable WM101 */\n{NAVIGATOR}\n{NAVIGATOR}\n"
            f"/* webmcp-lint-enable WM101 */\n{NAVIGATOR}\n")
    assert _codes(code) == [("WM101", 1), ("WM101", 6)]


def test_enable_without_codes_ends_every_block_and_an_unclosed_block_runs_to_the_end():
    code = f"{NAVIGATOR}\n/* webmcp-lint-disable WM1 */\n{NAVIGATOR}\n/* webmcp-lint-enable */\n{NAVIGATOR}\n"
    assert _codes(code) == [("WM101", 1), ("WM101", 5)]
    unclosed = f"// setup\n{NAVIGATOR}\n/* webmcp-lint-disable WM101 */\n{NAVIGATOR}\n\n{NAVIGATOR}\n"
    assert _codes(unclosed) == [("WM101", 2)]


def test_enable_of_another_rule_does_not_end_the_block():
    code = f"/* webmcp-lint-disable WM101 */\nconst a = 1;\n/* webmcp-lint-enable WM102 */\n{NAVIGATOR}\n"
    assert [c for c, _ in _codes(code)] == []


def test_file_level_disable_as_first_comment_covers_the_whole_file():
    code = f"/* webmcp-lint-disable */\n{NAVIGATOR}\nfunction f() {{\n  {NAVIGATOR}\n}}\n"
    assert _codes(code) == []
    # Not first: it covers only what follows it.
    later = f"{NAVIGATOR} // note\n/* webmcp-lint-disable */\n{NAVIGATOR}\n"
    assert _codes(later) == [("WM101", 1)]


def test_file_level_disable_reaches_code_before_it_on_the_same_line():
    code = f"{NAVIGATOR} /* webmcp-lint-disable WM101 */\n{NAVIGATOR}\n"
    assert _codes(code) == []


def test_comment_like_text_in_a_string_is_not_a_directive():
    code = f'const s = "// webmcp-lint-disable-next-line WM101";\n{NAVIGATOR}\n'
    assert _codes(code) == [("WM101", 2)]


def test_html_comment_in_markup_suppresses_a_form_finding():
    form = ('<form toolname="Bad Name!" tooldescription="Finds the stores that stock a product near the user.">'
            '<input name="q"></form>\n')
    flagged = lint(form, "page.html", ["WM702", "WM003"])
    assert [d.code for d in flagged] == ["WM702"]
    suppressed = lint("<!-- webmcp-lint-disable-next-line WM702 -- legacy name -->\n" + form, "page.html",
                      ["WM702", "WM003"])
    assert suppressed == []


def test_jsx_comment_suppresses_a_form_finding():
    form = ('      <form toolname="Bad Name!" tooldescription="Finds the stores that stock a product near the user.">'
            '<input name="q" toolparamdescription="Product name" /></form>\n')
    component = "export function Search() {{\n  return (\n    <div>\n{}{}    </div>\n  );\n}}\n"
    assert [d.code for d in lint(component.format("", form), "Search.tsx", ["WM702", "WM003"])] == ["WM702"]
    directive = "      {/* webmcp-lint-disable-next-line WM702 */}\n"
    assert lint(component.format(directive, form), "Search.tsx", ["WM702", "WM003"]) == []


def test_script_comment_in_a_vue_component():
    code = f"<script setup>\n// webmcp-lint-disable-next-line WM101\n{NAVIGATOR}\n</script>\n"
    assert _codes(code, "Widget.vue") == []


# --- WM003 ---------------------------------------------------------------------------------------------


def _wm003(code: str, filename: str = "app.js", select: list[str] | None = None) -> list[str]:
    return [d.source.slice(d.start, d.end) for d in lint(code, filename, select) if d.code == "WM003"]


def test_unused_directive_is_reported_at_the_comment():
    code = "// webmcp-lint-disable-next-line WM101\ndocument.modelContext?.registerTool(tool);\n"
    assert _wm003(code) == ["// webmcp-lint-disable-next-line WM101"]


def test_unknown_code_or_slug_is_reported_with_a_suggestion():
    code = f"// webmcp-lint-disable-next-line unguarded-modelcontext\n{NAVIGATOR}\n"
    found = [d for d in lint(code) if d.code == "WM003"]
    assert len(found) == 1 and "`unguarded-model-context`" in found[0].message
    unknown = f"// webmcp-lint-disable-next-line WM999, WM101\n{NAVIGATOR}\n"
    assert [d.message.split(" ")[0] for d in lint(unknown) if d.code == "WM003"] == ["`WM999`"]


def test_misspelled_directive_is_reported():
    code = f"// webmcp-lint-disable-nextline WM101\n{NAVIGATOR}\n"
    found = [d for d in lint(code, select=["WM101", "WM003"])]
    assert [d.code for d in found] == ["WM003", "WM101"]
    assert "`webmcp-lint-disable-next-line`" in found[0].message


def test_used_directives_are_not_reported():
    code = (f"// webmcp-lint-disable-next-line WM101\n{NAVIGATOR}\n{NAVIGATOR} // webmcp-lint-disable-line\n"
            f"/* webmcp-lint-disable WM1 */\n{NAVIGATOR}\n/* webmcp-lint-enable WM1 */\n")
    assert _wm003(code, select=["WM101", "WM003"]) == []


def test_each_unused_name_of_a_directive_is_reported():
    code = f"// webmcp-lint-disable-next-line WM101, WM102\n{NAVIGATOR}\n"
    messages = [d.message for d in lint(code, select=["WM101", "WM102", "WM003"]) if d.code == "WM003"]
    assert len(messages) == 1 and "`WM102`" in messages[0]


def test_unused_block_and_file_level_directives_are_reported():
    assert _wm003("/* webmcp-lint-disable */\nconst a = 1;\n") == ["/* webmcp-lint-disable */"]
    assert _wm003("/* webmcp-lint-disable WM101 */\nconst a = 1;\n/* webmcp-lint-enable WM101 */\n") == [
        "/* webmcp-lint-disable WM101 */"]


def test_enable_is_never_unused_but_its_unknown_names_are():
    assert _wm003("/* webmcp-lint-enable */\nconst a = 1;\n") == []
    assert len(_wm003("/* webmcp-lint-enable WM9x9 */\nconst a = 1;\n")) == 1


def test_file_holding_only_a_suppression_comment_is_still_checked():
    assert _wm003("// webmcp-lint-disable-next-line WM401\nconst total = 1 + 2;\n") == [
        "// webmcp-lint-disable-next-line WM401"]


def test_rules_not_running_are_not_reported_as_unused():
    code = "// webmcp-lint-disable-next-line WM401\nconst total = 1;\n"
    assert _wm003(code, select=["WM1", "WM003"]) == []
    assert _wm003(code, select=["WM4", "WM003"]) == ["// webmcp-lint-disable-next-line WM401"]


def test_wm003_can_be_turned_off():
    code = "// webmcp-lint-disable-next-line WM101\nconst a = 1;\n"
    assert _wm003(code, select=["WM101"]) == []


def test_per_file_ignores_remove_findings_and_make_directives_not_applicable(tmp_path):
    code = f"// webmcp-lint-disable-next-line WM101\n{NAVIGATOR}\n{NAVIGATOR}\n"
    settings = Settings(rules=select_rules(["WM101", "WM003"], None, None),
                        per_file_ignores=[PerFileIgnore("legacy/*.js", frozenset({"WM101"}), tmp_path)])
    kept = lint_text(code, str(tmp_path / "app.js"), settings).diagnostics
    assert [d.code for d in kept] == ["WM101"]
    ignored = lint_text(code, str(tmp_path / "legacy" / "app.js"), settings).diagnostics
    assert ignored == []


def test_rule_page_example_of_a_project_is_matched_per_file(tmp_path):
    result = lint_project(tmp_path, {
        "a.js": f"// webmcp-lint-disable-next-line WM101\n{NAVIGATOR}\n",
        "b.js": f"\n{NAVIGATOR}\n",
    }, select=["WM101", "WM003"])
    assert [(d.path.rsplit("/", 1)[-1], d.code) for d in result.diagnostics] == [("b.js", "WM101")]

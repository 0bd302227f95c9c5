"""Scripts inside .html/.htm/.vue/.svelte files: found, parsed in place, reported at the containing file's position."""

from __future__ import annotations

import pytest
from support import findings, lint, lint_project

from webmcp_lint.engine import lint_text
from webmcp_lint.languages import HTML, JAVASCRIPT, TSX, TYPESCRIPT

NAVIGATOR_LINE = "        navigator.modelContext.registerTool(tool);\n"


def positions(code: str, rule_code: str, filename: str) -> list[tuple[int, int]]:
    return [diagnostic.start_position() for diagnostic in findings(code, rule_code, filename)]


def project_of(code: str, filename: str):
    result = lint_text(code, filename)
    assert not result.internal_errors, result.internal_errors
    return result.project


def test_html_script_finding_reports_the_line_and_column_of_the_page():
    page = "<!doctype html>\n<html>\n<head>\n  <title>Shop</title>\n</head>\n<body>\n  <h1>Shop</h1>\n" \
           "  <p>Welcome</p>\n  <main></main>\n  <footer></footer>\n  <script>\n" + NAVIGATOR_LINE + \
           "  </script>\n</body>\n</html>\n"
    assert positions(page, "WM101", "index.html") == [(12, 9)]


def test_columns_count_characters_of_the_page_not_bytes():
    page = '<p>Crème brûlée 🍰</p><script>const mc = navigator.modelContext;</script>\n'
    [diagnostic] = findings(page, "WM101", "menu.htm")
    assert diagnostic.start_position() == (1, 41)
    assert diagnostic.source.slice(diagnostic.start, diagnostic.end) == "navigator.modelContext"


def test_classic_scripts_share_the_global_scope_of_the_page():
    page = ("<script>const mc = document.modelContext;</script>\n<p>between</p>\n"
            '<script>mc.registerTool({ name: "a", description: "Does a thing for the user.", execute() {} });</script>\n')
    [tool] = project_of(page, "index.html").tools
    assert tool.name == "a"


@pytest.mark.parametrize("first", ["function broken( {", "const settings = {", "var s = 'abc", "init() // set up"])
def test_a_broken_or_unfinished_classic_script_does_not_hide_the_next_one(first):
    page = (f"<script>{first}</script><script>document.modelContext.registerTool(\n"
            '{ name: "find shop", description: "Finds a shop.", execute() {} });</script>\n')
    assert [d.source.slice(d.start, d.end) for d in findings(page, "WM201", "index.html")] == ['"find shop"']
    scripts = project_of(page, "index.html").files[0].scripts
    assert [len(script.tree.included_ranges) for script in scripts[1:]] == [1, 1]


def test_module_scripts_keep_their_own_scope():
    def module(name: str) -> str:
        return (f'<script type="module">\nconst tool = {{ name: "{name}", description: "Does {name}.", execute() {{}} }};\n'
                "document.modelContext.registerTool(tool);\n</script>\n")

    tools = list(project_of(module("first") + module("second"), "index.html").tools)
    assert sorted(tool.name for tool in tools) == ["first", "second"]
    assert [tool.source.position(tool.node.start_byte)[0] for tool in sorted(tools, key=lambda t: t.node.start_byte)] \
        == [2, 6]


def test_scripts_that_are_not_javascript_are_not_parsed():
    page = ('<script src="app.js">navigator.modelContext</script>\n'
            '<script type="application/ld+json">{"x": "navigator.modelContext"}</script>\n'
            '<script type="importmap">{"imports": {"navigator.modelContext": "./x.js"}}</script>\n'
            '<script type="text/template"><b>navigator.modelContext</b></script>\n'
            "<!-- <script>navigator.modelContext</script> -->\n"
            "<style>.navigator.modelContext {}</style>\n")
    assert positions(page, "WM101", "index.html") == []


def test_every_kind_of_javascript_script_is_parsed():
    page = ('<script type="text/javascript">navigator.modelContext;</script>\n'
            '<script type="MODULE">navigator.modelContext;</script>\n'
            "<template><script>navigator.modelContext;</script></template>\n")
    assert positions(page, "WM101", "index.html") == [(1, 32), (2, 23), (3, 19)]


def test_scripts_of_a_page_are_parsed_by_scope_and_the_markup_is_kept():
    page = "<script>a()</script><script type=module>b()</script><script>c()</script><form toolname=x></form>"
    scripts = project_of(page + "<!-- toolname -->", "index.html").files[0].scripts
    assert [script.language for script in scripts] == [HTML, JAVASCRIPT, JAVASCRIPT]
    classic, module = scripts[1], scripts[2]
    assert [(r.start_byte, r.end_byte) for r in classic.tree.included_ranges] == [(8, 11), (60, 63)]
    assert module.tree.root_node.text == b"b()"


def test_vue_script_setup_in_typescript():
    component = ("<template>\n  <button @click=\"go\">Go</button>\n</template>\n\n"
                 '<script setup lang="ts">\nimport { onMounted } from "vue";\nconst count: number = 1;\n'
                 "onMounted(() => {\n" + NAVIGATOR_LINE + "});\n</script>\n")
    assert positions(component, "WM101", "Widget.vue") == [(9, 9)]
    scripts = project_of(component, "Widget.vue").files[0].scripts
    assert [script.language for script in scripts] == [HTML, TYPESCRIPT]
    assert not scripts[1].tree.root_node.has_error


def test_vue_script_and_script_setup_are_one_module():
    component = ('<script lang="ts">\nexport const mc = document.modelContext;\n</script>\n'
                 '<script setup lang="ts">\nmc.registerTool({ name: "vue_tool", description: "Does things.", '
                 "execute() {} });\n</script>\n")
    scripts = project_of(component, "Tool.vue").files[0].scripts
    assert [script.language for script in scripts] == [HTML, TYPESCRIPT]
    assert [tool.name for tool in project_of(component, "Tool.vue").tools] == ["vue_tool"]


def test_vue_scripts_in_different_languages_get_one_tree_each():
    component = ('<script lang="tsx">\nconst a = <b>x</b>;\n</script>\n<script setup>\nnavigator.modelContext;\n</script>\n')
    scripts = project_of(component, "Mixed.vue").files[0].scripts
    assert [script.language for script in scripts] == [HTML, TSX, JAVASCRIPT]
    assert positions(component, "WM101", "Mixed.vue") == [(5, 1)]


def test_svelte_script_in_typescript():
    component = ('<script context="module" lang="ts">\n  export const prerender: boolean = true;\n</script>\n'
                 '<script lang="ts">\n  let name: string = "x";\n  const mc = navigator.modelContext;\n</script>\n'
                 "<h1>Hello {name}!</h1>\n")
    assert positions(component, "WM101", "App.svelte") == [(6, 14)]
    scripts = project_of(component, "App.svelte").files[0].scripts
    assert [script.language for script in scripts] == [HTML, TYPESCRIPT]
    assert len(scripts[1].tree.included_ranges) == 2


def test_unterminated_script_in_vue_does_not_crash_and_is_still_read():
    component = "<template><p>hi</p></template>\n<script setup>\nconst mc = navigator.modelContext;\n"
    assert positions(component, "WM101", "Broken.vue") == [(3, 12)]


def test_empty_and_lone_script_tags_do_not_crash():
    for component in ("<script></script>", "<script>", "<script lang=\"ts\">", "<script", "</script>navigator.modelContext"):
        assert positions(component, "WM101", "Edge.vue") == []


def test_a_thousand_inline_scripts():
    page = "".join(f"<p>{index}</p>\n<script>\nvar mc{index} = navigator.modelContext;\n</script>\n"
                   for index in range(1000))
    found = positions(page, "WM101", "many.html")
    assert len(found) == 1000
    assert found[0] == (3, 11) and found[-1] == (3999, 13)


def test_a_thousand_module_scripts():
    page = "".join("<script type=\"module\">\nconst mc = navigator.modelContext;\n</script>\n" for _ in range(1000))
    found = positions(page, "WM101", "many.html")
    assert len(found) == 1000 and found[-1] == (2999, 12)


def test_parse_error_in_a_script_points_into_the_page_but_markup_errors_do_not_count():
    page = ("<div><p>unclosed\n<form toolname=\"x\" tooldescription=\"Does x.\"></form>\n"
            "<script>\ndocument.modelContext.registerTool({ name: 'y', description: 'y thing.' execute() {} });\n</script>\n")
    [error] = findings(page, "WM001", "index.html")
    assert error.start_position()[0] == 4
    assert findings(page.replace("'y thing.' execute", "'y thing.', execute"), "WM001", "index.html") == []


def test_markup_files_are_discovered_and_filtered(tmp_path):
    result = lint_project(tmp_path, {
        "site/index.html": "<script>navigator.modelContext</script>",
        "site/about.htm": "<script>navigator.modelContext</script>",
        "src/App.vue": "<script>navigator.modelContext</script>",
        "src/App.svelte": "<script>navigator.modelContext</script>",
        "site/plain.html": "<p>No tools here.</p>",
    })
    assert sorted(d.path.rsplit("/", 2)[-2] + "/" + d.path.rsplit("/", 1)[-1] for d in result.diagnostics
                  if d.code == "WM101") == ["site/about.htm", "site/index.html", "src/App.svelte", "src/App.vue"]
    plain = next(analysis for analysis in result.project.files if analysis.source.display_path.endswith("plain.html"))
    assert plain.scripts == [] and not plain.has_webmcp_code


def test_a_page_with_only_a_form_tool_holds_webmcp_code():
    project = project_of('<form toolname="find" tooldescription="Finds things."><input name="q"></form>', "f.html")
    assert project.files[0].has_webmcp_code
    assert [tool.name for tool in project.tools] == ["find"]


def test_finding_fix_applies_to_the_page_bytes():
    [diagnostic] = lint("<p>x</p><script>navigator.modelContext.registerTool</script>", "index.html", ["WM101"])
    [edit] = diagnostic.fix.edits
    assert diagnostic.source.slice(edit.start, edit.end) == "navigator"

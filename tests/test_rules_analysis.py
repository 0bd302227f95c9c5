"""WM0xx analysis rules, and the promise that no input crashes the linter."""

from __future__ import annotations

from pathlib import Path

import pytest
from support import findings, flagged_text

from webmcp_lint.engine import Settings, lint_paths, lint_text

TOOL = '{ name: "get_time", description: "Returns the current time.", execute() { return Date.now(); } }'


# WM001 ---------------------------------------------------------------------------------------------

def test_wm001_flags_a_syntax_error_in_webmcp_code():
    code = ('if ("modelContext" in document) {\n'
            '  await document.modelContext.registerTool({ name: "a" description: "b", execute() {} });\n}\n')
    [finding] = findings(code, "WM001")
    assert finding.start_position() == (2, 52)
    assert "incomplete" in finding.message


def test_wm001_points_at_a_missing_token():
    code = "document.modelContext.registerTool(tool\n"
    [finding] = findings(code, "WM001")
    assert finding.start_position()[0] == 1


def test_wm001_says_when_code_is_still_open_at_the_end():
    [finding] = findings('document.modelContext.registerTool({ name: "a", description: "b"\n', "WM001")
    assert finding.start_position() == (1, 1) and "end of the file" in finding.message


def test_wm001_cuts_a_long_error_at_its_first_line():
    code = "document.modelContext.registerTool(" + "{\n" * 3 + "a: (;\n"
    for finding in findings(code, "WM001"):
        assert "\n" not in finding.source.slice(finding.start, finding.end)


@pytest.mark.parametrize("code", [
    "let x = (;\nfunction f( {",
    "// mentions modelContext in a comment only\nlet x = (;",
    f"document.modelContext?.registerTool({TOOL});\n",
])
def test_wm001_ignores_files_without_webmcp_code_or_errors(code):
    assert findings(code, "WM001") == []


# WM002 ---------------------------------------------------------------------------------------------

@pytest.mark.parametrize("code, expected, reason", [
    ("export async function register(definition) {\n  await document.modelContext?.registerTool(definition);\n}",
     "definition", "parameter"),
    ('import { buildTool } from "@acme/widget";\nawait document.modelContext?.registerTool(buildTool());',
     "buildTool()", "run time"),
    ('import tool from "@acme/widget";\nawait document.modelContext?.registerTool(tool);', "tool", "package"),
    ("await document.modelContext?.registerTool(window.sharedTool);", "window.sharedTool", ""),
    ("await document.modelContext?.registerTool();", "document.modelContext?.registerTool()", "without"),
])
def test_wm002_flags_unresolvable_definitions(code, expected, reason):
    assert flagged_text(code, "WM002") == [expected]
    assert reason in findings(code, "WM002")[0].message


@pytest.mark.parametrize("code", [
    f"await document.modelContext?.registerTool({TOOL});",
    f"const tool = {TOOL};\nawait document.modelContext?.registerTool(tool);",
    'server.registerTool("name", { description: "d" }, handler);',
])
def test_wm002_ignores_resolved_definitions_and_other_apis(code):
    assert findings(code, "WM002") == []


# crash safety --------------------------------------------------------------------------------------

def _clean(result) -> None:
    assert not result.internal_errors, result.internal_errors


def test_empty_file():
    result = lint_text("", "empty.js")
    _clean(result)
    assert result.diagnostics == []


def test_binary_file_is_skipped(tmp_path: Path):
    path = tmp_path / "blob.js"
    path.write_bytes(b"document.modelContext\x00\x01\x02\xff")
    result = lint_paths([str(path)], Settings())
    _clean(result)
    assert [skip.reason for skip in result.skipped] == ["binary (contains NUL bytes)"]


def test_latin1_file_keeps_its_description(tmp_path: Path):
    code = ('document.modelContext?.registerTool({ name: "caf\u00e9", description: "R\u00e9serve une table.", '
            'execute() { return 1; } });\n')
    path = tmp_path / "latin1.js"
    path.write_bytes(code.encode("latin-1"))
    result = lint_paths([str(path)], Settings())
    _clean(result)
    [tool] = list(result.project.tools)
    assert tool.get("description") == "R\u00e9serve une table."
    [invalid_name] = [d for d in result.diagnostics if d.code == "WM201"]
    assert invalid_name.start_position() == (1, 45)


def test_syntax_errors_everywhere_do_not_crash():
    code = "document.modelContext.registerTool({ name: 'x', ]]] (((( execute: =>  }" * 50
    _clean(lint_text(code, "broken.ts"))


def test_a_200_kb_minified_line(tmp_path: Path):
    statement = f"document.modelContext?.registerTool({TOOL}).catch(()=>{{}});var a=1,b=2;"
    code = statement * (200_000 // len(statement) + 1)
    path = tmp_path / "bundle.js"
    path.write_text(code)
    assert len(code) > 200_000 and "\n" not in code
    _clean(lint_paths([str(path)], Settings()))  # given explicitly, so it is linted
    skipped = lint_paths([str(tmp_path)], Settings())  # found by walking: skipped as minified
    assert [skip.reason for skip in skipped.skipped] == ["minified (lines average over 1,000 characters)"]


def test_a_10000_term_concatenation_evaluates_in_full():
    description = " + ".join(['"ab"'] * 10_000)
    code = f'document.modelContext?.registerTool({{ name: "t", description: {description}, execute() {{}} }});'
    result = lint_text(code, "long.js")
    _clean(result)
    [tool] = list(result.project.tools)
    assert tool.get("description") == "ab" * 10_000


def test_deeply_nested_arrays_and_objects():
    depth = 5_000
    code = ("const deep = " + "[" * depth + "]" * depth + ";\n"
            "const schema = " + "{ a: " * 2_000 + "1" + " }" * 2_000 + ";\n"
            "document.modelContext?.registerTool({ name: 't', description: 'd', inputSchema: schema, "
            "execute() { return deep; } });")
    _clean(lint_text(code, "deep.js"))


def test_deeply_nested_schema_is_walked_without_recursion():
    depth = 3_000
    schema = '{ type: "object", properties: { a: ' * depth + '{ type: "int" }' + " } }" * depth
    code = f"document.modelContext?.registerTool({{ name: 't', description: 'd', inputSchema: {schema}, execute() {{}} }});"
    result = lint_text(code, "deep.js")
    _clean(result)

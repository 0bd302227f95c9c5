"""WM2xx: tool definition shape, with flagged and not-flagged cases and where each finding points."""

from __future__ import annotations

import pytest
from support import findings, flagged_text, lint_project

from webmcp_lint.schema import walk_schema
from webmcp_lint.engine import lint_text


def register(fields: str, options: str = "{ signal }") -> str:
    """A guarded, awaited registration of a definition with the given fields."""
    return ("export async function setup(signal) {\n"
            "  if (!('modelContext' in document)) return;\n"
            f"  await document.modelContext.registerTool({{ {fields} }}, {options});\n"
            "}\n")


BASE = 'name: "get_time", description: "Returns the current time.", execute() { return Date.now(); }'


def with_fields(extra: str) -> str:
    return register(f"{BASE}, {extra}")


# WM201 ---------------------------------------------------------------------------------------------

@pytest.mark.parametrize("name, expected", [
    ('""', "is empty"),
    ('"get weather"', "space"),
    ('"tools/search"', "`/`"),
    ('"caf\u00e9"', "non-ASCII"),
    ('"ship_\U0001F680"', "non-ASCII"),
    ('"' + "a" * 129 + '"', "129 characters"),
])
def test_wm201_flags_invalid_names(name, expected):
    code = register(f'name: {name}, description: "d d d", execute() {{}}')
    [finding] = findings(code, "WM201")
    assert finding.source.slice(finding.start, finding.end) == name
    assert expected in finding.message


def test_wm201_follows_a_const_name():
    code = 'const TOOL_NAME = "get " + "weather";\n' + register('name: TOOL_NAME, description: "d", execute() {}')
    assert flagged_text(code, "WM201") == ["TOOL_NAME"]


@pytest.mark.parametrize("name", ['"get_weather"', '"v2.search-items"', '"A"', '"' + "a" * 128 + '"', "someName"])
def test_wm201_accepts_valid_or_unknown_names(name):
    assert findings(register(f'name: {name}, description: "d", execute() {{}}'), "WM201") == []


# WM202 ---------------------------------------------------------------------------------------------

@pytest.mark.parametrize("fields, missing, expected", [
    ('description: "d", execute() {}', "name", '{ description: "d", execute() {} }'),
    ('name: "a", execute() {}', "description", "name"),
    ('name: "a", description: "d"', "execute", "name"),
])
def test_wm202_flags_missing_fields(fields, missing, expected):
    [finding] = findings(register(fields), "WM202")
    assert f"`{missing}`" in finding.message
    assert finding.source.slice(finding.start, finding.end) == expected


@pytest.mark.parametrize("description", ['""', '"   "', "``"])
def test_wm202_flags_empty_descriptions_at_the_name(description):
    code = register(f'name: "a", description: {description}, execute() {{}}')
    assert flagged_text(code, "WM202") == ["name"]
    assert "empty" in findings(code, "WM202")[0].message


@pytest.mark.parametrize("code", [
    register(BASE),
    "const base = makeBase();\n" + register('...base, name: "a"'),
    register('name: "a", description: someText, execute: handler'),
])
def test_wm202_accepts_complete_or_open_definitions(code):
    assert findings(code, "WM202") == []


# WM203 ---------------------------------------------------------------------------------------------

def tool(name: str) -> str:
    return f'{{ name: "{name}", description: "Does {name}.", execute() {{ return 1; }} }}'


def test_wm203_flags_the_later_top_level_registration_at_its_name():
    code = (f"await document.modelContext?.registerTool({tool('search')});\n"
            f"await document.modelContext?.registerTool({tool('search')});\n")
    [finding] = findings(code, "WM203")
    assert finding.start_position() == (2, 51)
    assert finding.source.slice(finding.start, finding.end) == '"search"'
    assert "line 1" in finding.message


def test_wm203_flags_twice_in_one_function_body():
    code = ("export async function setup(signal) {\n"
            f"  await document.modelContext?.registerTool({tool('a')}, {{ signal }});\n"
            f"  await document.modelContext?.registerTool({tool('b')}, {{ signal }});\n"
            f"  await document.modelContext?.registerTool({tool('a')}, {{ signal }});\n}}\n")
    [finding] = findings(code, "WM203")
    assert finding.start_position()[0] == 4


def test_wm203_flags_one_definition_registered_twice_at_the_second_call():
    code = (f"const t = {tool('search')};\n"
            "await document.modelContext?.registerTool(t);\nawait document.modelContext?.registerTool(t);\n")
    [finding] = findings(code, "WM203")
    assert finding.start_position() == (3, 43)


def test_wm203_flags_duplicates_in_a_registered_array():
    code = (f"const tools = [{tool('a')}, {tool('a')}];\n"
            "for (const t of tools) await document.modelContext?.registerTool(t);\n")
    if not any(t.name == "a" for t in lint_text(code).project.tools):
        pytest.skip("loops over arrays are resolved by the sources extractor")
    assert len(findings(code, "WM203")) == 1


@pytest.mark.parametrize("code", [
    # different function bodies (different routes or mounts)
    f"function a() {{ document.modelContext?.registerTool({tool('x')}).catch(f); }}\n"
    f"function b() {{ document.modelContext?.registerTool({tool('x')}).catch(f); }}\n",
    # exclusive branches
    f"if (admin) {{ await document.modelContext?.registerTool({tool('x')}); }}\n"
    f"else {{ await document.modelContext?.registerTool({tool('x')}); }}\n",
    f"switch (page) {{ case 'a': await document.modelContext?.registerTool({tool('x')}); break;\n"
    f"  case 'b': await document.modelContext?.registerTool({tool('x')}); }}\n",
    # different names
    f"await document.modelContext?.registerTool({tool('x')});\nawait document.modelContext?.registerTool({tool('y')});",
])
def test_wm203_accepts_registrations_that_are_not_live_together(code):
    assert findings(code, "WM203") == []


def test_wm203_allows_the_same_name_in_different_files(tmp_path):
    result = lint_project(tmp_path, {
        "a.js": f"await document.modelContext?.registerTool({tool('search')});",
        "b.js": f"await document.modelContext?.registerTool({tool('search')});",
    })
    assert [d for d in result.diagnostics if d.code == "WM203"] == []


def test_wm203_counts_the_scripts_and_forms_of_one_page(tmp_path):
    html = ('<form toolname="search" tooldescription="Searches the catalog.">'
            '<input name="q" toolparamdescription="Words to look for."></form>\n'
            f"<script type=\"module\">\nawait document.modelContext?.registerTool({tool('search')});\n</script>\n")
    result = lint_project(tmp_path, {"index.html": html})
    if not any(t.source_kind.value == "form" for t in result.project.tools):
        pytest.skip("form tools come with the declarative extractor")
    assert [d.start_position()[0] for d in result.diagnostics if d.code == "WM203"] == [3]


# WM204 ---------------------------------------------------------------------------------------------

@pytest.mark.parametrize("schema, expected", [
    ('{ type: "string" }', '"string"'),
    ("{ properties: {} }", "inputSchema"),
    ('"object"', '"object"'),
    ('{ type: "object", properties: { q: { type: "str" } } }', '"str"'),
    ('{ type: "object", properties: { n: { type: ["int", "null"] } } }', '"int"'),
    ('{ type: "object", properties: { q: { type: "string" } }, required: ["query"] }', '"query"'),
    ('{ type: "object", required: ["q"] }', '"q"'),
    ('{ type: "object", properties: { q: { type: "string", required: true } } }', "true"),
    ('{ type: "object", properties: { q: "string" } }', '"string"'),
    ("{ type: \"object\", properties: [] }", "[]"),
    ('{ type: "object", properties: { s: { type: "string", enum: [] } } }', "[]"),
    ('{ type: "object", properties: { s: { type: "string", enum: ["a", "b"], default: "c" } } }', '"c"'),
    ('{ type: "object", properties: { s: { type: "boolean", enum: [true], default: 1 } } }', "1"),
    ('{ type: "object", properties: { n: { type: "integer", default: "10" } } }', '"10"'),
    ('{ type: "object", properties: { n: { type: "integer", default: 1.5 } } }', "1.5"),
    ('{ type: "object", properties: { n: { type: "number", minimum: 10, maximum: 1 } } }', "10"),
    ('{ type: "object", properties: { s: { type: "string", minLength: 5, maxLength: 2 } } }', "5"),
    ('{ type: "object", properties: { l: { type: "array", minItems: 3, maxItems: 1 } } }', "3"),
    ('{ type: "object", properties: { l: { type: "array", items: "string" } } }', '"string"'),
    ('{ type: "object", properties: { l: { type: "array", items: { type: "float" } } } }', '"float"'),
    ('{ type: "object", properties: { a: { type: "object", properties: { b: { type: "date" } } } } }', '"date"'),
])
def test_wm204_flags_invalid_schemas(schema, expected):
    assert flagged_text(with_fields(f"inputSchema: {schema}"), "WM204") == [expected]


def test_wm204_checks_output_schema_too():
    code = with_fields('inputSchema: { type: "object", properties: {} }, outputSchema: { type: "object", '
                       'properties: { total: { type: "double" } } }')
    [finding] = findings(code, "WM204")
    assert finding.source.slice(finding.start, finding.end) == '"double"'
    assert "did you mean `\"number\"`" in finding.message


def test_wm204_suggests_json_types():
    code = with_fields('inputSchema: { type: "object", properties: { d: { type: "date" } } }')
    [finding] = findings(code, "WM204")
    assert '"string"' in finding.message and "format" in finding.message


def test_wm204_follows_const_schemas():
    code = 'const SCHEMA = { type: "object", properties: { q: { type: "bool" } } };\n' + with_fields(
        "inputSchema: SCHEMA")
    assert flagged_text(code, "WM204") == ['"bool"']


@pytest.mark.parametrize("schema", [
    '{ type: "object", properties: {} }',
    '{ type: "object", properties: { q: { type: "string", enum: ["a", "b"], default: "a", minLength: 1, '
    'maxLength: 5 } }, required: ["q"] }',
    '{ type: "object", properties: { n: { type: ["integer", "null"], default: null, minimum: 1, maximum: 1 } } }',
    '{ type: "object", properties: { n: { type: "number", default: 2 } } }',
    '{ type: "object", properties: { n: { type: "integer", default: 2.0 } } }',
    '{ type: "object", properties: { b: { type: "boolean", enum: [true, false], default: false } } }',
    '{ type: "object", properties: { v: { enum: ["a", { b: 1 }], default: "c" } } }',
    '{ type: "object", properties: { l: { type: "array", items: { type: "string" }, default: [] } } }',
    '{ type: "object", properties: SHARED, required: ["anything"] }',
    '{ type: "object", properties: { ...COMMON }, required: ["anything"] }',
    "buildSchema()",
    '{ type: "object", properties: { a: { type: "string" }, b: { type: "string" } }, '
    'anyOf: [{ required: ["a"] }, { required: ["b"] }] }',
    '{ type: kind, properties: { q: { type: dynamicType } } }',
])
def test_wm204_accepts_valid_or_unknown_schemas(schema):
    assert findings(with_fields(f"inputSchema: {schema}"), "WM204") == []


def test_wm204_accepts_a_tool_without_input_schema():
    assert findings(register(BASE), "WM204") == []


# WM205 ---------------------------------------------------------------------------------------------

@pytest.mark.parametrize("annotations, expected, says", [
    ("{ readonlyHint: true }", "readonlyHint", "did you mean `readOnlyHint`"),
    ("{ readOnly: true }", "readOnly", "did you mean `readOnlyHint`"),
    ("{ consequential: true }", "consequential", "did you mean `consequentialHint`"),
    ("{ destructiveHint: true }", "destructiveHint", "consequentialHint"),
    ("{ openWorldHint: true }", "openWorldHint", "untrustedContentHint"),
    ("{ idempotentHint: true }", "idempotentHint", "idempotentHint"),
    ('{ title: "Search" }', "title", "title"),
    ('{ readOnlyHint: "true" }', '"true"', "boolean"),
    ("{ consequentialHint: 1 }", "1", "boolean"),
])
def test_wm205_flags_unknown_annotations(annotations, expected, says):
    [finding] = findings(with_fields(f"annotations: {annotations}"), "WM205")
    assert finding.source.slice(finding.start, finding.end) == expected
    assert says in finding.message


@pytest.mark.parametrize("annotations", [
    "{ readOnlyHint: true, consequentialHint: false, untrustedContentHint: true, debugging: false }",
    "{ readOnlyHint: isReadOnly }",
    "ANNOTATIONS",
    "{ ...base, readOnlyHint: true }",
])
def test_wm205_accepts_valid_annotations(annotations):
    assert findings(with_fields(f"annotations: {annotations}"), "WM205") == []


def test_wm205_fix_renames_a_misspelling():
    [finding] = findings(with_fields("annotations: { readonlyHint: true }"), "WM205")
    assert finding.fix.applicability == "unsafe"
    [edit] = finding.fix.edits
    assert finding.source.slice(edit.start, edit.end) == "readonlyHint" and edit.text == "readOnlyHint"


def test_wm205_fix_keeps_a_shorthand_value():
    [finding] = findings("const readOnly = true;\n" + with_fields("annotations: { readOnly }"), "WM205")
    assert finding.fix.edits[0].text == "readOnlyHint: readOnly"


@pytest.mark.parametrize("annotations", ["{ destructiveHint: true }", "{ readOnly: true, readOnlyHint: true }"])
def test_wm205_offers_no_fix_for_mcp_names_or_collisions(annotations):
    assert [finding.fix for finding in findings(with_fields(f"annotations: {annotations}"), "WM205")] == [None]


# WM206 ---------------------------------------------------------------------------------------------

@pytest.mark.parametrize("extra, expected, says", [
    ("parameters: {}", "parameters", "inputSchema"),
    ("input_schema: {}", "input_schema", "inputSchema"),
    ("schema: {}", "schema", "inputSchema"),
    ("args: {}", "args", "inputSchema"),
    ("handler() {}", "handler", "execute"),
    ("run: () => 1", "run", "execute"),
    ("callback: f", "callback", "execute"),
    ("fn: f", "fn", "execute"),
    ("descripton: 'x'", "descripton", "description"),
    ("readOnlyHint: true", "readOnlyHint", "annotations"),
    ("enabled: true", "enabled", "not a tool field"),
    ("signal", "signal", "second argument"),
    ('exposedTo: ["https://a.example"]', "exposedTo", "second argument"),
])
def test_wm206_flags_unknown_fields(extra, expected, says):
    [finding] = findings(with_fields(extra), "WM206")
    assert finding.source.slice(finding.start, finding.end) == expected
    assert says in finding.message


@pytest.mark.parametrize("extra", [
    'title: "Time", inputSchema: { type: "object", properties: {} }, outputSchema: { type: "object" }, '
    "annotations: { readOnlyHint: true }",
    "...shared",
])
def test_wm206_accepts_valid_fields(extra):
    assert findings(with_fields(extra), "WM206") == []


def test_wm206_accepts_framework_hook_options():
    code = ('import { useWebMCP } from "@vueuse/core";\n'
            'useWebMCP({ name: "a", description: "Does a.", execute() { return 1; }, enabled: true, '
            "formatOutput: (r) => r, onError: console.warn, document });\n")
    if not lint_text(code, "app.js").project.files[0].tools:
        pytest.skip("framework hooks come with the framework extractor")
    assert findings(code, "WM206") == []


def apply(source: str, fix) -> str:
    data = source.encode()
    for edit in sorted(fix.edits, key=lambda edit: edit.start, reverse=True):
        data = data[:edit.start] + edit.text.encode() + data[edit.end:]
    return data.decode()


def test_wm206_fix_moves_a_hint_into_existing_annotations():
    code = register(f"{BASE},\n    readOnlyHint: true,\n    annotations: {{ debugging: false }}")
    [finding] = findings(code, "WM206")
    fixed = apply(code, finding.fix)
    assert "annotations: { readOnlyHint: true, debugging: false }" in fixed
    assert fixed.count("readOnlyHint") == 1
    assert lint_text(fixed).project.files[0].tools[0].annotation("readOnlyHint") is True


def test_wm206_fix_creates_annotations():
    code = register(f"{BASE}, consequentialHint: true, readOnlyHint: false")
    first, second = findings(code, "WM206")
    assert first.fix == second.fix
    fixed = apply(code, first.fix)
    assert "annotations: { consequentialHint: true, readOnlyHint: false }" in fixed
    assert findings(fixed, "WM206") == [] and findings(fixed, "WM001") == []


def test_wm206_fix_is_not_offered_when_annotations_already_hold_the_key():
    code = with_fields("readOnlyHint: true, annotations: { readOnlyHint: false }")
    assert [finding.fix for finding in findings(code, "WM206")] == [None]


# WM207 ---------------------------------------------------------------------------------------------

@pytest.mark.parametrize("options, expected, says", [
    ('{ exposeTo: ["https://a.example"] }', "exposeTo", "exposedTo"),
    ('{ origins: ["https://a.example"] }', "origins", "exposedTo"),
    ('{ allowedOrigins: ["https://a.example"] }', "allowedOrigins", "exposedTo"),
    ("{ abortSignal: signal }", "abortSignal", "`signal`"),
    ("{ signal: new AbortController() }", "new AbortController()", "controller.signal"),
    ("{ signal: controller }", "controller", "controller.signal"),
    ("{ signal: this.controller }", "this.controller", "controller.signal"),
    ("controller.signal", "controller.signal", "{ signal }"),
])
def test_wm207_flags_unknown_options(options, expected, says):
    code = "const controller = new AbortController();\n" + register(BASE, options)
    [finding] = findings(code, "WM207")
    assert finding.source.slice(finding.start, finding.end) == expected
    assert says in finding.message


@pytest.mark.parametrize("options", [
    '{ signal: controller.signal, exposedTo: ["https://a.example"] }',
    "{ signal }",
    "options",
    "{ ...defaults }",
])
def test_wm207_accepts_valid_options(options):
    code = "const controller = new AbortController();\n" + register(BASE, options)
    assert findings(code, "WM207") == []


def test_wm207_checks_options_even_when_the_definition_is_unresolved():
    code = "export async function f(def, signal) { await document.modelContext?.registerTool(def, { abortSignal: signal }); }"
    assert flagged_text(code, "WM207") == ["abortSignal"]


# WM208 ---------------------------------------------------------------------------------------------

@pytest.mark.parametrize("execute", ['"run"', "42", "{ run() {} }", "[]", "null", "HANDLER_NAME", "undefined",
                                     "`run`", "true"])
def test_wm208_flags_non_function_execute(execute):
    code = 'const HANDLER_NAME = "search";\n' + register(f'name: "a", description: "d", execute: {execute}')
    assert flagged_text(code, "WM208") == [execute]


@pytest.mark.parametrize("execute", ["() => 1", "async function () {}", "handler", "handlers.run", "run",
                                     "handlers.later"])
def test_wm208_accepts_functions_and_unknowns(execute):
    code = ("function run() {}\nconst handlers = { run() {} };\n"
            + register(f'name: "a", description: "d", execute: {execute}'))
    assert findings(code, "WM208") == []


# WM209 ---------------------------------------------------------------------------------------------

def test_wm209_flags_a_long_valid_name():
    name = '"' + "search_products_by_category_and_price" + '"'
    assert flagged_text(register(f'name: {name}, description: "d", execute() {{}}'), "WM209") == [name]


@pytest.mark.parametrize("name", ['"' + "a" * 30 + '"', '"' + "a" * 129 + '"', '"a very long name with spaces in it"'])
def test_wm209_accepts_short_or_invalid_names(name):
    assert findings(register(f'name: {name}, description: "d", execute() {{}}'), "WM209") == []


# WM210 ---------------------------------------------------------------------------------------------

@pytest.mark.parametrize("schema, expected", [
    ('{ type: "object", properties: { a: { $ref: "#/$defs/a" } } }', "$ref"),
    ('{ type: "object", properties: { a: { anyOf: [{ type: "string" }, { type: "number" }] } } }', "anyOf"),
    ('{ type: "object", allOf: [{ properties: {} }] }', "allOf"),
    ('{ type: "object", properties: { a: { oneOf: [] } } }', "oneOf"),
    ('{ type: "object", properties: { a: { not: { type: "null" } } } }', "not"),
    ('{ type: "object", if: { properties: {} }, then: {}, else: {} }', "if"),
    ('{ type: "object", patternProperties: { "^x": { type: "string" } } }', "patternProperties"),
    ('{ type: "object", properties: { a: { type: "object", properties: { b: { type: "object", properties: '
     '{ c: { type: "object", properties: { d: { type: "object" } } } } } } } } }', "c"),
])
def test_wm210_flags_complex_schemas(schema, expected):
    assert flagged_text(with_fields(f"inputSchema: {schema}"), "WM210") == [expected]


def test_wm210_accepts_three_object_levels():
    schema = ('{ type: "object", properties: { a: { type: "object", properties: { b: { type: "object", '
              'properties: { c: { type: "string", enum: ["x"] } } } } } } }')
    assert findings(with_fields(f"inputSchema: {schema}"), "WM210") == []


# the schema walker ---------------------------------------------------------------------------------

def test_walk_schema_visits_nested_schemas_in_order():
    code = ('const s = { type: "object", properties: { a: { type: "array", items: { type: "object", properties: '
            '{ b: { type: "string" } } } }, c: { anyOf: [{ type: "string" }] } } };')
    result = lint_text(code + "\ndocument.modelContext;")
    script = result.project.files[0].scripts[0]
    declarator = script.of_kind("variable_declarator")[0]
    value = script.evaluator.value(declarator.child_by_field_name("value"))
    entries = list(walk_schema(value))
    assert [entry.path for entry in entries] == [
        (), ("properties", "a"), ("properties", "a", "items"), ("properties", "a", "items", "properties", "b"),
        ("properties", "c"), ("properties", "c", "anyOf", 0)]
    assert [entry.object_depth for entry in entries] == [1, 1, 2, 2, 1, 1]
    assert [entry.property_name for entry in entries] == [None, "a", None, "b", "c", None]
    assert [entry.keyword for entry in entries] == [None, "properties", "items", "properties", "properties", "anyOf"]


def test_wm207_names_the_tool():
    [finding] = findings(register(BASE, "{ exposeTo: [] }"), "WM207")
    assert finding.tool_name == "get_time"


def test_wm204_accepts_a_vue_schema_getter():
    code = ('import { useWebMCP } from "@vueuse/core";\n'
            'useWebMCP({ name: "a", description: "Does a thing.", execute() { return 1; }, '
            'inputSchema: () => ({ type: "object", properties: {} }) });\n')
    assert lint_text(code, "app.js").project.files[0].tools[0].source_kind.value == "vue"
    assert findings(code, "WM204") == []
    assert findings(register(BASE + ", inputSchema: () => ({})"), "WM204") != []

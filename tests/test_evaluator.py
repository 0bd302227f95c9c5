"""The static evaluator: what it knows, and that it says Unknown for everything else."""

from __future__ import annotations

from pathlib import Path

import pytest

from webmcp_lint.engine import build_script, file_scripts
from webmcp_lint.evaluate import UNDEFINED, BigIntValue, JSArray, JSFunction, JSObject, Unknown, decode_escapes
from webmcp_lint.scope import BINDING_KINDS
from webmcp_lint.source import SourceFile

KINDS = BINDING_KINDS | {"variable_declarator"}


def evaluate(expression: str, before: str = "", language: str = "javascript"):
    """The value of ``expression`` after the declarations in ``before``."""
    code = f"{before}\nconst __value = {expression};\n"
    source = SourceFile(Path("t.js"), "t.js", code)
    script = build_script(source, language, KINDS)
    declarator = next(node for node in script.of_kind("variable_declarator")
                      if script.text(node.child_by_field_name("name")) == "__value")
    return script.evaluator.value(declarator.child_by_field_name("value"))


@pytest.mark.parametrize("expression, expected", [
    ('"text"', "text"),
    ("'single'", "single"),
    ("`template`", "template"),
    ("42", 42),
    ("1.5", 1.5),
    ("0x10", 16),
    ("1_000", 1000),
    ("-3", -3),
    ("true", True),
    ("false", False),
    ("null", None),
    ("!false", True),
    ('"a" + "b" + 1', "ab1"),
    ("1 + 2", 3),
    ('"n=" + 1 + 2', "n=12"),
    ('"x" + null + true', "xnulltrue"),
    ("`a${1 + 1}b${'c'}`", "a2bc"),
    ('"\\u202E"', "\u202e"),
    ('"\\u{1F600}"', "\U0001F600"),
    ('"\\x41\\n\\t"', "A\n\t"),
    ('"line\\\ncontinued"', "linecontinued"),
    ("(\"wrapped\")", "wrapped"),
])
def test_literals_and_operators(expression, expected):
    value = evaluate(expression)
    assert value == expected and type(value) is type(expected)


def test_undefined_and_bigint():
    assert evaluate("undefined") is UNDEFINED
    assert isinstance(evaluate("10n"), BigIntValue)


def test_typescript_wrappers_are_transparent():
    assert evaluate('("a" as string) + ("b" satisfies string) + NAME!', 'const NAME = "c";', "typescript") == "abc"


def test_objects_keep_key_and_value_nodes():
    value = evaluate('{ name: "a", "quoted-key": 1, ["computed"]: 2, short, run() {}, get g() { return 1; } }',
                     "const short = 3;")
    assert isinstance(value, JSObject) and not value.open
    assert {key: prop.value for key, prop in value.props.items() if key != "run" and key != "g"} == {
        "name": "a", "quoted-key": 1, "computed": 2, "short": 3}
    assert isinstance(value.get("run"), JSFunction)
    assert isinstance(value.get("g"), Unknown)
    assert value.props["name"].key_node.text == b"name" and value.props["name"].value_node.text == b'"a"'
    assert value.get("missing") is UNDEFINED


def test_a_string_nested_deeper_than_the_bound_is_unknown():
    """Object literals read string values themselves: the depth bound still holds for them."""
    from webmcp_lint.evaluate import MAX_DEPTH

    value = evaluate("{ a: " * MAX_DEPTH + '{ deepest: "text", n: 1 }' + " }" * MAX_DEPTH)
    for _ in range(MAX_DEPTH - 1):
        value = value.get("a")
    innermost = value.get("a")
    assert isinstance(innermost, JSObject)
    assert isinstance(innermost.get("deepest"), Unknown) and isinstance(innermost.get("n"), Unknown)


def test_texts_after_multibyte_text_and_repeated_spellings_keep_their_own_values():
    """Multi-byte text before keys, names, numbers and strings must not shift them, and a short literal or key
    repeated (its string remembered per spelling) keeps its own value."""
    value = evaluate('{ ключ: "значение 😀", type: "string", n: 1_0, same: TYPE, "k\\u0041": "\\u0041" }',
                     'const é = "😀"; const TYPE = "string"; const other = { type: "object" };')
    assert {key: prop.value for key, prop in value.props.items()} == {
        "ключ": "значение 😀", "type": "string", "n": 10, "same": "string", "kA": "A"}
    assert value.props["ключ"].key_node.text == "ключ".encode()


def test_texts_of_an_embedded_script_are_read_at_their_offsets_in_the_page():
    page = '<p>é😀</p>\n<script type="module">\nconst tool = { name: "ünïcode", size: 2 };\n</script>\n'
    source = SourceFile(Path("t.html"), "t.html", page)
    script = next(script for script in file_scripts(source, KINDS) if script.language == "javascript")
    declarator = script.of_kind("variable_declarator")[0]
    value = script.evaluator.value(declarator.child_by_field_name("value"))
    assert {key: prop.value for key, prop in value.props.items()} == {"name": "ünïcode", "size": 2}


def test_spreads_of_resolvable_and_unresolvable_objects():
    value = evaluate("{ ...base, b: 2 }", "const base = { a: 1, b: 1 };")
    assert {key: prop.value for key, prop in value.props.items()} == {"a": 1, "b": 2} and not value.open
    unknown_spread = evaluate("{ ...props, b: 2 }")
    assert unknown_spread.open
    assert isinstance(unknown_spread.get("a"), Unknown) and unknown_spread.get("b") == 2


def test_computed_keys_that_are_not_strings_open_the_object():
    value = evaluate("{ [key]: 1 }")
    assert value.open and isinstance(value.get("anything"), Unknown)


def test_arrays_and_spreads():
    value = evaluate('[1, "two", ...rest, ...more]', "const rest = [3]; ")
    assert isinstance(value, JSArray)
    assert value.values[:3] == [1, "two", 3] and value.open


def test_bindings_and_member_access():
    before = ('const SCHEMAS = { search: { type: "object" } };\nlet prefix = "Find";\nvar ORDERS = ["asc", "desc"];\n'
              'const { nested: { deep } } = { nested: { deep: "found" } };\nconst [first] = ["zero"];')
    assert evaluate("SCHEMAS.search.type", before) == "object"
    assert evaluate('SCHEMAS["search"].type', before) == "object"
    assert evaluate('prefix + " items"', before) == "Find items"
    assert evaluate("ORDERS[1]", before) == "desc"
    assert evaluate("ORDERS.length", before) == 2
    assert evaluate("deep", before) == "found"
    assert evaluate("first", before) == "zero"


def test_scopes_are_respected():
    before = 'const label = "outer";\nfunction f(label) { return label; }'
    assert evaluate("label", before) == "outer"


@pytest.mark.parametrize("expression, before", [
    ("userInput", ""),
    ("window.title", ""),
    ("`Hello ${user.name}`", ""),
    ('"a" + other', ""),
    ("a * 2", "const a = 2;"),
    ("param", "function f(param) {}\nlet param;"),
    ("cyclic", "const cyclic = cyclic + 'x';"),
])
def test_everything_else_is_unknown(expression, before):
    assert isinstance(evaluate(expression, before), Unknown)


def test_unknown_names_what_it_came_from():
    value = evaluate("`Search ${catalog.name} for ${term}`")
    assert isinstance(value, Unknown) and "term" in value.references


def test_a_10000_term_concatenation_is_folded_without_recursion():
    expression = " + ".join(['"ab"'] * 10_000)
    assert evaluate(expression) == "ab" * 10_000


def test_a_long_chain_of_const_references_is_bounded():
    before = "const v0 = 'x';\n" + "\n".join(f"const v{i} = v{i - 1};" for i in range(1, 3000))
    value = evaluate("v2999", before)
    assert value == "x" or isinstance(value, Unknown)


def test_deep_nesting_gives_unknown_not_a_crash():
    value = evaluate("[" * 3000 + "1" + "]" * 3000)
    assert isinstance(value, JSArray)


@pytest.mark.parametrize("raw, expected", [
    ("\\u0041", "A"), ("\\'", "'"), ("\\\\", "\\"), ("\\q", "q"), ("\\0", "\0"),
])
def test_decode_escapes(raw, expected):
    assert decode_escapes(raw) == expected


@pytest.mark.parametrize(("steps", "known"), [(45, True), (46, False)])
def test_member_access_through_a_chain_of_names_keeps_the_depth_bound(steps, known):
    # Each name costs a level, as evaluating the name itself does: the bound falls on the same link.
    before = 'const v0 = { x: "found" };\n' + "\n".join(f"const v{i} = v{i - 1};" for i in range(1, steps + 1))
    value = evaluate(f"v{steps}.x", before)
    assert value == "found" if known else isinstance(value, Unknown)


def test_only_methods_named_after_a_node_kind_evaluate_that_kind():
    from webmcp_lint.evaluate import _EVALUATE_KIND
    from webmcp_lint.languages import JAVASCRIPT, TSX, TYPESCRIPT, language

    grammars = [language(name) for name in (JAVASCRIPT, TYPESCRIPT, TSX)]
    assert {"object", "array", "string", "identifier", "call_expression"} <= set(_EVALUATE_KIND)
    assert all(any(grammar.id_for_node_kind(kind, True) is not None for grammar in grammars) for kind in _EVALUATE_KIND)
    assert "literal_part" not in _EVALUATE_KIND and "binding_value" not in _EVALUATE_KIND  # helpers, not handlers

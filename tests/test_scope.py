"""Name resolution: the byte-range lookup must agree with climbing the tree, scope by scope."""

from __future__ import annotations

from pathlib import Path

import pytest

from webmcp_lint.engine import build_script
from webmcp_lint.scope import BINDING_KINDS
from webmcp_lint.source import SourceFile

SHADOWING = """
import { tool as imported } from "./tools.js";
var hoisted = 1;
const tool = imported;
function outer(tool, { signal }) {
  const inner = () => tool + hoisted;
  for (const tool of [1, 2]) { use(tool, signal); }
  try { risky(tool); } catch (tool) { report(tool); }
  { let tool = 3; use(tool); }
  function hoisted() { var tool = 4; return tool; }
  return inner(tool, undefinedGlobal);
}
class Tool { method(tool) { return (tool) => tool; } static make() { return Tool; } }
x => x;
for (var i in tool) { i; }
"""


def script_of(code: str, language: str = "javascript"):
    source = SourceFile(Path("t.js"), "t.js", code)
    return build_script(source, language, BINDING_KINDS | {"identifier"})


@pytest.mark.parametrize("code", [SHADOWING, "const a = 1; { const a = 2; a; } a;", "let x = (y) => y ? x : y;"])
def test_range_lookup_agrees_with_the_climb_for_every_identifier(code):
    script = script_of(code)
    identifiers = script.of_kind("identifier")
    assert len(identifiers) > 3
    for identifier in identifiers:
        name = script.text(identifier)
        assert script.scopes.resolve(identifier) is script.scopes._climb(identifier, name), identifier.start_point


def test_innermost_binding_wins_and_globals_stay_unresolved():
    script = script_of(SHADOWING)
    by_position = {(node.start_point.row, node.start_point.column): node for node in script.of_kind("identifier")}
    report_argument = by_position[(7, 45)]  # report(tool) inside catch (tool)
    assert script.text(report_argument) == "tool"
    assert script.scopes.resolve(report_argument).kind == "catch"
    loop_use = by_position[(6, 35)]  # use(tool, ...) in for (const tool of ...)
    assert script.scopes.resolve(loop_use).kind == "const"
    assert script.scopes.resolve(by_position[(10, 21)]) is None  # undefinedGlobal


def test_a_node_of_another_tree_never_resolves_to_this_trees_binding():
    first, second = script_of("function f(a) { return a; }"), script_of("function g(a) { return a; }")
    foreign = second.of_kind("identifier")[-1]
    assert second.scopes.resolve(foreign) is not None
    assert first.scopes.resolve(foreign) is None


def test_bindings_keep_declaration_order_when_parameter_lists_are_walked_late():
    """Variables, then parameters (list by list), then arrows, functions and the rest, however the index is asked."""
    code = "function f(b) { var a = 1; return b; }\nfunction g(a) { return a; }\nconst h = a => a;\n"
    script = script_of(code)
    by_position = {(node.start_point.row, node.start_point.column): node for node in script.of_kind("identifier")}
    assert script.scopes.resolve(by_position[(0, 34)]).kind == "param"  # b: walks f's list, which spells no `a`
    assert [(binding.kind, binding.declaration.type) for binding in script.scopes.bindings_of("a")] == [
        ("var", "variable_declarator"), ("param", "identifier"), ("param", "arrow_function")]
    assert script.scopes.resolve(by_position[(1, 23)]).kind == "param"  # a in g
    assert script.scopes.resolve(by_position[(0, 20)]).kind == "var"


@pytest.mark.parametrize("asked_first", ["a2", "b", "a"])
def test_variables_keep_declaration_order_whatever_name_is_asked_first(asked_first):
    """The first declaration of a name in a scope wins, whichever name the index is asked about first (asking `a2`
    first would read the array pattern, the last declaration of `a`, first if declarators were read lazily)."""
    script = script_of("var ab = 1;\nvar { a, ab: b } = o;\nvar [a2, a] = p;\na2; a; b;")
    uses = {script.text(node): node for node in script.of_kind("identifier")[-3:]}
    script.scopes.resolve(uses[asked_first])
    binding = script.scopes.resolve(uses["a"])
    assert (binding.kind, binding.path, binding.name_node.start_point) == ("var", ("a",), (1, 6))
    assert script.scopes.resolve(uses["b"]).path == ("ab",)
    assert script.scopes.resolve(uses["a2"]).path == (0,)


def test_a_parameter_shadowed_by_a_var_of_its_function_keeps_the_var():
    script = script_of("function f(a, b) { var a = 1; return a + b; }")
    identifiers = script.of_kind("identifier")
    returned_b = identifiers[-1]
    assert script.text(returned_b) == "b" and script.scopes.resolve(returned_b).kind == "param"  # walks the list first
    returned_a = identifiers[-2]
    assert script.text(returned_a) == "a" and script.scopes.resolve(returned_a).kind == "var"


FIELDS_CODE = """
import def, { a as b, c } from "./m.js";
const { d, e: [f, , g] } = source(), h = 1;
for (const [k, v] of Object.entries(h)) use(k, v);
for (let key in h) use(key);
try { risky(); } catch ({ message }) { report(message); }
const arrow = x => x + h;
function named(p = 1, { q }) { return p + q; }
class Holder {}
"""


@pytest.mark.parametrize("language", ["javascript", "typescript", "tsx"])
def test_fields_read_by_id_index_what_reading_them_by_name_does(language):
    """The index reads its own nodes' fields by the ids of the grammar it was parsed in; the answers are those of
    an index reading them by name."""
    from webmcp_lint.scope import BY_NAME, fields_of

    script = script_of(FIELDS_CODE, language)
    assert script.scopes.fields is fields_of(language) and script.scopes.fields is not BY_NAME
    rebuilt = _index_reading_by_name(script)
    names = ["def", "b", "c", "d", "f", "g", "h", "k", "v", "key", "message", "arrow", "x", "named", "p", "q", "Holder"]
    for name in names:
        by_id = [(b.kind, b.name_node.start_byte, b.path, b.init and b.init.start_byte, b.import_source, b.imported_name)
                 for b in script.scopes.bindings_of(name)]
        assert by_id, name
        assert by_id == [(b.kind, b.name_node.start_byte, b.path, b.init and b.init.start_byte, b.import_source,
                          b.imported_name) for b in rebuilt.bindings_of(name)], name
    assert [value.start_byte for _, _, value in script.initialised_declarators()] == [
        FIELDS_CODE.index("source()"), FIELDS_CODE.index("1;"), FIELDS_CODE.index("x =>")]


def _index_reading_by_name(script):
    """The script's index built again, its fields read by name."""
    from webmcp_lint import scope

    index = scope.build_index(script.nodes, script.source.data, None)
    assert index.fields is scope.BY_NAME
    return index


def test_outside_the_script_grammars_fields_are_read_by_name():
    from webmcp_lint.scope import BY_NAME, fields_of

    assert fields_of(None) is BY_NAME and fields_of("html") is BY_NAME

"""Objects typed as WebMCP tools, registered in this run or not.

``const t: WebMCP.ModelContextTool = {...}``, ``{...} satisfies
ModelContextTool``, ``{...} as WebMCP.ModelContextTool``, arrays of them
(``ModelContextTool[]``, ``Array<...>``), class fields so typed, and the
return values of functions whose return type is one. The type name is
matched through its import alias (``import type { ModelContextTool as Tool }``).
An object holding nothing but ``name`` and ``description`` is not a tool
(a label or a menu entry borrowing the type's shape), so it is skipped.
"""

from __future__ import annotations

from tree_sitter import Node

from webmcp_lint.evaluate import JSArray, JSObject, Value
from webmcp_lint.extract import Extractor
from webmcp_lint.model import FileAnalysis, Script, SourceKind, ToolDefinition
from webmcp_lint.languages import TSX, TYPESCRIPT
from webmcp_lint.syntax import text

TOOL_TYPE_NAMES = frozenset({"ModelContextTool", "ModelContextToolFromSchema", "WebMcpToolDescriptor"})
ARRAY_GENERICS = frozenset({"Array", "ReadonlyArray"})
NOT_A_TOOL_ALONE = frozenset({"name", "description"})
TYPED_FUNCTION_KINDS = ("function_declaration", "function_expression", "arrow_function", "method_definition")


def tool_type(type_node: Node | None, script: Script) -> str | None:
    """'one' when ``type_node`` names the tool type, 'many' for an array of it, else None."""
    node, many = type_node, False
    for _ in range(4):
        if node is None:
            return None
        if node.type in ("type_annotation", "readonly_type", "parenthesized_type"):
            node = next((child for child in node.named_children if child.type != "comment"), None)
        elif node.type == "array_type" and not many:
            node, many = node.named_children[0] if node.named_children else None, True
        elif node.type == "generic_type":
            name = node.child_by_field_name("name")
            arguments = node.child_by_field_name("type_arguments")
            if text(name) in ARRAY_GENERICS and not many and arguments is not None and arguments.named_children:
                node, many = arguments.named_children[0], True
            elif text(name) == "Promise" and arguments is not None and arguments.named_children:
                node = arguments.named_children[0]  # an async factory's result
            else:
                node = name
        else:
            break
    if node is None:
        return None
    if node.type == "nested_type_identifier":
        name = text(node.child_by_field_name("name"))
    elif node.type == "type_identifier":
        name = text(node)
        binding = script.scopes.resolve(node)
        if binding is not None and binding.kind == "import" and binding.imported_name:
            name = binding.imported_name
    else:
        return None
    if name not in TOOL_TYPE_NAMES:
        return None
    return "many" if many else "one"


def _typed_values(script: Script) -> list[tuple[str, Value]]:
    """(how many, value) for every expression some type annotation says is a tool."""
    evaluator = script.evaluator
    found: list[tuple[str, Value]] = []
    for kind in ("variable_declarator", "public_field_definition"):
        for declaration in script.of_kind(kind):
            shape = tool_type(declaration.child_by_field_name("type"), script)
            if shape is not None:
                found.append((shape, evaluator.value(declaration.child_by_field_name("value"))))
    for kind in ("satisfies_expression", "as_expression"):
        for expression in script.of_kind(kind):
            named = [child for child in expression.named_children if child.type != "comment"]
            shape = tool_type(named[-1], script) if len(named) == 2 else None
            if shape is not None:
                found.append((shape, evaluator.value(named[0])))
    for kind in TYPED_FUNCTION_KINDS:
        for function in script.of_kind(kind):
            shape = tool_type(function.child_by_field_name("return_type"), script)
            if shape is None:
                continue
            body = function.child_by_field_name("body")
            returned = [body] if body is not None and body.type != "statement_block" \
                else evaluator.return_expressions(function)
            found.extend((shape, evaluator.value(expression)) for expression in returned if expression is not None)
    return found


def _is_tool_shaped(value: Value) -> bool:
    return isinstance(value, JSObject) and value.node is not None \
        and (value.open or not set(value.props) <= NOT_A_TOOL_ALONE)


def _extract(script: Script, analysis: FileAnalysis) -> None:
    if script.language not in (TYPESCRIPT, TSX):
        return
    seen = {tool.identity for tool in analysis.tools}
    for shape, value in _typed_values(script):
        objects = value.values if shape == "many" and isinstance(value, JSArray) else [value]
        for definition in objects:
            if not _is_tool_shaped(definition):
                continue
            tool = ToolDefinition(SourceKind.TYPED, script, script.source, definition.node, definition)
            if tool.identity not in seen:
                seen.add(tool.identity)
                analysis.tools.append(tool)
                analysis.has_webmcp_code = True


EXTRACTOR = Extractor(
    name="typed",
    triggers=(b"ModelContextTool", b"WebMcpToolDescriptor"),
    kinds=frozenset({"variable_declarator", "public_field_definition", "satisfies_expression", "as_expression",
                     *TYPED_FUNCTION_KINDS}),
    extract=_extract,
    order=30,
)

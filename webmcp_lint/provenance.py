"""Where a name or description comes from: constants, or values only known at run time (WM611).

A description built only from constants (``const`` strings, literal arrays
joined, imported constants) is the site's own text even when the evaluator
cannot compute it. One that reads a parameter, a prop, a global such as
``location``, an ``await`` or an unknown function's result carries text of
unknown origin into the agent's context.
"""

from __future__ import annotations

from tree_sitter import Node

from webmcp_lint.scope import ScopeIndex
from webmcp_lint.syntax import Worklist

MAX_STEPS = 2000
# Globals whose members are pure functions of their arguments.
PURE_GLOBALS = frozenset({"Object", "Array", "JSON", "String", "Number", "Math", "Boolean", "undefined", "NaN",
                          "Infinity", "encodeURIComponent", "encodeURI", "parseInt", "parseFloat"})
# Methods that compute from their receiver and arguments only.
PURE_METHODS = frozenset({
    "join", "map", "filter", "toUpperCase", "toLowerCase", "toLocaleUpperCase", "toLocaleLowerCase", "trim",
    "trimStart", "trimEnd", "slice", "substring", "substr", "replace", "replaceAll", "concat", "toString",
    "toFixed", "padStart", "padEnd", "repeat", "split", "keys", "values", "entries", "at", "flat", "flatMap",
    "sort", "reverse", "normalize", "stringify", "from", "of", "charAt", "find", "includes", "length",
})
# Reactive wrappers whose value is what their argument (or getter) computes: ref("x"), computed(() => X).
REACTIVE_WRAPPERS = frozenset({"ref", "shallowRef", "computed", "toValue", "unref", "readonly", "signal", "toRef"})
STATIC_KINDS = frozenset({"string", "number", "true", "false", "null", "undefined", "regex", "string_fragment",
                          "escape_sequence", "comment", "property_identifier", "template_string", "arrow_function",
                          "function_expression", "function"})
TRANSPARENT = frozenset({"parenthesized_expression", "as_expression", "satisfies_expression", "non_null_expression",
                         "binary_expression", "ternary_expression", "template_substitution", "arguments", "array",
                         "object", "spread_element", "unary_expression", "type_assertion", "sequence_expression"})


def non_static_parts(node: Node | None, scopes: ScopeIndex) -> list[str]:
    """The pieces of an expression that are not built from constants (empty: only constants)."""
    found: list[str] = []
    if node is None:
        return found
    work = Worklist(node, MAX_STEPS)
    for current in work:
        kind = current.type
        if kind == "template_string":
            work.extend(child for child in current.named_children if child.type == "template_substitution")
        elif kind in STATIC_KINDS:
            continue
        elif kind in TRANSPARENT:
            work.extend(_value_children(current))
        elif kind in ("identifier", "shorthand_property_identifier"):
            reason = _identifier_origin(current, scopes, work)
            if reason is not None:
                found.append(reason)
        elif kind in ("member_expression", "subscript_expression"):
            target = current.child_by_field_name("object")
            if target is not None and target.type == "this":
                found.append(_text(current))  # component state or props
                continue
            work.append(target)
            index = current.child_by_field_name("index")
            if index is not None:
                work.append(index)
        elif kind == "call_expression":
            if not _pure_call(current, work):
                found.append(_text(current))
        else:
            found.append(_text(current))
    return list(dict.fromkeys(found))


def _value_children(node: Node) -> list[Node]:
    if node.type == "object":
        children = []
        for child in node.named_children:
            value = child.child_by_field_name("value") if child.type == "pair" else child
            if value is not None:
                children.append(value)
        return children
    operator = node.child_by_field_name("operator")
    return [child for child in node.named_children if child is not operator]


def _identifier_origin(identifier: Node, scopes: ScopeIndex, work: Worklist) -> str | None:
    """None when the name holds a constant (its initialiser is queued); else why it does not."""
    name = _text(identifier)
    binding = scopes.resolve(identifier)
    if binding is None:
        return None if name in PURE_GLOBALS else name
    if binding.kind in ("import", "function", "class"):
        return None  # module constants and code; their values are the site's own
    if binding.kind in ("const", "let", "var") and binding.init is not None:
        work.append(binding.init)
        return None
    return name


def _pure_call(call: Node, work: Worklist) -> bool:
    callee = call.child_by_field_name("function")
    arguments = call.child_by_field_name("arguments")
    if callee is None:
        return False
    if callee.type == "identifier" and _text(callee) in REACTIVE_WRAPPERS | PURE_GLOBALS:
        if arguments is not None:
            for argument in arguments.named_children:
                body = argument.child_by_field_name("body") if argument.type in ("arrow_function", "function_expression") else None
                work.append(body if body is not None else argument)
        return True
    if callee.type == "member_expression":
        method = callee.child_by_field_name("property")
        if method is not None and _text(method) in PURE_METHODS:
            work.append(callee.child_by_field_name("object"))
            if arguments is not None:
                work.extend(arguments.named_children)
            return True
    return False


def _text(node: Node) -> str:
    return node.text.decode("utf-8", errors="replace")

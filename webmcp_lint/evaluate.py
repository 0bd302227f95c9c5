"""Static values of JavaScript expressions, where they can be known.

A value is a Python ``str``, ``int``/``float``, ``bool``, ``None`` (null),
``UNDEFINED``, a ``JSObject``, a ``JSArray``, a ``JSFunction`` or an
``Unknown``. Rules that need a value stay silent on ``Unknown``.

Objects and arrays keep the nodes of their keys and values so findings can
point at them. Evaluation is depth-bounded, and ``+`` chains (a 10,000-term
concatenation) are folded iteratively, so Python's recursion limit is never
what stops the linter.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Callable, Union

from tree_sitter import Node

from webmcp_lint.scope import Binding, ScopeIndex, property_key

if TYPE_CHECKING:
    pass

MAX_DEPTH = 48


class _Undefined:
    __slots__ = ()

    def __repr__(self) -> str:
        return "undefined"


UNDEFINED = _Undefined()


@dataclass(frozen=True)
class Unknown:
    """A value the analyzer cannot know. ``references`` names the identifiers it came from."""

    reason: str = "dynamic"
    references: tuple[str, ...] = ()

    def __bool__(self) -> bool:
        return False


UNKNOWN = Unknown()


@dataclass
class Prop:
    key: str
    key_node: Node | None
    value_node: Node | None
    value: "Value"


@dataclass
class JSObject:
    node: Node | None
    props: dict[str, Prop] = field(default_factory=dict)
    open: bool = False  # an unresolvable spread may add keys

    def get(self, key: str) -> "Value":
        prop = self.props.get(key)
        if prop is None:
            return UNKNOWN if self.open else UNDEFINED
        return prop.value

    def has(self, key: str) -> bool:
        return key in self.props


@dataclass
class Element:
    node: Node | None
    value: "Value"


@dataclass
class JSArray:
    node: Node | None
    items: list[Element] = field(default_factory=list)
    open: bool = False

    @property
    def values(self) -> list["Value"]:
        return [item.value for item in self.items]


@dataclass
class JSFunction:
    node: Node


@dataclass
class BigIntValue:
    text: str


Value = Union[str, int, float, bool, None, _Undefined, JSObject, JSArray, JSFunction, BigIntValue, Unknown]

FUNCTION_NODE_KINDS = frozenset({
    "function_expression", "function", "arrow_function", "generator_function",
    "function_declaration", "generator_function_declaration", "method_definition",
})
TRANSPARENT_KINDS = frozenset({
    "parenthesized_expression", "as_expression", "satisfies_expression",
    "non_null_expression", "type_assertion",
})

_SIMPLE_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "b": "\b", "f": "\f", "v": "\v", "0": "\0"}
_ESCAPE = re.compile(r"\\(u\{[0-9a-fA-F]+\}|u[0-9a-fA-F]{4}|x[0-9a-fA-F]{2}|\r\n|[\s\S])")


def decode_escapes(raw: str) -> str:
    """Decode JavaScript escape sequences (``"\\u202E"`` is one character)."""

    def replace(match: re.Match[str]) -> str:
        body = match.group(1)
        if body[0] == "u":
            digits = body[2:-1] if body[1:2] == "{" else body[1:]
            code = int(digits, 16)
            return chr(code) if code <= 0x10FFFF else "\ufffd"
        if body[0] == "x":
            return chr(int(body[1:], 16))
        if body in ("\n", "\r\n", "\r", "\u2028", "\u2029"):
            return ""
        return _SIMPLE_ESCAPES.get(body, body)

    return _ESCAPE.sub(replace, raw)


def string_value(node: Node) -> str | None:
    """The value of a string literal or a substitution-free template literal."""
    if node.type == "string":
        raw = node.text.decode("utf-8", errors="replace")
        return decode_escapes(raw[1:-1]) if len(raw) >= 2 else ""
    if node.type == "template_string":
        if any(child.type == "template_substitution" for child in node.named_children):
            return None
        raw = node.text.decode("utf-8", errors="replace")
        return decode_escapes(raw[1:-1])
    return None


def number_value(text: str) -> int | float | BigIntValue | None:
    text = text.replace("_", "")
    if text.endswith("n"):
        return BigIntValue(text)
    try:
        lowered = text.lower()
        if lowered.startswith(("0x", "0o", "0b")):
            return int(lowered, 0)
        if re.fullmatch(r"0[0-7]+", text):
            return int(text, 8)
        number = float(text)
        return int(number) if number.is_integer() and "e" not in lowered and "." not in text else number
    except ValueError:
        return None


def to_js_string(value: Value) -> str | None:
    """JavaScript's String(value) for primitives; None when not static."""
    if isinstance(value, str):
        return value
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if value.is_integer() and abs(value) < 1e21:
            return str(int(value))
        return repr(value)
    if value is None:
        return "null"
    if value is UNDEFINED:
        return "undefined"
    return None


def identifiers_in(node: Node, limit: int = 200) -> tuple[str, ...]:
    """Identifier names used inside an expression (for 'built from X' messages)."""
    names: list[str] = []
    stack = [node]
    while stack and len(names) < limit:
        current = stack.pop()
        if current.type == "identifier":
            names.append(current.text.decode("utf-8", errors="replace"))
        elif current.type == "member_expression":
            names.append(current.text.decode("utf-8", errors="replace"))
            obj = current.child_by_field_name("object")
            if obj is not None:
                stack.append(obj)
        else:
            stack.extend(current.named_children)
    return tuple(dict.fromkeys(names))


ImportResolver = Callable[[Binding, int], "Value"]


class Evaluator:
    """Evaluates expressions of one file, following bindings in its scope index."""

    def __init__(self, scopes: ScopeIndex, resolve_import: ImportResolver | None = None) -> None:
        self.scopes = scopes
        self.resolve_import = resolve_import
        self._active: set[int] = set()

    def value(self, node: Node | None, depth: int = 0) -> Value:
        if node is None:
            return UNDEFINED
        if depth > MAX_DEPTH:
            return Unknown("too deep")
        while node.type in TRANSPARENT_KINDS:
            inner = node.child_by_field_name("expression") or (node.named_children[0] if node.named_children else None)
            if node.type == "parenthesized_expression":
                inner = next((child for child in node.named_children if child.type != "comment"), None)
            if inner is None:
                return UNKNOWN
            node = inner
        method = getattr(self, "_" + node.type, None)
        if method is None:
            return Unknown("dynamic", identifiers_in(node, 8))
        return method(node, depth)

    # literals -----------------------------------------------------------
    def _string(self, node: Node, depth: int) -> Value:
        return string_value(node) or ""

    def _number(self, node: Node, depth: int) -> Value:
        number = number_value(node.text.decode())
        return UNKNOWN if number is None else number

    def _true(self, node: Node, depth: int) -> Value:
        return True

    def _false(self, node: Node, depth: int) -> Value:
        return False

    def _null(self, node: Node, depth: int) -> Value:
        return None

    def _undefined(self, node: Node, depth: int) -> Value:
        return UNDEFINED

    def _template_string(self, node: Node, depth: int) -> Value:
        parts: list[str] = []
        references: list[str] = []
        static = True
        raw_start = node.start_byte + 1
        for child in node.children:
            if child.type == "template_substitution":
                parts.append(decode_escapes(node.text[raw_start - node.start_byte:child.start_byte - node.start_byte].decode("utf-8", errors="replace")))
                raw_start = child.end_byte
                expression = child.named_children[0] if child.named_children else None
                value = self.value(expression, depth + 1)
                text = to_js_string(value)
                if text is None:
                    static = False
                    if expression is not None:
                        references.extend(identifiers_in(expression))
                else:
                    parts.append(text)
        parts.append(decode_escapes(node.text[raw_start - node.start_byte:len(node.text) - 1].decode("utf-8", errors="replace")))
        if not static:
            return Unknown("dynamic", tuple(dict.fromkeys(references)))
        return "".join(parts)

    def _binary_expression(self, node: Node, depth: int) -> Value:
        operator = node.child_by_field_name("operator")
        if operator is None or operator.type != "+":
            return Unknown("dynamic", identifiers_in(node, 8))
        # Fold the + chain left to right without recursing down its spine.
        operands: list[Node] = []
        stack = [node]
        while stack:
            current = stack.pop()
            op = current.child_by_field_name("operator") if current.type == "binary_expression" else None
            if op is not None and op.type == "+":
                right = current.child_by_field_name("right")
                left = current.child_by_field_name("left")
                if right is not None:
                    stack.append(right)
                if left is not None:
                    stack.append(left)
            else:
                operands.append(current)
        result: Value = self.value(operands[0], depth + 1)
        references: list[str] = []
        for operand in operands[1:]:
            right_value = self.value(operand, depth + 1)
            if isinstance(result, Unknown) or isinstance(right_value, Unknown):
                for part in (result, right_value):
                    if isinstance(part, Unknown):
                        references.extend(part.references)
                result = UNKNOWN
                continue
            if isinstance(result, str) or isinstance(right_value, str):
                left_text, right_text = to_js_string(result), to_js_string(right_value)
                result = UNKNOWN if left_text is None or right_text is None else left_text + right_text
            elif isinstance(result, (int, float)) and isinstance(right_value, (int, float)) \
                    and not isinstance(result, bool) and not isinstance(right_value, bool):
                result = result + right_value
            else:
                result = UNKNOWN
        if isinstance(result, Unknown):
            return Unknown("dynamic", tuple(dict.fromkeys(references)) or result.references)
        return result

    def _unary_expression(self, node: Node, depth: int) -> Value:
        operator = node.child_by_field_name("operator")
        argument = self.value(node.child_by_field_name("argument"), depth + 1)
        if operator is not None and operator.type == "-" and isinstance(argument, (int, float)) and not isinstance(argument, bool):
            return -argument
        if operator is not None and operator.type == "!" and isinstance(argument, bool):
            return not argument
        return Unknown("dynamic", identifiers_in(node, 8))

    # containers ---------------------------------------------------------
    def _object(self, node: Node, depth: int) -> Value:
        result = JSObject(node)
        for child in node.named_children:
            kind = child.type
            if kind == "pair":
                key_node = child.child_by_field_name("key")
                value_node = child.child_by_field_name("value")
                key = property_key(key_node) if key_node is not None else None
                if key is None:
                    result.open = True
                    continue
                result.props[key] = Prop(key, key_node, value_node, self.value(value_node, depth + 1))
            elif kind == "shorthand_property_identifier":
                key = child.text.decode("utf-8", errors="replace")
                result.props[key] = Prop(key, child, child, self._identifier(child, depth + 1))
            elif kind == "method_definition":
                key_node = child.child_by_field_name("name")
                key = property_key(key_node) if key_node is not None else None
                if key is None:
                    result.open = True
                    continue
                if any(grand.type in ("get", "set") for grand in child.children[:2]):
                    result.props[key] = Prop(key, key_node, child, UNKNOWN)
                else:
                    result.props[key] = Prop(key, key_node, child, JSFunction(child))
            elif kind == "spread_element":
                spread = self.value(child.named_children[0] if child.named_children else None, depth + 1)
                if isinstance(spread, JSObject):
                    result.props.update(spread.props)
                    result.open = result.open or spread.open
                else:
                    result.open = True
        return result

    def _array(self, node: Node, depth: int) -> Value:
        result = JSArray(node)
        for child in node.named_children:
            if child.type == "comment":
                continue
            if child.type == "spread_element":
                spread = self.value(child.named_children[0] if child.named_children else None, depth + 1)
                if isinstance(spread, JSArray):
                    result.items.extend(spread.items)
                    result.open = result.open or spread.open
                else:
                    result.open = True
                continue
            result.items.append(Element(child, self.value(child, depth + 1)))
        return result

    # functions ----------------------------------------------------------
    def _function(self, node: Node, depth: int) -> Value:
        return JSFunction(node)

    _function_expression = _arrow_function = _generator_function = _function

    def _class(self, node: Node, depth: int) -> Value:
        return Unknown("class")

    # names --------------------------------------------------------------
    def _identifier(self, node: Node, depth: int) -> Value:
        name = node.text.decode("utf-8", errors="replace")
        binding = self.scopes.resolve(node)
        if binding is None:
            return UNDEFINED if name == "undefined" else Unknown("global", (name,))
        return self.binding_value(binding, depth)

    _shorthand_property_identifier = _identifier

    def binding_value(self, binding: Binding, depth: int = 0) -> Value:
        """The value a binding holds, following its destructuring path."""
        if binding.kind == "import":
            if self.resolve_import is not None:
                return self.resolve_import(binding, depth + 1)
            return Unknown("import", (binding.name,))
        if binding.kind == "function":
            return JSFunction(binding.declaration)
        if binding.kind not in ("const", "let", "var") or binding.init is None:
            return Unknown(binding.kind, (binding.name,))
        key = binding.init.id
        if key in self._active:
            return Unknown("cycle", (binding.name,))
        self._active.add(key)
        try:
            value = self.value(binding.init, depth + 1)
        finally:
            self._active.discard(key)
        for step in binding.path:
            value = member(value, step)
        if isinstance(value, Unknown) and not value.references:
            return Unknown(value.reason, (binding.name,))
        return value

    def _member_expression(self, node: Node, depth: int) -> Value:
        property_node = node.child_by_field_name("property")
        if property_node is None:
            return UNKNOWN
        target = self.value(node.child_by_field_name("object"), depth + 1)
        if isinstance(target, Unknown):
            return Unknown(target.reason, identifiers_in(node, 8))
        return member(target, property_node.text.decode("utf-8", errors="replace"))

    def _subscript_expression(self, node: Node, depth: int) -> Value:
        index = self.value(node.child_by_field_name("index"), depth + 1)
        target = self.value(node.child_by_field_name("object"), depth + 1)
        if isinstance(index, (str, int)) and not isinstance(index, bool):
            return member(target, index)
        return Unknown("dynamic", identifiers_in(node, 8))


def member(value: Value, key: str | int) -> Value:
    """``value[key]`` for static objects and arrays."""
    if isinstance(value, JSObject):
        return value.get(str(key))
    if isinstance(value, JSArray):
        if key == "length" and not value.open:
            return len(value.items)
        if isinstance(key, int) and not value.open and 0 <= key < len(value.items):
            return value.items[key].value
        if isinstance(key, str) and key.isdigit():
            return member(value, int(key))
        return UNKNOWN
    if isinstance(value, str) and key == "length":
        return len(value)
    if isinstance(value, Unknown):
        return value
    return UNKNOWN


def is_static(value: Value) -> bool:
    return not isinstance(value, Unknown)

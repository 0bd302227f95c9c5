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
from functools import lru_cache
from typing import TYPE_CHECKING, Callable, Union

from tree_sitter import Node

from webmcp_lint.languages import JAVASCRIPT, TSX, TYPESCRIPT, language
from webmcp_lint.record import HashedRecord, Record
from webmcp_lint.scope import EACH, Binding, DecodedMemo, ScopeIndex, property_key, spelling

if TYPE_CHECKING:
    pass

MAX_DEPTH = 48
MAX_CANDIDATES = 1000  # elements one loop variable stands for (a generated 100,000-tool array stays fast)


class _Undefined:
    __slots__ = ()

    def __repr__(self) -> str:
        return "undefined"


UNDEFINED = _Undefined()


class Unknown(HashedRecord):
    """A value the analyzer cannot know. ``references`` names the identifiers it came from."""

    __slots__ = ("reason", "_references", "_named_in")
    _compared = ("reason", "references")

    def __init__(self, reason: str = "dynamic", references: tuple[str, ...] = ()) -> None:
        self.reason = reason
        self._references: tuple[str, ...] | None = references
        self._named_in: Node | None = None

    @classmethod
    def built_from(cls, reason: str, node: Node) -> "Unknown":
        """The value of ``node``, unknown for ``reason``; its references are read from the node when asked
        (most unknown values are never shown in a message)."""
        unknown = cls(reason)
        unknown._references, unknown._named_in = None, node
        return unknown

    @property
    def references(self) -> tuple[str, ...]:
        if self._references is None:
            self._references = identifiers_in(self._named_in, 8)
            self._named_in = None
        return self._references

    def __bool__(self) -> bool:
        return False


UNKNOWN = Unknown()


class Prop(Record):
    __slots__ = ("key", "key_node", "value_node", "value")
    _compared = __slots__

    def __init__(self, key: str, key_node: Node | None, value_node: Node | None, value: "Value") -> None:
        self.key = key
        self.key_node = key_node
        self.value_node = value_node
        self.value = value


class JSObject(Record):
    __slots__ = ("node", "props", "open", "__dict__")  # a __dict__ for the facts memo.per_object keeps on a schema
    _compared = ("node", "props", "open")

    def __init__(self, node: Node | None, props: dict[str, Prop] | None = None, open: bool = False) -> None:
        self.node = node
        self.props = {} if props is None else props
        self.open = open  # an unresolvable spread may add keys

    def get(self, key: str) -> "Value":
        prop = self.props.get(key)
        if prop is None:
            return UNKNOWN if self.open else UNDEFINED
        return prop.value

    def has(self, key: str) -> bool:
        return key in self.props


class Element(Record):
    __slots__ = ("node", "value")
    _compared = __slots__

    def __init__(self, node: Node | None, value: "Value") -> None:
        self.node = node
        self.value = value


class JSArray(Record):
    __slots__ = ("node", "items", "open", "__dict__")  # a __dict__ for the facts memo.per_object keeps
    _compared = ("node", "items", "open")

    def __init__(self, node: Node | None, items: list[Element] | None = None, open: bool = False) -> None:
        self.node = node
        self.items = [] if items is None else items
        self.open = open

    @property
    def values(self) -> list["Value"]:
        return [item.value for item in self.items]


class JSFunction(Record):
    __slots__ = ("node", "owner")
    _compared = ("node",)

    def __init__(self, node: Node, owner: "Evaluator | None" = None) -> None:
        self.node = node
        # The evaluator of the file the function is written in (calls evaluate its body there).
        self.owner = owner


class BigIntValue(Record):
    __slots__ = ("text",)
    _compared = __slots__

    def __init__(self, text: str) -> None:
        self.text = text


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


_SURROGATE = re.compile("[\ud800-\udfff]")


def decode_escapes(raw: str) -> str:
    """Decode JavaScript escape sequences (``"\\u202E"`` is one character)."""

    def replace(match: re.Match[str]) -> str:
        body = match.group(1)
        if body[0] == "u" and len(body) > 1:
            digits = body[2:-1] if body[1:2] == "{" else body[1:]
            code = int(digits, 16)
            return chr(code) if code <= 0x10FFFF else "\ufffd"
        if body[0] == "x" and len(body) > 1:
            return chr(int(body[1:], 16))
        if body in ("\n", "\r\n", "\r", "\u2028", "\u2029"):
            return ""
        return _SIMPLE_ESCAPES.get(body, body)

    decoded = _ESCAPE.sub(replace, raw) if "\\" in raw else raw
    if not decoded.isascii() and _SURROGATE.search(decoded):
        # Join escaped surrogate pairs ("\ud83d\ude00" is one emoji); a lone one becomes U+FFFD.
        decoded = decoded.encode("utf-16", "surrogatepass").decode("utf-16", "replace")
    return decoded


def string_value(node: Node) -> str | None:
    """The value of a string literal or a substitution-free template literal."""
    kind = node.type
    if kind == "string":
        return literal_text(node)
    if kind == "template_string":
        if any(child.type == "template_substitution" for child in node.named_children):
            return None
        return literal_text(node)
    return None


def literal_text(node: Node) -> str:
    """The text between a literal's quotes, its escapes decoded."""
    return quoted_text(node.text)


def quoted_text(raw: bytes) -> str:
    """The text between the quotes of a literal's bytes, its escapes decoded."""
    text = raw.decode("utf-8", "replace")
    if len(text) < 2:
        return ""
    inner = text[1:-1]
    # Without a backslash there is nothing to decode (decoding UTF-8 never yields a surrogate).
    return decode_escapes(inner) if "\\" in inner else inner


# Short literals (types, names, enum values) repeat: remembered per spelling, they share one string, where each
# decoded copy would live as long as the parse tree. Descriptions seldom repeat.
SHORT_LITERAL = 40  # bytes, quotes included
short_quoted_text: Callable[[bytes], str] = DecodedMemo(quoted_text, 4096).__getitem__


def string_literal(raw: bytes) -> str:
    """The value of a string literal's bytes (short ones shared per spelling)."""
    return short_quoted_text(raw) if len(raw) <= SHORT_LITERAL else quoted_text(raw)


def number_literal(raw: bytes) -> Value:
    """The value of a number literal's bytes (Unknown when not a number)."""
    number = number_value(raw.decode())
    return UNKNOWN if number is None else number


_LEGACY_OCTAL = re.compile(r"0[0-7]+")


@lru_cache(maxsize=4096)
def number_value(text: str) -> int | float | BigIntValue | None:
    """The value of a number literal; remembered per spelling (tools repeat 1, 10, 100...)."""
    text = text.replace("_", "")
    if text.endswith("n"):
        return BigIntValue(text)
    try:
        lowered = text.lower()
        if lowered.startswith(("0x", "0o", "0b")):
            return int(lowered, 0)
        if _LEGACY_OCTAL.fullmatch(text):
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
        self._active: set[object] = set()
        self._returns: dict[int, list[Node | None]] = {}
        self._classes: dict[tuple[int, bool], JSObject] = {}
        # Values already computed, with the depth they were computed at: reused at that depth or
        # deeper, so `x2 = x1 + x1` chains and functions calling each other twice stay linear.
        self._memo: dict[tuple[str, int], tuple[int, Value]] = {}

    def value(self, node: Node | None, depth: int = 0) -> Value:
        if node is None:
            return UNDEFINED
        if depth > MAX_DEPTH:
            return Unknown("too deep")
        kind = node.type
        method = _EVALUATE_KIND.get(kind)
        if method is not None:  # the common case first: a kind evaluated as it is
            return method(self, node, depth)
        while kind in TRANSPARENT_KINDS:
            inner = node.child_by_field_name("expression") or (node.named_children[0] if node.named_children else None)
            if kind == "parenthesized_expression":
                inner = next((child for child in node.named_children if child.type != "comment"), None)
            if inner is None:
                return UNKNOWN
            node = inner
            kind = node.type
        method = _EVALUATE_KIND.get(kind)
        if method is None:
            return Unknown.built_from("dynamic", node)
        return method(self, node, depth)

    # literals -----------------------------------------------------------
    def _string(self, node: Node, depth: int) -> Value:
        # Not sliced from this file's bytes: callers evaluate nodes of imported modules too.
        return string_literal(node.text)

    def _number(self, node: Node, depth: int) -> Value:
        return number_literal(node.text)

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
            return Unknown.built_from("dynamic", node)
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
        return Unknown.built_from("dynamic", node)

    # containers ---------------------------------------------------------
    def _object(self, node: Node, depth: int) -> Value:
        return self._object_literal(node, depth, node.text, node.start_byte)

    def _array(self, node: Node, depth: int) -> Value:
        return self._array_literal(node, depth, node.text, node.start_byte)

    def _literal_part(self, node: Node, kind: str, depth: int, raw: bytes, base: int) -> Value:
        """The value of ``node`` (of ``kind``), written inside a literal whose bytes ``raw`` start at ``base``.

        Strings, numbers and nested literals are sliced from those bytes, read once for the outermost literal
        (a node's ``.text`` costs more); they are the literal's own, so they are the right file's whatever
        file the literal is written in.
        """
        if depth > MAX_DEPTH:
            return self.value(node, depth)
        if kind == "string":
            return string_literal(raw[node.start_byte - base:node.end_byte - base])
        if kind == "number":
            return number_literal(raw[node.start_byte - base:node.end_byte - base])
        if kind == "object":
            return self._object_literal(node, depth, raw, base)
        if kind == "array":
            return self._array_literal(node, depth, raw, base)
        method = _EVALUATE_KIND.get(kind)
        return self.value(node, depth) if method is None else method(self, node, depth)

    def _object_literal(self, node: Node, depth: int, raw: bytes, base: int) -> JSObject:
        result = JSObject(node)
        props = result.props
        part = self._literal_part
        inner = depth + 1
        for child in node.named_children:
            kind = child.type
            if kind == "pair":
                if child.child_count == 3:  # key, ":", value: the fields, read without two searches by name
                    # (nor a list of the pair's children, which the pair would keep alive with the colon's node)
                    key_node, value_node = child.child(0), child.child(2)
                else:
                    key_node, value_node = child.child_by_field_name("key"), child.child_by_field_name("value")
                    if key_node is None:
                        result.open = True
                        continue
                if key_node.type == "property_identifier":
                    key = spelling(raw[key_node.start_byte - base:key_node.end_byte - base])
                else:
                    key = property_key(key_node)
                    if key is None:
                        result.open = True
                        continue
                evaluated = UNDEFINED if value_node is None else part(value_node, value_node.type, inner, raw, base)
                props[key] = Prop(key, key_node, value_node, evaluated)
            elif kind == "shorthand_property_identifier":
                key = spelling(child.text)
                props[key] = Prop(key, child, child, self._identifier(child, depth + 1))
            elif kind == "method_definition":
                key_node = child.child_by_field_name("name")
                key = property_key(key_node) if key_node is not None else None
                if key is None:
                    result.open = True
                    continue
                if _is_accessor(child):
                    props[key] = Prop(key, key_node, child, UNKNOWN)
                else:
                    props[key] = Prop(key, key_node, child, JSFunction(child, self))
            elif kind == "spread_element":
                spread = self.value(child.named_children[0] if child.named_children else None, depth + 1)
                if isinstance(spread, JSObject):
                    props.update(spread.props)
                    result.open = result.open or spread.open
                else:
                    result.open = True
        return result

    def _array_literal(self, node: Node, depth: int, raw: bytes, base: int) -> JSArray:
        result = JSArray(node)
        items = result.items
        part = self._literal_part
        inner = depth + 1
        for child in node.named_children:
            kind = child.type
            if kind == "comment":
                continue
            if kind == "spread_element":
                spread = self.value(child.named_children[0] if child.named_children else None, inner)
                if isinstance(spread, JSArray):
                    items.extend(spread.items)
                    result.open = result.open or spread.open
                else:
                    result.open = True
                continue
            items.append(Element(child, part(child, kind, inner, raw, base)))
        return result

    # functions ----------------------------------------------------------
    def _function(self, node: Node, depth: int) -> Value:
        return JSFunction(node, self)

    _function_expression = _arrow_function = _generator_function = _function

    def _class(self, node: Node, depth: int) -> Value:
        return Unknown("class")

    # names --------------------------------------------------------------
    def _identifier(self, node: Node, depth: int) -> Value:
        binding = self.scopes.resolve(node)
        if binding is None:
            name = spelling(node.text)
            return UNDEFINED if name == "undefined" else Unknown("global", (name,))
        return self.binding_value(binding, depth)

    _shorthand_property_identifier = _identifier

    def binding_value(self, binding: Binding, depth: int = 0) -> Value:
        """The value a binding holds, following its destructuring path."""
        return self._memoized(("binding", binding.name_node.id), depth, lambda: self._binding_value(binding, depth))

    def _memoized(self, key: tuple[str, int], depth: int, compute: Callable[[], Value]) -> Value:
        cached = self._memo.get(key)
        if cached is not None and cached[0] <= depth:
            return cached[1]
        value = compute()
        self._memo[key] = (depth, value)
        return value

    def _binding_value(self, binding: Binding, depth: int) -> Value:
        if binding.kind == "import":
            if self.resolve_import is not None:
                return self.resolve_import(binding, depth + 1)
            return Unknown("import", (binding.name,))
        if binding.kind == "function":
            return JSFunction(binding.declaration, self)
        if binding.path[:1] == (EACH,):
            return Unknown("loop", (binding.name,))
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
        target = self._member_target(node.child_by_field_name("object"), depth)
        if isinstance(target, Unknown):
            return Unknown.built_from(target.reason, node)
        return member(target, spelling(property_node.text))

    def _subscript_expression(self, node: Node, depth: int) -> Value:
        index = self.value(node.child_by_field_name("index"), depth + 1)
        target = self.value(node.child_by_field_name("object"), depth + 1)
        if isinstance(index, (str, int)) and not isinstance(index, bool):
            return member(target, index)
        return Unknown.built_from("dynamic", node)


    def _member_target(self, node: Node | None, depth: int) -> Value:
        """The object of ``a.b``; a class name gives its static side (``ToolFactory.create``)."""
        inner = strip_transparent(node)
        kind = inner.type if inner is not None else None
        if kind == "identifier":
            binding = self.scopes.resolve(inner)
            if binding is not None and binding.kind == "class":
                body = binding.declaration.child_by_field_name("body")
                if body is not None:
                    return self._class_members(body, True, depth)
            if binding is not None and depth + 1 <= MAX_DEPTH:
                return self.binding_value(binding, depth + 1)  # what evaluating the name gives, resolved once
        return self.value(node, depth + 1)

    def _this(self, node: Node, depth: int) -> Value:
        """``this`` in a class method or field: the class's members (arrows keep the method's ``this``)."""
        current = node.parent
        while current is not None:
            if current.type in CLASS_MEMBER_KINDS:
                body = current.parent
                if body is not None and body.type == "class_body":
                    return self._class_members(body, _is_static(current), depth)
                return Unknown("this")
            if current.type in FUNCTION_NODE_KINDS and current.type != "arrow_function":
                return Unknown("this")
            current = current.parent
        return Unknown("this")

    def _class_members(self, body: Node, static: bool, depth: int) -> Value:
        """The fields and methods of one side (static or instance) of a class body."""
        key = (body.id, static)
        cached = self._classes.get(key)
        if cached is not None:
            return cached
        if key in self._active:
            return Unknown("cycle")
        self._active.add(key)
        result = JSObject(None)
        try:
            for child in body.named_children:
                if child.type not in CLASS_MEMBER_KINDS or _is_static(child) != static:
                    continue
                name_node = child.child_by_field_name("name") or child.child_by_field_name("property")
                name = property_key(name_node) if name_node is not None else None
                if name is None or name == "constructor":
                    continue
                if child.type == "method_definition":
                    accessor = any(grand.type in ("get", "set") for grand in child.children[:3])
                    result.props[name] = Prop(name, name_node, child, UNKNOWN if accessor else JSFunction(child, self))
                else:
                    value_node = child.child_by_field_name("value")
                    result.props[name] = Prop(name, name_node, value_node, self.value(value_node, depth + 1))
        finally:
            self._active.discard(key)
        self._classes[key] = result
        return result

    def _new_expression(self, node: Node, depth: int) -> Value:
        """``new SearchTool()`` of a class in this file: an object of its instance fields and methods."""
        constructor = strip_transparent(node.child_by_field_name("constructor"))
        binding = self.scopes.resolve(constructor) if constructor is not None and constructor.type == "identifier" else None
        body = binding.declaration.child_by_field_name("body") if binding is not None and binding.kind == "class" else None
        if body is None:
            return Unknown.built_from("dynamic", node)
        members = self._class_members(body, False, depth)
        if not isinstance(members, JSObject):
            return members
        heritage = any(child.type == "class_heritage" for child in binding.declaration.children)
        return JSObject(binding.declaration, dict(members.props), members.open or heritage)

    # calls: factories, require, and the Object/Array helpers tool lists are built with ------
    def _await_expression(self, node: Node, depth: int) -> Value:
        inner = next((child for child in node.named_children if child.type != "comment"), None)
        return self.value(inner, depth + 1)

    def _call_expression(self, node: Node, depth: int) -> Value:
        callee = strip_transparent(node.child_by_field_name("function"))
        arguments = call_argument_nodes(node)
        if callee is None:
            return UNKNOWN
        if callee.type == "identifier" and callee.text == b"require" and self.scopes.is_global(callee):
            return self._require(node, arguments, depth)
        if callee.type == "member_expression":
            builtin = self._builtin_call(node, callee, arguments, depth)
            if builtin is not None:
                return builtin
        function = self.value(callee, depth + 1)
        if isinstance(function, JSFunction):
            def argument(index: int) -> Value:
                return self.value(arguments[index], depth + 1) if index < len(arguments) else UNDEFINED
            return self.call(function, argument, depth)
        return Unknown.built_from("dynamic", node)

    def call(self, function: JSFunction, argument: Callable[[int], Value], depth: int = 0) -> Value:
        """What calling ``function`` returns: its one non-null return, evaluated where it is written.

        Parameters stay unknown (the tool factory pattern), except that a helper
        returning its own parameter (``defineTool(t) { return t }``) returns the argument.
        """
        owner = function.owner or self
        return owner._returned(function.node, argument, depth + 1)

    def _returned(self, function: Node, argument: Callable[[int], Value], depth: int) -> Value:
        if depth > MAX_DEPTH:
            return Unknown("too deep")
        body = function.child_by_field_name("body")
        if body is None or _is_generator(function):
            return Unknown("call")
        if body.type == "statement_block":
            returned = [expression for expression in self.return_expressions(function) if not _is_nullish(expression)]
            if len(returned) != 1:
                return Unknown("call")
            expression = returned[0]
        else:
            expression = body
        position = self._parameter_position(function, expression)
        if position is not None:
            return argument(position)
        if function.id in self._active:
            return Unknown("recursion")
        return self._memoized(("call", function.id), depth, lambda: self._evaluate_return(function, expression, depth))

    def _evaluate_return(self, function: Node, expression: Node, depth: int) -> Value:
        self._active.add(function.id)
        try:
            return self.value(expression, depth + 1)
        finally:
            self._active.discard(function.id)

    def return_expressions(self, function: Node) -> list[Node | None]:
        """The argument of every ``return`` of ``function`` itself (not of nested functions), in order."""
        cached = self._returns.get(function.id)
        if cached is not None:
            return cached
        found: list[Node | None] = []
        body = function.child_by_field_name("body")
        stack = [body] if body is not None else []
        while stack:
            current = stack.pop()
            if current.type == "return_statement":
                found.append(next((child for child in current.named_children if child.type != "comment"), None))
                continue
            if current.type in FUNCTION_NODE_KINDS or current.type in ("class", "class_declaration"):
                continue
            stack.extend(reversed(current.named_children))
        self._returns[function.id] = found
        return found

    def _parameter_position(self, function: Node, expression: Node) -> int | None:
        """The index of the parameter ``expression`` names directly, if it is one of ``function``'s."""
        expression = strip_transparent(expression)
        if expression is None or expression.type != "identifier":
            return None
        binding = self.scopes.resolve(expression)
        if binding is None or binding.kind != "param" or binding.path:
            return None
        if binding.declaration.id == function.id:
            return 0
        parameters = function.child_by_field_name("parameters")
        if parameters is None:
            return None
        named = [child for child in parameters.named_children if child.type != "comment"]
        return next((index for index, child in enumerate(named) if child.id == binding.declaration.id), None)

    def _require(self, node: Node, arguments: list[Node], depth: int) -> Value:
        specifier = string_value(arguments[0]) if len(arguments) == 1 else None
        if specifier is None or self.resolve_import is None:
            return Unknown.built_from("require", node)
        return self.resolve_import(Binding("require", "import", node, node, None, (), specifier, "*"), depth + 1)

    def _builtin_call(self, node: Node, callee: Node, arguments: list[Node], depth: int) -> Value | None:
        """``Object.values/entries/keys/freeze/assign`` and array copies, filters and maps; None for other calls."""
        receiver = strip_transparent(callee.child_by_field_name("object"))
        method = callee.child_by_field_name("property")
        method_name = method.text.decode("utf-8", errors="replace") if method is not None else ""
        if receiver is None:
            return None
        if receiver.type == "identifier" and receiver.text == b"Object" and self.scopes.is_global(receiver):
            return self._object_helper(node, method_name, arguments, depth)
        if method_name not in ARRAY_RESULT_METHODS:
            return None
        target = self.value(receiver, depth + 1)
        if not isinstance(target, JSArray):
            return None
        if method_name == "concat":
            result = JSArray(node, list(target.items), target.open)
            for argument in arguments:
                extra = self.value(argument, depth + 1)
                if isinstance(extra, JSArray):
                    result.items.extend(extra.items)
                    result.open = result.open or extra.open
                else:
                    result.items.append(Element(argument, extra))
            return result
        if method_name in ("map", "flatMap"):
            function = self.value(arguments[0], depth + 1) if arguments else UNKNOWN
            if not isinstance(function, JSFunction):
                return Unknown.built_from("dynamic", node)
            items = [Element(item.node, self.call(function, lambda index, item=item: item.value if index == 0 else UNKNOWN, depth))
                     for item in target.items]
            return JSArray(node, items, target.open or method_name == "flatMap")
        # filter, slice, sort...: a subset or reordering of the same elements.
        return JSArray(node, list(target.items), True)

    def _object_helper(self, node: Node, method: str, arguments: list[Node], depth: int) -> Value | None:
        if not arguments:
            return None
        if method in ("freeze", "seal", "preventExtensions"):
            return self.value(arguments[0], depth + 1)
        if method == "assign":
            merged = JSObject(node)
            for argument in arguments:
                part = self.value(argument, depth + 1)
                if isinstance(part, JSObject):
                    merged.props.update(part.props)
                    merged.open = merged.open or part.open
                else:
                    merged.open = True
            return merged
        if method not in ("values", "entries", "keys"):
            return None
        target = self.value(arguments[0], depth + 1)
        if isinstance(target, JSArray):
            pairs = [(str(index), None, item.node, item.value) for index, item in enumerate(target.items)]
        elif isinstance(target, JSObject):
            pairs = [(key, prop.key_node, prop.value_node, prop.value) for key, prop in target.props.items()]
        else:
            return Unknown.built_from("dynamic", node)
        if method == "values":
            items = [Element(value_node, value) for _, _, value_node, value in pairs]
        elif method == "keys":
            items = [Element(key_node, key) for key, key_node, _, _ in pairs]
        else:
            items = [Element(value_node, JSArray(None, [Element(key_node, key), Element(value_node, value)]))
                     for key, key_node, value_node, value in pairs]
        return JSArray(node, items, target.open)

    # loops: one expression, several values --------------------------------------------------
    def candidates(self, node: Node | None, depth: int = 0) -> list[Value]:
        """Every value ``node`` takes: one, or each element when it is a loop variable over a known array.

        ``for (const t of tools) register(t)``, ``tools.forEach((t) => register(t))``,
        ``tools.map(...)`` and ``tools[i]`` with an unknown index each stand for every element.
        """
        inner = strip_transparent(node)
        kind = inner.type if inner is not None else None
        if kind == "identifier":
            binding = self.scopes.resolve(inner)
            found = self._loop_elements(binding, depth) if binding is not None else None
            if found is not None:
                elements, path = found
                values = []
                for value in _capped(elements):
                    for step in path:
                        value = member(value, step)
                    values.append(value)
                return values
        if kind == "subscript_expression":
            index_node = inner.child_by_field_name("index")
            index = self.value(index_node, depth + 1)
            target = self.value(inner.child_by_field_name("object"), depth + 1)
            if (isinstance(index, Unknown) or self._is_loop_counter(index_node)) \
                    and isinstance(target, JSArray) and target.items:
                return _capped(target.values)
        return [self.value(node, depth)]

    def _is_loop_counter(self, node: Node | None) -> bool:
        """``i`` declared in a ``for (let i = 0; ...)`` head: its initial value is not its value in the body."""
        node = strip_transparent(node)
        binding = self.scopes.resolve(node) if node is not None and node.type == "identifier" else None
        if binding is None or binding.kind == "const":
            return False
        head = binding.declaration.parent
        loop = head.parent if head is not None else None
        return loop is not None and loop.type == "for_statement" and loop.child_by_field_name("initializer") == head

    def _loop_elements(self, binding: Binding, depth: int) -> tuple[list[Value], tuple[str | int, ...]] | None:
        if binding.path[:1] == (EACH,):
            if binding.init is None:
                return None
            return _elements(self.value(binding.init, depth + 1)), binding.path[1:]
        if binding.kind != "param":
            return None
        declaration = binding.declaration
        if declaration.type == "arrow_function":
            function = declaration
        else:
            parameters = declaration.parent
            if parameters is None or parameters.type != "formal_parameters" or parameters.parent is None:
                return None
            first = next((child for child in parameters.named_children if child.type != "comment"), None)
            if first is None or first.id != declaration.id:
                return None
            function = parameters.parent
        holder = function.parent
        if holder is None or holder.type != "arguments" or holder.parent is None:
            return None
        first_argument = next((child for child in holder.named_children if child.type != "comment"), None)
        callee = strip_transparent(holder.parent.child_by_field_name("function"))
        if first_argument is None or first_argument.id != function.id or callee is None \
                or callee.type != "member_expression":
            return None
        method = callee.child_by_field_name("property")
        if method is None or method.text.decode("utf-8", errors="replace") not in ARRAY_CALLBACK_METHODS:
            return None
        return _elements(self.value(callee.child_by_field_name("object"), depth + 1)), binding.path


ARRAY_CALLBACK_METHODS = frozenset({"forEach", "map", "flatMap", "filter", "some", "every", "find", "findLast"})
ARRAY_RESULT_METHODS = frozenset({"map", "flatMap", "filter", "slice", "concat", "toSorted", "toReversed", "sort",
                                  "reverse"})
CLASS_MEMBER_KINDS = frozenset({"method_definition", "public_field_definition", "field_definition"})


def strip_transparent(node: Node | None) -> Node | None:
    """Skip parentheses, casts and non-null assertions (what ``value`` looks through)."""
    while node is not None and node.type in TRANSPARENT_KINDS:
        if node.type == "parenthesized_expression":
            node = next((child for child in node.named_children if child.type != "comment"), None)
        else:
            node = node.child_by_field_name("expression") or (node.named_children[0] if node.named_children else None)
    return node


def _is_accessor(method: Node) -> bool:
    """``get x() {}`` or ``set x(v) {}``: the keyword is one of the method's first two children."""
    first = method.child(0) if method.child_count else None
    if first is None:
        return False
    if first.type in ("get", "set"):
        return True
    second = method.child(1) if method.child_count > 1 else None
    return second is not None and second.type in ("get", "set")


def _is_script_node_kind(name: str) -> bool:
    return any(language(grammar).id_for_node_kind(name, True) is not None for grammar in (JAVASCRIPT, TYPESCRIPT, TSX))


# The method evaluating each node kind: ``_<kind>`` (one dictionary lookup per node, no name built). Only names
# that are node kinds of a script grammar count: the other private methods are helpers, never handlers of a kind
# that merely shares their name.
_EVALUATE_KIND: dict[str, Callable[[Evaluator, Node, int], Value]] = {
    name[1:]: method for name, method in vars(Evaluator).items()
    if name.startswith("_") and not name.startswith("__") and callable(method) and _is_script_node_kind(name[1:])
}


def call_argument_nodes(call: Node) -> list[Node]:
    arguments = call.child_by_field_name("arguments")
    if arguments is None or arguments.type != "arguments":
        return []
    return [child for child in arguments.named_children if child.type != "comment"]


def _capped(values: list[Value]) -> list[Value]:
    """At most MAX_CANDIDATES values; an Unknown at the end says the rest were not checked."""
    if len(values) <= MAX_CANDIDATES:
        return values
    return values[:MAX_CANDIDATES] + [Unknown(f"only the first {MAX_CANDIDATES} elements of the array were checked")]


def _elements(value: Value) -> list[Value]:
    if isinstance(value, JSArray):
        return value.values
    return [value if isinstance(value, Unknown) else UNKNOWN]


def _is_static(member_node: Node) -> bool:
    return any(child.type == "static" for child in member_node.children)


def _is_generator(function: Node) -> bool:
    return function.type.startswith("generator") or any(child.type == "*" for child in function.children[:4])


def _is_nullish(expression: Node | None) -> bool:
    expression = strip_transparent(expression)
    return expression is None or expression.type in ("null", "undefined") \
        or (expression.type == "identifier" and expression.text == b"undefined")


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

"""Model contexts, their method calls, and ``registerTool(def, options)`` definitions.

A receiver is a model context when it is ``document.modelContext`` (through
``window``/``globalThis``/``self``, optional chaining, casts), the deprecated
``navigator.modelContext``, or a name bound to one of those
(``const mc = document.modelContext``, ``const { modelContext } = document``).
``registerTool`` on anything else (an MCP server SDK's ``server``) is not a tool.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import NamedTuple

from tree_sitter import Node

from webmcp_lint.evaluate import TRANSPARENT_KINDS, JSObject, Unknown, string_value
from webmcp_lint.extract import Extractor, identifiers_named
from webmcp_lint.model import (
    FileAnalysis,
    ModelContextCall,
    ModelContextRef,
    NavigatorReach,
    Registration,
    Script,
    SourceKind,
    ToolDefinition,
    UnresolvedDefinition,
)
from webmcp_lint.scope import Fields, pattern_names, spelled
from webmcp_lint.syntax import (WRAPPED_CALLEE_STARTS, call_arguments, is_global_name, reads_property, spelled_nodes,
                                text, unwrap)


def reads_model_context(node: Node) -> bool:
    """``x.modelContext``, ``x?.modelContext`` or ``x["modelContext"]``."""
    if node.type == "member_expression":
        return reads_property(node, b"modelContext")
    if node.type == "subscript_expression":
        index = node.child_by_field_name("index")
        return index is not None and index.type == "string" and string_value(index) == "modelContext"
    return False


def model_context_kind(node: Node | None, script: Script, depth: int = 0) -> str | None:
    """'document' or 'navigator' when ``node`` evaluates to a model context, else None.

    Remembered per node and depth: every use of an alias follows it to the same initialiser, and
    the rules ask again about the receivers the extractor looked at.
    """
    if node is None:
        return None
    known = script.once("model context kinds", dict)
    key = (node.id, depth)
    kind = known.get(key, _UNSEEN)
    if kind is _UNSEEN:
        kind = known[key] = _model_context_kind(node, script, depth)
    return kind


_UNSEEN = object()


def _model_context_kind(node: Node, script: Script, depth: int) -> str | None:
    kind = node.type  # read once (each ``.type`` makes a string), and again only for a wrapped expression
    if kind in TRANSPARENT_KINDS:
        node = unwrap(node)
        if node is None:
            return None
        kind = node.type
    if depth > 8:
        return None
    if kind == "member_expression" or kind == "subscript_expression":
        if not reads_model_context(node):
            return None
        owner = node.child_by_field_name("object")
        if is_global_name(owner, "document", script.scopes):
            return "document"
        if is_global_name(owner, "navigator", script.scopes):
            return "navigator"
        return None
    if kind == "binary_expression" and node.child_by_field_name("operator").type in ("??", "||"):
        # `document.modelContext ?? navigator.modelContext`: the fallback the Angular and React packages use
        kinds = [model_context_kind(node.child_by_field_name(side), script, depth + 1) for side in ("left", "right")]
        return "document" if "document" in kinds else kinds[0] or kinds[1]
    if kind == "identifier":
        if spelled(script.scopes.data, node) not in _alias_declarators(script).names:
            return None  # no declaration of the name may make it a model context: no need to resolve it
        binding = script.scopes.resolve(node)
        if binding is None or binding.init is None or binding.kind not in ("const", "let", "var"):
            return None
        if binding.path == ():
            return model_context_kind(binding.init, script, depth + 1)
        if binding.path == ("modelContext",):
            if is_global_name(binding.init, "document", script.scopes):
                return "document"
            if is_global_name(binding.init, "navigator", script.scopes):
                return "navigator"
    return None


class AliasDeclarators(NamedTuple):
    """The declarators through which a variable may hold a model context, read once per script.

    ``named``: (name, value) of each ``x = value`` whose value may be one; ``patterns``: (declarator, pattern,
    value) of each destructuring whose text may spell modelContext; ``names``: every name these declare. An
    identifier spelled otherwise never holds a model context (a variable holds one only through its
    declarator), so it needs no resolving.
    """

    named: list[tuple[Node, Node]]
    patterns: list[tuple[Node, Node, Node]]
    names: frozenset[str]


def _alias_declarators(script: Script) -> AliasDeclarators:
    return script.once("model context alias declarators", lambda: _find_alias_declarators(script))


def _find_alias_declarators(script: Script) -> AliasDeclarators:
    data = script.scopes.data
    named, patterns, names = [], [], set()
    for declarator, name, init in script.initialised_declarators():
        if name.type == "identifier":
            if _may_hold_model_context(init, data):
                named.append((name, init))
                names.add(spelled(data, name))
        elif _may_spell_model_context(data, name.start_byte, name.end_byte):
            patterns.append((declarator, name, init))
            names.update(spelled(data, identifier) for identifier, _ in pattern_names(name))
    return AliasDeclarators(named, patterns, frozenset(names))


def members_reading_model_context(spellings: list[Node]) -> list[Node]:
    """``x.modelContext`` and ``x?.modelContext`` member expressions, from the nodes spelling modelContext."""
    members = []
    for node in spellings:
        member = node.parent if node.type == "property_identifier" else None
        if member is not None and member.type == "member_expression":  # a property name is only ever its property
            members.append(member)
    return members


def _feature_checks(spellings: list[Node]) -> Iterator[Node]:
    """``"modelContext" in x`` expressions, from the nodes spelling modelContext: the string's text is one
    fragment, and the expression starts with the string (no need to look at every binary expression)."""
    for node in spellings:
        string = node.parent if node.type == "string_fragment" else None
        binary = string.parent if string is not None else None
        if binary is not None and binary.type == "binary_expression" and binary.start_byte == string.start_byte:
            yield binary


def _source_kind(definition: Node) -> SourceKind:
    """FACTORY for an object a function returns (a tool factory, maybe in another module), else IMPERATIVE."""
    child, parent = definition, definition.parent
    while parent is not None and parent.type in TRANSPARENT_KINDS:
        child, parent = parent, parent.parent
    if parent is None:
        return SourceKind.IMPERATIVE
    returned = parent.type == "return_statement" or (
        parent.type == "arrow_function" and parent.child_by_field_name("body") == child)
    return SourceKind.FACTORY if returned else SourceKind.IMPERATIVE


def _extract(script: Script, analysis: FileAnalysis) -> None:
    scopes = script.scopes
    data = script.source.data
    alias_names = set()
    declarators = _alias_declarators(script)
    for name, init in declarators.named:
        if model_context_kind(init, script):
            alias_names.add(text(name))
    for declarator, name, init in declarators.patterns:
        if data.find(b"modelContext", name.start_byte, name.end_byte) != -1 and name.type == "object_pattern":
            for holder in ("navigator", "document"):
                if is_global_name(init, holder, scopes):
                    for child in name.named_children:
                        if child.type == "shorthand_property_identifier_pattern" and text(child) == "modelContext":
                            alias_names.add("modelContext")
                        elif child.type == "pair_pattern" and text(child.child_by_field_name("key")) == "modelContext":
                            value = child.child_by_field_name("value")
                            if value is not None and value.type == "identifier":
                                alias_names.add(text(value))
                            if holder == "navigator":
                                analysis.navigator_reaches.append(NavigatorReach(script, declarator, unwrap(init)))
                        if holder == "navigator" and child.type == "shorthand_property_identifier_pattern" \
                                and text(child) == "modelContext":
                            analysis.navigator_reaches.append(NavigatorReach(script, declarator, unwrap(init)))

    spellings = spelled_nodes(script.root, data, b"modelContext")
    for binary in _feature_checks(spellings):
        operator = binary.child_by_field_name("operator")
        left = binary.child_by_field_name("left")
        if operator is not None and operator.type == "in" and left is not None and left.type == "string" \
                and text(left)[1:-1] == "modelContext" \
                and is_global_name(binary.child_by_field_name("right"), "navigator", scopes):
            analysis.navigator_reaches.append(NavigatorReach(script, binary, unwrap(binary.child_by_field_name("right"))))

    refs: dict[int, ModelContextRef] = {}
    subscripts = [subscript for subscript in script.of_kind("subscript_expression")
                  if _may_spell_model_context(data, subscript.start_byte, subscript.end_byte)]
    for member in members_reading_model_context(spellings) + subscripts:
        if reads_model_context(member):
            kind = model_context_kind(member, script)
            if kind is not None:
                refs[member.id] = ModelContextRef(script, member, kind == "navigator")
                if kind == "navigator":
                    analysis.navigator_reaches.append(NavigatorReach(script, member, unwrap(member.child_by_field_name("object"))))
    fields = scopes.fields  # the script's own nodes' fields, read by id
    read = fields.read
    if alias_names:
        for identifier in identifiers_named(script, alias_names):
            parent = identifier.parent
            if parent is not None and parent.type == "variable_declarator" and read(parent, fields.name) == identifier:
                continue
            kind = model_context_kind(identifier, script)
            if kind is not None:
                refs[identifier.id] = ModelContextRef(script, identifier, kind == "navigator")
    analysis.model_context_refs.extend(sorted(refs.values(), key=lambda ref: ref.node.start_byte))

    for call in _calls_at(script, {ref.node.start_byte for ref in refs.values()}):
        callee = unwrap(read(call, fields.function))
        called = _called_method(callee, fields, data)
        if called is None:
            continue
        receiver_node = unwrap(read(callee, fields.object))
        receiver = refs.get(receiver_node.id) if receiver_node is not None else None
        if receiver is None:
            continue
        method_node, method = called
        analysis.model_context_calls.append(ModelContextCall(script, call, method, method_node, receiver))
        if method == "registerTool":
            _add_registration(script, analysis, call)
    if refs:
        analysis.has_webmcp_code = True


def _called_method(callee: Node | None, fields: Fields, data: bytes) -> tuple[Node, str] | None:
    """The method's node and name of a call ``a.m()``, ``a?.m()`` or ``a["m"]()`` (a static key, as ESLint's
    static property names read it); None for any other callee. ``callee`` is a node of the script whose
    ``fields`` and ``data`` are given."""
    if callee is None:
        return None
    kind = callee.type
    if kind == "member_expression":
        method_node = fields.read(callee, fields.property)
        return None if method_node is None else (method_node, spelled(data, method_node))
    if kind == "subscript_expression":
        method_node = unwrap(callee.child_by_field_name("index"))
        method = string_value(method_node) if method_node is not None else None
        return None if method is None else (method_node, method)
    return None


# Kinds of initialiser model_context_kind follows without the text spelling modelContext: a name, a fallback.
_FOLLOWED_KINDS = frozenset({"identifier", "binary_expression"}) | TRANSPARENT_KINDS


def _may_hold_model_context(init: Node, data: bytes) -> bool:
    """False when ``model_context_kind(init)`` is surely None: read from the kind and the bytes, before any climb."""
    kind = init.type
    if kind in _FOLLOWED_KINDS:
        return True
    return kind in ("member_expression", "subscript_expression") \
        and _may_spell_model_context(data, init.start_byte, init.end_byte)


def _may_spell_model_context(data: bytes, start: int, end: int) -> bool:
    """The bytes spell modelContext, or hold an escape that a string could spell it with."""
    return data.find(b"modelContext", start, end) != -1 or data.find(b"\\", start, end) != -1




def _calls_at(script: Script, starts: set[int]) -> list[Node]:
    """The calls, in document order, that start at one of ``starts`` or with a wrapped callee.

    A call on a receiver starts where the receiver does, unless parentheses or
    a type assertion wrap it: the start bytes pick the few calls to look at.
    """
    if not starts:
        return []
    data = script.source.data
    size = len(data)
    chosen = []
    for call in script.of_kind("call_expression"):
        start = call.start_byte
        if start in starts or (start < size and data[start] in WRAPPED_CALLEE_STARTS):
            chosen.append(call)
    return chosen


def _add_registration(script: Script, analysis: FileAnalysis, call: Node) -> None:
    arguments = call_arguments(call)
    definition_node = arguments[0] if arguments else None
    options_node = arguments[1] if len(arguments) > 1 else None
    options = script.evaluator.value(options_node) if options_node is not None else None
    registration = Registration(script, call, definition_node, options_node, options)
    analysis.registrations.append(registration)
    if definition_node is None:
        analysis.unresolved.append(UnresolvedDefinition(registration, "registerTool is called without a definition"))
        return
    # A loop variable (for...of, forEach, map) stands for every element of its array.
    unresolved_reason = None
    for value in script.evaluator.candidates(definition_node):
        if isinstance(value, JSObject) and value.node is not None:
            # The object written as the argument itself stands in the call's arguments: no need to climb.
            kind = SourceKind.IMPERATIVE if value.node == definition_node else _source_kind(value.node)
            analysis.tools.append(ToolDefinition(kind, script, script.source, value.node, value, registration))
        elif unresolved_reason is None:
            unresolved_reason = value.reason if isinstance(value, Unknown) else type(value).__name__
    if unresolved_reason is not None:
        analysis.unresolved.append(UnresolvedDefinition(registration, unresolved_reason))


EXTRACTOR = Extractor(
    name="imperative",
    # Besides model contexts: hand-written WebMCP types (WM104) and the events that left window (WM107).
    triggers=(b"modelContext", b"ModelContext", b"toolactivated", b"toolcancel"),
    kinds=frozenset({"subscript_expression", "call_expression", "variable_declarator"}),
    extract=_extract,
    order=10,
)

"""WM1xx: the platform API (deprecated and removed surface, feature detection, events)."""

from __future__ import annotations

from typing import Iterable, Iterator

from tree_sitter import Node

from webmcp_lint.diagnostics import Edit, Fix
from webmcp_lint.extract import IDENTIFIER_START_BYTES
from webmcp_lint.extract.imperative import model_context_kind
from webmcp_lint.languages import sort_outer_first
from webmcp_lint.model import FileAnalysis, Finding, Registration, Script, finding_at
from webmcp_lint.rules import FILES, nodes, rule
from webmcp_lint.scope import FUNCTION_KINDS, Fields, spelled
from webmcp_lint.suggest import closest, did_you_mean
from webmcp_lint.syntax import (
    GLOBAL_OBJECTS,
    ancestors,
    ancestors_under,
    call_arguments,
    is_global_name,
    is_optional_member,
    member_name,
    spelled_nodes,
    text,
    unwrap,
)


@rule("WM101", "deprecated-navigator-model-context", "error", on=FILES, fix="safe")
def deprecated_navigator_model_context(analysis: FileAnalysis) -> Iterator[Finding]:
    seen = set()
    for reach in analysis.navigator_reaches:
        navigator = reach.navigator
        if navigator is None or navigator.id in seen:
            continue
        seen.add(navigator.id)
        # `window.navigator` becomes `window.document`: replace just the `navigator` name.
        name = navigator.child_by_field_name("property") if navigator.type == "member_expression" else navigator
        fix = Fix("safe", (Edit(name.start_byte, name.end_byte, "document"),), "Use document.modelContext")
        if reach.node.type == "variable_declarator":
            fix = _destructuring_fix(reach.node, fix)
        yield finding_at(reach.script.source, reach.node,
                         "navigator.modelContext is no longer supported (deprecated in Chromium 150); "
                         "use document.modelContext.", fix)


def _destructuring_fix(declarator: Node, replace_navigator: Fix) -> Fix | None:
    """The fix for ``const { modelContext, ... } = navigator``. Replacing ``navigator`` is safe only when
    modelContext is all the pattern takes: ``userAgent`` and the like must still come from navigator. Otherwise
    modelContext moves to a declarator of its own, ``const { userAgent } = navigator, { modelContext } =
    document`` (unsafe: it restructures the declaration, and comments between the entries go); with a rest
    element, which would then collect modelContext too, there is no fix."""
    pattern = declarator.child_by_field_name("name")
    entries = [child for child in pattern.named_children if child.type != "comment"] if pattern is not None else []
    if len(entries) == 1:
        return replace_navigator
    taken = [entry for entry in entries if _takes_model_context(entry)]
    if len(taken) != 1 or any(entry.type == "rest_pattern" for entry in entries):
        return None
    [moved] = taken
    index = entries.index(moved)
    if index + 1 < len(entries):  # the entry and the comma after it
        start, end = moved.start_byte, entries[index + 1].start_byte
    else:  # the comma before it and the entry
        start, end = entries[index - 1].end_byte, moved.end_byte
    return Fix("unsafe", (Edit(start, end, ""),
                          Edit(declarator.end_byte, declarator.end_byte, f", {{ {text(moved)} }} = document")),
               "Take modelContext from document, the other properties from navigator")


def _takes_model_context(entry: Node) -> bool:
    """``modelContext`` or ``modelContext: mc`` in an object pattern (the entries the extractor reports)."""
    if entry.type == "pair_pattern":
        entry = entry.child_by_field_name("key")
    return entry is not None and entry.type in ("shorthand_property_identifier_pattern", "property_identifier") \
        and text(entry) == "modelContext"


# WM102 ---------------------------------------------------------------------------------------------

REMOVED_METHODS = {
    "unregisterTool": "unregisterTool() no longer exists; pass a `signal` to registerTool and abort its "
                      "controller to unregister the tool.",
    "provideContext": "provideContext() no longer exists; register each tool with registerTool() instead.",
    "clearContext": "clearContext() no longer exists; abort the signals the tools were registered with instead.",
}


@rule("WM102", "removed-model-context-method", "error", on=FILES)
def removed_model_context_method(analysis: FileAnalysis) -> Iterator[Finding]:
    for call in analysis.model_context_calls:
        message = REMOVED_METHODS.get(call.method)
        if message is not None:
            yield finding_at(call.script.source, call.call, message)


# WM103 ---------------------------------------------------------------------------------------------

WRAPPER_KINDS = frozenset({"parenthesized_expression", "non_null_expression", "as_expression",
                           "satisfies_expression", "type_assertion"})
EXIT_KINDS = frozenset({"return_statement", "throw_statement", "break_statement", "continue_statement"})
SEQUENCE_KINDS = frozenset({"program", "statement_block", "switch_case", "switch_default", "class_static_block"})
MAX_TEST_DEPTH = 12


@rule("WM103", "unguarded-model-context", "warning", on=FILES)
def unguarded_model_context(analysis: FileAnalysis) -> Iterator[Finding]:
    exits: dict[int, float] = {}
    for ref in analysis.model_context_refs:
        if ref.via_navigator:  # WM101 reports it (and its fix leads here)
            continue
        access = accessed_member(ref.node, ref.script.scopes.fields)
        if access is None or is_optional_member(access):
            continue
        if not is_feature_detected(access, ref.script, exits):
            shown = "document.modelContext" if ref.node.type == "member_expression" else f"`{text(ref.node)}`"
            yield finding_at(ref.script.source, ref.node,
                             f"{shown} is used without feature detection and is undefined in browsers without "
                             "WebMCP; check `'modelContext' in document` first (or return early).")


def accessed_member(node: Node, fields: Fields) -> Node | None:
    """The member access or subscript made on ``node`` (through parentheses, casts and ``!``), if any; ``fields``
    are those of the script holding ``node``."""
    current, parent = node, node.parent  # .parent read once per step: tree-sitter works it out from the root
    while parent is not None and parent.type in WRAPPER_KINDS:
        current, parent = parent, parent.parent
    if parent is not None and parent.type in ("member_expression", "subscript_expression") \
            and fields.read(parent, fields.object) == current:
        return parent
    return None


def is_feature_detected(node: Node, script: Script, exits: dict[int, float]) -> bool:
    """Whether every path to ``node`` passes a check that a model context exists (``exits``: a cache)."""
    child = node
    for parent in ancestors_under(script.root, node):
        kind = parent.type
        if kind in ("if_statement", "ternary_expression", "while_statement"):
            condition = parent.child_by_field_name("condition")
            if _field_is(parent, "consequence", child) or _field_is(parent, "body", child):
                if proves_presence(condition, script, True):
                    return True
            elif _field_is(parent, "alternative", child) and proves_presence(condition, script, False):
                return True
        elif kind == "binary_expression" and _field_is(parent, "right", child):
            operator = parent.child_by_field_name("operator").type
            left = parent.child_by_field_name("left")
            if operator == "&&" and proves_presence(left, script, True):
                return True
            if operator == "||" and proves_presence(left, script, False):
                return True
        elif kind in SEQUENCE_KINDS and _first_guarding_exit_end(parent, script, exits) <= child.start_byte:
            return True
        child = parent
    return False


def _first_guarding_exit_end(block: Node, script: Script, exits: dict[int, float]) -> float:
    """Where the block's first early exit on missing WebMCP ends (infinity if none); cached per block."""
    if block.id not in exits:
        exits[block.id] = next((statement.end_byte for statement in block.named_children
                                if statement.type == "if_statement" and _early_exit_proves_presence(statement, script)),
                               float("inf"))
    return exits[block.id]


def _field_is(parent: Node, name: str, child: Node) -> bool:
    value = parent.child_by_field_name(name)
    return value is not None and value.id == child.id


def _early_exit_proves_presence(statement: Node, script: Script) -> bool:
    """``if (!('modelContext' in document)) return;``: code after it runs only when WebMCP exists."""
    condition = statement.child_by_field_name("condition")
    consequence = statement.child_by_field_name("consequence")
    alternative = statement.child_by_field_name("alternative")
    if _exits(consequence) and (alternative is None or not _exits(alternative)):
        return proves_presence(condition, script, False)
    if alternative is not None and _exits(alternative) and not _exits(consequence):
        return proves_presence(condition, script, True)
    return False


def _exits(statement: Node | None) -> bool:
    """A statement that always leaves the block: return/throw/break/continue, or a block ending in one."""
    while statement is not None:
        if statement.type in EXIT_KINDS:
            return True
        if statement.type == "else_clause":
            statement = next((child for child in statement.named_children if child.type != "comment"), None)
        elif statement.type == "statement_block":
            body = [child for child in statement.named_children if child.type != "comment"]
            statement = body[-1] if body else None
        else:
            return False
    return False


def proves_presence(test: Node | None, script: Script, outcome: bool, depth: int = 0) -> bool:
    """Whether ``test`` evaluating truthy (``outcome``) or falsy proves that a model context exists."""
    test = unwrap(test)
    if test is None or depth > MAX_TEST_DEPTH:
        return False
    kind = test.type
    if kind == "unary_expression":
        operator = test.child_by_field_name("operator").type
        return operator == "!" and proves_presence(test.child_by_field_name("argument"), script, not outcome, depth + 1)
    if kind == "binary_expression":
        return _binary_proves_presence(test, script, outcome, depth)
    if kind == "call_expression":
        return _call_proves_presence(test, script, outcome, depth)
    if kind in ("identifier", "member_expression", "subscript_expression"):
        if outcome and _reaches_model_context(test, script):
            return True
        if kind == "identifier":
            binding = script.scopes.resolve(test)
            if binding is not None and binding.kind == "const" and binding.path == () and binding.init is not None:
                return proves_presence(binding.init, script, outcome, depth + 1)
    return False


def _binary_proves_presence(test: Node, script: Script, outcome: bool, depth: int) -> bool:
    operator = test.child_by_field_name("operator").type
    left, right = test.child_by_field_name("left"), test.child_by_field_name("right")
    if operator == "&&":
        if outcome:
            return proves_presence(left, script, True, depth + 1) or proves_presence(right, script, True, depth + 1)
        return False
    if operator == "||":
        if outcome:
            return proves_presence(left, script, True, depth + 1) and proves_presence(right, script, True, depth + 1)
        return proves_presence(left, script, False, depth + 1) or proves_presence(right, script, False, depth + 1)
    if operator == "in":
        left = unwrap(left)
        return outcome and left is not None and left.type == "string" and text(left)[1:-1] == "modelContext" \
            and (is_global_name(right, "document", script.scopes) or is_global_name(right, "navigator", script.scopes))
    if operator in ("===", "==", "!==", "!="):
        present_when_equal = _comparison_meaning(left, right, operator, script)
        if present_when_equal is None:
            return False
        negated = operator in ("!==", "!=")
        return outcome == (present_when_equal != negated)
    return False


def _comparison_meaning(left: Node, right: Node, operator: str, script: Script) -> bool | None:
    """For ``a == b``: True if equality means the model context exists, False if it means it is missing."""
    for subject, other in ((unwrap(left), unwrap(right)), (unwrap(right), unwrap(left))):
        if subject is None or other is None:
            continue
        if subject.type == "unary_expression" and subject.child_by_field_name("operator").type == "typeof" \
                and _reaches_model_context(subject.child_by_field_name("argument"), script) and other.type == "string":
            word = text(other)[1:-1]
            if word == "undefined":
                return False
            if word in ("object", "function"):
                return True
            return None
        if _reaches_model_context(subject, script):
            if other.type == "undefined" or (other.type == "identifier" and text(other) == "undefined"):
                return False
            if other.type == "null" and operator in ("==", "!="):
                return False
    return None


def _call_proves_presence(test: Node, script: Script, outcome: bool, depth: int) -> bool:
    """``Boolean(mc)``, or a call of a local helper whose body is one feature test."""
    callee = unwrap(test.child_by_field_name("function"))
    arguments = call_arguments(test)
    if callee is None or callee.type != "identifier":
        return False
    if text(callee) == "Boolean" and script.scopes.is_global(callee) and arguments:
        return proves_presence(arguments[0], script, outcome, depth + 1)
    binding = script.scopes.resolve(callee)
    function = None
    if binding is not None and binding.kind == "function":
        function = binding.declaration
    elif binding is not None and binding.kind == "const" and binding.init is not None:
        function = unwrap(binding.init)
    if function is None or function.type not in ("function_declaration", "function_expression", "arrow_function"):
        return False
    body = function.child_by_field_name("body")
    if body is not None and body.type == "statement_block":
        statements = [child for child in body.named_children if child.type != "comment"]
        if len(statements) != 1 or statements[0].type != "return_statement":
            return False
        body = next((child for child in statements[0].named_children if child.type != "comment"), None)
    return proves_presence(body, script, outcome, depth + 1)


def _reaches_model_context(node: Node | None, script: Script) -> bool:
    """``node`` is a model context, or a member chain read from one (``document.modelContext?.registerTool``)."""
    current = unwrap(node)
    for _ in range(MAX_TEST_DEPTH):
        if current is None:
            return False
        if model_context_kind(current, script) is not None:
            return True
        if current.type not in ("member_expression", "subscript_expression"):
            return False
        current = unwrap(current.child_by_field_name("object"))
    return False


# WM104 ---------------------------------------------------------------------------------------------

HAND_WRITTEN_TYPE_NAMES = frozenset({"ModelContext", "ModelContextTool", "ModelContextRegisterToolOptions"})
AUGMENTED_GLOBALS = frozenset({"Document", "Navigator", "Window"})
CAST_KINDS = frozenset({"as_expression", "type_assertion", "satisfies_expression"})
TYPES_ADVICE = "install `webmcp-types` and list it in tsconfig `compilerOptions.types` instead."


@rule("WM104", "handwritten-model-context-types", "warning",
      on=nodes("interface_declaration", "type_alias_declaration", "as_expression", "type_assertion"))
def handwritten_model_context_types(node: Node, script: Script) -> Iterator[Finding]:
    if _is_the_types_package(script):
        return
    name_node = node.child_by_field_name("name")
    name = text(name_node)
    if node.type == "interface_declaration":
        extends = next((child for child in node.named_children if child.type == "extends_type_clause"), None)
        if name in HAND_WRITTEN_TYPE_NAMES and not text(extends).removeprefix("extends").strip().startswith("WebMCP."):
            yield finding_at(script.source, name_node, f"The `{name}` interface is written by hand; {TYPES_ADVICE}")
        elif name in AUGMENTED_GLOBALS:
            body = node.child_by_field_name("body")
            for member in body.named_children if body is not None else ():
                if text(member.child_by_field_name("name")) == "modelContext":
                    yield finding_at(script.source, member,
                                     f"`{name}.modelContext` is declared by hand; {TYPES_ADVICE}")
    elif node.type == "type_alias_declaration":
        value = node.child_by_field_name("value")
        if name in HAND_WRITTEN_TYPE_NAMES and value is not None and not text(value).startswith("WebMCP."):
            yield finding_at(script.source, name_node, f"The `{name}` type is written by hand; {TYPES_ADVICE}")
    elif node.parent is None or node.parent.type not in CAST_KINDS:  # `document as unknown as X`: once
        holder = _cast_model_context_holder(node, unwrap(node), script)
        if holder is not None:
            yield finding_at(script.source, node,
                             f"Casting `{holder}` to reach `modelContext` hides the WebMCP types; {TYPES_ADVICE}")


def _is_the_types_package(script: Script) -> bool:
    """webmcp-types' own declarations (published, or vendored under a webmcp-types folder) are the real ones."""
    if "webmcp-types" in script.source.path.parts[:-1]:
        return True
    package = script.index.nearest_package_json(script.source.path) if script.index is not None else None
    return package is not None and package.get("name") == "webmcp-types"


def _cast_model_context_holder(cast: Node, subject: Node | None, script: Script) -> str | None:
    """'document' or 'navigator' when ``cast`` is ``(document as any)`` read as ``(...).modelContext``."""
    fields = script.scopes.fields  # the cast is the script's own node
    access = accessed_member(cast, fields)
    if access is None or subject is None:
        return None
    for holder in ("document", "navigator"):
        if is_global_name(subject, holder, script.scopes) and member_name(access) == "modelContext":
            return holder
        # (window as any).document.modelContext
        if subject.type == "identifier" and text(subject) in GLOBAL_OBJECTS and script.scopes.is_global(subject) \
                and member_name(access) == holder:
            outer = accessed_member(access, fields)
            if outer is not None and member_name(outer) == "modelContext":
                return holder
    return None


# WM106 ---------------------------------------------------------------------------------------------

PASS_THROUGH_KINDS = frozenset({"parenthesized_expression", "sequence_expression", "ternary_expression",
                                "as_expression", "satisfies_expression", "non_null_expression"})


@rule("WM106", "floating-registration-promise", "info", on=FILES)
def floating_registration_promise(analysis: FileAnalysis) -> Iterator[Finding]:
    for registration in analysis.registrations:
        call = registration.call
        if call.type != "call_expression" or not _promise_dropped(call):
            continue
        message = ("The promise registerTool returns is dropped, so a rejection (duplicate or invalid name, "
                   "aborted signal) becomes an unhandled rejection; `await` it or add `.catch()`.")
        if _inside_try_block(call):
            message = ("The promise registerTool returns is dropped, and the surrounding try/catch cannot catch "
                       "its rejection; `await` it or add `.catch()`.")
        yield finding_at(registration.source, call, message, tool_name=_registered_name(analysis, registration))


def _registered_name(analysis: FileAnalysis, registration: Registration) -> str | None:
    """The name of the tool ``registration`` registers (of the last tool, when several may be), asked only of
    the few registrations reported: evaluating every tool's name costs more than the rest of the rule."""
    return next((tool.name for tool in reversed(analysis.tools) if tool.registration is registration), None)


def _promise_dropped(call: Node) -> bool:
    """The call's value ends in an expression statement: nothing awaits, returns, stores or chains it."""
    parent = call.parent  # read once per step: tree-sitter works out .parent from the root
    while parent is not None:
        if parent.type == "expression_statement":
            return True
        if parent.type in PASS_THROUGH_KINDS or (parent.type == "binary_expression"
                                                 and parent.child_by_field_name("operator").type in ("&&", "||", "??")):
            parent = parent.parent
        else:
            return False
    return False


def _inside_try_block(node: Node) -> bool:
    child = node
    for parent in ancestors(node):
        if parent.type in FUNCTION_KINDS:
            return False
        if parent.type == "try_statement" and _field_is(parent, "body", child):
            return True
        child = parent
    return False


# WM107 ---------------------------------------------------------------------------------------------

MODEL_CONTEXT_EVENTS = ("toolchange", "toolactivated", "toolcancel")
MOVED_FROM_WINDOW = ("toolactivated", "toolcancel")


@rule("WM107", "unknown-model-context-event", "error", on=nodes("program", "assignment_expression"))
def unknown_model_context_event(node: Node, script: Script) -> Iterable[Finding] | None:
    """Called with each script's root, where the calls that may be listener calls are found by their spelling
    (looking at each of a file's calls cost more than all the rest of the rule), and with every assignment:
    a plain function (no generator made per assignment) that hands the engine their findings."""
    if node.type == "program":
        return _event_listener_findings(script)
    fields = script.scopes.fields  # the assignment is the script's own node
    left = fields.read(node, fields.left)
    if left is None or not _spells_word_starting_on(script.source.data, left.start_byte, left.end_byte):
        return None  # a handler's name starts with "on", as written (most assignments spell no such word at all)
    target = unwrap(left)
    handler = member_name(target) if target is not None else None
    if handler is None or not handler.startswith("on"):
        return None
    return _handler_findings(target, handler, script)


def _spells_word_starting_on(data: bytes, start: int, end: int) -> bool:
    """``data[start:end]`` holds "on" where no ASCII letter, ``_`` or ``$`` comes before it: where a name may
    start (``textContent`` and ``button`` hold "on" only inside a name)."""
    found = data.find(b"on", start, end)
    while found != -1:
        if found == 0 or data[found - 1] not in IDENTIFIER_START_BYTES:
            return True
        found = data.find(b"on", found + 2, end)
    return False


def _handler_findings(target: Node, handler: str, script: Script) -> Iterator[Finding]:
    """``modelContext.onfoo = ...`` (no such handler) and ``window.ontoolcancel = ...`` (moved)."""
    receiver = target.child_by_field_name("object")
    event = handler[2:]
    if model_context_kind(receiver, script) is not None and event not in MODEL_CONTEXT_EVENTS:
        suggestion = closest(handler, ["on" + name for name in MODEL_CONTEXT_EVENTS])
        yield finding_at(script.source, target.child_by_field_name("property"),
                         f"The model context has no `{handler}` handler{did_you_mean(suggestion)}; "
                         "it fires only toolchange, toolactivated and toolcancel.")
    elif event in MOVED_FROM_WINDOW and _is_window(receiver, script):
        yield finding_at(script.source, target.child_by_field_name("property"), _moved_message(event))


def _event_listener_findings(script: Script) -> Iterator[Finding]:
    for call in _listener_calls(script):
        yield from _event_listener_call_findings(call, script)


def _event_listener_call_findings(call: Node, script: Script) -> Iterator[Finding]:
    """A call where the text spells ``addEventListener``: on the model context, an event it never fires; on
    window, an event that moved to the model context."""
    fields = script.scopes.fields  # the call, its callee and the callee's parts are the script's own nodes
    data = script.source.data
    callee = unwrap(fields.read(call, fields.function))
    if callee is None:
        return
    kind = callee.type  # read once: each ``.type`` makes a string
    if kind == "identifier":
        on_window = _spells(data, callee, b"addEventListener") and script.scopes.is_global(callee)
        on_model_context = False
    elif kind == "member_expression" and _spells(data, fields.read(callee, fields.property), b"addEventListener"):
        receiver = fields.read(callee, fields.object)
        on_model_context = model_context_kind(receiver, script) is not None
        on_window = not on_model_context and _is_window(receiver, script)
    else:
        return
    arguments = call_arguments(call) if on_model_context or on_window else []
    if not arguments:
        return
    event = script.evaluator.value(arguments[0])
    if not isinstance(event, str):
        return
    if on_model_context and event not in MODEL_CONTEXT_EVENTS:
        yield finding_at(script.source, arguments[0],
                         f"The model context never fires `{event}`{did_you_mean(closest(event, MODEL_CONTEXT_EVENTS))}; "
                         "it fires only toolchange, toolactivated and toolcancel.")
    elif on_window and event in MOVED_FROM_WINDOW:
        yield finding_at(script.source, arguments[0], _moved_message(event))


def _spells(data: bytes, node: Node | None, spelling: bytes) -> bool:
    """``node`` (of the file ``data`` holds) is written exactly as ``spelling``."""
    return node is not None and data[node.start_byte:node.end_byte] == spelling


def _listener_calls(script: Script) -> list[Node]:
    """The calls that may call ``addEventListener``, in document order: the nearest call above each node
    spelling it.

    A callee (``addEventListener``, ``a.addEventListener``, or either in parentheses or a cast) ends in
    that name, so its call is the first one above the name: a few searches of the text instead of
    looking at every call's callee.
    """
    calls = {}
    for name in spelled_nodes(script.root, script.source.data, b"addEventListener"):
        node = name.parent
        while node is not None and node.type != "call_expression":
            node = node.parent
        if node is not None:
            calls[node.id] = node
    found = list(calls.values())
    sort_outer_first(found)
    return found


def _is_window(node: Node | None, script: Script) -> bool:
    node = unwrap(node)
    return node is not None and node.type == "identifier" and spelled(script.scopes.data, node) in GLOBAL_OBJECTS \
        and script.scopes.is_global(node)


def _moved_message(event: str) -> str:
    return (f"`{event}` is no longer fired on window (it moved to document.modelContext in Chrome 156); "
            "listen on document.modelContext instead.")

"""WM4xx: how execute behaves (errors as values, cancellation, input handling, serialisable results).

Every rule here reads the execute model (``webmcp_lint.execute``), built once
per tool whatever its source; none walks the tree itself beyond a local look.
"""

from __future__ import annotations

from typing import Iterator

from tree_sitter import Node

from webmcp_lint import apis
from webmcp_lint.diagnostics import Edit, Fix
from webmcp_lint.evaluate import JSArray, JSObject
from webmcp_lint.execute import (
    BRANCHING_KINDS,
    HOLDING_KINDS,
    ExecuteModel,
    SignalApiCall,
    dotted_name,
    execute_of,
    function_head,
    leading_child,
    parameter_pattern,
    trailing_child,
    value_branches,
)
from webmcp_lint.model import Finding, Project, ToolDefinition
from webmcp_lint.rules import TOOLS, rule
from webmcp_lint.scope import FUNCTION_KINDS, spelled
from webmcp_lint.syntax import member_name, spelled_nodes, text, unwrap
from webmcp_lint.wording import article

SHOWN_TEXT = 48  # longest piece of code quoted in a message
SIGNAL_MEMBERS = frozenset({"aborted", "reason", "throwIfAborted", "addEventListener", "removeEventListener",
                            "onabort"})
MISUSED_OPTION_NAMES = frozenset({"signal", "abortSignal"})
COLLECTIONS = frozenset({"Map", "Set", "WeakMap", "WeakSet"})
CONSTRAINT_KEYWORDS = ("enum", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum",
                       "minLength", "maxLength", "minItems", "maxItems")
ORDINALS = {0: "first", 1: "second", 2: "third"}
# How the callee of a call returning a Symbol, a BigInt or a DOM node ends (``Symbol.for``, ``el.closest``).
UNSERIALIZABLE_CALL_ENDINGS = frozenset({"Symbol", "for", "BigInt"}) | apis.DOM_NODE_CALLS
# Kinds of a returned expression that can be, or name, a value JSON cannot carry (see ``_reason``).
# HOLDING_KINDS are the kinds ``returned_value`` looks through.
MAY_NOT_SERIALIZE = HOLDING_KINDS | frozenset({"new_expression", "number", "call_expression", "function_expression",
                                               "class"}) | FUNCTION_KINDS


def _shown(node: Node | str) -> str:
    written = " ".join((node if isinstance(node, str) else text(node)).split())
    return written if len(written) <= SHOWN_TEXT else written[:SHOWN_TEXT - 1] + "…"


def _at(model: ExecuteModel, node: Node, message: str, fix: Fix | None = None) -> Finding:
    return Finding(model.source, node.start_byte, node.end_byte, message, model.tool.name, fix)


def _at_head(model: ExecuteModel, message: str, fix: Fix | None = None) -> Finding:
    start, end = function_head(model.function)
    return Finding(model.source, start, end, message, model.tool.name, fix)


def _gets_no_signal(tool: ToolDefinition) -> bool:
    """The integration calls execute with the input only (Vue's and MCP-B's useWebMCP): there is no run signal
    to take or pass on, and a second parameter would be undefined."""
    return tool.integration is not None and not tool.integration.passes_signal


def _callee(node: Node) -> str:
    callee = node.child_by_field_name("function") or node.child_by_field_name("constructor")
    shown = _shown(callee) if callee is not None else "call"
    return f"new {shown}" if node.type == "new_expression" else shown


# ----------------------------------------------------------------------------- WM401


@rule("WM401", "throw-in-execute", "warning", on=TOOLS)
def throw_in_execute(tool: ToolDefinition, project: Project) -> Iterator[Finding]:
    if tool.integration is not None and tool.integration.reports_throws:
        return  # the integration turns throws into isError results that carry the message
    model = execute_of(tool, project)
    if model is None:
        return
    for throw in model.throws:
        if throw.throws_signal_reason or throw.caught_locally or throw.abort_guarded:
            continue
        yield _at(model, throw.node,
                  "execute throws here, so the agent only sees a generic failure without this message; "
                  f"return the error as a value instead, e.g. `return {{ error: {_error_text(throw.node)} }}` "
                  "(re-throw only when `signal.aborted`).")
    for reject in model.rejects:
        if not reject.allowed:
            yield _at(model, reject.node,
                      f"`{_shown(reject.node)}` rejects the run, so the agent only sees a generic failure without "
                      "its message; resolve with an error value instead, e.g. `{ error: \"...\" }` "
                      "(reject only with `signal.reason`).")


def _error_text(throw: Node) -> str:
    """The message a throw carries, to show it as ``{ error: ... }``: the thrown string, or the first argument
    of the error made (``new Error("...")``), when a string short enough to quote."""
    thrown = unwrap(throw.named_children[0]) if throw.named_children else None
    if thrown is not None and thrown.type in ("new_expression", "call_expression"):
        arguments = thrown.child_by_field_name("arguments")
        thrown = unwrap(arguments.named_children[0]) if arguments is not None and arguments.named_children else None
    if thrown is not None and thrown.type in ("string", "template_string"):
        written = text(thrown)
        if len(written) <= SHOWN_TEXT:
            return written
    return '"..."'


# ----------------------------------------------------------------------------- WM402


@rule("WM402", "abort-swallowed", "warning", on=TOOLS)
def abort_swallowed(tool: ToolDefinition, project: Project) -> Iterator[Finding]:
    model = execute_of(tool, project)
    if model is None:
        return
    for catch in model.catches:
        if catch.abortable_calls and not catch.checks_abort and not catch.rethrows:
            signal = model.signal_expression
            error = catch.parameter or "err"
            yield _at(model, catch.node,
                      "This catch returns normally even when the run was cancelled, so a cancellation reaches the "
                      f"agent as an ordinary result; re-throw first: `if ({signal}.aborted) throw {error};`.")


# ----------------------------------------------------------------------------- WM403


@rule("WM403", "abortable-call-without-signal", "error", on=TOOLS, fix="unsafe")
def abortable_call_without_signal(tool: ToolDefinition, project: Project) -> Iterator[Finding]:
    if _gets_no_signal(tool):
        return
    model = execute_of(tool, project)
    if model is None:
        return
    for api_call in model.signal_api_calls:
        node = api_call.call.node
        if api_call.status != "missing" or model.in_abort_listener(node) \
                or (api_call.api.endswith("addEventListener") and model.removed_on_abort(api_call.call)):
            continue
        where = _signal_place(api_call)
        declare = "" if model.signal_in_scope else " (take it as `execute(input, { signal })`)"
        if api_call.api.endswith("addEventListener"):
            problem = "has no `signal` in its options, so the listener outlives a cancelled run"
        else:
            problem = "is made without the run's signal, so a cancelled run does not stop it"
        yield _at(model, node, f"`{_callee(node)}(...)` in execute {problem}; pass `signal` {where}{declare}.",
                  _signal_fix(model, api_call))


def _signal_place(api_call: SignalApiCall) -> str:
    ordinal = ORDINALS.get(api_call.options_index, f"#{api_call.options_index + 1}")
    if api_call.api.endswith("addEventListener"):
        return "in its options, the third argument: `{ once: true, signal }`"
    if api_call.api.endswith(("pipeTo", "pipeThrough")):
        return f"as its options, the {ordinal} argument: `{{ signal }}`"
    kind = "config" if api_call.api.startswith("axios") else "options" if api_call.api.startswith("ky") else "init"
    return f"in its {kind} object, the {ordinal} argument: `{{ ..., signal }}`"


def _signal_fix(model: ExecuteModel, api_call: SignalApiCall) -> Fix | None:
    """Add the signal to a fetch/axios init literal, or a new ``{ signal }`` argument (unsafe: aborts now reject)."""
    name = model.signal_identifier
    if name is None or not api_call.api.startswith(("fetch", "axios")):
        return None
    entry = "signal" if name == "signal" else f"signal: {name}"
    options = unwrap(api_call.options)
    arguments = api_call.call.arguments
    if options is None:
        if len(arguments) != api_call.options_index or not arguments:
            return None
        edit = Edit(arguments[-1].end_byte, arguments[-1].end_byte, f", {{ {entry} }}")
    elif options.type == "object":
        entries = [child for child in options.named_children if child.type != "comment"]
        if entries:
            edit = Edit(entries[-1].end_byte, entries[-1].end_byte, f", {entry}")
        else:
            edit = Edit(options.start_byte, options.end_byte, f"{{ {entry} }}")
    else:
        return None
    return Fix("unsafe", (edit,), f"Pass {name} to {_callee(api_call.call.node)}")


# ----------------------------------------------------------------------------- WM404


@rule("WM404", "signal-not-forwarded", "warning", on=TOOLS)
def signal_not_forwarded(tool: ToolDefinition, project: Project) -> Iterator[Finding]:
    if _gets_no_signal(tool):
        return
    model = execute_of(tool, project)
    if model is None or not model.is_async:
        return
    if model.parameter_count < 2:
        if model.awaits_work():
            yield _at_head(model, "This async execute awaits work but takes no second parameter, so it never sees "
                                  "the run's AbortSignal; declare `execute(input, { signal })` and pass `signal` on.")
        return
    if not model.signal_in_scope:
        return
    for call in model.awaited_calls:
        if model.is_signal_api(call) or model.is_instant(call) or model.passes_signal(call) \
                or model.calls_local_function(call) or model.in_abort_listener(call.node) \
                or any(loop.checks_abort for loop in model.loops_around(call.node)):
            continue  # the cheap questions first
        signal = model.signal_expression
        entry = "signal" if signal == "signal" else f"signal: {signal}"
        callee = _callee(call.node)
        yield _at(model, call.node,
                  f"`{callee}(...)` is awaited without the run's signal, so a cancelled run cannot stop it; "
                  f"pass it on, e.g. `{callee}(..., {{ {entry} }})`.")


# ----------------------------------------------------------------------------- WM405


@rule("WM405", "timer-without-abort", "warning", on=TOOLS)
def timer_without_abort(tool: ToolDefinition, project: Project) -> Iterator[Finding]:
    if _gets_no_signal(tool):
        return
    model = execute_of(tool, project)
    if model is None or _handles_abort(model):
        return
    take = "" if model.signal_in_scope else "take `{ signal }` as execute's second parameter and "
    for loop in model.loops:
        # A loop that hands the signal to what it awaits stops with it, unless it also sleeps on a timer.
        stops = loop.checks_abort or (loop.passes_signal and not loop.has_timer)
        if loop.polling and loop.awaits and not stops and not model.in_abort_listener(loop.node):
            node = loop.node
            yield Finding(model.source, node.start_byte, _loop_head_end(node),
                          "This polling loop in execute never checks for cancellation, so a cancelled run keeps "
                          f"polling; {take}call `signal.throwIfAborted()` in each iteration.", tool.name)
    cleared_in_finally = _timers_cleared_in_finally(model) if model.timers else set()
    for timer in model.timers:
        node = timer.node
        callback = unwrap(timer.arguments[0]) if timer.arguments else None
        if model.in_abort_listener(node) or any(loop.checks_abort for loop in model.loops_around(node)):
            continue  # a loop that checks the signal stops before the next timer
        if (callback is not None and model.checks_abort_within(callback)) \
                or _timer_name(timer.node) in cleared_in_finally:
            continue
        clear = "clearTimeout" if timer.name == "setTimeout" else "clearInterval"
        yield _at(model, node,
                  f"`{timer.name}()` in execute keeps running after the run is cancelled; {take}"
                  f"`{clear}()` it in `signal.addEventListener(\"abort\", ...)` and reject with `signal.reason`.")


def _loop_head_end(loop: Node) -> int:
    """Where ``while (cond)`` / ``for (...)`` ends: findings point at the head, not the whole body."""
    if loop.type == "do_statement":
        return loop.children[0].end_byte  # `do`
    body = loop.child_by_field_name("body")
    before = [child for child in loop.children if body is not None and child.end_byte <= body.start_byte]
    return before[-1].end_byte if before else loop.end_byte


def _timer_name(timer: Node) -> str | None:
    """``t`` in ``const t = setTimeout(...)``."""
    declarator = timer.parent
    while declarator is not None and declarator.type in ("parenthesized_expression", "await_expression"):
        declarator = declarator.parent
    if declarator is None or declarator.type != "variable_declarator":
        return None
    return text(declarator.child_by_field_name("name"))


def _timers_cleared_in_finally(model: ExecuteModel) -> set[str]:
    """Names passed to clearTimeout/clearInterval in a ``finally`` block: those timers end with the run."""
    names = set()
    for call in model.calls:
        if call.name in ("clearTimeout", "clearInterval") and call.arguments:
            ancestor = call.node.parent
            while ancestor is not None:
                kind = ancestor.type
                if kind in FUNCTION_KINDS:
                    break
                if kind == "finally_clause":
                    names.add(text(call.arguments[0]))
                    break
                ancestor = ancestor.parent
    return names


def _handles_abort(model: ExecuteModel) -> bool:
    """Execute reacts to cancellation somewhere: an abort listener, throwIfAborted, or a listener that clears a timer."""
    if model.abort_listeners or model.throw_if_aborted_calls:
        return True
    for api_call in model.signal_api_calls:
        if api_call.api.endswith("addEventListener") and api_call.status == "given" \
                and len(api_call.call.arguments) >= 2:
            listener = unwrap(api_call.call.arguments[1])
            if listener is not None and listener.type in FUNCTION_KINDS and any(
                    call.name in ("clearTimeout", "clearInterval")
                    and listener.start_byte <= call.node.start_byte < listener.end_byte for call in model.calls):
                return True
    return False


# ----------------------------------------------------------------------------- WM406


@rule("WM406", "execute-options-misuse", "error", on=TOOLS, fix="safe")
def execute_options_misuse(tool: ToolDefinition, project: Project) -> Iterator[Finding]:
    if _gets_no_signal(tool):
        return  # no options object comes: destructuring one, as the fix would, throws at every call
    model = execute_of(tool, project)
    if model is None or model.options is None or model.options.name is None:
        return
    name = model.options.name
    signal_uses, other_uses = _option_uses(model, name)
    if name not in MISUSED_OPTION_NAMES and not signal_uses:
        return
    fix = _destructure_fix(model, name) if not other_uses else None
    replacement = "{ signal }" if name == "signal" else f"{{ signal: {name} }}"
    yield _at_head(model, f"execute's second parameter `{name}` is the options object, not the AbortSignal; "
                          f"destructure it: `execute(input, {replacement})`.", fix)


def _option_uses(model: ExecuteModel, name: str) -> tuple[int, int]:
    """How often the bare options parameter is used as a signal, and how often otherwise.

    Looks only where execute's body spells the name (nested functions included), not at every node in it.
    """
    parameter = model.options.pattern
    signal_uses = other_uses = 0
    body = model.function.child_by_field_name("body")
    spelled = spelled_nodes(body, model.script.source.data, name.encode()) if body is not None else ()
    for node in spelled:
        if node.type not in ("identifier", "shorthand_property_identifier"):
            continue
        binding = model.script.scopes.resolve(node)
        if binding is None or binding.name_node != parameter:
            continue
        if _used_as_signal(node, name):
            signal_uses += 1
        else:
            other_uses += 1
    return signal_uses, other_uses


def _used_as_signal(node: Node, name: str) -> bool:
    parent = node.parent
    if parent is None:
        return False
    if parent.type == "member_expression" and parent.child_by_field_name("object") == node:
        return member_name(parent) in SIGNAL_MEMBERS
    if node.type == "shorthand_property_identifier":
        return name == "signal"
    if parent.type == "pair" and parent.child_by_field_name("value") == node:
        key = parent.child_by_field_name("key")
        return key is not None and text(key) == "signal"
    return False


def _destructure_fix(model: ExecuteModel, name: str) -> Fix | None:
    parameter = model.options.node
    pattern, default = parameter_pattern(parameter)
    if default is not None:
        return None
    destructured = "{ signal }" if name == "signal" else f"{{ signal: {name} }}"
    if parameter.type in ("required_parameter", "optional_parameter"):
        annotation = parameter.child_by_field_name("type")
        if annotation is None:
            edit = Edit(pattern.start_byte, pattern.end_byte, destructured)
        else:
            signal_type = text(annotation).lstrip(":").strip()
            edit = Edit(parameter.start_byte, parameter.end_byte, f"{destructured}: {{ signal: {signal_type} }}")
    else:
        edit = Edit(pattern.start_byte, pattern.end_byte, destructured)
    return Fix("safe", (edit,), f"Destructure the signal: {destructured}")


# ----------------------------------------------------------------------------- WM407 / WM408


def _schema_properties(tool: ToolDefinition) -> tuple[JSObject | None, JSObject | None]:
    schema = tool.get("inputSchema")
    if not isinstance(schema, JSObject):
        return None, None
    properties = schema.get("properties")
    return schema, properties if isinstance(properties, JSObject) else None


@rule("WM407", "default-not-applied", "warning", on=TOOLS)
def default_not_applied(tool: ToolDefinition, project: Project) -> Iterator[Finding]:
    _, properties = _schema_properties(tool)
    if properties is None:
        return
    defaults = {key: prop.value.props["default"] for key, prop in properties.props.items()
                if isinstance(prop.value, JSObject) and "default" in prop.value.props}
    if not defaults:
        return
    model = execute_of(tool, project)
    if model is None:
        return
    # A key given a default where it is destructured is settled without looking at where it is read.
    undefaulted = [key for key in defaults if key not in model.destructured_defaults]
    if not undefaulted:
        return
    reads = model.input_reads
    unapplied = model.keys_without_default([key for key in undefaulted if key in reads])
    if not unapplied or model.merges_input_defaults():
        return
    for key in unapplied:
        default = defaults[key]
        read = reads[key][0]
        value = _shown(default.value_node) if default.value_node is not None else "..."
        if read.type == "member_expression" or read.type == "subscript_expression":
            example = f"`{_shown(read)} ?? {value}`"
        else:
            example = f"`{{ {key} = {value} }}`"
        yield _at(model, read, f"The schema's default for `{key}` ({value}) is never applied by the browser and "
                               f"execute reads `{key}` without one; apply it in execute, e.g. {example}.")


@rule("WM408", "input-not-validated", "info", on=TOOLS)
def input_not_validated(tool: ToolDefinition, project: Project) -> Iterator[Finding]:
    schema, properties = _schema_properties(tool)
    if schema is None or not _constrains(schema, properties):
        return
    model = execute_of(tool, project)
    if model is None or not model.reads_input() or model.validates_input():
        return
    yield _at_head(model, "The schema constrains the input but execute reads it without checking it, and the "
                          "browser does not validate it; check the values and return `{ error: \"...\" }` "
                          "when they are invalid.")


def _constrains(schema: JSObject, properties: JSObject | None) -> bool:
    required = schema.get("required")
    if isinstance(required, JSArray) and required.items:
        return True
    return properties is not None and any(
        isinstance(prop.value, JSObject) and any(prop.value.has(keyword) for keyword in CONSTRAINT_KEYWORDS)
        for prop in properties.props.values())


# ----------------------------------------------------------------------------- WM409


@rule("WM409", "non-serializable-result", "warning", on=TOOLS)
def non_serializable_result(tool: ToolDefinition, project: Project) -> Iterator[Finding]:
    model = execute_of(tool, project)
    if model is None:
        return
    errors_reported = tool.integration is not None and tool.integration.reports_returned_errors
    for ret in model.execute_returns:
        for shown, reason in _unserializable(model, ret.value, errors_reported):
            yield _at(model, shown, f"execute returns {reason}.")


def _unserializable(model: ExecuteModel, value: Node | None, errors_reported: bool) -> list[tuple[Node, str]]:
    """Returned expressions that JSON cannot carry, with the reason: the value (through ``await``, ``?:``,
    ``||``, ``??``) and the direct members of a returned object or array literal (``{ error: err }``).
    With ``errors_reported`` (the integration makes a returned Error an isError result with its message),
    a returned error itself is fine; one inside an object or array is still lost.

    Each expression's kind is read once: names and awaits are resolved to what they hold, the rest is its own
    value."""
    candidates: list[tuple[Node, str, bool]] = []  # each with its kind, and whether it is the whole result
    for branch in value_branches(value):
        kind = branch.type
        if kind == "object":
            members = []
            for child in branch.named_children:
                member_kind = child.type
                if member_kind == "pair":
                    members.append(trailing_child(child, "value"))
                elif member_kind == "shorthand_property_identifier":
                    members.append(child)
        elif kind == "array":
            members = [child for child in branch.named_children if child.type != "spread_element"]
        else:
            candidates.append((branch, kind, True))
            continue
        for member in members:
            member_kind = member.type if member is not None else None
            if member_kind in BRANCHING_KINDS:
                candidates.extend((candidate, candidate.type, False) for candidate in value_branches(member))
            elif member_kind is not None:
                candidates.append((member, member_kind, False))  # a value that is just itself: its kind read once
    found = []
    for shown, kind, whole in candidates:
        if kind not in MAY_NOT_SERIALIZE:
            continue  # a literal, a member read, an operation: JSON carries what it gives
        error_reported = whole and errors_reported
        if kind in HOLDING_KINDS:
            resolved, caught = model.returned_value(shown)
            if caught:
                if not error_reported:
                    found.append((shown, "the caught error, which serialises to `{}` so its message is lost; "
                                         "return `{ error: err.message }`"))
                continue
            value, value_kind = resolved, resolved.type if resolved is not None else None
        else:
            value, value_kind = shown, kind
        if value is None or (error_reported and _error_constructor(value, value_kind) is not None):
            continue
        reason = _reason(model, value, value_kind)
        if reason is not None:
            found.append((shown, reason))
    return found


def _last_name(model: ExecuteModel, call: Node) -> str | None:
    """The last name of a call's callee: ``f`` in ``f()`` and ``a.b.f()``. The model named every call it walked;
    a call outside execute (a ``const``'s initialiser) is of the model's script too: its bytes are sliced there."""
    walked = model.call_at(call)
    if walked is not None:
        return walked.name if walked.method is None else walked.method
    callee = unwrap(leading_child(call, "function"))
    if callee is None:
        return None
    data = model.source.data
    kind = callee.type
    if kind == "identifier":
        return spelled(data, callee)
    if kind == "member_expression":
        prop = trailing_child(callee, "property")
        return spelled(data, prop) if prop is not None else None
    return None


def _error_constructor(node: Node, kind: str | None) -> str | None:
    """``TypeError`` in ``new TypeError(...)``: the error class a ``new`` expression makes, or None."""
    if kind != "new_expression":
        return None
    constructor = dotted_name(node.child_by_field_name("constructor")) or ""
    return constructor if constructor.endswith("Error") or constructor == "DOMException" else None


def _reason(model: ExecuteModel, node: Node, kind: str) -> str | None:
    """Why ``node`` (of that kind, in the model's script) does not survive JSON, or None."""
    if kind == "new_expression":
        error = _error_constructor(node, kind)
        if error is not None:
            return (f"{article(error)} `{error}`, which serialises to `{{}}` so its message is lost; "
                    "return `{ error: err.message }`")
        constructor = dotted_name(node.child_by_field_name("constructor")) or ""
        if constructor in COLLECTIONS:
            return f"{article(constructor)} `{constructor}`, which serialises to `{{}}`; return an array or a plain object"
        return None
    if kind == "number" and text(node).endswith("n"):
        return "a BigInt, which makes JSON serialisation throw; return `String(value)`"
    if kind in FUNCTION_KINDS or kind in ("function_expression", "class"):
        return "a function, which JSON drops; return data"
    if kind == "call_expression":
        if _last_name(model, node) not in UNSERIALIZABLE_CALL_ENDINGS:
            return None
        callee = unwrap(leading_child(node, "function"))
        name = dotted_name(callee)
        if name in ("Symbol", "Symbol.for"):
            return "a Symbol, which JSON drops; return a string"
        if name == "BigInt":
            return "a BigInt, which makes JSON serialisation throw; return `String(value)`"
        if member_name(callee) in apis.DOM_NODE_CALLS or name in apis.DOM_NODE_CALLS:
            return "a DOM node, which serialises to `{}`; return its text or attributes"
    return None


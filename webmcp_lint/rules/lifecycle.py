"""WM5xx: tool lifecycles, and registering through the framework's official integration."""

from __future__ import annotations

import re
from typing import Iterator

from tree_sitter import Node

from webmcp_lint.diagnostics import Edit, Fix
from webmcp_lint.evaluate import UNDEFINED, JSObject
from webmcp_lint.frameworks import OFFICIAL_INTEGRATION, REACT, VUE
from webmcp_lint.model import FileAnalysis, Finding, FrameworkCall, Project, Registration, Script, finding_at
from webmcp_lint.rules import FILES, PROJECT, rule
from webmcp_lint.scope import FUNCTION_KINDS
from webmcp_lint.syntax import ancestors_under, call_arguments, enclosing_function, spelled_nodes, text, unwrap
from webmcp_lint.wording import article

HOOK_NAME = re.compile(r"^use[A-Z0-9]")
HOOK_NAME_SPELLING = re.compile(rb"use[A-Z0-9]")  # a file without it names no hook
ARRAY_CALLBACK_METHODS = frozenset({"forEach", "map", "flatMap", "filter", "some", "every", "find", "reduce"})
PROMISE_CALLBACK_METHODS = frozenset({"then", "catch", "finally"})
PAGE_LOAD_EVENTS = frozenset({"DOMContentLoaded", "load"})
COMPONENT_WRAPPERS = frozenset({"memo", "forwardRef", "observer", "defineComponent"})
LOOP_KINDS = frozenset({"for_statement", "for_in_statement", "while_statement", "do_statement"})
LOGICAL_OPERATORS = frozenset({"&&", "||", "??"})
CLASS_FIELD_KINDS = frozenset({"public_field_definition", "field_definition"})
# Callbacks Angular runs inside an injection context, and callbacks that run later, outside one.
INJECTION_CONTEXT_CALLS = frozenset({
    "runInInjectionContext", "provideAppInitializer", "provideEnvironmentInitializer", "providePlatformInitializer",
})
DEFERRED_CALLS = frozenset({
    "setTimeout", "setInterval", "requestAnimationFrame", "requestIdleCallback", "queueMicrotask", "then", "catch",
    "finally", "subscribe", "addEventListener", "afterNextRender", "afterEveryRender", "afterRender", "effect", "on",
})


def callee_name(call: Node) -> str:
    """``f`` for ``f(...)`` and ``a.b.f(...)``."""
    callee = unwrap(call.child_by_field_name("function"))
    if callee is not None and callee.type == "member_expression":
        return text(callee.child_by_field_name("property"))
    return text(callee)


def callback_holder(function: Node) -> Node | None:
    """The call that ``function`` is passed to as an argument, if it is one."""
    parent = function.parent
    while parent is not None and parent.type == "parenthesized_expression":
        parent = parent.parent
    if parent is not None and parent.type == "arguments" and parent.parent is not None \
            and parent.parent.type == "call_expression":
        return parent.parent
    return None


def is_immediately_invoked(function: Node) -> bool:
    parent = function.parent
    while parent is not None and parent.type == "parenthesized_expression":
        function, parent = parent, parent.parent
    return parent is not None and parent.type == "call_expression" and parent.child_by_field_name("function") == function


def function_name(function: Node, parent: Node | None = None) -> str | None:
    """A function's own name, or the name of the variable or field it is assigned to.

    ``parent``: the function's parent when the caller knows it (asking ``.parent`` climbs from the root).
    """
    name = function.child_by_field_name("name")
    if name is not None:
        return text(name)
    parent = function.parent if parent is None else parent
    while parent is not None and parent.type in ("parenthesized_expression", "as_expression", "satisfies_expression"):
        parent = parent.parent
    if parent is not None and parent.type == "variable_declarator":
        return text(parent.child_by_field_name("name"))
    if parent is not None and parent.type in ("pair", *CLASS_FIELD_KINDS):
        key = parent.child_by_field_name("key") or parent.child_by_field_name("name") or \
            parent.child_by_field_name("property")
        return text(key)
    return None


# WM501 --------------------------------------------------------------------------------------
DECLARED_FUNCTION_KINDS = ("function_declaration", "generator_function_declaration")
MAX_CALLERS_FOLLOWED = 4  # run-once functions calling one another, followed before the answer is "may run again"


def runs_once_per_page(call: Node, data: bytes, followed: int = 0) -> bool:
    """Module top level, or only inside callbacks that still run once per page load.

    Those are IIFEs, array iteration callbacks, promise callbacks,
    DOMContentLoaded/load listeners, and functions of the module that only
    one such place calls (``async function registerTools() {...}
    registerTools();``), each itself at such a place.
    """
    function = enclosing_function(call)
    while function is not None:
        holder = callback_holder(function)
        once = is_immediately_invoked(function)
        if holder is not None and not once:
            once = _runs_once_with(holder, function)
        elif holder is None and not once and followed < MAX_CALLERS_FOLLOWED:
            use = _only_use(function, data)
            once = use is not None and runs_once_per_page(use, data, followed + 1)
        if not once:
            return False
        function = enclosing_function(function)
    return True


def _runs_once_with(holder: Node, callback: Node) -> bool:
    """``callback``, given to the call ``holder``, runs once per run of ``holder``."""
    name = callee_name(holder)
    if name in ARRAY_CALLBACK_METHODS or name in PROMISE_CALLBACK_METHODS:
        return True
    if name == "addEventListener":
        arguments = call_arguments(holder)
        return len(arguments) > 1 and text(arguments[0])[1:-1] in PAGE_LOAD_EVENTS and unwrap(arguments[1]) == callback
    return False


def _only_use(function: Node, data: bytes) -> Node | None:
    """Where a function declared at module top level (not exported) is used, when that is its one use and runs it
    once: a call of it, or a DOMContentLoaded/load listener given it (the call node either way)."""
    parent = function.parent
    if function.type in DECLARED_FUNCTION_KINDS:
        name_node, statement = function.child_by_field_name("name"), function
    elif parent is not None and parent.type == "variable_declarator" \
            and unwrap(parent.child_by_field_name("value")) == function:
        name_node, statement = parent.child_by_field_name("name"), parent.parent
    else:
        return None
    root = statement.parent if statement is not None else None
    if name_node is None or name_node.type != "identifier" or root is None or root.type != "program":
        return None  # a method, a nested or an exported function: other code may call it again
    uses = [node for node in spelled_nodes(root, data, data[name_node.start_byte:name_node.end_byte])
            if node.id != name_node.id]
    if len(uses) != 1:
        return None
    use, holder = uses[0], uses[0].parent
    if holder is not None and holder.type == "call_expression" and holder.child_by_field_name("function") == use:
        return holder
    holder = holder.parent if holder is not None and holder.type == "arguments" else None
    if holder is not None and callee_name(holder) == "addEventListener" and _runs_once_with(holder, use):
        return holder
    return None


def _lacks_signal(registration: Registration) -> bool:
    if registration.options_node is None:
        return True
    options = registration.options
    if options is None or options is UNDEFINED:
        return True
    return isinstance(options, JSObject) and not options.open and "signal" not in options.props


@rule("WM501", "registration-without-signal", "warning", on=FILES)
def registration_without_signal(analysis: FileAnalysis) -> Iterator[Finding]:
    for registration in analysis.registrations:
        if _lacks_signal(registration) and not runs_once_per_page(registration.call, registration.source.data):
            yield finding_at(registration.source, registration.call,
                             "This registerTool runs inside a function without a `signal` option, so the tool can "
                             "never be unregistered and a second run rejects the name; pass "
                             "`{ signal: controller.signal }` and abort the controller when the view goes away.")


# WM502 --------------------------------------------------------------------------------------
def _home_made_hook(call: Node, root: Node) -> str | None:
    """The ``use*`` name of the innermost function around ``call`` that has one."""
    path = [*reversed(ancestors_under(root, call)), call]  # root first
    for index in range(len(path) - 2, 0, -1):
        if path[index].type in FUNCTION_KINDS:
            name = function_name(path[index], path[index - 1])
            if name is not None and HOOK_NAME.match(name):
                return name
    return None


@rule("WM502", "direct-registration-in-framework", "error", on=PROJECT)
def direct_registration_in_framework(project: Project) -> Iterator[Finding]:
    for analysis in project.files:
        if not analysis.registrations:
            continue
        detection = analysis.framework
        spells_hooks: dict[int, bool] = {}  # by source: whether its text could name a hook at all
        for registration in analysis.registrations:
            if detection is not None:
                message = (f"This {detection.name} app ({detection.reason}) calls registerTool directly; register "
                           f"the tool with {OFFICIAL_INTEGRATION[detection.framework]}, which handles feature "
                           "detection, cleanup and the component lifecycle.")
            else:
                source = registration.source
                if id(source) not in spells_hooks:
                    spells_hooks[id(source)] = HOOK_NAME_SPELLING.search(source.data) is not None
                hook = _home_made_hook(registration.call, registration.script.tree.root_node) \
                    if spells_hooks[id(source)] else None
                if hook is None:
                    continue
                message = (f"{hook} is a home-made lifecycle wrapper around registerTool; use the official "
                           f"integration instead: {OFFICIAL_INTEGRATION[REACT]} in React, "
                           f"{OFFICIAL_INTEGRATION[VUE]} in Vue.")
            yield finding_at(registration.source, registration.call, message)


# WM503 / WM504 ------------------------------------------------------------------------------
def _is_owner(function: Node, framework: str) -> bool:
    """A component, a hook or composable (``use*``), ``setup``; in Vue also a declared function.

    A Vue composable need not be named ``use*``, so a function declaration
    counts; a handler assigned to a variable (``const onSave = () => ...``) does not.
    """
    name = function_name(function)
    if name is not None and (name[:1].isupper() or HOOK_NAME.match(name) or name == "setup"):
        return True
    holder = callback_holder(function)
    if holder is not None and callee_name(holder) in COMPONENT_WRAPPERS:
        return True
    parent = function.parent
    if name is None and parent is not None and parent.type == "export_statement":
        return True  # export default () => { ... }: an anonymous component (a named export keeps its name's verdict)
    return framework == VUE and function.type == "function_declaration"


def hook_problem(call: FrameworkCall) -> tuple[str, str] | None:
    """(rule code, where) when a useWebMCP call is conditional (WM503) or outside a component (WM504)."""
    node = call.call
    condition: str | None = None
    nested_callback = False
    previous, current = node, node.parent
    owner: Node | None = None
    while current is not None:
        kind = current.type
        if kind in FUNCTION_KINDS:
            if _is_owner(current, call.framework):
                owner = current
                break
            if call.framework == REACT and function_name(current) is not None and callback_holder(current) is None:
                return "WM504", f"in {function_name(current)}(), which is neither a component nor a hook"
            nested_callback = True
        elif condition is None:
            condition = _condition_between(current, previous)
        previous, current = current, current.parent
    if owner is None and call.framework == REACT:
        return "WM504", "at module top level" if not nested_callback else "in a callback outside any component"
    if nested_callback:
        return "WM503", "inside a nested callback"
    if condition is not None:
        return "WM503", condition
    if owner is not None and _returns_before(owner, node, call.script.source.data):
        return "WM503", "after an early return"
    return None


def _returns_before(owner: Node, node: Node, data: bytes) -> bool:
    """``owner`` itself (not a function nested in it) may return before ``node``: a return statement between
    them. Found by searching their text for the keyword, so no file needs its return statements collected."""
    for keyword in spelled_nodes(owner, data, b"return", keywords=True, until=node.start_byte):
        returned = keyword.parent if keyword.type == "return" else None
        if returned is not None and returned.type == "return_statement" and returned.start_byte == keyword.start_byte \
                and returned.end_byte <= node.start_byte and enclosing_function(returned) == owner:
            return True
    return False


def _condition_between(container: Node, child: Node) -> str | None:
    """What makes ``child`` run only sometimes, when ``container`` is a branch, loop or logical operator."""
    kind = container.type
    if kind == "if_statement" and container.child_by_field_name("condition") != child:
        return "inside an if statement"
    if kind in ("else_clause", "switch_case", "switch_default"):
        return "inside an else branch" if kind == "else_clause" else "inside a switch case"
    if kind == "ternary_expression" and container.child_by_field_name("condition") != child:
        return "in a branch of a ternary"
    if kind == "binary_expression":
        operator = container.child_by_field_name("operator")
        if operator is not None and operator.type in LOGICAL_OPERATORS and container.child_by_field_name("right") == child:
            return f"on the right of {operator.type}"
    if kind in LOOP_KINDS and container.child_by_field_name("body") == child:
        return "inside a loop"
    return None


@rule("WM503", "conditional-webmcp-hook", "error", on=FILES, fix="unsafe")
def conditional_webmcp_hook(analysis: FileAnalysis) -> Iterator[Finding]:
    for call in analysis.framework_calls:
        if call.api != "useWebMCP":
            continue
        problem = hook_problem(call)
        if problem is not None and problem[0] == "WM503":
            # Vue's setup runs once: there is no render to call it on, and `enabled` is read as a getter.
            where = "in setup and pass the condition as `enabled` (a getter)" if call.framework == VUE \
                else "on every render and pass the condition as `enabled`"
            yield finding_at(call.script.source, call.call,
                             f"useWebMCP is called conditionally ({problem[1]}); call it unconditionally {where}.",
                             _enabled_fix(call))


@rule("WM504", "webmcp-hook-outside-component", "warning", on=FILES)
def webmcp_hook_outside_component(analysis: FileAnalysis) -> Iterator[Finding]:
    for call in analysis.framework_calls:
        if call.api != "useWebMCP" or call.framework != REACT:
            continue
        problem = hook_problem(call)
        if problem is not None and problem[0] == "WM504":
            yield finding_at(call.script.source, call.call,
                             f"useWebMCP is a React hook but is called {problem[1]}; call it while a component "
                             "(or a custom use* hook) renders.")


def _enabled_fix(call: FrameworkCall) -> Fix | None:
    """``if (cond) { useWebMCP({...}) }`` becomes ``useWebMCP({..., enabled: cond})`` (Vue: ``() => cond``)."""
    statement = call.call.parent
    if statement is None or statement.type != "expression_statement":
        return None
    holder = statement.parent
    if holder is not None and holder.type == "statement_block":
        if [child for child in holder.named_children if child.type != "comment"] != [statement]:
            return None
        holder = holder.parent
    if holder is None or holder.type != "if_statement" or holder.child_by_field_name("alternative") is not None:
        return None
    arguments = call_arguments(call.call)
    options = arguments[0] if arguments else None
    condition = unwrap(holder.child_by_field_name("condition"))
    if options is None or options.type != "object" or condition is None:
        return None
    properties = [child for child in options.named_children if child.type != "comment"]
    if any(text(child.child_by_field_name("key") or child) == "enabled" for child in properties):
        return None
    source = call.script.source
    # `enabled` is a boolean: `user && trip` is one of its operands, so it is made one. Vue reads it reactively from
    # a ref or a getter: a plain value would be read once.
    enabled = f"Boolean({text(condition)})" if _is_logical(condition) else text(condition)
    enabled = f"() => {enabled}" if call.framework == VUE else enabled
    new_text = _with_enabled(source.data, statement, options, properties, enabled)
    indent = statement.start_point.column - holder.start_point.column
    new_text = "\n".join(line[indent:] if line[:indent].isspace() else line for line in new_text.split("\n"))
    return Fix("unsafe", (Edit(holder.start_byte, holder.end_byte, new_text),),
               "Call useWebMCP unconditionally and pass the condition as enabled")


def _is_logical(condition: Node) -> bool:
    """``a && b``, ``a || b``, ``a ?? b``: their value is one of the operands, not a boolean."""
    operator = condition.child_by_field_name("operator") if condition.type == "binary_expression" else None
    return operator is not None and operator.type in LOGICAL_OPERATORS


def _with_enabled(data: bytes, statement: Node, options: Node, properties: list[Node], condition: str) -> str:
    """The statement's text with ``enabled: <condition>`` added as the options' last property."""
    closing = options.end_byte - 1
    after_last = properties[-1].end_byte if properties else options.start_byte + 1
    has_trailing_comma = b"," in data[after_last:closing]
    if options.start_point.row != options.end_point.row and properties:
        line_start = data.rfind(b"\n", 0, closing) + 1
        last_line_start = data.rfind(b"\n", 0, properties[-1].start_byte) + 1
        indent = data[last_line_start:properties[-1].start_byte].decode("utf-8", errors="replace")
        comma = b"" if has_trailing_comma else b","
        if data[line_start:closing].strip() == b"":
            edits = [(after_last, after_last, comma), (line_start, line_start, f"{indent}enabled: {condition},\n".encode())]
        else:
            edits = [(after_last, after_last, comma + f"\n{indent}enabled: {condition}".encode())]
    else:
        separator = b" " if has_trailing_comma or not properties else b", "
        insert_at = closing if has_trailing_comma else after_last
        if not properties:
            insert_at = options.start_byte + 1
        edits = [(insert_at, insert_at, separator + f"enabled: {condition}".encode() + (b" " if not properties else b""))]
    pieces, position = [], statement.start_byte
    for start, end, replacement in edits:
        pieces.append(data[position:start])
        pieces.append(replacement)
        position = end
    pieces.append(data[position:statement.end_byte])
    return b"".join(pieces).decode("utf-8", errors="replace")


# WM505 --------------------------------------------------------------------------------------
def _in_injection_context(node: Node) -> bool:
    """``node`` runs directly in a constructor or a field initialiser (no function in between)."""
    previous, current = node, node.parent
    while current is not None:
        if current.type in CLASS_FIELD_KINDS and current.child_by_field_name("value") == previous:
            return True
        if current.type in FUNCTION_KINDS:
            return current.type == "method_definition" and text(current.child_by_field_name("name")) == "constructor"
        previous, current = current, current.parent
    return False


def _called_from_constructor(method: Node, script: Script) -> bool:
    """A helper method the constructor (or a field initialiser) calls as ``this.helper()``."""
    body = method.parent
    name = text(method.child_by_field_name("name"))
    if body is None or body.type != "class_body" or name.startswith("ng"):
        return False
    for call in script.of_kind("call_expression"):
        if call.start_byte < body.start_byte or call.end_byte > body.end_byte:
            continue
        callee = unwrap(call.child_by_field_name("function"))
        if callee is not None and callee.type == "member_expression" \
                and text(callee.child_by_field_name("object")) == "this" \
                and text(callee.child_by_field_name("property")) == name and _in_injection_context(call):
            return True
    return False


def _outside_injection_context(call: Node, script: Script) -> str | None:
    """Where a call runs outside Angular's injection context, or None when it is one (or unknown)."""
    previous, current = call, call.parent
    while current is not None:
        if current.type in CLASS_FIELD_KINDS and current.child_by_field_name("value") == previous:
            return None  # a field initialiser
        if current.type in FUNCTION_KINDS:
            if current.type == "method_definition":
                name = text(current.child_by_field_name("name"))
                if name == "constructor" or _called_from_constructor(current, script):
                    return None
                return f"in {name}()"
            holder = callback_holder(current)
            if holder is not None:
                name = callee_name(holder)
                if name in INJECTION_CONTEXT_CALLS:
                    return None
                return f"in {article(name)} {name} callback" if name in DEFERRED_CALLS else None
            parent = current.parent
            if parent is not None and parent.type in CLASS_FIELD_KINDS:
                return f"in {function_name(current)}, a handler that runs later"
            return None
        previous, current = current, current.parent
    return "at module top level"


@rule("WM505", "angular-tool-outside-injection-context", "warning", on=FILES)
def angular_tool_outside_injection_context(analysis: FileAnalysis) -> Iterator[Finding]:
    for call in analysis.framework_calls:
        if call.api != "declareExperimentalWebMcpTool" or len(call_arguments(call.call)) >= 2:
            continue
        where = _outside_injection_context(call.call, call.script)
        if where is not None:
            yield finding_at(call.script.source, call.call,
                             f"declareExperimentalWebMcpTool runs {where}, outside an injection context, so it "
                             "throws NG0203; call it in a constructor or field initialiser, or pass an injector "
                             "as its second argument.")

"""The execute model: what a tool's ``execute`` does, computed once per tool.

The WM4xx rules (and WM603..WM605) ask the same questions about execute:
which names hold the run's signal, which calls get it, what is awaited,
thrown, caught and returned, which loops and timers run, what is written.
One iterative walk over the execute function and the nested functions that
run as part of it answers them; ``execute_of(tool)`` caches the answer.

What runs as part of execute: its own body; inline callbacks (arguments of
calls such as ``.then(...)``, ``new Promise(executor)``, ``forEach``, an
IIFE, a handler assigned to ``x.onload``); and functions declared inside it
that it refers to. A named function declared inside but never referred to
does not run, and nothing in it is reported.
"""

from __future__ import annotations

import bisect
import re
from collections import defaultdict
from collections.abc import Callable, Iterable
from functools import lru_cache
from itertools import chain
from operator import attrgetter

from tree_sitter import Node

from webmcp_lint import apis
from webmcp_lint.evaluate import TRANSPARENT_KINDS, JSFunction, string_value
from webmcp_lint.languages import START_BYTE, language
from webmcp_lint.memo import built_once, per_object
from webmcp_lint.model import Project, Script, ToolDefinition
from webmcp_lint.record import Record
from webmcp_lint.scope import FUNCTION_KINDS, property_key, spelled
from webmcp_lint.syntax import (ancestors_under, call_arguments, listed_arguments, member_name, mentions_names,
                                spelled_nodes, text, unwrap)

GLOBAL_PREFIXES = ("window.", "globalThis.", "self.")
LOOP_KINDS = frozenset({"while_statement", "do_statement", "for_statement", "for_in_statement"})
POLLING_LOOP_KINDS = frozenset({"while_statement", "do_statement", "for_statement"})  # not for-of/for-in
COMPARISON_OPERATORS = frozenset({"<", ">", "<=", ">=", "==", "===", "!=", "!=="})
EQUALITY_OPERATORS = frozenset({"==", "===", "!=", "!=="})
# Node kinds the walk keeps, besides the calls it classifies.
COLLECTED_KINDS = frozenset({
    "call_expression", "new_expression", "await_expression", "throw_statement", "return_statement",
    "catch_clause", "member_expression", "subscript_expression", "binary_expression", "unary_expression",
    "assignment_expression", "augmented_assignment_expression", "variable_declarator", "object",
    "ternary_expression", "switch_statement",
}) | LOOP_KINDS
# Names of a value, which ``returned_value`` follows to their binding; with awaits, the kinds it looks through.
NAMING_KINDS = frozenset({"identifier", "shorthand_property_identifier"})
HOLDING_KINDS = NAMING_KINDS | {"await_expression"}
# Kinds whose kept nodes are asked which function they are written in (``ExecuteModel._owner``); "loop" stands
# for every kind of loop, as in the walk's lists.
OWNED_KINDS = frozenset({"throw_statement", "return_statement", "catch_clause", "loop", "await_expression"})
# Methods of an axios/ky client that take a signal: only for these is the receiver traced to its creation.
CLIENT_METHODS = frozenset(api.split(".", 1)[1] for api in apis.SIGNAL_APIS if api.startswith(("axios.", "ky.")))
# A call can be a signal API only when named so or calling such a method (``_signal_api``): the others are not asked.
SIGNAL_API_NAMES = frozenset(apis.SIGNAL_APIS) | {"addEventListener"}
SIGNAL_API_METHODS = CLIENT_METHODS | frozenset(apis.SIGNAL_METHODS)
# Kinds with nothing the walk keeps inside (tokens; strings and regexes hold only fragments and escapes):
# the walk does not ask them for children. Classes inside execute are not walked at all.
TOKEN_KINDS = frozenset({
    "identifier", "property_identifier", "shorthand_property_identifier", "private_property_identifier",
    "statement_identifier", "string_fragment", "escape_sequence", "number", "true", "false", "null", "undefined",
    "this", "super", "comment", "regex_pattern", "regex_flags", "string", "regex",
})
CLASS_KINDS = frozenset({"class_declaration", "class"})
UNCANCELLABLE_PREFIXES = tuple(receiver + "." for receiver in apis.UNCANCELLABLE_RECEIVERS)
INDEXEDDB_EVIDENCE = tuple(word.encode() for word in apis.INDEXEDDB_EVIDENCE)
UNCANCELLABLE_OBJECT_EVIDENCE = tuple(word.encode() for word in apis.UNCANCELLABLE_OBJECT_EVIDENCE)
MEDIA_EVIDENCE = tuple(word.encode() for word in apis.MEDIA_EVIDENCE)
# A member chain written as names and dots only, nothing between them (no spaces, comments, ``?.``, ``#``).
PLAIN_CHAIN = re.compile(r"(?:[^\W\d]|\$)[\w$]*(?:\.(?:[^\W\d]|\$)[\w$]*)+")
MAX_CHAIN = 16  # longest member chain named
MENTION_LIMIT = 4000  # nodes looked at when asking whether an expression mentions a name
ALIAS_PASSES = 4
# Sort key read in C, without a Python call per item: the start of a fact's node.
NODE_START = attrgetter("node.start_byte")


# --------------------------------------------------------------------------- facts


# What the walk does at a node of a kind that is not kept (a kept kind maps to its name): look no further inside
# a token, remember an identifier, step over a nested function or a class; a member expression is kept and only
# its object looked into (the rest is a dot and a property name). Kinds not in the table (None) are looked into.
_TOKEN, _IDENTIFIER, _FUNCTION, _CLASS, _MEMBER = range(5)


# The action of each kind name; where a name is in several sets the later ones win: a member expression is kept
# but walked apart, every kind of loop goes in one list ("loop"), an identifier is a token remembered.
_ACTIONS_BY_NAME: dict[str, str | int] = {
    **dict.fromkeys(CLASS_KINDS, _CLASS), **dict.fromkeys(FUNCTION_KINDS, _FUNCTION),
    **dict.fromkeys(TOKEN_KINDS, _TOKEN), "identifier": _IDENTIFIER, **{name: name for name in COLLECTED_KINDS},
    **dict.fromkeys(LOOP_KINDS, "loop"), "member_expression": _MEMBER,
}


@lru_cache(maxsize=None)
def _walk_actions(language_name: str) -> list[str | int | None]:
    """What the walk does at each kind id of one language (aliases give a name several ids): a list indexed by
    kind id, as indexing a list is cheaper than a dictionary's ``get`` and the walk asks once a node."""
    grammar = language(language_name)
    return [_ACTIONS_BY_NAME.get(grammar.node_kind_for_id(kind)) for kind in range(grammar.node_kind_count)]


class InputKey(Record):
    """One key destructured from the input parameter: ``{ sort = "newest" }``."""

    __slots__ = ("key", "node", "local", "default")
    _compared = __slots__

    def __init__(self, key: str, node: Node, local: str | None, default: Node | None) -> None:
        self.key = key
        self.node = node  # the destructuring element (findings point here)
        self.local = local  # the name it binds, None for a nested pattern
        self.default = default


class InputParam(Record):
    __slots__ = ("node", "name", "keys")
    _compared = __slots__

    def __init__(self, node: Node, name: str | None, keys: dict[str, InputKey] | None = None) -> None:
        self.node = node  # the parameter as written
        self.name = name  # ``input`` in ``execute(input)``
        self.keys = {} if keys is None else keys


class OptionsParam(Record):
    __slots__ = ("node", "pattern", "name")
    _compared = __slots__

    def __init__(self, node: Node, pattern: Node, name: str | None) -> None:
        self.node = node  # the parameter as written (TypeScript types and defaults included)
        self.pattern = pattern  # the identifier or object pattern inside it
        self.name = name  # a bare identifier: ``opts`` (or the misused ``signal``)


class Call:
    """A call or ``new`` expression that runs as part of execute.

    A plain class with slots: a model makes one per call. The receiver and the arguments are read on first
    use: most calls are never asked for them.
    """

    __slots__ = ("node", "name", "method", "root", "awaited", "_callee", "_receiver", "_arguments")

    def __init__(self, node: Node, name: str | None, method: str | None, callee: Node | None,
                 root: Node | None) -> None:
        self.node = node
        self.name = name  # dotted callee, globals stripped: "fetch", "cartService.getItems", "new Request"
        self.method = method  # the called property of a member callee
        self.root = root  # the callee's root identifier (``ExecuteModel.is_global`` resolves it)
        self.awaited = False
        self._callee = callee  # the member expression called, when ``method`` is set
        self._receiver: Node | None | bool = False  # False: not read yet
        self._arguments: list[Node] | None = None

    @property
    def receiver(self) -> Node | None:
        """The object whose method is called (``cartService`` in ``cartService.getItems()``)."""
        if self._receiver is False:
            callee = self._callee
            self._receiver = unwrap(leading_child(callee, "object")) if callee is not None else None
        return self._receiver

    @property
    def arguments(self) -> list[Node]:
        """Read from the call's last child (its arguments, whose children the walk has often made already);
        a ``new`` without parentheses, or a tagged template, is asked by field."""
        if self._arguments is None:
            last = trailing_child(self.node, "arguments")
            if last is not None and last.type == "arguments":
                self._arguments = listed_arguments(last)
            else:
                self._arguments = call_arguments(self.node)
        return self._arguments


class SignalApiCall(Record):
    """A call to an API that accepts an AbortSignal (apis.SIGNAL_APIS / SIGNAL_METHODS)."""

    __slots__ = ("call", "api", "options_index", "options", "status")
    _compared = __slots__

    def __init__(self, call: Call, api: str, options_index: int, options: Node | None, status: str) -> None:
        self.call = call
        self.api = api  # "fetch", "axios.post", "new Request", "addEventListener", "pipeTo"...
        self.options_index = options_index
        self.options = options  # the argument that holds (or should hold) the signal
        self.status = status  # "given" | "missing" | "unknown" (a non-literal options argument)


class Fetch(Record):
    """A request: fetch, axios, ky or ``new Request``, with its URL and HTTP method when static."""

    __slots__ = ("call", "api", "url", "init", "method")
    _compared = __slots__

    def __init__(self, call: Call, api: str, url: Node | None, init: Node | None, method: str | None) -> None:
        self.call = call
        self.api = api
        self.url = url
        self.init = init
        self.method = method  # upper case; None when not static


class Write(Record):
    """A write to persistent or remote state (apis.STORAGE_*, INDEXEDDB_*, WRITE_*)."""

    __slots__ = ("node", "kind", "description")
    _compared = __slots__

    def __init__(self, node: Node, kind: str, description: str) -> None:
        self.node = node
        self.kind = kind  # storage | indexeddb | http | beacon | cookie
        self.description = description


class Throw:
    """A throw statement in execute. Whether an abort check guards it is worked out on first use: a throw
    caught in its own function needs no climb to its guards."""

    __slots__ = ("node", "function", "throws_signal_reason", "caught_locally", "_model", "_abort_guarded")

    def __init__(self, model: ExecuteModel, node: Node, function: Node, throws_signal_reason: bool,
                 caught_locally: bool) -> None:
        self.node = node
        self.function = function
        self.throws_signal_reason = throws_signal_reason
        self.caught_locally = caught_locally  # inside a try block of the same function that has a catch clause
        self._model = model
        self._abort_guarded: bool | None = None

    @property
    def abort_guarded(self) -> bool:
        """Inside ``if (signal.aborted)``, or in a catch after an abort check."""
        if self._abort_guarded is None:
            self._abort_guarded = self._model.abort_guarded(self.node)
        return self._abort_guarded


class Reject(Record):
    """A rejection made in execute: ``return Promise.reject(...)`` or ``reject(...)`` of a Promise executor."""

    __slots__ = ("node", "form", "allowed")
    _compared = __slots__

    def __init__(self, node: Node, form: str, allowed: bool) -> None:
        self.node = node  # the call
        self.form = form  # "Promise.reject" | "reject"
        self.allowed = allowed  # rejects with signal.reason, in an abort listener, or abort-guarded


class Return(Record):
    __slots__ = ("node", "value", "function")
    _compared = __slots__

    def __init__(self, node: Node, value: Node | None, function: Node) -> None:
        self.node = node  # the return statement, or an arrow function's expression body
        self.value = value  # the returned expression as written
        self.function = function


class CatchClause:
    """A catch clause in execute. What its body does is worked out on first use: most rules stop at
    ``abortable_calls``."""

    __slots__ = ("node", "try_block", "parameter", "function", "abortable_calls", "_model", "_body")

    def __init__(self, model: ExecuteModel, node: Node, try_block: Node | None, parameter: str | None,
                 function: Node, abortable_calls: list[Call]) -> None:
        self.node = node
        self.try_block = try_block
        self.parameter = parameter
        self.function = function
        self.abortable_calls = abortable_calls  # calls in the try block given the signal (and throwIfAborted)
        self._model = model
        self._body: Node | None | bool = False  # False: not read yet

    @property
    def body(self) -> Node | None:
        if self._body is False:
            self._body = self.node.child_by_field_name("body")
        return self._body

    @property
    def checks_abort(self) -> bool:
        """signal.aborted / throwIfAborted / an "AbortError" name check in the catch."""
        return self.body is not None and self._model.checks_abort_within(self.body)

    @property
    def rethrows(self) -> bool:
        """A throw or a rejection in the catch body."""
        return self.body is not None and self._model._rethrow_positions.any_within(self.body)


class Loop(Record):
    __slots__ = ("node", "function", "polling", "awaits", "checks_abort", "passes_signal", "has_timer")
    _compared = __slots__

    def __init__(self, node: Node, function: Node, polling: bool, awaits: bool, checks_abort: bool,
                 passes_signal: bool, has_timer: bool) -> None:
        self.node = node
        self.function = function
        self.polling = polling  # while / do / for(;;), not for-of / for-in over a collection
        self.awaits = awaits  # its body awaits (in the same function)
        self.checks_abort = checks_abort
        self.passes_signal = passes_signal  # a call in it is given the signal
        self.has_timer = has_timer  # it starts a setTimeout/setInterval (a sleep the signal does not end)


# --------------------------------------------------------------------------- helpers


def dotted_name(node: Node | None) -> str | None:
    """``a.b.c`` for identifiers, ``this`` and member chains; None for anything computed."""
    parts: list[str] = []
    current = unwrap(node)
    while current is not None and len(parts) < 16:
        kind = current.type
        if kind in ("identifier", "this", "super"):
            parts.append(text(current))
            return ".".join(reversed(parts))
        if kind != "member_expression":
            return None
        parts.append(text(current.child_by_field_name("property")))
        current = unwrap(current.child_by_field_name("object"))
    return None


def callee_names(callee: Node | None, data: bytes) -> tuple[str | None, Node | None]:
    """``dotted_name`` and ``root_identifier`` of an unwrapped callee, in one pass down its member chain.

    ``data`` is the text the tree was parsed from. A chain written plainly (``cartService.items.get``) is read
    from its text (``scope.spelled``: one slice, its decoding shared per spelling), and its root is the first
    child of each member in turn (``child(0)``, as the walk reads it), instead of two field reads per member.
    """
    if callee is None:
        return None, None
    kind = callee.type
    if kind == "identifier":
        return spelled(data, callee), callee
    if kind == "member_expression" and not callee.has_error:
        written = spelled(data, callee)
        dots = written.count(".")
        if dots < MAX_CHAIN and PLAIN_CHAIN.fullmatch(written):
            root = callee
            for _ in range(dots):
                first = root.child(0)  # the object: a node without errors starts with its first child
                if first is None:
                    break
                root = first
            root_kind = root.type
            if root_kind in ("identifier", "this", "super"):
                return written, root if root_kind == "identifier" else None
    parts: list[str] = []
    current = callee
    while current is not None and current.type == "member_expression" and len(parts) < MAX_CHAIN:
        parts.append(text(current.child_by_field_name("property")))
        current = unwrap(current.child_by_field_name("object"))
    if current is None or len(parts) == MAX_CHAIN:
        return None, None
    if current.type in ("identifier", "this", "super"):
        parts.append(text(current))
        return ".".join(reversed(parts)), current if current.type == "identifier" else None
    return None, root_identifier(current, MAX_CHAIN - len(parts))


def leading_child(node: Node, field: str) -> Node | None:
    """The child in ``field`` when every form of the node starts with it (a call's function, a member expression's
    object, the left of ``a = b``): read from the node's list of children, which the walk has made for the
    nodes it kept, where ``child_by_field_name`` looks the field's name up each time.

    A node without errors starts with its first child (no comment leads a node); one with errors is asked
    by field, as an ERROR node may come first.
    """
    if node.has_error:
        return node.child_by_field_name(field)
    children = node.children
    return children[0] if children else None


def trailing_child(node: Node, field: str) -> Node | None:
    """The child in ``field`` when every form of the node ends with it (the right of ``a = b``, a pair's value),
    read as ``leading_child`` reads the first (no comment ends a node either). Not for nodes inside TypeScript
    types: in ``typeof a.b.c`` the ``property`` field tree-sitter reports is ``b``, not the last child."""
    if node.has_error:
        return node.child_by_field_name(field)
    children = node.children
    return children[-1] if children else None


def strip_global(name: str | None) -> str | None:
    """``window.fetch`` is ``fetch``."""
    if name is not None and name.startswith(GLOBAL_PREFIXES):
        return name[name.index(".") + 1:]  # each prefix ends at its first dot
    return name


def root_identifier(node: Node | None, limit: int = 16) -> Node | None:
    current = unwrap(node)
    for _ in range(limit):
        if current is None:
            return None
        kind = current.type
        if kind == "identifier":
            return current
        if kind not in ("member_expression", "call_expression", "subscript_expression"):
            return None
        child = "function" if kind == "call_expression" else "object"
        current = unwrap(current.child_by_field_name(child))
    return None


def parameters_of(function: Node) -> list[Node]:
    params = function.child_by_field_name("parameters")  # the usual form: no arrow has both fields
    if params is not None:
        return [child for child in params.named_children if child.type != "comment"]
    single = function.child_by_field_name("parameter")
    return [single] if single is not None else []


def parameter_pattern(parameter: Node) -> tuple[Node, Node | None]:
    """The pattern inside a parameter and its default: strips TypeScript wrappers and ``= default``."""
    node, default = parameter, None
    for _ in range(4):
        kind = node.type
        if kind in ("required_parameter", "optional_parameter"):
            inner = node.child_by_field_name("pattern")
            value = node.child_by_field_name("value")
            default = default or value
            if inner is None:
                break
            node = inner
        elif kind == "assignment_pattern":
            default = default or node.child_by_field_name("right")
            inner = node.child_by_field_name("left")
            if inner is None:
                break
            node = inner
        else:
            break
    return node, default


def function_head(function: Node) -> tuple[int, int]:
    """Byte range of a function's head: from its start through its parameters."""
    params = function.child_by_field_name("parameters") or function.child_by_field_name("parameter")
    end = params.end_byte if params is not None else function.start_byte
    return function.start_byte, max(end, function.start_byte)


def is_async(function: Node) -> bool:
    return any(child.type == "async" for child in function.children)


def object_keys(node: Node, data: bytes) -> tuple[set[str], bool]:
    """Static keys of an object literal of the file ``data`` holds, and whether a spread (or computed key) may add
    more."""
    keys: set[str] = set()
    open_ended = False
    for child in node.named_children:
        kind = child.type
        if kind == "pair":
            key = property_key(leading_child(child, "key"))
            if key is None:
                open_ended = True
            else:
                keys.add(key)
        elif kind == "shorthand_property_identifier":
            keys.add(spelled(data, child))
        elif kind == "method_definition":
            key_node = child.child_by_field_name("name")
            keys.add(property_key(key_node) if key_node is not None else "")
        elif kind == "spread_element":
            open_ended = True
    return keys, open_ended


def object_value(node: Node, key: str, data: bytes) -> Node | None:
    """The value node of ``key`` in an object literal of the file ``data`` holds (the shorthand identifier itself
    for ``{ key }``)."""
    for child in node.named_children:
        kind = child.type
        if kind == "pair" and property_key(leading_child(child, "key")) == key:
            return trailing_child(child, "value")
        if kind == "shorthand_property_identifier" and spelled(data, child) == key:
            return child
    return None


def spells_any(written: bytes, words: Iterable[bytes]) -> bool:
    """``written`` holds one of ``words``. Asked with ``find``: ``word in written`` on bytes first tries the word
    as an integer, and formats a TypeError it then drops, at every ask."""
    for word in words:
        if written.find(word) != -1:
            return True
    return False


def _first_named_child(node: Node) -> Node | None:
    children = node.named_children
    return children[0] if children else None


def contains(outer: Node, inner: Node) -> bool:
    return outer.start_byte <= inner.start_byte and inner.end_byte <= outer.end_byte


class _Positions:
    """Nodes sorted by start, to ask 'is one of them inside this range' with a bisect."""

    def __init__(self, nodes: list[Node]) -> None:
        self.nodes = sorted(nodes, key=START_BYTE)
        self.starts = [node.start_byte for node in self.nodes]

    def within(self, start: int, end: int) -> list[Node]:
        index = bisect.bisect_left(self.starts, start)
        found = []
        while index < len(self.nodes) and self.starts[index] < end:
            if self.nodes[index].end_byte <= end:
                found.append(self.nodes[index])
            index += 1
        return found

    def any_within(self, node: Node) -> bool:
        start, end = node.start_byte, node.end_byte
        index = bisect.bisect_left(self.starts, start)
        while index < len(self.nodes) and self.starts[index] < end:
            if self.nodes[index].end_byte <= end:
                return True
            index += 1
        return False


# --------------------------------------------------------------------------- the model


class ExecuteModel:
    """Facts about one execute function. Build with ``execute_of(tool)``.

    Its fixed attributes are slots, so the instance dictionary holds only the facts built on first use.
    """

    __slots__ = ("tool", "script", "source", "function", "is_async", "parameter_count", "_first_parameter",
                 "options", "signal_names", "options_names", "abort_listeners", "promise_executors",
                 "_walked_by_kind", "_owners", "_in_order", "_local_functions", "_included", "_identifiers", "_stepped_over",
                 "_unwalked", "_unwalked_body", "_signal_names_known", "calls", "_calls_by_id", "awaits",
                 "awaited_calls", "throw_if_aborted_calls", "signal_api_calls", "_signal_api_ids", "__dict__")

    def __init__(self, tool: ToolDefinition, script: Script, function: Node) -> None:
        self.tool = tool
        self.script = script
        self.source = script.source
        self.function = function
        self.is_async = is_async(function)
        params = parameters_of(function)
        self.parameter_count = len(params)
        self._first_parameter = params[0] if params else None
        self.options = _options_param(params[1], script.source.data) if len(params) > 1 else None
        self.signal_names: set[str] = set()
        self.options_names: set[str] = set()
        self._seed_signal_names()

        self.abort_listeners: set[int] = set()  # ids of functions that run when the signal aborts
        self.promise_executors: dict[int, str] = {}  # executor function id -> its reject parameter name
        # The nodes of each kind the walk keeps, in walk order; ``_kept`` sorts on first use.
        self._walked_by_kind: defaultdict[str, list[Node]] = defaultdict(list)
        self._owners: dict[int, Node] = {}  # node id -> the function whose walk kept it, for OWNED_KINDS
        self._in_order: set[str] = set()
        self._local_functions: dict[int, Node] = {}  # binding name node id -> function declared inside
        self._included: dict[int, Node] = {}  # the walked functions by id
        self._identifiers: list[Node] = []  # in walk order, to find the functions declared inside that run
        self._stepped_over: list[Node] = []  # functions and classes the walk did not go into where it met them
        # (classes never; a nested function that runs is walked later, from its body, so only its head stays out)
        self._unwalked: tuple[list[int], list[int]] | None = None
        self._unwalked_body: Node | None = None  # execute's body: what lies outside it is not walked
        self._walk()
        self._signal_names_known = False  # then mentions of the signal are looked up, not searched for
        self._find_signal_aliases()
        self._signal_names_known = True

        self.calls: list[Call] = []
        self._calls_by_id: dict[int, Call] = {}
        self._build_calls()
        self._find_roles()
        self.awaits: list[Node] = self._kept("await_expression")
        self._mark_awaited()
        self.awaited_calls = [call for call in self.calls if call.awaited]
        self.throw_if_aborted_calls = [call for call in self.calls if call.method == "throwIfAborted"]
        maybe_signal_apis = [call for call in self.calls
                             if call.name in SIGNAL_API_NAMES or call.method in SIGNAL_API_METHODS]
        self.signal_api_calls = [api for api in map(self._signal_api_call, maybe_signal_apis) if api is not None]
        self._signal_api_ids = {api.call.node.id for api in self.signal_api_calls}

    # The facts below are each built on first use: not every rule asks every tool for every one.

    @built_once
    def input(self) -> InputParam | None:
        return _input_param(self._first_parameter, self.source.data) if self._first_parameter is not None else None

    @built_once
    def abort_checks(self) -> list[Node]:
        return self._find_abort_checks()

    @built_once
    def returns(self) -> list[Return]:
        return self._returns()

    @built_once
    def fetches(self) -> list[Fetch]:
        return [fetch for fetch in map(self._fetch, self.signal_api_calls) if fetch is not None]

    @built_once
    def timers(self) -> list[Call]:
        return [call for call in self.calls if call.name in ("setTimeout", "setInterval") and self.is_global(call)]

    @built_once
    def throws(self) -> list[Throw]:
        return [self._throw(node, self._owner(node)) for node in self._kept("throw_statement")]

    @built_once
    def rejects(self) -> list[Reject]:
        return self._rejects()

    @built_once
    def catches(self) -> list[CatchClause]:
        return [self._catch(node, self._owner(node)) for node in self._kept("catch_clause")]

    @built_once
    def loops(self) -> list[Loop]:
        return [self._loop(node, self._owner(node)) for node in self._kept("loop")]

    @built_once
    def writes(self) -> list[Write]:
        return self._writes()

    @built_once
    def input_names(self) -> set[str]:
        return self._input_names()

    # Positions of what abort guards, catches and loops ask about, so each asks with a bisect, not a scan.

    @built_once
    def _abort_positions(self) -> _Positions:
        return _Positions(self.abort_checks)

    @built_once
    def _call_positions(self) -> _Positions:
        return _Positions([call.node for call in self.calls])

    def _abortable_within(self, start: int, end: int) -> list[Call]:
        """Calls between ``start`` and ``end`` given the signal (and throwIfAborted): only these are asked."""
        calls = (self._calls_by_id[node.id] for node in self._call_positions.within(start, end))
        return [call for call in calls if call.method == "throwIfAborted" or self.passes_signal(call)]

    @built_once
    def _rethrow_positions(self) -> _Positions:
        return _Positions([*self._kept("throw_statement"), *(reject.node for reject in self.rejects)])

    @built_once
    def _await_positions(self) -> _Positions:
        return _Positions(self.awaits)

    @built_once
    def _timer_positions(self) -> _Positions:
        return _Positions([timer.node for timer in self.timers])

    @built_once
    def _loops_by_id(self) -> dict[int, Loop]:
        return {loop.node.id: loop for loop in self.loops}

    @built_once
    def _try_blocks(self) -> list[tuple[int, int, int]]:
        return self._catching_try_blocks()

    # ---------------------------------------------------------------- signal names

    def _seed_signal_names(self) -> None:
        options = self.options
        if options is None:
            return
        if options.name is not None:  # a bare identifier
            self.options_names.add(options.name)
        elif options.pattern.type == "object_pattern":
            for child in options.pattern.named_children:
                local = _signal_local(child, self.source.data)
                if local is not None:
                    self.signal_names.add(local)

    def _find_signal_aliases(self) -> None:
        """``const { signal } = opts``, ``const s = opts.signal``, ``s = signal``, ``AbortSignal.any([signal])``."""
        bindings = [(node, "name", "value") for node in self._kept("variable_declarator")]
        bindings.extend((node, "left", "right") for node in self._kept("assignment_expression"))
        if not bindings:
            return
        # A declaration or assignment whose value aliases the signal spells a name (or AbortSignal) in its text,
        # found in the file's bytes where the node lies (no copy of them). The sets of names only grow.
        data = self.source.data
        signal_names, options_names = self.signal_names, self.options_names
        for _ in range(ALIAS_PASSES):
            before = known = len(signal_names) + len(options_names)
            words = self._signal_words() + (b"AbortSignal",)
            for node, target, value in bindings:
                start, end = node.start_byte, node.end_byte
                if not any(data.find(word, start, end) != -1 for word in words):
                    continue
                self._alias(node.child_by_field_name(target), node.child_by_field_name(value))
                now = len(signal_names) + len(options_names)
                if now != known:  # a new name: the texts to look at spell it too
                    known, words = now, self._signal_words() + (b"AbortSignal",)
            if known == before:
                break

    def _alias(self, target: Node | None, value: Node | None) -> None:
        value = unwrap(value)
        if target is None or value is None:
            return
        data = self.source.data
        if target.type == "identifier":
            name = spelled(data, target)
            if value.type == "identifier" and spelled(data, value) in self.options_names:
                self.options_names.add(name)
            elif self.is_signal(value) or (dotted_name(value.child_by_field_name("function")) == "AbortSignal.any"
                                           and self.mentions_signal(value)):
                self.signal_names.add(name)
        elif target.type == "object_pattern" and value.type == "identifier" \
                and spelled(data, value) in self.options_names:
            for child in target.named_children:
                local = _signal_local(child, data)
                if local is not None:
                    self.signal_names.add(local)

    @property
    def signal_in_scope(self) -> bool:
        return bool(self.signal_names or self.options_names)

    @property
    def signal_identifier(self) -> str | None:
        """A plain name holding the run's signal (``signal``, or ``s`` from ``{ signal: s }``)."""
        if "signal" in self.signal_names:
            return "signal"
        return min(self.signal_names) if self.signal_names else None

    @property
    def signal_expression(self) -> str:
        """How code in execute reaches the signal: ``signal``, ``s``, or ``opts.signal``."""
        if self.signal_identifier is not None:
            return self.signal_identifier
        if self.options_names:
            return f"{min(self.options_names)}.signal"
        return "signal"

    def is_signal(self, node: Node | None) -> bool:
        """``node`` (in execute) is the run's signal: a signal name, the misused options name, or ``x.signal``."""
        node = unwrap(node)
        if node is None:
            return False
        kind = node.type
        if kind == "identifier":
            name = spelled(self.source.data, node)
            return name in self.signal_names or name in self.options_names or name == "signal"
        return kind == "member_expression" and member_name(node) == "signal"

    def _signal_words(self) -> tuple[bytes, ...]:
        """The texts a mention of the signal is written with: a node whose text has none of them mentions none."""
        return tuple(name.encode() for name in self.signal_names | self.options_names | {"signal"})

    @built_once
    def _signal_mentions(self) -> _Positions:
        """Every walked token that names the signal, once its names are all known: mentions are then a bisect.

        Looks only where execute's text spells a name, and maps each such place to its token.
        """
        body = self.function.child_by_field_name("body")  # the walk starts there
        if body is None:
            return _Positions([])
        names = {name.encode() for name in self.signal_names | self.options_names}
        data = self.script.source.data
        tokens = [token for word in self._signal_words() for token in spelled_nodes(body, data, word)
                  if _token_names_signal(token.type, word, names) and self._walked(token)]
        return _Positions(tokens)

    def _walked(self, node: Node) -> bool:
        """The walk reached ``node``: it is in execute's body and in none of the parts the walk left out."""
        if self._unwalked is None:
            self._unwalked = self._unwalked_spans()
            self._unwalked_body = self.function.child_by_field_name("body")
        body = self._unwalked_body
        if body is None or node.start_byte < body.start_byte or node.end_byte > body.end_byte:
            return False
        starts, ends = self._unwalked
        index = bisect.bisect_right(starts, node.start_byte) - 1
        return index < 0 or node.start_byte >= ends[index]

    def _unwalked_spans(self) -> tuple[list[int], list[int]]:
        """Byte spans the walk left out, in order: classes, nested functions that do not run, heads of those that do."""
        spans = []
        for node in self._stepped_over:
            body = node.child_by_field_name("body") if node.id in self._included else None
            spans.append((node.start_byte, body.start_byte if body is not None else node.end_byte))
        spans.sort()
        return [start for start, _ in spans], [end for _, end in spans]

    def mentions_signal(self, node: Node | None) -> bool:
        """``node`` passes the signal on: a signal or options name, a ``signal`` key, or ``x.signal``."""
        if node is None:
            return False
        if self._signal_names_known:
            return self._signal_mentions.any_within(node)
        written = self.source.data[node.start_byte:node.end_byte]
        if not spells_any(written, self._signal_words()):
            return False
        names = self.signal_names | self.options_names
        stack = [node]
        seen = 0
        while stack and seen < MENTION_LIMIT:
            current = stack.pop()
            seen += 1
            kind = current.type
            if kind in ("identifier", "shorthand_property_identifier"):
                if text(current) in names or (kind == "shorthand_property_identifier" and text(current) == "signal"):
                    return True
            elif kind == "property_identifier":
                if text(current) == "signal":
                    return True
            else:
                stack.extend(current.named_children)
        return False

    def passes_signal(self, call: Call) -> bool:
        """One of the call's arguments mentions the signal (asked of the arguments' list as a whole)."""
        arguments = call.node.child_by_field_name("arguments")
        return arguments is not None and self.mentions_signal(arguments)

    # ---------------------------------------------------------------- the walk

    def _walk(self) -> None:
        included = self._included
        queue = [self.function]
        checked_identifiers = 0
        while queue:
            function = queue.pop()
            if function.id in included:
                continue
            included[function.id] = function
            self._walk_function(function, queue)
            if queue or not self._local_functions:
                continue
            # Functions declared inside execute run only when it refers to them.
            identifiers = self._identifiers
            while checked_identifiers < len(identifiers):
                identifier = identifiers[checked_identifiers]
                checked_identifiers += 1
                declared = self._local_function(identifier)
                if declared is not None and declared.id not in included:
                    queue.append(declared)

    def _kept(self, kind: str) -> list[Node] | tuple[()]:
        """The nodes of ``kind`` the walk kept, in source order (sorted on first use).

        ``kind`` is a node kind, or "loop" for every kind of loop.
        """
        found = self._walked_by_kind.get(kind)
        if found is None:
            return ()
        if kind not in self._in_order:
            if len(found) > 1:
                found.sort(key=START_BYTE)
            self._in_order.add(kind)
        return found

    def _owner(self, node: Node) -> Node:
        """The function a kept node of OWNED_KINDS is written in: the one whose walk kept it (a walk steps over
        the functions nested in it), recorded then, as looking for the innermost function that holds the node
        would cost as many steps as there are walked functions, for each node."""
        return self._owners.get(node.id, self.function)

    def _walk_function(self, function: Node, queue: list[Node]) -> None:
        body = function.child_by_field_name("body")
        if body is None:
            return
        walked = self._walked_by_kind
        owners = self._owners
        if body.type != "statement_block":
            walked["return_statement"].append(body)  # an arrow's expression body is its return
            owners[body.id] = function
        actions = _walk_actions(self.script.language)
        identifiers = self._identifiers
        members = walked["member_expression"]
        stack = [body]
        pop, push, look_into = stack.pop, stack.append, stack.extend
        while stack:
            node = pop()
            try:
                action = actions[node.kind_id]
            except IndexError:  # an ERROR node: its kind id lies past the grammar's, and it is looked into
                action = None
            # Asked in the order they come most often: looked into, kept, identifiers, tokens, member expressions.
            if action is None:
                # Looked into. Most such nodes (a statement, a parenthesised expression, a lone argument) have one
                # named child, asked for alone: ``named_children`` first makes a node of every child, tokens too.
                if node.named_child_count == 1:
                    push(node.named_child(0))
                else:
                    look_into(node.named_children)
            elif action.__class__ is str:
                walked[action].append(node)
                if action in OWNED_KINDS:
                    owners[node.id] = function
                look_into(node.named_children)  # what reads a kept node later finds its children made
            elif action == _IDENTIFIER:
                identifiers.append(node)
            elif action == _TOKEN:
                continue
            elif action == _MEMBER:
                members.append(node)
                if node.has_error:
                    look_into(node.named_children)
                else:
                    push(node.child(0))  # the object (the rest is a dot and a property name), alone
            elif action == _FUNCTION:
                self._stepped_over.append(node)
                self._nested_function(node, queue)
            elif action == _CLASS:
                self._stepped_over.append(node)

    def _nested_function(self, node: Node, queue: list[Node]) -> None:
        parent = node.parent
        while parent is not None and parent.type == "parenthesized_expression":
            parent = parent.parent
        if parent is None:
            return
        if parent.type == "arguments" \
                or (parent.type == "call_expression" and unwrap(parent.child_by_field_name("function")) == node) \
                or (parent.type == "assignment_expression" and unwrap(parent.child_by_field_name("right")) == node
                    and getattr(unwrap(parent.child_by_field_name("left")), "type", None) == "member_expression"):
            queue.append(node)  # an inline callback, an IIFE, or a handler such as `img.onload = () => ...`
            return
        name = None
        if node.type in ("function_declaration", "generator_function_declaration"):
            name = node.child_by_field_name("name")
        elif parent.type == "variable_declarator" and unwrap(parent.child_by_field_name("value")) == node:
            name = parent.child_by_field_name("name")
        if name is not None and name.type == "identifier":
            self._local_functions[name.id] = node

    def _local_function(self, identifier: Node) -> Node | None:
        """The function declared inside execute that ``identifier`` refers to, if any."""
        if not self._local_functions:
            return None
        binding = self.script.scopes.resolve(identifier)
        if binding is None or binding.name_node.id == identifier.id:
            return None
        return self._local_functions.get(binding.name_node.id)

    def ancestors(self, node: Node) -> list[Node]:
        """The nodes that hold ``node``, its parent first: up to execute for a node inside it, else to the root."""
        return ancestors_under(self.function, node)

    def _function_of(self, node: Node) -> Node | None:
        return next((current for current in self.ancestors(node) if current.type in FUNCTION_KINDS), None)

    def runs_in(self, node: Node, function_ids: set[int]) -> bool:
        """``node`` is inside one of these functions (or a function nested in one)."""
        if not function_ids:
            return False
        for current in self.ancestors(node):
            if current.id in function_ids:
                return True
            if current.id == self.function.id:
                return False
        return False

    # ---------------------------------------------------------------- calls

    def _build_calls(self) -> None:
        calls, by_id = self.calls, self._calls_by_id
        for node in self._walked_by_kind.get("call_expression", ()):  # in walk order: sorted below
            call = by_id[node.id] = self._call(node)
            calls.append(call)
        for node in self._walked_by_kind.get("new_expression", ()):
            name, root = callee_names(unwrap(node.child_by_field_name("constructor")), self.source.data)
            call = by_id[node.id] = Call(node, f"new {strip_global(name)}" if name else None, None, None, root)
            calls.append(call)
        if len(calls) > 1:
            calls.sort(key=NODE_START)

    def _call(self, node: Node) -> Call:
        """A call expression's callee, named."""
        callee = unwrap(leading_child(node, "function"))
        name, root = callee_names(callee, self.source.data)
        dot = name.rfind(".") if name is not None else -1
        if name is not None and dot == -1:  # an identifier: a name without dots
            return Call(node, name, None, None, root)
        if 0 <= dot < len(name) - 1:  # a member chain: the method is its last name
            return Call(node, strip_global(name), name[dot + 1:], callee, root)
        if callee is None or callee.type != "member_expression":
            return Call(node, strip_global(name), None, None, root)
        prop = callee.child_by_field_name("property")
        method = text(prop) if prop is not None else None
        return Call(node, strip_global(name), method, callee if method is not None else None, root)

    def is_global(self, call: Call) -> bool:
        """The callee's root name is not declared in the file (or is an import).

        Asked only of the few names that need it: resolving walks up the tree.
        """
        if call.root is None:
            return False
        binding = self.script.scopes.resolve(call.root)
        return binding is None or binding.kind == "import"

    def calls_local_function(self, call: Call) -> bool:
        """The callee is a function declared inside execute (it sees the signal by closure)."""
        if not self._local_functions:
            return False  # none declared: the callee is not looked at
        callee = unwrap(call.node.child_by_field_name("function"))
        return callee is not None and callee.type == "identifier" and self._local_function(callee) is not None

    def _awaited_expressions(self) -> list[Node | None]:
        return [_first_named_child(await_node) for await_node in self.awaits]

    def _mark_awaited(self) -> None:
        for expression in self._awaited_expressions():
            for awaited in self._awaited_nodes(expression):
                call = self._calls_by_id.get(awaited.id)
                if call is not None:
                    call.awaited = True

    def _awaited_nodes(self, expression: Node | None) -> list[Node]:
        """The calls an await waits for: through ``.then/.catch/.finally`` chains and ``Promise.all([...])``."""
        node = self._chain_start(expression)
        call = self._calls_by_id.get(node.id) if node is not None else None
        if call is None:
            return []
        found = [call.node]
        if call.name in apis.INSTANT_CALLS and call.arguments:
            found.extend(self._combined_calls(call.arguments[0]))
        return found

    def _chain_start(self, expression: Node | None) -> Node | None:
        """What a ``.then/.catch/.finally`` chain starts from: ``fetch(u, { signal })`` in
        ``fetch(u, { signal }).then((r) => r.json())``, whose promise the chain settles with; ``expression``
        itself when it is no such chain. The walk kept every call and ``new`` of the await's function."""
        calls = self._calls_by_id
        node = unwrap(expression)
        call = calls.get(node.id) if node is not None else None
        for _ in range(16):
            if call is None or call.method not in ("then", "catch", "finally"):
                break
            node = unwrap(call.receiver)
            call = calls.get(node.id) if node is not None else None
        return node

    def _combined_calls(self, argument: Node) -> list[Node]:
        """Calls whose promises ``Promise.all`` combines: array elements, or what a ``.map`` callback returns,
        each through its ``.then/.catch/.finally`` chain as a direct await is."""
        argument = unwrap(argument)
        if argument is None:
            return []
        if argument.type == "array":
            combined = [self._chain_start(element) for element in argument.named_children]
        else:
            call = self._calls_by_id.get(argument.id)
            if call is None or call.method != "map" or not call.arguments:
                return []
            callback = unwrap(call.arguments[0])
            if callback is None or callback.type != "arrow_function":
                return []
            body = unwrap(callback.child_by_field_name("body"))
            if body is not None and body.type == "await_expression" and body.named_children:
                body = body.named_children[0]
            combined = [self._chain_start(body)]
        return [node for node in combined if node is not None and node.type in ("call_expression", "new_expression")]

    def is_instant(self, call: Call) -> bool:
        """Awaiting it is not work a signal could cancel: body readers, Promise combinators, ``new Promise``."""
        if call.node.type == "new_expression":
            return True
        if call.name in apis.INSTANT_CALLS or call.method in apis.UNCANCELLABLE_METHODS or self.is_body_reader(call):
            return True
        if call.name is not None and (call.name in apis.UNCANCELLABLE_CALLS
                                      or call.name.startswith(UNCANCELLABLE_PREFIXES)):
            return True
        if call.receiver is not None and (
                self._is_object_store(call.receiver) or self._shows(call.receiver, UNCANCELLABLE_OBJECT_EVIDENCE)
                or (call.method in apis.MEDIA_METHODS and self._shows(call.receiver, MEDIA_EVIDENCE))):
            return True  # IndexedDB requests, a Cache's methods and a media element's play() take no signal
        if call.name is not None:
            return False  # a named callee is not ``import``
        callee = call.node.child_by_field_name("function")
        return callee is not None and callee.type == "import"

    def awaits_work(self) -> bool:
        """Some await waits for more than an instant call (a body reader, ``Promise.resolve``, ``import()``)."""
        for expression in self._awaited_expressions():
            targets = [self._calls_by_id.get(node.id) for node in self._awaited_nodes(expression)]
            if not targets or any(call is None or call.node.type == "new_expression" or not self.is_instant(call)
                                  for call in targets):
                return True  # `await new Promise(...)` waits on a timer or an event: work too
        return False

    def is_body_reader(self, call: Call) -> bool:
        """``response.json()`` and friends, or ``reader.read()`` on a stream reader: they end with the request."""
        if call.method in apis.INSTANT_METHODS:
            return True
        if call.method != "read" or call.receiver is None:
            return False
        receiver = call.receiver
        if receiver.type == "identifier":
            binding = self.script.scopes.resolve(receiver)
            receiver = binding.init if binding is not None and binding.init is not None else receiver
        return "getReader(" in text(receiver)

    def _awaits_a_reader(self, await_node: Node) -> bool:
        argument = _first_named_child(await_node)
        targets = [self._calls_by_id.get(node.id) for node in self._awaited_nodes(argument)]
        return bool(targets) and all(call is not None and self.is_body_reader(call) for call in targets)

    def call_at(self, node: Node) -> Call | None:
        """The call or ``new`` expression ``node`` is, when the walk kept it."""
        return self._calls_by_id.get(node.id)

    def is_signal_api(self, call: Call) -> bool:
        return call.node.id in self._signal_api_ids

    # ---------------------------------------------------------------- roles of nested functions

    def _find_roles(self) -> None:
        """Abort listeners (``signal.addEventListener("abort", fn)``, ``signal.onabort = fn``) and Promise executors."""
        for call in self.calls:
            if call.method == "addEventListener" and self.is_signal(call.receiver) and len(call.arguments) >= 2 \
                    and _string(call.arguments[0]) == "abort":
                listener = self._function_value(call.arguments[1])
                if listener is not None:
                    self.abort_listeners.add(listener.id)
            elif call.name == "new Promise" and call.arguments:
                executor = self._function_value(call.arguments[0])
                params = parameters_of(executor) if executor is not None else []
                if len(params) >= 2:
                    pattern, _ = parameter_pattern(params[1])
                    if pattern.type == "identifier":
                        self.promise_executors[executor.id] = text(pattern)
        for node in self._kept("assignment_expression"):
            left = unwrap(node.child_by_field_name("left"))
            if left is not None and member_name(left) == "onabort" and self.is_signal(left.child_by_field_name("object")):
                listener = self._function_value(node.child_by_field_name("right"))
                if listener is not None:
                    self.abort_listeners.add(listener.id)

    def _function_value(self, node: Node | None) -> Node | None:
        node = unwrap(node)
        if node is None:
            return None
        if node.type in FUNCTION_KINDS:
            return node
        if node.type == "identifier":
            return self._local_function(node)
        return None

    # ---------------------------------------------------------------- abort checks and guards

    def _find_abort_checks(self) -> list[Node]:
        """``signal.aborted``, ``signal.throwIfAborted()``, and checks that a caught error is a cancellation:
        ``err.name === "AbortError"``, ``err.code === "ERR_CANCELED"``, ``axios.isCancel(err)``."""
        checks = [member for member in self._members_reading(b"aborted")
                  if self.is_signal(member.child_by_field_name("object"))]
        checks.extend(call.node for call in self.throw_if_aborted_calls)
        checks.extend(call.node for call in self.calls if call.name in apis.CANCELLATION_CHECK_CALLS)
        names = [name for name in apis.CANCELLATION_ERROR_STRINGS if self._may_hold_string(name)]
        if not names:
            return checks
        for node in self._kept("binary_expression"):
            operator = node.child_by_field_name("operator")
            if operator is not None and operator.type in EQUALITY_OPERATORS and any(
                    _string(node.child_by_field_name(side)) in names for side in ("left", "right")):
                checks.append(node)
        return checks

    def _members_reading(self, written: bytes) -> list[Node]:
        """The walked member expressions whose property is spelled ``written`` (``x.aborted``): of the member
        expressions the walk kept, those whose bytes end so (no node ends with a comment), then asked."""
        if not self._spells(written):
            return []
        data, size = self.source.data, len(written)
        return [member for member in self._kept("member_expression")
                if data[member.end_byte - size:member.end_byte] == written and _property_is(member, written)]

    def _may_hold_string(self, value: str) -> bool:
        """A string literal in execute may have this value: its text is there, or an escape could spell it."""
        return self._spells(value.encode()) or self._spells(b"\\")

    def _spells(self, written: bytes) -> bool:
        """Execute's text holds ``written`` (every node the walk keeps lies inside it)."""
        return self.source.data.find(written, self.function.start_byte, self.function.end_byte) != -1

    def checks_abort_within(self, node: Node) -> bool:
        return self._abort_positions.any_within(node)

    def abort_guarded(self, node: Node) -> bool:
        """``node`` runs only once the run was cancelled: in ``if (signal.aborted)``, or in a catch after a check."""
        if not self.abort_checks:
            return False
        child = node
        for current in self.ancestors(node):
            kind = current.type
            if kind in FUNCTION_KINDS:
                break
            if kind in ("if_statement", "ternary_expression"):
                condition = current.child_by_field_name("condition")
                if condition is not None and child != condition and self.checks_abort_within(condition):
                    checks = self._abort_positions.within(condition.start_byte, condition.end_byte)
                    negated = _negated_within(checks[0] if checks else condition, condition)
                    otherwise = child.type == "else_clause" or child == current.child_by_field_name("alternative")
                    if negated == otherwise:
                        return True
            elif kind == "catch_clause":
                body = current.child_by_field_name("body")
                if body is not None and any(check.start_byte < node.start_byte and _leads_to(check, node)
                                            for check in self._abort_positions.within(body.start_byte, body.end_byte)):
                    return True
            child = current
        return False

    def in_abort_listener(self, node: Node) -> bool:
        return self.runs_in(node, self.abort_listeners)

    def removed_on_abort(self, call: Call) -> bool:
        """An abort listener removes the listener this ``addEventListener`` call adds (same target, type and
        listener), so it does not outlive a cancelled run."""
        key = _listener_key(call)
        return key is not None and key in self._listeners_removed_on_abort

    @built_once
    def _listeners_removed_on_abort(self) -> set[tuple[str, str, str]]:
        return {key for key in (_listener_key(call) for call in self.calls
                                if call.method == "removeEventListener" and self.in_abort_listener(call.node))
                if key is not None}

    def loops_around(self, node: Node) -> list[Loop]:
        """Loops of execute that contain ``node``, innermost first."""
        if not self.loops:
            return []
        found = []
        for current in self.ancestors(node):
            if current.id == self.function.id:
                break
            loop = self._loops_by_id.get(current.id)
            if loop is not None:
                found.append(loop)
        return found

    # ---------------------------------------------------------------- signal APIs and requests

    def _signal_api_call(self, call: Call) -> SignalApiCall | None:
        api = self._signal_api(call)
        if api is None:
            return None
        if api in apis.SIGNAL_APIS:
            index, _ = apis.SIGNAL_APIS[api]
            if api == "axios" and call.arguments and getattr(unwrap(call.arguments[0]), "type", None) == "object":
                index = 0  # axios(config)
        else:
            index, _ = apis.SIGNAL_METHODS[api.rsplit(".", 1)[-1]]
        options = call.arguments[index] if len(call.arguments) > index else None
        return SignalApiCall(call, api, index, options, self._signal_status(call, api, options))

    def _signal_api(self, call: Call) -> str | None:
        name, method = call.name, call.method
        if name in apis.SIGNAL_APIS and self.is_global(call):
            return name
        if (method in CLIENT_METHODS or method in apis.SIGNAL_METHODS) and call.receiver is not None:
            creator = self._client_factory(call.receiver) if method in CLIENT_METHODS else None
            if creator is not None and f"{creator}.{method}" in apis.SIGNAL_APIS:
                return f"{creator}.{method}"  # an instance from axios.create() / ky.create()
            if method in apis.SIGNAL_METHODS:
                if method == "addEventListener" and self.is_signal(call.receiver):
                    return None  # a listener on the signal itself
                return method
        if name == "addEventListener" and self.is_global(call):
            return name
        return None

    def _client_factory(self, receiver: Node) -> str | None:
        """'axios' or 'ky' when ``receiver`` is bound to ``axios.create(...)`` / ``ky.create|extend(...)``."""
        if receiver.type != "identifier":
            return None
        binding = self.script.scopes.resolve(receiver)
        init = unwrap(binding.init) if binding is not None and binding.kind in ("const", "let", "var") else None
        if init is None or init.type != "call_expression" or binding.path:
            return None
        created = dotted_name(init.child_by_field_name("function"))
        if created in ("axios.create",):
            return "axios"
        if created in ("ky.create", "ky.extend"):
            return "ky"
        return None

    def _signal_status(self, call: Call, api: str, options: Node | None) -> str:
        options = unwrap(options)
        if options is None:
            if api == "fetch" and len(call.arguments) == 1 and self._is_request(call.arguments[0]):
                return "unknown"  # fetch(request): the Request carries its own signal
            return "missing"
        if options.type == "object":
            keys, open_ended = object_keys(options, self.source.data)
            if "signal" in keys:
                return "given"
            return "unknown" if open_ended else "missing"
        if options.type in ("true", "false", "null", "undefined") or text(options) == "undefined":
            return "missing"
        return "unknown"

    def _is_request(self, node: Node) -> bool:
        node = unwrap(node)
        if node is not None and node.type == "identifier":
            binding = self.script.scopes.resolve(node)
            node = unwrap(binding.init) if binding is not None and binding.kind == "const" and not binding.path else None
        return node is not None and node.type == "new_expression" \
            and dotted_name(node.child_by_field_name("constructor")) == "Request"

    def _fetch(self, api_call: SignalApiCall) -> Fetch | None:
        api = api_call.api
        if api not in apis.SIGNAL_APIS:
            return None
        call = api_call.call
        arguments = call.arguments
        url = arguments[0] if arguments else None
        init = api_call.options
        if api_call.options_index == 0:  # axios(config) / axios.request(config)
            config = unwrap(init)
            url = object_value(config, "url", self.source.data) if config is not None and config.type == "object" \
                else None
        method: str | None = api.rsplit(".", 1)[1].upper() if "." in api and not api.startswith("new ") else None
        if method in (None, "REQUEST"):
            method = self._init_method(init)
        return Fetch(call, api, url, init, method)

    def _init_method(self, init: Node | None) -> str | None:
        init = unwrap(init)
        if init is None:
            return "GET"
        if init.type != "object":
            return None
        value = object_value(init, "method", self.source.data)
        if value is None:
            return None if object_keys(init, self.source.data)[1] else "GET"
        method = self.script.evaluator.value(value)
        return method.upper() if isinstance(method, str) else None

    # ---------------------------------------------------------------- throws, rejections, returns

    def _throw(self, node: Node, owner: Node) -> Throw:
        thrown = node.named_children
        argument = unwrap(thrown[0]) if thrown else None
        reason = argument is not None and argument.type == "member_expression" and member_name(argument) == "reason" \
            and self.is_signal(argument.child_by_field_name("object"))
        return Throw(self, node, owner, reason, self._caught_locally(node, owner))

    def _catching_try_blocks(self) -> list[tuple[int, int, int]]:
        """(start, end, function id) of each try block that has a catch, from the catch clauses the walk kept."""
        blocks = []
        for node in self._kept("catch_clause"):
            statement = node.parent
            body = statement.child_by_field_name("body") if statement is not None \
                and statement.type == "try_statement" else None
            if body is not None:
                blocks.append((body.start_byte, body.end_byte, self._owner(node).id))
        return blocks

    def _caught_locally(self, node: Node, owner: Node) -> bool:
        """``node`` is in a try block with a catch, in the same function (no function between them)."""
        return any(start <= node.start_byte and node.end_byte <= end and function == owner.id
                   for start, end, function in self._try_blocks)

    def _rejects(self) -> list[Reject]:
        found: list[Reject] = []
        if not self.promise_executors and not self._spells(b"reject"):
            return found  # `Promise.reject` is spelled in execute's text
        promise_rejects = any(call.name == "Promise.reject" for call in self.calls)
        for ret in self.returns if promise_rejects else ():
            for value in value_branches(ret.value):
                call = self._calls_by_id.get(value.id)
                if call is None or call.name != "Promise.reject":
                    continue
                allowed = self.in_abort_listener(call.node) or self.abort_guarded(call.node) \
                    or self._rejects_with_reason(call)
                found.append(Reject(call.node, "Promise.reject", allowed))
        for call in self.calls if self.promise_executors else ():
            callee = unwrap(call.node.child_by_field_name("function"))
            if callee is None or callee.type != "identifier":
                continue
            binding = self.script.scopes.resolve(callee)
            if binding is None or binding.kind != "param":
                continue
            executor = self._function_of(binding.name_node)
            if executor is None or self.promise_executors.get(executor.id) != text(callee):
                continue
            allowed = self._rejects_with_reason(call) or self.in_abort_listener(call.node) \
                or self.abort_guarded(call.node)
            found.append(Reject(call.node, "reject", allowed))
        found.sort(key=NODE_START)
        return found

    def _rejects_with_reason(self, call: Call) -> bool:
        argument = unwrap(call.arguments[0]) if call.arguments else None
        return argument is not None and member_name(argument) == "reason" \
            and self.is_signal(argument.child_by_field_name("object"))

    def _returns(self) -> list[Return]:
        found = []
        for node in self._kept("return_statement"):
            owner = self._owner(node)
            if node.type == "return_statement":
                value = None
                for child in node.named_children:
                    if child.type != "comment":
                        value = child
                        break
                found.append(Return(node, value, owner))
            else:
                found.append(Return(node, node, owner))
        return found

    @built_once
    def execute_returns(self) -> list[Return]:
        """What execute itself returns (not what its callbacks return)."""
        function = self.function  # the walk gives every node of execute's own body this very object
        return [ret for ret in self.returns if ret.function is function]

    def returned_value(self, node: Node | None) -> tuple[Node | None, bool]:
        """The expression behind a returned value, through ``await`` and ``const`` bindings.

        The flag says it is the raw error bound by a catch clause.
        """
        node = unwrap(node)
        for _ in range(8):
            if node is None:
                return None, False
            kind = node.type
            if kind == "await_expression" and node.named_children:
                node = unwrap(node.named_children[0])
                continue
            if kind not in NAMING_KINDS:
                return node, False
            binding = self.script.scopes.resolve(node)
            if binding is None:
                return node, False
            if binding.kind == "catch" and not binding.path:
                return node, True
            if binding.kind == "function":
                return binding.declaration, False
            if binding.kind != "const" or binding.path or binding.init is None:
                return node, False
            node = unwrap(binding.init)
        return node, False

    # ---------------------------------------------------------------- catches and loops

    def _catch(self, node: Node, owner: Node) -> CatchClause:
        try_statement = node.parent
        try_block = try_statement.child_by_field_name("body") if try_statement is not None else None
        parameter = node.child_by_field_name("parameter")
        abortable = []
        if try_block is not None:
            abortable = self._abortable_within(try_block.start_byte, try_block.end_byte)
        return CatchClause(self, node, try_block, spelled(self.source.data, parameter)
                           if parameter is not None and parameter.type == "identifier" else None, owner, abortable)

    def _loop(self, node: Node, owner: Node) -> Loop:
        awaits = any(self._owner(await_node).id == owner.id and not self._awaits_a_reader(await_node)
                     for await_node in self._await_positions.within(node.start_byte, node.end_byte))
        passes_signal = any(call.method != "throwIfAborted"
                            for call in self._abortable_within(node.start_byte, node.end_byte))
        has_timer = self._timer_positions.any_within(node)
        return Loop(node, owner, node.type in POLLING_LOOP_KINDS, awaits, self.checks_abort_within(node),
                    passes_signal, has_timer)

    # ---------------------------------------------------------------- writes

    def _writes(self) -> list[Write]:
        found: list[Write] = []
        for call in self.calls:
            receiver = strip_global(dotted_name(call.receiver)) \
                if call.method in apis.STORAGE_WRITE_METHODS and call.receiver is not None else None
            if call.method in apis.STORAGE_WRITE_METHODS and receiver in apis.STORAGE_OBJECTS:
                found.append(Write(call.node, "storage", f"{receiver}.{call.method}()"))
            elif call.method in apis.INDEXEDDB_WRITE_METHODS and call.receiver is not None \
                    and self._is_object_store(call.receiver):
                found.append(Write(call.node, "indexeddb", f"IndexedDB {call.method}()"))
            elif call.name in apis.WRITE_CALLS:
                found.append(Write(call.node, "beacon", f"{call.name}()"))
            elif call.method == "open" and call.arguments and _string(call.arguments[0]) \
                    and _string(call.arguments[0]).upper() in apis.WRITE_HTTP_METHODS \
                    and self._constructed_by(call.receiver, "XMLHttpRequest"):
                found.append(Write(call.node, "http", f"XMLHttpRequest {_string(call.arguments[0]).upper()}"))
        for fetch in self.fetches:
            if fetch.method in apis.WRITE_HTTP_METHODS:
                found.append(Write(fetch.call.node, "http", f"{fetch.api}() with method {fetch.method}"))
        for node in self._kept("assignment_expression"):
            target = strip_global(dotted_name(node.child_by_field_name("left")))
            if target in apis.WRITE_ASSIGNMENTS:
                found.append(Write(node, "cookie", f"{target} ="))
        found.sort(key=NODE_START)
        return found

    def _is_object_store(self, receiver: Node) -> bool:
        """IndexedDB evidence: the receiver (or what its name is bound to) involves objectStore/openDB/indexedDB."""
        return self._shows(receiver, INDEXEDDB_EVIDENCE)

    def _shows(self, receiver: Node, evidence: tuple[bytes, ...]) -> bool:
        """The receiver, or what its name is bound to (a few bindings deep), spells one of the ``evidence`` words.

        The receiver and the bindings are the script's: their bytes are sliced from its text, so a file whose text
        spells no evidence holds none, told once per script before any name is resolved."""
        data = self.source.data
        if not self.script.once(("spells", evidence), lambda: spells_any(data, evidence)):
            return False
        current: Node | None = receiver
        for _ in range(4):
            if current is None:
                return False
            if spells_any(data[current.start_byte:current.end_byte], evidence):
                return True
            root = root_identifier(current)
            binding = self.script.scopes.resolve(root) if root is not None else None
            current = binding.init if binding is not None else None
        return False

    def _constructed_by(self, receiver: Node | None, constructor: str) -> bool:
        receiver = unwrap(receiver)
        if receiver is None or receiver.type != "identifier":
            return False
        binding = self.script.scopes.resolve(receiver)
        init = unwrap(binding.init) if binding is not None else None
        return init is not None and init.type == "new_expression" \
            and dotted_name(init.child_by_field_name("constructor")) == constructor

    # ---------------------------------------------------------------- input

    def _input_names(self) -> set[str]:
        """Names holding the input or a value read from it (``input``, ``query``, ``const n = input.limit``)."""
        names: set[str] = set()
        if self.input is not None:
            if self.input.name:
                names.add(self.input.name)
            names.update(key.local for key in self.input.keys.values() if key.local)
        if not names:
            return names
        declarators = self._kept("variable_declarator")
        for _ in range(ALIAS_PASSES):
            before = len(names)
            for declarator in declarators:
                target = leading_child(declarator, "name")
                value = declarator.child_by_field_name("value")
                if target is not None and _derived_from(value, names):
                    names.update(_pattern_locals(target, self.source.data))
            if len(names) == before:
                break
        return names

    @built_once
    def input_reads(self) -> dict[str, list[Node]]:
        """Where each input key is read: its destructuring element, ``input.key``, ``const { key } = input``."""
        reads: dict[str, list[Node]] = {}
        if self.input is None:
            return reads
        for key in self.input.keys.values():
            reads.setdefault(key.key, []).append(key.node)
        if self.input.name is None:
            return reads
        for node in (*self._kept("member_expression"), *self._kept("subscript_expression")):
            key = self.input_member_key(node)
            if key is not None:
                reads.setdefault(key, []).append(node)
        for declarator in self._kept("variable_declarator"):
            target = leading_child(declarator, "name")
            value = unwrap(declarator.child_by_field_name("value"))
            if target is not None and target.type == "object_pattern" and self._is_input(value):
                for key in _destructured_keys(target, self.source.data).values():
                    reads.setdefault(key.key, []).append(key.node)
        for nodes in reads.values():
            nodes.sort(key=START_BYTE)
        return reads

    @property
    def _input_named(self) -> bool:
        """The input is one name (``execute(input)``): only then can ``_is_input`` hold."""
        return self.input is not None and self.input.name is not None

    def _is_input(self, node: Node | None) -> bool:
        node = unwrap(node)
        return node is not None and node.type == "identifier" and self.input is not None \
            and self.input.name is not None and text(node) == self.input.name

    def input_member_key(self, node: Node | None) -> str | None:
        """``K`` when ``node`` is ``input.K`` / ``input?.K`` / ``input["K"]``."""
        node = unwrap(node)
        if node is None or not self._is_input(node.child_by_field_name("object")):
            return None
        if node.type == "member_expression":
            return member_name(node)
        if node.type == "subscript_expression":
            return _string(node.child_by_field_name("index"))
        return None

    def local_input_keys(self) -> dict[str, str]:
        """Local name -> input key: ``{ sort }`` in the parameter, ``const { sort } = input``, ``const s = input.sort``."""
        locals_: dict[str, str] = {}
        if self.input is None:
            return locals_
        locals_.update({key.local: key.key for key in self.input.keys.values() if key.local})
        for declarator in self._kept("variable_declarator") if self._input_named else ():
            target = leading_child(declarator, "name")
            value = unwrap(declarator.child_by_field_name("value"))
            if target is None or value is None:
                continue
            if target.type == "object_pattern" and self._is_input(value):
                keys = _destructured_keys(target, self.source.data)
                locals_.update({key.local: key.key for key in keys.values() if key.local})
            elif target.type == "identifier":
                key = self.input_member_key(value)
                if key is not None:
                    locals_[text(target)] = key
        return locals_

    @built_once
    def destructured_defaults(self) -> set[str]:
        """Input keys given a default where they are destructured: in the parameter, ``const { k = 1 } = input``."""
        keys: set[str] = set()
        if self.input is None:
            return keys
        keys.update(key.key for key in self.input.keys.values() if key.default is not None)
        for declarator in self._kept("variable_declarator") if self._input_named else ():
            target = leading_child(declarator, "name")
            if target is not None and target.type == "object_pattern" \
                    and self._is_input(declarator.child_by_field_name("value")):
                destructured = _destructured_keys(target, self.source.data)
                keys.update(key.key for key in destructured.values() if key.default is not None)
        return keys

    def keys_without_default(self, keys: list[str]) -> list[str]:
        """Those of ``keys`` execute gives no default; the destructuring defaults, cheap to read, are asked first."""
        missing = [key for key in keys if key not in self.destructured_defaults]
        if missing:
            applied = self.defaulted_input_keys()
            missing = [key for key in missing if key not in applied]
        return missing

    def defaulted_input_keys(self) -> set[str]:
        """Input keys execute gives a default: in a destructuring, by ``??``/``||``, or an undefined check."""
        keys = set(self.destructured_defaults)
        if self.input is None:
            return keys
        locals_ = self.local_input_keys()

        def key_of(node: Node | None) -> str | None:
            node = unwrap(node)
            if node is not None and node.type == "unary_expression" and text(node).startswith("typeof"):
                node = unwrap(node.child_by_field_name("argument"))
            if node is None:
                return None
            if node.type == "identifier":
                return locals_.get(text(node))
            return self.input_member_key(node)

        for node in self._kept("binary_expression"):
            operator = node.child_by_field_name("operator")
            left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
            op = operator.type if operator is not None else ""
            if op in ("??", "||"):
                key = key_of(left)
            elif op in EQUALITY_OPERATORS:
                key = None
                for side, other in ((left, right), (right, left)):
                    other = unwrap(other)
                    if other is not None and (other.type in ("undefined", "null") or text(other) == "undefined"
                                              or _string(other) == "undefined"):
                        key = key or key_of(side)
            elif op == "in" and self._is_input(right):
                key = _string(left)
            else:
                key = None
            if key is not None:
                keys.add(key)
        for node in self._kept("ternary_expression"):
            # `typeof r === "number" ? r : 5`: the key tested, kept in one branch, replaced in the other
            condition = node.child_by_field_name("condition")
            if condition is None:
                continue
            branches = [key_of(node.child_by_field_name(side)) for side in ("consequence", "alternative")]
            key = next((key for key in branches if key is not None), None)
            if key is not None and branches.count(key) == 1 and key in {key_of(name) for name in _names_in(condition)}:
                keys.add(key)
        for node in self._kept("augmented_assignment_expression"):
            operator = node.child_by_field_name("operator")
            if operator is not None and operator.type in ("??=", "||="):
                key = key_of(node.child_by_field_name("left"))
                if key is not None:
                    keys.add(key)
        for node in self._kept("assignment_expression"):
            # `if (!sort) sort = "newest";`: a value set under a condition on the same key
            key = key_of(node.child_by_field_name("left"))
            condition = _enclosing_if_condition(node)
            if key is not None and condition is not None and key in {key_of(name) for name in _names_in(condition)}:
                keys.add(key)
        return keys

    def merges_input_defaults(self) -> bool:
        """``{ ...DEFAULTS, ...input }`` or ``Object.assign({...}, input)``: every key may get a default."""
        if not self._input_named:
            return False
        for node in self._kept("object"):
            spreads = [child for child in node.named_children if child.type == "spread_element"]
            if len(node.named_children) > 1 and any(
                    self._is_input(spread.named_children[0] if spread.named_children else None) for spread in spreads):
                return True
        return any(call.name == "Object.assign" and any(map(self._is_input, call.arguments[1:]))
                   for call in self.calls)

    def reads_input(self) -> bool:
        """Execute reads its input somewhere: a key destructured in the parameter says so without building
        ``input_reads`` (where every key is read)."""
        if self.input is not None and self.input.keys:
            return True
        return bool(self.input_reads)

    def validates_input(self) -> bool:
        """Execute checks its input somewhere (WM408): a validator call, typeof, in, instanceof, a comparison
        (``switch (sort) { case "newest": ...`` compares too) or ``if (!query)`` on an input name, or either check on
        a lookup keyed by the input (``const f = MAP[sort]; if (!f) ...``). The checks that need no input names are
        asked first."""
        if any(_validates(call.name or "", call.method) for call in self.calls):
            return True
        negations: list[Node] = []  # `!x`: a check when x is the input, in an if's condition
        comparisons = [value for value in map(_switch_compared, self._kept("switch_statement")) if value is not None]
        for node in self._kept("unary_expression"):
            operator = node.child_by_field_name("operator")
            kind = operator.type if operator is not None else None
            if kind == "typeof":
                return True
            if kind == "!":
                negations.append(node)
        for node in self._kept("binary_expression"):
            operator = node.child_by_field_name("operator")
            kind = operator.type if operator is not None else ""
            if kind in ("in", "instanceof"):
                return True
            if kind in COMPARISON_OPERATORS:
                comparisons.append(node)
        if not negations and not comparisons:
            return False
        names = self.input_names | self._lookups_keyed_by(self.input_names)
        written_names = [name.encode() for name in names]
        data = self.source.data

        def mentions_input(node: Node) -> bool:
            written = data[node.start_byte:node.end_byte]  # a name it uses is spelled in its text
            return spells_any(written, written_names) \
                and mentions_names(node, names, MENTION_LIMIT, into_functions=False)

        return any(mentions_input(node) and _in_if_condition(node) for node in negations) \
            or any(map(mentions_input, comparisons))


    def _lookups_keyed_by(self, names: set[str]) -> set[str]:
        """Names given a lookup keyed by one of ``names`` (``const f = MAP[sort]``, ``const f = table.get(sort)``):
        checking such a name checks whether the key is known."""
        if not names:
            return set()
        found: set[str] = set()
        for declarator in self._kept("variable_declarator"):
            target = leading_child(declarator, "name")
            value = unwrap(declarator.child_by_field_name("value"))
            if target is None or target.type != "identifier" or value is None:
                continue
            if value.type == "subscript_expression":
                key = value.child_by_field_name("index")
            elif value.type == "call_expression" and member_name(unwrap(value.child_by_field_name("function"))) == "get":
                key = next(iter(call_arguments(value)), None)
            else:
                continue
            if key is not None and mentions_names(key, names, MENTION_LIMIT, into_functions=False):
                found.add(spelled(self.source.data, target))
        return found


# --------------------------------------------------------------------------- small pieces


def _listener_key(call: Call) -> tuple[str, str, str] | None:
    """Target, event type and listener of an add/removeEventListener call whose listener is a name (a function
    written in place cannot be removed), as written."""
    arguments = call.arguments
    if call.receiver is None or len(arguments) < 2:
        return None
    listener = unwrap(arguments[1])
    if listener is None or listener.type != "identifier":
        return None
    return text(call.receiver), text(arguments[0]), text(listener)


def _switch_compared(switch: Node) -> Node | None:
    """The value a switch compares with at least one ``case`` (a lone ``default`` compares nothing)."""
    body = switch.child_by_field_name("body")
    if body is None or not any(child.type == "switch_case" for child in body.named_children):
        return None
    return switch.child_by_field_name("value")


def _awaited(node: Node) -> list[Node | None] | None:
    return node.named_children[:1] or None


def _ternary_branches(node: Node) -> list[Node | None]:
    return [node.child_by_field_name("alternative"), node.child_by_field_name("consequence")]


def _logical_sides(node: Node) -> list[Node | None] | None:
    if text(node.child_by_field_name("operator")) in ("||", "??", "&&"):
        return [node.child_by_field_name("right"), node.child_by_field_name("left")]
    return None


# What a node of a branching kind may be instead of itself (None: it is a value of its own), last first.
_BRANCHES: dict[str, Callable[[Node], list[Node | None] | None]] = {
    "await_expression": _awaited, "ternary_expression": _ternary_branches, "binary_expression": _logical_sides}
BRANCHING_KINDS = TRANSPARENT_KINDS | _BRANCHES.keys()  # a value of any other kind is its only branch


def value_branches(value: Node | None) -> list[Node]:
    """The expressions a value may be: itself, through ``await``, both branches of ``?:``, the sides of ``||``/``??``."""
    if value is not None and value.type not in BRANCHING_KINDS:
        return [value]  # the usual case: a value that is just itself
    found: list[Node] = []
    stack = [value]
    while stack and len(found) < MENTION_LIMIT:
        node = unwrap(stack.pop())
        if node is None:
            continue
        branches_of = _BRANCHES.get(node.type)
        branches = branches_of(node) if branches_of is not None else None
        if branches is None:
            found.append(node)
        else:
            stack.extend(branches)
    return found


def _signal_local(element: Node, data: bytes) -> str | None:
    """The local name an options pattern element gives the signal: ``signal``, ``signal: s``, ``signal = x``."""
    kind = element.type
    if kind == "shorthand_property_identifier_pattern" and spelled(data, element) == "signal":
        return "signal"
    if kind == "object_assignment_pattern":
        left = leading_child(element, "left")
        if left is not None and spelled(data, left) == "signal":
            return "signal"
    if kind == "pair_pattern" and property_key(leading_child(element, "key")) == "signal":
        value, _ = parameter_pattern(trailing_child(element, "value"))
        if value.type == "identifier":
            return spelled(data, value)
    return None


def _property_is(member: Node, written: bytes) -> bool:
    """``member`` is a member expression whose property is written ``written`` (bytes: no decoding)."""
    prop = member.child_by_field_name("property")
    return prop is not None and prop.text == written


def _token_names_signal(kind: str, written: bytes, names: set[bytes]) -> bool:
    """A token written ``written`` mentions the signal: a signal or options name, or a ``signal`` key."""
    if kind == "identifier":
        return written in names
    if kind == "shorthand_property_identifier":
        return written in names or written == b"signal"
    return kind == "property_identifier" and written == b"signal"


def _destructured_keys(pattern: Node, data: bytes) -> dict[str, InputKey]:
    """The keys an object pattern of the file ``data`` holds destructures, each with its local name and default."""
    keys: dict[str, InputKey] = {}
    for child in pattern.named_children:
        kind = child.type
        if kind == "shorthand_property_identifier_pattern":
            name = spelled(data, child)
            keys[name] = InputKey(name, child, name, None)
        elif kind == "object_assignment_pattern":
            left = leading_child(child, "left")
            if left is not None:
                name = spelled(data, left)
                keys[name] = InputKey(name, child, name, trailing_child(child, "right"))
        elif kind == "pair_pattern":
            key = property_key(leading_child(child, "key"))
            value = trailing_child(child, "value")
            if key is None or value is None:
                continue
            local, default = parameter_pattern(value)
            keys[key] = InputKey(key, child, spelled(data, local) if local.type == "identifier" else None, default)
    return keys


def _input_param(parameter: Node, data: bytes) -> InputParam:
    pattern, _ = parameter_pattern(parameter)
    kind = pattern.type
    if kind == "identifier":
        return InputParam(parameter, spelled(data, pattern))
    if kind == "object_pattern":
        return InputParam(parameter, None, _destructured_keys(pattern, data))
    return InputParam(parameter, None)


def _options_param(parameter: Node, data: bytes) -> OptionsParam:
    pattern, _ = parameter_pattern(parameter)
    return OptionsParam(parameter, pattern, spelled(data, pattern) if pattern.type == "identifier" else None)


def _pattern_locals(pattern: Node, data: bytes) -> set[str]:
    if pattern.type == "identifier":
        return {spelled(data, pattern)}
    if pattern.type == "object_pattern":
        return {key.local for key in _destructured_keys(pattern, data).values() if key.local}
    if pattern.type == "array_pattern":
        return {spelled(data, child) for child in pattern.named_children if child.type == "identifier"}
    return set()


def _derived_from(value: Node | None, names: set[str]) -> bool:
    """``value`` is one of ``names`` or a plain reading of one: ``input.limit ?? 10``, ``Number(x)``, ``q.trim()``."""
    stack = [value]
    while stack:
        node = unwrap(stack.pop())
        if node is None:
            continue
        kind = node.type
        if kind == "identifier":
            if text(node) in names:
                return True
        elif kind in ("member_expression", "subscript_expression"):
            stack.append(node.child_by_field_name("object"))
        elif kind == "binary_expression":
            operator = node.child_by_field_name("operator")
            if operator is not None and operator.type in ("??", "||", "&&"):
                stack.extend((node.child_by_field_name("left"), node.child_by_field_name("right")))
        elif kind == "ternary_expression":
            stack.extend((node.child_by_field_name("consequence"), node.child_by_field_name("alternative")))
        elif kind == "call_expression":
            callee = unwrap(node.child_by_field_name("function"))
            if dotted_name(callee) in apis.COERCIONS:
                stack.extend(call_arguments(node)[:1])
            elif callee is not None and callee.type == "member_expression":
                stack.append(callee.child_by_field_name("object"))
    return False


def _string(node: Node | None) -> str | None:
    node = unwrap(node)
    if node is None or node.type not in ("string", "template_string"):
        return None
    return string_value(node)


def _leads_to(check: Node, node: Node) -> bool:
    """An abort check earlier in a catch guards ``node`` unless it is ``if (signal.aborted) ...`` that ``node`` is
    outside of, or in the branch taken when the run was NOT cancelled: ``if (signal.aborted) return x; throw err;``,
    ``if (!axios.isCancel(err)) throw err;``. Nor does ``signal.throwIfAborted()``: what follows it runs only when
    the run goes on."""
    if check.type == "call_expression" and member_name(unwrap(check.child_by_field_name("function"))) == "throwIfAborted":
        return False
    condition, statement = check, check.parent  # each .parent is worked out going down from the root
    while statement is not None and statement.type in (
            "parenthesized_expression", "binary_expression", "unary_expression", "member_expression"):
        condition, statement = statement, statement.parent
    if statement is None or statement.type != "if_statement" or statement.child_by_field_name("condition") != condition:
        return True
    negated = _negated_within(check, condition)
    if not contains(statement, node):
        return negated
    consequence = statement.child_by_field_name("consequence")
    return (consequence is not None and contains(consequence, node)) != negated


def _negated_within(check: Node, condition: Node) -> bool:
    """The abort check ``check`` holds when ``condition`` (which contains it) is false: it is negated by the `!`s on
    its way up to the condition (not by one on another operand, as in `!quiet && err.name === "AbortError"`), and
    by being an inequality itself (`err.name !== "AbortError"`)."""
    operator = check.child_by_field_name("operator") if check.type == "binary_expression" else None
    negated = operator is not None and operator.type in ("!==", "!=")
    current = check
    while current is not None and current != condition:
        current = current.parent
        if current is not None and current.type == "unary_expression":
            operator = current.child_by_field_name("operator")
            negated ^= operator is not None and operator.type == "!"
    return negated


def _enclosing_if_condition(node: Node) -> Node | None:
    """The condition of the nearest ``if`` whose branch holds ``node`` (within its function)."""
    child, current = node, node.parent
    while current is not None:
        kind = current.type
        if kind in FUNCTION_KINDS:
            break
        if kind == "if_statement":
            condition = current.child_by_field_name("condition")
            if condition != child:
                return condition
        child, current = current, current.parent
    return None


def _names_in(node: Node) -> list[Node]:
    """Identifiers and member expressions inside an expression (bounded)."""
    found: list[Node] = []
    stack = [node]
    while stack and len(found) < MENTION_LIMIT:
        current = stack.pop()
        kind = current.type
        if kind in ("identifier", "member_expression", "subscript_expression"):
            found.append(current)
        if kind not in FUNCTION_KINDS:
            stack.extend(current.named_children)
    return found


def _in_if_condition(node: Node) -> bool:
    child, current = node, node.parent
    for _ in range(8):
        if current is None:
            return False
        kind = current.type
        if kind in FUNCTION_KINDS:
            return False
        if kind == "if_statement":
            return current.child_by_field_name("condition") == child
        child, current = current, current.parent
    return False


@lru_cache(maxsize=4096)
def _validates(name: str, method: str | None) -> bool:
    """Whether a call named so checks a value: memoised, as the same few names come back in every execute."""
    if name in apis.VALIDATION_CALLS or method in apis.VALIDATION_METHODS:
        return name not in apis.NOT_VALIDATION_CALLS
    last = method or name
    if name in apis.NOT_VALIDATION_CALLS or not last or not last.startswith(apis.VALIDATION_PREFIXES):
        return False
    for prefix in apis.VALIDATION_PREFIXES:
        rest = last[len(prefix):]
        if last.startswith(prefix) and (not rest or rest[0].isupper() or rest[0] == "_"):
            return True
    return False


# --------------------------------------------------------------------------- entry point

def execute_function(tool: ToolDefinition) -> Node | None:
    """The function node of a tool's ``execute``: a method, a function or arrow, or a name bound to one."""
    prop = tool.prop("execute")
    if prop is None:
        return None
    if isinstance(prop.value, JSFunction):
        return prop.value.node
    node = unwrap(prop.value_node)
    return node if node is not None and node.type in FUNCTION_KINDS else None


def _script_holding(node: Node, tool: ToolDefinition, project: Project | None) -> Script | None:
    """The script whose tree ``node`` is in: the tool's own, a file of the project, or a module only imported
    (``{ ...importedTool, name }`` takes its execute from a module no tool of the project lives in)."""
    script = tool.script
    if script is not None and (_made_by_evaluator_of(tool, script) or script.holds(node)):
        return script  # the usual case, told without climbing to the root (``.parent`` is not cheap)
    root = node
    while root.parent is not None:
        root = root.parent
    if project is None:
        return None
    candidates = chain((script for analysis in project.files for script in analysis.scripts),
                       project.index.parsed_scripts() if project.index is not None else ())
    return next((script for script in candidates if script is not None and script.tree.root_node == root), None)


def _made_by_evaluator_of(tool: ToolDefinition, script: Script) -> bool:
    """execute is a function value the script's own evaluator made, so its node is in the script's tree (a
    JSFunction's owner is the evaluator of the file it is written in): told without a look down from the root."""
    prop = tool.prop("execute")
    value = prop.value if prop is not None else None
    return isinstance(value, JSFunction) and value.owner is script.evaluator


def _build_execute_model(tool: ToolDefinition, project: Project | None = None) -> ExecuteModel | None:
    function = execute_function(tool)
    script = _script_holding(function, tool, project) if function is not None else None
    return ExecuteModel(tool, script, function) if script is not None else None


# The execute model of a tool (None when execute is not a function found statically), built once per tool.
execute_of = per_object(_build_execute_model)

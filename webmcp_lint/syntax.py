"""Small questions about tree-sitter nodes that extractors and rules share."""

from __future__ import annotations

from typing import Iterable, Iterator

from tree_sitter import Node

from webmcp_lint.evaluate import TRANSPARENT_KINDS
from webmcp_lint.scope import FUNCTION_KINDS, ScopeIndex

GLOBAL_OBJECTS = frozenset({"window", "globalThis", "self"})
# Bytes a call starts with when its callee is wrapped (``(mc).registerTool``, ``(<any>mc).registerTool``): the
# extractors that pick calls by the bytes they start with keep these calls too.
WRAPPED_CALLEE_STARTS = frozenset(b"(<")


def text(node: Node | None) -> str:
    return "" if node is None else node.text.decode("utf-8", "replace")  # positional: 115 -> 76 ns a decode, 17k a run


def unwrap(node: Node | None) -> Node | None:
    """Strip parentheses, TypeScript casts and non-null assertions."""
    while node is not None and node.type in TRANSPARENT_KINDS:
        if node.type == "parenthesized_expression":
            node = next((child for child in node.named_children if child.type != "comment"), None)
        elif node.type == "type_assertion":  # `<T>expr`: the type comes first
            node = node.named_children[-1] if node.named_children else None
        else:
            node = node.child_by_field_name("expression") or (node.named_children[0] if node.named_children else None)
    return node


def spelled_nodes(within: Node, data: bytes, spelling: bytes, *, keywords: bool = False,
                  until: int | None = None) -> list[Node]:
    """The named nodes under ``within`` whose text is exactly ``spelling``, in document order; with ``keywords``,
    anonymous ones too (``return``, an operator); ``until`` ends the search at that byte.

    ``data`` is the text the tree was parsed from. Found by searching the bytes and asking the tree
    what stands at each match: a few lookups instead of visiting every node of a kind.
    """
    if not spelling:  # a name tree-sitter inserted for a missing one (`const { a: } = b`) spells nothing
        return []
    stop = within.end_byte if until is None else until
    standing_at = within.descendant_for_byte_range if keywords else within.named_descendant_for_byte_range
    found = []
    start = data.find(spelling, within.start_byte, stop)
    while start != -1:
        end = start + len(spelling)
        node = standing_at(start, end)
        if node is not None and node.byte_range == (start, end):
            found.append(node)
        start = data.find(spelling, end, stop)
    return found


def is_global_name(node: Node | None, name: str, scopes: ScopeIndex) -> bool:
    """``node`` is the global ``name`` (``document``, ``window.document``, ``globalThis.navigator``...)."""
    node = unwrap(node)
    if node is None:
        return False
    if node.type == "identifier":
        return text(node) == name and scopes.is_global(node)
    if node.type == "member_expression":
        property_node = node.child_by_field_name("property")
        obj = unwrap(node.child_by_field_name("object"))
        if text(property_node) != name or obj is None or obj.type != "identifier":
            return False
        return text(obj) in GLOBAL_OBJECTS and scopes.is_global(obj)
    return False


def member_name(node: Node) -> str | None:
    """The property name of a member expression (``a.b`` or ``a?.b``)."""
    if node.type != "member_expression":
        return None
    property_node = node.child_by_field_name("property")
    return text(property_node) if property_node is not None else None


def reads_property(node: Node, name: bytes) -> bool:
    """``node`` is ``a.<name>`` or ``a?.<name>``; the bytes are compared, not decoded (callers ask it of every call)."""
    if node.type != "member_expression":
        return False
    property_node = node.child_by_field_name("property")
    return property_node is not None and property_node.text == name


def is_optional_member(node: Node) -> bool:
    return node.type == "member_expression" and node.child_by_field_name("optional_chain") is not None


def call_arguments(call: Node) -> list[Node]:
    arguments = call.child_by_field_name("arguments")
    return [] if arguments is None else listed_arguments(arguments)


def listed_arguments(arguments: Node) -> list[Node]:
    """The expressions a call's arguments node lists, without the comments between them."""
    return [child for child in arguments.named_children if child.type != "comment"]


def enclosing_function(node: Node) -> Node | None:
    current = node.parent
    while current is not None:
        if current.type in FUNCTION_KINDS:
            return current
        current = current.parent
    return None


def ancestors(node: Node) -> Iterator[Node]:
    current = node.parent
    while current is not None:
        yield current
        current = current.parent


def ancestors_under(top: Node, node: Node) -> list[Node]:
    """``node``'s ancestors, nearest first, up to ``top`` when ``node`` lies under it; otherwise (``node`` is ``top``
    or outside it) all of them.

    Found going down from ``top`` one child a level: tree-sitter works out each ``.parent`` going down from the
    root, so climbing from a node costs a descent from the root at every level.
    """
    path: list[Node] = []
    current: Node | None = top
    target = node.id
    while current is not None and current.id != target:
        path.append(current)
        current = current.child_with_descendant(node)
    if current is not None and path:
        path.reverse()
        return path
    return list(ancestors(node))


def first_error(root: Node) -> Node | None:
    """The first ERROR or MISSING node, found by descending only into subtrees that have one."""
    if not root.has_error:
        return None
    node = root
    while True:
        if node.is_error or node.is_missing:
            return node
        child = next((child for child in node.children if child.has_error or child.is_missing), None)
        if child is None:
            return node
        node = child


def mentions_names(node: Node, names: set[str], limit: int, *, into_functions: bool) -> bool:
    """``node`` uses one of ``names`` (an identifier or ``{ name }`` shorthand), looking at ``limit`` nodes at most.

    ``into_functions``: a name used inside a nested function counts too (a callback that reads it).
    """
    if not names:
        return False
    stack = [node]
    seen = 0
    while stack and seen < limit:
        current = stack.pop()
        seen += 1
        if current.type in ("identifier", "shorthand_property_identifier"):
            if text(current) in names:
                return True
        elif into_functions or current.type not in FUNCTION_KINDS:
            stack.extend(current.named_children)
    return False


class Worklist:
    """The nodes a walk still has to look at, when it also follows references (a name to its initialiser).

    Each node is handed out once, and at most ``limit`` are taken off the list (repeats included), so a
    cycle of references or a huge expression ends the walk.
    """

    def __init__(self, start: Node, limit: int) -> None:
        self._pending = [start]
        self._handed_out: set[int] = set()
        self._left = limit

    def append(self, node: Node) -> None:
        self._pending.append(node)

    def extend(self, nodes: Iterable[Node]) -> None:
        self._pending.extend(nodes)

    def __iter__(self) -> Iterator[Node]:
        while self._pending and self._left > 0:
            node = self._pending.pop()
            self._left -= 1
            if node.id not in self._handed_out:
                self._handed_out.add(node.id)
                yield node

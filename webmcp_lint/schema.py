"""A walk over the static JSON Schema of a tool (``inputSchema``, ``outputSchema``).

Rules that look at schemas (shape, descriptions, security) share this walk
so that they agree on what a nested schema is. The walk is iterative and
bounded, so a deeply nested schema cannot exhaust Python's recursion limit.
"""

from __future__ import annotations

from tree_sitter import Node

from webmcp_lint.evaluate import JSArray, JSObject, Value
from webmcp_lint.memo import per_object

MAX_SCHEMAS = 5000

# Keywords whose value is one schema, a map of name -> schema, or a list of schemas.
SINGLE_SCHEMA_KEYWORDS = frozenset({"items", "additionalProperties", "not", "if", "then", "else", "contains",
                                    "propertyNames", "unevaluatedProperties", "unevaluatedItems", "additionalItems"})
SCHEMA_MAP_KEYWORDS = frozenset({"properties", "patternProperties", "$defs", "definitions", "dependentSchemas"})
SCHEMA_LIST_KEYWORDS = frozenset({"allOf", "anyOf", "oneOf", "prefixItems", "items"})
SUBSCHEMA_KEYWORDS = SINGLE_SCHEMA_KEYWORDS | SCHEMA_MAP_KEYWORDS | SCHEMA_LIST_KEYWORDS


class SchemaEntry:
    """One schema object inside a tool's schema.

    ``path`` is the chain of keys from the root (``("properties", "city")``);
    ``node`` is the schema's value node; ``key_node`` the key it hangs from
    (the property name for ``properties``), None for the root and list items.
    ``object_depth`` counts the object schemas from the root down to this one;
    ``keyword`` is the keyword it hangs from (``properties``, ``items``, ``anyOf``...), None for the root.
    ``is_object``: the schema is an object's (``type: "object"``, or it has ``properties``).
    A plain class with slots: a walk makes one per schema, and the rules read them often.
    """

    __slots__ = ("path", "schema", "node", "key_node", "object_depth", "keyword", "is_object")

    def __init__(self, path: tuple[str | int, ...], schema: JSObject, node: Node | None, key_node: Node | None,
                 parent_depth: int, keyword: str | None) -> None:
        self.path = path
        self.schema = schema
        self.node = node
        self.key_node = key_node
        self.keyword = keyword
        # An object's schema: ``type: "object"`` (or a list of types holding it), or ``properties``. Read here, not
        # in a function of its own: a walk makes one entry per schema.
        keywords = schema.props
        declared = keywords.get("type")
        kind = declared.value if declared is not None else None
        if kind == "object" or (isinstance(kind, JSArray) and "object" in kind.values):
            is_object = True
        else:
            properties = keywords.get("properties")
            is_object = properties is not None and isinstance(properties.value, JSObject)
        self.is_object = is_object
        self.object_depth = parent_depth + 1 if is_object else parent_depth

    @property
    def property_name(self) -> str | None:
        """The name of the property this schema describes, when it is one."""
        if len(self.path) >= 2 and self.path[-2] == "properties" and isinstance(self.path[-1], str):
            return self.path[-1]
        return None

    def at(self, node: Node | None) -> SchemaEntry:
        """The same entry, shown at another node."""
        moved = SchemaEntry(self.path, self.schema, node, self.key_node, 0, self.keyword)
        moved.object_depth = self.object_depth
        return moved


def walk_schema(root: Value, root_node: Node | None = None) -> tuple[SchemaEntry, ...]:
    """Every static schema object under ``root`` (itself first), depth first, in source order.
    ``root_node`` is the root entry's node when it is not the object itself (a ``const`` name)."""
    if not isinstance(root, JSObject):
        return ()
    entries = _schema_entries(root)
    if root_node is not None and root_node != entries[0].node:
        return (entries[0].at(root_node),) + entries[1:]
    return entries


def _walk(root: JSObject) -> tuple[SchemaEntry, ...]:
    found = []
    stack = [SchemaEntry((), root, root.node, None, 0, None)]
    seen: set[int] = set()
    while stack and len(found) < MAX_SCHEMAS:
        entry = stack.pop()
        identity = id(entry.schema)
        if identity in seen:  # the same object reached twice through const references
            continue
        seen.add(identity)
        found.append(entry)
        if not SUBSCHEMA_KEYWORDS.isdisjoint(entry.schema.props):  # most schemas are leaves
            stack.extend(reversed(_children(entry)))
    return tuple(found)


_schema_entries = per_object(_walk)  # walked once per schema: WM204, WM210 and the parameter rules all read it


def _children(entry: SchemaEntry) -> list[SchemaEntry]:
    found = []
    path, depth = entry.path, entry.object_depth
    for key, prop in entry.schema.props.items():
        if key not in SUBSCHEMA_KEYWORDS:
            continue
        value = prop.value
        if key in SCHEMA_MAP_KEYWORDS and isinstance(value, JSObject):
            for name, child in value.props.items():
                if isinstance(child.value, JSObject):
                    found.append(SchemaEntry(path + (key, name), child.value, child.value_node or child.value.node,
                                             child.key_node, depth, key))
        elif key in SINGLE_SCHEMA_KEYWORDS and isinstance(value, JSObject):
            found.append(SchemaEntry(path + (key,), value, prop.value_node or value.node, prop.key_node, depth, key))
        elif key in SCHEMA_LIST_KEYWORDS and isinstance(value, JSArray):
            for index, item in enumerate(value.items):
                if isinstance(item.value, JSObject):
                    found.append(SchemaEntry(path + (key, index), item.value, item.node or item.value.node, None,
                                             depth, key))
    return found

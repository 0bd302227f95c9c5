"""A walk over the static JSON Schema of a tool (``inputSchema``, ``outputSchema``).

Rules that look at schemas (shape, descriptions, security) share this walk
so that they agree on what a nested schema is. The walk is iterative and
bounded, so a deeply nested schema cannot exhaust Python's recursion limit.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from tree_sitter import Node

from webmcp_lint.evaluate import JSArray, JSObject, Value
from webmcp_lint.memo import PerObject

MAX_SCHEMAS = 5000

# Keywords whose value is one schema, a map of name -> schema, or a list of schemas.
SINGLE_SCHEMA_KEYWORDS = frozenset({"items", "additionalProperties", "not", "if", "then", "else", "contains",
                                    "propertyNames", "unevaluatedProperties", "unevaluatedItems", "additionalItems"})
SCHEMA_MAP_KEYWORDS = frozenset({"properties", "patternProperties", "$defs", "definitions", "dependentSchemas"})
SCHEMA_LIST_KEYWORDS = frozenset({"allOf", "anyOf", "oneOf", "prefixItems", "items"})
SUBSCHEMA_KEYWORDS = SINGLE_SCHEMA_KEYWORDS | SCHEMA_MAP_KEYWORDS | SCHEMA_LIST_KEYWORDS


@dataclass(slots=True)
class SchemaEntry:
    """One schema object inside a tool's schema.

    ``path`` is the chain of keys from the root (``("properties", "city")``);
    ``node`` is the schema's value node; ``key_node`` the key it hangs from
    (the property name for ``properties``), None for the root and list items.
    ``object_depth`` counts the object schemas from the root down to this one;
    ``keyword`` is the keyword it hangs from (``properties``, ``items``, ``anyOf``...), None for the root.
    """

    path: tuple[str | int, ...]
    schema: JSObject
    node: Node | None
    key_node: Node | None
    object_depth: int
    keyword: str | None = None

    @property
    def property_name(self) -> str | None:
        """The name of the property this schema describes, when it is one."""
        if len(self.path) >= 2 and self.path[-2] == "properties" and isinstance(self.path[-1], str):
            return self.path[-1]
        return None

    @property
    def is_object(self) -> bool:
        kind = self.schema.get("type")
        return kind == "object" or (isinstance(kind, JSArray) and "object" in kind.values) \
            or isinstance(self.schema.get("properties"), JSObject)


def walk_schema(root: Value, root_node: Node | None = None) -> tuple[SchemaEntry, ...]:
    """Every static schema object under ``root`` (itself first), depth first, in source order.
    ``root_node`` is the root entry's node when it is not the object itself (a ``const`` name)."""
    if not isinstance(root, JSObject):
        return ()
    entries = _schema_entries(root)
    if root_node is not None and root_node != entries[0].node:
        return (replace(entries[0], node=root_node),) + entries[1:]
    return entries


def _walk(root: JSObject) -> tuple[SchemaEntry, ...]:
    first = SchemaEntry((), root, root.node, None, 0)
    first.object_depth = 1 if first.is_object else 0
    found = []
    stack = [first]
    seen: set[int] = set()
    while stack and len(found) < MAX_SCHEMAS:
        entry = stack.pop()
        if id(entry.schema) in seen:  # the same object reached twice through const references
            continue
        seen.add(id(entry.schema))
        found.append(entry)
        stack.extend(reversed(_children(entry)))
    return tuple(found)


_schema_entries = PerObject(_walk)  # walked once per schema: WM204, WM210 and the parameter rules all read it


def _children(entry: SchemaEntry) -> list[SchemaEntry]:
    found = []
    for key, prop in entry.schema.props.items():
        if key not in SUBSCHEMA_KEYWORDS:
            continue
        value = prop.value
        if key in SCHEMA_MAP_KEYWORDS and isinstance(value, JSObject):
            found.extend(_entry(entry, (key, name), child.value, child.value_node, child.key_node)
                         for name, child in value.props.items() if isinstance(child.value, JSObject))
        elif key in SINGLE_SCHEMA_KEYWORDS and isinstance(value, JSObject):
            found.append(_entry(entry, (key,), value, prop.value_node, prop.key_node))
        elif key in SCHEMA_LIST_KEYWORDS and isinstance(value, JSArray):
            found.extend(_entry(entry, (key, index), item.value, item.node, None)
                         for index, item in enumerate(value.items) if isinstance(item.value, JSObject))
    return found


def _entry(parent: SchemaEntry, steps: tuple[str | int, ...], schema: JSObject, node: Node | None,
           key_node: Node | None) -> SchemaEntry:
    child = SchemaEntry(parent.path + steps, schema, node or schema.node, key_node, parent.object_depth, str(steps[0]))
    if child.is_object:
        child.object_depth += 1
    return child


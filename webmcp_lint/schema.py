"""A walk over the static JSON Schema of a tool (``inputSchema``, ``outputSchema``).

Rules that look at schemas (shape, descriptions, security) share this walk
so that they agree on what a nested schema is. The walk is iterative and
bounded, so a deeply nested schema cannot exhaust Python's recursion limit.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterator

from tree_sitter import Node

from webmcp_lint.evaluate import JSArray, JSObject, Value

MAX_SCHEMAS = 5000

# Keywords whose value is one schema, a map of name -> schema, or a list of schemas.
SINGLE_SCHEMA_KEYWORDS = ("items", "additionalProperties", "not", "if", "then", "else", "contains",
                          "propertyNames", "unevaluatedProperties", "unevaluatedItems", "additionalItems")
SCHEMA_MAP_KEYWORDS = ("properties", "patternProperties", "$defs", "definitions", "dependentSchemas")
SCHEMA_LIST_KEYWORDS = ("allOf", "anyOf", "oneOf", "prefixItems", "items")


@dataclass
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


def walk_schema(root: Value, root_node: Node | None = None) -> Iterator[SchemaEntry]:
    """Every static schema object under ``root`` (itself first), depth first, in source order."""
    if not isinstance(root, JSObject):
        return
    first = SchemaEntry((), root, root_node or root.node, None, 0)
    first.object_depth = 1 if first.is_object else 0
    stack = [first]
    seen: set[int] = set()
    count = 0
    while stack and count < MAX_SCHEMAS:
        entry = stack.pop()
        if id(entry.schema) in seen:  # the same object reached twice through const references
            continue
        seen.add(id(entry.schema))
        count += 1
        yield entry
        stack.extend(reversed(list(_children(entry))))


def _children(entry: SchemaEntry) -> Iterator[SchemaEntry]:
    for key, prop in entry.schema.props.items():
        value = prop.value
        if key in SCHEMA_MAP_KEYWORDS and isinstance(value, JSObject):
            for name, child in value.props.items():
                if isinstance(child.value, JSObject):
                    yield _entry(entry, (key, name), child.value, child.value_node, child.key_node)
        elif key in SINGLE_SCHEMA_KEYWORDS and isinstance(value, JSObject):
            yield _entry(entry, (key,), value, prop.value_node, prop.key_node)
        elif key in SCHEMA_LIST_KEYWORDS and isinstance(value, JSArray):
            for index, item in enumerate(value.items):
                if isinstance(item.value, JSObject):
                    yield _entry(entry, (key, index), item.value, item.node, None)


def _entry(parent: SchemaEntry, steps: tuple[str | int, ...], schema: JSObject, node: Node | None,
           key_node: Node | None) -> SchemaEntry:
    child = SchemaEntry(parent.path + steps, schema, node or schema.node, key_node, parent.object_depth, str(steps[0]))
    if child.is_object:
        child.object_depth += 1
    return child


"""WM2xx: the shape of a tool definition (name, fields, schema, annotations, register options)."""

from __future__ import annotations

import re
from typing import Iterator

from tree_sitter import Node

from webmcp_lint.diagnostics import Edit, Fix
from webmcp_lint.evaluate import (
    UNDEFINED,
    BigIntValue,
    JSArray,
    JSFunction,
    JSObject,
    Prop,
    Unknown,
    Value,
)
from webmcp_lint.model import (
    ANNOTATIONS,
    EXTRA_FIELDS,
    REGISTER_OPTIONS,
    TOOL_FIELDS,
    FileAnalysis,
    Finding,
    Project,
    Registration,
    SourceKind,
    ToolDefinition,
    finding_at,
)
from webmcp_lint.rules import FILES, PROJECT, TOOLS, rule
from webmcp_lint.schema import SchemaEntry, walk_schema
from webmcp_lint.source import SourceFile
from webmcp_lint.suggest import closest, did_you_mean
from webmcp_lint.syntax import ancestors, enclosing_function, member_name, text, unwrap

MAX_NAME_LENGTH = 128
NAME_BUDGET = 30
NOT_NAME_CHARACTER = re.compile(r"[^A-Za-z0-9_.\-]")


def name_problem(name: str) -> str | None:
    """Why ``name`` breaks the platform's tool-name rule, or None (WM201, WM702)."""
    if name == "":
        return "is empty"
    if len(name) > MAX_NAME_LENGTH:
        return f"is {len(name)} characters long (at most {MAX_NAME_LENGTH})"
    found = NOT_NAME_CHARACTER.search(name)
    if found is None:
        return None
    bad = found.group()
    if bad.isspace():
        return "contains a space"
    if bad.isascii():
        return f"contains `{bad}`"
    return f"contains the non-ASCII character `{bad}` (U+{ord(bad):04X})"


def _name_value_node(tool: ToolDefinition) -> Node:
    prop = tool.prop("name")
    if prop is not None and prop.value_node is not None:
        return prop.value_node
    return tool.anchor


# WM201 ---------------------------------------------------------------------------------------------

@rule("WM201", "invalid-tool-name", "error", on=TOOLS)
def invalid_tool_name(tool: ToolDefinition, project: Project) -> Iterator[Finding]:
    name = tool.get("name")
    if tool.source_kind == SourceKind.FORM or not isinstance(name, str):  # forms: WM702
        return
    problem = name_problem(name)
    if problem is not None:
        yield tool.finding(_name_value_node(tool),
                           f"The tool name {problem}; registerTool rejects names that are not 1 to 128 ASCII "
                           "letters, digits, `_`, `-` or `.`.")


# WM202 ---------------------------------------------------------------------------------------------

MISSING_FIELD_ADVICE = {
    "name": "add a unique `name`",
    "description": "add a `description` saying what the tool does and when to use it",
    "execute": "add `execute(input, { signal })`",
}


@rule("WM202", "missing-tool-field", "error", on=TOOLS)
def missing_tool_field(tool: ToolDefinition, project: Project) -> Iterator[Finding]:
    """Every finding points at the definition's name (RULES.md), the empty description's too."""
    if tool.source_kind == SourceKind.FORM:  # a form without tooldescription is WM701
        return
    for field_name in tool.required_fields:
        value = tool.get(field_name)
        if value is UNDEFINED:
            yield tool.finding(tool.anchor, f"The tool definition has no `{field_name}`, so the browser rejects "
                                            f"it; {MISSING_FIELD_ADVICE[field_name]}.")
        elif field_name == "description" and isinstance(value, str) and not value.strip():
            yield tool.finding(tool.anchor,
                               "The tool description is empty, so the browser rejects the tool; say what the tool "
                               "does and when to use it.")


# WM203 ---------------------------------------------------------------------------------------------

# Sources that register where the definition stands (a hook call, a provider list, a form).
SELF_REGISTERING_KINDS = frozenset({SourceKind.REACT, SourceKind.VUE, SourceKind.ANGULAR,
                                    SourceKind.ANGULAR_FORM, SourceKind.FORM})
EXCLUSIVE_BRANCHES = {
    "if_statement": ("consequence", "alternative"),
    "ternary_expression": ("consequence", "alternative"),
}


@rule("WM203", "duplicate-tool-name", "warning", on=PROJECT)
def duplicate_tool_name(project: Project) -> Iterator[Finding]:
    """Registrations that are live together: one page's top level, or one function body."""
    registered: list[tuple[str, str, Node, ToolDefinition]] = []
    for analysis in project.files:
        seen = set()
        for tool in analysis.tools:
            place = _registration_place(tool)
            name = tool.name
            if place is None or name is None:
                continue
            identity = (tool.identity, place.id)
            if identity in seen:
                continue
            seen.add(identity)
            page = tool.registration.source.display_path if tool.registration else tool.source.display_path
            registered.append((page, name, place, tool))
    if len(registered) < 2:
        return  # one registration has no duplicate
    named, named_again = set(), set()
    for page, name, _, _ in registered:
        (named_again if (page, name) in named else named).add((page, name))
    groups: dict[tuple, list[tuple[Node, ToolDefinition]]] = {}
    for page, name, place, tool in registered:
        if (page, name) not in named_again:
            continue  # a name registered once on its page has no duplicate (and needs no climb to its function)
        function = enclosing_function(place)
        key = (page, function.id if function is not None else None, name)
        groups.setdefault(key, []).append((place, tool))
    for entries in groups.values():
        entries.sort(key=lambda entry: (entry[0].start_byte, entry[1].node.start_byte))
        for index, (place, tool) in enumerate(entries):
            earlier = next((entries[before] for before in range(index) if not _exclusive(entries[before][0], place)),
                           None)
            if earlier is not None:
                yield _duplicate_finding(tool, place, earlier)


def _registration_place(tool: ToolDefinition) -> Node | None:
    """The node whose position decides when the tool is registered, or None if it never is."""
    if tool.registration is not None:
        return tool.registration.call
    if tool.source_kind in SELF_REGISTERING_KINDS:
        return tool.node
    return None


def _exclusive(first: Node, second: Node) -> bool:
    """Whether the two nodes sit in different branches of one if/else, ternary or switch."""
    if first.id == second.id:
        return False
    path: dict[int, Node] = {}
    child = first
    for parent in ancestors(first):
        path[parent.id] = child
        child = parent
    child = second
    for parent in ancestors(second):
        if parent.id in path:
            first_child = path[parent.id]
            if parent.type == "switch_body":
                return first_child.id != child.id
            fields = EXCLUSIVE_BRANCHES.get(parent.type)
            if fields is None:
                return False
            branches = [parent.child_by_field_name(name) for name in fields]
            ids = [branch.id if branch is not None else None for branch in branches]
            return first_child.id in ids and child.id in ids and first_child.id != child.id
        child = parent
    return False


def _duplicate_finding(tool: ToolDefinition, place: Node, earlier: tuple[Node, ToolDefinition]) -> Finding:
    """At the later definition's name; at the later registration's argument when one definition is registered twice."""
    earlier_place, earlier_tool = earlier
    registration = tool.registration
    source = registration.source if registration is not None else tool.source
    name_node = _own_name_node(tool, source)
    earlier_name_node = _own_name_node(earlier_tool, source)
    same_definition = name_node is not None and earlier_name_node is not None and name_node.id == earlier_name_node.id
    if same_definition or name_node is None:
        earlier_name_node = None
        name_node = registration.definition_node if registration is not None and registration.definition_node \
            else place
    line = source.position((earlier_name_node or earlier_place).start_byte)[0]
    return tool.finding(name_node, f"The tool name \"{tool.name}\" is already registered on line {line} and both "
                                   "registrations are live at once; registerTool rejects the second with "
                                   "InvalidStateError: rename one of them.", source=source)


def _own_name_node(tool: ToolDefinition, source: SourceFile) -> Node | None:
    """The node of the tool's name value, when it is in ``source``."""
    prop = tool.prop("name")
    return prop.value_node if prop is not None and tool.source is source else None


# WM204 ---------------------------------------------------------------------------------------------

JSON_TYPES = ("string", "number", "integer", "boolean", "object", "array", "null")
JSON_TYPE_NAMES = frozenset(JSON_TYPES)
PRIMITIVE_TYPES = (str, int, float, bool, type(None))
TYPE_ALIASES = {
    "int": "integer", "long": "integer", "float": "number", "double": "number", "decimal": "number",
    "str": "string", "text": "string", "date": "string", "datetime": "string", "bool": "boolean",
    "list": "array", "dict": "object", "map": "object",
}
SUBSCHEMA_KEYWORDS = frozenset({"allOf", "anyOf", "oneOf", "not", "if", "then", "else", "dependentSchemas"})
BOUND_PAIRS = (("minimum", "maximum"), ("exclusiveMinimum", "exclusiveMaximum"), ("minLength", "maxLength"),
               ("minItems", "maxItems"), ("minProperties", "maxProperties"))
BOUND_LOWS = frozenset(low for low, _ in BOUND_PAIRS)


@rule("WM204", "invalid-input-schema", "error", on=TOOLS)
def invalid_input_schema(tool: ToolDefinition, project: Project) -> Iterator[Finding]:
    if tool.source_kind == SourceKind.FORM:  # the browser derives a form's schema; the author wrote none
        return
    for field_name in ("inputSchema", "outputSchema"):
        prop = tool.prop(field_name)
        if prop is None or isinstance(prop.value, Unknown) or prop.value is UNDEFINED:
            continue
        if isinstance(prop.value, JSFunction) and tool.source_kind == SourceKind.VUE:
            continue  # Vue's options take a getter (MaybeRefOrGetter)
        if not isinstance(prop.value, JSObject):
            yield tool.finding(prop.value_node or tool.anchor,
                               f"`{field_name}` must be a JSON Schema object with `type: \"object\"`.")
            continue
        root_type = prop.value.get("type")
        if root_type is UNDEFINED:
            yield tool.finding(prop.key_node or tool.anchor,
                               f"`{field_name}` has no `type: \"object\"` at its root; tool input is always an "
                               "object of named parameters.")
        elif isinstance(root_type, str) and root_type != "object":
            yield tool.finding(prop.value.props["type"].value_node or tool.anchor,
                               f"The root of `{field_name}` has type \"{root_type}\"; it must be `type: \"object\"` "
                               "with the parameters under `properties`.")
        for entry in walk_schema(prop.value, prop.value_node):
            for node, message in _schema_problems(entry):
                yield tool.finding(node or tool.anchor, message)


Problems = list[tuple[Node | None, str]]


def _schema_problems(entry: SchemaEntry) -> Problems:
    """The problems of one schema object, in a list (each check runs only when the schema has its keyword: a
    typical schema has two to five keywords, and most checks would find nothing to read)."""
    schema = entry.schema
    keywords = schema.props
    problems: Problems = []
    prop = keywords.get("type")
    if prop is not None and not (type(prop.value) is str and prop.value in JSON_TYPE_NAMES):  # the usual type: fine
        _type_problems(prop, problems)
    prop = keywords.get("properties")
    if prop is not None:
        _properties_problems(prop, problems)
    prop = keywords.get("required")
    if prop is not None:
        _required_problems(schema, prop, entry.keyword in SUBSCHEMA_KEYWORDS, problems)
    if "enum" in keywords or "default" in keywords:
        _enum_and_default_problems(schema, problems)
    if not BOUND_LOWS.isdisjoint(keywords):
        for low, high in BOUND_PAIRS:
            if low not in keywords or high not in keywords:
                continue
            low_value, high_value = keywords[low].value, keywords[high].value
            if _is_number(low_value) and _is_number(high_value) and low_value > high_value:
                problems.append((keywords[low].value_node, f"`{low}` ({low_value}) is greater than `{high}` "
                                                           f"({high_value}), so no value can satisfy the schema."))
    items = keywords.get("items")
    if items is not None and _is_static(items.value) and not isinstance(items.value, (JSObject, JSArray)):
        problems.append((items.value_node, "`items` must be a schema object describing each element."))
    return problems


def _type_problems(prop: Prop, problems: Problems) -> None:
    value = prop.value
    words = [(item.value, item.node) for item in value.items] if isinstance(value, JSArray) \
        else [(value, prop.value_node)]
    for word, node in words:
        if isinstance(word, Unknown):
            continue
        if not isinstance(word, str):
            problems.append((node, f"`type` must be a JSON Schema type name ({', '.join(JSON_TYPES)})."))
        elif word not in JSON_TYPE_NAMES:
            suggestion = closest(word, JSON_TYPES, TYPE_ALIASES)
            extra = " with `format: \"date\"`" if word.lower() in ("date", "datetime") else ""
            hint = f" (did you mean `\"{suggestion}\"`{extra}?)" if suggestion else ""
            problems.append((node, f"\"{word}\" is not a JSON Schema type{hint}; use one of {', '.join(JSON_TYPES)}."))


def _properties_problems(prop: Prop, problems: Problems) -> None:
    if not _is_static(prop.value):
        return
    if not isinstance(prop.value, JSObject):
        problems.append((prop.value_node, "`properties` must be an object mapping each parameter name to its schema."))
        return
    for name, child in prop.value.props.items():
        if not isinstance(child.value, JSObject) and _is_static(child.value):  # most are objects: one test
            problems.append((child.value_node or child.key_node,
                             f"The schema of property `{name}` must be an object such as `{{ type: \"string\" }}`."))


def _required_problems(schema: JSObject, prop: Prop, subschema: bool, problems: Problems) -> None:
    """``subschema``: a combinator branch, whose ``required`` may name the enclosing schema's properties."""
    if not _is_static(prop.value):
        return
    if not isinstance(prop.value, JSArray):
        problems.append((prop.value_node, "`required` must be an array of property names, listed on the object "
                                          "schema that holds the properties."))
        return
    properties = schema.get("properties")
    if properties is UNDEFINED:
        if subschema:
            return
        properties = JSObject(None)
    if not isinstance(properties, JSObject) or properties.open:
        return
    for item in prop.value.items:
        if isinstance(item.value, str) and item.value not in properties.props:
            suggestion = closest(item.value, list(properties.props))
            problems.append((item.node, f"`required` names \"{item.value}\", which `properties` does not define"
                                        f"{did_you_mean(suggestion)}."))


def _enum_and_default_problems(schema: JSObject, problems: Problems) -> None:
    keywords = schema.props
    enum_prop = keywords.get("enum")
    allowed = None  # the items of a static, closed, non-empty enum
    if enum_prop is not None:
        enum = enum_prop.value
        if not isinstance(enum, JSArray):
            if _is_static(enum):
                problems.append((enum_prop.value_node, "`enum` must be an array of the allowed values."))
        elif not enum.open:
            if not enum.items:
                problems.append((enum_prop.value_node, "`enum` is empty, so no value is allowed; list the allowed "
                                                       "values."))
            else:
                allowed = enum.items
    default_prop = keywords.get("default")
    if default_prop is None or not _is_static(default_prop.value):
        return
    default = default_prop.value
    if allowed is not None and isinstance(default, PRIMITIVE_TYPES):
        values = [item.value for item in allowed]
        # Membership first: the usual default is one of the values, and then their kinds need no look.
        if not _in_enum(default, values) and all(isinstance(value, PRIMITIVE_TYPES) for value in values):
            problems.append((default_prop.value_node, f"The default {_show(default)} is not one of the `enum` "
                                                      "values."))
            return
    declared = schema.get("type")
    actual = _json_type(default)
    if actual is not None and declared == actual:
        return  # the usual default: a value of the one declared type ("integer" is never a value's type)
    declared_types = (declared,) if isinstance(declared, str) else \
        tuple(value for value in declared.values if isinstance(value, str)) if isinstance(declared, JSArray) else ()
    if not declared_types or actual is None or not JSON_TYPE_NAMES.issuperset(declared_types):
        return
    for word in declared_types:
        if _type_accepts(word, default, actual):
            return
    problems.append((default_prop.value_node, f"The default {_show(default)} is not of type "
                                              f"{' or '.join(declared_types)}."))


def _in_enum(default: Value, enum_values: list[Value]) -> bool:
    """A primitive default is one of the (primitive) enum values, by JavaScript's strict equality."""
    if isinstance(default, str):
        return default in enum_values  # a string equals no number, boolean or null in Python either
    return any(_same(default, value) for value in enum_values)


def _is_static(value: Value) -> bool:
    return not isinstance(value, Unknown) and value is not UNDEFINED


def _is_number(value: Value) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _same(first: Value, second: Value) -> bool:
    """JavaScript's strict equality for primitives (Python's ``True == 1`` is not)."""
    if isinstance(first, bool) or isinstance(second, bool):
        return type(first) is type(second) and first == second
    return first == second


def _show(value: Value) -> str:
    if isinstance(value, str):
        return f"\"{value}\""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, JSArray):
        return "(an array)"
    if isinstance(value, JSObject):
        return "(an object)"
    return str(value)


def _json_type(value: Value) -> str | None:
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, (int, float)):
        return "number"
    if isinstance(value, str):
        return "string"
    if value is None:
        return "null"
    if isinstance(value, JSArray):
        return "array"
    if isinstance(value, JSObject):
        return "object"
    return None  # functions, BigInts: not JSON at all, another rule's concern


def _type_accepts(word: str, value: Value, actual: str) -> bool:
    if word == "integer":
        return actual == "number" and float(value).is_integer()
    return word == actual


# WM205 ---------------------------------------------------------------------------------------------

ANNOTATION_MISSPELLINGS = {
    "readOnly": "readOnlyHint", "readonly": "readOnlyHint", "isReadOnly": "readOnlyHint",
    "consequential": "consequentialHint", "isConsequential": "consequentialHint",
    "untrusted": "untrustedContentHint", "untrustedContent": "untrustedContentHint",
    "untrustedHint": "untrustedContentHint", "debug": "debugging", "debuggingHint": "debugging",
    "debugHint": "debugging",
}
MCP_ONLY_ANNOTATIONS = {
    "destructiveHint": "WebMCP does not read MCP's `destructiveHint`; the nearest WebMCP hint is "
                       "`consequentialHint` (for actions with real-world effects).",
    "idempotentHint": "WebMCP does not read MCP's `idempotentHint` and has no equivalent; remove it.",
    "openWorldHint": "WebMCP does not read MCP's `openWorldHint`; the nearest WebMCP hint is "
                     "`untrustedContentHint` (for results holding content your site does not control).",
    "title": "WebMCP does not read `annotations.title`; set the tool's own `title` field instead.",
}
VALID_ANNOTATIONS_TEXT = "readOnlyHint, consequentialHint, untrustedContentHint and debugging"
ANNOTATION_NAMES = frozenset(ANNOTATIONS)


@rule("WM205", "unknown-annotation", "error", on=TOOLS, fix="unsafe")
def unknown_annotation(tool: ToolDefinition, project: Project) -> Iterator[Finding]:
    annotations = tool.annotations
    if annotations is None:
        return
    for key, prop in annotations.props.items():
        node = prop.key_node or tool.anchor
        if key in ANNOTATION_NAMES:
            if _is_static(prop.value) and not isinstance(prop.value, bool):
                yield tool.finding(prop.value_node or node,
                                   f"`{key}` must be the boolean true or false, not {_show(prop.value)}.")
        elif key in MCP_ONLY_ANNOTATIONS:
            yield tool.finding(node, MCP_ONLY_ANNOTATIONS[key])
        else:
            suggestion = closest(key, ANNOTATIONS, ANNOTATION_MISSPELLINGS)
            fix = None
            if suggestion is not None and suggestion not in annotations.props:
                fix = Fix("unsafe", (_rename(prop, suggestion),), f"Rename to {suggestion}")
            yield tool.finding(node, f"`{key}` is not a WebMCP annotation and is ignored{did_you_mean(suggestion)}; "
                                     f"the annotations are {VALID_ANNOTATIONS_TEXT}.", fix)


def _rename(prop: Prop, new_key: str) -> Edit:
    key_node = prop.key_node
    if key_node.type == "shorthand_property_identifier":  # `{ readOnly }` keeps reading the same variable
        return Edit(key_node.start_byte, key_node.end_byte, f"{new_key}: {text(key_node)}")
    return Edit(key_node.start_byte, key_node.end_byte, new_key)


# WM206 ---------------------------------------------------------------------------------------------

FIELD_ALIASES = {
    **dict.fromkeys(("parameters", "params", "input_schema", "schema", "args", "arguments", "argsSchema",
                     "inputs", "input", "jsonSchema", "paramsSchema"), "inputSchema"),
    **dict.fromkeys(("handler", "run", "callback", "fn", "func", "function", "action", "invoke", "call",
                     "exec", "perform", "onCall", "onExecute", "cb"), "execute"),
    **dict.fromkeys(("output_schema", "outputs", "resultSchema", "returns", "responseSchema"), "outputSchema"),
    **dict.fromkeys(("desc", "summary"), "description"),
    **dict.fromkeys(("displayName", "label"), "title"),
    **dict.fromkeys(("toolName", "tool_name", "id"), "name"),
    **dict.fromkeys(("hints", "annotation", "meta"), "annotations"),
}


TOOL_FIELD_NAMES = frozenset(TOOL_FIELDS)


@rule("WM206", "unknown-tool-field", "warning", on=TOOLS, fix="unsafe")
def unknown_tool_field(tool: ToolDefinition, project: Project) -> Iterator[Finding]:
    if tool.source_kind == SourceKind.FORM or TOOL_FIELD_NAMES.issuperset(tool.definition.props):
        return  # the usual definition: nothing but tool fields
    valid = TOOL_FIELD_NAMES | set(tool.extra_fields) | set(EXTRA_FIELDS.get(tool.source_kind, ()))
    for key, prop in tool.definition.props.items():
        if key in valid:
            continue
        node = prop.key_node or tool.anchor
        if key in ANNOTATIONS:
            yield tool.finding(node, f"`{key}` is an annotation and has no effect at the top level of the "
                                     "definition; move it into `annotations`.", _move_hints_fix(tool))
            continue
        if key in REGISTER_OPTIONS:
            yield tool.finding(node, f"`{key}` is a registration option, not a tool field, and is ignored here; pass "
                                     f"it in registerTool's second argument: `registerTool(tool, {{ {key} }})`.")
            continue
        suggestion = closest(key, TOOL_FIELDS, FIELD_ALIASES)
        yield tool.finding(node, f"`{key}` is not a tool field and is ignored{did_you_mean(suggestion)}; the fields "
                                 "are name, title, description, inputSchema, outputSchema, execute and annotations.")


def _move_hints_fix(tool: ToolDefinition) -> Fix | None:
    """Move every top-level hint of an object-literal definition into its ``annotations`` literal."""
    definition = tool.node
    if definition.type != "object":
        return None
    hints = [prop for key, prop in tool.definition.props.items() if key in ANNOTATIONS and prop.key_node is not None
             and prop.key_node.parent is not None and prop.key_node.parent.type == "pair"
             and prop.key_node.parent.parent is not None and prop.key_node.parent.parent.id == definition.id]
    if not hints:
        return None
    pairs = [prop.key_node.parent for prop in hints]
    moved = ", ".join(text(pair) for pair in pairs)
    annotations = tool.prop("annotations")
    data = tool.source.data
    if annotations is None:
        first, *rest = pairs
        edits = [Edit(first.start_byte, first.end_byte, f"annotations: {{ {moved} }}")]
        edits += [Edit(*_removal_range(pair, data), "") for pair in rest]
    else:
        literal = unwrap(annotations.value_node)
        if literal is None or literal.type != "object" or not isinstance(annotations.value, JSObject) \
                or any(prop.key in annotations.value.props for prop in hints):
            return None
        entries = [child for child in literal.named_children if child.type != "comment"]
        if entries:
            insertion = Edit(entries[0].start_byte, entries[0].start_byte, f"{moved}, ")
        else:
            insertion = Edit(literal.start_byte, literal.end_byte, f"{{ {moved} }}")
        edits = [Edit(*_removal_range(pair, data), "") for pair in pairs] + [insertion]
    return Fix("unsafe", tuple(sorted(edits, key=lambda edit: edit.start)), "Move the hints into annotations")


def _removal_range(pair: Node, data: bytes) -> tuple[int, int]:
    """The bytes to delete to remove ``pair`` with its comma (and its line, when it stands alone)."""
    start, end = pair.start_byte, pair.end_byte
    following, preceding = pair.next_sibling, pair.prev_sibling
    if following is not None and following.type == ",":
        end = following.end_byte
    elif preceding is not None and preceding.type == ",":
        start = preceding.start_byte
    line_start = data.rfind(b"\n", 0, start) + 1
    line_end = data.find(b"\n", end)
    line_end = len(data) if line_end < 0 else line_end
    if not data[line_start:start].strip() and not data[end:line_end].strip():
        return line_start, min(line_end + 1, len(data))
    while end < line_end and data[end:end + 1] in (b" ", b"\t"):
        end += 1
    return start, end


# WM207 ---------------------------------------------------------------------------------------------

OPTION_ALIASES = {
    **dict.fromkeys(("exposeTo", "origins", "allowedOrigins", "allowOrigins", "exposedOrigins", "exposed_to",
                     "expose", "exposedToOrigins", "targetOrigins"), "exposedTo"),
    **dict.fromkeys(("abortSignal", "abort", "controller", "abortController", "cancelSignal", "cancel"), "signal"),
}


@rule("WM207", "unknown-register-option", "error", on=FILES)
def unknown_register_option(analysis: FileAnalysis) -> Iterator[Finding]:
    for registration in analysis.registrations:
        options, script = registration.options, registration.script
        source = registration.source
        if registration.options_node is not None and not isinstance(options, JSObject) \
                and _looks_like_signal(registration.options_node):
            yield finding_at(source, registration.options_node,
                             "registerTool's second argument is an options object; pass `{ signal }`, not the "
                             "signal itself (it is ignored).", tool_name=_registered_name(analysis, registration))
            continue
        if not isinstance(options, JSObject):
            continue
        for key, prop in options.props.items():
            if key not in REGISTER_OPTIONS:
                suggestion = closest(key, REGISTER_OPTIONS, OPTION_ALIASES)
                yield finding_at(source, prop.key_node or registration.options_node,
                                 f"`{key}` is not a registerTool option and is ignored{did_you_mean(suggestion)}; "
                                 "the options are `signal` and `exposedTo`.",
                                 tool_name=_registered_name(analysis, registration))
        signal = options.props.get("signal")
        if signal is not None and signal.value_node is not None and _is_abort_controller(signal.value_node, script):
            yield finding_at(source, signal.value_node,
                             "`signal` is given an AbortController, which is not a signal; pass `controller.signal`.",
                             tool_name=_registered_name(analysis, registration))


def _registered_name(analysis: FileAnalysis, registration: Registration) -> str | None:
    """The name of the tool ``registration`` registers (the last such tool's), looked up only for a finding."""
    return next((tool.name for tool in reversed(analysis.tools) if tool.registration is registration), None)


def _looks_like_signal(node: Node) -> bool:
    node = unwrap(node)
    name = text(node) if node is not None and node.type == "identifier" else member_name(node) if node else None
    return name is not None and name.lower().endswith("signal")


def _is_abort_controller(node: Node, script) -> bool:
    """``new AbortController()``, a name bound to one, or a name that says it holds one."""
    node = unwrap(node)
    if node is None:
        return False
    kind = node.type
    if kind == "new_expression":
        return text(node.child_by_field_name("constructor")) == "AbortController"
    if kind == "identifier" or kind == "shorthand_property_identifier":
        binding = script.scopes.resolve(node)
        if binding is not None and binding.init is not None and binding.path == ():
            init = unwrap(binding.init)
            return init is not None and init.type == "new_expression" \
                and text(init.child_by_field_name("constructor")) == "AbortController"
        return text(node).lower().endswith("controller")
    if kind == "member_expression":
        return (member_name(node) or "").lower().endswith("controller")
    return False


# WM208 ---------------------------------------------------------------------------------------------

@rule("WM208", "execute-not-function", "error", on=TOOLS)
def execute_not_function(tool: ToolDefinition, project: Project) -> Iterator[Finding]:
    prop = tool.prop("execute")
    if prop is None or isinstance(prop.value, (Unknown, JSFunction)):
        return
    if prop.value is UNDEFINED and text(unwrap(prop.value_node)) != "undefined":
        return  # a member the evaluator did not find may still be assigned at run time
    described = "undefined" if prop.value is UNDEFINED else _describe_value(prop.value)
    yield tool.finding(prop.value_node or prop.key_node or tool.anchor,
                       f"`execute` is {described}, not a function; the browser calls `execute(input, {{ signal }})` "
                       "to run the tool.")


def _describe_value(value: Value) -> str:
    if isinstance(value, str):
        return "a string"
    if isinstance(value, JSArray):
        return "an array"
    if isinstance(value, JSObject):
        return "an object"
    if isinstance(value, BigIntValue):
        return "a BigInt"
    return _show(value)


# WM209 ---------------------------------------------------------------------------------------------

@rule("WM209", "long-tool-name", "info", on=TOOLS)
def long_tool_name(tool: ToolDefinition, project: Project) -> Iterator[Finding]:
    name = tool.get("name")
    if isinstance(name, str) and len(name) > NAME_BUDGET and name_problem(name) is None:
        yield tool.finding(_name_value_node(tool),
                           f"The tool name is {len(name)} characters long; keep it within {NAME_BUDGET} (agents "
                           "truncate or mangle longer names).")


# WM210 ---------------------------------------------------------------------------------------------

COMPLEX_KEYWORDS = {
    "$ref": "`$ref`", "allOf": "`allOf`", "anyOf": "`anyOf`", "oneOf": "`oneOf`", "not": "`not`",
    "if": "`if`/`then`/`else`", "patternProperties": "`patternProperties`",
}
COMPLEX_KEYWORD_NAMES = frozenset(COMPLEX_KEYWORDS)
MAX_OBJECT_LEVELS = 3


@rule("WM210", "complex-input-schema", "info", on=TOOLS)
def complex_input_schema(tool: ToolDefinition, project: Project) -> Iterator[Finding]:
    prop = tool.prop("inputSchema")
    if prop is None or tool.source_kind == SourceKind.FORM:
        return
    for entry in walk_schema(prop.value, prop.value_node):
        if not COMPLEX_KEYWORD_NAMES.isdisjoint(entry.schema.props):  # most schemas use none of them
            for keyword, shown in COMPLEX_KEYWORDS.items():
                keyword_prop = entry.schema.props.get(keyword)
                if keyword_prop is not None:
                    yield tool.finding(keyword_prop.key_node or tool.anchor,
                                       f"{shown} in the input schema is handled poorly by many agents; prefer plain "
                                       "properties with `enum`, `type` and `description`.")
        if entry.object_depth == MAX_OBJECT_LEVELS + 1 and entry.is_object:
            yield tool.finding(entry.key_node or entry.node or tool.anchor,
                               f"The input schema nests objects more than {MAX_OBJECT_LEVELS} levels deep, which many "
                               "agents fill poorly; flatten the parameters.")

"""Declarative tools: what a ``<form toolname>`` says, whatever markup it is written in.

The form extractor reads HTML (pages, Vue, Svelte and Angular templates) and
JSX into these objects; the WM7xx rules read them. ``form_definition``
synthesises the tool object the browser derives from a form, so rules
written against definitions (descriptions, hidden characters, instructions
to the agent) read forms without knowing about them.
"""

from __future__ import annotations

import re

from tree_sitter import Node

from webmcp_lint.evaluate import UNDEFINED, Element, JSArray, JSObject, Prop, Unknown, Value
from webmcp_lint.record import Record

FIELD_TAGS = frozenset({"input", "select", "textarea"})
# Inputs that are buttons or fixed values, not parameters the agent fills.
NON_PARAMETER_INPUT_TYPES = frozenset({"submit", "button", "reset", "image", "hidden"})
NUMBER_INPUT_TYPES = frozenset({"number", "range"})
FORMAT_BY_INPUT_TYPE = {
    "email": "email", "url": "uri", "date": "date", "time": "time", "datetime-local": "date-time",
}
# Where a parameter's description came from, in the browser's order of preference.
TOOLPARAMDESCRIPTION, LABEL, ARIA_DESCRIPTION = "toolparamdescription", "label", "aria-description"


class Attribute(Record):
    """One attribute of an element; ``value`` is a str, True when bare, or Unknown when bound to code."""

    _compared = ("name", "node", "name_node", "value_node", "value")

    def __init__(self, name: str, node: Node, name_node: Node, value_node: Node | None, value: Value) -> None:
        self.name = name  # lower case, binding syntax removed (`:toolname`, `[attr.toolname]` -> `toolname`)
        self.node = node
        self.name_node = name_node
        self.value_node = value_node
        self.value = value

    @property
    def is_set(self) -> bool:
        """Present for the browser: a bound ``false``/``null``/``undefined`` removes the attribute."""
        return self.value is not False and self.value is not None and self.value is not UNDEFINED

    @property
    def string(self) -> Value:
        """The value as text: "" for a bare attribute, Unknown when not static."""
        return "" if self.value is True else self.value


class MarkupElement(Record):
    """An HTML or JSX element with its static attributes."""

    _compared = ("node", "tag_node", "tag", "attributes", "open")

    def __init__(self, node: Node, tag_node: Node, tag: str, attributes: dict[str, Attribute] | None = None,
                 open: bool = False) -> None:
        self.node = node  # the whole element
        self.tag_node = tag_node  # its start tag or opening element: where findings about the element point
        self.tag = tag
        self.attributes = {} if attributes is None else attributes
        self.open = open  # a spread (`{...props}`, `v-bind="obj"`) may add any attribute

    def attribute(self, name: str) -> Attribute | None:
        found = self.attributes.get(name)
        return found if found is not None and found.is_set else None

    def value(self, name: str) -> Value:
        """An attribute's text; UNDEFINED when absent, Unknown when a spread could supply it."""
        found = self.attribute(name)
        if found is None:
            return Unknown("spread") if self.open else UNDEFINED
        return found.string


class FieldDescription(Record):
    """A parameter's description and where it came from (toolparamdescription, label, aria-description)."""

    _compared = ("source", "value", "key_node", "value_node")

    def __init__(self, source: str, value: Value, key_node: Node, value_node: Node) -> None:
        self.source = source
        self.value = value
        self.key_node = key_node  # the attribute name, or the label's tag
        self.value_node = value_node  # the attribute value, or the label element


class FormField(Record):
    """An input, select or textarea of a tool form (buttons and hidden inputs excluded)."""

    _compared = ("element", "description", "options")

    def __init__(self, element: MarkupElement, description: FieldDescription | None = None,
                 options: list[tuple[str, Node]] | None = None) -> None:
        self.element = element
        self.description = description
        self.options = [] if options is None else options  # select options: (value, option element)

    @property
    def name(self) -> Value:
        return self.element.value("name")

    @property
    def has_name(self) -> bool:
        """False only when the field certainly has no usable name."""
        name = self.name
        return isinstance(name, Unknown) or (isinstance(name, str) and name.strip() != "")

    @property
    def input_type(self) -> str | None:
        """``type`` of an input (default ``text``), the tag of a select/textarea; None when bound to code."""
        if self.element.tag != "input":
            return self.element.tag
        value = self.element.value("type")
        if value is UNDEFINED:
            return "text"
        return value.strip().lower() if isinstance(value, str) else None

    @property
    def autocomplete_tokens(self) -> tuple[str, ...]:
        value = self.element.value("autocomplete")
        return tuple(value.lower().split()) if isinstance(value, str) else ()


class FormTool(Record):
    """A ``<form toolname>``: its element, its fields, and what makes it a tool."""

    _compared = ("element", "fields")

    def __init__(self, element: MarkupElement, fields: list[FormField] | None = None) -> None:
        self.element = element
        self.fields = [] if fields is None else fields

    @property
    def node(self) -> Node:
        return self.element.node

    def attribute(self, name: str) -> Attribute | None:
        return self.element.attribute(name)

    @property
    def autosubmit(self) -> Attribute | None:
        return self.element.attribute("toolautosubmit")

    @property
    def parameters(self) -> dict[str, list[FormField]]:
        """Named fields grouped by name (a radio group is one parameter); dynamic names are left out."""
        groups: dict[str, list[FormField]] = {}
        for form_field in self.fields:
            if isinstance(form_field.name, str) and form_field.name.strip():
                groups.setdefault(form_field.name, []).append(form_field)
        return groups


def group_description(members: list[FormField]) -> FieldDescription | None:
    """What describes a parameter: the first description among the fields that share its name."""
    return next((member.description for member in members if member.description is not None), None)


def form_definition(form: FormTool) -> JSObject:
    """The tool object the browser derives from the form: name, title, description, inputSchema.

    Fields become properties typed after their control (number inputs, checkboxes, select and radio
    values as ``enum``, ``min``/``max``/``minlength``/``maxlength``/``pattern``, ``required``)."""
    definition = JSObject(form.node, open=form.element.open)
    for key, attribute_name in (("name", "toolname"), ("title", "tooltitle"), ("description", "tooldescription")):
        attribute = form.attribute(attribute_name)
        if attribute is not None:
            definition.props[key] = Prop(key, attribute.name_node, attribute.value_node or attribute.node,
                                         attribute.string)
    properties = JSObject(form.node)
    required = JSArray(None)
    for name, members in form.parameters.items():
        first = members[0]
        name_attribute = first.element.attribute("name")
        key_node = name_attribute.value_node or name_attribute.node
        properties.props[name] = Prop(name, key_node, first.element.node, _field_schema(members))
        if any(member.element.attribute("required") is not None for member in members):
            required.items.append(Element(key_node, name))
    schema = JSObject(form.node, {"type": Prop("type", None, None, "object"),
                                  "properties": Prop("properties", None, None, properties)})
    if required.items:
        schema.props["required"] = Prop("required", None, None, required)
    definition.props["inputSchema"] = Prop("inputSchema", None, None, schema)
    return definition


def _field_schema(members: list[FormField]) -> JSObject:
    first = members[0]
    schema = JSObject(first.element.node)
    input_type = first.input_type
    if input_type in NUMBER_INPUT_TYPES:
        schema_type = "number"
    elif input_type == "checkbox" and len(members) == 1:
        schema_type = "boolean"
    else:
        schema_type = "string"
    schema.props["type"] = Prop("type", None, None, schema_type)
    if input_type in FORMAT_BY_INPUT_TYPE:
        schema.props["format"] = Prop("format", None, None, FORMAT_BY_INPUT_TYPE[input_type])
    # Only the author's toolparamdescription: a label or aria-description is text written for people,
    # which the description rules (they read tooldescription and toolparamdescription) must not judge.
    description = group_description(members)
    if description is not None and description.source == TOOLPARAMDESCRIPTION:
        schema.props["description"] = Prop("description", description.key_node, description.value_node,
                                           description.value)
    options = first.options if first.element.tag == "select" else [
        (member.element.value("value"), member.element.node) for member in members if input_type == "radio"
    ]
    if options and all(isinstance(value, str) for value, _ in options):
        values = JSArray(None, [Element(node, value) for value, node in options])
        schema.props["enum"] = Prop("enum", None, None, values)
    bounds = (("min", "minimum"), ("max", "maximum")) if input_type in NUMBER_INPUT_TYPES else ()
    for attribute_name, keyword in (*bounds, ("minlength", "minLength"), ("maxlength", "maxLength"),
                                    ("pattern", "pattern")):
        attribute = first.element.attribute(attribute_name)
        value = _schema_value(attribute.string, keyword) if attribute is not None else None
        if value is not None:
            schema.props[keyword] = Prop(keyword, attribute.name_node, attribute.value_node or attribute.node, value)
    return schema


_NUMBER = re.compile(r"\s*-?(\d+(\.\d*)?|\.\d+)([eE][-+]?\d+)?\s*")


def _schema_value(text: Value, keyword: str) -> Value | None:
    """An attribute's text as the schema keyword's value, or None when it is not one."""
    if not isinstance(text, str):
        return None
    if keyword == "pattern":
        return text
    if not _NUMBER.fullmatch(text):
        return None
    number = float(text)
    return int(number) if number.is_integer() else number

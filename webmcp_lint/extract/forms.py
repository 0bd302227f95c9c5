"""Declarative tools: ``<form toolname>`` in markup and JSX, as FormTools and ToolDefinitions.

Markup is an HTML tree: a page, a Vue or Svelte component (the engine's
markup Script), or an Angular ``@Component({ template: `...` })`` string,
parsed as HTML in place so its nodes keep their offsets in the .ts file.
JSX comes from the script's own tree. Both become MarkupElements, so one
builder finds fields, labels and descriptions for every flavour.
"""

from __future__ import annotations

import bisect
import re
from pathlib import Path
from typing import Callable, Iterable

import tree_sitter
from tree_sitter import Node

from webmcp_lint.declarative import (
    ARIA_DESCRIPTION,
    FIELD_TAGS,
    LABEL,
    NON_PARAMETER_INPUT_TYPES,
    TOOLPARAMDESCRIPTION,
    Attribute,
    FieldDescription,
    FormField,
    FormTool,
    MarkupElement,
    form_definition,
)
from webmcp_lint.embedded import attribute_parts, expression_end, tag_name, unescape_html
from webmcp_lint.evaluate import UNDEFINED, Unknown, Value
from webmcp_lint.extract import Extractor
from webmcp_lint.languages import HTML, nodes_by_kind, parse
from webmcp_lint.model import FileAnalysis, Script, SourceKind, ToolDefinition
from webmcp_lint.syntax import call_arguments, text

# Elements a form tool is made of; every other element only contributes text to a label.
FORM_TAGS = FIELD_TAGS | {"form", "label", "fieldset", "option"}
HTML_ELEMENT_KINDS = ("element",)
JSX_ELEMENT_KINDS = ("jsx_element", "jsx_self_closing_element")
TEXT_KINDS = frozenset({"text", "entity", "jsx_text", "html_character_reference"})
_STRING_LITERAL = re.compile(r"""\s*(?:'([^'\\]*)'|"([^"\\]*)"|`([^`\\$]*)`)\s*""")
_BOOLEAN_LITERALS = {"true": True, "false": False, "null": None, "undefined": UNDEFINED}


# --- markup (HTML) elements ---------------------------------------------------------------------

def html_element(node: Node, data: bytes, svelte: bool) -> MarkupElement:
    """An HTML element with framework binding syntax (Vue, Angular, Svelte) folded into plain names."""
    tag = node.child(0) if node.child_count else node
    element = MarkupElement(node, tag, tag_name(node))
    for child in tag.named_children:
        if child.type != "attribute":
            continue
        name_node, value_node = attribute_parts(child)
        if name_node is None:
            continue
        raw_name = text(name_node)
        name, bound = _binding_name(raw_name)
        if name is None:
            element.open = True
            continue
        if bound:
            value = _literal(text(value_node)) if value_node is not None else Unknown("bound")
        elif value_node is None:
            value = Unknown("bound") if raw_name.startswith("{") else True
        else:
            value = _markup_value(value_node, data, svelte)
        element.attributes.setdefault(name, Attribute(name, child, name_node, value_node, value))
    return element


def _binding_name(raw: str) -> tuple[str | None, bool]:
    """(plain attribute name, bound to an expression); None for a spread of attributes."""
    lowered = raw.lower()
    if lowered in ("v-bind", "v-bind.prop") or lowered.startswith("{..."):
        return None, True
    for prefix in ("v-bind:", ":"):
        if lowered.startswith(prefix):
            return lowered[len(prefix):].split(".")[0], True
    if lowered.startswith("[") and lowered.endswith("]"):
        inner = lowered[1:-1]
        return (inner[5:] if inner.startswith("attr.") else inner), True
    if lowered.startswith("{") and lowered.endswith("}"):  # Svelte shorthand {name}
        return lowered[1:-1].strip(), True
    return lowered, False


def _markup_value(value_node: Node, data: bytes, svelte: bool) -> Value:
    if value_node.type == "quoted_attribute_value":  # `a=""`
        return ""
    raw = value_node.text.decode("utf-8", errors="replace")
    if svelte and raw.startswith("{"):  # the masked markup only marks where the expression is
        start = value_node.start_byte
        return _literal(data[start + 1:expression_end(data, start)].decode("utf-8", errors="replace"))
    if "{{" in raw or (svelte and "{" in raw):
        return Unknown("interpolated")
    return unescape_html(raw)


def _literal(expression: str) -> Value:
    """A bound expression's value when it is a plain string or boolean literal, else Unknown."""
    match = _STRING_LITERAL.fullmatch(expression)
    if match:
        return next(group for group in match.groups() if group is not None)
    stripped = expression.strip()
    return _BOOLEAN_LITERALS[stripped] if stripped in _BOOLEAN_LITERALS else Unknown("bound")


# --- JSX elements -------------------------------------------------------------------------------

def jsx_element(node: Node, script: Script) -> MarkupElement:
    opening = node.child_by_field_name("open_tag") if node.type == "jsx_element" else node
    opening = opening or node
    name_node = opening.child_by_field_name("name")
    # Only lower-case intrinsic elements are DOM elements; `<Form>` or `<ui.input>` are components.
    tag = text(name_node) if name_node is not None and name_node.type == "identifier" else ""
    element = MarkupElement(node, opening, tag if tag.islower() else "")
    for child in opening.named_children:
        if child.type == "jsx_expression":  # {...props}
            element.open = True
            continue
        if child.type != "jsx_attribute" or not child.named_children:
            continue
        name_node = child.named_children[0]
        value_node = child.named_children[1] if len(child.named_children) > 1 else None
        name = text(name_node).lower()
        value = _jsx_value(value_node, script)
        if value_node is not None and value_node.type == "jsx_expression":  # findings point inside the braces
            value_node = next((inner for inner in value_node.named_children if inner.type != "comment"), value_node)
        element.attributes.setdefault(name, Attribute(name, child, name_node, value_node, value))
    return element


def _jsx_value(value_node: Node | None, script: Script) -> Value:
    if value_node is None:
        return True
    if value_node.type == "string":  # JSX strings have no escapes; character references are decoded
        return unescape_html(text(value_node)[1:-1])
    if value_node.type == "jsx_expression":
        inner = next((child for child in value_node.named_children if child.type != "comment"), None)
        value = script.evaluator.value(inner) if inner is not None else UNDEFINED
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            return str(value)
        return value if isinstance(value, (str, bool, Unknown)) or value is None or value is UNDEFINED \
            else Unknown("dynamic")
    return Unknown("dynamic")


# --- building form tools ------------------------------------------------------------------------

class _Document:
    """The form-related elements of one tree, sorted, with lookups by position, tag and id."""

    def __init__(self, nodes: Iterable[Node], build: Callable[[Node], MarkupElement]) -> None:
        self.elements: list[MarkupElement] = []
        for node in nodes:
            if _element_tag(node) in FORM_TAGS:
                self.elements.append(build(node))
        self.elements.sort(key=lambda element: element.node.start_byte)
        self.starts = [element.node.start_byte for element in self.elements]
        self.by_tag: dict[str, list[MarkupElement]] = {}
        self.labels_for: dict[str, MarkupElement] = {}
        self.labels_for_code: list[MarkupElement] = []  # labels whose target is code (`htmlFor={id}`, `:for`)
        self.fields_of_form_id: dict[str, list[MarkupElement]] = {}  # <input form="id"> outside its form
        for element in self.elements:
            self.by_tag.setdefault(element.tag, []).append(element)
            if element.tag == "label":
                target = element.value("for")
                target = element.value("htmlfor") if target is UNDEFINED else target
                if isinstance(target, str):
                    self.labels_for.setdefault(target, element)
                elif target is not UNDEFINED:
                    self.labels_for_code.append(element)
            elif element.tag in FIELD_TAGS and isinstance(owner := element.value("form"), str):
                self.fields_of_form_id.setdefault(owner, []).append(element)
        self.tag_starts = {tag: [element.node.start_byte for element in elements]
                           for tag, elements in self.by_tag.items()}

    def inside(self, container: Node) -> list[MarkupElement]:
        low = bisect.bisect_right(self.starts, container.start_byte)
        high = bisect.bisect_left(self.starts, container.end_byte)
        return self.elements[low:high]

    def enclosing(self, node: Node, tag: str, within: Node) -> MarkupElement | None:
        """The innermost ``tag`` element around ``node`` (inside ``within``), found by position:
        tree-sitter's ``parent`` costs the depth, so walking up a deep page would be quadratic."""
        candidates = self.by_tag.get(tag, [])
        index = bisect.bisect_left(self.tag_starts.get(tag, []), node.start_byte)
        while index > 0:
            index -= 1
            element = candidates[index]
            if element.node.start_byte < within.start_byte:
                return None
            if element.node.end_byte >= node.end_byte:
                return element
        return None

    def forms(self) -> list[FormTool]:
        found = []
        for element in self.elements:
            if element.tag == "form" and element.attribute("toolname") is not None:
                found.append(FormTool(element, self._fields(element)))
        return found

    def _fields(self, form: MarkupElement) -> list[FormField]:
        form_id = form.value("id")
        members = [element for element in self.inside(form.node) if element.tag in FIELD_TAGS]
        if isinstance(form_id, str) and form_id:
            inside = {member.node.id for member in members}
            members += [element for element in self.fields_of_form_id.get(form_id, []) if element.node.id not in inside]
        fields = []
        for element in members:
            form_field = FormField(element)
            if form_field.input_type in NON_PARAMETER_INPUT_TYPES:
                continue
            form_field.description = self._description(form_field, form)
            if element.tag == "select":
                form_field.options = [(_option_value(option), option.node) for option in self.inside(element.node)
                                      if option.tag == "option"]
            fields.append(form_field)
        return fields

    def _description(self, form_field: FormField, form: MarkupElement) -> FieldDescription | None:
        element = form_field.element
        own = _attribute_description(element, TOOLPARAMDESCRIPTION)
        if own is not None:
            return own
        fieldset = self.enclosing(element.node, "fieldset", form.node)
        if fieldset is not None and (shared := _attribute_description(fieldset, TOOLPARAMDESCRIPTION)):
            return shared
        element_id = element.value("id")
        label = self.enclosing(element.node, "label", form.node)
        if label is None and isinstance(element_id, str):
            label = self.labels_for.get(element_id)
        if label is None and element_id is not UNDEFINED and not isinstance(element_id, str):
            # The field's id written as code (React's useId, a bound `:id`) with a label that may name it: the field
            # may well be labelled, and a rule that needs the label's text stays silent.
            maybe = self.labels_for_code or list(self.labels_for.values())
            if maybe:
                return FieldDescription(LABEL, Unknown("dynamic"), maybe[0].tag_node, maybe[0].node)
        if label is not None:
            label_text = label_text_of(label.node)
            if label_text != "":
                return FieldDescription(LABEL, label_text, label.tag_node, label.node)
        return _attribute_description(element, ARIA_DESCRIPTION)


def _attribute_description(element: MarkupElement, name: str) -> FieldDescription | None:
    attribute = element.attribute(name)
    if attribute is None or (isinstance(attribute.string, str) and not attribute.string.strip()):
        return None  # an empty description describes nothing: the next source applies
    return FieldDescription(name, attribute.string, attribute.name_node, attribute.value_node or attribute.node)


def _option_value(option: MarkupElement) -> Value:
    value = option.value("value")
    return label_text_of(option.node) if value is UNDEFINED else value


def label_text_of(node: Node) -> Value:
    """The visible text of a label (or option), without its fields; Unknown when code renders part of it."""
    parts: list[str] = []
    stack = [node]
    while stack:
        current = stack.pop()
        if current.type in TEXT_KINDS:
            parts.append(unescape_html(text(current)))
            continue
        if current.type == "jsx_expression" and any(child.type != "comment" for child in current.named_children):
            return Unknown("rendered")
        if current is not node and current.type in ("element", *JSX_ELEMENT_KINDS) \
                and _element_tag(current) in FIELD_TAGS:
            continue
        stack.extend(reversed(current.children))
    joined = " ".join(" ".join(parts).split())
    # `{{ t("query") }}` (Vue, Angular) or `{label}` (Svelte): rendered text, not known here.
    return Unknown("interpolated") if "{" in joined else joined


def _element_tag(node: Node) -> str:
    if node.type == "element":
        return tag_name(node)
    opening = node.child_by_field_name("open_tag") if node.type == "jsx_element" else node
    name = opening.child_by_field_name("name") if opening is not None else None
    return text(name)


# --- the extractor ------------------------------------------------------------------------------

def _extract(script: Script, analysis: FileAnalysis) -> None:
    if script.language == HTML:
        svelte = Path(script.source.display_path).suffix.lower() == ".svelte"
        data = script.source.data
        document = _Document(script.of_kind("element"), lambda node: html_element(node, data, svelte))
        _add_tools(document, script, analysis)
        return
    jsx_nodes = [node for kind in JSX_ELEMENT_KINDS for node in script.of_kind(kind)]
    if jsx_nodes:
        _add_tools(_Document(jsx_nodes, lambda node: jsx_element(node, script)), script, analysis)
    data = script.source.data
    for ranges in _angular_templates(script):
        tree = parse(data, HTML, ranges)  # in place: the template's nodes keep their offsets in the .ts file
        nodes = nodes_by_kind(tree.root_node, HTML, frozenset(HTML_ELEMENT_KINDS)).get("element", [])
        _add_tools(_Document(nodes, lambda node: html_element(node, data, False)), script, analysis)


def _add_tools(document: _Document, script: Script, analysis: FileAnalysis) -> None:
    for form in document.forms():
        analysis.tools.append(ToolDefinition(SourceKind.FORM, script, script.source, form.node,
                                             form_definition(form), form=form))


def _angular_templates(script: Script) -> list[list[tree_sitter.Range]]:
    """Byte ranges of each ``template:`` string of an ``@Component({...})`` decorator."""
    templates = []
    for decorator in script.of_kind("decorator"):
        call = next((child for child in decorator.named_children if child.type == "call_expression"), None)
        if call is None or text(call.child_by_field_name("function")).split(".")[-1] != "Component":
            continue
        arguments = call_arguments(call)
        if not arguments or arguments[0].type != "object":
            continue
        for pair in arguments[0].named_children:
            key = pair.child_by_field_name("key") if pair.type == "pair" else None
            value = pair.child_by_field_name("value") if key is not None else None
            is_template = text(key).strip("'\"") == "template"
            if is_template and value is not None and value.type in ("string", "template_string"):
                ranges = _string_content_ranges(value)
                if ranges:
                    templates.append(ranges)
    return templates


def _string_content_ranges(literal: Node) -> list[tree_sitter.Range]:
    """The literal's text between its quotes, minus any ``${...}`` substitutions."""
    ranges = []
    start_byte, start_point = literal.start_byte + 1, (literal.start_point[0], literal.start_point[1] + 1)
    for child in literal.children:
        if child.type == "template_substitution":
            if child.start_byte > start_byte:
                ranges.append(tree_sitter.Range(start_point, child.start_point, start_byte, child.start_byte))
            start_byte, start_point = child.end_byte, child.end_point
    end_byte, end_point = literal.end_byte - 1, (literal.end_point[0], literal.end_point[1] - 1)
    if end_byte > start_byte:
        ranges.append(tree_sitter.Range(start_point, end_point, start_byte, end_byte))
    return ranges


EXTRACTOR = Extractor(
    name="forms",
    triggers=(b"toolname", b"toolName", b"ToolName", b"TOOLNAME"),
    kinds=frozenset({"element", *JSX_ELEMENT_KINDS, "decorator"}),
    extract=_extract,
    order=30,
)

"""WM3xx: descriptions say what a tool does and when to use it, never what the schema already says."""

from __future__ import annotations

from functools import lru_cache
from typing import Iterator, Sequence

from tree_sitter import Node

from webmcp_lint import vocabulary as words
from webmcp_lint.descriptions import (
    BOUND_KEYWORDS,
    DescriptionFacts,
    SchemaProperty,
    Statement,
    content_words,
    describe,
    input_properties,
    name_words,
    partial_text,
    referenced_identifiers,
    same_value,
)
from webmcp_lint.evaluate import Prop, Unknown
from webmcp_lint.memo import per_object
from webmcp_lint.model import Finding, Project, SourceKind, ToolDefinition
from webmcp_lint.rules import TOOLS, rule

MIN_BOUNDS = ("minimum", "exclusiveMinimum")
MAX_BOUNDS = ("maximum", "exclusiveMaximum")


class Description:
    """A description's text and what it belongs to (``owner`` is None for the tool's own).

    ``static`` is False when only part of the text is known (``…`` stands for the rest). ``facts`` is what the
    text states, shared by every description with the same text."""

    __slots__ = ("prop", "text", "owner", "static", "facts")

    def __init__(self, prop: Prop, text: str, owner: SchemaProperty | None, static: bool = True) -> None:
        self.prop = prop
        self.text = text
        self.owner = owner
        self.static = static
        self.facts: DescriptionFacts = describe(text)

    @property
    def node(self) -> Node:
        return self.prop.value_node or self.prop.key_node


def _description(prop: Prop | None, tool: ToolDefinition, owner: SchemaProperty | None) -> Description | None:
    if prop is None or (prop.value_node is None and prop.key_node is None):
        return None
    if isinstance(prop.value, str):
        return Description(prop, prop.value, owner)
    if isinstance(prop.value, Unknown):
        text = partial_text(prop.value_node, tool)
        if text is not None:
            return Description(prop, text, owner, static=False)
    return None


def _description_sites(tool: ToolDefinition) -> tuple[Description | None, list[Description]]:
    """The tool's own description, and its parameters' descriptions."""
    parameters = []
    for item in input_properties(tool):
        if item.description is not None:
            found = _description(item.description, tool, item)
            if found is not None:
                parameters.append(found)
    return _description(tool.prop("description"), tool, None), parameters


_descriptions_of = per_object(_description_sites)  # five rules read each tool's descriptions


def tool_description(tool: ToolDefinition, static_only: bool = False) -> Description | None:
    description = _descriptions_of(tool)[0]
    return description if description is not None and (description.static or not static_only) else None


def parameter_descriptions(tool: ToolDefinition) -> list[Description]:
    return _descriptions_of(tool)[1]


QUOTED_LENGTH = 80  # of a text a message quotes: a one-word description can be 50,000 characters


def _quote(text: str) -> str:
    return f'"{text}"' if len(text) <= QUOTED_LENGTH else f'"{text[:QUOTED_LENGTH - 1]}…"'


def _interpolated_keywords(description: Description, tool: ToolDefinition,
                           properties: Sequence[SchemaProperty]) -> list[str]:
    """``${SORT_ORDERS.join(", ")}`` where the schema's ``enum`` is ``SORT_ORDERS``: the same list, in prose."""
    used = referenced_identifiers(description.prop.value_node, tool)
    if not used:
        return []
    found = []
    for item in properties:
        for keyword in ("enum", "default") + BOUND_KEYWORDS:
            node = item.keyword_node(keyword)
            if node is not None and node.type in ("identifier", "member_expression") \
                    and node.text.decode("utf-8", errors="replace") in used:
                found.append(f"it interpolates {node.text.decode('utf-8', errors='replace')}, the `{keyword}` of `{item.name}`")
    return list(dict.fromkeys(found))


def _repeated_bounds(statements: list[Statement], item: SchemaProperty) -> list[str]:
    declared = item.bounds
    found = []
    for statement in statements:
        keys = [key for key, number in declared.items() if any(same_value(value, str(number)) for value in statement.values)]
        if keys:
            found.append(f"bound {_quote(statement.phrase)} (`{keys[0]}` of `{item.name}`)")
    return found


@rule("WM301", "description-repeats-schema", "warning", on=TOOLS)
def description_repeats_schema(tool: ToolDefinition, project: Project) -> Iterator[Finding]:
    description = tool_description(tool)
    properties = input_properties(tool)
    if description is None or not properties:
        return
    facts = description.facts
    names = facts.parameter_names([item.name for item in properties])
    repeats = [f"parameter name {_quote(name)}" for name in names] if names else []
    # "Returns true or false" describes the result; only a type word used as a type repeats the schema here.
    if facts.types:
        repeats += [f"type {_quote(statement.phrase)}" for statement in facts.types if statement.kind != "true/false"]
    for item in properties:
        values = facts.listed_values(item.enum_values)
        if len(values) >= 2:
            repeats.append(f"enum values {', '.join(map(_quote, values))} of `{item.name}`")
    if facts.defaults or facts.mentions_default:  # most descriptions say nothing of defaults
        for item in properties:
            declared = item.default_text
            if declared is not None and (any(same_value(value, declared) for statement in facts.defaults
                                             for value in statement.values) or facts.near_default_word(declared)):
                repeats.append(f"default {_quote(declared)} of `{item.name}`")
    if facts.bounds:
        for item in properties:
            repeats += _repeated_bounds(facts.bounds, item)
    repeats += _interpolated_keywords(description, tool, properties)
    if repeats:
        yield tool.finding(description.node, f"The tool description repeats the schema ({'; '.join(dict.fromkeys(repeats))}): "
                                             "the agent already receives inputSchema, so say only what the tool does "
                                             "and when to use it.")


@rule("WM302", "param-description-repeats-schema", "warning", on=TOOLS)
def param_description_repeats_schema(tool: ToolDefinition, project: Project) -> Iterator[Finding]:
    for description in parameter_descriptions(tool):
        item = description.owner
        facts = description.facts
        repeats = [f"its type {_quote(statement.phrase)}" for statement in facts.types] if facts.types else []
        values = facts.listed_values(item.enum_values)
        if len(values) >= 2:
            repeats.append(f"its enum values {', '.join(map(_quote, values))}")
        if item.default_text is not None and (facts.defaults or facts.mentions_default):
            stated = [f"its default {_quote(statement.phrase)}" for statement in facts.defaults]
            if not stated and facts.near_default_word(item.default_text):
                stated = [f"its default {_quote(item.default_text)}"]
            repeats += stated
        if facts.bounds:
            repeats += _repeated_bounds(facts.bounds, item)
        repeats += _interpolated_keywords(description, tool, [item])
        if repeats:
            yield tool.finding(description.node,
                               f"The description of `{item.name}` states {'; '.join(dict.fromkeys(repeats))}: say what "
                               "the value means and leave type, enum, default and bounds to the schema.")


def _bound_keywords(statement: Statement, item: SchemaProperty) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The schema keywords that would hold a stated bound: (for a minimum, for a maximum)."""
    unit = statement.unit
    if unit in words.LENGTH_UNITS or ("string" in item.types and unit not in words.ITEM_UNITS):
        return ("minLength",), ("maxLength",)
    if unit in words.ITEM_UNITS and "array" in item.types or item.types == {"array"}:
        return ("minItems",), ("maxItems",)
    return MIN_BOUNDS, MAX_BOUNDS


def _missing_bound(statement: Statement, item: SchemaProperty) -> str | None:
    """The keyword a stated bound belongs in when the property does not declare it."""
    if item.types == {"boolean"} or item.schema is None or item.schema.open:
        return None
    minimum, maximum = _bound_keywords(statement, item)
    wanted = []
    if statement.kind in ("min", "range"):
        wanted.append(minimum)
    if statement.kind in ("max", "range"):
        wanted.append(maximum)
    missing = [keys[0] for keys in wanted if not any(item.has(key) for key in keys)]
    return " / ".join(f"`{key}`" for key in missing) if missing else None


def _declared_by_some_parameter(statement: Statement, properties: Sequence[SchemaProperty]) -> bool:
    """Every number of a stated bound is a bound some parameter's schema declares."""
    declared = [number for item in properties for number in item.bounds.values()]
    return bool(statement.values) and all(any(same_value(value, str(number)) for number in declared)
                                          for value in statement.values)


def _names_parameters(statement: Statement, properties: Sequence[SchemaProperty]) -> bool:
    """"At least one of name or email": a list of parameters, not of values."""
    names = {item.name.lower() for item in properties}
    return all(value.lower() in names for value in statement.values)


def _undeclared_in_parameter(description: Description, properties: Sequence[SchemaProperty]) -> list[str]:
    item = description.owner
    if item.schema is None or item.schema.open or item.types == {"boolean"}:
        return []
    facts = description.facts
    moves = []
    if not item.has("enum") and not item.has("const"):
        lists = facts.value_lists or [facts.bare_value_list]
        moves += [f"allowed values {_quote(statement.phrase)} belong in `enum`" for statement in lists
                  if statement is not None and not _names_parameters(statement, properties)]
    if not item.has("default"):
        moves += [f"the default {_quote(statement.phrase)} belongs in `default`" for statement in facts.defaults]
    for statement in facts.bounds:
        missing = _missing_bound(statement, item)
        if missing:
            moves.append(f"the range {_quote(statement.phrase)} belongs in {missing}")
    return moves


def _mentioned(sentence_words: frozenset[str], item: SchemaProperty) -> bool:
    return not sentence_words.isdisjoint(_telling_words(item.name))


@lru_cache(maxsize=4096)
def _telling_words(name: str) -> frozenset[str]:
    """The words of a parameter name that can tell a sentence names it (three letters or more, no stop word);
    remembered, since each sentence that states a list or a range asks about every parameter."""
    return frozenset(word for word in name_words(name) if len(word) >= 3 and word not in words.STOP_WORDS)


def _undeclared_in_tool(description: Description, properties: Sequence[SchemaProperty]) -> list[str]:
    """Constraints the tool description states about a parameter it mentions (a list of values or a range in a
    sentence that names no parameter describes the result), and defaults no parameter declares."""
    facts = description.facts
    moves = []
    if facts.defaults:
        declared_defaults = [item.default_text for item in properties if item.default_text is not None]
        for statement in facts.defaults:
            if not any(same_value(value, declared) for value in statement.values for declared in declared_defaults):
                moves.append(f"the default {_quote(statement.phrase)} belongs in the parameter's `default`")
    if not facts.value_lists and not facts.bounds:
        return moves  # the sentences' words are only needed to place a list or a range
    for index, (value_lists, bounds) in enumerate(zip(facts.value_lists_by_sentence, facts.bounds_by_sentence)):
        if not value_lists and not bounds:
            continue
        sentence_words = facts.sentence_words(index)
        mentioned = [item for item in properties if _mentioned(sentence_words, item)]
        for statement in value_lists:
            owners = [item for item in mentioned if not item.has("enum")]
            if owners and not _names_parameters(statement, properties) and not any(
                    len(describe(" ".join(statement.values)).listed_values(item.enum_values)) >= 2 for item in properties):
                moves.append(f"allowed values {_quote(statement.phrase)} belong in the `enum` of `{owners[0].name}`")
        for statement in bounds:
            if _declared_by_some_parameter(statement, properties):
                continue  # the schema declares it, maybe on a parameter the sentence does not name: WM301's case
            for item in mentioned:
                missing = _missing_bound(statement, item)
                if missing:
                    moves.append(f"the range {_quote(statement.phrase)} belongs in {missing} of `{item.name}`")
    return moves


@rule("WM303", "constraint-only-in-description", "warning", on=TOOLS)
def constraint_only_in_description(tool: ToolDefinition, project: Project) -> Iterator[Finding]:
    properties = input_properties(tool)
    description = tool_description(tool)
    sites = ([description] if description is not None and properties else []) + parameter_descriptions(tool)
    for site in sites:
        if not site.facts.states_constraints:
            continue  # most descriptions state no list of values, default or bound
        moves = _undeclared_in_tool(site, properties) if site.owner is None else _undeclared_in_parameter(site, properties)
        if moves:
            subject = "The tool description" if site.owner is None else f"The description of `{site.owner.name}`"
            yield tool.finding(site.node, f"{subject} states a constraint the schema does not declare "
                                          f"({'; '.join(dict.fromkeys(moves))}): declare it in the schema, where the "
                                          "agent reads constraints.")


@rule("WM304", "uninformative-description", "info", on=TOOLS)
def uninformative_description(tool: ToolDefinition, project: Project) -> Iterator[Finding]:
    description = tool_description(tool, static_only=True)
    if description is None or not description.text or description.text.isspace():
        return
    facts = description.facts
    if facts.has_fewer_words(words.MIN_DESCRIPTION_WORDS):
        yield tool.finding(description.node, f"The description {_quote(description.text.strip())} has fewer than "
                                             f"{words.MIN_DESCRIPTION_WORDS} words: say what the tool does and when "
                                             "to use it.")
        return
    name = tool.name
    if not name:
        return
    named = name_words(name)
    # A name has at least as many words as content words: a longer description cannot restate it.
    described = facts.content_within(len(named))
    if described is not None and described == tuple(content_words(named)):
        yield tool.finding(description.node, f"The description {_quote(description.text.strip())} only restates the "
                                             f"name {_quote(name)}: say what the tool does and when to use it.")


@rule("WM305", "long-description", "info", on=TOOLS)
def long_description(tool: ToolDefinition, project: Project) -> Iterator[Finding]:
    description = tool_description(tool, static_only=True)
    if description is not None and len(description.text) > words.TOOL_DESCRIPTION_BUDGET:
        yield tool.finding(description.node, f"The tool description is {len(description.text)} characters, over "
                                             f"Chrome's budget of {words.TOOL_DESCRIPTION_BUDGET}: keep what the tool "
                                             "does and when to use it, and move constraints into the schema.")
    for parameter in parameter_descriptions(tool):
        if parameter.static and len(parameter.text) > words.PARAMETER_DESCRIPTION_BUDGET:
            yield tool.finding(parameter.node, f"The description of `{parameter.owner.name}` is {len(parameter.text)} "
                                               f"characters, over Chrome's budget of "
                                               f"{words.PARAMETER_DESCRIPTION_BUDGET}: say in one sentence what the "
                                               "value means.")


@rule("WM306", "missing-parameter-description", "info", on=TOOLS)
def missing_parameter_description(tool: ToolDefinition, project: Project) -> Iterator[Finding]:
    if tool.source_kind == SourceKind.FORM:
        return  # a form field without a description is WM704's
    for item in input_properties(tool):
        schema = item.schema
        if schema is None or schema.open or "description" in schema.props or "$ref" in schema.props:
            continue
        node = item.prop.key_node or item.prop.value_node
        if node is not None:
            yield tool.finding(node, f"The parameter `{item.name}` has no `description`: say what the value means, "
                                     "so the agent can fill it in correctly.")

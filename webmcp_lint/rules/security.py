"""WM6xx: security and annotations (origins, hints, hidden text, instructions to the agent, secrets)."""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path
from typing import Iterator

from tree_sitter import Node

from webmcp_lint import vocabulary as words
from webmcp_lint.descriptions import (
    SchemaProperty,
    consequential_action,
    developer_tooling,
    input_properties,
    name_words,
    partial_text,
    reads_like_query,
    tokenize,
)
from webmcp_lint.evaluate import UNDEFINED, JSArray, JSObject, Prop, Unknown, Value
from webmcp_lint.memo import per_object
from webmcp_lint.execute import execute_of
from webmcp_lint.model import FileAnalysis, Finding, Project, SourceKind, ToolDefinition, finding_at
from webmcp_lint.origins import origin_problem
from webmcp_lint.pattern_openings import GuardedPatterns
from webmcp_lint.project_index import absolute
from webmcp_lint.provenance import non_static_parts
from webmcp_lint.rules import FILES, PAGES, TOOLS, rule
from webmcp_lint.syntax import call_arguments
from webmcp_lint.untrusted import returns_untrusted_content


def _annotations_known(tool: ToolDefinition, annotations: Value) -> bool:
    """The definition can carry annotations (a form has none), and ``annotations``, its value, is known."""
    return tool.source_kind != SourceKind.FORM and not isinstance(annotations, Unknown) \
        and not (isinstance(annotations, JSObject) and annotations.open)


def _static_text(tool: ToolDefinition, key: str) -> str | None:
    value = tool.get(key)
    return value if isinstance(value, str) else None


class HintFacts:
    """What the hint rules (WM602..WM606, WM612) read of a tool: whether its annotations are known, each hint
    (UNDEFINED when absent, Unknown when computed at run time) and the static name and description the hints
    are judged by. Read once per tool: six rules ask."""

    __slots__ = ("known", "read_only", "consequential", "untrusted", "debugging", "name", "description")

    def __init__(self, tool: ToolDefinition) -> None:
        annotations = tool.get("annotations")  # read once for all the facts below
        self.known = _annotations_known(tool, annotations)
        # An object literal: read it directly.
        hint = annotations.get if isinstance(annotations, JSObject) else tool.annotation
        self.read_only = hint("readOnlyHint")
        self.consequential = hint("consequentialHint")
        self.untrusted = hint("untrustedContentHint")
        self.debugging = hint("debugging")
        self.name = _static_text(tool, "name")
        self.description = _static_text(tool, "description")


hint_facts = per_object(HintFacts)


def _named_action(tool: ToolDefinition) -> str | None:
    """The consequential action the tool's name or description names (WM602, WM604 and WM612 ask)."""
    facts = hint_facts(tool)
    return consequential_action(facts.name, facts.description)


named_action = per_object(_named_action)


def _set_or_unknown(value: Value) -> bool:
    """The annotation is true, or computed at run time (the linter cannot tell)."""
    return value is True or isinstance(value, Unknown)


def _annotation_key(tool: ToolDefinition, key: str) -> Node:
    annotations = tool.annotations
    prop = annotations.props.get(key) if annotations is not None else None
    return prop.key_node if prop is not None and prop.key_node is not None else tool.anchor


# --- WM601 -------------------------------------------------------------------------------------------

def _origin_entries(value: Value, node: Node | None) -> Iterator[tuple[str, Node]]:
    """Static string entries of an origin list (a lone string counts as one entry)."""
    if isinstance(value, str) and node is not None:
        yield value, node
    elif isinstance(value, JSArray):
        for item in value.items:
            if isinstance(item.value, str) and item.node is not None:
                yield item.value, item.node


def _option(options: Value, key: str) -> Prop | None:
    return options.props.get(key) if isinstance(options, JSObject) else None


@rule("WM601", "insecure-origin", "error", on=FILES)
def insecure_origin(analysis: FileAnalysis) -> Iterator[Finding]:
    lists: list[tuple[str, Prop | None]] = [("exposedTo", _option(registration.options, "exposedTo"))
                                            for registration in analysis.registrations]
    for call in analysis.model_context_calls:
        arguments = call_arguments(call.call) if call.method == "getTools" else []
        if arguments:
            lists.append(("fromOrigins", _option(call.script.evaluator.value(arguments[0]), "fromOrigins")))
    for option, prop in lists:
        if prop is None:
            continue
        for entry, node in _origin_entries(prop.value, prop.value_node):
            problem = origin_problem(entry)
            if problem is not None:
                yield finding_at(analysis.source, node, f'"{entry}" in {option} is {problem}, so registerTool '
                                                        "rejects it with a SecurityError: list exact https origins "
                                                        "(or localhost).")


# --- WM602..WM606: hints a tool's purpose calls for ---------------------------------------------------

@rule("WM602", "missing-consequential-hint", "warning", on=TOOLS)
def missing_consequential_hint(tool: ToolDefinition, project: Project) -> Iterator[Finding]:
    facts = hint_facts(tool)
    if not facts.known or facts.consequential is not UNDEFINED or facts.read_only is True:
        return
    action = named_action(tool)
    if action is not None:
        yield tool.finding(tool.anchor, f'The tool names a consequential action ("{action}") but does not set '
                                        "`consequentialHint`: set it to true so agents ask the user first "
                                        "(or to false to record that the action is harmless).")


@rule("WM603", "read-only-hint-contradiction", "warning", on=TOOLS)
def read_only_hint_contradiction(tool: ToolDefinition, project: Project) -> Iterator[Finding]:
    facts = hint_facts(tool)
    if not facts.known or facts.read_only is not True:
        return
    if facts.consequential is True:
        yield tool.finding(_annotation_key(tool, "readOnlyHint"),
                           "`readOnlyHint: true` contradicts `consequentialHint: true`: a tool that only reads has no "
                           "consequences; drop the hint that is wrong.")
    model = execute_of(tool, project)
    if model is not None and model.writes:
        write = model.writes[0]
        line = tool.source.position(write.node.start_byte)[0] if write.node is not None else "?"
        yield tool.finding(_annotation_key(tool, "readOnlyHint"),
                           f"`readOnlyHint: true`, but execute writes state ({write.description} on line {line}): "
                           "remove the hint, or the write.")


def _may_write(tool: ToolDefinition, project: Project) -> bool | None:
    """None when execute is not known; else whether it writes, or sends a request whose method is unknown."""
    model = execute_of(tool, project)
    if model is None:
        return None
    return bool(model.writes) or any(fetch.method is None for fetch in model.fetches)


@rule("WM604", "missing-read-only-hint", "info", on=TOOLS)
def missing_read_only_hint(tool: ToolDefinition, project: Project) -> Iterator[Finding]:
    facts = hint_facts(tool)
    if not facts.known or facts.read_only is not UNDEFINED:
        return
    name = facts.name
    if not reads_like_query(name) or named_action(tool) is not None:
        return
    if _may_write(tool, project) is False:
        yield tool.finding(tool.anchor, f'"{name}" reads like a query and execute writes nothing, but '
                                        "`readOnlyHint` is not set: set it to true so agents may call the tool "
                                        "without asking.")


def _untrusted_request(tool: ToolDefinition, project: Project):
    """The request whose foreign content a tool returns without ``untrustedContentHint: true`` (WM605)."""
    facts = hint_facts(tool)
    if not facts.known or _set_or_unknown(facts.untrusted):
        return None
    model = execute_of(tool, project)
    return returns_untrusted_content(model) if model is not None else None


untrusted_request = per_object(_untrusted_request)  # WM605 and WM612 ask


@rule("WM605", "missing-untrusted-content-hint", "warning", on=TOOLS)
def missing_untrusted_content_hint(tool: ToolDefinition, project: Project) -> Iterator[Finding]:
    request = untrusted_request(tool, project)
    if request is not None:
        url = request.url.text.decode("utf-8", errors="replace") if request.url is not None else "a URL"
        url = url if len(url) <= 60 else url[:57] + "..."
        yield tool.finding(tool.anchor, f"execute returns content fetched from {url}, which this site does not "
                                        "control, without `untrustedContentHint: true`: set it so agents treat the "
                                        "result as data, not instructions.")


@rule("WM606", "missing-debugging-hint", "info", on=TOOLS)
def missing_debugging_hint(tool: ToolDefinition, project: Project) -> Iterator[Finding]:
    facts = hint_facts(tool)
    if not facts.known or _set_or_unknown(facts.debugging):
        return
    found = developer_tooling(facts.name, facts.description)
    if found is not None:
        yield tool.finding(tool.anchor, f'The tool is developer tooling ("{found}") but does not set '
                                        "`debugging: true`: set it so agents keep it apart from end-user actions.")


# --- WM607, WM608: text the agent reads -----------------------------------------------------------------

HIDDEN_RANGES = ((0x202A, 0x202E), (0x2066, 0x2069), (0x200B, 0x200D), (0x2060, 0x2060), (0xFEFF, 0xFEFF))
# Invisible although not format characters (fillers, the combining grapheme joiner, the braille blank).
INVISIBLE_OTHERS = frozenset({0x034F, 0x115F, 0x1160, 0x17B4, 0x17B5, 0x2800, 0x3164, 0xFFA0})


def hidden_characters(text: str) -> list[str]:
    """``U+202E RIGHT-TO-LEFT OVERRIDE`` for each distinct invisible character in ``text``."""
    if text.isascii():
        return []
    import unicodedata  # a shared library, loaded for the first text outside ASCII: most runs meet none

    def is_hidden(character: str) -> bool:
        code = ord(character)
        return any(low <= code <= high for low, high in HIDDEN_RANGES) or code in INVISIBLE_OTHERS \
            or unicodedata.category(character) == "Cf"

    found = dict.fromkeys(character for character in text if is_hidden(character))
    return [f"U+{ord(character):04X} {unicodedata.name(character, 'FORMAT CHARACTER')}" for character in found]


def _known_text(tool: ToolDefinition, prop: Prop) -> str | None:
    """A text's value with escapes decoded; for a partly computed one, its known parts."""
    if isinstance(prop.value, str):
        return prop.value
    if isinstance(prop.value, Unknown):
        return partial_text(prop.value_node, tool)
    return None


# A text of a tool that the agent reads: (label, parameter, node, is_description, text). ``text`` is the key
# itself for a parameter name, else the value's known text (see ``_known_text``), written at ``node``. ``label``
# names the text in messages, with ``{}`` for the parameter (formatted only for a finding). WM608 reads the
# descriptions. A plain tuple: a tool has about eight texts, and an object per text cost more than both rules' look.
TextField = tuple[str, str, Node | None, bool, str | None]

_TOOL_TEXTS = (("name", "tool name", False), ("description", "tool description", True))


def _text_fields(tool: ToolDefinition) -> list[TextField]:
    """The tool's name and description and each parameter's name and description."""
    fields = []
    for key, label, is_description in _TOOL_TEXTS:
        prop = tool.prop(key)
        if prop is not None:
            fields.append((label, "", prop.value_node or prop.key_node, is_description, _known_text(tool, prop)))
    for item in input_properties(tool):
        prop = item.prop
        fields.append(("parameter name `{}`", item.name, prop.key_node, False, prop.key))
        description = item.description
        if description is not None:
            fields.append(("description of `{}`", item.name, description.value_node or description.key_node, True,
                           _known_text(tool, description)))
    return fields


text_fields = per_object(_text_fields)  # WM607 and WM608 read each tool's texts


# Nodes whose every character outside ASCII is also in their known text (a string literal's value, a property
# name's key) when they parse without error: escapes only add characters, and a line continuation drops only line
# separators, which are not hidden. For these, an ASCII text needs no look at the written bytes (``node.text``
# costs three ``.type``). A string without its closing quote is not one: its value loses its last character.
_SPELLED_AS_KNOWN = frozenset({"string", "property_identifier"})


@rule("WM607", "hidden-characters", "error", on=TOOLS)
def hidden_characters_rule(tool: ToolDefinition, project: Project) -> Iterator[Finding]:
    for label, parameter, node, _, text in text_fields(tool):
        if node is None:
            continue
        known = text or ""
        if known.isascii() and ((node.type in _SPELLED_AS_KNOWN and not node.has_error) or node.text.isascii()):
            continue  # every hidden character is outside ASCII
        values = [known, node.text.decode("utf-8", errors="replace")]
        found = list(dict.fromkeys(name for value in values for name in hidden_characters(value)))
        if found:
            yield tool.finding(node, f"The {label.format(parameter)} contains {', '.join(found)}, invisible to a "
                                     "reviewer but read by the agent: remove it.")


# A description holds the guard texts of few patterns, and looking for all of them once costs less than one
# search; each pattern is compiled only when some text calls for it.
AGENT_INSTRUCTIONS = GuardedPatterns(words.AGENT_INSTRUCTION_PATTERNS)
_BLANK_RUN = re.compile(r"\s+")


@lru_cache(maxsize=4096)
def agent_instruction(text: str) -> str | None:
    """The phrase that addresses the agent with instructions beyond when to use the tool, if any.

    Remembered per text: tools repeat descriptions, and each one is matched against many patterns."""
    lowered = text.lower().replace("\u2019", "'")
    if "  " in lowered or not lowered.isprintable():
        # Blanks to collapse: two spaces, or a blank other than the space (every other blank is unprintable).
        # Most texts have neither, and a substitution builds the text anew at each single space.
        lowered = _BLANK_RUN.sub(" ", lowered)
    match = AGENT_INSTRUCTIONS.first_match(lowered)
    return _matched_text(text, lowered, match) if match is not None else None


def _matched_text(original: str, lowered: str, match: re.Match[str]) -> str:
    """The matched phrase as written, when lower-casing kept the offsets."""
    if len(original) == len(lowered):
        return original[match.start():match.end()].strip()
    return match.group(0).strip()


@rule("WM608", "instructions-to-agent", "warning", on=TOOLS)
def instructions_to_agent(tool: ToolDefinition, project: Project) -> Iterator[Finding]:
    for label, parameter, node, is_description, text in text_fields(tool):
        if not is_description or text is None:
            continue
        phrase = agent_instruction(text)
        if phrase is not None and node is not None:
            yield tool.finding(node, f'The {label.format(parameter)} gives the agent instructions ("{phrase}"): say '
                                     "what the tool does and when to use it; anything else reads as prompt injection.")


# --- WM609, WM610: parameters ------------------------------------------------------------------------------

def _phrase_in(sequence: list[str], phrase: tuple[str, ...]) -> bool:
    size = len(phrase)
    return any(tuple(sequence[index:index + size]) == phrase for index in range(len(sequence) - size + 1))


def _secret_in(sequence: list[str], *, in_name: bool) -> str | None:
    for word in sequence:
        if word in words.SENSITIVE_WORDS and (in_name or word != "pin"):
            return word
    present = set(sequence)
    for phrase in words.SENSITIVE_PHRASES:
        if phrase[0] not in present:  # cannot match: skip the scan
            continue
        if phrase == ("token",) and (not in_name or any(word in words.NOT_SECRET_TOKEN_NEIGHBOURS for word in sequence)):
            continue
        if len(phrase) == 1 and not in_name and phrase[0] != "credentials":
            continue
        if _phrase_in(sequence, phrase):
            return " ".join(phrase)
    joined = "".join(sequence)  # "apikey", "privatekey" written as one word
    return joined if in_name and joined in words.SENSITIVE_WORDS else None


BOOLEAN_ONLY = frozenset({"boolean"})  # a yes/no parameter asks for no secret, whatever its description says


def sensitive_parameter(item: SchemaProperty) -> str | None:
    """The secret a property's name or description asks for ("password", "card number"), if any."""
    found = _secret_in_name(item.name)
    if found is not None:
        return found
    description = item.description.value if item.description is not None else None
    if not isinstance(description, str) or item.types == BOOLEAN_ONLY:
        return None
    return _secret_in_description(description)


@lru_cache(maxsize=4096)
def _secret_in_name(name: str) -> str | None:
    """Remembered per name: tools repeat parameter names."""
    return _secret_in(name_words(name), in_name=True)


@lru_cache(maxsize=4096)
def _secret_in_description(description: str) -> str | None:
    """Remembered per text: tools repeat parameter descriptions."""
    tokens = tokenize(description)
    spelled = next((token.text for token in tokens if token.text in words.CASE_SENSITIVE_SENSITIVE_WORDS), None)
    if spelled is not None:
        return spelled
    return _secret_in([word for token in tokens if token.is_word for word in name_words(token.text)], in_name=False)


@rule("WM609", "sensitive-parameter", "warning", on=TOOLS)
def sensitive_parameter_rule(tool: ToolDefinition, project: Project) -> Iterator[Finding]:
    if tool.source_kind == SourceKind.FORM:
        return  # a form's password or payment field is WM706's
    for item in input_properties(tool):
        secret = sensitive_parameter(item)
        if secret is None:
            continue
        node = item.prop.key_node or item.prop.value_node
        if node is not None:
            yield tool.finding(node, f"The parameter `{item.name}` asks the agent for a secret ({secret}): the value "
                                     "passes through the agent's context; let the user enter it in the page instead.")


RISK_CONSTRAINTS = frozenset({"enum", "pattern", "format", "maxLength", "const"})


@lru_cache(maxsize=4096)
def risky_kind(name: str) -> str | None:
    """What a parameter name says it carries ("a URL", "SQL"...), if it is something risky.

    Remembered per name: tools repeat parameter names."""
    parts = name_words(name)
    for index, part in enumerate(parts):
        kind = words.RISKY_PARAMETER_WORDS.get(part)
        if kind is None:
            continue
        if part in words.LAST_WORD_ONLY and index != len(parts) - 1:
            continue
        if part == "code" and index > 0 and parts[index - 1] not in words.CODE_QUALIFIERS:
            continue
        return kind
    return None


@rule("WM610", "unconstrained-risky-parameter", "info", on=TOOLS)
def unconstrained_risky_parameter(tool: ToolDefinition, project: Project) -> Iterator[Finding]:
    for item in input_properties(tool):
        schema = item.schema
        if schema is None or schema.open or "string" not in item.types or not RISK_CONSTRAINTS.isdisjoint(schema.props):
            continue
        kind = risky_kind(item.name)
        if kind is None:
            continue
        node = item.prop.key_node or item.prop.value_node
        if node is not None:
            yield tool.finding(node, f"The parameter `{item.name}` carries {kind} with no `enum`, `pattern`, `format` "
                                     "or `maxLength`: constrain it in the schema, and treat the value as hostile in "
                                     "execute.")


# --- WM611 ------------------------------------------------------------------------------------------------

@rule("WM611", "dynamic-description", "info", on=TOOLS)
def dynamic_description(tool: ToolDefinition, project: Project) -> Iterator[Finding]:
    if tool.script is None:
        return
    for key in ("name", "description"):
        prop = tool.prop(key)
        if prop is None or prop.value_node is None or not isinstance(prop.value, Unknown):
            continue
        parts = non_static_parts(prop.value_node, (tool.script_holding(prop.value_node) or tool.script).scopes)
        if parts:
            shown = ", ".join(f"`{part}`" for part in parts[:3])
            yield tool.finding(prop.value_node, f"The tool {key} is built from values only known at run time "
                                                f"({shown}): text of unknown origin goes straight into the agent's "
                                                "context; build it from constants.")


# --- WM612 ------------------------------------------------------------------------------------------------

MAX_PAGE_MODULES = 500


def pages(project: Project) -> list[dict[tuple[str, int, int], ToolDefinition]]:
    """The tools of each page by identity: a file's own tools plus those of the modules it imports (transitively)."""
    by_path = {absolute(analysis.source.path): analysis for analysis in project.files}
    tool_stems = {analysis.source.path.stem.encode() for analysis in project.files if analysis.tools}
    imported: dict[int, list[FileAnalysis]] = {
        id(analysis): [by_path[path] for path in _imported_paths(analysis, project, tool_stems) if path in by_path]
        for analysis in project.files}
    found = []
    for analysis in project.files:
        tools: dict[tuple[str, int, int], ToolDefinition] = {}
        stack, seen = [analysis], set()
        while stack and len(seen) < MAX_PAGE_MODULES:
            module = stack.pop()
            if id(module) in seen:
                continue
            seen.add(id(module))
            for tool in module.tools:
                tools.setdefault(tool.identity, tool)
            stack.extend(imported[id(module)])
        if tools:
            found.append(tools)
    return found


def _imported_paths(analysis: FileAnalysis, project: Project, tool_stems: set[bytes]) -> list[Path]:
    """Relative imports of a file. A file the prefilter skipped (an entry module without WebMCP code) is
    parsed only when its text names a module that has tools."""
    if project.index is None:
        return []
    scripts = analysis.scripts
    if not scripts and any(stem in analysis.source.data for stem in tool_stems):
        module = project.index.module_script(absolute(analysis.source.path))
        scripts = [module] if module is not None else []
    return project.index.imported_files(scripts, analysis.source.path)


def is_consequential(tool: ToolDefinition) -> bool:
    facts = hint_facts(tool)
    if tool.source_kind != SourceKind.FORM and facts.consequential is True:
        return True
    if facts.consequential is False or facts.read_only is True:
        return False
    return named_action(tool) is not None


def returns_untrusted(tool: ToolDefinition, project: Project) -> bool:
    facts = hint_facts(tool)
    if not facts.known:
        return False
    return facts.untrusted is True or untrusted_request(tool, project) is not None


@rule("WM612", "untrusted-content-beside-actions", "warning", on=PAGES)
def untrusted_content_beside_actions(project: Project) -> Iterator[Finding]:
    # A tool is on many pages (every page that imports its module): decide each fact once per tool. Without a
    # tool that returns untrusted content there is nothing to find, and no page to build (most projects).
    untrusted_tools = {id(tool): returns_untrusted(tool, project)
                       for analysis in project.files for tool in analysis.tools}
    if not any(untrusted_tools.values()):
        return
    beside: dict[tuple[str, int, int], tuple[ToolDefinition, dict[str, None]]] = {}
    consequential_tools: dict[int, bool] = {}
    for tools in pages(project):
        for tool in tools.values():
            if id(tool) not in consequential_tools:
                consequential_tools[id(tool)] = is_consequential(tool)
        consequential = [(identity, tool) for identity, tool in tools.items() if consequential_tools[id(tool)]]
        if not consequential:
            continue
        for identity, tool in tools.items():
            others = [other for other_identity, other in consequential if other_identity != identity]
            if others and untrusted_tools[id(tool)]:
                names = beside.setdefault(identity, (tool, {}))[1]
                names.update(dict.fromkeys(f'"{other.name}"' if other.name else "an unnamed tool" for other in others))
    for tool, names in beside.values():
        yield tool.finding(tool.anchor, f"This tool returns untrusted content on the same page as consequential "
                                        f"tools ({', '.join(names)}): text an attacker controls can steer the agent "
                                        "into acting; move them apart or make the actions confirm with the user.")

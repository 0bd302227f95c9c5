"""Scripts inside markup: ``.html``/``.htm`` pages, Vue and Svelte components.

tree-sitter-html finds each ``<script>`` element and its raw text; the text is
then parsed in its own language with ``included_ranges``, so every node keeps
its byte offset in the containing file and a finding needs no position
translation. The markup tree itself is kept too: forms live there.

Grouping follows how the browser and the frameworks scope the code: a page's
classic scripts share one global scope (one tree), each ``type="module"``
script has its own (one tree each); a Vue or Svelte component's scripts
(``<script>`` + ``<script setup>``, ``context="module"`` + instance) are one
module (one tree per language).
"""

from __future__ import annotations

import bisect
import re
from pathlib import Path

import tree_sitter
from tree_sitter import Node

from webmcp_lint.languages import HTML, JAVASCRIPT, TSX, TYPESCRIPT, nodes_by_kind, parse
from webmcp_lint.record import Record

PAGE_SUFFIXES = frozenset({".html", ".htm"})
COMPONENT_SUFFIXES = frozenset({".vue", ".svelte"})
EMBEDDING_SUFFIXES = PAGE_SUFFIXES | COMPONENT_SUFFIXES

# `type` values the browser runs as classic JavaScript (plus JSX that Babel-in-the-browser runs).
CLASSIC_SCRIPT_TYPES = frozenset({
    "", "text/javascript", "application/javascript", "application/x-javascript", "text/ecmascript",
    "application/ecmascript", "text/jsx", "text/babel",
})
MODULE_SCRIPT_TYPE = "module"
LANGUAGE_BY_LANG = {
    "": JAVASCRIPT, "js": JAVASCRIPT, "javascript": JAVASCRIPT, "jsx": JAVASCRIPT,
    "ts": TYPESCRIPT, "typescript": TYPESCRIPT, "tsx": TSX,
}
_MARKUP_KINDS = frozenset({"start_tag", "raw_text"})


class ScriptSection(Record):
    """The scripts of one scope: a language and the byte ranges of their text in the file."""

    _compared = ("language", "ranges", "tree")

    def __init__(self, language: str, ranges: list[tree_sitter.Range] | None = None,
                 tree: tree_sitter.Tree | None = None) -> None:
        self.language = language
        self.ranges = [] if ranges is None else ranges
        self.tree = tree  # already parsed (to check how the scripts combine)


class Markup(Record):
    """A markup file split up: its HTML tree and the script sections to parse."""

    _compared = ("tree", "sections")

    def __init__(self, tree: tree_sitter.Tree, sections: list[ScriptSection]) -> None:
        self.tree = tree
        self.sections = sections


def is_embedding(path: str) -> bool:
    return Path(path).suffix.lower() in EMBEDDING_SUFFIXES


def split_markup(data: bytes, path: str) -> Markup:
    """Parse the markup and group its scripts into sections (one per scope and language)."""
    suffix = Path(path).suffix.lower()
    tree = parse(mask_svelte_expressions(data) if suffix == ".svelte" else data, HTML)
    is_page = suffix in PAGE_SUFFIXES
    shared_by_language: dict[str, list[tree_sitter.Range]] = {}
    sections: list[ScriptSection] = []
    for start_tag, text in _script_texts(tree.root_node):
        attributes = start_tag_attributes(start_tag)
        if "src" in attributes:
            continue
        kind = _script_kind(attributes, is_page)
        if kind is None:
            continue
        language, own_scope = kind
        script_range = tree_sitter.Range(text.start_point, text.end_point, text.start_byte, text.end_byte)
        if own_scope:
            sections.append(ScriptSection(language, [script_range]))
        else:
            shared_by_language.setdefault(language, []).append(script_range)
    for language, ranges in shared_by_language.items():
        sections.extend(_shared_scope_sections(data, language, ranges))
    sections.sort(key=lambda section: section.ranges[0].start_byte)
    return Markup(tree, sections)


def _shared_scope_sections(data: bytes, language: str, ranges: list[tree_sitter.Range]) -> list[ScriptSection]:
    """Scripts sharing a scope, parsed as one tree when that reads each of them as the browser does.

    Concatenated, a script with a syntax error would swallow the next one (the browser drops only the
    broken script), and a trailing ``// comment`` or a missing semicolon would run into it; such scripts
    get a tree of their own, so one bad script never hides another."""
    if len(ranges) == 1:
        return [ScriptSection(language, ranges)]
    parses_alone = [not parse(data, language, [script]).root_node.has_error for script in ranges]
    clean = [script for script, parses in zip(ranges, parses_alone) if parses]
    alone = [ScriptSection(language, [script]) for script, parses in zip(ranges, parses_alone) if not parses]
    if len(clean) > 1:
        combined = parse(data, language, clean)
        if _statements_stay_in_their_scripts(combined.root_node, clean):
            return alone + [ScriptSection(language, clean, combined)]
    return alone + [ScriptSection(language, [script]) for script in clean]


def _statements_stay_in_their_scripts(root: Node, ranges: list[tree_sitter.Range]) -> bool:
    if root.has_error:
        return False
    ends = [script.end_byte for script in ranges]
    for statement in root.children:
        index = bisect.bisect_left(ends, statement.start_byte + 1)  # the script the statement starts in
        if index == len(ends) or statement.end_byte > ends[index]:
            return False
    return True


_MASK_START = re.compile(rb"<(script|style)\b|\{", re.IGNORECASE)
# Characters inside a Svelte `{expression}` that tree-sitter-html would read as markup become `_`.
_MASK_TABLE = bytes.maketrans(b"\"'`<>= \t", b"_" * 8)


def mask_svelte_expressions(data: bytes) -> bytes:
    """Svelte markup with quotes, spaces and angle brackets inside ``{...}`` blanked out (same length).

    tree-sitter-html cannot read ``toolname={"x"}`` or ``{#if a > b}``; masked, the markup parses and
    every offset is unchanged. Script and style bodies are left alone; readers of an expression's
    value take it from the original bytes."""
    masked = bytearray(data)
    lowered = data.lower()
    position = 0
    while (found := _MASK_START.search(data, position)) is not None:
        if found.group(0) == b"{":
            end = expression_end(data, found.start())
            masked[found.start() + 1:end] = data[found.start() + 1:end].translate(_MASK_TABLE)
            position = end + 1
        else:
            close = lowered.find(b"</" + found.group(1).lower(), found.end())
            position = len(data) if close == -1 else close + 2
    return bytes(masked)


def expression_end(data: bytes, start: int) -> int:
    """The offset of the ``}`` closing the ``{`` at ``start`` (string literals skipped), or the end of data."""
    depth = 0
    quote = None
    position = start
    while position < len(data):
        character = data[position]
        if quote is not None:
            if character == ord("\\"):
                position += 1
            elif character == quote:
                quote = None
        elif character in b"\"'`":
            quote = character
        elif character == ord("{"):
            depth += 1
        elif character == ord("}"):
            depth -= 1
            if depth == 0:
                return position
        position += 1
    return len(data)


def _script_texts(root: Node) -> list[tuple[Node, Node]]:
    """(start tag, raw text) of every non-empty script, closed or not (an unterminated one runs to the end)."""
    found = []
    for text in nodes_by_kind(root, HTML, _MARKUP_KINDS).get("raw_text", ()):
        start_tag = text.prev_sibling
        if text.end_byte > text.start_byte and start_tag is not None and start_tag.type == "start_tag" \
                and tag_name(start_tag) == "script":
            found.append((start_tag, text))
    return found


def _script_kind(attributes: dict[str, str], is_page: bool) -> tuple[str, bool] | None:
    """(language, has its own scope) of a script, or None when it is not JavaScript/TypeScript."""
    script_type = attributes.get("type", "").strip().lower()
    if script_type not in CLASSIC_SCRIPT_TYPES and script_type != MODULE_SCRIPT_TYPE:
        return None
    if is_page:
        return JAVASCRIPT, script_type == MODULE_SCRIPT_TYPE
    language = LANGUAGE_BY_LANG.get(attributes.get("lang", "").strip().lower())
    return (language, False) if language is not None else None


def tag_name(tag: Node) -> str:
    """The lower-cased name of a start tag, self-closing tag or element."""
    if tag.type in ("element", "script_element", "style_element"):
        tag = tag.child(0) or tag
    name = next((child for child in tag.named_children if child.type == "tag_name"), None)
    return name.text.decode("utf-8", errors="replace").lower() if name is not None else ""


def attribute_parts(attribute: Node) -> tuple[Node | None, Node | None]:
    """(name node, value node) of an HTML attribute; the value node is None for a bare attribute."""
    name = value = None
    for child in attribute.named_children:
        if child.type == "attribute_name":
            name = child
        elif child.type == "attribute_value":
            value = child
        elif child.type == "quoted_attribute_value":
            value = next((grand for grand in child.named_children if grand.type == "attribute_value"), child)
    return name, value


def attribute_text(value: Node | None) -> str:
    """An attribute's value with character references decoded ("" for ``a=""`` or a bare attribute)."""
    if value is None or value.type == "quoted_attribute_value":
        return ""
    return unescape_html(value.text.decode("utf-8", errors="replace"))


def unescape_html(text: str) -> str:
    """``html.unescape``, its module imported on first use: only markup and JSX forms need it, and with its
    entity table it is about 1.5 ms of the serial start of a run over scripts."""
    import html

    return html.unescape(text)


def start_tag_attributes(tag: Node) -> dict[str, str]:
    """Lower-cased attribute names to decoded values; the first of a repeated attribute wins, as in browsers."""
    attributes: dict[str, str] = {}
    for child in tag.named_children:
        if child.type == "attribute":
            name, value = attribute_parts(child)
            if name is not None:
                attributes.setdefault(name.text.decode("utf-8", errors="replace").lower(), attribute_text(value))
    return attributes

"""Does a tool return content its site does not control (WM605, WM612)?

It does when execute fetches a URL taken from its input, or an absolute URL
(another origin), and returns the response body or something computed from
it. A relative URL (``/api/...``) is the site's own API. Built on the
execute model's list of requests and returns.
"""

from __future__ import annotations

import re
from functools import lru_cache

from tree_sitter import Node

from webmcp_lint.execute import ExecuteModel, Fetch, dotted_name, root_identifier, strip_global
from webmcp_lint.memo import per_object
from webmcp_lint.scope import FUNCTION_KINDS, pattern_names
from webmcp_lint.syntax import call_arguments, mentions_names, text, unwrap

# Schemes are matched case-insensitively. The patterns name both cases of the ASCII letters instead of asking
# re.IGNORECASE, which compiles them several times slower; what IGNORECASE adds besides is four non-ASCII
# letters that fold to ASCII ones (İ ı ſ K), and the text is matched with those written as their ASCII letters.
ABSOLUTE_URL = r"^\s*(?:[a-zA-Z][a-zA-Z0-9+.\-]*:)?//"
# The texts that are not an absolute URL yet but could become one as more text follows ("", "/", "https:").
ABSOLUTE_URL_START = r"\s*(?:[a-zA-Z][a-zA-Z0-9+.\-]*(?::/?)?|/)?"
FOLDING_LETTERS = str.maketrans("\u0130\u0131\u017f\u212a", "iisk")
BODY_READERS = frozenset({"json", "text", "blob", "arrayBuffer", "formData", "bytes"})
# Clients whose result is (or directly holds) the parsed body: axios ``.data``, ky's ``.json()``.
BODY_CLIENTS = ("axios", "ky")
SAME_ORIGIN_NAMES = frozenset({"location.origin", "location.href", "document.baseURI", "location.pathname"})
URL_STEPS = 8
MAX_NODES = 5000
ALIAS_PASSES = 4


def url_source(node: Node | None, model: ExecuteModel) -> str | None:
    """Where a request URL points: "input", "other" (an absolute URL), "same" (relative), or None."""
    for _ in range(URL_STEPS):
        node = unwrap(node)
        if node is None:
            return None
        root = root_identifier(node)
        if root is not None and text(root) in model.input_names and node.type != "call_expression":
            return "input"
        decided = _decided_by_head(node)
        if decided is not None:
            return decided
        value = model.script.evaluator.value(node)
        if isinstance(value, str):
            return "other" if _is_absolute_url(value) else "same"
        if node.type == "template_string":
            prefix, first = _template_head(node)
            if prefix.strip():
                return "other" if _is_absolute_url(prefix) else "same"
            node = first
        elif node.type == "binary_expression":
            node = node.child_by_field_name("left")
        elif node.type in ("identifier", "member_expression"):
            if strip_global(dotted_name(node)) in SAME_ORIGIN_NAMES:
                return "same"
            binding = model.script.scopes.resolve(node) if node.type == "identifier" else None
            if binding is None or binding.init is None or binding.path or binding.kind not in ("const", "let", "var"):
                return None
            node = binding.init
        elif node.type in ("new_expression", "call_expression"):
            arguments = call_arguments(node)
            node = arguments[0] if arguments else None
        else:
            return None
    return None


def _decided_by_head(node: Node) -> str | None:
    """"other" or "same" when a template's static head settles it, whatever its substitutions hold.

    Spares evaluating the substitutions (``encodeURIComponent(query)``...): a head that is already an
    absolute URL stays one, a head no text could turn into one never becomes one. Not with escapes, which
    the evaluated value decodes.
    """
    if node.type != "template_string":
        return None
    prefix, _ = _template_head(node)
    if "\\" in prefix:
        return None
    if _is_absolute_url(prefix):
        return "other"
    return None if _could_become_absolute_url(prefix) else "same"


@lru_cache(maxsize=None)
def _url_patterns() -> tuple[re.Pattern[str], re.Pattern[str]]:
    """ABSOLUTE_URL and ABSOLUTE_URL_START, compiled on first use: most runs have no request to ask about."""
    return re.compile(ABSOLUTE_URL), re.compile(ABSOLUTE_URL_START)


def _ascii_folded(written: str) -> str:
    """``written`` with the non-ASCII letters that fold to ASCII ones written as those (see ABSOLUTE_URL)."""
    return written if written.isascii() else written.translate(FOLDING_LETTERS)


def _site_path(written: str) -> bool:
    """``/api/...`` (after any white space): a path of the site's own origin, which neither pattern matches,
    told without them (most runs then never compile them)."""
    rest = written.lstrip()  # what the patterns' \s* skips: str.isspace() characters, as here
    return len(rest) > 1 and rest[0] == "/" and rest[1] != "/"


def _is_absolute_url(written: str) -> bool:
    return not _site_path(written) and _url_patterns()[0].match(_ascii_folded(written)) is not None


def _could_become_absolute_url(written: str) -> bool:
    return not _site_path(written) and _url_patterns()[1].fullmatch(_ascii_folded(written)) is not None


def _template_head(node: Node) -> tuple[str, Node | None]:
    """The static text before a template's first substitution, and that substitution's expression."""
    for child in node.named_children:
        if child.type == "template_substitution":
            prefix = node.text[1:child.start_byte - node.start_byte].decode("utf-8", errors="replace")
            return prefix, child.named_children[0] if child.named_children else None
    return node.text[1:-1].decode("utf-8", errors="replace"), None


def returns_untrusted_content(model: ExecuteModel) -> Fetch | None:
    """The request whose foreign content execute returns, if any (decided once per model: WM605 and WM612 ask)."""
    return _untrusted_fetch(model)


def _returned_foreign_fetch(model: ExecuteModel) -> Fetch | None:
    for fetch in model.fetches:
        if fetch.api == "new Request" or url_source(fetch.url, model) not in ("input", "other"):
            continue
        if _body_returned(fetch, model):
            return fetch
    return None


_untrusted_fetch = per_object(_returned_foreign_fetch)


def _expression_around(call: Node) -> tuple[Node, Node | None]:
    """Climb from a request call through await, parentheses and chained calls (``.then``, ``.json()``):
    the whole expression, and its parent (read once per step: tree-sitter works out .parent from the root)."""
    current, parent = call, call.parent
    while parent is not None and (parent.type in (
            "await_expression", "parenthesized_expression", "member_expression", "call_expression",
            "as_expression", "non_null_expression") or _is_await_call_argument(parent)):
        current, parent = parent, parent.parent
    return current, parent


def _is_await_call_argument(node: Node) -> bool:
    """tree-sitter reads ``await (x)`` as a call of a function named ``await``: its ``(x)`` is arguments."""
    return node.type == "arguments" and node.parent is not None and node.parent.type == "call_expression" \
        and text(node.parent.child_by_field_name("function")) == "await"


def _reads_body(expression: Node, fetch: Fetch) -> bool:
    return fetch.api.split(".")[0] in BODY_CLIENTS or _has_body_reader(expression)


def _body_returned(fetch: Fetch, model: ExecuteModel) -> bool:
    expression, parent = _expression_around(fetch.call.node)
    body_names: set[str] = set()
    response_names: set[str] = set()
    if parent is not None and parent.type == "variable_declarator":
        target = parent.child_by_field_name("name")
        names = {text(identifier) for identifier, _ in pattern_names(target)} if target is not None else set()
        (body_names if _reads_body(expression, fetch) else response_names).update(names)
    elif parent is not None and (parent.type == "return_statement" or parent.type in FUNCTION_KINDS):
        return _reads_body(expression, fetch)
    if not body_names and not response_names:
        return False
    declarators = _declarators(model.function)
    for _ in range(ALIAS_PASSES):
        before = len(body_names)
        for declarator in declarators:
            value = declarator.child_by_field_name("value")
            target = declarator.child_by_field_name("name")
            if value is None or target is None:
                continue
            if _mentions(value, body_names) or (_mentions(value, response_names) and _has_body_reader(value)):
                body_names.update(text(identifier) for identifier, _ in pattern_names(target))
        if len(body_names) == before:
            break
    for returned in model.execute_returns:
        value = returned.value
        if value is not None and (_mentions(value, body_names)
                                  or (_mentions(value, response_names) and _has_body_reader(value))):
            return True
    return False


def _has_body_reader(node: Node) -> bool:
    return any(f".{reader}(" in text(node) for reader in BODY_READERS)


def _declarators(function: Node) -> list[Node]:
    found = []
    stack = [function.child_by_field_name("body")]
    seen = 0
    while stack and seen < MAX_NODES:
        current = stack.pop()
        seen += 1
        if current is None:
            continue
        if current.type == "variable_declarator":
            found.append(current)
        stack.extend(current.named_children)
    return found


def _mentions(node: Node, names: set[str]) -> bool:
    """A callback that reads the body (``items.map((i) => body[i])``) passes it on too."""
    return mentions_names(node, names, MAX_NODES, into_functions=True)


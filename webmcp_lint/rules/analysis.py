"""WM0xx: what the analysis itself could not do (so users know what went unchecked)."""

from __future__ import annotations

from typing import Iterator

from tree_sitter import Node

from webmcp_lint.extract import trigger_words
from webmcp_lint.model import FileAnalysis, Finding, Script
from webmcp_lint.rules import FILES, rule


@rule("WM001", "parse-error", "warning", on=FILES)
def parse_error(analysis: FileAnalysis) -> Iterator[Finding]:
    for script, error in analysis.parse_errors:
        if not (_has_webmcp_facts(analysis) or any(word in error.text for word in trigger_words())):
            continue
        start, end = _first_line(script, error)
        yield Finding(script.source, start, end, f"{_describe(script, error)}; findings in this file may be "
                                                 "incomplete until the syntax error is fixed.")


def _has_webmcp_facts(analysis: FileAnalysis) -> bool:
    """Facts the extractors found despite the error (the prefilter alone is only a word search)."""
    return bool(analysis.tools or analysis.registrations or analysis.unresolved or analysis.model_context_refs
                or analysis.navigator_reaches)


def _describe(script: Script, error: Node) -> str:
    if error.is_missing:
        return f"This file does not parse: `{error.type}` is missing here"
    if error.end_byte >= len(script.source.data.rstrip()):
        return "This file does not parse: the code starting here is still open at the end of the file"
    token = script.text(error).strip().split("\n", 1)[0][:40]
    return f"This file does not parse: unexpected `{token}`" if token else "This file does not parse"


def _first_line(script: Script, error: Node) -> tuple[int, int]:
    """The error's byte range, cut at the end of its first line (an ERROR node can span a whole file)."""
    newline = script.source.data.find(b"\n", error.start_byte, error.end_byte)
    return error.start_byte, (newline if newline > error.start_byte else error.end_byte)


@rule("WM002", "unresolved-tool-definition", "info", on=FILES)
def unresolved_tool_definition(analysis: FileAnalysis) -> Iterator[Finding]:
    for unresolved in analysis.unresolved:
        registration = unresolved.registration
        node = registration.definition_node or registration.call
        yield Finding(registration.source, node.start_byte, node.end_byte,
                      f"This tool definition cannot be resolved statically ({_reason(unresolved.reason)}), so its "
                      "name, schema and execute were not checked; pass an object literal or a const bound to one.")


REASONS = {
    "global": "it refers to a name this file does not declare",
    "import": "it comes from a package or a module that cannot be read",
    "param": "it is a function parameter",
    "dynamic": "it is computed at run time",
    "too deep": "it is nested too deeply",
    "cycle": "its definition refers to itself",
}


def _reason(reason: str) -> str:
    return REASONS.get(reason, reason)

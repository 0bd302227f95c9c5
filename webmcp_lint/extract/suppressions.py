"""Suppression comments as file facts: every ``webmcp-lint-...`` directive of a script.

Its trigger puts a file holding only a suppression comment through the parse
too, so a stale comment there is still reported (WM003).
"""

from __future__ import annotations

from webmcp_lint.extract import Extractor
from webmcp_lint.model import FileAnalysis, Script
from webmcp_lint.suppression import MARKER, directives_in_comments


def extract(script: Script, analysis: FileAnalysis) -> None:
    if MARKER in script.source.data:
        analysis.suppressions.extend(directives_in_comments(script.of_kind("comment"), script.source))


EXTRACTOR = Extractor(name="suppressions", triggers=(MARKER,), kinds=frozenset({"comment"}), extract=extract)

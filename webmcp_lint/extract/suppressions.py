"""Suppression comments as file facts: every ``webmcp-lint-...`` directive of a script.

Its trigger puts a file holding only a suppression comment through the parse
too, so a stale comment there is still reported (WM003).
"""

from __future__ import annotations

from webmcp_lint.extract import Extractor
from webmcp_lint.model import FileAnalysis, Script
from webmcp_lint.suppression import MARKER, script_directives


def extract(script: Script, analysis: FileAnalysis) -> None:
    analysis.suppressions.extend(script_directives(script))


EXTRACTOR = Extractor(name="suppressions", triggers=(MARKER,), kinds=frozenset({"comment"}), extract=extract)

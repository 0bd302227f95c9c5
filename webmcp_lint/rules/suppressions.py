"""WM003: suppression comments that suppress nothing or name no rule.

Runs after suppression matching (``on=AFTER_SUPPRESSIONS``), so it sees which
directives and which of their rule references were used. A reference to
rules that are all turned off for the file (not selected, ignored, or
per-file-ignored) is not reported: whether it would suppress something is
unknown in this run.
"""

from __future__ import annotations

from typing import Iterator

from webmcp_lint.model import FileAnalysis, Finding
from webmcp_lint.rules import rule
from webmcp_lint.suggest import did_you_mean
from webmcp_lint.suppression import AFTER_SUPPRESSIONS, UNUSED_SUPPRESSION, Directive, misspelled_kind


@rule(UNUSED_SUPPRESSION, "unused-suppression", "info", on=AFTER_SUPPRESSIONS)
def unused_suppression(analysis: FileAnalysis, enabled: frozenset[str]) -> Iterator[Finding]:
    for directive in analysis.suppressions:
        for message in _problems(directive, enabled):
            yield Finding(directive.source, directive.start, directive.end, message)


def _problems(directive: Directive, enabled: frozenset[str]) -> Iterator[str]:
    if not directive.known:
        yield (f"`webmcp-lint-{directive.kind}` is not a suppression directive, so this comment suppresses nothing"
               f"{did_you_mean(_full(misspelled_kind(directive.kind)))}; correct or remove it.")
        return
    for selector in directive.selectors:
        if not selector.codes:
            yield (f"`{selector.text}` names no rule{did_you_mean(selector.suggestion)}, so it suppresses nothing; "
                   "correct the code or slug, or remove it.")
    if not directive.suppresses:
        return
    if directive.all_rules:
        if not directive.suppressed:
            yield "This suppression comment suppresses no finding; remove it."
        return
    for selector in directive.selectors:
        if selector.codes and not selector.used and selector.codes & enabled:
            yield (f"This suppression of `{selector.text}` suppresses no finding; remove it, or name the rule "
                   "the finding here is reported under.")


def _full(kind: str | None) -> str | None:
    return f"webmcp-lint-{kind}" if kind else None

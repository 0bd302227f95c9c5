"""The rule registry: every module in this package registers its rules on import.

A rule is metadata plus one function. What the function receives depends on
what it subscribes to:

* ``on=TOOLS``: ``check(tool, project)`` for every ToolDefinition, whatever its source;
* ``on=FORM_TOOLS``: ``check(tool, project)`` for every tool a ``<form toolname>`` declares (``tool.form``
  is set): rules about forms are not called for the other tools;
* ``on=nodes("kind", ...)``: ``check(node, script)`` for every node of those kinds,
  collected by the single walk of each file;
* ``on=FILES``: ``check(analysis)`` once per FileAnalysis;
* ``on=PROJECT``: ``check(project)`` once per run (cross-file rules);
* ``on=PAGES``: ``check(project)`` once per run, for rules whose findings on a file depend on the files that
  import it (the tools of one page): when files are linted one by one (webmcp_lint.units), these also run
  once over every file together, and their findings there replace the files' own.

Each yields ``Finding`` objects; the engine attaches code and severity.
"""

from __future__ import annotations

from typing import Callable, Iterable

from webmcp_lint.diagnostics import Severity
from webmcp_lint.plugins import plugin_modules
from webmcp_lint.record import HashedRecord

TOOLS = "tools"
FORM_TOOLS = "form tools"
FILES = "files"
PROJECT = "project"
PAGES = "pages"


class NodeKinds(HashedRecord):
    __slots__ = ("kinds",)
    _compared = __slots__

    def __init__(self, kinds: frozenset[str]) -> None:
        self.kinds = kinds


def nodes(*kinds: str) -> NodeKinds:
    return NodeKinds(frozenset(kinds))


class Rule(HashedRecord):
    __slots__ = ("code", "slug", "severity", "fix", "on", "check")
    _compared = __slots__

    def __init__(self, code: str, slug: str, severity: Severity, fix: str, on: object,
                 check: Callable[..., Iterable]) -> None:
        self.code = code
        self.slug = slug
        self.severity = severity
        self.fix = fix  # none | safe | unsafe
        self.on = on
        self.check = check


REGISTRY: dict[str, Rule] = {}


def rule(code: str, slug: str, severity: Severity | str, *, on: object, fix: str = "none"):
    """Register ``check`` as rule ``code``."""

    def register(check: Callable[..., Iterable]) -> Callable[..., Iterable]:
        if code in REGISTRY:
            raise ValueError(f"rule {code} registered twice")
        REGISTRY[code] = Rule(code, slug, Severity(severity), fix, on, check)
        return check

    return register


def all_rules() -> list[Rule]:
    """Every rule, sorted by code (imports the rule modules on first use)."""
    if not _loaded:
        plugin_modules(__name__, __path__)
        _loaded.append(True)
    return sorted(REGISTRY.values(), key=lambda item: item.code)


_loaded: list[bool] = []


def find_rule(code_or_slug: str) -> Rule | None:
    wanted = code_or_slug.strip()
    for candidate in all_rules():
        if candidate.code.lower() == wanted.lower() or candidate.slug == wanted.lower():
            return candidate
    return None

"""The rule registry: every module in this package registers its rules on import.

A rule is metadata plus one function. What the function receives depends on
what it subscribes to:

* ``on=TOOLS``: ``check(tool, project)`` for every ToolDefinition, whatever its source;
* ``on=nodes("kind", ...)``: ``check(node, script)`` for every node of those kinds,
  collected by the single walk of each file;
* ``on=FILES``: ``check(analysis)`` once per FileAnalysis;
* ``on=PROJECT``: ``check(project)`` once per run (cross-file rules).

Each yields ``Finding`` objects; the engine attaches code and severity.
"""

from __future__ import annotations

import importlib
import pkgutil
from dataclasses import dataclass
from typing import Callable, Iterable

from webmcp_lint.diagnostics import Severity

TOOLS = "tools"
FILES = "files"
PROJECT = "project"


@dataclass(frozen=True)
class NodeKinds:
    kinds: frozenset[str]


def nodes(*kinds: str) -> NodeKinds:
    return NodeKinds(frozenset(kinds))


@dataclass(frozen=True)
class Rule:
    code: str
    slug: str
    severity: Severity
    fix: str  # none | safe | unsafe
    on: object
    check: Callable[..., Iterable]


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
        for module in pkgutil.iter_modules(__path__):
            importlib.import_module(f"{__name__}.{module.name}")
        _loaded.append(True)
    return sorted(REGISTRY.values(), key=lambda item: item.code)


_loaded: list[bool] = []


def find_rule(code_or_slug: str) -> Rule | None:
    wanted = code_or_slug.strip()
    for candidate in all_rules():
        if candidate.code.lower() == wanted.lower() or candidate.slug == wanted.lower():
            return candidate
    return None

"""WM1xx: the platform API (deprecated and removed surface, feature detection, events)."""

from __future__ import annotations

from typing import Iterator

from webmcp_lint.diagnostics import Edit, Fix
from webmcp_lint.model import FileAnalysis, Finding, finding_at
from webmcp_lint.rules import FILES, rule


@rule("WM101", "deprecated-navigator-model-context", "error", on=FILES, fix="safe")
def deprecated_navigator_model_context(analysis: FileAnalysis) -> Iterator[Finding]:
    seen = set()
    for reach in analysis.navigator_reaches:
        navigator = reach.navigator
        if navigator is None or navigator.id in seen:
            continue
        seen.add(navigator.id)
        # `window.navigator` becomes `window.document`: replace just the `navigator` name.
        name = navigator.child_by_field_name("property") if navigator.type == "member_expression" else navigator
        fix = Fix("safe", (Edit(name.start_byte, name.end_byte, "document"),), "Use document.modelContext")
        yield finding_at(reach.script.source, reach.node,
                         "navigator.modelContext is no longer supported (deprecated in Chromium 150); "
                         "use document.modelContext.", fix)

"""``--format gitlab``: GitLab Code Quality (a Code Climate subset) for merge request widgets.

The fingerprint keys a finding like a baseline does (rule, file, tool, the
normalised source line, and which copy of that key it is), so it survives
edits elsewhere in the file and GitLab can tell new findings from old ones.
"""

from __future__ import annotations

import hashlib
from collections import Counter
from pathlib import Path

from webmcp_lint.baseline import finding_key
from webmcp_lint.diagnostics import Diagnostic, Severity
from webmcp_lint.engine import LintResult
from webmcp_lint.formats import RenderOptions, indented_json, output_format

SEVERITIES = {Severity.ERROR: "major", Severity.WARNING: "minor", Severity.INFO: "info"}


def _issue(diagnostic: Diagnostic, fingerprint: str) -> dict:
    line, column = diagnostic.start_position()
    end_line, end_column = diagnostic.end_position()
    return {
        "type": "issue",
        "check_name": diagnostic.code,
        "description": f"{diagnostic.code} {diagnostic.slug}: {diagnostic.message}",
        "categories": ["Bug Risk"],
        "severity": SEVERITIES[diagnostic.severity],
        "fingerprint": fingerprint,
        "location": {
            "path": diagnostic.path,
            "lines": {"begin": line, "end": end_line},
            "positions": {"begin": {"line": line, "column": column}, "end": {"line": end_line, "column": end_column}},
        },
    }


@output_format("gitlab")
def render_gitlab(result: LintResult, options: RenderOptions) -> str:
    root = Path.cwd()
    seen: Counter = Counter()
    issues = []
    for diagnostic in result.diagnostics:
        key = finding_key(diagnostic, root)
        seen[key] += 1
        digest = hashlib.sha256("\0".join((*key, str(seen[key]))).encode("utf-8")).hexdigest()
        issues.append(_issue(diagnostic, digest))
    return indented_json(issues, end="\n")

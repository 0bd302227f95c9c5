"""``--format json``: the stable machine-readable shape tools and tests depend on."""

from __future__ import annotations

from webmcp_lint import __version__
from webmcp_lint.diagnostics import Diagnostic, Fix, Severity
from webmcp_lint.engine import LintResult
from webmcp_lint.formats import RenderOptions, indented_json, output_format


def fix_json(diagnostic: Diagnostic, fix: Fix | None) -> dict | None:
    if fix is None:
        return None
    edits = []
    for edit in fix.edits:
        line, column = diagnostic.source.position(edit.start)
        end_line, end_column = diagnostic.source.position(edit.end)
        edits.append({"line": line, "column": column, "end_line": end_line, "end_column": end_column, "text": edit.text})
    return {"applicability": fix.applicability, "edits": edits}


def diagnostic_json(diagnostic: Diagnostic) -> dict:
    line, column = diagnostic.start_position()
    end_line, end_column = diagnostic.end_position()
    return {
        "code": diagnostic.code,
        "name": diagnostic.slug,
        "severity": diagnostic.severity.value,
        "message": diagnostic.message,
        "path": diagnostic.path,
        "line": line,
        "column": column,
        "end_line": end_line,
        "end_column": end_column,
        "tool_name": diagnostic.tool_name,
        "fix": fix_json(diagnostic, diagnostic.fix),
    }


def summary_json(result: LintResult) -> dict:
    return {
        "files_checked": result.files_checked,
        "files_skipped": len(result.skipped),
        "errors": result.count(Severity.ERROR),
        "warnings": result.count(Severity.WARNING),
        "infos": result.count(Severity.INFO),
    }


@output_format("json")
def render_json(result: LintResult, options: RenderOptions) -> str:
    document = {
        "version": 1,
        "tool": {"name": "webmcp-lint", "version": __version__},
        "diagnostics": [diagnostic_json(diagnostic) for diagnostic in result.diagnostics],
        "summary": summary_json(result),
    }
    return indented_json(document) + "\n"

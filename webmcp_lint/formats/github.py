"""``--format github``: GitHub Actions workflow commands, shown as annotations on the pull request.

``::error file=src/a.js,line=3,col=5,endLine=3,endColumn=27,title=WM401 throw-in-execute::message``
"""

from __future__ import annotations

from webmcp_lint.diagnostics import Diagnostic, Severity
from webmcp_lint.engine import LintResult
from webmcp_lint.formats import RenderOptions, output_format

COMMANDS = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "notice"}


def escape_data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def escape_property(text: str) -> str:
    return escape_data(text).replace(":", "%3A").replace(",", "%2C")


def annotation(diagnostic: Diagnostic) -> str:
    line, column = diagnostic.start_position()
    end_line, end_column = diagnostic.end_position()
    properties = {
        "file": diagnostic.path, "line": line, "col": column, "endLine": end_line, "endColumn": end_column,
        "title": f"{diagnostic.code} {diagnostic.slug}",
    }
    listed = ",".join(f"{key}={escape_property(str(value))}" for key, value in properties.items())
    return f"::{COMMANDS[diagnostic.severity]} {listed}::{escape_data(diagnostic.message)}"


@output_format("github")
def render_github(result: LintResult, options: RenderOptions) -> str:
    return "".join(annotation(diagnostic) + "\n" for diagnostic in result.diagnostics)

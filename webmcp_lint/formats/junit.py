"""``--format junit``: JUnit XML for CI test reports; one test case per file, a failure per finding."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ElementTree

from webmcp_lint.diagnostics import Diagnostic
from webmcp_lint.engine import LintResult
from webmcp_lint.formats import RenderOptions, output_format

# XML 1.0 cannot hold these characters even escaped.
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")


def _xml_text(text: str) -> str:
    return _NOT_XML.sub("\ufffd", text)


def _failure(case: ElementTree.Element, diagnostic: Diagnostic) -> None:
    line, column = diagnostic.start_position()
    failure = ElementTree.SubElement(case, "failure", {
        "message": _xml_text(f"{diagnostic.code} {diagnostic.message}"),
        "type": _xml_text(f"{diagnostic.code} {diagnostic.slug}"),
    })
    failure.text = _xml_text(f"{diagnostic.path}:{line}:{column}: {diagnostic.severity.value} "
                             f"{diagnostic.code} {diagnostic.message} ({diagnostic.slug})")


@output_format("junit")
def render_junit(result: LintResult, options: RenderOptions) -> str:
    by_path: dict[str, list[Diagnostic]] = {analysis.source.display_path: [] for analysis in result.project.files}
    for diagnostic in result.diagnostics:
        by_path.setdefault(diagnostic.path, []).append(diagnostic)
    failing = sum(1 for found in by_path.values() if found)
    suites = ElementTree.Element("testsuites", {"name": "webmcp-lint", "tests": str(len(by_path)),
                                                "failures": str(failing), "errors": "0"})
    suite = ElementTree.SubElement(suites, "testsuite", {
        "name": "webmcp-lint", "tests": str(len(by_path)), "failures": str(failing), "errors": "0", "skipped": "0",
    })
    for path in sorted(by_path):
        case = ElementTree.SubElement(suite, "testcase", {"name": _xml_text(path), "classname": "webmcp-lint",
                                                          "file": _xml_text(path)})
        for diagnostic in by_path[path]:
            _failure(case, diagnostic)
    ElementTree.indent(suites)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ElementTree.tostring(suites, encoding="unicode") + "\n"

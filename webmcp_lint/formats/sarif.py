"""``--format sarif``: SARIF 2.1.0 for GitHub code scanning and editors (the VS Code SARIF Viewer).

Locations are relative to ``%SRCROOT%`` (the current directory, given in
``originalUriBaseIds``), columns count UTF-16 code units (``columnKind``),
and ``primaryLocationLineHash`` is computed exactly as GitHub's upload action
computes it, so alerts keep their identity whoever fills it in.
"""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import quote

from webmcp_lint import __version__
from webmcp_lint.diagnostics import Diagnostic, Edit, Severity
from webmcp_lint.engine import LintResult
from webmcp_lint.formats import RenderOptions, indented_json, output_format
from webmcp_lint.pages import load_page
from webmcp_lint.rules import Rule, all_rules
from webmcp_lint.sarif_fingerprint import line_hashes
from webmcp_lint.source import SourceFile

SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
INFORMATION_URI = "https://pypi.org/project/webmcp-lint/"
SRCROOT = "%SRCROOT%"
LEVELS = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "note"}
FAMILIES = {  # RULES.md's family headings, as tags
    "WM0": "analysis", "WM1": "platform-api", "WM2": "tool-definition-shape", "WM3": "descriptions",
    "WM4": "execute", "WM5": "lifecycle-and-frameworks", "WM6": "security-and-annotations",
    "WM7": "declarative-tools",
}
SECURITY_FAMILY = "WM6"
# GitHub ranks security alerts by this score: over 7 high, 4 to 7 medium, under 4 low.
SECURITY_SEVERITY = {Severity.ERROR: "8.0", Severity.WARNING: "5.5", Severity.INFO: "2.0"}
PRECISION = {Severity.ERROR: "very-high", Severity.WARNING: "high", Severity.INFO: "medium"}


def _uri(path: str) -> tuple[str, str | None]:
    """(uri, uriBaseId): relative paths hang off %SRCROOT%, others are file: URIs."""
    if Path(path).is_absolute():
        return Path(path).as_uri(), None
    return quote(path), SRCROOT


def _artifact(path: str) -> dict:
    uri, base = _uri(path)
    return {"uri": uri, "uriBaseId": base} if base else {"uri": uri}


def _region(source: SourceFile, start: int, end: int) -> dict:
    start_line, start_column = source.position(start, utf16=True)
    end_line, end_column = source.position(end, utf16=True)
    return {"startLine": start_line, "startColumn": start_column, "endLine": end_line, "endColumn": end_column}


def _first_paragraph(markdown: str) -> str:
    paragraph = markdown.strip().split("\n\n", 1)[0]
    return re.sub(r"\s+", " ", paragraph).strip()


def rule_descriptor(rule: Rule, severity: Severity) -> dict:
    """``reportingDescriptor`` of one rule, its texts taken from the rule's page."""
    page = load_page(rule.code)
    summary = page.summary if page else rule.slug
    flags = _first_paragraph(page.sections.get("What it flags", "")) if page else ""
    tags = ["webmcp", FAMILIES.get(rule.code[:3], "other")]
    properties: dict = {"precision": (page.meta.get("precision") if page else None) or PRECISION[rule.severity]}
    if rule.code.startswith(SECURITY_FAMILY):
        tags.append("security")
        properties["security-severity"] = SECURITY_SEVERITY[severity]
    properties["tags"] = tags
    descriptor = {
        "id": rule.code,
        "name": rule.slug,
        "shortDescription": {"text": summary},
        "fullDescription": {"text": flags or summary},
        "defaultConfiguration": {"level": LEVELS[severity]},
        "properties": properties,
    }
    if page is not None:
        descriptor["help"] = {"text": page.body, "markdown": page.body}
    return descriptor


class _Fingerprints:
    """``primaryLocationLineHash`` per file, hashing each file once, over the bytes GitHub reads."""

    def __init__(self) -> None:
        self._hashes: dict[str, list[str]] = {}

    def of(self, diagnostic: Diagnostic) -> str | None:
        source = diagnostic.source
        if source.display_path not in self._hashes:
            self._hashes[source.display_path] = line_hashes(_content_on_disk(source))
        hashes = self._hashes[source.display_path]
        line = diagnostic.start_position()[0]
        return hashes[line - 1] if line <= len(hashes) else None


def _content_on_disk(source: SourceFile) -> bytes:
    """The file's bytes as the upload action reads them (with a BOM, in its own encoding); else the text."""
    if source.encoding != "utf-8":
        try:
            return source.path.read_bytes()
        except OSError:
            pass
    return source.data


def _fix(diagnostic: Diagnostic) -> dict:
    fix = diagnostic.fix
    replacements = [{"deletedRegion": _region(diagnostic.source, edit.start, edit.end),
                     "insertedContent": {"text": edit.text}} for edit in sorted(fix.edits, key=_edit_order)]
    description = fix.description or f"{'Safe' if fix.applicability == 'safe' else 'Unsafe'} fix for {diagnostic.code}"
    return {"description": {"text": description},
            "artifactChanges": [{"artifactLocation": _artifact(diagnostic.path), "replacements": replacements}]}


def _edit_order(edit: Edit) -> tuple[int, int]:
    return edit.start, edit.end


def _result(diagnostic: Diagnostic, rule_index: int, fingerprints: _Fingerprints) -> dict:
    result = {
        "ruleId": diagnostic.code,
        "ruleIndex": rule_index,
        "level": LEVELS[diagnostic.severity],
        "message": {"text": diagnostic.message},
        "locations": [{"physicalLocation": {
            "artifactLocation": _artifact(diagnostic.path),
            "region": _region(diagnostic.source, diagnostic.start, diagnostic.end),
        }}],
    }
    fingerprint = fingerprints.of(diagnostic)
    if fingerprint is not None:
        result["partialFingerprints"] = {"primaryLocationLineHash": fingerprint}
    if diagnostic.fix is not None and diagnostic.fix.edits:
        result["fixes"] = [_fix(diagnostic)]
    if diagnostic.tool_name:
        result["properties"] = {"toolName": diagnostic.tool_name}
    return result


def _notifications(result: LintResult) -> list[dict]:
    """Files skipped or unparsable, and internal errors: what the run could not check."""
    notes = []
    for skip in [*result.skipped, *result.skipped_dirs]:
        notes.append(_notification("note", f"Skipped: {skip.reason}.", skip.path))
    for analysis in result.project.files:
        if analysis.parse_errors:
            notes.append(_notification("warning", "The file does not parse cleanly; findings in it may be incomplete.",
                                       analysis.source.display_path))
    for notice in result.notices:
        notes.append(_notification("error" if notice.internal_error else "warning", notice.message,
                                   None if notice.path.startswith("<") else notice.path))
    return notes


def _notification(level: str, text: str, path: str | None) -> dict:
    note: dict = {"level": level, "message": {"text": text}}
    if path:
        note["locations"] = [{"physicalLocation": {"artifactLocation": _artifact(path)}}]
    return note


def sarif_document(result: LintResult, options: RenderOptions) -> dict:
    settings = options.get("settings")
    rules = list(settings.rules) if settings is not None else all_rules()
    severity = settings.severity if settings is not None else (lambda rule: rule.severity)
    index = {rule.code: position for position, rule in enumerate(rules)}
    descriptors = [rule_descriptor(rule, severity(rule)) for rule in rules]
    for diagnostic in result.diagnostics:  # a finding of a rule not listed (never expected) still gets a descriptor
        if diagnostic.code not in index:
            rule = next(rule for rule in all_rules() if rule.code == diagnostic.code)
            index[rule.code] = len(descriptors)
            descriptors.append(rule_descriptor(rule, diagnostic.severity))
    fingerprints = _Fingerprints()
    run: dict = {
        "tool": {"driver": {
            "name": "webmcp-lint",
            "version": __version__,
            "semanticVersion": __version__,
            "informationUri": INFORMATION_URI,
            "rules": descriptors,
        }},
        "invocations": [{
            "executionSuccessful": not result.internal_errors,
            "toolExecutionNotifications": _notifications(result),
        }],
        "originalUriBaseIds": {SRCROOT: {"uri": Path.cwd().resolve().as_uri().rstrip("/") + "/"}},
        "columnKind": "utf16CodeUnits",
        "results": [_result(diagnostic, index[diagnostic.code], fingerprints) for diagnostic in result.diagnostics],
    }
    category = options.get("sarif_category")
    if category:
        # GitHub reads everything before the last "/" as the category; the upload action adds the slash too.
        run["automationDetails"] = {"id": category if category.endswith("/") else category + "/"}
    return {"$schema": SARIF_SCHEMA, "version": "2.1.0", "runs": [run]}


@output_format("sarif")
def render_sarif(result: LintResult, options: RenderOptions) -> str:
    return indented_json(sarif_document(result, options), end="\n")

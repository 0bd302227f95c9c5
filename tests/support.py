"""Helpers for tests: lint a snippet or a small project and look at what came out."""

from __future__ import annotations

from pathlib import Path

from webmcp_lint.diagnostics import Diagnostic
from webmcp_lint.engine import LintResult, Settings, lint_paths, lint_text
from webmcp_lint.selection import select_rules


def lint(code: str, filename: str = "app.js", select: list[str] | None = None) -> list[Diagnostic]:
    settings = Settings(rules=select_rules(select, None, None))
    result = lint_text(code, filename, settings)
    assert not result.internal_errors, result.internal_errors
    return result.diagnostics


def codes(code: str, filename: str = "app.js", select: list[str] | None = None) -> list[str]:
    return [diagnostic.code for diagnostic in lint(code, filename, select)]


def findings(code: str, rule_code: str, filename: str = "app.js") -> list[Diagnostic]:
    """Findings of one rule (all rules run, so interactions are exercised too)."""
    return [diagnostic for diagnostic in lint(code, filename) if diagnostic.code == rule_code]


def flagged_text(code: str, rule_code: str, filename: str = "app.js") -> list[str]:
    """The source text each finding of ``rule_code`` points at."""
    return [d.source.slice(d.start, d.end) for d in findings(code, rule_code, filename)]


def write_project(root: Path, files: dict[str, str]) -> Path:
    for name, content in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(content, encoding="utf-8")
    return root


def project_in(root: Path, monkeypatch, files: dict[str, str]) -> Path:
    """``files`` written below ``root``, which becomes the working directory (the CLI is run inside a project)."""
    write_project(root, files)
    monkeypatch.chdir(root)
    return root


def lint_project(root: Path, files: dict[str, str], select: list[str] | None = None) -> LintResult:
    write_project(root, files)
    result = lint_paths([str(root)], Settings(rules=select_rules(select, None, None)))
    assert not result.internal_errors, result.internal_errors
    return result

"""Baselines: record today's findings once, then report only new ones.

A finding is keyed on its rule code, its file (relative to the baseline
file's directory), its tool's name and a hash of its source line with the
whitespace normalised, never on the line number: edits elsewhere in the file
keep it baselined, a finding that moved to another file is new. Identical
keys are counted, so a second copy of a baselined line is new too.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections import Counter
from pathlib import Path

from webmcp_lint import __version__
from webmcp_lint.diagnostics import Diagnostic

BASELINE_VERSION = 1


class BaselineError(ValueError):
    """An unreadable or malformed baseline file (exit 2)."""


def line_hash(diagnostic: Diagnostic) -> str:
    """Hash of the finding's first line, whitespace removed (indentation and spacing changes keep it)."""
    line = diagnostic.source.line_text(diagnostic.source.line_index(diagnostic.start))
    return hashlib.sha256("".join(line.split()).encode("utf-8", errors="surrogatepass")).hexdigest()[:16]


def relative_path(diagnostic: Diagnostic, base: Path) -> str:
    """The finding's file relative to ``base``, with forward slashes."""
    path = os.path.abspath(diagnostic.source.path)
    try:
        return Path(os.path.relpath(path, os.path.abspath(base))).as_posix()
    except ValueError:  # another drive on Windows
        return Path(path).as_posix()


def finding_key(diagnostic: Diagnostic, base: Path) -> tuple[str, str, str, str]:
    return (diagnostic.code, relative_path(diagnostic, base), diagnostic.tool_name or "", line_hash(diagnostic))


def baseline_text(path: Path, diagnostics: list[Diagnostic]) -> str:
    """The baseline file recording the findings, to be written at ``path`` (its paths are relative to it)."""
    base = Path(os.path.abspath(path)).parent
    counts = Counter(finding_key(diagnostic, base) for diagnostic in diagnostics)
    entries = [{"code": code, "path": file, "tool_name": tool or None, "line_hash": digest, "count": count}
               for (code, file, tool, digest), count in sorted(counts.items())]
    document = {"version": BASELINE_VERSION, "tool": {"name": "webmcp-lint", "version": __version__},
                "findings": entries}
    return json.dumps(document, indent=2) + "\n"


def read_baseline(path: Path) -> Counter:
    """The recorded keys with their counts."""
    try:
        document = json.loads(path.read_text(encoding="utf-8"))
    except OSError as error:
        raise BaselineError(f"{path}: cannot read the baseline: {error.strerror or error}") from None
    except (UnicodeDecodeError, json.JSONDecodeError) as error:
        raise BaselineError(f"{path}: not a webmcp-lint baseline (invalid JSON: {error})") from None
    if not isinstance(document, dict) or document.get("version") != BASELINE_VERSION \
            or not isinstance(document.get("findings"), list):
        raise BaselineError(f"{path}: not a webmcp-lint baseline (expected version {BASELINE_VERSION} and findings);"
                            " write one with --write-baseline")
    keys: Counter = Counter()
    for index, entry in enumerate(document["findings"]):
        try:
            key = (entry["code"], entry["path"], entry.get("tool_name") or "", entry["line_hash"])
            count = int(entry.get("count", 1))
        except (TypeError, KeyError, ValueError):
            raise BaselineError(f"{path}: finding {index + 1} lacks code, path or line_hash") from None
        keys[key] += count
    return keys


def new_findings(path: Path, diagnostics: list[Diagnostic]) -> list[Diagnostic]:
    """The findings the baseline at ``path`` does not hold (each recorded key absorbs up to its count)."""
    remaining = read_baseline(path)
    base = Path(os.path.abspath(path)).parent
    fresh = []
    for diagnostic in diagnostics:
        key = finding_key(diagnostic, base)
        if remaining[key] > 0:
            remaining[key] -= 1
        else:
            fresh.append(diagnostic)
    return fresh

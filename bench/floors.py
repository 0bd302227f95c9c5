"""The physical floors webmcp-lint is measured against, one per invocation.

``read``: read every file the linter would consider. ``prefilter``: read plus
the byte-level trigger search. ``parse``: read plus a tree-sitter parse of every
file in one process (what any tree-sitter based linter must at least pay
without a prefilter). Each mode imports only what it needs (file discovery,
the parsers, the trigger list), never the linter's analysis, so the floors do
not grow or shrink with the linter's own import cost.
"""

from __future__ import annotations

import sys
from pathlib import Path

from webmcp_lint.discovery import discover


def main(mode: str, root: str) -> None:
    files = discover([root]).files
    total = candidates = 0
    if mode == "prefilter":
        from webmcp_lint.extract import may_hold_webmcp
    elif mode == "parse":
        from webmcp_lint.languages import SCRIPT_LANGUAGE_BY_SUFFIX, parse
    for path in files:
        data = path.read_bytes()
        total += len(data)
        if mode == "prefilter" and may_hold_webmcp(data):
            candidates += 1
        elif mode == "parse":
            language = SCRIPT_LANGUAGE_BY_SUFFIX.get(Path(path).suffix.lower())
            if language is not None:
                parse(data, language)
    print(f"{mode}: {len(files)} files, {total} bytes, {candidates} prefilter candidates")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])

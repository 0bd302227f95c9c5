"""The physical floors webmcp-lint is measured against, one per invocation.

``read``: read every file the linter would consider. ``prefilter``: read plus
the byte-level trigger search. ``parse``: read plus a tree-sitter parse of every
file in one process (what any tree-sitter based linter must at least pay
without a prefilter).
"""

from __future__ import annotations

import sys

from webmcp_lint.discovery import discover
from webmcp_lint.engine import language_for
from webmcp_lint.extract import may_hold_webmcp
from webmcp_lint.languages import parse


def main(mode: str, root: str) -> None:
    files = discover([root]).files
    total = candidates = 0
    for path in files:
        data = path.read_bytes()
        total += len(data)
        if mode == "prefilter" and may_hold_webmcp(data):
            candidates += 1
        elif mode == "parse":
            language = language_for(str(path))
            if language is not None:
                parse(data, language)
    print(f"{mode}: {len(files)} files, {total} bytes, {candidates} prefilter candidates")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])

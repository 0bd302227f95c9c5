"""``--format json-lines``: one JSON object per finding and line, in the ``json`` format's shape (streams, ``jq``)."""

from __future__ import annotations

import json

from webmcp_lint.engine import LintResult
from webmcp_lint.formats import RenderOptions, output_format
from webmcp_lint.formats.json_format import diagnostic_json


@output_format("json-lines")
def render_json_lines(result: LintResult, options: RenderOptions) -> str:
    return "".join(json.dumps(diagnostic_json(diagnostic), ensure_ascii=False) + "\n"
                   for diagnostic in result.diagnostics)

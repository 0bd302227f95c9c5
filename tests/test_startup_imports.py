"""A check run over plain scripts imports only what such a run needs: every module is serial start-up time."""

from __future__ import annotations

import subprocess
import sys

# Modules only some inputs need: markup character references and grammar query files; and dataclasses,
# which nothing needs (the model's records are plain classes).
IMPORTED_ON_DEMAND = ("html", "importlib.resources", "dataclasses")

CHECK_AND_LIST_MODULES = """
import sys
from webmcp_lint.cli import main
try:
    main(["check", sys.argv[1], "--no-cache", "--format", "json", "-j1"])
except SystemExit:
    pass
print(" ".join(sorted(sys.modules)), file=sys.stderr)
"""


def imported_by_a_check_of(path) -> set[str]:
    completed = subprocess.run([sys.executable, "-c", CHECK_AND_LIST_MODULES, str(path)], capture_output=True,
                               text=True, check=True)
    return set(completed.stderr.split())


def test_a_check_of_scripts_without_markup_imports_none_of_the_on_demand_modules(tmp_path):
    tool = tmp_path / "tool.js"
    tool.write_text("document.modelContext.registerTool({ name: 'search', description: 'Finds products.',\n"
                    "  inputSchema: { type: 'object', properties: {} }, execute: async () => 'ok' });\n")
    modules = imported_by_a_check_of(tool)
    assert "webmcp_lint.rules.security" in modules  # the run did check the tool
    assert modules.isdisjoint(IMPORTED_ON_DEMAND)


def test_markup_gets_its_character_references_decoded(tmp_path):
    page = tmp_path / "page.html"
    page.write_text("<form toolname='search' tooldescription='Finds &amp; lists products.'>\n"
                    "  <input name='query' required>\n</form>\n")
    assert "html" in imported_by_a_check_of(page)

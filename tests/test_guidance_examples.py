"""The guidance's correct executions are not flagged by WM401..WM407 or WM409.

The full tools are read from tests/data/guidance/ (copied verbatim from
shared/guidance/guidance.fr.txt; the security rules lint the same files).
Snippets that show only an execute method are placed in a minimal
registration here. WM408 (an info nudge to validate) may fire on examples
that skip validation, and is not checked here.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from support import lint, lint_project

from webmcp_lint.engine import Settings, lint_text
from webmcp_lint.execute import execute_of

EXECUTE_RULES = ("WM401", "WM402", "WM403", "WM404", "WM405", "WM406", "WM407", "WM409")

GUIDANCE = Path(__file__).parent / "data" / "guidance"

# Every guidance file that registers a tool (get_tools_from_origins.js only reads tools).
TOOL_FILES = ("get_user_preferences", "get_cart_items", "calculate_area", "search_products", "fetch_tool",
              "book_flight", "dump_app_state", "get_inventory")


def in_registration(execute: str) -> str:
    return f"""await document.modelContext.registerTool({{
  name: "example",
  description: "An example from the guidance.",
  inputSchema: {{ type: "object", properties: {{}} }},
  {execute},
}});
"""


ASYNC_FETCH_EXECUTE = in_registration("""async execute(input, { signal }) {
  const response = await fetch(`/api/data/${input.id}`, { signal });
  return await response.json();
}""")

SYNC_FILTER_EXECUTE = in_registration("""execute(input) {
  return input.items.filter(item => item.active);
}""")

MENU_ITEM = in_registration("""execute({ itemName }) {
  const item = menuItems.find((entry) => entry.name.toLowerCase() === itemName.toLowerCase());
  if (!item) {
    // Return the error as a value instead of throwing, so the agent receives the message:
    return {
      error: `Menu item "${itemName}" not found.`,
      availableItems: menuItems.map((entry) => entry.name),
    };
  }
  return item;
}""")


EXAMPLES = {
    **{stem: (GUIDANCE / f"{stem}.js").read_text() for stem in TOOL_FILES},
    "async_fetch_execute": ASYNC_FETCH_EXECUTE,
    "sync_filter_execute": SYNC_FILTER_EXECUTE,
    "menu_item": MENU_ITEM,
}


@pytest.mark.parametrize("name", EXAMPLES)
def test_guidance_execution_is_not_flagged(name):
    diagnostics = lint(EXAMPLES[name])
    assert [d for d in diagnostics if d.code in EXECUTE_RULES] == []


@pytest.mark.parametrize("name", EXAMPLES)
def test_guidance_execution_is_analysed(name):
    """The silence above means something: each example's execute was found and modelled."""
    result = lint_text(EXAMPLES[name], "app.js", Settings(rules=[]))
    (tool,) = list(result.project.tools)
    assert execute_of(tool, result.project) is not None


def test_guidance_inventory_factory_is_not_flagged(tmp_path: Path):
    """The factory in one module, registered from another: the tool is found only through the import."""
    factory, _, registration = EXAMPLES["get_inventory"].rstrip("\n").rpartition("\n")
    assert registration.startswith("document.modelContext.registerTool(createInventoryTool(")
    result = lint_project(tmp_path, {
        "tools.js": factory + "\n",
        "main.js": 'import { createInventoryTool } from "./tools.js";\n'
                   "await document.modelContext.registerTool(createInventoryTool(inventoryManager));\n",
    })
    (tool,) = list(result.project.tools)
    assert execute_of(tool, result.project) is not None
    assert [d for d in result.diagnostics if d.code in EXECUTE_RULES] == []

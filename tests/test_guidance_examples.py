"""The guidance's correct executions are not flagged by WM401..WM407 or WM409.

The code is copied from shared/guidance/guidance.fr.txt. Snippets that show
only an execute method are placed in a minimal registration. WM408 (an info
nudge to validate) may fire on examples that skip validation, and is not
checked here.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from support import lint, lint_project

from webmcp_lint.engine import Settings, lint_text
from webmcp_lint.execute import execute_of

EXECUTE_RULES = ("WM401", "WM402", "WM403", "WM404", "WM405", "WM406", "WM407", "WM409")


def in_registration(execute: str) -> str:
    return f"""await document.modelContext.registerTool({{
  name: "example",
  description: "An example from the guidance.",
  inputSchema: {{ type: "object", properties: {{}} }},
  {execute},
}});
"""


GET_USER_PREFERENCES = """const controller = new AbortController();

await document.modelContext.registerTool({
  name: "get_user_preferences",
  description: "Retrieves the user's saved preferences.",
  inputSchema: { type: "object", properties: {} },
  execute() {
    const prefs = localStorage.getItem("user_prefs");
    return prefs ? JSON.parse(prefs) : { theme: "light" };
  },
  annotations: { readOnlyHint: true }
}, { signal: controller.signal });

// To unregister the tool (e.g., on component unmount):
controller.abort();
"""

GET_CART_ITEMS = """const controller = new AbortController();

await document.modelContext.registerTool({
  name: "get_cart_items",
  description: "Retrieves items currently in the user's shopping cart.",
  inputSchema: { type: "object", properties: {} },
  async execute(input, { signal }) {
    return await cartService.getItems({ signal });
  },
  annotations: { readOnlyHint: true },
}, {
  signal: controller.signal,
  exposedTo: ["https://checkout.example.com"],
});
"""

CALCULATE_AREA = """await document.modelContext.registerTool({
  name: "calculate_area",
  description: "Calculates the area of a rectangle.",
  inputSchema: {
    type: "object",
    properties: {
      width: { type: "number", description: "The width of the rectangle." },
      height: { type: "number", description: "The height of the rectangle." }
    },
    required: ["width", "height"]
  },
  execute(input) {
    // input is { width: 10, height: 20 }
    return input.width * input.height;
  },
  annotations: { readOnlyHint: true }
});
"""

SEARCH_PRODUCTS = """const SORT_ORDERS = ["newest", "price_low_to_high"];

await document.modelContext.registerTool({
  name: "search_products",
  // Don't list the sort orders here, even via SORT_ORDERS: `enum` already does.
  description: "Searches the product catalog by keyword. Use when the user wants to find or compare products.",
  inputSchema: {
    type: "object",
    properties: {
      query: { type: "string", description: "Words to search for." },
      sort: { type: "string", enum: SORT_ORDERS, default: "newest", description: "Order of the results." },
    },
    required: ["query"],
  },
  async execute({ query, sort = "newest" }, { signal }) {
    if (typeof query !== "string" || !SORT_ORDERS.includes(sort)) {
      return { error: "Pass a search query and a supported sort order.", sortOrders: SORT_ORDERS };
    }
    return await productService.search({ query, sort }, { signal });
  },
  annotations: { readOnlyHint: true },
});
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

FETCH_TOOL = """await document.modelContext.registerTool({
  name: "fetch_tool",
  description: "Fetch the text content of a URL and show it on the page.",
  inputSchema: {
    type: "object",
    properties: {
      url: { type: "string", description: "The URL to fetch" },
      priority: {
        type: "string",
        enum: ["high", "low", "auto"],
        description: "Relative network priority for the request",
      },
    },
    required: ["url"],
  },
  execute: async ({ url, priority }, { signal }) => {
    const output = document.querySelector("pre");
    output.textContent = "Loading…";
    try {
      // Passing `signal` aborts the network request the moment execution is cancelled.
      const response = await fetch(url, { priority, signal });
      if (!response.ok) {
        output.textContent = "";
        return { error: `Request failed with status ${response.status}` };
      }
      const text = await response.text();
      output.textContent = text;
      return text;
    } catch (err) {
      // Roll back the UI state this execution set, so a cancelled run leaves no trace.
      output.textContent = "";
      if (signal.aborted) {
        // The execution was cancelled: re-throw instead of returning an error value.
        throw err;
      }
      // Return other errors as a value instead of throwing, so the agent receives the message.
      return { error: err instanceof Error ? err.message : String(err) };
    }
  },
  annotations: { readOnlyHint: true }
});
"""

BOOK_FLIGHT = """await document.modelContext.registerTool({
  name: 'book_flight',
  description: 'Book a flight for the user with confirmed flight details.',
  inputSchema: {
    type: 'object',
    properties: {
      flightId: { type: 'string', description: 'ID of the flight to book' },
      passengers: { type: 'number', description: 'Number of tickets to purchase' },
    },
    required: ['flightId', 'passengers'],
  },
  execute: async ({ flightId, passengers }, { signal }) => {
    // Forward `signal` to the transaction API to honor cancellation:
    return await bookFlightReservation({ flightId, passengers }, { signal });
  },
  annotations: {
    readOnlyHint: false,      // This tool mutates state (it makes a booking).
    consequentialHint: true,  // Spends money and is not trivially reversible.
    untrustedContentHint: false, // Output is first-party data, not third-party content.
  }
});
"""

DUMP_APP_STATE = """await document.modelContext.registerTool({
  name: "dump_app_state",
  description: "Returns a snapshot of the internal application store for debugging.",
  execute() {
    return appStore.getState();
  },
  annotations: {
    readOnlyHint: true, // Only reads state.
    debugging: true,    // Developer tooling, not an end-user action.
  }
});
"""

INVENTORY_FACTORY = """export function createInventoryTool(inventoryManager) {
  return {
    name: "get_inventory",
    description: "Lists items in the inventory.",
    inputSchema: { type: "object", properties: {} },
    execute() {
      return inventoryManager.getItems();
    },
    annotations: { readOnlyHint: true }
  };
}
"""

EXAMPLES = {
    "get_user_preferences": GET_USER_PREFERENCES,
    "get_cart_items": GET_CART_ITEMS,
    "calculate_area": CALCULATE_AREA,
    "search_products": SEARCH_PRODUCTS,
    "async_fetch_execute": ASYNC_FETCH_EXECUTE,
    "sync_filter_execute": SYNC_FILTER_EXECUTE,
    "menu_item": MENU_ITEM,
    "fetch_tool": FETCH_TOOL,
    "book_flight": BOOK_FLIGHT,
    "dump_app_state": DUMP_APP_STATE,
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
    result = lint_project(tmp_path, {
        "tools.js": INVENTORY_FACTORY,
        "main.js": 'import { createInventoryTool } from "./tools.js";\n'
                   "await document.modelContext.registerTool(createInventoryTool(inventoryManager));\n",
    })
    (tool,) = list(result.project.tools)
    assert execute_of(tool, result.project) is not None
    assert [d for d in result.diagnostics if d.code in EXECUTE_RULES] == []

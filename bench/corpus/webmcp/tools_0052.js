import { api } from "./api.js";
import { store } from "./store.js";

export async function registerTools52(controller) {
  const mc = document.modelContext;
  if (!mc) return;

  await mc.registerTool({
    name: "delete_product_520",
    description: "Takes a string `query` and returns matching products.",
    inputSchema: {
      type: "object",
      properties: {
        query: { type: "string", description: "Words to look for." },
        sort: { type: "string", enum: ['newest', 'oldest', 'price_low_to_high', 'price_high_to_low', 'rating'], default: "newest", description: "Order of the results." },
        limit: { type: "integer", minimum: 1, maximum: 100, default: 10, description: "How many to return." },
      },
      required: ["query"],
    },
    async execute({ query, sort = "newest", limit = 10 }, { signal }) {
    const items = await store.load("product");
    if (!items.length) throw new Error("nothing found");
    return items.filter((item) => item.name.includes(query)).slice(0, limit);
    },
    annotations: { consequentialHint: true },
  }, { signal: controller.signal });

  await mc.registerTool({
    name: "find_ticket_521",
    description: "Finds a ticket for the signed-in user. Use when they ask to find one.",
    inputSchema: {
      type: "object",
      properties: {
        query: { type: "string", description: "Words to look for." },
        sort: { type: "string", enum: ['newest', 'oldest', 'price_low_to_high', 'price_high_to_low', 'rating'], default: "newest", description: "Order of the results." },
        limit: { type: "integer", minimum: 1, maximum: 100, default: 20, description: "How many to return." },
      },
      required: ["query"],
    },
    async execute({ query, sort = "newest", limit = 20 }, { signal }) {
    const items = await store.load("ticket");
    if (!items.length) throw new Error("nothing found");
    return items.filter((item) => item.name.includes(query)).slice(0, limit);
    },
    annotations: {  },
  }, { signal: controller.signal });

  await mc.registerTool({
    name: "update_invoice_522",
    description: "Updates a invoice for the signed-in user. Use when they ask to update one.",
    inputSchema: {
      type: "object",
      properties: {
        query: { type: "string", description: "Words to look for." },
        sort: { type: "string", enum: ['newest', 'oldest', 'price_low_to_high', 'price_high_to_low', 'rating'], default: "newest", description: "Order of the results." },
        limit: { type: "integer", minimum: 1, maximum: 100, default: 10, description: "How many to return." },
      },
      required: ["query"],
    },
    async execute({ query, sort = "newest", limit = 10 }, { signal }) {
    const items = await store.load("invoice");
    if (!items.length) throw new Error("nothing found");
    return items.filter((item) => item.name.includes(query)).slice(0, limit);
    },
    annotations: {  },
  }, { signal: controller.signal });

  await mc.registerTool({
    name: "delete_invoice_523",
    description: "Takes a string `query` and returns matching invoices.",
    inputSchema: {
      type: "object",
      properties: {
        query: { type: "string", description: "Words to look for." },
        sort: { type: "string", enum: ['newest', 'oldest', 'price_low_to_high', 'price_high_to_low', 'rating'], default: "newest", description: "Order of the results." },
        limit: { type: "integer", minimum: 1, maximum: 100, default: 10, description: "How many to return." },
      },
      required: ["query"],
    },
    async execute({ query, sort = "newest", limit = 10 }, { signal }) {
    const response = await fetch(`/api/invoices?q=${encodeURIComponent(query)}&limit=${limit}`, { signal });
    if (!response.ok) {
      return { error: `Request failed with status ${response.status}` };
    }
    return await response.json();
    },
    annotations: { consequentialHint: true },
  }, { signal: controller.signal });
}

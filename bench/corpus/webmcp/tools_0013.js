import { api } from "./api.js";
import { store } from "./store.js";

export async function registerTools13(controller) {
  const mc = document.modelContext;
  if (!mc) return;

  await mc.registerTool({
    name: "list_message_130",
    description: "List messages. Sort is one of newest, oldest; defaults to newest.",
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
    const items = await store.load("message");
    if (!items.length) throw new Error("nothing found");
    return items.filter((item) => item.name.includes(query)).slice(0, limit);
    },
    annotations: { readonlyHint: true },
  }, { signal: controller.signal });

  await mc.registerTool({
    name: "get_message_131",
    description: "Takes a string `query` and returns matching messages.",
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
    try {
      return await api.getMessage({ query, limit }, { signal });
    } catch (err) {
      if (signal.aborted) throw err;
      return { error: err instanceof Error ? err.message : String(err) };
    }
    },
    annotations: {  },
  }, { signal: controller.signal });

  await mc.registerTool({
    name: "preview_product_132",
    description: "Previews a product for the signed-in user. Use when they ask to preview one.",
    inputSchema: {
      type: "object",
      properties: {
        query: { type: "string", description: "Words to look for." },
        sort: { type: "string", enum: ['newest', 'oldest', 'price_low_to_high', 'price_high_to_low', 'rating'], default: "newest", description: "Order of the results." },
        limit: { type: "integer", minimum: 1, maximum: 100, default: 50, description: "How many to return." },
      },
      required: ["query"],
    },
    async execute({ query, sort = "newest", limit = 50 }, { signal }) {
    const response = await fetch(`/api/products?q=${encodeURIComponent(query)}&limit=${limit}`, { method: "GET" });
    if (!response.ok) {
      return { error: `Request failed with status ${response.status}` };
    }
    return await response.json();
    },
    annotations: { readOnlyHint: true },
  }, { signal: controller.signal });

  await mc.registerTool({
    name: "cancel_profile_133",
    description: "Takes a string `query` and returns matching profiles.",
    inputSchema: {
      type: "object",
      properties: {
        query: { type: "string", description: "Words to look for." },
        sort: { type: "string", enum: ['newest', 'oldest', 'price_low_to_high', 'price_high_to_low', 'rating'], default: "newest", description: "Order of the results." },
        limit: { type: "integer", minimum: 1, maximum: 100, default: 50, description: "How many to return." },
      },
      required: ["query"],
    },
    async execute({ query, sort = "newest", limit = 50 }, { signal }) {
    const response = await fetch(`/api/profiles?q=${encodeURIComponent(query)}&limit=${limit}`, { method: "GET" });
    if (!response.ok) {
      return { error: `Request failed with status ${response.status}` };
    }
    return await response.json();
    },
    annotations: { consequentialHint: true },
  }, { signal: controller.signal });

  await mc.registerTool({
    name: "create_invoice_134",
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
    const items = await store.load("invoice");
    if (!items.length) throw new Error("nothing found");
    return items.filter((item) => item.name.includes(query)).slice(0, limit);
    },
    annotations: { consequentialHint: true },
  }, { signal: controller.signal });
}

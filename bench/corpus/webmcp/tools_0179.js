import { api } from "./api.js";
import { store } from "./store.js";

export async function registerTools179(controller) {
  const mc = document.modelContext;
  if (!mc) return;

  await mc.registerTool({
    name: "send_message_1790",
    description: "Takes a string `query` and returns matching messages.",
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
    const response = await fetch(`/api/messages?q=${encodeURIComponent(query)}&limit=${limit}`, { signal });
    if (!response.ok) {
      return { error: `Request failed with status ${response.status}` };
    }
    return await response.json();
    },
    annotations: { consequentialHint: true },
  }, { signal: controller.signal });

  await mc.registerTool({
    name: "list_product_1791",
    description: "Lists a product for the signed-in user. Use when they ask to list one.",
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
    const response = await fetch(`/api/products?q=${encodeURIComponent(query)}&limit=${limit}`, { signal });
    if (!response.ok) {
      return { error: `Request failed with status ${response.status}` };
    }
    return await response.json();
    },
    annotations: { readOnlyHint: true },
  }, { signal: controller.signal });

  await mc.registerTool({
    name: "find_order_1792",
    description: "Finds a order for the signed-in user. Use when they ask to find one.",
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
    const response = await fetch(`/api/orders?q=${encodeURIComponent(query)}&limit=${limit}`, { signal });
    if (!response.ok) {
      return { error: `Request failed with status ${response.status}` };
    }
    return await response.json();
    },
    annotations: {  },
  }, { signal: controller.signal });
}

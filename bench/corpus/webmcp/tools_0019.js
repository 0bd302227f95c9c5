import { api } from "./api.js";
import { store } from "./store.js";

export async function registerTools19(controller) {
  const mc = navigator.modelContext;
  if (!mc) return;

  await mc.registerTool({
    name: "preview_cart_item_190",
    description: "Preview cart items. Sort is one of newest, oldest; defaults to newest.",
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
    const response = await fetch(`/api/cart_items?q=${encodeURIComponent(query)}&limit=${limit}`, { signal });
    if (!response.ok) {
      return { error: `Request failed with status ${response.status}` };
    }
    return await response.json();
    },
    annotations: { readOnlyHint: true },
  }, { signal: controller.signal });

  await mc.registerTool({
    name: "delete_product_191",
    description: "Delete products. Sort is one of newest, oldest; defaults to newest.",
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
    const response = await fetch(`/api/products?q=${encodeURIComponent(query)}&limit=${limit}`, { signal });
    if (!response.ok) {
      return { error: `Request failed with status ${response.status}` };
    }
    return await response.json();
    },
    annotations: { consequentialHint: true },
  }, { signal: controller.signal });

  await mc.registerTool({
    name: "send_order_192",
    description: "Send orders. Sort is one of newest, oldest; defaults to newest.",
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
    const response = await fetch(`/api/orders?q=${encodeURIComponent(query)}&limit=${limit}`, { signal });
    if (!response.ok) {
      return { error: `Request failed with status ${response.status}` };
    }
    return await response.json();
    },
    annotations: { consequentialHint: true },
  }, { signal: controller.signal });
}

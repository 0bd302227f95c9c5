import { api } from "./api.js";
import { store } from "./store.js";

export async function registerTools78(controller) {
  const mc = document.modelContext;
  if (!mc) return;

  await mc.registerTool({
    name: "export_review_780",
    description: "Takes a string `query` and returns matching reviews.",
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
      return await api.exportReview({ query, limit }, { signal });
    } catch (err) {
      if (signal.aborted) throw err;
      return { error: err instanceof Error ? err.message : String(err) };
    }
    },
    annotations: { readOnlyHint: true },
  }, { signal: controller.signal });

  await mc.registerTool({
    name: "send_report_781",
    description: "Send reports. Sort is one of newest, oldest; defaults to newest.",
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
    try {
      return await api.sendReport({ query, limit }, { signal });
    } catch (err) {
      if (signal.aborted) throw err;
      return { error: err instanceof Error ? err.message : String(err) };
    }
    },
    annotations: { consequentialHint: true },
  }, { signal: controller.signal });

  await mc.registerTool({
    name: "export_order_782",
    description: "Takes a string `query` and returns matching orders.",
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
    annotations: { readOnlyHint: true },
  }, { signal: controller.signal });

  await mc.registerTool({
    name: "list_cart_item_783",
    description: "Takes a string `query` and returns matching cart items.",
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
    try {
      return await api.listCartItem({ query, limit }, { signal });
    } catch (err) {
      if (signal.aborted) throw err;
      return { error: err instanceof Error ? err.message : String(err) };
    }
    },
    annotations: {  },
  }, { signal: controller.signal });

  await mc.registerTool({
    name: "send_ticket_784",
    description: "Send tickets. Sort is one of newest, oldest; defaults to newest.",
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
    const items = await store.load("ticket");
    if (!items.length) throw new Error("nothing found");
    return items.filter((item) => item.name.includes(query)).slice(0, limit);
    },
    annotations: {  },
  }, { signal: controller.signal });
}

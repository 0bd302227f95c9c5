import { api } from "./api.js";
import { store } from "./store.js";

export async function registerTools81(controller) {
  const mc = document.modelContext;
  if (!mc) return;

  await mc.registerTool({
    name: "book_order_810",
    description: "Book orders. Sort is one of newest, oldest; defaults to newest.",
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
    const items = await store.load("order");
    if (!items.length) throw new Error("nothing found");
    return items.filter((item) => item.name.includes(query)).slice(0, limit);
    },
    annotations: { consequentialHint: true },
  }, { signal: controller.signal });

  await mc.registerTool({
    name: "search_report_811",
    description: "Takes a string `query` and returns matching reports.",
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
    const response = await fetch(`/api/reports?q=${encodeURIComponent(query)}&limit=${limit}`, { signal });
    if (!response.ok) {
      return { error: `Request failed with status ${response.status}` };
    }
    return await response.json();
    },
    annotations: { readOnlyHint: true },
  }, { signal: controller.signal });

  await mc.registerTool({
    name: "send_report_812",
    description: "Takes a string `query` and returns matching reports.",
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
    annotations: {  },
  }, { signal: controller.signal });

  await mc.registerTool({
    name: "cancel_cart_item_813",
    description: "Cancel cart items. Sort is one of newest, oldest; defaults to newest.",
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
      return await api.cancelCartItem({ query, limit }, { signal });
    } catch (err) {
      if (signal.aborted) throw err;
      return { error: err instanceof Error ? err.message : String(err) };
    }
    },
    annotations: { consequentialHint: true },
  }, { signal: controller.signal });

  await mc.registerTool({
    name: "find_review_814",
    description: "Find reviews. Sort is one of newest, oldest; defaults to newest.",
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
    const response = await fetch(`/api/reviews?q=${encodeURIComponent(query)}&limit=${limit}`, { method: "GET" });
    if (!response.ok) {
      return { error: `Request failed with status ${response.status}` };
    }
    return await response.json();
    },
    annotations: { readOnlyHint: true },
  }, { signal: controller.signal });
}

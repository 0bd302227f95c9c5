import { api } from "./api.js";
import { store } from "./store.js";

export async function registerTools40(controller) {
  const mc = navigator.modelContext;
  if (!mc) return;

  await mc.registerTool({
    name: "send_invoice_400",
    description: "Sends a invoice for the signed-in user. Use when they ask to send one.",
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
      return await api.sendInvoice({ query, limit }, { signal });
    } catch (err) {
      if (signal.aborted) throw err;
      return { error: err instanceof Error ? err.message : String(err) };
    }
    },
    annotations: {  },
  }, { signal: controller.signal });

  await mc.registerTool({
    name: "find_report_401",
    description: "Finds a report for the signed-in user. Use when they ask to find one.",
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
    const items = await store.load("report");
    if (!items.length) throw new Error("nothing found");
    return items.filter((item) => item.name.includes(query)).slice(0, limit);
    },
    annotations: {  },
  }, { signal: controller.signal });

  await mc.registerTool({
    name: "search_message_402",
    description: "Searchs a message for the signed-in user. Use when they ask to search one.",
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
    const response = await fetch(`/api/messages?q=${encodeURIComponent(query)}&limit=${limit}`, { signal });
    if (!response.ok) {
      return { error: `Request failed with status ${response.status}` };
    }
    return await response.json();
    },
    annotations: { readOnlyHint: true },
  }, { signal: controller.signal });

  await mc.registerTool({
    name: "update_profile_403",
    description: "Updates a profile for the signed-in user. Use when they ask to update one.",
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
      return await api.updateProfile({ query, limit }, { signal });
    } catch (err) {
      if (signal.aborted) throw err;
      return { error: err instanceof Error ? err.message : String(err) };
    }
    },
    annotations: { consequentialHint: true },
  }, { signal: controller.signal });

  await mc.registerTool({
    name: "find_review_404",
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
    const items = await store.load("review");
    if (!items.length) throw new Error("nothing found");
    return items.filter((item) => item.name.includes(query)).slice(0, limit);
    },
    annotations: {  },
  }, { signal: controller.signal });
}

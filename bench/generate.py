"""Seeded generator of a WebMCP corpus: app modules with 3 to 5 registerTool calls each.

The same seed gives byte-identical files on any machine, so figures from
different runs compare the same input. Mistakes are mixed in at realistic
rates so every rule family has work to do. Each module also holds the app
code a real one has around its tools (rendering, a store, formatting, event
wiring), so 200 files weigh about 1.6 MB like the corpus issue 9 describes;
that code comes from its own random stream, so the tools are the same with or
without it.
"""

from __future__ import annotations

import argparse
import random
from pathlib import Path

# Bumped whenever the output changes, so bench/run.py never measures a stale corpus.
GENERATOR_VERSION = 2

VERBS = ["get", "list", "search", "find", "book", "cancel", "send", "update", "create", "delete", "export", "preview"]
NOUNS = ["order", "flight", "cart_item", "invoice", "message", "product", "review", "ticket", "profile", "report"]
SORTS = ["newest", "oldest", "price_low_to_high", "price_high_to_low", "rating"]


def tool_source(rng: random.Random, index: int) -> str:
    verb, noun = rng.choice(VERBS), rng.choice(NOUNS)
    name = f"{verb}_{noun}_{index}"
    consequential = verb in ("book", "cancel", "send", "delete", "create", "update")
    read_only = verb in ("get", "list", "search", "find", "preview", "export")
    description = rng.choice([
        f"{verb.capitalize()}s a {noun.replace('_', ' ')} for the signed-in user. Use when they ask to {verb} one.",
        f"{verb.capitalize()} {noun.replace('_', ' ')}s. Sort is one of newest, oldest; defaults to newest.",
        f"Takes a string `query` and returns matching {noun.replace('_', ' ')}s.",
    ])
    limit_default = rng.choice([10, 20, 50])
    annotations = []
    if read_only and rng.random() < 0.8:
        annotations.append("readOnlyHint: true")
    if consequential and rng.random() < 0.6:
        annotations.append("consequentialHint: true")
    if rng.random() < 0.05:
        annotations.append("readonlyHint: true")
    fetch_init = "{ signal }" if rng.random() < 0.7 else "{ method: \"GET\" }"
    body_kind = rng.random()
    if body_kind < 0.5:
        body = f"""    const response = await fetch(`/api/{noun}s?q=${{encodeURIComponent(query)}}&limit=${{limit}}`, {fetch_init});
    if (!response.ok) {{
      return {{ error: `Request failed with status ${{response.status}}` }};
    }}
    return await response.json();"""
    elif body_kind < 0.8:
        body = f"""    try {{
      return await api.{verb}{noun.title().replace('_', '')}({{ query, limit }}, {{ signal }});
    }} catch (err) {{
      if (signal.aborted) throw err;
      return {{ error: err instanceof Error ? err.message : String(err) }};
    }}"""
    else:
        body = f"""    const items = await store.load("{noun}");
    if (!items.length) throw new Error("nothing found");
    return items.filter((item) => item.name.includes(query)).slice(0, limit);"""
    annotation_text = ", ".join(annotations)
    return f"""
  await mc.registerTool({{
    name: "{name}",
    description: "{description.replace('"', "'")}",
    inputSchema: {{
      type: "object",
      properties: {{
        query: {{ type: "string", description: "Words to look for." }},
        sort: {{ type: "string", enum: {SORTS!r}, default: "newest", description: "Order of the results." }},
        limit: {{ type: "integer", minimum: 1, maximum: 100, default: {limit_default}, description: "How many to return." }},
      }},
      required: ["query"],
    }},
    async execute({{ query, sort = "newest", limit = {limit_default} }}, {{ signal }}) {{
{body}
    }},
    annotations: {{ {annotation_text} }},
  }}, {{ signal: controller.signal }});
"""


APP_CODE = [
    """
function format{Noun}Row(item, locale = "en-US") {{
  const price = new Intl.NumberFormat(locale, {{ style: "currency", currency: item.currency ?? "USD" }}).format(item.price / 100);
  const updated = new Date(item.updatedAt).toLocaleDateString(locale, {{ year: "numeric", month: "short", day: "numeric" }});
  const badge = item.stock > {threshold} ? "in stock" : item.stock > 0 ? `only ${{item.stock}} left` : "sold out";
  return `${{item.name}} · ${{price}} · ${{badge}} · updated ${{updated}}`;
}}
""",
    """
export function render{Noun}List(container, items, {{ emptyText = "No {noun}s yet." }} = {{}}) {{
  container.replaceChildren();
  if (items.length === 0) {{
    const empty = document.createElement("p");
    empty.className = "empty-state";
    empty.textContent = emptyText;
    container.append(empty);
    return;
  }}
  const list = document.createElement("ul");
  list.className = "{noun}-list";
  for (const item of items) {{
    const row = document.createElement("li");
    row.className = item.archived ? "row row--archived" : "row";
    row.dataset.id = String(item.id);
    row.textContent = item.label ?? item.name;
    list.append(row);
  }}
  container.append(list);
}}
""",
    """
export class {Noun}Store {{
  #items = new Map();
  #listeners = new Set();

  subscribe(listener) {{
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }}

  upsert(item) {{
    const previous = this.#items.get(item.id);
    this.#items.set(item.id, {{ ...previous, ...item, updatedAt: Date.now() }});
    this.#emit();
  }}

  remove(id) {{
    if (this.#items.delete(id)) this.#emit();
  }}

  query({{ text = "", sort = "newest", limit = {limit} }} = {{}}) {{
    const needle = text.trim().toLowerCase();
    const matches = [...this.#items.values()].filter((item) => !needle || item.name.toLowerCase().includes(needle));
    const order = {{
      newest: (a, b) => b.updatedAt - a.updatedAt,
      oldest: (a, b) => a.updatedAt - b.updatedAt,
      price_low_to_high: (a, b) => a.price - b.price,
      price_high_to_low: (a, b) => b.price - a.price,
    }}[sort] ?? (() => 0);
    return matches.sort(order).slice(0, limit);
  }}

  #emit() {{
    for (const listener of this.#listeners) listener(this);
  }}
}}
""",
    """
function debounce(callback, wait = {wait}) {{
  let timer;
  return (...args) => {{
    clearTimeout(timer);
    timer = setTimeout(() => callback(...args), wait);
  }};
}}

export function bind{Noun}Search(input, results, load) {{
  let current = new AbortController();
  const run = debounce(async () => {{
    current.abort();
    current = new AbortController();
    results.setAttribute("aria-busy", "true");
    try {{
      const items = await load(input.value, {{ signal: current.signal }});
      results.textContent = `${{items.length}} {noun}s`;
    }} catch (error) {{
      if (error.name !== "AbortError") results.textContent = "Search failed, try again.";
    }} finally {{
      results.removeAttribute("aria-busy");
    }}
  }});
  input.addEventListener("input", run);
  return () => input.removeEventListener("input", run);
}}
""",
    """
async function load{Noun}Page(page, {{ signal, pageSize = {limit} }} = {{}}) {{
  const params = new URLSearchParams({{ page: String(page), page_size: String(pageSize) }});
  const response = await fetch(`/api/{noun}s?${{params}}`, {{ signal, headers: {{ Accept: "application/json" }} }});
  if (!response.ok) {{
    throw new Error(`Loading {noun}s failed with status ${{response.status}}`);
  }}
  const body = await response.json();
  return {{ items: body.items ?? [], total: body.total ?? 0, hasMore: page * pageSize < (body.total ?? 0) }};
}}
""",
    """
const {NOUN}_LABELS = {{
  pending: "Waiting for confirmation",
  confirmed: "Confirmed",
  shipped: "On its way",
  delivered: "Delivered",
  cancelled: "Cancelled",
  refunded: "Refunded",
}};

export function describe{Noun}Status(status, {{ short = false }} = {{}}) {{
  const label = {NOUN}_LABELS[status] ?? "Unknown";
  return short ? label.split(" ")[0] : label;
}}
""",
    """
export function wire{Noun}Dialog(dialog, {{ onSubmit, onCancel }}) {{
  const form = dialog.querySelector("form");
  const submit = (event) => {{
    event.preventDefault();
    const data = Object.fromEntries(new FormData(form));
    if (!data.name || String(data.name).length > {threshold}0) {{
      form.querySelector("[name=name]")?.setCustomValidity("Enter a name of at most {threshold}0 characters.");
      form.reportValidity();
      return;
    }}
    onSubmit(data);
    dialog.close();
  }};
  const cancel = () => {{
    onCancel?.();
    dialog.close();
  }};
  form.addEventListener("submit", submit);
  dialog.querySelector("[data-action=cancel]")?.addEventListener("click", cancel);
  return () => {{
    form.removeEventListener("submit", submit);
    dialog.querySelector("[data-action=cancel]")?.removeEventListener("click", cancel);
  }};
}}
""",
    """
function summarise{Noun}s(items) {{
  let total = 0;
  const byStatus = new Map();
  for (const item of items) {{
    total += item.price * (item.quantity ?? 1);
    byStatus.set(item.status, (byStatus.get(item.status) ?? 0) + 1);
  }}
  const average = items.length ? Math.round(total / items.length) : 0;
  return {{ count: items.length, total, average, byStatus: Object.fromEntries(byStatus) }};
}}
""",
]


def app_source(seed: int, file_index: int) -> str:
    """The module's other code: a seeded choice of realistic helpers around one noun."""
    rng = random.Random(f"{seed}-app-{file_index}")
    noun = rng.choice(NOUNS)
    camel = "".join(part.title() for part in noun.split("_"))
    values = {"Noun": camel, "noun": noun.replace("_", " "), "NOUN": noun.upper(),
              "threshold": rng.randint(3, 9), "limit": rng.choice([10, 20, 50]), "wait": rng.choice([150, 200, 300])}
    chosen = sorted(rng.sample(range(len(APP_CODE)), rng.randint(5, len(APP_CODE))))
    return "".join(APP_CODE[index].format(**values) for index in chosen)


def file_source(rng: random.Random, file_index: int, seed: int) -> str:
    tools = "".join(tool_source(rng, file_index * 10 + i) for i in range(rng.randint(3, 5)))
    receiver = "navigator.modelContext" if rng.random() < 0.05 else "document.modelContext"
    return f"""import {{ api }} from "./api.js";
import {{ store }} from "./store.js";
{app_source(seed, file_index)}
export async function registerTools{file_index}(controller) {{
  const mc = {receiver};
  if (!mc) return;
{tools}}}
"""


def generate(directory: Path, files: int = 200, seed: int = 20261129) -> list[Path]:
    rng = random.Random(seed)
    directory.mkdir(parents=True, exist_ok=True)
    written = []
    for index in range(files):
        path = directory / f"tools_{index:04d}.js"
        path.write_text(file_source(rng, index, seed), encoding="utf-8")
        written.append(path)
    return written


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("directory", type=Path)
    parser.add_argument("--files", type=int, default=200)
    parser.add_argument("--seed", type=int, default=20261129)
    arguments = parser.parse_args()
    paths = generate(arguments.directory, arguments.files, arguments.seed)
    print(f"{len(paths)} files, {sum(path.stat().st_size for path in paths):,} bytes in {arguments.directory}")

"""Seeded generator of a WebMCP corpus: files with 3 to 5 registerTool calls each.

The same seed gives byte-identical files on any machine, so figures from
different runs compare the same input. Mistakes are mixed in at realistic
rates so every rule family has work to do.
"""

from __future__ import annotations

import argparse
import random
from pathlib import Path

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


def file_source(rng: random.Random, file_index: int) -> str:
    tools = "".join(tool_source(rng, file_index * 10 + i) for i in range(rng.randint(3, 5)))
    receiver = "navigator.modelContext" if rng.random() < 0.05 else "document.modelContext"
    return f"""import {{ api }} from "./api.js";
import {{ store }} from "./store.js";

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
        path.write_text(file_source(rng, index), encoding="utf-8")
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

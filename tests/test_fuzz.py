"""Property-based fuzzing: generated WebMCP-like programs and mutated fixtures.

Properties: no exception escapes (no internal error), output is
deterministic, every finding lies inside its file, and a file linted alone
gives the findings it gets inside its directory (it imports nothing).
"""

from __future__ import annotations

import json
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from webmcp_lint.engine import LintResult, Settings, lint_paths, lint_text
from webmcp_lint.formats import RenderOptions, render

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"
FIXTURE_FILES = sorted(path for path in FIXTURES.rglob("*")
                       if path.suffix in (".js", ".ts", ".tsx", ".html", ".vue") and path.is_file())

identifiers = st.sampled_from(["input", "signal", "opts", "query", "url", "mc", "result", "err", "items", "x"])
strings = st.text(alphabet=st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=30).map(json.dumps)
literals = st.one_of(strings, st.integers(-5, 200).map(str), st.sampled_from(["true", "false", "null", "undefined"]))
keys = st.sampled_from(["name", "description", "inputSchema", "execute", "annotations", "title", "outputSchema",
                        "parameters", "handler", "readOnlyHint", "type", "properties", "enum", "default",
                        "minimum", "maximum", "required", "items", "consequentialHint", "exposedTo", "signal"])


def expressions(depth: int = 2):
    if depth == 0:
        return st.one_of(literals, identifiers)
    inner = expressions(depth - 1)
    return st.one_of(
        literals, identifiers,
        st.lists(st.tuples(keys, inner), max_size=4).map(lambda pairs: "{ " + ", ".join(f"{k}: {v}" for k, v in pairs) + " }"),
        st.lists(inner, max_size=3).map(lambda items: "[" + ", ".join(items) + "]"),
        st.tuples(inner, inner).map(lambda pair: f"{pair[0]} + {pair[1]}"),
        st.tuples(identifiers, inner).map(lambda pair: f"`${{{pair[0]}}} {pair[1][:10]}`"),
    )


def statements(depth: int = 2):
    simple = st.one_of(
        expressions(1).map(lambda value: f"return {value};"),
        expressions(1).map(lambda value: f"throw new Error({value});"),
        st.sampled_from([
            "const r = await fetch(url);", "const r = await fetch(url, { signal });", "signal.throwIfAborted();",
            "setTimeout(() => {}, 10);", "await service.load();", "localStorage.setItem('k', 'v');",
            "if (signal.aborted) throw signal.reason;", "return new Map();", "return { error: 'bad input' };",
            "document.querySelector('pre').textContent = 'x';", "navigator.modelContext;",
        ]),
    )
    if depth == 0:
        return simple
    inner = st.lists(statements(depth - 1), max_size=3).map(" ".join)
    return st.one_of(
        simple,
        st.tuples(identifiers, inner).map(lambda pair: f"if ({pair[0]}) {{ {pair[1]} }}"),
        inner.map(lambda body: f"try {{ {body} }} catch (err) {{ return {{ error: String(err) }}; }}"),
        inner.map(lambda body: f"while (true) {{ {body} }}"),
        inner.map(lambda body: f"items.forEach((item) => {{ {body} }});"),
    )


@st.composite
def programs(draw) -> str:
    fields = draw(st.lists(st.tuples(keys, expressions()), max_size=6))
    body = draw(st.lists(statements(), max_size=4))
    parameters = draw(st.sampled_from(["", "input", "input, { signal }", "{ query, url }, signal", "input, opts"]))
    asynchronous = draw(st.booleans())
    definition = ", ".join(f"{key}: {value}" for key, value in fields)
    execute = f"{'async ' if asynchronous else ''}execute({parameters}) {{ {' '.join(body)} }}"
    options = draw(st.one_of(st.just(""), expressions(1).map(lambda value: f", {value}")))
    guard = draw(st.sampled_from(["{}", "if ('modelContext' in document) {{ {} }}", "function setup() {{ {} }}",
                                  "if (!document.modelContext) {{}} else {{ {} }}", "export async function f() {{ {} }}"]))
    receiver = draw(st.sampled_from(["document.modelContext", "document.modelContext?", "navigator.modelContext",
                                     "mc", "server"]))
    call = f"await {receiver}.registerTool({{ {definition}{', ' if definition else ''}{execute} }}{options});"
    return "const mc = document.modelContext;\n" + guard.format(call) + "\n"


def as_json(result: LintResult) -> str:
    return render("json", result, RenderOptions())


def assert_sound(text: str, filename: str) -> LintResult:
    first = lint_text(text, filename, Settings())
    assert not first.internal_errors, [notice.message for notice in first.internal_errors]
    assert as_json(first) == as_json(lint_text(text, filename, Settings()))
    size = len(text.encode("utf-8", errors="surrogatepass"))
    for diagnostic in first.diagnostics:
        assert 0 <= diagnostic.start <= diagnostic.end <= size, diagnostic
    return first


@given(programs(), st.sampled_from(["tool.js", "tool.ts", "tool.tsx"]))
def test_generated_programs(program, filename):
    assert_sound(program, filename)


@given(st.sampled_from(FIXTURE_FILES), st.data())
def test_mutated_fixtures(path, data):
    raw = bytearray(path.read_bytes())
    for _ in range(data.draw(st.integers(1, 8))):
        position = data.draw(st.integers(0, max(0, len(raw) - 1)))
        action = data.draw(st.sampled_from(["flip", "delete", "insert", "duplicate"]))
        if action == "flip" and raw:
            raw[position] ^= data.draw(st.integers(1, 255))
        elif action == "delete":
            del raw[position:position + data.draw(st.integers(1, 40))]
        elif action == "insert":
            raw[position:position] = data.draw(st.sampled_from([b"{", b"}", b"(", b"`", b'"', b"\xff", b"<script>", b"/*"]))
        else:
            raw[position:position] = raw[position:position + data.draw(st.integers(1, 80))]
    text = bytes(raw).decode("utf-8", errors="replace")
    assert_sound(text, path.name)


@given(programs())
def test_alone_equals_inside_directory(tmp_path_factory, program):
    folder = tmp_path_factory.mktemp("project")
    (folder / "tool.js").write_text(program, encoding="utf-8")
    alone = lint_paths([str(folder / "tool.js")], Settings())
    (folder / "other.js").write_text('document.modelContext?.registerTool({ name: "other_tool", '
                                     'description: "Count the open tickets.", execute() { return 1; } });\n')
    together = lint_paths([str(folder)], Settings())

    def of_tool(result: LintResult):
        return sorted((d.code, d.start, d.end, d.message) for d in result.diagnostics if d.path.endswith("tool.js")
                      and not d.path.endswith("other_tool.js"))

    assert of_tool(alone) == of_tool(together)

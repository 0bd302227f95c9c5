"""`webmcp-lint tools`: the agent surface of the fixture apps, the manifest's stability, and drift detection."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from webmcp_lint.cli import main
from webmcp_lint.engine import Settings, lint_paths
from webmcp_lint.surface import LEVELS, Change, build_manifest, compare, linted_root

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "fixtures"

WEBMCP_APPS = ("angular-app", "html-forms", "react-app", "ts-typed", "ts-untyped", "vanilla-spa", "vue-app")
# How the fixture apps name their tools: `name: "..."` in code, `toolname="..."` in markup.
TOOL_NAME = re.compile(r"""(?:\bname\s*:\s*|\btoolname\s*=\s*)(["'])([^"'\n]+)\1""")
SOURCE_SUFFIXES = (".js", ".ts", ".tsx", ".vue", ".html")


def names_written_in(app: str) -> set[str]:
    return {match.group(2) for path in (FIXTURES / app).rglob("*") if path.suffix in SOURCE_SUFFIXES
            for match in TOOL_NAME.finditer(path.read_text(encoding="utf-8"))}


def run(*args: str):
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


def manifest_of(path: Path | str) -> dict:
    result = run("tools", str(path), "--format", "json")
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


@pytest.fixture(scope="module")
def fixtures_manifest() -> dict:
    return manifest_of(FIXTURES)


def tool(manifest: dict, name: str) -> dict:
    [found] = [entry for entry in manifest["tools"] if entry["name"] == name]
    return found


def copy_fixture(tmp_path: Path, app: str) -> Path:
    target = tmp_path / app
    shutil.copytree(FIXTURES / app, target)
    return target


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, f"{old!r} not in {path}"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


# --- every tool of every fixture app ----------------------------------------------------------

@pytest.mark.parametrize("app", WEBMCP_APPS)
def test_every_tool_of_each_fixture_app_is_listed(fixtures_manifest, app):
    listed = {entry["name"] for entry in fixtures_manifest["tools"] if entry["source"]["path"].startswith(f"{app}/")}
    assert listed and listed == names_written_in(app)


def test_not_webmcp_lists_no_tools():
    assert manifest_of(FIXTURES / "not-webmcp")["tools"] == []
    assert "No WebMCP tools found." in run("tools", str(FIXTURES / "not-webmcp")).stdout


@pytest.mark.parametrize(("kind", "name", "framework"), [
    ("factory", "place_order", None),  # returned by a factory in src/tools/cart.js
    ("imperative", "get_opening_hours", None),  # an object literal registered in place
    ("react", "book_trip", "react"),
    ("vue", "add_todo", "vue"),
    ("angular", "book_flight", "angular"),
    ("angular", "choose_seat", "angular"),
    ("angular-form", "fill_traveller_details", "angular"),
    ("form", "checkout", None),
    ("imperative", "open_support_chat", "react"),  # a direct registerTool inside a React component
])
def test_source_kind_and_framework(fixtures_manifest, kind, name, framework):
    source = tool(fixtures_manifest, name)["source"]
    assert (source["kind"], source["framework"]) == (kind, framework)


def test_a_factory_made_tool_points_into_the_factory_module(fixtures_manifest):
    source = tool(fixtures_manifest, "place_order")["source"]
    assert (source["path"], source["line"]) == ("vanilla-spa/src/tools/cart.js", 28)


def test_typed_definitions_never_registered_are_listed_as_typed(tmp_path):
    app = copy_fixture(tmp_path, "ts-typed")
    edit(app / "src" / "main.ts", "await mc.registerTool(tool);", "console.log(tool.name);")
    manifest = manifest_of(app)
    assert {entry["name"]: entry["source"]["kind"] for entry in manifest["tools"]} == {
        "convert_amount": "typed", "save_recipe": "typed", "scale_recipe": "typed"}
    assert tool(manifest, "scale_recipe")["registration"] == {"registered": False, "exposed_to": [], "signal": None}


def test_factory_source_kind(fixtures_manifest):
    assert tool(fixtures_manifest, "add_to_cart")["source"]["kind"] == "factory"


# --- what each tool says ------------------------------------------------------------------------

def test_parameters_with_type_required_default_and_bounds(fixtures_manifest):
    assert tool(fixtures_manifest, "add_to_cart")["parameters"] == [
        {"name": "productId", "type": "string", "required": True, "description": "Catalog ID of the product."},
        {"name": "quantity", "type": "integer", "required": False, "default": 1, "minimum": 1, "maximum": 20,
         "description": "How many to add."},
    ]


def test_form_parameters_have_enum_and_bounds(fixtures_manifest):
    parameters = {parameter["name"]: parameter for parameter in tool(fixtures_manifest, "checkout")["parameters"]}
    assert parameters["pickup_slot"]["enum"] == ["am", "pm"]
    servings = {parameter["name"]: parameter for parameter in tool(fixtures_manifest, "cake_enquiry")["parameters"]}
    assert (servings["servings"]["type"], servings["servings"]["minimum"], servings["servings"]["maximum"]) == \
        ("number", 4, 60)


def test_an_angular_form_tool_has_a_run_time_schema(fixtures_manifest):
    entry = tool(fixtures_manifest, "fill_traveller_details")
    assert (entry["parameters"], entry["input_schema"]) == ("<dynamic>", "<dynamic>")


def test_annotations_show_effective_values_with_defaults(fixtures_manifest):
    entry = tool(fixtures_manifest, "book_trip")
    assert entry["annotations"] == {"readOnlyHint": False, "consequentialHint": True, "untrustedContentHint": False,
                                    "debugging": False}
    assert entry["annotations_declared"] == ["consequentialHint", "readOnlyHint"]
    assert tool(fixtures_manifest, "checkout")["annotations_declared"] == []


def test_registration_options(fixtures_manifest):
    assert tool(fixtures_manifest, "track_delivery")["registration"] == {
        "registered": True, "exposed_to": ["http://status.partner-widgets.example"], "signal": True}
    assert tool(fixtures_manifest, "list_orders")["registration"]["signal"] is False  # registered without options
    assert tool(fixtures_manifest, "convert_amount")["registration"]["signal"] is False
    assert tool(fixtures_manifest, "search_trips")["registration"]["signal"] is True  # the hook's own controller
    assert tool(fixtures_manifest, "checkout")["registration"]["signal"] is None  # a form leaves with its element


@pytest.mark.parametrize(("name", "flags"), [
    ("place_order", ["consequential"]),  # WM602 wording, no hint
    ("book_trip", ["consequential"]),  # consequentialHint: true
    ("add_to_cart", []),  # consequentialHint: false silences the wording
    ("track_delivery", ["read-only", "cross-origin"]),
    ("checkout", ["consequential", "auto-submit"]),
    ("search_menu", ["auto-submit"]),
])
def test_derived_flags(fixtures_manifest, name, flags):
    assert tool(fixtures_manifest, name)["flags"] == flags


def surface_of(tmp_path: Path, code: str, filename: str = "tools.js") -> dict:
    (tmp_path / filename).write_text(code, encoding="utf-8")
    return manifest_of(tmp_path)


def test_untrusted_content_from_the_hint_or_what_execute_returns(tmp_path):
    manifest = surface_of(tmp_path, """
document.modelContext.registerTool({
  name: "read_page", description: "Reads the text of a web page the user names.",
  inputSchema: { type: "object", properties: { url: { type: "string" } }, required: ["url"] },
  async execute({ url }) { const response = await fetch(url); return await response.text(); },
});
document.modelContext.registerTool({
  name: "read_feed", description: "Reads the partner news feed for the user.",
  async execute() { return "ok"; },
  annotations: { untrustedContentHint: true, readOnlyHint: "yes" },
});
""")
    assert tool(manifest, "read_page")["flags"] == ["untrusted-content"]
    assert tool(manifest, "read_feed")["flags"] == ["read-only", "untrusted-content"]
    assert tool(manifest, "read_feed")["annotations"]["readOnlyHint"] is True  # any truthy value counts


def test_debugging_and_dynamic_origins(tmp_path):
    manifest = surface_of(tmp_path, """
export const partner = location.hash.slice(1);
document.modelContext.registerTool({
  name: "dump_store_state", description: "Dumps the internal store for support engineers.",
  async execute() { return "{}"; },
}, { exposedTo: ["https://a.example", partner] });
""")
    entry = tool(manifest, "dump_store_state")
    assert entry["flags"] == ["debugging", "cross-origin"]
    assert entry["registration"]["exposed_to"] == ["<dynamic: partner>", "https://a.example"]


def test_findings_are_counted_per_tool(fixtures_manifest):
    assert tool(fixtures_manifest, "place_order")["findings"] == 2  # WM602, WM401
    # WM601 points into the registerTool call in main.js, away from the definition in account.js.
    assert tool(fixtures_manifest, "track_delivery")["findings"] == 2
    assert tool(fixtures_manifest, "search_flights")["findings"] == 0


# --- stability --------------------------------------------------------------------------------

def test_manifest_is_byte_identical_whatever_the_run_directory_or_path_spelling(monkeypatch, tmp_path):
    first = run("tools", str(FIXTURES), "--format", "json").stdout
    assert run("tools", str(FIXTURES), "--format", "json").stdout == first
    monkeypatch.chdir(FIXTURES)
    assert run("tools", ".", "--format", "json").stdout == first
    monkeypatch.chdir(ROOT)
    assert run("tools", "fixtures/", "--format", "json").stdout == first
    copy = tmp_path / "elsewhere" / "fixtures"
    shutil.copytree(FIXTURES, copy)
    assert run("tools", str(copy), "--format", "json").stdout == first
    assert str(ROOT) not in first and str(tmp_path) not in first


def test_manifest_is_sorted_and_versioned(fixtures_manifest):
    text = json.dumps(fixtures_manifest, indent=2, sort_keys=True, ensure_ascii=False) + "\n"
    assert run("tools", str(FIXTURES), "--format", "json").stdout == text
    assert (fixtures_manifest["format"], fixtures_manifest["version"]) == ("webmcp-lint/tools", 1)
    names = [entry["name"] for entry in fixtures_manifest["tools"]]
    assert names == sorted(names)


def test_paths_are_relative_to_the_linted_root():
    result = lint_paths([str(FIXTURES / "react-app")], Settings(rules=[]))
    manifest = build_manifest(result, linted_root([str(FIXTURES / "react-app")]))
    assert {entry["source"]["path"] for entry in manifest["tools"]} == {
        "src/BookingPanel.tsx", "src/ShareButton.tsx", "src/SupportChat.tsx", "src/TripSearch.tsx"}


# --- formats ----------------------------------------------------------------------------------

def test_table_and_markdown_show_every_tool(fixtures_manifest):
    table = run("tools", str(FIXTURES)).stdout
    page = run("tools", str(FIXTURES), "--format", "markdown").stdout
    for entry in fixtures_manifest["tools"]:
        assert entry["name"] in table
        assert f"## `{entry['name']}`" in page
    count = len(fixtures_manifest["tools"])
    assert f"{count} tools (" in table and f"{count} tools (" in page
    assert "| `pickup_slot` | string | no |" in page


# --- drift ------------------------------------------------------------------------------------

def drift(app: Path, manifest: Path, *options: str):
    """The exit code and the change lines (the summary line left out)."""
    result = run("tools", str(app), "--against", str(manifest), *options)
    return result.exit_code, [line for line in result.stdout.splitlines() if line.split(":")[0] in LEVELS]


@pytest.fixture
def committed(tmp_path):
    """A copy of a fixture app and its committed manifest."""
    def make(app: str, prepare=None) -> tuple[Path, Path]:
        copy = copy_fixture(tmp_path, app)
        if prepare is not None:
            prepare(copy)
        manifest = tmp_path / f"{app}.json"
        assert run("tools", str(copy), "--format", "json", "-o", str(manifest)).exit_code == 0
        return copy, manifest
    return make


def test_json_round_trips_through_against_with_no_drift(tmp_path):
    manifest = tmp_path / "surface.json"
    assert run("tools", str(FIXTURES), "--format", "json", "-o", str(manifest)).exit_code == 0
    result = run("tools", str(FIXTURES), "--against", str(manifest), "--fail-on-change", "any")
    assert (result.exit_code, result.stdout) == (0, f"No drift from {manifest}.\n")


def test_tool_added(committed):
    app, manifest = committed("ts-untyped")
    with (app / "src" / "tools.ts").open("a", encoding="utf-8") as file:
        file.write('\ndocument.modelContext?.registerTool({ name: "delete_note", description: "Deletes one note '
                   'for good.", async execute() { return "ok"; } });\n')
    code, lines = drift(app, manifest)
    assert code == 1
    assert lines == ['added: "delete_note": tool added (src/tools.ts:50)']


def test_tool_removed(committed):
    app, manifest = committed("ts-typed")
    edit(app / "src" / "main.ts", "[scaleRecipeTool, convertAmountTool, ", "[scaleRecipeTool, ")
    edit(app / "src" / "tools.ts", "} satisfies WebMCP.ModelContextTool;", "};")  # no longer a typed tool
    code, lines = drift(app, manifest, "--fail-on-change", "removed")
    assert (code, lines) == (1, ['removed: "convert_amount": tool removed (was in src/tools.ts:29)'])
    assert drift(app, manifest, "--fail-on-change", "added")[0] == 0


def test_description_changed(committed):
    app, manifest = committed("vue-app")
    edit(app / "src" / "components" / "TodoList.vue", "Adds a task to the user's to-do list.",
         "Adds a task to the shared to-do list.")
    code, lines = drift(app, manifest)
    assert code == 0  # not an exposure
    assert lines == ['any: "add_todo": description changed: "Adds a task to the user\'s to-do list. Use when the user '
                     'asks to remember something." -> "Adds a task to the shared to-do list. Use when the user asks '
                     'to remember something."']
    assert drift(app, manifest, "--fail-on-change", "any")[0] == 1


def test_schema_changed(committed):
    app, manifest = committed("vanilla-spa")
    edit(app / "src" / "tools" / "cart.js", "minimum: 1, maximum: 20,", "minimum: 1, maximum: 200,")
    edit(app / "src" / "tools" / "cart.js", 'required: ["productId"],', 'required: ["productId"], additionalProperties: false,')
    code, lines = drift(app, manifest, "--fail-on-change", "any")
    assert code == 1
    assert lines == ['any: "add_to_cart": parameter "quantity" changed: maximum 20 -> 200']
    edit(app / "src" / "tools" / "cart.js", "maximum: 200,", "maximum: 20,")
    assert drift(app, manifest, "--fail-on-change", "any")[1] == ['any: "add_to_cart": input schema changed']


@pytest.mark.parametrize(("app", "file", "old", "new", "code", "line"), [
    pytest.param("vanilla-spa", "src/tools/cart.js",
                 'productId: { type: "string", description: "Catalog ID of the product." },',
                 'productId: { type: "string", description: "Catalog ID of the product." },\n'
                 '        giftWrap: { type: "boolean", description: "Wrap the product as a gift." },',
                 0, 'any: "add_to_cart": parameter "giftWrap" added', id="parameter added"),
    pytest.param("react-app", "src/BookingPanel.tsx", "readOnlyHint: false, consequentialHint: true",
                 "readOnlyHint: false",
                 1, 'exposure: "book_trip": consequentialHint turned off (true -> absent)',
                 id="consequentialHint turned off"),
    pytest.param("vanilla-spa", "src/main.js", 'exposedTo: ["http://status.partner-widgets.example"]',
                 'exposedTo: ["http://status.partner-widgets.example", "https://agents.example"]',
                 1, 'exposure: "track_delivery": exposedTo gains origin "https://agents.example"',
                 id="new exposedTo origin"),
    pytest.param("ts-untyped", "src/tools.ts", "readOnlyHint: false, consequentialHint: false",
                 "readOnlyHint: true, consequentialHint: false",
                 1, 'exposure: "star_note": readOnlyHint turned on (false -> true): agents may now call it without '
                    'asking', id="readOnlyHint turned on is an exposure"),
])
def test_one_edit_makes_one_change_line(committed, app, file, old, new, code, line):
    copy, manifest = committed(app)
    edit(copy / file, old, new)
    assert drift(copy, manifest) == (code, [line])


def test_untrusted_content_hint_dropped(committed):
    def with_hint(app: Path) -> None:
        edit(app / "src" / "tools.ts", "annotations: { readOnlyHint: true },",
             "annotations: { readOnlyHint: true, untrustedContentHint: true },")
    app, manifest = committed("ts-untyped", with_hint)
    edit(app / "src" / "tools.ts", "readOnlyHint: true, untrustedContentHint: true", "readOnlyHint: true")
    code, lines = drift(app, manifest)
    assert (code, lines) == (1, ['exposure: "list_notes": untrustedContentHint turned off (true -> absent)'])


@pytest.mark.parametrize(("level", "threshold", "fails"), [
    ("added", "added", True), ("removed", "added", False), ("removed", "removed", True),
    ("exposure", "removed", False), ("exposure", "exposure", True), ("added", "exposure", True),
    ("any", "exposure", False), ("any", "any", True), ("added", "any", True),
])
def test_fail_on_change_levels(level, threshold, fails):
    assert Change(level, '"t"', "changed").fails(threshold) is fails
    assert LEVELS == ("added", "removed", "exposure", "any")


def test_tools_with_one_name_pair_by_path():
    def entry(path: str, description: str) -> dict:
        return {"name": "t", "description": description, "source": {"path": path, "line": 1}, "parameters": [],
                "annotations": {}, "registration": {"exposed_to": []}}
    old = {"tools": [entry("a.js", "A"), entry("b.js", "B")]}
    new = {"tools": [entry("b.js", "B"), entry("a.js", "A2")]}
    assert [change.line() for change in compare(old, new)] == ['any: "t": description changed: "A" -> "A2"']


def test_a_file_that_is_not_a_manifest_is_a_usage_error(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text('{"version": 1, "diagnostics": []}', encoding="utf-8")
    result = run("tools", str(FIXTURES / "ts-typed"), "--against", str(bad))
    assert result.exit_code == 2
    assert "not a tools manifest" in result.stderr


def test_a_schema_sharing_one_object_many_times_stays_bounded(tmp_path):
    levels = ["const s0 = { type: \"string\" };"] + [
        f"const s{level} = {{ type: \"object\", properties: {{ a: s{level - 1}, b: s{level - 1} }} }};"
        for level in range(1, 31)]
    (tmp_path / "tools.js").write_text("\n".join(levels) + """
document.modelContext.registerTool({ name: "deep", description: "A tool with a very shared schema.",
  inputSchema: s30, async execute() { return "ok"; } });
""", encoding="utf-8")
    result = lint_paths([str(tmp_path)], Settings(rules=[]))
    [entry] = build_manifest(result, linted_root([str(tmp_path)]))["tools"]
    assert "<too large>" in json.dumps(entry["input_schema"])
    assert len(entry["parameters"]) <= 500
    assert entry["parameters"][0]["name"] == "a"


def test_a_definition_registered_twice_is_exposed_to_the_origins_of_both(tmp_path):
    (tmp_path / "tool.js").write_text("""
export function createTool() {
  return { name: "get_status", description: "Reads the status of the user's last order.",
           async execute() { return "ok"; }, annotations: { readOnlyHint: true } };
}
""", encoding="utf-8")
    (tmp_path / "main.js").write_text("""
import { createTool } from "./tool.js";
const page = new AbortController();
document.modelContext.registerTool(createTool(), { signal: page.signal });
document.modelContext.registerTool(createTool(), { exposedTo: ["https://partner.example"] });
""", encoding="utf-8")
    [entry] = manifest_of(tmp_path)["tools"]
    assert entry["registration"] == {"registered": True, "exposed_to": ["https://partner.example"], "signal": False}
    assert entry["flags"] == ["read-only", "cross-origin"]

"""Cross-file resolution: the project index, module exports, and the JSONC reader."""

from __future__ import annotations

from pathlib import Path

import pytest
from support import lint, lint_project

from webmcp_lint.jsonc import JsonError, parse_jsonc

BAD_TOOL = '{ name: "bad name", description: "Lists the items in the inventory.", execute() { return []; } }'
REGISTER = 'if ("modelContext" in document) { await document.modelContext.registerTool(%s, { signal }); }\n'


def located(result, code):
    """(file name, line, flagged text) of every finding of ``code``."""
    return sorted((Path(d.path).name, d.start_position()[0], d.source.slice(d.start, d.end))
                  for d in result.diagnostics if d.code == code)


def notices(result):
    return [(Path(notice.path).name, notice.message) for notice in result.notices]


def test_named_import_of_a_factory_points_into_the_factory_module(tmp_path):
    result = lint_project(tmp_path, {
        "src/tools.js": f"export function createInventoryTool(manager) {{\n  return {BAD_TOOL};\n}}\n",
        "src/main.js": 'import { createInventoryTool } from "./tools.js";\n'
                       + REGISTER % "createInventoryTool(manager)",
    })
    assert located(result, "WM201") == [("tools.js", 2, '"bad name"')]
    assert not located(result, "WM002")


def test_factory_registered_twice_is_reported_once(tmp_path):
    result = lint_project(tmp_path, {
        "src/tools.js": f"export const createTool = (store) => ({BAD_TOOL});\n",
        "src/a.js": 'import { createTool } from "./tools";\n' + REGISTER % "createTool(1)" + REGISTER % "createTool(2)",
        "src/b.js": 'import { createTool } from "./tools";\n' + REGISTER % "createTool(3)",
    })
    assert located(result, "WM201") == [("tools.js", 1, '"bad name"')]


@pytest.mark.parametrize(("files", "imported"), [
    ({"src/tools/index.js": f"export default {BAD_TOOL};\n"}, 'import tool from "./tools";'),
    ({"src/tools.ts": f"export const tool = {BAD_TOOL};\n"}, 'import { tool } from "./tools.js";'),
    ({"src/tools.js": f"const inner = {BAD_TOOL};\nexport {{ inner as tool }};\n"}, 'import { tool } from "./tools";'),
    ({"src/tools.js": f"export const base = {BAD_TOOL};\n", "src/index.js": 'export { base as tool } from "./tools.js";\n'},
     'import { tool } from "./index.js";'),
    ({"src/tools.js": f"export const tool = {BAD_TOOL};\n", "src/index.js": 'export * from "./tools.js";\n'},
     'import { tool } from "./index.js";'),
    ({"src/tools.js": f"export const tool = {BAD_TOOL};\n"}, 'import * as tools from "./tools.js"; const tool = tools.tool;'),
    ({"src/tools.js": f"export default function make() {{ return {BAD_TOOL}; }}\n"},
     'import make from "./tools.js"; const tool = make();'),
])
def test_es_module_import_forms(tmp_path, files, imported):
    result = lint_project(tmp_path, {**files, "src/main.js": imported + "\n" + REGISTER % "tool"})
    written_in = next(Path(name).name for name in files if "index" not in name or len(files) == 1)
    assert [entry[0] for entry in located(result, "WM201")] == [written_in]
    assert not located(result, "WM002")


@pytest.mark.parametrize("module", [
    f"module.exports = {{ tool: {BAD_TOOL} }};\n",
    f"exports.tool = {BAD_TOOL};\n",
    f"module.exports.tool = {BAD_TOOL};\n",
])
def test_commonjs_exports_and_require(tmp_path, module):
    result = lint_project(tmp_path, {
        "src/tools.cjs": module,
        "src/main.js": 'const { tool } = require("./tools.cjs");\n' + REGISTER % "tool",
    })
    assert [entry[0] for entry in located(result, "WM201")] == ["tools.cjs"]


def test_require_of_a_whole_module_and_es_default_import_of_commonjs(tmp_path):
    result = lint_project(tmp_path, {
        "src/tool.js": f"module.exports = {BAD_TOOL};\n",
        "src/a.js": 'const tool = require("./tool");\n' + REGISTER % "tool",
        "src/b.mjs": 'import tool from "./tool.js";\n' + REGISTER % "tool",
    })
    assert located(result, "WM201") == [("tool.js", 1, '"bad name"')]


def test_missing_module_gives_a_notice_and_wm002(tmp_path):
    result = lint_project(tmp_path, {"src/main.js": 'import { tool } from "./gone.js";\n' + REGISTER % "tool"})
    assert any(name == "main.js" and "./gone.js" in message for name, message in notices(result))
    assert [entry[0] for entry in located(result, "WM002")] == ["main.js"]


def test_import_cycle_gives_a_notice_not_a_crash(tmp_path):
    result = lint_project(tmp_path, {
        "src/a.js": 'import { tool } from "./b.js";\nexport { tool };\n' + REGISTER % "tool",
        "src/b.js": 'export { tool } from "./a.js";\n',
    })
    assert any("import cycle" in message for _, message in notices(result))
    assert not result.internal_errors


def test_package_imports_stay_unresolved_without_notice(tmp_path):
    result = lint_project(tmp_path, {"src/main.js": 'import { tool } from "@acme/tools";\n' + REGISTER % "tool"})
    assert not notices(result)
    assert [entry[0] for entry in located(result, "WM002")] == ["main.js"]


def test_invalid_package_json_gives_a_notice(tmp_path):
    result = lint_project(tmp_path, {
        "package.json": '{ "dependencies": { "react": "^19" }, }}',
        "src/main.js": REGISTER % BAD_TOOL,
    })
    assert any(name == "package.json" and "not valid JSON" in message for name, message in notices(result))
    assert not located(result, "WM502")


def test_module_imported_from_outside_the_linted_paths_is_read(tmp_path):
    (tmp_path / "shared").mkdir()
    (tmp_path / "shared" / "tools.js").write_text(f"export const tool = {BAD_TOOL};\n")
    result = lint_project(tmp_path / "app", {"main.js": 'import { tool } from "../shared/tools.js";\n' + REGISTER % "tool"})
    assert located(result, "WM201") == [("tools.js", 1, '"bad name"')]


def test_in_memory_snippet_does_not_read_imports_from_disk():
    diagnostics = lint('import { tool } from "./tests/support.py";\n' + REGISTER % "tool")
    assert [d.code for d in diagnostics if d.code == "WM002"] == ["WM002"]


def test_module_parsed_for_an_import_and_linted_is_parsed_once(tmp_path):
    result = lint_project(tmp_path, {
        "src/tools.js": f"export const tool = {BAD_TOOL};\n",
        "src/main.js": 'import { tool } from "./tools.js";\n' + REGISTER % "tool",
    })
    scripts = [script for analysis in result.project.files for script in analysis.scripts
               if script.source.display_path.endswith("tools.js")]
    assert len(scripts) == 1


def _factory_parses(monkeypatch) -> list[int]:
    """Counts (in its one item) the parses of FACTORY_MODULE while a test runs."""
    from webmcp_lint import engine

    count = [0]
    real_parse = engine.parse

    def parse(data, name, ranges=None):
        count[0] += data == FACTORY_MODULE.encode()
        return real_parse(data, name, ranges)

    monkeypatch.setattr(engine, "parse", parse)
    return count


def _found(result):
    return [(d.code, d.path, d.start, d.end, d.message) for d in result.diagnostics]


FACTORY_MODULE = f"export function createTool(store) {{\n  return {BAD_TOOL};\n}}\n"
IMPORTERS = {f"src/page{number}.js": 'import { createTool } from "./factory.js";\n' + REGISTER % f"createTool({number})"
             for number in range(3)}


def test_units_of_one_process_share_the_parse_of_a_module_they_import(tmp_path, monkeypatch):
    from webmcp_lint.engine import Settings, lint_paths

    for name, code in {"src/factory.js": FACTORY_MODULE, **IMPORTERS}.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(code)
    whole = lint_paths([str(tmp_path)], Settings())
    parses = _factory_parses(monkeypatch)
    by_units = lint_paths([str(tmp_path)], Settings(), jobs=1, cache_dir=tmp_path / "cache")
    assert parses == [1]  # three units import it (it holds no trigger word, so it is no unit of its own)
    assert _found(by_units) == _found(whole)
    assert located(by_units, "WM201") == [("factory.js", 2, '"bad name"')]


def test_a_module_whose_text_changed_is_parsed_again_not_taken_from_another_unit(tmp_path):
    from webmcp_lint.engine import build_script
    from webmcp_lint.project_index import FileFacts, ProjectIndex
    from webmcp_lint.source import SourceFile

    path = tmp_path / "factory.js"
    path.write_text(FACTORY_MODULE)
    facts = FileFacts()
    first = ProjectIndex([], frozenset({"variable_declarator"}), facts).module_script(path)
    path.write_text("const other = 1;\n")
    second = ProjectIndex([], frozenset({"variable_declarator"}), facts).module_script(path)
    assert second.tree is not first.tree
    assert [node.text for node in second.of_kind("variable_declarator")] == [b"other = 1"]
    again = SourceFile.from_bytes(path, "factory.js", path.read_bytes())
    reused = build_script(again, "javascript", frozenset({"variable_declarator"}),
                          index=ProjectIndex([], frozenset({"variable_declarator"}), facts))
    assert reused.tree is second.tree


def test_hook_re_exported_through_local_modules_is_recognised(tmp_path):
    result = lint_project(tmp_path, {
        "src/hooks/webmcp.ts": 'import { useWebMCP } from "@vueuse/core";\nexport { useWebMCP };\n',
        "src/hooks/index.ts": 'export * from "./webmcp";\n',
        "src/orders.ts": 'import { useWebMCP as useTool } from "./hooks";\n'
                         f"export function useOrders() {{ useTool({BAD_TOOL}); }}\n",
    })
    assert [(tool.source_kind.value, tool.name) for tool in result.project.tools] == [("vue", "bad name")]


def test_jsonc_comments_trailing_commas_and_key_spans():
    text = '{\n  // comment\n  "a": { "types": ["x",], /* block */ },\n  "b": "//not a comment",\n}\n'
    value, spans = parse_jsonc(text)
    assert value == {"a": {"types": ["x"]}, "b": "//not a comment"}
    start, end = spans[("a", "types")]
    assert text[start:end] == '"types"'


def test_jsonc_rejects_what_is_not_json():
    with pytest.raises(JsonError):
        parse_jsonc('{ "a": 1 }}')
    with pytest.raises(JsonError):
        parse_jsonc("[" * 100_000 + "]" * 100_000)

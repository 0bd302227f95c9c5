"""Every source of tool definitions reaches the rules: factories, loops, typed objects, framework options."""

from __future__ import annotations

import json

import pytest
from support import flagged_text, lint_project

from webmcp_lint.engine import Settings, lint_text
from webmcp_lint.model import SourceKind

TOOL = '{ name: "bad name", description: "Lists the items in the inventory.", execute() { return []; } }'
REGISTER = 'document.modelContext?.registerTool(%s);\n'


def tools(code: str, filename: str = "app.js"):
    result = lint_text(code, filename, Settings())
    assert not result.internal_errors, result.internal_errors
    return list(result.project.tools)


def kinds(code: str, filename: str = "app.js"):
    return [(tool.source_kind, tool.framework, tool.name) for tool in tools(code, filename)]


@pytest.mark.parametrize("code", [
    f"function make(store) {{ return {TOOL}; }}\n" + REGISTER % "make(store)",
    f"const make = (store) => ({TOOL});\n" + REGISTER % "make(store)",
    f"const make = function (store) {{ if (!store) return null; return {TOOL}; }};\n" + REGISTER % "make(store)",
    f"const factory = {{ create(store) {{ return {TOOL}; }} }};\n" + REGISTER % "factory.create(store)",
    f"class Factory {{ static create() {{ return {TOOL}; }} }}\n" + REGISTER % "Factory.create()",
    f"class Page {{ tool() {{ return {TOOL}; }} mount() {{ {REGISTER % 'this.tool()'} }} }}\n",
    f"class Page {{ definition = {TOOL}; mount() {{ {REGISTER % 'this.definition'} }} }}\n",
    "const defineTool = (tool) => tool;\n" + REGISTER % f"defineTool({TOOL})",
    f"const tool = Object.freeze({TOOL});\n" + REGISTER % "tool",
    f"async function load() {{ return {TOOL}; }}\n" + REGISTER % "await load()",
    'class SearchTool { name = "bad name"; description = "Finds products."; execute() { return []; } }\n'
    + REGISTER % "new SearchTool()",
])
def test_factories_and_helpers(code):
    assert flagged_text(code, "WM201") == ['"bad name"']


def test_factory_with_two_possible_objects_is_unresolved():
    code = f"function make(kind) {{ if (kind) return {TOOL}; return {TOOL}; }}\n" + REGISTER % "make(1)"
    assert flagged_text(code, "WM201") == []
    assert len(flagged_text(code, "WM002")) == 1


def test_recursive_factory_does_not_hang():
    code = "function make() { return make(); }\n" + REGISTER % "make()"
    assert len(flagged_text(code, "WM002")) == 1


@pytest.mark.parametrize("code", [
    'import React from "react";\nconst api = api.useWebMCP;\napi({});\n',  # was a RecursionError: the file's
    'import * as w from "@mcp-b/react-webmcp";\nconst w2 = w2.x.useWebMCP;\nw2({});\n',  # analysis lost
])
def test_an_alias_defined_through_itself_is_no_integration(code):
    assert kinds(code, "App.jsx") == []


LIST = f"const tools = [{TOOL}, {{ ...{TOOL}, name: \"other bad\" }}];\n"


@pytest.mark.parametrize("code", [
    LIST + "for (const tool of tools) { " + REGISTER % "tool" + "}",
    LIST + "tools.forEach((tool) => " + REGISTER % "tool" + ");",
    LIST + "await Promise.all(tools.map(async (tool) => " + REGISTER % "tool" + "));",
    LIST + "for (let i = 0; i < tools.length; i++) { " + REGISTER % "tools[i]" + "}",
    LIST + "const byName = { a: tools[0], b: tools[1] };\nObject.values(byName).forEach(function (tool) { "
    + REGISTER % "tool" + "});",
    LIST + "for (const [, tool] of Object.entries({ a: tools[0], b: tools[1] })) " + REGISTER % "tool",
    LIST + "tools.filter((tool) => tool.enabled !== false).forEach((tool) => " + REGISTER % "tool" + ");",
    LIST + "for (const tool of [...tools.slice(0, 1), ...tools.filter(Boolean).slice(1)]) " + REGISTER % "tool",
])
def test_loops_over_arrays_of_definitions(code):
    assert sorted(flagged_text(code, "WM201")) == ['"bad name"', '"other bad"']


def test_loop_variable_outside_a_loop_value_is_not_guessed():
    code = "for (const tool of getTools()) " + REGISTER % "tool"
    assert flagged_text(code, "WM201") == []
    assert len(flagged_text(code, "WM002")) == 1


@pytest.mark.parametrize("code", [
    f"const tool: WebMCP.ModelContextTool = {TOOL};",
    f"const tool = {TOOL} satisfies WebMCP.ModelContextTool;",
    f"const tool = {TOOL} as WebMCP.ModelContextTool;",
    f"export const tools: WebMCP.ModelContextTool[] = [{TOOL}];",
    f"const tools: Array<WebMCP.ModelContextTool> = [{TOOL}];",
    f"export function make(store: Store): WebMCP.ModelContextTool {{ return {TOOL}; }}",
    f"const make = (): WebMCP.ModelContextTool => ({TOOL});",
    f"async function load(): Promise<WebMCP.ModelContextTool> {{ return {TOOL}; }}",
    f'import type {{ ModelContextTool as Tool }} from "webmcp-types";\nconst tool: Tool = {TOOL};',
    f"class Tools {{ search: WebMCP.ModelContextTool = {TOOL}; }}",
])
def test_typed_tools_are_definitions_without_registration(code):
    assert kinds(code, "tools.ts") == [(SourceKind.TYPED, None, "bad name")]
    assert flagged_text(code, "WM201", "tools.ts") == ['"bad name"']


@pytest.mark.parametrize("code", [
    'const entry: WebMCP.ModelContextTool = { name: "search", description: "Finds things." };',
    f"const draft: Partial<WebMCP.ModelContextTool> = {TOOL};",
    f"const other: SomethingElse = {TOOL};",
])
def test_not_typed_tools(code):
    assert tools(code, "tools.ts") == []


def test_typed_and_registered_definition_is_one_registered_tool():
    code = f"const tool: WebMCP.ModelContextTool = {TOOL};\n" + REGISTER % "tool"
    assert kinds(code, "tools.ts") == [(SourceKind.IMPERATIVE, None, "bad name")]
    assert flagged_text(code, "WM201", "tools.ts") == ['"bad name"']


HOOK_OPTIONS = ('{ name: "bad name", description: "Lists the open orders of the user.", enabled: ready, '
                'execute() { throw new Error("no"); } }')


@pytest.mark.parametrize(("module", "kind", "framework"), [
    ("use-webmcp-tool", SourceKind.REACT, "react"),
    ("usewebmcp", SourceKind.REACT, "react"),
    ("@mcp-b/react-webmcp", SourceKind.REACT, "react"),
    ("@vueuse/core", SourceKind.VUE, "vue"),
])
def test_use_webmcp_options_are_definitions(module, kind, framework):
    code = f'import {{ useWebMCP as useTool }} from "{module}";\nexport function useOrders(ready) {{ useTool({HOOK_OPTIONS}); }}\n'
    assert kinds(code) == [(kind, framework, "bad name")]
    assert flagged_text(code, "WM201") == ['"bad name"']
    assert flagged_text(code, "WM206") == []  # enabled is a hook option
    # The Vue and MCP-B wrappers turn throws into isError results (WM401 exempts them); use-webmcp-tool is unknown.
    assert len(flagged_text(code, "WM401")) == (1 if module == "use-webmcp-tool" else 0)


def test_vue_namespace_import_and_extra_options():
    code = ('import * as core from "@vueuse/core";\nconst options = { name: "bad name", description: '
            '"Lists the open orders of the user.", execute: () => [], formatOutput: (r) => r, onError() {}, '
            'document };\ncore.useWebMCP(options);\n')
    assert kinds(code) == [(SourceKind.VUE, "vue", "bad name")]
    assert flagged_text(code, "WM206") == []


@pytest.mark.parametrize("call", [
    f"(useTool)({HOOK_OPTIONS});",  # a wrapped callee does not start the call
    f"useTool<Options>({HOOK_OPTIONS});",
    f"core.other(); core.useWebMCP({HOOK_OPTIONS});",  # a namespace is not settled by a call that is no hook
    f"core.other(); (core).useWebMCP({HOOK_OPTIONS});",
    f"useToolbar(); useTool({HOOK_OPTIONS});",  # a name that starts with another is another name
    f"other(); otherπ({HOOK_OPTIONS});",  # a name continued by a letter outside ASCII
])
def test_integration_calls_found_whatever_the_call_starts_with(call):
    code = ('import { useWebMCP as useTool } from "use-webmcp-tool";\nimport * as core from "@vueuse/core";\n'
            'import { helper as other } from "./local.js";\nimport { useWebMCP as otherπ } from "use-webmcp-tool";\n'
            'const useToolbar = () => 1;\n' + call)
    assert [name for _, _, name in kinds(code, "app.ts")] == ["bad name"]


def test_a_name_settled_by_its_one_binding_stays_silent_and_a_shadowing_one_is_asked():
    code = ('import { helper } from "./local.js";\nimport { useWebMCP } from "use-webmcp-tool";\n'
            f'helper(); helper({HOOK_OPTIONS});\n'
            f'function inner() {{ const useWebMCP = () => 1; useWebMCP({HOOK_OPTIONS}); }}\n'
            f'useWebMCP({{ ...{HOOK_OPTIONS}, name: "second" }});\n')
    assert [name for _, _, name in kinds(code)] == ["second"]


@pytest.mark.parametrize(("code", "kind"), [
    (f'const {{ useWebMCP }} = require("use-webmcp-tool");\nuseWebMCP({HOOK_OPTIONS});\n', SourceKind.REACT),
    (f'const core = require("@vueuse/core");\ncore.useWebMCP({HOOK_OPTIONS});\n', SourceKind.VUE),
])
def test_integrations_reached_through_require(code, kind):
    assert [(found, name) for found, _, name in kinds(code)] == [(kind, "bad name")]


def test_an_alias_chain_called_as_a_namespace_first_is_still_followed_when_called():
    # `c.toString()` follows one alias step less than `c(...)`, too few to reach the import: that must not
    # settle `c` as a name that leads to no integration.
    code = ('import { useWebMCP } from "use-webmcp-tool";\nconst a = useWebMCP;\nconst b = a;\nconst c = b;\n'
            f'c.toString();\nc({HOOK_OPTIONS});\n')
    assert [name for _, _, name in kinds(code)] == ["bad name"]


def test_use_webmcp_from_another_package_is_not_a_tool():
    code = f'import {{ useWebMCP }} from "./my-hooks";\nexport function App() {{ useWebMCP({HOOK_OPTIONS}); }}\n'
    assert tools(code) == []


def test_angular_sources():
    code = (
        'import { declareExperimentalWebMcpTool, provideExperimentalWebMcpTools } from "@angular/core";\n'
        'import { form } from "@angular/forms/signals";\n'
        f"const shared = {TOOL};\n"
        f"export const appConfig = {{ providers: [provideExperimentalWebMcpTools([shared, {{ ...{TOOL}, name: \"two bad\" }}])] }};\n"
        "class Orders {\n"
        f"  constructor() {{ declareExperimentalWebMcpTool({{ ...{TOOL}, name: \"three bad\" }}); }}\n"
        "  checkout = form(this.model, { experimentalWebMcpTool: { name: \"four bad\", description: \"Places the order in the cart.\" } });\n"
        "}\n")
    found = sorted((tool.source_kind, tool.name) for tool in tools(code, "app.config.ts"))
    assert found == [(SourceKind.ANGULAR, "bad name"), (SourceKind.ANGULAR, "three bad"),
                     (SourceKind.ANGULAR, "two bad"), (SourceKind.ANGULAR_FORM, "four bad")]
    # The form tool has no execute by design: not a missing field.
    assert all("four bad" not in text for text in flagged_text(code, "WM202", "app.config.ts"))


def test_imperative_tools_record_the_app_framework():
    code = 'import { useEffect } from "react";\n' + REGISTER % TOOL
    assert kinds(code) == [(SourceKind.IMPERATIVE, "react", "bad name")]
    assert kinds(REGISTER % TOOL) == [(SourceKind.IMPERATIVE, None, "bad name")]


def test_mcp_server_sdk_is_still_not_a_tool():
    code = 'import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";\nconst server = new McpServer({});\n' \
           f'const tools = [{TOOL}];\nfor (const tool of tools) server.registerTool(tool.name, tool, () => {{}});\n'
    assert tools(code) == []


@pytest.mark.parametrize("chain", [
    "const x0 = {};\n" + "".join(f"const x{i} = {{ a: x{i - 1}, b: x{i - 1} }};\n" for i in range(1, 40)),
    "function x0() { return {}; }\n" + "".join(f"function x{i}() {{ return {{ a: x{i - 1}(), b: x{i - 1}() }}; }}\n"
                                               for i in range(1, 40)),
])
def test_shared_subexpressions_are_evaluated_once(chain):
    """Each binding or call is evaluated once per depth, so a doubling chain cannot take 2^40 steps."""
    value = "x39" if chain.startswith("const") else "x39()"
    code = chain + REGISTER % f'{{ name: "bad name", description: "Stores a record.", meta: {value}, execute() {{}} }}'
    assert flagged_text(code, "WM201") == ['"bad name"']


NUXT_COMPONENT = ('<script setup>\nuseWebMCP({\n  name: "get cart",\n  description: "Lists what the user put in the cart.",'
                  "\n  execute: () => ({ items: [] }),\n});\n</script>\n")


@pytest.mark.parametrize(("dependencies", "found"), [
    ({"nuxt": "^4.0.0", "@vueuse/nuxt": "^15.0.0"}, True),  # the module imports VueUse everywhere
    ({"nuxt": "^4.0.0"}, False),  # no such module: an unknown global is no integration
])
def test_a_nuxt_app_auto_imports_vueuse_use_webmcp(tmp_path, dependencies, found):
    result = lint_project(tmp_path, {"package.json": json.dumps({"dependencies": dependencies}),
                                     "components/Cart.vue": NUXT_COMPONENT})
    tools = list(result.project.tools)
    assert [(tool.source_kind, tool.name) for tool in tools] == ([(SourceKind.VUE, "get cart")] if found else [])
    assert ("WM201" in [diagnostic.code for diagnostic in result.diagnostics]) is found


def test_a_local_use_webmcp_is_not_taken_for_the_auto_imported_one(tmp_path):
    local = NUXT_COMPONENT.replace("<script setup>\n", "<script setup>\nconst useWebMCP = (options) => options;\n")
    result = lint_project(tmp_path, {"package.json": json.dumps({"dependencies": {"@vueuse/nuxt": "^15.0.0"}}),
                                     "components/Cart.vue": local})
    assert list(result.project.tools) == []

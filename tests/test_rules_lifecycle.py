"""WM501 to WM505: tool lifecycles and the framework integrations."""

from __future__ import annotations

import pytest
from support import findings, flagged_text, lint_project

from webmcp_lint.diagnostics import Diagnostic

DEFINITION = ('{ name: "get_orders", description: "Lists the orders the user placed this year.", '
              'execute() { return []; }, annotations: { readOnlyHint: true } }')
HOOK = f"useWebMCP({DEFINITION})"
REACT = 'import { useWebMCP } from "use-webmcp-tool";\n'
VUE = 'import { useWebMCP } from "@vueuse/core";\n'
ANGULAR = 'import { Component, declareExperimentalWebMcpTool, inject, Injector } from "@angular/core";\n'


# WM501 ----------------------------------------------------------------------------------------
@pytest.mark.parametrize("code", [
    f"export async function showOrders() {{ await document.modelContext.registerTool({DEFINITION}); }}",
    f'window.addEventListener("hashchange", async () => {{ await document.modelContext.registerTool({DEFINITION}); }});',
    f'function mount() {{ document.modelContext.registerTool({DEFINITION}, {{ exposedTo: ["https://a.example"] }}); }}',
    f"class Page {{ async open() {{ await document.modelContext?.registerTool({DEFINITION}); }} }}",
    f"const tools = [{DEFINITION}];\nfunction mount() {{ tools.forEach((tool) => document.modelContext.registerTool(tool)); }}",
])
def test_wm501_flags_registrations_that_can_run_again_without_signal(code):
    texts = flagged_text(code, "WM501")
    assert len(texts) == 1
    assert texts[0].startswith("document.modelContext")


@pytest.mark.parametrize("code", [
    f"await document.modelContext.registerTool({DEFINITION});",
    f'if ("modelContext" in document) {{ await document.modelContext.registerTool({DEFINITION}); }}',
    f"const tools = [{DEFINITION}];\nfor (const tool of tools) await document.modelContext.registerTool(tool);",
    f"const tools = [{DEFINITION}];\ntools.forEach((tool) => document.modelContext.registerTool(tool));",
    f"(async () => {{ await document.modelContext.registerTool({DEFINITION}); }})();",
    f'document.addEventListener("DOMContentLoaded", () => {{ document.modelContext.registerTool({DEFINITION}); }});',
    f"function mount(signal) {{ document.modelContext.registerTool({DEFINITION}, {{ signal }}); }}",
    f"function mount(controller) {{ document.modelContext.registerTool({DEFINITION}, {{ signal: controller.signal }}); }}",
    f"function mount(options) {{ document.modelContext.registerTool({DEFINITION}, options); }}",
    f"function mount(options) {{ document.modelContext.registerTool({DEFINITION}, {{ ...options }}); }}",
    f'function mount() {{ server.registerTool("get_orders", {DEFINITION}); }}',
    # A function of the module that one run-once place calls runs once too.
    f"async function registerTools() {{ await document.modelContext.registerTool({DEFINITION}); }}\nregisterTools();",
    f"const registerTools = async () => {{ await document.modelContext.registerTool({DEFINITION}); }};\n"
    'document.addEventListener("DOMContentLoaded", registerTools);',
    f"function register() {{ document.modelContext.registerTool({DEFINITION}); }}\n"
    "function start() {{ register(); }}\nstart();",
])
def test_wm501_not_flagged(code):
    assert findings(code, "WM501") == []


@pytest.mark.parametrize("code", [
    f"function registerTools() {{ document.modelContext.registerTool({DEFINITION}); }}\nregisterTools();\nregisterTools();",
    f"export function registerTools() {{ document.modelContext.registerTool({DEFINITION}); }}\nregisterTools();",
    f"function registerTools() {{ document.modelContext.registerTool({DEFINITION}); }}\n"
    'button.addEventListener("click", registerTools);',
    f"function registerTools() {{ document.modelContext.registerTool({DEFINITION}); }}\n"
    "function onRoute() {{ registerTools(); }}\nrouter.on('change', onRoute);",
    f"function registerTools() {{ document.modelContext.registerTool({DEFINITION}); }}\nexport {{ registerTools }};",
])
def test_wm501_flags_a_module_function_that_can_run_again(code):
    assert len(findings(code, "WM501")) == 1


# WM502 ----------------------------------------------------------------------------------------
EFFECT = f"""export function Orders() {{
  useEffect(() => {{
    const controller = new AbortController();
    document.modelContext?.registerTool({DEFINITION}, {{ signal: controller.signal }});
    return () => controller.abort();
  }}, []);
}}
"""


@pytest.mark.parametrize(("code", "filename", "integration"), [
    ('import { useEffect } from "react";\n' + EFFECT, "orders.js", "use-webmcp-tool"),
    ("const useEffect = (f) => f();\n" + EFFECT, "orders.jsx", "use-webmcp-tool"),
    ('import { onMounted } from "vue";\n' + f"onMounted(() => document.modelContext.registerTool({DEFINITION}));",
     "orders.js", "@vueuse/core"),
    (ANGULAR + f"export class Orders {{ constructor() {{ document.modelContext.registerTool({DEFINITION}); }} }}",
     "orders.ts", "provideExperimentalWebMcpTools"),
])
def test_wm502_flags_direct_registration_in_framework_files(code, filename, integration):
    found = findings(code, "WM502", filename)
    assert len(found) == 1
    assert integration in found[0].message
    assert found[0].source.slice(found[0].start, found[0].end).startswith("document.modelContext")


@pytest.mark.parametrize("filename", ["orders.tsx", "..tsx", "app/..jsx", "...tsx"])
def test_wm502_a_component_file_is_known_by_its_suffix_as_path_reads_it(filename):
    code = f"document.modelContext.registerTool({DEFINITION});\n"
    assert "it is a ." in findings(code, "WM502", filename)[0].message


def test_wm502_home_made_hook_without_framework_import():
    code = ("export function useTool(definition) {\n  const controller = new AbortController();\n"
            "  document.modelContext.registerTool(definition, { signal: controller.signal });\n"
            "  return () => controller.abort();\n}\n")
    found = findings(code, "WM502")
    assert len(found) == 1 and "useTool" in found[0].message


@pytest.mark.parametrize(("code", "hook"), [
    # named through the variable it is assigned to, found around a nested callback
    ("export const useTools = (definitions) => {\n  definitions.forEach((definition) => {\n"
     "    document.modelContext.registerTool(definition, { signal: AbortSignal.timeout(1000) });\n  });\n};\n",
     "useTools"),
    # the innermost use* function names the wrapper
    ("function useOuter() {\n  function useInner(definition) {\n"
     "    document.modelContext.registerTool(definition);\n  }\n  return useInner;\n}\n", "useInner"),
])
def test_wm502_home_made_hook_around_nested_functions(code, hook):
    found = findings(code, "WM502")
    assert len(found) == 1 and f"{hook} is a home-made" in found[0].message


def test_wm502_nearest_package_json_marks_the_app(tmp_path):
    result = lint_project(tmp_path, {
        "package.json": '{ "name": "shop", "dependencies": { "react": "^19.0.0" } }',
        "src/webmcp.js": f"await document.modelContext.registerTool({DEFINITION});\n",
        "tools/package.json": '{ "name": "plain-tools", "dependencies": {} }',
        "tools/register.js": f"await document.modelContext.registerTool({DEFINITION});\n",
    })
    found = [d for d in result.diagnostics if d.code == "WM502"]
    assert [d.path.rsplit("/", 2)[-2:] for d in found] == [["src", "webmcp.js"]]
    assert "package.json depends on react" in found[0].message


@pytest.mark.parametrize(("code", "filename"), [
    (f"await document.modelContext.registerTool({DEFINITION});", "app.js"),
    (REACT + f"export function Orders() {{ {HOOK}; }}", "orders.jsx"),
    ('import express from "express";\n' + f"await document.modelContext.registerTool({DEFINITION});", "app.js"),
])
def test_wm502_not_flagged(code, filename):
    assert findings(code, "WM502", filename) == []


# WM503 / WM504 --------------------------------------------------------------------------------
@pytest.mark.parametrize("body", [
    f"if (props.ready) {{ {HOOK}; }}",
    f"if (props.ready) {{ }} else {{ {HOOK}; }}",
    f"props.ready ? {HOOK} : null;",
    f"props.ready && {HOOK};",
    f"props.ready || {HOOK};",
    f"props.ready ?? {HOOK};",
    f"for (const item of props.items) {{ {HOOK}; }}",
    f"switch (props.mode) {{ case 1: {HOOK}; }}",
    f"useEffect(() => {{ {HOOK}; }}, []);",
    f"props.items.map(() => {HOOK});",
    f"if (!props.ready) return null;\n  {HOOK};",
])
def test_wm503_flags_conditional_calls_in_a_component(body):
    code = REACT + f"export function Orders(props) {{\n  {body}\n  return null;\n}}\n"
    texts = flagged_text(code, "WM503", "orders.jsx")
    assert len(texts) == 1 and texts[0].startswith("useWebMCP(")
    assert findings(code, "WM504", "orders.jsx") == []


@pytest.mark.parametrize("code", [
    REACT + f"export function Orders(props) {{ {HOOK}; if (!props.ready) return null; return 1; }}",
    REACT + f"export function Orders(props) {{ const onClick = () => {{ return 1; }}; const returned = 'return';"
            f" /* return */ {HOOK}; return null; }}",
    REACT + f"export function useOrdersTool() {{ {HOOK}; }}",
    REACT + f"export const Orders = memo((props) => {{ {HOOK}; return null; }});",
    REACT + f"export default function () {{ {HOOK}; return null; }}",
    REACT + f"const Orders = (props) => {{ {HOOK}; return null; }};",
    VUE + f"{HOOK};",
    VUE + f"export function useOrders() {{ {HOOK}; }}",
    VUE + f"export function registerOrderTools() {{ {HOOK}; }}",
    VUE + f"export default defineComponent({{ setup() {{ {HOOK}; }} }});",
])
def test_wm503_wm504_not_flagged(code):
    assert findings(code, "WM503", "orders.jsx") == []
    assert findings(code, "WM504", "orders.jsx") == []


@pytest.mark.parametrize("code", [
    VUE + f"export function useOrders(user) {{\n  if (!user.value) return;\n  {HOOK};\n}}\n",
    VUE + f"if (import.meta.env.DEV) {{ {HOOK}; }}",
    VUE + f"onMounted(() => {{ {HOOK}; }});",
    VUE + f"const onSave = () => {{ {HOOK}; }};",
])
def test_wm503_vue(code):
    assert len(findings(code, "WM503")) == 1


@pytest.mark.parametrize(("code", "where"), [
    (REACT + f"{HOOK};\nexport function App() {{ return null; }}", "module top level"),
    (REACT + f"export function Help() {{\n  function handleOpen() {{ {HOOK}; }}\n  return handleOpen;\n}}", "handleOpen"),
    (REACT + f"export function Help() {{\n  const onClick = () => {{ {HOOK}; }};\n  return onClick;\n}}", "onClick"),
    (REACT + f"function registerTools() {{ {HOOK}; }}", "registerTools"),
    (REACT + f"export function registerTools() {{ {HOOK}; }}", "registerTools"),
    (REACT + f"class Orders extends Component {{ render() {{ {HOOK}; return null; }} }}", "render"),
])
def test_wm504_flags_hooks_outside_components(code, where):
    found = findings(code, "WM504", "orders.jsx")
    assert len(found) == 1 and where in found[0].message
    assert findings(code, "WM503", "orders.jsx") == []


def test_wm504_is_react_only():
    assert findings(VUE + f"function register() {{ {HOOK}; }}", "WM504") == []


def test_hook_recognised_through_an_alias():
    code = ('import { useWebMCP as useTool } from "usewebmcp";\n'
            f"export function Orders(props) {{ if (props.ready) {{ useTool({DEFINITION}); }} return null; }}\n")
    assert flagged_text(code, "WM503", "orders.jsx")[0].startswith("useTool(")


def _apply(diagnostic: Diagnostic) -> str:
    data = diagnostic.source.data
    for edit in sorted(diagnostic.fix.edits, key=lambda edit: edit.start, reverse=True):
        data = data[:edit.start] + edit.text.encode() + data[edit.end:]
    return data.decode()


def test_wm503_fix_moves_the_condition_into_enabled():
    code = REACT + """export function Orders({ user }) {
  if (user.isSignedIn) {
    useWebMCP({
      name: "get_orders",
      description: "Lists the orders the user placed this year.",
      execute: () => [],
    });
  }
  return null;
}
"""
    [found] = findings(code, "WM503", "orders.jsx")
    assert found.fix is not None and found.fix.applicability == "unsafe"
    assert _apply(found) == REACT + """export function Orders({ user }) {
  useWebMCP({
    name: "get_orders",
    description: "Lists the orders the user placed this year.",
    execute: () => [],
    enabled: user.isSignedIn,
  });
  return null;
}
"""


def test_wm503_fix_on_one_line_and_without_trailing_comma():
    code = REACT + 'export function A(p) { if (p.on) useWebMCP({ name: "a_b", execute() {} }); return null; }\n'
    [found] = findings(code, "WM503", "a.jsx")
    assert 'useWebMCP({ name: "a_b", execute() {}, enabled: p.on });' in _apply(found)


def test_wm503_fix_makes_a_logical_condition_a_boolean():
    """``enabled`` takes a boolean; ``a && b`` is one of its operands (a trip object, say)."""
    code = REACT + 'export function A(p) { if (p.signedIn && p.trip) useWebMCP({ name: "a_b", execute() {} }); return null; }\n'
    [found] = findings(code, "WM503", "a.jsx")
    assert "enabled: Boolean(p.signedIn && p.trip) });" in _apply(found)


def test_wm503_tells_vue_code_about_setup_not_renders():
    vue = VUE + 'export function useTools(on) { if (on) useWebMCP({ name: "a_b", execute() {} }); }\n'
    [found] = findings(vue, "WM503", "tools.js")
    assert "unconditionally in setup and pass the condition as `enabled` (a getter)." in found.message
    [react] = findings(REACT + 'export function A(p) { if (p.on) useWebMCP({ name: "a_b", execute() {} }); }\n',
                       "WM503", "a.jsx")
    assert "unconditionally on every render and pass the condition as `enabled`." in react.message


@pytest.mark.parametrize("body", [
    f"if (p.on) {{ {HOOK}; }} else {{ log(); }}",
    f"if (p.on) {{ {HOOK}; log(); }}",
    f"p.on && {HOOK};",
    'if (p.on) { useWebMCP({ name: "a_b", enabled: p.ready, execute() {} }); }',
    "if (p.on) { useWebMCP(options); }",
])
def test_wm503_no_fix_where_the_rewrite_is_not_simple(body):
    code = REACT + f"export function A(p) {{ {body} return null; }}\n"
    [found] = findings(code, "WM503", "a.jsx")
    assert found.fix is None


# WM505 ----------------------------------------------------------------------------------------
DECLARE = f"declareExperimentalWebMcpTool({DEFINITION})"


@pytest.mark.parametrize(("member", "where"), [
    (f"ngOnInit() {{ {DECLARE}; }}", "ngOnInit()"),
    (f"onOpen() {{ {DECLARE}; }}", "onOpen()"),
    (f"constructor() {{ setTimeout(() => {DECLARE}, 0); }}", "in a setTimeout callback"),
    (f"constructor() {{ this.route.params.subscribe(() => {{ {DECLARE}; }}); }}", "in a subscribe callback"),
    (f"constructor() {{ afterNextRender(() => {{ {DECLARE}; }}); }}", "in an afterNextRender callback"),
    (f"onClick = () => {{ {DECLARE}; }};", "onClick"),
    (f"constructor() {{ setTimeout(() => this.registerTools()); }}\n  registerTools() {{ {DECLARE}; }}", "registerTools()"),
    (f"constructor() {{ this.ngOnInit(); }}\n  ngOnInit() {{ {DECLARE}; }}", "ngOnInit()"),
])
def test_wm505_flags_calls_outside_an_injection_context(member, where):
    code = ANGULAR + f'@Component({{ selector: "app-orders", template: "" }})\nexport class Orders {{\n  {member}\n}}\n'
    found = findings(code, "WM505", "orders.component.ts")
    assert len(found) == 1 and where in found[0].message
    assert found[0].source.slice(found[0].start, found[0].end).startswith("declareExperimentalWebMcpTool(")


def test_wm505_module_top_level():
    assert len(findings(ANGULAR + f"{DECLARE};", "WM505", "tools.ts")) == 1


@pytest.mark.parametrize("member", [
    f"constructor() {{ {DECLARE}; }}",
    f"tool = {DECLARE};",
    f"private readonly injector = inject(Injector);\n  ngOnInit() {{ declareExperimentalWebMcpTool({DEFINITION}, this.injector); }}",
    f"ngOnInit() {{ runInInjectionContext(this.injector, () => {DECLARE}); }}",
    f"constructor() {{ this.registerTools(); }}\n  private registerTools() {{ {DECLARE}; }}",
    f"readonly ready = this.registerTools();\n  private registerTools() {{ {DECLARE}; }}",
])
def test_wm505_not_flagged(member):
    code = ANGULAR + f"export class Orders {{\n  {member}\n}}\n"
    assert findings(code, "WM505", "orders.component.ts") == []


def test_wm505_helper_function_is_not_guessed():
    code = ANGULAR + f"export function provideOrderTools() {{ {DECLARE}; }}\n"
    assert findings(code, "WM505", "tools.ts") == []


def test_wm505_only_for_angulars_function():
    code = f"import {{ declareExperimentalWebMcpTool }} from './mine';\nclass A {{ ngOnInit() {{ {DECLARE}; }} }}"
    assert findings(code, "WM505", "a.ts") == []


def test_wm501_explicit_undefined_options_have_no_signal():
    code = f"function mount() {{ document.modelContext.registerTool({DEFINITION}, undefined); }}"
    assert len(findings(code, "WM501")) == 1


SOLID_COMPONENT = f"""export function Cart() {{
  onMount(() => {{
    const controller = new AbortController();
    document.modelContext?.registerTool({DEFINITION}, {{ signal: controller.signal }});
    onCleanup(() => controller.abort());
  }});
  return <ul />;
}}
"""


@pytest.mark.parametrize("module", ["solid-js", "preact/hooks", "@stencil/core", "@builder.io/qwik"])
def test_wm502_a_jsx_component_of_another_framework_is_not_a_react_app(module):
    code = f'import {{ onMount, onCleanup }} from "{module}";\n' + SOLID_COMPONENT
    assert findings(code, "WM502", "Cart.tsx") == []
    assert findings(code, "WM502", "Cart.jsx") == []


@pytest.mark.parametrize("dependency", ["solid-js", "preact", "@stencil/core"])
def test_wm502_a_package_of_another_jsx_framework_makes_no_react_app_of_its_tsx(tmp_path, dependency):
    result = lint_project(tmp_path, {
        "package.json": f'{{ "dependencies": {{ "{dependency}": "^1.0.0" }} }}',
        "src/Cart.tsx": SOLID_COMPONENT,
    })
    assert [d for d in result.diagnostics if d.code == "WM502"] == []


def test_wm502_a_tsx_file_of_a_vue_package_is_a_vue_app(tmp_path):
    result = lint_project(tmp_path, {
        "package.json": '{ "devDependencies": { "vue": "^3.5.0" } }',
        "src/Cart.tsx": SOLID_COMPONENT,
    })
    [found] = [d for d in result.diagnostics if d.code == "WM502"]
    assert "Vue app" in found.message and "depends on vue" in found.message


def test_wm502_hono_s_client_is_no_jsx_framework(tmp_path):
    """Only hono/jsx is Hono's JSX; its RPC client is common in React apps."""
    result = lint_project(tmp_path, {
        "package.json": '{ "dependencies": { "hono": "^4.0.0" } }',
        "src/Cart.tsx": 'import { hc } from "hono/client";\n' + SOLID_COMPONENT,
    })
    assert [d.code for d in result.diagnostics if d.code == "WM502"] == ["WM502"]
    code = 'import { render } from "hono/jsx/dom";\n' + SOLID_COMPONENT
    assert findings(code, "WM502", "Cart.tsx") == []


def test_wm502_a_tsx_file_of_a_react_package_is_still_a_react_app(tmp_path):
    result = lint_project(tmp_path, {
        "package.json": '{ "dependencies": { "react": "^19.0.0", "lodash": "^4.0.0" } }',
        "src/Cart.tsx": SOLID_COMPONENT,
    })
    [found] = [d for d in result.diagnostics if d.code == "WM502"]
    assert "React app (it is a .tsx component)" in found.message


def test_wm502_nuxt_dependency_marks_a_vue_app(tmp_path):
    result = lint_project(tmp_path, {
        "package.json": '{ "dependencies": { "nuxt": "^4.0.0" } }',
        "plugins/webmcp.client.js": f"await document.modelContext.registerTool({DEFINITION});\n",
    })
    [found] = [d for d in result.diagnostics if d.code == "WM502"]
    assert "@vueuse/core" in found.message and "depends on nuxt" in found.message

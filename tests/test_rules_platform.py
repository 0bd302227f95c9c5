"""WM1xx: the platform API rules, each with flagged and not-flagged cases from RULES.md."""

from __future__ import annotations

import pytest
from support import findings, flagged_text

TOOL = '{ name: "get_time", description: "Returns the current time.", execute() { return Date.now(); } }'


# WM101 ---------------------------------------------------------------------------------------------

@pytest.mark.parametrize("code, expected", [
    ("navigator.modelContext.registerTool(t);", "navigator.modelContext"),
    ("navigator.modelContext?.registerTool(t);", "navigator.modelContext"),
    ("window.navigator.modelContext.registerTool(t);", "window.navigator.modelContext"),
    ("if ('modelContext' in navigator) {}", "'modelContext' in navigator"),
    ("const { modelContext } = navigator;", "{ modelContext } = navigator"),
    ('const mc = navigator["modelContext"];', 'navigator["modelContext"]'),
])
def test_wm101_flags_navigator_model_context(code, expected):
    assert flagged_text(code, "WM101") == [expected]


def test_wm101_fix_replaces_navigator_with_document():
    [finding] = findings("window.navigator.modelContext.registerTool(t);", "WM101")
    [edit] = finding.fix.edits
    assert finding.fix.applicability == "safe"
    assert finding.source.slice(edit.start, edit.end) == "navigator" and edit.text == "document"


def fixed(code: str, filename: str = "app.js") -> tuple[str, str] | None:
    """The applicability of WM101's fix for ``code``'s one finding and the code it gives, or None without a fix."""
    [finding] = findings(code, "WM101", filename)
    if finding.fix is None:
        return None
    data = code.encode("utf-8")
    for edit in sorted(finding.fix.edits, key=lambda edit: edit.start, reverse=True):
        data = data[:edit.start] + edit.text.encode("utf-8") + data[edit.end:]
    return finding.fix.applicability, data.decode("utf-8")


def test_wm101_destructuring_only_model_context_is_fixed_safely():
    assert fixed("const { modelContext: mc } = navigator;") == ("safe", "const { modelContext: mc } = document;")


@pytest.mark.parametrize("code, result", [
    ("const { modelContext, userAgent } = navigator;",
     "const { userAgent } = navigator, { modelContext } = document;"),
    ("let { language, modelContext: mc }: Navigator = navigator, other = 1;",
     "let { language }: Navigator = navigator, { modelContext: mc } = document, other = 1;"),
    ("const { platform, modelContext, vendor } = window.navigator;",
     "const { platform, vendor } = window.navigator, { modelContext } = document;"),
])
def test_wm101_destructuring_other_properties_keeps_them_on_navigator_unsafely(code, result):
    assert fixed(code, "app.ts") == ("unsafe", result)
    assert findings(result, "WM101", "app.ts") == []


def test_wm101_no_fix_when_a_rest_element_would_take_model_context():
    assert fixed("const { modelContext, ...rest } = navigator;") is None


def test_wm101_ignores_a_local_navigator():
    code = "function f(navigator) { return navigator.modelContext; }\nconst navigator2 = 1;"
    assert findings(code, "WM101") == []


# WM102 ---------------------------------------------------------------------------------------------

@pytest.mark.parametrize("code, expected", [
    ('document.modelContext.unregisterTool("a");', 'document.modelContext.unregisterTool("a")'),
    ('document.modelContext?.provideContext({ tools: [] });', "document.modelContext?.provideContext({ tools: [] })"),
    ("window.document.modelContext.clearContext();", "window.document.modelContext.clearContext()"),
    ('const mc = document.modelContext;\nmc?.unregisterTool("a");', 'mc?.unregisterTool("a")'),
    ('const { modelContext } = document;\nmodelContext.unregisterTool("a");', 'modelContext.unregisterTool("a")'),
])
def test_wm102_flags_removed_methods(code, expected):
    assert flagged_text(code, "WM102") == [expected]


def test_wm102_message_for_unregister_tool_points_to_the_signal():
    [finding] = findings('document.modelContext.unregisterTool("a");', "WM102")
    assert "signal" in finding.message and "abort" in finding.message


@pytest.mark.parametrize("code", [
    'server.registerTool("name", { description: "d" }, handler);\nserver.unregisterTool("name");',
    'const mc = getClient();\nmc.unregisterTool("a");\nmc.clearContext();',
    'registry.provideContext({});',
])
def test_wm102_ignores_unrelated_objects(code):
    assert findings(code, "WM102") == []


# WM103 ---------------------------------------------------------------------------------------------

@pytest.mark.parametrize("code, expected", [
    (f"document.modelContext.registerTool({TOOL});", ["document.modelContext"]),
    (f"document.modelContext!.registerTool({TOOL});", ["document.modelContext"]),
    (f"const mc = document.modelContext;\nmc.registerTool({TOOL});", ["mc"]),
    (f"try {{ document.modelContext.registerTool({TOOL}); }} catch {{}}", ["document.modelContext"]),
    # the guard must prove presence: a negative test guards only what follows an exit
    (f"if (!('modelContext' in document)) {{ document.modelContext.registerTool({TOOL}); }}",
     ["document.modelContext"]),
    (f"if (!document.modelContext) {{ console.warn('no'); }}\ndocument.modelContext.registerTool({TOOL});",
     ["document.modelContext"]),
    # a test of something else guards nothing
    (f"if (window.ready) {{ document.modelContext.registerTool({TOOL}); }}", ["document.modelContext"]),
    (f"if ('modelContext' in document || isDev) {{ document.modelContext.registerTool({TOOL}); }}",
     ["document.modelContext"]),
    # optional chaining earlier in the chain does not help
    (f"document?.modelContext.registerTool({TOOL});", ["document?.modelContext"]),
    ("typeof document.modelContext.registerTool === 'function';", ["document.modelContext"]),
])
def test_wm103_flags_unguarded_uses(code, expected):
    assert flagged_text(code, "WM103", "app.ts") == expected


@pytest.mark.parametrize("code", [
    f"if ('modelContext' in document) {{ document.modelContext.registerTool({TOOL}); }}",
    f"if (document.modelContext) {{ document.modelContext.registerTool({TOOL}); }}",
    f"if (typeof document.modelContext !== 'undefined') {{ document.modelContext.registerTool({TOOL}); }}",
    f"if (typeof document.modelContext === 'undefined') {{}} else {{ document.modelContext.registerTool({TOOL}); }}",
    f"if (document.modelContext !== undefined) document.modelContext.registerTool({TOOL});",
    f"if (document.modelContext != null) document.modelContext.registerTool({TOOL});",
    f"function f() {{ if (!('modelContext' in document)) return; document.modelContext.registerTool({TOOL}); }}",
    f"function f() {{\n  if (!document.modelContext) {{ console.warn('no WebMCP'); return; }}\n"
    f"  if (ready) {{ document.modelContext.registerTool({TOOL}); }}\n}}",
    f"for (const t of list) {{ if (!document.modelContext) continue; document.modelContext.registerTool(t); }}",
    f"function f() {{ if (typeof document.modelContext === 'undefined') throw new Error('x'); "
    f"document.modelContext.registerTool({TOOL}); }}",
    f"function f() {{ if (!('modelContext' in document) || disabled) return; document.modelContext.registerTool({TOOL}); }}",
    f"'modelContext' in document && document.modelContext.registerTool({TOOL});",
    f"!document.modelContext || document.modelContext.registerTool({TOOL});",
    f"const p = 'modelContext' in document ? document.modelContext.registerTool({TOOL}) : null;",
    f"const p = !document.modelContext ? null : document.modelContext.registerTool({TOOL});",
    f"if (enabled && 'modelContext' in document) {{ document.modelContext.registerTool({TOOL}); }}",
    f"document.modelContext?.registerTool({TOOL});",
    f"window.document.modelContext?.addEventListener('toolchange', () => {{}});",
    f"function f() {{ const mc = document.modelContext; if (!mc) return; mc.registerTool({TOOL}); }}",
    f"const {{ modelContext }} = document;\nif (modelContext) {{ modelContext.registerTool({TOOL}); }}",
    f"const supported = 'modelContext' in document;\nif (supported) {{ document.modelContext.registerTool({TOOL}); }}",
    f"function hasWebMCP() {{ return 'modelContext' in document; }}\n"
    f"if (hasWebMCP()) {{ document.modelContext.registerTool({TOOL}); }}",
    f"if ('modelContext' in document) {{ button.onclick = () => document.modelContext.registerTool({TOOL}); }}",
    # mere reads and tests are not uses
    "const mc = document.modelContext;\nif (document.modelContext) {}\nconsole.log(document.modelContext);",
])
def test_wm103_accepts_feature_detection(code):
    assert findings(code, "WM103", "app.ts") == []


def test_wm103_a_guard_settles_only_what_follows_it_in_its_own_block():
    code = (f"function a() {{ const mc = document.modelContext; if (!mc) return; mc.registerTool({TOOL}); "
            f"mc.registerTool({TOOL}); }}\n"
            f"function b() {{ document.modelContext.registerTool({TOOL}); }}")
    assert flagged_text(code, "WM103", "app.ts") == ["document.modelContext"]


def test_wm103_a_guard_in_one_script_of_a_page_does_not_guard_another():
    """The classic scripts share one tree, whose span holds the module script between them: that script's
    use is not guarded by their top-level exit."""
    page = (f'<script>if (!("modelContext" in document)) throw new Error("none"); '
            f"document.modelContext.registerTool({TOOL});</script>\n"
            f'<script type="module">document.modelContext.registerTool({TOOL});</script>\n'
            f"<script>document.modelContext.registerTool({TOOL});</script>\n")
    flagged = findings(page, "WM103", "index.html")
    assert [page[:finding.start].count("\n") for finding in flagged] == [1]


def test_wm103_leaves_navigator_to_wm101():
    assert findings(f"navigator.modelContext.registerTool({TOOL});", "WM103") == []


# WM104 ---------------------------------------------------------------------------------------------

@pytest.mark.parametrize("code, expected", [
    ("declare global { interface Document { modelContext: ModelContext; } }\nexport {};",
     ["modelContext: ModelContext"]),
    ("interface Navigator { modelContext?: any }", ["modelContext?: any"]),
    ("interface ModelContextTool { name: string; description: string }\nconst modelContext = 1;",
     ["ModelContextTool"]),
    ("type ModelContext = { registerTool(tool: unknown): Promise<void> };\ndocument.modelContext;", ["ModelContext"]),
    ("const mc = (document as any).modelContext;", ["document as any"]),
    ("(navigator as any).modelContext?.registerTool(t);", ["navigator as any"]),
    ("(window as any).document.modelContext.registerTool(t);", ["window as any"]),
])
def test_wm104_flags_handwritten_types(code, expected):
    assert flagged_text(code, "WM104", "types.ts") == expected


@pytest.mark.parametrize("code", [
    "const tool: WebMCP.ModelContextTool = { name: 'a', description: 'b', execute() {} };\n"
    "document.modelContext?.registerTool(tool);",
    "import type { WebMCP } from 'webmcp-types';\ntype ModelContextTool = WebMCP.ModelContextTool;\n"
    "let mc: WebMCP.ModelContext | undefined = document.modelContext;",
    "interface Document { title: string }\nconst x = document.modelContext;",
    "interface ModelContextTool extends WebMCP.ModelContextTool { owner: string }",
    "const el = (document.getElementById('a') as HTMLInputElement).value;\nconst mc = document.modelContext;",
])
def test_wm104_accepts_the_package_types(code):
    assert findings(code, "WM104", "types.ts") == []


# WM106 ---------------------------------------------------------------------------------------------

@pytest.mark.parametrize("code, expected", [
    (f"document.modelContext?.registerTool({TOOL});", f"document.modelContext?.registerTool({TOOL})"),
    ("const mc = document.modelContext;\nmc && mc.registerTool(t);", "mc.registerTool(t)"),
    ("const mc = document.modelContext;\n(mc.registerTool(t));", "mc.registerTool(t)"),
    ("const mc = document.modelContext;\nok ? mc.registerTool(t) : null;", "mc.registerTool(t)"),
    ("const mc = document.modelContext;\nlog(), mc.registerTool(t);", "mc.registerTool(t)"),
    ("const mc = document.modelContext;\nfor (const t of tools) mc.registerTool(t);", "mc.registerTool(t)"),
])
def test_wm106_flags_dropped_promises(code, expected):
    assert flagged_text(code, "WM106") == [expected]


def test_wm106_says_a_sync_try_catch_does_not_help():
    code = "async function f() { try { document.modelContext.registerTool(t); } catch (e) { log(e); } }"
    [finding] = findings(code, "WM106")
    assert "try/catch" in finding.message


@pytest.mark.parametrize("code", [
    "await document.modelContext.registerTool(t);",
    "document.modelContext.registerTool(t).catch(console.warn);",
    "document.modelContext.registerTool(t).then(done, failed);",
    "void document.modelContext.registerTool(t);",
    "const p = document.modelContext.registerTool(t);",
    "let p; p = document.modelContext.registerTool(t);",
    "function f() { return document.modelContext.registerTool(t); }",
    "const f = () => document.modelContext.registerTool(t);",
    "track(document.modelContext.registerTool(t));",
    "await Promise.all([document.modelContext.registerTool(a), document.modelContext.registerTool(b)]);",
    "async function f() { try { await document.modelContext.registerTool(t); } catch (e) { log(e); } }",
    'server.registerTool("name", { description: "d" }, handler);',
])
def test_wm106_accepts_handled_promises(code):
    assert findings(code, "WM106") == []


# WM107 ---------------------------------------------------------------------------------------------

@pytest.mark.parametrize("code, expected", [
    ('document.modelContext.addEventListener("toolschanged", f);', '"toolschanged"'),
    ('const mc = document.modelContext;\nmc?.addEventListener("change", f);', '"change"'),
    ('document.modelContext.addEventListener("toolcall", f);', '"toolcall"'),
    ("document.modelContext.ontoolschange = f;", "ontoolschange"),
    ('window.addEventListener("toolactivated", f);', '"toolactivated"'),
    ('addEventListener("toolcancel", f);', '"toolcancel"'),
    ("window.ontoolactivated = f;", "ontoolactivated"),
    # A handler name after a comment, a line break or a parenthesised receiver.
    ("document.modelContext /* a */ .ontoolschange = f;", "ontoolschange"),
    ("window\n  .ontoolactivated = f;", "ontoolactivated"),
    ("(document.modelContext).ontoolschange = f;", "ontoolschange"),
    # The callee in parentheses, and a call inside another call's arguments.
    ('(document.modelContext.addEventListener)("toolcall", f);', '"toolcall"'),
    ('((window.addEventListener))("toolcancel", f);', '"toolcancel"'),
    ('run(() => document.modelContext.addEventListener("toolcall", f));', '"toolcall"'),
    # Receivers that hold a model context through their declarations: an alias of an alias declared later,
    # a fallback, destructuring with a default.
    ('function f() { mc.addEventListener("toolcall", f); }\nconst mc = context;\n'
     'const context = (navigator.modelContext);', '"toolcall"'),
    ('const mc = document.modelContext ?? navigator.modelContext;\nmc.addEventListener("toolcall", f);',
     '"toolcall"'),
    ('const { modelContext: mc = fallback } = navigator;\nmc.addEventListener("toolcall", f);', '"toolcall"'),
])
def test_wm107_flags_unknown_events(code, expected):
    assert flagged_text(code, "WM107") == [expected]


def test_wm107_suggests_the_nearest_event():
    [finding] = findings('document.modelContext.addEventListener("toolschange", f);', "WM107")
    assert "did you mean `toolchange`" in finding.message


@pytest.mark.parametrize("code", [
    'document.modelContext.addEventListener("toolchange", f);',
    'document.modelContext.addEventListener("toolactivated", f);',
    'document.modelContext?.addEventListener("toolcancel", f, { signal });',
    "document.modelContext.ontoolchange = f;",
    'window.addEventListener("resize", f);',
    'button.addEventListener("toolschange", f);',
    "document.modelContext.addEventListener(eventName, f);",
    "function f(window) { window.addEventListener('toolactivated', g); }",
    # A name that also names a model context elsewhere, but not in this scope.
    'const mc = document.modelContext;\nfunction f(mc) { mc.addEventListener("toolcall", g); }',
    'const { modelContext: mc } = navigator;\n{ const mc = other; mc.addEventListener("toolcall", g); }',
])
def test_wm107_accepts_known_events(code):
    assert findings(code, "WM107") == []


def test_wm104_reports_a_chain_of_casts_once():
    code = "const mc = (document as unknown as { modelContext: any }).modelContext;"
    assert flagged_text(code, "WM104", "types.ts") == ["document as unknown as { modelContext: any }"]


def test_wm106_names_the_tool():
    [finding] = findings(f"document.modelContext?.registerTool({TOOL});", "WM106")
    assert finding.tool_name == "get_time"


def test_wm104_leaves_the_webmcp_types_package_itself_alone(tmp_path):
    from support import lint_project

    declarations = "declare global { interface Document { modelContext?: ModelContext; } }\ninterface ModelContext { registerTool(): void }\nexport {};\n"
    result = lint_project(tmp_path, {
        "node_modules_copy/webmcp-types/index.d.ts": declarations,
        "published/package.json": '{"name": "webmcp-types", "version": "0.1.9"}',
        "published/index.d.ts": declarations,
        "app/src/types.d.ts": declarations,
    })
    flagged_files = {d.path.rsplit("/", 3)[-3] for d in result.diagnostics if d.code == "WM104"}
    assert flagged_files == {"app"}

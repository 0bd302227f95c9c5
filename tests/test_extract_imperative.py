"""Imperative extraction: which receivers are model contexts, and what registerTool definitions become."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from webmcp_lint.engine import analyze_source, subscribed_kinds
from webmcp_lint.model import FileAnalysis, SourceKind
from webmcp_lint.source import SourceFile

TOOL = '{ name: "get_time", description: "Returns the current time.", execute() { return Date.now(); } }'


def analyze(code: str, filename: str = "app.js") -> FileAnalysis:
    return analyze_source(SourceFile(Path(filename), filename, code), subscribed_kinds([]))


@pytest.mark.parametrize("receiver", [
    "document.modelContext",
    "document.modelContext?",
    "document?.modelContext",
    "window.document.modelContext",
    "globalThis.document.modelContext",
    "self.document.modelContext",
    "window?.document?.modelContext?",
    "(document.modelContext)",
    "navigator.modelContext",
    "window.navigator.modelContext",
])
def test_receivers_that_are_model_contexts(receiver):
    analysis = analyze(f"{receiver}.registerTool({TOOL});")
    [tool] = analysis.tools
    assert tool.source_kind == SourceKind.IMPERATIVE and tool.name == "get_time"
    assert [call.method for call in analysis.model_context_calls] == ["registerTool"]


@pytest.mark.parametrize("code", [
    f"const mc = document.modelContext;\nmc.registerTool({TOOL});",
    f"const mc = document.modelContext ;\nfunction f() {{ mc?.registerTool({TOOL}); }}",
    f"const {{ modelContext }} = document;\nmodelContext.registerTool({TOOL});",
    f"const {{ modelContext: context }} = window.document;\ncontext.registerTool({TOOL});",
    f"const mc = (document as any).modelContext;\nmc.registerTool({TOOL});",
    f"const mc = document.modelContext!;\nmc.registerTool({TOOL});",
])
def test_aliases_of_model_contexts(code):
    assert [tool.name for tool in analyze(code, "app.ts").tools] == ["get_time"]


def test_an_alias_is_found_only_where_an_identifier_spells_it():
    code = (f"const mc = document.modelContext;\n"
            f"// mc.registerTool in a comment, \"mc.registerTool\" in a string\n"
            f"mcx.registerTool({TOOL}); $mc.registerTool({TOOL}); mc$.registerTool({TOOL}); obj.mc.registerTool({TOOL});\n"
            f"const émc = 1; (mc).registerTool({{ ...{TOOL}, name: \"second\" }});\n"
            f"mc.registerTool({TOOL});")
    analysis = analyze(code)
    assert [tool.name for tool in analysis.tools] == ["second", "get_time"]
    assert [ref.node.text for ref in analysis.model_context_refs] == [b"document.modelContext", b"mc", b"mc"]


def test_model_context_reads_are_members_and_subscripts_only():
    code = ("const config = { modelContext: 1 }; // document.modelContext in a comment\n"
            "const label = 'document.modelContext'; class A { modelContext() {} #modelContext = 1; }\n"
            "document.modelContext?.registerTool(" + TOOL + ");\n"
            "document['modelContext'].registerTool({ ...(" + TOOL + "), name: 'second' });\n"
            "window.document?.modelContext.registerTool({ ...(" + TOOL + "), name: 'third' });")
    analysis = analyze(code)
    assert [ref.node.text for ref in analysis.model_context_refs] == [
        b"document.modelContext", b"document['modelContext']", b"window.document?.modelContext"]
    assert [tool.name for tool in analysis.tools] == ["get_time", "second", "third"]


@pytest.mark.parametrize("code", [
    'server.registerTool("get_time", { description: "d" }, async () => ({ content: [] }));',
    f"registry.modelContext.registerTool({TOOL});",
    f"function f(document) {{ document.modelContext.registerTool({TOOL}); }}",
    f"const document = makeFake();\ndocument.modelContext.registerTool({TOOL});",
    f"registerTool({TOOL});",
    f"const mc = getContext();\nmc.registerTool({TOOL});",
])
def test_register_tool_on_anything_else_is_not_a_tool(code):
    analysis = analyze(code)
    assert analysis.tools == [] and analysis.registrations == []


def test_definition_through_a_const_and_registration_facts():
    code = (f"const tool = {TOOL};\nconst controller = new AbortController();\n"
            "document.modelContext.registerTool(tool, { signal: controller.signal });\n"
            "function later() { document.modelContext.registerTool(tool); }\n")
    analysis = analyze(code)
    first, second = analysis.registrations
    assert first.options.has("signal") and second.options_node is None
    assert [tool.registration for tool in analysis.tools] == [first, second]
    assert analysis.tools[0].node.start_point == (0, 13)
    assert analysis.tools[0].prop("name").value_node.text == b'"get_time"'


@pytest.mark.parametrize("call", [
    "(document.modelContext).registerTool(%s);",
    "(<any>document.modelContext).registerTool(%s);",
    "(mc as any).registerTool(%s);",
    "mc!.registerTool(%s);",
    "(mc)?.registerTool(%s);",
    'document.modelContext["registerTool"](%s);',  # a static key, as ESLint reads static property names
    "document.modelContext['registerTool'](%s);",
    "document.modelContext[`registerTool`](%s);",
    'mc?.["registerTool"](%s);',
    '(mc as any)["registerTool"](%s);',
])
def test_calls_on_a_wrapped_receiver_or_through_a_static_key(call):
    analysis = analyze("const mc = document.modelContext;\n" + call % TOOL, "app.ts")
    assert [tool.name for tool in analysis.tools] == ["get_time"]
    assert [call.method for call in analysis.model_context_calls] == ["registerTool"]


@pytest.mark.parametrize("call", [
    "mc[method](%s);",
    "mc[`register${kind}`](%s);",
    'mc["registerTool" + suffix](%s);',
])
def test_a_method_named_by_a_dynamic_key_is_no_call_the_linter_can_read(call):
    analysis = analyze("const mc = document.modelContext;\n" + call % TOOL)
    assert analysis.tools == [] and analysis.model_context_calls == []


def test_unresolvable_definitions_are_recorded():
    analysis = analyze("export function register(def) { document.modelContext.registerTool(def); }")
    [unresolved] = analysis.unresolved
    assert analysis.tools == [] and unresolved.registration.definition_node.text == b"def"


def test_model_context_references_and_navigator_reaches():
    code = ("const mc = document.modelContext;\nif ('modelContext' in navigator) {}\n"
            "mc.addEventListener('toolchange', f);\nnavigator.modelContext?.getTools();\n")
    analysis = analyze(code)
    assert [ref.node.text for ref in analysis.model_context_refs] == [b"document.modelContext", b"mc",
                                                                       b"navigator.modelContext"]
    assert [ref.via_navigator for ref in analysis.model_context_refs] == [False, False, True]
    assert sorted(call.method for call in analysis.model_context_calls) == ["addEventListener", "getTools"]
    assert [reach.node.text for reach in analysis.navigator_reaches] == [b"'modelContext' in navigator",
                                                                         b"navigator.modelContext"]


def test_only_a_string_in_navigator_is_a_feature_check():
    code = ("if ('modelContext' in navigator && \"modelContext\" in window.navigator) {}\n"
            "if (('modelContext') in navigator || 'modelContext\\n' in navigator || 'modelContext' in document) {}\n"
            "const modelContext = 'modelContext' + navigator;\n")
    analysis = analyze(code)
    assert [reach.node.text for reach in analysis.navigator_reaches] == [
        b"'modelContext' in navigator", b'"modelContext" in window.navigator']


def test_files_without_trigger_words_are_never_parsed():
    analysis = analyze("server.registerTool('x', {}, handler);")
    assert analysis.scripts == [] and not analysis.has_webmcp_code


def test_a_fallback_between_document_and_navigator_is_a_model_context():
    code = f"const mc = document.modelContext ?? navigator.modelContext;\nmc.registerTool({TOOL});"
    analysis = analyze(code)
    assert [tool.name for tool in analysis.tools] == ["get_time"]
    assert [reach.node.text for reach in analysis.navigator_reaches] == [b"navigator.modelContext"]


def test_a_missing_alias_name_mid_typing_ends_the_analysis():
    """`const { modelContext: } = navigator` gives the alias an empty, inserted name (it once looped forever)."""
    code = "const { modelContext: } = navigator;\n"
    script = f"from tests.test_extract_imperative import analyze; print(len(analyze({code!r}).navigator_reaches))"
    completed = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60,
                               cwd=Path(__file__).resolve().parent.parent)
    assert completed.returncode == 0, completed.stderr
    assert completed.stdout.strip() == "1"

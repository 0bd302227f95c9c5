"""The fix engine (--fix, --unsafe-fixes, --diff, --show-fixes) and every rule's fix.

Each rule fix is applied and the result re-linted: the finding it fixed must be
gone and the file must still parse.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from webmcp_lint.cli import main
from webmcp_lint.diagnostics import Diagnostic, Edit, Fix, Severity
from webmcp_lint.engine import Settings, lint_paths
from webmcp_lint.fixes import BREAKS_PARSE, NOT_PARSING, OVERLAPS, fix_file, fix_sources, parses_cleanly
from webmcp_lint.source import SourceFile
from support import codes, findings

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"


def fixed(code: str, filename: str = "app.js", unsafe: bool = False) -> str:
    """The text after fixing (all passes), asserting it still parses."""
    run = fix_sources([SourceFile(Path(filename), filename, code)], Settings(), unsafe)
    assert not run.result.internal_errors, run.result.internal_errors
    text = run.fixed[filename].text if filename in run.fixed else code
    assert parses_cleanly(SourceFile(Path(filename), filename, text))
    return text


def assert_fixed(code: str, rule_code: str, expected_fragment: str, *, unsafe: bool = False,
                 filename: str = "app.js") -> str:
    """The rule flags ``code``; after the fix it no longer does, and the fixed text holds the fragment."""
    assert findings(code, rule_code, filename), f"{rule_code} should flag the input"
    assert all(d.fix is not None for d in findings(code, rule_code, filename))
    text = fixed(code, filename, unsafe)
    assert rule_code not in codes(text, filename), text
    assert expected_fragment in text, text
    return text


# WM101 (safe) --------------------------------------------------------------------------------------

@pytest.mark.parametrize("code, expected", [
    ("navigator.modelContext.registerTool(tool);", "document.modelContext.registerTool(tool);"),
    ("navigator.modelContext?.registerTool(tool);", "document.modelContext?.registerTool(tool);"),
    ("window.navigator.modelContext.registerTool(tool);", "window.document.modelContext.registerTool(tool);"),
    ("if ('modelContext' in navigator) { go(); }", "if ('modelContext' in document) { go(); }"),
    ("const { modelContext } = navigator;\nmodelContext.registerTool(tool);", "const { modelContext } = document;"),
])
def test_wm101_fix_replaces_navigator_with_document(code, expected):
    assert_fixed(code, "WM101", expected)


def test_wm101_fix_is_safe_and_needs_no_unsafe_flag():
    (diagnostic,) = findings("navigator.modelContext.registerTool(tool);", "WM101")
    assert diagnostic.fix.applicability == "safe"


def tool(fields: str, execute: str = "execute() { return 'ok'; }") -> str:
    """A registered tool definition that other rules leave alone, plus ``fields``."""
    return ("if ('modelContext' in document) {\n"
            "  await document.modelContext.registerTool({\n"
            "    name: 'search_products',\n"
            "    description: 'Searches the catalog by keyword and returns matching product names.',\n"
            "    inputSchema: { type: 'object', properties: { query: { type: 'string', description: 'Words.' } } },\n"
            f"    {fields}\n"
            f"    {execute},\n"
            "  });\n"
            "}\n")


# WM406 (safe) --------------------------------------------------------------------------------------

@pytest.mark.parametrize("execute, filename, expected", [
    ("async execute(input, signal) { if (signal.aborted) return 'stopped'; return 'ok'; }", "app.js",
     "async execute(input, { signal }) {"),
    ("async execute(input, abort) { abort.throwIfAborted(); return 'ok'; }", "app.js",
     "async execute(input, { signal: abort }) {"),
    ("async execute(input: unknown, signal: AbortSignal) { if (signal.aborted) return 'x'; return 'ok'; }", "app.ts",
     "async execute(input: unknown, { signal }: { signal: AbortSignal }) {"),
])
def test_wm406_fix_destructures_the_signal(execute, filename, expected):
    assert_fixed(tool("annotations: { readOnlyHint: true },", execute), "WM406", expected, filename=filename)


def test_wm406_fix_is_safe():
    code = tool("annotations: { readOnlyHint: true },", "async execute(input, signal) { return signal.aborted; }")
    assert [d.fix.applicability for d in findings(code, "WM406")] == ["safe"]


# WM205, WM206, WM403, WM503 (unsafe: applied only with --unsafe-fixes) -------------------------------

def test_wm205_fix_renames_a_misspelled_annotation():
    code = tool("annotations: { readonlyHint: true },")
    assert fixed(code) == code  # unsafe: not applied without --unsafe-fixes
    assert_fixed(code, "WM205", "annotations: { readOnlyHint: true },", unsafe=True)


@pytest.mark.parametrize("fields, expected", [
    ("readOnlyHint: true,", "annotations: { readOnlyHint: true },"),
    ("readOnlyHint: true, untrustedContentHint: true,",
     "annotations: { readOnlyHint: true, untrustedContentHint: true },"),
    ("readOnlyHint: true,\n    annotations: { untrustedContentHint: true },",
     "annotations: { readOnlyHint: true, untrustedContentHint: true },"),
])
def test_wm206_fix_moves_top_level_hints_into_annotations(fields, expected):
    code = tool(fields)
    assert fixed(code) == code
    assert_fixed(code, "WM206", expected, unsafe=True)


@pytest.mark.parametrize("call, expected", [
    ("fetch(`/api/search?q=${query}`)", "fetch(`/api/search?q=${query}`, { signal })"),
    ("fetch('/api/search', { method: 'POST', body: query })", "fetch('/api/search', { method: 'POST', body: query, signal })"),
    ("fetch('/api/search', {})", "fetch('/api/search', { signal })"),
    ("axios.get('/api/search')", "axios.get('/api/search', { signal })"),
])
def test_wm403_fix_passes_the_signal(call, expected):
    execute = f"async execute({{ query }}, {{ signal }}) {{ const response = await {call}; return String(response); }}"
    code = "import axios from 'axios';\n" + tool("annotations: { readOnlyHint: true },", execute)
    assert fixed(code) == code
    assert_fixed(code, "WM403", expected, unsafe=True)


def test_wm403_fix_uses_the_signals_local_name():
    execute = "async execute({ query }, { signal: abort }) { const r = await fetch('/api/' + query); return r.text(); }"
    assert_fixed(tool("annotations: { readOnlyHint: true },", execute), "WM403",
                 "fetch('/api/' + query, { signal: abort })", unsafe=True)


REACT_CONDITIONAL = """import { useWebMCP } from "use-webmcp-tool";

export function OrderHistory({ user, orderService }) {
  if (user.isSignedIn) {
    useWebMCP({
      name: "list_past_orders",
      description: "Lists the orders the signed-in user placed in the past year.",
      inputSchema: { type: "object", properties: {} },
      async execute(input, { signal }) {
        return await orderService.listPast({ signal });
      },
      annotations: { readOnlyHint: true },
    });
  }
  return <OrderList user={user} />;
}
"""

VUE_CONDITIONAL = """import { useWebMCP } from "@vueuse/core";

export function useOrderTools(signedIn, orders) {
  if (signedIn) useWebMCP({ name: "list_past_orders", description: "Lists the orders the signed-in user placed in the past year.", execute: () => orders.value.length, annotations: { readOnlyHint: true } });
}
"""


def test_wm503_fix_makes_a_react_hook_unconditional_with_enabled():
    text = assert_fixed(REACT_CONDITIONAL, "WM503", "    enabled: user.isSignedIn,\n  });\n  return", unsafe=True,
                        filename="OrderHistory.jsx")
    assert "if (user.isSignedIn)" not in text
    assert "\n  useWebMCP({\n    name:" in text  # re-indented to the function body


def test_wm503_fix_handles_an_if_without_braces_in_vue_with_a_reactive_getter():
    text = assert_fixed(VUE_CONDITIONAL, "WM503", "annotations: { readOnlyHint: true }, enabled: () => signedIn });",
                        unsafe=True)
    assert "if (signedIn)" not in text


def test_wm503_offers_no_fix_when_the_if_has_an_else_or_more_statements():
    with_else = REACT_CONDITIONAL.replace("  }\n  return", "  } else {\n    track();\n  }\n  return")
    with_more = REACT_CONDITIONAL.replace("    useWebMCP({", "    track();\n    useWebMCP({")
    for code in (with_else, with_more):
        (diagnostic,) = findings(code, "WM503", "OrderHistory.jsx")
        assert diagnostic.fix is None


# The engine ----------------------------------------------------------------------------------------

def synthetic(source: SourceFile, start: int, end: int, text: str, applicability: str = "safe") -> Diagnostic:
    fix = Fix(applicability, (Edit(start, end, text),))
    return Diagnostic("WM999", "test", Severity.WARNING, "test", source, start, end, fix=fix)


@pytest.mark.parametrize(("text", "edits", "kept", "fixed", "reason"), [
    pytest.param("let value = 1;\n", [(4, 9, "other"), (6, 11, "x")], 0, "let other = 1;\n", OVERLAPS,
                 id="overlapping fixes are not applied together"),
    pytest.param("let value = 1;\nlet other = 2;\n", [(12, 13, "("), (19, 24, "renamed")], 1,
                 "let value = 1;\nlet renamed = 2;\n", BREAKS_PARSE, id="a fix that breaks the parse is refused"),
])
def test_of_two_fixes_one_applies_and_the_other_is_reported_with_its_reason(text, edits, kept, fixed, reason):
    source = SourceFile(Path("a.js"), "a.js", text)
    diagnostics = [synthetic(source, *edit) for edit in edits]
    applied, refused = diagnostics[kept], diagnostics[1 - kept]
    outcome = fix_file(source, diagnostics, unsafe=False)
    assert outcome.applied == [applied]
    assert outcome.source.text == fixed
    assert [(r.diagnostic, r.reason) for r in outcome.rejected] == [(refused, reason)]


def test_a_file_that_does_not_parse_is_not_fixed():
    source = SourceFile(Path("a.js"), "a.js", "let value = (;\n")
    diagnostic = synthetic(source, 4, 9, "other")
    outcome = fix_file(source, [diagnostic], unsafe=False)
    assert outcome.applied == [] and outcome.source is source
    assert outcome.rejected[0].reason == NOT_PARSING


def test_unsafe_fixes_apply_only_when_asked():
    source = SourceFile(Path("a.js"), "a.js", "let value = 1;\n")
    diagnostic = synthetic(source, 4, 9, "other", "unsafe")
    assert fix_file(source, [diagnostic], unsafe=False).applied == []
    assert fix_file(source, [diagnostic], unsafe=True).source.text == "let other = 1;\n"


def test_inserted_newlines_follow_the_files_line_endings():
    source = SourceFile(Path("a.js"), "a.js", "let value = 1;\r\nlet other = 2;\r\n")
    diagnostic = synthetic(source, 16, 16, "// note\n")
    assert fix_file(source, [diagnostic], unsafe=False).source.text == (
        "let value = 1;\r\n// note\r\nlet other = 2;\r\n")


def test_fixing_repeats_until_nothing_changes():
    code = "navigator.modelContext.registerTool(a);\nnavigator.modelContext.registerTool(b);\n"
    run = fix_sources([SourceFile(Path("a.js"), "a.js", code)], Settings(), unsafe=False)
    assert run.fixed["a.js"].text == code.replace("navigator", "document")
    assert len(run.applied) == 2
    assert run.passes == 2  # the second pass re-lints and finds nothing left to fix
    assert "WM101" not in [d.code for d in run.result.diagnostics]


def test_overlapping_rule_fixes_are_applied_in_later_passes():
    code = tool("consequentialHint: true,\n    annotations: { readonlyHint: true },")
    run = fix_sources([SourceFile(Path("app.js"), "app.js", code)], Settings(), unsafe=True)
    assert "annotations: { consequentialHint: true, readOnlyHint: true }," in run.fixed["app.js"].text
    assert sorted(d.code for d in run.applied) == ["WM205", "WM206"]
    assert run.passes == 3 and run.rejected == []


# The command line ----------------------------------------------------------------------------------

WM101_CODE = "navigator.modelContext.registerTool(tool); // café ☕\n"


@pytest.mark.parametrize("encoding, raw", [
    ("utf-8", WM101_CODE.replace("\n", "\r\n").encode("utf-8")),
    ("utf-8-sig", WM101_CODE.encode("utf-8-sig")),
    ("utf-16", WM101_CODE.encode("utf-16")),
    ("cp1252", WM101_CODE.replace(" ☕", "").encode("cp1252")),
])
def test_fix_writes_in_place_keeping_encoding_and_line_endings(tmp_path, monkeypatch, encoding, raw):
    monkeypatch.chdir(tmp_path)
    Path("app.js").write_bytes(raw)
    result = CliRunner().invoke(main, ["check", "app.js", "--fix", "--select", "WM101"])
    assert result.exit_code == 0, result.output
    expected = raw.decode(encoding).replace("navigator", "document")
    assert Path("app.js").read_bytes() == expected.encode(encoding)
    assert list(tmp_path.iterdir()) == [tmp_path / "app.js"]  # no temporary file left behind


def test_a_file_that_cannot_be_written_is_an_error_and_stays_as_it_was(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    Path("app.js").write_text(WM101_CODE, encoding="utf-8")

    def refuse(*args):
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr("webmcp_lint.fixes.os.replace", refuse)
    result = CliRunner().invoke(main, ["check", "app.js", "--fix", "--select", "WM101"])
    assert result.exit_code == 2
    assert "webmcp-lint: error: app.js: not written: Permission denied" in result.stderr
    assert Path("app.js").read_text(encoding="utf-8") == WM101_CODE
    assert list(tmp_path.iterdir()) == [tmp_path / "app.js"]


def test_diff_prints_the_change_and_writes_nothing(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    Path("app.js").write_text(WM101_CODE, encoding="utf-8")
    result = CliRunner().invoke(main, ["check", "app.js", "--diff"])
    assert result.exit_code == 1
    assert result.stdout.splitlines()[:4] == [
        "--- a/app.js", "+++ b/app.js", "@@ -1 +1 @@", "-navigator.modelContext.registerTool(tool); // café ☕"]
    assert "+document.modelContext.registerTool(tool); // café ☕" in result.stdout
    assert Path("app.js").read_text(encoding="utf-8") == WM101_CODE


def test_diff_follows_exit_zero_and_the_output_file(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    Path("app.js").write_text(WM101_CODE, encoding="utf-8")
    printed = CliRunner().invoke(main, ["check", "app.js", "--diff"]).stdout
    assert CliRunner().invoke(main, ["check", "app.js", "--diff", "--exit-zero"]).exit_code == 0
    written = CliRunner().invoke(main, ["check", "app.js", "--diff", "-o", "out/fix.diff"])
    assert written.exit_code == 1 and written.stdout == ""
    assert Path("out/fix.diff").read_text(encoding="utf-8") == printed
    assert Path("app.js").read_text(encoding="utf-8") == WM101_CODE


def test_show_fixes_lists_what_was_fixed(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    Path("app.js").write_text(WM101_CODE, encoding="utf-8")
    result = CliRunner().invoke(main, ["check", "app.js", "--fix", "--show-fixes", "--select", "WM101"])
    assert "Fixed 1 problem:\n- app.js:\n    1 × WM101 (deprecated-navigator-model-context)" in result.stdout
    assert "No problems found" in result.stdout


def test_fix_from_stdin_prints_the_fixed_code(tmp_path):
    result = CliRunner().invoke(main, ["check", "-", "--fix", "--stdin-filename", "app.js", "--select", "WM101"],
                                input=WM101_CODE)
    assert result.stdout == WM101_CODE.replace("navigator", "document")
    assert "No problems found" in result.stderr


def test_summary_counts_fixes_and_hidden_unsafe_ones(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    Path("app.js").write_text(WM101_CODE + tool("annotations: { readonlyHint: true },"), encoding="utf-8")
    result = CliRunner().invoke(main, ["check", "app.js", "--select", "WM101,WM205"])
    assert "app.js:1:1: error WM101 [*] " in result.stdout
    assert "error WM205 `readonlyHint`" in result.stdout  # unsafe: no [*] without --unsafe-fixes
    assert "[*] 1 fixable with --fix (1 hidden fix can be enabled with --unsafe-fixes)." in result.stdout
    result = CliRunner().invoke(main, ["check", "app.js", "--select", "WM101,WM205", "--unsafe-fixes"])
    assert "error WM205 [*] `readonlyHint`" in result.stdout
    assert "[*] 2 fixable with --fix --unsafe-fixes." in result.stdout


def test_fix_on_the_fixtures_leaves_only_unfixable_findings_and_a_parsing_tree(tmp_path, monkeypatch):
    copy = tmp_path / "fixtures"
    shutil.copytree(FIXTURES, copy)
    monkeypatch.chdir(tmp_path)
    before = {path: path.read_bytes() for path in copy.rglob("*") if path.is_file()}

    diff = CliRunner().invoke(main, ["check", "fixtures", "--diff", "--unsafe-fixes"])
    assert diff.exit_code == 1 and diff.stdout.startswith("--- a/fixtures/")
    assert {path: path.read_bytes() for path in copy.rglob("*") if path.is_file()} == before

    fixing = CliRunner().invoke(main, ["check", "fixtures", "--fix", "--unsafe-fixes", "--format", "json"])
    assert fixing.exit_code in (0, 1), fixing.output
    assert "fix not applied" not in fixing.stderr
    after = lint_paths(["fixtures"], Settings())
    assert [d for d in after.diagnostics if d.fix is not None] == []
    assert all(parses_cleanly(analysis.source) for analysis in after.project.files)
    assert {path for path, data in before.items() if path.read_bytes() != data}, "some fixture was fixed"

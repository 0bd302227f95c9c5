"""The language server, driven over stdio by pygls' own client (a real subprocess, time-bounded).

Positions are checked against UTF-16 offsets computed here from the text, on
a line where an emoji (two UTF-16 units, one code point, four UTF-8 bytes)
comes before the finding.
"""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

import pytest
from lsprotocol import types
from pygls.lsp.client import LanguageClient
from pygls.workspace import Workspace

from webmcp_lint import server as server_module
from webmcp_lint.pages import load_page

TIMEOUT = 30
BAD_LINE = "const label = '😀'; const supported = 'modelContext' in navigator;"
FLAGGED = "'modelContext' in navigator"


def utf16_column(line: str, text: str) -> int:
    return len(line[:line.index(text)].encode("utf-16-le")) // 2


def apply_text_edits(text: str, edits: list[types.TextEdit]) -> str:
    """Apply LSP edits (UTF-16 positions) the way an editor would, last first."""
    lines = text.split("\n")

    def index(position: types.Position) -> int:
        line = lines[position.line]
        units = 0
        chars = 0
        while units < position.character:
            units += 2 if ord(line[chars]) > 0xFFFF else 1
            chars += 1
        return sum(len(each) + 1 for each in lines[:position.line]) + chars

    for edit in sorted(edits, key=lambda e: (e.range.start.line, e.range.start.character), reverse=True):
        text = text[:index(edit.range.start)] + edit.new_text + text[index(edit.range.end):]
    return text


class Session:
    """A server subprocess, its client, and the diagnostics it publishes."""

    def __init__(self, encodings: list[str]) -> None:
        self.client = LanguageClient("webmcp-lint-test", "1")
        self.published: asyncio.Queue = asyncio.Queue()
        self.encodings = encodings

        @self.client.feature(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
        def on_diagnostics(params: types.PublishDiagnosticsParams) -> None:
            self.published.put_nowait(params)

    async def start(self, root: Path) -> types.InitializeResult:
        await self.client.start_io(sys.executable, "-m", "webmcp_lint", "server", cwd=str(root))
        result = await self.client.initialize_async(types.InitializeParams(
            capabilities=types.ClientCapabilities(general=types.GeneralClientCapabilities(
                position_encodings=self.encodings)),
            root_uri=root.as_uri(),
        ))
        self.client.initialized(types.InitializedParams())
        return result

    async def diagnostics_for(self, uri: str, version: int) -> list[types.Diagnostic]:
        while True:
            params = await self.published.get()
            if params.uri == uri and params.version == version:
                return list(params.diagnostics)

    def open(self, uri: str, text: str, language: str = "javascript") -> None:
        self.client.text_document_did_open(types.DidOpenTextDocumentParams(
            types.TextDocumentItem(uri, language, 1, text)))

    async def stop(self) -> None:
        await self.client.shutdown_async(None)
        self.client.exit(None)
        await self.client.stop()


def run(coroutine):
    return asyncio.run(asyncio.wait_for(coroutine, TIMEOUT))


def test_diagnostics_code_actions_and_cleared_diagnostics_over_stdio(tmp_path):
    async def scenario():
        session = Session([types.PositionEncodingKind.Utf16])
        initialized = await session.start(tmp_path)
        assert initialized.capabilities.position_encoding == types.PositionEncodingKind.Utf16
        uri = (tmp_path / "app.js").as_uri()
        text = BAD_LINE + "\n"
        session.open(uri, text)
        (diagnostic,) = await session.diagnostics_for(uri, 1)
        start = utf16_column(BAD_LINE, FLAGGED)
        assert diagnostic.range == types.Range(types.Position(0, start), types.Position(0, start + len(FLAGGED)))
        assert diagnostic.code == "WM101" and diagnostic.source == "webmcp-lint"
        assert diagnostic.severity == types.DiagnosticSeverity.Error
        assert diagnostic.code_description.href.endswith("/WM101.md")

        actions = await session.client.text_document_code_action_async(types.CodeActionParams(
            types.TextDocumentIdentifier(uri), diagnostic.range, types.CodeActionContext([diagnostic])))
        by_kind = {}
        for action in actions:
            by_kind.setdefault(action.kind, []).append(action)
        fix, disable = by_kind[types.CodeActionKind.QuickFix]
        assert "WM101" in fix.title and fix.is_preferred
        assert disable.title == "Disable WM101 for this line"
        (fix_all,) = by_kind["source.fixAll.webmcp-lint"]

        (edit,) = fix.edit.changes[uri]
        navigator = utf16_column(BAD_LINE, "navigator;")
        assert edit.range == types.Range(types.Position(0, navigator), types.Position(0, navigator + 9))
        assert apply_text_edits(text, [edit]) == text.replace("in navigator", "in document")
        assert apply_text_edits(text, fix_all.edit.changes[uri]) == text.replace("in navigator", "in document")
        assert apply_text_edits(text, disable.edit.changes[uri]) == (
            "// webmcp-lint-disable-next-line WM101\n" + text)

        # Apply the fix as the editor would: an incremental change in UTF-16 units, then cleared diagnostics.
        session.client.text_document_did_change(types.DidChangeTextDocumentParams(
            types.VersionedTextDocumentIdentifier(version=2, uri=uri),
            [types.TextDocumentContentChangePartial(edit.range, edit.new_text)]))
        assert await session.diagnostics_for(uri, 2) == []

        only_fix_all = await session.client.text_document_code_action_async(types.CodeActionParams(
            types.TextDocumentIdentifier(uri), edit.range, types.CodeActionContext([], only=["source.fixAll"])))
        assert not only_fix_all  # nothing left to fix
        await session.stop()

    run(scenario())


def test_hover_on_a_suppressed_code_shows_the_rule_summary(tmp_path):
    async def scenario():
        session = Session([types.PositionEncodingKind.Utf16])
        await session.start(tmp_path)
        uri = (tmp_path / "tools.ts").as_uri()
        comment = "  const face = '😀'; // webmcp-lint-disable-next-line WM101 -- legacy page"
        text = f"function check() {{\n{comment}\n  return 'modelContext' in navigator;\n}}\n"
        session.open(uri, text, "typescript")
        assert await session.diagnostics_for(uri, 1) == []

        hover = await session.client.text_document_hover_async(types.HoverParams(
            types.TextDocumentIdentifier(uri), types.Position(1, utf16_column(comment, "WM101") + 2)))
        assert load_page("WM101").summary in hover.contents.value
        assert hover.range.start == types.Position(1, utf16_column(comment, "WM101"))
        plain_comment = await session.client.text_document_hover_async(types.HoverParams(
            types.TextDocumentIdentifier(uri), types.Position(0, 3)))
        assert plain_comment is None
        in_reason = await session.client.text_document_hover_async(types.HoverParams(
            types.TextDocumentIdentifier(uri), types.Position(1, utf16_column(comment, "legacy") + 1)))
        assert in_reason is None
        await session.stop()

    run(scenario())


def test_position_encoding_is_negotiated(tmp_path):
    async def scenario():
        session = Session([types.PositionEncodingKind.Utf8, types.PositionEncodingKind.Utf16])
        initialized = await session.start(tmp_path)
        assert initialized.capabilities.position_encoding == types.PositionEncodingKind.Utf8
        uri = (tmp_path / "app.js").as_uri()
        session.open(uri, BAD_LINE + "\n")
        (diagnostic,) = await session.diagnostics_for(uri, 1)
        start = len(BAD_LINE[:BAD_LINE.index(FLAGGED)].encode("utf-8"))
        assert diagnostic.range.start == types.Position(0, start)
        await session.stop()

    run(scenario())


@pytest.fixture
def in_process_server(monkeypatch, tmp_path):
    """The server object with a workspace and recorded notifications, no transport."""
    language_server = server_module.WebMCPServer()
    language_server.protocol._workspace = Workspace(tmp_path.as_uri())
    sent: dict[str, list] = {"published": [], "logged": []}
    monkeypatch.setattr(language_server, "text_document_publish_diagnostics", sent["published"].append)
    monkeypatch.setattr(language_server, "window_log_message", sent["logged"].append)
    return language_server, sent


def test_a_document_that_fails_to_lint_gets_a_log_message_and_no_diagnostics(in_process_server, monkeypatch, tmp_path):
    language_server, sent = in_process_server
    uri = (tmp_path / "app.js").as_uri()
    language_server.workspace.put_text_document(types.TextDocumentItem(uri, "javascript", 1, BAD_LINE))

    def broken(*args, **kwargs):
        raise RecursionError("too deep")

    monkeypatch.setattr(server_module, "lint_sources", broken)
    language_server.publish(uri)
    (published,) = sent["published"]
    assert published.uri == uri and published.diagnostics == []
    (logged,) = sent["logged"]
    assert logged.type == types.MessageType.Error and "RecursionError: too deep" in logged.message


def test_configuration_is_read_like_the_cli_and_reread_when_it_changes(in_process_server, tmp_path):
    language_server, sent = in_process_server
    uri = (tmp_path / "app.js").as_uri()
    language_server.workspace.put_text_document(types.TextDocumentItem(uri, "javascript", 1, BAD_LINE))
    language_server.publish(uri)
    assert [d.code for d in sent["published"][-1].diagnostics] == ["WM101"]

    (tmp_path / ".webmcp-lint.toml").write_text('ignore = ["WM101"]\n', encoding="utf-8")
    server_module.watched_files_changed(language_server, types.DidChangeWatchedFilesParams(
        [types.FileEvent((tmp_path / ".webmcp-lint.toml").as_uri(), types.FileChangeType.Created)]))
    assert sent["published"][-1].diagnostics == []


def test_an_untitled_buffer_is_linted_as_its_language(in_process_server):
    language_server, sent = in_process_server
    language_server.workspace.put_text_document(
        types.TextDocumentItem("untitled:Untitled-1", "typescriptreact", 1, BAD_LINE))
    language_server.publish("untitled:Untitled-1")
    assert [d.code for d in sent["published"][-1].diagnostics] == ["WM101"]


def test_the_server_runs_with_the_cycle_collector_on(monkeypatch):
    """The program starts with the collector off (right for a run that ends); a server that lints on every
    keystroke would otherwise keep every model's reference cycles."""
    import gc

    from click.testing import CliRunner

    from webmcp_lint.commands.server import language_server

    seen = []
    monkeypatch.setattr(server_module, "serve", lambda: seen.append(gc.isenabled()))
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        result = CliRunner().invoke(language_server, [])
    finally:
        if was_enabled:
            gc.enable()
    assert result.exit_code == 0, result.output
    assert seen == [True]

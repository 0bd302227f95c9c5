"""``webmcp-lint server``: the Language Server Protocol over stdio, on pygls.

Each open document is linted alone, from the editor's text (saved or not):
on open and save at once, on change after a short pause. Findings keep byte
ranges until here; positions are converted to the encoding negotiated with
the client (UTF-16 unless it offers UTF-8 or UTF-32). Code actions offer each
finding's fix, a suppression comment, and ``source.fixAll.webmcp-lint`` (every
safe fix, repeated until stable, as ``check --fix`` does). A document whose
analysis fails gets a log message and no diagnostics; the server keeps going.
"""

from __future__ import annotations

import asyncio
import re
import traceback
from pathlib import Path

from lsprotocol import types
from pygls.lsp.server import LanguageServer

from webmcp_lint import __version__
from webmcp_lint.config import CONFIG_NAMES, ConfigError, RuleLayer, find_config, run_settings
from webmcp_lint.diagnostics import Diagnostic, Severity
from webmcp_lint.discovery import display_path
from webmcp_lint.embedded import is_embedding
from webmcp_lint.engine import LintResult, Settings, lint_sources
from webmcp_lint.fixes import fix_sources, line_ending, with_line_ending
from webmcp_lint.pages import load_page, pages_directory
from webmcp_lint.rules import find_rule
from webmcp_lint.selection import SelectorError, expand
from webmcp_lint.source import SourceFile
from webmcp_lint.suppression import DIRECTIVE_KINDS, parse_directive

DEBOUNCE_SECONDS = 0.3
FIX_ALL_KIND = "source.fixAll.webmcp-lint"
SERVER_NAME = "webmcp-lint"
SEVERITIES = {
    Severity.ERROR: types.DiagnosticSeverity.Error,
    Severity.WARNING: types.DiagnosticSeverity.Warning,
    Severity.INFO: types.DiagnosticSeverity.Information,
}
# Names for documents without a file (untitled buffers): the suffix picks the parser.
SUFFIX_BY_LANGUAGE_ID = {
    "javascript": ".js", "javascriptreact": ".jsx", "typescript": ".ts", "typescriptreact": ".tsx",
    "html": ".html", "vue": ".vue", "svelte": ".svelte",
}
DIRECTIVE_NAME = re.compile(r"[\w-]+")


# --- positions -----------------------------------------------------------------------------------------


def lsp_position(source: SourceFile, offset: int, encoding: str) -> types.Position:
    """A byte offset as an LSP position: 0-based line, column in the negotiated code units."""
    if encoding == types.PositionEncodingKind.Utf8:
        offset = max(0, min(offset, len(source.data)))
        line = source.line_index(offset)
        return types.Position(line, offset - source.line_starts[line])
    line, column = source.position(offset, utf16=encoding != types.PositionEncodingKind.Utf32)
    return types.Position(line - 1, column - 1)


def source_offset(source: SourceFile, position: types.Position, encoding: str) -> int:
    """The byte offset of an LSP position (clamped to the document)."""
    if encoding == types.PositionEncodingKind.Utf8:
        line = max(0, min(position.line, len(source.line_starts) - 1))
        return source.line_starts[line] + min(position.character, len(source.line_bytes(line)))
    if position.line >= len(source.line_starts):
        return len(source.data)
    return source.offset(position.line + 1, position.character + 1,
                         utf16=encoding != types.PositionEncodingKind.Utf32)


def lsp_range(source: SourceFile, start: int, end: int, encoding: str) -> types.Range:
    return types.Range(lsp_position(source, start, encoding), lsp_position(source, end, encoding))


# --- the server ----------------------------------------------------------------------------------------


class WebMCPServer(LanguageServer):
    """pygls server plus the pending debounced lints and the settings in force."""

    def __init__(self) -> None:
        super().__init__(SERVER_NAME, __version__, text_document_sync_kind=types.TextDocumentSyncKind.Incremental)
        self.pending: dict[str, asyncio.TimerHandle] = {}
        self.loaded_configs: dict[Path | None, tuple[int, Settings]] = {}

    def settings_for(self, source: SourceFile) -> Settings:
        """The settings the CLI would use for this file: its closest config file, reread when it changes."""
        found = find_config(source.path)
        stamp = found.stat().st_mtime_ns if found is not None else 0
        cached = self.loaded_configs.get(found)
        if cached is not None and cached[0] == stamp:
            return cached[1]
        try:
            settings, _ = run_settings([str(source.path)], config_file=str(found) if found else None,
                                       isolated=found is None, command_line=RuleLayer())
        except (ConfigError, SelectorError) as error:
            self.window_show_message(types.ShowMessageParams(types.MessageType.Error, f"webmcp-lint: {error}"))
            settings = Settings()
        self.loaded_configs[found] = (stamp, settings)
        return settings

    @property
    def encoding(self) -> str:
        return self.workspace.position_encoding or types.PositionEncodingKind.Utf16

    def log(self, message: str, kind: types.MessageType = types.MessageType.Warning) -> None:
        self.window_log_message(types.LogMessageParams(kind, f"webmcp-lint: {message}"))

    def document_source(self, uri: str) -> SourceFile:
        """The editor's current text of ``uri`` as a SourceFile named like the file on disk."""
        document = self.workspace.get_text_document(uri)
        if uri.startswith("file:") and document.path:
            path = Path(document.path)
            shown = display_path(path)
        else:
            shown = "untitled" + SUFFIX_BY_LANGUAGE_ID.get(document.language_id or "", ".js")
            path = Path(shown)
        return SourceFile(path, shown, document.source)

    def lint(self, source: SourceFile) -> LintResult | None:
        """Lint one document; None (and a log message) when the analysis itself fails."""
        try:
            result = lint_sources([source], self.settings_for(source))
        except Exception:  # noqa: BLE001 - a bad document must never take the server down
            self.log(f"could not lint {source.display_path}:\n{traceback.format_exc()}", types.MessageType.Error)
            return None
        for notice in result.notices:
            self.log(f"{notice.path}: {notice.message}",
                     types.MessageType.Error if notice.internal_error else types.MessageType.Info)
        return result

    def own_findings(self, source: SourceFile, result: LintResult | None) -> list[Diagnostic]:
        return [] if result is None else [d for d in result.diagnostics if d.source is source]

    def lsp_diagnostic(self, diagnostic: Diagnostic) -> types.Diagnostic:
        page = pages_directory() / f"{diagnostic.code}.md"
        message = diagnostic.message
        description = None
        if page.is_file():
            description = types.CodeDescription(href=page.resolve().as_uri())
        else:
            message += f" (`webmcp-lint rule {diagnostic.code}` explains it)"
        return types.Diagnostic(
            range=lsp_range(diagnostic.source, diagnostic.start, diagnostic.end, self.encoding),
            message=message,
            severity=SEVERITIES[diagnostic.severity],
            code=diagnostic.code,
            code_description=description,
            source=SERVER_NAME,
            tags=[types.DiagnosticTag.Unnecessary] if diagnostic.code == "WM003" else None,
        )

    def publish(self, uri: str) -> None:
        """Lint the document now and publish its diagnostics (none when linting failed)."""
        self.cancel_pending(uri)
        try:
            document = self.workspace.get_text_document(uri)
            source = self.document_source(uri)
            diagnostics = [self.lsp_diagnostic(d) for d in self.own_findings(source, self.lint(source))]
        except Exception:  # noqa: BLE001 - converting a finding must not crash the server either
            self.log(f"could not report on {uri}:\n{traceback.format_exc()}", types.MessageType.Error)
            document, diagnostics = None, []
        version = document.version if document is not None else None
        self.text_document_publish_diagnostics(types.PublishDiagnosticsParams(uri, diagnostics, version))

    def publish_all(self) -> None:
        """Re-lint every open document (the configuration changed)."""
        self.loaded_configs.clear()
        for uri in list(self.workspace.text_documents):
            if not is_config_uri(uri):
                self.publish(uri)

    def publish_later(self, uri: str) -> None:
        self.cancel_pending(uri)
        self.pending[uri] = asyncio.get_running_loop().call_later(DEBOUNCE_SECONDS, self.publish, uri)

    def cancel_pending(self, uri: str) -> None:
        handle = self.pending.pop(uri, None)
        if handle is not None:
            handle.cancel()


server = WebMCPServer()


@server.feature(types.TEXT_DOCUMENT_DID_OPEN)
def did_open(ls: WebMCPServer, params: types.DidOpenTextDocumentParams) -> None:
    ls.publish(params.text_document.uri)


@server.feature(types.TEXT_DOCUMENT_DID_CHANGE)
def did_change(ls: WebMCPServer, params: types.DidChangeTextDocumentParams) -> None:
    ls.publish_later(params.text_document.uri)


@server.feature(types.TEXT_DOCUMENT_DID_SAVE)
def did_save(ls: WebMCPServer, params: types.DidSaveTextDocumentParams) -> None:
    if is_config_uri(params.text_document.uri):
        ls.publish_all()
    else:
        ls.publish(params.text_document.uri)


@server.feature(types.INITIALIZED)
def initialized(ls: WebMCPServer, params: types.InitializedParams) -> None:
    """Ask the client to report config file changes, when it can register watchers."""
    watch = ls.client_capabilities.workspace and ls.client_capabilities.workspace.did_change_watched_files
    if watch and watch.dynamic_registration:
        watchers = [types.FileSystemWatcher(glob_pattern=f"**/{name}") for name in CONFIG_NAMES]
        ls.client_register_capability(types.RegistrationParams([types.Registration(
            "webmcp-lint-config", types.WORKSPACE_DID_CHANGE_WATCHED_FILES,
            types.DidChangeWatchedFilesRegistrationOptions(watchers))]))


@server.feature(types.WORKSPACE_DID_CHANGE_WATCHED_FILES)
def watched_files_changed(ls: WebMCPServer, params: types.DidChangeWatchedFilesParams) -> None:
    if any(is_config_uri(change.uri) for change in params.changes):
        ls.publish_all()


def is_config_uri(uri: str) -> bool:
    return uri.rsplit("/", 1)[-1] in CONFIG_NAMES


@server.feature(types.TEXT_DOCUMENT_DID_CLOSE)
def did_close(ls: WebMCPServer, params: types.DidCloseTextDocumentParams) -> None:
    ls.cancel_pending(params.text_document.uri)
    ls.text_document_publish_diagnostics(types.PublishDiagnosticsParams(params.text_document.uri, []))


# --- code actions --------------------------------------------------------------------------------------


def wanted(kind: str, only: list[str] | None) -> bool:
    """LSP's ``only`` filter: a kind is wanted when it is, or is under, one of the requested kinds."""
    return not only or any(kind == requested or kind.startswith(requested + ".") for requested in only)


def text_edits(source: SourceFile, edits, encoding: str) -> list[types.TextEdit]:
    newline = line_ending(source.data)
    return [types.TextEdit(lsp_range(source, edit.start, edit.end, encoding), with_line_ending(edit.text, newline))
            for edit in edits]


def whole_text_edit(source: SourceFile, new_text: str, encoding: str) -> types.TextEdit:
    """One edit turning ``source`` into ``new_text``: the span between their common prefix and suffix."""
    new_data = new_text.encode("utf-8", errors="surrogatepass")
    old_data = source.data
    prefix = 0
    limit = min(len(old_data), len(new_data))
    while prefix < limit and old_data[prefix] == new_data[prefix]:
        prefix += 1
    while prefix and (old_data[prefix - 1] & 0xC0) == 0x80:  # never split a character
        prefix -= 1
    suffix = 0
    while (suffix < limit - prefix and old_data[len(old_data) - 1 - suffix] == new_data[len(new_data) - 1 - suffix]):
        suffix += 1
    while suffix and (old_data[len(old_data) - suffix] & 0xC0) == 0x80:
        suffix -= 1
    replacement = new_data[prefix:len(new_data) - suffix].decode("utf-8", errors="surrogatepass")
    return types.TextEdit(lsp_range(source, prefix, len(old_data) - suffix, encoding), replacement)


def suppression_comments(source: SourceFile, code: str) -> list[str]:
    """Comment forms to try, in order, for ``disable-next-line``: JS, then JSX or HTML markup."""
    directive = f"webmcp-lint-disable-next-line {code}"
    forms = [f"// {directive}"]
    suffix = Path(source.display_path).suffix.lower()
    if suffix in (".jsx", ".tsx"):
        forms.append(f"{{/* {directive} */}}")
    if is_embedding(source.display_path):
        forms.append(f"<!-- {directive} -->")
    return forms


def disable_action(ls: WebMCPServer, uri: str, source: SourceFile, diagnostic: Diagnostic,
                   lsp_diagnostic: types.Diagnostic) -> types.CodeAction | None:
    """Insert a ``disable-next-line`` comment above the finding's line, in the first form that suppresses it."""
    line = source.line_index(diagnostic.start)
    line_start = source.line_starts[line]
    line_text = source.line_text(line)
    indentation = line_text[:len(line_text) - len(line_text.lstrip())]
    newline = line_ending(source.data)
    for comment in suppression_comments(source, diagnostic.code):
        inserted = f"{indentation}{comment}{newline}"
        data = source.data[:line_start] + inserted.encode("utf-8") + source.data[line_start:]
        trial = SourceFile(source.path, source.display_path, data.decode("utf-8", errors="surrogatepass"))
        result = ls.lint(trial)
        if result is None:
            return None
        still = any(d.code == diagnostic.code and trial.line_index(d.start) == line + 1
                    for d in ls.own_findings(trial, result))
        if not still:
            position = lsp_position(source, line_start, ls.encoding)
            edit = types.TextEdit(types.Range(position, position), inserted)
            return types.CodeAction(
                title=f"Disable {diagnostic.code} for this line",
                kind=types.CodeActionKind.QuickFix,
                diagnostics=[lsp_diagnostic],
                edit=types.WorkspaceEdit(changes={uri: [edit]}),
            )
    return None


@server.feature(types.TEXT_DOCUMENT_CODE_ACTION, types.CodeActionOptions(
    code_action_kinds=[types.CodeActionKind.QuickFix, FIX_ALL_KIND], resolve_provider=False))
def code_actions(ls: WebMCPServer, params: types.CodeActionParams) -> list[types.CodeAction] | None:
    uri = params.text_document.uri
    try:
        return _code_actions(ls, uri, params)
    except Exception:  # noqa: BLE001 - a failed request answers nothing, the server stays up
        ls.log(f"code actions failed for {uri}:\n{traceback.format_exc()}", types.MessageType.Error)
        return None


def _code_actions(ls: WebMCPServer, uri: str, params: types.CodeActionParams) -> list[types.CodeAction]:
    source = ls.document_source(uri)
    findings = ls.own_findings(source, ls.lint(source))
    only = params.context.only
    actions: list[types.CodeAction] = []
    if wanted(types.CodeActionKind.QuickFix, only):
        start = source_offset(source, params.range.start, ls.encoding)
        end = source_offset(source, params.range.end, ls.encoding)
        for diagnostic in findings:
            if diagnostic.start > end or diagnostic.end < start:
                continue
            lsp_diagnostic = ls.lsp_diagnostic(diagnostic)
            if diagnostic.fix is not None:
                fix = diagnostic.fix
                title = fix.description or f"Fix {diagnostic.code}"
                actions.append(types.CodeAction(
                    title=f"{title} ({diagnostic.code}{', unsafe' if fix.applicability == 'unsafe' else ''})",
                    kind=types.CodeActionKind.QuickFix,
                    diagnostics=[lsp_diagnostic],
                    is_preferred=fix.applicability == "safe",
                    edit=types.WorkspaceEdit(changes={uri: text_edits(source, fix.edits, ls.encoding)}),
                ))
            disable = disable_action(ls, uri, source, diagnostic, lsp_diagnostic)
            if disable is not None:
                actions.append(disable)
    fixable = any(d.fix is not None and d.fix.applicability == "safe" for d in findings)
    if fixable and wanted(FIX_ALL_KIND, only):
        run = fix_sources([source], ls.settings_for(source), unsafe=False)
        fixed = run.fixed.get(source.display_path)
        if fixed is not None and fixed.text != source.text:
            actions.append(types.CodeAction(
                title="Fix all safe webmcp-lint problems",
                kind=FIX_ALL_KIND,
                edit=types.WorkspaceEdit(changes={uri: [whole_text_edit(source, fixed.text, ls.encoding)]}),
            ))
    return actions


# --- hover on suppression comments ---------------------------------------------------------------------


@server.feature(types.TEXT_DOCUMENT_HOVER)
def hover(ls: WebMCPServer, params: types.HoverParams) -> types.Hover | None:
    """On a rule named in a ``webmcp-lint-disable...`` comment: the summary of each rule it names."""
    try:
        source = ls.document_source(params.text_document.uri)
        offset = source_offset(source, params.position, ls.encoding)
        line = source.line_index(offset)
        line_start = source.line_starts[line]
        text = source.line_text(line)
        column = len(source.slice(line_start, offset))
        marker = text.rfind("webmcp-lint-", 0, column + 1)
        opening = max(text.rfind(delimiter, 0, marker) for delimiter in ("//", "/*", "<!--")) if marker >= 0 else -1
        if opening < 0:
            return None
        directive = parse_directive(text[opening:], source, line_start, line_start)
        if directive is None or directive.kind not in DIRECTIVE_KINDS:
            return None
        named = {selector.text for selector in directive.selectors}
        word = next((match for match in DIRECTIVE_NAME.finditer(text)
                     if match.start() > marker and match.start() <= column <= match.end()), None)
        if word is None or word.group() not in named:
            return None
        lines = [f"**{rule.code}** `{rule.slug}`: {summary}" for rule, summary in _rule_summaries(word.group())]
        if not lines:
            return None
        hover_range = types.Range(lsp_position(source, line_start + len(text[:word.start()].encode("utf-8")), ls.encoding),
                                  lsp_position(source, line_start + len(text[:word.end()].encode("utf-8")), ls.encoding))
        return types.Hover(types.MarkupContent(types.MarkupKind.Markdown, "\n\n".join(lines)), hover_range)
    except Exception:  # noqa: BLE001
        ls.log(f"hover failed:\n{traceback.format_exc()}", types.MessageType.Error)
        return None


def _rule_summaries(name: str) -> list[tuple]:
    """(rule, summary) for a code, slug or prefix named in a directive (a prefix names several)."""
    rule = find_rule(name)
    try:
        rules = [rule] if rule is not None else expand(name)
    except SelectorError:
        return []
    summaries = []
    for each in rules[:20]:
        page = load_page(each.code)
        summaries.append((each, page.summary if page is not None and page.summary else each.slug))
    return summaries


def serve() -> None:
    """Run the server on stdin/stdout until the client says exit."""
    server.start_io()

"""Hostile inputs: no crash, no hang, the right exit code, and an honest summary.

Each case runs the real CLI in a subprocess with a generous timeout: the
timeout guards against hangs, it is not a performance assertion.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

HANG_GUARD_SECONDS = 120
TOOL = ('document.modelContext?.registerTool({{ name: "t{index}", description: "Look up the weather forecast for a city.",'
        ' execute() {{ return 1; }} }});\n')


def lint(*paths: str, cwd: Path, extra: tuple[str, ...] = ()) -> tuple[int, dict, str]:
    completed = subprocess.run(
        [sys.executable, "-m", "webmcp_lint", "check", *paths, "--format", "json", *extra],
        cwd=cwd, capture_output=True, timeout=HANG_GUARD_SECONDS, env={**os.environ, "NO_COLOR": "1"},
    )
    assert "Traceback" not in completed.stderr.decode(errors="replace"), completed.stderr
    document = json.loads(completed.stdout) if completed.stdout.strip() else {}
    return completed.returncode, document, completed.stderr.decode(errors="replace")


def codes(document: dict) -> list[str]:
    return [diagnostic["code"] for diagnostic in document["diagnostics"]]


@pytest.mark.parametrize(("name", "content"), [
    ("empty.js", b""),
    ("bom.js", b"\xef\xbb\xbf"),
    ("bom-only-utf16.js", b"\xff\xfe"),
])
def test_empty_inputs_are_clean(tmp_path, name, content):
    (tmp_path / name).write_bytes(content)
    status, document, _ = lint(name, cwd=tmp_path)
    assert status == 0
    assert document["summary"]["files_checked"] == 1 and document["diagnostics"] == []


def test_binary_file_is_skipped_and_named(tmp_path):
    (tmp_path / "blob.js").write_bytes(b"navigator.modelContext\x00\xff\x00")
    status, document, _ = lint(".", cwd=tmp_path)
    assert status == 0 and document["summary"]["files_skipped"] == 1
    completed = subprocess.run([sys.executable, "-m", "webmcp_lint", "check", ".", "--no-color"], cwd=tmp_path,
                               capture_output=True, text=True, timeout=HANG_GUARD_SECONDS)
    assert "skipped blob.js: binary" in completed.stdout


@pytest.mark.parametrize("encoding", ["utf-16", "latin-1"])
def test_other_encodings_keep_positions(tmp_path, encoding):
    text = 'const label = "café";\nconst mc = navigator.modelContext;\n'
    (tmp_path / "a.js").write_bytes(text.encode(encoding))
    status, document, _ = lint("a.js", cwd=tmp_path)
    assert status == 1
    (diagnostic,) = [d for d in document["diagnostics"] if d["code"] == "WM101"]
    assert (diagnostic["line"], diagnostic["column"]) == (2, 12)


def test_invalid_utf8_inside_a_description(tmp_path):
    source = (b'document.modelContext?.registerTool({ name: "caf\xe9 tool", description: "Bad \xff\xfe bytes here.",'
              b' execute() { return 1; } });\n')
    (tmp_path / "a.js").write_bytes(source)
    status, document, _ = lint("a.js", cwd=tmp_path)
    assert status in (0, 1)
    assert document["summary"]["files_checked"] == 1


def test_five_megabyte_file(tmp_path):
    body = "".join(f"export const value{index} = {{ id: {index}, label: 'item {index}' }};\n" for index in range(90_000))
    (tmp_path / "big.js").write_text("const mc = navigator.modelContext;\n" + body)
    assert (tmp_path / "big.js").stat().st_size > 5_000_000
    status, document, _ = lint("big.js", cwd=tmp_path)
    assert status == 1 and codes(document) == ["WM101"]


def test_200_kb_single_line(tmp_path):
    line = "var a=[" + ",".join(str(i) for i in range(40_000)) + "];navigator.modelContext;"
    (tmp_path / "one-line.js").write_text(line)
    assert len(line) > 200_000
    status, document, _ = lint("one-line.js", cwd=tmp_path)  # explicit: linted although it looks minified
    assert status == 1 and "WM101" in codes(document)
    status, document, _ = lint(".", cwd=tmp_path)  # discovered: skipped as minified, and counted
    assert status == 0 and document["summary"]["files_skipped"] == 1


@pytest.mark.parametrize("opening,closing", [("(", ")"), ("[", "]")])
def test_five_thousand_nested_brackets(tmp_path, opening, closing):
    nested = opening * 5000 + "1" + closing * 5000
    (tmp_path / "deep.js").write_text(f"const mc = navigator.modelContext;\nconst x = {nested};\n"
                                      f'mc.registerTool({{ name: "deep", description: {nested}, execute() {{}} }});\n')
    status, document, _ = lint("deep.js", cwd=tmp_path)
    assert status == 1 and "WM101" in codes(document)


def test_ten_thousand_term_concatenation(tmp_path):
    description = " + ".join('"a"' for _ in range(10_000))
    (tmp_path / "concat.js").write_text(
        f'document.modelContext?.registerTool({{ name: "concat", description: {description}, execute() {{ return 1; }} }});\n')
    status, document, stderr = lint("concat.js", cwd=tmp_path)
    assert "RecursionError" not in stderr
    assert status in (0, 1) and document["summary"]["files_checked"] == 1


def test_hundred_thousand_element_array_of_tools(tmp_path):
    elements = ",\n".join(f'{{ name: "t{index}", description: "Item {index}.", execute() {{}} }}' for index in range(100_000))
    (tmp_path / "many.js").write_text(f"const tools = [\n{elements}\n];\n"
                                      "for (const tool of tools) document.modelContext?.registerTool(tool);\n")
    status, document, stderr = lint("many.js", cwd=tmp_path)
    assert status in (0, 1), stderr
    assert document["summary"]["files_checked"] == 1


def test_schema_nested_two_hundred_levels(tmp_path):
    schema = '{ type: "string", description: "Leaf value." }'
    for level in range(200):
        schema = f'{{ type: "object", description: "Level {level}.", properties: {{ child: {schema} }} }}'
    (tmp_path / "schema.js").write_text(
        f'document.modelContext?.registerTool({{ name: "nested", description: "Store a nested record for later.",'
        f' inputSchema: {schema}, execute() {{ return 1; }} }});\n')
    status, document, stderr = lint("schema.js", cwd=tmp_path)
    assert status in (0, 1), stderr
    assert "RecursionError" not in stderr


def test_import_cycle_of_fifty_modules(tmp_path):
    for index in range(50):
        following = (index + 1) % 50
        (tmp_path / f"m{index}.js").write_text(
            f'import {{ tool{following} }} from "./m{following}.js";\n'
            f"export const tool{index} = tool{following};\n")
    (tmp_path / "main.js").write_text('import { tool0 } from "./m0.js";\ndocument.modelContext?.registerTool(tool0);\n')
    status, document, stderr = lint(".", cwd=tmp_path)
    assert status in (0, 1), stderr
    assert document["summary"]["files_checked"] == 51


def test_factory_that_returns_itself(tmp_path):
    (tmp_path / "a.js").write_text("function make() { return make(); }\n"
                                   "const loop = () => loop;\n"
                                   "document.modelContext?.registerTool(make());\n"
                                   "document.modelContext?.registerTool(loop());\n")
    status, document, stderr = lint("a.js", cwd=tmp_path)
    assert status in (0, 1), stderr


def test_symlink_loop_gives_a_notice(tmp_path):
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "a.js").write_text("navigator.modelContext;\n")
    os.symlink(tmp_path / "src", tmp_path / "src" / "again")
    os.symlink(tmp_path / "loop.js", tmp_path / "loop.js")
    status, document, _ = lint(".", cwd=tmp_path)
    assert status == 1 and codes(document) == ["WM101"]
    status, document, stderr = lint("loop.js", cwd=tmp_path)
    assert status == 0 and document["summary"]["files_skipped"] == 1
    assert "loop.js: skipped (symlink loop)" in stderr


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="named pipes are a POSIX thing")
def test_pipes_and_devices_are_skipped_not_read(tmp_path):
    """A named pipe would wait for a writer forever and /dev/zero never ends: neither is read, both are named."""
    (tmp_path / "tool.js").write_text("navigator.modelContext;\n")
    os.mkfifo(tmp_path / "pipe.js")
    os.symlink("/dev/zero", tmp_path / "zero.js")
    status, document, stderr = lint(".", cwd=tmp_path, extra=("--no-cache",))
    assert status == 1 and codes(document) == ["WM101"]
    assert document["summary"]["files_skipped"] == 2
    assert "pipe.js: skipped (not a regular file (a pipe, socket or device))" in stderr
    assert "zero.js: skipped (not a regular file (a pipe, socket or device))" in stderr


def test_a_file_that_grows_past_the_size_limit_while_read_is_skipped(tmp_path, monkeypatch):
    from webmcp_lint import engine

    path = tmp_path / "tool.js"
    path.write_text("navigator.modelContext;\n")
    real_read = os.read
    grown = []

    def read_and_grow_once(descriptor, size):
        if not grown:  # between the fstat and the first read
            grown.append(True)
            with open(path, "a") as growing:
                growing.write("// more\n" * 100)
        return real_read(descriptor, size)

    monkeypatch.setattr(engine.os, "read", read_and_grow_once)
    assert engine._file_bytes(path, 500) is None
    grown.clear()
    assert len(engine._file_bytes(path, 1 << 20)) == path.stat().st_size


@pytest.mark.skipif(os.geteuid() == 0, reason="root can read any file")
def test_unreadable_file_gives_a_notice(tmp_path):
    path = tmp_path / "secret.js"
    path.write_text("navigator.modelContext;\n")
    path.chmod(0)
    status, document, stderr = lint(".", cwd=tmp_path)
    assert document["summary"]["files_skipped"] == 1 and status == 0


def test_file_deleted_between_discovery_and_reading(tmp_path, monkeypatch):
    from webmcp_lint import engine

    (tmp_path / "gone.js").write_text("navigator.modelContext;\n")
    (tmp_path / "kept.js").write_text("navigator.modelContext;\n")
    monkeypatch.chdir(tmp_path)
    real_discover = engine.discover

    def discover_then_delete(paths, **options):
        found = real_discover(paths, **options)
        (tmp_path / "gone.js").unlink()
        return found

    monkeypatch.setattr(engine, "discover", discover_then_delete)
    result = engine.lint_paths(["."], engine.Settings())
    assert [skip.reason for skip in result.skipped] == ["file vanished before it could be read"]
    assert [d.path for d in result.diagnostics] == ["kept.js"]


def test_directory_named_like_a_script(tmp_path):
    (tmp_path / "x.js").mkdir()
    (tmp_path / "x.js" / "inner.js").write_text("navigator.modelContext;\n")
    status, document, _ = lint(".", cwd=tmp_path)
    assert status == 1 and [d["path"] for d in document["diagnostics"]] == ["x.js/inner.js"]


def test_path_with_spaces_and_non_ascii(tmp_path):
    folder = tmp_path / "mes outils é"
    folder.mkdir()
    (folder / "café tool.js").write_text("navigator.modelContext;\n")
    status, document, _ = lint(".", cwd=tmp_path)
    assert status == 1 and [d["path"] for d in document["diagnostics"]] == ["mes outils é/café tool.js"]


def test_unterminated_vue_script(tmp_path):
    (tmp_path / "Broken.vue").write_text('<template><div/></template>\n<script setup lang="ts">\n'
                                         "const mc = navigator.modelContext;\n")
    status, document, stderr = lint("Broken.vue", cwd=tmp_path)
    assert status in (0, 1), stderr
    assert document["summary"]["files_checked"] == 1


def test_html_with_a_thousand_inline_scripts(tmp_path):
    scripts = "".join(f"<script>var v{index} = {index};</script>\n" for index in range(1000))
    (tmp_path / "page.html").write_text(f"<!doctype html><html><body>{scripts}"
                                        "<script>navigator.modelContext;</script></body></html>\n")
    status, document, stderr = lint("page.html", cwd=tmp_path)
    assert status == 1, stderr
    assert codes(document) == ["WM101"]


def test_permission_error_while_reading_is_a_skip(tmp_path, monkeypatch):
    """The same path as an unreadable file, for machines where tests run as root."""
    from webmcp_lint import engine

    (tmp_path / "secret.js").write_text("navigator.modelContext;\n")
    (tmp_path / "open.js").write_text("navigator.modelContext;\n")
    monkeypatch.chdir(tmp_path)
    real_read = engine._file_bytes

    def file_bytes(path: Path, max_size: int) -> bytes | None:
        if path.name == "secret.js":
            raise PermissionError(13, "Permission denied")
        return real_read(path, max_size)

    monkeypatch.setattr(engine, "_file_bytes", file_bytes)
    result = engine.lint_paths(["."], engine.Settings())
    assert [(skip.path, skip.reason) for skip in result.skipped] == [("secret.js", "permission denied")]
    assert [d.path for d in result.diagnostics] == ["open.js"]

"""Imports through the paths a tsconfig.json or jsconfig.json maps (``@/tools/search``) resolve like relative ones."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from support import lint_project, write_project

from webmcp_lint.cli import main
from webmcp_lint.tsconfig import mapping_of

BAD_TOOL = '{ name: "bad name", description: "Lists the items in the inventory.", execute() { return []; } }'
FACTORY = f"export function createInventoryTool() {{\n  return {BAD_TOOL};\n}}\n"
REGISTER = ('if ("modelContext" in document) {\n'
            '  document.modelContext.registerTool(createInventoryTool(), { signal });\n}\n')


def flagged_files(result, code="WM201"):
    return sorted(Path(diagnostic.path).as_posix() for diagnostic in result.diagnostics if diagnostic.code == code)


def config(options: dict, **fields) -> str:
    return json.dumps({"compilerOptions": options, **fields})


@pytest.mark.parametrize(("files", "specifier"), [
    ({"tsconfig.json": config({"paths": {"@/*": ["./src/*"]}})}, "@/tools/inventory"),
    ({"tsconfig.json": config({"baseUrl": ".", "paths": {"@/*": ["src/*"]}})}, "@/tools/inventory.js"),
    ({"tsconfig.json": config({"baseUrl": "src", "paths": {"~tools/*": ["tools/*"]}})}, "~tools/inventory"),
    ({"jsconfig.json": config({"paths": {"@/*": ["./src/*"]}})}, "@/tools/inventory"),
    ({"tsconfig.json": config({"paths": {"@inventory": ["./src/tools/inventory.ts"]}})}, "@inventory"),
    ({"tsconfig.json": config({"paths": {"#/*": ["./src/*"]}})}, "#/tools/inventory"),  # Node subpath style
    # A later or nearer pattern with a longer prefix wins; the first substitution that exists is taken.
    ({"tsconfig.json": config({"paths": {"@/*": ["./elsewhere/*"], "@/tools/*": ["./missing/*", "./src/tools/*"]}})},
     "@/tools/inventory"),
    # paths from the config it extends, relative to that config.
    ({"tsconfig.json": config({}, extends="./config/base.json"),
      "config/base.json": config({"paths": {"@/*": ["../src/*"]}})}, "@/tools/inventory"),
    # A solution config (create-vue, Vite): the referenced config that includes the importer maps its imports.
    ({"tsconfig.json": json.dumps({"files": [], "references": [{"path": "./tsconfig.node.json"},
                                                              {"path": "./tsconfig.app.json"}]}),
      "tsconfig.node.json": config({"paths": {"@/*": ["./nowhere/*"]}}, include=["vite.config.ts"]),
      "tsconfig.app.json": config({"paths": {"@/*": ["./src/*"]}}, include=["src/**/*.ts"])}, "@/tools/inventory"),
    ({"tsconfig.json": config({}, extends=["./config/a.json", "./config/b"]),
      "config/a.json": config({"paths": {"@/*": ["../nowhere/*"]}}),
      "config/b.json": config({"baseUrl": "..", "paths": {"@/*": ["src/*"]}})}, "@/tools/inventory"),
])
def test_a_factory_imported_through_a_mapped_path_is_checked(tmp_path, files, specifier):
    result = lint_project(tmp_path, {
        **files,
        "src/tools/inventory.ts": FACTORY,
        "src/app/main.ts": f'import {{ createInventoryTool }} from "{specifier}";\n' + REGISTER,
    })
    assert flagged_files(result) == [(tmp_path / "src/tools/inventory.ts").as_posix()]
    assert not result.notices


@pytest.mark.parametrize("files", [
    {},  # no config: a package
    {"tsconfig.json": config({"strict": True})},  # no paths
    {"tsconfig.json": config({"paths": {"#/*": ["./src/*"]}})},  # no pattern matches
    {"tsconfig.json": config({"paths": {"@/*": ["./lib/*"]}})},  # it maps to a missing file
    {"tsconfig.json": "{ not json"},  # (a notice says so)
    {"tsconfig.json": config({"baseUrl": ".", "paths": {"*": ["src/tools/*"]}})},  # maps "@/tools/..." nowhere
])
def test_an_import_no_config_maps_to_a_file_stays_a_package(tmp_path, files):
    result = lint_project(tmp_path, {
        **files,
        "src/tools/inventory.ts": FACTORY,
        "src/app/main.ts": 'import { createInventoryTool } from "@/tools/inventory";\n' + REGISTER,
    })
    assert flagged_files(result) == []
    assert all("resolve" not in notice.message for notice in result.notices)


def test_a_hash_in_a_specifier_after_its_first_character_is_a_fragment_and_a_leading_one_a_name(tmp_path):
    result = lint_project(tmp_path, {
        "tsconfig.json": config({"baseUrl": ".", "paths": {"*": ["src/*"]}}),
        "src/index.ts": FACTORY,  # what "#anything" would reach if the name were cut at its "#"
        "src/app/main.ts": 'import { createInventoryTool } from "#anything";\n' + REGISTER,
    })
    assert flagged_files(result) == []


def test_the_nearest_config_governs_a_folder(tmp_path):
    """A package's own tsconfig.json (or jsconfig.json) maps its imports, not the repository's."""
    result = lint_project(tmp_path, {
        "tsconfig.json": config({"paths": {"@/*": ["./wrong/*"]}}),
        "packages/shop/jsconfig.json": config({"paths": {"@/*": ["./src/*"]}}),
        "packages/shop/src/tools/inventory.js": FACTORY,
        "packages/shop/src/main.js": 'import { createInventoryTool } from "@/tools/inventory";\n' + REGISTER,
    })
    assert flagged_files(result) == [(tmp_path / "packages/shop/src/tools/inventory.js").as_posix()]


def test_a_framework_hook_re_exported_by_a_mapped_module_is_recognised(tmp_path):
    result = lint_project(tmp_path, {
        "tsconfig.json": config({"paths": {"@/*": ["./src/*"]}}),
        "src/hooks/webmcp.ts": 'export { useWebMCP } from "use-webmcp-tool";\n',
        "src/Search.tsx": ('import { useWebMCP } from "@/hooks/webmcp";\n'
                           "export function Search() {\n"
                           '  useWebMCP({ name: "Search Items", description: "Searches the catalogue by keyword.",\n'
                           "    execute: async () => ({ content: [] }) });\n  return null;\n}\n"),
    })
    assert flagged_files(result) == [(tmp_path / "src/Search.tsx").as_posix()]


def test_a_cached_result_follows_an_edit_of_the_mapping(tmp_path, monkeypatch):
    """The config is part of what a unit read: remapping the alias re-checks the importer on a warm run."""
    root = write_project(tmp_path / "app", {
        "tsconfig.json": config({"paths": {"@/*": ["./src/*"]}}),
        "src/tools/inventory.ts": FACTORY,
        "other/tools/inventory.ts": FACTORY.replace('"bad name"', '"list_inventory"'),
        "src/app/main.ts": 'import { createInventoryTool } from "@/tools/inventory";\n' + REGISTER,
    })
    monkeypatch.chdir(root)
    report = tmp_path / "report.json"

    def flagged() -> list[str]:
        result = CliRunner().invoke(main, ["check", ".", "--format", "json", "--exit-zero", "-o", str(report),
                                           "--cache-dir", str(tmp_path / "cache")])
        assert result.exit_code == 0, result.output
        return [item["path"] for item in json.loads(report.read_text())["diagnostics"] if item["code"] == "WM201"]

    assert flagged() == ["src/tools/inventory.ts"]
    (root / "tsconfig.json").write_text(config({"paths": {"@/*": ["./other/*"]}}))
    assert flagged() == []


@pytest.mark.parametrize(("paths", "specifier", "targets"), [
    ({"@/*": ["src/*"]}, "@/a/b", ["/p/src/a/b"]),
    ({"@/*": ["src/*", "gen/*"]}, "@/x", ["/p/src/x", "/p/gen/x"]),
    ({"*": ["types/*"], "@app/*": ["app/*"]}, "@app/x", ["/p/app/x"]),  # the longer prefix wins
    ({"@app/*": ["app/*"], "@app/core": ["core/index.ts"]}, "@app/core", ["/p/core/index.ts"]),  # exact first
    ({"*.css": ["styles/*.css"]}, "theme.css", ["/p/styles/theme.css"]),
    ({"@/*": ["src/*"]}, "react", []),
    ({"@/*/x/*": ["src/*"]}, "@/a/x/b", []),  # two stars: not a pattern TypeScript accepts
])
def test_path_patterns_match_as_typescript_matches_them(paths, specifier, targets):
    assert mapping_of(paths, "/p").targets(specifier) == targets

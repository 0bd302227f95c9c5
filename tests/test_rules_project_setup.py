"""WM105: webmcp-types must be installed and enabled in TypeScript projects that use WebMCP."""

from __future__ import annotations

from pathlib import Path

import pytest
from support import lint_project

MAIN = ('if (document.modelContext) {\n  await document.modelContext.registerTool({ name: "get_time", description: '
        '"Returns the current time in the user\'s zone.", execute: () => new Date().toISOString() });\n}\n')
INSTALLED = '{ "name": "app", "devDependencies": { "typescript": "^5.9.0", "webmcp-types": "^0.1.9" } }'
NOT_INSTALLED = '{ "name": "app",\n  "devDependencies": { "typescript": "^5.9.0" } }'
ENABLED = '{ "compilerOptions": { "strict": true, "types": ["webmcp-types"] }, "include": ["src"] }'
NOT_ENABLED = '{\n  "compilerOptions": {\n    "strict": true,\n    "types": ["vite/client"]\n  }\n}'


def wm105(result):
    """(file name, flagged text) of each WM105 finding."""
    return [(Path(d.path).name, d.source.slice(d.start, d.end)) for d in result.diagnostics if d.code == "WM105"]


def test_missing_from_package_json_is_reported_there(tmp_path):
    result = lint_project(tmp_path, {"package.json": NOT_INSTALLED, "tsconfig.json": ENABLED, "src/main.ts": MAIN,
                                     "src/other.ts": MAIN})
    assert wm105(result) == [("package.json", '"devDependencies"')]


def test_installed_but_not_enabled_is_reported_in_tsconfig(tmp_path):
    result = lint_project(tmp_path, {"package.json": INSTALLED, "tsconfig.json": NOT_ENABLED, "src/main.ts": MAIN})
    assert wm105(result) == [("tsconfig.json", '"types"')]
    assert [d.start_position() for d in result.diagnostics if d.code == "WM105"] == [(4, 5)]


def test_no_package_json_is_reported_in_tsconfig(tmp_path):
    result = lint_project(tmp_path, {"tsconfig.json": '{ "compilerOptions": { "strict": true } }', "src/main.ts": MAIN})
    assert wm105(result) == [("tsconfig.json", '"compilerOptions"')]


@pytest.mark.parametrize("files", [
    {"tsconfig.json": '{\n  // types come from here\n  "compilerOptions": {\n    "types": ["vite/client", "webmcp-types",],\n  },\n}\n'},
    {"tsconfig.json": '{ "extends": "./tsconfig.base.json", "include": ["src"] }',
     "tsconfig.base.json": ENABLED},
    {"tsconfig.json": '{ "extends": "./tsconfig.base", "compilerOptions": { "strict": true } }',
     "tsconfig.base.json": ENABLED},
    {"tsconfig.json": '{ "extends": "./config/app.json" }', "config/app.json": '{ "extends": "./base.json" }',
     "config/base.json": ENABLED},  # the types of a config two extends away
    {"tsconfig.json": '{ "extends": ["./a.json", "./b.json"] }', "a.json": NOT_ENABLED, "b.json": ENABLED},
    {"tsconfig.json": '{ "compilerOptions": { "typeRoots": ["./node_modules/@types", "./node_modules/webmcp-types"] } }'},
    {"tsconfig.json": '{ "files": [], "references": [{ "path": "./tsconfig.app.json" }] }', "tsconfig.app.json": ENABLED},
    {"tsconfig.json": NOT_ENABLED, "src/env.d.ts": '/// <reference types="webmcp-types" />\n'},
    {"tsconfig.json": NOT_ENABLED, "src/types.ts": 'import type { WebMCP } from "webmcp-types";\nexport type Tool = WebMCP.ModelContextTool;\n'},
])
def test_enabled_configurations(tmp_path, files):
    result = lint_project(tmp_path, {"package.json": INSTALLED, "src/main.ts": MAIN, **files})
    assert wm105(result) == []


def test_types_in_an_extended_config_are_replaced_by_the_own_list(tmp_path):
    result = lint_project(tmp_path, {
        "package.json": INSTALLED, "src/main.ts": MAIN, "tsconfig.base.json": ENABLED,
        "tsconfig.json": '{ "extends": "./tsconfig.base.json", "compilerOptions": { "types": ["node"] } }',
    })
    assert wm105(result) == [("tsconfig.json", '"types"')]


def test_a_later_extends_entry_replaces_the_types_of_an_earlier_one(tmp_path):
    result = lint_project(tmp_path, {"package.json": INSTALLED, "src/main.ts": MAIN, "a.json": ENABLED,
                                     "b.json": NOT_ENABLED, "tsconfig.json": '{ "extends": ["./a.json", "./b.json"] }'})
    assert wm105(result) == [("tsconfig.json", "{")]  # no compilerOptions of its own: its first byte


SOLUTION = '{ "files": [], "references": [{ "path": "./tsconfig.node.json" }, { "path": "./tsconfig.app.json" }] }'
NODE = '{ "compilerOptions": { "types": ["node"] }, "include": ["vite.config.ts"] }'
APP = '{\n  "compilerOptions": {\n    "types": ["vite/client"]\n  },\n  "include": ["src"]\n}'


def test_a_solution_config_is_reported_in_the_referenced_config_that_holds_the_sources(tmp_path):
    """Vite's templates: the root tsconfig.json only references the configs that compile the files."""
    result = lint_project(tmp_path, {"package.json": INSTALLED, "src/main.ts": MAIN, "tsconfig.json": SOLUTION,
                                     "tsconfig.node.json": NODE, "tsconfig.app.json": APP})
    assert wm105(result) == [("tsconfig.app.json", '"types"')]


def test_types_in_a_solution_configs_own_options_reach_no_file(tmp_path):
    root = SOLUTION[:-2] + ', "compilerOptions": { "types": ["webmcp-types"] } }'
    result = lint_project(tmp_path, {"package.json": INSTALLED, "src/main.ts": MAIN, "tsconfig.json": root,
                                     "tsconfig.node.json": NODE, "tsconfig.app.json": APP})
    assert wm105(result) == [("tsconfig.app.json", '"types"')]
    included = '{ "files": [], "include": ["src"], "compilerOptions": { "types": ["webmcp-types"] } }'
    result = lint_project(tmp_path / "b", {"package.json": INSTALLED, "src/main.ts": MAIN, "tsconfig.json": included})
    assert wm105(result) == []  # it includes files: not a solution config


def test_package_declared_in_a_workspace_root(tmp_path):
    result = lint_project(tmp_path, {"package.json": INSTALLED, "apps/web/package.json": NOT_INSTALLED,
                                     "apps/web/tsconfig.json": ENABLED, "apps/web/src/main.ts": MAIN})
    assert wm105(result) == []


def test_one_finding_per_typescript_project(tmp_path):
    result = lint_project(tmp_path, {
        "a/package.json": NOT_INSTALLED, "a/tsconfig.json": ENABLED, "a/src/one.ts": MAIN, "a/src/two.ts": MAIN,
        "b/package.json": INSTALLED, "b/tsconfig.json": NOT_ENABLED, "b/src/main.ts": MAIN,
    })
    assert sorted(wm105(result)) == [("package.json", '"devDependencies"'), ("tsconfig.json", '"types"')]


@pytest.mark.parametrize("files", [
    {"package.json": NOT_INSTALLED, "src/main.js": MAIN},  # JavaScript only, no tsconfig
    {"package.json": NOT_INSTALLED, "tsconfig.json": NOT_ENABLED, "src/main.js": MAIN},  # tsconfig, but JS sources
    {"package.json": NOT_INSTALLED, "tsconfig.json": NOT_ENABLED,
     "src/main.ts": "export const sum = (a: number, b: number) => a + b;\n"},  # no WebMCP
    {"package.json": NOT_INSTALLED, "src/main.ts": MAIN},  # no tsconfig at all
])
def test_not_flagged(tmp_path, files):
    assert wm105(lint_project(tmp_path, files)) == []


def test_typed_namespace_use_counts_as_webmcp(tmp_path):
    result = lint_project(tmp_path, {"package.json": NOT_INSTALLED, "tsconfig.json": ENABLED, "src/tools.ts":
                                     'export const tool: WebMCP.ModelContextTool = { name: "get_time", description: '
                                     '"Returns the current time.", execute: () => Date.now() };\n'})
    assert wm105(result) == [("package.json", '"devDependencies"')]


def test_invalid_tsconfig_gives_a_notice_not_a_finding(tmp_path):
    result = lint_project(tmp_path, {"package.json": NOT_INSTALLED, "tsconfig.json": '{ "compilerOptions": ',
                                     "src/main.ts": MAIN})
    assert wm105(result) == []
    assert any(notice.path.endswith("tsconfig.json") and "not valid JSON" in notice.message for notice in result.notices)


def test_invalid_package_json_gives_a_notice_not_a_finding(tmp_path):
    result = lint_project(tmp_path, {"package.json": "{ oops", "tsconfig.json": NOT_ENABLED, "src/main.ts": MAIN})
    assert wm105(result) == []
    assert any(notice.path.endswith("package.json") for notice in result.notices)

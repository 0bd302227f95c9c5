"""Configuration files: discovery, keys, command-line overrides, and errors naming file, line and key."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from support import project_in

from webmcp_lint.cli import main
from webmcp_lint.config import ConfigError, find_config, load_config

NAVIGATOR = "const mc = navigator.modelContext;\n"  # WM101 (error) only
LONG_NAME = ('document.modelContext?.registerTool({ name: "get_quarterly_sales_summary_by_region_x", '
             'description: "Summarises this quarter sales by region for the user.", '
             'execute() { return 1; } });\n')  # WM209 (info)


def run(*args: str):
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


def check_json(*args: str) -> tuple[int, list[tuple[str, str]]]:
    result = run("check", "--format", "json", *args)
    diagnostics = json.loads(result.stdout)["diagnostics"] if result.stdout.startswith("{") else []
    return result.exit_code, [(d["path"], d["code"]) for d in diagnostics]


@pytest.fixture
def project(tmp_path: Path, monkeypatch) -> Path:
    return project_in(tmp_path, monkeypatch, {"src/app.js": NAVIGATOR})


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


# --- finding the file ------------------------------------------------------------------------------------


def test_closest_file_wins_and_pyproject_without_the_table_is_skipped(tmp_path):
    write(tmp_path / "webmcp-lint.toml", "")
    write(tmp_path / "pkg" / "pyproject.toml", "[project]\nname = 'x'\n")
    assert find_config(tmp_path / "pkg") == tmp_path / "webmcp-lint.toml"
    write(tmp_path / "pkg" / "pyproject.toml", "[tool.webmcp-lint]\nselect = ['WM1']\n")
    assert find_config(tmp_path / "pkg" / "a.js") == tmp_path / "pkg" / "pyproject.toml"


def test_hidden_file_comes_before_the_others_in_one_directory(tmp_path):
    for name in ("pyproject.toml", "webmcp-lint.toml", ".webmcp-lint.toml"):
        write(tmp_path / name, "[tool.webmcp-lint]\n" if name == "pyproject.toml" else "")
    assert find_config(tmp_path) == tmp_path / ".webmcp-lint.toml"
    (tmp_path / ".webmcp-lint.toml").unlink()
    assert find_config(tmp_path) == tmp_path / "webmcp-lint.toml"


def test_config_found_from_the_linted_path_upwards(project):
    write(project / "src" / "webmcp-lint.toml", 'ignore = ["WM101"]\n')
    assert check_json("src") == (0, [])
    assert check_json("src/app.js") == (0, [])


# --- keys ------------------------------------------------------------------------------------------------


def test_select_and_ignore_in_pyproject(project):
    write(project / "pyproject.toml", '[tool.webmcp-lint]\nselect = ["WM1"]\nignore = ["deprecated-navigator-model-context"]\n')
    assert check_json() == (0, [])


def test_extend_select_adds_to_select(project):
    write(project / "src" / "tool.js", LONG_NAME)
    write(project / "webmcp-lint.toml", 'select = ["WM101"]\nextend-select = ["WM209"]\n')
    assert sorted(code for _, code in check_json()[1]) == ["WM101", "WM209"]


def test_command_line_overrides_the_file(project):
    write(project / "webmcp-lint.toml", 'ignore = ["WM101"]\n')
    assert check_json() == (0, [])
    assert check_json("--select", "WM101") == (1, [("src/app.js", "WM101")])
    assert check_json("--isolated") == (1, [("src/app.js", "WM101")])


def test_config_option_names_the_file(project, tmp_path_factory):
    other = write(tmp_path_factory.mktemp("elsewhere") / "ci.toml", 'ignore = ["WM1"]\n')
    assert check_json("--config", str(other)) == (0, [])


def test_fail_on_and_severity_overrides(project):
    write(project / "webmcp-lint.toml", 'fail-on = "error"\n[severity]\nWM101 = "warning"\n')
    result = run("check", "--format", "json")
    assert result.exit_code == 0
    assert json.loads(result.stdout)["diagnostics"][0]["severity"] == "warning"
    assert run("check", "--fail-on", "warning").exit_code == 1


def test_severity_override_by_slug(project):
    write(project / "webmcp-lint.toml", '[severity]\ndeprecated-navigator-model-context = "info"\n')
    assert run("check").exit_code == 0


def test_per_file_ignores(project):
    write(project / "legacy" / "old.js", NAVIGATOR)
    write(project / "webmcp-lint.toml", '[per-file-ignores]\n"legacy/**" = ["WM1"]\n')
    assert check_json() == (1, [("src/app.js", "WM101")])


def test_per_file_ignores_are_relative_to_the_config_file(project):
    write(project / "webmcp-lint.toml", '[per-file-ignores]\n"/app.js" = ["WM101"]\n')
    assert check_json() == (1, [("src/app.js", "WM101")])
    write(project / "webmcp-lint.toml", '[per-file-ignores]\n"/src/app.js" = ["WM101"]\n')
    assert check_json() == (0, [])


def test_extend_exclude_keeps_the_defaults(project):
    write(project / "generated" / "gen.js", NAVIGATOR)
    write(project / "node_modules" / "dep.js", NAVIGATOR)
    write(project / "webmcp-lint.toml", 'extend-exclude = ["generated/"]\n')
    assert check_json() == (1, [("src/app.js", "WM101")])


def test_exclude_replaces_the_defaults(project):
    write(project / "node_modules" / "dep.js", NAVIGATOR)
    write(project / "webmcp-lint.toml", 'exclude = ["src"]\n')
    assert check_json() == (1, [("node_modules/dep.js", "WM101")])


def test_excluded_explicit_file_is_linted_unless_force_exclude(project):
    write(project / "webmcp-lint.toml", 'extend-exclude = ["src/app.js"]\n')
    assert check_json(".") == (0, [])
    assert check_json("src/app.js") == (1, [("src/app.js", "WM101")])
    assert check_json("--force-exclude", "src/app.js") == (0, [])


@pytest.mark.parametrize("options", [("--no-cache", "-j1"), ("--no-cache", "-j2"), ("--cache-dir", "cache")])
def test_findings_in_an_excluded_module_reached_through_an_import_are_dropped(project, options):
    """The excludes say a file's findings are not wanted: a linted file importing it does not bring them back.
    What the importer's own lines show (its registration) stays."""
    write(project / "generated" / "gen.js", 'export const genTool = { name: "gen", description: "Generates the '
                                            'weekly report for users.", run() {}, execute() { return 1; } };\n')
    write(project / "src" / "main.js", 'import { genTool } from "../generated/gen.js";\n'
                                       "await document.modelContext?.registerTool(genTool);\n")
    assert ("generated/gen.js", "WM206") in check_json("src/main.js", *options)[1]
    write(project / "webmcp-lint.toml", 'extend-exclude = ["generated/"]\n')
    assert check_json("src/main.js", *options)[1] == []
    assert ("generated/gen.js", "WM206") in check_json("src/main.js", "generated/gen.js", *options)[1]  # linted


def test_folders_above_the_project_do_not_exclude_what_it_imports(tmp_path, monkeypatch):
    """A default excluded name (out, build, dist...) among the folders that hold the project is not the project's."""
    app = tmp_path / "out" / "V" / "app"
    write(tmp_path / "out" / "V" / "shared" / "inventory.js", 'export const tool = { name: "bad name", description: '
                                                             '"Lists the items in the inventory.", execute() { return 1; } };\n')
    write(app / "src" / "main.js", 'import { tool } from "../../shared/inventory.js";\n'
                                   "await document.modelContext?.registerTool(tool);\n")
    monkeypatch.chdir(app)
    found = check_json(".", "--no-cache")[1]
    assert [(Path(path).name, code) for path, code in found if code == "WM201"] == [("inventory.js", "WM201")]


def test_force_exclude_applies_the_default_excluded_directories(project):
    write(project / "dist" / "bundle.js", NAVIGATOR)
    assert check_json("dist/bundle.js")[0] == 1
    assert check_json("--force-exclude", "dist/bundle.js") == (0, [])


def test_max_file_size(project):
    write(project / "webmcp-lint.toml", "max-file-size = 10\n")
    result = run("check", "--format", "json")
    assert json.loads(result.stdout)["summary"]["files_skipped"] == 1


# --- errors ----------------------------------------------------------------------------------------------


def error_of(project: Path, name: str, text: str) -> str:
    write(project / name, text)
    result = run("check")
    assert result.exit_code == 2, result.output
    assert result.stderr.count("\n") == 1, result.stderr
    return result.stderr.strip()


def test_unknown_key_names_file_line_and_a_suggestion(project):
    message = error_of(project, "pyproject.toml", '[project]\nname = "x"\n\n[tool.webmcp-lint]\nselect = ["WM1"]\nselct = []\n')
    assert message == "webmcp-lint: error: pyproject.toml:6: unknown key `selct` (did you mean `select`?)"


def test_snake_case_key_suggests_the_kebab_case_one(project):
    message = error_of(project, "webmcp-lint.toml", 'extend_select = ["WM1"]\n')
    assert message.endswith("webmcp-lint.toml:1: unknown key `extend_select` (did you mean `extend-select`?)")


def test_unknown_rule_in_a_list_points_at_its_line(project):
    message = error_of(project, "webmcp-lint.toml", 'ignore = [\n  "WM101",\n  "WM1O2",\n]\n')
    assert "webmcp-lint.toml:3:" in message and "`WM1O2`" in message and "did you mean `WM102`" in message


def test_wrong_type(project):
    message = error_of(project, "webmcp-lint.toml", '\nselect = "WM1"\n')
    assert "webmcp-lint.toml:2: `select` must be a list of strings, not a string" in message
    message = error_of(project, "webmcp-lint.toml", 'max-file-size = "big"\n')
    assert "webmcp-lint.toml:1: `max-file-size` must be a positive number" in message


def test_bad_severity_value_in_its_table(project):
    message = error_of(project, "pyproject.toml",
                       '[tool.webmcp-lint]\nselect = ["ALL"]\n\n[tool.webmcp-lint.severity]\nWM101 = "warn"\n')
    assert "pyproject.toml:5: `WM101` must be one of error, warning, info, not 'warn' (did you mean `warning`?)" in message


def test_unknown_rule_as_a_severity_key(project):
    message = error_of(project, "webmcp-lint.toml", 'fail-on = "info"\n\n[severity]\nWM9999 = "info"\n')
    assert "webmcp-lint.toml:4:" in message and "`WM9999`" in message


def test_bad_per_file_ignores_entry(project):
    message = error_of(project, "webmcp-lint.toml", '[per-file-ignores]\n"tests/*" = "WM4"\n')
    assert "webmcp-lint.toml:2: `per-file-ignores` entry `tests/*` must be a list of rules, not a string" in message
    message = error_of(project, "webmcp-lint.toml", 'per-file-ignores = { "tests/*" = ["WM4", "WM44x"] }\n')
    assert "webmcp-lint.toml:1:" in message and "`WM44x`" in message


@pytest.mark.parametrize(("name", "text", "located"), [
    ("webmcp-lint.toml", '# settings\nfail-on = "warning"\n\nper-file-ignores = { "x/**" = ["WMZ"] }\n', ":4: `x/**` names"),
    ("webmcp-lint.toml", '# settings\n\nseverity = { WM101 = "error", WM604 = "warn" }\n', ":3: `WM604` must be"),
    ("pyproject.toml", '[project]\nname = "x"\n\n[tool.webmcp-lint]\nfail-on = "warning"\nseverity = {WM604="warn"}\n',
     ":6: `WM604` must be"),
    ("pyproject.toml", '[tool.webmcp-lint]\nfail-on = "info"\nseverity.WM604 = "warn"\n', ":3: `WM604` must be"),
])
def test_a_mistake_in_an_inline_table_points_at_its_line(project, name, text, located):
    assert name + located in error_of(project, name, text)


@pytest.mark.parametrize(("text", "located"), [
    ('extend-exclude = ["generated/", "[z-a]"]\n', ":1: `extend-exclude` holds `[z-a]`, which is not a valid glob"),
    ('select = ["ALL"]\nexclude = [\n  "dist",\n  "!",\n]\n', ":4: `exclude` holds `!`, which is not a valid glob"),
    ('[per-file-ignores]\n"tests/*" = ["WM4"]\n"[z-a]/*" = ["WM4"]\n', ":3: `per-file-ignores` holds `[z-a]/*`"),
])
def test_an_invalid_glob_is_a_config_error_at_its_line(project, text, located):
    assert "webmcp-lint.toml" + located in error_of(project, "webmcp-lint.toml", text)


def test_a_broken_pyproject_holding_our_table_is_reported(project):
    write(project / "pyproject.toml", '[tool.webmcp-lint]\nignore = ["WM101"]\n\n[project]\nname = \n')
    result = run("check")
    assert result.exit_code == 2 and "pyproject.toml:5: invalid TOML" in result.output


def test_invalid_toml_names_its_line(project):
    message = error_of(project, "webmcp-lint.toml", 'select = ["WM1"]\nignore = [\n')
    assert message.startswith("webmcp-lint: error: webmcp-lint.toml:") and "invalid TOML" in message


def test_bad_fail_on_suggests(project):
    message = error_of(project, "webmcp-lint.toml", 'fail-on = "eror"\n')
    assert message.endswith("webmcp-lint.toml:1: `fail-on` must be one of error, warning, info, not 'eror' "
                            "(did you mean `error`?)")


def test_isolated_skips_a_broken_config_and_cannot_be_combined_with_config(project):
    write(project / "webmcp-lint.toml", "bogus = 1\n")
    assert run("check", "--isolated").exit_code == 1
    assert run("check", "--isolated", "--config", "webmcp-lint.toml").exit_code == 2


def test_broken_pyproject_of_another_tool_is_not_ours(project):
    write(project / "pyproject.toml", "[project\nname = \n")
    assert run("check").exit_code == 1


def test_load_config_resolves_paths_from_the_file(tmp_path):
    path = write(tmp_path / "conf" / "webmcp-lint.toml", 'extend-exclude = ["gen/"]\n[per-file-ignores]\n"t/*.js" = ["WM4"]\n')
    config = load_config(path)
    assert config.exclusion.root == tmp_path / "conf"
    assert config.exclusion.excludes(tmp_path / "conf" / "gen", is_dir=True)
    assert config.exclusion.excludes(tmp_path / "conf" / "a" / "node_modules", is_dir=True)
    assert not config.exclusion.excludes(tmp_path / "conf" / "src" / "gen.js")
    [entry] = config.per_file_ignores
    assert entry.matches(tmp_path / "conf" / "t" / "x.js") and "WM401" in entry.codes
    with pytest.raises(ConfigError):
        load_config(write(tmp_path / "bad.toml", "select = [1]\n"))

"""The program (program.run): a check parsed by a forked child while the program loads the analysis must end
exactly as the same check run in one process (click's CliRunner) does."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from webmcp_lint.cli import main
from webmcp_lint.program import _exit_code

BAD = "const mc = navigator.modelContext;\n"
PLAIN = {**os.environ, "NO_COLOR": "1"}
PROGRAM = [sys.executable, "-m", "webmcp_lint"]
# The program with os.fork taken away, as on Windows: everything in one process.
WITHOUT_FORK = [sys.executable, "-c", "import os, sys; del os.fork; sys.argv[0] = 'webmcp-lint'; "
                "from webmcp_lint.program import run; run()"]


@pytest.fixture
def project(tmp_path: Path) -> Path:
    (tmp_path / "bad.js").write_text(BAD)
    (tmp_path / "webmcp-lint.toml").write_text('select = ["WM1"]\n')
    return tmp_path


def in_process(project: Path, *args: str):
    cwd = os.getcwd()
    os.chdir(project)
    try:
        return CliRunner().invoke(main, ["check", *args])
    finally:
        os.chdir(cwd)


@pytest.mark.parametrize("args", [
    ("bad.js", "--format", "json"),  # findings: exit 1
    (".", "--format", "concise", "--exit-zero"),
    ("bad.js", "--ignore", "WM101", "--format", "json", "--no-cache"),  # clean: exit 0
    ("missing.js",),  # a usage error of ours: one line, exit 2
    ("bad.js", "--select", "WM999"),
])
@pytest.mark.parametrize("program", [PROGRAM, WITHOUT_FORK], ids=["forked-parser", "one-process"])
def test_a_check_ends_as_in_one_process(project, args, program):
    expected = in_process(project, *args)
    completed = subprocess.run([*program, "check", *args], cwd=project, capture_output=True, text=True, env=PLAIN)
    assert (completed.returncode, completed.stdout) == (expected.exit_code, expected.stdout)
    assert completed.stderr == expected.stderr


def test_options_larger_than_a_pipe_holds_reach_the_program(project):
    """A pre-commit hook names every staged file: the options can outgrow the pipe's 64 kB."""
    names = [f"module_with_a_rather_long_name_{number:05}.js" for number in range(3000)]
    for name in names:
        (project / name).write_text("export const answer = 42;\n")
    completed = subprocess.run([*PROGRAM, "check", "bad.js", *names, "--format", "json", "--no-cache"], cwd=project,
                               capture_output=True, text=True, env=PLAIN)
    assert completed.returncode == 1 and completed.stdout.count('"code": "WM101"') == 1
    assert completed.stdout == in_process(project, "bad.js", *names, "--format", "json", "--no-cache").stdout


@pytest.mark.parametrize("args", [("--help",), ("--bogus",), ("--jobs", "0")])
def test_help_and_click_usage_errors_come_from_the_parser(project, args):
    completed = subprocess.run([*PROGRAM, "check", *args], cwd=project, capture_output=True, text=True, env=PLAIN)
    expected = in_process(project, *args)
    assert completed.returncode == expected.exit_code
    if args == ("--help",):
        assert completed.stdout.startswith("Usage: python -m webmcp_lint check [OPTIONS] [PATHS]...")
        assert "--cache-dir" in completed.stdout and not completed.stderr
    else:
        assert completed.returncode == 2 and not completed.stdout
        assert completed.stderr.startswith("Usage: python -m webmcp_lint check [OPTIONS] [PATHS]...")
        assert completed.stderr.splitlines()[-1] == expected.stderr.splitlines()[-1]


def test_the_process_that_checks_never_imports_click(project):
    """Nor inspect, which click and pkgutil.iter_modules import: 8 ms more of a check's serial start."""
    spy = ("import sys\n"
           "from webmcp_lint.commands import check_run\n"
           "checked = check_run.run_check\n"
           "def spied(**options):\n"
           "    print(*sorted({'click', 'inspect'} & set(sys.modules)), file=sys.stderr)\n"
           "    return checked(**options)\n"
           "check_run.run_check = spied\n"
           "from webmcp_lint.program import run\n"
           "run()\n")
    completed = subprocess.run([sys.executable, "-c", spy, "check", "bad.js"], cwd=project, capture_output=True,
                               text=True, env=PLAIN)
    assert completed.returncode == 1 and "WM101" in completed.stdout
    assert completed.stderr == "\n"


def test_forced_colour_reaches_a_pipe(project):
    """FORCE_COLOR asks for colour where stdout is no terminal (CI logs): the codes must not be stripped."""
    completed = subprocess.run([*PROGRAM, "check", "bad.js"], cwd=project, capture_output=True, text=True,
                               env={**os.environ, "FORCE_COLOR": "1"})
    assert completed.returncode == 1 and "\x1b[" in completed.stdout
    plain = subprocess.run([*PROGRAM, "check", "bad.js"], cwd=project, capture_output=True, text=True, env=PLAIN)
    assert "\x1b[" not in plain.stdout and "WM101" in plain.stdout


@pytest.mark.parametrize("program", [PROGRAM, WITHOUT_FORK], ids=["forked-parser", "one-process"])
def test_a_reader_that_went_away_ends_the_check_quietly_with_1(project, program):
    """As click ends a command whose stdout is a pipe nobody reads (``| head`` after it exits)."""
    unread, stdout = os.pipe()
    os.close(unread)
    try:
        completed = subprocess.run([*program, "check", "bad.js", "--exit-zero"], cwd=project, stdout=stdout,
                                   capture_output=False, stderr=subprocess.PIPE, env=PLAIN)
    finally:
        os.close(stdout)
    assert (completed.returncode, completed.stderr) == (1, b"")


def test_a_parser_killed_by_a_signal_is_an_error(capsys):
    assert _exit_code(9) == 2  # a wait status whose low bits name signal 9
    assert capsys.readouterr().err == "webmcp-lint: error: the command-line parser ended by signal 9\n"
    assert _exit_code(1 << 8) == 1  # exited with 1

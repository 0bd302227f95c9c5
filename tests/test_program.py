"""The program (program.run): a check parsed by a forked child while the program loads the analysis must end
exactly as the same check run in one process (click's CliRunner) does."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from webmcp_lint.cli import main
from webmcp_lint.program import _ended_without_a_word

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
    """Nor inspect, which click and pkgutil.iter_modules import (8 ms more of a check's serial start), nor
    traceback (linecache, tokenize, textwrap: 2 ms), which only a crashing parser needs, nor hashlib (OpenSSL:
    4 ms), whose BLAKE2b the cache takes from CPython's own module (digests.py)."""
    spy = ("import sys\n"
           "from webmcp_lint.commands import check_run\n"
           "checked = check_run.run_check\n"
           "def spied(**options):\n"
           "    print(*sorted({'click', 'inspect', 'traceback', 'hashlib'} & set(sys.modules)), file=sys.stderr)\n"
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


def test_a_parser_killed_before_it_spoke_is_an_error(capsys):
    parser = os.fork()
    if parser == 0:
        os.kill(os.getpid(), signal.SIGKILL)
    assert _ended_without_a_word(parser) == 2
    assert capsys.readouterr().err == "webmcp-lint: error: the command-line parser ended by signal 9\n"


def test_a_parser_that_crashes_shows_its_traceback_and_hands_over_2():
    crash = ("import os, webmcp_lint.cli\n"
             "def broken(**settings):\n"
             "    raise RuntimeError('parser broke')\n"
             "webmcp_lint.cli.main = broken\n"
             "from webmcp_lint import program\n"
             "word_out, word_in = os.pipe()\n"
             "program._parse_command_line(word_in)\n")
    completed = subprocess.run([sys.executable, "-c", crash], capture_output=True, text=True)
    assert completed.returncode == 2
    assert completed.stderr.startswith("Traceback (most recent call last):\n")
    assert completed.stderr.endswith("RuntimeError: parser broke\n")


def test_a_caller_that_ignores_sigchld_gets_the_same_check(project):
    """Such a caller (some process supervisors) passes the setting on: the system reaps the parser itself."""
    def ignoring_sigchld():
        signal.signal(signal.SIGCHLD, signal.SIG_IGN)

    for args in (("bad.js", "--format", "json"), ("--help",), ("--bogus",), ("missing.js",)):
        completed = subprocess.run([*PROGRAM, "check", *args], cwd=project, capture_output=True, text=True,
                                   env=PLAIN, preexec_fn=ignoring_sigchld)
        expected = in_process(project, *args)
        assert completed.returncode == expected.exit_code, completed.stderr
        if args == ("--help",):
            assert completed.stdout.startswith("Usage: python -m webmcp_lint check [OPTIONS] [PATHS]...")
        else:
            assert completed.stdout == expected.stdout
        assert "Traceback" not in completed.stderr


def test_a_caller_that_ignores_sigchld_gets_the_same_parallel_check(tmp_path):
    """The unit workers are reaped the same way (this failed with "internal error: ChildProcessError")."""
    for number in range(40):  # more units than MIN_UNITS_FOR_POOL: two processes lint them
        (tmp_path / f"tool{number}.js").write_text(BAD)
    completed = subprocess.run([*PROGRAM, "check", ".", "--format", "json", "--no-cache", "-j2"], cwd=tmp_path,
                               capture_output=True, text=True, env=PLAIN,
                               preexec_fn=lambda: signal.signal(signal.SIGCHLD, signal.SIG_IGN))
    assert (completed.returncode, completed.stderr) == (1, "")
    assert completed.stdout == in_process(tmp_path, ".", "--format", "json", "--no-cache", "-j2").stdout


def test_a_stdout_that_claims_ascii_gets_utf_8_as_click_wrote_it(project):
    (project / "ünï.js").write_text(BAD)
    completed = subprocess.run([*PROGRAM, "check", "ünï.js", "--format", "concise"], cwd=project,
                               capture_output=True, env={**PLAIN, "PYTHONIOENCODING": "ascii"})
    assert completed.returncode == 1 and not completed.stderr
    assert completed.stdout.decode("utf-8").startswith("ünï.js:1:")


def test_colour_codes_in_the_linted_code_are_stripped_on_a_pipe_unless_colour_is_forced(project):
    (project / "bad.js").write_text("const mc = navigator.modelContext; // \x1b[31mred\n")
    plain = subprocess.run([*PROGRAM, "check", "bad.js"], cwd=project, capture_output=True, text=True, env=PLAIN)
    assert plain.returncode == 1 and "red" in plain.stdout and "\x1b" not in plain.stdout


def test_an_output_file_named_with_a_trailing_slash_is_a_file(project):
    completed = subprocess.run([*PROGRAM, "check", "bad.js", "-o", "report/"], cwd=project, capture_output=True,
                               text=True, env=PLAIN)
    assert completed.returncode == 1 and (project / "report").is_file()


def test_every_check_option_crosses_the_pipe_as_a_plain_value():
    """The parser hands the options over with marshal (program.py): an option converting to another type
    (click.File, a Path) would break only the forked path."""
    from webmcp_lint.commands.check import check

    plain_types = (click.types.StringParamType, click.types.BoolParamType, click.types.IntParamType,
                   click.Choice, click.IntRange)
    for parameter in check.params:
        kind = parameter.type
        assert isinstance(kind, plain_types) or (isinstance(kind, click.Path) and kind.type is None), parameter.name


def test_python_dash_m_cli_still_runs_the_program():
    completed = subprocess.run([sys.executable, "-m", "webmcp_lint.cli", "--version"], capture_output=True, text=True)
    assert completed.returncode == 0 and completed.stdout.startswith("webmcp-lint ")


def test_plugins_are_the_modules_pkgutil_would_list(tmp_path):
    """Rules and extractors are found by listing their folder: what an editor or a copy leaves there is no module."""
    import pkgutil
    from importlib.machinery import EXTENSION_SUFFIXES

    from webmcp_lint.plugins import module_names

    for name in ("platform.py", "shape.py", "__init__.py", "notes.md", "x.bak.py", "compiled.pyc", "2fast.py",
                 "naïve.py", f"fast{EXTENSION_SUFFIXES[0]}"):
        (tmp_path / name).write_text("")
    (tmp_path / ".#platform.py").symlink_to("nowhere")  # an Emacs lock file
    (tmp_path / "__pycache__").mkdir()
    expected = sorted(module.name for module in pkgutil.iter_modules([str(tmp_path)]))
    assert module_names([str(tmp_path)]) == expected == ["2fast", "compiled", "fast", "naïve", "platform", "shape"]

"""The pre-commit hook, run by pre-commit itself against this working tree (``pre-commit try-repo``).

pre-commit installs the hook repository into its own virtualenv, so this
builds the package and installs its dependencies: slow, but it is the only
way to know the published hook works.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parent.parent
BAD = "const mc = navigator.modelContext;\n"
GOOD = "export const answer = 42;\n"

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(shutil.which("git") is None, reason="pre-commit needs git"),
]


def git(cwd: Path, *args: str) -> None:
    subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True)


@pytest.fixture(scope="module")
def repository(tmp_path_factory) -> Path:
    repo = tmp_path_factory.mktemp("precommit-repo")
    git(repo, "init", "-q")
    git(repo, "config", "user.email", "test@example.com")
    git(repo, "config", "user.name", "test")
    (repo / "bad.mts").write_text(BAD)
    (repo / "good.js").write_text(GOOD)
    (repo / "notes.txt").write_text(BAD)
    git(repo, "add", ".")
    return repo


@pytest.fixture(scope="module")
def environment(tmp_path_factory) -> dict[str, str]:
    env = dict(os.environ)
    env["PRE_COMMIT_HOME"] = str(tmp_path_factory.mktemp("pre-commit-home"))
    env.pop("GIT_DIR", None)
    env.pop("GIT_INDEX_FILE", None)
    return env


def try_repo(repository: Path, environment: dict[str, str], *files: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "pre_commit", "try-repo", str(ROOT), "webmcp-lint", "--verbose", "--files", *files],
        cwd=repository, env=environment, capture_output=True, text=True, timeout=900,
    )


def test_hook_definition_matches_the_linter():
    [hook] = yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text())
    assert hook["id"] == "webmcp-lint" and hook["language"] == "python" and hook["require_serial"] is True
    assert hook["entry"] == "webmcp-lint check --force-exclude"
    import re

    from webmcp_lint.discovery import LINTED_SUFFIXES

    pattern = re.compile(hook["files"])
    assert all(pattern.search(f"src/a{suffix}") for suffix in LINTED_SUFFIXES)
    assert not pattern.search("notes.txt") and not pattern.search("a.json")


def test_hook_fails_on_a_bad_file(repository, environment):
    completed = try_repo(repository, environment, "bad.mts", "good.js", "notes.txt")
    assert completed.returncode == 1, completed.stdout + completed.stderr
    assert "bad.mts:1:12: error WM101" in completed.stdout


def test_hook_passes_on_a_good_file(repository, environment):
    completed = try_repo(repository, environment, "good.js")
    assert completed.returncode == 0, completed.stdout + completed.stderr
    assert "Passed" in completed.stdout

"""Benchmark: webmcp-lint against the physical floors and ESLint, Semgrep and ast-grep.

    python bench/run.py [--runs 3] [--setup-tools] [--skip-npm]

Builds two corpora outside the repository (its .gitignore would hide them
from every linter), in $WEBMCP_LINT_BENCH_DIR or ~/.cache/webmcp-lint-bench: the sources of pinned
npm packages (a large real codebase that holds no WebMCP code), and 200
generated WebMCP files (bench/generate.py, seeded). Every figure is the
median wall time of ``--runs`` runs of a subprocess, with its peak RSS, measured in
interleaved rounds (every command once per round) so the ratios are fair. Writes bench/RESULTS.md.

``--setup-tools`` installs the comparison tools into bench/tools/ (npm: eslint,
@ast-grep/cli; a venv with semgrep). Tools that are not installed are
reported as such, not guessed.
"""

from __future__ import annotations

import argparse
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
CORPUS = Path(os.environ.get("WEBMCP_LINT_BENCH_DIR", Path.home() / ".cache" / "webmcp-lint-bench"))
TOOLS = HERE / "tools"
PYTHON = sys.executable
NPM_PACKAGES = [
    "typescript@5.9.3", "monaco-editor@0.52.2", "three@0.180.0", "@angular/core@20.3.15",
    "vue@3.5.22", "rxjs@7.8.2", "react-dom@19.2.0", "lodash-es@4.17.21", "zod@4.1.12",
]
ESLINT_CONFIG = """export default [{
  files: ["**/*.js", "**/*.mjs", "**/*.cjs", "**/*.ts", "**/*.mts", "**/*.cts", "**/*.jsx", "**/*.tsx"],
  languageOptions: { ecmaVersion: "latest", sourceType: "module" },
  rules: { "no-restricted-syntax": ["error",
    "MemberExpression[object.name='navigator'][property.name='modelContext']",
    "CallExpression[callee.property.name='registerTool'][callee.object.property.name='modelContext']"] },
}];
"""
SEMGREP_RULE = """rules:
  - id: webmcp
    languages: [javascript, typescript]
    severity: ERROR
    message: WebMCP
    pattern-either:
      - pattern: navigator.modelContext
      - pattern: $X.modelContext.registerTool(...)
"""
AST_GREP_PATTERN = "$X.modelContext.registerTool($$$ARGS)"


def build_npm_corpus(target: Path) -> None:
    if target.exists() and any(target.iterdir()):
        return
    target.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as scratch:
        subprocess.run(["npm", "pack", "--silent", *NPM_PACKAGES], cwd=scratch, check=True, stdout=subprocess.DEVNULL)
        for archive in sorted(Path(scratch).glob("*.tgz")):
            destination = target / archive.name.removesuffix(".tgz")
            with tarfile.open(archive) as bundle:
                bundle.extractall(destination, filter="data")


def build_webmcp_corpus() -> Path:
    """The generated corpus, in a folder named after the generator's version (a stale one is never reused)."""
    sys.path.insert(0, str(HERE))
    from generate import GENERATOR_VERSION, generate

    target = CORPUS / f"webmcp-v{GENERATOR_VERSION}"
    if not (target.exists() and any(target.iterdir())):
        generate(target)
    return target


def compile_bytecode() -> None:
    """Measure the linter as pip installs it, with compiled bytecode (PYTHONDONTWRITEBYTECODE would hide that)."""
    subprocess.run([PYTHON, "-m", "compileall", "-q", str(HERE.parent / "webmcp_lint")], check=True)


def setup_tools() -> None:
    TOOLS.mkdir(exist_ok=True)
    subprocess.run(["npm", "install", "--silent", "--no-audit", "--no-fund", "--prefix", str(TOOLS),
                    "eslint@9", "@ast-grep/cli"], check=True)
    venv = TOOLS / "semgrep-venv"
    if not venv.exists():
        subprocess.run([PYTHON, "-m", "venv", str(venv)], check=True)
        subprocess.run([str(venv / "bin" / "pip"), "install", "-q", "semgrep"], check=True)


def tool_commands(corpus: Path) -> dict[str, list[str] | None]:
    eslint = TOOLS / "node_modules" / ".bin" / "eslint"
    ast_grep = TOOLS / "node_modules" / ".bin" / "ast-grep"
    semgrep = TOOLS / "semgrep-venv" / "bin" / "semgrep"
    config_dir = TOOLS / "config"
    config_dir.mkdir(parents=True, exist_ok=True)
    (config_dir / "eslint.config.mjs").write_text(ESLINT_CONFIG)
    (config_dir / "semgrep.yml").write_text(SEMGREP_RULE)
    return {
        "ESLint (1 rule)": [str(eslint), "--no-config-lookup", "-c", str(config_dir / "eslint.config.mjs"),
                            "--no-warn-ignored", str(corpus)] if eslint.exists() else None,
        "Semgrep (1 rule)": [str(semgrep), "scan", "--metrics=off", "--disable-version-check", "--quiet",
                             "--config", str(config_dir / "semgrep.yml"), str(corpus)] if semgrep.exists() else None,
        "ast-grep (1 pattern)": [str(ast_grep), "run", "--pattern", AST_GREP_PATTERN, "--lang", "js",
                                 str(corpus)] if ast_grep.exists() else None,
    }


class Measured:
    """One command of a corpus's table, with what must happen before each of its runs."""

    def __init__(self, label: str, command: list[str] | None, before_each=None, cwd: Path | None = None) -> None:
        self.label, self.command, self.before_each, self.cwd = label, command, before_each, cwd
        self.times: list[float] = []
        self.peak = 0  # KiB
        self.failure: str | None = None

    def run_once(self) -> None:
        if self.failure is not None or self.command is None:
            return
        if self.before_each is not None:
            self.before_each()
        with tempfile.NamedTemporaryFile("r") as rss:
            start = time.perf_counter()
            completed = subprocess.run(["/usr/bin/time", "-q", "-f", "%M", "-o", rss.name, *self.command],
                                       stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, cwd=self.cwd)
            elapsed = time.perf_counter() - start
            if completed.returncode not in (0, 1):  # 1: findings
                self.failure = f"exit {completed.returncode}: {completed.stderr.decode(errors='replace')[-300:]}"
                return
            self.times.append(elapsed)
            try:
                self.peak = max(self.peak, int(rss.read().strip().splitlines()[-1]))
            except (ValueError, IndexError):
                pass

    def row(self) -> tuple[str, float, float, int]:
        if self.command is None:
            return (f"{self.label}: not installed", float("nan"), float("nan"), 0)
        if self.failure is not None or not self.times:
            return (f"{self.label}: failed", float("nan"), float("nan"), 0)
        return (self.label, statistics.median(self.times), min(self.times), self.peak)


def measure_in_rounds(measured: list[Measured], runs: int) -> list[tuple[str, float, float, int]]:
    """Median and minimum wall seconds and peak RSS of each command over ``runs`` rounds.

    Each round runs every command once, in table order, so a machine whose speed drifts during the
    benchmark (a shared or throttled host) slows the floors and the linters alike and the ratios stay fair.
    """
    for _ in range(runs):
        for entry in measured:
            entry.run_once()
    for entry in measured:
        if entry.failure is not None:
            print(f"{entry.label} failed: {entry.failure}", file=sys.stderr)
    return [entry.row() for entry in measured]


def corpus_size(path: Path) -> tuple[int, int]:
    sys.path.insert(0, str(HERE.parent))
    from webmcp_lint.discovery import discover

    files = discover([str(path)]).files
    return len(files), sum(file.stat().st_size for file in files)


def bench_corpus(name: str, corpus: Path, runs: int) -> list[tuple[str, float, float, int]]:
    cache = Path(tempfile.mkdtemp(prefix="webmcp-lint-cache-"))
    lint = [PYTHON, "-m", "webmcp_lint", "check", str(corpus), "--format", "json", "--exit-zero"]
    has_cache = "--no-cache" in subprocess.run([*lint[:4], "--help"], capture_output=True, text=True).stdout
    measured = [Measured(label, [PYTHON, str(HERE / "floors.py"), mode, str(corpus)])
                for label, mode in (("read floor", "read"), ("read + prefilter floor", "prefilter"),
                                    ("parse floor (1 process)", "parse"))]
    if has_cache:  # each warm run follows a cold one, which fills the cache it reads
        measured.append(Measured("webmcp-lint cold", [*lint, "--cache-dir", str(cache)],
                                 before_each=lambda: shutil.rmtree(cache, ignore_errors=True)))
        measured.append(Measured("webmcp-lint warm (cache)", [*lint, "--cache-dir", str(cache)]))
    else:
        measured.append(Measured("webmcp-lint (no cache yet)", lint))
    for label, command in tool_commands(corpus).items():  # from inside the corpus: ESLint only lints files there
        measured.append(Measured(label, command, cwd=corpus))
    rows = measure_in_rounds(measured, runs)
    shutil.rmtree(cache, ignore_errors=True)
    return rows


def table(name: str, corpus: Path, rows, runs: int) -> str:
    files, size = corpus_size(corpus)
    reference = {label: median for label, median, _, _ in rows}
    floor_prefilter = reference.get("read + prefilter floor")
    floor_parse = reference.get("parse floor (1 process)")
    lines = [f"### {name}: {files:,} files, {size / 1e6:.1f} MB ({runs} runs each)", "",
             "| measurement | median s | min s | peak RSS MB | × prefilter floor | × parse floor |",
             "|---|---:|---:|---:|---:|---:|"]
    for label, median, fastest, peak in rows:
        if median != median:  # NaN: not installed, or failed
            lines.append(f"| {label} | – | – | – | – | – |")
            continue
        lines.append(f"| {label} | {median:.3f} | {fastest:.3f} | {peak / 1024:.0f} | "
                     f"{median / floor_prefilter:.2f} | {median / floor_parse:.2f} |")
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--setup-tools", action="store_true")
    parser.add_argument("--skip-npm", action="store_true", help="only the generated WebMCP corpus")
    arguments = parser.parse_args()
    os.chdir(HERE.parent)
    if arguments.setup_tools:
        setup_tools()
    sections = []
    compile_bytecode()
    webmcp = build_webmcp_corpus()
    sections.append(table("Generated WebMCP corpus", webmcp, bench_corpus("webmcp", webmcp, arguments.runs), arguments.runs))
    if not arguments.skip_npm:
        npm = CORPUS / "npm"
        build_npm_corpus(npm)
        sections.append(table("npm package sources", npm, bench_corpus("npm", npm, arguments.runs), arguments.runs))
    machine = (f"{platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}, "
               f"{platform.system()} {platform.release()}")
    report = "# Benchmark results\n\nMachine: " + machine + "\n\nCommand: `python bench/run.py`\n\n" + "\n".join(sections)
    (HERE / "RESULTS.md").write_text(report, encoding="utf-8")
    print(report)


if __name__ == "__main__":
    main()

"""Lint real published code: npm packages that hold WebMCP code, and large JS/TS codebases.

    python bench/realworld.py [--keep]

Packs pinned packages from the npm registry into a scratch folder, lints all
of it in one run, and reports files, skips, findings per rule, wall time, and
every internal error (there must be none). Read the findings by hand: the
point is to see which look wrong on code nobody wrote for this linter.
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path

PACKAGES = [
    "@mcp-b/global", "@mcp-b/react-webmcp", "usewebmcp", "webmcp-types",
    "@vueuse/core@15.0.0", "@angular/core@22.2.6", "@angular/forms@22.2.6", "typescript@5.9.3",
]


def unpack(target: Path) -> None:
    with tempfile.TemporaryDirectory() as scratch:
        for package in PACKAGES:
            completed = subprocess.run(["npm", "pack", "--silent", package], cwd=scratch, capture_output=True, text=True)
            if completed.returncode != 0:
                print(f"skipped {package}: npm pack failed: {completed.stderr.strip()[:200]}", file=sys.stderr)
        for archive in sorted(Path(scratch).glob("*.tgz")):
            with tarfile.open(archive) as bundle:
                bundle.extractall(target / archive.name.removesuffix(".tgz"), filter="data")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--keep", action="store_true", help="keep the unpacked corpus and print its path")
    arguments = parser.parse_args()
    corpus = Path(tempfile.mkdtemp(prefix="webmcp-lint-realworld-"))
    unpack(corpus)
    # Published packages keep their code in dist/ and build/, which a project lint skips by default.
    (corpus / ".webmcp-lint.toml").write_text("exclude = []\nmax-file-size = 33554432\n", encoding="utf-8")
    start = time.perf_counter()
    completed = subprocess.run([sys.executable, "-m", "webmcp_lint", "check", str(corpus), "--format", "json",
                                "--exit-zero"], capture_output=True, text=True, env={**os.environ, "NO_COLOR": "1"})
    elapsed = time.perf_counter() - start
    report = json.loads(completed.stdout) if completed.stdout.strip() else {"diagnostics": [], "summary": {}}
    per_rule = collections.Counter(d["code"] for d in report["diagnostics"])
    internal = [line for line in completed.stderr.splitlines() if "internal error" in line or "Traceback" in line]
    print(f"packages: {', '.join(PACKAGES)}")
    print(f"summary: {report['summary']}  exit: {completed.returncode}  wall: {elapsed:.2f} s")
    for code, count in sorted(per_rule.items()):
        print(f"  {code}: {count}")
    print(f"internal errors: {len(internal)}")
    for line in internal[:20]:
        print(f"  {line}")
    for diagnostic in report["diagnostics"][:60]:
        print(f"  {diagnostic['path'].replace(str(corpus), '')}:{diagnostic['line']}: {diagnostic['code']} {diagnostic['message'][:110]}")
    if arguments.keep:
        print(f"corpus kept in {corpus}")
    else:
        subprocess.run(["rm", "-rf", str(corpus)])
    sys.exit(1 if internal or completed.returncode == 2 else 0)


if __name__ == "__main__":
    main()

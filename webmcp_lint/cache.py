"""The on-disk cache of unit results, Ruff-style: ``.webmcp_lint_cache/<version>-<build>/``.

One JSON entry per key (a digest of the file's text, the settings and the
linter version), written atomically (a temporary file, then ``os.replace``),
so concurrent runs never see half an entry. The cache root holds a
``CACHEDIR.TAG`` (backup tools skip it) and a ``.gitignore`` of ``*``. An
entry that cannot be read or is not what this version writes is a miss,
never an error; failing to write one only costs the next run the work.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from functools import lru_cache
from pathlib import Path

from webmcp_lint import __version__
from webmcp_lint.discovery import OWN_CACHE_DIR

DEFAULT_CACHE_DIR = OWN_CACHE_DIR  # relative to the current directory; discovery skips it by this name
CACHEDIR_TAG = ("Signature: 8a477f597d28d172789f06886806bc55\n"
                "# This file is a cache directory tag created by webmcp-lint.\n"
                "# For information about cache directory tags see https://bford.info/cachedir/\n")


def digest(*parts: str) -> str:
    hasher = hashlib.sha256()
    for part in parts:
        hasher.update(part.encode("utf-8", errors="surrogatepass"))
        hasher.update(b"\0")
    return hasher.hexdigest()


@lru_cache(maxsize=1)
def build_fingerprint() -> str:
    """The version plus a digest of the installed package's files (names, sizes, mtimes).

    A release never changes under a version number, but a development install does: without this, an
    edited rule would keep answering from entries its old code wrote."""
    package = Path(__file__).resolve().parent
    stats = []
    for path in sorted(package.rglob("*.py")):
        try:
            status = path.stat()
        except OSError:
            continue
        stats.append(f"{path.relative_to(package).as_posix()}:{status.st_size}:{status.st_mtime_ns}")
    return f"{__version__}-{digest(*stats)[:12]}"


class Cache:
    """Entries under ``root/<version>-<build>/``; ``root`` is created (with its tag files) on the first write."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.directory = root / build_fingerprint()
        self._prepared = False  # whether this run made sure the directory exists (one stat, not one per entry)

    def load(self, key: str) -> dict | None:
        try:
            entry = json.loads((self.directory / f"{key}.json").read_bytes())
        except (OSError, ValueError):
            return None
        return entry if isinstance(entry, dict) else None

    def store(self, key: str, entry: dict) -> None:
        try:
            self._prepare()
            handle, temporary = tempfile.mkstemp(dir=self.directory, prefix=f".{key[:16]}-", suffix=".tmp")
            try:
                with os.fdopen(handle, "w", encoding="utf-8") as stream:
                    stream.write(json.dumps(entry, separators=(",", ":")))  # dumps encodes in C, dump does not
                os.replace(temporary, self.directory / f"{key}.json")
            except BaseException:
                os.unlink(temporary)
                raise
        except OSError:
            pass  # a read-only or full disk: the run's result stands, the next run recomputes

    def _prepare(self) -> None:
        if self._prepared:
            return
        if not self.directory.is_dir():
            self.directory.mkdir(parents=True, exist_ok=True)
            for name, text in (("CACHEDIR.TAG", CACHEDIR_TAG), (".gitignore", "*\n")):
                marker = self.root / name
                if not marker.exists():
                    marker.write_text(text, encoding="utf-8")
        self._prepared = True

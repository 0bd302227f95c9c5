"""The on-disk cache of unit results, Ruff-style: ``.webmcp_lint_cache/<version>-<build>/<settings>.cache``.

One file per settings digest holds every unit's entry, by the unit's path
(one entry a file: a file's new entry replaces its old one), each under its
key (a digest of the file's text, the settings and the linter version). A
run reads the file once when it starts and, only if it computed something,
writes it once when it ends: from the main process, to a temporary file
then ``os.replace``, so a run never sees half a file. Two runs at once: the
last to write wins, and the other's new entries are computed again next
time. The cache root holds a ``CACHEDIR.TAG`` (backup tools skip it) and a
``.gitignore`` of ``*``. A file or entry that cannot be read or is not what
this version writes is a miss, never an error; failing to write only costs
the next run the work.

The file is a header, the SHA-256 of the payload and the payload in
``marshal`` (the format of Python's own ``.pyc`` caches: a third of JSON's
size, several times faster both ways); the digest turns a torn or corrupt
file into a miss before ``marshal`` reads it.
"""

from __future__ import annotations

import hashlib
import marshal
import os
from functools import lru_cache
from pathlib import Path

from webmcp_lint import __version__
from webmcp_lint.discovery import OWN_CACHE_DIR

DEFAULT_CACHE_DIR = OWN_CACHE_DIR  # relative to the current directory; discovery skips it by this name
CACHEDIR_TAG = ("Signature: 8a477f597d28d172789f06886806bc55\n"
                "# This file is a cache directory tag created by webmcp-lint.\n"
                "# For information about cache directory tags see https://bford.info/cachedir/\n")
FILE_HEADER = b"webmcp-lint cache 1\n"
PAYLOAD_DIGEST_SIZE = 32  # SHA-256
# The slot of an entry that belongs to no single file (the page rules' pass over every file).
PROJECT_SLOT = ""


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
    return f"{__version__}-{digest(*sorted(_module_stats(Path(__file__).resolve().parent)))[:12]}"


def _module_stats(package: Path) -> list[str]:
    """``path:size:mtime`` of every ``.py`` file under ``package`` (scandir: a third of rglob's time)."""
    stats = []
    pending = [""]
    while pending:
        relative = pending.pop()
        try:
            with os.scandir(package / relative if relative else package) as entries:
                for entry in entries:
                    name = f"{relative}/{entry.name}" if relative else entry.name
                    if entry.is_dir(follow_symlinks=False):
                        pending.append(name)
                    elif entry.name.endswith(".py"):
                        status = entry.stat()
                        stats.append(f"{name}:{status.st_size}:{status.st_mtime_ns}")
        except OSError:
            continue
    return stats


class Cache:
    """The entries of one settings digest: read from ``root/<version>-<build>/<settings>.cache`` at once, written
    back by ``save``; ``root`` is created (with its tag files) by the first save."""

    def __init__(self, root: Path, settings_key: str) -> None:
        self.root = root
        self.directory = root / build_fingerprint()
        self.path = self.directory / f"{settings_key[:32]}.cache"
        self._slots = read_slots(self.path)  # slot (a unit's absolute path) -> (key, entry)
        self._used: set[str] = set()  # the slots this run loaded or stored (its files exist)
        self._changed = False

    def load(self, slot: str, key: str) -> dict | None:
        self._used.add(slot)
        held = self._slots.get(slot)
        if type(held) is tuple and len(held) == 2 and held[0] == key and type(held[1]) is dict:
            return held[1]
        return None

    def store(self, slot: str, key: str, entry: dict) -> None:
        self._used.add(slot)
        self._slots[slot] = (key, entry)
        self._changed = True

    def save(self) -> None:
        """Write the entries back if this run stored any, without those of files that no longer exist."""
        if not self._changed:
            return
        slots = {slot: held for slot, held in self._slots.items()
                 if slot in self._used or slot == PROJECT_SLOT or os.path.isfile(slot)}
        payload = marshal.dumps(slots)
        temporary = self.path.with_name(f".{self.path.name}.{os.getpid()}.tmp")
        try:
            self._prepare()
            try:
                with open(temporary, "wb") as stream:
                    stream.write(FILE_HEADER + hashlib.sha256(payload).digest() + payload)
                os.replace(temporary, self.path)
            except BaseException:
                temporary.unlink(missing_ok=True)
                raise
        except OSError:
            pass  # a read-only or full disk: the run's result stands, the next run recomputes
        self._changed = False

    def _prepare(self) -> None:
        if not self.directory.is_dir():
            self.directory.mkdir(parents=True, exist_ok=True)
            for name, text in (("CACHEDIR.TAG", CACHEDIR_TAG), (".gitignore", "*\n")):
                marker = self.root / name
                if not marker.exists():
                    marker.write_text(text, encoding="utf-8")


def read_slots(path: Path) -> dict:
    """The slots a cache file holds; none if it is missing, torn, corrupt or of another format."""
    try:
        content = path.read_bytes()
    except OSError:
        return {}
    start = len(FILE_HEADER) + PAYLOAD_DIGEST_SIZE
    if not content.startswith(FILE_HEADER) or content[len(FILE_HEADER):start] != hashlib.sha256(
            memoryview(content)[start:]).digest():
        return {}
    try:
        slots = marshal.loads(memoryview(content)[start:])
    except (EOFError, ValueError, TypeError):
        return {}
    return slots if type(slots) is dict else {}

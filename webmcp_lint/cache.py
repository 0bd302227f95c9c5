"""The on-disk cache of unit results, Ruff-style: ``.webmcp_lint_cache/<version>-<build>/<settings>/<shard>.cache``.

Each settings digest has a folder of SHARDS files; a unit's entry lives in the
shard its path hashes to (one entry a file: a file's new entry replaces its
old one), under its key (a digest of the file's text, the settings and the
linter version). A run reads only the shards holding its units, when it first
needs them, and writes back only those it changed, once, when it ends: from
the main process, each to a temporary file then ``os.replace``, so a run never
sees half a file; a shard it read that holds entries of deleted files is
written back without them. So a pre-commit run over three files reads three
small files however large the cache has grown, and a whole run writes at most
SHARDS files, not one per unit. Two runs at once: the last to write a shard wins, and the
other's new entries there are computed again next time. The cache root holds
a ``CACHEDIR.TAG`` (backup tools skip it) and a ``.gitignore`` of ``*``. A
file or entry that cannot be read or is not what this version writes is a
miss, never an error; failing to write only costs the next run the work.

An entry is kept in ``marshal`` (the format of Python's own ``.pyc`` caches:
a third of JSON's size, several times faster both ways) with a digest of
those bytes (digests.py), both made where the entry is computed, while other
processes still lint (``sealed``): a run's serial end only writes. A shard is
a header, the digest and size of its index, the index (in marshal: each
slot's key, entry digest and place) and the entries' bytes. A digest is
checked before ``marshal`` reads what it covers, so a torn or corrupt shard
or entry is a miss, never a crash; entries are not copied out of a shard
until one is loaded.
"""

from __future__ import annotations

import marshal
import os
from functools import lru_cache
from pathlib import Path

from webmcp_lint import __version__
from webmcp_lint.digests import DIGEST_SIZE, new_hash
from webmcp_lint.discovery import OWN_CACHE_DIR

DEFAULT_CACHE_DIR = OWN_CACHE_DIR  # relative to the current directory; discovery skips it by this name
CACHEDIR_TAG = ("Signature: 8a477f597d28d172789f06886806bc55\n"
                "# This file is a cache directory tag created by webmcp-lint.\n"
                "# For information about cache directory tags see https://bford.info/cachedir/\n")
FILE_HEADER = b"webmcp-lint cache 5\n"
INDEX_SIZE_BYTES = 4  # a shard's index's size, little-endian, after the index's digest
SHARDS = 32  # files per settings digest: few enough for a whole run to write, small enough for a short run to read
# The slot of an entry that belongs to no single file (the page rules' pass over every file).
PROJECT_SLOT = ""


# An entry as Cache.store takes it: the digest of the entry's marshal bytes, and those bytes.
Sealed = tuple[bytes, bytes]


def sealed(entry: dict) -> Sealed:
    """``entry`` as ``Cache.store`` takes it (marshal raises ValueError on a value it cannot write)."""
    entry_bytes = marshal.dumps(entry)
    return new_hash(entry_bytes).digest(), entry_bytes


def digest(*parts: str) -> str:
    hasher = new_hash()
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
                        try:
                            status = entry.stat()
                        except OSError:  # vanished or unreadable: the other files still count
                            continue
                        stats.append(f"{name}:{status.st_size}:{status.st_mtime_ns}")
        except OSError:
            continue
    return stats


class Cache:
    """The entries of one settings digest, in ``root/<version>-<build>/<settings>/``: each shard read on first use,
    the changed ones written back by ``save``; ``root`` is created (with its tag files) by the first store."""

    def __init__(self, root: Path, settings_key: str) -> None:
        self.root = root
        self.directory = root / build_fingerprint() / settings_key[:32]
        self._shards: dict[int, dict] = {}  # shard number -> its slots (a unit's path -> (key, *Sealed))
        self._used: set[str] = set()  # the slots of this run's units: kept whether or not their file still exists
        self._changed: set[int] = set()
        self._prepared = False
        # No folder when the run started (a first run): every shard starts empty, none is read.
        self._absent = not self.directory.is_dir()

    def has_entries(self) -> bool:
        """Whether these settings had a folder when the run started (a first run's has nothing to look up)."""
        return not self._absent

    def shard_path(self, number: int) -> Path:
        return self.directory / f"{number:02d}.cache"

    def _shard_of(self, slot: str) -> tuple[int, dict]:
        number = shard_number(slot)
        slots = self._shards.get(number)
        if slots is None:
            slots = self._shards[number] = {} if self._absent else read_slots(self.shard_path(number))
        return number, slots

    def load(self, slot: str, key: str) -> dict | None:
        """The entry kept for ``slot`` under ``key``; None when there is none, or it is not a sound entry."""
        self._used.add(slot)
        held = self._shard_of(slot)[1].get(slot)
        if type(held) is not tuple or len(held) != 3 or held[0] != key:
            return None
        _, entry_digest, entry_bytes = held
        if new_hash(entry_bytes).digest() != entry_digest:
            return None
        try:
            entry = marshal.loads(entry_bytes)
        except (EOFError, ValueError, TypeError):
            return None
        return entry if type(entry) is dict else None

    def store(self, slot: str, key: str, sealed_entry: Sealed) -> None:
        """Kept for ``save``; the first store makes the folder ``save`` will write to (a run stores its entries as
        they come, mostly while other processes still lint, and saves only at its serial end)."""
        self._used.add(slot)
        number, slots = self._shard_of(slot)
        slots[slot] = (key, *sealed_entry)
        self._changed.add(number)
        try:
            self._prepare()
        except OSError:  # a read-only or full disk: save finds it cannot write either
            pass

    def save(self) -> None:
        """Write back the shards this run read that changed: it stored entries there, or some of their entries
        belong to files that no longer exist (dropped)."""
        try:
            for number, slots in sorted(self._shards.items()):
                kept = {slot: held for slot, held in slots.items()
                        if slot in self._used or slot == PROJECT_SLOT or os.path.isfile(slot)}
                if number in self._changed or len(kept) < len(slots):
                    self._prepare()  # done by the first store, unless only entries of deleted files go
                    _write_atomically(self.shard_path(number), _shard_bytes(kept))
                    self._shards[number] = kept
        except OSError:  # a read-only or full disk: the run's result stands, the next run recomputes
            pass
        self._changed.clear()

    def _prepare(self) -> None:
        """The folder and the root's tag files, made by the first entry stored (looked for once a run)."""
        if self._prepared:
            return
        self._prepared = True
        if not self.directory.is_dir():
            self.directory.mkdir(parents=True, exist_ok=True)
            for name, text in (("CACHEDIR.TAG", CACHEDIR_TAG), (".gitignore", "*\n")):
                marker = self.root / name
                if not marker.exists():
                    marker.write_text(text, encoding="utf-8")


def shard_number(slot: str) -> int:
    """The shard holding a slot's entry (the same in every process and run: not Python's salted hash)."""
    return new_hash(slot.encode("utf-8", errors="surrogatepass")).digest()[0] % SHARDS


def _write_atomically(path: Path, payload: bytes) -> None:
    """The shard through a temporary file of a name no other process (or container sharing the disk) uses."""
    temporary = path.with_name(f".{path.name}.{os.getpid()}.{os.urandom(6).hex()}.tmp")
    try:
        with open(temporary, "wb") as stream:
            stream.write(payload)
        os.replace(temporary, path)
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise


def _shard_bytes(slots: dict) -> bytes:
    """A shard's file: the header, the index's digest and size, the index, then the entries' bytes it places."""
    index = {}
    blobs = []
    end = 0
    for slot, (key, entry_digest, entry_bytes) in slots.items():
        index[slot] = (key, entry_digest, end, end + len(entry_bytes))
        blobs.append(entry_bytes)
        end += len(entry_bytes)
    packed = marshal.dumps(index)
    return b"".join((FILE_HEADER, new_hash(packed).digest(), len(packed).to_bytes(INDEX_SIZE_BYTES, "little"),
                     packed, *blobs))


def read_slots(path: Path) -> dict:
    """The slots a cache file holds (a unit's path -> (key, entry digest, a view of the entry's bytes in the file));
    none if it is missing, torn, corrupt or of another format. An entry's digest is checked when it is loaded."""
    try:
        content = path.read_bytes()
    except OSError:
        return {}
    index_start = len(FILE_HEADER) + DIGEST_SIZE + INDEX_SIZE_BYTES
    index_end = index_start + int.from_bytes(content[index_start - INDEX_SIZE_BYTES:index_start], "little")
    packed = content[index_start:index_end]
    if not content.startswith(FILE_HEADER) or len(content) < index_end \
            or new_hash(packed).digest() != content[len(FILE_HEADER):len(FILE_HEADER) + DIGEST_SIZE]:
        return {}
    try:
        index = marshal.loads(packed)
        blobs = memoryview(content)[index_end:]
        return {slot: (key, entry_digest, blobs[start:end]) for slot, (key, entry_digest, start, end) in index.items()
                if type(slot) is str}
    except (EOFError, ValueError, TypeError, AttributeError):  # an index of another shape than this version writes
        return {}

"""The hash the cache keys, checks and files its entries with: BLAKE2b of 32 bytes.

Taken from CPython's own ``_blake2`` module: importing ``hashlib`` loads OpenSSL, about 4 ms of every check's
serial start, before any file is linted. OpenSSL's SHA-256 hashes faster where the processor helps it, but a
cold run over the 200-file benchmark hashes about 2.5 MB (under 3 ms with BLAKE2b, shared by the processes).
"""

from __future__ import annotations

try:
    from _blake2 import blake2b
except ImportError:  # an interpreter without CPython's module
    from hashlib import blake2b

DIGEST_SIZE = 32


def new_hash(data: bytes = b"") -> blake2b:
    """A hash object over ``data`` (``update`` adds more; ``digest()`` is DIGEST_SIZE bytes)."""
    return blake2b(data, digest_size=DIGEST_SIZE)

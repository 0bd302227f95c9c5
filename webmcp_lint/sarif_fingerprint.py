"""SARIF ``partialFingerprints.primaryLocationLineHash``, computed as GitHub does.

GitHub code scanning matches an alert across commits by this fingerprint. When
an uploaded result has none, the ``github/codeql-action`` upload step computes
it (``src/fingerprints.ts``, function ``hash``). Emitting exactly the same value
ourselves keeps alerts stable whether or not the upload step fills it in, and
does not clash with a value the action would compute (the action keeps an
existing value and only warns when it differs).

The algorithm (the action's, computed here by whole-text and C-level steps):

* The file is decoded as UTF-8 (invalid bytes become U+FFFD, a BOM is kept)
  and walked as UTF-16 code units, like JavaScript's ``charCodeAt``.
* Spaces and tabs are dropped everywhere. CR becomes LF; an LF directly after
  a CR is dropped (so CRLF counts once). Any dropped space/tab also clears the
  "previous was CR" state, exactly as in the action.
* After the content, one EOF marker (65535) is fed, then zeros.
* A line starts at the first character kept after a line end (or at the file
  start); its raw hash is the polynomial rolling hash, base 37 and modulo
  2**64 (a ``Long`` in the action), of the 100 kept characters starting there,
  which may run into the following lines. It is printed as unsigned lowercase
  hex without leading zeros.
* Each hash gets a ``:N`` suffix: N counts how often that same raw hash has
  been emitted so far, in line order, starting at 1.

Because a file ending in a line break is followed by the EOF marker, that
empty last "line" gets a hash too: ``b"a\\n"`` has two hashes, ``b"a"`` and
``b""`` have one each.
"""

from __future__ import annotations

from array import array
from itertools import accumulate
from operator import mul
from typing import Iterator

__all__ = ["line_hashes", "primary_location_line_hash"]

_LF = 0x0A
_EOF = 65535
_BLOCK_SIZE = 100
_MOD = 37
_MASK = (1 << 64) - 1  # Long arithmetic wraps modulo 2**64
_INVERSE = pow(_MOD, -1, 1 << 64)  # 37 is odd, so it has an inverse modulo 2**64
_CHUNK = 1 << 16  # the line starts one prefix sum serves: bounds the lists below whatever a file's size
_POWERS = [1]  # 37**k modulo 2**64, as far as the longest chunk hashed so far needs
_INVERSE_POWERS = [1]  # 37**-k modulo 2**64


def _grow_powers(length: int) -> None:
    while len(_POWERS) < length:
        _POWERS.append(_POWERS[-1] * _MOD & _MASK)
        _INVERSE_POWERS.append(_INVERSE_POWERS[-1] * _INVERSE & _MASK)


def _kept_code_units(content: bytes) -> array:
    """The UTF-16 units the action feeds its hash, then the EOF marker and the zeros after it.

    Decoded like Node's ``Buffer.toString("utf8")``; a character outside the BMP counts as two surrogate units,
    as ``charCodeAt`` does. Spaces and tabs are dropped, CR becomes LF and the LF of a CRLF is dropped: a space
    or tab between a CR and an LF keeps both, as the action's "previous was CR" state is cleared by it.
    """
    text = content.decode("utf-8", errors="replace")
    kept = text.replace("\r\n", "\n").replace("\r", "\n").replace(" ", "").replace("\t", "")
    units = array("H")
    # After decoding with "replace" the text holds no lone surrogates, so this encoding cannot fail.
    units.frombytes(kept.encode("utf-16-le"))
    if units.itemsize != 2:  # pragma: no cover - "H" is 2 bytes on CPython
        raise RuntimeError("unexpected array item size")
    if array("H", [1]).tobytes() != b"\x01\x00":  # big-endian host
        units.byteswap()
    units.append(_EOF)
    units.extend(bytes(_BLOCK_SIZE))
    return units


def line_hashes(content: bytes) -> list[str]:
    """Return the fingerprint of every line: ``result[n - 1]`` is line ``n``.

    Each entry is the full ``primaryLocationLineHash`` value, ``"<hex>:<N>"``,
    as the upload action would write it for a result whose
    ``region.startLine`` is ``n``.

    The action's rolling hash of the 100 units ``u[p:p+100]`` from a line's
    start is ``sum(u[p+j] * 37**(99-j))``: ``37**(p+99)`` times the sum of
    ``u[k] * 37**-k`` over the window (modulo 2**64, where 37 has an inverse),
    a difference of two prefix sums. C loops make those (``accumulate``,
    ``map``) instead of a Python step per character; ``p`` counts from the
    start of a chunk of lines.
    """
    units = _kept_code_units(content)
    eof = len(units) - _BLOCK_SIZE - 1
    hashes = []
    hash_counts: dict[str, int] = {}
    chunk_start = chunk_end = 0
    prefix: list[int] = []
    for start in _line_starts(units, eof):
        if start >= chunk_end:
            chunk_start, chunk_end = start, min(start + _CHUNK, eof + 1)
            window_end = chunk_end + _BLOCK_SIZE - 1  # where the window of the chunk's last possible line ends
            _grow_powers(window_end - chunk_start)
            prefix = list(accumulate(map(mul, units[chunk_start:window_end], _INVERSE_POWERS), initial=0))
        offset = start - chunk_start
        value = format(_POWERS[offset + _BLOCK_SIZE - 1] * (prefix[offset + _BLOCK_SIZE] - prefix[offset]) & _MASK,
                       "x")
        count = hash_counts[value] = hash_counts.get(value, 0) + 1
        hashes.append(f"{value}:{count}")
    return hashes


def _line_starts(units: array, eof: int) -> Iterator[int]:
    """Where each line starts: at the first unit, and after each LF (the EOF marker too, after a last LF)."""
    start = 0
    while True:
        yield start
        if start == eof:
            return
        try:
            start = units.index(_LF, start, eof) + 1
        except ValueError:
            return


def primary_location_line_hash(content: bytes, line: int) -> str:
    """Return ``primaryLocationLineHash`` for 1-based ``line`` of ``content``.

    The ``:N`` occurrence suffix depends on the whole file (earlier lines with
    the same raw hash), so the file is hashed in full. A line the algorithm
    does not know (below 1, or past the last hashed line) raises
    ``ValueError``: the action would leave such a result without a fingerprint.
    """
    if isinstance(line, bool) or not isinstance(line, int):
        raise TypeError("line must be an int")
    hashes = line_hashes(content)
    if line < 1 or line > len(hashes):
        raise ValueError(f"line {line} is outside 1..{len(hashes)}")
    return hashes[line - 1]

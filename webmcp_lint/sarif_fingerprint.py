"""SARIF ``partialFingerprints.primaryLocationLineHash``, computed as GitHub does.

GitHub code scanning matches an alert across commits by this fingerprint. When
an uploaded result has none, the ``github/codeql-action`` upload step computes
it (``src/fingerprints.ts``, function ``hash``). Emitting exactly the same value
ourselves keeps alerts stable whether or not the upload step fills it in, and
does not clash with a value the action would compute (the action keeps an
existing value and only warns when it differs).

The algorithm, ported step by step:

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

__all__ = ["line_hashes", "primary_location_line_hash"]

_TAB = 0x09
_SPACE = 0x20
_LF = 0x0A
_CR = 0x0D
_EOF = 65535
_BLOCK_SIZE = 100
_MOD = 37
_MASK = (1 << 64) - 1  # Long arithmetic wraps modulo 2**64
_FIRST_MOD = pow(_MOD, _BLOCK_SIZE, 1 << 64)


def _utf16_code_units(content: bytes) -> array:
    """Decode like Node's ``Buffer.toString("utf8")`` and split into UTF-16 units.

    The action hashes ``charCodeAt`` values, so a character outside the BMP
    counts as two surrogate units.
    """
    text = content.decode("utf-8", errors="replace")
    units = array("H")
    # After decoding with "replace" the text holds no lone surrogates, so this
    # encoding cannot fail.
    units.frombytes(text.encode("utf-16-le"))
    if units.itemsize != 2:  # pragma: no cover - "H" is 2 bytes on CPython
        raise RuntimeError("unexpected array item size")
    if array("H", [1]).tobytes() != b"\x01\x00":  # big-endian host
        units.byteswap()
    return units


def line_hashes(content: bytes) -> list[str]:
    """Return the fingerprint of every line: ``result[n - 1]`` is line ``n``.

    Each entry is the full ``primaryLocationLineHash`` value, ``"<hex>:<N>"``,
    as the upload action would write it for a result whose
    ``region.startLine`` is ``n``.
    """
    window = [0] * _BLOCK_SIZE
    # Line number that starts at each window slot, -1 where none starts.
    line_numbers = [-1] * _BLOCK_SIZE
    hashes: list[str | None] = []
    hash_counts: dict[str, int] = {}
    raw = 0
    index = 0
    line_number = 0
    line_start = True
    prev_cr = False

    def output_hash() -> None:
        value = format(raw, "x")
        count = hash_counts.get(value, 0) + 1
        hash_counts[value] = count
        number = line_numbers[index]
        # Lines are emitted in increasing order, one each.
        while len(hashes) < number:
            hashes.append(None)
        hashes[number - 1] = f"{value}:{count}"
        line_numbers[index] = -1

    def update_hash(current: int) -> None:
        nonlocal raw, index
        begin = window[index]
        window[index] = current
        raw = (_MOD * raw + current - _FIRST_MOD * begin) & _MASK
        index = (index + 1) % _BLOCK_SIZE

    def process_character(current: int) -> None:
        nonlocal line_start, line_number, prev_cr
        if current == _SPACE or current == _TAB or (prev_cr and current == _LF):
            prev_cr = False
            return
        if current == _CR:
            current = _LF
            prev_cr = True
        else:
            prev_cr = False
        if line_numbers[index] != -1:
            output_hash()
        if line_start:
            line_start = False
            line_number += 1
            line_numbers[index] = line_number
        if current == _LF:
            line_start = True
        update_hash(current)

    for unit in _utf16_code_units(content):
        process_character(unit)
    process_character(_EOF)

    # Flush the lines whose 100-character window is still open.
    for _ in range(_BLOCK_SIZE):
        if line_numbers[index] != -1:
            output_hash()
        update_hash(0)

    if len(hashes) != line_number or any(h is None for h in hashes):
        raise AssertionError("every line must receive exactly one hash")
    return [h for h in hashes if h is not None]


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

"""Tests for the port of codeql-action's primaryLocationLineHash.

The expected values in VECTORS were produced by running the `hash` function of
github/codeql-action src/fingerprints.ts (types stripped, the real `long`
package) under Node on the same bytes. A second, independent oracle below
computes the same numbers from the closed form of the rolling hash.
"""

import random

import pytest

from webmcp_lint.sarif_fingerprint import line_hashes, primary_location_line_hash

EOF_HASH = "c129715d7a2bc9a3:1"  # 65535 * 37**99 mod 2**64: the line after a final newline

VECTORS = [
    (b"", [EOF_HASH]),
    (b"a", ["53b5d4aabe50d64:1"]),
    (b"a\n", ["243cbaa4685aab12:1", EOF_HASH]),
    (b"x\ny\n", ["1f7b9f1ae97918ec:1", "c33be7e0cf7c3ca:1", EOF_HASH]),
    (
        b"a\r\nb\rc\n",
        ["52668e89249e7477:1", "9ed7939040abc6c0:1", "3791504be0bd17cc:1", EOF_HASH],
    ),
    (b"  \tfoo  bar\n", ["bb324821f66ad5e2:1", EOF_HASH]),
    # A space between CR and LF resets the CRLF pairing: two line ends.
    (b"\r \n", ["5b5d4caf73a13177:1", "3c5bef55b72b93c9:1", EOF_HASH]),
    (b"a\n\n", ["173cc415891f93a8:1", "3c5bef55b72b93c9:1", EOF_HASH]),
    (b"\xef\xbb\xbfa\n", ["25afd31b599dedcd:1", EOF_HASH]),  # BOM is hashed
    (b"\xf0\x9f\x98\x80\n", ["49e42825ed591e1a:1", EOF_HASH]),  # surrogate pair
    (b"a\xffb\n", ["9f7bd17d959811b9:1", EOF_HASH]),  # invalid byte -> U+FFFD
]

JS = (
    b"const tool = {\n"
    b'  name: "search",\n'
    b'  description: "Search the catalog",\n'
    b"  execute: async ({ q }) => find(q),\n"
    b"};\n"
    b"document.modelContext.registerTool(tool);\n"
)
JS_HASHES = [
    "6c3b2bf75552d38c:1",
    "4ff27ac53c2a3c57:1",
    "a129780c364b0769:1",
    "149e7a616cf4ff6e:1",
    "3c2e9f0bdc0ef03d:1",
    "bf4ec0cbf4c55c03:1",
    EOF_HASH,
]


def closed_form_hashes(content: bytes) -> list[str]:
    """Independent oracle: sum(c[s+j] * 37**(99-j)) mod 2**64 per line start s."""
    units = []
    text = content.decode("utf-8", errors="replace").encode("utf-16-le")
    codes = [int.from_bytes(text[i : i + 2], "little") for i in range(0, len(text), 2)]
    prev_cr = False
    for c in codes + [65535]:
        if c in (0x20, 0x09) or (prev_cr and c == 0x0A):
            prev_cr = False
            continue
        prev_cr = c == 0x0D
        units.append(0x0A if c == 0x0D else c)
    starts = [0] + [i + 1 for i, c in enumerate(units[:-1]) if c == 0x0A]
    padded = units + [0] * 100
    seen: dict[str, int] = {}
    out = []
    for s in starts:
        raw = sum(padded[s + j] * 37 ** (99 - j) for j in range(100)) % 2**64
        key = format(raw, "x")
        seen[key] = seen.get(key, 0) + 1
        out.append(f"{key}:{seen[key]}")
    return out


@pytest.mark.parametrize("content,expected", VECTORS)
def test_vectors_from_codeql_action(content, expected):
    assert line_hashes(content) == expected


def test_javascript_file_vector():
    assert line_hashes(JS) == JS_HASHES
    for n, h in enumerate(JS_HASHES, start=1):
        assert primary_location_line_hash(JS, n) == h


def test_hand_computed_values():
    m = 2**64
    assert line_hashes(b"") == [format(65535 * 37**99 % m, "x") + ":1"]
    assert line_hashes(b"a") == [format((97 * 37**99 + 65535 * 37**98) % m, "x") + ":1"]


def test_spaces_and_tabs_are_ignored_everywhere():
    assert line_hashes(b"  \tfoo  bar\n") == line_hashes(b"foobar\n")


def test_line_endings_are_normalised():
    assert line_hashes(b"a\r\nb\r\n") == line_hashes(b"a\nb\n") == line_hashes(b"a\rb\r")


def test_matches_closed_form_on_random_input():
    rng = random.Random(20261129)
    pieces = [b"a", b"b", b"q", b" ", b"\t", b"\n", b"\r", b"\r\n", b"\xc3\xa9",
              b"\xf0\x9f\x98\x80", b"\xff", b"xxxxx"]
    for _ in range(60):
        n = rng.choice([0, 1, 3, 20, 120, 400])
        content = b"".join(rng.choice(pieces) for _ in range(n))
        assert line_hashes(content) == closed_form_hashes(content), content


def test_identical_lines_get_distinct_suffixes():
    content = b"x\n" * 120
    hashes = line_hashes(content)
    assert len(hashes) == 121
    # Lines 1..71 see the same 100 characters ("x\n" * 50): same hash, counted.
    assert hashes[:71] == [f"c0fe7b2700d6c254:{n}" for n in range(1, 72)]
    assert hashes[71] == "c0fe7b2700fbb0cd:1"
    first = primary_location_line_hash(content, 1)
    second = primary_location_line_hash(content, 2)
    assert first != second
    assert first.split(":")[0] == second.split(":")[0]
    assert (first.split(":")[1], second.split(":")[1]) == ("1", "2")


def test_hash_of_line_is_stable_when_unrelated_lines_are_added_above():
    prefix = b"import { find } from './catalog.js';\n// unrelated comment\n\n"
    shifted = line_hashes(prefix + JS)
    assert shifted[3:] == JS_HASHES
    assert primary_location_line_hash(prefix + JS, 4) == primary_location_line_hash(JS, 1)


def test_hash_depends_on_next_hundred_characters_only():
    tail = b"".join(b"line%03d\n" % i for i in range(30))  # 8 kept chars per line
    base = line_hashes(b"target\n" + tail)
    # Changing a line within the 100-character window changes the hash ...
    near = line_hashes(b"target\n" + tail.replace(b"line001", b"LINE001"))
    assert near[0] != base[0]
    # ... changing one far beyond it does not.
    far = line_hashes(b"target\n" + tail.replace(b"line025", b"LINE025"))
    assert far[0] == base[0]


def test_line_out_of_range():
    with pytest.raises(ValueError):
        primary_location_line_hash(b"a\n", 0)
    with pytest.raises(ValueError):
        primary_location_line_hash(b"a\n", 3)
    with pytest.raises(TypeError):
        primary_location_line_hash(b"a\n", True)

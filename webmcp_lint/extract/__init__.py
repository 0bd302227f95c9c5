"""Extractors: syntax to domain model, one module per source of tools.

Each module defines ``EXTRACTOR``: the node kinds it wants from the single
walk, the trigger words without which a file cannot hold what it looks for
(the prefilter is their union, so it can never hide a file from an
extractor), and a function filling a FileAnalysis from one Script.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Callable

from tree_sitter import Node

from webmcp_lint.languages import START_BYTE
from webmcp_lint.model import FileAnalysis, Script
from webmcp_lint.plugins import plugin_modules
from webmcp_lint.record import HashedRecord


class Extractor(HashedRecord):
    _compared = ("name", "triggers", "kinds", "extract", "order")

    def __init__(self, name: str, triggers: tuple[bytes, ...], kinds: frozenset[str],
                 extract: Callable[[Script, FileAnalysis], None], order: int = 50) -> None:
        self.name = name
        self.triggers = triggers
        self.kinds = kinds
        self.extract = extract
        self.order = order  # lower runs first; later extractors may read earlier facts


# ASCII bytes that always join an identifier they touch: after a name they make it a longer name, and
# before it so do those an identifier can start with (a digit before it may end a number instead).
# Bytes outside ASCII are not counted: some are letters, some are spaces.
_LETTERS = b"_$abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
IDENTIFIER_START_BYTES = frozenset(_LETTERS)
IDENTIFIER_BYTES = frozenset(_LETTERS + b"0123456789")


def spells_whole_name(data: bytes, start: int, end: int) -> bool:
    """``data[start:end]`` is not part of a longer identifier (so an identifier node may span it)."""
    return (start == 0 or data[start - 1] not in IDENTIFIER_START_BYTES) \
        and (end >= len(data) or data[end] not in IDENTIFIER_BYTES)


def identifiers_named(script: Script, names: set[str]) -> list[Node]:
    """The identifier nodes spelled as one of ``names``, in document order.

    An identifier is a whole run of identifier characters, so a spelling with one of them just before
    or after it is part of a longer word: the tree is asked only about the others.
    """
    root, data = script.root, script.source.data
    first, last = root.start_byte, root.end_byte
    found = []
    for name in names:
        spelling = name.encode("utf-8")
        if not spelling:
            continue
        start = data.find(spelling, first, last)
        while start != -1:
            end = start + len(spelling)
            if spells_whole_name(data, start, end):
                node = root.named_descendant_for_byte_range(start, end)
                if node is not None and node.byte_range == (start, end) and node.type == "identifier":
                    found.append(node)
            start = data.find(spelling, end, last)
    return sorted(found, key=START_BYTE)


_EXTRACTORS: list[Extractor] = []


def all_extractors() -> list[Extractor]:
    if not _EXTRACTORS:
        found = []
        for loaded in plugin_modules(__name__, __path__):
            extractor = getattr(loaded, "EXTRACTOR", None)
            if extractor is not None:
                found.append(extractor)
        _EXTRACTORS.extend(sorted(found, key=lambda item: (item.order, item.name)))
    return list(_EXTRACTORS)


def trigger_words() -> tuple[bytes, ...]:
    """The prefilter's word list: every extractor's triggers, in one place."""
    words: list[bytes] = []
    for extractor in all_extractors():
        words.extend(extractor.triggers)
    return tuple(dict.fromkeys(words))


@lru_cache(maxsize=1)
def _prefilter_words() -> tuple[bytes, ...]:
    """The triggers lower-cased, minus any that contains another: fewer passes over each file, never fewer files."""
    lowered = {word.lower() for word in trigger_words()}
    return tuple(sorted(word for word in lowered if not any(other != word and other in word for other in lowered)))


def may_hold_webmcp(data: bytes) -> bool:
    """Cheap byte search run before parsing: False means no extractor could find anything.

    Matching case-insensitively admits a few more files than the triggers do (they are parsed
    for nothing), and costs one lower-casing pass instead of a pass per trigger."""
    lowered = data.lower()
    return any(word in lowered for word in _prefilter_words())

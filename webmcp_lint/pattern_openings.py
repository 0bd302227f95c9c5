"""Regular expressions guarded by the texts their matches start with: a cheap "cannot match here" test.

A pattern such as ``\\b(?:ignore|disregard)\\s+...`` can only match a text that contains "ignore" or
"disregard". ``str.__contains__`` answers that many times faster than the regex engine, which tries a
pattern that starts with ``\\b`` at every position of the text.
"""

from __future__ import annotations

import re
from typing import Iterable, Sequence


class GuardedPatterns:
    """Regular expressions tried in order, each only on a text that holds one of its openings.

    Each pattern comes with its openings: texts one of which starts every match it makes (None when a match may
    start otherwise: the pattern is tried on every text). A pattern is compiled the first time a text holds one
    of its openings: compiling two dozen patterns costs milliseconds, and a run's texts call for few of them.
    """

    def __init__(self, guarded: Sequence[tuple[Iterable[str] | None, str]]) -> None:
        # Per pattern: its openings and its source, replaced by the compiled pattern on first use.
        self._guarded: list[list] = [[frozenset(openings) if openings is not None else None, pattern]
                                     for openings, pattern in guarded]
        self._all_openings = frozenset().union(*(openings for openings, _ in self._guarded if openings is not None))

    def first_match(self, text: str) -> re.Match[str] | None:
        """The match of the first pattern, in their order, that matches ``text`` (None when none does)."""
        present = {opening for opening in self._all_openings if opening in text}
        for entry in self._guarded:
            openings, pattern = entry
            if openings is not None and openings.isdisjoint(present):
                continue  # none of the texts its matches start with is there
            if isinstance(pattern, str):
                pattern = entry[1] = re.compile(pattern)
            match = pattern.search(text)
            if match is not None:
                return match
        return None

"""Regular expressions guarded by texts every match holds: a cheap "cannot match here" test.

A pattern such as ``\\b(?:ignore|disregard)\\s+...`` can only match a text that contains "ignore" or
"disregard" (its openings); ``\\buse\\s+this\\s+(?:first|before)`` only one that contains "first" or "before",
rarer words than its opening. ``str.__contains__`` answers that many times faster than the regex engine, which
tries a pattern that starts with ``\\b`` at every position of the text, and a pattern no text calls for is never
compiled.
"""

from __future__ import annotations

import re
from typing import Iterable, Sequence


class GuardedPatterns:
    """Regular expressions tried in order, each only on a text that holds one of its guard texts.

    Each pattern comes with its guard: texts one of which every match it makes holds, its openings or rarer words
    further on (None when it has none: the pattern is tried on every text). A pattern is compiled the first time a
    text holds one of its guard texts: compiling two dozen patterns costs milliseconds, and a run's texts call for
    few of them.
    """

    def __init__(self, guarded: Sequence[tuple[Iterable[str] | None, str]]) -> None:
        # Per pattern: its guard and its source, replaced by the compiled pattern on first use.
        self._guarded: list[list] = [[frozenset(guard) if guard is not None else None, pattern]
                                     for guard, pattern in guarded]
        self._all_guard_texts = frozenset().union(*(guard for guard, _ in self._guarded if guard is not None))

    def first_match(self, text: str) -> re.Match[str] | None:
        """The match of the first pattern, in their order, that matches ``text`` (None when none does)."""
        present = {guard_text for guard_text in self._all_guard_texts if guard_text in text}
        for entry in self._guarded:
            guard, pattern = entry
            if guard is not None and guard.isdisjoint(present):
                continue  # none of the texts its matches hold is there
            if isinstance(pattern, str):
                pattern = entry[1] = re.compile(pattern)
            match = pattern.search(text)
            if match is not None:
                return match
        return None

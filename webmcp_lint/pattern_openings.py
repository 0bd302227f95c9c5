"""The literal texts every match of a regular expression starts with: a cheap "cannot match here" test.

A pattern such as ``\\b(?:ignore|disregard)\\s+...`` can only match a text that contains "ignore" or
"disregard". ``str.__contains__`` answers that many times faster than the regex engine, which tries a
pattern that starts with ``\\b`` at every position of the text. The openings are read from the pattern's
parse by the ``re`` package's own parser; a pattern whose matches may start otherwise has none (None).
"""

from __future__ import annotations

import re
from typing import Sequence

try:
    from re import _compiler as regex_compiler, _parser as regex_parser  # Python 3.11+
except ImportError:  # pragma: no cover - Python 3.10
    import sre_compile as regex_compiler  # type: ignore[no-redef]
    import sre_parse as regex_parser  # type: ignore[no-redef]


def match_openings(pattern: str) -> frozenset[str] | None:
    """Literal texts one of which starts every match of ``pattern``, or None when there are none to rely on.

    Leading ``\\b`` and ``^`` are stepped over (they consume nothing); a group or an alternation gives the
    openings of each alternative. Case-insensitive patterns have none (a literal then stands for several texts).
    """
    try:
        parsed = regex_parser.parse(pattern)
    except Exception:  # noqa: BLE001 - an unknown parser: no shortcut, the pattern still runs
        return None
    return _parsed_openings(parsed)


def _parsed_openings(parsed) -> frozenset[str] | None:
    if parsed.state.flags & regex_parser.SRE_FLAG_IGNORECASE:
        return None
    openings = _sequence_openings(list(parsed))
    return frozenset(openings) if openings else None


def _sequence_openings(items: list) -> set[str] | None:
    """The openings of a sequence of parsed items: its leading literal run, or its leading group's openings."""
    literal: list[str] = []
    for operation, argument in items:
        if operation is regex_parser.AT and not literal:
            continue
        if operation is regex_parser.LITERAL:
            literal.append(chr(argument))
            continue
        if literal:
            break
        if operation is regex_parser.BRANCH:
            alternatives = argument[1]
        elif operation is regex_parser.SUBPATTERN and not argument[1] and not argument[2]:  # no inline flags
            alternatives = [argument[3]]
        else:
            return None
        found: set[str] = set()
        for alternative in alternatives:
            openings = _sequence_openings(list(alternative))
            if not openings:
                return None
            found |= openings
        return found
    return {"".join(literal)} if literal else None


class GuardedPatterns:
    """Regular expressions tried in order, each only on a text that holds one of its openings.

    Nothing is parsed before the first search (a run that meets no text to search never pays for it), and a
    pattern is compiled, from the parse its openings were read from, only when some text holds one of them:
    parsing and compiling two dozen patterns costs milliseconds, and a run's texts call for few of them.
    """

    def __init__(self, patterns: Sequence[str]) -> None:
        self._sources = tuple(patterns)
        # Per pattern: its openings (None: it is tried on every text) and its parse, replaced by the compiled
        # pattern on first use. Built on the first search.
        self._guarded: list[list] | None = None
        self._all_openings: frozenset[str] = frozenset()

    def first_match(self, text: str) -> re.Match[str] | None:
        """The match of the first pattern, in their order, that matches ``text`` (None when none does)."""
        if self._guarded is None:
            self._parse()
        present = {opening for opening in self._all_openings if opening in text}
        for entry in self._guarded:
            openings, pattern = entry
            if openings is not None and openings.isdisjoint(present):
                continue  # none of the texts its matches start with is there
            if not isinstance(pattern, re.Pattern):
                pattern = entry[1] = regex_compiler.compile(pattern)
            match = pattern.search(text)
            if match is not None:
                return match
        return None

    def _parse(self) -> None:
        guarded = []
        for source in self._sources:
            parsed = regex_parser.parse(source)
            guarded.append([_parsed_openings(parsed), parsed])
        self._all_openings = frozenset().union(*(openings for openings, _ in guarded if openings is not None))
        self._guarded = guarded

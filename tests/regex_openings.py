"""What every match of a regular expression holds, read from its parse by the ``re`` package's own parser: the
reference the guard texts written beside the agent-instruction patterns (vocabulary.AGENT_INSTRUCTION_PATTERNS)
are checked against. ``match_openings``: the texts matches start with (None where a match may start otherwise);
``every_match_holds_one_of``: whether given texts are a guard, wherever in the match they stand.
"""

from __future__ import annotations

from typing import Iterable

try:
    from re import _parser as regex_parser  # Python 3.11+
except ImportError:  # pragma: no cover - Python 3.10
    import sre_parse as regex_parser  # type: ignore[no-redef]


def match_openings(pattern: str) -> frozenset[str] | None:
    """Literal texts one of which starts every match of ``pattern``, or None when there are none to rely on.

    Leading ``\\b`` and ``^`` are stepped over (they consume nothing); a group or an alternation gives the
    openings of each alternative. Case-insensitive patterns have none (a literal then stands for several texts).
    """
    parsed = regex_parser.parse(pattern)
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


def every_match_holds_one_of(pattern: str, texts: Iterable[str]) -> bool:
    """Whether the parse shows that every match of ``pattern`` holds one of ``texts``: some item every match goes
    through is a run of literals with one of them in it, or a group (or a repeat at least once) each of whose
    alternatives holds one. False where it cannot tell (case-insensitive patterns: a literal stands for several
    texts)."""
    parsed = regex_parser.parse(pattern)
    if parsed.state.flags & regex_parser.SRE_FLAG_IGNORECASE:
        return False
    return _sequence_holds(list(parsed), frozenset(texts))


def _sequence_holds(items: list, texts: frozenset[str]) -> bool:
    literal: list[str] = []
    for operation, argument in items + [(None, None)]:  # the end closes the last run of literals
        if operation is regex_parser.LITERAL:
            literal.append(chr(argument))
            continue
        run, literal = "".join(literal), []
        if any(text in run for text in texts):
            return True
        if operation is regex_parser.BRANCH:
            alternatives = argument[1]
        elif operation is regex_parser.SUBPATTERN and not argument[1] and not argument[2]:  # no inline flags
            alternatives = [argument[3]]
        elif operation in (regex_parser.MAX_REPEAT, regex_parser.MIN_REPEAT) and argument[0] >= 1:
            alternatives = [argument[2]]
        else:
            continue  # a class, an optional part, an assertion...: holds no text every match has
        if all(_sequence_holds(list(alternative), texts) for alternative in alternatives):
            return True
    return False

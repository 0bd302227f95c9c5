"""'Did you mean' suggestions for misspelled keys, events and options."""

from __future__ import annotations

from typing import Iterable, Mapping


def closest(word: str, valid: Iterable[str], known: Mapping[str, str] | None = None) -> str | None:
    """The valid word ``word`` most likely stands for: an explicit mapping first, then spelling."""
    if known and word in known:
        return known[word]
    candidates = list(valid)
    folded = word.replace("_", "").replace("-", "").lower()
    for candidate in candidates:
        if candidate.lower() == folded:
            return candidate
    if known:
        for alias, target in known.items():
            if alias.lower() == folded:
                return target
    import difflib  # only a misspelling pays for it

    matches = difflib.get_close_matches(word, candidates, n=1, cutoff=0.7)
    return matches[0] if matches else None


def did_you_mean(suggestion: str | None) -> str:
    return f" (did you mean `{suggestion}`?)" if suggestion else ""

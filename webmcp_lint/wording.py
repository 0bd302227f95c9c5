"""Small pieces of English that messages build around names they only know at run time."""

from __future__ import annotations

# Words spelled with a leading vowel but said with a consonant sound: "a useEffect callback", "a one-time-code field".
_CONSONANT_SOUNDING = ("use", "uni", "usu", "eu", "one")


def article(word: str) -> str:
    """The indefinite article for ``word`` as said aloud: "an" before a vowel sound (``an Error``), else "a"."""
    lowered = word.lstrip("`").lower()
    if not lowered[:1] or lowered[0] not in "aeiou" or lowered.startswith(_CONSONANT_SOUNDING):
        return "a"
    return "an"

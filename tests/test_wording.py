"""The article messages put before a name they only know at run time."""

from __future__ import annotations

import pytest

from webmcp_lint.wording import article


@pytest.mark.parametrize(("word", "expected"), [
    ("Error", "an"), ("AggregateError", "an"), ("afterNextRender", "an"), ("effect", "an"), ("on", "an"),
    ("`Error`", "an"),
    ("TypeError", "a"), ("Map", "a"), ("setTimeout", "a"), ("password", "a"), ("cc-number", "a"),
    # a leading vowel said as a consonant
    ("one-time-code", "a"), ("useEffect", "a"), ("unique", "a"),
    ("", "a"),
])
def test_article(word, expected):
    assert article(word) == expected

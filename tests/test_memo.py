"""memo.PerObject: one answer per live object, never shared between objects, gone with its object."""

from __future__ import annotations

import gc

from webmcp_lint.memo import PerObject


class Box:
    def __init__(self, value: int) -> None:
        self.value = value


def test_an_answer_is_computed_once_per_object():
    calls = []
    doubled = PerObject(lambda box: calls.append(box) or box.value * 2)
    first, second = Box(1), Box(1)
    assert [doubled(first), doubled(first), doubled(second)] == [2, 2, 2]
    assert calls == [first, second]  # equal objects are still different owners


def test_an_answer_goes_with_its_object():
    seen = PerObject(lambda box: box.value)
    box = Box(7)
    assert seen(box) == 7
    del box
    gc.collect()
    assert seen._found == {}

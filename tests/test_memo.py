"""memo.per_object: one answer per live object, never shared between objects, gone with its object."""

from __future__ import annotations

import gc
import weakref

from webmcp_lint.memo import per_object


class Box:
    def __init__(self, value: int) -> None:
        self.value = value


def test_an_answer_is_computed_once_per_object():
    calls = []
    doubled = per_object(lambda box: calls.append(box) or box.value * 2)
    first, second = Box(1), Box(1)
    assert [doubled(first), doubled(first), doubled(second)] == [2, 2, 2]
    assert calls == [first, second]  # equal objects are still different owners


def test_two_facts_of_one_object_are_kept_apart():
    doubled = per_object(lambda box: box.value * 2)
    negated = per_object(lambda box: -box.value)
    box = Box(3)
    assert (doubled(box), negated(box), doubled(box)) == (6, -3, 6)


def test_a_none_answer_is_remembered_too():
    calls = []
    nothing = per_object(lambda box: calls.append(box))
    box = Box(1)
    assert nothing(box) is None and nothing(box) is None
    assert calls == [box]


def test_an_answer_that_holds_its_object_goes_with_it():
    holder = per_object(lambda box: [box])  # like a schema's entries, which hold the schema
    box = Box(1)
    assert holder(box) == [box]
    alive = weakref.ref(box)
    del box
    gc.collect()
    assert alive() is None

"""memo.PerObject: one answer per live object, never shared between objects, dropped when a run ends."""

from __future__ import annotations

import gc
import weakref

from tests.support import lint
from webmcp_lint import memo
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


def test_an_answer_that_does_not_hold_its_object_goes_with_it():
    seen = PerObject(lambda box: box.value)
    box = Box(7)
    assert seen(box) == 7
    del box
    gc.collect()
    assert seen._found == {}


def test_forget_all_frees_answers_that_hold_their_object():
    holder = PerObject(lambda box: [box])  # like a schema's entries, which hold the schema
    box = Box(1)
    assert holder(box) == [box]
    alive = weakref.ref(box)
    del box
    gc.collect()
    assert alive() is not None  # the table keeps the answer, and the answer keeps the box
    memo.forget_all()
    gc.collect()
    assert alive() is None and holder._found == {}


def test_a_lint_run_leaves_no_answers_behind():
    code = """document.modelContext.registerTool({
      name: "get_time", description: "Returns the current time in the user's time zone.",
      inputSchema: { type: "object", properties: { zone: { type: "string", description: "An IANA zone." } } },
      async execute({ zone }) { return { now: new Date().toLocaleString("en", { timeZone: zone }) }; },
    });"""
    lint(code)
    assert all(table == {} for table in memo._TABLES)
    assert len(memo._TABLES) >= 5  # the execute model, schemas, descriptions, texts, untrusted fetches

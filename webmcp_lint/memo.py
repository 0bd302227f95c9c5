"""Facts computed once per analysis object (a schema, an execute model) and shared by every rule that asks."""

from __future__ import annotations

import weakref
from typing import Any, Callable, Generic, TypeVar

Owner = TypeVar("Owner")
Found = TypeVar("Found")

# The table of every PerObject, so that a run's end can empty them all.
_TABLES: list[dict] = []


class PerObject(Generic[Owner, Found]):
    """``compute(owner, *context)``, remembered per owner object (the context never changes the answer).

    Keyed by identity and checked through a weak reference, so an answer never serves a new object that
    reuses the address. An answer often refers back to its owner (a schema's entries hold the schema),
    which keeps both alive: ``forget_all`` empties every table when a run ends."""

    def __init__(self, compute: Callable[..., Found]) -> None:
        self._compute = compute
        self._found: dict[int, tuple[weakref.ref, Found]] = {}
        _TABLES.append(self._found)

    def __call__(self, owner: Owner, *context: Any) -> Found:
        key = id(owner)
        cached = self._found.get(key)
        if cached is None or cached[0]() is not owner:
            cached = self._found[key] = (weakref.ref(owner), self._compute(owner, *context))
            weakref.finalize(owner, self._found.pop, key, None)
        return cached[1]


class built_once:
    """A property computed on first use, then kept on the instance.

    ``functools.cached_property`` without the lock Python 3.11 takes on each first use: execute models and
    description facts are built that way, several per tool, and the lock costs more than most of them.
    """

    def __init__(self, compute: Callable) -> None:
        self._compute = compute
        self._name = compute.__name__
        self.__doc__ = compute.__doc__

    def __get__(self, instance: object, owner: type | None = None):
        if instance is None:
            return self
        value = instance.__dict__[self._name] = self._compute(instance)
        return value


def forget_all() -> None:
    """Drop every remembered answer: a long-lived process (the language server) would keep each run's model."""
    for table in _TABLES:
        table.clear()

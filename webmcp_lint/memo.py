"""Facts computed once per analysis object (a schema, an execute model) and shared by every rule that asks."""

from __future__ import annotations

import weakref
from typing import Callable, Generic, TypeVar

Owner = TypeVar("Owner")
Found = TypeVar("Found")


class PerObject(Generic[Owner, Found]):
    """``compute(owner)``, remembered per owner object for as long as the object lives.

    Keyed by identity and checked through a weak reference, so an answer never outlives its object
    (and never answers for a new object that reuses the address)."""

    def __init__(self, compute: Callable[[Owner], Found]) -> None:
        self._compute = compute
        self._found: dict[int, tuple[weakref.ref, Found]] = {}

    def __call__(self, owner: Owner) -> Found:
        key = id(owner)
        cached = self._found.get(key)
        if cached is None or cached[0]() is not owner:
            cached = self._found[key] = (weakref.ref(owner), self._compute(owner))
            weakref.finalize(owner, self._found.pop, key, None)
        return cached[1]

"""Facts computed once per analysis object (a tool, a schema, an execute model) and shared by every rule that asks."""

from __future__ import annotations

import itertools
from typing import Any, Callable, TypeVar

Owner = TypeVar("Owner")
Found = TypeVar("Found")

_TABLE_NUMBERS = itertools.count()


def per_object(compute: Callable[..., Found]) -> Callable[..., Found]:
    """``compute(owner, *context)``, remembered per owner object (the context never changes the answer).

    The answer is kept in the owner's own ``__dict__``, under a name no other per_object uses: it lives exactly
    as long as its owner, so it can never serve another object, and it costs one dictionary look-up to
    read (a table keyed by identity needs a weak reference and a finalizer per owner, which cost more
    than most of the facts). Owners need a ``__dict__`` (JSObject, JSArray and the model classes keep one).
    A plain function, not an object with ``__call__``: the interpreter calls it inline, without binding a
    method (32k asks on 200 files)."""
    name = f"_memo{next(_TABLE_NUMBERS)}_{compute.__name__}"

    def remembered(owner: Owner, *context: Any) -> Found:
        known = owner.__dict__
        try:
            return known[name]
        except KeyError:
            found = known[name] = compute(owner, *context)
            return found

    remembered.__doc__ = compute.__doc__
    return remembered


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

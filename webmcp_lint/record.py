"""Plain classes compared, hashed and printed by their fields, as dataclasses are, without a dataclass's cost.

The model and value classes are made by the tens of thousands (a dataclass instance has no slots), and
every dataclass costs about a third of a millisecond to create at import, in the serial part of a run.
"""

from __future__ import annotations


class Record:
    """A plain class compared and printed by the fields named in ``_compared``, as a dataclass is."""

    __slots__ = ()
    _compared: tuple[str, ...] = ()

    def _key(self) -> tuple:
        return tuple(getattr(self, name) for name in self._compared)

    def __eq__(self, other: object) -> bool:
        if other.__class__ is self.__class__:
            return self._key() == other._key()  # type: ignore[attr-defined]
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        fields = ", ".join(f"{name}={getattr(self, name)!r}" for name in self._compared)
        return f"{type(self).__name__}({fields})"


class HashedRecord(Record):
    """A Record that is never changed once made, hashed by its fields (a frozen dataclass)."""

    __slots__ = ()

    def __hash__(self) -> int:
        return hash(self._key())

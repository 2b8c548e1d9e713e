"""``Frozen``: the base of the runtime's immutable value types.

Why not ``dataclasses``: on the machines this project is measured on, importing ``dataclasses``
costs about 36 ms (it imports ``inspect``) and ``typing`` about 20 ms, against about 20 ms for the
whole interpreter to start; the player has to start in a few tens of milliseconds (issue 3).
So runtime modules import neither; this class gives the same guarantees in a few lines.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any


class Frozen:
    """Attributes are set once, in ``__init__`` via ``_set``; equality and hash use ``_fields``."""

    __slots__: tuple[str, ...] = ()
    #: the attributes that identify the value (equality, hash, repr); subclasses set it
    _fields: tuple[str, ...] = ()

    def _set(self, **values: Any) -> None:
        for name, value in values.items():
            object.__setattr__(self, name, value)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"{type(self).__name__} is immutable; cannot set {name!r}")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"{type(self).__name__} is immutable; cannot delete {name!r}")

    def _identity(self) -> tuple[Any, ...]:
        return tuple(getattr(self, name) for name in self._fields)

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        assert isinstance(other, Frozen)
        return self._identity() == other._identity()

    def __hash__(self) -> int:
        return hash((type(self).__name__, self._identity()))

    def __repr__(self) -> str:
        args = ", ".join(f"{name}={getattr(self, name)!r}" for name in self._fields)
        return f"{type(self).__name__}({args})"

"""What runs the tasks of a build or proof by layers (tictactoe_generator.layer_tasks,
tictactoe_generator.layer_proof): an ``Engine``, one method. ``LOCAL`` runs them one after the
other in this process; ``tictactoe_generator.cluster.DaskEngine`` on a Dask cluster."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Protocol, TypeVar

T = TypeVar("T")


class Engine(Protocol):
    """What runs the build's tasks: ``map(task, calls)`` is ``[task(*args) for args in calls]``,
    in any order and place, each task's result returned in the order of ``calls``; a task of
    the build takes ``parts_a_task`` parts' rows of a layer (fewer tasks, less overhead; more,
    more workers busy)."""

    parts_a_task: int

    def map(self, task: Callable[..., T], calls: Sequence[tuple[Any, ...]]) -> list[T]: ...


class Local:
    """The tasks one after the other, in this process, on a million rows each."""

    parts_a_task = 256

    def map(self, task: Callable[..., T], calls: Sequence[tuple[Any, ...]]) -> list[T]:
        return [task(*args) for args in calls]


LOCAL = Local()

"""The build by layers on a Dask cluster (``ttt-book build --engine dask``): the tasks of
tictactoe_generator.layered, each a Dask future, on the workers of a scheduler given by its
address, or of a LocalCluster of worker processes on this machine.

Dask (``dask``, ``distributed``: the ``cluster`` extra) is imported here only. The workers need
this package and the work folder, on storage they share with the client: each task reads and
writes its layer's files there (tictactoe_generator.layered), so what travels through the
scheduler is small (task arguments, counts, part items). A worker lost mid-task (killed, its
machine gone) has its tasks run again elsewhere by Dask; every task is idempotent.
"""

from __future__ import annotations

import contextlib
import hashlib
import logging
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from typing import Any, TypeVar

from tictactoe_book.apps.signals import held
from tictactoe_book.errors import BuildToolMissing, ClusterError, OutputError

T = TypeVar("T")

#: Worker processes of the LocalCluster started when no scheduler is named.
LOCAL_WORKERS = 2
#: Seconds to wait for a named scheduler to answer.
CONNECT_TIMEOUT = 10


class DaskEngine:
    """tictactoe_generator.engines' ``Engine`` on a ``distributed.Client``: each call of a
    task is a future, named after the task, its arguments' digest and its place."""

    #: 65,536 rows a task: every layer of 4x4 past the sixth mark in several tasks (measured:
    #: docs/benchmarks.md, "The build on Dask")
    parts_a_task = 16

    def __init__(self, client: Any, parts_a_task: int | None = None) -> None:
        self.client = client
        if parts_a_task is not None:  # (256, as in this process, for boards past 4x5: fewer tasks)
            self.parts_a_task = parts_a_task
        self.ran: Counter[str] = Counter()

    def map(self, task: Callable[..., T], calls: Sequence[tuple[Any, ...]]) -> list[T]:
        futures = [
            self.client.submit(task, *args, key=f"{task.__name__}-{_digest(args)}-{n}", pure=False)
            for n, args in enumerate(calls)
        ]
        try:
            results: list[T] = self.client.gather(futures)
            for workers in self.client.who_has(futures).values():
                self.ran.update(workers[:1])
        except OutputError:  # a task's own: a worker without the work folder
            raise
        except OSError as error:  # the scheduler's connection closed
            raise ClusterError(f"the Dask scheduler is gone: {_first_line(error)}") from None
        return results

    def report(self) -> str:
        """Where the tasks ran, in a line: how many on each worker."""
        shown = ", ".join(f"{worker} {count}" for worker, count in sorted(self.ran.items()))
        return f"on Dask: {sum(self.ran.values())} tasks on {len(self.ran)} workers ({shown})"


def _digest(args: tuple[Any, ...]) -> str:
    return hashlib.sha256(repr(args).encode()).hexdigest()[:12]


@contextlib.contextmanager
def dask_engine(scheduler: str | None, workers: int = LOCAL_WORKERS) -> Iterator[DaskEngine]:
    """A ``DaskEngine`` on the scheduler at ``scheduler`` (``tcp://HOST:PORT``), or on a new
    LocalCluster of ``workers`` worker processes (one thread each), closed after; ClusterError
    when no scheduler answers, BuildToolMissing without Dask."""
    try:
        from distributed import Client, LocalCluster
    except ModuleNotFoundError as error:
        raise BuildToolMissing(
            f"--engine dask needs {error.name}: pip install 'tictactoe-book[cluster]' "
            "(from the project's folder: .venv/bin/python -m pip install -e '.[cluster]')"
        ) from None
    with contextlib.ExitStack() as stack:
        # asyncio's report of the gathering task a Ctrl-C abandons ("Task exception was never
        # retrieved"): the command says it was interrupted
        stack.enter_context(_quiet("asyncio"))
        if scheduler is None:
            with held():  # a cluster half started cannot be closed: a signal waits for it to start
                cluster = stack.enter_context(
                    LocalCluster(
                        n_workers=workers,
                        threads_per_worker=1,
                        processes=True,
                        dashboard_address=":0",  # (any free port: 8787 may be taken)
                        silence_logs=logging.CRITICAL,
                    )
                )
                client = stack.enter_context(Client(cluster))
        else:
            try:
                client = stack.enter_context(Client(scheduler, timeout=CONNECT_TIMEOUT))
            except (OSError, TimeoutError, ValueError) as error:
                raise ClusterError(
                    f"no Dask scheduler answers at {scheduler}: {_first_line(error)}"
                ) from None
        yield DaskEngine(client)


@contextlib.contextmanager
def _quiet(name: str) -> Iterator[None]:
    """The logger ``name`` says nothing below CRITICAL within."""
    logger = logging.getLogger(name)
    level = logger.level
    logger.setLevel(logging.CRITICAL)
    try:
        yield
    finally:
        logger.setLevel(level)


def _first_line(error: BaseException) -> str:
    text = str(error) or type(error).__name__
    return text.splitlines()[0]


def worker_names(engine: DaskEngine) -> list[str]:
    """The addresses of the workers the engine's scheduler knows."""
    return sorted(engine.client.scheduler_info()["workers"])

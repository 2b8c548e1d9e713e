"""The layers of a big book's proof in two processes (player/proof.py, ``_check_layers``).

The proof checks the layers of keys from the fullest down, each against the images of the layer
above it. Split at the ``p``-th key of layer ``j``: a child process (forked, so it starts with
the parsed book) checks the layers above ``j`` and the first ``p`` keys of ``j``, while this
process makes the images of layer ``j + 1`` and of those ``p`` keys itself (``layer_onto``: the
work done twice) and checks the rest of layer ``j`` down to the empty board. The split point
balances the two processes' work. Each half is ``check_span``, the one-process proof's own
loop, so the split changes where the work runs, not what is checked: the errors are the same,
taken in the same order (the child's layers come first: its key not in canonical form, then
this process's; its first missing successor or inconsistent entry, then this process's). If
the child cannot be started or dies, this process checks its layers too.
"""

from __future__ import annotations

import contextlib

from player.errors import BookError
from player.proof import check_span

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterator
    from multiprocessing.connection import Connection
    from typing import Any

    from player.proof import Fail
    from player.rules import Rules

#: A key's share of the proof's work, in microseconds of one core here, fitted to the proof of
#: the 4x4 book layer by layer (within 15 % on its layers of 20,000 keys or more): making and
#: storing its images, and looking up the successor of each free cell. Only their ratio matters.
IMAGE_COST = 8.0
LOOKUP_COST = 2.3

#: An error carried from the child: its code and reason (the source is this process's).
Carried = tuple[str, str] | None


def check_in_two(
    rules: Rules, texts: dict[str, Any], layers: list[list[str]], fail: Fail
) -> tuple[dict[str, int], BookError | None, BookError | None]:
    """``_check_layers`` in two processes; the same result."""
    split = split_point([len(keys) for keys in layers])
    bests: dict[str, int] = {}
    if split is None:
        return bests, *check_span(rules, texts, layers, len(layers) - 1, 0, bests, fail)
    upper = _start_child(rules, texts, layers, split)
    try:
        mine: tuple[BookError | None, BookError | None] | BookError = check_span(
            rules, texts, layers, split[0], 0, bests, fail, head=split[1]
        )
    except BookError as raised:
        mine = raised
    theirs = _result(upper, rules, texts, layers, split, fail)
    if isinstance(theirs, BookError):
        raise theirs
    if isinstance(mine, BookError):
        raise mine
    their_bests, their_missing, their_inconsistent = theirs
    pairs = zip(_upper_keys(layers, split), their_bests, strict=True)
    bests.update((key, best) for key, best in pairs if best is not None)
    return bests, their_missing or mine[0], their_inconsistent or mine[1]


def split_point(sizes: list[int]) -> tuple[int, int] | None:
    """``(j, p)``: the child checks the layers above ``j`` and the first ``p`` keys of ``j``,
    this process images layer ``j + 1`` and those keys and checks the rest; the point that
    balances the two processes' work best (``IMAGE_COST``, ``LOOKUP_COST``), or None when
    splitting would not pay (a book of one or two layers). ``sizes[m]`` is the number of keys
    with ``m`` marks, so a key of that layer has ``len(sizes) - m`` free cells."""
    cells = len(sizes)
    checking = [IMAGE_COST + LOOKUP_COST * (cells - marks) for marks in range(cells)]
    work = [size * cost for size, cost in zip(sizes, checking, strict=True)]
    total = sum(work)
    best, chosen = total, None
    for j in range(cells - 1):
        child = sum(work[j + 1 :])
        parent = total - child + IMAGE_COST * sizes[j + 1]
        # a key of layer j moved to the child costs it checking[j] and saves this process that
        # less the imaging it still does for the key
        moved = min(sizes[j], max(0, round((parent - child) / (2 * checking[j] - IMAGE_COST))))
        slowest = max(child + moved * checking[j], parent - moved * (checking[j] - IMAGE_COST))
        if slowest < best:
            best, chosen = slowest, (j, moved)
    return chosen


def _upper_keys(layers: list[list[str]], split: tuple[int, int]) -> Iterator[str]:
    """The keys the child checks, in the order it checks them."""
    layer, moved = split
    for keys in reversed(layers[layer + 1 :]):
        yield from keys
    yield from layers[layer][:moved]


Upper = tuple[list["int | None"], Carried, Carried] | tuple[str, str]


def _start_child(rules: Rules, texts: dict[str, Any], layers: list[list[str]], split: tuple[int, int]) -> Any:
    """The child checking its side of ``split``, and the end of the pipe its answer comes by;
    None if it could not be started."""
    import multiprocessing
    import signal

    # Ctrl-C is this process's to answer (exit status 130, one line): the child ignores it, and
    # it stays blocked across the fork so none reaches the child before it has said so; a
    # daemonic child is ended when this process exits.
    blocked = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        context = multiprocessing.get_context("fork")
        receive, send = context.Pipe(duplex=False)
        child = context.Process(target=_child, args=(send, rules, texts, layers, split), daemon=True)
        child.start()
    except (OSError, ValueError):  # no fork here, or no process to be had
        return None
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, blocked)
    send.close()
    return child, receive


def _child(
    send: Connection, rules: Rules, texts: dict[str, Any], layers: list[list[str]], split: tuple[int, int]
) -> None:
    """In the child: check its side of ``split``, send what came of it."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})

    def carried(code: str, reason: str) -> BookError:
        return BookError("", code, reason)

    bests: dict[str, int] = {}
    answer: Upper
    try:
        try:
            missing, inconsistent = _check_upper(rules, texts, layers, split, bests, carried)
        except BookError as raised:
            answer = (raised.code, raised.reason)
        else:
            answer = (
                [bests.get(key) for key in _upper_keys(layers, split)],
                _carry(missing),
                _carry(inconsistent),
            )
        send.send(answer)
    except Exception:
        pass
    finally:
        send.close()


def _check_upper(
    rules: Rules,
    texts: dict[str, Any],
    layers: list[list[str]],
    split: tuple[int, int],
    bests: dict[str, int],
    fail: Fail,
) -> tuple[BookError | None, BookError | None]:
    """The child's side of ``split``, checked (in the child, or here if it died)."""
    layer, moved = split
    return check_span(rules, texts, layers, len(layers) - 1, layer, bests, fail, tail=moved)


def _carry(error: BookError | None) -> Carried:
    return None if error is None else (error.code, error.reason)


def _result(
    upper: Any,
    rules: Rules,
    texts: dict[str, Any],
    layers: list[list[str]],
    split: tuple[int, int],
    fail: Fail,
) -> tuple[list[int | None], BookError | None, BookError | None] | BookError:
    """The child's answer, its errors made this process's; computed here if it never came."""
    answer = None
    if upper is not None:
        child, receive = upper
        with contextlib.suppress(EOFError, OSError):
            answer = receive.recv()
        receive.close()
        child.join()
    if answer is None:  # no child, or it died: check its layers here
        bests: dict[str, int] = {}
        try:
            missing, inconsistent = _check_upper(rules, texts, layers, split, bests, fail)
        except BookError as raised:
            return raised
        return [bests.get(key) for key in _upper_keys(layers, split)], missing, inconsistent
    if len(answer) == 2:
        return fail(*answer)
    their_bests, missing_carried, inconsistent_carried = answer
    return (
        their_bests,
        None if missing_carried is None else fail(*missing_carried),
        None if inconsistent_carried is None else fail(*inconsistent_carried),
    )

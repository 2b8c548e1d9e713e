"""The build by layers on Dask (``ttt-book build --parts --engine dask``,
tictactoe_generator.cluster): the same files as the build in this process, on a LocalCluster of
two worker processes and on a scheduler and workers started as ``dask scheduler`` and ``dask
worker``; a worker killed with SIGKILL mid-build changes nothing; a client interrupted leaves
nothing half-written, and the same command resumes from the last finished layer; a scheduler
that is not there, or a worker without the work folder, is one line. And the record of the
layers done (state.json), on which resuming stands, with the build in this process.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any, TypeVar

import pytest
from faultkit import BOOK_CLI, assert_one_line, assert_usage_error, run, temporaries

from tictactoe_book.errors import OutputError
from tictactoe_book.game import Rules
from tictactoe_generator.cluster import DaskEngine
from tictactoe_generator.engines import LOCAL
from tictactoe_generator.layer_tasks import STATE, Plan, reach_block
from tictactoe_generator.layered import RESUMABLE_SUFFIX, build_by_layers, build_parts, write_parts
from tictactoe_generator.parts import PART_ENTRIES

distributed = pytest.importorskip("distributed")

T = TypeVar("T")
BIN = Path(sys.executable).parent


@pytest.fixture(scope="module")
def in_process(tmp_path_factory: pytest.TempPathFactory) -> Callable[[str], dict[str, bytes]]:
    """The files of the book by parts of the rules spelt so, built in this process (once a module)."""
    built: dict[str, dict[str, bytes]] = {}

    def files(spelling: str) -> dict[str, bytes]:
        if spelling not in built:
            built[spelling] = build_parts(Rules.parse(spelling), near=tmp_path_factory.mktemp("work"))
        return built[spelling]

    return files


def folder_files(folder: Path) -> dict[str, bytes]:
    return {path.name: path.read_bytes() for path in sorted(folder.iterdir())}


def session_alive(sid: int) -> list[int]:
    """The processes still in session ``sid``."""
    alive = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if os.getsid(int(entry.name)) == sid:
                    alive.append(int(entry.name))
            except OSError:
                pass
    return alive


# ---------------------------------------------------------------- a LocalCluster


def test_a_build_on_a_local_cluster_of_two_workers_writes_what_the_process_writes(
    tmp_path: Path, in_process: Callable[[str], dict[str, bytes]]
) -> None:
    done = run(
        BOOK_CLI,
        "build",
        "--rules",
        "3x4:3",
        "--parts",
        "--engine",
        "dask",
        "-o",
        "out",
        cwd=tmp_path,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    assert folder_files(tmp_path / "out") == in_process("3x4:3")
    report = done.stdout.decode().splitlines()[-1]
    assert report.startswith("on Dask: ") and " tasks on 2 workers (" in report, report
    assert sorted(path.name for path in tmp_path.iterdir()) == ["out"]  # the work folder removed


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM], ids=lambda s: signal.Signals(s).name)
def test_an_interrupted_client_leaves_nothing_half_written_and_the_same_command_resumes(
    signum: int, tmp_path: Path, in_process: Callable[[str], dict[str, bytes]]
) -> None:
    """Interrupted once the forward pass has finished some layers: no output, no temporary, its
    LocalCluster ended, the layers kept with a line saying so; the same command then resumes
    (it says from how many layers) and writes the same files as the build in this process."""
    command = ["build", "--rules", "4x4:3", "--parts", "--engine", "dask", "-o", "out"]
    env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1"}
    process = subprocess.Popen(
        [sys.executable, "-c", BOOK_CLI, *command],
        cwd=tmp_path,
        env=env,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    state = tmp_path / f".out{RESUMABLE_SUFFIX}" / STATE
    reached = 0
    deadline = time.monotonic() + 240
    while reached < 5 and process.poll() is None and time.monotonic() < deadline:
        time.sleep(0.05)
        with contextlib.suppress(OSError, ValueError):
            reached = len(json.loads(state.read_bytes())["reached"])
    assert process.poll() is None, "the build ended before it could be interrupted"
    process.send_signal(signum)
    out, err = process.communicate(timeout=120)
    assert process.returncode in (-signum, 130), (process.returncode, err)
    assert b"Traceback" not in out + err, err
    assert b"the same command resumes the build" in err, err
    assert not (tmp_path / "out").exists() and temporaries(tmp_path) == []
    assert state.is_file()
    for _ in range(100):  # the cluster's processes end with it
        if not session_alive(process.pid):
            break
        time.sleep(0.1)
    assert session_alive(process.pid) == []
    kept = len(json.loads(state.read_bytes())["reached"])
    assert kept >= reached

    again = run(BOOK_CLI, *command, cwd=tmp_path, timeout=300)
    assert again.returncode == 0, again.stderr
    assert f"{kept} layers reached".encode() in again.stderr, again.stderr
    assert folder_files(tmp_path / "out") == in_process("4x4:3")
    assert sorted(path.name for path in tmp_path.iterdir()) == ["out"]


@pytest.mark.parametrize("damage", ["none", "a part missing"])
def test_verify_on_a_local_cluster_says_what_verify_in_this_process_says(
    damage: str, tmp_path: Path, in_process: Callable[[str], dict[str, bytes]]
) -> None:
    """``ttt-book verify --engine dask FOLDER``: the same status and report as in this process."""
    folder = tmp_path / "parts"
    folder.mkdir()
    for name, data in in_process("3x4:3").items():
        (folder / name).write_bytes(data)
    if damage == "a part missing":
        (folder / "05-00000.part").unlink()
    here = run(BOOK_CLI, "verify", "parts", cwd=tmp_path, timeout=300)
    there = run(BOOK_CLI, "verify", "--engine", "dask", "parts", cwd=tmp_path, timeout=300)
    assert (there.returncode, there.stdout) == (here.returncode, here.stdout), there.stderr
    assert here.returncode == (0 if damage == "none" else 1)
    assert (b"[part-missing]" in here.stdout) == (damage != "none"), here.stdout
    assert sorted(path.name for path in tmp_path.iterdir()) == ["parts"]  # no work folder left


# ---------------------------------------------------------------- a scheduler and workers started by hand


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


@pytest.fixture
def scheduler(tmp_path: Path) -> Iterator[tuple[str, list[subprocess.Popen[bytes]]]]:
    """A ``dask scheduler`` and two ``dask worker`` processes (no nanny: a worker killed stays
    dead), each in its own session; their address and the workers' processes."""
    address = f"tcp://127.0.0.1:{free_port()}"
    started: list[subprocess.Popen[bytes]] = []

    def start(*args: str) -> subprocess.Popen[bytes]:
        process = subprocess.Popen(
            [str(BIN / "dask"), *args],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )
        started.append(process)
        return process

    try:
        start("scheduler", "--host", "127.0.0.1", "--port", address.rsplit(":", 1)[1], "--no-dashboard")
        workers = [
            start("worker", address, "--nthreads", "1", "--no-nanny", "--no-dashboard", "--name", f"w{n}")
            for n in (1, 2)
        ]
        with distributed.Client(address, timeout=60) as client:
            client.wait_for_workers(2, timeout=60)
        yield address, workers
    finally:
        for process in started:
            if process.poll() is None:
                os.killpg(process.pid, signal.SIGKILL)
            process.wait()


class Watched:
    """A DaskEngine that calls ``hook`` before each batch of tasks."""

    parts_a_task = DaskEngine.parts_a_task

    def __init__(self, engine: DaskEngine, hook: Callable[[], None]) -> None:
        self.engine, self.hook = engine, hook

    def map(self, task: Callable[..., T], calls: Sequence[tuple[Any, ...]]) -> list[T]:
        self.hook()
        return self.engine.map(task, calls)


def test_a_worker_killed_mid_build_changes_nothing(
    scheduler: tuple[str, list[subprocess.Popen[bytes]]],
    tmp_path: Path,
    in_process: Callable[[str], dict[str, bytes]],
) -> None:
    """Blocks of 4,096 rows (several tasks a layer); worker 1 killed with SIGKILL while layer 3's
    tasks run: Dask runs them again on worker 2, and the book is the same."""
    address, workers = scheduler
    victim = workers[0]
    with distributed.Client(address, timeout=60) as client:
        engine = DaskEngine(client)
        state = tmp_path / STATE
        killed = threading.Event()

        def kill_soon() -> None:
            reached = len(json.loads(state.read_bytes())["reached"])
            if reached == 3 and not killed.is_set():
                killed.set()
                threading.Timer(0.05, lambda: victim.send_signal(signal.SIGKILL)).start()

        built = build_by_layers(
            Rules(3, 4, 3), tmp_path, engine=Watched(engine, kill_soon), block=PART_ENTRIES
        )
        assert killed.is_set() and victim.wait(timeout=30) == -signal.SIGKILL
        assert built == in_process("3x4:3")
        ran = set(engine.ran)
        assert len(ran) == 2, engine.ran  # tasks ran on both workers (the victim before it died)


def test_the_command_on_a_named_scheduler_uses_both_workers(
    scheduler: tuple[str, list[subprocess.Popen[bytes]]],
    tmp_path: Path,
    in_process: Callable[[str], dict[str, bytes]],
) -> None:
    address, _ = scheduler
    done = run(
        BOOK_CLI, "build", "--rules", "3x4:3", "--parts", "--engine", "dask", "--scheduler", address,
        "-o", "out", cwd=tmp_path, timeout=300,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert folder_files(tmp_path / "out") == in_process("3x4:3")
    assert " tasks on 2 workers (" in done.stdout.decode()


def test_a_worker_without_the_work_folder_is_one_line(
    scheduler: tuple[str, list[subprocess.Popen[bytes]]], tmp_path: Path
) -> None:
    """A task on a worker that cannot see the work folder fails with the OutputError that says
    so, raised where the client gathers it: the command's one line, status 4."""
    address, _ = scheduler
    plan = Plan(Rules(3, 3, 3), "novice", str(tmp_path / "elsewhere"), PART_ENTRIES)
    with distributed.Client(address, timeout=60) as client, pytest.raises(OutputError) as error:
        DaskEngine(client).map(reach_block, [(plan, 0, 0)])
    assert "work folder is out of reach" in str(error.value) and "shared with the client" in str(error.value)


def test_a_scheduler_that_is_not_there_is_one_line(tmp_path: Path) -> None:
    address = f"tcp://127.0.0.1:{free_port()}"  # nothing listens there
    done = run(
        BOOK_CLI, "build", "--rules", "3x3", "--parts", "--engine", "dask", "--scheduler", address,
        "-o", "out", cwd=tmp_path, timeout=120,
    )  # fmt: skip
    assert_one_line(done, 3, f"no Dask scheduler answers at {address}")
    assert list(tmp_path.iterdir()) == []


def test_without_dask_the_engine_is_one_line_naming_the_extra(tmp_path: Path) -> None:
    done = run(
        BOOK_CLI, "build", "--rules", "3x3", "--parts", "--engine", "dask", "-o", "out",
        preamble="import sys; sys.modules['distributed'] = None", cwd=tmp_path,
    )  # fmt: skip
    assert_one_line(done, 1, "--engine dask needs distributed", "[cluster]")
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["--rules", "3x4:3", "--engine", "dask", "-o", "b.json"], "--engine dask builds a book by parts"),
        (
            ["--rules", "3x4:3", "--parts", "--scheduler", "tcp://127.0.0.1:1", "-o", "p"],
            "--scheduler is for --engine dask",
        ),
        (  # (it said "no Dask scheduler answers at :", status 3)
            ["--rules", "3x4:3", "--parts", "--engine", "dask", "--scheduler", " ", "-o", "p"],
            "give the scheduler's address, such as tcp://HOST:8786",
        ),
    ],
)
def test_engine_options_that_cannot_go_together(args: list[str], words: str, tmp_path: Path) -> None:
    assert_usage_error(run(BOOK_CLI, "build", *args, cwd=tmp_path), words)
    assert list(tmp_path.iterdir()) == []


# ---------------------------------------------------------------- resuming, in this process


class Interrupting:
    """LOCAL, but Ctrl-C comes after ``after`` batches of tasks; every call of a task recorded."""

    parts_a_task = LOCAL.parts_a_task

    def __init__(self, after: int | None = None) -> None:
        self.after, self.batches = after, 0
        self.calls: list[tuple[str, int]] = []

    def map(self, task: Callable[..., T], calls: Sequence[tuple[Any, ...]]) -> list[T]:
        if self.after is not None and self.batches == self.after:
            raise KeyboardInterrupt
        self.batches += 1
        self.calls += [(task.__name__, args[1]) for args in calls]
        return LOCAL.map(task, calls)


@pytest.mark.parametrize("after", [7, 40], ids=["forward", "backward"])
def test_a_build_resumes_from_its_last_finished_layer(
    after: int, tmp_path: Path, in_process: Callable[[str], dict[str, bytes]]
) -> None:
    """Interrupted in the forward pass (after 7 batches: layer 1 done, layer 2 begun) or in the
    backward one: the rerun does no layer the record says is done, and writes the same files."""
    rules = Rules(3, 4, 3)
    with pytest.raises(KeyboardInterrupt):
        build_by_layers(rules, tmp_path, engine=Interrupting(after))
    record = json.loads((tmp_path / STATE).read_bytes())
    reached, solved = len(record["reached"]), {int(m) for m in record["solved"]}
    assert reached >= 1 and (after == 7) == (not solved)
    again = Interrupting()
    assert build_by_layers(rules, tmp_path, engine=again) == in_process("3x4:3")
    assert {m for name, m in again.calls if name == "reach_block"} == set(range(reached, rules.cells + 1))
    assert {m for name, m in again.calls if name == "solve_block"}.isdisjoint(solved)
    assert list(tmp_path.iterdir()) == []


def test_a_work_folder_of_another_build_is_refused(tmp_path: Path) -> None:
    with pytest.raises(KeyboardInterrupt):
        build_by_layers(Rules(3, 3, 3), tmp_path, engine=Interrupting(3))
    with pytest.raises(OutputError, match="work folder of another build"):
        build_by_layers(Rules(3, 4, 3), tmp_path)


def test_a_write_that_fails_after_the_build_keeps_it_and_the_same_call_writes_at_once(
    tmp_path: Path, in_process: Callable[[str], dict[str, bytes]]
) -> None:
    """A folder where the manifest should be: refused after the build, which is kept; that
    folder removed, the same call writes the book without one task run again."""
    out = tmp_path / "out"
    (out / "manifest.json").mkdir(parents=True)
    with pytest.raises(OutputError, match=r"manifest\.json"):
        write_parts(out, Rules(3, 4, 3))
    assert (tmp_path / f".out{RESUMABLE_SUFFIX}" / STATE).is_file()
    (out / "manifest.json").rmdir()
    again = Interrupting()
    write_parts(out, Rules(3, 4, 3), engine=again)
    assert again.calls == []
    assert folder_files(out) == in_process("3x4:3")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out"]

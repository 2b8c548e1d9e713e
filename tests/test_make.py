"""What the Makefile's long targets print and install (issue 33, item 9).

* ``make test-js``: a dot per passing test, every failure in full, one line of counts; not node's
  default TAP, some 900 lines that ``make test`` printed before pytest's.
* ``make bench``: each measurement said as it starts, at once even through a pipe (``make bench |
  tee``); it needs the build extra and the build backend, not the test and lint tools, and a
  ``.venv`` that has them installs nothing more.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_make_test_js_prints_dots_every_failure_in_full_and_the_counts(tmp_path: Path) -> None:
    (tmp_path / "some.test.mjs").write_text(
        "import test from 'node:test';\n"
        "import assert from 'node:assert';\n"
        "test('passes', () => {});\n"
        "test('fails here', () => { assert.strictEqual(1, 2); });\n"
    )
    done = subprocess.run(
        ["make", "--no-print-directory", "test-js", f"JS_TESTS={tmp_path}"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode != 0
    shown = done.stdout
    assert "TAP version" not in shown and "# pass" not in shown
    assert "fails here" in shown and "1 !== 2" in shown and "some.test.mjs:4" in shown  # in full
    assert "node --test: 2 tests, 1 passed, 1 failed, 0 skipped" in shown
    assert len(shown.splitlines()) < 40, shown


def planned(venv: Path, target: str) -> str:
    """What ``make -n TARGET`` would run with the environment in ``venv``."""
    done = subprocess.run(
        ["make", "-n", "--no-print-directory", target, f"VENV={venv}"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_make_bench_installs_only_what_it_needs_and_once(tmp_path: Path) -> None:
    """After make play and make book (the runtime and the build extra in .venv), make bench adds
    the build backend alone, never the test and lint extras nor the project again; once done, it
    installs nothing."""
    venv = tmp_path / ".venv"
    venv.mkdir()
    for stamp in (".installed-runtime", ".installed-build"):
        (venv / stamp).touch()
    plan = planned(venv, "bench")
    installs = [line for line in plan.splitlines() if "pip install" in line]
    assert len(installs) == 1 and "build-system" in installs[0], plan
    assert "[test" not in plan and "dev" not in plan and " -e " not in plan, plan
    (venv / ".installed-bench").touch()
    assert "pip" not in planned(venv, "bench")


# A bench whose measurements are stubs: the first said, then a wait for the test's signal (a
# file), then the second. Through a pipe, the first line must arrive before the signal is given.
STUB_BENCH = """
import os, sys, time
sys.path.insert(0, os.path.join(os.environ["ROOT"], "bench"))
import run
signal = os.environ["SIGNAL"]
def measure(started):
    run.step(started, "first measurement")
    deadline = time.monotonic() + 20
    while not os.path.exists(signal) and time.monotonic() < deadline:
        time.sleep(0.05)
    run.step(started, "second measurement")
    return {"bench_seconds": 0.0}
run.measure = measure
run.render = lambda figures: "REPORT"
run.write_atomically = lambda path, data: None
run.main([])
"""


def test_make_bench_says_each_measurement_as_it_starts_through_a_pipe(tmp_path: Path) -> None:
    signal = tmp_path / "go"
    env = dict(os.environ, ROOT=str(ROOT), SIGNAL=str(signal))
    with subprocess.Popen(
        [sys.executable, "-c", STUB_BENCH], cwd=ROOT, env=env, stdout=subprocess.PIPE, text=True
    ) as bench:
        assert bench.stdout is not None
        first = bench.stdout.readline()  # a pipe: block-buffered unless flushed
        running = bench.poll() is None
        signal.touch()
        rest = bench.stdout.read()
    assert first.startswith("bench, ") and first.rstrip().endswith("first measurement")
    assert running, "the first line came only when the bench ended"
    assert "second measurement" in rest and "REPORT" in rest

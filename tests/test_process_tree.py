"""A parallel run that ends well leaves no process behind: its workers end with it.

Each command runs in a session (process group) of its own; once it has exited, no process
of that group may be left. (Interrupted runs are checked in ``test_interrupts.py``.)
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from .conftest import EXAMPLES, ROOT
from .test_interrupts import _group_size


@pytest.mark.parametrize("command", [
    ["audit", str(EXAMPLES), "--jobs", "2", "--format", "json"],
    ["stats", str(EXAMPLES), "--jobs", "2", "--format", "csv"],
])
def test_a_parallel_run_leaves_no_process(command: list[str], tmp_path: Path) -> None:
    proc = subprocess.Popen([sys.executable, "-m", "mjlog.cli", *command], cwd=tmp_path,
                            env={**os.environ, "PYTHONPATH": str(ROOT)},
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                            start_new_session=True)
    _, err = proc.communicate(timeout=120)
    assert proc.returncode in (0, 1), err  # the examples hold errors on purpose
    assert b"Traceback" not in err and b"Exception ignored" not in err, err
    deadline = time.monotonic() + 1
    while _group_size(proc.pid) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert _group_size(proc.pid) == 0, "worker processes were left behind"


_KILLED_WORKER = """
import os, signal, sys, time
from mjlog.run import parallel
if __name__ == "__main__":
    signal.signal(signal.SIGINT, parallel.interrupted)
    with parallel.workers(1, patience=2) as pool:
        worker = pool.apply(os.getpid)
        lock = pool._inqueue._rlock
        while lock.acquire(block=False):  # the worker is not back at the task queue yet
            lock.release()
            time.sleep(0.01)
        # the worker waits for its next task, holding the task queue's lock
        os.kill(worker, signal.SIGKILL)  # as the out-of-memory killer does
        while not any(w.pid != worker and w.is_alive() for w in list(pool._pool)):
            time.sleep(0.01)  # the pool starts a worker in its place
        print("killed", flush=True)
        time.sleep(120)
"""


def test_an_interrupt_ends_a_run_whose_worker_was_killed_outright(tmp_path: Path) -> None:
    """A worker killed outright leaves the pool's task queue locked, so that stopping the
    pool the usual way never returns; the interrupt still ends the run, and every process
    of its group, within a few seconds."""
    proc = subprocess.Popen([sys.executable, "-c", _KILLED_WORKER], cwd=tmp_path,
                            env={**os.environ, "PYTHONPATH": str(ROOT)},
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            start_new_session=True)
    # "killed": the worker was killed holding the queue's lock, and another started
    assert proc.stdout is not None and proc.stdout.readline() == b"killed\n"
    os.killpg(proc.pid, signal.SIGINT)
    try:
        status = proc.wait(timeout=30)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
    assert status == 130, proc.stderr.read() if proc.stderr else b""
    deadline = time.monotonic() + 5
    while _group_size(proc.pid) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert _group_size(proc.pid) == 0, "worker processes were left behind"

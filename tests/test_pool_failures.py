"""A local pool (``--jobs``) whose worker dies in the middle of a batch, as the kernel's
out-of-memory killer or a crash in a C library would do it: the run goes on and gives what
a run without the death gives (the cluster's counterpart is in ``test_cluster.py``).

The commands run in real subprocesses; a worker is killed with SIGKILL from outside, or
exits on its own when it reads a marked record (``tests/cluster/poison.py``, loaded into
the workers only, by a ``sitecustomize`` module put first on their path).
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from .cluster.poison import MARK, MARK_SENDING, MARK_SLOW, READING
from .conftest import CORPUS, CORPUS_MISSING, ROOT
from .test_interrupts import _POISONED_WORKERS, _group_size, _processes

pytestmark = pytest.mark.slow  # whole audits of corpus records

XML = CORPUS / "tenhou-xml"


def _records(tmp_path: Path, count: int, *, linked: bool = False) -> Path:
    """A folder of ``count`` Tenhou records of the corpus (copies, or links), taken in
    order and again from the first when the corpus has fewer."""
    if not XML.is_dir():
        pytest.skip(CORPUS_MISSING)
    folder = tmp_path / "records"
    folder.mkdir()
    found = sorted(XML.rglob("*.mjlog"))
    for i in range(count):
        path = found[i % len(found)]
        if linked:
            (folder / f"{i:05}.mjlog").symlink_to(path)
        else:
            (folder / f"{i:05}.mjlog").write_bytes(path.read_bytes())
    return folder


def _mjlog(*args: str, path: tuple[Path, ...] = (),
           env: dict[str, str] | None = None) -> subprocess.Popen[str]:
    return subprocess.Popen([sys.executable, "-m", "mjlog.cli", *args],
                            env={**os.environ, **(env or {}), "PYTHONPATH": os.pathsep.join(
                                map(str, [*path, ROOT]))},
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=True)


def _workers(pid: int) -> list[int]:
    """The pool workers among the children of process ``pid``."""
    found = []
    for folder, fields in _processes():
        with contextlib.suppress(OSError):
            if int(fields[1]) == pid and b"spawn_main" in (folder / "cmdline").read_bytes():
                found.append(int(folder.name))
    return found


def _finished(proc: subprocess.Popen[str], timeout: float = 300) -> tuple[str, str]:
    out, err = proc.communicate(timeout=timeout)
    deadline = time.monotonic() + 5
    while _group_size(proc.pid) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert _group_size(proc.pid) == 0, "worker processes were left behind"
    return out, err


def test_a_worker_killed_mid_batch_changes_nothing_in_the_report(tmp_path: Path) -> None:
    """The worker killed is the one reading a slow record (it says so, and which it is,
    before its three seconds): killed in the middle of its batch, whatever the load."""
    folder, _, site = _poisoned(tmp_path, MARK_SLOW)
    unharmed = _mjlog("audit", str(folder), "--format", "json", "--jobs", "2")
    expected, _ = _finished(unharmed)
    reading = tmp_path / "reading"
    proc = _mjlog("audit", str(folder), "--format", "json", "--jobs", "2", path=(site,),
                  env={READING: str(reading)})
    deadline = time.monotonic() + 120
    while not reading.exists():
        assert proc.poll() is None, "the run ended before a worker read the slow record"
        assert time.monotonic() < deadline, "no worker read the slow record in two minutes"
        time.sleep(0.05)
    worker = int(reading.read_text())
    assert worker in _workers(proc.pid)
    os.kill(worker, signal.SIGKILL)
    out, err = _finished(proc)
    assert proc.returncode == unharmed.returncode, err
    assert "a worker process was killed by signal 9 (SIGKILL) in the middle of a batch" in err
    assert json.loads(out) == json.loads(expected)


def _poisoned(tmp_path: Path, mark: bytes) -> tuple[Path, Path, Path]:
    """40 records, the 21st holding ``mark``, and a folder whose ``sitecustomize`` loads
    ``tests/cluster/poison.py`` into a pool's workers: (records, the marked one, folder)."""
    folder = _records(tmp_path, 40)
    poison = folder / sorted(p.name for p in folder.iterdir())[20]
    poison.write_bytes(poison.read_bytes() + b"<!-- " + mark + b" -->")
    site = tmp_path / "site"
    site.mkdir()
    (site / "sitecustomize.py").write_text(_POISONED_WORKERS)
    return folder, poison, site


def test_a_record_that_ends_its_workers_is_reported(tmp_path: Path) -> None:
    folder, poison, site = _poisoned(tmp_path, MARK)
    proc = _mjlog("audit", str(folder), "--format", "json", "--jobs", "2", path=(site,))
    out, err = _finished(proc)
    assert proc.returncode == 2, err  # an input could not be read
    report = json.loads(out)
    [unreadable] = report["unreadable"]
    assert unreadable["path"] == str(poison) and unreadable["code"] == "worker-died"
    assert "a worker process exited with code 70 in the middle of a batch of 2 files" in err
    tables = {}
    for route in ((), ("--keep-duplicates",)):  # fact rows back, or counters only
        stats = _mjlog("stats", str(folder), "--format", "csv", "--jobs", "2", *route,
                       path=(site,))
        tables[route], err = _finished(stats)
        assert stats.returncode == 0, err
        assert f"warning: {poison}: left out: the worker processes reading it exited" in err
    poison.unlink()  # the workers' counters are those of the records left
    route = ("--keep-duplicates",)
    assert _finished(_mjlog("stats", str(folder), "--format", "csv", *route))[0] == tables[route]
    local, _ = _finished(_mjlog("audit", str(folder), "--format", "json"))
    assert len(json.loads(local)["games"]) == 39
    assert report["games"] == json.loads(local)["games"]


@pytest.mark.parametrize("slow_before", [False, True], ids=["alone", "after-a-slow-batch"])
def test_a_worker_that_dies_sending_its_result_does_not_stall_the_run(
        tmp_path: Path, slow_before: bool) -> None:
    """A worker that dies halfway through sending its batch's result, holding the result
    queue's lock, leaves its pool unable to return any result again (a run waited forever
    for one): the pool is given up, the batch is run file by file and the batches not yet
    returned in a new pool, and the report is the one of the other 39 games.

    With ``slow_before``, the batch before the dying worker's takes three seconds: the
    parent waits for it while the other worker dies, and its worker, alive, can never send
    its result. A parent that watched only the batch it waited for waited forever."""
    folder, poison, site = _poisoned(tmp_path, MARK_SENDING)
    if slow_before:
        slow = folder / sorted(p.name for p in folder.iterdir())[18]  # the batch before
        slow.write_bytes(slow.read_bytes() + b"<!-- " + MARK_SLOW + b" -->")
    proc = _mjlog("audit", str(folder), "--format", "json", "--jobs", "2", path=(site,))
    try:
        out, err = _finished(proc, timeout=120)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        raise
    assert proc.returncode == 2, err  # an input could not be read
    report = json.loads(out)
    [unreadable] = report["unreadable"]
    assert unreadable["path"] == str(poison) and unreadable["code"] == "worker-died"
    assert "a worker process exited with code 71 in the middle of a batch of 2 files" in err
    poison.unlink()
    local, _ = _finished(_mjlog("audit", str(folder), "--format", "json"))
    assert report["games"] == json.loads(local)["games"]

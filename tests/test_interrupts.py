"""Interrupting a long run: the command line in a real subprocess, stopped by a real signal
sent to its whole process group (as Ctrl-C does), halfway through the corpus.

The signal goes once the run shows it is under way, never after a fixed time: a worker
says it is reading a record (``tests/cluster/poison.py``, loaded into the workers), or the
run's first outputs appear in its staging folder."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from .cluster.poison import MARK_SLOW, READING
from .conftest import CORPUS, CORPUS_MISSING, ROOT

pytestmark = pytest.mark.slow  # real runs over the corpus, interrupted

XML = CORPUS / "tenhou-xml"


_MJLOG = ("import faulthandler, signal; faulthandler.register(signal.SIGUSR1, all_threads=True)"
          "; from mjlog.cli import run; run()")
"""``mjlog``, which prints where each of its threads is when sent SIGUSR1."""


_POISONED_WORKERS = """import sys
if "--multiprocessing-fork" in sys.argv:  # a pool's worker, not the command itself
    import tests.cluster.poison
"""


class Slow:
    """A corpus record marked to take its worker three seconds (:data:`MARK_SLOW`), in
    ``folder``, with what makes a run's workers say when they read it: put it first among
    the inputs, run with :attr:`env`, and :meth:`begun` is true once a worker is in the
    middle of the first batch."""

    def __init__(self, folder: Path) -> None:
        first = min(XML.rglob("*.mjlog"))
        self.record = folder / first.name
        self.record.write_bytes(first.read_bytes() + b"<!-- " + MARK_SLOW + b" -->")
        (folder / "site").mkdir()
        (folder / "site" / "sitecustomize.py").write_text(_POISONED_WORKERS)
        self.reading = folder / "reading"
        self.env = {READING: str(self.reading),
                    "PYTHONPATH": os.pathsep.join(map(str, [folder / "site", ROOT]))}

    def begun(self) -> bool:
        """Whether a worker has begun reading the slow record."""
        return self.reading.exists()


def _interrupt(args: list[str], cwd: Path, begun: Callable[[], bool],
               sig: int = signal.SIGINT, env: dict[str, str] | None = None) -> int:
    """Run ``mjlog ARGS`` (with ``env`` added to the environment), signal its process
    group as soon as ``begun()`` says it is under way, and return its exit status once
    every process of the group is gone. A run that does not end within a minute fails
    the test with the stacks of its threads."""
    with tempfile.TemporaryFile() as err:
        proc = subprocess.Popen([sys.executable, "-c", _MJLOG, *args], cwd=cwd,
                                env={**os.environ, "PYTHONPATH": str(ROOT), **(env or {})},
                                stdout=subprocess.DEVNULL, stderr=err, start_new_session=True)
        _wait_until(proc, begun)
        os.killpg(proc.pid, sig)
        try:
            status = proc.wait(timeout=60)
        except subprocess.TimeoutExpired:
            os.kill(proc.pid, signal.SIGUSR1)
            time.sleep(1)
            os.killpg(proc.pid, signal.SIGKILL)
            err.seek(0)
            raise AssertionError("the interrupted run did not end; its threads:\n"
                                 + err.read().decode(errors="replace")[-8000:]) from None
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        try:
            os.killpg(proc.pid, 0)
        except ProcessLookupError:
            return status
        time.sleep(0.2)
    os.killpg(proc.pid, signal.SIGKILL)
    raise AssertionError("processes of the run were left behind")


def _processes() -> Iterator[tuple[Path, list[str]]]:
    """Each process's /proc folder and the fields of its ``stat`` after the command's
    name (state, parent, group, …); processes gone while read are left out."""
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            yield stat.parent, stat.read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue


def _group_size(pgid: int) -> int:
    """How many live processes are in process group ``pgid``."""
    return sum(1 for _, fields in _processes() if int(fields[2]) == pgid and fields[0] != "Z")


def _wait_until(proc: subprocess.Popen[bytes], begun: Callable[[], bool]) -> None:
    """Return once ``begun()`` (the run is under way), so that the signal lands in the
    middle of the work, not before it, however loaded the machine; fail if the run ends
    first or has not begun in two minutes."""
    deadline = time.monotonic() + 120
    while not begun():
        assert proc.poll() is None, "the run ended before it could be interrupted"
        assert time.monotonic() < deadline, "the run did not get under way in two minutes"
        time.sleep(0.05)


def _staged(folder: Path, pattern: str) -> Callable[[], bool]:
    """A test of whether a file matching ``pattern`` is in ``folder`` (a run's staging
    folder); one that goes while it is looked at is not."""
    def found() -> bool:
        try:
            return any(p.is_file() for p in folder.glob(pattern))
        except OSError:
            return False
    return found


def _left(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.rglob("*"))


@pytest.fixture(autouse=True)
def _corpus() -> None:
    if not XML.is_dir():
        pytest.skip(CORPUS_MISSING)


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM])
def test_an_interrupted_audit_keeps_the_previous_report(
        tmp_path: Path, tmp_path_factory: pytest.TempPathFactory, sig: int) -> None:
    report = tmp_path / "report.json"
    report.write_text("the previous report")
    slow = Slow(tmp_path_factory.mktemp("slow"))
    status = _interrupt(["audit", str(slow.record), str(XML), "--jobs", "2", "--format",
                         "json", "-o", str(report)], tmp_path, slow.begun, sig, slow.env)
    assert status == 128 + sig
    assert report.read_text() == "the previous report" and _left(tmp_path) == ["report.json"]


def test_an_interrupted_stats_run_keeps_the_previous_table(tmp_path: Path) -> None:
    """The table, the report and the facts folder of the previous run stay as they were,
    and no partial facts folder is left beside them."""
    table = tmp_path / "table.csv"
    table.write_text("the previous table")
    facts = tmp_path / "facts"  # a facts folder of mjlog's (only such is replaced)
    (facts / "games").mkdir(parents=True)
    (facts / "games" / "part-00000.parquet").write_text("the previous facts")
    (facts / "_manifest.json").write_text("the previous manifest")
    # Statistics run fast (a few seconds for the folder): the folder four times over keeps the
    # run going long enough to be interrupted in the middle.
    status = _interrupt(["stats", *[str(XML)] * 4, "--jobs", "2", "-o", str(table),
                         "--facts", str(facts), "--overwrite", "--report",
                         str(tmp_path / "report.html")], tmp_path,
                        _staged(tmp_path, ".facts.partial-*/*/part-*.parquet"))
    assert status == 130
    assert table.read_text() == "the previous table"
    assert _left(tmp_path) == ["_manifest.json", "facts", "games", "part-00000.parquet",
                               "table.csv"]
    assert (facts / "games" / "part-00000.parquet").read_text() == "the previous facts"
    assert (facts / "_manifest.json").read_text() == "the previous manifest"


def test_an_interrupted_conversion_leaves_the_folder_as_it_was(tmp_path: Path) -> None:
    out = tmp_path / "out"
    out.mkdir()
    (out / "mine.txt").write_text("a file of the user's")
    status = _interrupt(["convert", str(XML), "-t", "jsonl", "--keep-extension", "-o", str(out)],
                        tmp_path, _staged(tmp_path, ".out.*.part/**/*"))
    assert status == 130
    assert _left(tmp_path) == ["mine.txt", "out"]
    assert (out / "mine.txt").read_text() == "a file of the user's"

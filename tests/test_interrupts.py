"""Interrupting a long run: the command line in a real subprocess, stopped by a real signal
sent to its whole process group (as Ctrl-C does), halfway through the corpus."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from .conftest import CORPUS, CORPUS_MISSING, ROOT

pytestmark = pytest.mark.slow  # real runs over the corpus, interrupted

XML = CORPUS / "tenhou-xml"


_MJLOG = ("import faulthandler, signal; faulthandler.register(signal.SIGUSR1, all_threads=True)"
          "; from mjlog.cli import run; run()")
"""``mjlog``, which prints where each of its threads is when sent SIGUSR1."""


def _interrupt(args: list[str], cwd: Path, sig: int = signal.SIGINT, workers: int = 2) -> int:
    """Run ``mjlog ARGS``, signal its process group once it is under way, and return its
    exit status once every process of the group is gone. A run that does not end within
    a minute fails the test with the stacks of its threads."""
    if not XML.is_dir():
        pytest.skip(CORPUS_MISSING)
    with tempfile.TemporaryFile() as err:
        proc = subprocess.Popen([sys.executable, "-c", _MJLOG, *args], cwd=cwd,
                                env={**os.environ, "PYTHONPATH": str(ROOT)},
                                stdout=subprocess.DEVNULL, stderr=err, start_new_session=True)
        _wait_for_workers(proc, workers)
        time.sleep(1)  # the first files
        assert proc.poll() is None, "the run ended before it could be interrupted"
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


def _wait_for_workers(proc: subprocess.Popen[bytes], workers: int) -> None:
    """Return once the run's worker processes have started (the parent plus ``workers``
    in its group), so that the signal lands in the middle of the work, not before it; with
    no workers, once the interpreter has had time to start."""
    if not workers:
        time.sleep(2)
        return
    deadline = time.monotonic() + 60
    while _group_size(proc.pid) < 1 + workers:
        assert proc.poll() is None, "the run ended before its workers started"
        assert time.monotonic() < deadline, "the run's workers never started"
        time.sleep(0.05)


def _left(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.rglob("*"))


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM])
def test_an_interrupted_audit_keeps_the_previous_report(tmp_path: Path, sig: int) -> None:
    report = tmp_path / "report.json"
    report.write_text("the previous report")
    status = _interrupt(["audit", str(XML), "--jobs", "2", "--format", "json",
                         "-o", str(report)], tmp_path, sig)
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
                         str(tmp_path / "report.html")], tmp_path)
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
                        tmp_path, workers=0)
    assert status == 130
    assert _left(tmp_path) == ["mine.txt", "out"]
    assert (out / "mine.txt").read_text() == "a file of the user's"

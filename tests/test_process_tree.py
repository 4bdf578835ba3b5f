"""A parallel run that ends well leaves no process behind: its workers end with it.

Each command runs in a session (process group) of its own; once it has exited, no process
of that group may be left. (Interrupted runs are checked in ``test_interrupts.py``.)
"""

from __future__ import annotations

import os
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

"""The audit is deterministic: the whole corpus, audited with one process and with two,
twice each, gives the same JSON report byte for byte."""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
from pathlib import Path

import pytest

from .conftest import CORPUS, CORPUS_MISSING, ROOT

pytestmark = pytest.mark.slow  # four audits of the whole corpus


def _report(jobs: int, out: Path) -> str:
    """The SHA-256 of ``mjlog audit CORPUS --format json --jobs JOBS`` (written to ``out``)."""
    proc = subprocess.run(
        [sys.executable, "-m", "mjlog.cli", "audit", str(CORPUS), "--format", "json",
         "--jobs", str(jobs), "-o", str(out)],
        env={**os.environ, "PYTHONPATH": str(ROOT)}, capture_output=True, check=False)
    assert proc.returncode in (0, 1), proc.stderr.decode(errors="replace")
    return hashlib.sha256(out.read_bytes()).hexdigest()


def test_the_corpus_audit_is_the_same_with_one_process_and_two_twice_each(
        tmp_path: Path) -> None:
    if not CORPUS.is_dir():
        pytest.skip(CORPUS_MISSING)
    digests = {f"jobs {jobs}, run {run}": _report(jobs, tmp_path / f"{jobs}-{run}.json")
               for run in (1, 2) for jobs in (1, 2)}
    assert len(set(digests.values())) == 1, digests
    assert (tmp_path / "1-1.json").stat().st_size > 1_000_000  # the whole corpus was read

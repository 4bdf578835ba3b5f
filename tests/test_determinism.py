"""The audit is deterministic: the whole corpus, audited with one process and with two,
each run under another hash seed, gives the same JSON report byte for byte."""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
from pathlib import Path

import pytest

from .conftest import CORPUS, CORPUS_MISSING, ROOT

pytestmark = pytest.mark.slow  # two audits of the whole corpus


def _report(jobs: int, seed: int, out: Path) -> str:
    """The SHA-256 of ``mjlog audit CORPUS --format json --jobs JOBS`` (written to ``out``),
    run with ``PYTHONHASHSEED=seed`` (its workers too)."""
    proc = subprocess.run(
        [sys.executable, "-m", "mjlog.cli", "audit", str(CORPUS), "--format", "json",
         "--jobs", str(jobs), "-o", str(out)],
        env={**os.environ, "PYTHONPATH": str(ROOT), "PYTHONHASHSEED": str(seed)},
        capture_output=True, check=False)
    assert proc.returncode in (0, 1), proc.stderr.decode(errors="replace")
    return hashlib.sha256(out.read_bytes()).hexdigest()


def test_the_corpus_audit_is_the_same_with_one_process_and_two_under_two_hash_seeds(
        tmp_path: Path) -> None:
    """A set or a dict walked in hash order, a result taken as it comes back from a worker,
    or a batch boundary that changes anything would each show as a different report."""
    if not CORPUS.is_dir():
        pytest.skip(CORPUS_MISSING)
    digests = {f"jobs {jobs}, hash seed {seed}": _report(jobs, seed, tmp_path / f"{seed}.json")
               for jobs, seed in ((1, 1), (2, 2))}
    assert len(set(digests.values())) == 1, digests
    assert (tmp_path / "1.json").stat().st_size > 1_000_000  # the whole corpus was read

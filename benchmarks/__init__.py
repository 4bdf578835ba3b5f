"""Benchmarks of mjlog, run as scripts (``python benchmarks/bench_rules.py``)."""

from __future__ import annotations

import gc
import time
from collections.abc import Callable


def timed(fn: Callable[[], object]) -> float:
    """Seconds one call of ``fn`` takes (garbage collected before)."""
    gc.collect()
    t = time.perf_counter()
    fn()
    return time.perf_counter() - t

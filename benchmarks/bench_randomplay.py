"""Benchmark: legal random play, and auditing the games it plays.

Usage::

    python benchmarks/bench_randomplay.py [--games N] [--rules PRESET ...]

For each preset (default ``tenhou``, ``tenhou-sanma`` and ``taiwan16``), side by side in
one run: playing N games (:func:`mjlog.families.registry.random_game`), the bare
replay of those games, and their whole audit (replay, rule checks and score
verification: :func:`mjlog.reports.audit.audit_record`). Prints games/s, moves/s of
play and the audit's ratio to play and to the bare replay.
"""

from __future__ import annotations

import argparse
import gc
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from mjlog.core.events import MOVES  # noqa: E402
from mjlog.core.ruleset import preset  # noqa: E402
from mjlog.families.registry import random_game  # noqa: E402
from mjlog.replay.engine import replay  # noqa: E402
from mjlog.reports.audit import audit_record  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--rules", nargs="*", default=["tenhou", "tenhou-sanma", "taiwan16"])
    args = parser.parse_args()
    for name in args.rules:
        rs = preset(name)
        random_game(rs, -1)  # warm the hand kernel's tables
        gc.collect()
        t = time.perf_counter()
        records = [random_game(rs, seed) for seed in range(args.games)]
        play = time.perf_counter() - t
        moves = sum(isinstance(ev, MOVES) for rec in records for ev in rec.events)
        gc.collect()
        t = time.perf_counter()
        for rec in records:
            replay(rec)
        bare = time.perf_counter() - t
        gc.collect()
        t = time.perf_counter()
        problems = 0
        for rec in records:
            rep = audit_record(rec, wall=False)
            problems += len(rep.findings) + len(rep.violations) + len(rep.mismatches)
        audit = time.perf_counter() - t
        n = len(records)
        print(f"{name}: {n} games, {moves} moves, {problems} problems found")
        print(f"  play    {n / play:8.1f} games/s  {moves / play:9.0f} moves/s")
        print(f"  replay  {n / bare:8.1f} games/s")
        print(f"  audit   {n / audit:8.1f} games/s  ({audit / play:.2f}x play time, "
              f"{audit / bare:.1f}x the bare replay)")


if __name__ == "__main__":
    main()

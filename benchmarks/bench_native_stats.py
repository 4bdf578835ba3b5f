"""Benchmark: `mjlog stats` on the native core against the Python route (and, with
``--base REV``, against an earlier version), side by side in one run.

Usage::

    python benchmarks/bench_native_stats.py [FOLDER] [--pairs N] [--base REV]

Runs ``mjlog stats FOLDER --metrics all --format csv`` (FOLDER defaults to
``../shared/corpus/tenhou-xml``) in a fresh process per run, one process at a time, the
routes taking turns ``--pairs`` times (5 by default): native, then ``MJLOG_PURE=1``, then the
base version's checkout when given. Each run's processor time (user + system, of the
process and its children) is measured, and the figure that decides is the median over the
turns of each turn's own ratio, so that a slow spell of a shared machine slows both alike.
Each run over FOLDER is paired with a run over one game (``examples/east-riichi.mjlog``):
the difference is the time the games themselves take, without the process's start
(imports), which is the rate an archive of many thousands of games sees. Prints games/s of
each route, with and without the start, and the ratios both ways, and checks that every
run wrote the same table byte for byte (exit 1 if not).
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _run(checkout: Path, folder: str, out: Path, pure: bool) -> tuple[float, float]:
    """One ``mjlog stats`` process: its processor time and wall time, in seconds."""
    env = {k: v for k, v in os.environ.items() if k != "MJLOG_PURE"}
    if pure:
        env["MJLOG_PURE"] = "1"
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run([sys.executable, "-m", "mjlog.cli", "stats", folder, "--metrics", "all",
                    "--format", "csv", "-o", str(out)], cwd=checkout, env=env, check=True,
                   capture_output=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return cpu, wall


def _games(folder: str) -> int:
    """How many record files the folder holds (Tenhou XML: one game each)."""
    return sum(1 for p in Path(folder).rglob("*") if p.is_file() and p.suffix != ".tsv")


def main() -> int:
    """Measure the routes in turns and print their figures."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("folder", nargs="?", default=str(ROOT.parent / "shared/corpus/tenhou-xml"))
    ap.add_argument("--pairs", type=int, default=5)
    ap.add_argument("--base", help="also measure this commit (pure Python then)")
    args = ap.parse_args()
    folder = str(Path(args.folder).resolve())
    work = Path(tempfile.mkdtemp(prefix="mjlog-bench-stats-"))
    routes: dict[str, tuple[Path, bool]] = {"native": (ROOT, False), "python": (ROOT, True)}
    if args.base:
        base = work / "base"
        subprocess.run(["git", "worktree", "add", "--detach", str(base), args.base], cwd=ROOT,
                       check=True, capture_output=True)
        routes["base"] = (base, True)
    try:
        times: dict[str, list[float]] = {name: [] for name in routes}
        starts: dict[str, list[float]] = {name: [] for name in routes}
        outputs: set[bytes] = set()
        one = str(ROOT / "examples" / "east-riichi.mjlog")
        for turn in range(args.pairs):
            for name, (checkout, pure) in routes.items():
                out = work / f"{name}.csv"
                cpu, wall = _run(checkout, folder, out, pure)
                start, _ = _run(checkout, one, work / "one.csv", pure)
                times[name].append(cpu)
                starts[name].append(start)
                outputs.add(out.read_bytes())
                print(f"turn {turn + 1} {name:7} {cpu:6.2f} s processor ({wall:6.2f} s wall), "
                      f"one game {start:.2f} s")
        games = _games(folder)
        net = {name: [t - s for t, s in zip(times[name], starts[name], strict=True)]
               for name in routes}
        for name in routes:
            print(f"{name:7} best {min(times[name]):.2f} s: {games / min(times[name]):.0f} "
                  f"games/s; without the start {min(net[name]):.2f} s: "
                  f"{(games - 1) / min(net[name]):.0f} games/s")
        for other in [n for n in routes if n != "native"]:
            for label, series in (("whole runs", times), ("without the start", net)):
                ratios = [o / n for o, n in zip(series[other], series["native"], strict=True)]
                print(f"native against {other}, {label}: x{statistics.median(ratios):.2f} "
                      f"(median of {len(ratios)} turns, from x{min(ratios):.2f} to "
                      f"x{max(ratios):.2f})")
        print("outputs:", "identical" if len(outputs) == 1 else f"{len(outputs)} DIFFERENT")
        return 0 if len(outputs) == 1 else 1
    finally:
        if args.base:
            subprocess.run(["git", "worktree", "remove", "--force", str(work / "base")],
                           cwd=ROOT, check=False, capture_output=True)
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())

"""Benchmark: `mjlog fairness` beside `mjlog stats` on the same games, in one run.

Usage::

    python benchmarks/bench_fairness.py [FOLDER] [--pairs N] [--copies K] [--jobs J]

FOLDER (default ``../shared/corpus/tenhou-xml``) is linked ``--copies`` times into a
temporary folder (1 by default; a copy is the same games, which both commands count
once but read again: K copies measure K times the reading), and each command runs over
it in a fresh process, one at a time, taking turns ``--pairs`` times (5 by default).
Each run's processor time (user + system, children included) and peak memory are
measured; the figure that decides is the median of each turn's own ratio (stats' time
over fairness'), so that a slow spell of a shared machine slows both alike. Prints the
games/s of each (files read per second of processor time), the ratio, and peak memory.
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
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
COMMANDS = {
    "stats": ["stats", "--metrics", "all", "--format", "csv", "-o"],
    "fairness": ["fairness", "--format", "json", "-o"],
}


_WRAPPER = ("import resource, subprocess, sys; subprocess.run(sys.argv[1:], check=True, "
            "capture_output=True); print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)")
"""Runs a command and prints the peak memory (KiB) of the largest of its processes."""


def _run(name: str, folder: Path, out: Path, jobs: int) -> tuple[float, int]:
    """One command's process: its processor time (seconds) and peak memory (KiB)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    cmd = [sys.executable, "-m", "mjlog.cli", COMMANDS[name][0], str(folder),
           *COMMANDS[name][1:], str(out), "--jobs", str(jobs)]
    done = subprocess.run([sys.executable, "-c", _WRAPPER, *cmd], cwd=ROOT, check=True,
                          capture_output=True, text=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return cpu, int(done.stdout.split()[-1])


def _linked(folder: Path, copies: int, work: Path) -> tuple[Path, int]:
    """A folder holding ``copies`` links to every record file of ``folder``, and how
    many files it holds."""
    files = [p for p in folder.rglob("*") if p.is_file() and p.suffix != ".tsv"]
    target = work / "records"
    for k in range(copies):
        for i, path in enumerate(files):
            link = target / f"copy{k}" / f"{i:06d}{path.suffix}"
            link.parent.mkdir(parents=True, exist_ok=True)
            os.symlink(path, link)
    return target, len(files) * copies


def main() -> int:
    """Measure both commands in turns and print their figures."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("folder", nargs="?", default=str(ROOT.parent / "shared/corpus/tenhou-xml"))
    ap.add_argument("--pairs", type=int, default=5)
    ap.add_argument("--copies", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=1)
    args = ap.parse_args()
    work = Path(tempfile.mkdtemp(prefix="mjlog-bench-fairness-"))
    try:
        folder, files = _linked(Path(args.folder).resolve(), args.copies, work)
        times: dict[str, list[float]] = {name: [] for name in COMMANDS}
        peaks: dict[str, int] = dict.fromkeys(COMMANDS, 0)
        for _ in range(args.pairs):
            for name in COMMANDS:
                cpu, peak = _run(name, folder, work / f"{name}.out", args.jobs)
                times[name].append(cpu)
                peaks[name] = max(peaks[name], peak)
        ratio = statistics.median(s / f for s, f in zip(times["stats"], times["fairness"],
                                                          strict=True))
        print(f"{files:,} files ({args.copies} cop{'y' if args.copies == 1 else 'ies'}), "
              f"{args.pairs} turns, --jobs {args.jobs}")
        for name in COMMANDS:
            med = statistics.median(times[name])
            print(f"  {name:<9} {med:6.2f} s CPU  {files / med:8,.0f} files/s  peak "
                  f"{peaks[name] / 1024:6.0f} MiB")
        print(f"fairness runs at {ratio:.2f}× the speed of stats (median of the turns' "
              "ratios; the bar: at least 0.5×)")
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())

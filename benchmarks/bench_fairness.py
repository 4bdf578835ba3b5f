"""Benchmark: `mjlog fairness` beside `mjlog stats` on the same games, in one run.

Usage::

    python benchmarks/bench_fairness.py [FOLDER] [--pairs N] [--copies K] [--jobs J]

The Tenhou XML games of FOLDER (default ``../shared/corpus/tenhou-xml``) are written
``--copies`` times into a temporary folder (1 by default), gzipped as Tenhou serves them;
each copy after the first renames every player (``c2.`` before each name), so that every
game is a distinct game to both commands (neither counts a game twice). Each command runs
over the folder in a fresh process, one at a time, taking turns ``--pairs`` times (5 by
default).
Each run's processor time (user + system, children included) and peak memory are
measured; the figure that decides is the median of each turn's own ratio (stats' time
over fairness'), so that a slow spell of a shared machine slows both alike. Prints the
games/s of each (files read per second of processor time), the ratio, and peak memory.
"""

from __future__ import annotations

import argparse
import gzip
import re
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


def _copied(folder: Path, copies: int, work: Path) -> tuple[Path, int]:
    """A folder holding ``copies`` distinct copies of every Tenhou XML game of ``folder``
    (see the module), and how many files it holds."""
    target = work / "records"
    count = 0
    for i, path in enumerate(sorted(p for p in folder.rglob("*") if p.is_file())):
        data = path.read_bytes()
        text = gzip.decompress(data) if data[:2] == b"\x1f\x8b" else data
        if b"<mjloggm" not in text[:200]:
            continue
        for k in range(copies):
            renamed = text if k == 0 else re.sub(rb'( n[0-3]=")', rb"\g<1>c%d." % k, text)
            out = target / f"copy{k}" / f"{i:06d}.mjlog"
            out.parent.mkdir(parents=True, exist_ok=True)
            out.write_bytes(gzip.compress(renamed, compresslevel=6, mtime=0))
            count += 1
    return target, count


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
        folder, files = _copied(Path(args.folder).resolve(), args.copies, work)
        times: dict[str, list[float]] = {name: [] for name in COMMANDS}
        peaks: dict[str, int] = dict.fromkeys(COMMANDS, 0)
        for _ in range(args.pairs):
            for name in COMMANDS:
                cpu, peak = _run(name, folder, work / f"{name}.out", args.jobs)
                times[name].append(cpu)
                peaks[name] = max(peaks[name], peak)
        ratio = statistics.median(s / f for s, f in zip(times["stats"], times["fairness"],
                                                          strict=True))
        print(f"{files:,} games ({args.copies} cop{'y' if args.copies == 1 else 'ies'}), "
              f"{args.pairs} turns, --jobs {args.jobs}")
        for name in COMMANDS:
            med = statistics.median(times[name])
            print(f"  {name:<9} {med:6.2f} s CPU  {files / med:8,.0f} games/s  peak "
                  f"{peaks[name] / 1024:6.0f} MiB")
        print(f"fairness runs at {ratio:.2f}× the speed of stats (median of the turns' "
              "ratios; the bar: at least 0.5×)")
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())

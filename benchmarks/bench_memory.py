"""Benchmark: the audit's peak memory does not grow with the number of games.

Usage::

    python benchmarks/bench_memory.py [FOLDER] [--small 300] [--large 4800] [--format json]

Links the first SMALL and then LARGE Tenhou records of FOLDER
(``../shared/corpus/tenhou-xml``, taken again under another folder name when it has
fewer) into temporary folders, runs ``mjlog audit FOLDER --format FORMAT -o REPORT`` on
each in a process of its own, and prints each run's peak resident memory (the process's
``ru_maxrss``), its games/s and the ratio of the two peaks.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

_MEASURE = r"""
import resource, subprocess, sys
subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, check=False)
print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
"""


def linked(files: list[Path], count: int, into: Path) -> Path:
    """A folder of ``count`` links to ``files``, taken round again as often as needed."""
    into.mkdir()
    for i in range(count):
        lap, src = divmod(i, len(files))
        dst = into / f"lap{lap}" / f"{src:05}{files[src].suffix}"
        dst.parent.mkdir(exist_ok=True)
        dst.symlink_to(files[src])
    return into


def peak(folder: Path, fmt: str, report: Path) -> tuple[int, float]:
    """Peak resident memory in KiB of an audit of ``folder``, and the seconds it took."""
    t = time.perf_counter()
    proc = subprocess.run(
        [sys.executable, "-c", _MEASURE, sys.executable, "-m", "mjlog.cli", "audit",
         str(folder), "--format", fmt, "-o", str(report)],
        capture_output=True, text=True, check=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)})
    return int(proc.stdout.strip()), time.perf_counter() - t


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folder", nargs="?",
                        default=str(ROOT.parent / "shared" / "corpus" / "tenhou-xml"))
    parser.add_argument("--small", type=int, default=300)
    parser.add_argument("--large", type=int, default=4800)
    parser.add_argument("--format", default="json", choices=["text", "json", "jsonl"])
    args = parser.parse_args()
    files = sorted(p for p in Path(args.folder).rglob("*")
                   if p.is_file() and p.suffix in (".mjlog", ".xml", ".txt", ".gz"))
    results = {}
    with tempfile.TemporaryDirectory() as tmp:
        for n in (args.small, args.large):
            folder = linked(files, n, Path(tmp) / f"games-{n}")
            results[n] = peak(folder, args.format, Path(tmp) / f"report-{n}")
    for n, (kib, secs) in results.items():
        print(f"{n:6} files  peak {kib / 1024:7.1f} MiB  {secs:6.1f} s  {n / secs:6.0f} files/s")
    ratio = results[args.large][0] / results[args.small][0]
    print(f"peak at {args.large} / peak at {args.small}: {ratio:.3f}")


if __name__ == "__main__":
    main()

"""Benchmark: ``mjlog find`` on a facts folder of the whole shared Tenhou corpus, and the
exact route's games/s on records.

Usage::

    python benchmarks/bench_find.py [FOLDER] [--facts DIR] [--exact N] [--repeat K]

Builds the facts folder once (``mjlog stats FOLDER --facts DIR --include-incomplete
--keep-duplicates``, FOLDER defaulting to ``../shared/corpus/tenhou-xml``; skipped when DIR
already holds facts), then times each query of :data:`QUERIES` on it ``--repeat`` times
(5 by default) in this process, and prints the best and median wall time of each, with
its match count, and the time of one whole ``mjlog find`` process (its start included).
Then times the exact route over the first ``--exact`` files of FOLDER (200 by default;
0 skips it) in one process, without and with ``code=`` (the whole audit), and prints
games/s. Exit status 1 when a query on the facts takes a second or more.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
QUERIES = ("yakuman", "ron>=2", "limit>=haneman dealin>=12000", "yaku=国士無双",
           "draw=abortive date>=2022-01-01", "limit=counted-yakuman platform=tenhou",
           "yakuman ron>=2 player!=NoName")
"""What is timed on the facts folder."""


def build(folder: str, facts: Path) -> float:
    """Write the facts folder (unless it is there); the seconds it took (0: it was there)."""
    if (facts / "_manifest.json").is_file():
        return 0.0
    start = time.perf_counter()
    subprocess.run([sys.executable, "-m", "mjlog.cli", "stats", folder, "--facts", str(facts),
                    "--include-incomplete", "--keep-duplicates", "--format", "csv", "-o",
                    str(facts.parent / "stats.csv")], cwd=ROOT, check=True, capture_output=True)
    return time.perf_counter() - start


def time_facts(facts: Path, repeat: int) -> float:
    """Time each query on the facts folder; print its figures; the slowest best time."""
    from mjlog.stats.find.fast import search_facts
    from mjlog.stats.find.query import parse

    worst = 0.0
    for text in QUERIES:
        times, n = [], 0
        for _ in range(repeat):
            start = time.perf_counter()
            n = len(search_facts(facts, parse(text)))
            times.append(time.perf_counter() - start)
        worst = max(worst, min(times))
        print(f"  {text!r:45} {n:5} matches  best {min(times) * 1000:6.1f} ms  "
              f"median {statistics.median(times) * 1000:6.1f} ms")
    start = time.perf_counter()
    subprocess.run([sys.executable, "-m", "mjlog.cli", "find", str(facts), "-w", "yakuman",
                    "-o", str(facts.parent / "found.txt")], cwd=ROOT, check=True,
                   capture_output=True)
    print(f"  one `mjlog find FACTS -w yakuman` process: "
          f"{time.perf_counter() - start:.2f} s wall (its start included)")
    return worst


def time_exact(folder: str, files: int) -> None:
    """Games/s of the exact route over the first ``files`` records of ``folder``."""
    from mjlog.formats import expand
    from mjlog.stats.find.exact import search_records
    from mjlog.stats.find.query import parse

    items = list(expand([folder]))[:files]
    for text in ("yakuman", "code=furiten-ron"):
        start = time.perf_counter()
        found = list(search_records(items, parse(text)))
        took = time.perf_counter() - start
        print(f"  exact {text!r:20} {len(items)} files, {len(found)} matches: {took:.1f} s, "
              f"{len(items) / took:.0f} games/s on one core")


def main() -> int:
    """Build the facts, time the queries, print the figures."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("folder", nargs="?", default=str(ROOT.parent / "shared/corpus/tenhou-xml"))
    ap.add_argument("--facts", type=Path, default=None)
    ap.add_argument("--exact", type=int, default=200)
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()
    if not Path(args.folder).is_dir():
        print(f"no records at {args.folder} (the shared corpus lives in ../shared/corpus)")
        return 2
    with tempfile.TemporaryDirectory() as tmp:
        facts = args.facts or Path(tmp) / "facts"
        took = build(args.folder, facts)
        print(f"facts of {args.folder}: " + (f"built in {took:.1f} s" if took else "reused"))
        worst = time_facts(facts, args.repeat)
        if args.exact:
            time_exact(args.folder, args.exact)
    print(f"slowest query on the facts: {worst * 1000:.0f} ms (limit 1000 ms)")
    return 0 if worst < 1.0 else 1


if __name__ == "__main__":
    sys.exit(main())

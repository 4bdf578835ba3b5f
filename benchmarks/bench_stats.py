"""Benchmark: statistics against import-only speed, and peak memory at 500 vs 2,000 games.

Usage::

    python benchmarks/bench_stats.py [FOLDER] [--jobs N] [--repeat K]

FOLDER defaults to ``../shared/corpus/tenhou-xml``. Both stages read the same
files the same way (``mjlog.formats.read_path``); statistics add the fact
tables and every metric of the registry with its interval. The two take
turns ``--repeat`` times (3 by default) and the best time of each is compared;
each turn's own ratio (its import over its statistics) is printed too, as a
median and a range.

On a shared machine whose speed drifts by a fifth within seconds, stages a few
seconds apart do not see the same machine, and those ratios move by ten points
between runs. So the figure that decides is measured **file by file**: during
one statistics run, after it reads each file, the import alone of another file
is timed (the file half the list further on, so that neither stage reads a file
the other has just read and finds it in the CPU's caches). Statistics are the
run's time less those imports; both stages see the same moments of the machine,
and the ratio holds within about a point from turn to turn. Peak memory (max RSS)
is measured in a fresh process for each size, on the first 500 and the first
2,000 record files.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from mjlog.core.diagnostics import InputError  # noqa: E402
from mjlog.formats import detect, expand, read_path  # noqa: E402
from mjlog.stats import summarize  # noqa: E402

Progress = Callable[[int, int], None]
Stage = Callable[[list[str], Progress], None]

_CHILD = """
import json, resource, sys
sys.path.insert(0, {root!r})
from mjlog.stats import summarize
files = json.load(open(sys.argv[1]))
summarize(files, by=["player"], batch_games=250)
print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)
"""


def peak_rss_kb(files: list[str]) -> int:
    """Max RSS of a fresh process computing per-player statistics over ``files``."""
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
        json.dump(files, f)
    out = subprocess.run([sys.executable, "-c", _CHILD.format(root=str(ROOT)), f.name],
                         capture_output=True, text=True, check=True)
    Path(f.name).unlink()
    return int(out.stdout.strip().splitlines()[-1])


def interleaved(files: list[str], stage: Stage) -> tuple[float, float, int]:
    """One run of ``stage`` over ``files`` with the import alone of another file timed
    after each of its files (see the module's docstring): import time, the stage's own
    time, games."""
    others = iter(files[len(files) // 2:] + files[:len(files) // 2])
    spent, games = 0.0, 0

    def progress(done: int, read: int) -> None:
        nonlocal spent, games
        games += read
        t = time.perf_counter()
        for _ in range(done):
            with contextlib.suppress(InputError):  # files that are not records
                read_path(next(others))
        spent += time.perf_counter() - t

    t = time.perf_counter()
    stage(files, progress)
    return spent, time.perf_counter() - t - spent, games


def statistics(files: list[str], progress: Progress) -> None:
    """Per-player statistics, as the other turns compute them."""
    summarize(files, by=["player"], progress=progress)


def imports_only(files: list[str], progress: Progress) -> None:
    """Each file read, and ``progress`` told: the control, which should give 100%."""
    for p in files:
        with contextlib.suppress(InputError):  # files that are not records
            progress(1, len(read_path(p)))


def main() -> int:
    """Run the benchmark and print its figures."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("folder", nargs="?", default=str(ROOT.parent / "shared/corpus/tenhou-xml"))
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    files = [p for p, _ in expand([args.folder]) if detect(Path(p).read_bytes())]
    if not files:
        print(f"no records under {args.folder}")
        return 2
    imports, stats = [], []
    for _ in range(args.repeat):
        t = time.perf_counter()
        games = 0
        for p in files:
            with contextlib.suppress(InputError):  # files that are not records
                games += len(read_path(p))
        imports.append(time.perf_counter() - t)
        t = time.perf_counter()
        summarize(files, by=["player"], jobs=args.jobs)
        stats.append(time.perf_counter() - t)
    imp, st = min(imports), min(stats)
    print(f"{games} games in {len(files)} files, one run, best of {args.repeat} turns each")
    print(f"import only      {imp:6.2f} s  {games / imp:6.0f} games/s")
    print(f"statistics       {st:6.2f} s  {games / st:6.0f} games/s  "
          f"= {imp / st:.0%} of import-only speed (jobs={args.jobs})")
    paired = sorted(i / t for i, t in zip(imports, stats, strict=True))
    print(f"each turn's own ratio: median {paired[len(paired) // 2]:.0%}, "
          f"from {paired[0]:.0%} to {paired[-1]:.0%} ({len(paired)} turns)")
    if args.jobs == 1:
        pairs = sorted((interleaved(files, statistics) for _ in range(args.repeat)),
                       key=lambda r: r[0] / r[1])
        imp, st, games = pairs[len(pairs) // 2]
        print(f"file by file, median of {len(pairs)} runs: import {imp:.2f} s, statistics "
              f"{st:.2f} s ({games / st:.0f} games/s) = {imp / st:.1%} of import-only speed "
              f"(runs from {pairs[0][0] / pairs[0][1]:.1%} to {pairs[-1][0] / pairs[-1][1]:.1%})")
        imp, own, _ = interleaved(files, imports_only)
        print(f"control, import against import file by file: {imp / own:.1%} (unbiased: 100%)")
    if len(files) >= 2000:
        small, large = peak_rss_kb(files[:500]), peak_rss_kb(files[:2000])
        print(f"peak memory: 500 files {small / 1024:.0f} MiB, 2000 files {large / 1024:.0f} "
              f"MiB, ratio {large / small:.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

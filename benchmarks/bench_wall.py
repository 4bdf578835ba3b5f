"""Benchmark: Tenhou wall reproduction (walls/s) and what the wall check adds to an audit.

Usage::

    python benchmarks/bench_wall.py [FOLDER] [--walls N]

Prints walls/s for four- and three-player walls, seeding speed (the C path
against mjlog's own init_by_array), and over FOLDER (default
``../shared/corpus/tenhou-xml``) the time of import + replay with and without
the wall check, with their ratio.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.bench_tenhou import load  # noqa: E402
from mjlog.formats import tenhou_xml  # noqa: E402
from mjlog.replay.engine import replay  # noqa: E402
from mjlog.wall.tenhou_shuffle import (  # noqa: E402
    TenhouSeed,
    TenhouShuffler,
    _init_by_array_python,
    init_by_array,
)
from mjlog.wall.verify import verify  # noqa: E402


def main() -> int:
    """Run the benchmark and print its figures."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("folder", nargs="?", default=str(ROOT.parent / "shared/corpus/tenhou-xml"))
    ap.add_argument("--walls", type=int, default=20000)
    args = ap.parse_args()
    key = tuple(random.Random(0).getrandbits(32) for _ in range(624))
    for players in (4, 3):
        shuffler = TenhouShuffler(TenhouSeed("base64", key))
        t = time.perf_counter()
        for _ in range(args.walls):
            shuffler.next_wall(players)
        secs = time.perf_counter() - t
        print(f"{players}-player walls: {args.walls / secs:9.0f} walls/s")
    t = time.perf_counter()
    for _ in range(200):
        init_by_array(key)
    fast = (time.perf_counter() - t) / 200
    t = time.perf_counter()
    for _ in range(20):
        _init_by_array_python(key)
    slow = (time.perf_counter() - t) / 20
    print(f"seeding: {fast * 1e6:.0f} us (C path), {slow * 1e6:.0f} us (Python), "
          f"x{slow / fast:.0f}")
    files = load(Path(args.folder))
    if not files:
        print(f"no Tenhou records under {args.folder}")
        return 0
    t = time.perf_counter()
    for data in files:
        replay(tenhou_xml.read(data))
    base = time.perf_counter() - t
    t = time.perf_counter()
    for data in files:
        rec = tenhou_xml.read(data)
        replay(rec)
        verify(rec)
    both = time.perf_counter() - t
    print(f"{len(files)} games: import + replay {base:.2f} s ({len(files) / base:.0f} games/s); "
          f"with the wall check {both:.2f} s ({len(files) / both:.0f} games/s), x{both / base:.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""Benchmark: Tenhou wall reproduction (walls/s) and what the wall check adds to an audit.

Usage::

    python benchmarks/bench_wall.py [FOLDER] [--walls N]

Prints walls/s for four- and three-player walls on both routes side by side (the native
core's shuffle and its Python twin, with their ratio), seeding speed (the C path against
mjlog's own init_by_array), and over FOLDER (default ``../shared/corpus/tenhou-xml``) the
time of import + replay without the wall check and with it on each route, with the
ratios.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.bench_tenhou import load  # noqa: E402
from mjlog.core import native  # noqa: E402
from mjlog.formats import tenhou_xml  # noqa: E402
from mjlog.replay.engine import replay  # noqa: E402
from mjlog.wall.tenhou_shuffle import (  # noqa: E402
    PythonShuffle,
    _init_by_array_python,
    init_by_array,
)
from mjlog.wall.verify import verify  # noqa: E402


def _routes() -> dict[str, Callable[[tuple[int, ...]], Any]]:
    """The shuffles to measure: the Python twin, and the native core's when it is built."""
    routes: dict[str, Callable[[tuple[int, ...]], Any]] = {
        "python": lambda key: PythonShuffle(key, False)}
    built = native.core()
    if built is not None:
        routes["native"] = lambda key: built.TenhouShuffler(list(key), False)
    return routes


def _with_wall_check(files: list[bytes], pure: bool) -> float:
    """Seconds to import, replay and prove the walls of ``files`` on one route."""
    os.environ[native.PURE_VARIABLE] = "1" if pure else "0"
    native.core.cache_clear()
    t = time.perf_counter()
    for data in files:
        rec = tenhou_xml.read(data)
        replay(rec)
        verify(rec)
    return time.perf_counter() - t


def main() -> int:
    """Run the benchmark and print its figures."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("folder", nargs="?", default=str(ROOT.parent / "shared/corpus/tenhou-xml"))
    ap.add_argument("--walls", type=int, default=20000)
    args = ap.parse_args()
    key = tuple(random.Random(0).getrandbits(32) for _ in range(624))
    routes = _routes()
    for players in (4, 3):
        rates = {}
        for name, make in routes.items():
            shuffler = make(key)
            t = time.perf_counter()
            for _ in range(args.walls):
                shuffler.next_wall(players)
            rates[name] = args.walls / (time.perf_counter() - t)
        print(f"{players}-player walls: " + ", ".join(
            f"{name} {rate:9.0f} walls/s" for name, rate in rates.items()) + (
            f", native x{rates['native'] / rates['python']:.1f}" if "native" in rates else ""))
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
    line = f"{len(files)} games: import + replay {base:.2f} s ({len(files) / base:.0f} games/s)"
    for name in routes:
        both = _with_wall_check(files, pure=name == "python")
        line += f"; with the wall check ({name}) {both:.2f} s, x{both / base:.2f}"
    print(line)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

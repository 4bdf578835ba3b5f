"""Benchmark: the native wall proof (``mjlog.wall.native.verify_native``) against the
Python wall check (``mjlog.wall.verify.verify``), on the same Houou games.

Usage::

    python benchmarks/bench_native_wall.py [FOLDER] [--games N] [--repeat R]

Reads the first ``--games`` (300) complete four-player Houou hanchan of FOLDER
(``../shared/corpus/tenhou-xml`` by default; ``bench_peers.houou_games``), then times, in
processor time, best of ``--repeat`` (3) runs over all the games:

* Python, its shuffle native (the default route when the core is built);
* Python, its shuffle in Python too (``MJLOG_PURE=1``);
* native: the arguments built from the record, the code encoded, ``wall_check``, the
  findings made :class:`Finding` values; and ``wall_check`` alone on arguments built
  beforehand.

Prints games/s of each and the ratios, and checks that both found the same findings
(exit 1 if not). Reading the games is not timed.
"""

from __future__ import annotations

import argparse
import gc
import os
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.bench_peers import houou_games  # noqa: E402
from mjlog.core import native  # noqa: E402
from mjlog.replay.code import encode  # noqa: E402
from mjlog.wall.native import verify_native, wall_input  # noqa: E402
from mjlog.wall.verify import verify  # noqa: E402


def cpu(fn: Callable[[], object], repeat: int) -> float:
    """The least processor time of ``repeat`` calls of ``fn``."""
    best = float("inf")
    for _ in range(repeat):
        gc.collect()
        t = time.process_time()
        fn()
        best = min(best, time.process_time() - t)
    return best


def main() -> int:
    """Run the benchmark; 1 when the routes disagree or the core is missing."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folder", nargs="?",
                        default=str(ROOT.parent / "shared" / "corpus" / "tenhou-xml"))
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    core = native.core()
    if core is None:
        print("the native core is not built:", native.describe())
        return 1
    records = [rec for _, _, rec in houou_games(Path(args.folder), args.games)]
    n = len(records)
    same = all([(f.code, f.src, f.message, f.round, f.turn) for f in verify(rec)]
               == [(f.code, f.src, f.message, f.round, f.turn)
                   for f in verify_native(core, rec) or []] for rec in records)
    prepared = [(encode(rec.events, core).code, *(wall_input(rec) or (None, "", [])))
                for rec in records]
    times = {
        "python (native shuffle)": cpu(lambda: [verify(r) for r in records], args.repeat),
        "native (all)": cpu(lambda: [verify_native(core, r) for r in records], args.repeat),
        "native wall_check alone": cpu(lambda: [core.wall_check(*p) for p in prepared],
                                       args.repeat),
    }
    os.environ[native.PURE_VARIABLE] = "1"
    native.core.cache_clear()
    times["python (pure)"] = cpu(lambda: [verify(r) for r in records], args.repeat)
    del os.environ[native.PURE_VARIABLE]
    native.core.cache_clear()
    base = times["python (native shuffle)"]
    print(f"{n} Houou games, best of {args.repeat}; findings identical: {same}")
    for name, t in times.items():
        print(f"  {name:26} {n / t:9.0f} games/s  ({base / t:5.1f}x python)")
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())

"""Benchmark: the native table engine (encode + replay) against the Python engine's
replay, on the same Houou games.

Usage::

    python benchmarks/bench_native_engine.py [FOLDER] [--games N] [--repeat R]

Reads the first ``--games`` (300) complete four-player Houou hanchan of FOLDER
(``../shared/corpus/tenhou-xml`` by default; ``bench_peers.houou_games``), then times, in
processor time, best of ``--repeat`` (5) runs, each route over all the games:

* Python: ``Engine(record.src).run(record.events)`` (no observer);
* native: ``mjlog.replay.code.encode`` (with the native ``EventCoder``) then
  ``mjlog._native.replay_code``, and the findings made :class:`Finding` values
  (``replay_native``); the encoding alone, the Python encoder alone, and the
  native replay of codes encoded beforehand (what a reader that wrote the code itself
  would leave to do).

Prints games/s of each and the ratio, and checks that both found the same findings
(exit 1 if not). Reading the games is not timed.
"""

from __future__ import annotations

import argparse
import gc
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.bench_peers import houou_games  # noqa: E402
from mjlog.core import native  # noqa: E402
from mjlog.core.record import GameRecord  # noqa: E402
from mjlog.replay.code import encode, replay_native  # noqa: E402
from mjlog.replay.engine import Engine  # noqa: E402


def cpu(fn: Callable[[], object], repeat: int) -> float:
    """The least processor time of ``repeat`` calls of ``fn``."""
    best = float("inf")
    for _ in range(repeat):
        gc.collect()
        t = time.process_time()
        fn()
        best = min(best, time.process_time() - t)
    return best


def python_route(records: list[GameRecord]) -> list[object]:
    out: list[object] = []
    for rec in records:
        engine = Engine(rec.src)
        engine.run(rec.events, [])
        out.append(engine.findings)
    return out


def native_route(core: object, records: list[GameRecord]) -> list[object]:
    return [(replay_native(core, rec.events, rec.src) or ([], 0))[0] for rec in records]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folder", nargs="?",
                        default=str(ROOT.parent / "shared" / "corpus" / "tenhou-xml"))
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    core = native.core()
    if core is None:
        print("the native core is not built (or MJLOG_PURE is set): nothing to compare")
        return 1
    records = [rec for _, _, rec in houou_games(Path(args.folder), args.games)]
    n = len(records)
    if python_route(records) != native_route(core, records):
        print("the routes found different findings")
        return 1
    py = cpu(lambda: python_route(records), args.repeat)
    nat = cpu(lambda: native_route(core, records), args.repeat)
    enc = cpu(lambda: [encode(rec.events, core) for rec in records], args.repeat)
    pyenc = cpu(lambda: [encode(rec.events) for rec in records], args.repeat)
    codes = [encode(rec.events).code for rec in records]
    alone = cpu(lambda: [core.replay_code(c) for c in codes], args.repeat)
    events = sum(len(rec.events) for rec in records)
    print(f"{n} games, {events} events; processor time, best of {args.repeat}")
    print(f"python engine      {py:8.4f} s  {n / py:10.0f} games/s")
    print(f"native (enc+replay){nat:8.4f} s  {n / nat:10.0f} games/s  "
          f"({n / py and py / nat:.2f}x the Python engine)")
    print(f"  of which encoding{enc:8.4f} s  {n / enc:10.0f} games/s")
    print(f"encoding in Python {pyenc:8.4f} s  {n / pyenc:10.0f} games/s  "
          f"(native with it: {py / (pyenc + nat - enc):.2f}x the Python engine)")
    print(f"native replay alone{alone:8.4f} s  {n / alone:10.0f} games/s  "
          f"({py / alone:.0f}x the Python engine)")
    return 0


if __name__ == "__main__":
    sys.exit(main())

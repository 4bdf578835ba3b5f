"""Benchmark: what the decision facts (``mjlog review``) cost beside the full audit.

Usage::

    python benchmarks/bench_decisions.py [FOLDER] [--games N] [--repeat N]

Takes the first N (300) complete four-player Houou hanchan (Tenhou ``GO type`` 169) of
FOLDER (``../shared/corpus/tenhou-xml``), reads them once, then measures the processor
time (the machine may be shared: wall time would count the others' work) of, each the
best of ``--repeat`` interleaved runs over the games already read:

* the full audit (:func:`mjlog.reports.audit.audit_record`: replay, wall, scores, rule checks);
* the decision facts (:func:`mjlog.families.riichi.decisions.decisions`: shanten and ukeire of every
  discard choice, the call decisions, the safety classes), on the core this environment
  gives it (``MJLOG_PURE=1`` for the Python route);
* the facts and their JSON objects (what ``mjlog review -o`` writes, without the disk),
  once.

Each game's result is dropped at once (as ``mjlog review -o`` and an audit over an archive
do), and the records, read before, are frozen out of the garbage collector's way
(``gc.freeze``), so that neither side pays for re-walking what the harness keeps. The
first run of the facts also fills the native core's tables (suit patterns, and which
draws into a suit lower a hand beside the others), as in a fresh process: its ratio is
printed too; the best of the runs is what a long run over an archive sees. Prints
games/s, decisions/s and the ratio of the facts' time to the audit's (issue #51 asks for
at most 2).
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
from mjlog.families.riichi.decisions import decisions  # noqa: E402
from mjlog.reports.audit import audit_record  # noqa: E402


def cpu(fn: Callable[[GameRecord], object], records: list[GameRecord]) -> float:
    """Processor seconds ``fn`` takes over ``records``, each result dropped at once
    (garbage collected before)."""
    gc.collect()
    t = time.process_time()
    for rec in records:
        fn(rec)
    return time.process_time() - t


def facts_json(rec: GameRecord) -> list[dict[str, object]]:
    """The JSON objects of a game's decisions (what ``mjlog review -o`` writes)."""
    return [d.to_json() for d in decisions(rec)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folder", nargs="?", default=str(ROOT.parent / "shared" / "corpus"
                                                          / "tenhou-xml"))
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    records = [rec for _, _, rec in houou_games(Path(args.folder), args.games)]
    n = len(records)
    if not n:
        sys.exit(f"no complete four-player Houou hanchan in {args.folder}")
    decisions(records[0])  # imports
    gc.collect()
    gc.freeze()  # the records: kept by the harness, not made by what is measured
    runs: dict[str, list[float]] = {"audit": [], "facts": []}
    for _ in range(args.repeat):
        runs["audit"].append(cpu(audit_record, records))
        runs["facts"].append(cpu(decisions, records))
    runs["facts + JSON"] = [cpu(facts_json, records)]
    count = sum(len(decisions(r)) for r in records)
    first = runs["facts"][0]
    best = {k: min(v) for k, v in runs.items()}
    print(f"{n} Houou hanchan, {count:,} decisions, {native.describe()}; processor time, "
          f"best of {args.repeat}")
    for name, secs in best.items():
        extra = "" if name == "audit" else f"  {count / secs:9,.0f} decisions/s"
        print(f"{name:14} {secs:7.2f} s  {n / secs:7.1f} games/s{extra}")
    print(f"facts / audit          {best['facts'] / best['audit']:5.2f}x (budget: 2x)")
    print(f"first run / audit      {first / best['audit']:5.2f}x (the core's tables as one "
          "game left them)")
    print(f"facts + JSON / audit   {best['facts + JSON'] / best['audit']:5.2f}x")


if __name__ == "__main__":
    main()

"""Benchmark: how ``mjlog stats`` combines the counters of its batches as players grow.

Usage::

    python benchmarks/bench_totals.py [FOLDER] [--games 500] [--batches 50,100,200,400]

Counts the first ``--games`` records of FOLDER (``../shared/corpus/tenhou-xml``) by
player, as one batch of a run does, then feeds B copies of that batch, each with
players of its own (names ending in ``~`` and the copy's number), to the two ways of
combining them, in one run:

* batch by batch: each batch merged into the totals at once (the previous version), whose
  cost is the totals' size every time, so the run's cost grows with batches × groups;
* :class:`mjlog.stats.metrics.Totals`: batches wait until they hold as many rows as
  the totals, then are merged in one go.

Prints, for each B, the groups at the end, each way's seconds and milliseconds a batch,
and their ratio; both ways must give the same counters (checked). In a real archive the
players do not all change from batch to batch, but they keep coming: 10 million Tenhou
games hold a few hundred thousand players, which these runs reach.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import polars as pl

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from mjlog.formats import expand  # noqa: E402
from mjlog.stats import with_players  # noqa: E402
from mjlog.stats.facts import files_facts  # noqa: E402
from mjlog.stats.metrics import Totals, count, merge  # noqa: E402


def batch_counters(folder: str, games: int) -> pl.DataFrame:
    """The counters by player of the first ``games`` record files of ``folder``."""
    items = list(expand([folder]))[:games]
    tables, _ = files_facts(items)
    return count(tables, with_players(["player"]))


def one_by_one(parts: list[pl.DataFrame], keys: list[str]) -> pl.DataFrame:
    """The totals as each batch is merged into them at once."""
    acc = parts[0]
    for part in parts[1:]:
        acc = merge([acc, part], keys)
    return acc


def in_steps(parts: list[pl.DataFrame], keys: list[str]) -> pl.DataFrame:
    totals = Totals(keys)
    for part in parts:
        totals.add(part)
    out = totals.result()
    assert out is not None
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("folder", nargs="?",
                    default=str(ROOT.parent / "shared" / "corpus" / "tenhou-xml"))
    ap.add_argument("--games", type=int, default=500)
    ap.add_argument("--batches", default="50,100,200,400")
    args = ap.parse_args()
    keys = with_players(["player"])
    base = batch_counters(args.folder, args.games)
    print(f"one batch: {args.games} files, {base.height} players")
    print(f"{'batches':>8} {'groups':>9} {'batch by batch s':>17} {'ms/batch':>9} "
          f"{'Totals s':>9} {'ms/batch':>9} {'ratio':>7}")
    for b in (int(x) for x in args.batches.split(",")):
        parts = [base.with_columns(pl.col("player") + f"~{k}") for k in range(b)]
        start = time.perf_counter()
        old = one_by_one(parts, keys)
        mid = time.perf_counter()
        new = in_steps(parts, keys)
        end = time.perf_counter()
        assert old.sort(keys).equals(new.sort(keys)), "the two ways disagree"
        t_old, t_new = mid - start, end - mid
        print(f"{b:>8} {new.height:>9,} {t_old:>17.2f} {1000 * t_old / b:>9.1f} "
              f"{t_new:>9.2f} {1000 * t_new / b:>9.1f} {t_old / t_new:>6.1f}x")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

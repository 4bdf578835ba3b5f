"""Benchmark: the hand kernel's waits and shanten against the ``mahjong`` library.

Collects every distinct concealed hand that follows a discard in the Tenhou
corpus (``../shared/corpus/tenhou-xml``), then measures side by side, in one run:

* waits on the tenpai hands: mjlog's kernel (``mjlog.families.riichi.hand.shape.waits``) against
  brute force with the library's agari check over all 34 kinds;
* shanten on a sample of all hands: mjlog's kernel against the library's
  ``Shanten.calculate_shanten``;

and prints how many hands agree, the time per hand and the ratio.

Run: ``python benchmarks/bench_hand.py [--sample N]``.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

from mahjong.agari import Agari
from mahjong.shanten import Shanten

from mjlog.core.diagnostics import InputError
from mjlog.core.events import Discard
from mjlog.core.tiles import KIND_OF
from mjlog.families.riichi.hand.shape import shanten, waits
from mjlog.formats import expand, read_path
from mjlog.replay.engine import Engine

CORPUS = Path(__file__).resolve().parents[1].parent / "shared" / "corpus" / "tenhou-xml"


def corpus_hands(root: Path) -> set[tuple[tuple[int, ...], int]]:
    """Every distinct (kind counts, number of sets called) held right after a discard."""
    hands: set[tuple[tuple[int, ...], int]] = set()
    for path, _ in sorted(expand([root])):
        try:
            records = read_path(path)
        except InputError:  # files in the corpus folder that are not records
            continue
        for rec in records:
            engine = Engine()
            for i, ev in enumerate(rec.events):
                engine.apply(ev, i)
                if ev.__class__ is Discard:
                    ps = engine.state.players[ev.player]
                    counts = [0] * 34
                    for t in ps.concealed:
                        counts[KIND_OF[t]] += 1
                    hands.add((tuple(counts), len(ps.melds)))
    return hands


def brute_waits(agari: Agari, counts: list[int]) -> int:
    """Waits by trying each of the 34 kinds with the library's agari check."""
    mask = 0
    for k in range(34):
        if counts[k] < 4:
            counts[k] += 1
            if agari.is_agari(counts):
                mask |= 1 << k
            counts[k] -= 1
    return mask


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sample", type=int, default=20000,
                        help="hands for the shanten comparison (default 20000)")
    args = parser.parse_args()
    if not CORPUS.is_dir():
        sys.exit(f"corpus not found at {CORPUS}")
    t = time.perf_counter()
    hands = corpus_hands(CORPUS)
    print(f"{len(hands):,} distinct hands after a discard ({time.perf_counter() - t:.1f} s)")
    lists = [(list(c), m) for c, m in hands]
    for c, m in lists:  # warm the per-suit tables, as a long audit would
        waits(c, m)
    tenpai = [(c, m) for c, m in lists if waits(c, m)]
    agari = Agari()

    best_k = best_b = float("inf")
    for _ in range(3):
        t = time.perf_counter()
        for c, m in tenpai:
            waits(c, m)
        best_k = min(best_k, time.perf_counter() - t)
        t = time.perf_counter()
        for c, _ in tenpai:
            brute_waits(agari, c)
        best_b = min(best_b, time.perf_counter() - t)
    agree = sum(1 for c, m in lists if waits(c, m) == brute_waits(agari, c))
    n = len(tenpai)
    print(f"waits, {n:,} tenpai hands: kernel {best_k / n * 1e6:.2f} us/hand, brute force with "
          f"the library's agari {best_b / n * 1e6:.1f} us/hand, ratio {best_b / best_k:.1f}x")
    print(f"waits agree with brute force on {agree:,} of {len(lists):,} hands (all, tenpai or not)")

    sample = random.Random(0).sample(lists, min(args.sample, len(lists)))
    lib = Shanten()
    t = time.perf_counter()
    mine = [shanten(c, m) for c, m in sample]
    t_cold = time.perf_counter() - t
    t = time.perf_counter()
    for c, m in sample:
        shanten(c, m)
    t_k = time.perf_counter() - t
    t = time.perf_counter()
    theirs = [lib.calculate_shanten(c) for c, _ in sample]
    t_l = time.perf_counter() - t
    same = sum(1 for a, b in zip(mine, theirs, strict=True) if a == b)
    k = len(sample)
    print(f"shanten, {k:,} hands: kernel {t_k / k * 1e6:.1f} us/hand with its per-suit tables "
          f"filled ({t_cold / k * 1e6:.1f} filling them), library {t_l / k * 1e6:.1f} us/hand, "
          f"ratio {t_l / t_k:.1f}x ({t_l / t_cold:.1f}x cold); agree on {same:,}")


if __name__ == "__main__":
    main()

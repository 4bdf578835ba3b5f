"""Benchmark: what score verification adds to an audit, and the fast valuer against the library.

Usage::

    python benchmarks/bench_scores.py [FOLDER] [--repeat N]

FOLDER defaults to ``../shared/corpus/tenhou-xml``. Measures, in one process,
the best of N interleaved runs of:

* the audit of every file (read, replay, wall check) without and with score
  verification (:func:`mjlog.reports.audit.audit_file`), and the ratio;
* valuing every win of the folder with mjlog's fast path and with the
  ``mahjong`` library alone (:mod:`mjlog.families.riichi.scoring.riichi`), and the ratio.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks import timed  # noqa: E402
from mjlog.core.diagnostics import InputError  # noqa: E402
from mjlog.core.ruleset import Ruleset  # noqa: E402
from mjlog.families.riichi.scoring.riichi import library_value, value  # noqa: E402
from mjlog.families.riichi.scoring.situation import WinSituation  # noqa: E402
from mjlog.families.riichi.scoring.verify import win_situations  # noqa: E402
from mjlog.formats import read_path  # noqa: E402
from mjlog.reports.audit import Checks, audit_file, collect  # noqa: E402


def wins(items: list[tuple[str, bool]]) -> list[tuple[WinSituation, Ruleset]]:
    """The situation of every win in the files, taken from the replay."""
    out: list[tuple[WinSituation, Ruleset]] = []
    for path, _ in items:
        try:
            records = read_path(path)
        except InputError:
            continue
        for rec in records:
            out.extend((sit, rs) for _, sit, rs in win_situations(rec))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folder", nargs="?", default=str(ROOT.parent / "shared" / "corpus"
                                                          / "tenhou-xml"))
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    items = collect([args.folder])
    runs: dict[str, list[float]] = {"audit": [], "audit+scores": [], "fast": [], "library": []}
    sits = wins(items)
    bare, scores = Checks(scores=False, rules=False), Checks(rules=False)
    for _ in range(args.repeat):
        runs["audit"].append(timed(lambda: [audit_file(it, bare) for it in items]))
        runs["audit+scores"].append(timed(lambda: [audit_file(it, scores) for it in items]))
        runs["fast"].append(timed(lambda: [value(s, r) for s, r in sits]))
        runs["library"].append(timed(lambda: [library_value(s, r) for s, r in sits]))
    best = {k: min(v) for k, v in runs.items()}
    games = sum(len(list(f.games)) for f in (audit_file(it) for it in items))
    print(f"{len(items)} files, {games} games, {len(sits)} wins; best of {args.repeat}")
    print(f"audit without scores  {best['audit']:6.2f} s  {games / best['audit']:7.0f} games/s")
    print(f"audit with scores     {best['audit+scores']:6.2f} s  "
          f"{games / best['audit+scores']:7.0f} games/s  "
          f"(+{100 * (best['audit+scores'] / best['audit'] - 1):.1f}%)")
    print(f"valuing every win: mjlog (fast path, library fallback) {best['fast']:.2f} s "
          f"({best['fast'] / len(sits) * 1e6:.0f} us/win), library alone {best['library']:.2f} s "
          f"({best['library'] / len(sits) * 1e6:.0f} us/win), ratio "
          f"{best['library'] / best['fast']:.1f}x")


if __name__ == "__main__":
    main()

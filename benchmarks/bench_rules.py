"""Benchmark: what the rule checks cost, alone and in a whole audit, in one and two processes.

Usage::

    python benchmarks/bench_rules.py [FOLDER] [--repeat N] [--rules PRESET]

FOLDER defaults to ``../shared/corpus/tenhou-xml``. Records are read once;
then, side by side, the best of N interleaved runs of:

* the bare replay (:func:`mjlog.replay.engine.replay`);
* the replay with every rule check (:func:`mjlog.families.registry.check`) under
  the records' own rulesets, or under ``--rules PRESET`` (``kansaki`` turns
  on sakizuke and the strict kan rule), and its ratio to the bare replay;
* the whole audit of every file from disk (read, replay, wall, scores and
  rules: :func:`mjlog.reports.audit.audit_items`) with ``jobs=1`` and ``jobs=2``,
  without and with the rule checks.

Prints games/s for each and the ratios.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks import timed  # noqa: E402
from mjlog.core.diagnostics import InputError  # noqa: E402
from mjlog.core.events import GameStart  # noqa: E402
from mjlog.core.record import GameRecord  # noqa: E402
from mjlog.families.registry import check  # noqa: E402
from mjlog.formats import read_path  # noqa: E402
from mjlog.replay.engine import replay  # noqa: E402
from mjlog.reports.audit import Checks, audit_items, collect, ruleset_for  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folder", nargs="?", default=str(ROOT.parent / "shared" / "corpus"
                                                          / "tenhou-xml"))
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--rules", default=None, help="audit under this preset")
    args = parser.parse_args()
    items = collect([args.folder])
    records: list[GameRecord] = []
    for path, _ in items:
        try:
            records.extend(read_path(path))
        except InputError:
            continue
    rulesets = [ruleset_for(r.events[0] if isinstance(r.events[0], GameStart) else None,
                            args.rules) for r in records]
    pairs = list(zip(records, rulesets, strict=True))
    n = len(records)
    plain = Checks(rules=False)
    ruled = Checks(preset=args.rules)
    runs: dict[str, list[float]] = {k: [] for k in (
        "replay", "rules", "audit -j1 no rules", "audit -j1", "audit -j2")}
    for _ in range(args.repeat):
        runs["replay"].append(timed(lambda: [replay(r) for r in records]))
        runs["rules"].append(timed(lambda: [check(r, rs) for r, rs in pairs]))
        runs["audit -j1 no rules"].append(timed(lambda: audit_items(items, checks=plain)))
        runs["audit -j1"].append(timed(lambda: audit_items(items, checks=ruled)))
        runs["audit -j2"].append(timed(lambda: audit_items(items, jobs=2, checks=ruled)))
    best = {k: min(v) for k, v in runs.items()}
    print(f"{len(items)} files, {n} games, rules: {args.rules or 'each record own'}; "
          f"best of {args.repeat}")
    for name, secs in best.items():
        print(f"{name:20} {secs:7.2f} s  {n / secs:8.0f} games/s")
    print(f"rule checks / bare replay            {best['rules'] / best['replay']:5.2f}x")
    with_rules = best["audit -j1"] / best["audit -j1 no rules"]
    print(f"audit with rules / without (1 job)   {with_rules:5.2f}x")
    print(f"audit speed-up with 2 jobs           {best['audit -j1'] / best['audit -j2']:5.2f}x")


if __name__ == "__main__":
    main()

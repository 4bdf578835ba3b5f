"""Benchmark: this version's audit against an earlier version's, on the same files, in one run.

Usage::

    python benchmarks/bench_versions.py --base REV [FOLDER] [--repeat N] [--no-rules]

Checks the commit ``REV`` out into a temporary git worktree and times
``mjlog.reports.audit.audit_items`` (the full audit: rules, scores, wall) of every
record under FOLDER (default ``../shared/corpus/tenhou-xml``) in a fresh
process of each version, the two versions taking turns ``--repeat`` times, so
that a slow spell of a shared machine slows both alike. Prints each run, the
best and median of each version in games/s, and the ratio new/base (above 1:
the new version is faster).
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

_PROGRAM = """
import sys, time
from mjlog.reports.audit import Checks, audit_items, collect
items = collect([sys.argv[1]])
checks = Checks(rules=sys.argv[2] == "rules")
t = time.perf_counter()
report = audit_items(items, checks=checks)
elapsed = time.perf_counter() - t
games = report["summary"]["games"] if isinstance(report, dict) else report.summary.games
print(elapsed, games)
"""


def timed_run(tree: Path, folder: str, rules: bool) -> tuple[float, int]:
    """Seconds and games of one audit of ``folder`` by the version in ``tree``."""
    env = {**os.environ, "PYTHONPATH": str(tree)}
    # -P: the folder the benchmark is run from (the repository's root, where the new
    # version's mjlog is) must not come before the tree on the path
    out = subprocess.run([sys.executable, "-P", "-c", _PROGRAM, folder,
                          "rules" if rules else "no-rules"],
                         env=env, capture_output=True, text=True, check=True).stdout.split()
    return float(out[0]), int(out[1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folder", nargs="?",
                        default=str(ROOT.parent / "shared" / "corpus" / "tenhou-xml"))
    parser.add_argument("--base", required=True, help="the commit to compare with")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--no-rules", action="store_true", help="audit without rule checks")
    args = parser.parse_args()
    tree = Path(tempfile.mkdtemp(prefix="mjlog-bench-base-"))
    subprocess.run(["git", "worktree", "add", "--detach", str(tree), args.base], cwd=ROOT,
                   check=True, capture_output=True)
    times: dict[str, list[float]] = {"base": [], "new": []}
    games = 0
    try:
        for r in range(args.repeat):
            for name, where in (("base", tree), ("new", ROOT)):
                t, games = timed_run(where, args.folder, not args.no_rules)
                times[name].append(t)
                print(f"run {r + 1} {name:4}: {t:7.2f} s  {games / t:6.1f} games/s", flush=True)
    finally:
        subprocess.run(["git", "worktree", "remove", "--force", str(tree)], cwd=ROOT,
                       check=False, capture_output=True)
        shutil.rmtree(tree, ignore_errors=True)
    for name, ts in times.items():
        print(f"{name:4}: best {games / min(ts):6.1f} games/s, median "
              f"{games / statistics.median(ts):6.1f} games/s ({games} games)")
    print(f"new/base speed: best {min(times['base']) / min(times['new']):.3f}, median "
          f"{statistics.median(times['base']) / statistics.median(times['new']):.3f}")


if __name__ == "__main__":
    main()

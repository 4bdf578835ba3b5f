"""Do the native core and the Python route give the same reports? Differential check.

Usage::

    python benchmarks/native_vs_pure.py [PATHS...] [--rules PRESET] [--jobs N]
        [--no-scores] [--no-wall] [--no-rules]

Runs ``mjlog audit --format jsonl`` twice over the same inputs (the shared corpus by
default), once on the native core and once with ``MJLOG_PURE=1``, and compares the two
reports game by game. Prints the count of reports compared and different, the first
difference, and each route's time; exits 1 when any report differs or the native core is
not built. The tests run :func:`compare` over the corpus under each record's own rules and
under ``kansaki``.

A game takes the native route only where every part of the audit asked for has a native
twin and none declines it (:func:`mjlog.reports.audit.native_audit`); score verification
runs natively in the same replay as the checks (a hand only the ``mahjong`` library values
sends its game the Python route). ``--no-scores`` compares the audit without it.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


@dataclass(frozen=True)
class Comparison:
    """What :func:`compare` found: reports compared, how many differ, the first difference
    (the two lines, cut), and each route's wall time in seconds."""

    compared: int
    different: int
    first: tuple[str, str] | None
    native_s: float
    pure_s: float


def audit_lines(paths: list[str], args: list[str], pure: bool) -> tuple[list[str], float]:
    """The JSON Lines report of ``mjlog audit`` over ``paths`` on one route, and its time.
    Raises ``RuntimeError`` when the audit could not run (exit status 2 or worse)."""
    env = dict(os.environ)
    env.pop("MJLOG_PURE", None)
    if pure:
        env["MJLOG_PURE"] = "1"
    start = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "mjlog.cli", "audit", *paths, "--format", "jsonl", *args],
        capture_output=True, text=True, env=env, cwd=ROOT, check=False)
    if done.returncode not in (0, 1):
        raise RuntimeError(f"audit exited {done.returncode}: {done.stderr[-2000:]}")
    return done.stdout.splitlines(), time.perf_counter() - start


def compare(paths: list[str], args: list[str]) -> Comparison:
    """Audit ``paths`` on both routes with ``args`` and compare the reports line by line
    (each game's report, then the skipped and unreadable files and the summary)."""
    native, native_s = audit_lines(paths, args, pure=False)
    pure, pure_s = audit_lines(paths, args, pure=True)
    pairs = list(zip(native, pure, strict=False))
    different = [(a[:2000], b[:2000]) for a, b in pairs if a != b]
    extra = abs(len(native) - len(pure))
    first = different[0] if different else (
        (f"{len(native)} lines", f"{len(pure)} lines") if extra else None)
    return Comparison(max(len(native), len(pure)), len(different) + extra, first,
                      native_s, pure_s)


def main() -> int:
    """Compare the routes over the inputs given (or the corpus) and print the counts."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("paths", nargs="*", default=[str(ROOT.parent / "shared" / "corpus")])
    parser.add_argument("--rules", help="audit under this preset (--force-rules)")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--no-scores", action="store_true",
                        help="audit without score verification")
    parser.add_argument("--no-wall", action="store_true", help="audit without the wall proof")
    parser.add_argument("--no-rules", action="store_true", help="audit without the rule checks")
    opts = parser.parse_args()
    from mjlog.core import native

    if native.core() is None:
        print(native.describe(), "- nothing to compare")
        return 1
    args = ["--jobs", str(opts.jobs)]
    args += [f"--no-{part}" for part in ("scores", "wall", "rules")
             if getattr(opts, f"no_{part}")]
    if opts.rules:
        args += ["--rules", opts.rules, "--force-rules"]
    result = compare(opts.paths, args)
    print(f"{result.compared} report lines compared, {result.different} different "
          f"(native {result.native_s:.1f} s, pure {result.pure_s:.1f} s, "
          f"{result.pure_s / result.native_s:.2f}x)")
    if result.first:
        print("first difference:\n  native:", result.first[0], "\n  pure:  ", result.first[1])
    return 1 if result.different else 0


if __name__ == "__main__":
    sys.exit(main())

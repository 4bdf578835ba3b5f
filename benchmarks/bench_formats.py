"""Benchmark: tenhou.net/6 JSON and mjai against Tenhou XML: writing and reading speed.

Usage::

    python benchmarks/bench_formats.py [FOLDER] [--limit N]

FOLDER defaults to ``../shared/corpus/tenhou-xml``. In one run it imports the
records from XML, writes each as tenhou.net/6 and as mjai (the ``mjai``
dialect), reads both back, and prints games/s for each step with its ratio
to the XML import. Reading the two kind-only formats costs more than XML:
they give every tile a physical id, and tenhou.net/6 must search for the
order of the moves.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from mjlog.formats import detect, mjai, tenhou6, tenhou_xml  # noqa: E402

T = TypeVar("T")


def timed(f: Callable[[], T]) -> tuple[T, float]:
    t = time.perf_counter()
    out = f()
    return out, time.perf_counter() - t


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folder", nargs="?", default=str(ROOT.parent / "shared" / "corpus"
                                                          / "tenhou-xml"))
    parser.add_argument("--limit", type=int, default=0, help="at most N files")
    args = parser.parse_args()
    datas = [p.read_bytes() for p in sorted(Path(args.folder).rglob("*")) if p.is_file()]
    datas = [d for d in datas if detect(d) == "tenhou-xml"]
    if args.limit:
        datas = datas[:args.limit]
    records, t_xml = timed(lambda: [tenhou_xml.read(d) for d in datas])
    n = len(records)
    t6, t_t6w = timed(lambda: [tenhou6.write(r.events).encode() for r in records])
    _, t_t6r = timed(lambda: [tenhou6.read(x) for x in t6])
    mj, t_mjw = timed(lambda: [mjai.write(r.events, dialect="mjai").encode() for r in records])
    _, t_mjr = timed(lambda: [mjai.read(x) for x in mj])
    print(f"{n} games; XML import {n / t_xml:.0f} games/s")
    for name, t in (("tenhou6 write", t_t6w), ("tenhou6 read", t_t6r),
                    ("mjai write", t_mjw), ("mjai read", t_mjr)):
        print(f"  {name:14} {n / t:7.0f} games/s  ({t / t_xml:.2f}x the XML import)")
    size_xml = sum(len(d) for d in datas if d[:2] != b"\x1f\x8b")
    plain = [i for i, d in enumerate(datas) if d[:2] != b"\x1f\x8b"]
    print(f"size against plain XML: tenhou6 {100 * sum(len(t6[i]) for i in plain) / size_xml:.1f}%"
          f", mjai {100 * sum(len(mj[i]) for i in plain) / size_xml:.1f}%")


if __name__ == "__main__":
    main()

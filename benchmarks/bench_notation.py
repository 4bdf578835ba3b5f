"""Benchmark: mjlog notation against Tenhou XML: size, writing and reading speed.

Usage::

    python benchmarks/bench_notation.py [FOLDER]

FOLDER defaults to ``../shared/corpus/tenhou-xml``. In one run it imports every
record from XML, writes it as notation (exact and ``--plain``), reads the
exact notation back, and prints games/s for each step and the size of the
notation against the XML, for complete hanchan.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from mjlog.core.events import GameStart  # noqa: E402
from mjlog.formats import detect, notation, tenhou_xml  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folder", nargs="?", default=str(ROOT.parent / "shared" / "corpus"
                                                          / "tenhou-xml"))
    args = parser.parse_args()
    datas = [p.read_bytes() for p in sorted(Path(args.folder).rglob("*")) if p.is_file()]
    datas = [d for d in datas if detect(d) == "tenhou-xml"]
    t = time.perf_counter()
    records = [tenhou_xml.read(d) for d in datas]
    t_xml = time.perf_counter() - t
    t = time.perf_counter()
    exact = [notation.write(r.events).encode() for r in records]
    t_write = time.perf_counter() - t
    plain = [notation.write(r.events, exact=False).encode() for r in records]
    t = time.perf_counter()
    back = [notation.read(x) for x in exact]
    t_read = time.perf_counter() - t
    same = sum(1 for b, r in zip(back, records, strict=True) if b[0].events == r.events)
    n = len(records)
    print(f"{n} games; XML import {n / t_xml:.0f} games/s, notation write {n / t_write:.0f} "
          f"games/s, notation read {n / t_read:.0f} games/s ({t_read / t_xml:.1f}x the XML "
          f"import); round trip identical for {same}")
    xml = ex = pl = 0
    for d, r, e, p in zip(datas, records, exact, plain, strict=True):
        start = r.events[0] if r.events else None
        if (r.complete and isinstance(start, GameStart) and start.ruleset.length == "south"
                and d[:2] != b"\x1f\x8b"):
            xml, ex, pl = xml + len(d), ex + len(e), pl + len(p)
    print(f"complete hanchan: notation is {100 * ex / xml:.1f}% of the XML exact, "
          f"{100 * pl / xml:.1f}% plain (no copy ids, no shuffle seed)")


if __name__ == "__main__":
    main()

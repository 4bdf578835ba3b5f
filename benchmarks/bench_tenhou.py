"""Benchmark: bare lxml parse, parse plus tag walk, import to events, import plus replay.

Usage::

    python benchmarks/bench_tenhou.py [FOLDER] [--repeat N] [--save out.json]
                                      [--compare previous.json]

FOLDER defaults to ``../shared/corpus/tenhou-xml``. Files are read into memory
first; each stage then runs over the same bytes, chunk by chunk, the stages
interleaved, and the best of N runs of each chunk counts. It prints seconds,
games/s and the ratio of each stage to the bare parse (and to a saved earlier
run with ``--compare``).
"""

from __future__ import annotations

import argparse
import gc
import json
import sys
import time
from collections.abc import Callable
from pathlib import Path

from lxml import etree

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from mjlog.formats import detect, tenhou_xml  # noqa: E402
from mjlog.formats.compression import decompress  # noqa: E402
from mjlog.replay.engine import replay  # noqa: E402

_PARSER = etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False)


def load(folder: Path) -> list[bytes]:
    """Every Tenhou record under ``folder``, as bytes."""
    out = []
    for p in sorted(folder.rglob("*")):
        if p.is_file():
            data = p.read_bytes()
            if detect(data) == "tenhou-xml":
                out.append(data)
    return out


def bare_parse(files: list[bytes]) -> None:
    """lxml only: gunzip where needed and parse to a tree."""
    for data in files:
        etree.fromstring(decompress(data), _PARSER)


def walk_tags(files: list[bytes]) -> None:
    """The parse, then each child's tag read: the least any reader of the lxml tree pays."""
    for data in files:
        for el in etree.fromstring(decompress(data), _PARSER):
            el.tag  # noqa: B018


def import_only(files: list[bytes]) -> None:
    """Tenhou XML to canonical events."""
    for data in files:
        tenhou_xml.read(data)


def import_replay(files: list[bytes]) -> None:
    """Tenhou XML to events, replayed by the engine with every consistency check."""
    for data in files:
        replay(tenhou_xml.read(data))


STAGES: dict[str, Callable[[list[bytes]], None]] = {
    "bare lxml parse": bare_parse,
    "parse + walk tags": walk_tags,
    "import": import_only,
    "import + replay": import_replay,
}


def main() -> int:
    """Run the benchmark and print the table."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("folder", nargs="?", default=str(ROOT.parent / "shared/corpus/tenhou-xml"))
    ap.add_argument("--repeat", type=int, default=3, help="runs per chunk; the best counts")
    ap.add_argument("--chunk", type=int, default=100, help="files per chunk")
    ap.add_argument("--save", help="write the timings to this JSON file")
    ap.add_argument("--compare", help="a JSON file saved by an earlier run")
    args = ap.parse_args()
    files = load(Path(args.folder))
    if not files:
        print(f"no Tenhou records under {args.folder}", file=sys.stderr)
        return 2
    # Stages interleave on small chunks of files and each chunk keeps its best
    # time per stage, so a slow spell of a shared machine hits all stages alike.
    best = dict.fromkeys(STAGES, 0.0)
    for lo in range(0, len(files), args.chunk):
        chunk = files[lo:lo + args.chunk]
        chunk_best = dict.fromkeys(STAGES, float("inf"))
        for _ in range(args.repeat):
            for name, stage in STAGES.items():
                gc.collect()
                t = time.perf_counter()
                stage(chunk)
                chunk_best[name] = min(chunk_best[name], time.perf_counter() - t)
        for name, secs in chunk_best.items():
            best[name] += secs
    previous = json.loads(Path(args.compare).read_text()) if args.compare else {}
    base = best["bare lxml parse"]
    print(f"{len(files)} games, best of {args.repeat} runs per chunk of {args.chunk}, one process")
    print(f"{'stage':18} {'seconds':>8} {'games/s':>9} {'x parse':>8}"
          + (f" {'x previous':>10}" if previous else ""))
    for name, secs in best.items():
        line = f"{name:18} {secs:8.3f} {len(files) / secs:9.0f} {secs / base:8.2f}"
        if name in previous:
            line += f" {secs / previous[name]:10.2f}"
        print(line)
    if args.save:
        Path(args.save).write_text(json.dumps(best, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

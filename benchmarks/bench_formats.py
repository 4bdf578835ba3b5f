"""Benchmark: every format's reader (and writer) against Tenhou XML's import.

Usage::

    python benchmarks/bench_formats.py [FOLDER] [--limit N] [--repeat N]

FOLDER defaults to ``../shared/corpus/tenhou-xml``. In one run it imports the
records from XML, writes each as mjlog's JSON Lines and notation, tenhou.net/6,
mjai (the ``mjai`` dialect) and kobalab's JSON, reads them back, and prints
games/s for each step with its ratio to the XML import (the readers take turns
``--turns`` times, each game dropped as soon as it is read, and the best time
of each counts). Reading the kind-only formats costs more than XML: they give
every tile a physical id, and tenhou.net/6 must search for the order of the
moves.

Then it reads the platforms' own records of the corpus (Mahjong Soul, Riichi
City, M-League, kobalab), each file ``--repeat`` times, and prints games/s and
rounds/s beside the XML import's rounds/s (their games are of other lengths,
so rounds are the fair unit).
"""

from __future__ import annotations

import argparse
import gc
import sys
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import TypeVar

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from mjlog.core.diagnostics import InputError  # noqa: E402
from mjlog.core.events import RoundStart  # noqa: E402
from mjlog.core.record import GameRecord  # noqa: E402
from mjlog.formats import (  # noqa: E402
    FORMATS,
    Reader,
    detect,
    kobalab,
    mjai,
    notation,
    serialize,
    tenhou6,
    tenhou_xml,
)

PLATFORMS = {"majsoul": "majsoul-raw", "riichicity": "other/0num4-paifu-playground-riichicity",
             "mleague": "other/Preserver6166-MleaguePaifuParser",
             "kobalab": "other/zhengye1-paipuconverter"}
"""Each platform's own format and where the corpus keeps its records."""

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
    parser.add_argument("--repeat", type=int, default=20,
                        help="read each platform record N times (default 20)")
    parser.add_argument("--turns", type=int, default=3,
                        help="readers take turns N times; the best time of each counts")
    args = parser.parse_args()
    datas = [p.read_bytes() for p in sorted(Path(args.folder).rglob("*")) if p.is_file()]
    datas = [d for d in datas if detect(d) == "tenhou-xml"]
    if args.limit:
        datas = datas[:args.limit]
    records, t_xml = timed(lambda: [tenhou_xml.read(d) for d in datas])
    n = len(records)
    rounds = sum(isinstance(e, RoundStart) for r in records for e in r.events)
    jl, t_jlw = timed(lambda: ["".join(serialize.write_lines(r.events)).encode()
                               for r in records])
    nt, t_ntw = timed(lambda: [notation.write(r.events).encode() for r in records])
    t6, t_t6w = timed(lambda: [tenhou6.write(r.events).encode() for r in records])
    mj, t_mjw = timed(lambda: [mjai.write(r.events, dialect="mjai").encode() for r in records])
    kb, t_kbw = timed(lambda: [kobalab.write(r.events).encode() for r in records
                               if r.events and r.events[0].ruleset.players == 4])  # type: ignore[union-attr]
    records.clear()  # the readers below run without them in memory
    reads = _reads({"XML import": (tenhou_xml.read, datas), "jsonl read": (serialize.read, jl),
                    "notation read": (notation.read, nt), "tenhou6 read": (tenhou6.read, t6),
                    "mjai read": (mjai.read, mj), "kobalab read": (kobalab.read, kb)},
                   args.turns)
    t_xml = reads["XML import"]
    print(f"{n} games; XML import {n / t_xml:.0f} games/s (best of {args.turns} turns)")
    per_game = {"jsonl write": t_jlw, "jsonl read": reads["jsonl read"],
                "notation write": t_ntw, "notation read": reads["notation read"],
                "tenhou6 write": t_t6w, "mjai write": t_mjw,
                "kobalab write": t_kbw * n / max(1, len(kb)), "tenhou6 read": reads["tenhou6 read"],
                "mjai read": reads["mjai read"],
                "kobalab read": reads["kobalab read"] * n / max(1, len(kb))}
    for name in ("jsonl write", "jsonl read", "notation write", "notation read",
                 "tenhou6 write", "tenhou6 read", "mjai write", "mjai read", "kobalab write",
                 "kobalab read"):
        t = per_game[name]
        print(f"  {name:14} {n / t:7.0f} games/s  ({t / t_xml:.2f}x the XML import)")
    size_xml = sum(len(d) for d in datas if d[:2] != b"\x1f\x8b")
    plain = [i for i, d in enumerate(datas) if d[:2] != b"\x1f\x8b"]
    print(f"size against plain XML: tenhou6 {100 * sum(len(t6[i]) for i in plain) / size_xml:.1f}%"
          f", mjai {100 * sum(len(mj[i]) for i in plain) / size_xml:.1f}%")
    platforms(Path(args.folder).parent, rounds / t_xml, args.repeat)


def _reads(stages: dict[str, tuple[Callable[[bytes], object], list[bytes]]], turns: int
           ) -> dict[str, float]:
    """The best time of each reader over its inputs, the readers taking turns. Each game
    read is dropped at once (as an import does), and the inputs, made before, are frozen
    out of the garbage collector's way, so that no reader pays for what others keep."""
    gc.collect()
    gc.freeze()
    best = dict.fromkeys(stages, float("inf"))
    for _ in range(turns):
        for name, (read, inputs) in stages.items():
            t = time.perf_counter()
            for data in inputs:
                read(data)
            best[name] = min(best[name], time.perf_counter() - t)
    gc.unfreeze()
    return best


def _read_all(reader: Reader, datas: list[bytes], repeat: int) -> list[GameRecord]:
    return [rec for _ in range(repeat) for d in datas for rec in reader(d, "", False)]


def _game(data: bytes, fmt: str) -> bool:
    """Whether the file holds a game (not, say, a platform's round events alone)."""
    try:
        FORMATS[fmt].read(data, "", False)
    except InputError:
        return False
    return True


def platforms(corpus: Path, xml_rounds: float, repeat: int) -> None:
    """Each platform's reader on its corpus records: games/s and rounds/s."""
    print(f"platforms' own records (each read {repeat} times); XML import "
          f"{xml_rounds:.0f} rounds/s")
    for fmt, sub in PLATFORMS.items():
        datas = [p.read_bytes() for p in sorted((corpus / sub).rglob("*.json"))]
        datas = [d for d in datas if detect(d) == fmt and _game(d, fmt)]
        if not datas:
            print(f"  {fmt:11} no record in {corpus / sub}")
            continue
        recs, t = timed(partial(_read_all, FORMATS[fmt].read, datas, repeat))
        n_rounds = sum(isinstance(e, RoundStart) for r in recs for e in r.events)
        print(f"  {fmt:11} {len(datas):3} files  {len(recs) / t:7.0f} games/s  "
              f"{n_rounds / t:8.0f} rounds/s  ({xml_rounds * t / n_rounds:.2f}x the XML "
              "import's time a round)")


if __name__ == "__main__":
    main()

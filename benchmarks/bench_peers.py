"""Benchmark: mjlog's audit beside the validators users compare it with, on the same games.

Usage::

    python benchmarks/bench_peers.py [FOLDER] [--games N] [--peers PYTHON] [--repeat N]

Takes the first N (300) complete four-player Houou hanchan (Tenhou ``GO type`` 169) of
FOLDER (``../shared/corpus/tenhou-xml``), writes each as mjai (Mortal's dialect) into a
temporary folder, then measures in one run, each the best of ``--repeat``:

* a bare lxml parse of the XML (the floor of any XML reader);
* mjlog: import, import and replay, then from the games already read the replay alone
  (with the settlement) and with each check family alone (rule checks, score
  verification, the wall check from the shuffle seed), the full audit of the XML, and
  the full audit of the same games read from mjai (there is no seed, so no wall);
* libriichi's validating replay (the extension inside the ``mjai`` wheel, loaded directly:
  the wheel's own imports pull in a game server): every event of every game through a
  ``PlayerState`` of each of the four seats, as Mortal validates logs;
* ``jansou-validate`` (scores only) on the XML, one process, timed from outside, so its
  interpreter start is included.

The headline figures come after the table, measured the same way for both sides: each
side in a process of its own, the processor time of its loop over the games (files read
before, interpreter start left out), the sides taking turns ``--pairs`` times (5 by
default), and the median of the turns' own ratios: mjlog's full audit of the XML and of
the mjai files against libriichi's validating replay of the mjai files. mjlog runs on the
core this environment gives it (``MJLOG_PURE=1`` for the Python route).

The peers live in another environment so that their pins do not touch mjlog's::

    python3 -m venv /tmp/peers
    /tmp/peers/bin/pip install jansou
    /tmp/peers/bin/pip install --no-deps mjai

and ``--peers /tmp/peers/bin/python`` names it. A peer that is not installed there is
skipped with a message. Prints seconds, games/s and each row's time over libriichi's.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from lxml import etree

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks import timed  # noqa: E402
from mjlog.core import native  # noqa: E402
from mjlog.core.events import GameStart  # noqa: E402
from mjlog.core.record import GameRecord  # noqa: E402
from mjlog.formats import mjai, tenhou_xml  # noqa: E402
from mjlog.formats.compression import gunzip  # noqa: E402
from mjlog.replay.engine import replay  # noqa: E402
from mjlog.reports.audit import audit_record  # noqa: E402

LIBRIICHI = r"""
import importlib.util, sys, time
found = importlib.util.find_spec("mjai")
if found is None or not found.submodule_search_locations:
    sys.exit("the mjai wheel is not installed")
folder = found.submodule_search_locations[0]
so = next((p for p in __import__("os").listdir(folder) if p.startswith("mlibriichi")), None)
if so is None:
    sys.exit("the mjai wheel has no libriichi extension")
spec = importlib.util.spec_from_file_location("mlibriichi", folder + "/" + so)
lib = importlib.util.module_from_spec(spec)
spec.loader.exec_module(lib)
games = [open(f, encoding="utf-8").read().splitlines() for f in sys.argv[2:]]
clock = time.process_time if sys.argv[1].startswith("cpu") else time.perf_counter
best = None
for _ in range(int(sys.argv[1].removeprefix("cpu"))):
    t = clock()
    for lines in games:
        seats = [lib.state.PlayerState(i) for i in range(4)]
        for line in lines:
            for seat in seats:
                seat.update(line)
    took = clock() - t
    best = took if best is None else min(best, took)
print(best)
"""

MJLOG = r"""
import sys, time
from mjlog.reports.audit import audit_record
from mjlog.formats import read_bytes
data = [open(f, "rb").read() for f in sys.argv[1:]]
t = time.process_time()
for d in data:
    for rec in read_bytes(d):
        audit_record(rec)
print(time.process_time() - t)
"""
"""mjlog's full audit of the files named, in a process of its own: its processor time."""


def houou_games(folder: Path, n: int) -> list[tuple[Path, bytes, GameRecord]]:
    """The first ``n`` complete four-player Houou hanchan of ``folder``, by path."""
    out: list[tuple[Path, bytes, GameRecord]] = []
    for path in sorted(folder.rglob("*")):
        if len(out) >= n or not path.is_file():
            continue
        data = path.read_bytes()
        if b'<GO type="169"' not in data[:4096] and data[:2] != b"\x1f\x8b":
            continue
        data = gunzip(data)[0]
        rec = tenhou_xml.read(data, str(path))
        start = rec.events[0] if rec.events else None
        if rec.complete and isinstance(start, GameStart) and not rec.diagnostics \
                and dict(start.meta).get("go.type") == "169":
            out.append((path, data, rec))
    return out


def best_of(repeat: int, fn: Callable[[], object]) -> float:
    return min(timed(fn) for _ in range(repeat))


def _auditing(records: list[GameRecord], wall: bool, scores: bool,
              rules: bool) -> Callable[[], object]:
    """A run of the audit of ``records`` with only the given check families."""
    return lambda: [audit_record(rec, wall=wall, scores=scores, rules=rules)
                    for rec in records]


def peer_libriichi(python: str, files: list[Path], repeat: int | str) -> float | None:
    """libriichi's best time over ``repeat`` runs (``"cpuN"``: processor time, N runs)."""
    proc = subprocess.run([python, "-c", LIBRIICHI, str(repeat), *map(str, files)],
                          capture_output=True, text=True, check=False)
    if proc.returncode:
        print(f"libriichi skipped: {proc.stderr.strip().splitlines()[-1:]}")
        return None
    return float(proc.stdout.strip())


def peer_jansou(python: str, files: list[Path], repeat: int) -> float | None:
    tool = Path(python).with_name("jansou-validate")
    if not tool.exists():
        print(f"jansou-validate skipped: not installed beside {python}")
        return None
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        proc = subprocess.run([str(tool), "-j", "1", "-q", *map(str, files)],
                              capture_output=True, check=False)
        times.append(time.perf_counter() - t)
        if proc.returncode not in (0, 1):
            print(f"jansou-validate skipped: exit {proc.returncode}")
            return None
    return min(times)


def paired(python: str, xml_paths: list[Path], mjai_files: list[Path], pairs: int) -> None:
    """The headline: mjlog's full audit (XML, mjai) and libriichi's validating replay, each
    in its own process, processor time, in turns; prints the median of each turn's ratio."""
    runs: dict[str, list[float]] = {"full audit (XML)": [], "full audit (mjai)": [],
                                    "libriichi validate (mjai)": []}
    for _ in range(pairs):
        for name, files in (("full audit (XML)", xml_paths), ("full audit (mjai)", mjai_files)):
            done = subprocess.run([sys.executable, "-c", MJLOG, *map(str, files)], cwd=ROOT,
                                  capture_output=True, text=True, check=True)
            runs[name].append(float(done.stdout))
        peer = peer_libriichi(python, mjai_files, "cpu1")
        if peer is None:
            return
        runs["libriichi validate (mjai)"].append(peer)
    base = runs["libriichi validate (mjai)"]
    n = len(xml_paths)
    print(f"\n{n} games, {pairs} turns, processor time in separate processes "
          f"({native.describe()}):")
    for name, times in runs.items():
        ratios = [t / b for t, b in zip(times, base, strict=True)]
        print(f"{name:28} median {statistics.median(times):6.2f} s "
              f"{n / statistics.median(times):6.0f} games/s  x{statistics.median(ratios):.2f} "
              f"libriichi (turns x{min(ratios):.2f} to x{max(ratios):.2f})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folder", nargs="?",
                        default=str(ROOT.parent / "shared" / "corpus" / "tenhou-xml"))
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--peers", default="/tmp/peers/bin/python",
                        help="the Python of the environment the peers are installed in")
    parser.add_argument("--pairs", type=int, default=5,
                        help="turns of the headline measurement (0: leave it out)")
    args = parser.parse_args()
    games = houou_games(Path(args.folder), args.games)
    n = len(games)
    parser_ = etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False)
    with tempfile.TemporaryDirectory() as tmp:
        mjai_files = []
        for i, (_, _, rec) in enumerate(games):
            f = Path(tmp) / f"{i:04}.mjson"
            f.write_text(mjai.write(rec.events, dialect="mortal"), "utf-8")
            mjai_files.append(f)
        texts = [f.read_bytes() for f in mjai_files]
        xml = [data for _, data, _ in games]
        records = [rec for _, _, rec in games]
        rows: dict[str, float | None] = {
            "lxml parse": best_of(args.repeat, lambda: [etree.fromstring(d, parser_)
                                                        for d in xml]),
            "import (XML)": best_of(args.repeat, lambda: [tenhou_xml.read(d) for d in xml]),
            "import + replay": best_of(args.repeat, lambda: [replay(tenhou_xml.read(d))
                                                             for d in xml]),
        }
        rows["replay (read before)"] = best_of(args.repeat, _auditing(records, False, False,
                                                                        False))
        for name, flags in (("replay + rule checks", (False, False, True)),
                            ("replay + scores", (False, True, False)),
                            ("replay + wall", (True, False, False))):
            rows[name] = best_of(args.repeat, _auditing(records, *flags))
        rows["full audit (XML)"] = best_of(args.repeat, lambda: [
            audit_record(tenhou_xml.read(d)) for d in xml])
        rows["full audit (mjai)"] = best_of(args.repeat, lambda: [
            audit_record(r) for t in texts for r in mjai.read(t)])
        rows["libriichi validate (mjai)"] = peer_libriichi(args.peers, mjai_files, args.repeat)
        xml_paths = [path for path, _, _ in games]
        rows["jansou-validate (XML)"] = peer_jansou(args.peers, xml_paths, args.repeat)
        _table(rows, n, args.repeat)
        if args.pairs:
            paired(args.peers, xml_paths, mjai_files, args.pairs)


def _table(rows: dict[str, float | None], n: int, repeat: int) -> None:
    """The in-process rows, each against libriichi's best run."""
    base = rows["libriichi validate (mjai)"]
    print(f"{n} Houou hanchan, best of {repeat}")
    print(f"{'':28} {'seconds':>8} {'games/s':>9} {'/ libriichi':>12}")
    for name, secs in rows.items():
        if secs is None:
            continue
        ratio = f"{secs / base:11.2f}x" if base else ""
        print(f"{name:28} {secs:8.2f} {n / secs:9.0f} {ratio:>12}")


if __name__ == "__main__":
    main()

"""Benchmark: statistics over a synthetic archive of up to 200,000 games in one zip, on a
local pool and on a real Dask cluster of 1 and 2 workers, with peak memory per worker.

Usage::

    python benchmarks/bench_scale.py [--sizes 50000,100000,200000] [--compare-at 50000]
                                     [--work DIR] [--command stats|audit] [--url]
                                     [--new-players]

The archives are the Tenhou XML games of ``../shared/corpus/tenhou-xml`` again and
again under new member names (``g0000001-<name>.mjlog``), built once in ``--work``
(default: a folder under the system's temporary folder, kept for the next run).
Every size runs on a cluster of two workers (so that memory can be seen to stay
flat as the archive grows); the size ``--compare-at`` also runs on one worker and on
the local pool (``--jobs 2``), for the ratios. Each cluster is a scheduler and
workers started as separate processes on 127.0.0.1 (one thread each), anew for each
run so that each worker's peak memory (``VmHWM``) is that run's. Statistics run with
``--keep-duplicates`` (the copies are the same games: all of them are read and counted).
With ``--new-players``, each cycle of the corpus is played by players of its own (names
ending in ``~`` and the cycle's number), so the number of players, and of groups in
``stats``'s table, grows with the archive as in a real one (about 57,000 players in
100,000 games), where the plain archives keep the corpus's 1,419.
With ``--url``, the archive of ``--compare-at`` games is also read as a ``file://`` URL
by the local pool and by two workers (``pool url``, ``cluster-2 url``): the route of
every object store (fsspec, a member by one ranged read from its entry) without a
network, so the figures are mjlog's own cost of that route. (moto's S3 server, which
the tests use, reads a whole object for each ranged request: 4 ms a request on a 1 MB
object, 36 ms on 50 MB on this machine; it measures moto, not reading from a store.)

Every process runs in this checkout's folder (``python -m`` puts the current folder first
on the path), so the script measures the mjlog it belongs to, wherever it is started
from: to compare two versions, run each one's own copy.

Prints, per run: games, seconds, games/s, the ratio to the local pool at the same
size, the highest peak RSS of a worker, the client's peak RSS, and the processor time
the client and the scheduler spent per game (where the bottleneck moves with many
workers).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import signal
import subprocess
import sys
import tempfile
import time
import zipfile
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from mjlog.core.diagnostics import InputError  # noqa: E402
from mjlog.formats import detect, file_bytes  # noqa: E402

CORPUS = ROOT.parent / "shared" / "corpus" / "tenhou-xml"
ENV = {**os.environ, "PYTHONPATH": str(ROOT),
       "DASK_DISTRIBUTED__SCHEDULER__WORKER_SATURATION": "1.0"}


def corpus_games() -> list[tuple[str, bytes]]:
    """The corpus's Tenhou XML records: (name, bytes)."""
    out = []
    for path in sorted(p for p in CORPUS.rglob("*") if p.is_file()):
        try:
            data = file_bytes(path)
        except InputError:
            continue
        if detect(data) == "tenhou-xml":
            out.append((path.stem, data))
    return out


_NAME = re.compile(rb'( n[0-3]="[^"]+)"')
"""A player's name in ``UN`` (an empty one, a three-player game's fourth seat, is left)."""


def archive(work: Path, size: int, games: list[tuple[str, bytes]], new_players: bool = False
            ) -> Path:
    """A zip of ``size`` records cycled from ``games`` (built once, then reused). With
    ``new_players``, each cycle's players are new: their names end in ``~`` and the
    cycle's number, so the number of players grows with the archive."""
    path = work / (f"scale-{size}-new-players.zip" if new_players else f"scale-{size}.zip")
    if path.exists():
        return path
    tmp = path.with_suffix(".part")
    with zipfile.ZipFile(tmp, "w", zipfile.ZIP_DEFLATED, compresslevel=1) as z:
        for i in range(size):
            name, data = games[i % len(games)]
            if new_players:
                data = _NAME.sub(rb'\1%%7E%d"' % (i // len(games)), data)
            z.writestr(f"g{i:07d}-{name}.mjlog", data)
    tmp.replace(path)
    return path


def peak_kb(pid: int) -> int:
    """The peak resident memory of a live process (``VmHWM``), 0 once it is gone."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1])
    except OSError:
        pass
    return 0


def cpu_seconds(pid: int) -> float:
    """The processor time a live process has used (user and system), 0 once it is gone."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def children(pid: int) -> list[int]:
    """Every descendant of ``pid``."""
    kids: dict[int, list[int]] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        kids.setdefault(int(fields[1]), []).append(int(stat.parent.name))
    out, todo = [], [pid]
    while todo:
        for kid in kids.get(todo.pop(), []):
            out.append(kid)
            todo.append(kid)
    return out


def _address(file: Path) -> str:
    """The scheduler's address, once its file holds it (the file exists before it is
    written)."""
    while True:
        try:
            return str(json.loads(file.read_text())["address"])
        except (OSError, ValueError, KeyError):
            time.sleep(0.1)


class Cluster:
    """A scheduler and ``workers`` workers (one thread each), separate processes."""

    def __init__(self, workers: int, folder: Path) -> None:
        file = folder / f"scheduler-{time.monotonic_ns()}.json"
        self.procs = [self._start("dask_scheduler", "--host", "127.0.0.1", "--port", "0",
                                  "--no-dashboard", "--scheduler-file", str(file))]
        self.address = _address(file)
        for _ in range(workers):
            self.procs.append(self._start("dask_worker", self.address, "--nthreads", "1",
                                          "--host", "127.0.0.1", "--no-dashboard",
                                          "--memory-limit", "0"))
        from distributed import Client

        with Client(self.address, set_as_default=False) as client:  # type: ignore[no-untyped-call]
            client.wait_for_workers(workers, timeout=60)
            self.pids = list(client.run(os.getpid).values())

    @staticmethod
    def _start(module: str, *args: str) -> subprocess.Popen[bytes]:
        return subprocess.Popen([sys.executable, "-m", f"distributed.cli.{module}", *args],
                                env=ENV, cwd=ROOT, stdout=subprocess.DEVNULL,
                                stderr=subprocess.DEVNULL, start_new_session=True)

    def stop(self) -> None:
        for proc in reversed(self.procs):
            os.killpg(proc.pid, signal.SIGTERM)
        for proc in self.procs:
            proc.wait(timeout=30)


@dataclass
class Run:
    """One measured run."""

    engine: str
    games: int
    seconds: float
    worker_kb: int
    client_kb: int
    client_cpu: float
    scheduler_cpu: float


def measure(command: str, source: str, games: int, engine: str, work: Path) -> Run:
    """Run ``mjlog COMMAND`` over the archive (a path or URL) on ``engine`` (``pool``,
    ``cluster-1``, ``cluster-2``, each maybe followed by `` url``), sampling the memory of
    its workers."""
    kind = engine.split()[0]
    cluster = Cluster(int(kind[-1]), work) if kind.startswith("cluster") else None
    where = ["--cluster", cluster.address] if cluster else ["--jobs", "2"]
    extra = ["--keep-duplicates", "--format", "csv", "-o", os.devnull] if command == "stats" \
        else ["--summary-only", "-o", os.devnull]
    start = time.perf_counter()
    proc = subprocess.Popen([sys.executable, "-m", "mjlog.cli", command, source,
                             *extra, *where], env=ENV, cwd=ROOT, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE)
    workers: dict[int, int] = {}
    client, client_cpu, scheduler_cpu = 0, 0.0, 0.0
    while proc.poll() is None:
        for pid in cluster.pids if cluster else children(proc.pid):
            workers[pid] = max(workers.get(pid, 0), peak_kb(pid))
        client = max(client, peak_kb(proc.pid))
        client_cpu = max(client_cpu, cpu_seconds(proc.pid))
        if cluster:
            scheduler_cpu = cpu_seconds(cluster.procs[0].pid)
        time.sleep(0.25)
    seconds = time.perf_counter() - start
    if proc.returncode not in (0, 1):
        err = proc.stderr.read().decode() if proc.stderr else ""
        raise SystemExit(f"{command} on {engine} failed: {err}")
    if cluster:
        cluster.stop()
    return Run(engine, games, seconds, max(workers.values(), default=0), client, client_cpu,
               scheduler_cpu)


def main() -> int:
    """Build the archives, run every configuration, print the figures."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sizes", default="50000,100000,200000")
    ap.add_argument("--compare-at", type=int, default=50000)
    ap.add_argument("--work", type=Path, default=Path(tempfile.gettempdir()) / "mjlog-scale")
    ap.add_argument("--command", choices=["stats", "audit"], default="stats")
    ap.add_argument("--new-players", action="store_true",
                    help="give each cycle of the corpus players of its own (names ending "
                         "in ~N), so that the number of groups grows with the archive")
    ap.add_argument("--url", action="store_true",
                    help="also read the --compare-at archive as a file:// URL (fsspec)")
    args = ap.parse_args()
    args.work = args.work.resolve()  # the runs start in this checkout's folder
    args.work.mkdir(parents=True, exist_ok=True)
    sizes = [int(s) for s in args.sizes.split(",")]
    games = corpus_games()
    print(f"{len(games)} corpus games, cycled; {args.command}; {os.cpu_count()} cores")
    runs: list[Run] = []
    for size in sorted({*sizes, args.compare_at}):
        path = archive(args.work, size, games, args.new_players)
        engines = (["pool", "cluster-1", "cluster-2"] if size == args.compare_at
                   else ["cluster-2"])
        runs += [measure(args.command, str(path), size, e, args.work) for e in engines]
        if args.url and size == args.compare_at:
            runs += [measure(args.command, path.resolve().as_uri(), size, e, args.work)
                     for e in ("pool url", "cluster-2 url")]
    pool = {r.games: r.seconds for r in runs if r.engine == "pool"}
    print(f"{'engine':<13} {'games':>8} {'s':>8} {'games/s':>8} {'vs pool':>8} "
          f"{'worker MB':>10} {'client MB':>10} {'client ms/game':>15} {'sched ms/game':>14}")
    for r in runs:
        ratio = f"{pool[r.games] / r.seconds:.2f}x" if r.games in pool else "-"
        print(f"{r.engine:<13} {r.games:>8,} {r.seconds:>8.1f} {r.games / r.seconds:>8.0f} "
              f"{ratio:>8} {r.worker_kb / 1024:>10.0f} {r.client_kb / 1024:>10.0f} "
              f"{1000 * r.client_cpu / r.games:>15.2f} {1000 * r.scheduler_cpu / r.games:>14.3f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

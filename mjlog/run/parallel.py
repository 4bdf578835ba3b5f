"""Worker processes that an interrupt stops cleanly.

Ctrl-C sends SIGINT to every process of the terminal's group, workers
included. A worker interrupted inside a task leaves the pool waiting for a
result that never comes. So workers ignore SIGINT: the parent alone is
interrupted, and leaving its ``with`` block terminates and reaps every worker
(:meth:`multiprocessing.pool.Pool.terminate`, which sends them SIGTERM).

SIGTERM makes a worker leave by ``SystemExit``, never by the default action:
a worker killed outright while it holds the pool's task queue lock (it holds
it while it waits for a task) leaves the lock taken, and the parent's
``terminate`` then waits for that lock forever. Unwinding releases it. (A
SIGTERM sent to the whole group hung one audit in 40 on a loaded machine; none
in 100 since.) A worker killed outright by something else (the kernel's
out-of-memory killer, a ``kill -9``) can still leave that lock taken, and the
pool of :mod:`multiprocessing` does not survive workers dying under it: so the
parent gives ``terminate`` a few seconds (:data:`PATIENCE`), then kills the
workers that are left and goes on, and an interrupted run always ends. A second
Ctrl-C kills them at once.

A worker that dies in the middle of a batch (the out-of-memory killer, a crash in
a C library) would leave the pool waiting forever for a result that never comes.
So each worker writes its process id beside the task it takes (a shared array, no
lock to be left taken); the parent, waiting for a batch, sees when the worker that
took it is gone, and runs the batch's files one by one in a pool of their own. A
file whose worker dies again is given to ``poisoned`` (reported, not retried
forever): the same outcome as on a cluster (:mod:`mjlog.run.cluster`). The parent
watches every batch it has sent, not only the one it waits for: a worker that died
halfway through sending a result leaves the others unable to send theirs. A pool
that lost a worker is stopped and never used again: the batches it had not returned
go to a new pool, and the dead worker's batch is run file by file when its turn
comes. A worker killed in the few instructions between taking a task and writing
its slot still stalls the pool.

A run that ends well closes the pool and waits for its workers to finish
(:func:`workers`): no signal is sent, so nothing is printed by workers torn
down mid-exit. This module only starts pools; what runs in them is the
caller's.

:func:`map_batches` is the one way audit, convert and statistics spread work: the
same batches of files go to this process, to a local pool (``--jobs``) or to the
workers of a cluster (``--cluster``, :mod:`mjlog.run.cluster`), and the results come back
in the order of the batches whichever finishes first.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import sys
import threading
from collections import deque
from collections.abc import Callable, Generator, Iterable, Iterator
from contextlib import closing, contextmanager
from dataclasses import dataclass
from functools import partial
from multiprocessing.pool import AsyncResult, Pool
from multiprocessing.sharedctypes import RawArray
from types import FrameType
from typing import Any, Generic, TypeVar

from mjlog.run import archives

T = TypeVar("T")
PATIENCE = 10.0
"""Seconds an interrupted pool is given to stop its workers before they are killed."""
LOST_PATIENCE = 1.0
"""The same for a pool that lost a worker: none of its results is wanted any more, and
its ``terminate`` may wait forever for a lock the dead worker held."""
Item = TypeVar("Item", bound=tuple[str, bool])
"""An item of work: a file (or an archive's record) and whether it was named."""
WINDOW_PER_WORKER = 4
"""Batches sent to a pool ahead of the one the parent waits for, per worker."""
ATTEMPTS = 2
"""Runs of a file alone, after its batch lost its worker, before it is given up."""
_taken: Any = None
"""In a pool's worker: the pool's array of task slots (:func:`_start_worker`)."""


@dataclass(frozen=True, slots=True)
class Located(Generic[Item, T]):
    """``fn`` as a pool's worker runs it: given a task slot, and a batch with the entries
    of its archive members (:func:`mjlog.run.archives.entries`), so that the worker reads them
    without holding their archives' directories. The worker first writes its process id
    in the slot, so that the parent knows who took the task."""

    fn: Callable[[list[Item]], T]

    def __call__(self, job: tuple[int, list[Item], dict[str, archives.Entry]]) -> T:
        _taken[job[0]] = os.getpid()
        with archives.located(job[2]):
            return self.fn(job[1])


@dataclass(frozen=True, slots=True)
class Engine:
    """Where batches run: this process (``jobs`` 1), a local pool of ``jobs`` processes,
    or the cluster whose scheduler is at ``cluster`` (``jobs`` is then not used)."""

    jobs: int = 1
    cluster: str | None = None

    @property
    def local(self) -> bool:
        """Whether everything runs in this process."""
        return self.cluster is None and self.jobs <= 1


@dataclass(frozen=True, slots=True)
class Sizing:
    """How files are cut into batches: about ``per_worker`` batches for each worker (so
    that a slow batch does not leave the others idle at the end), at most ``most`` files
    each."""

    per_worker: int
    most: int

    def cut(self, items: list[Item], width: int) -> list[list[Item]]:
        """``items`` in batches for ``width`` workers, in their order."""
        size = max(1, min(self.most, len(items) // (width * self.per_worker)))
        return [items[i:i + size] for i in range(0, len(items), size)]


def map_files(fn: Callable[[list[Item]], list[T]], items: list[Item], sizing: Sizing,
              engine: Engine, poisoned: Callable[[Item], list[T]]
              ) -> Generator[T, None, None]:
    """:func:`map_batches` of a ``fn`` that gives one result per file: each file's result,
    in the order of ``items``."""
    with closing(map_batches(fn, items, sizing, engine, poisoned)) as batches:
        for _, results in batches:
            for per_file in results:
                yield from per_file


def map_batches(fn: Callable[[list[Item]], T], items: list[Item], sizing: Sizing, engine: Engine,
                poisoned: Callable[[Item], T]
                ) -> Generator[tuple[list[Item], list[T]], None, None]:
    """Each batch of ``items`` with ``fn`` of it, in the order of the batches, run where
    ``engine`` says. The results of a batch are one, ``fn(batch)``, except in a pool or on
    a cluster when the batch killed workers: then one per file, ``fn([file])`` or, for a
    file that kills workers on its own, ``poisoned(file)`` (see :func:`_one_by_one` and
    :func:`mjlog.run.cluster.map_batches`).
    Closing the iterator ends the pool or cancels the cluster's tasks."""
    if engine.cluster is not None:
        from mjlog.run import cluster

        yield from cluster.map_batches(engine.cluster, fn, partial(sizing.cut, items), poisoned)
        return
    batches = sizing.cut(items, engine.jobs)
    if engine.jobs <= 1:
        yield from ((batch, [fn(batch)]) for batch in batches)
        return
    yield from _pooled(fn, batches, engine.jobs, poisoned)


def _pooled(fn: Callable[[list[Item]], T], batches: list[list[Item]], jobs: int,
            poisoned: Callable[[Item], T]) -> Generator[tuple[list[Item], list[T]], None, None]:
    """:func:`map_batches` in a local pool of ``jobs`` workers, a window of batches at a
    time; a batch whose worker died is run again file by file (:func:`_one_by_one`) when
    its turn comes, and the batches not yet returned in a new pool
    (:func:`_until_a_death`)."""
    taken = _slots(len(batches))
    run = Located(fn)
    dead: dict[int, _Died] = {}
    start = 0
    while start < len(batches):
        start = yield from _until_a_death(run, batches, start, jobs, taken, poisoned, dead)


def _until_a_death(run: Located[Item, T], batches: list[list[Item]], start: int, jobs: int,
                   taken: Any, poisoned: Callable[[Item], T], dead: dict[int, _Died]
                   ) -> Generator[tuple[list[Item], list[T]], None, int]:
    """The batches from ``start`` on, in one pool, until a worker dies with one of them or
    the next batch is one whose worker died (in ``dead``, which is run file by file, with
    no pool of its own); returns the index of the first batch not returned.

    A pool that lost a worker is not used again: the worker may have died holding one of
    the pool's locks, or halfway through sending its result, after which no result comes
    back from that pool (a run of the test suite waited for one until its timeout, 300
    s). That is so whichever batch the dead worker held: the worker of the batch waited
    for, still alive, then waits forever to send its result (one run in six of a test
    stalled so). So the batches from the one waited for on are sent again to a new pool,
    in their order, and the dead worker's batch is noted in ``dead``."""
    if start in dead:
        yield batches[start], _one_by_one(run, batches[start], poisoned, dead.pop(start))
        return start + 1
    with workers(jobs, taken=taken) as p:
        window: deque[tuple[int, AsyncResult[T]]] = deque()
        nxt = start
        while True:
            while nxt < len(batches) and nxt not in dead and len(window) < jobs * WINDOW_PER_WORKER:
                taken[nxt] = 0  # a batch sent again: its slot names a dead pool's worker
                job = (nxt, batches[nxt], archives.entries(name for name, _ in batches[nxt]))
                window.append((nxt, p.apply_async(run, (job,))))
                nxt += 1
            if not window:
                return nxt
            i, pending = window.popleft()
            outcome = _outcome(p, pending, i, window)
            if isinstance(outcome, _Died):
                dead[outcome.slot] = outcome
                return i
            yield batches[i], [outcome.value]


@dataclass(frozen=True, slots=True)
class _Done(Generic[T]):
    """A task's result."""

    value: T


@dataclass(frozen=True, slots=True)
class _Died:
    """The worker that took the task in slot ``slot`` exited without its result, with
    ``exitcode``."""

    slot: int
    exitcode: int | None

    def __str__(self) -> str:
        code = self.exitcode
        if code is None:
            return "ended"
        return (f"was killed by signal {-code} ({signal.Signals(-code).name})"
                if code < 0 and -code in signal.valid_signals() else f"exited with code {code}")


def _outcome(p: Workers, pending: AsyncResult[T], slot: int,
             others: Iterable[tuple[int, AsyncResult[T]]] = (), poll: float = 0.2
             ) -> _Done[T] | _Died:
    """The task's result (an exception it raised is raised here), or :class:`_Died` once
    the worker that took it or one of ``others`` (tasks sent after it: slot and result),
    whose process ids are in ``p.taken``, is gone without its result; ``p`` is then
    marked as having lost a task.

    Waits ``poll`` seconds at a time: a signal sent to the whole process (Ctrl-C) may land
    on one of the pool's helper threads, and Python runs its handler in the main thread
    only when that thread next runs (a main thread blocked without a timeout hung one
    interrupted run in seven). A task whose worker is killed before it writes its slot
    (a few instructions) is still waited for."""
    while True:
        try:
            return _Done(pending.get(timeout=poll))
        except multiprocessing.TimeoutError:
            pass
        live = {c.pid for c in multiprocessing.active_children()}
        for s, task in ((slot, pending), *others):
            pid = p.taken[s]
            if pid and pid not in live and not task.ready():
                task.wait(poll)  # a result sent just before the worker ended
                if not task.ready():
                    p.lost = True
                    return _Died(s, p.exit_code(pid))


def _one_by_one(run: Located[Item, T], batch: list[Item], poisoned: Callable[[Item], T],
                died: _Died) -> list[T]:
    """The results of ``batch``'s files, each run alone in a pool of one worker, up to
    :data:`ATTEMPTS` times; a file whose worker dies each time gets ``poisoned(file)``.
    After a death the next file or attempt starts a new pool (see :func:`_until_a_death`)."""
    print(f"a worker process {died} in the middle of a batch of {len(batch)} files; its "
          "files are run one by one", file=sys.stderr)
    taken = _slots(len(batch) * ATTEMPTS)
    out: list[T] = []
    tries = 0  # the runs of the file at len(out) so far
    while len(out) < len(batch):
        with workers(1, taken=taken) as p:
            while len(out) < len(batch):
                item, slot = batch[len(out)], len(out) * ATTEMPTS + tries
                if tries == ATTEMPTS:
                    out.append(poisoned(item))
                    tries = 0
                    continue
                tries += 1
                job = (slot, [item], archives.entries([item[0]]))
                outcome = _outcome(p, p.apply_async(run, (job,)), slot)
                if isinstance(outcome, _Died):
                    break
                out.append(outcome.value)
                tries = 0
    return out


def _slots(n: int) -> Any:
    """An array of ``n`` task slots in shared memory, each to hold the process id of the
    worker that took the task (0 until then). No lock: each slot has one writer."""
    return RawArray("q", n)


class Workers(Pool):
    """A pool of fresh ("spawn") worker processes that ignore SIGINT and write their
    process id in ``taken`` (:func:`_slots`) as they take a :class:`Located` task."""

    def __init__(self, jobs: int, taken: Any = None) -> None:
        self.started: list[multiprocessing.process.BaseProcess] = []
        """Every worker this pool started, alive or not (for the exit code of one that
        died: the pool forgets a worker once it has ended)."""
        super().__init__(jobs, initializer=_start_worker, initargs=(taken,),
                         context=multiprocessing.get_context("spawn"))
        self.taken = taken
        self.lost = False
        """Whether a task's worker died without its result: the pool then waits for that
        result forever, and can only be terminated."""

    def Process(self, ctx: Any, *args: Any, **kwds: Any) -> Any:  # type: ignore[override]
        """A new worker process, noted in :attr:`started` (the pool's own hook for
        making its workers, called from its threads too)."""
        worker = ctx.Process(*args, **kwds)
        self.started.append(worker)
        return worker

    def exit_code(self, pid: int) -> int | None:
        """The exit code of this pool's worker ``pid``; None while it runs or if it is
        not one of this pool's."""
        for worker in self.started:
            if worker.pid == pid:
                return worker.exitcode
        return None


@contextmanager
def workers(jobs: int, patience: float = PATIENCE, taken: Any = None) -> Iterator[Workers]:
    """A :class:`Workers` pool that, when the block ends well, is closed and joined (every
    worker ends by itself); on an exception or an interrupt it is terminated and joined,
    and its workers still alive after ``patience`` seconds are killed (:func:`_stop`);
    when it lost a task, the same after at most :data:`LOST_PATIENCE` seconds."""
    before = set(multiprocessing.active_children())
    p = Workers(jobs, taken)
    try:
        yield p
    except BaseException:
        _stop(p, before, patience)
        raise
    if p.lost:
        _stop(p, before, min(patience, LOST_PATIENCE))
        return
    p.close()
    p.join()


def _stop(p: Pool, before: set[multiprocessing.process.BaseProcess], patience: float) -> None:
    """Terminate and join ``p`` in a thread of its own, waiting for it at most ``patience``
    seconds (an interrupt cuts the wait short); then kill and reap every child process
    started since ``before`` that is still alive (the pool's workers, replacements
    included). A ``terminate`` that never returns is left behind in its daemon thread."""
    def terminate() -> None:
        p.terminate()
        p.join()

    stopping = threading.Thread(target=terminate, daemon=True, name="mjlog-pool-stop")
    stopping.start()
    try:
        stopping.join(patience)
    finally:
        if stopping.is_alive():
            for child in set(multiprocessing.active_children()) - before:
                child.kill()
                child.join()


def _start_worker(taken: Any) -> None:
    """A worker's start: SIGINT ignored, SIGTERM an exit that unwinds, ``taken`` kept."""
    global _taken
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, _terminated)
    _taken = taken


def _terminated(signum: int, frame: FrameType | None) -> None:
    """A worker's SIGTERM handler: :func:`interrupted`, unless the worker is already on its
    way out (in ``threading._shutdown``, having been told there is no more work), where
    an exception would only be printed as ignored."""
    while frame is not None:
        if frame.f_code.co_name == "_shutdown" and frame.f_code.co_filename == threading.__file__:
            return
        frame = frame.f_back
    interrupted(signum, frame)


def reclaim_signals() -> None:
    """Put :func:`interrupted` back in front for SIGINT and SIGTERM where the command line
    set it (:func:`mjlog.cli.run`) and a library imported since has put a handler of its own
    before it. polars does, when imported: a SIGINT in a query then raises
    ``KeyboardInterrupt`` there and calls :func:`interrupted` too, whose ``SystemExit``
    lands in the middle of the cleanup the first exception began (a ``finally`` that
    removes a half-written output), which it cuts short. Re-installs the same handler;
    does nothing for a handler that is not :func:`interrupted` (a notebook's stays
    polars') or outside the main thread."""
    if threading.current_thread() is not threading.main_thread():
        return
    for sig in (signal.SIGINT, signal.SIGTERM):
        if signal.getsignal(sig) is interrupted:
            signal.signal(sig, interrupted)


def interrupted(signum: int, _frame: object) -> None:
    """A signal handler for the parent: leave by ``SystemExit(128 + signum)`` (130 for
    SIGINT, 143 for SIGTERM), so that every ``with`` and ``finally`` on the way runs."""
    raise SystemExit(128 + signum)

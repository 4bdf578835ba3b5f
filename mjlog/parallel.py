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
A run that ends well closes the pool and waits for its workers to finish
(:func:`workers`): no signal is sent, so nothing is printed by workers torn
down mid-exit. This module only starts pools; what runs in them is the
caller's.

:func:`map_batches` is the one way audit, convert and statistics spread work: the
same batches of files go to this process, to a local pool (``--jobs``) or to the
workers of a cluster (``--cluster``, :mod:`mjlog.cluster`), and the results come back
in the order of the batches whichever finishes first.
"""

from __future__ import annotations

import multiprocessing
import signal
import threading
from collections.abc import Callable, Generator, Iterator
from contextlib import closing, contextmanager
from dataclasses import dataclass
from functools import partial
from multiprocessing.pool import IMapIterator, Pool
from typing import Generic, TypeVar

from mjlog import archives

T = TypeVar("T")
PATIENCE = 10.0
"""Seconds an interrupted pool is given to stop its workers before they are killed."""
Item = TypeVar("Item", bound=tuple[str, bool])
"""An item of work: a file (or an archive's record) and whether it was named."""


@dataclass(frozen=True, slots=True)
class Located(Generic[Item, T]):
    """``fn`` as a pool's worker runs it: given a batch with the entries of its archive
    members (:func:`mjlog.archives.entries`), so that the worker reads them without
    holding their archives' directories."""

    fn: Callable[[list[Item]], T]

    def __call__(self, job: tuple[list[Item], dict[str, archives.Entry]]) -> T:
        with archives.located(job[1]):
            return self.fn(job[0])


def with_entries(batches: list[list[Item]]) -> Iterator[tuple[list[Item], dict[str,
                                                                              archives.Entry]]]:
    """Each batch with the entries of its zip members (computed as the batch is sent)."""
    for batch in batches:
        yield batch, archives.entries(name for name, _ in batch)


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
    ``engine`` says. The results of a batch are one, ``fn(batch)``, except on a cluster
    when the batch killed workers: then one per file, ``fn([file])`` or, for a file that
    kills workers on its own, ``poisoned(file)`` (see :func:`mjlog.cluster.map_batches`).
    Closing the iterator ends the pool or cancels the cluster's tasks."""
    if engine.cluster is not None:
        from mjlog import cluster

        yield from cluster.map_batches(engine.cluster, fn, partial(sizing.cut, items), poisoned)
        return
    batches = sizing.cut(items, engine.jobs)
    if engine.jobs <= 1:
        yield from ((batch, [fn(batch)]) for batch in batches)
        return
    with workers(engine.jobs) as p:
        pending = p.imap(Located(fn), with_entries(batches))
        for batch, result in zip(batches, results(pending), strict=True):
            yield batch, [result]


def pool(jobs: int) -> Pool:
    """A pool of ``jobs`` fresh ("spawn") worker processes that ignore SIGINT; use it as a
    context manager so that an exception or an interrupt in the parent ends them."""
    return multiprocessing.get_context("spawn").Pool(jobs, initializer=_ignore_interrupts)


def results(pending: IMapIterator[T], poll: float = 0.2) -> Iterator[T]:
    """The results of ``pool.imap(...)``, waited for ``poll`` seconds at a time.

    A signal sent to the whole process (Ctrl-C) may land on one of the pool's helper
    threads; Python runs its handler in the main thread only when that thread next runs,
    and a main thread blocked in ``next()`` with no timeout may never run again (seen: one
    interrupted run in seven hung). Waking every ``poll`` seconds lets the handler run.
    """
    while True:
        try:
            yield pending.next(timeout=poll)
        except multiprocessing.TimeoutError:
            continue
        except StopIteration:
            return


@contextmanager
def workers(jobs: int, patience: float = PATIENCE) -> Iterator[Pool]:
    """A :func:`pool` that, when the block ends well, is closed and joined (every worker
    ends by itself); on an exception or an interrupt it is terminated and joined, and
    its workers still alive after ``patience`` seconds are killed (:func:`_stop`)."""
    before = set(multiprocessing.active_children())
    p = pool(jobs)
    try:
        yield p
    except BaseException:
        _stop(p, before, patience)
        raise
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


def _ignore_interrupts() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, interrupted)


def interrupted(signum: int, _frame: object) -> None:
    """A signal handler for the parent: leave by ``SystemExit(128 + signum)`` (130 for
    SIGINT, 143 for SIGTERM), so that every ``with`` and ``finally`` on the way runs."""
    raise SystemExit(128 + signum)

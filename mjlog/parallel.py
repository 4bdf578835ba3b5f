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
in 100 since.) Workers killed one by one while the parent goes on, so that the
pool starts new ones, can still hang its ``terminate`` on a loaded machine,
about once in fifteen: the pool of :mod:`multiprocessing` does not survive
workers dying under it.
A run that ends well closes the pool and waits for its workers to finish
(:func:`workers`): no signal is sent, so nothing is printed by workers torn
down mid-exit. This module only starts pools; what runs in them is the
caller's.
"""

from __future__ import annotations

import multiprocessing
import signal
from collections.abc import Iterator
from contextlib import contextmanager
from multiprocessing.pool import IMapIterator, Pool
from typing import TypeVar

T = TypeVar("T")


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
def workers(jobs: int) -> Iterator[Pool]:
    """A :func:`pool` that, when the block ends well, is closed and joined (every worker
    ends by itself); on an exception or an interrupt it is terminated and joined."""
    p = pool(jobs)
    try:
        yield p
    except BaseException:
        p.terminate()
        p.join()
        raise
    p.close()
    p.join()


def _ignore_interrupts() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, interrupted)


def interrupted(signum: int, _frame: object) -> None:
    """A signal handler for the parent: leave by ``SystemExit(128 + signum)`` (130 for
    SIGINT, 143 for SIGTERM), so that every ``with`` and ``finally`` on the way runs."""
    raise SystemExit(128 + signum)

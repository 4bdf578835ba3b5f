"""The worker pool of ``--jobs N``: a SIGTERM to its workers never hangs the parent."""

from __future__ import annotations

import os
import signal
import threading
import time

from mjlog import parallel


def _square(x: int) -> int:
    return x * x


def test_workers_killed_by_sigterm_while_waiting_for_a_task_leave_the_pool_closable() -> None:
    # An idle worker waits for a task holding the task queue's lock. Killed outright by a
    # SIGTERM sent to the whole process group, it kept the lock, and Pool.terminate() in
    # the parent then waited for it forever.
    pool = parallel.pool(2)
    assert pool.map(_square, range(4)) == [0, 1, 4, 9]  # both workers are up and idle
    for worker in pool._pool:  # type: ignore[attr-defined]
        assert worker.pid is not None
        os.kill(worker.pid, signal.SIGTERM)
    time.sleep(0.5)
    closed = threading.Event()

    def close() -> None:
        pool.terminate()
        closed.set()

    threading.Thread(target=close, daemon=True).start()
    assert closed.wait(20), "Pool.terminate() hung on a lock a killed worker held"

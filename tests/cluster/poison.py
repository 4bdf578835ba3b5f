"""Loaded into the test cluster's workers (``dask worker --preload``) and into the test
pools' workers: a record holding :data:`MARK` makes the worker process exit on the spot,
as a crash in a C library or the kernel's out-of-memory killer would. A record holding
:data:`MARK_SENDING` lets the worker read its batch, then makes it exit halfway through
sending the batch's result to a pool's parent, holding the result queue's lock: the
death that leaves a pool unable to return any result again. A record holding
:data:`MARK_SLOW` takes its worker three seconds longer to read. Nothing else changes:
every other record is read as mjlog reads it. Where the environment names a file in
:data:`READING`, a worker about to take its three seconds over a :data:`MARK_SLOW`
record first writes its process id there: a test then knows, with no timer, which
worker is in the middle of a batch."""

from __future__ import annotations

import os
import pickle
import struct
import time
from multiprocessing.queues import SimpleQueue
from typing import Any

import mjlog.formats as formats
from mjlog.core.record import GameRecord

MARK = b"mjlog-test: this record ends the worker"
MARK_SENDING = b"mjlog-test: this record's worker dies sending its result"
MARK_SLOW = b"mjlog-test: this record takes three seconds to read"
READING = "MJLOG_TEST_READING"
"""The environment variable naming the file a worker reading a slow record writes to."""
_read_bytes = getattr(formats.read_bytes, "unpoisoned", formats.read_bytes)  # loaded twice
_put = getattr(SimpleQueue.put, "unpoisoned", SimpleQueue.put)
_dying = False


def _reading(data: bytes, path: str = "", **kwargs: Any) -> list[GameRecord]:
    global _dying
    if MARK in data:
        os._exit(70)
    _dying = _dying or MARK_SENDING in data
    if MARK_SLOW in data:
        _say_reading()
        time.sleep(3)
    return _read_bytes(data, path, **kwargs)


def _say_reading() -> None:
    """Write this process's id to the file :data:`READING` names, if any (whole or not at
    all: written beside it, then moved into place)."""
    flag = os.environ.get(READING)
    if flag:
        part = f"{flag}.{os.getpid()}"
        with open(part, "w", encoding="ascii") as f:
            f.write(str(os.getpid()))
        os.replace(part, flag)


def _putting(queue: SimpleQueue[Any], obj: Any) -> None:
    if not _dying:
        _put(queue, obj)
        return
    queue._wlock.acquire()  # type: ignore[attr-defined]  # as put holds it to send
    data = pickle.dumps(obj)
    queue._writer._send(struct.pack("!i", len(data)) + data[:len(data) // 2])  # type: ignore[attr-defined]
    os._exit(71)


_reading.unpoisoned = _read_bytes  # type: ignore[attr-defined]
_putting.unpoisoned = _put  # type: ignore[attr-defined]
formats.read_bytes = _reading
SimpleQueue.put = _putting  # type: ignore[method-assign, assignment]

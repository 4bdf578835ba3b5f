"""Loaded into the test cluster's workers (``dask worker --preload``): a record holding
:data:`MARK` makes the worker process exit on the spot, as a crash in a C library or the
kernel's out-of-memory killer would. Nothing else changes: every other record is read
as mjlog reads it."""

from __future__ import annotations

import os
from typing import Any

import mjlog.formats as formats
from mjlog.record import GameRecord

MARK = b"mjlog-test: this record ends the worker"
_read_bytes = getattr(formats.read_bytes, "unpoisoned", formats.read_bytes)  # loaded twice


def _reading(data: bytes, path: str = "", **kwargs: Any) -> list[GameRecord]:
    if MARK in data:
        os._exit(70)
    return _read_bytes(data, path, **kwargs)


_reading.unpoisoned = _read_bytes  # type: ignore[attr-defined]
formats.read_bytes = _reading

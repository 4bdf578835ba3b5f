"""Compressed records: what every reader gets before it sees a format.

Records may be stored gzip-compressed (Tenhou serves its logs so); the
format registry (:mod:`mjlog.formats`) decompresses before it detects or
reads, so every format reads gzip alike. Decompression is bounded: a record
that would expand past :data:`LIMIT` bytes is refused before it is all in
memory. A damaged or cut stream keeps what decompressed before the damage.
This module does no file I/O.
"""

from __future__ import annotations

import os
import zlib
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

from mjlog.core.diagnostics import Diagnostic, InputError

GZIP_MAGIC = b"\x1f\x8b"
LIMIT = 256 * 2**20
"""The most bytes one compressed record may expand to by default (a gzip bomb stops
there); ``MJLOG_MAX_RECORD_MB`` in the environment (``mjlog --max-record-mb``) sets
another."""
LIMIT_VARIABLE = "MJLOG_MAX_RECORD_MB"


_GIVEN: ContextVar[int | None] = ContextVar("record_limit", default=None)


def record_limit() -> int:
    """The limit in force: the one of :func:`limited` around the caller, else
    ``MJLOG_MAX_RECORD_MB`` megabytes when set to a whole number of at least 1, else
    :data:`LIMIT`."""
    given = _GIVEN.get()
    if given is not None:
        return given
    value = os.environ.get(LIMIT_VARIABLE, "")
    return int(value) * 2**20 if value.isascii() and value.isdigit() and int(value) else LIMIT


@contextmanager
def limited(limit: int) -> Iterator[None]:
    """Make ``limit`` bytes the limit in force in this thread (or task) while the block
    runs: a cluster worker works under its client's limit, not under its own environment."""
    token = _GIVEN.set(limit)
    try:
        yield
    finally:
        _GIVEN.reset(token)
_CHUNK = 4 * 2**20
_SLICE = 8192


def gunzip(data: bytes, limit: int | None = None) -> tuple[bytes, Diagnostic | None]:
    """``data`` gunzipped when it starts with the gzip magic (every member of it), else
    unchanged; with a ``bad-gzip`` diagnostic when the stream is damaged or cut, in
    which case the bytes are what decompressed before the damage.

    Raises :class:`InputError` (``too-large``) when the data would expand past
    ``limit`` bytes (:func:`record_limit` when not given); it never holds much more than
    ``limit`` bytes while finding out.
    """
    if data[:2] != GZIP_MAGIC:
        return data, None
    if limit is None:
        limit = record_limit()
    out = bytearray()
    rest = data
    while rest[:2] == GZIP_MAGIC:
        rest, damage = _member(rest, out, limit)
        if damage:
            return bytes(out), Diagnostic(code="bad-gzip", message=(
                f"damaged gzip data after {len(out)} decompressed bytes ({damage}); "
                "what came before is read"))
    if rest.strip(b"\0"):
        return bytes(out), Diagnostic(code="bad-gzip", message=(
            f"{len(rest)} bytes after the gzip data are not gzip; they are not read"))
    return bytes(out), None


def _member(data: bytes, out: bytearray, limit: int) -> tuple[bytes, str]:
    """Decompress one gzip member of ``data`` onto ``out``; return what follows it and,
    if the member is damaged or cut, what is wrong ("" when it is whole).

    The deflate data goes in a slice at a time and the checksum is mjlog's own, so
    damage loses at most the output of one slice."""
    at = _header_end(data)
    if at < 0:
        return b"", "a damaged gzip header"
    inflate = zlib.decompressobj(wbits=-15)
    crc, start = 0, len(out)
    while not inflate.eof:
        piece = inflate.unconsumed_tail or data[at:at + _SLICE]
        if not piece:
            return b"", "the data stops before the end of the stream"
        if not inflate.unconsumed_tail:
            at += len(piece)
        try:
            chunk = inflate.decompress(piece, _CHUNK)
        except zlib.error as exc:
            return b"", str(exc)
        crc = zlib.crc32(chunk, crc)
        out += chunk
        if len(out) > limit:
            raise InputError(Diagnostic(code="too-large", message=(
                f"the gzip data expands past {limit // 2**20} MB; not read (a record "
                "that large is not a game record)")))
    rest = inflate.unused_data + data[at:]
    size = (len(out) - start) & 0xFFFFFFFF
    if rest[:8] != crc.to_bytes(4, "little") + size.to_bytes(4, "little"):
        return b"", "its checksum or length does not match"
    return rest[8:], ""


def _header_end(data: bytes) -> int:
    """Where the deflate data of a gzip member starts (RFC 1952), or -1 if damaged."""
    if len(data) < 10 or data[2] != 8:
        return -1
    flags, at = data[3], 10
    if flags & 4:  # FEXTRA
        at += 2 + int.from_bytes(data[at:at + 2], "little")
    for flag in (8, 16):  # FNAME, FCOMMENT: zero-terminated
        if flags & flag:
            at = data.find(b"\0", at) + 1
            if at == 0:
                return -1
    at += 2 if flags & 2 else 0  # FHCRC
    return at if at <= len(data) else -1


def decompress(data: bytes) -> bytes:
    """Like :func:`gunzip`, but a damaged stream raises :class:`InputError` (``bad-gzip``)."""
    text, damage = gunzip(data)
    if damage is not None:
        raise InputError(damage)
    return text

"""Compressed records: what every reader gets before it sees a format.

Records may be stored gzip-compressed (Tenhou serves its logs so); the
format registry (:mod:`mjlog.formats`) decompresses before it detects or
reads, so every format reads gzip alike. This module does no file I/O.
"""

from __future__ import annotations

import gzip
import zlib

from mjlog.diagnostics import Diagnostic, InputError

GZIP_MAGIC = b"\x1f\x8b"


def decompress(data: bytes) -> bytes:
    """Gunzip ``data`` when it starts with the gzip magic; otherwise return it unchanged.

    Raises :class:`InputError` (``bad-gzip``) for a damaged gzip stream.
    """
    if data[:2] != GZIP_MAGIC:
        return data
    try:
        return gzip.decompress(data)
    except (OSError, EOFError, zlib.error) as exc:
        raise InputError(Diagnostic(code="bad-gzip", message=f"damaged gzip data: {exc}")) from None

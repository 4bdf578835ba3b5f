"""Record formats: detecting a file's format from its content and reading it.

Formats read so far:

============  ==================================================  ===================
name          what                                                detected by
============  ==================================================  ===================
tenhou-xml    Tenhou mjlog XML, plain or gzip                     ``<mjloggm`` near the start
jsonl         mjlog's own JSON Lines (:mod:`mjlog.serialize`)     a first line that is an
                                                                  mjlog event object
notation      mjlog notation, written by hand or by mjlog         a first line
              (:mod:`mjlog.formats.notation`, ``*.mjn``)          ``mjlog-notation 1``
tenhou6       tenhou.net/6 JSON, incl. Mahjong Soul games          a JSON object with a
              converted to it (:mod:`mjlog.formats.tenhou6`)      ``log`` list
mjai          mjai JSON Lines, any dialect                        a first line
              (:mod:`mjlog.formats.mjai`)                         ``start_game`` or
                                                                  ``start_kyoku``
============  ==================================================  ===================

The file name does not matter. This module is the only place that opens
record files; the format modules themselves work on bytes.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from pathlib import Path

from mjlog import serialize
from mjlog.diagnostics import Diagnostic, InputError
from mjlog.events import EVENT_TYPES
from mjlog.formats import mjai, notation, tenhou6, tenhou_xml
from mjlog.record import GameRecord

FORMATS = ("tenhou-xml", "jsonl", "notation", "tenhou6", "mjai")


def detect(data: bytes) -> str | None:
    """The format of (possibly gzipped) record bytes, or ``None`` if not recognised."""
    try:
        data = tenhou_xml.decompress(data)
    except InputError:
        return None
    head = data[:4096].lstrip(b"\xef\xbb\xbf \t\r\n")
    if notation.looks_like(head):
        return "notation"
    if head.startswith(b"<"):
        return "tenhou-xml" if tenhou_xml.looks_like(head) else None
    if head.startswith(b"{"):
        first = data.lstrip(b"\xef\xbb\xbf \t\r\n").split(b"\n", 1)[0]
        try:
            obj = json.loads(first)
        except (ValueError, UnicodeDecodeError):
            # one object over several lines (pretty-printed tenhou.net/6)
            return "tenhou6" if tenhou6.looks_like(head) else None
        if isinstance(obj, dict) and obj.get("type") in EVENT_TYPES:
            return "jsonl"
        if isinstance(obj, dict) and isinstance(obj.get("log"), list):
            return "tenhou6"
        if isinstance(obj, dict) and mjai.looks_like(obj):
            return "mjai"
    return None


def read_bytes(data: bytes, path: str = "", *, fmt: str | None = None,
               strict: bool = False) -> list[GameRecord]:
    """Read every game in ``data``. Raises :class:`InputError` if the format is unknown."""
    fmt = fmt or detect(data)
    if fmt == "tenhou-xml":
        return [tenhou_xml.read(data, path, strict=strict)]
    if fmt == "jsonl":
        return serialize.read(tenhou_xml.decompress(data), path, strict=strict)
    if fmt == "notation":
        return notation.read(tenhou_xml.decompress(data), path, strict=strict)
    if fmt == "tenhou6":
        return tenhou6.read(tenhou_xml.decompress(data), path, strict=strict)
    if fmt == "mjai":
        return mjai.read(tenhou_xml.decompress(data), path, strict=strict)
    raise InputError(Diagnostic(
        code="unknown-format",
        message=f"not a record format mjlog reads ({', '.join(FORMATS)})",
    ))


def read_path(path: str | Path, *, strict: bool = False) -> list[GameRecord]:
    """Read every game in one file. Raises :class:`InputError` if unreadable or unknown."""
    try:
        data = Path(path).read_bytes()
    except OSError as exc:
        raise InputError(Diagnostic(code="unreadable", message=str(exc))) from None
    return read_bytes(data, str(path), strict=strict)


def expand(inputs: Iterable[str | Path]) -> Iterator[tuple[Path, bool]]:
    """Files named by ``inputs``, directories searched recursively in name order.

    Yields ``(path, explicit)``: ``explicit`` is true for a file named on the
    command line (an unknown format there is an error), false for one found in
    a directory (an unknown format there is skipped). Hidden files and
    folders are not searched.
    """
    for item in inputs:
        p = Path(item)
        if p.is_dir():
            for f in sorted(p.rglob("*")):
                rel = f.relative_to(p).parts
                if f.is_file() and not any(part.startswith(".") for part in rel):
                    yield f, False
        else:
            yield p, True

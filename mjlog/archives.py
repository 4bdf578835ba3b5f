"""Records inside archives, read without unpacking them to disk.

Analysts keep records in ``.zip`` and ``.tar`` archives (plain, gzip, bzip2 or xz)
and in the SQLite database of the Tenhou Houou downloader houou-logs (a ``logs``
table whose ``log`` column holds each downloaded record). A record inside one
is named ``ARCHIVE!MEMBER`` everywhere (reports, facts): ``games.zip!2024/a.mjlog``,
``2024.db!2024010100gm-00a9-0000-12345678``. :func:`members` lists an archive's
records, :func:`read` reads one. Archives stay open in a small cache of each
thread, so that reading member after member does not open them again (a gzip
tar is then read forward once). What :mod:`mjlog.formats` makes of the bytes is
the same as for a file.
"""

from __future__ import annotations

import bz2
import os
import sqlite3
import struct
import tarfile
import threading
import zipfile
import zlib
from collections import OrderedDict
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from pathlib import Path
from typing import Final

SEPARATOR: Final = "!"
"""Between an archive's path and a member's name."""
_TAR_SUFFIXES: Final = (".tar", ".tgz", ".tar.gz", ".tar.bz2", ".tbz2", ".tar.xz", ".txz")
_SQLITE_MAGIC: Final = b"SQLite format 3\x00"
_Opened = zipfile.ZipFile | tarfile.TarFile | sqlite3.Connection
_LOCAL = threading.local()
"""Each thread's open archives (``_LOCAL.open``): by path, modification time and size (an
archive rewritten is opened anew). Per thread, since a tar file and its read position
cannot be shared by threads (the threads of a cluster worker)."""
_KEEP_OPEN: Final = 4


class ArchiveError(OSError):
    """An archive or member that cannot be read."""


def kind(path: Path) -> str | None:
    """``zip``, ``tar`` or ``houou-logs`` for an archive mjlog reads records from, else
    ``None`` (a plain record file, or any other file)."""
    name = path.name.lower()
    try:
        with path.open("rb") as f:
            head = f.read(16)
    except OSError:
        return None
    if name.endswith(".zip") and head.startswith(b"PK"):
        return "zip"
    if name.endswith(_TAR_SUFFIXES) and tarfile.is_tarfile(path):
        return "tar"
    if head == _SQLITE_MAGIC and _houou_table(path):
        return "houou-logs"
    return None


def _houou_table(path: Path) -> bool:
    try:
        with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as conn:
            cols = {row[1] for row in conn.execute("PRAGMA table_info(logs)")}
    except sqlite3.Error:
        return False
    return {"id", "log"} <= cols


def members(path: Path) -> Iterator[str]:
    """The names of an archive's records, in the archive's order (a houou-logs database's
    downloaded records by log id)."""
    archive = _open(str(path))
    if isinstance(archive, zipfile.ZipFile):
        yield from (i.filename for i in archive.infolist() if not i.is_dir())
    elif isinstance(archive, tarfile.TarFile):
        yield from (m.name for m in archive.getmembers() if m.isfile())
    else:
        yield from (row[0] for row in archive.execute(
            "SELECT id FROM logs WHERE log IS NOT NULL ORDER BY id"))


def split(name: str) -> tuple[str, str] | None:
    """``(archive, member)`` of a name ``ARCHIVE!MEMBER`` whose archive is a file, else
    ``None``."""
    at = name.find(SEPARATOR)
    while at >= 0:
        if Path(name[:at]).is_file():
            return name[:at], name[at + 1:]
        at = name.find(SEPARATOR, at + 1)
    return None


@dataclass(frozen=True, slots=True)
class Entry:
    """Where a zip member's bytes are in its archive: enough to read it without the
    archive's directory (which costs a worker about 600 bytes of memory per member)."""

    offset: int
    """Of the member's local header."""
    stored: int
    size: int
    method: int
    crc: int


_DIRECT: Final = (zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED, zipfile.ZIP_BZIP2)
_ENTRIES: ContextVar[dict[str, Entry] | None] = ContextVar("entries", default=None)


def entries(names: Iterable[str]) -> dict[str, Entry]:
    """The :class:`Entry` of each name ``ARCHIVE!MEMBER`` of a zip among ``names``
    (stored, deflated or bzip2, not encrypted), from this process's open archive."""
    out = {}
    for name in names:
        inside = split(name)
        try:
            opened = _open(inside[0]) if inside is not None else None
            info = (opened.getinfo(inside[1]) if isinstance(opened, zipfile.ZipFile)
                    and inside is not None else None)
        except (ArchiveError, KeyError):
            continue  # read without an entry, and reported there
        if info is not None and info.compress_type in _DIRECT and not info.flag_bits & 1:
            out[name] = Entry(info.header_offset, info.compress_size, info.file_size,
                              info.compress_type, info.CRC)
    return out


@contextmanager
def located(known: dict[str, Entry]) -> Iterator[None]:
    """While the block runs (in this thread or task), read the members named in ``known``
    straight from where they are, without opening their archive's directory: a worker
    given its batch's entries holds no archive's directory, whatever its size."""
    token = _ENTRIES.set(known)
    try:
        yield
    finally:
        _ENTRIES.reset(token)


def read(archive: str, member: str, limit: int, name: str = "") -> bytes:
    """A member's bytes (``name``: the record's name, ``ARCHIVE!MEMBER`` as given, by which
    :func:`located` entries are found). Raises :class:`ArchiveError` when it cannot be read
    or is larger than ``limit`` bytes (as stored, before any gzip of its own is undone)."""
    known = (_ENTRIES.get() or {}).get(name)
    if known is not None:
        _check(known.size, limit, member)
        return _read_at(archive, member, known)
    try:
        opened = _open(archive)
        if isinstance(opened, zipfile.ZipFile):
            info = opened.getinfo(member)
            _check(info.file_size, limit, member)
            return opened.read(info)
        if isinstance(opened, tarfile.TarFile):
            entry = opened.getmember(member)
            _check(entry.size, limit, member)
            f = opened.extractfile(entry)
            if f is None:
                raise ArchiveError(f"{member} is not a file in {archive}")
            return f.read()
        row = opened.execute("SELECT log FROM logs WHERE id = ?", (member,)).fetchone()
    except (KeyError, zipfile.BadZipFile, tarfile.TarError, sqlite3.Error, EOFError) as exc:
        raise ArchiveError(f"cannot read {member} in {archive}: {exc}") from None
    if row is None or row[0] is None:
        raise ArchiveError(f"no record {member} in {archive}")
    data = bytes(row[0]) if not isinstance(row[0], str) else row[0].encode()
    _check(len(data), limit, member)
    return data


def _read_at(archive: str, member: str, e: Entry) -> bytes:
    """A zip member read from its :class:`Entry`: its local header, its bytes, checked
    against its CRC."""
    try:
        with open(archive, "rb") as f:
            f.seek(e.offset)
            head = f.read(30)
            if len(head) < 30 or head[:4] != b"PK\x03\x04":
                raise ArchiveError(f"cannot read {member} in {archive}: no local header")
            name_len, extra_len = struct.unpack("<HH", head[26:30])
            f.seek(e.offset + 30 + name_len + extra_len)
            raw = f.read(e.stored)
        data = (raw if e.method == zipfile.ZIP_STORED else zlib.decompress(raw, -15)
                if e.method == zipfile.ZIP_DEFLATED else bz2.decompress(raw))
    except (OSError, zlib.error, ValueError) as exc:
        raise ArchiveError(f"cannot read {member} in {archive}: {exc}") from None
    if len(data) != e.size or zlib.crc32(data) != e.crc:
        raise ArchiveError(f"cannot read {member} in {archive}: damaged (bad CRC)")
    return data


def _check(size: int, limit: int, member: str) -> None:
    if size > limit:
        raise ArchiveError(f"{member} holds {size / 2**20:.0f} MB, past the record limit")


def _open(archive: str) -> _Opened:
    """The archive, opened once per thread and kept among the last few it opened."""
    try:
        st = os.stat(archive)
    except OSError as exc:
        raise ArchiveError(f"cannot open {archive}: {exc}") from None
    key = (archive, st.st_mtime_ns, st.st_size)
    cache: OrderedDict[tuple[str, int, int], _Opened] = _LOCAL.__dict__.setdefault(
        "open", OrderedDict())
    if key in cache:
        cache.move_to_end(key)
        return cache[key]
    what = kind(Path(archive))
    try:
        opened: zipfile.ZipFile | tarfile.TarFile | sqlite3.Connection
        if what == "zip":
            opened = zipfile.ZipFile(archive)
        elif what == "tar":
            opened = tarfile.open(archive)  # noqa: SIM115 (kept open in the cache)
        elif what == "houou-logs":
            opened = sqlite3.connect(f"file:{archive}?mode=ro", uri=True,
                                     check_same_thread=False)
        else:
            raise ArchiveError(f"{archive} is not an archive mjlog reads")
    except (zipfile.BadZipFile, tarfile.TarError, sqlite3.Error, OSError) as exc:
        raise ArchiveError(f"cannot open {archive}: {exc}") from None
    cache[key] = opened
    while len(cache) > _KEEP_OPEN:
        cache.popitem(last=False)[1].close()
    return opened

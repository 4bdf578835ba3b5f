"""Records inside archives, read without unpacking them to disk.

Analysts keep records in ``.zip`` and ``.tar`` archives (plain, gzip, bzip2 or xz)
and in the SQLite database of the Tenhou Houou downloader houou-logs (a ``logs``
table whose ``log`` column holds each downloaded record). A record inside one
is named ``ARCHIVE!MEMBER`` everywhere (reports, facts): ``games.zip!2024/a.mjlog``,
``2024.db!2024010100gm-00a9-0000-12345678``. :func:`members` lists an archive's
records, :func:`read` reads one. Archives stay open in a small cache of each
thread, so that reading member after member does not open them again (a gzip
tar is then read forward once). An archive may also be a URL of an object store
(:mod:`mjlog.storage`): a zip there is read by ranged requests, a member at a time; a
houou-logs database is not (SQLite reads local files only). What :mod:`mjlog.formats`
makes of the bytes is the same as for a file.
"""

from __future__ import annotations

import bz2
import os
import sqlite3
import struct
import tarfile
import threading
import weakref
import zipfile
import zlib
from collections import Counter, OrderedDict
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from typing import IO, Any, Final

from mjlog import storage

SEPARATOR: Final = "!"
"""Between an archive's path and a member's name."""
_TAR_SUFFIXES: Final = (".tar", ".tgz", ".tar.gz", ".tar.bz2", ".tbz2", ".tar.xz", ".txz")
_SQLITE_MAGIC: Final = b"SQLite format 3\x00"
_Opened = zipfile.ZipFile | tarfile.TarFile | sqlite3.Connection
_SUFFIXES: Final = (".zip", *_TAR_SUFFIXES, ".db", ".sqlite", ".sqlite3")
_LOCAL = threading.local()
"""Each thread's open archives (``_LOCAL.open``): by path, modification time and size (an
archive rewritten is opened anew). Per thread, since a tar file and its read position
cannot be shared by threads (the threads of a cluster worker)."""
_KEEP_OPEN: Final = 4


class ArchiveError(OSError):
    """An archive or member that cannot be read."""


def named_like(name: str) -> bool:
    """Whether ``name`` ends as an archive's does (``.zip``, ``.tar.gz``, ``.db``…)."""
    return name.lower().endswith(_SUFFIXES)


def kind(name: str) -> str | None:
    """``zip``, ``tar`` or ``houou-logs`` for an archive mjlog reads records from, else
    ``None`` (a plain record file, or any other file). A SQLite database at a URL is
    ``houou-logs`` by its name and first bytes alone (opening it says it must be
    copied here)."""
    lower = name.lower()
    try:
        if lower.endswith(_TAR_SUFFIXES):
            with storage.opened(name) as f:
                return "tar" if _is_tar(f) else None
        head = storage.read_range(name, 0, 16)
    except OSError:
        return None
    if lower.endswith(".zip") and head.startswith(b"PK"):
        return "zip"
    if head == _SQLITE_MAGIC and (storage.is_url(name) or _houou_table(name)):
        return "houou-logs"
    return None


def _is_tar(f: IO[bytes]) -> bool:
    try:
        return tarfile.is_tarfile(f)
    except (OSError, EOFError, tarfile.TarError):
        return False


def _houou_table(path: str) -> bool:
    try:
        with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as conn:
            cols = {row[1] for row in conn.execute("PRAGMA table_info(logs)")}
    except sqlite3.Error:
        return False
    return {"id", "log"} <= cols


def members(name: str) -> Iterator[str]:
    """The names of an archive's records, in the archive's order (a houou-logs database's
    downloaded records by log id). Raises :class:`ArchiveError` for an archive that
    cannot be opened."""
    archive = _open(name)
    if isinstance(archive, zipfile.ZipFile):
        yield from _numbered(i.filename for i in archive.infolist() if not i.is_dir())
    elif isinstance(archive, tarfile.TarFile):
        yield from _numbered(m.name for m in archive.getmembers() if m.isfile())
    else:
        yield from (row[0] for row in archive.execute(
            "SELECT id FROM logs WHERE log IS NOT NULL ORDER BY id"))


def _numbered(names: Iterable[str]) -> Iterator[str]:
    """Member names, a name met again numbered (``x.mjlog#2``): an archive may hold two
    members of one name, and each is a record of its own."""
    seen: Counter[str] = Counter()
    for name in names:
        seen[name] += 1
        yield name if seen[name] == 1 else f"{name}#{seen[name]}"


_Same = dict[str, list[Any]]
_SAME: weakref.WeakKeyDictionary[Any, _Same] = weakref.WeakKeyDictionary()
"""Each open archive's members that share a name with another, by name, in order."""


def _same_named(archive: zipfile.ZipFile | tarfile.TarFile) -> _Same:
    """The members of ``archive`` whose name another member has too (found once)."""
    found = _SAME.get(archive)
    if found is None:
        items: list[Any] = (archive.infolist() if isinstance(archive, zipfile.ZipFile)
                            else archive.getmembers())
        named = Counter(i.filename if isinstance(i, zipfile.ZipInfo) else i.name
                        for i in items)
        found = {}
        for i in items:
            key = i.filename if isinstance(i, zipfile.ZipInfo) else i.name
            if named[key] > 1:
                found.setdefault(key, []).append(i)
        _SAME[archive] = found
    return found


def _member_info(archive: zipfile.ZipFile | tarfile.TarFile, member: str) -> Any:
    """The member a name of :func:`members` stands for: the first of that name, or the n-th
    for ``NAME#n``; raises ``KeyError``."""
    same = _same_named(archive)
    if member in same:
        return same[member][0]
    base, _, nth = member.rpartition("#")
    if base in same and nth.isdigit() and 2 <= int(nth) <= len(same[base]):
        return same[base][int(nth) - 1]
    return archive.getinfo(member) if isinstance(archive, zipfile.ZipFile) \
        else archive.getmember(member)


def split(name: str) -> tuple[str, str] | None:
    """``(archive, member)`` of a name ``ARCHIVE!MEMBER`` whose archive is a file, else
    ``None``."""
    at = name.find(SEPARATOR)
    while at >= 0:
        if (not storage.is_url(name) or named_like(name[:at])) and storage.is_file(name[:at]):
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
            info = (_member_info(opened, inside[1]) if isinstance(opened, zipfile.ZipFile)
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
            info = _member_info(opened, member)
            _check(info.file_size, limit, member)
            if info.compress_type in _DIRECT and not info.flag_bits & 0x1:
                return _read_at(archive, member, Entry(
                    info.header_offset, info.compress_size, info.file_size,
                    info.compress_type, info.CRC))
            raise ArchiveError(f"{member} is encrypted or compressed by a method mjlog does "
                               "not read (it reads stored, deflate and bzip2)")
        if isinstance(opened, tarfile.TarFile):
            entry = _member_info(opened, member)
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
        raw = _member_bytes(archive, member, e)
        data = _inflate(raw, e.method, e.size)
    except (OSError, zlib.error, ValueError) as exc:
        raise ArchiveError(f"cannot read {member} in {archive}: {exc}") from None
    if len(data) != e.size or zlib.crc32(data) != e.crc:
        raise ArchiveError(f"cannot read {member} in {archive}: damaged (bad CRC)")
    return data


def _inflate(raw: bytes, method: int, size: int) -> bytes:
    """A member's bytes decompressed, never more than one byte past its declared ``size``
    (a member that inflates further is damaged, and its CRC check then says so): a few
    kilobytes of bzip2 that declare 100 bytes can inflate to gigabytes, and are never
    inflated past 101 here."""
    if method == zipfile.ZIP_STORED:
        return raw[:size + 1]
    if method == zipfile.ZIP_DEFLATED:
        return zlib.decompressobj(-15).decompress(raw, size + 1)
    return bz2.BZ2Decompressor().decompress(raw, max_length=size + 1)


def _member_bytes(archive: str, member: str, e: Entry) -> bytes:
    """A zip member's bytes as stored, after its local header: one read (one ranged
    request at a URL) unless the header's name and extra fields are unusually long."""
    got = storage.read_range(archive, e.offset, e.offset + _HEADER + e.stored + _SLACK)
    if len(got) < _HEADER or got[:4] != b"PK\x03\x04":
        raise ArchiveError(f"cannot read {member} in {archive}: no local header")
    name_len, extra_len = struct.unpack("<HH", got[26:30])
    start = _HEADER + name_len + extra_len
    if start + e.stored <= len(got):
        return got[start:start + e.stored]
    return storage.read_range(archive, e.offset + start, e.offset + start + e.stored)


_HEADER: Final = 30
_SLACK: Final = 512
"""Read past a member's bytes with its header, for the header's name and extra fields."""


def _check(size: int, limit: int, member: str) -> None:
    if size > limit:
        raise ArchiveError(f"{member} holds {size / 2**20:.0f} MB, past the record limit")


def _open(archive: str) -> _Opened:
    """The archive, opened once per thread and kept among the last few it opened. A local
    archive rewritten since is opened anew; one at a URL is taken as it was when this
    process first opened it (a member read since it changed fails its CRC check)."""
    key = _version(archive)
    cache: OrderedDict[tuple[str, int, int], tuple[_Opened, IO[bytes] | None]] = (
        _LOCAL.__dict__.setdefault("open", OrderedDict()))
    if key in cache:
        cache.move_to_end(key)
        return cache[key][0]
    what = kind(archive)
    if what == "houou-logs" and storage.is_url(archive):
        raise ArchiveError(f"cannot open {archive}: a houou-logs database is read from a "
                           "file on this machine (SQLite reads no URL); copy it here")
    file = None
    try:
        if what in ("zip", "tar") and storage.is_url(archive):
            file = storage.open_kept(archive)
        opened = _opened(archive, what, file)
    except (zipfile.BadZipFile, tarfile.TarError, sqlite3.Error, OSError, EOFError) as exc:
        if file is not None:
            file.close()
        raise ArchiveError(f"cannot open {archive}: {exc}") from None
    cache[key] = (opened, file)
    while len(cache) > _KEEP_OPEN:
        old, old_file = cache.popitem(last=False)[1]
        old.close()
        if old_file is not None:
            old_file.close()
    return opened


def _version(archive: str) -> tuple[str, int, int]:
    if storage.is_url(archive):
        return (archive, 0, 0)
    try:
        st = os.stat(archive)
    except OSError as exc:
        raise ArchiveError(f"cannot open {archive}: {exc}") from None
    return (archive, st.st_mtime_ns, st.st_size)


def _opened(archive: str, what: str | None, file: IO[bytes] | None) -> _Opened:
    if what == "zip":
        return zipfile.ZipFile(file or archive)
    if what == "tar":
        return tarfile.open(archive if file is None else None, fileobj=file)  # kept open
    if what == "houou-logs":
        return sqlite3.connect(f"file:{archive}?mode=ro", uri=True, check_same_thread=False)
    raise ArchiveError(f"{archive} is not an archive mjlog reads")

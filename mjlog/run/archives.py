"""Records inside archives, read without unpacking them to disk.

Analysts keep records in ``.zip`` and ``.tar`` archives (plain, gzip, bzip2 or xz)
and in the SQLite database of the Tenhou Houou downloader houou-logs (a ``logs``
table whose ``log`` column holds each downloaded record). A record inside one
is named ``ARCHIVE!MEMBER`` everywhere (reports, facts): ``games.zip!2024/a.mjlog``,
``2024.db!2024010100gm-00a9-0000-12345678``. :func:`members` lists an archive's
records, :func:`read` reads one. Archives stay open in a small cache of each
thread, so that reading member after member does not open them again (a gzip
tar is then read forward once). An archive may also be a URL of an object store
(:mod:`mjlog.run.storage`): a zip there is read by ranged requests, a member at a time; a
houou-logs database is not (SQLite reads local files only). What :mod:`mjlog.formats`
makes of the bytes is the same as for a file.

Damage costs only what it damages: a tar cut short or damaged lists its whole members
and then says why it stops (:func:`damage`); a houou-logs database is read only from a
real ``logs`` table, every query under a bound of steps (:data:`SQLITE_STEPS`) and rows
(:data:`SQLITE_ROWS`), its text taken as bytes (an id that is not UTF-8 names its row
with the bytes escaped). Nothing here reads what a record says.
"""

from __future__ import annotations

import bz2
import lzma
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

from mjlog.run import storage

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
    """Whether the SQLite database at ``path`` has houou-logs' ``logs`` table with ``id``
    and ``log`` columns: a real table, never a view (a view may compute rows without end)."""
    try:
        conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        try:
            kinds = conn.execute("SELECT type FROM sqlite_master WHERE lower(name) = 'logs'"
                                 ).fetchall()
            cols = {row[1] for row in conn.execute("PRAGMA table_info(logs)")}
        finally:
            conn.close()
    except sqlite3.Error:
        return False
    return kinds == [("table",)] and {"id", "log"} <= cols


def members(name: str) -> Iterator[str]:
    """The names of an archive's records, in the archive's order (a houou-logs database's
    downloaded records by log id). Raises :class:`ArchiveError` for an archive that
    cannot be opened, and, after the members before the damage, for a tar that is cut
    short or damaged or a database past its bounds (:func:`damage` says why)."""
    archive = _open(name)
    if isinstance(archive, zipfile.ZipFile):
        yield from _numbered(i.filename for i in archive.infolist() if not i.is_dir())
    elif isinstance(archive, tarfile.TarFile):
        listed, broken = _tar_listing(archive)
        yield from _numbered(m.name for m in listed if m.isfile())
        if broken:
            raise ArchiveError(_damaged(name, listed, broken))
    else:
        yield from _houou_members(archive, name)


SQLITE_ROWS: Final = 10_000_000
"""The most records mjlog lists in one houou-logs database (Tenhou's Houou room has
played a few million games in all); past it the first are read, and the archive says so."""
SQLITE_STEPS: Final = 10**9
"""The most steps of SQLite's virtual machine one query of a houou-logs database may take
(listing it takes about 5 a row); past it the query stops and the archive says so."""
_TICK: Final = 1000
"""How many steps SQLite runs between two calls of the progress handler."""


def _houou_members(conn: sqlite3.Connection, name: str) -> Iterator[str]:
    """The record names of a houou-logs database: its downloaded rows' ids, in order. An
    id that is not UTF-8 text is named by its bytes escaped (``…\\xff``): reading that
    name says why it is not read. Raises :class:`ArchiveError` past :data:`SQLITE_ROWS`,
    after that many."""
    try:
        rows = _query(conn, name, "SELECT id FROM logs WHERE log IS NOT NULL ORDER BY id "
                      "LIMIT ?", (SQLITE_ROWS + 1,))
    except sqlite3.Error as exc:  # a damaged database (malformed, a value too big …)
        raise ArchiveError(f"cannot read all of {name}: {exc}") from None
    yield from (_row_name(row[0]) for row in rows[:SQLITE_ROWS])
    if len(rows) > SQLITE_ROWS:
        raise ArchiveError(f"cannot read all of {name}: it holds more than {SQLITE_ROWS:,} "
                           f"records; the first {SQLITE_ROWS:,} are read")


def _row_name(ident: Any) -> str:
    """A row's id as a record's name: its text, or its bytes with those that are not UTF-8
    escaped (``\\xff``)."""
    if isinstance(ident, bytes):
        return ident.decode("utf-8", "backslashreplace")
    return str(ident)


def _query(conn: sqlite3.Connection, name: str, sql: str, params: tuple[Any, ...]
           ) -> list[Any]:
    """All rows of one query, run under :data:`SQLITE_STEPS` (a progress handler stops it
    past them, raising :class:`ArchiveError`). A Ctrl-C while the query runs stops it and
    is raised as ``KeyboardInterrupt``, not lost in SQLite. Other SQLite errors are
    raised as they are."""
    state: dict[str, Any] = {"steps": 0, "stop": None}

    def tick() -> int:
        try:
            state["steps"] += _TICK
            return int(state["steps"] > SQLITE_STEPS)
        except BaseException as exc:  # a signal's exception raised here: stop, raise later
            state["stop"] = exc
            return 1

    conn.set_progress_handler(tick, _TICK)
    try:
        return conn.execute(sql, params).fetchall()
    except sqlite3.OperationalError as exc:
        if state["stop"] is not None:
            raise state["stop"] from None
        if state["steps"] > SQLITE_STEPS:
            raise ArchiveError(f"cannot read {name}: a query stopped after {SQLITE_STEPS:,} "
                               "steps of SQLite (a database built to keep it running?)"
                               ) from None
        if str(exc) == "interrupted":  # tick raised before its try (a signal on entry),
            raise KeyboardInterrupt from None  # which SQLite's callback swallowed
        raise
    finally:
        conn.set_progress_handler(None, 0)


def damage(name: str) -> str | None:
    """Why an archive cannot be read whole, in one line naming it: it cannot be opened, it
    is a tar cut short or damaged after some members, or a houou-logs database that
    cannot be listed to its end (each past what :func:`members` lists, which :func:`read`
    reads); None for an archive read whole. A file named like a tar that is none (or
    one cut before its first member's header ends) cannot be opened. Lists the archive
    (once more for a database: this is for archives that failed)."""
    if name.lower().endswith(_TAR_SUFFIXES) and kind(name) is None:
        return (f"cannot open {name}: not a tar archive, or one cut short or damaged in "
                "its first header")
    try:
        for _ in members(name):
            pass
    except ArchiveError as exc:
        return str(exc)
    return None


def _damaged(name: str, listed: list[tarfile.TarInfo], why: str) -> str:
    """The one line that says a tar is cut short or damaged, and what of it is read."""
    files = sum(m.isfile() for m in listed)
    return (f"cannot read all of {name}: {why}; the {files} member(s) before it are read, "
            "anything after it is lost")


_TARS: weakref.WeakKeyDictionary[tarfile.TarFile, tuple[list[tarfile.TarInfo], str]] = (
    weakref.WeakKeyDictionary())
"""Each open tar's members as far as they can be read, and what stopped them ("" when
nothing did)."""
_TAR_FAULTS: Final = (tarfile.TarError, EOFError, OSError, zlib.error, lzma.LZMAError)
"""What reading a damaged or cut tar raises (gzip, bzip2 and xz included)."""


def _tar_listing(archive: tarfile.TarFile) -> tuple[list[tarfile.TarInfo], str]:
    """The members of ``archive`` whose header and data are whole, in order, and why the
    listing stops before the archive's end ("" when it does not). Python's tarfile takes a
    header cut short, or damaged, after the first for the archive's end, and fails with an
    exception on data cut short: both are said here, and the members before are kept.
    Found once per open archive; never calls ``getmembers``, which would fail whole."""
    known = _TARS.get(archive)
    if known is not None:
        return known
    listed: list[tarfile.TarInfo] = []
    why = ""
    try:
        while (info := archive.next()) is not None:
            if not _whole(archive, info):
                why = f"it stops in the middle of member {info.name} (the archive is cut short)"
                break
            listed.append(info)
        else:
            why = _tail(archive)
    except _TAR_FAULTS as exc:
        after = f" after member {listed[-1].name}" if listed else ""
        why = f"it is damaged or cut short{after} ({exc or type(exc).__name__})"
    _TARS[archive] = (listed, why)
    return listed, why


def _whole(archive: tarfile.TarFile, info: tarfile.TarInfo) -> bool:
    """Whether the data of ``info`` (padded to a whole block) is all in the archive; leaves
    the archive at its end, where the next header is (tarfile's own next step)."""
    end = info.offset_data + -(-info.size // tarfile.BLOCKSIZE) * tarfile.BLOCKSIZE
    if end == info.offset_data:
        return True
    fileobj = archive.fileobj
    assert fileobj is not None
    fileobj.seek(end - 1)
    return len(fileobj.read(1)) == 1


def _tail(archive: tarfile.TarFile) -> str:
    """Why the block where tarfile stopped listing is not the archive's end marker (a
    header cut short or damaged: tarfile stops there without a word); "" when it is, or
    when the archive ends right there (which a tar cut at a member's end also does)."""
    fileobj = archive.fileobj
    assert fileobj is not None
    fileobj.seek(archive.offset)
    block = fileobj.read(tarfile.BLOCKSIZE)
    if not block.strip(b"\0"):
        return ""
    return (f"a member header at byte {archive.offset:,} is cut short or damaged"
            if len(block) == tarfile.BLOCKSIZE else
            f"it stops in the middle of the member header at byte {archive.offset:,} (the "
            "archive is cut short)")


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
                            else _tar_listing(archive)[0])
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
    if isinstance(archive, zipfile.ZipFile):
        return archive.getinfo(member)
    found = next((m for m in reversed(_tar_listing(archive)[0]) if m.name == member), None)
    if found is None:  # as tarfile's getmember says it
        raise KeyError(f"filename {member!r} not found")
    return found


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
        return _houou_read(opened, archive, member, limit)
    except ArchiveError:
        raise
    except (KeyError, zipfile.BadZipFile, sqlite3.Error, *_TAR_FAULTS) as exc:
        raise ArchiveError(f"cannot read {member} in {archive}: {exc}") from None


def _houou_read(conn: sqlite3.Connection, archive: str, member: str, limit: int) -> bytes:
    """The ``log`` of the row named ``member`` (:func:`_houou_members`), as the bytes it
    holds (text that is not UTF-8 too: its reader says where). SQLite never builds a value
    past ``limit`` bytes; a row whose id is not UTF-8 text is named and not read."""
    conn.setlimit(sqlite3.SQLITE_LIMIT_LENGTH, min(limit, 2**31 - 2) + 1)
    try:
        rows = _query(conn, archive, "SELECT log FROM logs WHERE id = ?", (member,))
    except sqlite3.DataError:  # string or blob too big
        raise ArchiveError(f"{member} holds more than {limit / 2**20:.0f} MB, past the "
                           "record limit") from None
    if not rows and "\\x" in member:
        raise ArchiveError(f"cannot read {member} in {archive}: the row's id is not UTF-8 "
                           "text (its bytes that are not are written \\xNN here); not read")
    if not rows or rows[0][0] is None:
        raise ArchiveError(f"no record {member} in {archive}")
    value = rows[0][0]
    data = value.encode() if isinstance(value, str) else bytes(value)
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
        conn = sqlite3.connect(f"file:{archive}?mode=ro", uri=True, check_same_thread=False)
        conn.text_factory = bytes  # text that is not UTF-8 is read, not a failure
        return conn
    raise ArchiveError(f"{archive} is not an archive mjlog reads")

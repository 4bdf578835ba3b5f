"""Record formats: the registry that detects, reads and writes every format mjlog knows.

Each format is one :class:`Format` in :data:`FORMATS`: its name, what it is,
its own signature (``looks_like``, on the decompressed start of a file), its
reader, its writer (when mjlog writes it), the extension of the files it
writes, the kind of source position its events carry and its dialects.
Detection walks the registry in its order (notation, Tenhou XML, JSON Lines,
Mahjong Soul, Riichi City, M-League, kobalab, tenhou.net/6, tenhou.net links, mjai,
Pantheon's textlog, CSV score sheets, Botzone's MCR data)
and takes the first format whose signature matches; the file name does not matter.
Compression (gzip) is undone before (by :mod:`mjlog.formats.compression`), for every format
alike.

The registry imports no reader: each :class:`Format` names its module, imported the
first time its signature, reader or writer is called (reading a Tenhou file imports
the Tenhou reader alone, and not the ``mahjong`` scoring library; ``tests/test_imports.py``).
This module is the only place that opens record files; the format modules
work on bytes. A reader that fails with an exception gives a record with an
``internal-error`` diagnostic instead of a traceback.
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import IO, Any

from mjlog.core.diagnostics import Diagnostic, InputError, Src
from mjlog.core.events import EVENT_TYPES, PAO_UNNAMED, Event, GameStart
from mjlog.core.record import GameRecord, PositionKind
from mjlog.core.tiles import UNKNOWN
from mjlog.formats import jsontext, limits, serialize
from mjlog.formats.compression import GZIP_MAGIC, gunzip, record_limit
from mjlog.formats.head import Head
from mjlog.formats.origin import with_origin
from mjlog.replay.state import misfit
from mjlog.run import archives, storage


@dataclass(frozen=True, slots=True, kw_only=True)
class WriteOptions:
    """How to write: each format takes what applies to it."""

    plain: bool = False
    """Notation: leave out what only a machine needs (tile copies, the shuffle seed)."""
    per_round: bool = False
    """tenhou.net/6: one JSON object per round and line."""
    dialect: str = "mortal"
    """mjai: the dialect (:data:`mjlog.formats.mjai.DIALECTS`)."""
    log_name: str = ""
    """mjai: the name a log gives itself (the input file's stem)."""


ONE_GAME_LIMIT = 16 * 2**20
"""The most bytes of text a format that holds one game a file reads (the largest real
records are about 1 MB); past it, or past the record limit when that is smaller
(:func:`mjlog.formats.compression.record_limit`), the file is refused as ``too-large``."""

Reader = Callable[[bytes, str, bool], list[GameRecord]]
Writer = Callable[[Sequence[Event], WriteOptions], str]


def _module(name: str) -> Any:
    """The format module ``mjlog.formats.NAME``, imported the first time it is asked for
    (reading a Tenhou file imports neither the other readers nor what they import)."""
    return importlib.import_module(f"mjlog.formats.{name}")


@dataclass(frozen=True, slots=True, kw_only=True)
class Format:
    """One record format: how to recognise, read and write it.

    ``looks_like``, ``read`` and ``write`` import the format's module (``module``) when
    first called, not before: the registry itself imports no reader."""

    name: str
    title: str
    module: str
    """The module that reads (and writes) it (``mjlog.formats.tenhou_xml``)."""
    looks_like: Callable[[Head], bool]
    read: Reader
    write: Writer | None
    extension: str
    positions: PositionKind
    dialects: tuple[str, ...] = ()
    families: tuple[str, ...] = ()
    """The rule families (``Ruleset.family``) whose games it can hold when writing; empty:
    every registered family (a format that writes what the family states, through
    :class:`mjlog.families.base.RuleFamily`, such as JSON Lines and notation)."""
    players: tuple[int, ...] = (3, 4)
    """The numbers of players whose games it can hold when writing."""
    one_game: bool = False
    """Whether a file holds one game (read whole, at most :data:`ONE_GAME_LIMIT`), not
    many (read game by game, of any length)."""
    verbatim: bool = False
    """Whether it writes any events as they are, even a game that does not fit its table
    (the canonical event stream); the others refuse such a game."""
    hidden: bool = True
    """Whether it can write a tile nobody saw (:data:`mjlog.core.tiles.UNKNOWN`, an mjai ``?``);
    a format that cannot refuses a game that has one."""
    pao: bool = False
    """Whether a win in it names the player liable for it (pao), so that a win naming
    nobody says nobody is; where it cannot, only the win's payments show liability, and
    score verification checks those alone."""

    def reader(self) -> ModuleType:
        """The format's module, imported if it is not yet."""
        return importlib.import_module(self.module)


NOTATION_MAGIC = b"mjlog-notation 1"
"""The first line of mjlog notation (:data:`mjlog.formats.notation.MAGIC`), known here so
that detecting another format does not import the notation reader."""
MJAI_DIALECTS = ("mortal", "mjai", "mjai.app", "mjai-legacy")
"""The mjai dialects (:data:`mjlog.formats.mjai.DIALECTS`), known here for the same reason."""


FORMATS: dict[str, Format] = {f.name: f for f in (
    Format(name="notation", title="mjlog notation, written by hand or by mjlog (*.mjn)",
           module="mjlog.formats.notation",
           looks_like=lambda h: h.start.startswith(NOTATION_MAGIC),
           read=lambda d, p, s: _module("notation").read(d, p, strict=s),
           write=lambda ev, o: _module("notation").write(ev, exact=not o.plain),
           extension=".mjn", positions="text", pao=True),
    Format(name="tenhou-xml", title="Tenhou mjlog XML, plain or gzip",
           module="mjlog.formats.tenhou_xml",
           looks_like=lambda h: h.start.startswith(b"<") and _module("tenhou_xml").looks_like(
               h.start),
           read=lambda d, p, s: [_module("tenhou_xml").read(d, p, strict=s)], write=None,
           extension=".mjlog", positions="xml", one_game=True, pao=True),
    Format(name="jsonl", title="mjlog's own JSON Lines (schemas/events.schema.json)",
           module="mjlog.formats.serialize",
           looks_like=lambda h: h.first_type() in EVENT_TYPES,
           read=lambda d, p, s: serialize.read(d, p, strict=s),
           write=lambda ev, o: "".join(serialize.write_lines(ev)),
           extension=".jsonl", positions="jsonl", verbatim=True, pao=True),
    Format(name="majsoul", title="Mahjong Soul's own record (GameDetailRecords as JSON)",
           module="mjlog.formats.majsoul",
           looks_like=lambda h: _module("majsoul").looks_like(h.start),
           read=lambda d, p, s: _module("majsoul").read(d, p, strict=s), write=None,
           extension=".json", positions="json", families=("riichi",), one_game=True),
    Format(name="majsoul-binary", title="Mahjong Soul's own record in its binary "
           "protobuf form (a record request's answer, or its data alone)",
           module="mjlog.formats.majsoul",
           looks_like=lambda h: _module("majsoul_wire").looks_like(h.data),
           read=lambda d, p, s: _module("majsoul").read_binary(d, p, strict=s), write=None,
           extension=".bin", positions="json", families=("riichi",), one_game=True),
    Format(name="riichicity", title="Riichi City's own record (the game record of its API)",
           module="mjlog.formats.riichicity",
           looks_like=lambda h: _module("riichicity").looks_like(h.start),
           read=lambda d, p, s: _module("riichicity").read(d, p, strict=s), write=None,
           extension=".json", positions="json", families=("riichi",), one_game=True),
    Format(name="mleague", title="M-League's game log (the viewer's command list)",
           module="mjlog.formats.mleague",
           looks_like=lambda h: _module("mleague").looks_like(h.start),
           read=lambda d, p, s: _module("mleague").read(d, p, strict=s), write=None,
           extension=".json", positions="json", families=("riichi",), one_game=True),
    Format(name="kobalab", title="kobalab's 牌譜 JSON (電脳麻将, majiang-core)",
           module="mjlog.formats.kobalab",
           looks_like=lambda h: _module("kobalab").looks_like(h.start),
           read=lambda d, p, s: _module("kobalab").read(d, p, strict=s),
           write=lambda ev, o: _module("kobalab").write(ev),
           extension=".json", positions="json", families=("riichi",), players=(4,),
           one_game=True, hidden=False),
    Format(name="tenhou6", title="tenhou.net/6 JSON, incl. Mahjong Soul games converted to it",
           module="mjlog.formats.tenhou6",
           looks_like=lambda h: not _module("kobalab").looks_like(h.start) and (
               isinstance(h.first_object().get("log"), list)
               or (h.first_object_fails() and _module("tenhou6").looks_like(h.start))),
           read=lambda d, p, s: _module("tenhou6").read(d, p, strict=s),
           write=lambda ev, o: _module("tenhou6").write(ev, per_round=o.per_round),
           extension=".json", positions="json", families=("riichi",), one_game=True,
           hidden=False, pao=True),
    Format(name="tenhou-link", title="a text with tenhou.net viewer links that carry their "
           "game (#json=...), as converters' reports write them", module="mjlog.formats.tenhou6",
           looks_like=lambda h: _module("tenhou6").looks_like_link(h.start),
           read=lambda d, p, s: _module("tenhou6").read_links(d, p, strict=s), write=None,
           extension=".txt", positions="json", families=("riichi",), one_game=True,
           pao=True),
    Format(name="mjai", title="mjai JSON Lines, any dialect", module="mjlog.formats.mjai",
           looks_like=lambda h: _module("mjai").looks_like(h.first_object())
           or _module("mjai").looks_like_wrapped(h.start),
           read=lambda d, p, s: _module("mjai").read(d, p, strict=s),
           write=lambda ev, o: _module("mjai").write(ev, dialect=o.dialect,
                                                     log_name=o.log_name or None),
           extension=".mjson", positions="jsonl", dialects=MJAI_DIALECTS,
           families=("riichi",), one_game=True),
    Format(name="pantheon", title="Pantheon's textlog: a score sheet as statements "
           "(ron A from B 3han 30fu riichi C)", module="mjlog.formats.sheets.pantheon",
           looks_like=lambda h: _module("sheets.pantheon").looks_like(h.start),
           read=lambda d, p, s: _module("sheets.pantheon").read(d, p, strict=s), write=None,
           extension=".txt", positions="text", families=("riichi",)),
    Format(name="csv-sheet", title="a score sheet as CSV, one row per hand "
           "(docs/formats.md)", module="mjlog.formats.sheets.csvsheet",
           looks_like=lambda h: _module("sheets.csvsheet").looks_like(h.start),
           read=lambda d, p, s: [_module("sheets.csvsheet").read(d, p, strict=s)], write=None,
           extension=".csv", positions="text", families=("riichi",), one_game=True,
           pao=True),
    Format(name="botzone", title="Botzone's Chinese Standard Mahjong (MCR) match data "
           "(Match, Wind, Player N Deal/Draw/Play …)", module="mjlog.formats.botzone",
           looks_like=lambda h: _module("botzone").looks_like(h.start),
           read=lambda d, p, s: _module("botzone").read(d, p, strict=s), write=None,
           extension=".txt", positions="text", families=("mcr",)),
)}
"""Every format by name, in the order detection tries them."""
PAO_UNNAMED.update(name for name, f in FORMATS.items() if not f.pao)


def writers() -> list[str]:
    """The formats mjlog writes."""
    return [name for name, f in FORMATS.items() if f.write is not None]


def detect(data: bytes) -> str | None:
    """The format of (possibly gzipped) record bytes, or ``None`` if not recognised."""
    try:
        text, _damage = gunzip(data)
    except InputError:
        return None
    return detect_text(text)


def detect_text(text: bytes) -> str | None:
    """The format of decompressed record text, or ``None`` if not recognised."""
    head = Head(text)
    return next((name for name, f in FORMATS.items() if f.looks_like(head)), None)


_NOTATION_LIKE = re.compile(rb"^[ \t]*(?:\[Players |[ESWN][1-4]-[0-9]+[ \t\r]*$|"
                            rb"[ESWN][1-4]-[0-9]+ )", re.MULTILINE)
_HANDS_LINE = re.compile(rb"^hands ", re.MULTILINE)


def _headless_notation(text: bytes) -> Diagnostic | None:
    """A diagnostic for mjlog notation written without its first line (a ``[Players``
    tag or a round header, and a ``hands`` line, near the start), else ``None``."""
    start = text[:65536]
    m = _NOTATION_LIKE.search(start)
    if m is None or not _HANDS_LINE.search(start):
        return None
    line = text[:m.start()].count(b"\n") + 1
    return Diagnostic(code="not-notation", src=Src(line=line, column=1), message=(
        "this looks like mjlog notation without its first line: add `mjlog-notation 1` "
        "as the first line"))


def read_bytes(data: bytes, path: str = "", *, fmt: str | None = None,
               strict: bool = False) -> list[GameRecord]:
    """Read every game in ``data``.

    Raises :class:`InputError` if the format is unknown, if gzip data expands
    past the record limit (:func:`mjlog.formats.compression.record_limit`) or the text of a
    one-game format past :data:`ONE_GAME_LIMIT` (``too-large``), or if it is damaged
    before any record could be read (``bad-gzip``). A stream damaged later keeps
    what decompressed before the damage, with the ``bad-gzip`` diagnostic on
    the first game. Every game's values are held to the ranges of
    :mod:`mjlog.formats.limits` (``bad-value``), whatever its format, and every game start
    has its origin (:func:`mjlog.formats.origin.with_origin`: its reader's, else read from
    its metadata, as for JSON Lines and notation).
    """
    text, damage = gunzip(data)
    fmt = fmt or detect_text(text)
    if fmt is None:
        raise InputError(damage or _headless_notation(text) or Diagnostic(
            code="unknown-format",
            message=f"not a record format mjlog reads ({', '.join(FORMATS)})"))
    most = min(ONE_GAME_LIMIT, record_limit())
    if FORMATS[fmt].one_game and len(text) > most:
        raise InputError(Diagnostic(code="too-large", message=(
            f"{len(text) / 2**20:.0f} MB of {fmt} for one game; not read (mjlog reads up "
            f"to {most / 2**20:.0f} MB of it: a real record is a few hundred KB)")))
    try:
        records = FORMATS[fmt].read(text, path, strict)
    except InputError:
        raise
    except Exception as exc:  # a reader's bug: reported, never a traceback
        records = [GameRecord(path=path, format=fmt, position_kind=FORMATS[fmt].positions,
                              diagnostics=[Diagnostic(code="internal-error",
                                                      message=f"the {fmt} reader failed: "
                                                      f"{exc!r}")])]
    for rec in records:
        limits.check(rec, strict)
        with_origin(rec)
    if damage is not None:
        if strict:
            raise InputError(damage)
        if not records:
            records = [GameRecord(path=path, format=fmt, position_kind=FORMATS[fmt].positions)]
        records[0].diagnostics.insert(0, damage)
    return records


_ROOT: ContextVar[Path | None] = ContextVar("root", default=None)


@contextmanager
def paths_under(root: Path) -> Iterator[None]:
    """While the block runs (in this thread or task), open a relative path as under
    ``root``; records keep the name they were given. A cluster worker so reads what its
    client named relative to the client's folder, and names it as the client did."""
    token = _ROOT.set(root)
    try:
        yield
    finally:
        _ROOT.reset(token)


def _local(path: str | Path) -> str:
    """Where ``path`` is opened (see :func:`paths_under`); a URL where it is."""
    root = _ROOT.get()
    name = str(path)
    if root is None or storage.is_url(name) or Path(name).is_absolute():
        return name
    return str(root / name)


def read_path(path: str | Path, *, strict: bool = False) -> list[GameRecord]:
    """Read every game in one file, or in one record of an archive (``ARCHIVE!MEMBER``,
    :mod:`mjlog.run.archives`). Raises :class:`InputError` if unreadable or unknown."""
    return read_bytes(file_bytes(path), str(path), strict=strict)


def file_bytes(path: str | Path) -> bytes:
    """A file's bytes, or an archive member's, here or at a URL (:mod:`mjlog.run.storage`).
    Raises :class:`InputError` (``unreadable``; ``too-large`` for a member past the record
    limit; ``unreadable`` for an archive that cannot be opened, named as a record)."""
    where = _local(path)
    inside = archives.split(where) if storage.is_url(where) else None
    if inside is None:
        try:
            data = storage.read_bytes(where)
        except OSError as exc:
            inside = archives.split(where)
            if inside is None:
                raise InputError(Diagnostic(code="unreadable", message=str(exc))) from None
        else:
            _refuse_damaged_archive(where)
            return data
    try:
        return archives.read(*inside, limit=record_limit(), name=str(path))
    except archives.ArchiveError as exc:
        code = "too-large" if "past the record limit" in str(exc) else "unreadable"
        raise InputError(Diagnostic(code=code, message=str(exc))) from None


def _refuse_damaged_archive(name: str) -> None:
    """An archive that reached here as a record is one that :func:`expand` could not open
    or read to its end (a tar cut short: its members before the damage are read as
    records of their own): raise the reason (:func:`mjlog.run.archives.damage`)."""
    if archives.named_like(name):
        why = archives.damage(name)
        if why is not None:
            raise InputError(Diagnostic(code="unreadable", message=why))


def iter_path(path: str | Path) -> Iterator[GameRecord]:
    """Every game in one file, one at a time, as :func:`read_path` reads them.

    A plain JSON Lines file is read a line at a time and each game yielded when the next
    begins, so that a file of any number of games costs the memory of one (at a URL too);
    other files are read whole. Raises :class:`InputError` as :func:`read_path` does, when the first
    game is asked for.
    """
    where = _local(path)
    inside = (archives.split(where) if storage.is_url(where) or not Path(where).is_file()
              else None)
    if inside is not None or archives.named_like(where):
        yield from read_bytes(file_bytes(path), str(path))  # in an archive, or damaged one
        return
    try:
        with storage.opened(where) as file:
            yield from _stream(file, str(path))
    except OSError as exc:
        raise InputError(Diagnostic(code="unreadable", message=str(exc))) from None


def _stream(file: IO[bytes], path: str) -> Iterator[GameRecord]:
    head = file.read(_STREAM_HEAD)
    if head[:2] == GZIP_MAGIC or detect_text(head) != "jsonl":
        yield from read_bytes(head + file.read(), path)
        return
    file.seek(0)
    try:
        for rec in serialize.read_lines(jsontext.file_lines(file), path):
            limits.check(rec)
            yield with_origin(rec)
    except Exception as exc:  # a reader's bug: reported, never a traceback
        yield GameRecord(path=path, format="jsonl", position_kind="jsonl",
                         diagnostics=[Diagnostic(code="internal-error", message=(
                             f"the jsonl reader failed: {exc!r}"))])


_STREAM_HEAD = 2**20
"""How much of a file :func:`iter_path` looks at to tell JSON Lines from the rest."""


def write(fmt: str, events: Sequence[Event], options: WriteOptions = WriteOptions()) -> str:
    """One game's events in format ``fmt``.

    Raises ``ValueError`` for a format mjlog does not write, and
    :class:`InputError` (``cannot-write``) for a game the format cannot hold
    (a Taiwanese game in tenhou.net/6 or mjai, a three-player game in kobalab's), a game
    whose events do not fit its table (:func:`mjlog.replay.state.misfit`: a seat or tile
    outside it, a move outside a round, events before the game's start) in any format but
    JSON Lines,
    which writes events as they are, or one its writer fails on
    (a bug in mjlog, reported with the exception, never a traceback). Writes nothing
    partial: the text is returned whole or not at all.
    """
    writer = FORMATS[fmt].write
    if writer is None:
        raise ValueError(f"mjlog does not write {fmt}; it writes {', '.join(writers())}")
    family = next((e.ruleset.family for e in events if isinstance(e, GameStart)), "riichi")
    if FORMATS[fmt].families and family not in FORMATS[fmt].families:
        raise InputError(Diagnostic(code="cannot-write", message=(
            f"{fmt} holds {' and '.join(FORMATS[fmt].families)} games only; this one is "
            f"{family}")))
    players = next((e.ruleset.players for e in events if isinstance(e, GameStart)), 4)
    if players not in FORMATS[fmt].players:
        raise InputError(Diagnostic(code="cannot-write", message=(
            f"{fmt} holds games of {' or '.join(map(str, FORMATS[fmt].players))} players "
            f"only; this one has {players}")))
    where = None if FORMATS[fmt].verbatim else misfit(events)
    if where is not None:
        index, why = where
        raise InputError(Diagnostic(code="cannot-write", message=(
            f"event {index} ({events[index].TYPE}) {why}; {fmt} cannot hold a game whose "
            "events do not fit its table (JSON Lines writes it as it is)")))
    hidden = None if FORMATS[fmt].hidden else _hidden_at(events)
    if hidden is not None:
        raise InputError(Diagnostic(code="cannot-write", message=(
            f"event {hidden} ({events[hidden].TYPE}) has a tile nobody saw; {fmt} cannot "
            "hold one")))
    try:
        return writer(events, options)
    except Exception as exc:  # a writer's bug: reported, never a traceback
        cannot = _module("kobalab").CannotWrite  # what a format cannot hold
        why = (f"{fmt} cannot hold this game: {exc}" if isinstance(exc, cannot)
               else f"the {fmt} writer failed: {exc!r}")
        raise InputError(Diagnostic(code="cannot-write", message=why)) from exc


def _hidden_at(events: Sequence[Event]) -> int | None:
    """The index of the first event with a tile nobody saw (a hidden draw or hand), or
    None."""
    for i, ev in enumerate(events):
        for name in ("tile", "called", "added", "win_tile", "dora_indicator"):
            if getattr(ev, name, None) == UNKNOWN:
                return i
        for name in ("tiles", "hand", "ura_indicators", "dora_indicators"):
            if UNKNOWN in (getattr(ev, name, None) or ()):
                return i
        if any(hand and UNKNOWN in hand for hand in getattr(ev, "hands", None) or ()):
            return i
    return None


def expand(inputs: Iterable[str | Path]) -> Iterator[tuple[str, bool]]:
    """Files named by ``inputs``, directories searched recursively in name order.

    Yields ``(path, explicit)``: ``explicit`` is true for a file named on the
    command line (an unknown format there is an error), false for one found in
    a directory (an unknown format there is skipped). Hidden files and
    folders are not searched. An archive (zip, tar, a houou-logs database;
    :mod:`mjlog.run.archives`), named or found, gives each of its records as
    ``ARCHIVE!MEMBER``, as files found in a directory; one that cannot be opened is
    yielded as a named file, whose reading gives the reason. A URL (``s3://bucket/2024/``,
    :mod:`mjlog.run.storage`) is a folder when objects lie below it; a URL that cannot be
    listed raises :class:`InputError`.
    """
    for item in inputs:
        name = str(item)
        for found, explicit in _files(name):
            yield from _in_archive(found) or ((found, explicit),)


def _files(name: str) -> list[tuple[str, bool]]:
    """The files a name on the command line stands for, as (name, named)."""
    if storage.is_url(name):
        try:
            return ([(f, False) for f in storage.files_under(name)]
                    if storage.is_dir(name) else [(name, True)])
        except OSError as exc:
            raise InputError(Diagnostic(code="unreadable", message=str(exc))) from None
    p = Path(name)
    if not p.is_dir():
        return [(str(p), True)]
    return [(str(f), False) for f in sorted(p.rglob("*"))
            if f.is_file() and not any(part.startswith(".") for part in f.relative_to(p).parts)]


def _in_archive(name: str) -> list[tuple[str, bool]]:
    """The records of an archive as ``(ARCHIVE!MEMBER, False)``; ``[]`` for any other file.
    An archive that cannot be opened gives itself as a named file, and so does a tar cut
    short, after the members before the damage: read as a record, it says why."""
    if not archives.named_like(name) or archives.kind(name) is None:
        return []
    found: list[tuple[str, bool]] = []
    try:
        for m in archives.members(name):
            found.append((f"{name}{archives.SEPARATOR}{m}", False))
    except archives.ArchiveError:
        found.append((name, True))
    return found

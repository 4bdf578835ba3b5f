"""What the readers of one-game JSON records share (Mahjong Soul, Riichi City, M-League,
kobalab): the record being built, diagnostics at a JSON path, loading the text, and
tiles followed through a round so that each has its physical id.

Each reader turns a problem into :class:`BadValue` at the place it is reading; a
value of the wrong kind or shape (:data:`MALFORMED`) is caught there too and
reported as ``bad-value`` with that place, never as a traceback. This module
does no file I/O.
"""

from __future__ import annotations

import json
from typing import Any, Final

from mjlog.core.diagnostics import Diagnostic, InputError, Severity, Src
from mjlog.core.events import Event
from mjlog.core.record import GameRecord
from mjlog.core.tiles import Kind, Tile, TileError
from mjlog.formats import jsontext
from mjlog.formats.kinds import Hands

MALFORMED: Final = (TypeError, ValueError, KeyError, AttributeError, IndexError)
"""What a reader meets on a value of the wrong kind or shape (a number where a list was,
a list too short): caught at the place being read and reported there."""

KindRed = tuple[Kind, bool]


class BadValue(Exception):
    """A value that cannot be read; ``path`` is where (a JSON path)."""

    def __init__(self, path: str, message: str) -> None:
        super().__init__(message)
        self.path = path


def what(exc: Exception) -> str:
    """A problem's message: a reader's own, or what a value of the wrong kind caused."""
    return str(exc) if isinstance(exc, BadValue) else f"a value of the wrong kind: {exc}"


class JsonReader:
    """The record one game's reader builds, with its events' JSON paths."""

    def __init__(self, path: str, strict: bool, fmt: str) -> None:
        self.rec = GameRecord(path=path, format=fmt, position_kind="json")
        self.paths: list[str] = []
        self.rec.paths = self.paths
        self.strict = strict

    def emit(self, ev: Event, path: str) -> None:
        """Add an event read at ``path``."""
        rec = self.rec
        rec.events.append(ev)
        rec.positions.append(0)
        self.paths.append(path)

    def diag(self, code: str, message: str, path: str = "",
             severity: Severity = Severity.ERROR) -> None:
        """A diagnostic at ``path``; with ``strict`` an error raises :class:`InputError`."""
        d = Diagnostic(code=code, message=message, severity=severity, src=Src(path=path))
        if self.strict and severity is Severity.ERROR:
            raise InputError(d)
        self.rec.diagnostics.append(d)

    def bad(self, exc: Exception, path: str) -> None:
        """A :class:`BadValue` or a value of the wrong kind, as ``bad-value``."""
        self.diag("bad-value", what(exc), getattr(exc, "path", path))


def load(data: bytes, reader: JsonReader) -> tuple[bool, Any]:
    """``(True, document)``, or ``(False, None)`` with a ``bad-encoding`` or
    ``json-syntax`` diagnostic (with its line and column) when the text is not JSON. A
    number mjlog does not read (``NaN``, ``1e999``, 10**30:
    :class:`mjlog.formats.jsontext.BadNumber`)
    is a ``bad-value`` at its path, and null in the document."""
    try:
        doc, bad = jsontext.decode(data.decode("utf-8-sig"))
        numbers(reader, bad)
        return True, doc
    except UnicodeDecodeError as exc:
        reader.diag("bad-encoding", f"not UTF-8: {exc.reason} at byte {exc.start}")
    except json.JSONDecodeError as exc:
        reader.diag("json-syntax", f"not JSON: {exc.msg} (line {exc.lineno}, column "
                    f"{exc.colno})")
    return False, None


def numbers(reader: JsonReader, bad: list[jsontext.BadNumber], prefix: str = "$") -> None:
    """A ``bad-value`` for each number :func:`mjlog.formats.jsontext.decode` read as null, at its
    path below ``prefix`` (the path of the text it was in: a JSON string of the record
    holds a document of its own)."""
    for number in bad:
        reader.diag("bad-value", str(number), number.at(prefix))


class Tiles:
    """A round's hands while a kind-only record is read: each tile that enters play gets
    a physical id (:class:`~mjlog.formats.kinds.Hands`); a fifth copy, or a tile a hand
    does not hold, is a :class:`BadValue` at ``path``."""

    def __init__(self, players: int, red_fives: bool) -> None:
        self.hands = Hands(players, red_fives)

    def fresh(self, p: int, code: KindRed, path: str) -> Tile:
        """A tile new to the round: dealt or drawn by ``p``, or an indicator (``p`` -1)."""
        try:
            return self.hands.add(p, *code) if p >= 0 else self.hands.new(*code)
        except TileError as exc:
            raise BadValue(path, str(exc)) from None

    def take(self, p: int, code: KindRed, path: str, prefer: int = -1) -> Tile:
        """A tile of ``code`` out of ``p``'s hand (``prefer`` when it is one)."""
        try:
            return self.hands.take(p, code[0], code[1], prefer)
        except TileError as exc:
            raise BadValue(path, str(exc)) from None

    def held(self, p: int) -> list[Tile]:
        """``p``'s concealed tiles (the list itself)."""
        return self.hands.hands[p]

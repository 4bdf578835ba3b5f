"""A score sheet as CSV: one row per hand, the columns a club's spreadsheet has.

The first row that is not a comment names the columns (in any order, any case;
separated by commas, semicolons or tabs, as the first row uses them):

* ``hand``: the hand's label, ``E1-0`` (East 1, no honba) or ``E1`` (the honba follow
  from the hands before, or from a ``honba`` column); empty: it follows from the hand
  before;
* ``result``: ``ron``, ``tsumo``, ``draw``, ``abort`` or ``chombo``;
* ``winner`` and ``from``: who won and who dealt in (a tsumo leaves ``from`` empty; a
  chombo names its offender in ``from``); a double ron writes ``A+B`` as winners and
  ``2+3`` and ``30+40`` as their han and fu;
* ``han`` (a number, or ``mangan`` … ``yakuman``), ``fu``, ``points`` (the hand's value
  without honba and sticks: a ron's payment, a tsumo's total): han and fu, or points;
* ``riichi``: who declared riichi in the hand, space-separated; ``ready``: who was ready
  at an exhaustive draw (``all``, ``none``); ``yaku`` and ``pao`` (optional);
* one column per player, headed with the player's name, in seat order (the first
  dealer first): the scores after the hand (optional; a row may leave them empty).

Comment lines start with ``#``; ``# ruleset: NAME`` names the preset the sheet was
played under (default ``ema``), ``# players: A B C D`` (or ``A, B, C, D``, for names with
spaces) the players when the sheet has no score columns, ``# start: 30000`` the starting
score when it is not the ruleset's.
Every error is a ``sheet-syntax`` diagnostic at its line and column. This module does
no file I/O.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Final

from mjlog.core.diagnostics import Diagnostic, InputError, Severity, Src
from mjlog.core.events import YakuClaim
from mjlog.core.record import GameRecord
from mjlog.core.ruleset import PRESETS
from mjlog.formats.kinds import yaku_from_text
from mjlog.formats.sheets import (
    Hand,
    Place,
    Sheet,
    SheetError,
    WrittenWin,
    build,
    fail,
    limit_han,
)

FORMAT = "csv-sheet"
COLUMNS: Final = {
    "hand": ("hand", "round", "kyoku"), "honba": ("honba",), "result": ("result", "outcome"),
    "winner": ("winner", "winners"), "from": ("from", "loser", "discarder"),
    "han": ("han",), "fu": ("fu",), "points": ("points", "value"), "riichi": ("riichi",),
    "ready": ("ready", "tenpai"), "yaku": ("yaku",), "pao": ("pao",),
}
"""Each column's name and the other names it may be headed with."""
_BY_HEADING: Final = {alias: name for name, aliases in COLUMNS.items() for alias in aliases}
_LABEL = re.compile(r"^([ESWN])([1-4])(?:-(\d{1,2}))?$", re.IGNORECASE)
_RESULTS: Final = ("ron", "tsumo", "draw", "abort", "chombo")
_DIRECTIVE = re.compile(r"^#\s*(ruleset|players|start)\s*:\s*(.*?)\s*$", re.IGNORECASE)

Cell = tuple[str, int]
"""A cell's text and the column (from 1) it starts at."""


def _delimiter(line: str) -> str:
    return max(",;\t", key=line.count)


def cells(line: str, delimiter: str) -> list[Cell]:
    """The cells of one CSV line with their columns; double quotes quote a cell (``""``
    is a quote in it). Raises :class:`ValueError` for an unclosed quote."""
    out: list[Cell] = []
    i, n = 0, len(line)
    while True:
        start, text = i, []
        if i < n and line[i] == '"':
            i += 1
            while True:
                if i >= n:
                    raise ValueError(start + 1)
                if line[i] == '"':
                    if i + 1 < n and line[i + 1] == '"':
                        text.append('"')
                        i += 2
                        continue
                    i += 1
                    break
                text.append(line[i])
                i += 1
        while i < n and line[i] != delimiter:
            text.append(line[i])
            i += 1
        out.append(("".join(text).strip(), start + 1))
        if i >= n:
            return out
        i += 1


def _first_rows(start: bytes) -> list[str]:
    lines = start.decode("utf-8", "replace").splitlines()
    return [ln.strip() for ln in lines if ln.strip() and not ln.strip().startswith("#")]


def looks_like(start: bytes) -> bool:
    """Whether a text's first row (past comments) heads a sheet: it names at least the
    ``result`` and ``winner`` columns."""
    rows = _first_rows(start)
    if not rows:
        return False
    try:
        names = {_BY_HEADING.get(c.lower()) for c, _ in cells(rows[0], _delimiter(rows[0]))}
    except ValueError:
        return False
    return {"result", "winner"} <= names


class _Columns:
    """The columns of the heading row: what each known column's index is, and the
    players' score columns."""

    def __init__(self, heading: list[Cell]) -> None:
        self.at: dict[str, int] = {}
        self.players: list[str] = []
        self.score_at: list[int] = []
        for k, (text, _) in enumerate(heading):
            name = _BY_HEADING.get(text.lower())
            if name is not None:
                self.at[name] = k
            elif text:
                self.players.append(text)
                self.score_at.append(k)


def read(data: bytes, path: str = "", *, strict: bool = False) -> GameRecord:
    """The game of a CSV sheet. A row that cannot be read is a ``sheet-syntax``
    diagnostic at its line and column (raised in strict mode) and is left out; a sheet
    without a heading row raises :class:`InputError`."""
    text = data.decode("utf-8-sig", "replace")
    directives: dict[str, str] = {}
    diagnostics: list[Diagnostic] = []
    heading: tuple[int, list[Cell]] | None = None
    rows: list[tuple[int, list[Cell]]] = []
    delimiter = ","
    for number, line in enumerate(text.splitlines(), start=1):
        stripped = line.strip()
        if not stripped:
            continue
        if stripped.startswith("#"):
            m = _DIRECTIVE.match(stripped)
            if m is not None:
                directives[m.group(1).lower()] = m.group(2)
            continue
        if heading is None:
            delimiter = _delimiter(line)
        try:
            row = cells(line, delimiter)
        except ValueError as exc:
            fail(SheetError("a quoted cell is not closed", (number, int(str(exc)))), strict,
                 diagnostics)
            continue
        if heading is None:
            heading = (number, row)
        else:
            rows.append((number, row))
    if heading is None:
        raise InputError(Diagnostic(code="sheet-syntax", severity=Severity.ERROR,
                                    message="a CSV sheet needs a heading row", src=Src(line=1)))
    return _game(heading, rows, directives, path, strict, diagnostics)


def _game(heading: tuple[int, list[Cell]], rows: list[tuple[int, list[Cell]]],
          directives: dict[str, str], path: str, strict: bool,
          diagnostics: list[Diagnostic]) -> GameRecord:
    """The game from the heading row, the hand rows and the directives."""
    cols = _Columns(heading[1])
    players = cols.players or _names(directives.get("players", ""))
    place = (heading[0], 1)
    rules_name = directives.get("ruleset", "ema").strip() or "ema"
    if rules_name not in PRESETS:
        fail(SheetError(f"no ruleset named {rules_name!r} (mjlog rules lists them); read "
                        "under ema", (1, 1)), strict, diagnostics)
        rules_name = "ema"
    rules = PRESETS[rules_name]
    if len(players) not in (3, 4):
        raise InputError(Diagnostic(code="sheet-syntax", severity=Severity.ERROR, src=Src(
            line=heading[0], column=1), message=(
            f"a sheet names 3 or 4 players (score columns headed with their names, or "
            f"# players: A B C D); this one names {len(players)}")))
    if rules.players != len(players):
        rules = rules.with_options(players=len(players))
    start = None
    if "start" in directives and directives["start"].isdigit():
        start = [int(directives["start"])] * len(players)
    hands: list[Hand] = []
    row_reader = _Row(cols, {p.lower(): k for k, p in enumerate(players)})
    for number, row in rows:
        try:
            hands.append(row_reader.hand(number, row))
        except SheetError as exc:
            fail(exc, strict, diagnostics)
    sheet = Sheet(source=FORMAT, players=players, ruleset=rules, hands=hands, start=start,
                  place=place)
    return build(sheet, path, FORMAT, diagnostics)


class _Row:
    """Reads one hand's row by the heading's columns."""

    def __init__(self, cols: _Columns, seats: dict[str, int]) -> None:
        self.cols = cols
        self.seats = seats
        self.number = 0
        self.row: list[Cell] = []

    def cell(self, name: str) -> Cell:
        """The text and column of the named column (``("", column)`` when empty)."""
        k = self.cols.at.get(name)
        if k is None or k >= len(self.row):
            return "", self.row[-1][1] if self.row else 1
        return self.row[k]

    def place(self, name: str) -> Place:
        return self.number, self.cell(name)[1]

    def seat(self, word: str, name: str) -> int:
        if word.lower() not in self.seats:
            raise SheetError(f"{name}: {word!r} is not one of the players "
                             f"({', '.join(self.seats)})", self.place(name))
        return self.seats[word.lower()]

    def seats_in(self, name: str) -> list[int]:
        text = self.cell(name)[0]
        if text.lower() == "all":
            return sorted(self.seats.values())
        if text.lower() in ("", "none", "nobody", "-"):
            return []
        return [self.seat(w, name) for w in re.split(r"[\s+/]+", text) if w]

    def hand(self, number: int, row: list[Cell]) -> Hand:
        """The hand of row ``row`` at line ``number``."""
        self.number, self.row = number, row
        result = self.cell("result")[0].lower()
        if result not in _RESULTS:
            raise SheetError(f"result is one of {', '.join(_RESULTS)}, not {result!r}",
                             self.place("result"))
        hand = Hand(place=(number, row[0][1]), result=result)
        self._label(hand)
        hand.riichi, hand.riichi_place = self.seats_in("riichi"), self.place("riichi")
        if result in ("ron", "tsumo"):
            self._wins(hand, result)
        elif result == "draw":
            hand.ready = self.seats_in("ready")
        elif result == "chombo":
            hand.offender = self.seat(self.cell("from")[0] or self.cell("winner")[0], "from")
        self._scores(hand)
        return hand

    def _label(self, hand: Hand) -> None:
        text = self.cell("hand")[0]
        honba_text = self.cell("honba")[0]
        if not text:
            return
        m = _LABEL.match(text)
        if m is None:
            raise SheetError(f"a hand is labelled like E1-0 (wind, number, honba), not "
                             f"{text!r}", self.place("hand"))
        honba = m.group(3) or honba_text
        if honba and not honba.isdigit():
            raise SheetError(f"honba is a number, not {honba!r}", self.place("honba"))
        hand.label = ("ESWN".index(m.group(1).upper()), int(m.group(2)),
                      int(honba) if honba else None)
        hand.label_place = self.place("hand")

    def _wins(self, hand: Hand, result: str) -> None:
        winners = [w for w in re.split(r"\s*\+\s*", self.cell("winner")[0]) if w]
        if not winners:
            raise SheetError(f"a {result} names its winner", self.place("winner"))
        if result == "tsumo" and len(winners) > 1:
            raise SheetError("a tsumo has one winner", self.place("winner"))
        parts = {name: _split(self.cell(name)[0], len(winners))
                 for name in ("han", "fu", "points")}
        loser_text = self.cell("from")[0]
        for k, name in enumerate(winners):
            winner = self.seat(name, "winner")
            loser = winner
            if result == "ron":
                if not loser_text:
                    raise SheetError("a ron names who dealt in (from)", self.place("from"))
                loser = self.seat(loser_text, "from")
                if loser == winner:
                    raise SheetError("a ron is won off another player's discard (a self-"
                                     "drawn win is a tsumo)", self.place("from"))
            win = WrittenWin(winner=winner, from_player=loser, place=self.place("winner"))
            self._value(win, parts["han"][k], parts["fu"][k], parts["points"][k])
            win.yaku = _yaku(self.cell("yaku")[0]) if k == 0 else ()
            pao = self.cell("pao")[0]
            win.pao = self.seat(pao, "pao") if pao else None
            hand.wins.append(win)

    def _value(self, win: WrittenWin, han: str, fu: str, points: str) -> None:
        limit = limit_han(han) if han else None
        if limit is not None:
            win.han, win.yakuman = limit
        elif han:
            win.han = self._number(han, "han")
        if fu:
            win.fu = self._number(fu, "fu")
        if points:
            win.points = self._number(points, "points")
        if not (win.han or win.yakuman or win.points):
            raise SheetError("a win states its han (and fu) or its points", self.place("han"))
        if 0 < win.han < 5 and not win.fu and not win.points:
            raise SheetError(f"a win of {win.han} han needs its fu", self.place("fu"))

    def _number(self, text: str, name: str) -> int:
        if not text.isdigit():
            raise SheetError(f"{name} is a number, not {text!r}", self.place(name))
        return int(text)

    def _scores(self, hand: Hand) -> None:
        found = [self.row[k] if k < len(self.row) else ("", 0) for k in self.cols.score_at]
        if not found or not any(text for text, _ in found):
            return
        values: list[int] = []
        end = self.row[-1][1] + len(self.row[-1][0])
        for (text, column), name in zip(found, self.cols.players, strict=True):
            if not re.fullmatch(r"-?\d+", text):
                raise SheetError(f"{name}'s score after the hand is a whole number, not "
                                 f"{text!r}" if text else f"{name}'s score after the hand is "
                                 "missing (write all the scores of a row, or none)",
                                 (self.number, column or end))
            values.append(int(text))
        hand.scores = values
        hand.scores_place = (self.number, found[0][1])


def _split(text: str, count: int) -> list[str]:
    """The ``+``-separated parts of a cell, one per winner (the last repeated)."""
    parts = [p.strip() for p in text.split("+")] if text else [""]
    return (parts + [parts[-1]] * count)[:count]


def _yaku(text: str) -> tuple[YakuClaim, ...]:
    """Written yaku, kept as written (mjlog's name where it knows the word)."""
    name_of: Callable[[str], str | None] = yaku_from_text
    return tuple(YakuClaim(name=name_of(w) or w, han=0) for w in text.split())


def _names(text: str) -> list[str]:
    """The players of a ``# players:`` line: separated by commas where it has any (a name
    may then hold spaces), by spaces otherwise."""
    if "," in text:
        return [name.strip() for name in text.split(",") if name.strip()]
    return text.split()

"""Fact tables for statistics: one pass over each game's events, rows in batches.

Five tables, as polars DataFrames with the explicit schemas below
(:data:`SCHEMAS`, version :data:`FACTS_VERSION`); every row carries the
per-game columns (``game_id``, ``source``, ``year``, ``month``, ``platform``,
``ruleset``, ``room``, ``length``, ``players``, ``complete`` …) and the
player, so any table can be grouped on its own:

* ``games``: one row per player per complete game: seat, final score,
  placement, points, ratings.
* ``rounds``: one row per round (its player is the dealer): honba, how it ended.
* ``player_rounds``: one row per player per round: dealer, won, dealt in
  (and how many times, for a double ron), riichi declared/accepted, its own
  turn and order, calls, tenpai at an exhaustive draw, score change, others'
  tsumo, the dealer's streak.
* ``wins``: one row per win: winner, from whom, tsumo, han, fu, the record's
  points, score change, riichi, dama, ippatsu, dora, red and ura counts, yaku.
* ``yaku``: one row per yaku of a win (dora are counts in ``wins``).

An *own turn* is the player's own discard count at that moment (a riichi's
counts its declaration tile). The facts come from the record as it is:
nothing is replayed or recomputed, so use ``mjlog audit`` to check records
first.
"""

from __future__ import annotations

import hashlib
import io
import math
from array import array
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from functools import cache
from pathlib import Path
from typing import Any, Final

import polars as pl

from mjlog.core import native
from mjlog.core.diagnostics import InputError
from mjlog.core.events import (
    AbortiveDraw,
    Chi,
    Discard,
    Draw,
    Event,
    ExhaustiveDraw,
    GameEnd,
    GameStart,
    OpenKan,
    Origin,
    Pon,
    RiichiAccepted,
    RoundStart,
    Win,
)
from mjlog.core.record import GameRecord
from mjlog.families.riichi.scoring.yaku import YAKU, yaku_name
from mjlog.formats import (
    ONE_GAME_LIMIT,
    detect_text,
    expand,
    file_bytes,
    limits,
    read_bytes,
    tenhou_xml,
)
from mjlog.formats.compression import gunzip, record_limit
from mjlog.formats.origin import of_start
from mjlog.formats.origin import tenhou_id as tenhou_id
from mjlog.stats import moves

FACTS_VERSION = 2
"""The version of the fact tables' schemas (:data:`SCHEMAS`); it changes with any column."""

GROUP_SCHEMA: dict[str, pl.DataType] = {
    "game_id": pl.String(), "game_key": pl.UInt64(), "player": pl.String(),
    "date": pl.Datetime(), "year": pl.Int32(), "month": pl.Int32(),
    "platform": pl.String(), "ruleset": pl.String(), "room": pl.String(), "length": pl.String(),
    "players": pl.Int8(), "go_type": pl.Int32(), "complete": pl.Boolean(),
    "source": pl.String(),
}
SCHEMAS: dict[str, dict[str, pl.DataType]] = {
    "games": {
        **GROUP_SCHEMA, "seat": pl.Int8(), "final_score": pl.Int32(), "placement": pl.Int8(),
        "points": pl.Float64(), "rating": pl.Float64(), "table_rating": pl.Float64(),
    },
    "rounds": {
        **GROUP_SCHEMA, "round": pl.Int16(), "label": pl.String(), "dealer": pl.Int8(),
        "honba": pl.Int16(), "kyotaku": pl.Int16(), "result": pl.String(), "wins": pl.Int8(),
    },
    "player_rounds": {
        **GROUP_SCHEMA, "round": pl.Int16(), "seat": pl.Int8(), "dealer": pl.Boolean(),
        "won": pl.Boolean(), "dealt_in": pl.Boolean(), "deal_ins": pl.Int8(),
        "deal_in_points": pl.Int32(), "riichi": pl.Boolean(), "riichi_accepted": pl.Boolean(),
        "riichi_own_turn": pl.Int16(), "riichi_order": pl.Int8(), "riichi_chased": pl.Boolean(),
        "calls": pl.Int8(), "called": pl.Boolean(), "dama": pl.Boolean(),
        "exhaustive_draw": pl.Boolean(), "nagashi": pl.Boolean(), "abortive_draw": pl.Boolean(),
        "tenpai_at_draw": pl.Boolean(), "score_change": pl.Int32(),
        "own_turn_at_end": pl.Int16(), "tsumo_hit": pl.Boolean(), "dealer_streak": pl.Int16(),
        "riichi_win": pl.Boolean(), "riichi_deal_in": pl.Boolean(), "called_win": pl.Boolean(),
        "called_deal_in": pl.Boolean(),
    },
    "wins": {
        **GROUP_SCHEMA, "round": pl.Int16(), "winner": pl.Int8(), "from_player": pl.Int8(),
        "tsumo": pl.Boolean(), "han": pl.Int16(), "fu": pl.Int16(), "points": pl.Int32(),
        "limit": pl.String(), "score_change": pl.Int32(), "riichi": pl.Boolean(),
        "closed": pl.Boolean(), "dama": pl.Boolean(), "ippatsu": pl.Boolean(),
        "dora": pl.Int8(), "aka": pl.Int8(), "ura": pl.Int8(), "yakuman": pl.Boolean(),
        "yaku": pl.List(pl.String()), "own_turn": pl.Int16(), "pao": pl.Int8(),
    },
    "yaku": {
        **GROUP_SCHEMA, "round": pl.Int16(), "winner": pl.Int8(), "yaku": pl.String(),
        "han": pl.Int16(),
    },
}
"""Column names and types of each fact table."""

TABLES = tuple(SCHEMAS)
"""The tables every run writes."""
DECISIONS: Final = moves.TABLE
"""The table only ``--decisions`` writes (:mod:`mjlog.stats.moves`): each player-round's
decision facts, counted. A run or a facts folder without it has no such table."""
DECISION_SCHEMA: Final = moves.schema(GROUP_SCHEMA)
ALL_SCHEMAS: Final = {**SCHEMAS, DECISIONS: DECISION_SCHEMA}
"""Every table's schema, ``decisions`` included."""

_RIICHI, _CALLED = pl.col("riichi_own_turn").is_not_null(), pl.col("calls") > 0
_DEALT_IN, _WON = pl.col("deal_ins") > 0, pl.col("won")
DERIVED: dict[str, dict[str, pl.Expr]] = {"player_rounds": {
    "dealt_in": _DEALT_IN, "riichi": _RIICHI, "called": _CALLED,
    "dama": _WON & ~_CALLED & ~_RIICHI, "riichi_win": _WON & _RIICHI,
    "riichi_deal_in": _DEALT_IN & _RIICHI, "called_win": _WON & _CALLED,
    "called_deal_in": _DEALT_IN & _CALLED,
}}
"""Columns computed from the others when a batch becomes DataFrames (in polars, not row by
row): their rows do not carry them."""

_GAME_COLUMNS = tuple(c for c in GROUP_SCHEMA if c != "player")
_PR_COLUMNS = ("_game", "player", *(c for c in SCHEMAS["player_rounds"]
                                    if c not in GROUP_SCHEMA
                                    and c not in DERIVED["player_rounds"]))
"""Group columns that are the same for a whole game: kept once per game, joined on."""
_WIDTH = len(_PR_COLUMNS)
"""Cells of a ``player_rounds`` row in :attr:`Batch.cells`."""
_PR_DEFAULTS: Final[dict[str, Any]] = {
    "dealer": False, "won": False, "deal_ins": 0, "deal_in_points": 0,
    "riichi_accepted": False, "calls": 0, "exhaustive_draw": False, "nagashi": False,
    "abortive_draw": False, "score_change": 0, "tsumo_hit": False}
"""A ``player_rounds`` cell's value until a hook sets it (a column not named: None)."""
_AT = _PR_COLUMNS.index
"""Where a column of :data:`_PR_COLUMNS` is in a row of :attr:`Batch.cells`."""
_AT_GAME, _AT_PLAYER, _AT_ROUND, _AT_SEAT = _AT("_game"), _AT("player"), _AT("round"), _AT("seat")
_AT_DEALER, _AT_STREAK, _AT_WON = _AT("dealer"), _AT("dealer_streak"), _AT("won")
_AT_DEAL_INS, _AT_DEAL_IN_POINTS = _AT("deal_ins"), _AT("deal_in_points")
_AT_ACCEPTED, _AT_RIICHI_TURN = _AT("riichi_accepted"), _AT("riichi_own_turn")
_AT_ORDER, _AT_CHASED, _AT_CALLS = _AT("riichi_order"), _AT("riichi_chased"), _AT("calls")
_AT_EXHAUSTIVE, _AT_NAGASHI = _AT("exhaustive_draw"), _AT("nagashi")
_AT_ABORTIVE, _AT_TENPAI = _AT("abortive_draw"), _AT("tenpai_at_draw")
_AT_CHANGE, _AT_END_TURN = _AT("score_change"), _AT("own_turn_at_end")
_AT_TSUMO_HIT = _AT("tsumo_hit")


@dataclass
class Batch:
    """Rows of the fact tables for a batch of games.

    A row is the game's number in the batch, the player, then the table's own
    columns in schema order. Rows are kept flat, cell after cell in one list per
    table (``player_rounds`` in ``cells``), not as a tuple each: a tuple kept
    until the batch ends is a container the garbage collector counts and
    promotes: with a few dozen a game, statistics over 2,486 games ran about 670
    collections (4 or 5 of them full) where reading alone runs 480 (3 full).
    The per-game group columns are kept once in ``game_rows`` and joined on
    when the frames are built.
    """

    rows: dict[str, list[Any]] = field(
        default_factory=lambda: {t: [] for t in ALL_SCHEMAS if t != "player_rounds"})
    """The cells of ``games``, ``rounds``, ``wins``, ``yaku`` and ``decisions``, row after
    row."""
    game_rows: list[tuple[Any, ...]] = field(default_factory=list)
    cells: list[Any] = field(default_factory=list)
    """``player_rounds`` kept flat, row after row, each row the :data:`_WIDTH` cells of
    :data:`_PR_COLUMNS`: a round's rows are added in one ``extend``, and a column is a
    slice with a step."""
    games: int = 0
    skipped: list[str] = field(default_factory=list)
    """Games left out because their events do not fit a table (path, game and why)."""
    decisions: bool = False
    """Whether each game's decision facts are counted too (the ``decisions`` table; a game
    then takes the Python route for them, :mod:`mjlog.stats.moves`)."""

    @property
    def tables(self) -> tuple[str, ...]:
        """The tables this batch makes: :data:`TABLES`, and ``decisions`` when counted."""
        return (*TABLES, DECISIONS) if self.decisions else TABLES

    def frames(self) -> dict[str, pl.DataFrame]:
        """The batch as DataFrames with the documented schemas. A game with a value its
        column's type cannot hold (a score past 32 bits, honba past 16, a rating that is
        not finite: a damaged record's) is left out first, and said in :attr:`skipped`
        (:meth:`drop_unfit`); the other games' rows are not changed."""
        try:
            out = self._frames()
        except (TypeError, OverflowError):  # polars: a value past its column's type
            if not self.drop_unfit():
                raise
            return self._frames()
        if any(df[c].is_infinite().any() or df[c].is_nan().any()
               for df in out.values() for c, d in df.schema.items() if d == pl.Float64()):
            self.drop_unfit()
            return self._frames()
        return out

    def drop_unfit(self) -> bool:
        """Leave out every game with a cell its column cannot hold (an integer past its
        type's range, a float that is not finite), each named in :attr:`skipped` with the
        column and value; whether any was. Checks cell by cell: only for a batch whose
        frames failed."""
        bad: dict[int, str] = {}
        tables = [(self.game_rows, _INFO_SCHEMA)] + [
            (self.cells if t == "player_rounds" else self.rows[t], _own_schema(t))
            for t in self.tables]
        for rows, schema in tables:
            for g, column, value in _unfit(rows, schema):
                bad.setdefault(g, f"{column} {value!r} does not fit its column "
                                  f"({schema[column]})")
        if not bad:
            return False
        at_source = 1 + _GAME_COLUMNS.index("source")
        for row in self.game_rows:
            if row[0] in bad:
                self.skipped.append(f"{row[at_source]}: cannot be summarised: {bad[row[0]]}")
        self.game_rows = [row for row in self.game_rows if row[0] not in bad]
        self.cells = _without(self.cells, _WIDTH, bad)
        self.rows = {t: _without(cells, len(_own_schema(t)), bad)
                     for t, cells in self.rows.items()}
        self.games -= len(bad)
        return True

    def _frames(self) -> dict[str, pl.DataFrame]:
        """The DataFrames of the rows as they are (:meth:`frames` guards their values)."""
        if not self.game_rows:
            return {t: pl.DataFrame(schema=ALL_SCHEMAS[t]) for t in self.tables}
        info = _frame(self.game_rows, _INFO_SCHEMA)
        out = {}
        for t in self.tables:
            schema = ALL_SCHEMAS[t]
            derived = DERIVED.get(t, {})
            df = _flat_frame(self.cells if t == "player_rounds" else self.rows[t],
                             _own_schema(t))
            df = df.join(info, on="_game", how="left")
            if derived:
                df = df.with_columns(e.alias(c) for c, e in derived.items())
            if t == "wins":
                df = df.with_columns(pl.col("yaku").str.split(",").list.eval(
                    pl.element().filter(pl.element() != "")))
            df = df.select(list(schema))
            out[t] = df if df.schema == schema else df.cast(schema)  # type: ignore[arg-type]
        return out


_INFO_SCHEMA: Final[dict[str, pl.DataType]] = {
    "_game": pl.Int32(), **{c: GROUP_SCHEMA[c] for c in _GAME_COLUMNS}}
"""The columns of :attr:`Batch.game_rows`."""


@cache
def _own_schema(table: str) -> dict[str, pl.DataType]:
    """The columns of a table's rows as a :class:`Batch` keeps them: the game's number, the
    player and the table's own columns (``wins``' yaku joined by commas)."""
    schema = ALL_SCHEMAS[table]
    derived = DERIVED.get(table, {})
    own = {c: d for c, d in schema.items() if c not in GROUP_SCHEMA and c not in derived}
    if table == "wins":
        own["yaku"] = pl.String()  # joined with ",", split when the frame is built
    return {"_game": pl.Int32(), "player": pl.String(), **own}


_INT_RANGES: Final[dict[pl.DataType, int]] = {
    pl.Int8(): 2**7, pl.Int16(): 2**15, pl.Int32(): 2**31, pl.Int64(): 2**63}
"""Half the span of each signed integer type of the schemas."""


def _unfit(rows: list[Any], schema: dict[str, pl.DataType]) -> Iterator[tuple[int, str, Any]]:
    """``(game, column, value)`` of each cell of ``rows`` (flat, or tuples) that its column's
    type cannot hold."""
    flat = not rows or not isinstance(rows[0], tuple)
    width = len(schema)
    columns = list(schema.items())
    records = (rows[k:k + width] for k in range(0, len(rows), width)) if flat else iter(rows)
    for row in records:
        for (column, dtype), value in zip(columns, row, strict=True):
            if type(value) is int:
                half = _INT_RANGES.get(dtype)
                low, high = ((-half, half - 1) if half else (0, 2**64 - 1)
                             if dtype == pl.UInt64() else (-math.inf, math.inf))
                if not low <= value <= high:
                    yield row[0], column, value
            elif type(value) is float and dtype == pl.Float64() and not math.isfinite(value):
                yield row[0], column, value


def _without(cells: list[Any], width: int, games: dict[int, str]) -> list[Any]:
    """Flat rows of ``width`` cells, those of ``games`` left out."""
    out: list[Any] = []
    for k in range(0, len(cells), width):
        if cells[k] not in games:
            out.extend(cells[k:k + width])
    return out


def _flat_frame(cells: list[Any], schema: dict[str, pl.DataType]) -> pl.DataFrame:
    """A DataFrame from rows kept flat (each row one cell per column of ``schema``, in
    order): a column is a slice with a step."""
    width = len(schema)
    return pl.DataFrame([pl.Series(name, cells[c::width], dtype=dtype)
                         for c, (name, dtype) in enumerate(schema.items())])


def _frame(rows: list[tuple[Any, ...]], schema: dict[str, pl.DataType]) -> pl.DataFrame:
    """A DataFrame from row tuples: transposed in C, then one Series per column."""
    if not rows:
        return pl.DataFrame(schema=schema)
    columns = zip(*rows, strict=True)
    return pl.DataFrame([pl.Series(name, col, dtype=dtype)
                         for (name, dtype), col in zip(schema.items(), columns, strict=True)])


def game_key(start: GameStart, events: list[Event]) -> int:
    """A content key of a game (players and first deal): equal for copies of one game."""
    first = next((e for e in events if isinstance(e, RoundStart)), None)
    return key_of(start, first.hands if first else ())


def key_of(start: GameStart, first_hands: Sequence[Sequence[int] | None]) -> int:
    """:func:`game_key` of a game whose first round deals ``first_hands``."""
    seed = of_start(start, "").shuffle_seed
    parts = ["\x1f".join(p.name for p in start.players).encode(), b"\x1e", str(seed).encode(),
             b"\x1e"]
    for hand in first_hands:
        parts.append(b"\xff" if hand is None else array("h", hand).tobytes() + b"\xfe\xff")
    digest = hashlib.blake2b(b"".join(parts), digest_size=8).digest()
    return int.from_bytes(digest, "little")


def _origin(path: str, start: GameStart) -> Origin:
    """The game's origin (:func:`mjlog.formats.origin.of_start`). Raises ``ValueError``
    where its id names a day that does not exist: such a game is not summarised."""
    origin = of_start(start, path)
    if origin.bad_date is not None:
        raise ValueError(origin.bad_date)
    return origin


def where_and_when(path: str, start: GameStart) -> tuple[str | None, datetime | None]:
    """The platform a game was played on and its date, as the ``games`` table gives them
    (``None`` where the record does not say)."""
    origin = _origin(path, start)
    return origin.platform, origin.date


def _game_info(path: str, start: GameStart, index: int, key: int, complete: bool
               ) -> tuple[Any, ...]:
    """The per-game columns, in the order of :data:`_GAME_COLUMNS`: the stable id, date,
    platform, room, ruleset, source and whether the game is complete."""
    origin = _origin(path, start)
    date = origin.date
    return (origin.game_id or f"hash:{key:016x}", key, date,
            date.year if date else None, date.month if date else None,
            origin.platform, start.ruleset.name, origin.room, start.ruleset.length,
            len(start.players), origin.lobby_type, complete,
            path if index == 0 else f"{path}#{index + 1}")


def add_game(batch: Batch, rec: GameRecord, index: int = 0) -> None:
    """Add one game's rows to ``batch``. Records without a game start are skipped."""
    events = rec.events
    if not events or not isinstance(events[0], GameStart):
        return
    start = events[0]
    end = next((e for e in reversed(events) if isinstance(e, GameEnd)), None)
    complete = end is not None and end.scores is not None
    g = len(batch.game_rows)
    info = _game_info(rec.path, start, index, game_key(start, events), complete)
    batch.game_rows.append((g, *info))
    batch.games += 1
    names = player_names(start, info[0])
    if end is not None and end.scores is not None:
        _placements(batch, g, start, end, names)
    rounds = _Rounds(batch, g, names)
    rounds.run(events)
    rounds.finish()
    if batch.decisions:
        _add_decisions(batch, g, names, rec)


def _add_decisions(batch: Batch, g: int, names: list[str], rec: GameRecord) -> None:
    """The ``decisions`` rows of game ``g`` (:mod:`mjlog.stats.moves`); a game whose
    decisions cannot be computed keeps its other rows, and is said in
    :attr:`Batch.skipped`."""
    why = moves.add_rows(batch.rows[DECISIONS], g, names, rec)
    if why is not None:
        batch.skipped.append(f"{rec.path}: decision facts not computed: {why}")


GUEST: Final = "NoName"
"""Tenhou's name for a guest: many people, never one player."""


def player_names(start: GameStart, game_id: str) -> list[str]:
    """Each seat's player as statistics name them: the record's name, except Tenhou's
    guest name, which is not one player: each guest is named by the game and the seat
    (``NoName (tenhou:2022060222gm-…, seat 2)``), and so counted apart."""
    return [f"{GUEST} ({game_id}, seat {seat})" if p.name == GUEST else p.name
            for seat, p in enumerate(start.players)]


def _placements(batch: Batch, g: int, start: GameStart, end: GameEnd,
                names: list[str]) -> None:
    """The ``games`` rows of a complete game: placement (ties to the seat nearer the first
    dealer), final score and points, and the ratings the record gives."""
    scores = end.scores
    assert scores is not None
    n = len(names)
    ratings = [p.rating for p in start.players]
    known = [r for r in ratings if r is not None]
    table = sum(known) / len(known) if len(known) == n else None
    order = sorted(range(n), key=lambda p: (-scores[p], (p - start.first_dealer) % n))
    for place, seat in enumerate(order, 1):
        batch.rows["games"].extend((
            g, names[seat], seat, scores[seat], place,
            end.points[seat] if end.points else None, ratings[seat], table))


class _Rounds:
    """One game's rounds, each round's per-player facts gathered by its hooks, which
    :meth:`run` calls on the events they look at (no table is needed). A discard, most
    of a game's events, is counted in the loop itself: a call each cost a quarter of the
    facts' time.

    A round's ``player_rounds`` rows are written when it starts, with their defaults, in
    one ``extend`` of :attr:`Batch.cells`, and its hooks set their cells in place (seat
    ``p``'s row starts at ``row[p]``): nothing is reset or copied at a round's end, which
    was a third of the facts' time."""

    def __init__(self, batch: Batch, game: int, names: list[str]) -> None:
        self.batch, self.game, self.names, self.n = batch, game, names, len(names)
        n = self.n
        self.index = -1
        self.row: list[int] = []
        self.rs: RoundStart | None = None
        self.last_dealer, self.streak = -1, 0
        self.cells = batch.cells
        self.disc = [0] * n  # discards before any round start are counted nowhere
        self._zero = (0,) * n
        # a new round's rows; its round number, dealer and dealer's streak are set in it
        self._fresh: list[Any] = [_PR_DEFAULTS.get(c) for c in _PR_COLUMNS] * n
        self._fresh[_AT_GAME::_WIDTH] = (game,) * n
        self._fresh[_AT_PLAYER::_WIDTH] = names
        self._fresh[_AT_SEAT::_WIDTH] = range(n)
        self._offsets = range(0, n * _WIDTH, _WIDTH)
        self._none, self._false = (None,) * n, (False,) * n
        self._rounds, self._wins, self._yaku = (batch.rows[t] for t in ("rounds", "wins", "yaku"))

    def run(self, events: Sequence[Any]) -> None:
        """Count each discard, and call the hook of each other event of a kind in
        :data:`_HOOKS` (and of each riichi declaration), in order."""
        hook, disc = _HOOKS.get, self.disc
        for ev in events:  # a plain loop: cheaper than picking the events out in C first
            kind = type(ev)  # a sixth cheaper than reading ev.__class__
            if kind is Draw:
                continue
            if kind is Discard:
                disc[ev.player] += 1
                if ev.riichi:
                    self.declare(ev.player)
            elif (fn := hook(kind)) is not None:
                fn(self, ev)

    def finish(self) -> None:
        """Write the last round's row of ``rounds``."""
        if self.rs is not None:
            self.flush()

    def declare(self, p: int) -> None:
        """A riichi declaration: its own turn, its order, and whom it chases."""
        if self.rs is None:
            return
        cells, at = self.cells, self.row[p]
        if cells[at + _AT_RIICHI_TURN] is None:
            cells[at + _AT_RIICHI_TURN] = self.disc[p]
            self.declared += 1
            cells[at + _AT_ORDER] = self.declared
            cells[at + _AT_CHASED] = False
            for q, other in enumerate(self.row):
                if q != p and cells[other + _AT_ORDER] is not None:
                    cells[other + _AT_CHASED] = True

    def before_round_start(self, rs: RoundStart) -> None:
        """Write the last round's row, and the new round's rows with their defaults."""
        if self.rs is not None:
            self.flush()
        self.index += 1
        self.streak = self.streak + 1 if rs.dealer == self.last_dealer else 0
        self.last_dealer = rs.dealer
        self.rs = rs
        n, dealer, fresh = self.n, rs.dealer, self._fresh
        fresh[_AT_ROUND::_WIDTH] = (self.index,) * n
        fresh[_AT_DEALER::_WIDTH] = self._false
        fresh[_AT_STREAK::_WIDTH] = self._none
        if dealer < n:
            fresh[dealer * _WIDTH + _AT_DEALER] = True
            fresh[dealer * _WIDTH + _AT_STREAK] = self.streak
        self.row = list(map(len(self.cells).__add__, self._offsets))
        self.cells.extend(fresh)
        self.disc[:] = self._zero
        self.declared = 0
        self.result = ""
        self.wins = 0

    def before_chi(self, ev: Chi | Pon | OpenKan) -> None:
        if self.rs is not None:
            self.cells[self.row[ev.player] + _AT_CALLS] += 1

    def before_riichi_accepted(self, ev: RiichiAccepted) -> None:
        if self.rs is not None:
            at = self.row[ev.player]
            self.cells[at + _AT_ACCEPTED] = True
            self.cells[at + _AT_CHANGE] -= 1000

    def before_win(self, ev: Win) -> None:
        if self.rs is None:
            return
        cells, row, disc, w, f = self.cells, self.row, self.disc, ev.winner, ev.from_player
        self.wins += 1
        self.result = "win"
        self.win(ev)
        cells[row[w] + _AT_WON] = True
        cells[row[w] + _AT_END_TURN] = disc[w]
        if f != w:
            cells[row[f] + _AT_DEAL_INS] += 1
            cells[row[f] + _AT_DEAL_IN_POINTS] -= ev.deltas[f] if ev.deltas else 0
            cells[row[f] + _AT_END_TURN] = disc[f]
        else:
            for p, at in enumerate(row):
                if p != w:
                    cells[at + _AT_TSUMO_HIT] = True
        for at, d in zip(row, ev.deltas, strict=False):  # a record may list fewer
            cells[at + _AT_CHANGE] += d

    def before_exhaustive_draw(self, ev: ExhaustiveDraw | AbortiveDraw) -> None:
        if self.rs is None:
            return
        n, cells, row = self.n, self.cells, self.row
        exhaustive = isinstance(ev, ExhaustiveDraw)
        nagashi = isinstance(ev, ExhaustiveDraw) and ev.nagashi
        first, end = row[0], row[0] + n * _WIDTH
        for column, value in ((_AT_EXHAUSTIVE, exhaustive), (_AT_ABORTIVE, not exhaustive),
                              (_AT_NAGASHI, nagashi)):
            cells[first + column:end:_WIDTH] = (value,) * n
        self.result = "nagashi" if nagashi else (
            ev.kind if isinstance(ev, AbortiveDraw) else "exhaustive")
        if exhaustive:
            cells[first + _AT_TENPAI:end:_WIDTH] = [
                p < len(ev.hands) and ev.hands[p] is not None for p in range(n)]
        for at, d in zip(row, ev.deltas, strict=False):  # a record may list fewer
            cells[at + _AT_CHANGE] += d

    def flush(self) -> None:
        """Write the finished round's row of ``rounds``."""
        rs = self.rs
        assert rs is not None
        label = f"{'ESWN'[rs.round_wind % 4]}{rs.round_number}-{rs.honba}"
        self._rounds.extend((
            self.game, self.names[rs.dealer] if rs.dealer < self.n else None, self.index,
            label, rs.dealer, rs.honba, rs.kyotaku, self.result or None, self.wins))

    def win(self, ev: Win) -> None:
        """The win's ``wins`` row and its ``yaku`` rows."""
        w, yaku = ev.winner, ev.yaku
        names = [y.name for y in yaku]
        at = self.row[w]
        riichi = self.cells[at + _AT_RIICHI_TURN] is not None or "riichi" in names \
            or "double-riichi" in names
        closed = self.cells[at + _AT_CALLS] == 0
        who = (self.game, self.names[w], self.index, w)
        dora = aka = ura = 0
        yakuman = ev.limit == "yakuman"
        rows = self._yaku
        for y in yaku:
            name, han = y.name, y.han
            if name == "dora":
                dora += han
            elif name == "aka-dora":
                aka += han
            elif name == "ura-dora":
                ura += han
            else:
                rows.extend((*who, name, han))
            yakuman = yakuman or han >= 13
        self._wins.extend((
            *who, ev.from_player, ev.from_player == w, ev.han, ev.fu, ev.points,
            ev.limit or None, ev.deltas[w] if ev.deltas else None, riichi, closed,
            closed and not riichi, "ippatsu" in names, dora, aka, ura, yakuman, ",".join(names),
            self.disc[w], ev.pao))


_HOOKS: Final[dict[type, Callable[[_Rounds, Any], None]]] = {
    RoundStart: _Rounds.before_round_start, Chi: _Rounds.before_chi, Pon: _Rounds.before_chi,
    OpenKan: _Rounds.before_chi, RiichiAccepted: _Rounds.before_riichi_accepted,
    Win: _Rounds.before_win, ExhaustiveDraw: _Rounds.before_exhaustive_draw,
    AbortiveDraw: _Rounds.before_exhaustive_draw}
"""The hook of each kind of event :meth:`_Rounds.run` looks at, but discards."""


def iter_batches(inputs: Iterable[str | Path], *, batch_games: int = 500,
                 decisions: bool = False) -> Iterator[dict[str, pl.DataFrame]]:
    """Fact tables batch by batch (about ``batch_games`` games each), streaming over files;
    with ``decisions``, the ``decisions`` table too (:mod:`mjlog.stats.moves`).

    Files in folders that are not records are skipped; unreadable named files
    raise :class:`~mjlog.core.diagnostics.InputError`.
    """
    batch = Batch(decisions=decisions)
    for item in expand(inputs):
        add_file(batch, item)
        if batch.games >= batch_games:
            yield batch.frames()
            batch = Batch(decisions=decisions)
    if batch.games:
        yield batch.frames()


UNREADABLE: Final = ": cannot read: "
"""What names an input that could not be read among a batch's skipped games (the command
exits with status 2 after the table of the rest)."""


def add_file(batch: Batch, item: tuple[str, bool]) -> None:
    """Add every game of one file; a non-record found in a folder (not named) is skipped,
    and so, with its reason, is a platform's file that holds no game, and a file that
    cannot be read (named, or a damaged archive), with :data:`UNREADABLE`. A Tenhou XML game
    takes the native core's route where it can (:func:`_add_native`)."""
    path, explicit = item
    try:
        data = file_bytes(path)
        if _add_native(batch, data, path):
            return
        records = read_bytes(data, path)
    except InputError as exc:
        if exc.diagnostic.code == "not-a-game":  # a platform's file that holds no game
            batch.skipped.append(exc.about(path))
        elif explicit or exc.diagnostic.code != "unknown-format":  # said; the rest goes on
            batch.skipped.append(f"{path}{UNREADABLE}{exc.diagnostic.message}")
        return
    for i, rec in enumerate(records):
        rows = {t: len(r) for t, r in batch.rows.items()}
        kept = len(batch.cells)
        try:
            add_game(batch, rec, i)
        except (IndexError, KeyError, TypeError, ValueError) as exc:
            for t, k in rows.items():  # drop the game's partial rows
                del batch.rows[t][k:]
            del batch.cells[kept:]
            batch.skipped.append(f"{path} game {i + 1}: cannot be summarised: {exc!r}")


@cache
def _native_reader() -> Any:
    """The native core's reader of Tenhou XML games into fact rows, given the names the
    Python route uses; None on the Python route (:mod:`mjlog.core.native`)."""
    core = native.core()
    if core is None:
        return None
    reader = core.TenhouFacts([yaku_name(i) for i in range(len(YAKU))],
                              list(tenhou_xml.LIMIT_NAMES), list(tenhou_xml.ABORTIVE.items()))
    if tuple(reader.player_round_columns) != _PR_COLUMNS:
        raise RuntimeError("the native core's player_rounds columns are not the Python ones")
    return reader


def native_tenhou(data: bytes, path: str) -> tuple[bytes, Any, GameStart] | None:
    """A Tenhou XML file read by the native core's ``TenhouFacts``: its text, the game read
    and the game start the Python reader makes of its header; None on the Python route,
    for another format, and for any record the core declines (a diagnostic, a shape it
    does not read)."""
    reader = _native_reader()
    if reader is None:
        return None
    text, damage = gunzip(data)
    most = min(ONE_GAME_LIMIT, record_limit())
    if damage is not None or len(text) > most or detect_text(text) != "tenhou-xml":
        return None
    game = reader.read(text)
    if isinstance(game, str):  # declined, with the reason
        return None
    start = tenhou_xml.game_start_of(game.header, game.first_scores, game.rounding_owari, path)
    if start is None or not _within_limits(start, game.owari, game.players):
        return None
    return text, game, start


def _within_limits(start: GameStart, owari: str, players: int) -> bool:
    """Whether the game start and final points of a game read natively are within the
    ranges every reader is held to (:mod:`mjlog.formats.limits`: a finite rating, finite
    final points); the core declines the other numbers past them itself."""
    try:
        end = tenhou_xml.game_end_of(owari, players)
    except ValueError:
        return False
    rec = GameRecord(path="", format=tenhou_xml.FORMAT, events=[start, end])
    limits.check(rec)
    return not rec.diagnostics


def _add_native(batch: Batch, data: bytes, path: str) -> bool:
    """Add the game of a Tenhou XML file by the native core: its fact rows read straight
    from the XML, the game start made by the Python reader from the header the core hands
    back (:func:`native_tenhou`). Whether it did; False (nothing added) where that gives
    nothing, which the Python route then reads. The twin of :func:`read_bytes` then
    :func:`add_game`."""
    found = native_tenhou(data, path)
    if found is None:
        return False
    _, game, start = found
    g = len(batch.game_rows)
    key = key_of(start, game.first_hands)
    info = _game_info(path, start, 0, key, True)
    batch.game_rows.append((g, *info))
    batch.games += 1
    names = player_names(start, info[0])
    _placements(batch, g, start, tenhou_xml.game_end_of(game.owari, game.players), names)
    game.extend(g, names, batch.rows["rounds"], batch.cells,
                batch.rows["wins"], batch.rows["yaku"])
    if batch.decisions:  # the Python route's record, for its decisions only
        _add_decisions(batch, g, names, read_bytes(data, path)[0])
    return True


def files_facts(items: list[tuple[str, bool]], decisions: bool = False
                ) -> tuple[dict[str, pl.DataFrame], list[str]]:
    """The fact tables of several files as one batch (with ``decisions``, that table
    too), and the games skipped.

    A unit of work for a process pool.
    """
    batch = Batch(decisions=decisions)
    for item in items:
        add_file(batch, item)
    return batch.frames(), batch.skipped


Packed = tuple[dict[str, bytes], list[str]]
"""A batch's fact tables as zstd-compressed Arrow IPC bytes, and the games skipped."""


def packed_files_facts(items: list[tuple[str, bool]], decisions: bool = False) -> Packed:
    """:func:`files_facts` with each table packed (:func:`pack`): what a cluster worker
    sends back over the network, about a seventeenth of the tables pickled."""
    frames, skipped = files_facts(items, decisions)
    return pack(frames), skipped


def pack(frames: dict[str, pl.DataFrame]) -> dict[str, bytes]:
    """Each table as zstd-compressed Arrow IPC bytes (its schema kept)."""
    out = {}
    for name, df in frames.items():
        buf = io.BytesIO()
        df.write_ipc(buf, compression="zstd")
        out[name] = buf.getvalue()
    return out


def unpack(tables: dict[str, bytes]) -> dict[str, pl.DataFrame]:
    """The tables of :func:`pack`, as they were."""
    return {name: pl.read_ipc(io.BytesIO(data)) for name, data in tables.items()}


def facts(inputs: Iterable[str | Path], *, decisions: bool = False
          ) -> dict[str, pl.DataFrame]:
    """Every fact table for the records in ``inputs`` (files or folders); with
    ``decisions``, the ``decisions`` table too (each game replayed for its decision facts:
    about as slow as :func:`mjlog.families.riichi.decisions.decisions`).

    Holds every row in memory; for large archives use :func:`iter_batches`
    or ``mjlog stats --facts DIR``.
    """
    names = (*TABLES, DECISIONS) if decisions else TABLES
    parts: dict[str, list[pl.DataFrame]] = {t: [] for t in names}
    for frames in iter_batches(inputs, decisions=decisions):
        for t, df in frames.items():
            parts[t].append(df)
    return {t: pl.concat(parts[t]) if parts[t] else pl.DataFrame(schema=ALL_SCHEMAS[t])
            for t in names}

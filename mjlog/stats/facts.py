"""Fact tables for statistics: one pass over each game's events, rows in batches.

Four tables, as polars DataFrames with the explicit schemas below
(:data:`SCHEMAS`); every row carries the grouping columns (``player``,
``year``, ``month``, ``ruleset``, ``room``, ``players``, ``complete``) so
any table can be grouped on its own:

* ``games``: one row per player per game: seat, final score, placement,
  points.
* ``rounds``: one row per round: dealer, honba, how it ended.
* ``player_rounds``: one row per player per round: dealer, won, dealt in
  (and how many times, for a double ron), riichi declared/accepted and its
  turn, calls, tenpai at an exhaustive draw, score change, turn of the win
  or deal-in.
* ``wins``: one row per win: winner, from whom, tsumo, han, fu, the record's
  points, score change, riichi, dama, ippatsu, ura count, yaku, turn.

A *turn* here is the player's own discard count at that moment (Mortal's and
kobalab's convention). The facts come from the record as it is: nothing is
replayed or recomputed, so use ``mjlog audit`` to check records first.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import polars as pl

from mjlog.diagnostics import InputError
from mjlog.events import (
    AbortiveDraw,
    Chi,
    Discard,
    Event,
    ExhaustiveDraw,
    GameEnd,
    GameStart,
    OpenKan,
    Pon,
    RiichiAccepted,
    RoundStart,
    Win,
)
from mjlog.formats import expand, read_path
from mjlog.record import GameRecord
from mjlog.replay.observer import Observer, walk

GROUP_SCHEMA: dict[str, pl.DataType] = {
    "game_id": pl.String(), "game_key": pl.UInt64(), "player": pl.String(),
    "date": pl.Datetime(), "year": pl.Int32(), "month": pl.Int32(),
    "ruleset": pl.String(), "room": pl.String(), "players": pl.Int8(), "go_type": pl.Int32(),
    "complete": pl.Boolean(),
}
SCHEMAS: dict[str, dict[str, pl.DataType]] = {
    "games": {
        **GROUP_SCHEMA, "seat": pl.Int8(),
        "length": pl.String(), "final_score": pl.Int32(), "placement": pl.Int8(),
        "points": pl.Float64(), "source": pl.String(),
    },
    "rounds": {
        **GROUP_SCHEMA, "round": pl.Int16(), "label": pl.String(), "dealer": pl.Int8(),
        "honba": pl.Int16(), "kyotaku": pl.Int16(), "result": pl.String(), "wins": pl.Int8(),
    },
    "player_rounds": {
        **GROUP_SCHEMA, "round": pl.Int16(), "seat": pl.Int8(), "dealer": pl.Boolean(),
        "won": pl.Boolean(), "dealt_in": pl.Boolean(), "deal_ins": pl.Int8(),
        "deal_in_points": pl.Int32(), "riichi": pl.Boolean(), "riichi_accepted": pl.Boolean(),
        "riichi_turn": pl.Int16(), "calls": pl.Int8(), "called": pl.Boolean(),
        "dama": pl.Boolean(),
        "exhaustive_draw": pl.Boolean(), "nagashi": pl.Boolean(), "abortive_draw": pl.Boolean(),
        "tenpai_at_draw": pl.Boolean(), "score_change": pl.Int32(), "turn_at_end": pl.Int16(),
        "riichi_win": pl.Boolean(), "riichi_deal_in": pl.Boolean(), "called_win": pl.Boolean(),
    },
    "wins": {
        **GROUP_SCHEMA, "round": pl.Int16(), "winner": pl.Int8(), "from_player": pl.Int8(),
        "tsumo": pl.Boolean(), "han": pl.Int16(), "fu": pl.Int16(), "points": pl.Int32(),
        "limit": pl.String(), "score_change": pl.Int32(), "riichi": pl.Boolean(),
        "closed": pl.Boolean(), "dama": pl.Boolean(), "ippatsu": pl.Boolean(),
        "ura": pl.Int8(), "yaku": pl.List(pl.String()), "turn": pl.Int16(),
        "pao": pl.Int8(),
    },
}
"""Column names and types of each fact table."""

TABLES = tuple(SCHEMAS)

_DATE_IN_NAME = re.compile(r"(\d{4})(\d{2})(\d{2})(\d{2})gm-")
_ROOM_BY_LEVEL = {0x00: "ippan", 0x80: "joukyuu", 0x20: "tokujou", 0xA0: "houou"}


_GAME_COLUMNS = tuple(c for c in GROUP_SCHEMA if c != "player")
"""Group columns that are the same for a whole game: kept once per game, joined on."""


@dataclass
class Batch:
    """Rows of the four tables for a batch of games.

    Each row is a tuple: the game's number in the batch, the player, then the
    table's own columns in schema order. The per-game group columns are kept
    once in ``game_rows`` and joined on when the frames are built.
    """

    rows: dict[str, list[tuple[Any, ...]]] = field(
        default_factory=lambda: {t: [] for t in TABLES})
    game_rows: list[tuple[Any, ...]] = field(default_factory=list)
    games: int = 0
    skipped: list[str] = field(default_factory=list)
    """Games left out because their events do not fit a table (path, game and why)."""

    def frames(self) -> dict[str, pl.DataFrame]:
        """The batch as DataFrames with the documented schemas."""
        if not self.game_rows:
            return {t: pl.DataFrame(schema=SCHEMAS[t]) for t in TABLES}
        info = _frame(self.game_rows, {"_game": pl.Int32(), **{
            c: GROUP_SCHEMA[c] for c in _GAME_COLUMNS}})
        out = {}
        for t in TABLES:
            schema = SCHEMAS[t]
            own = {c: d for c, d in schema.items() if c not in GROUP_SCHEMA}
            if t == "wins":
                own["yaku"] = pl.String()  # joined with ",", split below in one go
            df = _frame(self.rows[t], {"_game": pl.Int32(), "player": pl.String(), **own})
            df = df.join(info, on="_game", how="left")
            if t == "wins":
                df = df.with_columns(pl.col("yaku").str.split(",").list.eval(
                    pl.element().filter(pl.element() != "")))
            out[t] = df.select(list(schema)).cast(schema)  # type: ignore[arg-type]
        return out


def _frame(rows: list[tuple[Any, ...]], schema: dict[str, pl.DataType]) -> pl.DataFrame:
    """A DataFrame from row tuples: transposed in C, then one Series per column."""
    if not rows:
        return pl.DataFrame(schema=schema)
    columns = zip(*rows, strict=True)
    return pl.DataFrame([pl.Series(name, list(col), dtype=dtype)
                         for (name, dtype), col in zip(schema.items(), columns, strict=True)])


def game_key(start: GameStart, events: list[Event]) -> int:
    """A content key of a game (players and first deal): equal for copies of one game."""
    first = next((e for e in events if isinstance(e, RoundStart)), None)
    text = repr(([p.name for p in start.players], first.hands if first else None,
                 dict(start.meta).get("shuffle.seed")))
    return int.from_bytes(hashlib.blake2b(text.encode(), digest_size=8).digest(), "little")


def _game_info(rec: GameRecord, start: GameStart, index: int) -> dict[str, Any]:
    meta = dict(start.meta)
    m = _DATE_IN_NAME.search(Path(rec.path).name)
    date = None
    if m:
        from datetime import datetime

        date = datetime(int(m[1]), int(m[2]), int(m[3]), int(m[4]))
    go = meta.get("go.type", "")
    go_type = int(go) if go.isascii() and go.isdigit() else None
    lobby = meta.get("go.lobby", "0")
    if go_type is None:
        room = start.source
    elif lobby not in ("", "0"):
        room = f"lobby-{lobby}"
    else:
        room = _ROOM_BY_LEVEL.get(go_type & 0xA0, "ippan")
    return {
        "game_id": f"{rec.path}#{index}", "year": date.year if date else None,
        "month": date.month if date else None, "ruleset": start.ruleset.name, "room": room,
        "players": len(start.players), "date": date, "go_type": go_type,
        "length": start.ruleset.length, "source": rec.path,
    }


def add_game(batch: Batch, rec: GameRecord, index: int = 0) -> None:
    """Add one game's rows to ``batch``. Records without a game start are skipped."""
    events = rec.events
    if not events or not isinstance(events[0], GameStart):
        return
    start = events[0]
    info = _game_info(rec, start, index)
    names = [p.name for p in start.players]
    n = len(names)
    end = next((e for e in reversed(events) if isinstance(e, GameEnd)), None)
    complete = end is not None and end.scores is not None
    g = len(batch.game_rows)
    batch.game_rows.append((
        g, info["game_id"], game_key(start, events), info["date"], info["year"], info["month"],
        info["ruleset"], info["room"], n, info["go_type"], complete))
    batch.games += 1
    if end is not None and end.scores is not None:
        scores = end.scores
        order = sorted(range(n), key=lambda p: (-scores[p], (p - start.first_dealer) % n))
        for place, seat in enumerate(order, 1):
            batch.rows["games"].append((
                g, names[seat], seat, info["length"], scores[seat], place,
                end.points[seat] if end.points else None, info["source"]))
    rounds = _Rounds(batch, g, names)
    walk(events, [rounds])
    rounds.finish()


class _Rounds(Observer):
    """One game's rounds, each round's per-player facts gathered by the observer's hooks
    (:func:`mjlog.replay.observer.walk` drives it over the events: no table is needed)."""

    name = "statistics"

    def __init__(self, batch: Batch, game: int, names: list[str]) -> None:
        self.batch, self.game, self.names, self.n = batch, game, names, len(names)
        self.index = -1
        self.riichi_turn: list[int | None] = [None] * self.n
        self.rs: RoundStart | None = None
        self.disc = [0] * self.n  # discards before any round start are counted nowhere

    def finish(self) -> None:
        """Write the last round's rows."""
        if self.rs is not None:
            self.flush(self.disc)

    def before_discard(self, ev: Discard) -> None:
        p = ev.player
        self.disc[p] += 1
        if ev.riichi and self.riichi_turn[p] is None:
            self.riichi_turn[p] = self.disc[p]

    def before_round_start(self, rs: RoundStart) -> None:
        """Reset the per-round state (after writing the last round's rows)."""
        if self.rs is not None:
            self.flush(self.disc)
        n = self.n
        self.index += 1
        self.rs = rs
        self.riichi_turn = [None] * n
        self.accepted = [False] * n
        self.calls = [0] * n
        self.change = [0] * n
        self.deal_ins = [0] * n
        self.deal_in_points = [0] * n
        self.won = [False] * n
        self.end_turn: list[int | None] = [None] * n
        self.tenpai: list[bool | None] = [None] * n
        self.result, self.nagashi, self.abortive, self.exhaustive = "", False, False, False
        self.wins = 0
        self.disc = [0] * n

    def before_chi(self, ev: Chi | Pon | OpenKan) -> None:
        if self.rs is not None:
            self.calls[ev.player] += 1

    before_pon = before_open_kan = before_chi

    def before_riichi_accepted(self, ev: RiichiAccepted) -> None:
        if self.rs is not None:
            self.accepted[ev.player] = True
            self.change[ev.player] -= 1000

    def before_win(self, ev: Win) -> None:
        if self.rs is None:
            return
        disc = self.disc
        self.wins += 1
        self.result = "win"
        self.win(ev, self.calls, self.riichi_turn, disc)
        self.won[ev.winner] = True
        self.end_turn[ev.winner] = disc[ev.winner]
        if ev.from_player != ev.winner:
            self.deal_ins[ev.from_player] += 1
            self.deal_in_points[ev.from_player] -= ev.deltas[ev.from_player] if ev.deltas else 0
            self.end_turn[ev.from_player] = disc[ev.from_player]
        for p, d in enumerate(ev.deltas[:self.n]):
            self.change[p] += d

    def before_exhaustive_draw(self, ev: ExhaustiveDraw | AbortiveDraw) -> None:
        if self.rs is None:
            return
        n = self.n
        self.exhaustive = isinstance(ev, ExhaustiveDraw)
        self.abortive = not self.exhaustive
        self.nagashi = isinstance(ev, ExhaustiveDraw) and ev.nagashi
        self.result = "nagashi" if self.nagashi else (
            ev.kind if isinstance(ev, AbortiveDraw) else "exhaustive")
        if self.exhaustive:
            self.tenpai = [p < len(ev.hands) and ev.hands[p] is not None for p in range(n)]
        for p, d in enumerate(ev.deltas[:n]):
            self.change[p] += d

    before_abortive_draw = before_exhaustive_draw

    def flush(self, disc: list[int]) -> None:
        """Write the finished round's rows."""
        rs = self.rs
        assert rs is not None
        n = self.n
        won, deal_ins, calls, riichi_turn = self.won, self.deal_ins, self.calls, self.riichi_turn
        exhaustive, nagashi, abortive = self.exhaustive, self.nagashi, self.abortive
        label = f"{'ESWN'[rs.round_wind % 4]}{rs.round_number}-{rs.honba}"
        rows = self.batch.rows
        g, r = self.game, self.index
        rows["rounds"].append((g, None, r, label, rs.dealer, rs.honba, rs.kyotaku,
                               self.result or None, self.wins))
        add = rows["player_rounds"].append
        for p in range(n):
            rt = riichi_turn[p]
            add((g, self.names[p], r, p, p == rs.dealer, won[p], deal_ins[p] > 0,
                 deal_ins[p], self.deal_in_points[p], rt is not None, self.accepted[p], rt,
                 calls[p], calls[p] > 0, won[p] and calls[p] == 0 and rt is None,
                 exhaustive, nagashi, abortive, self.tenpai[p],
                 self.change[p], self.end_turn[p],
                 won[p] and rt is not None, deal_ins[p] > 0 and rt is not None,
                 won[p] and calls[p] > 0))

    def win(self, ev: Win, calls: list[int], riichi_turn: list[int | None],
            disc: list[int]) -> None:
        w = ev.winner
        names = [y.name for y in ev.yaku]
        riichi = riichi_turn[w] is not None or "riichi" in names or "double-riichi" in names
        closed = calls[w] == 0
        ura = sum(y.han for y in ev.yaku if y.name == "ura-dora")
        self.batch.rows["wins"].append((
            self.game, self.names[w], self.index, w, ev.from_player,
            ev.from_player == w, ev.han, ev.fu, ev.points, ev.limit or None,
            ev.deltas[w] if ev.deltas else None, riichi, closed, closed and not riichi,
            "ippatsu" in names, ura, ",".join(names), disc[w], ev.pao))


def iter_batches(inputs: Iterable[str | Path], *, batch_games: int = 500
                 ) -> Iterator[dict[str, pl.DataFrame]]:
    """Fact tables batch by batch (about ``batch_games`` games each), streaming over files.

    Files in folders that are not records are skipped; unreadable named files
    raise :class:`~mjlog.diagnostics.InputError`.
    """
    batch = Batch()
    for item in expand(inputs):
        add_file(batch, (str(item[0]), item[1]))
        if batch.games >= batch_games:
            yield batch.frames()
            batch = Batch()
    if batch.games:
        yield batch.frames()


def add_file(batch: Batch, item: tuple[str, bool]) -> None:
    """Add every game of one file; a non-record found in a folder (not named) is skipped."""
    path, explicit = item
    try:
        records = read_path(path)
    except InputError as exc:
        if explicit or exc.diagnostic.code != "unknown-format":
            raise
        return
    for i, rec in enumerate(records):
        rows = {t: len(r) for t, r in batch.rows.items()}
        try:
            add_game(batch, rec, i)
        except (IndexError, KeyError, TypeError, ValueError) as exc:
            for t, k in rows.items():  # drop the game's partial rows
                del batch.rows[t][k:]
            batch.skipped.append(f"{path} game {i + 1}: cannot be summarised: {exc!r}")


def files_facts(items: list[tuple[str, bool]]) -> tuple[dict[str, pl.DataFrame], list[str]]:
    """The fact tables of several files as one batch, and the games skipped.

    A unit of work for a process pool.
    """
    batch = Batch()
    for item in items:
        add_file(batch, item)
    return batch.frames(), batch.skipped


def facts(inputs: Iterable[str | Path]) -> dict[str, pl.DataFrame]:
    """All four fact tables for the records in ``inputs`` (files or folders).

    Holds every row in memory; for large archives use :func:`iter_batches`
    or ``mjlog stats --facts DIR``.
    """
    parts: dict[str, list[pl.DataFrame]] = {t: [] for t in TABLES}
    for frames in iter_batches(inputs):
        for t, df in frames.items():
            parts[t].append(df)
    return {t: pl.concat(parts[t]) if parts[t] else pl.DataFrame(schema=SCHEMAS[t])
            for t in TABLES}

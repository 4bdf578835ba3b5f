"""The fairness report's counts: aggregates of game samples, one game at a time.

A :class:`Tally` holds counts only (tile kinds by wall position, starting
shanten by seat, dice totals, ura sums, rounds by platform, month and status,
per-player sums), so its size does not grow with the games taken, except for
the set of game keys that keeps a game read twice from being counted twice
and the list of mismatched rounds (the first :data:`MISMATCHES_KEPT`).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt

from mjlog.stats.fairness.sample import GameSample, Layout, RoundSample

SHANTEN_BINS = 10
"""Starting shanten from -1 (a dealt win) to 8, one bin each."""
PAIR_BINS = 8
"""Pairs (kinds held two or more times) in a starting hand: 0 to 7."""
MISMATCHES_KEPT = 1000
"""Mismatched rounds listed by place; more are counted."""
BASES = ("proven", "unproven")
"""Rounds whose wall was committed to and agrees with the record, and the rest whose
deal and draws are known (their walls, where stated, never committed to)."""

Counts = npt.NDArray[np.int64]
GroupKey = tuple[str, int, str]
"""Platform, players, basis (:data:`BASES`)."""


@dataclass
class Group:
    """The counts of one platform, player count and basis."""

    rounds: int = 0
    walls: dict[Layout, Counts] = field(default_factory=dict)
    """Tile kinds by position (rows: positions of the layout, see
    :mod:`mjlog.stats.fairness.sample`), per layout."""
    shanten: Counts = field(default_factory=lambda: np.zeros((2, SHANTEN_BINS), np.int64))
    """Starting shanten of dealers (row 0) and the other seats (row 1)."""
    pairs: Counts = field(default_factory=lambda: np.zeros((2, PAIR_BINS), np.int64))
    """Pairs in the starting hands of dealers (row 0) and the other seats (row 1)."""
    dice: Counts = field(default_factory=lambda: np.zeros(13, np.int64))
    """Rounds by dice total (index 2..12)."""
    ura: list[float] = field(default_factory=lambda: [0, 0, 0.0, 0.0])
    """Riichi wins, ura dora hit, hits expected, their variance."""


@dataclass
class Player:
    """One player's sums: starting shanten by seat class and ura, as in :class:`Group`."""

    shanten: Counts = field(default_factory=lambda: np.zeros((2, SHANTEN_BINS), np.int64))
    ura: list[float] = field(default_factory=lambda: [0, 0, 0.0, 0.0])


@dataclass
class Tally:
    """Everything the report is computed from."""

    groups: dict[GroupKey, Group] = field(default_factory=dict)
    players: dict[tuple[str, int, str], Player] = field(default_factory=dict)
    """By platform, player count and name."""
    months: dict[tuple[str, str], Counter[str]] = field(default_factory=dict)
    """Rounds by status, per platform and month (``"undated"`` without a date)."""
    mismatches: list[tuple[str, str, str, str]] = field(default_factory=list)
    """(source, round, status, what disagrees) of the first mismatched rounds."""
    mismatched: int = 0
    games: int = 0
    duplicates: int = 0
    skipped: list[str] = field(default_factory=list)
    keys: set[int] = field(default_factory=set)

    def add(self, game: GameSample) -> None:
        """Count one game, unless a game with its key was counted already."""
        if game.key in self.keys:
            self.duplicates += 1
            return
        self.keys.add(game.key)
        self.games += 1
        month = self.months.setdefault((game.platform, game.month or "undated"), Counter())
        players = [self.players.setdefault((game.platform, game.players, name), Player())
                   for name in game.names]
        for rnd in game.rounds:
            month[rnd.status] += 1
            if rnd.status in ("mismatch", "unreadable"):
                self.mismatched += 1
                if len(self.mismatches) < MISMATCHES_KEPT:
                    self.mismatches.append((game.source, rnd.label, rnd.status, rnd.why))
                continue
            basis = "proven" if rnd.status == "proven" else "unproven"
            group = self.groups.get((game.platform, game.players, basis))
            if group is None:
                group = self.groups[game.platform, game.players, basis] = Group()
            _count(group, players, rnd)


def _count(group: Group, players: list[Player], rnd: RoundSample) -> None:
    """Count one round that is not a mismatch in ``group`` and its ``players``' (by seat)."""
    group.rounds += 1
    if rnd.layout is not None and rnd.kinds is not None:
        table = group.walls.get(rnd.layout)
        if table is None:
            table = group.walls[rnd.layout] = np.zeros((sum(rnd.layout), 34), np.int64)
        np.add.at(table, (_rows(rnd.layout), np.frombuffer(rnd.kinds, np.uint8)), 1)
    if len(rnd.dice) == 2 and 1 <= rnd.dice[0] <= 6 and 1 <= rnd.dice[1] <= 6:
        group.dice[rnd.dice[0] + rnd.dice[1]] += 1
    shanten, pairs = group.shanten, group.pairs
    for seat, s in enumerate(rnd.shanten):
        p = rnd.pairs[seat]
        if s is None or p is None:
            continue
        row = 0 if seat == rnd.dealer else 1
        shanten[row, s + 1] += 1
        pairs[row, p] += 1
        if seat < len(players):
            players[seat].shanten[row, s + 1] += 1
    for seat, hits, mean, var in rnd.ura:
        for ura in (group.ura, players[seat].ura if seat < len(players) else [0, 0, 0.0, 0.0]):
            ura[0] += 1
            ura[1] += hits
            ura[2] += mean
            ura[3] += var


_ROWS: dict[Layout, npt.NDArray[np.intp]] = {}


def _rows(layout: Layout) -> npt.NDArray[np.intp]:
    """The position (row) of each tile of a round's ``kinds`` under ``layout``: one row
    per dealt hand (13 tiles each), then one per single position."""
    rows = _ROWS.get(layout)
    if rows is None:
        n = layout[0]
        rows = _ROWS[layout] = np.concatenate(
            [np.repeat(np.arange(n), 13), np.arange(n, n + sum(layout[1:]))]).astype(np.intp)
    return rows

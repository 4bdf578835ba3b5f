"""Seats renumbered so that the first dealer sits in seat 0.

Some formats (tenhou.net/6) have no place for a first dealer other than the
first seat: a game whose ``GameStart.first_dealer`` is another seat is written
with its seats turned so that the first dealer is seat 0, the others after
them in order of play. This changes where each player sits in the record, not
what anybody did.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Iterator
from typing import Any, Final

from mjlog.core.events import Event, GameStart

SEAT_FIELDS: Final = frozenset({"player", "from_player", "winner", "dealer", "pao"})
"""Event fields that name a seat."""
BY_SEAT_FIELDS: Final = frozenset({"players", "scores", "hands", "deltas", "scores_before",
                                   "points"})
"""Event fields that hold one value per seat, in seat order."""


def from_first_dealer(events: Iterable[Event]) -> Iterator[Event]:
    """``events`` with every game's seats turned so that its first dealer is seat 0 (a game
    whose first dealer is seat 0 is passed through unchanged)."""
    turn, n = 0, 4
    for ev in events:
        if isinstance(ev, GameStart):
            turn, n = ev.first_dealer % max(1, len(ev.players)), len(ev.players)
        yield _turned(ev, turn, n) if turn else ev


def _turned(ev: Event, turn: int, n: int) -> Event:
    changes: dict[str, Any] = {}
    for f in dataclasses.fields(ev):
        value = getattr(ev, f.name)
        if f.name in SEAT_FIELDS and isinstance(value, int) and 0 <= value < n:
            changes[f.name] = (value - turn) % n
        elif f.name in BY_SEAT_FIELDS and isinstance(value, tuple) and len(value) == n:
            changes[f.name] = value[turn:] + value[:turn]
    if isinstance(ev, GameStart):
        changes["first_dealer"] = 0
    return dataclasses.replace(ev, **changes) if changes else ev

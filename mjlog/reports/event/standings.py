"""The standings: each player's points over the event's games, penalties and placements.

A player's total is the sum of their final points in the games that have them (the
settlement's points: after uma and oka, chombo penalties already taken off) and of their
penalties outside the games. Players are ranked by total, highest first; equal totals
share a rank (1, 2, 2, 4) and are listed by name. Substitutes (``substitute = true``)
are listed after the ranked players, without a rank. Nothing here computes a game's
points.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from mjlog.reports.event.results import GameResult
from mjlog.reports.event.spec import Event, Player


@dataclass(slots=True, kw_only=True)
class Standing:
    """One player's line of the standings."""

    player: Player
    rank: int | None = None
    """``None`` for a substitute, who is not ranked."""
    game_points: float = 0.0
    """The sum of the player's final points in the games (chombo penalties taken off)."""
    chombo: float = 0.0
    """Chombo penalties in the games (already in :attr:`game_points`), as a positive sum."""
    penalties: float = 0.0
    """Points given (positive) or taken (negative) outside the games."""
    games: int = 0
    places: list[int] = field(default_factory=lambda: [0, 0, 0, 0])
    """How often first, second, third and fourth."""

    @property
    def total(self) -> float:
        """What the player is ranked by: the games' points and the penalties."""
        return round(self.game_points + self.penalties, 1)

    @property
    def average_place(self) -> float | None:
        """The mean place over the games played (``None`` before any)."""
        if not self.games:
            return None
        return round(sum(k * n for k, n in enumerate(self.places, start=1)) / self.games, 2)

    def to_dict(self) -> dict[str, Any]:
        """The line as the JSON output writes it."""
        return {"rank": self.rank, "player": self.player.name, "ema_id": self.player.ema_id,
                "country": self.player.country, "substitute": self.player.substitute,
                "total": self.total, "game_points": round(self.game_points, 1),
                "penalties": round(self.penalties, 1), "chombo": round(self.chombo, 1),
                "games": self.games, "places": self.places,
                "average_place": self.average_place}


def standings(event: Event, games: Sequence[GameResult]) -> list[Standing]:
    """The standings of the event from its games' results and its penalties."""
    lines = {p.name: Standing(player=p) for p in event.players}
    for g in games:
        points, places, chombo = g.points, g.places, g.chombo
        if points is None:
            continue
        for seat, name in enumerate(g.seats):
            if name is None:
                continue
            line = lines[name]
            line.game_points += points[seat]
            line.chombo += chombo[seat] if seat < len(chombo) else 0.0
            line.games += 1
            place = places[seat]
            if place > len(line.places):
                line.places.extend([0] * (place - len(line.places)))
            line.places[place - 1] += 1
    for pen in event.penalties:
        lines[pen.player].penalties += pen.points
    ranked = sorted((s for s in lines.values() if not s.player.substitute),
                    key=lambda s: (-s.total, s.player.name))
    for k, s in enumerate(ranked):
        s.rank = ranked[k - 1].rank if k and ranked[k - 1].total == s.total else k + 1
    subs = sorted((s for s in lines.values() if s.player.substitute),
                  key=lambda s: (-s.total, s.player.name))
    return ranked + subs

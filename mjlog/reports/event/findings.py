"""What the event checks find: a code, a severity, a message and a place in the event.

A game's own findings (rule violations, score mismatches, a sheet's bad lines) are the
audit's, in the game's :class:`~mjlog.reports.audit.GameReport`; the event only counts them
(``event-game-audit``) and links to the referee's report. The codes here are the event's
own, listed in :mod:`mjlog.core.catalogue` (source ``mjlog event``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from mjlog.core.diagnostics import Severity


@dataclass(frozen=True, slots=True, kw_only=True)
class EventFinding:
    """One finding of the event checks, with its place: a game of ``[[games]]`` (``game``,
    from 0, and its file ``path``), a round and table of the schedule, a player, or a key
    of the event file (``where``)."""

    code: str
    severity: Severity
    message: str
    game: int | None = None
    path: str = ""
    round: int | None = None
    table: int | None = None
    player: str = ""
    where: str = ""

    @property
    def place(self) -> str:
        """Where it is, in words: ``games[3] (r2/t1.csv), round 2, table 1, Ann``."""
        parts = [] if self.game is None else [f"games[{self.game}]"]
        if self.where:
            parts.append(self.where)
        if self.path:
            parts.append(self.path)
        if self.round is not None:
            parts.append(f"round {self.round}" + (f", table {self.table}"
                                                   if self.table is not None else ""))
        if self.player:
            parts.append(self.player)
        return ", ".join(parts)

    def to_dict(self) -> dict[str, Any]:
        """The finding as the JSON output writes it."""
        return {"code": self.code, "severity": Severity(self.severity).value,
                "message": self.message, "game": self.game, "path": self.path,
                "round": self.round, "table": self.table, "player": self.player,
                "where": self.where}


def problem(code: str, message: str, *, severity: Severity = Severity.ERROR,
            **place: Any) -> EventFinding:
    """A finding of the event checks (``place``: the fields of :class:`EventFinding`)."""
    return EventFinding(code=code, severity=severity, message=message, **place)

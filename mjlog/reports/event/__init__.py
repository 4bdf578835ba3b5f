"""A tournament as a whole: ``mjlog event EVENT.toml`` (``docs/tournaments.md``).

A layer above the audit and the settlement, never inside them. The event file
(:mod:`.spec`) names the players, the ruleset, the schedule, the games and the penalties;
each game's tile record and score sheet are audited by :func:`mjlog.reports.audit.audit_record`
under the event's ruleset and settled by its settlement (:mod:`.results`); the event then
matches seats to players, checks the schedule against the games (:mod:`.checks`), sums
the standings (:mod:`.standings`) and writes them (:mod:`.output`, :mod:`.page`).

In Python::

    from mjlog.reports.event import load, run
    report = run(load("open-2026/event.toml"))
    report.standings[0].player.name, report.standings[0].total

Nothing here pays a hand or computes an uma: a game's points are its settlement's.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from mjlog.core.about import __version__
from mjlog.core.diagnostics import Severity
from mjlog.core.ruleset import option_text
from mjlog.reports.event.checks import (
    SeatReport,
    game_counts,
    place_games,
    seat_report,
    twice_in_a_round,
)
from mjlog.reports.event.findings import EventFinding
from mjlog.reports.event.results import GameResult, game_result
from mjlog.reports.event.spec import Event, EventError, Names, load
from mjlog.reports.event.standings import Standing, standings

__all__ = ["Event", "EventError", "EventReport", "load", "run"]


@dataclass(slots=True, kw_only=True)
class EventReport:
    """An event's results: its games, standings, findings and seat report."""

    event: Event
    games: list[GameResult]
    standings: list[Standing]
    findings: list[EventFinding]
    """Every finding, the games' first (in event-file order), then the event's."""
    seats: SeatReport

    @property
    def ruleset(self) -> str:
        """The preset and options, as the reports write them: ``ema (kiriage=true)``."""
        options = ", ".join(f"{k}={option_text(v)}" for k, v in self.event.options)
        return self.event.preset + (f" ({options})" if options else "")

    @property
    def errors(self) -> int:
        """Findings of severity ``error``."""
        return sum(1 for f in self.findings if f.severity == Severity.ERROR)

    def to_dict(self) -> dict[str, Any]:
        """The whole report as ``mjlog event --format json`` writes it."""
        ev = self.event
        return {"mjlog_version": __version__, "event": ev.name, "ruleset": self.ruleset,
                "standings": [s.to_dict() for s in self.standings],
                "games": [g.to_dict() for g in self.games],
                "penalties": [{"player": p.player, "points": p.points, "reason": p.reason,
                               "round": p.round} for p in ev.penalties],
                "findings": [f.to_dict() for f in self.findings],
                "seats": self.seats.to_dict()}


def run(event: Event) -> EventReport:
    """Audit every game of ``event`` and compute its standings and checks. Never raises
    for a game's file: what is wrong with it is a finding."""
    names = Names(event.players)
    games = [game_result(entry, event, names) for entry in event.games]
    place_games(games, event.scheduled())
    findings = [replace(f, round=g.round, table=g.table) if f.round is None else f
                for g in games for f in g.findings]
    findings += twice_in_a_round(event, games)
    findings += game_counts(event, games)
    return EventReport(event=event, games=games, standings=standings(event, games),
                       findings=findings, seats=seat_report(event, games))

"""The event's checks across games: the schedule against the games played.

* :func:`place_games`: each game's round and table, as the event file names them or, when
  it does not, as the schedule has a table of exactly the game's players
  (``event-table-mismatch`` where the game's players are not the scheduled table's);
* :func:`twice_in_a_round`: a player at two tables of one round, in the schedule or in
  the games played (``event-player-twice-in-round``);
* :func:`game_counts`: each player's games played against the schedule's count
  (``event-game-count``);
* :func:`seat_report`: how often each pair of players met, and each player's seat winds.

They read the games' seats (:class:`~mjlog.reports.event.results.GameResult`) and compute no
score.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from itertools import combinations
from typing import Any

from mjlog.core.diagnostics import Severity
from mjlog.reports.event.findings import EventFinding, problem
from mjlog.reports.event.results import GameResult
from mjlog.reports.event.spec import Event

WINDS = ("East", "South", "West", "North")


def place_games(games: Sequence[GameResult], schedule: dict[int, list[list[str]]]) -> None:
    """Give each game that names no round the round and table of the schedule's table of
    exactly its players; add ``event-table-mismatch`` to a game whose players are not its
    scheduled table's."""
    tables = {(r, t + 1): set(players) for r, ts in schedule.items()
              for t, players in enumerate(ts)}
    for g in games:
        seated = {p for p in g.seats if p is not None}
        if not seated:
            continue
        place: dict[str, Any] = {"game": g.entry.index, "round": g.round, "table": g.table}
        if g.round is None:
            found = [key for key, players in tables.items() if players == seated]
            if len(found) == 1:
                g.round, g.table = found[0]
            elif schedule:
                where = ", ".join(f"round {r} table {t}" for r, t in found[:5])
                g.findings.append(problem("event-table-mismatch", (
                    f"several tables of the schedule have these players ({where}): name the "
                    "game's round and table" if found else "no table of the schedule has "
                    f"exactly these players: {sorted(seated)}"),
                    severity=Severity.WARNING, **place))
        elif g.table is not None and schedule:
            want = tables.get((g.round, g.table))
            if want != seated:
                g.findings.append(problem(
                    "event-table-mismatch", f"the game's players are {sorted(seated)}, the "
                    + (f"schedule's {sorted(want)}" if want is not None
                       else "schedule has no such table"), severity=Severity.WARNING, **place))


def twice_in_a_round(event: Event, games: Sequence[GameResult]) -> list[EventFinding]:
    """Each player at two tables (or two seats) of one round: in the schedule (with its
    substitutes), then in the games played."""
    out: list[EventFinding] = []
    for r, tables in sorted(event.scheduled().items()):
        seen: dict[str, int] = {}
        for t, players in enumerate(tables, start=1):
            for p in players:
                if p in seen:
                    out.append(problem("event-player-twice-in-round", f"the schedule seats "
                                       f"{p} at table {seen[p]} and at table {t}",
                                       round=r, table=t, player=p, where="rounds"))
                seen.setdefault(p, t)
    played: dict[int, dict[str, GameResult]] = defaultdict(dict)
    for g in games:
        if g.round is None or g.points is None:
            continue
        for p in filter(None, g.seats):
            other = played[g.round].get(p)
            if other is not None:
                out.append(problem("event-player-twice-in-round", f"{p} plays in "
                                   f"{other.entry.where} ({other.label}) and in this game "
                                   "of the same round", game=g.entry.index, round=g.round,
                                   table=g.table, player=p))
            played[g.round].setdefault(p, g)
    return out


def game_counts(event: Event, games: Sequence[GameResult]) -> list[EventFinding]:
    """Each player whose games played (games with final points) are not as many as the
    schedule gives them, or, without a schedule, as the rounds the games name."""
    played = Counter(p for g in games if g.points is not None for p in g.seats if p)
    schedule = event.scheduled()
    if schedule:
        due = Counter(p for tables in schedule.values() for t in tables for p in t)
        what = "the schedule's"
    else:
        rounds = {g.round for g in games if g.round is not None}
        if not rounds:
            return []
        due = Counter({p.name: len(rounds) for p in event.players})
        what = "the rounds played"
    return [problem("event-game-count", f"{p.name} played {played[p.name]} of "
                    f"{what} {due[p.name]} games", severity=Severity.WARNING, player=p.name)
            for p in event.players if played[p.name] != due[p.name]]


@dataclass(slots=True)
class SeatReport:
    """How the tables mixed the players: each pair's meetings, each player's seat winds."""

    source: str
    """``schedule`` or ``games``: what the report counts."""
    pairs: Counter[tuple[str, str]] = field(default_factory=Counter)
    winds: dict[str, list[int]] = field(default_factory=dict)
    """Per player: how often in each seat (East, South, West, North)."""

    @property
    def meetings(self) -> dict[int, int]:
        """How many pairs met how many times (pairs that never met left out)."""
        return dict(sorted(Counter(self.pairs.values()).items()))

    def repeats(self, least: int = 2) -> list[tuple[tuple[str, str], int]]:
        """The pairs that met at least ``least`` times, most first."""
        return sorted(((pair, n) for pair, n in self.pairs.items() if n >= least),
                      key=lambda item: (-item[1], item[0]))

    def to_dict(self) -> dict[str, Any]:
        """The report as the JSON output writes it."""
        return {"source": self.source,
                "meetings": {str(k): v for k, v in self.meetings.items()},
                "repeats": [{"players": list(pair), "times": n} for pair, n in self.repeats()],
                "winds": self.winds}


def seat_report(event: Event, games: Sequence[GameResult]) -> SeatReport:
    """The seat report of the schedule (with substitutes), or of the games played when the
    event file has no schedule."""
    schedule = event.scheduled()
    if schedule:
        return _count("schedule", (t for ts in schedule.values() for t in ts), event)
    return _count("games", ([p for p in g.seats if p] for g in games if g.points is not None),
                  event)


def _count(source: str, tables: Iterable[list[str]], event: Event) -> SeatReport:
    report = SeatReport(source, winds={p.name: [0] * len(WINDS) for p in event.players})
    for table in tables:
        for a, b in combinations(sorted(table), 2):
            report.pairs[(a, b)] += 1
        for seat, p in enumerate(table):
            report.winds.setdefault(p, [0] * len(WINDS))[seat % len(WINDS)] += 1
    return report

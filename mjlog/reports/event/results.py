"""Each game of an event: its record and sheet audited, its seats matched to the players.

:func:`game_result` reads a game's tile record and score sheet, audits each with
:func:`mjlog.reports.audit.audit_record` under the event's ruleset (the very audit of ``mjlog
audit --rules PRESET``, with its settlement: corrected scores, final points with uma and
oka, chombo after uma), and keeps what the event needs: which player sits in each seat
(by name or alias), the game's points, and the findings of the event's own about this
one game:

* ``event-game-unreadable``: a file that is missing, of no format, or without that game;
* ``event-game-incomplete``: a game that does not end, so has no final points;
* ``event-game-audit``: the audit found violations, mismatches or errors in the game;
* ``event-unknown-player``: a name in the game that is no player's name or alias;
* ``event-sources-disagree``: a record and a sheet of the same game with other players
  or other final points;
* ``event-game-not-zero-sum``: final scores (with riichi sticks left on the table) that do
  not add up to what the table started with, or points that do not add up to zero (before
  chombo penalties).

It computes no payment, uma or oka: every number comes from the audit's settlement.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from mjlog.core.diagnostics import InputError, Severity
from mjlog.core.ruleset import Ruleset
from mjlog.formats import read_path
from mjlog.replay.engine import Engine
from mjlog.replay.observer import Observer
from mjlog.reports.audit import GameReport, audit_record, counted
from mjlog.reports.event.findings import EventFinding, problem
from mjlog.reports.event.spec import Event, GameEntry, Names


@dataclass(slots=True, kw_only=True)
class Source:
    """One file of a game (its tile record or its score sheet) and its audit."""

    kind: str
    """``record`` or ``sheet``."""
    path: Path
    report: GameReport | None = None
    sticks: int = 0
    """Riichi sticks on the table when the replay ended."""
    error: str = ""

    @property
    def points(self) -> list[float] | None:
        """The game's final points from the audit's settlement (``None``: it did not end)."""
        st = self.report.settlement if self.report is not None else None
        return st.points if st is not None else None


@dataclass(slots=True, kw_only=True)
class GameResult:
    """One game of the event: its sources, round and table, players and findings."""

    entry: GameEntry
    sources: list[Source]
    round: int | None = None
    table: int | None = None
    names: list[str] = field(default_factory=list)
    """The players' names as the game writes them, in seat order."""
    seats: list[str | None] = field(default_factory=list)
    """The event's player in each seat (``None``: a name that is no player's)."""
    findings: list[EventFinding] = field(default_factory=list)

    @property
    def main(self) -> Source | None:
        """The source the standings take the game's points from: the tile record when it
        has final points, else the sheet; ``None`` when neither has them."""
        return next((s for s in self.sources if s.points is not None), None)

    @property
    def points(self) -> list[float] | None:
        """Each seat's final points (after uma and oka, chombo penalties taken off)."""
        main = self.main
        return main.points if main is not None else None

    @property
    def chombo(self) -> list[float]:
        """Each seat's chombo penalties, in points (already taken off :attr:`points`)."""
        main = self.main
        st = main.report.settlement if main is not None and main.report is not None else None
        return list(st.penalties) if st is not None else []

    @property
    def scores(self) -> list[int]:
        """Each seat's final score, as settled (corrected for chombo and mismatches)."""
        main = self.main
        st = main.report.settlement if main is not None and main.report is not None else None
        return list(st.corrected) if st is not None else []

    @property
    def places(self) -> list[int]:
        """Each seat's place (1 first): by points before chombo penalties, so players who
        share the uma of their places (``tie_uma=split``) share the higher place."""
        points = self.points
        if points is None:
            return []
        before = [round(p + c, 1) for p, c in zip(points, self.chombo or [0.0] * len(points),
                                                  strict=True)]
        return [1 + sum(other > mine for other in before) for mine in before]

    @property
    def label(self) -> str:
        """The game in a few words: ``round 2, table 1`` or its place in the event file."""
        if self.round is not None:
            return f"round {self.round}" + (f", table {self.table}" if self.table else "")
        return self.entry.where

    def to_dict(self) -> dict[str, Any]:
        """The game as the JSON output writes it."""
        return {"game": self.entry.index, "round": self.round, "table": self.table,
                "sources": [{"kind": s.kind, "path": str(s.path), "error": s.error,
                             "settlement": s.report.settlement.to_dict()
                             if s.report is not None and s.report.settlement else None}
                            for s in self.sources],
                "names": self.names, "players": self.seats, "scores": self.scores,
                "points": self.points, "chombo": self.chombo, "places": self.places,
                "findings": [f.to_dict() for f in self.findings]}


class _Keeper(Observer):
    """Keeps the engine of an audit's replay, to read its table when the replay is done."""

    def __init__(self) -> None:
        self.engine: Engine | None = None

    def watch(self, engine: Engine, ruleset: Ruleset, observers: object) -> Observer:
        """The audit's ``watch``: remember ``engine``; this observer hooks no event."""
        self.engine = engine
        return self


def audit_source(kind: str, path: Path, index: int, event: Event) -> Source:
    """Read game ``index`` of the file at ``path`` and audit it under the event's rules."""
    src = Source(kind=kind, path=path)
    try:
        records = read_path(path)
    except InputError as exc:
        src.error = f"{exc.diagnostic.code}: {exc.diagnostic.message}"
        return src
    if index >= len(records):
        src.error = f"it holds {counted(len(records), 'game')}, not a game {index + 1}"
        return src
    keeper = _Keeper()
    src.report = audit_record(records[index], index, preset=event.preset,
                              options=event.options, watch=keeper.watch)
    src.sticks = keeper.engine.state.kyotaku if keeper.engine is not None else 0
    return src


def game_result(entry: GameEntry, event: Event, names: Names) -> GameResult:
    """Audit one game's record and sheet and match its seats to the event's players."""
    sources = [audit_source(kind, path, entry.game, event)
               for kind, path in (("record", entry.record), ("sheet", entry.sheet))
               if path is not None]
    result = GameResult(entry=entry, sources=sources, round=entry.round, table=entry.table)
    place: dict[str, Any] = {"game": entry.index}
    for s in sources:
        here: dict[str, Any] = dict(place, path=shown(s.path, event))
        if s.error:
            result.findings.append(problem("event-game-unreadable", f"the {s.kind} cannot be "
                                           f"used: {s.error}", **here))
        elif s.report is not None:
            result.findings += _source_findings(s, here)
    main = result.main or next((s for s in sources if s.report is not None), None)
    if main is not None and main.report is not None:
        result.names = list(main.report.players)
        result.seats = [names.find(n) for n in result.names]
        result.findings += [problem("event-unknown-player", f"seat {k} is {n!r}, which is no "
                                    "player's name or alias ([[players]] aliases)",
                                    path=shown(main.path, event), **place)
                            for k, (n, p) in enumerate(zip(result.names, result.seats,
                                                           strict=True)) if p is None]
    result.findings += _disagreements(result, names, event)
    return result


def shown(path: Path, event: Event) -> str:
    """A game's file as reports name it: relative to the event file's folder when inside."""
    try:
        return path.relative_to(event.folder).as_posix()
    except ValueError:
        return str(path)


def _source_findings(s: Source, place: dict[str, Any]) -> list[EventFinding]:
    """The findings of one audited source: incomplete, audit problems, zero sum."""
    g = s.report
    assert g is not None
    out: list[EventFinding] = []
    others = sum(1 for x in (*g.findings, *g.diagnostics) if x.severity != Severity.INFO)
    if g.violations or g.mismatches or others:
        counts = [counted(len(g.violations), "violation"),
                  counted(len(g.mismatches), "score mismatch", "score mismatches"),
                  counted(others, "other problem")]
        codes = sorted({x.code for x in (*g.violations, *g.mismatches, *g.findings,
                                         *g.diagnostics) if x.severity != Severity.INFO})
        out.append(problem("event-game-audit", f"the audit of the {s.kind} found "
                           f"{', '.join(counts)} ({', '.join(codes)}); the settlement corrects "
                           "what it can (the referee's report shows each)",
                           severity=Severity.WARNING, **place))
    st = g.settlement
    if st is None or st.points is None:
        out.append(problem("event-game-incomplete", f"the {s.kind} does not reach the game's "
                           "end: it has no final points and counts for nobody", **place))
        return out
    gap = sum(st.start) - sum(st.corrected)
    if gap not in (0, 1000 * s.sticks):
        out.append(problem("event-game-not-zero-sum", f"the final scores {st.corrected} add "
                           f"up to {sum(st.corrected):,}, the table started with "
                           f"{sum(st.start):,}" + (f" and {s.sticks} riichi sticks are on "
                                                   "the table" if s.sticks else ""), **place))
    total = round(sum(st.points) + sum(st.penalties), 1)
    if total:
        out.append(problem("event-game-not-zero-sum", f"the points {st.points} (chombo "
                           f"penalties {st.penalties} added back) add up to {total:+.1f}, "
                           "not 0", **place))
    return out


def _disagreements(result: GameResult, names: Names, event: Event) -> list[EventFinding]:
    """A record and a sheet of one game that name other players or give other points."""
    both = [s for s in result.sources if s.report is not None]
    if len(both) < 2:
        return []
    record, sheet = both
    assert record.report is not None and sheet.report is not None
    place: dict[str, Any] = {"game": result.entry.index, "path": shown(sheet.path, event)}
    seated = [[names.find(n) or n for n in s.report.players] for s in (record, sheet)
              if s.report is not None]
    if seated[0] != seated[1]:
        return [problem("event-sources-disagree", f"the record seats {seated[0]}, the sheet "
                        f"{seated[1]}", **place)]
    if record.points != sheet.points:
        return [problem("event-sources-disagree", f"the record's final points are "
                        f"{record.points}, the sheet's {sheet.points} (the standings take "
                        "the record's)", **place)]
    return []

"""The exact route of ``mjlog find``: replay each game and look at what happened.

Each game is replayed by the audit (:func:`mjlog.reports.audit.audit_record`) with a
:class:`Spotter` watching the same replay: it numbers the steps as the replay viewer does
(one per event the engine applies, :class:`mjlog.reports.view.model.Recorder`), and notes each
round's wins, draws and the kans called by a player in riichi, with the round label and
the audit's turn. A query with ``code=`` runs the whole audit (wall, scores, rules) and
places each finding at the step the viewer gives it; any other query replays only (the
engine, no judging), which is several times faster. Wins are taken as the record values
them (yaku, limit, points): ``code=`` finds where the audit disagrees.

Files are spread over worker processes with ``jobs`` as ``mjlog audit`` does
(:func:`mjlog.run.parallel.map_files`). This module prints nothing.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime
from functools import partial
from typing import Any, Final

from mjlog.core.diagnostics import BaseFinding, InputError, ScoreMismatch, Violation
from mjlog.core.events import (
    EVENT_TYPES,
    AbortiveDraw,
    AddedKan,
    ClosedKan,
    Event,
    ExhaustiveDraw,
    GameStart,
    OpenKan,
    RoundStart,
    Win,
    round_label,
)
from mjlog.core.record import GameRecord
from mjlog.core.ruleset import Ruleset
from mjlog.formats import read_path
from mjlog.replay.engine import Engine
from mjlog.replay.observer import Observer
from mjlog.reports.audit import Checks, GameReport, audit_record
from mjlog.run import parallel
from mjlog.stats.find.match import Match, link, page_name
from mjlog.stats.find.query import (
    COUNTED,
    LIMITS,
    Query,
    Term,
    compare,
    date_span,
    is_yakuman_yaku,
)

_KANS: Final = (ClosedKan, AddedKan, OpenKan)
CHECKS: Final = Checks()
"""What a query with ``code=`` runs by default: the whole audit, each record's own rules."""


@dataclass(slots=True)
class Spot:
    """A move the spotter noted: its step, round (index and label), turn and event."""

    step: int
    round: int
    label: str
    turn: int
    event: Any


@dataclass(slots=True)
class Spotter(Observer):
    """Numbers the replay's steps as the viewer does and notes wins, draws and kans after
    riichi (module docstring). It judges nothing."""

    engine: Engine
    name: str = "find"
    step: int = -1
    round: int = -1
    label: str = ""
    wins: list[Spot] = field(default_factory=list)
    draws: list[Spot] = field(default_factory=list)
    kans: list[Spot] = field(default_factory=list)
    events: dict[int, int] = field(default_factory=dict)
    """Each applied event's index in the record to its step."""
    turns: dict[tuple[str, int], int] = field(default_factory=dict)
    """The first step of each (round label, turn), and of each round at turn -1."""
    results: dict[str, list[int]] = field(default_factory=dict)
    """The steps of each round's results (wins, draws)."""
    labels: list[str] = field(default_factory=list)
    """Each round's label, in order."""

    def seen(self, ev: Event) -> None:
        """One step: number it and note it."""
        self.step += 1
        s = self.engine.state
        if isinstance(ev, RoundStart):
            self.round += 1
            self.label = round_label(ev.round_wind, ev.round_number, ev.honba)
            self.labels.append(self.label)
        self.events[self.engine.index] = self.step
        self.turns.setdefault((self.label, s.turn), self.step)
        self.turns.setdefault((self.label, -1), self.step)
        spot = Spot(self.step, self.round, self.label, s.turn, ev)
        if isinstance(ev, Win | ExhaustiveDraw | AbortiveDraw):
            (self.wins if isinstance(ev, Win) else self.draws).append(spot)
            self.results.setdefault(self.label, []).append(self.step)
        elif isinstance(ev, _KANS) and 0 <= ev.player < s.n and s.players[ev.player].riichi:
            self.kans.append(spot)

    def finding_step(self, f: BaseFinding) -> int:
        """The step the viewer puts a finding at (:func:`mjlog.reports.view.model.findings_of`): its
        event's step, a score mismatch's result, else the first step of its round and turn."""
        step = self.events.get(f.event, -1) if isinstance(f, Violation) else -1
        if step < 0 and isinstance(f, ScoreMismatch):
            results = self.results.get(f.round, [])
            wins = {w.step: w.event.winner for w in self.wins}
            step = next((i for i in results if wins.get(i) == f.player),
                        results[0] if results else -1)
        if step < 0:
            step = self.turns.get((f.round, f.turn), self.turns.get((f.round, -1), 0))
        return step


for _tag in EVENT_TYPES:  # after every event the engine applies, as the viewer's recorder
    setattr(Spotter, "after_" + _tag, Spotter.seen)


@dataclass(frozen=True, slots=True)
class Game:
    """One game as the matching sees it."""

    source: str
    number: int
    games: int
    start: GameStart | None
    spotter: Spotter
    report: GameReport


def search_records(items: Sequence[tuple[str, bool]], query: Query, *, jobs: int = 1,
                   holders: list[tuple[str, bool]] | None = None, checks: Checks = CHECKS
                   ) -> Iterator[Match | str]:
    """Every match in the files of ``items`` (``(path, named)`` as :func:`mjlog.formats.expand`
    gives them), file by file in their order, in ``jobs`` worker processes; a file that
    cannot be read gives a line saying why instead (a file in a folder that is no record,
    and a platform's file that holds no game, give nothing). ``holders``: the folders and
    archives named, for the page links."""
    run = partial(search_files, query=query, holders=holders or [], checks=checks)
    if jobs <= 1 or len(items) < 2:
        for item in items:
            yield from run([item])
        return
    sizing = parallel.Sizing(per_worker=8, most=32)
    yield from parallel.map_files(run, list(items), sizing, parallel.Engine(jobs), _worker_died)


def _worker_died(item: tuple[str, bool]) -> list[Match | str]:
    return [f"{item[0]}: the worker processes reading this file exited, alone and again; "
            "the file was left out"]


def search_files(items: list[tuple[str, bool]], query: Query,
                 holders: list[tuple[str, bool]], checks: Checks = CHECKS
                 ) -> list[Match | str]:
    """:func:`search_records` of a few files in this process: a unit of work of a pool."""
    out: list[Match | str] = []
    for path, explicit in items:
        try:
            records = read_path(path)
        except InputError as exc:
            code = exc.diagnostic.code
            if code != "not-a-game" and (explicit or code != "unknown-format"):
                out.append(f"{path}: {exc.diagnostic.message}")
            continue
        for i, rec in enumerate(records):
            out.extend(search_game(rec, i, len(records), query, holders, checks))
    return out


def search_game(rec: GameRecord, index: int, games: int, query: Query,
                holders: list[tuple[str, bool]], checks: Checks = CHECKS) -> list[Match]:
    """The matches of one game (``index`` from 0 of ``games`` in its file): none when a
    term on the game fails, else the replay's."""
    start = rec.events[0] if rec.events and isinstance(rec.events[0], GameStart) else None
    if not _game_holds(rec, start, query):
        return []
    made: list[Spotter] = []

    def watch(engine: Engine, ruleset: Ruleset, judges: Sequence[Observer]) -> Observer:
        made.append(Spotter(engine))
        return made[0]

    judged = query.has({"code"})
    report = audit_record(rec, index, wall=judged and checks.wall,
                          scores=judged and checks.scores, rules=judged and checks.rules,
                          preset=checks.preset, options=checks.options, force=checks.force,
                          watch=watch)
    game = Game(rec.path, index + 1, games, start, made[0], report)
    page = page_name(rec.path, index + 1, games, holders)
    return [_linked(m, page) for m in matches_of(game, query)]


def _linked(m: Match, page: str) -> Match:
    return replace(m, link=link(page, m.step))


def names_of(start: GameStart | None) -> list[str]:
    """Each seat's name as the record gives it."""
    return [p.name for p in start.players] if start else []


def _game_holds(rec: GameRecord, start: GameStart | None, query: Query) -> bool:
    """Whether the terms on the game (player, date, platform) hold."""
    if not query.has({"player", "date", "platform"}):
        return True
    from mjlog.stats.facts import where_and_when

    names = names_of(start)
    platform, date = where_and_when(rec.path, start) if start else (None, None)
    for t in query.of("player", "date", "platform"):
        if t.field == "player" and (t.value in names) != (t.op == "="):
            return False
        if t.field == "platform" and ((platform or "") == t.value.lower()) != (t.op == "="):
            return False
        if t.field == "date" and (date is None or not date_holds(date, t)):
            return False
    return True


def date_holds(date: datetime, t: Term) -> bool:
    """Whether a game's date satisfies a ``date`` term: ``date=2022-01`` is any time in
    that month, ``date<=2022-01`` up to its end, ``date>2022-01`` from the next month on."""
    low, high = date_span(t)
    inside = low <= date < high
    return {"=": inside, "!=": not inside, ">=": date >= low, ">": date >= high,
            "<": date < low, "<=": date < high}[t.op]


def matches_of(game: Game, query: Query) -> list[Match]:
    """The matches of a replayed game: the moves of the query's first kind of subject
    (wins, kans after riichi, findings, rounds' ends, the game), in the rounds where every
    term on a round, a kan and a finding holds."""
    sp = game.spotter
    rounds = _rounds_holding(game, query)
    names = names_of(game.start)
    if query.has({"yakuman", "yaku", "limit", "dealin"}):
        return [_win_match(game, w, names) for w in sp.wins
                if w.round in rounds and win_holds(w.event, query)]
    if query.has({"kan-after-riichi"}):
        return [_kan_match(game, k, names) for k in sp.kans if k.round in rounds]
    if query.has({"code"}):
        held = {sp.labels[r] for r in rounds}
        wanted = {t.value for t in query.of("code") if t.op == "="}
        return [_finding_match(game, f, names) for f in _findings(game.report)
                if f.code in wanted and (f.round in held or not f.round)]
    if query.has({"ron", "draw"}):
        return [_round_match(game, r, query) for r in sorted(rounds)]
    first = sp.turns.get((sp.labels[0], -1)) if sp.labels else None  # the first deal
    return [Match(source=game.source, game=game.number, step=first, kind="game",
                  what="game: " + ", ".join(names))]


def _labels(sp: Spotter) -> list[tuple[int, str]]:
    """Each round's index and label."""
    return list(enumerate(sp.labels))


def _findings(report: GameReport) -> list[BaseFinding]:
    return [*report.violations, *report.mismatches, *report.findings, *report.diagnostics]


def _rounds_holding(game: Game, query: Query) -> set[int]:
    """The rounds (by index) where every term on a round, a kan and a finding holds."""
    sp = game.spotter
    rounds = set(range(sp.round + 1))
    for t in query.of("ron"):
        rons = _count_by_round(w.round for w in sp.wins if w.event.from_player != w.event.winner)
        rounds = {r for r in rounds if compare(rons.get(r, 0), t.op, int(t.value))}
    for t in query.of("draw"):
        kinds = {d.round: draw_kind(d.event) for d in sp.draws}
        rounds = {r for r in rounds if draw_matches(kinds.get(r), t)}
    if query.has({"kan-after-riichi"}):
        rounds &= {k.round for k in sp.kans}
    codes = query.of("code")
    if codes:
        by_label: dict[str, set[int]] = {}
        for r, label in _labels(sp):
            by_label.setdefault(label, set()).add(r)
        found: dict[str, set[int]] = {}
        for f in _findings(game.report):
            found.setdefault(f.code, set())
            found[f.code] |= (by_label.get(f.round, set()) if f.round
                              else set(range(len(sp.labels))))  # a finding on the game
        for t in codes:
            held = found.get(t.value, set())
            rounds = rounds & held if t.op == "=" else rounds - held
    return rounds


def _count_by_round(rounds: Iterable[int]) -> dict[int, int]:
    out: dict[int, int] = {}
    for r in rounds:
        out[r] = out.get(r, 0) + 1
    return out


def draw_kind(ev: Any) -> str:
    """A draw's kind as ``draw=`` names it: an abortive kind, ``nagashi`` or ``exhaustive``."""
    if isinstance(ev, AbortiveDraw):
        return str(ev.kind)
    return "nagashi" if ev.nagashi else "exhaustive"


def draw_matches(kind: str | None, t: Term) -> bool:
    """Whether a round that ended in ``kind`` (None: not in a draw) satisfies ``draw``."""
    hit = kind is not None and (kind == t.value or (
        t.value == "abortive" and kind not in ("nagashi", "exhaustive")))
    return hit == (t.op == "=")


def win_holds(ev: Win, query: Query) -> bool:
    """Whether a win satisfies every term on a win."""
    yakuman = any(is_yakuman_yaku(y.name, y.han) for y in ev.yaku)
    names = {y.name for y in ev.yaku}
    for t in query.of("yakuman", "yaku", "limit", "dealin"):
        if t.field == "yakuman" and not yakuman:
            return False
        if t.field == "yaku" and (t.value in names) != (t.op == "="):
            return False
        if t.field == "limit" and not limit_holds(ev.limit, yakuman, t):
            return False
        if t.field == "dealin" and (ev.from_player == ev.winner
                                   or not compare(ev.points, t.op, int(t.value))):
            return False
    return True


def limit_holds(limit: str, yakuman: bool, t: Term) -> bool:
    """Whether a win's limit (``""`` below mangan) satisfies a ``limit`` term;
    ``counted-yakuman`` is a yakuman limit without a yakuman yaku and ranks as yakuman."""
    if t.value == COUNTED:
        counted = limit == "yakuman" and not yakuman
        return counted == (t.op == "=")
    rank = LIMITS.index(limit) + 1 if limit in LIMITS else 0
    return compare(rank, t.op, LIMITS.index(t.value) + 1)


def _win_match(game: Game, w: Spot, names: list[str]) -> Match:
    ev: Win = w.event
    who = _name(names, ev.winner)
    how = "tsumo" if ev.from_player == ev.winner else f"ron from {_name(names, ev.from_player)}"
    yaku = ", ".join(f"{y.name} {y.han}" for y in ev.yaku
                     if y.name not in ("dora", "ura-dora", "aka-dora"))
    value = f"{ev.points:,}" + (f" {ev.limit}" if ev.limit else "")
    big = sum(1 for y in ev.yaku if is_yakuman_yaku(y.name, y.han))
    return Match(source=game.source, game=game.number, round=w.label, turn=w.turn,
                 step=w.step, kind="win", seat=ev.winner, player=who,
                 what=f"{who} {how}: {value} ({yaku})", yakuman=big)


def _kan_match(game: Game, k: Spot, names: list[str]) -> Match:
    who = _name(names, k.event.player)
    kind = {ClosedKan: "closed kan", AddedKan: "added kan", OpenKan: "open kan"}[
        type(k.event)]
    return Match(source=game.source, game=game.number, round=k.label, turn=k.turn,
                 step=k.step, kind="kan", seat=k.event.player, player=who,
                 what=f"{who}: {kind} after riichi")


def _finding_match(game: Game, f: BaseFinding, names: list[str]) -> Match:
    step = game.spotter.finding_step(f)
    who = _name(names, f.player) if f.player is not None else ""
    return Match(source=game.source, game=game.number, round=f.round, turn=f.turn, step=step,
                 kind="finding", seat=f.player, player=who, what=f"{f.code}: {f.message}")


def _round_match(game: Game, r: int, query: Query) -> Match:
    """A round that holds, placed at its first result (a win or a draw)."""
    sp = game.spotter
    ends = sorted([*(w for w in sp.wins if w.round == r), *(d for d in sp.draws if d.round == r)],
                  key=lambda s: s.step)
    first = ends[0] if ends else None
    rons = sum(1 for w in ends if isinstance(w.event, Win)
               and w.event.from_player != w.event.winner)
    what = (f"{rons} wins by ron" if rons > 1 else
            f"draw: {draw_kind(first.event)}" if first and not isinstance(first.event, Win)
            else "round")
    label = first.label if first else sp.labels[r]
    return Match(source=game.source, game=game.number, round=label,
                 turn=first.turn if first else None, step=first.step if first else None,
                 kind="round", what=what)


def _name(names: list[str], seat: int) -> str:
    return names[seat] if 0 <= seat < len(names) and names[seat] else f"seat {seat + 1}"

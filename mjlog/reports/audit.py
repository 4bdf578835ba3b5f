"""The auditor: reads records, replays them and gathers everything found into a report.

Works file by file (in a process pool with ``jobs > 1``), streaming: each
file's games are read, replayed and reduced to their report before the next
file is opened, so memory does not grow with the number of files. The report
is typed (:class:`AuditReport`, :class:`GameReport`, the findings of
:mod:`mjlog.core.diagnostics`); its ``to_dict`` gives the JSON that
``schemas/audit-report.schema.json`` describes.
"""

from __future__ import annotations

import contextlib
import json
import re
import tempfile
from collections import Counter
from collections.abc import Callable, Generator, Iterable, Iterator, Sequence
from contextlib import closing
from dataclasses import dataclass, field
from functools import partial
from itertools import chain
from pathlib import Path
from typing import Any, Final, Literal, TextIO

from mjlog.core import native
from mjlog.core.about import __version__
from mjlog.core.diagnostics import (
    PER_GAME,
    Diagnostic,
    Finding,
    InputError,
    ScoreMismatch,
    Severity,
    Src,
    Violation,
)
from mjlog.core.events import GameEnd, GameStart, RoundStart
from mjlog.core.record import GameRecord
from mjlog.core.ruleset import MISSING, OPTIONS, PRESETS, Ruleset, describe, option_value
from mjlog.core.textsafe import terminal
from mjlog.families.check import Referee
from mjlog.families.registry import family_of
from mjlog.families.riichi.family import RIICHI
from mjlog.families.riichi.native import DECLINING_CHECKS, NATIVE_CHECKS, audit_native
from mjlog.families.riichi.scoring.native import audit_scored_native
from mjlog.families.riichi.scoring.verify import ScoreReport
from mjlog.formats import expand, iter_path
from mjlog.replay.code import encode, findings_of
from mjlog.replay.engine import Engine
from mjlog.replay.observer import Observer
from mjlog.reports.settlement import Settlement, settle
from mjlog.run import parallel
from mjlog.wall.native import verify_native
from mjlog.wall.verify import WallCheck

Options = tuple[tuple[str, object], ...]
"""Ruleset options set on the command line (``--set name=value``), already parsed."""


def ruleset_for(start: GameStart | None, preset: str | None, options: Options = (), *,
                force: bool = False) -> Ruleset:
    """The ruleset to audit a game under.

    Without ``preset``, the one the record suggests (its platform, room and
    flags). With it, that preset, keeping the record's whether it has red
    fives (a fact of the tile set, not a rule), but only for a record of the
    preset's family and number of players (:func:`preset_misfit`); another
    record keeps its own ruleset, unless ``force``. ``options`` are applied
    last; one that the ruleset's family does not have is left out
    (:func:`unapplied` names it). Raises ``KeyError`` for an unknown preset.
    """
    suggested = start.ruleset if start is not None else Ruleset()
    if preset is None or (not force and preset_misfit(suggested, preset)):
        rs = suggested
    else:
        rs = PRESETS[preset]
        if rs.players != suggested.players or rs.red_fives != suggested.red_fives:
            rs = rs.with_options(players=suggested.players, red_fives=suggested.red_fives)
    if not options:
        return rs
    try:
        return rs.with_options(**dict(options))
    except TypeError:
        for name, value in sorted(options, key=lambda o: o[0] != "sakizuke"):
            with contextlib.suppress(TypeError):
                rs = rs.with_options(**{name: value})
        return rs


_PLAYERS = {3: "three-player", 4: "four-player"}


def preset_misfit(suggested: Ruleset, preset: str) -> str:
    """Why preset ``preset`` does not fit a record whose own ruleset is ``suggested`` (a
    rule family or number of players of its own), or ``""`` when it fits."""
    rs = PRESETS[preset]
    family = family_of(suggested)
    if family_of(rs) is family and rs.players == suggested.players:
        return ""
    own = [name for name, p in PRESETS.items()
           if family_of(p) is family and p.players == suggested.players]
    return (f"--rules {preset} is a {_PLAYERS.get(rs.players, str(rs.players))} {rs.family} "
            f"ruleset, and this is a {_PLAYERS.get(suggested.players, str(suggested.players))} "
            f"{suggested.family} record: audited under its own ruleset "
            f"{describe(suggested)}" + (f" (presets of its kind: {', '.join(own)})" if own
                                        else "") + "; --force-rules applies the preset anyway")


def unapplied(rs: Ruleset, options: Options) -> list[str]:
    """The options of ``options`` that ruleset ``rs`` does not have (another family's)."""
    return [name for name, _ in options if option_value(rs, name) is MISSING
            or (OPTIONS[name].group == "sakizuke" and not option_value(rs, "sakizuke"))]


@dataclass(slots=True, kw_only=True)
class GameReport:
    """What the audit found in one game, with its counts."""

    path: str
    game: int
    """The game's index in its file, from 0."""
    format: str
    players: list[str]
    ruleset: str
    """The ruleset it was judged under, as :func:`mjlog.core.ruleset.describe` names it."""
    rounds: int
    complete: bool
    findings: list[Finding]
    violations: list[Violation]
    mismatches: list[ScoreMismatch]
    diagnostics: list[Diagnostic]
    wins: int = 0
    wins_verified: int = 0
    draws: int = 0
    draws_verified: int = 0
    settlement: Settlement | None = None
    """Who owes what: the scores corrected for chombo and mismatches, and the points."""

    @property
    def problems(self) -> list[Finding]:
        """The findings that are not notes (severity ``info``)."""
        return [f for f in self.findings if f.severity != Severity.INFO]

    @property
    def errors(self) -> int:
        """Violations, and findings and diagnostics of severity ``error``."""
        return len(self.violations) + sum(1 for x in (*self.findings, *self.diagnostics)
                                          if x.severity == Severity.ERROR)

    def to_dict(self) -> dict[str, Any]:
        """The report entry (``schemas/audit-report.schema.json``, ``game``)."""
        return {
            "path": self.path, "game": self.game, "format": self.format,
            "players": self.players, "ruleset": self.ruleset, "rounds": self.rounds,
            "complete": self.complete,
            "findings": [f.to_dict() for f in self.findings],
            "violations": [v.to_dict() for v in self.violations],
            "mismatches": [m.to_dict() for m in self.mismatches],
            "wins": self.wins, "wins_verified": self.wins_verified,
            "draws": self.draws, "draws_verified": self.draws_verified,
            "diagnostics": [d.to_dict() for d in self.diagnostics],
            "settlement": self.settlement.to_dict() if self.settlement else None,
        }


Watcher = Callable[[Engine, Ruleset, Sequence[Observer]], Observer]
"""What makes an observer that watches an audit's replay (:func:`audit_record`)."""


def audit_record(rec: GameRecord, index: int = 0, *, wall: bool = True, scores: bool = True,
                 rules: bool = True, preset: str | None = None,
                 options: Options = (), force: bool = False,
                 watch: Watcher | None = None) -> GameReport:
    """Replay one game and return its report (findings, violations, mismatches …).

    With ``wall``, a Tenhou record's tiles are also checked against its shuffle
    seed (:mod:`mjlog.wall.verify`); with ``scores``, every win and draw is
    recomputed (:mod:`mjlog.families.riichi.scoring.verify`); with ``rules``, every move is
    judged by the rule checks (:mod:`mjlog.families.riichi.rules`). Scores and rules use the
    ruleset of :func:`ruleset_for` (``force``: the preset even for a record it does not
    fit; without it, such a record gets a ``ruleset-not-applied`` note). ``watch``
    makes one more observer from the engine, the ruleset and the judging observers; it
    runs after them in the same replay (the replay viewer records the table with it).

    The game takes the native route (:func:`native_audit`) where every part asked for
    has a native twin, and the Python route otherwise: the report is the same either way
    (:data:`ROUTES` counts which ran).
    """
    start = rec.events[0] if rec.events and isinstance(rec.events[0], GameStart) else None
    misfit = preset_misfit(start.ruleset, preset) \
        if preset is not None and not force and start is not None else ""
    ruleset = ruleset_for(start, None if misfit else preset, options, force=True)
    parts = Parts(wall=wall, scores=scores, rules=rules)
    done = native_audit(rec, ruleset, parts) if watch is None else None
    if done is None:
        done = python_audit(rec, ruleset, parts, watch)
    ROUTES[done.route] += 1
    findings = done.findings
    if misfit:
        findings.append(Finding(code="ruleset-not-applied", severity=Severity.INFO,
                                message=misfit))
    findings += [Finding(code="rule-option-unapplied", severity=Severity.INFO,
                         message=f"option {name} is not one of ruleset {ruleset.name} "
                         f"({ruleset.family} family): not applied")
                 for name in unapplied(ruleset, options)]
    return _game_report(rec, index, start, ruleset, done, findings)


def _game_report(rec: GameRecord, index: int, start: GameStart | None, ruleset: Ruleset,
                 done: Audited, findings: list[Finding]) -> GameReport:
    """The report of one audited game: its findings capped (with the count left out), the
    settlement and the counts."""
    score = done.score
    left = {
        "findings": done.left_out + max(0, len(findings) - PER_GAME),
        "violations": done.violations_left_out,
        "mismatches": max(0, len(score.mismatches) - PER_GAME),
        "diagnostics": max(0, len(rec.diagnostics) - PER_GAME),
    }
    if any(left.values()):
        findings = findings[:PER_GAME]
        findings.append(Finding(code="findings-capped", severity=Severity.WARNING, message=(
            f"this game has more findings than an audit keeps ({PER_GAME:,} of each kind); "
            "left out: " + ", ".join(f"{n:,} {kind}" for kind, n in left.items() if n))))
    settlement = settle(rec.events, done.final, done.violations, score.mismatches, ruleset) \
        if done.final is not None else None
    return GameReport(
        settlement=settlement, path=rec.path, game=index, format=rec.format,
        players=[p.name for p in start.players] if start else [], ruleset=describe(ruleset),
        rounds=list(map(type, rec.events)).count(RoundStart),  # counted in C
        complete=rec.complete, findings=findings, violations=done.violations,
        mismatches=score.mismatches[:PER_GAME], diagnostics=rec.diagnostics[:PER_GAME],
        wins=score.wins,
        wins_verified=score.wins_verified, draws=score.draws,
        draws_verified=score.draws_verified)


Route = Literal["native", "python"]

ROUTES: Counter[str] = Counter()
"""How many games each route has audited in this process (``native``, ``python``): for
the tests and the benchmarks, which check that a game took the route it should. The
report never says which ran: it is the same either way."""


@dataclass(frozen=True, slots=True)
class Parts:
    """The parts of an audit asked for besides the replay (:func:`audit_record`)."""

    wall: bool
    scores: bool
    rules: bool


@dataclass(slots=True, kw_only=True)
class Audited:
    """One game replayed and judged, by either route, before its report is made: the
    engine's findings (the checks' and the verifier's notes among them) then the wall's,
    the count of findings the engine left out, the violations and the count left out, the
    scores' report and the table's final scores (``None``: no table to settle)."""

    route: Route
    findings: list[Finding]
    left_out: int
    violations: list[Violation]
    violations_left_out: int
    score: ScoreReport
    final: list[int] | None


def python_audit(rec: GameRecord, ruleset: Ruleset, parts: Parts,
                 watch: Watcher | None = None) -> Audited:
    """The game replayed by the Python engine with its family's judging observers, the
    wall check and ``watch``'s observer, in one replay."""
    engine = Engine(rec.src)
    judging = family_of(ruleset).judging(rec, ruleset, engine, rules=parts.rules,
                                          scores=parts.scores)
    wall_check = WallCheck(rec, engine) if parts.wall else None
    if wall_check is not None and wall_check.active:
        judging.observers.append(wall_check)
    observers = list(judging.observers)
    if watch is not None:
        observers.append(watch(engine, ruleset, judging.observers))
    engine.run(rec.events, observers)
    return Audited(
        route="python",
        findings=engine.findings + (wall_check.findings if wall_check is not None else []),
        left_out=engine.left_out, violations=judging.violations,
        violations_left_out=sum(o.left_out for o in judging.observers
                                if isinstance(o, Referee)),
        score=judging.report, final=list(engine.state.scores) if engine.state.n else None)


NATIVE_ERRORS: Counter[str] = Counter()
"""The errors a native part raised in this process (a core built from other sources than
this Python, an option it does not know), by message: each such game took the Python
route. Empty when the two are in step; the tests check it stays so."""


def native_audit(rec: GameRecord, ruleset: Ruleset, parts: Parts) -> Audited | None:
    """The game audited by the native core (engine, referee and checks, score verification,
    wall proof), or ``None`` where the Python route must run it: the core is not built or
    is disabled (``MJLOG_PURE``), the ruleset is not riichi, a check it enables or a part
    asked for has no native twin (:func:`native_checks`, :func:`native_record`), the
    encoder declines the game, a native part declines it (a check or the score verifier: a
    hand only the ``mahjong`` library values), or raises ``ValueError``
    (:data:`NATIVE_ERRORS`)."""
    core = native.core()
    if core is None or (parts.scores and not hasattr(core, "riichi_audit_code")) \
            or not native_record(rec, ended=not parts.scores):
        return None
    checks = native_checks(ruleset) if parts.rules else []
    if checks is None:
        return None
    try:
        return _natively(core, rec, ruleset, parts, checks)
    except ValueError as exc:
        NATIVE_ERRORS[str(exc)] += 1
        return None


def _natively(core: Any, rec: GameRecord, ruleset: Ruleset, parts: Parts,
              checks: list[str]) -> Audited | None:
    """:func:`native_audit` once the game is found one the native core may take: the
    replay with its judging (the part likeliest to decline first), then the wall proof,
    whose findings come after the engine's."""
    code = encode(rec.events, core).code
    if code is None:
        return None
    done = _scored(core, rec, ruleset, parts, checks, code) if parts.scores \
        else _unscored(core, rec, ruleset, parts, checks, code)
    if done is None or not parts.wall:
        return done
    walls = verify_native(core, rec, code)
    if walls is None:
        return None
    done.findings += walls
    return done


def _unscored(core: Any, rec: GameRecord, ruleset: Ruleset, parts: Parts, checks: list[str],
              code: bytes) -> Audited | None:
    """:func:`native_audit` without score verification: the referee and the checks (with
    ``parts.rules``) or the bare replay; ``None`` where a check declines the game."""
    if parts.rules:
        judged = audit_native(core, rec.events, ruleset, rec.src, checks, code=code)
        if judged is None:
            return None
        findings, left_out, violations, v_left_out = judged
    else:
        raw, left_out = core.replay_code(code)
        findings, violations, v_left_out = findings_of(raw, rec.src), [], 0
    return Audited(route="native", findings=findings, left_out=left_out,
                   violations=violations, violations_left_out=v_left_out,
                   score=ScoreReport(), final=[])  # settled from the game end's scores


def _scored(core: Any, rec: GameRecord, ruleset: Ruleset, parts: Parts, checks: list[str],
            code: bytes) -> Audited | None:
    """:func:`native_audit` with score verification: the referee, the checks and the
    verifier in one native replay (:func:`audit_scored_native`), the table's final scores
    with it; ``None`` where a check or the verifier declines the game."""
    got = audit_scored_native(core, rec.events, ruleset, rec.src, code,
                              checks=checks if parts.rules else None)
    if got is None:
        return None
    a = got.audit
    return Audited(route="native", findings=a.findings, left_out=a.left_out,
                   violations=a.violations, violations_left_out=a.violations_left_out,
                   score=got.score, final=got.final)


_NATIVE_CHECKS: Final = frozenset((*NATIVE_CHECKS, *DECLINING_CHECKS))


def native_checks(ruleset: Ruleset) -> list[str] | None:
    """The checks ``ruleset`` enables, by their first rule's code in judging order, when
    every one has a native twin (:data:`mjlog.families.riichi.native.NATIVE_CHECKS`, and
    those that may decline a game); ``None`` for a ruleset of another family than riichi
    or one that enables a check the native core lacks."""
    family = family_of(ruleset)
    if family is not RIICHI:
        return None
    codes = [unit.RULES[0].code for unit in family.checks() if unit.enabled(ruleset)]
    return codes if _NATIVE_CHECKS.issuperset(codes) else None


_SIZES: Final = frozenset({3, 4})


def native_record(rec: GameRecord, *, ended: bool = True) -> bool:
    """Whether the record is one the native route settles as the Python route does: no
    score sheet's round (the Python engine pays its unwritten results by the ruleset),
    every table of three or four seats, and, with ``ended``, a last game end with its
    scores (the settlement then starts from them: the native route without score
    verification does not give back the table's final scores; with it,
    ``riichi_audit_code`` does, and a record without a game end may go native)."""
    end: GameEnd | None = None
    for ev in rec.events:
        cls = ev.__class__
        if cls is RoundStart:
            assert isinstance(ev, RoundStart)
            if ev.results_only or len(ev.hands) not in _SIZES:
                return False
        elif cls is GameStart:
            assert isinstance(ev, GameStart)
            if len(ev.players) not in _SIZES:
                return False
        elif cls is GameEnd:
            assert isinstance(ev, GameEnd)
            end = ev
    return not ended or (end is not None and bool(end.scores))


@dataclass(frozen=True, slots=True, kw_only=True)
class Checks:
    """What an audit runs besides the replay, and under which rules."""

    wall: bool = True
    scores: bool = True
    rules: bool = True
    preset: str | None = None
    """The preset to audit under (``None``: each record's own ruleset)."""
    options: Options = ()
    force: bool = False
    """Apply the preset also to records of another family or number of players."""


FileStatus = Literal["read", "skipped", "unreadable"]


@dataclass(slots=True, kw_only=True)
class FileReport:
    """One file's audit: ``read`` (its games), ``skipped`` (not a record, found in a
    folder, or a file of a platform's that holds no whole game, with the diagnostic that
    says why) or ``unreadable`` (with the diagnostic that says why)."""

    path: str
    status: FileStatus
    games: Iterable[GameReport] = field(default_factory=list)
    """The games' reports: a list, or (from :func:`audit_file_lazily`) made as they are
    iterated over, one game at a time."""
    error: Diagnostic | None = None


def audit_file(item: tuple[str, bool], checks: Checks = Checks()) -> FileReport:
    """Audit every game of one file; the report holds them all in a list. Never raises
    for bad input: it is reported."""
    report = audit_file_lazily(item, checks)
    report.games = list(report.games)
    return report


def audit_files(items: list[tuple[str, bool]], checks: Checks = Checks()) -> list[FileReport]:
    """:func:`audit_file` of several files: one task of a worker pool."""
    return [audit_file(item, checks) for item in items]


def audit_file_lazily(item: tuple[str, bool], checks: Checks = Checks()) -> FileReport:
    """:func:`audit_file`, reading and auditing each game only when the report's games are
    iterated over, so that a file of many games is audited in the memory of one."""
    path, explicit = item
    records = iter_path(path)
    try:
        first = next(records, None)
    except InputError as exc:
        d = exc.diagnostic
        if d.code == "unknown-format" and not explicit:
            return FileReport(path=path, status="skipped")
        if d.code == "not-a-game":  # a platform's file that holds no whole game
            return FileReport(path=path, status="skipped", error=d)
        return FileReport(path=path, status="unreadable", error=d)
    games = (audit_record(rec, i, wall=checks.wall, scores=checks.scores, rules=checks.rules,
                          preset=checks.preset, options=checks.options, force=checks.force)
             for i, rec in enumerate(chain([first] if first else [], records)))
    return FileReport(path=path, status="read", games=games)


def _results(items: list[tuple[str, bool]], engine: parallel.Engine, checks: Checks
             ) -> Generator[FileReport, None, None]:
    if engine.local or len(items) < 2:
        yield from map(partial(audit_file_lazily, checks=checks), items)
        return
    yield from parallel.map_files(partial(audit_files, checks=checks), items, BATCHES,
                                  engine, _worker_died)


BATCHES: Final = parallel.Sizing(per_worker=8, most=32)
"""Files per task of a pool or a cluster: small batches, since one file may take long."""


def _worker_died(item: tuple[str, bool]) -> list[FileReport]:
    return [FileReport(path=item[0], status="unreadable", error=Diagnostic(
        code="worker-died", message="the worker processes reading this file exited, alone "
        "and again; the file was left out"))]


def collect(inputs: Iterable[str | Path]) -> list[tuple[str, bool]]:
    """The files to audit: ``(path, named explicitly)`` (see :func:`mjlog.formats.expand`)."""
    return list(expand(inputs))


def audit(inputs: Iterable[str | Path], *, jobs: int = 1, cluster: str | None = None,
          checks: Checks = Checks(), progress: Callable[[int, int], Any] | None = None
          ) -> AuditReport:
    """Audit files and folders; return the report (see :func:`audit_items`)."""
    return audit_items(collect(inputs), jobs=jobs, cluster=cluster, checks=checks,
                       progress=progress)


@dataclass(slots=True)
class Summary:
    """The counts of a whole audit. Notes (severity ``info``) are counted apart from
    findings; violations count as errors."""

    files: int = 0
    games: int = 0
    complete_games: int = 0
    rounds: int = 0
    games_with_findings: int = 0
    findings: Counter[str] = field(default_factory=Counter)
    notes: Counter[str] = field(default_factory=Counter)
    diagnostics: Counter[str] = field(default_factory=Counter)
    wins: int = 0
    wins_verified: int = 0
    draws: int = 0
    draws_verified: int = 0
    mismatches: Counter[str] = field(default_factory=Counter)
    errors: int = 0
    skipped_files: int = 0
    unreadable_files: int = 0
    games_with_violations: int = 0
    violations: Counter[str] = field(default_factory=Counter)
    games_with_errors: int = 0
    """Games whose reading or replay found something of severity error or warning."""
    games_with_mismatches: int = 0
    games_with_problems: int = 0
    """Games with any of the three: errors or warnings, violations, mismatches."""

    @property
    def score_mismatches(self) -> int:
        """All score mismatches."""
        return sum(self.mismatches.values())

    def add(self, g: GameReport) -> None:
        """Count one game's report."""
        problems = g.problems
        self.games += 1
        self.complete_games += g.complete
        self.rounds += g.rounds
        self.games_with_findings += bool(problems)
        bad_record = bool(problems) or any(d.severity != Severity.INFO for d in g.diagnostics)
        self.games_with_errors += bad_record
        self.games_with_mismatches += bool(g.mismatches)
        self.games_with_problems += bad_record or bool(g.violations or g.mismatches)
        self.findings.update(f.code for f in problems)
        self.notes.update(f.code for f in g.findings if f.severity == Severity.INFO)
        self.diagnostics.update(d.code for d in g.diagnostics)
        self.mismatches.update(m.code for m in g.mismatches)
        self.violations.update(v.code for v in g.violations)
        self.games_with_violations += bool(g.violations)
        self.wins += g.wins
        self.wins_verified += g.wins_verified
        self.draws += g.draws
        self.draws_verified += g.draws_verified
        self.errors += g.errors

    def to_dict(self) -> dict[str, Any]:
        """The report's ``summary`` object."""
        def counts(c: Counter[str]) -> dict[str, int]:
            return dict(sorted(c.items()))
        return {
            "files": self.files, "games": self.games, "complete_games": self.complete_games,
            "rounds": self.rounds, "games_with_findings": self.games_with_findings,
            "findings": counts(self.findings), "notes": counts(self.notes),
            "diagnostics": counts(self.diagnostics), "wins": self.wins,
            "wins_verified": self.wins_verified, "draws": self.draws,
            "draws_verified": self.draws_verified, "score_mismatches": self.score_mismatches,
            "mismatches": counts(self.mismatches), "errors": self.errors,
            "skipped_files": self.skipped_files, "unreadable_files": self.unreadable_files,
            "games_with_violations": self.games_with_violations,
            "violations": counts(self.violations),
            "games_with_errors": self.games_with_errors,
            "games_with_mismatches": self.games_with_mismatches,
            "games_with_problems": self.games_with_problems,
        }


@dataclass(slots=True)
class AuditReport:
    """A whole audit: the summary, every game, the files skipped and those unreadable."""

    summary: Summary = field(default_factory=Summary)
    games: list[GameReport] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)
    skip_reasons: dict[str, str] = field(default_factory=dict)
    """Why a skipped file is no record, where it is not simply of no format mjlog reads."""
    unreadable: list[FileReport] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        """The report as ``schemas/audit-report.schema.json`` describes it."""
        return {
            "mjlog_version": __version__,
            "summary": self.summary.to_dict(),
            "games": [g.to_dict() for g in self.games],
            "skipped": self.skipped,
            **({"skip_reasons": self.skip_reasons} if self.skip_reasons else {}),
            "unreadable": [{"path": u.path, **(u.error.to_dict() if u.error else {})}
                           for u in self.unreadable],
        }


def audit_items(items: list[tuple[str, bool]], *, jobs: int = 1, cluster: str | None = None,
                checks: Checks = Checks(), progress: Callable[[int, int], Any] | None = None,
                sink: Callable[[GameReport], Any] | None = None) -> AuditReport:
    """Audit the files of :func:`collect` and return the report: in this process, in a
    pool of ``jobs`` processes, or on the Dask cluster whose scheduler is at ``cluster``
    (:mod:`mjlog.run.cluster`). In a pool or on a cluster, a file that kills its workers is
    unreadable, ``worker-died``.

    ``progress`` is called with 1 and the file's games after each file (for a progress
    line, :class:`mjlog.run.progress.Progress`). With ``sink``,
    each game's report goes to it as soon as it is made and the returned report keeps only
    the counts, the skipped and the unreadable files (its ``games`` stay empty), so that
    an audit of any number of games runs in flat memory (see :class:`Spool`).
    """
    report = AuditReport()
    # closed on an exception too, so that the worker pool ends here, not at exit
    with closing(_results(items, parallel.Engine(jobs, cluster), checks)) as results:
        for res in results:
            before = report.summary.games
            _take(report, res, sink)
            if progress is not None:
                progress(1, report.summary.games - before)
    return report


def _take(report: AuditReport, res: FileReport,
          sink: Callable[[GameReport], Any] | None) -> None:
    """Count one file's result into ``report`` (its games to ``sink`` when given)."""
    s = report.summary
    if res.status == "skipped":
        report.skipped.append(res.path)
        if res.error is not None:
            report.skip_reasons[res.path] = res.error.message
        s.skipped_files += 1
    elif res.status == "unreadable":
        report.unreadable.append(res)
        s.unreadable_files += 1
    else:
        s.files += 1
        for g in res.games:
            s.add(g)
            (report.games.append if sink is None else sink)(g)


class Spool:
    """An audit's report written as it goes: each game's part of the text or JSON report
    goes to a temporary file as soon as the game is audited (:meth:`add`, the ``sink`` of
    :func:`audit_items`), and :meth:`parts` gives the whole report, the same text that
    :func:`format_text` or the report's ``to_dict`` as JSON would give, a piece at a time.

    ``jsonl`` is the JSON report as lines, one object each, in the order of the JSON
    report: ``{"game": …}`` per game, ``{"skipped": path}`` and ``{"unreadable": …}`` per
    file, and last ``{"mjlog_version": …, "summary": …}``; with a ``stream``, each game's
    line goes there the moment the game is audited (for a reader at the other end of a
    pipe), not to the temporary file."""

    def __init__(self, fmt: str, *, all_games: bool = False, summary_only: bool = False,
                 stream: TextIO | None = None) -> None:
        self.json = fmt == "json"
        self.lines = fmt == "jsonl"
        self.stream = stream if self.lines else None
        self.all_games = all_games
        self.summary_only = summary_only
        """Leave every game's part out: the report is its summary and the files' lines."""
        self.file = tempfile.TemporaryFile("w+", encoding="utf-8")  # noqa: SIM115 (close)
        self.games = 0
        self.written = False

    def add(self, g: GameReport) -> None:
        """Write one game's part of the report."""
        if self.summary_only:
            return
        if self.lines:
            out = self.stream or self.file
            out.write(printable(json.dumps({"game": g.to_dict()}, ensure_ascii=False) + "\n"))
            if self.stream is not None:
                self.stream.flush()
        elif self.json:
            # indented line by line at "\n" only: textwrap.indent also breaks at the NEL or
            # U+2028 a name may hold, which would put spaces inside the name
            text = "  " + json.dumps(g.to_dict(), ensure_ascii=False, indent=1).replace(
                "\n", "\n  ")
            self.file.write(printable((",\n" if self.games else "") + text))
        elif lines := _game_lines(g, self.all_games):
            self.file.write(printable("\n".join(lines) + "\n"))
            self.written = True
        self.games += 1

    def parts(self, report: AuditReport) -> Iterator[str]:
        """The whole report, the games' parts read back from the temporary file."""
        self.file.seek(0)
        games = iter(lambda: self.file.read(2**16), "")  # small pieces: flat memory
        if self.lines:
            yield from games
            yield from _tail_lines(report)
            return
        if self.json:
            whole = printable(json.dumps(report.to_dict(), ensure_ascii=False, indent=1) + "\n")
            if not self.games:
                yield whole
                return
            head, tail = whole.split('\n "games": [],\n', 1)
            yield head + '\n "games": [\n'
            yield from games
            yield "\n ],\n" + tail
            return
        yield from games
        rest = _file_lines(report, skipped=not self.summary_only)  # skips only counted then
        yield "".join(f"{line}\n" for line in rest) + ("\n" if rest or self.written else "")
        yield "\n".join(_summary_lines(report.summary)) + "\n"

    def __enter__(self) -> Spool:
        return self

    def __exit__(self, *exc: object) -> None:
        """Remove the temporary file."""
        self.file.close()


def _tail_lines(report: AuditReport) -> Iterator[str]:
    """The JSON Lines report after its games: skipped and unreadable files, the summary."""
    whole = report.to_dict()
    for path in whole["skipped"]:
        reason = report.skip_reasons.get(path)
        yield printable(json.dumps({"skipped": path, **({"reason": reason} if reason else {})},
                                   ensure_ascii=False) + "\n")
    for entry in whole["unreadable"]:
        yield printable(json.dumps({"unreadable": entry}, ensure_ascii=False) + "\n")
    yield printable(json.dumps({"mjlog_version": whole["mjlog_version"],
                                "summary": whole["summary"]}, ensure_ascii=False) + "\n")


def printable(text: str) -> str:
    """``text`` as UTF-8 can carry it: a file name that was not UTF-8 comes out with U+FFFD
    for its bad bytes."""
    return text.encode("utf-8", "surrogateescape").decode("utf-8", "replace")


def _file_lines(report: AuditReport, skipped: bool = True) -> list[str]:
    """A line for each file skipped (unless not ``skipped``) and each file unreadable, with
    the reason."""
    lines = [f"{path}: skipped: {report.skip_reasons.get(path, 'not a record mjlog reads')}"
             for path in (report.skipped if skipped else ())]
    lines += [_unreadable_line(u) for u in report.unreadable]
    return [terminal(line) for line in lines]


def _unreadable_line(u: FileReport) -> str:
    assert u.error is not None
    return f"{u.path}: cannot read: {u.error.code}{_where(u.error.src)}: {u.error.message}"


def format_text(report: AuditReport, *, all_games: bool = False) -> str:
    """A human-readable report: each game with something to say, then the summary.

    Notes (severity ``info``) are only counted, unless ``all_games`` lists everything.
    """
    lines: list[str] = []
    for g in report.games:
        lines.extend(_game_lines(g, all_games))
    lines.extend(_file_lines(report))
    if lines:
        lines.append("")
    lines.extend(_summary_lines(report.summary))
    return "\n".join(lines) + "\n"


def _game_lines(g: GameReport, all_games: bool) -> list[str]:
    """A game's lines of the text report, each safe to print (:func:`textsafe.terminal`:
    a name or file name with control characters cannot drive the terminal or forge a
    line)."""
    return [terminal(line) for line in _raw_game_lines(g, all_games)]


def _raw_game_lines(g: GameReport, all_games: bool) -> list[str]:
    shown = g.findings if all_games else g.problems
    if not (g.diagnostics or shown or g.mismatches or g.violations or all_games):
        return []
    names = g.players
    seats = ", ".join(f"{n or '?'} [{i}]" for i, n in enumerate(names))
    game = f" game {g.game + 1}" if g.game else ""
    lines = [f"{g.path}{game} ({g.format}, {counted(g.rounds, 'round')}, ruleset {g.ruleset}; "
             f"{seats})"]
    for d in g.diagnostics:
        where = _where(d.src)[2:]
        lines.append(f"  {d.severity}: {d.code}{f' [{where}]' if where else ''}: "
                     f"{named(d.message, names)}")
    for f in shown:
        where = f"{f.round}{_turn(f.turn)}{_who(f.player, names)}{_where(f.src)}"
        where = where.removeprefix(", ")
        lines.append(f"  {f.severity}: {f.code}{f' [{where}]' if where else ''}: "
                     f"{named(f.message, names)}")
    for m in g.mismatches:
        lines.append(f"  mismatch: {m.code} [{m.round}{_who(m.player, names)}{_where(m.src)}]: "
                     f"{m.field} recorded {_value(m.recorded)}, computed {_value(m.computed)}"
                     + (f" ({named(m.message, names)})" if m.message else ""))
    lines.extend(violation_lines(g.violations, names))
    if g.settlement is not None and not g.rounds:
        lines.append("  settlement: nothing to settle (no round was read)")
    elif g.settlement is not None:  # every game the report lists: who owes what
        lines.extend(settlement_lines(g.settlement, names))
    if len(lines) == 1:
        lines.append("  ok")
    return lines


_PLAYER = re.compile(r"\bplayer (\d)\b")


def named(text: str, names: Sequence[str]) -> str:
    """``text`` with each ``player N`` of a seat the record names as ``Name [N]``."""
    if not any(names):
        return text

    def name(m: re.Match[str]) -> str:
        p = int(m.group(1))
        return f"{names[p]} [{p}]" if p < len(names) and names[p] else m.group(0)
    return _PLAYER.sub(name, text)


def _summary_lines(s: Summary) -> list[str]:
    clean = s.games - s.games_with_problems
    kinds = [f"{n} with {what}" for n, what in (
        (s.games_with_errors, "errors or warnings in the record"),
        (s.games_with_violations, "rule violations"),
        (s.games_with_mismatches, "score mismatches")) if n]
    lines = [
        f"{counted(s.files, 'file')} read, {s.skipped_files:,} skipped (not a record), "
        f"{s.unreadable_files:,} unreadable",
        f"{counted(s.games, 'game')} ({s.complete_games:,} complete), "
        f"{counted(s.rounds, 'round')}: {clean:,} clean, {s.games_with_problems:,} with "
        "problems" + (f" ({', '.join(kinds)})" if kinds else ""),
    ]
    if s.wins or s.draws:
        lines.append(f"scores: {s.wins_verified:,} of {counted(s.wins, 'win')} and "
                     f"{s.draws_verified:,} of {counted(s.draws, 'draw')} agree with the record; "
                     f"{counted(s.score_mismatches, 'mismatch', 'mismatches')}")
    for title, counts in (("violations", s.violations), ("findings", s.findings),
                          ("notes", s.notes), ("mismatches", s.mismatches),
                          ("diagnostics", s.diagnostics)):
        if counts:
            lines.append(f"{title}: " + ", ".join(f"{k} {v}" for k, v in sorted(counts.items())))
    return lines


def counted(n: int, noun: str, plural: str = "") -> str:
    """``n`` things in words: ``1 round``, ``2 rounds``, ``12,345 games``."""
    return f"{n:,} {noun if n == 1 else plural or noun + 's'}"


def summary_line(s: Summary) -> str:
    """The audit in one line: its games and how many have problems of each kind."""
    return _summary_lines(s)[1]


def violation_lines(violations: list[Violation], names: Sequence[str] = ()) -> list[str]:
    """Rule violations for a referee: each round once, then each violation in order with
    the rule, the evidence (a picture of the hand, the waits …) and the consequence;
    players by name (seat in brackets) where ``names`` has them."""
    lines: list[str] = []
    last_round = None
    for v in violations:
        if v.round != last_round:
            last_round = v.round
            lines.append(f"  round {last_round}:")
        lines.append(f"    violation: {v.code} (rules §{v.rule}, {v.ruleset}) "
                     f"[{v.round}{_turn(v.turn)}{_who(v.player, names)}{_where(v.src)}]: "
                     f"{named(v.message, names)}")
        lines.append(f"      rule: {v.citation}")
        lines.extend(f"      {name}: {named(text, names)}" for name, text in v.evidence)
        lines.append(f"      consequence: {named(v.consequence, names)}")
    return lines


def settlement_lines(st: Settlement, names: Sequence[str] = ()) -> list[str]:
    """Who owes what: each correction, then each player's score as recorded and as
    corrected and, for a complete game, the final points (what the player is owed, or
    owes); for a record that stops before the game's end, the change over the rounds it
    records, and the points a fixed chombo costs at the end."""
    lines = ["  settlement:"]
    lines.extend(f"    {named(c, names)}" for c in st.corrections)
    for p, (rec, cor) in enumerate(zip(st.recorded, st.corrected, strict=True)):
        who = named(f"player {p}", names)
        line = f"    {who}: {cor:,}" + (f" (recorded {rec:,})" if cor != rec else "")
        if st.points is not None:
            pts = st.points[p]
            line += f", {pts:+.1f} points: " + (f"is owed {pts:.1f}" if pts > 0 else
                                                  f"owes {-pts:.1f}" if pts < 0 else "even")
            if st.recorded_points is not None and st.recorded_points[p] != pts:
                line += f" (recorded {st.recorded_points[p]:+.1f})"
        else:
            change = cor - st.start[p] if p < len(st.start) else 0
            line += f", {change:+,} over the rounds recorded: " + (
                f"is owed {change:,}" if change > 0 else f"owes {-change:,}" if change < 0
                else "even")
            if p < len(st.penalties) and st.penalties[p]:
                line += f", and loses {st.penalties[p]:g} points at the game's end"
        if p in st.bust:
            line += " (bust)"
        lines.append(line)
    return lines


def _value(v: object) -> str:
    return "nothing" if v is None else str(v)


def _turn(turn: int) -> str:
    return f", turn {turn}" if turn else ""


def _who(player: int | None, names: Sequence[str] = ()) -> str:
    return "" if player is None else ", " + named(f"player {player}", names)


def _where(src: Src | None) -> str:
    """The position as the text report writes it: ``, line 3:7, element 12, $.log[0]``."""
    if src is None:
        return ""
    parts = []
    if src.line:
        parts.append(f"line {src.line}" + (f":{src.column}" if src.column else ""))
    if src.index >= 0:
        parts.append(f"element {src.index}")
    if src.path:
        parts.append(src.path)
    return (", " if parts else "") + ", ".join(parts)

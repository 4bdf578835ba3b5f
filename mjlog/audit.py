"""The auditor: reads records, replays them and gathers everything found into a report.

Works file by file (in a process pool with ``jobs > 1``), streaming: each
file's games are read, replayed and reduced to their report before the next
file is opened, so memory does not grow with the number of files. The report
is typed (:class:`AuditReport`, :class:`GameReport`, the findings of
:mod:`mjlog.diagnostics`); its ``to_dict`` gives the JSON that
``schemas/audit-report.schema.json`` describes.
"""

from __future__ import annotations

import contextlib
import json
import tempfile
import textwrap
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from functools import partial
from itertools import chain
from pathlib import Path
from typing import Any, Literal

from mjlog import __version__, parallel
from mjlog.check import Referee
from mjlog.diagnostics import (
    PER_GAME,
    Diagnostic,
    Finding,
    InputError,
    ScoreMismatch,
    Severity,
    Src,
    Violation,
)
from mjlog.events import GameStart, RoundStart
from mjlog.families import family_of
from mjlog.formats import expand, iter_path
from mjlog.record import GameRecord
from mjlog.replay.engine import Engine
from mjlog.ruleset import MISSING, OPTIONS, PRESETS, Ruleset, describe, option_value
from mjlog.wall.verify import WallCheck

Options = tuple[tuple[str, object], ...]
"""Ruleset options set on the command line (``--set name=value``), already parsed."""


def ruleset_for(start: GameStart | None, preset: str | None, options: Options = ()) -> Ruleset:
    """The ruleset to audit a game under.

    Without ``preset``, the one the record suggests (its platform, room and
    flags); with it, that preset, keeping the record's number of players and
    whether it has red fives (facts of the tile set, not rules). ``options``
    are applied last; one that the ruleset's family does not have is left out
    (:func:`unapplied` names it). Raises ``KeyError`` for an unknown preset.
    """
    suggested = start.ruleset if start is not None else Ruleset()
    if preset is None:
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
    """The ruleset it was judged under, as :func:`mjlog.ruleset.describe` names it."""
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
        }


def audit_record(rec: GameRecord, index: int = 0, *, wall: bool = True, scores: bool = True,
                 rules: bool = True, preset: str | None = None,
                 options: Options = ()) -> GameReport:
    """Replay one game and return its report (findings, violations, mismatches …).

    With ``wall``, a Tenhou record's tiles are also checked against its shuffle
    seed (:mod:`mjlog.wall.verify`); with ``scores``, every win and draw is
    recomputed (:mod:`mjlog.scoring.verify`); with ``rules``, every move is
    judged by the rule checks (:mod:`mjlog.rules`). Scores and rules use the
    ruleset of :func:`ruleset_for`.
    """
    start = rec.events[0] if rec.events and isinstance(rec.events[0], GameStart) else None
    ruleset = ruleset_for(start, preset, options)
    engine = Engine(rec.src)
    judging = family_of(ruleset).judging(rec, ruleset, engine, rules=rules, scores=scores)
    wall_check = WallCheck(rec, engine) if wall else None
    if wall_check is not None and wall_check.active:
        judging.observers.append(wall_check)
    engine.run(rec.events, judging.observers)
    findings = engine.findings + (wall_check.findings if wall_check is not None else [])
    findings += [Finding(code="rule-option-unapplied", severity=Severity.INFO,
                         message=f"option {name} is not one of ruleset {ruleset.name} "
                         f"({ruleset.family} family): not applied")
                 for name in unapplied(ruleset, options)]
    score = judging.report
    left = {
        "findings": engine.left_out + max(0, len(findings) - PER_GAME),
        "violations": sum(o.left_out for o in judging.observers if isinstance(o, Referee)),
        "mismatches": max(0, len(score.mismatches) - PER_GAME),
        "diagnostics": max(0, len(rec.diagnostics) - PER_GAME),
    }
    if any(left.values()):
        findings = findings[:PER_GAME]
        findings.append(Finding(code="findings-capped", severity=Severity.WARNING, message=(
            f"this game has more findings than an audit keeps ({PER_GAME:,} of each kind); "
            "left out: " + ", ".join(f"{n:,} {kind}" for kind, n in left.items() if n))))
    return GameReport(
        path=rec.path, game=index, format=rec.format,
        players=[p.name for p in start.players] if start else [], ruleset=describe(ruleset),
        rounds=sum(1 for ev in rec.events if isinstance(ev, RoundStart)),
        complete=rec.complete, findings=findings, violations=judging.violations,
        mismatches=score.mismatches[:PER_GAME], diagnostics=rec.diagnostics[:PER_GAME],
        wins=score.wins,
        wins_verified=score.wins_verified, draws=score.draws,
        draws_verified=score.draws_verified)


@dataclass(frozen=True, slots=True, kw_only=True)
class Checks:
    """What an audit runs besides the replay, and under which rules."""

    wall: bool = True
    scores: bool = True
    rules: bool = True
    preset: str | None = None
    """The preset to audit under (``None``: each record's own ruleset)."""
    options: Options = ()


FileStatus = Literal["read", "skipped", "unreadable"]


@dataclass(slots=True, kw_only=True)
class FileReport:
    """One file's audit: ``read`` (its games), ``skipped`` (not a record, found in a
    folder) or ``unreadable`` (with the diagnostic that says why)."""

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
        return FileReport(path=path, status="unreadable", error=d)
    games = (audit_record(rec, i, wall=checks.wall, scores=checks.scores, rules=checks.rules,
                          preset=checks.preset, options=checks.options)
             for i, rec in enumerate(chain([first] if first else [], records)))
    return FileReport(path=path, status="read", games=games)


def _results(items: list[tuple[str, bool]], jobs: int, checks: Checks) -> Iterator[FileReport]:
    if jobs <= 1 or len(items) < 2:
        yield from map(partial(audit_file_lazily, checks=checks), items)
        return
    with parallel.pool(jobs) as pool:
        yield from pool.imap(partial(audit_file, checks=checks), items,
                             chunksize=max(1, min(32, len(items) // (jobs * 8))))


def collect(inputs: Iterable[str | Path]) -> list[tuple[str, bool]]:
    """The files to audit: ``(path, named explicitly)`` (see :func:`mjlog.formats.expand`)."""
    return [(str(p), explicit) for p, explicit in expand(inputs)]


def audit(inputs: Iterable[str | Path], *, jobs: int = 1, checks: Checks = Checks(),
          progress: Callable[[int], Any] | None = None) -> AuditReport:
    """Audit files and folders; return the report (see :func:`audit_items`)."""
    return audit_items(collect(inputs), jobs=jobs, checks=checks, progress=progress)


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
        }


@dataclass(slots=True)
class AuditReport:
    """A whole audit: the summary, every game, the files skipped and those unreadable."""

    summary: Summary = field(default_factory=Summary)
    games: list[GameReport] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)
    unreadable: list[FileReport] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        """The report as ``schemas/audit-report.schema.json`` describes it."""
        return {
            "mjlog_version": __version__,
            "summary": self.summary.to_dict(),
            "games": [g.to_dict() for g in self.games],
            "skipped": self.skipped,
            "unreadable": [{"path": u.path, **(u.error.to_dict() if u.error else {})}
                           for u in self.unreadable],
        }


def audit_items(items: list[tuple[str, bool]], *, jobs: int = 1, checks: Checks = Checks(),
                progress: Callable[[int], Any] | None = None,
                sink: Callable[[GameReport], Any] | None = None) -> AuditReport:
    """Audit the files of :func:`collect` and return the report.

    ``progress`` is called with 1 after each file (for a progress bar). With ``sink``,
    each game's report goes to it as soon as it is made and the returned report keeps only
    the counts, the skipped and the unreadable files (its ``games`` stay empty), so that
    an audit of any number of games runs in flat memory (see :class:`Spool`).
    """
    report = AuditReport()
    s = report.summary
    for res in _results(items, jobs, checks):
        if progress is not None:
            progress(1)
        if res.status == "skipped":
            report.skipped.append(res.path)
            s.skipped_files += 1
        elif res.status == "unreadable":
            report.unreadable.append(res)
            s.unreadable_files += 1
        else:
            s.files += 1
            for g in res.games:
                s.add(g)
                (report.games.append if sink is None else sink)(g)
    return report


class Spool:
    """An audit's report written as it goes: each game's part of the text or JSON report
    goes to a temporary file as soon as the game is audited (:meth:`add`, the ``sink`` of
    :func:`audit_items`), and :meth:`parts` gives the whole report, the same text that
    :func:`format_text` or the report's ``to_dict`` as JSON would give, a piece at a time."""

    def __init__(self, fmt: str, *, all_games: bool = False) -> None:
        self.json = fmt == "json"
        self.all_games = all_games
        self.file = tempfile.TemporaryFile("w+", encoding="utf-8")  # noqa: SIM115 (close)
        self.games = 0
        self.written = False

    def add(self, g: GameReport) -> None:
        """Write one game's part of the report."""
        if self.json:
            text = textwrap.indent(json.dumps(g.to_dict(), ensure_ascii=False, indent=1), "  ")
            self.file.write(printable((",\n" if self.games else "") + text))
        elif lines := _game_lines(g, self.all_games):
            self.file.write(printable("\n".join(lines) + "\n"))
            self.written = True
        self.games += 1

    def parts(self, report: AuditReport) -> Iterator[str]:
        """The whole report, the games' parts read back from the temporary file."""
        self.file.seek(0)
        games = iter(lambda: self.file.read(2**20), "")
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
        rest = [_unreadable_line(u) for u in report.unreadable]
        yield "".join(f"{line}\n" for line in rest) + ("\n" if rest or self.written else "")
        yield "\n".join(_summary_lines(report.summary)) + "\n"

    def __enter__(self) -> Spool:
        return self

    def __exit__(self, *exc: object) -> None:
        """Remove the temporary file."""
        self.file.close()


def printable(text: str) -> str:
    """``text`` as UTF-8 can carry it: a file name that was not UTF-8 comes out with U+FFFD
    for its bad bytes."""
    return text.encode("utf-8", "surrogateescape").decode("utf-8", "replace")


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
    lines.extend(_unreadable_line(u) for u in report.unreadable)
    if lines:
        lines.append("")
    lines.extend(_summary_lines(report.summary))
    return "\n".join(lines) + "\n"


def _game_lines(g: GameReport, all_games: bool) -> list[str]:
    shown = g.findings if all_games else g.problems
    if not (g.diagnostics or shown or g.mismatches or g.violations or all_games):
        return []
    names = ", ".join(n or "?" for n in g.players)
    game = f" game {g.game + 1}" if g.game else ""
    lines = [f"{g.path}{game} ({g.format}, {g.rounds} rounds, ruleset {g.ruleset}; {names})"]
    for d in g.diagnostics:
        where = _where(d.src)[2:]
        lines.append(f"  {d.severity}: {d.code}{f' [{where}]' if where else ''}: {d.message}")
    for f in shown:
        where = f"{f.round}{_turn(f.turn)}{_who(f.player)}{_where(f.src)}".removeprefix(", ")
        lines.append(f"  {f.severity}: {f.code}{f' [{where}]' if where else ''}: {f.message}")
    for m in g.mismatches:
        lines.append(f"  mismatch: {m.code} [{m.round}{_who(m.player)}{_where(m.src)}]: "
                     f"{m.field} recorded {_value(m.recorded)}, computed {_value(m.computed)}"
                     + (f" ({m.message})" if m.message else ""))
    lines.extend(violation_lines(g.violations))
    if len(lines) == 1:
        lines.append("  ok")
    return lines


def _summary_lines(s: Summary) -> list[str]:
    lines = [
        f"{s.files} files, {s.games} games ({s.complete_games} complete), "
        f"{s.rounds} rounds; {s.games_with_findings} games with findings; "
        f"{s.errors} errors; {s.skipped_files} files skipped (not a record), "
        f"{s.unreadable_files} unreadable"
    ]
    if s.wins or s.draws:
        lines.append(f"scores: {s.wins_verified} of {s.wins} wins and "
                     f"{s.draws_verified} of {s.draws} draws agree with the record; "
                     f"{s.score_mismatches} mismatches")
    if s.violations:
        lines.append(f"rules: {s.games_with_violations} games break their ruleset")
    for title, counts in (("violations", s.violations), ("findings", s.findings),
                          ("notes", s.notes), ("mismatches", s.mismatches),
                          ("diagnostics", s.diagnostics)):
        if counts:
            lines.append(f"{title}: " + ", ".join(f"{k} {v}" for k, v in sorted(counts.items())))
    return lines


def violation_lines(violations: list[Violation]) -> list[str]:
    """Rule violations for a referee: each round once, then each violation in order with
    the rule, the evidence (a picture of the hand, the waits …) and the consequence."""
    lines: list[str] = []
    last_round = None
    for v in violations:
        if v.round != last_round:
            last_round = v.round
            lines.append(f"  round {last_round}:")
        lines.append(f"    violation: {v.code} (rules §{v.rule}, {v.ruleset}) "
                     f"[{v.round}{_turn(v.turn)}{_who(v.player)}{_where(v.src)}]: {v.message}")
        lines.append(f"      rule: {v.citation}")
        lines.extend(f"      {name}: {text}" for name, text in v.evidence)
        lines.append(f"      consequence: {v.consequence}")
    return lines


def _value(v: object) -> str:
    return "nothing" if v is None else str(v)


def _turn(turn: int) -> str:
    return f", turn {turn}" if turn else ""


def _who(player: int | None) -> str:
    return f", player {player}" if player is not None else ""


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

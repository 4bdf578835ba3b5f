"""The auditor: reads records, replays them and gathers everything found into a report.

Works file by file (in a process pool with ``jobs > 1``), streaming: each
file's games are read, replayed and reduced to their report before the next
file is opened, so memory does not grow with the number of files. The report
is a plain JSON-ready dict described by ``schemas/audit-report.schema.json``.
"""

from __future__ import annotations

import contextlib
import multiprocessing
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any

from mjlog import __version__
from mjlog.diagnostics import (
    Diagnostic,
    Finding,
    InputError,
    ScoreMismatch,
    Severity,
    Src,
    Violation,
)
from mjlog.events import GameStart, RoundStart
from mjlog.formats import expand, read_path
from mjlog.record import GameRecord
from mjlog.replay.engine import replay
from mjlog.rules.referee import Referee
from mjlog.ruleset import MISSING, OPTIONS, PRESETS, Ruleset, describe, option_value
from mjlog.scoring.verify import ScoreReport, Verifier
from mjlog.scoring.verify import verify as verify_scores
from mjlog.taiwan.referee import TaiwanReferee
from mjlog.wall.verify import verify as verify_wall

FileResult = dict[str, Any]
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


def _src_dict(src: Src | None) -> dict[str, Any]:
    if src is None:
        return {}
    out: dict[str, Any] = {}
    if src.line:
        out["line"] = src.line
    if src.column:
        out["column"] = src.column
    if src.index >= 0:
        out["element"] = src.index
    if src.path:
        out["json_path"] = src.path
    return out


def diagnostic_dict(d: Diagnostic) -> dict[str, Any]:
    """A diagnostic as a report entry."""
    return {"code": d.code, "severity": d.severity.value, "message": d.message,
            **_src_dict(d.src)}


def finding_dict(f: Finding) -> dict[str, Any]:
    """A finding as a report entry."""
    out: dict[str, Any] = {"code": f.code, "severity": f.severity.value, "message": f.message,
                           "round": f.round, "turn": f.turn}
    if f.player is not None:
        out["player"] = f.player
    out.update(_src_dict(f.src))
    return out


def violation_dict(v: Violation) -> dict[str, Any]:
    """A rule violation as a report entry."""
    out: dict[str, Any] = {"code": v.code, "rule": v.rule, "citation": v.citation,
                           "message": v.message, "ruleset": v.ruleset, "round": v.round,
                           "turn": v.turn, "event": v.event}
    if v.player is not None:
        out["player"] = v.player
    out["evidence"] = [list(e) for e in v.evidence]
    out["consequence"] = v.consequence
    out.update(_src_dict(v.src))
    return out


def mismatch_dict(m: ScoreMismatch) -> dict[str, Any]:
    """A score mismatch as a report entry."""
    out: dict[str, Any] = {"code": m.code, "field": m.field, "recorded": m.recorded,
                           "computed": m.computed, "round": m.round, "turn": m.turn}
    if m.message:
        out["message"] = m.message
    if m.player is not None:
        out["player"] = m.player
    out.update(_src_dict(m.src))
    return out


def audit_record(rec: GameRecord, index: int = 0, *, wall: bool = True, scores: bool = True,
                 rules: bool = True, preset: str | None = None,
                 options: Options = ()) -> dict[str, Any]:
    """Replay one game and return its report entry (findings, violations, mismatches …).

    With ``wall``, a Tenhou record's tiles are also checked against its shuffle
    seed (:mod:`mjlog.wall.verify`); with ``scores``, every win and draw is
    recomputed (:mod:`mjlog.scoring.verify`); with ``rules``, every move is
    judged by the rule checks (:mod:`mjlog.rules`). Scores and rules use the
    ruleset of :func:`ruleset_for`.
    """
    start = rec.events[0] if rec.events and isinstance(rec.events[0], GameStart) else None
    ruleset = ruleset_for(start, preset, options)
    violations: list[Violation] = []
    if ruleset.family == "taiwan16":  # the family's own referee judges and scores in one replay
        tw = TaiwanReferee(rec, ruleset, rules=rules, scores=scores)
        violations, score = tw.run()
        engine = tw.engine
    elif rules:  # one replay serves the rule checks and, riding along, score verification
        referee = Referee(rec, ruleset)
        verifier = Verifier(rec, ruleset, referee.engine) if scores else None
        violations = referee.run(verifier.visit if verifier else None, Verifier.CLASSES)
        engine, score = referee.engine, verifier.report if verifier else ScoreReport()
    elif scores:
        engine, score = verify_scores(rec, ruleset)
    else:
        engine, score = replay(rec), ScoreReport()
    findings = engine.findings + (verify_wall(rec) if wall else [])
    findings += [Finding(code="rule-option-unapplied", severity=Severity.INFO,
                         message=f"option {name} is not one of ruleset {ruleset.name} "
                         f"({ruleset.family} family): not applied")
                 for name in unapplied(ruleset, options)]
    return {
        "path": rec.path,
        "game": index,
        "format": rec.format,
        "players": [p.name for p in start.players] if start else [],
        "ruleset": describe(ruleset),
        "rounds": sum(1 for ev in rec.events if isinstance(ev, RoundStart)),
        "complete": rec.complete,
        "findings": [finding_dict(f) for f in findings],
        "violations": [violation_dict(v) for v in violations],
        "mismatches": [mismatch_dict(m) for m in score.mismatches],
        "wins": score.wins,
        "wins_verified": score.wins_verified,
        "draws": score.draws,
        "draws_verified": score.draws_verified,
        "diagnostics": [diagnostic_dict(d) for d in rec.diagnostics],
    }


@dataclass(frozen=True, slots=True, kw_only=True)
class Checks:
    """What an audit runs besides the replay, and under which rules."""

    wall: bool = True
    scores: bool = True
    rules: bool = True
    preset: str | None = None
    """The preset to audit under (``None``: each record's own ruleset)."""
    options: Options = ()


def audit_file(item: tuple[str, bool], checks: Checks = Checks()) -> FileResult:
    """Audit every game of one file. Never raises for bad input: it is reported.

    Returns ``{"path", "status", "games", "error"}`` where status is ``read``,
    ``skipped`` (unknown format in a searched folder) or ``unreadable``.
    """
    path, explicit = item
    try:
        records = read_path(path)
    except InputError as exc:
        d = exc.diagnostic
        if d.code == "unknown-format" and not explicit:
            return {"path": path, "status": "skipped", "games": [], "error": None}
        return {"path": path, "status": "unreadable", "games": [],
                "error": diagnostic_dict(d)}
    games = [audit_record(rec, i, wall=checks.wall, scores=checks.scores, rules=checks.rules,
                          preset=checks.preset, options=checks.options)
             for i, rec in enumerate(records)]
    return {"path": path, "status": "read", "games": games, "error": None}


def _results(items: list[tuple[str, bool]], jobs: int, checks: Checks) -> Iterator[FileResult]:
    work = partial(audit_file, checks=checks)
    if jobs <= 1 or len(items) < 2:
        yield from map(work, items)
        return
    with multiprocessing.get_context("spawn").Pool(jobs) as pool:
        yield from pool.imap(work, items, chunksize=max(1, min(32, len(items) // (jobs * 8))))


def collect(inputs: Iterable[str | Path]) -> list[tuple[str, bool]]:
    """The files to audit: ``(path, named explicitly)`` (see :func:`mjlog.formats.expand`)."""
    return [(str(p), explicit) for p, explicit in expand(inputs)]


def audit(inputs: Iterable[str | Path], *, jobs: int = 1, checks: Checks = Checks(),
          progress: Callable[[int], Any] | None = None) -> dict[str, Any]:
    """Audit files and folders; return the report (see :func:`audit_items`)."""
    return audit_items(collect(inputs), jobs=jobs, checks=checks, progress=progress)


def audit_items(items: list[tuple[str, bool]], *, jobs: int = 1, checks: Checks = Checks(),
                progress: Callable[[int], Any] | None = None) -> dict[str, Any]:
    """Audit the files of :func:`collect` and return the report.

    Findings of severity ``info`` (notes) are counted apart from the others;
    rule violations count as errors.
    ``progress`` is called with 1 after each file (for a progress bar).
    """
    violations: Counter[str] = Counter()
    with_violations = 0
    findings: Counter[str] = Counter()
    notes: Counter[str] = Counter()
    diagnostics: Counter[str] = Counter()
    games: list[dict[str, Any]] = []
    skipped: list[str] = []
    unreadable: list[dict[str, Any]] = []
    mismatches: Counter[str] = Counter()
    files = rounds = with_findings = errors = 0
    wins = wins_verified = draws = draws_verified = 0
    for res in _results(items, jobs, checks):
        if progress is not None:
            progress(1)
        if res["status"] == "skipped":
            skipped.append(res["path"])
            continue
        if res["status"] == "unreadable":
            unreadable.append({"path": res["path"], **res["error"]})
            continue
        files += 1
        for g in res["games"]:
            rounds += g["rounds"]
            real = [f for f in g["findings"] if f["severity"] != Severity.INFO.value]
            findings.update(f["code"] for f in real)
            notes.update(f["code"] for f in g["findings"] if f["severity"] == Severity.INFO.value)
            diagnostics.update(d["code"] for d in g["diagnostics"])
            mismatches.update(m["code"] for m in g["mismatches"])
            wins += g["wins"]
            wins_verified += g["wins_verified"]
            draws += g["draws"]
            draws_verified += g["draws_verified"]
            with_findings += bool(real)
            violations.update(v["code"] for v in g["violations"])
            with_violations += bool(g["violations"])
            errors += len(g["violations"])
            errors += sum(1 for x in g["findings"] + g["diagnostics"]
                          if x["severity"] == Severity.ERROR.value)
            games.append(g)
    return {
        "mjlog_version": __version__,
        "summary": {
            "files": files,
            "games": len(games),
            "complete_games": sum(1 for g in games if g["complete"]),
            "rounds": rounds,
            "games_with_findings": with_findings,
            "findings": dict(sorted(findings.items())),
            "notes": dict(sorted(notes.items())),
            "diagnostics": dict(sorted(diagnostics.items())),
            "wins": wins,
            "wins_verified": wins_verified,
            "draws": draws,
            "draws_verified": draws_verified,
            "score_mismatches": sum(mismatches.values()),
            "mismatches": dict(sorted(mismatches.items())),
            "errors": errors,
            "skipped_files": len(skipped),
            "unreadable_files": len(unreadable),
            "games_with_violations": with_violations,
            "violations": dict(sorted(violations.items())),
        },
        "games": games,
        "skipped": skipped,
        "unreadable": unreadable,
    }


def format_text(report: dict[str, Any], *, all_games: bool = False) -> str:
    """A human-readable report: each game with something to say, then the summary.

    Notes (severity ``info``) are only counted, unless ``all_games`` lists everything.
    """
    lines: list[str] = []
    for g in report["games"]:
        shown = [f for f in g["findings"]
                 if all_games or f["severity"] != Severity.INFO.value]
        items = g["diagnostics"] + shown + g["mismatches"] + g["violations"]
        if not items and not all_games:
            continue
        names = ", ".join(n or "?" for n in g["players"])
        game = f" game {g['game'] + 1}" if g["game"] else ""
        lines.append(f"{g['path']}{game} ({g['format']}, {g['rounds']} rounds, ruleset "
                     f"{g['ruleset']}; {names})")
        for d in g["diagnostics"]:
            where = _where(d)[2:]
            lines.append(f"  {d['severity']}: {d['code']}{f' [{where}]' if where else ''}: "
                         f"{d['message']}")
        for f in shown:
            who = f", player {f['player']}" if "player" in f else ""
            turn = f", turn {f['turn']}" if f["turn"] else ""
            lines.append(f"  {f['severity']}: {f['code']} [{f['round']}{turn}{who}{_where(f)}]: "
                         f"{f['message']}")
        for m in g["mismatches"]:
            who = f", player {m['player']}" if "player" in m else ""
            lines.append(f"  mismatch: {m['code']} [{m['round']}{who}{_where(m)}]: "
                         f"{m['field']} recorded {_value(m['recorded'])}, computed "
                         f"{_value(m['computed'])}"
                         + (f" ({m['message']})" if "message" in m else ""))
        lines.extend(violation_lines(g["violations"]))
        if not items:
            lines.append("  ok")
    for u in report["unreadable"]:
        lines.append(f"{u['path']}: cannot read: {u['code']}{_where(u)}: {u['message']}")
    s = report["summary"]
    if lines:
        lines.append("")
    lines.append(
        f"{s['files']} files, {s['games']} games ({s['complete_games']} complete), "
        f"{s['rounds']} rounds; {s['games_with_findings']} games with findings; "
        f"{s['errors']} errors; {s['skipped_files']} files skipped (not a record), "
        f"{s['unreadable_files']} unreadable"
    )
    if s["wins"] or s["draws"]:
        lines.append(f"scores: {s['wins_verified']} of {s['wins']} wins and "
                     f"{s['draws_verified']} of {s['draws']} draws agree with the record; "
                     f"{s['score_mismatches']} mismatches")
    if s["violations"]:
        lines.append(f"rules: {s['games_with_violations']} games break their ruleset")
    for title, counts in (("violations", s["violations"]), ("findings", s["findings"]),
                          ("notes", s["notes"]),
                          ("mismatches", s["mismatches"]), ("diagnostics", s["diagnostics"])):
        if counts:
            lines.append(f"{title}: " + ", ".join(f"{k} {v}" for k, v in counts.items()))
    return "\n".join(lines) + "\n"


def violation_lines(violations: list[dict[str, Any]]) -> list[str]:
    """Rule violations for a referee: each round once, then each violation in order with
    the rule, the evidence (a picture of the hand, the waits …) and the consequence."""
    lines: list[str] = []
    last_round = None
    for v in violations:
        if v["round"] != last_round:
            last_round = v["round"]
            lines.append(f"  round {last_round}:")
        who = f", player {v['player']}" if "player" in v else ""
        turn = f", turn {v['turn']}" if v["turn"] else ""
        lines.append(f"    violation: {v['code']} (rules §{v['rule']}, {v['ruleset']}) "
                     f"[{v['round']}{turn}{who}{_where(v)}]: {v['message']}")
        lines.append(f"      rule: {v['citation']}")
        lines.extend(f"      {name}: {text}" for name, text in v["evidence"])
        lines.append(f"      consequence: {v['consequence']}")
    return lines


def _value(v: object) -> str:
    return "nothing" if v is None else str(v)


def _where(x: dict[str, Any]) -> str:
    parts = []
    if "line" in x:
        parts.append(f"line {x['line']}" + (f":{x['column']}" if "column" in x else ""))
    if "element" in x:
        parts.append(f"element {x['element']}")
    if "json_path" in x:
        parts.append(x["json_path"])
    return (", " if parts else "") + ", ".join(parts)

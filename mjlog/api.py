"""mjlog in Python and notebooks: read records, audit them, look at them (``docs/api.md``).

The package exposes these names lazily: ``mjlog.read``, ``mjlog.audit``,
``mjlog.Report``, ``mjlog.Game`` and ``mjlog.InputError``.

* :func:`read` gives every game of one file as a :class:`Game`, a
  :class:`~mjlog.core.record.GameRecord` that knows its place in the file.
* :func:`audit` audits a game, or every game of one file, and gives a :class:`Report`
  per game: the audit's own :class:`~mjlog.reports.audit.GameReport` (its violations,
  mismatches, findings, settlement and JSON entry), with a table of its findings
  (:meth:`Report.to_polars`) and the text of ``mjlog audit``.
* In a notebook a :class:`Game` shows the replay viewer of ``mjlog view`` and a
  :class:`Report` the referee's page of ``mjlog audit --format html``, each in an
  ``iframe`` of its own (``_repr_html_``).

What it does not do: it judges nothing itself. Every report is
:func:`mjlog.reports.audit.audit_record`'s, under the same :class:`~mjlog.reports.audit.Checks` that
``mjlog audit --rules PRESET --set OPTION=VALUE`` builds, so that its ``to_dict`` is
the game's entry in ``mjlog audit --format json``. It reads one file at a time (or one
record of an archive, ``ARCHIVE!MEMBER``), in this process: folders, whole archives,
worker pools and streaming are the command line's (:func:`mjlog.reports.audit.audit_items`).
Importing it imports the readers, but not the auditor (the first audit does, and with
it riichi scoring's ``mahjong`` library), polars (only :meth:`Report.to_polars` does)
or the page templates (only ``_repr_html_`` does).
"""

from __future__ import annotations

import html
import os
import re
from collections.abc import Mapping
from dataclasses import dataclass, fields
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final, overload

from mjlog.core.diagnostics import (
    BaseFinding,
    Diagnostic,
    Finding,
    InputError,
    ScoreMismatch,
    Severity,
    Violation,
)
from mjlog.core.events import GameStart, RoundStart
from mjlog.core.record import GameRecord
from mjlog.core.ruleset import PRESETS, option_text, parse_option
from mjlog.formats import read_path

if TYPE_CHECKING:
    import polars as pl

    from mjlog.reports.audit import Checks, GameReport, Options
    from mjlog.reports.settlement import Settlement

__all__ = ["Game", "InputError", "Report", "audit", "read", "rule_options"]

Source = GameRecord | str | os.PathLike[str]
"""What :func:`audit` takes: a game, or the path of a file of games."""


def read(path: str | os.PathLike[str], *, strict: bool = False) -> list[Game]:
    """Every game in one file, in any format mjlog reads (found from the content, gzip
    undone), or in one record of an archive (``ARCHIVE!MEMBER``) or at a URL.

    Raises :class:`~mjlog.core.diagnostics.InputError` when the file cannot be read as a
    record at all (missing, of no format mjlog reads, too large, a notation file without
    its first line …): its ``diagnostic`` has the code, the message and, where the input
    has one, the position (``diagnostic.src``). A problem inside a game does not raise:
    it is one of the game's ``diagnostics``, and everything read before it is kept; with
    ``strict``, the first such problem raises instead. Reading judges nothing
    (:func:`audit` does).
    """
    return [Game.of(rec, i) for i, rec in enumerate(read_path(os.fspath(path), strict=strict))]


@overload
def audit(source: GameRecord, rules: str | None = None, *, force: bool = False,
          wall: bool = True, scores: bool = True, judge: bool = True,
          **options: object) -> Report: ...


@overload
def audit(source: str | os.PathLike[str], rules: str | None = None, *, force: bool = False,
          wall: bool = True, scores: bool = True, judge: bool = True,
          **options: object) -> Report | list[Report]: ...


def audit(source: Source, rules: str | None = None, *, force: bool = False,
          wall: bool = True, scores: bool = True, judge: bool = True,
          **options: object) -> Report | list[Report]:
    """Audit one game, or every game of one file, as ``mjlog audit`` does.

    ``source`` is a game (a :class:`Game` of :func:`read`, or any
    :class:`~mjlog.core.record.GameRecord`): its :class:`Report` comes back. Or it is the
    path of a file (read as :func:`read` reads it, raising
    :class:`~mjlog.core.diagnostics.InputError` as it does): a file of one game gives that
    game's :class:`Report`, a file of several games (or none) a list of them, in file
    order (``[audit(g) for g in read(path)]`` is always a list).

    ``rules`` is a preset (``"tenhou"``, ``"kansaki"``; ``mjlog rules`` lists them),
    ``None`` for the ruleset each record suggests; ``options`` change ruleset options
    by their flat names, as ``--set`` does (``kuikae="same"``, ``kiriage=True``, or as
    text, ``kiriage="true"``). A preset applies only to records of its own family and
    number of players unless ``force``. ``wall=False``, ``scores=False`` and
    ``judge=False`` leave out the wall check, score verification and the rule checks
    (``--no-wall``, ``--no-scores``, ``--no-rules``). Raises ``ValueError`` for an
    unknown preset or option or a value an option does not take (:func:`rule_options`),
    before reading anything.
    """
    from mjlog.reports.audit import Checks

    checks = Checks(wall=wall, scores=scores, rules=judge, preset=rules,
                    options=rule_options(rules, options), force=force)
    if isinstance(source, GameRecord):
        return _audited(source, source.index if isinstance(source, Game) else 0, checks)
    reports = [_audited(game, game.index, checks) for game in read(source)]
    return reports[0] if len(reports) == 1 else reports


def _audited(rec: GameRecord, index: int, checks: Checks) -> Report:
    """One game's report, made as the command line's audit makes it
    (:func:`mjlog.reports.audit.audit_file_lazily`)."""
    from mjlog.reports.audit import audit_record

    g = audit_record(rec, index, wall=checks.wall, scores=checks.scores, rules=checks.rules,
                     preset=checks.preset, options=checks.options, force=checks.force)
    return Report(g, rec, checks)


def rule_options(rules: str | None, options: Mapping[str, object]) -> Options:
    """``options`` as the audit takes them (:data:`mjlog.reports.audit.Options`), each value
    parsed as ``--set NAME=VALUE`` parses its text (:func:`mjlog.core.ruleset.parse_option`:
    ``True`` and ``"true"`` alike).

    Raises ``ValueError`` for a ``rules`` that is no preset, an unknown option, a value
    the option does not take, or, with a preset, an option its family does not have.
    Without a preset, an option a record's own ruleset lacks is not an error: the audit
    notes it (``rule-option-unapplied``), as on the command line.
    """
    if rules is not None and rules not in PRESETS:
        raise ValueError(f"unknown preset {rules!r}; known: {', '.join(sorted(PRESETS))}")
    parsed = tuple((name, parse_option(name, option_text(value)))
                   for name, value in options.items())
    if rules is not None and parsed:
        try:
            PRESETS[rules].with_options(**dict(parsed))
        except (TypeError, ValueError) as exc:
            raise ValueError(str(exc)) from None
    return parsed


@dataclass(slots=True, repr=False)
class Game(GameRecord):
    """One game of a file, as :func:`read` gives it: a
    :class:`~mjlog.core.record.GameRecord` (its events, where each came from, what reading
    found) with its place in the file, a ``repr`` of one line, and the replay viewer as
    its display in a notebook. It holds no audit: :func:`audit` makes one."""

    index: int = 0
    """The game's place in its file, from 0 (the ``game`` of its report)."""

    @classmethod
    def of(cls, rec: GameRecord, index: int = 0) -> Game:
        """``rec`` as a :class:`Game` at ``index``; it shares ``rec``'s events and lists."""
        return cls(**{f.name: getattr(rec, f.name) for f in fields(GameRecord)}, index=index)

    @property
    def players(self) -> list[str]:
        """The players' names in seat order (empty for a record without a game start)."""
        start = _start(self)
        return [p.name for p in start.players] if start else []

    def __repr__(self) -> str:
        rounds = sum(type(ev) is RoundStart for ev in self.events)
        seats = ", ".join(f"{name or '?'} [{i}]" for i, name in enumerate(self.players))
        from mjlog.reports.audit import counted

        problems = f"; {counted(len(self.diagnostics), 'diagnostic')}" if self.diagnostics else ""
        return (f"<Game {_named(self.path, self.index)} ({self.format}, "
                f"{counted(rounds, 'round')}, {counted(len(self.events), 'event')}"
                f"{problems}; {seats or 'no players'})>")

    def _repr_html_(self) -> str:
        """The replay viewer's page of this game (``mjlog view``), under the ruleset the
        record suggests, in a sandboxed ``iframe``: the page and its script stay apart from
        the notebook's."""
        from mjlog.reports.view.model import game_view
        from mjlog.reports.view.page import viewer_page

        return framed(viewer_page(game_view(self, self.index)), _named(self.path, self.index),
                      height=760)


@dataclass(frozen=True, slots=True, repr=False)
class Report:
    """One game's audit: the :class:`~mjlog.reports.audit.GameReport` that ``mjlog audit``
    makes, with the game it judged and the checks it ran.

    It computes nothing of its own: every property reads the game report, ``to_dict`` is
    its JSON entry, and ``str(report)`` (:meth:`describe`) its text in ``mjlog audit``.
    """

    game_report: GameReport
    record: GameRecord
    """The game audited (for a report of a file, the :class:`Game` read from it)."""
    checks: Checks
    """What the audit ran, and under which preset and options."""

    @property
    def path(self) -> str:
        """The record's path, as given to :func:`read` or :func:`audit`."""
        return self.game_report.path

    @property
    def index(self) -> int:
        """The game's place in its file, from 0."""
        return self.game_report.game

    @property
    def players(self) -> list[str]:
        """The players' names in seat order: ``report.players[v.player]``."""
        return self.game_report.players

    @property
    def ruleset(self) -> str:
        """The ruleset the game was judged under: ``kansaki (red_fives=true)``."""
        return self.game_report.ruleset

    @property
    def violations(self) -> list[Violation]:
        """The rules broken at the table, in order of play, each with its rule, evidence
        and consequence."""
        return self.game_report.violations

    @property
    def mismatches(self) -> list[ScoreMismatch]:
        """Each field of a declared result that differs from the computed one."""
        return self.game_report.mismatches

    @property
    def findings(self) -> list[Finding]:
        """What the replay and the wall check found, notes (severity ``info``) included."""
        return self.game_report.findings

    @property
    def problems(self) -> list[Finding]:
        """The findings that are not notes: what ``mjlog audit`` lists without ``--all``."""
        return self.game_report.problems

    @property
    def diagnostics(self) -> list[Diagnostic]:
        """What reading the record found."""
        return self.game_report.diagnostics

    @property
    def settlement(self) -> Settlement | None:
        """Who owes what: the scores as recorded and corrected (chombo, mismatches), and the
        points; ``None`` for a record without a table to settle."""
        return self.game_report.settlement

    @property
    def ok(self) -> bool:
        """Whether nothing here would make ``mjlog audit`` exit 1: no violation, no score
        mismatch, no finding or diagnostic of severity ``error``."""
        return not (self.game_report.errors or self.game_report.mismatches)

    def to_dict(self) -> dict[str, Any]:
        """The game's entry of ``mjlog audit --format json``
        (``schemas/audit-report.schema.json``, ``games``)."""
        return self.game_report.to_dict()

    def to_polars(self) -> pl.DataFrame:
        """A table of the game's violations, score mismatches, findings (notes included)
        and diagnostics, one row each in that order, with the columns of :data:`COLUMNS`
        (a column a kind does not have is null). Imports polars."""
        import polars as pl

        schema = {name: pl.Int64 if kind is int else pl.String for name, kind in COLUMNS.items()}
        g = self.game_report
        items: list[BaseFinding] = [*g.violations, *g.mismatches, *g.findings, *g.diagnostics]
        return pl.DataFrame([_row(f, g) for f in items], schema=schema, orient="row")

    def describe(self, notes: bool = False) -> str:
        """The game's part of ``mjlog audit``'s text: each problem with its place, each
        violation with its rule, evidence and consequence, then who owes what; with
        ``notes``, the notes too (``--all``). A game with nothing to say says ``ok``."""
        from mjlog.reports.audit import _game_lines

        lines = _game_lines(self.game_report, notes) or [
            _game_lines(self.game_report, True)[0], "  ok"]
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.describe()

    def __repr__(self) -> str:
        from mjlog.reports.audit import counted

        g = self.game_report
        counts = [counted(len(g.violations), "violation"),
                  counted(len(g.mismatches), "mismatch", "mismatches"),
                  counted(len(g.problems), "finding"),
                  counted(len(g.findings) - len(g.problems), "note")]
        if g.diagnostics:
            counts.append(counted(len(g.diagnostics), "diagnostic"))
        return f"<Report {_named(g.path, g.game)} under {g.ruleset}: {', '.join(counts)}>"

    def _repr_html_(self) -> str:
        """The referee's page of this game (``mjlog audit --format html``) in a sandboxed
        ``iframe``. It replays the game once more, for the pictures of the table, under the
        same checks. Its links to replay pages lead nowhere in a notebook (the command
        line writes those pages beside the report); the game's own display, ``report.record``
        in a cell, is the replay, under the record's own ruleset."""
        return framed(_referee_page(self), f"audit of {_named(self.path, self.index)}",
                      height=640)


COLUMNS: Final[dict[str, type]] = {
    "path": str, "game": int, "kind": str, "code": str, "severity": str, "round": str,
    "turn": int, "player": int, "player_name": str, "message": str, "rule": str,
    "evidence": str, "consequence": str, "field": str, "recorded": str, "computed": str,
    "line": int, "column": int, "element": int, "json_path": str,
}
"""The columns of :meth:`Report.to_polars` and their types. ``kind`` is ``violation``,
``mismatch``, ``finding`` or ``diagnostic``; ``round`` (``E1-0``), ``turn`` and
``player`` are the finding's place, ``line``, ``column``, ``element`` and ``json_path``
its place in the file; ``rule``, ``evidence`` (``name: text; …``) and ``consequence``
are a violation's, ``field``, ``recorded`` and ``computed`` (as text) a mismatch's."""


def _row(f: BaseFinding, g: GameReport) -> tuple[object, ...]:
    """One finding as a row of :data:`COLUMNS`."""
    src = f.src
    p = f.player
    v = f if isinstance(f, Violation) else None
    m = f if isinstance(f, ScoreMismatch) else None
    row: dict[str, object] = {
        "path": g.path, "game": g.game, "kind": f.KIND, "code": f.code,
        "severity": Severity(f.severity).value, "round": f.round or None, "turn": f.turn,
        "player": p, "player_name": g.players[p] if p is not None and p < len(g.players)
        else None, "message": f.message,
        "rule": v.rule if v else None,
        "evidence": "; ".join(f"{k}: {t}" for k, t in v.evidence) if v else None,
        "consequence": v.consequence if v else None,
        "field": m.field if m else None,
        "recorded": None if m is None or m.recorded is None else str(m.recorded),
        "computed": None if m is None or m.computed is None else str(m.computed),
        "line": (src.line or None) if src else None,
        "column": (src.column or None) if src else None,
        "element": src.index if src and src.index >= 0 else None,
        "json_path": (src.path or None) if src else None,
    }
    return tuple(row[name] for name in COLUMNS)


def framed(page: str, title: str, *, height: int) -> str:
    """A whole HTML ``page`` as a sandboxed ``iframe`` (``srcdoc``) for a notebook's output:
    its scripts run, but cannot reach the notebook, and its style stays inside.

    The page gets ``<base href="about:srcdoc">``: a ``srcdoc`` page's addresses are
    otherwise the notebook's, so that the viewer could not keep its move in the address
    (``#step=25``; the browser refuses) and a relative link would open a page of the
    notebook's server inside the frame (with it, such a link leads nowhere)."""
    page = _HEAD.sub(lambda m: m.group(0) + '<base href="about:srcdoc">', page, count=1)
    return (f'<iframe srcdoc="{html.escape(page, quote=True)}" title="{html.escape(title)}" '
            f'sandbox="allow-scripts" style="width: 100%; height: {height}px; border: 0">'
            "</iframe>")


_HEAD: Final = re.compile(r"<head\b[^>]*>", re.IGNORECASE)


def _referee_page(report: Report) -> str:
    """The referee's page of one report (:class:`mjlog.reports.view.report.RefereeReport`), its
    table pictures from a replay of ``report.record`` (not of the file, which a game made
    in memory does not have), as text."""
    from mjlog.reports.audit import AuditReport
    from mjlog.reports.view.model import game_view
    from mjlog.reports.view.report import RefereeReport

    class OneGame(RefereeReport):
        def _read(self, g: GameReport) -> GameRecord:
            return report.record

        def _view(self, g: GameReport) -> dict[str, Any]:
            c = self.checks
            return game_view(report.record, g.game, preset=c.preset, options=c.options,
                             force=c.force, wall=c.wall, rules=c.rules, scores=c.scores)

    page = OneGame(report.checks)
    page.add(report.game_report)
    whole = AuditReport(games=[report.game_report])
    whole.summary.files = 1
    whole.summary.add(report.game_report)
    written: dict[Path, str] = {}
    out = Path("report.html")
    page.write(out, whole, written.__setitem__, RefereeReport.folder(out))
    return written[out]


def _start(rec: GameRecord) -> GameStart | None:
    first = rec.events[0] if rec.events else None
    return first if isinstance(first, GameStart) else None


def _named(path: str, index: int) -> str:
    """A game as reports name it: its path, and ``game N`` after the first."""
    return f"{path} game {index + 1}" if index else path

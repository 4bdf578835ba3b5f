"""An event's report as HTML: ``mjlog event EVENT.toml --format html -o RESULTS.html``.

Three things are written, side by side:

* ``RESULTS.html``: the standings, the findings, the seat report and each game's
  settlement (its seats' players, final scores, points and places, and the corrections the
  settlement made);
* ``RESULTS-referee.html``: the referee's report of ``mjlog audit --format html``
  (:class:`mjlog.reports.view.report.RefereeReport`, unchanged) for every game with a finding,
  event's or audit's;
* ``RESULTS-referee-games/``: that report's replay pages, one per game it shows.

Each finding of a game links to the game's section of the referee's report and, where the
game has a tile record, to its replay page. The page is made from a template with
autoescape on (names and file names are HTML-escaped); it has no script.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from importlib.resources import files
from pathlib import Path
from typing import Any

import jinja2
from markupsafe import Markup

from mjlog.core.diagnostics import Severity
from mjlog.reports.audit import AuditReport, GameReport, named
from mjlog.reports.audit import Checks as AuditChecks
from mjlog.reports.event import EventReport
from mjlog.reports.event.checks import WINDS
from mjlog.reports.event.output import (
    DISPLAY_COLUMNS,
    PLACES,
    display_row,
    finding_count,
    heading,
    seat_lines,
    signed,
)
from mjlog.reports.event.results import GameResult, Source, shown
from mjlog.reports.event.spec import Event
from mjlog.reports.view.page import asset
from mjlog.reports.view.report import RefereeReport

Writer = Callable[[Path, str], None]
Links = dict[int, list[dict[str, str]]]
"""Per game of ``[[games]]``: its links (``href``, ``text``)."""


@cache
def _environment() -> jinja2.Environment:
    templates = files("mjlog.reports.event") / "templates"
    return jinja2.Environment(
        loader=jinja2.FunctionLoader(lambda name: (templates / name).read_text("utf-8")),
        autoescape=True, trim_blocks=True, lstrip_blocks=True)


def referee_path(out: Path) -> Path:
    """The referee's report beside the event page ``out``: ``OUT-referee.html``."""
    return out.with_name(out.stem + "-referee.html")


def pages_folder(out: Path) -> Path:
    """The folder of the referee's replay pages for the event page ``out``."""
    return RefereeReport.folder(referee_path(out))


def write_pages(report: EventReport, out: Path, write_text: Writer, stage: Path
                ) -> list[Path]:
    """Write the referee's report, its replay pages (into ``stage``, the staged
    :func:`pages_folder`) and the event page at ``out``; return the pages written."""
    referee = referee_path(out)
    ev = report.event
    page = RefereeReport(AuditChecks(preset=ev.preset, options=ev.options))
    owners: list[tuple[GameResult, Source]] = []
    for g in report.games:
        for s in g.sources:
            if s.report is not None and (g.findings or _serious(s.report)):
                page.games.append(s.report)
                owners.append((g, s))
    audit = AuditReport(games=list(page.games))
    for g_report in page.games:
        audit.summary.add(g_report)
    audit.summary.files = len({g_report.path for g_report in page.games})
    written = page.write(referee, audit, write_text, stage) if page.games else []
    links: Links = {}
    folder = pages_folder(out).name
    for k, ((g, s), path) in enumerate(zip(owners, written, strict=False)):
        items = links.setdefault(g.entry.index, [])
        items.append({"href": f"{referee.name}#game-{k + 1}",
                      "text": f"referee's report ({s.kind})"})
        if s.kind == "record":
            items.append({"href": f"{folder}/{path.name}", "text": "replay"})
    write_text(out, event_page(report, links))
    return [*written, out]


def _serious(g: GameReport) -> bool:
    return bool(g.violations or g.mismatches or any(
        x.severity != Severity.INFO for x in (*g.findings, *g.diagnostics)))


def event_page(report: EventReport, links: Links | None = None) -> str:
    """The event page's HTML; ``links`` per game (:func:`write_pages` makes them)."""
    links = links or {}
    return _environment().get_template("event.html.j2").render(
        title=report.event.name, line=heading(report), css=Markup(asset("viewer.css")),
        columns=DISPLAY_COLUMNS, standings=[display_row(s) for s in report.standings],
        penalties=[{"player": p.player, "points": signed(p.points), "round": p.round,
                    "reason": p.reason} for p in report.event.penalties],
        finding_count=finding_count(report),
        findings=[dict(f.to_dict(), place=f.place, links=links.get(f.game, [])
                       if f.game is not None else []) for f in report.findings],
        seat_lines=[line.strip() for line in seat_lines(report)], winds=WINDS,
        seat_winds=sorted(report.seats.winds.items()),
        games=[_game(g, links.get(g.entry.index, []), report.event) for g in report.games])


def _game(g: GameResult, links: list[dict[str, str]], event: Event) -> dict[str, Any]:
    """One game's part of the page: its sources with their links, its seats' results."""
    points, places, scores = g.points, g.places, g.scores
    rows = [] if points is None else [
        {"wind": WINDS[k % len(WINDS)], "player": p or "(no player)", "name": n,
         "score": f"{scores[k]:,}", "points": signed(points[k]),
         "place": PLACES[places[k] - 1]}
        for k, (n, p) in enumerate(zip(g.names, g.seats, strict=True))]
    main = g.main
    st = main.report.settlement if main is not None and main.report is not None else None
    sources = [{"kind": s.kind, "path": shown(s.path, event), "links": [
        link for link in links if f"({s.kind})" in link["text"]
        or (s.kind == "record" and link["text"] == "replay")]} for s in g.sources]
    return {"index": g.entry.index, "label": f"{g.label} ({g.entry.where})",
            "sources": sources, "rows": rows,
            "corrections": [named(c, g.names) for c in st.corrections] if st else []}

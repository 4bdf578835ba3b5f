"""The referee's report as a page: ``mjlog audit … --format html -o REPORT.html``.

:class:`RefereeReport` is the audit's sink: it keeps the reports of the
games with something to show (a violation, a score mismatch, a finding or a
reading problem of warning or error severity) and nothing of the clean ones.
:meth:`RefereeReport.write` then replays each of those games once more for
the replay viewer (:func:`mjlog.view.model.game_view`, under the same
checks), writes its viewer page into the folder ``REPORT-games`` beside the
report, and gives the report's page: the summary, then per game and round
each finding with its rule, evidence, consequence and a picture of the table
at that move, linking to the viewer at that move, and who owes what.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from markupsafe import Markup

from mjlog.audit import AuditReport, Checks, GameReport, settlement_lines, summary_line
from mjlog.diagnostics import Severity
from mjlog.formats import read_path
from mjlog.render import WIND_NAMES
from mjlog.view.model import ONE_STEP, game_view
from mjlog.view.page import asset, environment, script_json, viewer_page

Writer = Callable[[Path, str], None]


@dataclass
class RefereeReport:
    """The games an audit found something in, gathered for the page (module docstring)."""

    checks: Checks = field(default_factory=Checks)
    games: list[GameReport] = field(default_factory=list)

    def add(self, g: GameReport) -> None:
        """Keep ``g`` when it has something a referee must see."""
        serious = [x for x in (*g.findings, *g.diagnostics) if x.severity != Severity.INFO]
        if g.violations or g.mismatches or serious:
            self.games.append(g)

    @staticmethod
    def folder(out: Path) -> Path:
        """The folder of the replay pages beside the report ``out``: ``OUT-games``."""
        return out.with_name(out.stem + "-games")

    def write(self, out: Path, report: AuditReport, write_text: Writer, pages: Path
              ) -> list[Path]:
        """Write the viewer page of each kept game into ``pages`` (a stage of
        :meth:`folder`, which the report links to), then the report page at ``out`` (with
        ``write_text``); return the pages written."""
        folder = self.folder(out)
        written: list[Path] = []
        sections: list[dict[str, Any]] = []
        pictures: list[dict[str, Any]] = []
        for k, g in enumerate(self.games):
            data = self._view(g)
            name = f"{k + 1:03d}-{re.sub(r'[^A-Za-z0-9._-]+', '-', Path(g.path).stem)[:60]}.html"
            write_text(pages / name, viewer_page(data))
            written.append(folder / name)
            sections.append(_section(g, data, f"{folder.name}/{name}", pictures))
        page = environment().get_template("report.html.j2").render(
            title=f"Audit of {report.summary.games:,} games", line=summary_line(report.summary),
            summary=report.summary.to_dict(), games=sections,
            unreadable=[(u.path, u.error.message if u.error else "") for u in report.unreadable],
            css=Markup(asset("viewer.css")), tiles_js=Markup(asset("tiles.js")),
            js=Markup(asset("report.js")),
            pictures=script_json(pictures))
        write_text(out, page)
        return [*written, out]

    def _view(self, g: GameReport) -> dict[str, Any]:
        """The viewer's data of a kept game, judged as the audit judged it."""
        c = self.checks
        rec = read_path(g.path)[g.game]
        return game_view(rec, g.game, preset=c.preset, options=c.options, force=c.force,
                         wall=c.wall, rules=c.rules, scores=c.scores)


def table_at(steps: list[dict[str, Any]], k: int) -> dict[str, Any]:
    """The table at step ``k``: its round's first step with the later values written over
    it (what the page does)."""
    first = k
    while first > 0 and not steps[first].get("key"):
        first -= 1
    table: dict[str, Any] = {}
    for st in steps[first:k + 1]:
        table.update((f, v) for f, v in st.items() if f not in ONE_STEP)
    table["c"] = steps[k].get("c", "")
    return table


def picture(data: dict[str, Any], step: int, seat: int | None) -> dict[str, Any]:
    """The table at a finding's move, as the report draws it: every hand open."""
    t = table_at(data["steps"], step)
    n = data["n"]
    return {"caption": t["c"], "dora": t.get("d", ""), "seats": [
        {"name": data["players"][p], "wind": WIND_NAMES[(p - t.get("dl", 0)) % 4],
         "score": (t.get("s") or [0] * n)[p], "hand": t.get(f"h{p}", ""),
         "melds": [m[1] for m in t.get(f"m{p}", [])], "river": t.get(f"v{p}", ""),
         "riichi": t.get(f"q{p}", 0), "flagged": p == seat} for p in range(n)]}


def _section(g: GameReport, data: dict[str, Any], href: str,
             pictures: list[dict[str, Any]]) -> dict[str, Any]:
    """One game's part of the report: its findings by round, each with its picture (added
    to ``pictures``, the report's list)."""
    rounds: dict[str, list[dict[str, Any]]] = {}
    for f in data["findings"]:
        if f["severity"] == "info":
            continue
        items = rounds.setdefault(f["place"].split(",")[0] if f["place"] else "the record", [])
        same = bool(items) and items[-1]["step"] == f["step"]  # drawn once per move
        f = dict(f, link=f"{href}#step={f['step']}", picture=None if same else len(pictures))
        if not same:
            pictures.append(picture(data, f["step"], f["seat"]))
        items.append(f)
    notes = sum(1 for f in data["findings"] if f["severity"] == "info")
    return {"path": g.path, "game": g.game + 1, "players": g.players, "ruleset": g.ruleset,
            "href": href, "rounds": rounds, "notes": notes,
            "settlement": ([line.strip() for line in settlement_lines(g.settlement, g.players)[1:]]
                           if g.rounds else ["nothing to settle (no round was read)"])
            if g.settlement else []}

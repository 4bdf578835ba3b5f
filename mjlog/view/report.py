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

The page is written in one language (``lang``, :data:`mjlog.view.words.LANGS`):
its fixed words, the findings' titles and places, the pictures' captions and
the replay pages it links to. What the checks wrote in their own words (a
finding's message, its consequence, a settlement's corrections) stays in
English.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from markupsafe import Markup

from mjlog.audit import (
    AuditReport,
    Checks,
    GameReport,
    Summary,
    named,
    settlement_lines,
    summary_line,
)
from mjlog.diagnostics import Severity
from mjlog.formats import read_path
from mjlog.render import WIND_NAMES
from mjlog.settlement import Settlement
from mjlog.view.model import game_view, merged
from mjlog.view.page import asset, environment, script_json, viewer_page
from mjlog.view.words import joined, phrase, t

Writer = Callable[[Path, str], None]


@dataclass
class RefereeReport:
    """The games an audit found something in, gathered for the page (module docstring)."""

    checks: Checks = field(default_factory=Checks)
    games: list[GameReport] = field(default_factory=list)
    lang: str = "en"
    """The language of the page and of the replay pages it links to."""

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
            sections.append(_section(g, data, f"{folder.name}/{name}", pictures, self.lang))
        lang = self.lang
        page = environment().get_template("report.html.j2").render(
            title=t("Audit of {n} games", lang, n=f"{report.summary.games:,}"),
            line=_summary_line(report.summary, lang), summary=report.summary.to_dict(),
            games=sections, lang=lang, t=lambda text, **kw: t(text, lang, **kw),
            phrase=lambda text: phrase(text, lang),
            unreadable=[(u.path, u.error.message if u.error else "") for u in report.unreadable],
            css=Markup(asset("viewer.css")), tiles_js=Markup(asset("tiles.js")),
            js=Markup(asset("report.js")), pictures=script_json(pictures),
            words=script_json({w: t(w, lang) for w in ("riichi", "dora")}))
        write_text(out, page)
        return [*written, out]

    def _view(self, g: GameReport) -> dict[str, Any]:
        """The viewer's data of a kept game, judged as the audit judged it."""
        c = self.checks
        rec = read_path(g.path)[g.game]
        return game_view(rec, g.game, preset=c.preset, options=c.options, force=c.force,
                         wall=c.wall, rules=c.rules, scores=c.scores, lang=self.lang)


def _summary_line(s: Summary, lang: str) -> str:
    """The audit's main line (:func:`mjlog.audit.summary_line`) in ``lang``."""
    if lang == "en":
        return summary_line(s)
    kinds = [t(key, lang, n=f"{n:,}") for n, key in (
        (s.games_with_errors, "{n} with errors or warnings in the record"),
        (s.games_with_violations, "{n} with rule violations"),
        (s.games_with_mismatches, "{n} with score mismatches")) if n]
    line = t("{games} games ({complete} complete), {rounds} rounds: {clean} clean, {problems} "
             "with problems", lang, games=f"{s.games:,}", complete=f"{s.complete_games:,}",
             rounds=f"{s.rounds:,}", clean=f"{s.games - s.games_with_problems:,}",
             problems=f"{s.games_with_problems:,}")
    return line + (f"（{joined(kinds, lang)}）" if kinds else "")


def table_at(steps: list[dict[str, Any]], k: int) -> dict[str, Any]:
    """The table at step ``k``: its round's first step with the later values written over
    it (what the page does)."""
    first = k
    while first > 0 and not steps[first].get("key"):
        first -= 1
    table: dict[str, Any] = {}
    for st in steps[first:k + 1]:
        merged(table, st)
    table["c"] = steps[k].get("c", "")
    return table


def picture(data: dict[str, Any], step: int, seat: int | None, lang: str = "en"
            ) -> dict[str, Any]:
    """The table at a finding's move, as the report draws it: every hand open; its caption
    and winds in ``lang``."""
    at = table_at(data["steps"], step)
    n = data["n"]
    said = at["c"] if lang == "en" else data["captions"][lang][data["caption_at"][step]]
    return {"caption": said, "dora": at.get("d", ""), "seats": [
        {"name": data["players"][p], "wind": t(WIND_NAMES[(p - at.get("dl", 0)) % 4], lang),
         "score": (at.get("s") or [0] * n)[p], "hand": at.get(f"h{p}", ""),
         "melds": [m[1] for m in at.get(f"m{p}", [])], "river": at.get(f"v{p}", ""),
         "riichi": at.get(f"q{p}", 0), "flagged": p == seat} for p in range(n)]}


def _section(g: GameReport, data: dict[str, Any], href: str,
             pictures: list[dict[str, Any]], lang: str = "en") -> dict[str, Any]:
    """One game's part of the report: its findings by round, each with its picture (added
    to ``pictures``, the report's list), in ``lang``."""
    rounds: dict[str, list[dict[str, Any]]] = {}
    for f in data["findings"]:
        if f["severity"] == "info":
            continue
        items = rounds.setdefault(f["place"].split(",")[0] if f["place"]
                                  else t("the record", lang), [])
        same = bool(items) and items[-1]["step"] == f["step"]  # drawn once per move
        f = dict(f, link=f"{href}#step={f['step']}", picture=None if same else len(pictures),
                 place=f["place"] if lang == "en" else f["places"][lang])
        if not same:
            pictures.append(picture(data, f["step"], f["seat"], lang))
        items.append(f)
    notes = sum(1 for f in data["findings"] if f["severity"] == "info")
    return {"path": g.path, "game": g.game + 1, "players": g.players, "ruleset": g.ruleset,
            "href": href, "rounds": rounds, "notes": notes,
            "settlement": (_settlement(g.settlement, g.players, lang) if g.rounds
                           else [t("nothing to settle (no round was read)", lang)])
            if g.settlement else []}


def _settlement(st: Settlement, names: list[str], lang: str) -> list[str]:
    """Who owes what (:func:`mjlog.audit.settlement_lines`) in ``lang``: the corrections as
    the settlement wrote them, each player's line in ``lang``."""
    if lang == "en":
        return [line.strip() for line in settlement_lines(st, names)[1:]]
    lines = [named(c, names) for c in st.corrections]
    for p, (rec, cor) in enumerate(zip(st.recorded, st.corrected, strict=True)):
        who = named(f"player {p}", names) if any(names) else t("player {n}", lang, n=p)
        parts = [f"{who}：{cor:,}" + (t("(recorded {n})", lang, n=f"{rec:,}") if cor != rec
                                      else "")]
        if st.points is not None:
            pts = st.points[p]
            parts.append(t("{pts} final points", lang, pts=f"{pts:+.1f}") + "：" + _owed(
                pts, f"{abs(pts):.1f}", lang))
            if st.recorded_points is not None and st.recorded_points[p] != pts:
                parts[-1] += t("(recorded {n})", lang, n=f"{st.recorded_points[p]:+.1f}")
        else:
            change = cor - st.start[p] if p < len(st.start) else 0
            parts.append(t("{change} over the rounds recorded", lang, change=f"{change:+,}")
                         + "：" + _owed(change, f"{abs(change):,}", lang))
            if p < len(st.penalties) and st.penalties[p]:
                parts.append(t("and loses {n} points at the game's end", lang,
                               n=f"{st.penalties[p]:g}"))
        lines.append(joined(parts, lang) + (t("(bust)", lang) if p in st.bust else ""))
    return lines


def _owed(value: float, amount: str, lang: str) -> str:
    """What a player is owed, owes, or ``even``, in ``lang``."""
    if value > 0:
        return t("is owed {n}", lang, n=amount)
    return t("owes {n}", lang, n=amount) if value < 0 else t("even", lang)

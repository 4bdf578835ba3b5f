"""An event's report as text, CSV, JSON, Markdown and the EMA's results columns.

* :func:`text_report`: the terminal's report: standings, findings, seat report, each game's
  settlement; every line through :func:`mjlog.core.textsafe.terminal`.
* :func:`csv_standings`: the standings, one row a player (a text cell that a spreadsheet
  would take for a formula starts with ``'``, :data:`mjlog.core.textsafe.CSV_FORMULA`).
* :func:`ema_csv`: the ranked players as ``place,ema_id,name,points``. No public
  specification of the EMA's results file was found; these are the columns its published
  results show for each player (place, EMA number, name, points) and the issue names.
* :func:`markdown`: standings, findings and games as Markdown tables
  (:func:`mjlog.core.textsafe.markdown_cell`).
* :func:`json_text`: :meth:`mjlog.reports.event.EventReport.to_dict` as JSON.

The HTML page is :mod:`mjlog.reports.event.page`'s. Nothing here computes a number.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Callable, Sequence

from mjlog.core.diagnostics import Severity
from mjlog.core.textsafe import CSV_FORMULA, markdown_cell, terminal
from mjlog.reports.audit import counted
from mjlog.reports.event import EventReport
from mjlog.reports.event.checks import WINDS
from mjlog.reports.event.results import GameResult
from mjlog.reports.event.standings import Standing

PLACES = ("1st", "2nd", "3rd", "4th")
STANDING_COLUMNS = ("rank", "player", "ema_id", "country", "total", "game_points",
                    "penalties", "chombo", "games", "first", "second", "third", "fourth",
                    "average_place")
"""The columns of :func:`csv_standings`."""
EMA_COLUMNS = ("place", "ema_id", "name", "points")
"""The columns of :func:`ema_csv`."""


def signed(x: float) -> str:
    """Points with their sign, one decimal; nought as ``0.0``."""
    return f"{x:+.1f}" if round(x, 1) else "0.0"


def _rank(s: Standing) -> str:
    return "-" if s.rank is None else str(s.rank)


def _avg(s: Standing) -> str:
    return "" if s.average_place is None else f"{s.average_place:.2f}"


DISPLAY_COLUMNS = ("rank", "player", "EMA id", "total", "games", *PLACES, "avg", "penalties",
                   "chombo")
"""The standings' columns as the text, Markdown and HTML outputs show them."""


def display_row(s: Standing) -> list[str]:
    """One line of the standings as shown (:data:`DISPLAY_COLUMNS`): signed points, chombo
    as the points it cost."""
    return [_rank(s), s.player.name, s.player.ema_id, signed(s.total), str(s.games),
            *(str(n) for n in s.places[:4]), _avg(s), signed(s.penalties), signed(-s.chombo)]


def standing_row(s: Standing) -> list[str]:
    """One line of the standings as text cells, in :data:`STANDING_COLUMNS` order."""
    return [_rank(s), s.player.name, s.player.ema_id, s.player.country, f"{s.total:.1f}",
            f"{s.game_points:.1f}", f"{s.penalties:.1f}", f"{s.chombo:.1f}", str(s.games),
            *(str(n) for n in s.places[:4]), _avg(s)]


def _csv(rows: Sequence[Sequence[str]], numeric: set[int]) -> str:
    """Rows as CSV; a text cell (not a column of ``numeric``) that starts like a formula is
    written with ``'`` before it."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    for k, row in enumerate(rows):
        writer.writerow([c if not k or i in numeric or not c.startswith(CSV_FORMULA)
                         else "'" + c for i, c in enumerate(row)])
    return out.getvalue()


def csv_standings(report: EventReport) -> str:
    """The standings as CSV, one row a player, :data:`STANDING_COLUMNS`."""
    rows = [list(STANDING_COLUMNS), *(standing_row(s) for s in report.standings)]
    return _csv(rows, numeric={0, *range(4, len(STANDING_COLUMNS))})


def ema_csv(report: EventReport) -> str:
    """The ranked players as ``place,ema_id,name,points`` (:data:`EMA_COLUMNS`)."""
    rows = [list(EMA_COLUMNS), *([_rank(s), s.player.ema_id, s.player.name, f"{s.total:.1f}"]
                                 for s in report.standings if s.rank is not None)]
    return _csv(rows, numeric={0, 3})


def json_text(report: EventReport) -> str:
    """The whole report as JSON."""
    return json.dumps(report.to_dict(), ensure_ascii=False, indent=1) + "\n"


def _table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> list[str]:
    """Rows as aligned text columns (numbers right, text left)."""
    widths = [max(len(r[i]) for r in (header, *rows)) for i in range(len(header))]
    right = [all(_numeric(r[i]) for r in rows) for i in range(len(header))]
    return ["  ".join(c.rjust(w) if r else c.ljust(w) for c, w, r in zip(row, widths, right,
                                                                      strict=True)).rstrip()
            for row in (header, *rows)]


def _numeric(text: str) -> bool:
    return text.replace(".", "", 1).lstrip("+-").isdigit() or text in ("", "-")


def heading(report: EventReport) -> str:
    played = sum(1 for g in report.games if g.points is not None)
    return (f"{report.event.name}: ruleset {report.ruleset}; "
            f"{counted(len(report.event.players), 'player')}, "
            f"{counted(len(report.games), 'game')} ({played:,} with final points)")


def finding_count(report: EventReport) -> str:
    warnings = sum(1 for f in report.findings if f.severity == Severity.WARNING)
    return (f"{counted(len(report.findings), 'finding')} ({counted(report.errors, 'error')}, "
            f"{counted(warnings, 'warning')})")


def game_line(g: GameResult) -> str:
    """One game's settlement in a line: each seat's player, final score, points and place."""
    files = " + ".join(str(s.path.name) for s in g.sources)
    points, places, scores = g.points, g.places, g.scores
    if points is None:
        return f"{g.label} ({files}): no final points"
    seats = [f"{p or repr(n)} {scores[k]:,} {points[k]:+.1f} ({PLACES[places[k] - 1]})"
             for k, (n, p) in enumerate(zip(g.names, g.seats, strict=True))]
    return f"{g.label} ({files}): " + ", ".join(seats)


def text_report(report: EventReport) -> str:
    """The report for the terminal (each line safe to print)."""
    lines = [heading(report), "", "Standings"]
    rows = [display_row(s) for s in report.standings]
    lines += ["  " + line for line in _table(DISPLAY_COLUMNS, rows)]
    lines += ["", f"Findings: {finding_count(report)}"]
    lines += [f"  {Severity(f.severity).value}: {f.code} [{f.place}]: {f.message}"
              for f in report.findings]
    lines += ["", *seat_lines(report), "", "Games"]
    lines += ["  " + game_line(g) for g in report.games]
    return "\n".join(terminal(line) for line in lines) + "\n"


def seat_lines(report: EventReport) -> list[str]:
    seats = report.seats
    met = ", ".join(f"{counted(pairs, 'pair')} {_times(n)}" for n, pairs in
                    seats.meetings.items()) or "no pairs"
    lines = [f"Seats ({'the schedule' if seats.source == 'schedule' else 'the games played'}"
             f"): {met}"]
    repeats = seats.repeats()
    if repeats:
        lines.append("  met more than once: " + ", ".join(f"{a} and {b} {_times(n)}"
                                                          for (a, b), n in repeats[:20])
                     + (f" and {len(repeats) - 20:,} more pairs" if len(repeats) > 20 else ""))
    uneven = {p: w for p, w in seats.winds.items() if max(w) - min(w) > 1}
    lines.append("  seat winds: " + ("every player's within one of even" if not uneven else
                                     "; ".join(f"{p} " + " ".join(f"{WINDS[k][0]}{n}"
                                                                  for k, n in enumerate(w))
                                               for p, w in sorted(uneven.items()))))
    return lines


def _times(n: int) -> str:
    return {1: "once", 2: "twice"}.get(n, f"{n} times")


def markdown(report: EventReport) -> str:
    """The report as Markdown: standings, findings and games as tables."""
    cell: Callable[[str], str] = markdown_cell
    out = [f"# {cell(report.event.name)}", "", cell(heading(report)), "", "## Standings", "",
           "| " + " | ".join(DISPLAY_COLUMNS) + " |",
           "|" + "".join("---|" if c in ("player", "EMA id") else "---:|"
                         for c in DISPLAY_COLUMNS)]
    out += ["| " + " | ".join(map(cell, display_row(s))) + " |" for s in report.standings]
    out += ["", "## Findings", "", cell(finding_count(report)), ""]
    if report.findings:
        out += ["| severity | code | where | what |", "|---|---|---|---|"]
        out += [f"| {Severity(f.severity).value} | {cell(f.code)} | {cell(f.place)} | "
                f"{cell(f.message)} |" for f in report.findings]
    out += ["", "## Seats", "", *(cell(line.strip()) + "  " for line in seat_lines(report)),
            "", "## Games", ""]
    out += [f"- {cell(game_line(g))}" for g in report.games]
    return "\n".join(out) + "\n"


WRITERS: dict[str, Callable[[EventReport], str]] = {
    "text": text_report, "csv": csv_standings, "json": json_text, "markdown": markdown,
    "ema-csv": ema_csv}
"""Each ``--format`` of ``mjlog event`` but ``html`` (:mod:`mjlog.reports.event.page`), by name."""

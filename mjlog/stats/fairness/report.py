"""The fairness report as text (a terminal), JSON and one self-contained HTML page.

:func:`build` runs the tests of a :class:`~mjlog.stats.fairness.tally.Tally`; the
writers only show what it computed. The page's pictures are drawn offline with
matplotlib as inline SVG, like the statistics report's (no script, no network).
"""

from __future__ import annotations

import html
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from mjlog import __version__
from mjlog.core.textsafe import terminal
from mjlog.reports.audit import counted
from mjlog.stats.fairness.inference import (
    ALPHA,
    PlayerLine,
    Result,
    analyse,
    group_name,
    player_lines,
)
from mjlog.stats.fairness.sample import STATUSES
from mjlog.stats.fairness.tally import Tally

CORRECTION = "Benjamini–Hochberg"
CAUTION = (
    "A test that passes does not prove a platform fair, and one that fails does not prove "
    "it rigged: a fair shuffle fails one test in twenty by chance before correction, a "
    "biased one passes when the sample is too small to see it, and a shuffle can be "
    "perfectly uniform while seating, matchmaking or anything outside the wall is not. "
    "Tenhou publishes its seed after the game, so a proven Tenhou wall shows that the "
    "published shuffle was followed, not how the seed was chosen. docs/fairness.md "
    "explains each test.")


@dataclass(frozen=True)
class Report:
    """Everything the writers show."""

    tally: Tally
    results: list[Result]
    players: list[PlayerLine]
    seed: int
    least: int
    """The fewest hands a player needs to be listed (when no player is named)."""


def build(tally: Tally, *, seed: int = 0, names: Sequence[str] = (), least: int = 100,
          limit: int = 20) -> Report:
    """Run the tests and pick the players to show (see
    :func:`mjlog.stats.fairness.inference.player_lines`)."""
    return Report(tally, analyse(tally, seed), player_lines(tally, names, least, seed, limit),
                  seed, least)


def statuses(tally: Tally) -> Counter[str]:
    """Rounds by status over every platform and month."""
    total: Counter[str] = Counter()
    for c in tally.months.values():
        total.update(c)
    return total


def to_json(report: Report) -> dict[str, Any]:
    """The report as JSON-ready data."""
    t = report.tally
    return {
        "mjlog": __version__, "seed": report.seed, "alpha": ALPHA, "correction": CORRECTION,
        "games": t.games, "duplicates": t.duplicates, "rounds": dict(statuses(t)),
        "groups": [{"name": group_name(k), "platform": k[0], "players": k[1], "basis": k[2],
                    "rounds": g.rounds} for k, g in sorted(t.groups.items())],
        "tests": [r.to_dict() for r in report.results],
        "players": [p.to_dict() for p in report.players],
        "commitments": [{"platform": p, "month": m, **{s: c[s] for s in STATUSES}}
                        for (p, m), c in sorted(t.months.items())],
        "mismatched": t.mismatched,
        "mismatches": [{"source": s, "round": r, "status": st, "why": w}
                       for s, r, st, w in t.mismatches],
        "skipped": t.skipped,
    }


def _p(p: float | None) -> str:
    if p is None:
        return "-"
    return f"{p:.2g}" if p < 0.001 else f"{p:.3f}"


def headline(report: Report) -> list[str]:
    """The opening lines: what was read and what the tests found."""
    t = report.tally
    st = statuses(t)
    ran = [r for r in report.results if r.run]
    rejected = [r for r in ran if r.rejects]
    rounds = ", ".join(f"{st[s]:,} {s}" for s in STATUSES if st[s])
    return [
        f"mjlog fairness: {counted(t.games, 'game')}"
        + (f" ({t.duplicates:,} read twice, counted once)" if t.duplicates else "")
        + f"; rounds: {rounds or 'none'}",
        f"tests: {len(ran):,} run, {len(rejected):,} reject at a {ALPHA:.0%} false discovery "
        f"rate ({CORRECTION}); {len(report.results) - len(ran):,} not run (too few rounds)",
    ]


def text(report: Report) -> str:
    """The report for a terminal: each group's tests in a line each (positions summed
    up), the players, the commitments and the mismatches."""
    lines = headline(report)
    for name, results in _by_group(report.results):
        lines += ["", name]
        if not any(r.run for r in results):
            lines.append(f"  --  not tested: {_too_few(results)}")
            continue
        for r in results:
            if r.test != "position":
                lines.append(f"  {_verdict(r)}  {r.sentence}{_numbers(r)}")
        positions = [r for r in results if r.test == "position"]
        if positions:
            lines.append(f"  {_positions_line(positions)}")
    lines += _players_text(report)
    lines += _commitments_text(report.tally)
    lines += ["", CAUTION]
    return "\n".join(terminal(line) for line in lines) + "\n"


def _by_group(results: list[Result]) -> list[tuple[str, list[Result]]]:
    groups: dict[str, list[Result]] = {}
    for r in results:
        groups.setdefault(r.group, []).append(r)
    return list(groups.items())


def _too_few(results: list[Result]) -> str:
    """Why a group none of whose tests ran was not tested."""
    dealers = next((r.n for r in results if r.test == "shanten"), 0)
    return f"too few rounds ({dealers:,} dealers' hands known; the fewest tests need 30)"


def _verdict(r: Result) -> str:
    return "--" if not r.run else "NO" if r.rejects else "ok"


def _numbers(r: Result) -> str:
    if not r.run:
        return ""
    return f" [p {_p(r.p)}, adjusted {_p(r.p_adjusted)}]"


def _positions_line(positions: list[Result]) -> str:
    ran = [r for r in positions if r.run]
    if not ran:
        why = positions[-1].sentence.rsplit("(", 1)[-1].rstrip(")")
        return f"--  {len(positions)} wall positions one by one: not tested ({why})"
    worst = min(ran, key=lambda r: r.p_adjusted if r.p_adjusted is not None else 1.0)
    bad = [r.subject for r in ran if r.rejects]
    said = f"{len(bad)} reject ({', '.join(bad[:5])}{'…' if len(bad) > 5 else ''})" if bad \
        else "none rejects"
    return (f"{'NO' if bad else 'ok'}  {len(ran)} wall positions one by one: {said}; the "
            f"smallest adjusted p is {_p(worst.p_adjusted)} ({worst.subject})")


def _players_text(report: Report) -> list[str]:
    if not report.players:
        return []
    out = ["", "players (95% intervals, not corrected for the number of players):",
           "  hands  starting shanten vs uniform   ura hit / expected   player"]
    for p in report.players:
        lo, hi = p.shanten_ci
        ura = f"{p.ura.estimate:.2f} ({p.ura.ci[0]:.2f} to {p.ura.ci[1]:.2f})" \
            if p.ura.run and p.ura.ci else f"- ({p.ura.n} wins)"
        out.append(f"  {p.hands:5,}  {p.shanten:+.3f} ({lo:+.3f} to {hi:+.3f})   "
                   f"{ura:<20} {p.name} ({p.platform}, {p.players}p)")
    return out


def _commitments_text(t: Tally) -> list[str]:
    out = ["", "rounds by platform and month: " + ", ".join(STATUSES)]
    for (platform, month), c in sorted(t.months.items()):
        out.append(f"  {platform:<12} {month:<8} " + " ".join(f"{c[s]:>7,}" for s in STATUSES))
    if t.mismatched:
        out += ["", f"{counted(t.mismatched, 'round')} whose wall is not the one committed to "
                "or cannot be read:"]
        out += [f"  {src} {rnd}: {status}: {why}" for src, rnd, status, why in t.mismatches]
        if t.mismatched > len(t.mismatches):
            out.append(f"  … {t.mismatched - len(t.mismatches):,} more")
    if t.skipped:
        out += ["", "skipped:"] + [f"  {s}" for s in t.skipped]
    return out


def write_html(report: Report, path: Path) -> None:
    """Write the page: the headline, each group's tests with their pictures, the players,
    the commitments and mismatches."""
    from mjlog.stats.report import page

    e = html.escape
    body = ["<h1>mjlog fairness report</h1>"]
    body += [f"<p>{e(line)}</p>" for line in headline(report)]
    body.append(f'<p class="note">{e(CAUTION)}</p>')
    for name, results in _by_group(report.results):
        body += _group_html(name, results)
    body += _players_html(report)
    body += _commitments_html(report.tally)
    path.write_text(page("mjlog fairness report", body), "utf-8")


def _row(r: Result) -> str:
    e = html.escape
    ci = f"{r.estimate:.4g} ({r.ci[0]:.4g} to {r.ci[1]:.4g})" if r.ci and r.estimate is not \
        None else "-"
    stat = f"{r.statistic:.4g}" + (f" (df {r.df})" if r.df is not None else "") \
        if r.statistic is not None else "-"
    return (f'<tr class="test" data-test="{e(r.test)}" data-subject="{e(r.subject)}">'
            f'<td>{_verdict(r)}</td><td style="text-align:left">{e(r.sentence)}</td>'
            f'<td>{e(stat)}</td>'
            f'<td class="p">{_p(r.p)}</td><td class="q">{_p(r.p_adjusted)}</td>'
            f'<td>{e(r.effect)}</td><td class="effect">{e(ci)}</td></tr>')


_HEAD = ("<table><tr><th></th><th>result</th><th>statistic</th><th>p</th>"
         "<th>adjusted p</th><th>effect</th><th>estimate (95% interval)</th></tr>")


def _group_html(name: str, results: list[Result]) -> list[str]:
    from mjlog.stats.fairness import plots

    e = html.escape
    main = [r for r in results if r.test != "position"]
    positions = [r for r in results if r.test == "position"]
    out = [f"<section><h2>{e(name)}</h2>", _HEAD, *(_row(r) for r in main), "</table>"]
    if positions:
        out.append(f"<p>{e(_positions_line(positions))}</p>")
        ran = sorted((r for r in positions if r.run), key=lambda r: r.p or 1.0)
        if ran:
            out += ["<details><summary>every position, smallest p first</summary>", _HEAD,
                    *(_row(r) for r in ran), "</table></details>"]
    out += ['<div class="charts">', *plots.charts(main, positions), "</div></section>"]
    return out


def _players_html(report: Report) -> list[str]:
    if not report.players:
        return []
    e = html.escape
    rows = []
    for p in report.players:
        ura = f"{p.ura.estimate:.3f} ({p.ura.ci[0]:.3f} to {p.ura.ci[1]:.3f})" \
            if p.ura.run and p.ura.ci else f"not tested ({p.ura.n} riichi wins)"
        rows.append(f'<tr class="player"><td>{e(p.name)}</td><td>{e(p.platform)}, '
                    f"{p.players}p</td><td>{p.hands:,}</td><td>{p.shanten:+.3f} "
                    f"({p.shanten_ci[0]:+.3f} to {p.shanten_ci[1]:+.3f})</td><td>{e(ura)}</td>"
                    "</tr>")
    return ["<section><h2>Was I unlucky?</h2><p>Each player's starting hands against what "
            "uniform shuffling gives the same seats (a negative difference: closer to ready "
            "than chance), and their ura dora against what the tiles left in the wall "
            "promised. The intervals are each player's own and are not corrected: among "
            "twenty players dealt fairly, one is expected outside.</p>",
            "<table><tr><th>player</th><th>where</th><th>hands</th><th>starting shanten vs "
            "uniform (95%)</th><th>ura hit / expected (95%)</th></tr>", *rows,
            "</table></section>"]


def _commitments_html(t: Tally) -> list[str]:
    e = html.escape
    out = ["<section><h2>Commitments</h2><p>Rounds by platform and month: <b>proven</b> "
           "(committed to before the round and every tile of the record agrees), "
           "<b>mismatch</b>, <b>unreadable</b>, <b>uncommitted</b> (a wall stated but never "
           "committed to), <b>unknown</b> (only the deal and draws).</p><table><tr>"
           "<th>platform</th><th>month</th>" + "".join(f"<th>{s}</th>" for s in STATUSES)
           + "</tr>"]
    for (platform, month), c in sorted(t.months.items()):
        out.append(f'<tr class="month"><td>{e(platform)}</td><td>{e(month)}</td>'
                   + "".join(f"<td>{c[s]:,}</td>" for s in STATUSES) + "</tr>")
    out.append("</table>")
    if t.mismatches:
        out += ["<h3>Rounds whose wall disagrees or cannot be read</h3><ul>"]
        out += [f'<li class="mismatch">{e(src)} {e(rnd)}: {e(status)}: {e(why)}</li>'
                for src, rnd, status, why in t.mismatches]
        out.append("</ul>")
    if t.skipped:
        out += ["<h3>Skipped</h3><ul>", *(f"<li>{e(s)}</li>" for s in t.skipped), "</ul>"]
    return [*out, "</section>"]


def residuals(observed: Sequence[float], expected: Sequence[float]) -> list[float]:
    """Pearson residuals (observed − expected) / √expected."""
    o = np.asarray(observed, dtype=float)
    x = np.asarray(expected, dtype=float)
    return [float(v) for v in (o - x) / np.sqrt(np.where(x > 0, x, 1))]

"""The statistics report page, opened for real in headless Chromium.

The page must load from ``file://`` with the network off, log no console
error, ask for nothing outside itself, and draw every chart it has: each
``figure.chart`` holds an SVG with a visible size and drawn marks. Chromium
is Debian's (``/usr/bin/chromium``, which ``.ci/run`` installs), driven by
Playwright without a browser download of its own. Outside CI a machine
without Chromium skips these tests, saying so; in CI they fail instead.
"""

from __future__ import annotations

import html
import os
import re
from pathlib import Path
from typing import Any

import lxml.html
import pytest
from click.testing import CliRunner

from mjlog.cli import main
from mjlog.formats import read_path
from mjlog.reports.audit import audit_record

from .conftest import CORPUS, EXAMPLES, corpus_paths


def _report(tmp_path: Path, *args: str) -> Path:
    out = tmp_path / "report.html"
    result = CliRunner().invoke(main, ["stats", *args, "--report", str(out)])
    assert result.exit_code == 0, result.output
    return out


def _open(browser: Any, page_file: Path, shot: Path | None = None) -> dict[str, Any]:
    """Open the page offline; what it logged, asked for and drew."""
    context = browser.new_context(offline=True, viewport={"width": 1200, "height": 900})
    page = context.new_page()
    errors: list[str] = []
    requests: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("request", lambda r: requests.append(r.url))
    page.goto(page_file.as_uri(), wait_until="load")
    charts = page.eval_on_selector_all("figure.chart", """figs => figs.map(f => {
        const svg = f.querySelector('svg'); const box = svg ? svg.getBoundingClientRect() : null;
        return {kind: f.dataset.chart, width: box ? box.width : 0, height: box ? box.height : 0,
                marks: svg ? svg.querySelectorAll('path, rect, use').length : 0};
    })""")
    sections = page.eval_on_selector_all("section h2", "hs => hs.map(h => h.textContent)")
    if shot is not None:
        page.screenshot(path=str(shot), full_page=False)
    context.close()
    return {"errors": errors, "requests": requests, "charts": charts, "sections": sections}


def _drawn(chart: dict[str, Any]) -> bool:
    return bool(chart["width"] > 100 and chart["height"] > 60 and chart["marks"] > 5)


def test_report_of_the_examples_loads_offline_and_draws(browser: Any, tmp_path: Path) -> None:
    seen = _open(browser, _report(tmp_path, str(EXAMPLES)))
    assert seen["errors"] == []
    assert [u for u in seen["requests"] if not u.startswith("file://")] == []
    assert len(seen["sections"]) == 4  # Aoi, Ben, Chiyo, Dai
    kinds = {c["kind"] for c in seen["charts"]}
    assert {"placement", "rates", "points", "turns"} <= kinds
    assert all(_drawn(c) for c in seen["charts"]), seen["charts"]


@pytest.mark.slow  # seconds: CI runs it, the inner loop not
def test_report_of_real_games_draws_every_chart(browser: Any, tmp_path: Path) -> None:
    """Houou games of the corpus: dated, so every one of the six charts has data."""
    assert corpus_paths("tenhou-xml")
    folder = CORPUS / "tenhou-xml"
    shot = Path(os.environ.get("MJLOG_REPORT_SHOT", tmp_path / "report.png"))
    page = _report(tmp_path, str(folder), "--go-type", "169", "--min-games", "3",
                   "--report-limit", "3", "--sort", "games")
    seen = _open(browser, page, shot)
    assert seen["errors"] == [] and all(u.startswith("file://") for u in seen["requests"])
    assert len(seen["sections"]) == 3
    per_section = [c["kind"] for c in seen["charts"]]
    assert len(per_section) == 18, per_section  # six charts for each of three players
    assert all(_drawn(c) for c in seen["charts"]), seen["charts"]
    assert shot.stat().st_size > 10_000


# ---------------------------------------------------------------- the referee's page in words
# (``mjlog audit --format html``: players by name, one card per payment error, counts in
# words; the score sheet's own tests are in tests/test_report_sheet.py)


def _referee(tmp_path: Path, *args: str, lang: str = "en") -> str:
    out = tmp_path / f"referee-{lang}.html"
    result = CliRunner().invoke(main, ["audit", *args, "--format", "html", "--lang", lang,
                                       "-o", str(out)])
    assert result.exit_code in (0, 1), result.output
    return out.read_text("utf-8")


def _shown(page: str) -> str:
    """The text a reader sees: the body without its scripts and styles, one space apart."""
    body = re.sub(r"<(script|style)\b.*?</\1>", " ", page[page.index("<body>"):],
                  flags=re.DOTALL)
    return html.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", body)))


def _cards(page: str, cls: str) -> list[str]:
    """The text of each finding card of class ``cls``."""
    doc: Any = lxml.html.fromstring(page)
    return [re.sub(r"\s+", " ", el.text_content()) for el in doc.xpath(
        f"//div[contains(concat(' ', @class, ' '), ' finding ')]"
        f"[contains(concat(' ', @class, ' '), ' {cls} ')]")]


def test_one_payment_error_is_one_card_in_words(tmp_path: Path) -> None:
    record = EXAMPLES / "02-miscounted-payment.mjn"
    page = _referee(tmp_path, str(record))
    g = audit_record(read_path(str(record))[0])
    assert {m.code for m in g.mismatches} == {"win-points", "win-deltas"}
    cards = _cards(page, "payment")
    assert len(cards) == 1 and len(_cards(page, "finding")) == 1  # nothing else shown apart
    said = cards[0]
    for m in g.mismatches:
        if m.code == "win-deltas":
            assert isinstance(m.recorded, int) and isinstance(m.computed, int)
            who = f"{g.players[m.player or 0]} [{m.player}]"
            verb = "was paid" if m.computed > 0 else "paid"
            due = "is due" if m.computed > 0 else "was due"
            assert f"{who} {verb} {abs(m.recorded):,}; {abs(m.computed):,} {due}." in said
    points = next(m.computed for m in g.mismatches if m.code == "win-points")
    assert isinstance(points, int)
    assert f"Basis: dealer, ron from Ben [1], 2 han 40 fu, {points:,} points." in said
    assert "Aoi [0] was paid 2,900; 3,900 is due. Ben [1] paid 2,900; 3,900 was due." in said
    # the tile record's score sheet, folded: the corrected payments in red in their cells
    doc: Any = lxml.html.fromstring(page)
    sheet = doc.xpath("//details[contains(@class, 'sheet')]")
    assert len(sheet) == 1 and sheet[0].get("open") is None
    red = [[x.text_content() for x in td.xpath(".//span[@class='pay']/ins")]
           for td in sheet[0].xpath(".//tr[@data-step]/td[contains(@class, 'num')]")]
    paid = {m.player: f"{m.computed:+,}" for m in g.mismatches if m.code == "win-deltas"}
    assert red == [[paid[p]] if p in paid else [] for p in range(len(g.players))]


def test_the_referees_page_names_players_and_counts_in_words(tmp_path: Path) -> None:
    """Every game of the examples names its players: the page never says ``player 0``
    (nor its Japanese or Chinese), in places, evidence, consequences, cards or
    settlement; one game and one round are singular, thousands have separators."""
    for lang, mark in (("en", r"\bplayer \d"), ("ja", r"プレイヤー\d"), ("zh", r"玩家\d")):
        page = _referee(tmp_path, str(EXAMPLES), "--set", "kan_after_riichi=forbidden",
                        lang=lang)
        shown = _shown(page)
        assert len(_cards(page, "finding")) >= 10
        assert re.findall(mark, shown) == [], lang
        assert lang != "en" or ("Aoi [0]" in shown and "Mei [0]" in shown)
    one = _referee(tmp_path, str(EXAMPLES / "02-miscounted-payment.mjn"))
    assert "<title>Audit of 1 game</title>" in one
    assert "(0 complete, 1 round)" in _shown(one) and "1 game (0 complete), 1 round:" in one
    assert not re.search(r"\b1 (games|rounds|findings)\b", one)

"""The referee's page of a score sheet (``mjlog audit SHEET --format html``), printed as a
referee signs it: a line per hand with its payments and the running scores, each
correction in red at its hand's line, linked to its card, and the final points of the
game's settlement.

The sheets are those of ``tests/test_sheets.py``: CLEAN (scores computed by hand in its
comments) and PLANTED (the same hands with three planted mistakes). What each line must
show is taken from the audit of the same sheet (its findings' lines, its mismatches'
values, its settlement) or from the sheet's own written scores, never written here.
"""

from __future__ import annotations

import csv
import io
import os
import re
from pathlib import Path
from typing import Any

import lxml.html
import pytest
from click.testing import CliRunner

from mjlog.cli import main
from mjlog.core.events import RoundStart, round_label
from mjlog.formats import read_bytes
from mjlog.reports.audit import audit_record
from mjlog.reports.settlement import Settlement

from .test_sheets import CLEAN, PANTHEON_GAMES, PLANTED
from .test_words import ENGLISH_WORD, TILE_CODES
from .viewer_pages import open_page

PAYMENTS = ("win-deltas", "draw-deltas")


def _page(tmp_path: Path, text: str, *args: str, name: str = "sheet.csv") -> Path:
    """The referee's page of the sheet ``text`` (written to ``name``)."""
    sheet = tmp_path / name
    sheet.write_text(text, "utf-8")
    out = tmp_path / (sheet.stem + ".html")
    result = CliRunner().invoke(main, ["audit", str(sheet), "--format", "html", "-o", str(out),
                                       *args])
    assert result.exit_code in (0, 1), result.output
    return out


def _doc(page: Path) -> Any:
    return lxml.html.fromstring(page.read_bytes())


def _q(el: Any, selector: str) -> list[Any]:
    """The elements under ``el`` a simple CSS selector picks (``tag.class[attr]``, a space
    for a descendant, ``>`` for a child), by XPath (lxml's own ``cssselect`` needs a
    package the project does not have)."""
    path, axis = ".", "//"
    for part in selector.split():
        if part == ">":
            axis = "/"
            continue
        m = re.fullmatch(r"([a-z0-9]*)((?:\.[\w-]+)*)((?:\[[\w-]+\])*)", part)
        assert m is not None, part
        tag, classes, attrs = m.groups()
        path += axis + (tag or "*") + "".join(
            f"[contains(concat(' ', normalize-space(@class), ' '), ' {c} ')]"
            for c in classes.split(".")[1:]) + "".join(
            f"[@{a}]" for a in re.findall(r"\[([\w-]+)\]", attrs))
        axis = "//"
    return list(el.xpath(path))


def _text(el: Any) -> str:
    return re.sub(r"\s+", " ", el.text_content()).strip()


def _rows(doc: Any) -> list[dict[str, Any]]:
    """The sheet's hand lines: line number, each player's cell (payment and running score,
    each as shown and as struck through) and the codes of the corrections on it."""
    out = []
    for tr in _q(doc, "table.sheet tr[data-step]"):
        tds = _q(tr, "td")
        cells = [_cell(td) for td in tds if _q(td, ".pay")]
        fixes = _q(tr, "a.fix")
        due = _q(tds[0], "ins")
        out.append({"line": int(_text(tds[1])), "cells": cells,
                    "label": _text(_q(tds[0], "del")[0] if due else tds[0]),
                    "due": _text(due[0]) if due else None,
                    "codes": {c for a in fixes for c in _text(a).split(":")[0].split(" · ")},
                    "hrefs": [a.get("href") for a in fixes]})
    return out


def _cell(td: Any) -> dict[str, Any]:
    """A player's cell: the hand's payment and the running score, each as shown (the red
    value where corrected) and as written (struck through; None when not corrected)."""
    out: dict[str, Any] = {}
    for part in ("pay", "run"):
        span = _q(td, f".{part}")[0]
        red, struck = _q(span, "ins.fix"), _q(span, "del")
        out[part] = _text(red[0]) if red else _text(span)
        out[part + "_written"] = _text(struck[0]) if struck else None
    return out


def _number(text: str) -> int:
    return int(text.replace(",", "") or 0)


def _final(doc: Any, cls: str) -> list[str]:
    """The values of the sheet's last line of class ``cls`` (final scores or points): what
    each cell shows in red, or as it is when nothing was corrected."""
    tr = _q(doc, f"table.sheet tr.{cls}")[-1]
    return [_text(_q(td, "ins")[0]) if _q(td, "ins") else _text(td)
            for td in _q(tr, "td.num")]


def _settlement(text: str, rules: str | None = None) -> Settlement:
    g = audit_record(read_bytes(text.encode(), "sheet")[0], preset=rules)
    assert g.settlement is not None and g.settlement.points is not None
    return g.settlement


def _lines_found(text: str) -> dict[int, set[str]]:
    """Each line of ``text`` with findings of the audit, and their codes."""
    g = audit_record(read_bytes(text.encode(), "sheet")[0])
    found: dict[int, set[str]] = {}
    for x in (*g.problems, *g.mismatches, *g.violations):
        assert x.src is not None
        found.setdefault(x.src.line, set()).add(x.code)
    return found


def test_the_planted_sheet_shows_each_correction_in_red_at_its_hand(tmp_path: Path) -> None:
    doc = _doc(_page(tmp_path, PLANTED))
    rows = _rows(doc)
    found = _lines_found(PLANTED)
    assert sorted(found) == [4, 6, 7]  # the three planted mistakes
    assert {r["line"]: r["codes"] for r in rows if r["codes"]} == found
    assert len(rows) == 6 and [r["line"] for r in rows] == list(range(3, 9))
    ids = {el.get("id") for el in _q(doc, ".finding[id]")}
    for r in rows:  # each correction links to its card, which names the same codes
        for href in r["hrefs"]:
            assert href[1:] in ids
            card = doc.get_element_by_id(href[1:])
            assert set(_text(card).split()) & r["codes"]


def test_each_corrected_payment_is_red_in_its_players_cell(tmp_path: Path) -> None:
    doc = _doc(_page(tmp_path, PLANTED))
    by_line = {r["line"]: r for r in _rows(doc)}
    g = audit_record(read_bytes(PLANTED.encode(), "sheet")[0])
    payments = [m for m in g.mismatches if m.code in PAYMENTS]
    assert payments
    for m in payments:
        assert m.src is not None and m.player is not None
        cell = by_line[m.src.line]["cells"][m.player]
        assert cell["pay_written"] is not None
        assert isinstance(m.computed, int) and isinstance(m.recorded, int)
        assert _number(cell["pay"]) - _number(cell["pay_written"]) == m.computed - m.recorded
    red = {(line, p) for line, r in by_line.items() for p, c in enumerate(r["cells"])
           if c["pay_written"] is not None}
    assert red == {(m.src.line, m.player) for m in payments if m.src}


def test_a_wrong_label_shows_the_label_due(tmp_path: Path) -> None:
    """PLANTED's line 6 is labelled with the honba of the hand before: the line shows its
    label struck through and the one the table is at in red."""
    rows = {r["line"]: r for r in _rows(_doc(_page(tmp_path, PLANTED)))}
    rec = read_bytes(PLANTED.encode(), "sheet")[0]
    g = audit_record(rec)
    wrong = [m for m in g.mismatches if m.code == "next-round"]
    assert len(wrong) == 1 and wrong[0].field == "honba" and wrong[0].src is not None
    line = wrong[0].src.line
    start = next(ev for i, ev in enumerate(rec.events)
                 if isinstance(ev, RoundStart) and (s := rec.src(i)) and s.line == line)
    assert rows[line]["label"] == round_label(start.round_wind, start.round_number,
                                              start.honba)
    assert isinstance(wrong[0].computed, int)
    assert rows[line]["due"] == round_label(start.round_wind, start.round_number,
                                            wrong[0].computed)
    assert [r["line"] for r in rows.values() if r["due"]] == [line]


def test_the_running_scores_are_the_settlements_and_the_final_points_too(
        tmp_path: Path) -> None:
    doc = _doc(_page(tmp_path, PLANTED))
    st = _settlement(PLANTED)
    last = _rows(doc)[-1]["cells"]
    assert [_number(c["run"]) for c in last] == st.corrected
    assert [_number(c["run_written"] or c["run"]) for c in last] == st.recorded
    assert _final(doc, "total") == [f"{x:,}" for x in st.corrected]
    assert st.points is not None
    assert _final(doc, "points") == [f"{x:+.1f}" for x in st.points]
    recorded = [_text(d) for d in _q(_q(doc, "table.sheet tr.total")[0], "del")]
    assert recorded == [f"{x:,}" for x, y in zip(st.recorded, st.corrected, strict=True)
                        if x != y]


def test_a_clean_sheet_is_shown_and_its_scores_are_those_written(tmp_path: Path) -> None:
    """A clean sheet has no finding, yet a referee signs it: its page shows its lines, the
    running scores the sheet writes, no correction and no card."""
    doc = _doc(_page(tmp_path, CLEAN))
    rows = _rows(doc)
    written = list(csv.reader(io.StringIO(CLEAN.split("\n", 1)[1])))
    names = written[0][-4:]
    assert [_text(th) for th in _q(doc, "table.sheet th.who")] == names
    assert [[_number(c["run"]) for c in r["cells"]] for r in rows] == [
        [int(x) for x in row[-4:]] for row in written[1:] if row]
    assert all(not r["codes"] and not any(c["pay_written"] or c["run_written"]
                                          for c in r["cells"]) for r in rows)
    assert _q(doc, "table.sheet ins.fix") == []
    assert _q(doc, ".finding") == []
    assert _final(doc, "points") == [f"{x:+.1f}" for x in _settlement(CLEAN).points or []]


def test_a_chombo_penalty_after_uma_is_on_the_sheet(tmp_path: Path) -> None:
    """Pantheon's game 13: a chombo first, charged after uma under ``ema``."""
    text = PANTHEON_GAMES[4]
    doc = _doc(_page(tmp_path, text, name="game13.txt"))
    st = _settlement(text)
    penalty = _q(doc, "table.sheet tr.penalty td.num")
    assert [_text(td) for td in penalty] == [f"{-x:+g}" if x else "" for x in st.penalties]
    assert any(st.penalties)
    assert _final(doc, "points") == [f"{x:+.1f}" for x in st.points or []]
    chombo = [r for r in _q(doc, "table.sheet tr[data-step]") if "chombo" in _text(r)]
    assert len(chombo) == 1 and "player32 [1]" in _text(chombo[0])


@pytest.mark.parametrize("lang", ["ja", "zh"])
def test_the_sheet_and_the_cards_say_no_english_in_japanese_and_chinese(
        tmp_path: Path, lang: str) -> None:
    doc = _doc(_page(tmp_path, PLANTED, "--lang", lang))
    names = ["Ann", "Ben", "Cat", "Dan"]
    parts = [*_q(doc, "table.sheet"), *_q(doc, "details.sheet > summary"),
             *_q(doc, ".finding .said"), *_q(doc, ".finding .basis"),
             *_q(doc, "details.sheet > p.meta")]
    assert len(parts) == 7  # the sheet, its heading and note; two cards, each said and based
    for el in parts:
        text = _text(el)
        for name in names:
            text = text.replace(name, " ")
        text = re.sub(r"[a-z]+(?:-[a-z]+)+|[ESWN]\d-\d+|\d+-\d+", " ", text)  # codes, labels
        assert ENGLISH_WORD.findall(TILE_CODES.sub(" ", text)) == [], _text(el)
    shown = " ".join(doc.xpath("//body//text()[not(ancestor::script)]"))
    assert re.search(r"player \d|プレイヤー\d|玩家\d", shown) is None


@pytest.mark.slow
def test_the_sheets_page_opens_with_its_corrections_in_red(browser: Any,
                                                           tmp_path: Path) -> None:
    out = _page(tmp_path, PLANTED)
    context, page, errors = open_page(browser, out, viewport={"width": 1300, "height": 900})
    try:
        red = page.eval_on_selector_all("table.sheet ins.fix", """els => els.map(e => {
            const box = e.getBoundingClientRect();
            return {color: getComputedStyle(e).color, w: box.width, h: box.height,
                    text: e.textContent};
        })""")
        assert len(red) >= 6  # three payments, and the running scores they change
        assert all(r["color"] == "rgb(185, 28, 28)" and r["w"] > 0 and r["h"] > 0 for r in red)
        fixes = page.locator("table.sheet a.fix")
        assert fixes.count() == 3 and fixes.first.is_visible()
        href = fixes.first.get_attribute("href")
        fixes.first.click()
        assert page.evaluate("location.hash") == href
        assert page.locator(f".finding{href}").is_visible()
        shot = os.environ.get("MJLOG_SHEET_SHOT")
        if shot:
            page.evaluate("window.scrollTo(0, 0)")
            page.screenshot(path=shot, full_page=True)
        assert errors == []
    finally:
        context.close()

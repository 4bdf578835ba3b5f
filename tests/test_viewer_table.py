"""The viewer's table as players know it, in headless Chromium at a desktop's and a phone's
size: seats around a square centre, every tile inside the table and in sight, no seat's
tiles over another's, the page opening on the first deal with the real scores, and one
numbering of the moves (the audit's turn) in the finding, the address, the list and the
footer."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from mjlog.cli import main
from mjlog.core.ruleset import PRESETS
from mjlog.families.registry import random_game
from mjlog.formats import write

from .conftest import EXAMPLES
from .viewer_pages import SAMPLES, open_page, page_of, sample

SIZES = {"desktop": (1400, 1000), "phone": (390, 844)}
RECORDS = ["canonical json lines",
           *(pytest.param(name, marks=pytest.mark.slow) for name in
             ("taiwanese, generated", "tenhou-xml", "tenhou-xml three-player", "mahjong soul",
              "riichi city"))]
"""Our own records in the inner loop; the corpus's platforms in the whole suite."""

_LAYOUT = """() => {
    const box = document.getElementById('table').getBoundingClientRect();
    const out = {overflow: [], overlaps: 0, hidden: [], tiles: 0,
                 pageWidth: document.documentElement.scrollWidth, view: innerWidth};
    const rects = (s) => [...s.querySelectorAll('.tile')].map(t => t.getBoundingClientRect());
    const seats = [...document.querySelectorAll('#table .seat')].map(
        s => ({seat: s.dataset.seat, rects: rects(s)}));
    for (const s of seats) for (const r of s.rects) {
        out.tiles++;
        if (r.width < 4 || r.height < 4) out.hidden.push(s.seat);
        if (r.left < box.left - 1 || r.right > box.right + 1 || r.top < box.top - 1
            || r.bottom > box.bottom + 1) out.overflow.push(s.seat);
    }
    const meet = (a, b) => a.left < b.right - 1 && b.left < a.right - 1
        && a.top < b.bottom - 1 && b.top < a.bottom - 1;
    for (let i = 0; i < seats.length; i++) for (let j = i + 1; j < seats.length; j++)
        for (const a of seats[i].rects) for (const b of seats[j].rects)
            if (meet(a, b)) out.overlaps++;
    for (const el of document.querySelectorAll('#table .seat .tag .line, #center .middle')) {
        const r = el.getBoundingClientRect();
        if (r.left < box.left - 1 || r.right > box.right + 1) out.overflow.push('tag');
    }
    return out;
}"""


def _checked(page: Any, where: str) -> None:
    """The table as drawn now: every tile inside it and of a visible size, no two seats'
    tiles over each other, the page no wider than the screen."""
    got = page.evaluate(_LAYOUT)
    assert got["tiles"] > 0, where
    assert got["overflow"] == [], where
    assert got["hidden"] == [], where
    assert got["overlaps"] == 0, where
    assert got["pageWidth"] <= got["view"], where


@pytest.mark.parametrize("size", list(SIZES))
@pytest.mark.parametrize("name", RECORDS)
def test_the_table_fits_and_shows_every_tile(browser: Any, tmp_path: Path, name: str,
                                             size: str) -> None:
    """At the deal of every round, at its last move and at its result, and at the game's
    end: every tile of every seat inside the table, in sight, and on its own side."""
    page_file = page_of(tmp_path, sample(name, tmp_path))
    width, height = SIZES[size]
    context, page, errors = open_page(browser, page_file, viewport={"width": width,
                                                                     "height": height})
    try:
        rounds = page.evaluate("JSON.parse(document.getElementById('game-data').textContent)"
                               ".rounds.map(r => r[2])")
        ends = page.evaluate("""() => { const G = JSON.parse(document.getElementById('game-data')
            .textContent); return G.steps.map((s, i) => s.res ? i : -1).filter(i => i >= 0); }""")
        for step in sorted({*rounds, *(max(0, e - 1) for e in ends), *ends})[:40]:
            page.evaluate(f"location.hash = '#step={step}'")
            page.wait_for_function(f"document.getElementById('table').dataset.step == '{step}'")
            if page.locator("#hide-result").count():
                page.keyboard.press("r")  # the table under the result
            _checked(page, f"{name} {size} step {step}")
        assert errors == []
    finally:
        context.close()


def test_the_page_opens_on_the_first_deal_with_the_starting_scores(browser: Any,
                                                                   tmp_path: Path) -> None:
    """No address: the first round's deal, each seat's score as the round starts (not 0),
    fourteen tiles less than the full wall counted as dealt."""
    page_file = page_of(tmp_path, EXAMPLES / "east-riichi.mjlog")
    context, page, errors = open_page(browser, page_file)
    try:
        shown = page.evaluate("""() => ({
            step: +document.getElementById('table').dataset.step,
            first: JSON.parse(document.getElementById('game-data').textContent).rounds[0][2],
            scores: [...document.querySelectorAll('#table .score')].map(s => +s.dataset.score),
            hands: [...document.querySelectorAll('#table .hand')].map(
                h => h.querySelectorAll('.tile').length),
            centre: document.querySelector('#center .round').textContent})""")
        assert shown["step"] == shown["first"]
        assert shown["scores"] == [25000, 25000, 25000, 25000]
        assert shown["hands"] == [13, 13, 13, 13]
        assert shown["centre"] == "East 1"
        assert errors == []
    finally:
        context.close()


def _findings_agree(page: Any) -> int:
    """Click every finding of the open page; the text's round and turn, the address, the
    highlighted move and the footer must name the same move. Returns how many."""
    items = page.locator("#findings li[data-finding], #notes-list li[data-finding]")
    checked = 0
    for i in range(items.count()):
        item = items.nth(i)
        place = item.locator(".place").text_content() or ""
        m = re.match(r"([ESWN]\d+-\d+)(?:, turn (\d+))?", place)
        if not m:
            continue
        if not item.is_visible():
            page.locator("#notes summary").click()
        step = item.get_attribute("data-step")
        item.click()
        want = f"{m[1]} turn {m[2] or 0}"
        assert page.locator("#position").text_content() == want, place
        assert page.evaluate("location.hash").startswith(f"#step={step}")
        current = page.locator("#moves li.current")
        assert current.get_attribute("data-step") == step
        assert current.get_attribute("data-turn") == (m[2] or "0"), place
        assert page.locator("#table").get_attribute("data-turn") == (m[2] or "0")
        checked += 1
    return checked


@pytest.mark.slow
def test_one_numbering_for_every_finding_of_the_disputes(browser: Any, tmp_path: Path) -> None:
    """Every finding and note of the examples' disputes: one move, named one way."""
    checked = 0
    for record in sorted(EXAMPLES.glob("[0-9]*.mjn")):
        page_file = page_of(tmp_path, record, "--set", "kan_after_riichi=forbidden") \
            if "kan-after-riichi" in record.name else page_of(tmp_path, record)
        context, page, errors = open_page(browser, page_file)
        try:
            checked += _findings_agree(page)
            assert errors == []
        finally:
            context.close()
    assert checked >= 60


@pytest.mark.slow
def test_one_numbering_on_corpus_games(browser: Any, tmp_path: Path) -> None:
    """Each finding and note of corpus games of every platform and format lands on the move
    it names."""
    checked = 0
    for name in SAMPLES:
        context, page, errors = open_page(browser, page_of(tmp_path, sample(name, tmp_path)))
        try:
            checked += _findings_agree(page)
            assert errors == []
        finally:
            context.close()
    assert checked >= 10


def _generated(tmp_path: Path, preset: str, seed: int) -> Path:
    """A whole game of mjlog's random players under ``preset``, as notation (our own
    record: no corpus game is pictured in the docs)."""
    out = tmp_path / f"random-{preset}-{seed}.mjn"
    out.write_text(write("notation", random_game(PRESETS[preset], seed).events), "utf-8")
    return out


@pytest.mark.slow  # seconds: CI runs it, the inner loop not
def test_screenshots_of_the_table(browser: Any, tmp_path: Path) -> None:
    """Pictures for a person to look at (MJLOG_VIEW_SHOTS names their folder): a Tenhou
    game, a game under Mahjong Soul's rules and a three-player game at a desktop's size,
    and a phone; all our own records."""
    shots = Path(os.environ.get("MJLOG_VIEW_SHOTS", tmp_path))
    shots.mkdir(parents=True, exist_ok=True)
    for record, shot, size in ((EXAMPLES / "east-riichi.mjlog", "viewer-tenhou", "desktop"),
                               (_generated(tmp_path, "majsoul", 3), "viewer-majsoul", "desktop"),
                               (_generated(tmp_path, "tenhou-sanma", 5), "viewer-sanma",
                                "desktop"),
                               (EXAMPLES / "east-riichi.mjlog", "viewer-phone", "phone")):
        width, height = SIZES[size]
        context, page, errors = open_page(browser, page_of(tmp_path, record), "#step=60",
                                          viewport={"width": width, "height": height})
        try:
            page.screenshot(path=str(shots / f"{shot}.png"))
            assert errors == []
        finally:
            context.close()
        assert (shots / f"{shot}.png").stat().st_size > 20_000


def test_each_round_can_be_copied_for_the_ai_reviewers(browser: Any, tmp_path: Path) -> None:
    """The page offers, at every round, that round's tenhou.net/6 JSON: the line `mjlog
    convert -t tenhou6 --per-round` writes for it."""
    record = EXAMPLES / "east-riichi.mjlog"
    result = CliRunner().invoke(main, ["convert", str(record), "-t", "tenhou6", "--per-round"])
    assert result.exit_code == 0, result.output
    lines = [line for line in result.output.splitlines() if line.strip()]
    context, page, errors = open_page(browser, page_of(tmp_path, record))
    try:
        rounds = page.evaluate("JSON.parse(document.getElementById('game-data').textContent)"
                               ".rounds.map(r => r[2])")
        assert len(rounds) == len(lines) == 4
        for r, step in enumerate(rounds):
            page.evaluate(f"location.hash = '#step={step + 3}'")
            page.wait_for_function(f"document.getElementById('table').dataset.step == '{step + 3}'")
            assert json.loads(page.locator("#share-text").input_value()) == json.loads(lines[r])
        assert errors == []
    finally:
        context.close()


def test_the_index_of_a_folder_names_players_places_and_real_findings(tmp_path: Path) -> None:
    """A folder's index: per game its players in their places with final scores, its rounds
    and moves, its findings with the notes counted apart."""
    out = tmp_path / "pages"
    result = CliRunner().invoke(main, ["view", str(EXAMPLES), "-o", str(out)])
    assert result.exit_code == 0, result.output
    index = (out / "index.html").read_text("utf-8")
    rows = re.findall(r'<tr class="game" data-findings="(\d+)" data-notes="(\d+)">(.*?)</tr>',
                      index, re.S)
    by_name = {name: (int(f), int(n), row) for f, n, row in rows
               for name in re.findall(r">([^<]*)</a>", row)}
    riichi = next(v for k, v in by_name.items() if k.endswith("east-riichi.mjlog"))
    assert riichi[:2] == (0, 4)  # notes only: no finding counted
    assert "<li>1. Ben <span class=\"score\">27,600</span></li>" in riichi[2]
    assert "<li>4. Chiyo <span class=\"score\">22,400</span></li>" in riichi[2]
    furiten = next(v for k, v in by_name.items() if "18-furiten" in k)
    assert furiten[:2] == (1, 1)
    assert len(rows) == len(list(EXAMPLES.glob("*.mjn"))) + 6


_DRAWN = """() => {
    const text = (sel) => [...document.querySelectorAll(sel)].map(e => e.textContent);
    return [...text('#caption'), ...text('#moves li'), ...text('#rounds li'), ...text('#result h3'),
            ...text('#result td.yaku'), ...text('#result .value'), ...text('#center .middle'),
            ...text('#result th'), ...text('#position'), ...text('.seat .tag .info')];
}"""


def _english_left(strings: list[str], names: list[str]) -> set[str]:
    """The English words in ``strings`` once player names, tile codes and mjlog's own
    name are taken out."""
    left: set[str] = set()
    for s in strings:
        for name in sorted(names, key=len, reverse=True):
            s = s.replace(name, " ")
        s = re.sub(r"\b[0-9]+[mpszf]\b|[ESWN]\d+-\d+|mjlog|[0-9][mpsz](?=[0-9])", " ", s)
        left.update(re.findall(r"[A-Za-z]{2,}", s))
    return left


def _strings_in_japanese(browser: Any, page_file: Path) -> tuple[list[str], set[str]]:
    """Every string the page draws at every step (captions, the move and round lists,
    result screens, the centre, each seat's readiness) in Japanese, and the English
    words left in them."""
    context, page, errors = open_page(browser, page_file)
    try:
        names = page.evaluate("JSON.parse(document.getElementById('game-data').textContent)"
                              ".players")
        steps = page.evaluate("JSON.parse(document.getElementById('game-data').textContent)"
                              ".steps.length")
        drawn: list[str] = []
        for step in range(steps):
            page.evaluate(f"location.hash = '#step={step}'")
            page.wait_for_function(f"document.getElementById('table').dataset.step == '{step}'")
            drawn.extend(page.evaluate(_DRAWN))
        assert errors == []
        return drawn, _english_left(drawn, names)
    finally:
        context.close()


@pytest.mark.slow
def test_the_page_in_japanese_has_no_english_word(browser: Any, tmp_path: Path) -> None:
    """A game with riichi, wins by ron and tsumo and draws, in Japanese: the strings drawn
    (listed) hold no English word in yaku, actions or results."""
    page_file = page_of(tmp_path, EXAMPLES / "east-riichi.mjlog", "--lang", "ja")
    drawn, left = _strings_in_japanese(browser, page_file)
    assert len(drawn) > 1000 and any("立直" in s for s in drawn) and any("ロン" in s for s in drawn)
    assert left == set(), sorted(left)


@pytest.mark.slow
@pytest.mark.parametrize("name", ["mahjong soul", "tenhou-xml", "tenhou-xml three-player"])
def test_corpus_pages_in_japanese_have_no_english_word(browser: Any, tmp_path: Path,
                                                       name: str) -> None:
    """The same over corpus games: calls, kans, kita, every yaku of their wins."""
    page_file = page_of(tmp_path, sample(name, tmp_path), "--lang", "ja")
    _, left = _strings_in_japanese(browser, page_file)
    assert left == set(), sorted(left)


def test_a_win_whose_record_states_no_points_shows_none(browser: Any, tmp_path: Path) -> None:
    """Mortal's mjai writes a win's payments but not its points: the result screen gives
    no "0 points" and the round's summary names what the winner received."""
    source = tmp_path / "east-ron.mjson"
    result = CliRunner().invoke(main, ["convert", str(EXAMPLES / "east-ron.mjlog"), "-t", "mjai",
                                       "-o", str(source)])
    assert result.exit_code == 0, result.output
    page_file = page_of(tmp_path, source)
    data = json.loads(re.search(r'<script id="game-data" type="application/json">(.*?)</script>',
                                page_file.read_text("utf-8"), re.S).group(1))  # type: ignore[union-attr]
    win = next(i for i, st in enumerate(data["steps"]) if st.get("res", {}).get("kind") == "win")
    res = data["steps"][win]["res"]
    assert res["points"] == 0 and res["deltas"][res["winner"]] > 0
    context, page, errors = open_page(browser, page_file, f"#step={win}")
    try:
        text = page.evaluate("() => document.body.innerText")
        assert not re.search(r"(?<![\d,])0 points| ron 0 | tsumo 0\b", text), text
        assert f"{res['deltas'][res['winner']]:,}" in text
        assert errors == []
    finally:
        context.close()

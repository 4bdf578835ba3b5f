"""The replay viewer: its data against the replay, and its pages in headless Chromium.

The data tests need no browser: the table rebuilt from a game's steps (each
round's first step, later values written over it) equals the engine's table
after the same event, for whole corpus games. The page tests open pages
mjlog wrote from real records of every format it reads, offline, and read
what they show from the DOM: stepping through a round with the keyboard, the
hands, rivers and scores equal ``mjlog replay --turn N`` at the same move.
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from mjlog.cli import main
from mjlog.families import random_game
from mjlog.formats import read_path, write
from mjlog.replay.engine import Engine
from mjlog.ruleset import PRESETS
from mjlog.view.model import ONE_STEP, codes, game_view

from .conftest import CORPUS, EXAMPLES, corpus_paths

SAMPLES = {
    "tenhou-xml": "tenhou-xml/Jim137-Tenhou-Paifu-Logger/test/test_data/"
                  "2022060222gm-0001-0000-a87679bc&tw=3.mjlog",
    "tenhou-xml three-player": "tenhou-xml/dnovikoff-tenhou/log/test_data/sanma2.xml",
    "tenhou.net/6": "majsoul/MahjongPantheon-pantheon/Mimir/tests/helpers/onlineLog/testdata/"
                    "format6/tensoul_usual.json",
    "tenhou.net/6 three-player kita": "tenhou-json/hidacow-mjai-reviewer3p/convlog/tests/"
                                      "testdata/double_nukidora.json",
    "mjai": "mjai/Apricot-S-mjai-manue-go/docs/2025-08-23-085608.mjson",
    "mahjong soul": "majsoul-raw/Fat-pig-Cui-misc-code/paipu/"
                    "paipu_210815-6da08e40-2605-42fb-a5e3-f8aa5940362a.json",
    "riichi city": "other/0num4-paifu-playground-riichicity/4ma_gin_han_sample.json",
    "m-league": "other/Preserver6166-MleaguePaifuParser/src/main/resources/"
                "L001_S014_0012_02A.umd.json",
    "kobalab": "other/zhengye1-paipuconverter/paipu/セガサミーフェニックスNo1_決定戦.json",
}
OURS = {
    "taiwanese, generated": Path("random-taiwan16-7.mjn"),
    "notation, partial": EXAMPLES / "11-discards-only.mjn",
    "canonical json lines": EXAMPLES / "east-riichi.jsonl",
}


def _sample(name: str, tmp_path: Path) -> Path:
    if name.endswith("generated"):  # a whole Taiwanese game of the random players
        out = tmp_path / OURS[name]
        out.write_text(write("notation", random_game(PRESETS["taiwan16"], 7).events),
                       encoding="utf-8")
        return out
    if name in OURS:
        return OURS[name]
    corpus_paths("tenhou-xml")  # skips, saying why, without the corpus
    return CORPUS / SAMPLES[name]


# ---------------------------------------------------------------- the data


def _tables(steps: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The table at every step, rebuilt as the page rebuilds it."""
    out: list[dict[str, Any]] = []
    for st in steps:
        base = {} if st.get("key") or not out else dict(out[-1])
        base.update({k: v for k, v in st.items() if k not in ONE_STEP})
        out.append(base)
    return out


@pytest.mark.parametrize("name", [*SAMPLES, *OURS])
def test_the_steps_rebuild_the_engine_table_after_every_event(name: str, tmp_path: Path
                                                             ) -> None:
    rec = read_path(_sample(name, tmp_path))[0]
    data = game_view(rec)
    engine = Engine(rec.src)
    red = rec.events[0].ruleset.red_fives  # type: ignore[union-attr]
    checked = 0
    for table, step in zip(_tables(data["steps"]), data["steps"], strict=True):
        while engine.index < step["e"]:
            engine.apply(rec.events[engine.index + 1], engine.index + 1)
        s = engine.state
        assert table["s"] == list(s.scores) and table["t"] == s.turn
        for p, ps in enumerate(s.players):
            shown = table[f"h{p}"].replace("|", "")
            assert sorted(re.findall("..", shown)) == sorted(
                re.findall("..", codes(ps.concealed, red) + "??" * ps.unknown)), (name, step)
            assert re.sub(r"['*^]", "", table[f"v{p}"]) == codes(
                [d.tile for d in ps.river], red, sort=False)
            assert len(table[f"m{p}"]) == len(ps.melds)
        checked += 1
    assert checked == len(data["steps"]) > 5


def test_findings_point_at_their_moves() -> None:
    rec = read_path(EXAMPLES / "06-kan-after-riichi.mjn")[0]
    data = game_view(rec, options=(("kan_after_riichi", "forbidden"),))
    found = [f for f in data["findings"] if f["code"] == "kan-after-riichi"]
    assert len(found) == 1
    step = data["steps"][found[0]["step"]]
    assert step["c"].startswith("Ben declares a closed kan") and found[0]["seat"] == 1
    assert found[0]["consequence"].startswith("chombo") and found[0]["evidence"]


def test_a_win_step_carries_its_result_screen_and_the_end_its_standings() -> None:
    data = game_view(read_path(EXAMPLES / "10-riichi-ura.mjn")[0])
    wins = [s["res"] for s in data["steps"] if s.get("res", {}).get("kind") == "win"]
    assert wins and wins[0]["yaku"] and wins[0]["points"] > 0 and sum(wins[0]["deltas"]) >= 0
    full = game_view(read_path(EXAMPLES / "east-riichi.jsonl")[0])
    end = [s["res"] for s in full["steps"] if s.get("res", {}).get("kind") == "end"]
    assert len(end) == 1 and [row[0] for row in end[0]["rows"]] == [1, 2, 3, 4]


def test_a_taiwanese_hand_shows_its_waits_on_five_sets() -> None:
    data = game_view(read_path(EXAMPLES / "13-taiwan-guo-shui.mjn")[0])
    tables = _tables(data["steps"])
    ready = [t[f"a{p}"] for t in tables for p in range(4) if t[f"a{p}"][:1] == [0]]
    assert ready and all(a[1] for a in ready)  # ready hands name their waits
    assert any("過水" in a[2] for t in tables for p in range(4) if (a := t[f"a{p}"])), \
        "the passed win of this dispute shows as 過水"


# ---------------------------------------------------------------- the command


def test_view_writes_one_page_or_a_folder_with_an_index(tmp_path: Path) -> None:
    runner = CliRunner()
    one = tmp_path / "one.html"
    result = runner.invoke(main, ["view", str(EXAMPLES / "03-wrong-fu.mjn"), "-o", str(one)])
    assert result.exit_code == 0, result.output
    assert one.read_text(encoding="utf-8").startswith("<!DOCTYPE html>")
    folder = tmp_path / "pages"
    result = runner.invoke(main, ["view", str(EXAMPLES), "-o", str(folder)])
    assert result.exit_code == 0, result.output
    pages = sorted(p.name for p in folder.glob("*.html"))
    assert "index.html" in pages and "03-wrong-fu.html" in pages and len(pages) > 20
    assert 'href="03-wrong-fu.html"' in (folder / "index.html").read_text(encoding="utf-8")


def test_view_of_an_unreadable_record_says_why(tmp_path: Path) -> None:
    bad = tmp_path / "bad.mjn"
    bad.write_text("E1-0 dora=9p\nhands 123m ? ? ?\nnonsense here\n", encoding="utf-8")
    result = CliRunner().invoke(main, ["view", str(bad), "-o", str(tmp_path / "b.html")])
    assert result.exit_code == 2 and "bad.mjn" in result.output
    assert "Traceback" not in result.output


# ---------------------------------------------------------------- in the browser


def _page(tmp_path: Path, record: Path, *args: str) -> Path:
    out = tmp_path / (re.sub(r"\W+", "-", record.stem) + ".html")
    result = CliRunner().invoke(main, ["view", str(record), "-o", str(out), *args])
    assert result.exit_code == 0, result.output
    return out


def _open(browser: Any, page_file: Path, fragment: str = "") -> tuple[Any, Any, list[str]]:
    context = browser.new_context(offline=True, viewport={"width": 1400, "height": 1000})
    page = context.new_page()
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("request", lambda r: None if r.url.startswith("file://") else errors.append(r.url))
    page.goto(page_file.as_uri() + fragment, wait_until="load")
    return context, page, errors


_SEAT_LINE = re.compile(r"^seat (\d+) [ESWN] .*  (-?\d+)(  \[.*\])?$")


def _replayed(record: Path, label: str, turn: int) -> dict[int, dict[str, Any]]:
    """What ``mjlog replay --round LABEL --turn N`` prints of each seat."""
    result = CliRunner().invoke(main, ["replay", str(record), "--round", label,
                                       "--turn", str(turn)])
    assert result.exit_code == 0, result.output
    seats: dict[int, dict[str, Any]] = {}
    p = -1
    for line in result.output.splitlines():
        if m := _SEAT_LINE.match(line):
            p = int(m[1])
            seats[p] = {"score": int(m[2])}
        elif line.startswith("  hand:"):
            text, _, unknown = line.split(":", 1)[1].strip().partition(" and ")
            tiles = _expand(text) + ["??"] * int(unknown.split()[0] if unknown else 0)
            seats[p]["hand"] = sorted(tiles)
        elif line.startswith("  river:"):
            seats[p]["river"] = [_river_token(t) for t in line.split(":", 1)[1].split()
                                 if t != "-"]
    return seats


def _expand(mpsz: str) -> list[str]:
    out, digits = [], ""
    for ch in "" if mpsz == "-" else mpsz:
        if ch.isdigit():
            digits += ch
        else:
            out += [d + ch for d in digits]
            digits = ""
    return out


def _river_token(token: str) -> tuple[str, bool, bool, bool]:
    called = token.startswith("(")
    token = token.strip("()")
    return token[:2], "'" in token, "*" in token, called


def _dom_river(text: str) -> list[tuple[str, bool, bool, bool]]:
    return [(t[:2], "'" in t, "*" in t, "^" in t) for t in re.findall(r"..['*^]*", text)]


def _shown(page: Any) -> dict[str, Any]:
    shown: dict[str, Any] = page.evaluate("""() => {
        const t = document.getElementById('table');
        const seats = {};
        for (const s of t.querySelectorAll('.seat')) seats[s.dataset.seat] = {
            hand: s.querySelector('.hand').dataset.tiles,
            river: s.querySelector('.river').dataset.river,
            score: +s.querySelector('.score').dataset.score};
        return {step: +t.dataset.step, turn: +t.dataset.turn, round: t.dataset.round, seats};
    }""")
    return shown


def _step_through_a_round(page: Any, record: Path, data: dict[str, Any]) -> int:
    """Go to a round with the keyboard and step through it; compare sampled moves with the
    text replay. Returns how many moves were compared."""
    rounds = data["rounds"]
    ends = [r[2] for r in rounds[1:]] + [len(data["steps"])]
    target = max(range(len(rounds)), key=lambda r: min(ends[r], 400) - rounds[r][2])  # longest
    page.keyboard.press("Home")
    for _ in range(target + 1):
        page.keyboard.press("PageDown")
    label, compared, last_turn = rounds[target][0], 0, -1
    every = 4 if ends[target] - rounds[target][2] > 30 else 1  # a short round: every move
    while True:
        seen = _shown(page)
        if seen["round"] != label:
            break
        if seen["turn"] != last_turn and seen["turn"] % every == 1 % every:
            want = _replayed(record, label, seen["turn"])
            for p, s in want.items():
                dom = seen["seats"][str(p)]
                assert sorted(re.findall("..", dom["hand"])) == s["hand"], (record, seen, p)
                assert _dom_river(dom["river"]) == s["river"], (record, seen["turn"], p)
                assert dom["score"] == s["score"]
            compared += 1
        last_turn = seen["turn"]
        before = seen["step"]
        page.keyboard.press("ArrowRight")
        if _shown(page)["step"] == before:  # the game's end
            break
    return compared


_INNER_LOOP = ("tenhou-xml", "taiwanese, generated")
"""The formats whose pages are stepped through in ``pytest -m "not slow"``; CI steps all."""


@pytest.mark.parametrize("name", [n if n in _INNER_LOOP else pytest.param(n, marks=pytest.mark.slow)
                                  for n in (*SAMPLES, *OURS)])
def test_stepping_through_a_round_shows_what_the_text_replay_shows(
        browser: Any, tmp_path: Path, name: str) -> None:
    record = _sample(name, tmp_path)
    page_file = _page(tmp_path, record)
    data = game_view(read_path(record)[0])
    context, page, errors = _open(browser, page_file)
    try:
        assert page.locator(".seat").count() in (3, 4)
        assert _step_through_a_round(page, record, data) >= 2
        assert errors == []
    finally:
        context.close()


def test_each_finding_of_the_disputes_lands_on_its_move(browser: Any, tmp_path: Path) -> None:
    folder = tmp_path / "pages"
    result = CliRunner().invoke(main, ["view", str(EXAMPLES), "-o", str(folder)])
    assert result.exit_code == 0, result.output
    clicked = 0
    for page_file in sorted(folder.glob("[0-9]*.html")):
        context, page, errors = _open(browser, page_file)
        try:
            items = page.locator("#findings li[data-finding]")
            for i in range(items.count()):
                want = int(items.nth(i).get_attribute("data-step"))
                items.nth(i).click()
                assert _shown(page)["step"] == want
                assert page.evaluate("location.hash").startswith(f"#step={want}")
                assert page.locator("#moves li.current").get_attribute("data-step") == str(want)
                clicked += 1
            assert errors == [], page_file
        finally:
            context.close()
    assert clicked >= 20


def test_the_fragment_reopens_the_same_move_from_one_seat(browser: Any, tmp_path: Path) -> None:
    page_file = _page(tmp_path, EXAMPLES / "18-furiten-riichi-ron.mjn")
    context, page, errors = _open(browser, page_file, "#step=9&seat=2")
    try:
        seen = _shown(page)
        assert seen["step"] == 9 and page.locator("#seat").input_value() == "2"
        opened = page.eval_on_selector_all(".hand", "hs => hs.map(h => h.dataset.open)")
        assert sorted(opened) == ["0", "0", "0", "1"]
        assert page.locator('.seat[data-seat="2"] .hand').get_attribute("data-open") == "1"
        page.keyboard.press("0")  # every hand open again
        assert page.evaluate("location.hash") == "#step=9"
        assert errors == []
    finally:
        context.close()


def test_screenshots_of_a_table_a_result_and_a_finding(browser: Any, tmp_path: Path) -> None:
    """Pictures for a person to look at (MJLOG_VIEW_SHOTS names their folder)."""
    shots = Path(os.environ.get("MJLOG_VIEW_SHOTS", tmp_path))
    shots.mkdir(parents=True, exist_ok=True)
    corpus_paths("tenhou-xml")
    game = _page(tmp_path, CORPUS / SAMPLES["tenhou-xml"])
    dispute = _page(tmp_path, EXAMPLES / "06-kan-after-riichi.mjn", "--set",
                    "kan_after_riichi=forbidden")
    context, page, errors = _open(browser, game, "#step=60")
    try:
        page.screenshot(path=str(shots / "viewer-table.png"))
        win = page.evaluate("""() => JSON.parse(document.getElementById('game-data').textContent)
            .steps.findIndex(s => s.res && s.res.kind === 'win')""")
        page.evaluate(f"location.hash = '#step={win}'")
        page.wait_for_selector("#result[data-kind=win]")
        page.screenshot(path=str(shots / "viewer-result.png"))
    finally:
        context.close()
    context, page, errors2 = _open(browser, dispute)
    try:
        page.locator("#findings li[data-finding]").first.click()
        page.screenshot(path=str(shots / "viewer-finding.png"))
    finally:
        context.close()
    assert errors == errors2 == []
    for name in ("viewer-table", "viewer-result", "viewer-finding"):
        assert (shots / f"{name}.png").stat().st_size > 20_000


@pytest.mark.slow
def test_every_25th_corpus_game_loads_without_a_console_error(
        browser: Any, tmp_path: Path) -> None:
    from mjlog.formats import expand
    from mjlog.view.page import viewer_page

    corpus_paths("tenhou-xml")
    items = [p for p, _ in expand([CORPUS])]
    written = []
    for k, path in enumerate(items[::25]):
        try:
            records = read_path(path)
        except Exception:
            continue
        html = viewer_page(game_view(records[0]))
        assert len(html.encode()) < 400_000, path
        written.append(tmp_path / f"{k}.html")
        written[-1].write_text(html, encoding="utf-8")
    assert len(written) > 90
    context = browser.new_context(offline=True)
    page = context.new_page()
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    try:
        for f in written:
            page.goto(f.as_uri(), wait_until="load")
            assert page.locator(".seat").count() in (3, 4), f
            page.keyboard.press("End")
        assert errors == []
    finally:
        context.close()


# ---------------------------------------------------------------- the referee's page


def test_the_referees_page_needs_a_file_to_write(tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["audit", str(EXAMPLES), "--format", "html"])
    assert result.exit_code == 2 and "-o REPORT.html" in result.output


def test_the_referees_page_links_each_finding_to_its_move(browser: Any, tmp_path: Path) -> None:
    out = tmp_path / "report.html"
    result = CliRunner().invoke(main, ["audit", str(EXAMPLES), "--format", "html", "-o", str(out),
                                       "--set", "kan_after_riichi=forbidden"])
    assert result.exit_code == 1, result.output  # the disputes have findings
    pages = sorted((tmp_path / "report-games").glob("*.html"))
    assert len(pages) >= 10 and "06-kan-after-riichi" in " ".join(p.name for p in pages)
    context, page, errors = _open(browser, out)
    try:
        findings = page.eval_on_selector_all(".finding[data-step]", """fs => fs.map(f => ({
            step: f.dataset.step, href: f.querySelector('a.move').getAttribute('href'),
            code: f.querySelector('.code').textContent}))""")
        assert len(findings) >= 20 and {"kan-after-riichi", "furiten-ron", "win-fu"} <= {
            f["code"] for f in findings}
        assert all(f["href"].endswith(f"#step={f['step']}") for f in findings)
        assert page.locator(".picture .pseat").count() >= 4 * 10  # a table per move shown
        assert page.locator(".picture svg").count() > 200
        assert page.locator("text=Who owes what").count() >= 5
        kan = next(f for f in findings if f["code"] == "kan-after-riichi")
        page.click(f'a.move[href="{kan["href"]}"]')
        page.wait_for_load_state("load")
        assert _shown(page)["step"] == int(kan["step"])
        assert "closed kan" in page.locator("#caption").text_content()
        assert errors == []
    finally:
        context.close()

"""The replay viewer's and the referee's pages in headless Chromium: findings land on
their moves, the address reopens a move, screenshots, and a page of every 25th corpus
game loads without a console error."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from mjlog.cli import main
from mjlog.formats import expand, read_path
from mjlog.reports.view.model import game_view
from mjlog.reports.view.page import viewer_page

from .conftest import CORPUS, EXAMPLES, corpus_paths
from .viewer_pages import open_page, page_of, shown


def test_each_finding_of_the_disputes_lands_on_its_move(browser: Any, tmp_path: Path) -> None:
    folder = tmp_path / "pages"
    result = CliRunner().invoke(main, ["view", str(EXAMPLES), "-o", str(folder)])
    assert result.exit_code == 0, result.output
    clicked = 0
    pages = sorted(folder.glob("[0-9]*.html"))
    context, page, errors = open_page(browser, pages[0])
    try:
        for page_file in pages:
            page.goto(page_file.as_uri(), wait_until="load")
            items = page.locator("#findings li[data-finding]")
            for i in range(items.count()):
                want = int(items.nth(i).get_attribute("data-step"))
                items.nth(i).click()
                assert shown(page)["step"] == want
                assert page.evaluate("location.hash").startswith(f"#step={want}")
                assert page.locator("#moves li.current").get_attribute("data-step") == str(want)
                clicked += 1
        assert errors == []
    finally:
        context.close()
    assert clicked >= 20


def test_the_fragment_reopens_the_same_move_from_one_seat(browser: Any, tmp_path: Path) -> None:
    page_file = page_of(tmp_path, EXAMPLES / "18-furiten-riichi-ron.mjn")
    context, page, errors = open_page(browser, page_file, "#step=9&seat=2")
    try:
        seen = shown(page)
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
    game = page_of(tmp_path, EXAMPLES / "east-riichi.mjlog")  # our own game in the docs
    dispute = page_of(tmp_path, EXAMPLES / "06-kan-after-riichi.mjn", "--set",
                    "kan_after_riichi=forbidden")
    context, page, errors = open_page(browser, game, "#step=60")
    try:
        page.screenshot(path=str(tmp_path / "viewer-table.png"))  # docs: test_viewer_table
        win = page.evaluate("""() => JSON.parse(document.getElementById('game-data').textContent)
            .steps.findIndex(s => s.res && s.res.kind === 'win')""")
        page.evaluate(f"location.hash = '#step={win}'")
        page.wait_for_selector("#result[data-kind=win]")
        page.screenshot(path=str(shots / "viewer-result.png"))
    finally:
        context.close()
    context, page, errors2 = open_page(browser, dispute)
    try:
        page.locator("#findings li[data-finding]").first.click()
        page.screenshot(path=str(shots / "viewer-finding.png"))
    finally:
        context.close()
    assert errors == errors2 == []
    for shot in (tmp_path / "viewer-table.png", shots / "viewer-result.png",
                 shots / "viewer-finding.png"):
        assert shot.stat().st_size > 20_000


@pytest.mark.slow
def test_every_25th_corpus_game_loads_without_a_console_error(
        browser: Any, tmp_path: Path) -> None:
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


def test_the_referees_page_links_each_finding_to_its_move(browser: Any, tmp_path: Path) -> None:
    out = tmp_path / "report.html"
    result = CliRunner().invoke(main, ["audit", str(EXAMPLES), "--format", "html", "-o", str(out),
                                       "--set", "kan_after_riichi=forbidden"])
    assert result.exit_code == 1, result.output  # the disputes have findings
    pages = sorted((tmp_path / "report-games").glob("*.html"))
    assert len(pages) >= 10 and "06-kan-after-riichi" in " ".join(p.name for p in pages)
    context, page, errors = open_page(browser, out)
    try:
        findings = page.eval_on_selector_all(".finding[data-step]", """fs => fs.map(f => ({
            step: f.dataset.step, href: f.querySelector('a.move').getAttribute('href'),
            code: f.querySelector('.code').textContent}))""")
        # a result's mismatches (win-fu, win-points, win-deltas …) are one card
        assert len(findings) >= 12 and {"kan-after-riichi", "furiten-ron", "win-fu"} <= {
            f["code"] for f in findings}
        assert all(f["href"].endswith(f"#step={f['step']}") for f in findings)
        assert page.locator(".picture .pseat").count() >= 4 * 10  # a table per move shown
        assert page.locator(".picture svg").count() > 200
        assert page.locator("text=Who owes what").count() >= 5
        kan = next(f for f in findings if f["code"] == "kan-after-riichi")
        page.click(f'a.move[href="{kan["href"]}"]')
        page.wait_for_load_state("load")
        assert shown(page)["step"] == int(kan["step"])
        assert "closed kan" in page.locator("#caption").text_content()
        assert errors == []
    finally:
        context.close()

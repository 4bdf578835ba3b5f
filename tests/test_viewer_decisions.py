"""mjlog's decision facts in the replay viewer (issue #51, items 2 and 3): the page data
carries the observer's facts of every discard, compactly and within the page's size budget;
the "Efficiency & safety" layer (key F) draws them under the tiles of the hand to act, a
deal-in's result says how far from ready its discarder was and the tile's class; the move
list's filters find the discards that were not the most accepting and, beside an AI
review, the moves where the player, the AI and the most accepting choice all differ.

Every expectation here is read from :func:`mjlog.families.riichi.decisions.decisions` (the observer
run
on its own replay) and decoded from the page data by this file's own reader, never from
the viewer's code.
"""

from __future__ import annotations

import base64
import json
import zlib
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from mjlog.cli import main
from mjlog.core.record import GameRecord
from mjlog.core.review import Review
from mjlog.core.tiles import kind_str
from mjlog.families.riichi.decisions import DecisionFacts, DiscardDecision, decisions
from mjlog.families.riichi.decisions.safety import CLASSES
from mjlog.formats import read_bytes, read_path
from mjlog.reports.view.model import game_view
from mjlog.reports.view.page import KINDS_LEFT_OUT, packed, viewer_page, without_kinds

from .conftest import CORPUS, EXAMPLES, corpus_paths
from .test_review_report import _mjai_log, _report
from .viewer_pages import OURS, SAMPLES, open_page

READY = "document.body.dataset.facts === 'ready'"
"""The page has unpacked its facts."""
BUDGET = 400_000
"""The size a corpus game's page stays under (as ``test_viewer_pages`` asserts)."""
HANCHAN = ("tenhou-xml/mjx-project-mjx/test/resources/mjlog/"
           "2019062300gm-00a9-0000-4224185c&tw=3.mjlog")
"""A 13-round hanchan, the largest page of every 25th corpus file."""
LONG = "tenhou-xml/thewaxmango-mahjong-hands/log-libraries/logs/2022010900gm-00a9-0000-149099a5.txt"
"""A 17-round game, whose page with every fact would be 427 KB."""


def _record(rel: str) -> GameRecord:
    corpus_paths("tenhou-xml")  # skips, saying why, without the corpus
    return read_path(CORPUS / rel)[0]


def _kinds(mask: int | str) -> list[int]:
    """The kinds of a 34-bit mask (an int, or hexadecimal text)."""
    m = int(mask, 16) if isinstance(mask, str) else mask
    return [k for k in range(34) if m >> k & 1]


def _decode(facts: dict[str, Any], row: list[Any], steps: list[dict[str, Any]]) -> dict[str, Any]:
    """One decision of the page data written back as ``DiscardDecision.to_json`` writes it
    (the encoding of ``mjlog/reports/view/facts.py``'s docstring)."""
    row = row + [[], None, 0][len(row) - 8:] if len(row) < 11 else row
    step, seat, taken, flags, held, text, best, loss, threats, deal_in, nc = row
    kinds = _kinds(held)
    options = None
    if text is not None:
        options = []
        for k, part in zip(kinds, text.split(" "), strict=True):
            forbidden = part.endswith("!")
            head, mask = part.rstrip("!").split(".")
            options.append({"tile": kind_str(k), "shanten": int(head[0], 36),
                            "ukeire": [kind_str(x) for x in _kinds(mask)],
                            "count": int(head[1:]) if head[1:] else None,
                            "best": best is not None and k in _kinds(best),
                            **({"forbidden": "kuikae"} if forbidden else {})})
    shanten = next((o["shanten"] for o in options or () if o["tile"] == kind_str(taken)), None)
    return {
        "event": steps[step]["e"], "seat": seat, "kind": "discard", "taken": kind_str(taken),
        "riichi": bool(flags & 2), "tsumogiri": bool(flags & 4), "forced": bool(flags & 1),
        "shanten": shanten,
        "options": options, "best": None if best is None else [kind_str(k) for k in _kinds(best)],
        "loss": None if loss is None else {"shanten": loss[0], "ukeire": loss[1]},
        "threats": None if threats is None else {
            str(q): {kind_str(k): CLASSES[int(c)] for k, c in zip(kinds, cls, strict=True)}
            for q, cls in threats},
        "deal_in": None if deal_in is None else {
            "winners": [w for w, _, _ in deal_in[1]], "shanten": deal_in[0],
            "class": {str(w): None if c < 0 else CLASSES[c] for w, c, _ in deal_in[1]},
            "riichi": {str(w): bool(r) for w, _, r in deal_in[1]}},
        "not_computed": {f: facts["reasons"][r] for f, r in (nc or [])},
    }


def _comparable(d: DiscardDecision) -> dict[str, Any]:
    """The observer's JSON of ``d`` as the page can hold it: no round (the step's), the
    most accepting kinds in kind order, whether drawn and thrown as a yes or no."""
    out = d.to_json()
    del out["round"]
    out["tsumogiri"] = bool(out["tsumogiri"])
    if d.best is not None:
        out["best"] = [kind_str(k) for k in sorted(d.best)]
    return out


@pytest.mark.parametrize("game", ["east", "hanchan"])
def test_the_page_data_holds_the_observers_facts(game: str) -> None:
    """Every discard decision of ``decisions(record)`` is in the page data at the step of
    its event, and reads back to the same facts; the facts come from the page's own replay
    (no error), and every win on a discard points at its decision."""
    rec = _record(SAMPLES["tenhou-xml"] if game == "east" else HANCHAN)
    data = game_view(rec)
    facts = data["facts"]
    assert "error" not in facts, facts
    want = [d for d in decisions(rec) if isinstance(d, DiscardDecision)]
    assert len(facts["d"]) == len(want) > 100
    steps = data["steps"]
    for row, d in zip(facts["d"], want, strict=True):
        assert _decode(facts, row, steps) == _comparable(d), (d.round, d.event)
    dealt = [i for i, d in enumerate(want) if d.deal_in]
    assert dealt and sorted(set(facts["deal_ins"].values())) == dealt
    for win, i in facts["deal_ins"].items():
        res = steps[int(win)]["res"]
        assert res["kind"] == "win" and res["from"] == want[i].seat


def test_a_hanchan_page_stays_within_its_budget() -> None:
    """The largest page of every 25th corpus file, facts and all, stays under the budget:
    the facts travel packed, at less than 60 % of their JSON's size and a quarter of the
    page's, and unpack to the page data's facts."""
    data = game_view(_record(HANCHAN))
    html = viewer_page(data)
    facts = json.dumps(data["facts"], ensure_ascii=False, separators=(",", ":")).encode()
    carried = packed(data["facts"])
    assert f'id="facts-data" type="application/octet-stream">{carried}<' in html
    assert '"facts"' not in html.split('id="game-data"')[1].split("</script>")[0]
    assert json.loads(zlib.decompress(base64.b64decode(carried))) == json.loads(facts)
    page = len(html.encode())
    assert page < BUDGET and len(carried) < 0.6 * len(facts) and len(carried) < page / 4, (
        page, len(facts), len(carried))


def test_a_page_past_its_budget_leaves_out_the_ukeire_kinds() -> None:
    """A 17-round corpus game whose page would pass the budget with every fact carries
    its facts without the ukeire kinds (the counts, shanten, marks and classes stay) and
    says why; it then fits."""
    corpus_paths("tenhou-xml")
    rec = read_path(CORPUS / LONG)[0]
    data = game_view(rec)
    whole = packed(data["facts"])
    html = viewer_page(data)
    assert len(html.encode()) - len(packed(without_kinds(data["facts"]))) + len(whole) > BUDGET
    assert len(html.encode()) < BUDGET
    carried = html.split('id="facts-data" type="application/octet-stream">')[1].split("<")[0]
    facts = json.loads(zlib.decompress(base64.b64decode(carried)))
    assert facts["kinds"] == KINDS_LEFT_OUT
    for row, full in zip(facts["d"], data["facts"]["d"], strict=True):
        assert row[:5] == full[:5] and row[6:] == full[6:]
        if full[5] is not None:
            assert row[5] == " ".join(o.split(".")[0] + "!" * o.endswith("!")
                                      for o in full[5].split(" "))


def _loss_steps(data: dict[str, Any], rec: GameRecord) -> list[int]:
    step_of = {st["e"]: i for i, st in enumerate(data["steps"])}
    return sorted(step_of[d.event] for d in decisions(rec) if isinstance(d, DiscardDecision)
                  and d.loss is not None and (d.loss[0] > 0 or d.loss[1] > 0))


def _hand_facts(page: Any, seat: int) -> list[dict[str, Any]]:
    """The facts drawn under the tiles of ``seat``'s hand (its drawn tile last)."""
    found: list[dict[str, Any]] = page.eval_on_selector_all(
        f'.seat[data-seat="{seat}"] .ft', """els => els.map(e => {
            const n = e.querySelector('[data-count]'), s = e.querySelector('[data-shanten]');
            return {kind: +e.dataset.kind, taken: e.classList.contains('f-taken'),
              best: e.classList.contains('f-best'), count: n ? n.dataset.count : null,
              shanten: s ? +s.dataset.shanten : null,
              classes: [...e.querySelectorAll('.f-c')].map(
                c => [+c.dataset.threat, c.dataset.class])};
        })""")
    return found


def _check_hand(shown: list[dict[str, Any]], d: DiscardDecision) -> None:
    """The numbers and marks under the tiles are the decision's."""
    options = {o.tile: o for o in d.options or ()}
    assert shown and {s["kind"] for s in shown} == set(options), d.event
    for s in shown:
        o = options[s["kind"]]
        assert s["shanten"] == o.shanten, (d.event, s)
        assert s["count"] == ("" if o.copies is None else str(o.copies)), (d.event, s)
        assert s["best"] == (o.tile in (d.best or ())), (d.event, s)
        want = sorted((q, by[o.tile]) for q, by in (d.threats or {}).items())
        assert sorted((q, c) for q, c in s["classes"]) == want, (d.event, s)
    taken = [s["kind"] for s in shown if s["taken"]]
    assert taken == [d.tile], (d.event, taken)


@pytest.mark.slow
def test_the_layer_draws_the_observers_numbers_under_the_tiles(browser: Any,
                                                               tmp_path: Path) -> None:
    """With the layer on (key F), at every 10th decision the numbers under the tiles of the
    hand to act are the observer's, the tile thrown and the most accepting ones are marked;
    at each deal-in the result names the discarder's shanten and the tile's class; the
    page has no console error."""
    rec = _record(SAMPLES["tenhou-xml"])
    data = game_view(rec)
    want = [d for d in decisions(rec) if isinstance(d, DiscardDecision)]
    step_of = {st["e"]: i for i, st in enumerate(data["steps"])}
    page_file = tmp_path / "game.html"
    page_file.write_text(viewer_page(data), encoding="utf-8")
    context, page, errors = open_page(browser, page_file, "#step=0")
    try:
        page.wait_for_function(READY)
        page.keyboard.press("f")
        assert page.locator("#facts-toggle").get_attribute("aria-pressed") == "true"
        checked = 0
        for d in want[::10]:
            page.evaluate(f"location.hash = '#step={step_of[d.event] - 1}&facts=1'")
            page.wait_for_function(f"document.getElementById('table').dataset.step == "
                                   f"'{step_of[d.event] - 1}'")
            _check_hand(_hand_facts(page, d.seat), d)
            checked += 1
        assert checked >= 15
        threatened = next(d for d in want if d.threats)
        page.evaluate(f"location.hash = '#step={step_of[threatened.event] - 1}&facts=1'")
        page.wait_for_function(f"document.getElementById('table').dataset.step == "
                               f"'{step_of[threatened.event] - 1}'")
        _check_hand(_hand_facts(page, threatened.seat), threatened)
        for win, i in data["facts"]["deal_ins"].items():
            d = want[i]
            winner = data["steps"][int(win)]["res"]["winner"]
            assert d.deal_in is not None
            page.evaluate(f"location.hash = '#step={win}&facts=1'")
            shown = page.locator("#result .deal-in")
            assert shown.get_attribute("data-class") == (d.deal_in.classes[winner] or "")
            assert shown.get_attribute("data-shanten") == str(d.deal_in.shanten)
            text = shown.inner_text()
            assert ("was ready" in text) == (d.deal_in.shanten == 0), text
        page.select_option("#lang", "ja")
        assert "受け入れ" in page.locator("#facts").inner_text()
        page.keyboard.press("f")
        assert page.locator(".ft").count() == 0 and page.locator("#facts").is_hidden()
        assert errors == []
    finally:
        context.close()


def test_a_failure_of_the_facts_leaves_the_page_whole(monkeypatch: pytest.MonkeyPatch) -> None:
    """When the facts observer fails (mjlog's own bug), the page data says so under
    ``facts`` and its steps are those of a page whose facts did not fail."""
    rec = read_path(EXAMPLES / "east-riichi.jsonl")[0]
    whole = game_view(rec)
    assert "error" not in whole["facts"] and whole["facts"]["d"]

    def broken(self: DecisionFacts, ev: Any) -> None:
        raise RuntimeError("planted")

    monkeypatch.setattr(DecisionFacts, "before_discard", broken)
    data = game_view(rec)
    assert "planted" in data["facts"]["error"] and "at event" in data["facts"]["error"]
    assert data["steps"] == whole["steps"] and data["findings"] == whole["findings"]


@pytest.mark.slow
def test_facts_not_computed_show_a_dash_with_the_reason(browser: Any, tmp_path: Path) -> None:
    """A record whose hands nobody wrote down: under its tiles and at its deal-in the page
    shows "—" with the observer's reason on hover, in the language chosen."""
    rec = read_path(OURS["notation, partial"])[0]
    data = game_view(rec)
    facts = data["facts"]
    row = next(r for r in facts["d"] if r[5] is None)
    why = facts["reasons"][row[-1][0][1]]
    page_file = tmp_path / "partial.html"
    page_file.write_text(viewer_page(data), encoding="utf-8")
    context, page, errors = open_page(browser, page_file, f"#step={row[0] - 1}&facts=1")
    try:
        page.wait_for_function(READY)
        dash = page.locator(f'.seat[data-seat="{row[1]}"] .ft .f-none').first
        assert dash.inner_text() == "—" and why in (dash.get_attribute("title") or "")
        win = next(iter(facts["deal_ins"]))
        page.evaluate(f"location.hash = '#step={win}&facts=1'")
        shown = page.locator("#result .deal-in .f-none").first
        assert why in (shown.get_attribute("title") or "")
        page.select_option("#lang", "ja")
        assert "記録されていない牌" in (page.locator("#result .deal-in .f-none").first
                                        .get_attribute("title") or "")
        assert errors == []
    finally:
        context.close()


def _listed(page: Any) -> list[int]:
    steps: list[str] = page.eval_on_selector_all("#moves li", "els => els.map(e => e.dataset.step)")
    return [int(s) for s in steps]


@pytest.mark.slow
def test_the_filter_of_discards_that_were_not_the_most_accepting(browser: Any,
                                                                 tmp_path: Path) -> None:
    """Without a review, the move list's filter lists exactly the discards with a loss."""
    rec = _record(SAMPLES["tenhou-xml"])
    data = game_view(rec)
    want = _loss_steps(data, rec)
    page_file = tmp_path / "game.html"
    page_file.write_text(viewer_page(data), encoding="utf-8")
    context, page, errors = open_page(browser, page_file)
    try:
        page.wait_for_function(READY)
        assert page.locator("#only-three").count() == 0
        page.locator("#only-loss").check()
        assert want and _listed(page) == want
        page.locator("#only-loss").uncheck()
        assert _listed(page) != want
        assert errors == []
    finally:
        context.close()


@pytest.mark.slow
def test_the_three_way_filter_lists_the_moves_where_all_differ(browser: Any,
                                                               tmp_path: Path) -> None:
    """Beside a review (built as ``test_review_report`` builds one), the filter lists
    exactly the reviewed discards where the AI differs from the player and neither's tile
    is one of mjlog's most accepting; the page offers it beside the AI-differs filter."""
    log = _mjai_log(tmp_path)
    report, _ = _report(log, every=True)
    path = tmp_path / "report.json"
    path.write_text(json.dumps(report), encoding="utf-8")
    (rec,) = read_bytes(path.read_bytes(), "report.json")
    data = game_view(rec)
    step_of = {st["e"]: i for i, st in enumerate(data["steps"])}
    best = {d.event: {kind_str(k) for k in d.best} for d in decisions(rec)
            if isinstance(d, DiscardDecision) and d.best is not None}
    review = rec.review
    assert isinstance(review, Review)
    want = []
    for m in review.moves:
        if m.agrees or not m.actual.kind == m.expected.kind == "discard" or m.event not in best:
            continue
        played, ai = _plain(m.actual.tiles[0]), _plain(m.expected.tiles[0])
        if played != ai and not {played, ai} & best[m.event]:
            want.append(step_of[m.event])
    differs = sorted({step_of[m.event] for m in review.moves if not m.agrees})
    page_file = tmp_path / "report.html"
    result = CliRunner().invoke(main, ["view", str(path), "-o", str(page_file)])
    assert result.exit_code == 0, result.output
    assert len(page_file.read_bytes()) < BUDGET
    context, page, errors = open_page(browser, page_file)
    try:
        page.wait_for_function(READY)
        page.locator("#only-three").check()
        assert want and _listed(page) == sorted(set(want)) and set(want) < set(differs)
        page.locator("#only-differs").check()  # one filter at a time
        assert not page.locator("#only-three").is_checked() and _listed(page) == differs
        assert errors == []
    finally:
        context.close()


def _plain(mjai: str) -> str:
    """An mjai tile name as the kind's code (``5mr`` → ``5m``, ``E`` → ``1z``)."""
    honours = {h: f"{i + 1}z" for i, h in enumerate("ESWNPFC")}
    return honours.get(mjai, mjai.removesuffix("r"))

"""Mortal's review in an mjai-reviewer report (``mjai-reviewer --json``), read beside the game
and shown in the viewer at the moves it is about.

The corpus holds no review report, so each test builds one the way the reviewer lays it
out (``src/review/mortal.rs`` and ``src/render.rs`` of Equim-chan/mjai-reviewer): a corpus
Tenhou game converted to mjai with ``mjlog convert -t mjai`` is its ``mjai_log``, and
entries are planted at chosen decisions of one player (discards, riichi, the discard after
a riichi, calls, the discard after a call, passes, wins), some where the AI agrees and some
where it does not. Each planted entry says which event of the record it must land on,
found here from the record's own events, not from the reader.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from mjlog.cli import main
from mjlog.core.events import Chi, Discard, Pon, Win
from mjlog.core.review import Review
from mjlog.formats import detect, read_bytes, read_path
from mjlog.reports.audit import audit_record
from mjlog.reports.view.model import game_view

from .conftest import CORPUS, corpus_paths
from .viewer_pages import open_page

GAME = ("tenhou-xml/Jim137-Tenhou-Paifu-Logger/test/test_data/"
        "2022060222gm-0001-0000-f47dd061&tw=3.mjlog")
PLAYER = 1
"""A real game where the reviewed seat declares riichi three times, calls four times and
wins three times."""


@dataclass
class Planted:
    """An entry planted at a decision: the entry, and what it must land on."""

    entry: dict[str, Any]
    kyoku: int
    line: int
    """The place in ``mjai_log`` of the move the entry is about (a riichi: its discard)."""
    kind: str


def _mjai_log(tmp_path: Path) -> list[dict[str, Any]]:
    """The corpus game converted to mjai by the command line, as a list of events."""
    corpus_paths("tenhou-xml")  # skips, saying why, without the corpus
    out = tmp_path / "game.mjson"
    result = CliRunner().invoke(main, ["convert", str(CORPUS / GAME), "-t", "mjai",
                                       "-o", str(out)])
    assert result.exit_code == 0, result.output
    return [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]


def _decisions(log: list[dict[str, Any]], p: int) -> Iterator[Planted]:
    """Each move of seat ``p`` (and each discard of another seat it lets go by before a
    draw), with the entry the reviewer would write there: its turn count (``p``'s draws,
    chis and pons so far in the round), the last actor and the tile of the event before it,
    and the action. Every entry agrees with the move; :func:`_report` makes some differ."""
    kyoku, junme, hand, tile = -1, 0, [], None
    for i, o in enumerate(log):
        t, actor = o["type"], o.get("actor")
        if t == "start_kyoku":
            kyoku, junme, hand = kyoku + 1, 0, list(o["tehais"][p])
            continue
        if t == "tsumo" and actor == p:
            junme, tile = junme + 1, o["pai"]
            hand.append(o["pai"])
        elif t in ("chi", "pon") and actor == p:
            junme += 1
        if t in ("dahai", "kakan"):
            tile = o["pai"]
        nxt = log[i + 1] if i + 1 < len(log) else {}
        if nxt.get("type") in ("dahai", "reach", "chi", "pon", "hora") and nxt.get("actor") == p:
            line = i + 1
            if nxt["type"] == "reach":  # the riichi is shown at its discard
                line = i + 2
            kind = nxt["type"] if t != "reach" else "riichi discard"
            if t in ("chi", "pon") and actor == p:
                kind = "discard after a call"
            yield Planted(_entry(int(o.get("actor") or 0), tile, nxt, list(hand), t, junme),
                          kyoku, line, kind)
        elif t == "dahai" and actor != p and nxt.get("type") == "tsumo":
            yield Planted(_entry(int(actor or 0), tile, {"type": "none"}, list(hand), t, junme),
                          kyoku, i, "pass")
        if t == "dahai" and actor == p:
            hand.remove(o["pai"])
        elif t in ("chi", "pon") and actor == p:
            for c in o["consumed"]:
                hand.remove(c)


def _entry(last_actor: int, tile: Any, actual: dict[str, Any], hand: list[str],
           before: str, junme: int) -> dict[str, Any]:
    """An entry of the reviewer's shape whose AI agrees with ``actual``."""
    others = [{"type": "dahai", "actor": PLAYER, "pai": h, "tsumogiri": False}
              for h in dict.fromkeys(hand) if h != actual.get("pai")][:4]
    options = [actual, *others] if actual["type"] in ("dahai", "reach") \
        else [actual, {"type": "none"}]
    if actual["type"] == "none":  # a pass: the pon the player could have made, if any
        same = [h for h in hand if h.removesuffix("r") == str(tile).removesuffix("r")]
        options = [actual, *([{"type": "pon", "actor": PLAYER, "target": last_actor,
                               "pai": tile, "consumed": same[:2]}] if len(same) > 1 else [])]
    probs = [0.6, 0.2, 0.1, 0.06, 0.04][:len(options)]
    return {"junme": junme, "tiles_left": 40, "last_actor": last_actor, "tile": tile,
            "state": {"tehai": hand, "fuuros": []}, "at_self_chi_pon": before in ("chi", "pon"),
            "at_self_riichi": before == "reach", "at_opponent_kakan": False,
            "expected": actual, "actual": actual, "is_equal": True,
            "details": [{"action": a, "q_value": round(2.0 - k * 0.5, 3), "prob": pr}
                        for k, (a, pr) in enumerate(zip(options, probs, strict=False))],
            "shanten": 1, "at_furiten": False, "actual_index": 0}


def _differ(entry: dict[str, Any]) -> None:
    """Make the AI of an entry prefer its second option (the move played comes second)."""
    d = entry["details"]
    d[0], d[1] = d[1], d[0]
    d[0]["prob"], d[1]["prob"] = d[1]["prob"], d[0]["prob"]
    d[0]["q_value"], d[1]["q_value"] = d[1]["q_value"], d[0]["q_value"]
    entry.update(expected=d[0]["action"], is_equal=False, actual_index=1)


def _report(log: list[dict[str, Any]],
            every: bool = False) -> tuple[dict[str, Any], list[Planted]]:
    """A report in mjai-reviewer's ``--json`` shape around ``log`` with every kind of
    decision planted (every third discard, every pass in five; with ``every``, all), every
    third planted entry differing; returns it and the planted entries."""
    kyokus = [{"kyoku": "ESWN".index(o["bakaze"]) * 4 + o["kyoku"] - 1, "honba": o["honba"],
               "end_status": [], "relative_scores": o["scores"], "entries": []}
              for o in log if o["type"] == "start_kyoku"]
    planted: list[Planted] = []
    seen = {"dahai": 0, "pass": 0}
    for d in _decisions(log, PLAYER):
        if d.kind in seen and not every:
            seen[d.kind] += 1
            if seen[d.kind] % (3 if d.kind == "dahai" else 5):
                continue
        if len(planted) % 3 == 2 and len(d.entry["details"]) > 1 and d.kind != "hora":
            _differ(d.entry)
        kyokus[d.kyoku]["entries"].append(d.entry)
        planted.append(d)
    review = {"total_reviewed": len(planted), "total_matches": 0, "rating": 0.8,
              "temperature": 1.0, "kyokus": kyokus, "relative_phi_matrix": [],
              "model_tag": "mortal4-test"}
    return {"engine": "Mortal", "game_length": "Hanchan", "log_id": None,
            "loading_time": "1s", "review_time": "5s", "show_rating": True,
            "version": "0.0.0-test", "review": review, "player_id": PLAYER,
            "split_logs": None, "mjai_log": log, "lang": "en"}, planted


def _review(rec: Any) -> Review:
    """The review read with a record (failing the test when there is none)."""
    assert isinstance(rec.review, Review), rec.review
    return rec.review


def _lands_where_it_says(ev: Any, d: Planted, log: list[dict[str, Any]]) -> bool:
    """Whether a reviewed move's event is the move the planted entry is about."""
    move = log[d.line]
    if d.kind in ("dahai", "riichi discard", "discard after a call", "reach"):
        return (isinstance(ev, Discard) and ev.player == PLAYER
                and (ev.riichi or d.kind != "reach"))
    if d.kind == "pass":
        return isinstance(ev, Discard) and ev.player == move["actor"]
    if d.kind in ("chi", "pon"):
        return isinstance(ev, Chi | Pon) and ev.player == PLAYER
    return isinstance(ev, Win) and ev.winner == PLAYER


@pytest.mark.parametrize("every", [False, True], ids=["some decisions", "every decision"])
def test_each_planted_entry_lands_on_its_move(tmp_path: Path, every: bool) -> None:
    """The reviewer's entries at discards, riichi and the discard after it, chi and pon and
    the discard after them, passes and wins are each tied to the event of their move,
    whether the report holds some of the player's decisions or all of them."""
    log = _mjai_log(tmp_path)
    report, planted = _report(log, every)
    assert {d.kind for d in planted} >= {"dahai", "reach", "riichi discard", "pon",
                                         "discard after a call", "pass", "hora"}
    data = json.dumps(report).encode()  # the reviewer's key order: mjai_log after the review
    assert detect(data) == "mjai" and data.index(b'"mjai_log"') > 4096
    (rec,) = read_bytes(data, "review.json")
    review = _review(rec)
    assert review.notes == ()
    assert (review.engine, review.model, review.player) == ("Mortal", "mortal4-test", 1)
    assert len(review.moves) == len(planted)
    for move, d in zip(review.moves, planted, strict=True):
        assert rec.positions[move.event] == d.line + 1, (d.kind, d.entry["junme"])
        assert _lands_where_it_says(rec.events[move.event], d, log), d.kind
        assert move.agrees == d.entry["is_equal"]
        assert move.choices[0].prob == d.entry["details"][0]["prob"]
    reach = [m for m, d in zip(review.moves, planted, strict=True) if d.kind == "reach"]
    after = [m for m, d in zip(review.moves, planted, strict=True)
             if d.kind == "riichi discard"]
    assert [m.event for m in reach] == [m.event for m in after]  # one riichi discard each


def test_the_report_reads_as_the_game_and_audits_the_same(tmp_path: Path) -> None:
    """With its review the report is the same game: the same events and the same audit."""
    log = _mjai_log(tmp_path)
    report, _ = _report(log)
    (rec,) = read_bytes(json.dumps(report, indent=1).encode(), "review.json")
    (plain,) = read_path(tmp_path / "game.mjson")
    assert rec.events == plain.events and rec.diagnostics == plain.diagnostics
    review = _review(rec)
    assert len(review.moves) > 20
    a, b = audit_record(rec), audit_record(plain)
    assert (a.violations, a.mismatches, a.findings, a.diagnostics) \
        == (b.violations, b.mismatches, b.findings, b.diagnostics)


@pytest.mark.parametrize("spoil", ["shifted junme", "no kyokus", "more kyokus", "bad seat",
                                   "wrong round", "akochan", "bad entries"])
def test_a_review_that_does_not_fit_gives_a_note_and_the_game_still_views(
        tmp_path: Path, spoil: str) -> None:
    """Entries that fit no move of the game are left out with a note saying which; the game
    is read as it is and its page is written."""
    log = _mjai_log(tmp_path)
    report, planted = _report(log)
    review, kyokus = report["review"], report["review"]["kyokus"]
    if spoil == "shifted junme":
        for k in kyokus[:2]:
            for e in k["entries"]:
                e["junme"] += 7
    elif spoil == "no kyokus":
        review["kyokus"] = "none"
    elif spoil == "more kyokus":
        kyokus.append(dict(kyokus[0]))
    elif spoil == "bad seat":
        report["player_id"] = 9
    elif spoil == "wrong round":
        kyokus[0]["kyoku"] = 3
    elif spoil == "akochan":
        report["engine"] = "Akochan"
    else:
        kyokus[1]["entries"][:0] = [None, {"junme": 1}, {"actual": {"type": "dahai"},
                                    "expected": {"type": "x"}, "details": "no"}]
    path = tmp_path / "report.json"
    path.write_text(json.dumps(report), encoding="utf-8")
    (rec,) = read_path(path)
    review = _review(rec)
    assert review.notes, spoil
    if spoil in ("more kyokus", "bad entries"):  # the entries that fit are kept
        assert len(review.moves) == len(planted)
    else:
        assert len(review.moves) < len(planted)
    page = tmp_path / "report.html"
    result = CliRunner().invoke(main, ["view", str(path), "-o", str(page)])
    assert result.exit_code == 0, result.output
    assert review.notes[0][:30] in page.read_text(encoding="utf-8")


def test_the_page_data_ties_each_move_to_its_step(tmp_path: Path) -> None:
    """Each reviewed move is at the step of its event, with its top choices."""
    log = _mjai_log(tmp_path)
    report, planted = _report(log)
    (rec,) = read_bytes(json.dumps(report).encode(), "review.json")
    data = game_view(rec)
    review = _review(rec)
    shown = data["review"]
    assert shown["engine"] == "Mortal" and len(shown["moves"]) == len(planted)
    for m, move in zip(shown["moves"], review.moves, strict=True):
        assert data["steps"][m[0]]["e"] == move.event
        assert len(m[4]) <= 5 and m[4][0][2] == move.choices[0].prob


@pytest.mark.slow
def test_the_viewer_shows_the_ais_choice_at_the_reviewed_moves(browser: Any,
                                                                tmp_path: Path) -> None:
    """``mjlog view REPORT.json``: at a reviewed move the panel shows the AI's choice and its
    probabilities, marked as Mortal's review; the filter lists exactly the moves where the
    AI differs, each marked in the move list."""
    log = _mjai_log(tmp_path)
    report, _ = _report(log)
    path = tmp_path / "report.json"
    path.write_text(json.dumps(report), encoding="utf-8")
    (rec,) = read_path(path)
    data = game_view(rec)
    review = _review(rec)
    step_of = {st["e"]: i for i, st in enumerate(data["steps"])}
    differing = sorted({step_of[m.event] for m in review.moves if not m.agrees})
    page_file = tmp_path / "report.html"
    result = CliRunner().invoke(main, ["view", str(path), "-o", str(page_file)])
    assert result.exit_code == 0, result.output
    assert len(page_file.read_bytes()) < 400_000
    move = next(m for m in review.moves if not m.agrees and m.actual.kind == "discard")
    step = step_of[move.event]
    context, page, errors = open_page(browser, page_file, f"#step={step}")
    try:
        panel = page.locator("#review")
        assert "Mortal's review" in panel.inner_text() and "mortal4-test" in panel.inner_text()
        best = move.choices[0]
        row = panel.locator("tr.ai").first
        assert row.locator(".action").get_attribute("data-action").startswith(best.action.kind)
        assert float(row.locator("[data-prob]").get_attribute("data-prob")) == best.prob
        assert panel.locator(".rv-badge.differs").count() == 1
        played = panel.locator("tr.played .action").get_attribute("data-action")
        assert played.startswith(move.actual.kind) and "option 2" in panel.inner_text()
        page.keyboard.press("Home")
        page.keyboard.press("d")
        assert int(page.locator("#table").get_attribute("data-step")) == differing[0]
        page.locator("#only-differs").check()
        listed = [int(x) for x in page.eval_on_selector_all(
            "#moves li", "els => els.map(e => e.dataset.step)")]
        assert listed == differing
        assert page.locator("#moves li .ai-mark").count() == len(differing)
        page.select_option("#lang", "ja")
        assert "Mortalの検討" in panel.inner_text()
        assert page.locator("#moves-title").inner_text() == "AIと選択が違う手"
        assert errors == []
        page.screenshot(path=str(tmp_path / "review.png"))
    finally:
        context.close()



@pytest.mark.slow
def test_any_value_anywhere_in_the_review_gives_notes_not_errors(tmp_path: Path) -> None:
    """Each field of the report's head, of its review, of a kyoku and of an entry (and its
    first option) replaced by a value of another type: the game is still read whole, with
    a review or none, and its page data is made."""
    import random

    log = _mjai_log(tmp_path)
    report, _ = _report(log)
    (plain,) = read_path(tmp_path / "game.mjson")
    rng = random.Random(51)
    junk: list[Any] = [None, "x", -1, 10**6, 1.5, [], {}, True, [None], {"type": "dahai"}]
    review = report["review"]
    paths: list[tuple[Any, ...]] = [("player_id",), ("engine",), ("version",)]
    paths += [("review", k) for k in review]
    for i, kyoku in enumerate(review["kyokus"][:3]):
        paths += [("review", "kyokus", i, f) for f in kyoku]
        for j, entry in enumerate(kyoku["entries"][:2]):
            at = ("review", "kyokus", i, "entries", j)
            paths += [(*at, f) for f in entry] + [(*at, "details", 0, f)
                                                   for f in entry["details"][0]]
    for n, path in enumerate(paths):
        spoiled = json.loads(json.dumps(report))
        parent = spoiled
        for key in path[:-1]:
            parent = parent[key]
        parent[path[-1]] = rng.choice(junk)
        (rec,) = read_bytes(json.dumps(spoiled).encode(), "review.json")
        assert rec.events == plain.events, path
        assert rec.review is None or isinstance(rec.review, Review), path
        if n % 10 == 0:  # the page data too, now and then
            game_view(rec)
    assert len(paths) > 60

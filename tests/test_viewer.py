"""The replay viewer's data, and the commands that write pages, without a browser.

The table rebuilt from a game's steps (each round's first step, later values
written over it, as the page does) equals the engine's table after the same
event, for whole games of every format mjlog reads. The pages themselves are
tested in Chromium by ``test_viewer_stepping.py`` and ``test_viewer_pages.py``.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from mjlog.cli import main
from mjlog.formats import read_path
from mjlog.replay.engine import Engine
from mjlog.reports.view.captions import codes
from mjlog.reports.view.model import game_view, merged

from .conftest import EXAMPLES
from .viewer_pages import OURS, SAMPLES, sample

# ---------------------------------------------------------------- the data


def _tables(steps: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The table at every step, rebuilt as the page rebuilds it."""
    out: list[dict[str, Any]] = []
    for st in steps:
        base = {} if st.get("key") or not out else dict(out[-1])
        merged(base, st)
        out.append(base)
    return out


@pytest.mark.parametrize("name", [*SAMPLES, *OURS])
def test_the_steps_rebuild_the_engine_table_after_every_event(name: str, tmp_path: Path
                                                             ) -> None:
    rec = read_path(sample(name, tmp_path))[0]
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
    shown = {a[2] for t in tables for p in range(4) if (a := t[f"a{p}"]) and "過水" in a[2]}
    assert shown, "the passed win of this dispute shows as 過水"
    assert all(s.startswith("過水: passed a ") for s in shown), shown  # said once


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
    result = runner.invoke(main, ["view", str(EXAMPLES / "03-wrong-fu.mjn"),
                                  str(EXAMPLES / "02-miscounted-payment.mjn"), "-o", str(one)])
    assert result.exit_code == 2 and "hold 2 games: -o names a folder" in result.output


def test_an_unreadable_input_is_reported_and_the_other_pages_are_written(
        tmp_path: Path) -> None:
    """One input that cannot be read (a damaged record, a damaged archive) among others:
    it is named, the others' pages and the index are written whole, and the exit status
    is 2, each unreadable input named once; nothing is left half-written beside the
    folder."""
    bad = tmp_path / "bad.mjn"
    bad.write_text("E1-0 dora=9p\nhands 123m ? ? ?\nnonsense here\n", encoding="utf-8")
    damaged = tmp_path / "games.zip"
    damaged.write_bytes(b"PK\x03\x04 not a zip")
    folder = tmp_path / "pages"
    result = CliRunner().invoke(main, ["view", str(EXAMPLES / "03-wrong-fu.mjn"), str(bad),
                                       str(damaged), "-o", str(folder)])
    assert result.exit_code == 2
    assert result.output.count("bad.mjn") == 1 and result.output.count("games.zip") == 1
    assert sorted(p.name for p in folder.iterdir()) == ["03-wrong-fu.html", "index.html"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bad.mjn", "games.zip", "pages"]


def test_view_of_an_unreadable_record_says_why(tmp_path: Path) -> None:
    bad = tmp_path / "bad.mjn"
    bad.write_text("E1-0 dora=9p\nhands 123m ? ? ?\nnonsense here\n", encoding="utf-8")
    result = CliRunner().invoke(main, ["view", str(bad), "-o", str(tmp_path / "b.html")])
    assert result.exit_code == 2 and result.output.count("bad.mjn") == 1
    assert "Traceback" not in result.output


# ---------------------------------------------------------------- the referee's page


def test_the_referees_page_needs_a_file_to_write(tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["audit", str(EXAMPLES), "--format", "html"])
    assert result.exit_code == 2 and "-o REPORT.html" in result.output


def _long_round(tmp_path: Path, cycles: int) -> Path:
    """The example game with ``cycles`` more draw-and-discard turns in its first round
    (the same tile again and again: a damaged record, judged as such)."""
    lines = (EXAMPLES / "east-riichi.jsonl").read_text("utf-8").splitlines()
    events = [json.loads(line) for line in lines]
    at = next(k for k, e in enumerate(events) if e["type"] == "discard")
    draw, discard = events[at - 1], events[at]
    extra = [dict(e, player=(discard["player"] + 1 + k) % 4)
             for k in range(cycles) for e in (draw, discard)]
    path = tmp_path / f"long-{cycles}.jsonl"
    path.write_text("\n".join(json.dumps(e) for e in [*events[:at + 1], *extra,
                                                       *events[at + 1:]]) + "\n", "utf-8")
    return path


def test_a_page_grows_linearly_with_a_rounds_moves(tmp_path: Path) -> None:
    """A river that grows is written as what it gains, not again whole at every step: a
    round four times as long makes a page at most about four times as large (it was
    nine times, the rivers written out at every step)."""
    sizes = []
    for cycles in (500, 2000):
        page = tmp_path / f"{cycles}.html"
        result = CliRunner().invoke(main, ["view", str(_long_round(tmp_path, cycles)),
                                           "-o", str(page)])
        assert result.exit_code == 0, result.output
        sizes.append(page.stat().st_size)
    assert sizes[1] < 4.5 * sizes[0], sizes


def test_a_page_stops_at_its_step_cap_and_says_so(tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """Past the most steps a page draws, the page stops and a page-capped finding says
    how many moves it left out (the cap lowered here, so the test stays quick)."""
    from mjlog.reports.view import model

    monkeypatch.setattr(model, "MAX_STEPS", 300)
    page = tmp_path / "capped.html"
    result = CliRunner().invoke(main, ["view", str(_long_round(tmp_path, 400)), "-o",
                                       str(page)])
    assert result.exit_code == 0, result.output
    data = json.loads(re.search(r'<script id="game-data" type="application/json">(.*?)'
                                r'</script>', page.read_text("utf-8"), re.S).group(1))  # type: ignore[union-attr]
    assert len(data["steps"]) == 300
    (capped,) = [f for f in data["findings"] if f["code"] == "page-capped"]
    assert capped["step"] == 299 and "300 moves" in capped["message"]


def test_findings_name_the_players_as_the_text_report_does() -> None:
    """A replay page's findings write a named seat ``Aoi [0]``, in every language's place,
    never ``player 0``."""
    rec = read_path(EXAMPLES / "02-miscounted-payment.mjn")[0]
    found = [f for f in game_view(rec)["findings"] if f["code"] == "win-deltas"]
    assert [f["place"].split(", ")[2] for f in found] == ["Aoi [0]", "Ben [1]"]
    for f in found:
        name = f["place"].split(", ")[2]
        assert name in f["places"]["ja"] and name in f["places"]["zh"], f["places"]

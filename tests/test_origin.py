"""The format seam: a game's typed origin (:mod:`mjlog.formats.origin`), which statistics
and the wall check read instead of metadata keys, and the payments readers work back
from score changes (:func:`mjlog.families.riichi.scoring.payments.worked_back`,
``written_deltas``)."""

from __future__ import annotations

import itertools
from datetime import datetime
from pathlib import Path

import pytest

from mjlog.core.events import GameStart, Origin
from mjlog.families.riichi.scoring.payments import points_deltas, worked_back, written_deltas
from mjlog.formats import read_path, write
from mjlog.formats.origin import origin_of
from mjlog.stats.facts import where_and_when
from mjlog.wall.verify import seed_text

from .conftest import EXAMPLES

LOG_ID = "2016010100gm-00a9-0000-0123abcd"


def _start(path: Path) -> GameStart:
    start = read_path(path)[0].events[0]
    assert isinstance(start, GameStart)
    return start


def test_a_tenhou_game_has_its_origin_from_its_reader(tmp_path: Path) -> None:
    path = tmp_path / f"{LOG_ID}.mjlog"
    path.write_bytes((EXAMPLES / "east-seeded.mjlog").read_bytes())
    start = _start(path)
    assert start.origin == Origin(
        platform="tenhou", game_id=f"tenhou:{LOG_ID}", date=datetime(2016, 1, 1, 0),
        room="ippan", lobby_type=1, shuffle_seed=dict(start.meta)["shuffle.seed"])
    assert where_and_when(str(path), start) == ("tenhou", datetime(2016, 1, 1, 0))
    assert seed_text(start) == start.origin.shuffle_seed


def test_json_lines_neither_write_the_origin_nor_lose_it(tmp_path: Path) -> None:
    xml = tmp_path / f"{LOG_ID}.mjlog"
    xml.write_bytes((EXAMPLES / "east-seeded.mjlog").read_bytes())
    events = read_path(xml)[0].events
    text = write("jsonl", events)
    assert "origin" not in text and "bad_date" not in text
    jsonl = tmp_path / f"{LOG_ID}.jsonl"
    jsonl.write_text(text, encoding="utf-8")
    again = _start(jsonl)
    assert again.origin == _start(xml).origin
    assert "origin" not in repr(again)


def test_a_log_id_of_a_day_that_does_not_exist_gives_no_id_and_says_why(
        tmp_path: Path) -> None:
    path = tmp_path / "2016139900gm-00a9-0000-0123abcd.mjlog"
    path.write_bytes((EXAMPLES / "east-ron.mjlog").read_bytes())
    start = _start(path)
    assert start.origin is not None
    assert start.origin.game_id is None and start.origin.bad_date
    with pytest.raises(ValueError, match="month"):  # statistics leave such a game out
        where_and_when(str(path), start)


@pytest.mark.parametrize(("meta", "source", "want"), [
    ((("riichicity.keyValue", "k1"), ("riichicity.nowTime", "1700000000"),
      ("riichicity.gamePlay", "1001")), "riichicity",
     Origin(platform="riichicity", game_id="riichicity:k1", date=datetime(2023, 11, 14, 22, 13, 20),
            room="段位戦")),
    ((("majsoul.uuid", "250113-20340fc8-85fd"), ("majsoul.room", "金の間")), "majsoul",
     Origin(platform="majsoul", game_id="majsoul:250113-20340fc8-85fd", room="金の間")),
    ((("tenhou6.ref", f'"{LOG_ID}"'), ("tenhou6.rule", '{"disp": "鳳南喰赤"}')), "tenhou6",
     Origin(platform="tenhou", game_id=f"tenhou:{LOG_ID}", date=datetime(2016, 1, 1, 0),
            room="houou")),
    ((("mleague.id", "L001"),), "mleague", Origin(platform="mleague", game_id="mleague:L001")),
    ((), "kobalab", Origin()),
])
def test_each_platforms_keys_give_its_origin(meta: tuple[tuple[str, str], ...], source: str,
                                             want: Origin) -> None:
    rules = "majsoul" if source == "majsoul" else "tenhou"
    assert origin_of(meta, source=source, ruleset_name=rules, path="x.json") == want


@pytest.mark.parametrize(("players", "honba", "sticks"),
                         list(itertools.product((3, 4), (0, 2), (0, 1, 3))))
def test_worked_back_undoes_the_payments_of_a_stated_value(players: int, honba: int,
                                                            sticks: int) -> None:
    for winner, payer, points in ((1, 2, 3900), (1, None, 7900), (0, None, 12000),
                                  (0, 2, 18000)):
        if payer is None and winner == 0 and points % (players - 1):
            continue
        deltas = points_deltas(points, players=players, winner=winner, payer=payer, dealer=0,
                               honba=honba, sticks=sticks)
        assert worked_back(deltas[winner], sticks=sticks, honba=honba,
                           players=players) == points
        paid = worked_back(deltas[winner], sticks=sticks)  # what the payers paid, honba in
        assert paid == -sum(d for p, d in enumerate(deltas) if p != winner)


def test_written_deltas_keep_the_riichi_sticks_apart() -> None:
    before = (25000, 25000, 25000, 25000)
    after = (33700, 25000, 17300, 24000)  # seats 0 and 3 riichi; 0 rons 2 for 7700
    assert written_deltas(before, after, {0, 3}) == (9700, 0, -7700, 0)
    with pytest.raises(ValueError):
        written_deltas(before, after[:3], set())

"""Riichi City's own record: read, verified under the platform's rules, every wall proven.

Every corpus record (``other/0num4-paifu-playground-riichicity``) is read,
replayed and verified; every round's wall is checked against its published
sha256 and then tile by tile. The faults below change one thing of a real
game each.
"""

from __future__ import annotations

import copy
import json
from collections import Counter
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from mjlog.core.diagnostics import InputError, Severity
from mjlog.core.events import GameEnd, RoundStart
from mjlog.core.record import GameRecord
from mjlog.formats import detect, read_bytes, read_path, write
from mjlog.reports.audit import audit, audit_record
from mjlog.wall.verify import walls_for
from tests.conftest import CORPUS, CORPUS_MISSING, ROOT
from tests.outline import outline

FOLDER = CORPUS / "other/0num4-paifu-playground-riichicity"
PARTY = "gameDataSample.json"
"""A friend room with open riichi, luck points, yakitori and isGeMu switched on: rules
mjlog does not know. Its two wins are scored under them (open riichi is 2 han; a seat is
paid twice what mjlog's rules give), and its third round is dealt a second red 5p, so that
two walls cannot be read as a set of one red five each."""
PARTY_PROBLEMS = {"unknown-yaku": 1, "bad-value": 1,
                  "wall-undealable": 2, "win-yaku": 2, "win-han": 1, "win-points": 1,
                  "win-deltas": 5}


def _games() -> list[Path]:
    if not FOLDER.exists():
        pytest.skip(CORPUS_MISSING)
    return sorted(p for p in FOLDER.rglob("*.json") if p.name != "eventdata.json")


def _problems(rec: GameRecord) -> dict[str, int]:
    """The record's problems (its notes left out)."""
    report = audit_record(rec)
    codes = Counter(d.code for d in rec.diagnostics if d.severity is not Severity.INFO)
    codes.update(f.code for f in report.findings)
    codes.update(m.code for m in report.mismatches)
    codes.update(v.code for v in report.violations)
    return dict(codes)


def test_every_record_reads_verifies_and_proves_its_walls() -> None:
    games = _games()
    assert len(games) == 12
    rounds = 0
    for path in games:
        assert detect(path.read_bytes()) == "riichicity", path
        (rec,) = read_path(path)
        want = PARTY_PROBLEMS if path.name == PARTY and path.parent == FOLDER else {}
        assert _problems(rec) == want, path
        if want:
            assert "unsupported-rules" in {d.code for d in rec.diagnostics}
        else:
            walls, notes = walls_for(rec)
            assert notes == [] and all(w is not None for w in walls), path
            rounds += len(walls)
    assert rounds == 43


def test_final_points_are_the_platforms_own() -> None:
    """Four players: 25,000 to start, 30,000 back, uma 10-30; three: 40,000 back and uma
    0-20 whatever the start. Every complete game's points are the record's."""
    settled = 0
    for path in _games():
        (rec,) = read_path(path)
        end = rec.events[-1]
        if not isinstance(end, GameEnd) or path.name == PARTY:
            continue
        st = audit_record(rec).settlement
        assert st is not None and st.points == st.recorded_points, path
        assert st.points == [round(x, 1) for x in end.points or ()], path
        settled += 1
    assert settled == 10


def test_round_events_alone_are_skipped_as_no_game(tmp_path: Path) -> None:
    events_only = FOLDER / "eventdata.json"
    if not events_only.exists():
        pytest.skip(CORPUS_MISSING)
    with pytest.raises(InputError) as caught:
        read_path(events_only)
    assert caught.value.diagnostic.code == "not-a-game"
    report = audit([events_only])
    assert report.skipped == [str(events_only)] and report.unreadable == []
    assert "not a complete game record" in report.skip_reasons[str(events_only)]
    schema = json.loads((ROOT / "schemas" / "audit-report.schema.json").read_text("utf-8"))
    jsonschema.validate(json.loads(json.dumps(report.to_dict())), schema)


def _doc(name: str) -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads((FOLDER / name).read_text(encoding="utf-8"))
    return loaded


def _read(doc: dict[str, Any]) -> GameRecord:
    (rec,) = read_bytes(json.dumps(doc, ensure_ascii=False).encode(), "test.json")
    return rec


def _errors(rec: GameRecord) -> list[str]:
    report = audit_record(rec)
    return sorted([f.code for f in report.findings if f.severity is not Severity.INFO]
                  + [m.code for m in report.mismatches])


def _events(doc: dict[str, Any], r: int = 0) -> list[dict[str, Any]]:
    events: list[dict[str, Any]] = doc["data"]["handRecord"][r]["handEventRecord"]
    return events


def test_faults_in_a_real_game_are_found() -> None:
    if not FOLDER.exists():
        pytest.skip(CORPUS_MISSING)
    doc = _doc("4ma_gin_han_sample.json")
    assert _errors(_read(doc)) == []
    # one character of the first round's wall: its sha256 and the tiles there differ
    bad = copy.deepcopy(doc)
    rnd = bad["data"]["handRecord"][0]
    wall = rnd["handCardEncode"]
    rnd["handCardEncode"] = wall[:200] + ("1" if wall[200] != "1" else "2") + wall[201:]
    assert "wall-commitment-mismatch" in _errors(_read(bad))
    # the commitment alone
    bad = copy.deepcopy(doc)
    bad["data"]["handRecord"][1]["handCardsSHA256"] = "0" * 64
    assert _errors(_read(bad)) == ["wall-commitment-mismatch"]
    # two draws swapped
    bad = copy.deepcopy(doc)
    draws = [e for e in _events(bad) if e["eventType"] == 2
             and json.loads(e["data"])["in_card"]]
    a, b = json.loads(draws[2]["data"]), json.loads(draws[6]["data"])
    assert a["in_card"] != b["in_card"]
    a["in_card"], b["in_card"] = b["in_card"], a["in_card"]
    draws[2]["data"], draws[6]["data"] = json.dumps(a), json.dumps(b)
    assert Counter(_errors(_read(bad)))["wall-draw-mismatch"] == 2
    # a payment changed
    bad = copy.deepcopy(doc)
    end = next(e for e in _events(bad) if e["eventType"] == 5)
    data = json.loads(end["data"])
    data["user_profit"][0]["point_profit"] -= 1000
    data["user_profit"][1]["point_profit"] += 1000
    end["data"] = json.dumps(data)
    assert "win-deltas" in _errors(_read(bad))


@pytest.mark.parametrize("fmt", ["tenhou6", "mjai", "notation", "jsonl", "kobalab"])
def test_converted_and_read_back_it_is_the_same_game(fmt: str) -> None:
    values = fmt != "mjai"  # mjai carries a win's payments, not its value
    for path in _games():
        (rec,) = read_path(path)
        voted = any(d.code == "vote-termination" for d in rec.diagnostics)
        players = rec.events[0].ruleset.players  # type: ignore[union-attr]
        if path.name == PARTY or (voted and fmt == "tenhou6") or (
                fmt == "kobalab" and players == 3):
            continue  # tenhou.net/6 has no place for a round without a result, kobalab's
            # format for three players
        (back,) = read_bytes(write(fmt, rec.events).encode(), "back", fmt=fmt)
        assert outline(back.events, values=values) == outline(rec.events, values=values), path


def test_round_starts_carry_the_wall_and_its_commitment() -> None:
    for path in _games()[:1]:
        (rec,) = read_path(path)
        starts = [e for e in rec.events if isinstance(e, RoundStart)]
        assert all({"riichicity.handCardEncode", "riichicity.handCardsSHA256"}
                   <= dict(rs.extra).keys() for rs in starts)


def test_a_game_saved_without_the_apis_envelope_reads_the_same() -> None:
    """Tools save the game object alone (``{handRecord: […], gamePlay, …}``): it is detected
    by its shape and gives the same events as the record under ``data``."""
    path = FOLDER / "4ma_gin_han_sample.json"
    if not path.exists():
        pytest.skip(CORPUS_MISSING)
    doc = json.loads(path.read_text(encoding="utf-8"))
    bare = json.dumps(doc["data"], ensure_ascii=False).encode()
    assert detect(bare) == "riichicity"
    (wrapped,), (unwrapped,) = read_path(path), read_bytes(bare, "bare.json")
    assert unwrapped.events == wrapped.events and unwrapped.diagnostics == []


def test_tournament_rooms_pay_kiriage_mangan() -> None:
    """``gamePlay`` 1002 rooms round 30 fu 4 han up to a mangan; ranked (1001) and friends'
    (1003) rooms do not."""
    from mjlog.formats.riichicity import ruleset_of

    assert ruleset_of({"gamePlay": 1002, "playerCount": 4}).riichi.kiriage
    assert not ruleset_of({"gamePlay": 1001, "playerCount": 4}).riichi.kiriage
    assert not ruleset_of({"gamePlay": 1003, "playerCount": 3}).riichi.kiriage


def test_a_double_ron_is_two_wins_with_their_own_payments() -> None:
    """A ron with two ``win_info`` entries: two wins of the same discard, in turn order
    from the discarder, each with its winner's change and what the discarder paid for it
    (``user_profit`` sums them), the riichi sticks to the first; the next round's scores
    follow (a second winner is given here to the first ron of a real game)."""
    from mjlog.core.events import Win

    path = FOLDER / "4ma_gin_han_sample.json"
    if not path.exists():
        pytest.skip(CORPUS_MISSING)
    doc = json.loads(path.read_text(encoding="utf-8"))
    events = doc["data"]["handRecord"][0]["handEventRecord"]
    end = next(e for e in events if e.get("eventType") == 5)
    data = json.loads(end["data"])
    (first,) = data["win_info"]
    profits = {u["user_id"]: u for u in data["user_profit"]}
    loser = next(u for u, p in profits.items() if p["point_profit"] < 0)
    other = next(u for u, p in profits.items() if p["point_profit"] == 0)
    data["win_info"].append({**first, "user_id": other, "all_point": 3900, "li_bao_card": []})
    for user, change in ((other, 3900), (loser, -3900)):
        profits[user]["point_profit"] += change
        profits[user]["user_point"] += change
    end["data"] = json.dumps(data)
    (rec,) = read_bytes(json.dumps(doc).encode(), "double.json")
    assert [d.code for d in rec.diagnostics if d.severity is not Severity.INFO] == []
    round_end = next(i for i, e in enumerate(rec.events) if type(e).__name__ == "RoundEnd")
    wins = [e for e in rec.events[:round_end] if isinstance(e, Win)]
    (discarder,) = {w.from_player for w in wins}
    assert len(wins) == 2 and [(w.winner - discarder) % 4 for w in wins] == sorted(
        (w.winner - discarder) % 4 for w in wins)
    summed = [sum(w.deltas[p] for w in wins) for p in range(4)]
    assert sorted(summed) == sorted(u["point_profit"] for u in profits.values())
    assert wins[0].kyotaku > 0 and wins[1].kyotaku == 0
    assert wins[1].scores_before == tuple(
        b + d for b, d in zip(wins[0].scores_before or (), wins[0].deltas, strict=True))
    # the round itself adds up (later rounds still state the game's real scores)
    first_round = audit_record(rec).findings
    assert not [f for f in first_round if f.round == "E1-0" and f.code in (
        "start-scores-mismatch", "kyotaku-mismatch", "round-end-scores-mismatch")]


def test_three_player_tournament_rooms_pay_each_ready_player_2000_at_a_draw() -> None:
    """In 1002 rooms a three-player exhaustive draw pays each ready player 2,000 from the
    noten ones (4,000 from the one noten player when two are ready), where the usual pool
    is 2,000 in all; four-player and other rooms keep the pool."""
    from mjlog.families.riichi.scoring.payments import draw_deltas
    from mjlog.formats.riichicity import ruleset_of

    room = ruleset_of({"gamePlay": 1002, "playerCount": 3}).riichi
    assert draw_deltas([True, True, False], room) == [2000, 2000, -4000]
    assert draw_deltas([True, False, False], room) == [2000, -1000, -1000]
    ranked = ruleset_of({"gamePlay": 1001, "playerCount": 3}).riichi
    assert draw_deltas([True, True, False], ranked) == [1000, 1000, -2000]
    four = ruleset_of({"gamePlay": 1002, "playerCount": 4}).riichi
    assert draw_deltas([True, True, False, False], four) == [1500, 1500, -1500, -1500]

"""Mahjong Soul's own record: read, verified under the platform's rules, wall proven.

The corpus holds one real record (``majsoul-raw``); the faults, the other
layout (version 0) and the later commitment (salted sha256) are made from it
here, so that each test changes one thing of a real game.
"""

from __future__ import annotations

import copy
import dataclasses
import hashlib
import json
import re
from pathlib import Path
from typing import Any

import pytest

from mjlog.core.diagnostics import Severity
from mjlog.core.events import GameEnd, GameStart, RoundStart, Win
from mjlog.core.record import GameRecord
from mjlog.formats import detect, read_bytes, tenhou6, write
from mjlog.reports.audit import audit_record
from tests.conftest import CORPUS, CORPUS_MISSING
from tests.outline import outline

RAW = CORPUS / "majsoul-raw"


def _paths() -> list[Path]:
    if not RAW.exists():
        pytest.skip(CORPUS_MISSING)
    return sorted(RAW.rglob("*.json"))


@pytest.fixture(scope="module")
def doc() -> dict[str, Any]:
    (path,) = _paths()
    loaded: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return loaded


def _read(doc: dict[str, Any]) -> GameRecord:
    (rec,) = read_bytes(json.dumps(doc, ensure_ascii=False).encode(), "test.json")
    return rec


def _messages(doc: dict[str, Any], name: str) -> list[dict[str, Any]]:
    return [a["result"]["data"] for a in doc["data"]["data"]["actions"]
            if a.get("result", {}).get("name") == ".lq." + name]


def _codes(rec: GameRecord) -> list[str]:
    """Every finding (notes left out), mismatch and violation of the record's audit."""
    report = audit_record(rec)
    return sorted([f.code for f in report.findings if f.severity is not Severity.INFO]
                  + [m.code for m in report.mismatches]
                  + [v.code for v in report.violations])


def test_every_raw_record_reads_verifies_and_proves_its_wall() -> None:
    for path in _paths():
        data = path.read_bytes()
        assert detect(data) == "majsoul", path
        (rec,) = read_bytes(data, str(path))
        assert rec.diagnostics == [], path
        report = audit_record(rec)
        assert (report.findings, report.mismatches, report.violations) == ([], [], []), path
        rounds = [e for e in rec.events if isinstance(e, RoundStart)]
        wins = [e for e in rec.events if isinstance(e, Win)]
        assert (len(rounds), len(wins)) == (9, 8)
        assert all(dict(rs.extra).get("majsoul.md5") for rs in rounds)
        start, end = rec.events[0], rec.events[-1]
        assert isinstance(start, GameStart) and start.ruleset.name == "majsoul"
        assert isinstance(end, GameEnd) and end.points == (-43.6, -6.4, 19.5, 30.5)


def test_the_wall_check_runs_on_every_round(doc: dict[str, Any]) -> None:
    """No round is left unverified: each compares its draws with its wall."""
    from mjlog.wall.verify import walls_for

    walls, notes = walls_for(_read(doc))
    assert len(walls) == 9 and all(w is not None for w in walls) and notes == []


def test_an_altered_wall_character_breaks_the_commitment(doc: dict[str, Any]) -> None:
    bad = copy.deepcopy(doc)
    first = _messages(bad, "RecordNewRound")[0]
    wall = first["paishan"]
    first["paishan"] = wall[:10] + ("1" if wall[10] != "1" else "2") + wall[11:]
    codes = _codes(_read(bad))
    assert {"wall-commitment-mismatch", "wall-dealt-mismatch", "wall-draw-mismatch"} <= set(
        codes)


def test_a_swapped_draw_is_found_at_both_places(doc: dict[str, Any]) -> None:
    bad = copy.deepcopy(doc)
    draws = _messages(bad, "RecordDealTile")
    draws[3]["tile"], draws[7]["tile"] = draws[7]["tile"], draws[3]["tile"]
    assert _codes(_read(bad)) == ["wall-draw-mismatch"] * 2


def test_a_commitment_that_does_not_match_is_named(doc: dict[str, Any]) -> None:
    bad = copy.deepcopy(doc)
    _messages(bad, "RecordNewRound")[1]["md5"] = "0" * 32
    report = audit_record(_read(bad))
    (finding,) = report.findings
    assert finding.code == "wall-commitment-mismatch" and finding.round == "E2-0"


def test_an_altered_score_change_is_a_mismatch(doc: dict[str, Any]) -> None:
    bad = copy.deepcopy(doc)
    deltas = _messages(bad, "RecordHule")[0]["delta_scores"]
    deltas[0] -= 1000
    deltas[2] += 1000
    assert "win-deltas" in _codes(_read(bad))


def _salted(doc: dict[str, Any], salt: str | None, wrong: bool = False) -> dict[str, Any]:
    """The record as later ones commit: sha256(paishan + salt), the salt revealed or not."""
    out = copy.deepcopy(doc)
    for rnd in _messages(out, "RecordNewRound"):
        del rnd["md5"]
        secret = "a1b2c3" if salt is None else salt
        rnd["sha256"] = hashlib.sha256((rnd["paishan"] + secret).encode()).hexdigest()
        if salt is not None:
            rnd["salt"] = salt + ("x" if wrong else "")
            rnd["saltSha256"] = hashlib.sha256(salt.encode()).hexdigest()
    return out


def test_a_salted_commitment_is_checked_once_the_salt_is_revealed(doc: dict[str, Any]) -> None:
    assert _codes(_read(_salted(doc, "e7f9"))) == []
    assert _codes(_read(_salted(doc, "e7f9", wrong=True))).count(
        "wall-commitment-mismatch") == 9
    unrevealed = audit_record(_read(_salted(doc, None)))
    assert [(f.code, f.severity) for f in unrevealed.findings] == [
        ("wall-uncommitted", Severity.INFO)]


def test_a_wall_without_a_commitment_gets_one_note(doc: dict[str, Any]) -> None:
    bare = copy.deepcopy(doc)
    for rnd in _messages(bare, "RecordNewRound"):
        del rnd["md5"]
    report = audit_record(_read(bare))
    assert [f.code for f in report.findings] == ["wall-uncommitted"]


def test_version_0_lists_the_same_messages(doc: dict[str, Any]) -> None:
    old = copy.deepcopy(doc)
    inner = old["data"]["data"]
    inner["version"] = 0
    inner["records"] = [a["result"] for a in inner.pop("actions") if a["type"] == 1]
    a, b = _read(doc), _read(old)
    assert b.diagnostics == [] and b.events[1:] == a.events[1:]


@pytest.mark.parametrize("text, code, where", [
    ('{"head": {"uuid": "x"}}', "not-a-game", "$"),
    ('{"head": {"uuid": "x"}, "data": {"data": {"version": 0, "records": [1]}}}',
     "bad-value", "$.data.data.records[0]"),
    ('{"head": {"uuid": "x"', "json-syntax", ""),
])
def test_bad_input_gives_a_positioned_diagnostic(text: str, code: str, where: str) -> None:
    (rec,) = read_bytes(text.encode(), "bad.json")
    assert rec.diagnostics[0].code == code
    assert (rec.diagnostics[0].src.path if rec.diagnostics[0].src else "") == where


def test_a_cut_round_keeps_what_came_before(doc: dict[str, Any]) -> None:
    cut = copy.deepcopy(doc)
    actions = cut["data"]["data"]["actions"]
    hule = next(i for i, a in enumerate(actions)
                if a.get("result", {}).get("name") == ".lq.RecordHule")
    actions[hule]["result"]["data"]["hules"][0]["hand"] = ["1m"]
    rec = _read(cut)
    assert [d.code for d in rec.diagnostics] == ["bad-value"]
    assert sum(isinstance(e, Win) for e in rec.events) == 7


@pytest.mark.parametrize("fmt", ["tenhou6", "mjai", "notation", "jsonl", "kobalab"])
def test_converted_and_read_back_it_is_the_same_game(doc: dict[str, Any], fmt: str) -> None:
    rec = _read(doc)
    (back,) = read_bytes(write(fmt, rec.events).encode(), "back", fmt=fmt)
    assert [d for d in back.diagnostics if d.severity is Severity.ERROR] == []
    if fmt in ("notation", "jsonl"):  # mjlog's own formats keep every event as it is
        assert back.events == rec.events
    else:
        values = fmt != "mjai"  # mjai carries a win's payments, not its value
        assert outline(back.events, values=values) == outline(rec.events, values=values)
        assert _codes(back) == []


def _tensoul_log(doc: dict[str, Any]) -> list[Any]:
    """The record's rounds as the public converter (tensoul) writes them."""
    pb = pytest.importorskip("ms.protocol_pb2")
    json_format = pytest.importorskip("google.protobuf.json_format")
    parser = pytest.importorskip("tensoul.parser")
    conv = parser.MajsoulPaipuParser()
    for action in doc["data"]["data"]["actions"]:
        if action.get("type") == 1:
            msg = action["result"]
            cls = getattr(pb, msg["name"].removeprefix(".lq."))
            conv.feed(json_format.ParseDict(msg["data"], cls(), ignore_unknown_fields=True))
    log: list[Any] = json.loads(json.dumps([k.dump() for k in conv.getvalue()]))
    return log


def test_written_as_tenhou6_it_is_the_public_converters_log_where_that_is_right(
        doc: dict[str, Any]) -> None:
    """mjlog's tenhou.net/6 of the record is tensoul's, but where they differ:

    * the tiles of a hand are in another order (a red five before or after the fives:
      the order means nothing);
    * tensoul writes ``裏ドラ(0飜)`` for a riichi win without ura dora (mjlog leaves out a
      yaku worth nothing unless the record was tenhou.net/6 to begin with);
    * the dealer's first discard, when it is of the kind listed last of the dealer's
      fourteen tiles (which both take as the dealer's first draw): tensoul writes it as
      the drawn tile (60), though the record says it was not (``moqie: false``);
    * South 4: tensoul names the dealer's seat wind 西 (自風 西); the dealer sits east
      and the hand's wind set is the 1z triplet: mjlog's 自風 東 is right, as its score
      check shows.
    """
    ours = json.loads(tenhou6.write(_read(doc).events))["log"]
    theirs = _tensoul_log(doc)
    assert len(ours) == len(theirs) == 9
    differences = []
    for r, (a, b) in enumerate(zip(ours, theirs, strict=True)):
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            if 4 <= i < 16 and i % 3 == 1:  # a dealt hand: the order means nothing
                x, y = sorted(x), sorted(y)
            if i == 16:  # the result: a yaku worth nothing is left out
                y = [[v for v in part if v != "裏ドラ(0飜)"] if isinstance(part, list)
                     else part for part in y]
            if i % 3 == 0 and i >= 6 and x != y and x[1:] == y[1:] and y[0] == 60:
                differences.append((r, "first discard"))
                continue
            if x != y:
                differences.append((r, json.dumps([x, y], ensure_ascii=False)))
    firsts = [d for d in differences if d[1] == "first discard"]
    assert len(firsts) == 3
    assert [d for d in differences if d[1] != "first discard"] == [
        (7, json.dumps([["和了", [-2900, 0, 0, 2900], [3, 0, 3, "30符2飜2900点", "自風 東(1飜)",
                                                         "ドラ(1飜)"]],
                        ["和了", [-2900, 0, 0, 2900], [3, 0, 3, "30符2飜2900点", "自風 西(1飜)",
                                                         "ドラ(1飜)"]]],
                       ensure_ascii=False))]


def _binary(doc: dict[str, Any]) -> tuple[bytes, bytes]:
    """The record as the platform sends it (``ResGameRecord``) and its ``data`` alone,
    made with the platform's protobuf classes (those the public converter uses)."""
    pb = pytest.importorskip("ms.protocol_pb2")
    json_format = pytest.importorskip("google.protobuf.json_format")
    inner = doc["data"]["data"]
    details = pb.GameDetailRecords(version=inner["version"])
    for a in inner["actions"]:
        action = details.actions.add(passed=a.get("passed", 0), type=a["type"])
        if "result" in a:
            msg = a["result"]
            cls = getattr(pb, msg["name"].removeprefix(".lq."))
            body = json_format.ParseDict(msg["data"], cls(), ignore_unknown_fields=True)
            action.result = pb.Wrapper(name=msg["name"],
                                       data=body.SerializeToString()).SerializeToString()
    blob = pb.Wrapper(name=".lq.GameDetailRecords", data=details.SerializeToString())
    answer = pb.ResGameRecord(data=blob.SerializeToString())
    json_format.ParseDict(doc["head"], answer.head, ignore_unknown_fields=True)
    return answer.SerializeToString(), blob.SerializeToString()


def test_the_binary_record_is_the_same_game(doc: dict[str, Any]) -> None:
    """Mahjong Soul's binary record reads to the events its JSON form gives: the whole
    answer with its head, and the data alone (no players' names or final result)."""
    answer, blob = _binary(doc)
    want = _read(doc)
    assert detect(answer) == detect(blob) == "majsoul-binary"
    (whole,) = read_bytes(answer, "game.bin")
    assert whole.diagnostics == [] and whole.events[1:] == want.events[1:]
    start, want_start = whole.events[0], want.events[0]
    assert isinstance(start, GameStart) and isinstance(want_start, GameStart)
    assert (start.players, start.ruleset) == (want_start.players, want_start.ruleset)
    (data,) = read_bytes(blob, "data.bin")  # no rules: red fives from the walls, noted
    assert [(d.code, d.src.path if d.src else "") for d in data.diagnostics] == [
        ("red-fives-inferred", "$.head")]
    assert data.events[1:] == want.events[1:-1]


def test_a_binary_record_cut_short_keeps_its_messages(doc: dict[str, Any]) -> None:
    answer, _ = _binary(doc)
    (cut,) = read_bytes(answer[:len(answer) // 2], "cut.bin")
    codes = [d.code for d in cut.diagnostics]
    assert codes == ["no-result", "binary-syntax"]
    assert 300 < len(cut.events) < len(_read(doc).events)
    (junk,) = read_bytes(b"\n\x15.lq.GameDetailRecords\x12\xff\xff", "junk.bin")
    assert [d.code for d in junk.diagnostics] in (["binary-syntax"], [])


def test_replay_shows_the_published_wall() -> None:
    """``mjlog replay --show-wall`` lays out what the round's wall still holds."""
    from click.testing import CliRunner

    from mjlog.cli import main

    (path,) = _paths()
    out = CliRunner().invoke(main, ["replay", str(path), "--round", "E1-0", "--turn", "8",
                                    "--show-wall"])
    assert out.exit_code == 0, out.output
    wall = out.output[out.output.index("\nwall"):]
    assert wall.startswith("\nwall\n  live, 66 left, next first: 3s 2s 7z")
    assert "dora indicators shown: 1m" in wall


def _whole_walls(doc: dict[str, Any], swap: bool = False) -> dict[str, Any]:
    """The record as Mahjong Soul writes it from 2022 on: each round's ``paishan`` the whole
    wall, the deal first (four tiles at a time to each seat from the dealer on, three
    times, then one each, then the dealer's fourteenth), committed to by sha256 with its
    salt. ``swap``: one tile of seat 1's deal and one of seat 2's exchanged in the wall."""
    out = copy.deepcopy(doc)
    for rnd in _messages(out, "RecordNewRound"):
        dealer = rnd["ju"] % 4
        hands = [rnd[f"tiles{(dealer + k) % 4}"] for k in range(4)]
        deal = [t for r in range(3) for hand in hands for t in hand[4 * r:4 * r + 4]]
        deal += [hand[12] for hand in hands] + [hands[0][13]]
        if swap:
            deal[4 + 1], deal[8 + 1] = deal[8 + 1], deal[4 + 1]
        rnd["paishan"] = "".join(deal) + rnd["paishan"]
        del rnd["md5"]
        rnd["salt"] = "5a17"
        rnd["sha256"] = hashlib.sha256((rnd["paishan"] + "5a17").encode()).hexdigest()
    return out


def test_a_whole_wall_of_136_tiles_deals_the_hands_and_proves_the_round(
        doc: dict[str, Any]) -> None:
    """A 272-character wall holds the deal too: the hands, the draws, the dora and ura
    indicators and the commitment are all proven from it, in every round."""
    from mjlog.wall.verify import walls_for

    whole = _whole_walls(doc)
    assert all(len(r["paishan"]) == 272 for r in _messages(whole, "RecordNewRound"))
    rec = _read(whole)
    walls, notes = walls_for(rec)
    assert len(walls) == 9 and all(w is not None for w in walls) and notes == []
    assert _codes(rec) == []


def test_a_whole_wall_that_deals_other_hands_is_a_dealt_mismatch(doc: dict[str, Any]) -> None:
    codes = _codes(_read(_whole_walls(doc, swap=True)))
    # seat 1's and seat 2's hands, in each of the 9 rounds; every draw still proven
    assert codes.count("wall-dealt-mismatch") == 18 and "wall-draw-mismatch" not in codes


def test_a_rooms_detail_rule_sets_kiriage_and_play_below_zero() -> None:
    """``have_qieshangmanguan`` is kiriage mangan; ``can_jifei: false`` plays on below zero,
    where riichi needs no points; absent, the platform's preset stands."""
    from mjlog.formats.majsoul import ruleset_of

    def rules(detail: dict[str, Any]) -> Any:
        return ruleset_of({"config": {"mode": {"mode": 2, "detail_rule": detail}}})

    room = rules({"have_qieshangmanguan": True, "can_jifei": False})
    assert room.riichi.kiriage and room.tobi == "none" and room.riichi.riichi_min_score == 0
    plain = rules({})
    assert not plain.riichi.kiriage and plain.tobi != "none" \
        and plain.riichi.riichi_min_score == 1000


@pytest.mark.parametrize("key", ["__type", "_type"])
def test_a_record_saved_by_a_lobby_client_reads_as_the_record(doc: dict[str, Any],
                                                              key: str) -> None:
    """Lobby clients save ``{head, records: [{__type: "RecordNewRound", …}, …]}`` (with the
    binary form beside it as a Buffer, or not): the same game as the record it came from."""
    messages = [a["result"] for a in doc["data"]["data"]["actions"]
                if isinstance(a.get("result"), dict) and "name" in a["result"]]
    saved: dict[str, Any] = {"head": doc["head"], "records": [
        {key: m["name"].removeprefix(".lq."), **m["data"]} for m in messages]}
    if key == "__type":
        saved["data"] = {"type": "Buffer", "data": [10, 2, 8, 1]}
    data = json.dumps(saved, ensure_ascii=False).encode()
    assert detect(data) == "majsoul"
    got, want = _read(saved), _read(doc)
    assert got.events[1:] == want.events[1:] and got.diagnostics == []
    start, spec = got.events[0], want.events[0]
    assert isinstance(start, GameStart) and isinstance(spec, GameStart)
    passed_over = ("majsoul.inputs-passed-over", "551")  # the inputs the client left out
    assert start == dataclasses.replace(
        spec, meta=tuple(kv for kv in spec.meta if kv != passed_over))


def _buffer_only(doc: dict[str, Any]) -> bytes:
    """The record as a lobby client saves its binary form alone: ``{head, data: {type:
    "Buffer", data: [bytes…]}}``, no ``records`` list, and a head without the rules."""
    head = copy.deepcopy(doc["head"])
    del head["config"]["mode"]["detail_rule"]
    blob = _binary(doc)[1]
    saved = {"head": head, "data": {"type": "Buffer", "data": list(blob)}}
    return json.dumps(saved, ensure_ascii=False).encode()


def test_a_buffer_only_record_reads_as_the_record(doc: dict[str, Any]) -> None:
    """#48 item 3: the binary ``GameDetailRecords`` in a Buffer is the game (it was
    ``not-a-game``); with no rules stated, the walls' red fives say the table had them."""
    data = _buffer_only(doc)
    assert detect(data) == "majsoul"
    want = _read(doc)
    (got,) = read_bytes(data, "buffer.json")
    assert got.events[1:] == want.events[1:]
    start, spec = got.events[0], want.events[0]
    assert isinstance(start, GameStart) and isinstance(spec, GameStart)
    assert start.ruleset == spec.ruleset and start.ruleset.red_fives
    (note,) = got.diagnostics
    assert (note.code, note.severity, note.src and note.src.path) == (
        "red-fives-inferred", Severity.INFO, "$.head")
    assert "walls hold red fives" in note.message


def test_a_buffer_only_record_without_a_red_five_is_read_without_them(
        doc: dict[str, Any]) -> None:
    """No round's wall or deal holds a red five: the game had none (each red five of the
    record made a plain one, as a table without them deals it)."""
    plain = copy.deepcopy(doc)
    plain["data"] = json.loads(re.sub(r"0([mps])", r"5\1", json.dumps(doc["data"])))
    (got,) = read_bytes(_buffer_only(plain), "plain.json")
    start = got.events[0]
    assert isinstance(start, GameStart) and not start.ruleset.red_fives
    assert [(d.code, "holds a red five" in d.message) for d in got.diagnostics] == [
        ("red-fives-inferred", True)]
    assert len([e for e in got.events if isinstance(e, RoundStart)]) == 9


@pytest.mark.parametrize("cut", [0.5, None])
def test_a_damaged_buffer_is_a_positioned_error_not_a_crash(doc: dict[str, Any],
                                                            cut: float | None) -> None:
    saved = json.loads(_buffer_only(doc))
    raw = saved["data"]["data"]
    saved["data"]["data"] = raw[:int(len(raw) * cut)] if cut else [0xFF] * 40
    (got,) = read_bytes(json.dumps(saved).encode(), "damaged.json")
    places = [(d.code, d.src.path if d.src else "") for d in got.diagnostics]
    assert ("binary-syntax", "$.data.data") in places
    rounds = [e for e in got.events if isinstance(e, RoundStart)]
    assert (0 < len(rounds) < 9) if cut else rounds == []

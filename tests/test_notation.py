"""mjlog notation: round trips over the corpus, malformed records, fuzzing, and the examples."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from mjlog.core.diagnostics import InputError
from mjlog.core.events import Comment, Discard, Draw, Event, GameStart, Win
from mjlog.core.record import GameRecord
from mjlog.core.tiles import KIND_OF
from mjlog.formats import detect, read_path
from mjlog.formats.notation import DIAGNOSTIC_CODES, pack_ids, read, unpack_ids, write
from mjlog.replay.engine import replay
from mjlog.reports.audit import audit_record

from .conftest import EXAMPLES, announced

HEAD = """mjlog-notation 1
[Players "Aoi" "Ben" "Chiyo" "Dai"]
[Ruleset "tenhou"]
"""
ROUND = """E1-0 dice=3,4 dora=9p
hands 123m456p789s1122z 234m567p234s5566z 456m789p345s3344z 789m123p678s7777z
"""


def one(text: str) -> list[Event]:
    recs = read(text.encode())
    assert len(recs) == 1
    assert recs[0].diagnostics == [], recs[0].diagnostics
    return recs[0].events


# ---------------------------------------------------------------- by hand


def test_a_short_round_reads_and_fills_in() -> None:
    events = one(HEAD + ROUND + "9m' 1z'\nron E 40fu 3900 seat-wind-east round-wind-east\n")
    win = next(ev for ev in events if isinstance(ev, Win))
    assert (win.winner, win.from_player, KIND_OF[win.win_tile]) == (0, 1, 27)
    assert win.deltas == (3900, -3900, 0, 0)
    assert win.scores_before == (25000,) * 4
    assert [ev.TYPE for ev in events][-3:] == ["discard", "win", "round_end"]
    assert replay_findings(events) == []


def replay_findings(events: list[Event]) -> list[str]:
    from mjlog.core.record import GameRecord
    return [f.code for f in replay(GameRecord(path="", format="notation",
                                              events=events)).findings]


def test_honour_letters_and_japanese_yaku() -> None:
    a = one(HEAD + ROUND + "9m' 1z'\nron E 40fu 3900 seat-wind-east round-wind-east\n")
    b = one(HEAD + ROUND.replace("1122z", "EESS") + "9m' E'\nron E 40fu 3900 自風東 場風東\n")
    assert a == b


def test_comments_are_kept_with_their_move() -> None:
    events = one(HEAD + ROUND + "9m' 1z' # Ben lets the east go\n"
                 "ron E 40fu 3900 seat-wind-east round-wind-east\n")
    i = next(i for i, ev in enumerate(events) if isinstance(ev, Comment))
    assert events[i] == Comment(text="Ben lets the east go")
    assert isinstance(events[i - 1], Discard)


def test_ids_pack_and_unpack() -> None:
    digits = [0, 1, 2, 3, 3, 2, 1]
    assert unpack_ids(pack_ids(digits)) == digits
    with pytest.raises(ValueError):
        unpack_ids("9:AB")


# ---------------------------------------------------------------- malformed

MALFORMED = [
    # (text, code, line, column)
    ("mjlog notation 1\n", "not-notation", 1, 1),
    (HEAD.replace('[Ruleset "tenhou"]', "[Ruleset tenhou]"), "bad-header", 3, 1),
    (HEAD.replace(' "Chiyo" "Dai"]', ']'), "bad-header", 2, 1),
    (HEAD.replace('"tenhou"]', '"tenhou"]\n[Rules "tsumo_loss=true"]'), "bad-header", 4, 9),
    (HEAD + "E5-0 dora=1m\n", "bad-round", 4, 1),
    (HEAD + "E1-0 dice=3,4\nhands 1m 1m 1m 1m\n", "bad-round", 4, 1),
    (HEAD + "E1-0 dora=9p\n9m'\n", "bad-round", 5, 1),
    (HEAD + "E1-0 dora=9p\nhands 123m456p 234m\n", "bad-round", 5, 1),
    (HEAD + ROUND.replace("dora=9p", "dora=9x"), "bad-tile", 4, 21),
    (HEAD + ROUND + "9m' 8z'\n", "bad-tile", 6, 5),
    (HEAD + ROUND + "9m' 1z' 4m&\n", "bad-token", 6, 9),
    (HEAD + ROUND + "E:pon11z\n", "bad-token", 6, 1),
    (HEAD + ROUND + "9m' 1z'\nron 40fu 3900\n", "bad-result", 7, 1),
    (HEAD + ROUND + "9m' 1z'\nron E 40fu 3900 pao=X\n", "bad-result", 7, 21),
    (HEAD + ROUND + "9m' 1z'\nabort sudden-rain\n", "bad-result", 7, 7),
    (HEAD + ROUND + "ids 5:AB\n9m'\n", "bad-ids", 5, 7),
    (HEAD + ROUND + "ids 53:A?\n9m'\n", "bad-ids", 6, 5),
    (HEAD + ROUND + "9m' 1z'\nron E 40fu 3900 honba=x\n", "bad-result", 7, 23),
]


@pytest.mark.parametrize(("text", "code", "line", "column"), MALFORMED)
def test_malformed_records_say_where(text: str, code: str, line: int, column: int) -> None:
    recs = read(text.encode())
    diags = [d for r in recs for d in r.diagnostics]
    assert diags, "expected a diagnostic"
    d = diags[0]
    assert (d.code, d.src.line if d.src else 0, d.src.column if d.src else 0) == (
        code, line, column), str(d)
    assert d.code in DIAGNOSTIC_CODES
    with pytest.raises(InputError):
        read(text.encode(), strict=True)


def test_reading_goes_on_after_a_bad_token() -> None:
    rec = read((HEAD + ROUND + "9m' && 1z'\nron E 40fu 3900 seat-wind-east "
                "round-wind-east\n").encode())[0]
    assert [d.code for d in rec.diagnostics] == ["bad-token"]
    assert any(isinstance(ev, Win) for ev in rec.events)


def test_bad_encoding() -> None:
    rec = read(b"mjlog-notation 1\n\xff\xfe")[0]
    assert rec.diagnostics[0].code == "bad-encoding"


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="ESWNHGR0123456789mpsz'*~<>:=-_,.#![]\"\n abcdehiklnoprtuy",
               max_size=300))
def test_fuzzed_text_gives_only_documented_errors(body: str) -> None:
    for rec in read((HEAD + ROUND + body).encode()):
        assert {d.code for d in rec.diagnostics} <= DIAGNOSTIC_CODES


@settings(max_examples=100, deadline=None)
@given(st.binary(max_size=400))
def test_fuzzed_bytes_give_only_documented_errors(data: bytes) -> None:
    for rec in read(b"mjlog-notation 1\n" + data):
        assert {d.code for d in rec.diagnostics} <= DIAGNOSTIC_CODES


# ---------------------------------------------------------------- corpus


@pytest.mark.slow
def test_every_corpus_record_survives_the_round_trip(
        tenhou_xml_records: list[tuple[Path, GameRecord]]) -> None:
    """Tenhou XML -> notation -> events equals Tenhou XML -> events, for every record."""
    same = 0
    for path, rec in tenhou_xml_records:
        text = write(rec.events)
        assert detect(text.encode()) == "notation"
        (back,) = read(text.encode(), str(path))
        assert back.diagnostics == [], (path, back.diagnostics[:3])
        assert back.events == rec.events, path
        same += 1
    assert same == 2485


def _kinds_only(events: list[Event]) -> list[object]:
    """Events with every tile reduced to its kind (what plain notation keeps)."""
    out: list[object] = []
    for ev in events:
        if isinstance(ev, Draw | Discard):
            out.append((ev.TYPE, ev.player, KIND_OF[ev.tile]))
        else:
            out.append(ev.TYPE)
    return out


@pytest.mark.slow
def test_plain_notation_is_smaller_and_the_same_game(
        tenhou_xml_records: list[tuple[Path, GameRecord]]) -> None:
    ratios = []
    for path, rec in tenhou_xml_records:
        data = path.read_bytes()
        plain = write(rec.events, exact=False)
        (back,) = read(plain.encode())
        assert _kinds_only(back.events) == _kinds_only(rec.events), path
        assert Counter(f.code for f in replay(back).findings) == Counter(
            f.code for f in replay(rec).findings), path
        start = rec.events[0]
        south = isinstance(start, GameStart) and start.ruleset.length == "south"
        if rec.complete and south and data[:2] != b"\x1f\x8b":
            ratios.append(len(plain.encode()) / len(data))
    ratios.sort()
    assert len(ratios) > 2000
    assert sum(ratios) / len(ratios) < 0.30
    assert ratios[len(ratios) // 2] < 0.30


# ---------------------------------------------------------------- examples

EXPECT = re.compile(r"^#\s*expect(?: under ([\w-]+))?:\s*(.*)$", re.MULTILINE)


def _announced(text: str, preset: str | None = None) -> Counter[str]:
    codes: Counter[str] = Counter()
    for m in EXPECT.finditer(text):
        if m.group(1) == preset:
            codes.update(announced(m.group(2)))
    return codes


EXAMPLE_FILES = sorted(EXAMPLES.glob("*.mjn"))


def test_there_are_ten_hand_written_examples() -> None:
    assert len(EXAMPLE_FILES) >= 10


@pytest.mark.parametrize("path", EXAMPLE_FILES, ids=lambda p: p.name)
def test_examples_give_exactly_the_findings_they_announce(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    assert EXPECT.search(text), "each example announces what the audit finds (# expect: ...)"
    (rec,) = read_path(path)
    assert rec.diagnostics == []
    presets = {m.group(1) for m in EXPECT.finditer(text)} | {None}
    for preset in presets:  # "# expect under kansaki: ..." audits under that preset
        entry = audit_record(rec, wall=True, scores=True, preset=preset)
        found = Counter(f.code for f in entry.problems)
        found.update(m.code for m in entry.mismatches)
        found.update(v.code for v in entry.violations)
        assert found == _announced(text, preset), preset


# ---------------------------------------------------------------- partial records


def test_a_partial_record_replays_what_it_can() -> None:
    text = (HEAD + "E1-0 dice=3,4 dora=9p\nhands 123m456p789s1122z ? ? ?\n9m' ?1z\n"
            "ron E 40fu 3900 seat-wind-east round-wind-east\n")
    (rec,) = read(text.encode())
    assert rec.diagnostics == []
    engine = replay(rec)
    assert [f.code for f in engine.findings] == ["partial-record"] * 4
    assert all(f.severity == "info" for f in engine.findings)
    assert read(write(rec.events).encode())[0].events == rec.events
    # a hand that is written down whole still gets every check: Aoi holds no 1p
    bad = text.replace("9m' ?1z", "9m1p ?1z")
    findings = [f.code for f in replay(read(bad.encode())[0]).findings]
    assert "discard-not-in-hand" in findings


def test_unknown_tiles_are_used_up_one_by_one() -> None:
    text = (HEAD + "E1-0 dice=3,4 dora=9p\nhands 123m456p789s1122z 234m567p234s556z? ? ?\n"
            "9m' ?1z 8p' 9s' 3m'\n")
    engine = replay(read(text.encode())[0])
    assert [f.code for f in engine.findings if f.severity == "error"] == []
    # Ben: one unknown tile dealt, one unknown draw, then a 1z thrown from them
    assert engine.state.players[1].unknown == 1


_TOKENS = ["1m'", "9p", "5z7s", "?3m", "0p'*", "S:pon55z", "W:chi46m", "N:kan111p", "ankan7z",
           "kakan5z", "kita", "dora:3s", "E>2s'", "W<4p", "S:paid", "N:bye", "E:back=x",
           "\nron E 40fu 3900 riichi\n", "\ntsumo S 30fu 1000 menzen-tsumo\n",
           "\ndraw shown=EW\n", "\nabort four-winds\n", "\nron N 20fu 8000 hand=1133557799m1122p "
           "chiitoitsu\n", "\nafter -\n", "\nnoend\n", "# note\n", "\nE2-0 dora=1z\n"]


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(_TOKENS), max_size=40))
@example(["1m'", "S:pon55z", "0p'*", "S:pon55z", "ankan7z"])  # a kan after riichi, no draw
def test_any_sequence_of_moves_audits_without_crashing(tokens: list[str]) -> None:
    """Whatever a person writes, the audit reports it; it never stops with a traceback."""
    for rec in read((HEAD + ROUND + " ".join(tokens) + "\n").encode()):
        entry = audit_record(rec)
        assert {d.code for d in entry.diagnostics} <= DIAGNOSTIC_CODES
        assert [f for f in entry.findings if f.code == "internal-error"] == []


def test_replay_shows_tiles_not_written_down() -> None:
    from click.testing import CliRunner

    from mjlog.cli import main
    out = CliRunner().invoke(main, ["replay", str(EXAMPLES / "11-discards-only.mjn"), "--round",
                                    "E1", "--turn", "3"]).output
    assert "hand:  - and 14 not written down" in out  # Ben: 13 dealt and one draw

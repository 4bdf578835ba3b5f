"""Botzone's Chinese Standard Mahjong (MCR) match data (``mjlog.formats.botzone``).

The matches below are our own, written in the shape of Botzone's published data (no
third-party record is copied): a win by discard over a pung, with a claim it beat; a
self-drawn win after a concealed kong and a chow; a drawn hand. Their fans and scores are
the ones the rules give (checked against ChineseOfficialMahjongHelper's calculator).
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mjlog.core.diagnostics import InputError
from mjlog.core.events import (
    Chi,
    ClosedKan,
    Comment,
    Discard,
    Draw,
    ExhaustiveDraw,
    Flower,
    GameEnd,
    GameStart,
    Pon,
    RoundStart,
    Win,
)
from mjlog.core.record import GameRecord
from mjlog.core.tiles import KIND_OF, kind_str
from mjlog.formats import FORMATS, botzone, detect_text, read_bytes
from mjlog.formats.head import Head

# Match 1: seat 1 pungs 中 off the dealer and wins seat 2's 南 on a single wait (Pure
# Straight 16, Half Flush 6, Dragon Pung 2, Single Wait 1 = 25): seat 2 pays 8 + 25.
MATCH1 = """Match m1
Wind 0
Player 0 Deal W1 W1 W2 W3 W4 T2 T3 T4 T5 T6 F1 F3 J1
Player 1 Deal B1 B2 B3 B4 B5 B6 B7 B8 B9 F2 J1 J1 W9
Player 2 Deal W5 W6 W7 T7 T8 T9 B1 B1 F2 F4 J2 J2 J3
Player 3 Deal W2 W3 W4 T1 T1 T9 B5 B6 B9 F2 F2 J3 J3
Player 0 Draw T1
Player 0 Play J1
Player 1 Peng J1
Player 1 Play W9
Player 2 Draw W5
Player 2 Play F2
Player 1 Hu F2 Ignore Player 3 Peng F2
Fan 25 清龙*1+混一色*1+箭刻*1+单钓将*1
Score -8 49 -33 -8
"""

# Match 2 (West round): the dealer makes a concealed kong of 東, draws its replacement,
# chows 6m off seat 3 and draws 9m (Half Flush 6, Seat Wind 2, Concealed Kong 2, Two
# Terminal Chows 1, Self-Drawn 1 = 12): each pays 8 + 12.
MATCH2 = """Match m2
Wind 2
Player 0 Deal F1 F1 F1 W1 W2 W3 W5 W7 W7 W8 J2 J2 B5
Player 1 Deal B1 B1 B2 B3 B4 T2 T2 T3 T5 T6 F3 F3 J1
Player 2 Deal W4 W4 B7 B8 B9 T7 T8 T9 F2 F4 F4 J3 J1
Player 3 Deal W2 W3 W4 B5 B6 T1 T1 T4 T5 F2 J3 J3 W8
Player 0 Draw F1
Player 0 AnGang F1
Player 0 Draw B6
Player 0 Play B5
Player 1 Draw T3
Player 1 Play T3
Player 2 Draw T4
Player 2 Play T4
Player 3 Draw W6
Player 3 Play W6
Player 0 Chi W6
Player 0 Play B6
Player 1 Draw T7
Player 1 Play T7
Player 2 Draw B3
Player 2 Play B3
Player 3 Draw T8
Player 3 Play T8
Player 0 Draw W9
Player 0 Hu W9
Fan 12 混一色*1+门风刻*1+暗杠*1+老少副*1+自摸*1
Score 60 -20 -20 -20
"""

MATCH3 = """Match m3
Wind 3
Player 0 Deal W1 W1 W2 W3 W4 T2 T3 T4 T5 T6 F1 F3 J1
Player 1 Deal B1 B2 B3 B4 B5 B6 B7 B8 B9 F2 J1 J1 W9
Player 2 Deal W5 W6 W7 T7 T8 T9 B1 B1 F2 F4 J2 J2 J3
Player 3 Deal W2 W3 W4 T1 T1 T9 B5 B6 B9 F2 F2 J3 J3
Player 0 Draw T1
Player 0 Play T1
Huang
Score 0 0 0 0
"""


def _read(text: str, strict: bool = False) -> list[GameRecord]:
    return botzone.read(text.encode(), "test.txt", strict=strict)


def _kinds(tiles: tuple[int, ...]) -> list[str]:
    return sorted(kind_str(KIND_OF[t]) for t in tiles)


def test_botzone_data_is_detected_and_by_no_other_format() -> None:
    text = (MATCH1 + "\n" + MATCH2).encode()
    assert detect_text(text) == "botzone"
    assert [n for n, f in FORMATS.items() if f.looks_like(Head(text))] == ["botzone"]
    assert not botzone.looks_like(b"Match m1\nPlayer 0 Deal W1\n")  # no Wind line


def test_tile_codes_name_the_dragons_as_botzone_does() -> None:
    # J1 中 (red, 7z), J2 發 (green, 6z), J3 白 (white, 5z); F1..F4 the winds
    assert [kind_str(botzone.tile_kind(c)) for c in ("W1", "B9", "T5", "F4", "J1", "J2", "J3")] \
        == ["1m", "9p", "5s", "4z", "7z", "6z", "5z"]
    assert botzone.tile_kind("H8") == 41
    with pytest.raises(ValueError):
        botzone.tile_kind("J4")


def test_each_match_is_a_game_of_one_hand_under_mcr() -> None:
    records = read_bytes((MATCH1 + "\n" + MATCH2 + "\n" + MATCH3).encode(), "t.txt")
    assert [r.format for r in records] == ["botzone"] * 3
    assert all(not r.diagnostics and r.complete for r in records)
    start = records[1].events[0]
    assert isinstance(start, GameStart) and start.ruleset.family == "mcr"
    assert dict(start.meta)["botzone.match"] == "m2"
    rs = next(e for e in records[1].events if isinstance(e, RoundStart))
    assert (rs.round_wind, rs.dealer, rs.scores) == (2, 0, (0, 0, 0, 0))


def test_the_deal_folds_the_dealers_first_draw_where_the_ruleset_deals_fourteen() -> None:
    rec = _read(MATCH1)[0]
    rs = next(e for e in rec.events if isinstance(e, RoundStart))
    dealt = botzone.ruleset().dealt(True)
    assert len(rs.hands[0]) == dealt and [len(h) for h in rs.hands[1:]] == [13, 13, 13]
    first = rec.events[rec.events.index(rs) + 1]
    if dealt == 14:  # the dealer's first draw (T1 = 1s) is in the deal; it discards first
        assert "1s" in _kinds(rs.hands[0]) and isinstance(first, Discard)
    else:
        assert isinstance(first, Draw) and kind_str(KIND_OF[first.tile]) == "1s"
    assert rec.src(rec.events.index(rs)).line == 6  # type: ignore[union-attr]


def test_draws_discards_and_a_pung_are_read_in_order_with_their_lines() -> None:
    rec = _read(MATCH1)[0]
    moves = [(i, e) for i, e in enumerate(rec.events) if isinstance(e, Draw | Discard | Pon)]
    said = [(type(e).__name__, e.player, kind_str(KIND_OF[e.called if isinstance(e, Pon)
                                                            else e.tile]), rec.positions[i])
            for i, e in moves]
    assert said[-5:] == [("Discard", 0, "7z", 8), ("Pon", 1, "7z", 9), ("Discard", 1, "9m", 10),
                         ("Draw", 2, "5m", 11), ("Discard", 2, "2z", 12)]
    pon = next(e for e in rec.events if isinstance(e, Pon))
    assert pon.from_player == 0 and _kinds(pon.tiles) == ["7z"] * 3


def test_a_win_by_discard_carries_the_records_fans_and_scores() -> None:
    rec = _read(MATCH1)[0]
    i, win = next((i, e) for i, e in enumerate(rec.events) if isinstance(e, Win))
    assert (win.winner, win.from_player, kind_str(KIND_OF[win.win_tile])) == (1, 2, "2z")
    assert _kinds(win.hand) == sorted(["1p", "2p", "3p", "4p", "5p", "6p", "7p", "8p", "9p",
                                       "2z", "2z"])
    assert [_kinds(m) for m in win.melds] == [["7z"] * 3]
    assert [(y.name, y.han) for y in win.yaku] == [
        ("pure-straight", 16), ("half-flush", 6), ("dragon-pung", 2), ("single-wait", 1)]
    assert (win.han, win.points, win.deltas) == (25, 49, (-8, 49, -33, -8))
    assert rec.positions[i] == 13  # the Hu line
    assert isinstance(rec.events[-1], GameEnd) and rec.events[-1].scores == (-8, 49, -33, -8)


def test_a_claim_that_lost_is_kept_as_a_comment() -> None:
    rec = _read(MATCH1)[0]
    comments = [(e.text, rec.positions[i]) for i, e in enumerate(rec.events)
                if isinstance(e, Comment)]
    assert comments == [("Ignore Player 3 Peng F2", 13)]


def test_a_self_drawn_win_after_a_concealed_kong_and_a_chow() -> None:
    rec = _read(MATCH2)[0]
    kong = next(i for i, e in enumerate(rec.events) if isinstance(e, ClosedKan))
    assert _kinds(rec.events[kong].tiles) == ["1z"] * 4  # type: ignore[union-attr]
    replacement = rec.events[kong + 1]
    assert isinstance(replacement, Draw) and replacement.rinshan and replacement.player == 0
    later = [e for e in rec.events[kong + 2:] if isinstance(e, Draw)]
    assert not any(d.rinshan for d in later)
    chi = next(e for e in rec.events if isinstance(e, Chi))
    assert (chi.player, chi.from_player, kind_str(KIND_OF[chi.called])) == (0, 3, "6m")
    assert _kinds(chi.tiles) == ["5m", "6m", "7m"]
    win = next(e for e in rec.events if isinstance(e, Win))
    assert (win.winner, win.from_player, win.points, win.han) == (0, 0, 60, 12)
    assert {y.name: y.han for y in win.yaku}["concealed-kong"] == 2
    assert sorted(map(_kinds, win.melds)) == [["1z"] * 4, ["5m", "6m", "7m"]]


def test_a_drawn_hand_is_an_exhaustive_draw_with_its_scores() -> None:
    rec = _read(MATCH3)[0]
    i, draw = next((i, e) for i, e in enumerate(rec.events) if isinstance(e, ExhaustiveDraw))
    assert draw.deltas == (0, 0, 0, 0) and rec.positions[i] == 9
    assert not any(isinstance(e, Win) for e in rec.events)


def test_every_fan_name_is_one_of_the_familys() -> None:
    from mjlog.families.mcr.fan import EXTRA_FANS, FAN_NAMES

    # every fan the family counts has its Botzone name, and no Botzone name is unknown
    assert set(botzone.FANS.values()) == set(FAN_NAMES) | set(EXTRA_FANS)
    assert len(botzone.FANS) == len(FAN_NAMES) + len(EXTRA_FANS)


def test_an_unknown_fan_is_kept_as_written_with_a_warning() -> None:
    rec = _read(MATCH1.replace("单钓将*1", "天和*1"))[0]
    win = next(e for e in rec.events if isinstance(e, Win))
    assert win.yaku[-1].name == "天和" and win.han == 25
    [diag] = rec.diagnostics
    assert (diag.code, diag.severity.value, diag.src.line) == (  # type: ignore[union-attr]
        "unknown-yaku", "warning", 14)


@pytest.mark.parametrize(("old", "new", "code", "line", "column"), [
    ("Player 2 Play F2", "Player 2 Play X2", "botzone-syntax", 12, 15),
    ("Player 2 Play F2", "Player 2 Discard F2", "botzone-syntax", 12, 1),
    ("Player 1 Peng J1", "Player 1 Chi J1", "botzone-move", 9, 1),
    ("Score -8 49 -33 -8", "Score -8 49 -33", "botzone-syntax", 15, 1),
    ("Wind 0", "Wind 5", "botzone-syntax", 2, 1),
])
def test_a_bad_line_is_a_diagnostic_at_its_place_and_the_rest_is_kept(
        old: str, new: str, code: str, line: int, column: int) -> None:
    text = MATCH1.replace(old, new) + "\n" + MATCH2
    records = _read(text)
    assert len(records) == 2 and not records[1].diagnostics
    diag = records[0].diagnostics[0]
    assert (diag.code, diag.src.line, diag.src.column) == (  # type: ignore[union-attr]
        code, line, column)
    kept = list(records[0].positions)
    assert line not in kept and (line == 2 or min(kept) < line)  # before it: kept
    with pytest.raises(InputError) as raised:
        _read(text, strict=True)
    assert raised.value.diagnostic.src.line == line  # type: ignore[union-attr]


def test_a_discard_of_a_tile_not_in_hand_is_read_for_the_replay_to_judge() -> None:
    rec = _read(MATCH1.replace("Player 1 Play W9", "Player 1 Play T5"))[0]
    assert not rec.diagnostics
    discard = [e for e in rec.events if isinstance(e, Discard)][1]
    assert (discard.player, kind_str(KIND_OF[discard.tile])) == (1, "5s")


def test_a_match_cut_short_keeps_its_moves_with_a_warning() -> None:
    cut = "\n".join(MATCH2.splitlines()[:12])
    [rec] = _read(cut)
    assert [d.code for d in rec.diagnostics] == ["no-result"]
    assert rec.diagnostics[0].src.line == 1  # type: ignore[union-attr]
    assert isinstance(rec.events[-1], Discard) and not rec.complete


def test_lines_before_any_match_are_reported_not_fatal() -> None:
    records = _read("Wind 0\n" + MATCH3)
    assert records[0].diagnostics[0].code == "botzone-syntax"
    assert records[-1].complete


@pytest.mark.parametrize("match", [MATCH1, MATCH2, MATCH3])
def test_our_matches_audit_clean_under_mcr(match: str) -> None:
    pytest.importorskip("MahjongGB", reason="the MCR fan counter (PyMahjongGB) is not installed")
    from mjlog.reports.audit import audit_record

    rep = audit_record(_read(match)[0])
    assert rep.complete and rep.wins + rep.draws == 1
    assert not rep.violations and not rep.mismatches
    assert [f.code for f in rep.findings if f.severity.value != "info"] == []


def test_a_wrong_score_or_fan_in_the_record_is_a_mismatch_at_the_hu_line() -> None:
    pytest.importorskip("MahjongGB", reason="the MCR fan counter (PyMahjongGB) is not installed")
    from mjlog.reports.audit import audit_record

    wrong = MATCH1.replace("Score -8 49 -33 -8", "Score -8 50 -34 -8").replace(
        "单钓将*1", "边张*1")
    rep = audit_record(_read(wrong)[0])
    found = {(m.code, m.field, m.recorded, m.computed) for m in rep.mismatches}
    assert {("win-yaku", "fan.edge-wait", 1, None), ("win-yaku", "fan.single-wait", None, 1),
            ("win-points", "points", 50, 49), ("win-deltas", "deltas[2]", -34, -33)} <= found
    assert {m.src.line for m in rep.mismatches} == {13}  # type: ignore[union-attr]


def test_a_flower_set_aside_is_drawn_then_replaced() -> None:
    rec = _read(MATCH1.replace("Player 2 Draw W5", "Player 2 BuHua H3\nPlayer 2 Draw W5"))[0]
    assert not rec.diagnostics
    i = next(i for i, e in enumerate(rec.events) if isinstance(e, Flower))
    drawn, flower, replaced = rec.events[i - 1:i + 2]
    assert isinstance(drawn, Draw) and isinstance(flower, Flower)
    assert drawn.tile == flower.tile == 138 and flower.player == 2  # 3f, the third flower
    assert rec.positions[i] == 11
    assert isinstance(replaced, Draw) and replaced.rinshan
    assert kind_str(KIND_OF[replaced.tile]) == "5m"


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(st.integers(0, len(MATCH1 + MATCH2) - 1),
                          st.sampled_from(["", " ", "\n", "X", "9", "W", "Player 1 ", "Hu ",
                                           "Peng ", "Chi ", "Score 1", "Match x\n"])),
                max_size=4))
def test_any_damage_gives_diagnostics_never_an_exception(
        edits: list[tuple[int, str]]) -> None:
    text = MATCH1 + "\n" + MATCH2
    for at, new in sorted(edits, reverse=True):
        text = text[:at] + new + text[at + 1:]
    for rec in _read(text):
        assert {d.code for d in rec.diagnostics} <= botzone.DIAGNOSTIC_CODES
        assert len(rec.positions) == len(rec.events)

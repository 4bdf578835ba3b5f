"""Competition presets (``ema``, ``wrc``): tie-split uma, chombo after uma, and each option
they set that changes a hand's outcome, played in notation and checked against points
computed by hand (``docs/rules.md`` section 9)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import mjlog
from mjlog.core.ruleset import PRESET_SOURCES, PRESETS, Ruleset, citation, overrides
from mjlog.reports.settlement import Settlement

_PLAYERS = '[Players "Aoi" "Ben" "Chiyo" "Dai"]\n'
_DRAW = """E1-0 dice=3,4 dora=9p
hands 123m456p789s1122z 234m567p234s5566z {west} 789m123p678s1357z
5p' 4p' 8p' 5s'
draw shown={shown}
end
"""
_TWO_TENPAI = _DRAW.format(west="456m789p345s3347z", shown="ES")
"""Aoi and Ben tenpai, Chiyo and Dai noten: +1500, +1500, -1500, -1500."""
_THREE_TENPAI = _DRAW.format(west="456m789p345s33z77z", shown="ESW")
"""Aoi, Ben and Chiyo tenpai: +1000 each, Dai -3000."""
_CHOMBO = """E1-0 dora=9p
hands 123m456p789s1122z 23m456p789s555z99s ? ?
9m' 1m' 9p' 8p'
4m'
ron S 40fu 1300 haku
end
"""
"""Ben rons 4m on a wait he discarded (1m-4m): furiten, chombo; the win is void."""


def _play(tmp_path: Path, ruleset: str, body: str, rules: str,
          **options: Any) -> mjlog.Report:
    path = tmp_path / "game.mjn"
    path.write_text(f'mjlog-notation 1\n{_PLAYERS}[Ruleset "{ruleset}"]\n{body}', "utf-8")
    report = mjlog.audit(path, rules, **options)
    assert isinstance(report, mjlog.Report)
    return report


def _settled(report: mjlog.Report) -> Settlement:
    st = report.game_report.settlement
    assert st is not None and st.points is not None
    return st


def test_two_pairs_tied_split_the_uma_of_their_places(tmp_path: Path) -> None:
    # EMA: 30,000 to start and back, uma 15/5/-5/-15. 31,500 twice and 28,500 twice.
    st = _settled(_play(tmp_path, "ema", _TWO_TENPAI, "ema"))
    assert st.corrected == [31500, 31500, 28500, 28500]
    # Split: the first two share (15 + 5) / 2 = 10, the last two (-5 - 15) / 2 = -10.
    assert st.points == [1.5 + 10, 1.5 + 10, -1.5 - 10, -1.5 - 10] == [11.5, 11.5, -11.5, -11.5]
    # Seat: the seat nearer the first dealer places higher.
    seat = _settled(_play(tmp_path, "ema", _TWO_TENPAI, "ema", tie_uma="seat"))
    assert seat.points == [16.5, 6.5, -6.5, -16.5]


def test_three_tied_share_three_places(tmp_path: Path) -> None:
    st = _settled(_play(tmp_path, "ema", _THREE_TENPAI, "ema"))
    assert st.corrected == [31000, 31000, 31000, 27000]
    # (15 + 5 - 5) / 3 = 5 each on +1; Dai -3 - 15.
    assert st.points == [6.0, 6.0, 6.0, -18.0]
    seat = _settled(_play(tmp_path, "ema", _THREE_TENPAI, "ema", tie_uma="seat"))
    assert seat.points == [16.0, 6.0, -4.0, -18.0]


def test_tied_first_places_share_the_oka(tmp_path: Path) -> None:
    # Dealt 25,000 (a tenhou record), counted from 30,000 under ema: the oka is 4 x 5 = 20.
    st = _settled(_play(tmp_path, "tenhou", _TWO_TENPAI, "ema"))
    assert st.corrected == [26500, 26500, 23500, 23500]
    # By seat: Ben -3.5 + 5 = 1.5, Chiyo -6.5 - 5, Dai -6.5 - 15, Aoi the rest,
    # -3.5 + 15 + 20 = 31.5. Split: Aoi and Ben (31.5 + 1.5) / 2 = 16.5 each, Chiyo and
    # Dai (-11.5 - 21.5) / 2 = -16.5 each.
    assert _settled(_play(tmp_path, "tenhou", _TWO_TENPAI, "ema", tie_uma="seat")).points \
        == [31.5, 1.5, -11.5, -21.5]
    assert st.points == [16.5, 16.5, -16.5, -16.5]
    # Three tied for first share 35 + 5 - 5: 35 / 3 each on -4 (7.67, to a tenth 7.7).
    three = _settled(_play(tmp_path, "tenhou", _THREE_TENPAI, "ema"))
    assert three.corrected == [26000, 26000, 26000, 22000]
    assert three.points == [7.7, 7.7, 7.7, -23.0]


def test_chombo_after_uma_leaves_the_places_and_the_tie(tmp_path: Path) -> None:
    report = _play(tmp_path, "ema", _CHOMBO, "ema")
    assert [v.code for v in report.violations] == ["furiten-ron"]
    st = _settled(report)
    # The win is void: everyone back at 30,000, four tied, sharing (15 + 5 - 5 - 15) / 4 = 0;
    # Ben loses 20 after the uma.
    assert st.corrected == [30000] * 4 and st.penalties == [0, 20, 0, 0]
    assert st.points == [0.0, -20.0, 0.0, 0.0]
    # chombo=mangan (paid at the table): Ben pays 4000 to the dealer, 2000 to the others,
    # and drops to last: Aoi 4 + 15, Chiyo and Dai tied 2 + (5 - 5) / 2, Ben -8 - 15.
    table = _settled(_play(tmp_path, "ema", _CHOMBO, "ema", chombo="mangan"))
    assert table.corrected == [34000, 22000, 32000, 32000]
    assert table.points == [19.0, -23.0, 2.0, 2.0]
    # With oka (dealt 25,000, counted from 30,000: 20 to the first place).
    oka = _settled(_play(tmp_path, "tenhou", _CHOMBO, "ema"))
    assert oka.corrected == [25000] * 4
    # All four tied share the uma and the oka: (15 + 20 + 5 - 5 - 15) / 4 = 5 on -5 each.
    assert oka.points == [0.0, -20.0, 0.0, 0.0]


def test_competition_rules_have_no_abortive_draws(tmp_path: Path) -> None:
    body = """E1-0 dora=9p
hands 123m456p789s1234z ? ? ?
9m1z 1z' 1z' 1z'
abort four-winds
"""
    assert [v.code for v in _play(tmp_path, "tenhou", body, "tenhou").violations] == []
    for preset in ("ema", "wrc"):
        codes = [v.code for v in _play(tmp_path, "tenhou", body, preset).violations]
        assert codes == ["abortive-unjustified"], preset


def test_wrc_has_one_winner_per_discard_and_ema_several(tmp_path: Path) -> None:
    body = """E1-0 dora=9p
hands 123m456p789s1122z 23m456p789s555z99s 23m567p234s666z88s ?
4m'
ron S 40fu 1300 haku
ron W 40fu 1300 hatsu
"""
    assert [v.code for v in _play(tmp_path, "tenhou", body, "ema").violations] == []
    assert [v.code for v in _play(tmp_path, "tenhou", body, "wrc").violations] \
        == ["double-ron"]


@pytest.mark.parametrize("name", ["ema", "wrc"])
def test_every_option_a_competition_preset_sets_is_cited(name: str) -> None:
    changed = {o.partition("=")[0] for o in overrides(PRESETS[name], Ruleset())}
    assert changed <= set(PRESET_SOURCES[name])
    for option in PRESET_SOURCES[name]:
        assert citation(name, option).startswith(("EMA", "WRC")), option
    assert citation("tenhou", "uma") == ""


def test_mjlog_rules_shows_each_competition_options_citation() -> None:
    """`mjlog rules ema` gives each option the preset sets with its rulebook section."""
    from click.testing import CliRunner

    from mjlog.cli import main

    result = CliRunner().invoke(main, ["rules", "ema"])
    assert result.exit_code == 0, result.output
    assert "tie_uma = split  (EMA Riichi Competition Rules 2016 §3.6.1" in result.output
    assert "red_fives = false  (EMA Riichi Competition Rules 2016 §1.3" in result.output
    tenhou = CliRunner().invoke(main, ["rules", "tenhou"]).output
    assert "red_fives = true\n" in tenhou  # no citation where none is recorded


# -- one hand per option where ema or wrc differ from tenhou: the outcome under each.
# Results-only rounds (docs/notation.md) write a hand's outcome without its tiles; their
# game is played under its own preset ([Ruleset]), so that ema and wrc deal 30,000.

def _own(tmp_path: Path, preset: str, body: str) -> mjlog.Report:
    """``body`` recorded and audited under ``preset``."""
    return _play(tmp_path, preset, body, preset)


def test_red_fives_count_only_under_tenhou(tmp_path: Path) -> None:
    # Ben's 34m 234p 0(red)67s 678s 55p rons 5m: pinfu tanyao, 30 fu; the red 5s is one
    # more han where red fives are played. Claimed 2 han, 2,000.
    body = """E1-0 dora=9p
hands 123m456p789s1122z 34m234p067s678s55p ? ?
5m'
ron S 30fu 2000 pinfu tanyao
end
"""
    tenhou = _own(tmp_path, "tenhou", body)
    assert {(m.code, m.recorded, m.computed) for m in tenhou.game_report.mismatches
            if m.field == "points"} == {("win-points", 2000, 3900)}
    assert _settled(tenhou).corrected == [25000 - 3900, 25000 + 3900, 25000, 25000]
    for preset in ("ema", "wrc"):
        report = _own(tmp_path, preset, body)
        assert report.game_report.mismatches == [], preset
        assert _settled(report).corrected == [28000, 32000, 30000, 30000]


def test_kiriage_rounds_up_only_under_wrc(tmp_path: Path) -> None:
    # Ben rons Chiyo 4 han 30 fu: 7,700 (8,000 with kiriage); then dealer Ben tsumo 3 han
    # 60 fu: 3,900 all (4,000 all).
    body = "E1-0\nron S from W 4han 30fu\nE2-0\ntsumo E 3han 60fu\nend\n"
    assert _settled(_own(tmp_path, "tenhou", body)).corrected == [21100, 44400, 13400, 21100]
    assert _settled(_own(tmp_path, "ema", body)).corrected == [26100, 49400, 18400, 26100]
    assert _settled(_own(tmp_path, "wrc", body)).corrected == [26000, 50000, 18000, 26000]


def test_thirteen_han_is_a_yakuman_only_under_tenhou(tmp_path: Path) -> None:
    body = "E1-0\nron S from W 13han 40fu\nend\n"
    assert _settled(_own(tmp_path, "tenhou", body)).corrected == [25000, 57000, -7000, 25000]
    for preset in ("ema", "wrc"):  # kazoe=sanbaiman: 24,000
        assert _settled(_own(tmp_path, preset, body)).corrected == [30000, 54000, 6000, 30000]


def test_a_score_below_zero_is_bust_only_under_tenhou(tmp_path: Path) -> None:
    body = "E1-0\nron S from W yakuman\nend\n"
    assert _settled(_own(tmp_path, "tenhou", body)).bust == [2]  # -7,000
    for preset in ("ema", "wrc"):  # tobi=none: -2,000 plays on
        st = _settled(_own(tmp_path, preset, body))
        assert st.corrected[2] == -2000 and st.bust == []


def test_start_return_uma_oka_and_rounding(tmp_path: Path) -> None:
    # Ben rons Chiyo for 3,900 and the game ends. tenhou: 25,000 dealt, 30,000 back, uma
    # 10-20, the 20 of oka to the first, scores to whole thousands, ties by seat: Ben
    # 28.9 -> 29 - 30 + 20 + 20 = 39, Aoi 25 - 30 + 10 = 5, Dai 25 - 30 - 10 = -15, Chiyo
    # 21.1 -> 21 - 30 - 20 = -29. ema and wrc: 30,000 dealt and back, uma 15/5/-5/-15,
    # exact, Aoi and Dai share (5 - 5) / 2: Ben 3.9 + 15, Chiyo -3.9 - 15, Aoi and Dai 0.
    body = "E1-0\nron S from W 3han 30fu\nend\n"
    assert _settled(_own(tmp_path, "tenhou", body)).points == [5.0, 39.0, -29.0, -15.0]
    for preset in ("ema", "wrc"):
        st = _settled(_own(tmp_path, preset, body))
        assert st.corrected == [30000, 33900, 26100, 30000]
        assert st.points == [0.0, 18.9, -18.9, 0.0]


@pytest.mark.parametrize("preset", ["ema", "wrc"])
def test_wrc_splits_ties_as_ema_does(tmp_path: Path, preset: str) -> None:
    assert _settled(_play(tmp_path, preset, _TWO_TENPAI, preset)).points \
        == [11.5, 11.5, -11.5, -11.5]
    assert _settled(_play(tmp_path, preset, _THREE_TENPAI, preset)).points \
        == [6.0, 6.0, 6.0, -18.0]


def test_a_written_chombo_is_paid_at_the_table_only_under_tenhou(tmp_path: Path) -> None:
    body = "E1-0\nchombo S\nend\n"
    # tenhou (chombo=mangan): Ben pays the dealer 4,000 and the others 2,000; Chiyo and Dai
    # tie on 27,000 and the seat decides: Aoi 29 - 30 + 20 + 20, Chiyo -3 + 10, Dai -3 - 10,
    # Ben 17 - 30 - 20.
    tenhou = _settled(_own(tmp_path, "tenhou", body))
    assert tenhou.corrected == [29000, 17000, 27000, 27000]
    assert tenhou.points == [39.0, -33.0, 7.0, -13.0]
    for preset in ("ema", "wrc"):  # all four tie and share the uma; Ben -20 after it
        st = _settled(_own(tmp_path, preset, body))
        assert st.corrected == [30000] * 4 and st.points == [0.0, -20.0, 0.0, 0.0]


def test_nagashi_mangan_is_paid_only_under_tenhou(tmp_path: Path) -> None:
    # Aoi (dealer, noten) discards 9m and 1m only: nagashi mangan, 4,000 all, under tenhou.
    body = """E1-0 dora=9p
hands 123m456p789s1357z ? ? ?
9m' 1p' 2p' 3p'
1m' 4p' 5p' 6p'
draw nagashi deltas=+12000,-4000,-4000,-4000
"""
    tenhou = _play(tmp_path, "tenhou", body, "tenhou")
    assert tenhou.game_report.mismatches == []
    assert _corrected(tenhou) == [37000, 21000, 21000, 21000]
    for preset in ("ema", "wrc"):  # no nagashi: nobody ready, nothing paid
        report = _play(tmp_path, "tenhou", body, preset)
        assert {m.code for m in report.game_report.mismatches} \
            == {"draw-nagashi", "draw-deltas"}
        assert _corrected(report) == [25000] * 4


def _corrected(report: mjlog.Report) -> list[int]:
    st = report.game_report.settlement
    assert st is not None
    return st.corrected


_ABORTS = {
    "nine_terminals": """E1-0 dora=9p
hands 19m19p19s1234567z ? ? ?
2m
abort nine-terminals
""",
    "four_riichi": """E1-0 dora=9p
hands ? ? ? ?
1z'* 2z'* 3z'* 4z'*
abort four-riichi
""",
    "triple_ron": """E1-0 dora=9p
hands 123m456p789s1122z 23m456p789s555z99s 23m567p234s666z88s 23m678p345s777z77p
4m'
abort triple-ron shown=SWN
""",
    "four_kans": """E1-0 dora=9p
hands 1111z2222z12345m 3333z4444z67899m ? ?
6p ankan1z dora:1s 7p ankan2z dora:2s 8p'
9p ankan3z dora:3s 1p ankan4z dora:4s 2p'
abort four-kans
""",
}
"""An abortive draw each, justified under tenhou (four_winds: see above)."""


@pytest.mark.parametrize("option", sorted(_ABORTS))
def test_abortive_draws_only_under_tenhou(tmp_path: Path, option: str) -> None:
    body = _ABORTS[option]
    assert [v.code for v in _play(tmp_path, "tenhou", body, "tenhou").violations] == []
    for preset in ("ema", "wrc"):
        report = _play(tmp_path, "tenhou", body, preset)
        assert [(v.code, v.src.line if v.src else 0) for v in report.violations] \
            == [("abortive-unjustified", 3 + body.count("\n"))], preset  # the abort line


_DOUBLE_RON = """E1-0 dora=9p
hands 123m456p789s1122z 23m456p789s555z99s 23m567p234s666z88s ?
4m'
ron S 40fu 1300 haku
ron W 40fu 1300 hatsu
end
"""


def test_double_ron_pays_both_winners_under_ema(tmp_path: Path) -> None:
    st = _settled(_play(tmp_path, "tenhou", _DOUBLE_RON, "ema"))
    assert st.corrected == [22400, 26300, 26300, 25000]


def test_the_head_bump_leaves_one_winner_under_wrc(tmp_path: Path) -> None:
    report = _play(tmp_path, "tenhou", _DOUBLE_RON, "wrc")
    assert [v.code for v in report.violations] == ["double-ron"]
    # Ben, first after Aoi, takes the tile: 1,300; Chiyo's ron is void.
    assert _settled(report).corrected == [23700, 26300, 25000, 25000]


def test_riichi_sticks_left_at_the_end_go_to_the_first_under_ema(tmp_path: Path) -> None:
    body = "E1-0\nriichi S\ndraw shown=S\nend\n"
    # Ben's stick is left on the table; Ben ready alone, +3,000: 29,000 / 32,000 / 29,000 /
    # 29,000. ema: Ben takes the stick, 3 + 15; the three tied share (5 - 5 - 15) / 3.
    assert _settled(_own(tmp_path, "ema", body)).points == [-6.0, 18.0, -6.0, -6.0]


def test_riichi_sticks_left_at_the_end_are_lost_under_wrc(tmp_path: Path) -> None:
    body = "E1-0\nriichi S\ndraw shown=S\nend\n"
    # wrc: the stick is lost: Ben 2 + 15, the points add up to -1.
    assert _settled(_own(tmp_path, "wrc", body)).points == [-6.0, 17.0, -6.0, -6.0]


_NOTEN_RIICHI = """E1-0 dora=9p
hands 123m456p789s1122z 14m456p789s555z99s ? ?
9m' 8m'* 9p' 8p'
{end}
end
"""
"""Ben declares riichi on a hand that is not ready (14m are no wait) at turn 4, line 3."""
_DEALS_IN = "3p' 1z'\nron E 40fu 3900 round-wind-east seat-wind-east"
_DRAW_SHOWN = "draw shown=ES"


def _riichi_faults(report: mjlog.Report) -> list[tuple[str, int, int | None, int]]:
    return [(v.code, v.turn, v.player, v.src.line if v.src else 0) for v in report.violations]


def test_a_riichi_on_a_hand_not_ready_is_judged_at_once_under_tenhou(tmp_path: Path) -> None:
    for end in (_DEALS_IN, _DRAW_SHOWN):
        report = _own(tmp_path, "tenhou", _NOTEN_RIICHI.format(end=end))
        assert _riichi_faults(report) == [("riichi-illegal", 4, 1, 6)]


def test_under_ema_a_riichi_not_ready_counts_only_when_the_hand_is_shown(
        tmp_path: Path) -> None:
    """EMA: Ben deals in, his hand never shown: a note, no chombo; the same riichi at an
    exhaustive draw, where a player in riichi shows his hand: the chombo, at its turn."""
    hidden = _own(tmp_path, "ema", _NOTEN_RIICHI.format(end=_DEALS_IN))
    assert hidden.violations == []
    (note,) = [f for f in hidden.findings if f.code == "unjudged"]
    assert note.player == 1 and "never revealed" in note.message
    assert _settled(hidden).penalties == [0.0] * 4
    shown = _own(tmp_path, "ema", _NOTEN_RIICHI.format(end=_DRAW_SHOWN))
    assert _riichi_faults(shown) == [("riichi-illegal", 4, 1, 6)]
    assert _settled(shown).penalties == [0.0, 20.0, 0.0, 0.0]


_OUTCOME_TESTS = {
    "red_fives": test_red_fives_count_only_under_tenhou,
    "starting_score": test_start_return_uma_oka_and_rounding,
    "uma": test_start_return_uma_oka_and_rounding,
    "rounding": test_start_return_uma_oka_and_rounding,
    "tie_uma": test_two_pairs_tied_split_the_uma_of_their_places,
    "tobi": test_a_score_below_zero_is_bust_only_under_tenhou,
    "chombo": test_a_written_chombo_is_paid_at_the_table_only_under_tenhou,
    "kiriage": test_kiriage_rounds_up_only_under_wrc,
    "kazoe": test_thirteen_han_is_a_yakuman_only_under_tenhou,
    "nagashi": test_nagashi_mangan_is_paid_only_under_tenhou,
    "four_winds": test_competition_rules_have_no_abortive_draws,
    **dict.fromkeys(_ABORTS, test_abortive_draws_only_under_tenhou),
    "double_ron": test_wrc_has_one_winner_per_discard_and_ema_several,
    "leftover_sticks": test_riichi_sticks_left_at_the_end_are_lost_under_wrc,
    "hidden_faults": test_under_ema_a_riichi_not_ready_counts_only_when_the_hand_is_shown,
}
"""The test that plays a hand whose outcome each option changes."""


@pytest.mark.parametrize("name", ["ema", "wrc"])
def test_every_option_a_preset_changes_has_a_hand_that_shows_it(name: str) -> None:
    changed = {o.partition("=")[0] for o in overrides(PRESETS[name], Ruleset())}
    assert changed <= set(_OUTCOME_TESTS), changed - set(_OUTCOME_TESTS)

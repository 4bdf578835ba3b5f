"""Competition presets (``ema``, ``wrc``): tie-split uma, chombo after uma, and each option
they set that changes a hand's outcome, played in notation and checked against points
computed by hand (``docs/rules.md`` section 9)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import mjlog
from mjlog.ruleset import PRESET_SOURCES, PRESETS, Ruleset, citation, overrides
from mjlog.settlement import Settlement

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

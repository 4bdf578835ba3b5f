"""A referee's path, as a new user walks it: each defect found there, and who owes what.

Every test here failed before the referee-grade work: unknown tiles convicted, a
ruleset applied to records of another family, a false win reported as a score
mismatch, counts that contradicted each other, and settlements that stopped
halfway. The settlements' expected scores are worked out by hand in comments.
"""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from mjlog.cli import main
from mjlog.core.diagnostics import Violation
from mjlog.core.events import (
    Event,
    ExhaustiveDraw,
    GameEnd,
    GameStart,
    RiichiAccepted,
    RoundStart,
    Win,
)
from mjlog.core.ruleset import PRESETS
from mjlog.core.tiles import Tile
from mjlog.families.registry import rules_by_code
from mjlog.reports.settlement import settle, uma_of

from .conftest import EXAMPLES


def run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, list(args))
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    return result.exit_code, result.output


KAN_AFTER_UNKNOWN_DRAW = """mjlog-notation 1
[Players "Aoi" "Ben" "Chiyo" "Dai"]
[Ruleset "tenhou"]
E1-0 dora=9p
hands 567m456p789s1122z 3334567m456p789s ? ?
9m' 1z'* 8p' 9s'
3z' ? ankan3m dora:4z 2p'
noend
"""


def test_an_unknown_draw_is_not_convicted_and_the_known_tiles_decide(tmp_path: Path) -> None:
    f = tmp_path / "kan.mjn"
    f.write_text(KAN_AFTER_UNKNOWN_DRAW, "utf-8")
    code, out = run("audit", str(f))
    assert code == 1
    assert "okuri-kan" not in out  # was: okuri-kan "with the ? just drawn kept in hand"
    assert "violation: kan-after-riichi" in out
    assert "waits before: 24578m" in out and "waits after: 47m" in out


def test_a_preset_of_another_family_is_not_applied_unless_forced() -> None:
    code, out = run("audit", str(EXAMPLES), "--rules", "kansaki")
    assert code == 1
    assert "ruleset taiwan16; Mei [0]" in out  # the Taiwanese records keep their own rules
    for wrong in ("win-unscorable", "rinshan-draw", "kuikae"):
        assert wrong not in out, wrong
    assert "ruleset-not-applied 5" in out  # the five Taiwanese examples
    code, forced = run("audit", str(EXAMPLES), "--rules", "kansaki", "--force-rules")
    assert code == 1 and "win-unscorable" in forced  # judged by riichi rules, as asked


def test_a_taiwanese_preset_does_not_value_a_riichi_game() -> None:
    code, out = run("audit", str(EXAMPLES / "east-ron.mjlog"), "--rules", "taiwan16", "--all")
    assert code == 0
    assert "ruleset tenhou (length=east)" in out and "290" not in out
    assert "--rules taiwan16 is a four-player taiwan16 ruleset, and this is a four-player " \
        "riichi record: audited under its own ruleset tenhou (length=east)" in out


OPEN_TANYAO = """mjlog-notation 1
[Players "Aoi" "Ben" "Chiyo" "Dai"]
[Ruleset "kansaki"]
E1-0 dora=9p
hands 123m456p789s1122z 22m345m567p88s67s9p 456m789p345s3344z 789m123p678s7777z
2m' S:pon22m 9p 5s'
ron S 30fu 1000 tanyao
"""


def test_a_win_without_yaku_is_a_violation_with_its_consequence(tmp_path: Path) -> None:
    f = tmp_path / "kuitan.mjn"
    f.write_text(OPEN_TANYAO, "utf-8")
    code, out = run("audit", str(f))
    assert code == 1
    assert "win-unscorable" not in out and "no_yaku" not in out
    assert "violation: no-yaku-win (rules §7, kansaki) [E1-0, turn 6, Ben [1]" in out
    assert "readings: 345m 567p 567s 222m 88s: no yaku" in out
    assert "why: all simples with an open hand (kuitan)" in out
    assert "1 game (0 complete), 1 round: 0 clean, 1 with problems (1 with rule " \
        "violations)" in out
    # Settled by hand: Chiyo's 1000 to Ben is reversed; Ben (not the dealer) pays 4000 to
    # Aoi (dealer) and 2000 to Chiyo and to Dai.
    assert "Aoi [0]: 29,000 (recorded 25,000), +4,000 over the rounds recorded: "\
        "is owed 4,000" in out
    assert "Ben [1]: 17,000 (recorded 26,000), -8,000 over the rounds recorded: "\
        "owes 8,000" in out
    assert "Chiyo [2]: 27,000 (recorded 24,000), +2,000 over the rounds recorded: "\
        "is owed 2,000" in out
    assert "Dai [3]: 27,000 (recorded 25,000), +2,000 over the rounds recorded: "\
        "is owed 2,000" in out


def test_the_counts_cannot_contradict_each_other(tmp_path: Path) -> None:
    code, out = run("audit", str(EXAMPLES / "13-taiwan-guo-shui.mjn"))
    assert code == 1
    assert "0 games with findings" not in out and "1 errors" not in out  # the old words
    assert "1 game (0 complete), 1 round: 0 clean, 1 with problems (1 with rule " \
        "violations)" in out
    # A warning alone is a problem of the record, never called an error (the audit exits 0).
    f = tmp_path / "discards.mjn"
    f.write_text(HEAD + "hands 123m456p789s1122z ? ? ?\n9m 1z 8p 9s\nnoend\n", "utf-8")
    code, out = run("audit", str(f))
    assert code == 0 and "warning: bad-token" in out
    assert "1 with problems (1 with errors or warnings in the record)" in out


def test_report_names_players_skipped_files_and_keeps_the_summary_with_o(
        tmp_path: Path) -> None:
    code, out = run("audit", str(EXAMPLES / "05-discard-not-in-hand.mjn"))
    assert code == 1
    assert "[E1-0, turn 4, Ben [1], line 11:7]" in out  # was: player 1
    report = tmp_path / "report.json"
    code, out = run("audit", str(EXAMPLES), "-o", str(report), "--format", "json")
    assert code == 1
    assert out.startswith(f"{report}: 26 games (6 complete), 61 rounds:")
    assert json.loads(report.read_text("utf-8"))["summary"]["games_with_problems"] == 11
    code, out = run("audit", str(EXAMPLES), "--summary-only")
    assert "violation:" not in out and "mismatch:" not in out
    # only the summary: files skipped are counted, not listed one a line
    assert "make_examples.py" not in out and "26 files read, 1 skipped (not a record)" in out


def test_every_command_exits_2_on_an_unreadable_input(tmp_path: Path) -> None:
    junk = tmp_path / "junk.txt"
    junk.write_text("not a record\n", "utf-8")
    for command in (["replay"], ["audit"], ["convert"], ["stats"]):
        code, out = run(*command, str(junk))
        assert code == 2, (command, out)


def _game(final: tuple[int, ...], points: tuple[float, ...] | None = None) -> list[Event]:
    start = GameStart(source="notation", players=(), ruleset=PRESETS["tenhou"])
    deal = RoundStart(round_wind=0, round_number=1, honba=0, kyotaku=0, dealer=0,
                      scores=(25000,) * len(final), dora_indicator=Tile(0),
                      hands=((),) * len(final))
    return [start, deal, GameEnd(scores=final, points=points)]


def test_final_points_with_uma_and_oka() -> None:
    # Tenhou: counted from 30,000, uma 10-20. Second 30,000: 0 + 10; third 20,000: -10 - 10;
    # fourth 15,000: -15 - 20; first takes the rest, 45 (its 5, uma 20 and the oka 20).
    st = settle(_game((35000, 30000, 20000, 15000), (45.0, 10.0, -20.0, -35.0)),
                [35000, 30000, 20000, 15000], [], [], PRESETS["tenhou"])
    assert st.points == [45.0, 10.0, -20.0, -35.0] == st.recorded_points
    # Tenhou rounds halves up: 24,500 is -5.5, so -5 (+10 for second).
    st = settle(_game((32900, 24500, 23300, 19300)), [0] * 4, [], [], PRESETS["tenhou"])
    assert st.points == [43.0, 5.0, -17.0, -31.0]
    # Each score is rounded before the return is taken off, a half away from zero:
    # -4,500 counts as -5,000, so -35 - 20 (not -34.5 rounded up to -34); 11,600 as 12,000.
    st = settle(_game((62900, 30000, 11600, -4500)), [0] * 4, [], [], PRESETS["tenhou"])
    assert st.points == [73.0, 10.0, -28.0, -55.0]
    # Since 2022 Tenhou counts tenths: a record whose points have them is settled so.
    tenths = PRESETS["tenhou"].with_options(rounding="none")
    st = settle(_game((62900, 30000, 11600, -4500)), [0] * 4, [], [], tenths)
    assert st.points == [72.9, 10.0, -28.4, -54.5]
    # Mahjong Soul counts from the start (no oka), uma 5-15, in tenths: its own record
    # of a game ending 40,500 / 39,500 / 23,600 / -3,600 gives total_point 30500, 19500,
    # -6400, -43600.
    st = settle(_game((40500, 39500, 23600, -3600)), [0] * 4, [], [], PRESETS["majsoul"])
    assert st.points == [30.5, 19.5, -6.4, -43.6]
    # JPML: counted from 30,000, exact to 0.1, uma by how many float (浮きウマ; two here,
    # seats 0 and 3 at 30,000 or more: +8, +4, -4, -8). Seat 3 (30,000) is second: 0 + 4;
    # seats 1 and 2 tie at 25,000 and the seat nearer the first dealer places higher:
    # seat 1 third, -5 - 4; seat 2 fourth, -5 - 8; seat 0 takes the rest, 18.
    jpml = PRESETS["jpml"]
    st = settle(_game((40000, 25000, 25000, 30000)), [0] * 4, [], [], jpml)
    assert st.points == [18.0, -9.0, -13.0, 4.0]
    # Three floating: +8, +3, +1, -12, as the JPML's own 十段戦 records of the corpus show.
    st = settle(_game((41500, 35300, 34100, 9100)), [0] * 4, [], [], jpml)
    assert st.points == [19.5, 8.3, 5.1, -32.9]
    assert uma_of(jpml, 4, [50000, 25000, 25000, 20000]) == [12.0, -1.0, -3.0, -8.0]
    assert uma_of(PRESETS["tenhou-sanma"], 3) == [20.0, 0.0, -20.0]


def test_every_cited_rule_is_in_the_rulebook_and_printed_by_mjlog_rules() -> None:
    rulebook = (EXAMPLES.parent / "docs" / "rules.md").read_text("utf-8")
    for code, rule in rules_by_code().items():
        number, _, ident = rule.section.partition(" ")
        assert f"\n## {number}. " in rulebook, (code, rule.section)
        assert not ident or f"**{ident} " in rulebook or f"**{ident}**" in rulebook \
            or f"- **{ident}**" in rulebook, (code, ident)
        code_, out = run("rules", code)
        assert code_ == 0 and f"### `{code}`: §{rule.section}" in out
        assert "Violating" in out and "Legal" in out
    code_, out = run("rules", "okuri")
    assert code_ == 2 and "did you mean okuri-kan?" in out


HEAD = '''mjlog-notation 1
[Players "Aoi" "Ben" "Chiyo" "Dai"]
E1-0 dora=9p
'''
HANDS = "hands 123m456p789s1122z 234m567p234s5556z 456m789p345s3344z 789m123p678s7777z\n"


def _said(tmp_path: Path, text: str) -> tuple[int, str]:
    f = tmp_path / "record.mjn"
    f.write_text(text, "utf-8")
    return run("audit", str(f), "--all")


def test_notation_mistakes_get_a_message_a_player_understands(tmp_path: Path) -> None:
    cases = [
        # a 12-tile hand (was: accepted)
        (HEAD + HANDS.replace("1122z", "112z") + "9m' 1m'\n",
         "error: bad-round [line 4:7]: E's hand has 12 tiles; a hand is dealt 13 (14 for "
         "the dealer, who then discards first)"),
        # a dealer with 14 tiles who writes a draw too (was: out-of-turn)
        (HEAD + HANDS.replace("1122z", "1122z9m") + "4m7z\n",
         "error: bad-token [line 5:1]: E is to discard, not to draw (the dealer was dealt "
         "14 tiles: the 14th is the first draw): write the discard alone, e.g. 7z"),
        # discards written without their draws (was: player -1 and a bogus chombo)
        (HEAD + "hands 123m456p789s1122z ? ? ?\n9m 1z 8p 9s\n",
         "warning: bad-token [line 5:1]: every move of this round is a single tile"),
        # an unknown yaku name (was: taken as a yaku)
        (HEAD + HANDS + "9m' 1m'* 8p' 9s'\n3m' 5z2m 6z'\nron S 40fu 2600 reach haku",
         "'reach' is no yaku mjlog knows: did you mean riichi"),
        # a tsumo written after another player's discard
        (HEAD + HANDS + "9m' 1m' 8p' 9s'\n3m' 5z2m 6z'\ntsumo S 40fu 2600",
         "tsumo S, but the move before is W's discard of 6z: a win on a discard is "
         "written 'ron S'"),
        # a ron by the player who has just drawn
        (HEAD + HANDS + "9m' 6z\nron S 40fu 2600",
         "ron S, but S has just drawn 6z: a win on one's own draw is written 'tsumo S'"),
    ]
    for text, message in cases:
        _, out = _said(tmp_path, text)
        assert message in out, (message, out)


def test_a_missing_first_line_is_named(tmp_path: Path) -> None:
    f = tmp_path / "game.mjn"
    f.write_text((EXAMPLES / "06-kan-after-riichi.mjn").read_text("utf-8").split("\n", 1)[1],
                 "utf-8")
    code, out = run("audit", str(f))
    assert code == 2
    assert "add `mjlog-notation 1` as the first line" in out  # was: not a record


def test_a_win_without_points_is_valued(tmp_path: Path) -> None:
    # Ben's closed 234m 567p 234s 555z 6z waits on 6z: haku 1 han; 20 + 10 (closed ron)
    # + 8 (concealed honour triplet) + 2 (single wait) + 2 (a dragon pair) = 42, so 50 fu:
    # 50 x 2^3 x 4 = 1600 from Chiyo.
    code, out = _said(tmp_path, HEAD + HANDS + "9m' 1m' 6z'\nron S\n")
    assert "info: valued [line 6:1]: the win is written without its value: mjlog values " \
        "it at 50fu 1600 (haku 1)" in out
    assert code == 0 and "scores: 1 of 1 win" in out


SETTLED = {
    # Aoi (dealer) rons Ben: the computed 3900 replaces the 2900 (or 2000) recorded.
    "02-miscounted-payment.mjn": ("", [28900, 21100, 25000, 25000]),
    "03-wrong-fu.mjn": ("", [28900, 21100, 25000, 25000]),
    "04-forgotten-yaku.mjn": ("", [28900, 21100, 25000, 25000]),
    # Replay errors only: nothing to settle, nobody owes anything.
    "05-discard-not-in-hand.mjn": ("", [25000, 25000, 25000, 25000]),
    "09-out-of-turn.mjn": ("", [25000, 25000, 25000, 25000]),
    # Under kansaki Ben's 1000 from Chiyo is void; his chombo: 4000 to Aoi (dealer),
    # 2000 to Chiyo and to Dai.
    "12-sakizuke.mjn": ("kansaki", [29000, 17000, 27000, 27000]),
    # A false win in 過水 or with a dead hand is void, with no penalty under taiwan16.
    "13-taiwan-guo-shui.mjn": ("", [0, 0, 0, 0]),
    "16-taiwan-pon-discard.mjn": ("", [0, 0, 0, 0]),
    # Mei pays the computed 130, not 110.
    "14-taiwan-payment.mjn": ("", [-130, 130, 0, 0]),
    # Furiten ron void: Chiyo's 2600 and Ben's riichi stick go back; Ben's chombo.
    "18-furiten-riichi-ron.mjn": ("", [29000, 17000, 27000, 27000]),
    # The first call carries no yaku: Dai's 1000 goes back; Ben's chombo.
    "19-sakizuke-first-call.mjn": ("", [29000, 17000, 27000, 27000]),
    # Two tenpai, two noten: the pool of 3000 is 1500 each way, not 1000.
    "20-noten-payment.mjn": ("", [26500, 26500, 23500, 23500]),
}


def test_every_example_dispute_says_who_owes_what() -> None:
    for name, (preset, scores) in SETTLED.items():
        args = ["audit", str(EXAMPLES / name), "--format", "json"]
        code, out = run(*(args + (["--rules", preset] if preset else [])))
        assert code == 1, name  # every dispute has something to report
        (game,) = json.loads(out)["games"]
        st = game["settlement"]
        assert st["corrected"] == scores, (name, st)
        changes = [c - s for c, s in zip(scores, st["start"], strict=True)]
        _, text = run(*(args[:2] + (["--rules", preset] if preset else [])))
        for p, change in enumerate(changes):
            words = (f"is owed {change:,}" if change > 0 else f"owes {-change:,}" if change < 0
                     else "even")
            assert f"[{p}]: {scores[p]:,}" in text and words in text, (name, p, text)


def test_bust_follows_the_tobi_option() -> None:
    game = _game((52000, 30000, 18000, 0))
    assert settle(game, [0] * 4, [], [], PRESETS["tenhou"]).bust == []  # below zero only
    at_zero = PRESETS["tenhou"].with_options(tobi="at-zero")
    assert settle(game, [0] * 4, [], [], at_zero).bust == [3]
    assert settle(_game((53000, 30000, 18000, -1000)), [0] * 4, [], [],
                  PRESETS["tenhou"]).bust == [3]


def _stick_then_later_win() -> tuple[list[Event], Violation]:
    """E1: Ben (seat 1) declares riichi and makes a kan that is chombo; the round ends in
    a draw with nobody tenpai. E2: Chiyo (seat 2) rons Dai for 2000 and takes the stick."""
    deal = RoundStart(round_wind=0, round_number=1, honba=0, kyotaku=0, dealer=0,
                      scores=(25000,) * 4, dora_indicator=Tile(0), hands=((),) * 4)
    again = RoundStart(round_wind=0, round_number=2, honba=1, kyotaku=1, dealer=1,
                       scores=(25000, 24000, 25000, 25000), dora_indicator=Tile(0),
                       hands=((),) * 4)
    win = Win(winner=2, from_player=3, hand=(), win_tile=Tile(0), points=2000,
              deltas=(0, 0, 3300, -2300), honba=1, kyotaku=1)
    events: list[Event] = [
        GameStart(source="notation", players=(), ruleset=PRESETS["tenhou"]), deal,
        RiichiAccepted(player=1), ExhaustiveDraw(deltas=(0, 0, 0, 0)), again, win]
    chombo = Violation(code="kan-after-riichi", rule="1 K4", citation="", round="E1-0",
                       player=1, event=2)
    return events, chombo


def test_a_chombos_riichi_stick_goes_back_as_the_ruleset_says() -> None:
    events, chombo = _stick_then_later_win()
    final = [25000, 24000, 28300, 22700]
    # Replayed (Tenhou): Ben's stick comes back to him from Chiyo, who took it in E2;
    # then Ben pays the mangan chombo: 4000 to Aoi (dealer), 2000 to Chiyo and Dai.
    st = settle(events, final, [chombo], [], PRESETS["tenhou"])
    assert st.corrected == [29000, 17000, 29300, 24700]
    assert sum(st.corrected) == sum(final)
    # Not replayed: the stick stays where the record has it (Chiyo won it).
    kept = PRESETS["tenhou"].with_options(chombo_replay=False)
    assert settle(events, final, [chombo], [], kept).corrected == [29000, 16000, 30300, 24700]
    # JPML: no payment now, 20 points off Ben's final tally.
    st = settle(events, final, [chombo], [], PRESETS["jpml"])
    assert st.corrected == [25000, 25000, 27300, 22700] and st.penalties == [0, 20, 0, 0]


def test_a_fixed_chombo_in_an_unfinished_record_says_what_it_costs_at_the_end() -> None:
    code, out = run("audit", str(EXAMPLES / "18-furiten-riichi-ron.mjn"), "--rules", "jpml")
    assert code == 1
    # Chiyo's 2600 and Ben's stick go back; nobody pays now; Ben loses 20 points later.
    assert "Ben [1]: 25,000 (recorded 27,600), +0 over the rounds recorded: even, and " \
        "loses 20 points at the game's end" in out
    assert "Chiyo [2]: 25,000 (recorded 22,400), +0 over the rounds recorded: even" in out

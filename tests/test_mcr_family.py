"""Chinese Official mahjong (mjlog.families.mcr): hand-written disputes get the right verdicts at
the right place, the family's options and notation, and generated games that replay
clean, verify their scores and survive the notation round trip.

The disputes are MCR rounds in notation: E is the dealer and holds 14 tiles, S waits
on 1p and 4p with 123456789m 23p 55s (a Pure Straight). Their fans were counted by
hand against the 2006 rules' fan table (the exclusions included), not taken from the
code under test.
"""

from __future__ import annotations

import multiprocessing
from collections import Counter

import pytest

from mjlog.core.diagnostics import ScoreMismatch, Violation
from mjlog.core.events import AddedKan, Event, Flower, RoundStart, Win
from mjlog.core.record import GameRecord
from mjlog.core.ruleset import Ruleset, flat, from_flat, preset
from mjlog.core.tiles import KIND_OF, Tile, parse_kinds
from mjlog.families.mcr.family import MCR_FAMILY
from mjlog.families.mcr.options import MCROptions, mcr_options
from mjlog.families.mcr.scorer import fan_word
from mjlog.families.registry import FAMILIES, family_of, random_game
from mjlog.formats import notation
from mjlog.replay.engine import Engine
from mjlog.reports.audit import audit_record

RS = preset("mcr")
DEAL = "hands 1488999p1122336z 123456789m23p55s 456789m567p4569s 123456m123567p8s"
ROBBED = ("E1-0\nhands 1488999p1122336z 123456789m23p55s 456789m44567p45s "
          "123456m123567p8s\n4p W:pon44p 4s 1z' 2z' 7z' 4p kakan4p\n")
"""W pons E's 4p, draws the fourth and adds it: S robs the kong (S's 234p)."""


def _read(body: str, rules: str = "") -> GameRecord:
    header = f'[Rules "{rules}"]\n' if rules else ""
    text = f'mjlog-notation 1\n[Players "A" "B" "C" "D"]\n[Ruleset "mcr"]\n{header}{body}'
    (rec,) = notation.read(text.encode())
    assert [str(d) for d in rec.diagnostics if d.severity != "info"] == []
    return rec


def _audit(body: str, rules: str = "") -> tuple[list[Violation], list[ScoreMismatch], list[str]]:
    rep = audit_record(_read(body, rules), wall=False)
    return rep.violations, rep.mismatches, [str(p) for p in rep.problems]


def _place(x: Violation | ScoreMismatch) -> tuple[str, str, int, int | None]:
    return x.code, str(x.round), x.turn, x.player


# -- the family and its options


def test_the_family_is_registered_with_its_options_and_preset() -> None:
    assert family_of(RS) is MCR_FAMILY is FAMILIES["mcr"]
    assert isinstance(RS.family_options, MCROptions)
    assert (RS.players, RS.length, RS.starting_score, RS.double_ron) == (4, "full", 0, False)
    assert (RS.table.tiles, RS.table.dead_wall, RS.table.hand) == (144, 0, 13)
    assert (RS.dealt(True), RS.dealt(False)) == (14, 13)
    options = flat(RS)
    assert {k: v for k, v in options.items() if k.startswith("mcr_")} == {
        "mcr_minimum_fan": 8, "mcr_base": 8, "mcr_false_win": 10,
        "mcr_flowers": True}
    assert from_flat(options) == RS
    changed = RS.with_options(mcr_minimum_fan=6)
    assert mcr_options(changed).minimum_fan == 6
    with pytest.raises(TypeError, match="mcr family"):
        Ruleset().with_options(mcr_base=4)
    with pytest.raises(TypeError, match="not mcr"):
        mcr_options(Ruleset())
    assert (MCR_FAMILY.has_dora, MCR_FAMILY.riichi_stick, MCR_FAMILY.value_unit) == (
        False, False, "fan")


def test_fan_names_read_in_any_spelling() -> None:
    assert fan_word("Pung of Terminals or Honors") == "pung-of-terminals-or-honors"
    assert MCR_FAMILY.yaku_name("Pure Straight") == "pure-straight"
    assert MCR_FAMILY.yaku_name("pure straight") == "pure-straight"
    assert MCR_FAMILY.yaku_name("pure-straight") == "pure-straight"
    assert MCR_FAMILY.default_han("pure-straight", False, RS) == 16
    assert MCR_FAMILY.default_han("flower-tiles", False, RS) == 1
    assert len(MCR_FAMILY.yaku_names()) >= 81
    assert MCR_FAMILY.limit(88, 0, RS) == ""


def test_readiness_and_a_drawn_hand_pay_nothing() -> None:
    counts = [0] * 34
    for k, _ in parse_kinds("123456789m23p55s"):
        counts[k] += 1
    shanten, mask = MCR_FAMILY.readiness(counts, 0, RS)
    assert shanten == 0
    assert {k for k in range(34) if mask >> k & 1} == {KIND_OF[4 * 9], KIND_OF[4 * 12]}
    win = Win(winner=1, from_player=2, hand=(), win_tile=Tile(0), han=28)
    assert MCR_FAMILY.result_deltas(win, players=4, dealer=0, first=True, ruleset=RS) == (
        -8, 52, -36, -8)
    tsumo = Win(winner=1, from_player=1, hand=(), win_tile=Tile(0), han=10)
    assert MCR_FAMILY.result_deltas(tsumo, players=4, dealer=0, first=True, ruleset=RS) == (
        -18, 54, -18, -18)


# -- disputes


def test_a_false_win_under_eight_fan_without_the_flowers_is_caught_and_settled() -> None:
    # S sets two flowers aside (Flower Tiles 2) and rons on 1p: Concealed Hand 2, All
    # Chows 2, Mixed Double Chow 1 (123m 123p), Short Straight 1 (123m 456m): 6 fan, 8
    # only with the flowers.
    body = ("E1-0\nhands 1488999p1122336z 123456m23p678s1f2f 456789m567p4569s "
            "123456m123567p8s\nS:flower1f 5s S:flower2f 5s 1p\n"
            "ron S concealed-hand all-chows mixed-double-chow short-straight flower-tiles:2 ")
    violations, mismatches, problems = _audit(body + "deltas=+10,-30,+10,+10\n")
    assert problems == []
    assert [_place(v) for v in violations] == [("fan-below-minimum", "E1-0", 5, 1)]
    assert "6 fan without the flowers, 8 needed" in violations[0].message
    assert "pays 10 to each other player" in violations[0].consequence
    assert mismatches == []  # the penalty is what the record paid
    _, mismatches, _ = _audit(body + "deltas=+8,+24,-8,-8\n")  # paid as if it were a win
    assert sorted((m.code, m.player, m.recorded, m.computed) for m in mismatches) == [
        ("win-deltas", 0, 8, 10), ("win-deltas", 1, 24, -30), ("win-deltas", 2, -8, 10),
        ("win-deltas", 3, -8, 10)]
    # under a ruleset of 6 fan the same hand is a win
    violations, _, _ = _audit(body + "\n", rules="mcr_minimum_fan=6")
    assert violations == []


def test_a_false_win_paid_as_a_win_is_settled_with_the_penalty() -> None:
    # the 6-fan ron of S, paid by the record as if it were a win (E 8 + 6, the others 8)
    body = ("E1-0\nhands 1488999p1122336z 123456m23p55s678s 456789m567p4569s "
            "123456m123567p8s\n1p\nron S concealed-hand all-chows mixed-double-chow "
            "short-straight deltas=-14,+30,-8,-8\n")
    rep = audit_record(_read(body), wall=False)
    assert [_place(v) for v in rep.violations] == [("fan-below-minimum", "E1-0", 1, 1)]
    settlement = rep.settlement
    assert settlement is not None
    assert settlement.recorded == [-14, 30, -8, -8]
    assert settlement.corrected == [10, -30, 10, 10]  # 10 from S to each other player


def test_a_hand_that_is_no_win_is_a_false_win() -> None:
    body = f"E1-0\n{DEAL}\n1p 7z' 9s' 8s' 7z1z\nron S deltas=+10,-30,+10,+10\n"
    violations, mismatches, problems = _audit(body)
    assert problems == [] and mismatches == []
    assert [_place(v) for v in violations] == [("no-winning-shape", "E1-0", 9, 1)]


def test_a_wrong_payment_is_found_where_it_is_paid() -> None:
    # S rons the dealer's 1p: Pure Straight 16, All Chows 2, Concealed Hand 2, Mixed
    # Double Chow 1 (123m 123p) = 21 fan; E pays 8 + 21, W and N 8 each: S gains 45.
    win = "ron S pure-straight all-chows concealed-hand mixed-double-chow"
    violations, mismatches, problems = _audit(f"E1-0\n{DEAL}\n1p\n{win}\n")
    assert (violations, mismatches, problems) == ([], [], [])
    _, mismatches, _ = _audit(f"E1-0\n{DEAL}\n1p\n{win} 36 deltas=-20,+36,-8,-8\n")
    assert sorted((*_place(m), m.recorded, m.computed) for m in mismatches) == [
        ("win-deltas", "E1-0", 1, 0, -20, -29), ("win-deltas", "E1-0", 1, 1, 36, 45),
        ("win-points", "E1-0", 1, 1, 36, 45)]
    _, mismatches, _ = _audit(f"E1-0\n{DEAL}\n1p\nron S pure-straight:8 all-chows "
                              "concealed-hand\n")
    assert ("win-yaku", 1, 8, 16) in [(m.code, m.player, m.recorded, m.computed)
                                       for m in mismatches]


def test_a_kong_robbed_scores_robbing_the_kong() -> None:
    # Pure Straight 16, Robbing the Kong 8 (which leaves out Last Tile), All Chows 2 (and
    # so no No Honors), Concealed Hand 2 = 28: W, whose kong is robbed, pays 36.
    win = "ron S pure-straight robbing-the-kong all-chows concealed-hand"
    violations, mismatches, problems = _audit(ROBBED + win + "\n")
    assert (violations, mismatches, problems) == ([], [], [])
    rec = _read(ROBBED + win + "\n")
    (ev,) = [e for e in rec.events if isinstance(e, Win)]
    assert ev.deltas == (-8, 52, -36, -8) and ev.from_player == 2
    assert isinstance(rec.events[rec.events.index(ev) - 1], AddedKan)
    _, mismatches, _ = _audit(ROBBED + "ron S pure-straight all-chows concealed-hand\n")
    assert ("win-yaku", "E1-0", 11, 1) in [_place(m) for m in mismatches]


def test_robbing_a_concealed_kong_is_not_allowed() -> None:
    body = ("E1-0\nhands 1444488999p1122z 123456789m23p55s 456789m567p4569s "
            "123456m123567p8s\nankan4p\nron S\n")
    violations, _, problems = _audit(body)
    assert problems == []
    assert ("rob-concealed-kong", "E1-0", 1, 1) in [_place(v) for v in violations]


def test_only_the_next_player_wins_a_discard() -> None:
    body = ("E1-0\nhands 1488999p1122336z 123456789m23p55s 123456789m23p99s "
            "456789m567p4569s\n1p\nron S\nron W\n")
    violations, _, _ = _audit(body)
    assert [_place(v) for v in violations] == [("double-ron", "E1-0", 1, 2)]


def test_a_win_is_valued_from_the_table() -> None:
    rec = _read(ROBBED + "ron S pure-straight robbing-the-kong all-chows concealed-hand\n")
    engine = Engine(rec.src)
    i = next(k for k, e in enumerate(rec.events) if isinstance(e, Win))
    engine.run(rec.events[:i], [])
    win = rec.events[i]
    assert isinstance(win, Win)
    start = max(k for k, e in enumerate(rec.events[:i]) if isinstance(e, RoundStart))
    value = MCR_FAMILY.value_win(engine.state, rec.events[:i], start, win, RS)
    assert not isinstance(value, str)
    fu, points, claims = value
    assert (fu, points) == (0, 52)
    assert {c.name: c.han for c in claims} == {y.name: y.han for y in win.yaku}


# -- generated games


def _play(seed: int) -> tuple[int, Counter[str], list[str]]:
    """One game: generated, written, read back and audited; (hands, events, problems)."""
    rec = random_game(RS, seed)
    text = notation.write(rec.events)
    (back,) = notation.read(text.encode(), f"mcr-{seed}.mjn")
    problems = [str(d) for d in back.diagnostics]
    if back.events != rec.events:
        problems.append("the notation round trip changed the events")
    rep = audit_record(back, wall=False)
    problems += [f"{x.KIND}: {x.code}" for x in (*rep.problems, *rep.violations,
                                                  *rep.mismatches)]
    if (rep.wins, rep.draws) != (rep.wins_verified, rep.draws_verified):
        problems.append("a result was not verified")
    moves: Counter[str] = Counter(ev.TYPE for ev in rec.events)
    for ev in rec.events:
        if isinstance(ev, Win):
            moves["ron" if ev.from_player != ev.winner else "self-drawn"] += 1
            moves["fan>=8"] += sum(y.han for y in ev.yaku if y.name != "flower-tiles") >= 8
            moves.update(f"fan:{y.name}" for y in ev.yaku)
    return rep.rounds, moves, problems


def _games(count: int, pool: bool) -> tuple[int, Counter[str], dict[int, list[str]]]:
    if pool:
        with multiprocessing.get_context("spawn").Pool(2) as p:
            results = p.map(_play, range(count), chunksize=25)
    else:
        results = [_play(seed) for seed in range(count)]
    moves: Counter[str] = Counter()
    for _, m, _ in results:
        moves.update(m)
    bad = {seed: p for seed, (_, _, p) in enumerate(results) if p}
    return sum(r for r, _, _ in results), moves, bad


def _assert_real_games(games: int, rounds: int, moves: Counter[str]) -> None:
    assert rounds == 16 * games  # four wind rounds of four hands, the deal always passing
    assert moves["win"] + moves["exhaustive_draw"] == rounds
    assert moves["fan>=8"] == moves["win"]  # every win reaches 8 fan without the flowers
    for kind in ("flower", "chi", "pon", "win", "exhaustive_draw"):
        assert moves[kind] >= games, (kind, moves[kind])
    assert moves["ron"] >= games and moves["self-drawn"] >= games // 4, moves


def test_twenty_generated_games_replay_clean_and_round_trip() -> None:
    rounds, moves, bad = _games(20, pool=False)
    assert bad == {}
    _assert_real_games(20, rounds, moves)


@pytest.mark.slow
def test_a_thousand_generated_games_replay_clean_verify_and_round_trip() -> None:
    rounds, moves, bad = _games(1000, pool=True)
    assert bad == {}
    _assert_real_games(1000, rounds, moves)
    for kind in ("open_kan", "added_kan", "closed_kan"):
        assert moves[kind] >= 50, (kind, moves[kind])
    for fan in ("robbing-the-kong", "out-with-replacement-tile", "last-tile-draw",
                "last-tile-claim", "pure-straight", "half-flush", "all-pungs"):
        assert moves[f"fan:{fan}"] >= 1, fan


def test_a_generated_game_sets_every_flower_aside() -> None:
    rec = random_game(RS, 7)
    flowers = [e for e in rec.events if isinstance(e, Flower)]
    assert flowers and all(KIND_OF[e.tile] >= 34 for e in flowers)
    events: list[Event] = rec.events
    assert sum(isinstance(e, RoundStart) for e in events) == 16

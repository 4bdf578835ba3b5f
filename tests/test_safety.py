"""Safety classes against a riichi (``mjlog.families.riichi.decisions.safety``), on hand-built
games in
mjlog notation and on the class rules one by one."""

from __future__ import annotations

import pytest

from mjlog.core.tiles import kind_str
from mjlog.families.riichi.decisions import DiscardDecision, decisions
from mjlog.families.riichi.decisions.safety import CLASSES, safety_class, suji_mask, wall_class
from mjlog.formats import notation

HEAD = """mjlog-notation 1
[Players "Aoi" "Ben" "Chiyo" "Dai"]
[Ruleset "tenhou"]
"""
HANDS = ("E1-0 dora=9p\nhands 1389m122p56s3344z 234m567p234s5566z 456m789p345s1177z "
         "789m123p678s2777z\n")
# Ben (S) declares riichi on 1m. Before it: Chiyo throws a 4z, Dai and Aoi a 3z each.
# After it: Chiyo and Dai throw 2p (four visible to Aoi with her own two), Aoi 6m, and
# Ben himself, after riichi, 5m.
MOVES = "9s' 7s' 4z' 3z'\n3z' 1m'* 2p' {dai}\n6m' 5m' 1s' 1s'\n7p'\n"


def _aoi(dai: str = "2p'") -> list[dict[str, str]]:
    """Aoi's classes against Ben at each of her decisions, by tile."""
    (rec,) = notation.read((HEAD + HANDS + MOVES.format(dai=dai)).encode())
    assert rec.diagnostics == []
    out = []
    for d in decisions(rec):
        if isinstance(d, DiscardDecision) and d.seat == 0:
            assert set(d.threats or {}) <= {1}  # only Ben is in riichi
            out.append({kind_str(k): c for k, c in (d.threats or {}).get(1, {}).items()})
    return out


def test_nothing_is_classed_before_a_riichi() -> None:
    first, second, _, _ = _aoi()
    assert first == {} and second == {}


def test_genbutsu_from_the_threats_river_and_from_discards_after_its_riichi() -> None:
    third = _aoi()[2]
    assert third["1m"] == "genbutsu"  # Ben's riichi tile
    assert third["2p"] == "genbutsu"  # thrown by Chiyo after Ben's riichi, not won on


def test_kabe_with_four_visible_and_one_chance_with_three() -> None:
    assert _aoi()[2]["1p"] == "kabe"  # 1p waits two-sided only on 23p: all four 2p seen
    assert _aoi("1s'")[2]["1p"] == "one-chance"  # Dai keeps his 2p: three seen


def test_honours_by_copies_visible() -> None:
    third = _aoi()[2]
    assert third["3z"] == "honour-4"  # Aoi's two, Dai's and her own discard before riichi
    assert third["4z"] == "honour-3"  # Aoi's two and Chiyo's


def test_suji_from_the_threats_own_river_after_riichi() -> None:
    third, fourth = _aoi()[2:]
    assert third["8m"] == "none" and third["3m"] == "none" and third["9m"] == "none"
    assert fourth["8m"] == "suji"  # Ben threw 5m after his riichi: 8m's 67m wait is furiten
    assert fourth["3m"] == "suji" and fourth["9m"] == "suji"  # Aoi's 6m after the riichi


def test_tiles_with_nothing_known_are_none() -> None:
    fourth = _aoi()[3]
    assert fourth["5s"] == fourth["6s"] == fourth["7p"] == "none"
    assert set(fourth.values()) <= set(CLASSES)


@pytest.mark.parametrize(("n", "needs"), [
    (1, (4,)), (2, (5,)), (3, (6,)), (4, (1, 7)), (5, (2, 8)), (6, (3, 9)), (7, (4,)),
    (8, (5,)), (9, (6,))])
def test_suji_needs_the_tiles_three_away(n: int, needs: tuple[int, ...]) -> None:
    for suit in range(3):
        kind = suit * 9 + n - 1
        safe = sum(1 << (suit * 9 + m - 1) for m in needs)
        assert suji_mask(safe) >> kind & 1
        for m in needs:  # one side alone is not suji for 4, 5 and 6
            half = 1 << (suit * 9 + m - 1)
            assert bool(suji_mask(half) >> kind & 1) == (len(needs) == 1)


def test_a_middle_tile_is_kabe_only_when_both_sides_are_walled() -> None:
    visible = bytearray(34)
    visible[5] = 4  # 6m: walls 4m's 56m wait, not its 23m wait
    assert wall_class(3, visible) == "none"
    visible[2] = 4  # 3m too
    assert wall_class(3, visible) == "kabe"
    visible[2] = 3
    assert wall_class(3, visible) == "one-chance"
    assert wall_class(27, visible) == "none"


def test_genbutsu_wins_over_every_other_class() -> None:
    visible = bytes([4] * 34)
    assert safety_class(0, 1, visible) == "genbutsu"
    assert safety_class(27, 0, visible) == "honour-4"
    assert safety_class(0, 1 << 3, visible) == "suji"
    assert safety_class(0, 0, visible) == "kabe"

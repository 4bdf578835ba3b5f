"""The physical deal (rules.md §6, seeds/002): break, hands, dead wall, live wall."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Sequence

import pytest

from mjlog.core.diagnostics import Severity
from mjlog.core.events import Discard, Draw, Event, GameStart, PlayerInfo, RoundStart
from mjlog.core.record import GameRecord
from mjlog.core.ruleset import Ruleset
from mjlog.core.tiles import Tile
from mjlog.wall.dealing import (
    RIICHI,
    TAIWAN,
    Deal,
    DealError,
    Geometry,
    Stack,
    break_point,
    deal,
)
from mjlog.wall.verify import verify

# The table of seeds/002: total → (wall counter-clockwise from the dealer, stack).
ONE_ROLL = {2: (1, 2), 3: (2, 3), 4: (3, 4), 5: (0, 5), 6: (1, 6), 7: (2, 7), 8: (3, 8),
            9: (0, 9), 10: (1, 10), 11: (2, 11), 12: (3, 12)}


def _walls(seed: int, g: Geometry = RIICHI) -> list[list[Stack]]:
    ids = list(range(g.stacks * 2 * g.players))
    random.Random(seed).shuffle(ids)
    per = g.stacks * 2
    return [[(Tile(ids[w * per + 2 * k]), Tile(ids[w * per + 2 * k + 1]))
             for k in range(g.stacks)] for w in range(g.players)]


def _ring(walls: Sequence[Sequence[Stack]]) -> list[Stack]:
    return [s for w in (0, 3, 2, 1) for s in walls[w]]  # dealing order: self, left, opposite, right


@pytest.mark.parametrize(("total", "expected"), sorted(ONE_ROLL.items()))
def test_every_dice_total(total: int, expected: tuple[int, int]) -> None:
    dice = (1, total - 1) if total <= 7 else (6, total - 6)
    assert break_point(dice) == expected
    walls = _walls(total)
    d = deal(walls, dice)
    wall, stack = expected
    # the first block is the two stacks left of the break, in the broken wall
    assert d.hands[0][:4] == (*walls[wall][stack], *walls[wall][stack + 1])


@pytest.mark.parametrize(("total", "left"), [(9, 6), (10, 5), (11, 4), (12, 3)])
def test_stacks_left_after_the_first_block(total: int, left: int) -> None:
    """6ノコ, 5ノコ, 4ノコ, 3ノコ: with 17-stack walls, stacks left of the first block."""
    wall, stack = break_point((6, total - 6))
    walls = _walls(total)
    d = deal(walls, (6, total - 6))
    rest = walls[wall][stack + 2:]  # what the broken wall keeps after the dealer's first block
    assert len(rest) == left
    assert d.hands[1][:4] == (*rest[0], *rest[1])  # the next player's block comes from it


@pytest.mark.parametrize(("first", "second", "wall", "stack"), [
    ((3, 2), (1, 1), 0, 7),    # 5 → the dealer's wall; 5 + 2 = 7th stack
    ((4, 6), (2, 3), 1, 15),   # 10 → south's wall; 15th
    ((3, 4), (3, 3), 2, 13),   # 7 → west's wall; 13th
    ((6, 6), (6, 6), 3, 24),   # 12 → north's wall; 24th
    ((1, 1), (1, 1), 1, 4),    # 2 → south's wall; 4th
])
def test_two_rolls(first: tuple[int, int], second: tuple[int, int], wall: int,
                   stack: int) -> None:
    assert break_point((*first, *second), "two-rolls") == (wall, stack)


def test_two_rolls_past_the_end_of_a_wall() -> None:
    """24 from north's wall: with 17 stacks, the break is west's 7th stack (seeds/002 note 6)."""
    walls = _walls(7)
    d = deal(walls, (6, 6, 6, 6), method="two-rolls")
    assert d.hands[0][:4] == (*walls[2][7], *walls[2][8])


@pytest.mark.parametrize(("wind", "number", "wall"), [(1, 8, 0), (2, 9, 1), (3, 1, 2),
                                                      (4, 6, 3)])
def test_pakkoro(wind: int, number: int, wall: int) -> None:
    assert break_point((wind, number), "pakkoro") == (wall, number)


def test_riichi_deal_in_full() -> None:
    walls = _walls(1)
    d = deal(walls, (2, 3))  # 5: the dealer's own wall, after its 5th stack
    ring = _ring(walls)
    b = 4  # ring index of the 5th stack of the dealer's wall
    blocks = ring[b + 1:b + 25]
    for rnd in range(3):
        for seat in range(4):
            two = blocks[rnd * 8 + seat * 2:rnd * 8 + seat * 2 + 2]
            assert d.hands[seat][rnd * 4:rnd * 4 + 4] == (*two[0], *two[1])
    c1, c2, c3 = ring[b + 25], ring[b + 26], ring[b + 27]
    assert d.hands[0][12] == c1[0] and d.live[0] == c3[0]  # チョンチョン: tops of 1st and 3rd
    assert (d.hands[1][12], d.hands[2][12], d.hands[3][12]) == (c1[1], c2[0], c2[1])
    assert d.live[1] == c3[1] and d.live[2] == ring[b + 28][0]
    assert d.dora_indicators[0] == ring[b - 2][0] and d.ura_indicators[0] == ring[b - 2][1]
    assert d.dora_indicators[1] == ring[b - 3][0]
    assert d.rinshan == (*ring[b], *ring[b - 1])
    assert d.haitei == ring[(b - 7) % 68][1]
    assert len(d.live) == 70 and len(d.dead) == 14
    everything = [t for h in d.hands for t in h] + list(d.live) + list(d.dead)
    assert sorted(everything) == list(range(136))


def test_automatic_table() -> None:
    walls = _walls(3)
    hands = [tuple(Tile(i) for i in range(13 * k, 13 * k + 13)) for k in range(4)]
    d = deal(walls, (4, 4), method="automatic", hands=hands)
    ring = _ring(walls)
    b = 17 + 8 - 1  # 8: the left player's wall (second in the ring), 8th stack
    assert d.hands == tuple(hands) and d.live[0] == ring[b + 1][0]
    assert d.dora_indicators[0] == ring[b - 2][0]
    with pytest.raises(DealError):
        deal(walls, (4, 4), method="automatic")


def test_taiwanese_deal() -> None:
    walls = _walls(5, TAIWAN)
    d = deal(walls, (1, 2, 3), geometry=TAIWAN)  # 6: the right player's wall, 6th stack
    assert [len(h) for h in d.hands] == [16] * 4
    assert len(d.live) == 64 and len(d.dead) == 16 and len(d.rinshan) == 16
    assert d.dora_indicators == () and d.ura_indicators == ()
    ring = _ring(walls)
    b = 3 * 18 + 6 - 1
    assert d.hands[0][:4] == (*ring[(b + 1) % 72], *ring[(b + 2) % 72])
    assert d.live[0] == ring[(b + 33) % 72][0]  # the dealer's one more tile
    everything = [t for h in d.hands for t in h] + list(d.live) + list(d.dead)
    assert sorted(everything) == list(range(144))


@pytest.mark.parametrize(("dice", "method"), [((0, 3), "one-roll"), ((1, 2, 3), "one-roll"),
                                              ((5, 13), "pakkoro"), ((1, 2), "two-rolls")])
def test_bad_dice(dice: tuple[int, ...], method: str) -> None:
    with pytest.raises(DealError):
        deal(_walls(1), dice, method=method)  # type: ignore[arg-type]


def _stated_record(d: Deal, walls: list[list[Stack]], dice: tuple[int, int]) -> GameRecord:
    flat = tuple(t for w in walls for s in w for t in s)
    rs = RoundStart(round_wind=0, round_number=2, honba=0, kyotaku=0, dealer=1,
                    scores=(25000,) * 4, dora_indicator=d.dora_indicators[0],
                    hands=tuple(d.hands[(seat - 1) % 4] for seat in range(4)), dice=dice,
                    wall=flat)
    start = GameStart(source="notation", players=tuple(PlayerInfo(name=n) for n in "ABCD"),
                      ruleset=Ruleset(dealing="one-roll"))
    events: list[Event] = [start, rs]
    for k in range(8):
        p = (1 + k) % 4
        events += [Draw(player=p, tile=d.live[k]), Discard(player=p, tile=d.live[k],
                                                            tsumogiri=True)]
    return GameRecord(path="stated", format="jsonl", events=events)


def test_a_stated_wall_proves_the_deal_and_catches_a_forged_draw() -> None:
    walls = _walls(11)
    dice = (3, 4)
    d = deal(walls, dice)
    rec = _stated_record(d, walls, dice)
    assert verify(rec) == []
    forged = rec.events[8]
    assert isinstance(forged, Draw)
    rec.events[8] = Draw(player=forged.player, tile=d.live[20])
    rec.events[9] = Discard(player=forged.player, tile=d.live[20], tsumogiri=True)
    assert [f.code for f in verify(rec)] == ["wall-draw-mismatch"]
    short = _stated_record(d, walls, dice)
    rs = short.events[1]
    assert isinstance(rs, RoundStart) and rs.wall is not None
    short.events[1] = dataclasses.replace(rs, wall=rs.wall[:-2])
    [f] = verify(short)
    assert f.code == "wall-undealable" and f.severity is Severity.ERROR

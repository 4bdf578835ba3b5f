"""The physical deal at a real table: from the wall's stacks and the dice to every hand.

Follows ``docs/rules.md`` §6 (source: the 配牌 article in ``seeds/002``).

**The table.** Each player has a wall of stacks in front of them (17 stacks of
two tiles in riichi, 18 in Taiwanese 16-tile). Walls are given by seat
*relative to the dealer* (0 the dealer, 1 the player on the right (南家),
2 opposite, 3 on the left), each as a list of ``(top, bottom)`` stacks counted
from that wall's right end as its owner sees it. Dealing runs clockwise,
against the seat order, so the stacks form one ring in the order: the dealer's
wall, then the left player's, the opposite, the right player's, each from its
right end; a count past a wall's end carries on into the next (two rolls can
reach 24 stacks).

**The break.** One roll of two dice (``one-roll``): the total *T* picks the
wall counter-clockwise from the dealer (5, 9: the dealer's own; 2, 6, 10:
right; 3, 7, 11: opposite; 4, 8, 12: left) and the break falls after the
*T*-th stack from its right end. ``two-rolls`` (二度振り): the first total picks
the wall, and the break is after first + second totals. ``pakkoro`` (12-sided
dice): a wind die (1..4 = 東南西北, the seats' winds) picks the wall, a number
die (1..12) the stack. Taiwanese: three dice, one roll, same counting.

**The deal.** From the stack after the break, each player from the dealer
takes two stacks (four tiles: top, bottom, top, bottom), three rounds
(Taiwanese: four). Riichi: the dealer then takes the tops of the next 1st and
3rd stacks (チョンチョン; the second is his first draw) and the others one tile
each in turn. Taiwanese: the dealer takes one more tile (his first draw).
``automatic`` tables deal the hands themselves (given to :func:`deal`); the
live wall starts right after the break.

**The dead wall** is the stacks on the other side of the break (7; Taiwanese
8). The dora indicator is the top of its 3rd stack from the break, the next
kan dora indicators the tops of the stacks beyond, and the ura indicators the
tiles under them. Replacement tiles (rinshan, Taiwanese flowers) are taken from
the end at the break: top, then bottom, of the stack next to the break, then
of the one after it. (The source does not fix this order; it is the common
practice of lowering the top tile and drawing it first.) The live wall runs on
from the deal round the ring up to the dead wall; its last tile is the haitei.

This module only computes; it checks nothing.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from mjlog.core.tiles import Tile

Method = Literal["one-roll", "two-rolls", "pakkoro", "automatic"]
Stack = tuple[Tile, Tile]
"""One stack of the wall: ``(top, bottom)``."""


class DealError(ValueError):
    """Walls, dice or hands that do not describe a deal."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Geometry:
    """How a table is built and dealt."""

    players: int = 4
    stacks: int = 17
    """Stacks in each player's wall."""
    dead_stacks: int = 7
    hand: int = 13
    block_rounds: int = 3
    """Rounds of two-stack blocks in the deal."""
    chonchon: bool = True
    """Riichi's dealer takes the tops of the next 1st and 3rd stacks; else one more tile."""
    indicators: bool = True
    """Whether the dead wall holds dora and ura indicators."""
    dice: int = 2


RIICHI = Geometry()
"""Four-player riichi: 136 tiles, walls of 17 stacks, 14-tile dead wall."""
TAIWAN = Geometry(stacks=18, dead_stacks=8, hand=16, block_rounds=4, chonchon=False,
                  indicators=False, dice=3)
"""Taiwanese 16-tile: 144 tiles, walls of 18 stacks, 16-tile dead wall, three dice.
(Each family states the table it builds: :meth:`mjlog.families.base.RuleFamily.wall`.)"""


@dataclass(frozen=True, slots=True, kw_only=True)
class Deal:
    """The result of a deal: hands, live wall in draw order, dead wall and where the break was.

    ``hands`` are by seat relative to the dealer; the dealer's extra tile is
    ``live[0]``, his first draw.
    """

    break_wall: int
    """The broken wall's seat relative to the dealer (0 dealer, 1 right, 2 opposite, 3 left)."""
    break_stack: int
    """The break is after this many stacks from that wall's right end (may pass its end)."""
    hands: tuple[tuple[Tile, ...], ...]
    live: tuple[Tile, ...]
    rinshan: tuple[Tile, ...]
    dora_indicators: tuple[Tile, ...]
    ura_indicators: tuple[Tile, ...]
    dead: tuple[Tile, ...]

    @property
    def haitei(self) -> Tile:
        """The last tile of the live wall (before any kan shortens it)."""
        return self.live[-1]


def break_point(dice: Sequence[int], method: Method = "one-roll", players: int = 4) -> tuple[
        int, int]:
    """The broken wall (seat relative to the dealer) and the stack count, from the dice."""
    if method == "pakkoro":
        if len(dice) != 2 or not 1 <= dice[0] <= 4 or not 1 <= dice[1] <= 12:
            raise DealError("pakkoro needs a wind (1..4 for 東南西北) and a number (1..12)")
        return (dice[0] - 1) % players, dice[1]
    if any(not 1 <= d <= 6 for d in dice):
        raise DealError(f"dice {list(dice)}: every die shows 1..6")
    if method == "two-rolls":
        if len(dice) != 4:
            raise DealError("two rolls need four dice values: the first roll's two, then the "
                            "second roll's two")
        first = dice[0] + dice[1]
        return (first - 1) % players, first + dice[2] + dice[3]
    total = sum(dice)
    return (total - 1) % players, total


def deal(
    walls: Sequence[Sequence[Stack]],
    dice: Sequence[int],
    *,
    method: Method = "one-roll",
    geometry: Geometry = RIICHI,
    hands: Sequence[Sequence[Tile]] | None = None,
) -> Deal:
    """Deal from ``walls`` (by seat relative to the dealer) with ``dice``.

    ``hands`` are the machine-dealt hands of an ``automatic`` table (relative
    seats); other methods deal them from the wall. Raises :class:`DealError`
    for dice or walls that cannot be dealt.
    """
    n = geometry.players
    if len(walls) != n:
        raise DealError(f"{len(walls)} walls for {n} players")
    if method != "pakkoro" and method != "two-rolls" and len(dice) != geometry.dice:
        raise DealError(f"{len(dice)} dice; this table rolls {geometry.dice}")
    wall, count = break_point(dice, method, n)
    order = [(-k) % n for k in range(n)]  # dealer, left, opposite, right
    ring: list[Stack] = []
    offset = {}
    for w in order:
        offset[w] = len(ring)
        ring.extend(walls[w])
    size = len(ring)
    b = (offset[wall] + count - 1) % size  # the last stack before the break
    dead_idx = [(b - k) % size for k in range(geometry.dead_stacks)]
    dead_set = set(dead_idx)
    stream: list[Tile] = []  # every tile after the break up to the dead wall, in taking order
    pos = (b + 1) % size
    while pos not in dead_set:
        stream.extend(ring[pos])
        pos = (pos + 1) % size
    rinshan = tuple(t for i in dead_idx[:2] for t in ring[i]) if geometry.indicators else tuple(
        t for i in dead_idx for t in ring[i])
    doras = tuple(ring[i][0] for i in dead_idx[2:]) if geometry.indicators else ()
    uras = tuple(ring[i][1] for i in dead_idx[2:]) if geometry.indicators else ()
    dead = tuple(t for i in dead_idx for t in ring[i])
    if method == "automatic":
        if hands is None or len(hands) != n:
            raise DealError("an automatic table needs the hands it dealt")
        dealt = tuple(tuple(h) for h in hands)
        live = tuple(stream)
    else:
        dealt, live = _deal_hands(stream, geometry)
    return Deal(break_wall=wall, break_stack=count, hands=dealt, live=live, rinshan=rinshan,
                dora_indicators=doras, ura_indicators=uras, dead=dead)


def _deal_hands(stream: list[Tile], g: Geometry) -> tuple[tuple[tuple[Tile, ...], ...],
                                                          tuple[Tile, ...]]:
    n = g.players
    hands: list[list[Tile]] = [[] for _ in range(n)]
    pos = 0
    for _ in range(g.block_rounds):
        for seat in range(n):
            hands[seat].extend(stream[pos:pos + 4])
            pos += 4
    rest = stream[pos:]
    taken: set[int] = set()
    if g.hand - 4 * g.block_rounds == 1:  # one more tile each (riichi)
        if g.chonchon:
            hands[0].append(rest[0])  # the top of the next 1st stack
            first_draw = 4  # the top of the 3rd: the dealer's first draw
        else:
            hands[0].append(rest[0])
            first_draw = 1
        taken.update((0, first_draw))
        k = 0
        for seat in range(1, n):
            while k in taken:
                k += 1
            hands[seat].append(rest[k])
            taken.add(k)
    else:  # the hands are complete; the dealer takes one more tile (Taiwanese)
        first_draw = 0
        taken.add(0)
    live = [rest[first_draw]] + [t for i, t in enumerate(rest) if i not in taken]
    if any(len(h) != g.hand for h in hands):
        raise DealError("the walls are too short for this deal")
    return tuple(tuple(h) for h in hands), tuple(live)

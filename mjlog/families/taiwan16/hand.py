"""Winning shapes of a Taiwanese hand and their waits.

A Taiwanese hand wins with 17 tiles (fewer concealed ones after calls): five
sets and a pair, found by the shared kernel (:mod:`mjlog.families.riichi.hand.shape`, whose
per-suit tables take any number of sets), or one of two special shapes that
local rules may switch off:

* **嚦咕嚦咕** (八対半): seven pairs and a triplet, all concealed (four of a
  kind may be two pairs);
* **十六不搭**: no two suited tiles of one suit within two of each other
  (three per suit), the seven honours, and one of these sixteen kinds paired.

Counts are 34 ints as in :mod:`mjlog.families.riichi.hand.shape` (flowers are never part of
a hand). This module knows shapes only: no 台, no 過水.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Sequence
from collections.abc import Set as AbstractSet
from typing import Final

from mjlog.core.events import AddedKan, Chi, ClosedKan, Event, OpenKan, Pon
from mjlog.core.tiles import FIRST_FLOWER, KIND_OF
from mjlog.families.riichi.hand.shape import NUM_KINDS, is_standard_complete, standard_waits

HONOURS: Final = range(27, 34)


def kind_counts(tiles: Iterable[int], extra: int = -1) -> list[int]:
    """Kind counts (34 ints) of physical tiles, and of ``extra`` when given; flowers are
    not part of a hand and are skipped."""
    counts = [0] * NUM_KINDS
    for t in tiles:
        k = KIND_OF[t]
        if k < NUM_KINDS:
            counts[k] += 1
    if extra >= 0 and KIND_OF[extra] < NUM_KINDS:
        counts[KIND_OF[extra]] += 1
    return counts


def is_liguligu(counts: Sequence[int], melds: int = 0) -> bool:
    """Whether a concealed 17-tile hand is seven pairs and one triplet (嚦咕嚦咕)."""
    if melds or sum(counts) != 17:
        return False
    odd = [n for n in counts if n & 1]
    return odd == [3]


def is_sixteen_unrelated(counts: Sequence[int], melds: int = 0) -> bool:
    """Whether a concealed 17-tile hand is 十六不搭: the seven honours and three
    unrelated tiles of each suit (no two within two of each other), one paired."""
    if melds or sum(counts) != 17:
        return False
    pairs = 0
    for k in range(NUM_KINDS):
        n = counts[k]
        if n > 2:
            return False
        pairs += n == 2
    if pairs != 1 or not all(counts[k] for k in HONOURS):
        return False
    for start in (0, 9, 18):
        held = [i for i in range(9) if counts[start + i]]
        if len(held) != 3 or any(b - a < 3 for a, b in itertools.pairwise(held)):
            return False
    return True


def is_win(counts: Sequence[int], melds: int, *, liguligu: bool = True,
           sixteen: bool = True) -> bool:
    """Whether the concealed counts (with ``melds`` sets shown or kanned) are a winning
    shape; ``liguligu`` and ``sixteen`` switch the special shapes on."""
    if is_standard_complete(counts):
        return True
    return (liguligu and is_liguligu(counts, melds)) or (
        sixteen and is_sixteen_unrelated(counts, melds))


def _special_waits(counts: Sequence[int], liguligu: bool, sixteen: bool) -> int:
    mask = 0
    odd = sum(1 for n in counts if n & 1)
    lig = liguligu and odd <= 2
    # 十六不搭 holds all seven honours: one tile adds at most one
    six = sixteen and max(counts) <= 2 and sum(1 for k in HONOURS if counts[k]) >= 6
    if not (lig or six):
        return 0
    c = list(counts)
    for k in range(NUM_KINDS):
        if c[k] >= 4:
            continue
        c[k] += 1
        if (lig and is_liguligu(c)) or (six and is_sixteen_unrelated(c)):
            mask |= 1 << k
        c[k] -= 1
    return mask


def waits(counts: Sequence[int], melds: int, *, liguligu: bool = True,
          sixteen: bool = True) -> int:
    """Winning kinds (a 34-bit mask) of a hand one tile short of winning.

    The special shapes count only for a concealed 16-tile hand and when
    switched on. A kind held four times is never a wait. 0 when not tenpai.
    """
    mask = standard_waits(counts) if sum(counts) % 3 == 1 else 0
    if melds == 0 and sum(counts) == 16:
        mask |= _special_waits(counts, liguligu, sixteen)
    return mask


class SeatWaits:
    """Each seat's waits (:func:`waits`), computed once for each hand the seat holds.

    A discard is tested against the hands of the three other seats, which stay as they
    were until their own turn: a bit test each, where a shape test each cost most of a
    Taiwanese audit. A hand is its tiles, its melds and its unknown tiles, so an entry
    never goes stale; a hand with unknown tiles or a flower in it waits on nothing.
    """

    def __init__(self, *, liguligu: bool, sixteen: bool) -> None:
        self.liguligu, self.sixteen = liguligu, sixteen
        self._known: dict[int, tuple[frozenset[int], int, int, int]] = {}

    def of(self, seat: int, concealed: AbstractSet[int], melds: int, unknown: int = 0) -> int:
        """The kinds (a mask) that complete the hand ``seat`` holds now. The hand is
        compared with the last one asked for that seat as it is, without a copy: most
        questions are asked again of a hand that has not changed."""
        known = self._known.get(seat)
        if known is not None and known[1] == melds and known[2] == unknown \
                and known[0] == concealed:
            return known[3]
        held = frozenset(concealed)
        mask = 0
        if not unknown and (not held or max(held) < FIRST_FLOWER):  # no flower, no unknown
            mask = waits(kind_counts(held), melds, liguligu=self.liguligu,
                         sixteen=self.sixteen)
        self._known[seat] = (held, melds, unknown, mask)
        return mask

    def completes(self, seat: int, concealed: AbstractSet[int], melds: int, tile: int,
                  unknown: int = 0) -> bool:
        """Whether physical ``tile`` completes the hand (never a flower)."""
        kind = KIND_OF[tile]
        return kind < NUM_KINDS and bool(self.of(seat, concealed, melds, unknown) >> kind & 1)


def partner_waits(a: int, b: int) -> int:
    """Kinds (a mask) that make a run with two tiles ``a`` <= ``b`` of a hand: what T1
    forbids discarding after a chi with them (45m: 3m and 6m; 46m: 5m)."""
    if a >= 27 or a // 9 != b // 9:
        return 0
    lo, i = a // 9 * 9, a % 9
    if b - a == 1:
        return sum(1 << (lo + j) for j in (i - 1, i + 2) if 0 <= j < 9)
    return 1 << (a + 1) if b - a == 2 else 0


def meld_of(m: Event) -> tuple[int, str]:
    """A call as 台 scoring reads it: (first kind, ``chi``/``pon``/``kan``/``ankan``)."""
    if isinstance(m, Chi):
        return min(KIND_OF[t] for t in m.tiles), "chi"
    if isinstance(m, ClosedKan):
        return KIND_OF[m.tiles[0]], "ankan"
    if isinstance(m, Pon):
        return KIND_OF[m.called], "pon"
    assert isinstance(m, OpenKan | AddedKan)
    return KIND_OF[m.tiles[0]], "kan"

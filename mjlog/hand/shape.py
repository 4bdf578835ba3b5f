"""The hand-analysis kernel: complete shapes, tenpai waits and shanten.

A hand is given as **kind counts**: a sequence of 34 ints, one per kind
(``mjlog.tiles`` numbering: 0..8 characters, 9..17 circles, 18..26 bamboo,
27..33 honours). Called sets are not part of the counts; pass how many there
are (``melds``) where it matters.

Speed comes from splitting a hand into its four suits. Whether a suit's tiles
form sets only, or sets and one pair, and which single tile would make them
do so, depends on that suit alone; each suit is reduced to a key (its nine
counts packed three bits each) and its facts are computed once per key and
memoised for the life of the process. A 13-tile hand's waits are then four
table look-ups and a few bit operations, not 34 trial completions.

Shapes covered: the standard shape (sets and a pair), seven pairs
(chiitoitsu: seven *distinct* pairs, as in riichi) and thirteen orphans
(kokushi). The per-suit tables take any number of sets, so the Taiwanese
five-sets-and-a-pair shape (17 tiles) works with the same functions; its
special shapes are not here.

This module knows shapes only: no yaku, no fu, no furiten, and no physical
tiles (a red five is just a five).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from typing import Final

NUM_KINDS: Final = 34

TERMINALS_AND_HONOURS: Final = (0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33)
"""The 13 kinds of thirteen orphans."""
_ORPHAN_MASK: Final = sum(1 << k for k in TERMINALS_AND_HONOURS)
_SUIT_STARTS: Final = (0, 9, 18, 27)
_ALL_KINDS: Final = (1 << NUM_KINDS) - 1


def counts_of(kinds: Sequence[int]) -> list[int]:
    """Kind counts (34 ints) of a sequence of kinds 0..33."""
    counts = [0] * NUM_KINDS
    for k in kinds:
        counts[k] += 1
    return counts


def _key(counts: Sequence[int], start: int, size: int) -> int:
    """A suit's counts packed three bits each, lowest kind in the lowest bits."""
    key = 0
    for i in range(size):
        key |= counts[start + i] << (3 * i)
    return key


def _unpack(key: int, size: int) -> list[int]:
    return [(key >> (3 * i)) & 7 for i in range(size)]


# ---------------------------------------------------------------- complete shapes


@cache
def _sets_only(key: int, honours: bool) -> bool:
    """Whether a suit (packed counts) splits into triplets and runs only."""
    if key == 0:
        return True
    c = _unpack(key, 7 if honours else 9)
    i = next(j for j, n in enumerate(c) if n)
    if c[i] >= 3 and _sets_only(key - (3 << (3 * i)), honours):
        return True
    if not honours and i <= 6 and c[i + 1] and c[i + 2]:
        return _sets_only(key - (1 << (3 * i)) - (1 << (3 * i + 3)) - (1 << (3 * i + 6)), honours)
    return False


@cache
def _sets_and_pair(key: int, honours: bool) -> bool:
    """Whether a suit splits into sets and exactly one pair."""
    c = _unpack(key, 7 if honours else 9)
    return any(n >= 2 and _sets_only(key - (2 << (3 * i)), honours) for i, n in enumerate(c))


@cache
def _suit_facts(key: int, honours: bool) -> tuple[int, int, bool, bool]:
    """(size mod 3, waits, sets-only, sets-and-pair) of one suit.

    *waits* is a bitmask over the suit's kinds: bit ``i`` is set when adding
    one tile of kind ``i`` (held fewer than four times) completes the suit:
    into sets only when its size is 2 mod 3, into sets and a pair when its
    size is 1 mod 3.
    """
    size = 7 if honours else 9
    c = _unpack(key, size)
    n = sum(c) % 3
    waits = 0
    if n:
        test = _sets_and_pair if n == 1 else _sets_only
        for i in range(size):
            if c[i] < 4 and test(key + (1 << (3 * i)), honours):
                waits |= 1 << i
    return n, waits, _sets_only(key, honours), _sets_and_pair(key, honours)


def _facts(counts: Sequence[int]) -> tuple[tuple[int, int, bool, bool], ...]:
    c = counts
    return (
        _suit_facts(c[0] | c[1] << 3 | c[2] << 6 | c[3] << 9 | c[4] << 12 | c[5] << 15
                    | c[6] << 18 | c[7] << 21 | c[8] << 24, False),
        _suit_facts(c[9] | c[10] << 3 | c[11] << 6 | c[12] << 9 | c[13] << 12 | c[14] << 15
                    | c[15] << 18 | c[16] << 21 | c[17] << 24, False),
        _suit_facts(c[18] | c[19] << 3 | c[20] << 6 | c[21] << 9 | c[22] << 12 | c[23] << 15
                    | c[24] << 18 | c[25] << 21 | c[26] << 24, False),
        _suit_facts(c[27] | c[28] << 3 | c[29] << 6 | c[30] << 9 | c[31] << 12 | c[32] << 15
                    | c[33] << 18, True),
    )


def is_standard_complete(counts: Sequence[int]) -> bool:
    """Whether the counts are sets and one pair (any number of sets, called sets apart)."""
    pairs = 0
    for n, _, sets_only, sets_pair in _facts(counts):
        if n == 0:
            if not sets_only:
                return False
        elif n == 2:
            if not sets_pair:
                return False
            pairs += 1
        else:
            return False
    return pairs == 1


def is_seven_pairs(counts: Sequence[int]) -> bool:
    """Whether the counts are seven distinct pairs."""
    return sum(1 for n in counts if n == 2) == 7


def is_thirteen_orphans(counts: Sequence[int]) -> bool:
    """Whether the counts are the 13 terminal and honour kinds plus one of them paired."""
    return sum(counts) == 14 and all(counts[k] for k in TERMINALS_AND_HONOURS)


def is_complete(counts: Sequence[int], melds: int = 0) -> bool:
    """Whether a hand with ``melds`` called sets is a winning shape (any of the three)."""
    if is_standard_complete(counts):
        return True
    return melds == 0 and (is_seven_pairs(counts) or is_thirteen_orphans(counts))


# ---------------------------------------------------------------- waits


def standard_waits(counts: Sequence[int]) -> int:
    """Kinds (a 34-bit mask) that complete the counts into sets and a pair.

    The counts must be one short of a complete hand (1 mod 3 tiles). A kind
    the hand already holds four of is never a wait. Seven pairs and thirteen
    orphans are not considered here: see :func:`waits`.
    """
    facts = _facts(counts)
    ones = [s for s in range(4) if facts[s][0] == 1]
    twos = [s for s in range(4) if facts[s][0] == 2]
    mask = 0
    if len(ones) == 1 and not twos:
        s = ones[0]
        if all(facts[o][2] for o in range(4) if o != s):
            mask |= facts[s][1] << _SUIT_STARTS[s]
    elif len(twos) == 2 and not ones:
        a, b = twos
        others_ok = all(facts[o][2] for o in range(4) if o != a and o != b)
        if others_ok:
            if facts[b][3]:
                mask |= facts[a][1] << _SUIT_STARTS[a]
            if facts[a][3]:
                mask |= facts[b][1] << _SUIT_STARTS[b]
    return mask


def seven_pairs_waits(counts: Sequence[int]) -> int:
    """The wait (a 34-bit mask, at most one kind) of a 13-tile hand of six pairs and a single."""
    pairs = single = 0
    wait = -1
    for k in range(NUM_KINDS):
        n = counts[k]
        if n == 2:
            pairs += 1
        elif n == 1:
            single += 1
            wait = k
        elif n:
            return 0
    return 1 << wait if pairs == 6 and single == 1 else 0


def thirteen_orphans_waits(counts: Sequence[int]) -> int:
    """The waits (a 34-bit mask) of a 13-tile thirteen-orphans hand."""
    missing = 0
    pair = False
    for k in TERMINALS_AND_HONOURS:
        n = counts[k]
        if n == 0:
            missing |= 1 << k
        elif n == 2:
            if pair:
                return 0
            pair = True
        elif n > 2:
            return 0
    if sum(counts[k] for k in TERMINALS_AND_HONOURS) != 13 or sum(counts) != 13:
        return 0
    if not missing:
        return _ORPHAN_MASK  # 13-sided wait
    return missing if missing & (missing - 1) == 0 and pair else 0


def waits(counts: Sequence[int], melds: int = 0) -> int:
    """All winning kinds (a 34-bit mask) of a tenpai hand with ``melds`` called sets.

    Seven pairs and thirteen orphans count only for a closed 13-tile hand. A
    kind held four times in hand is not a wait. Returns 0 for a hand that is
    not tenpai (or does not have 1 mod 3 tiles).
    """
    mask = standard_waits(counts)
    if melds == 0 and sum(counts) == 13:
        mask |= seven_pairs_waits(counts) | thirteen_orphans_waits(counts)
    return mask


def kinds_of_mask(mask: int) -> list[int]:
    """The kinds set in a 34-bit mask, in order."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


# ---------------------------------------------------------------- shanten


Frontier = tuple[tuple[int, int], ...]


@cache
def _blocks(key: int, honours: bool) -> tuple[Frontier, Frontier]:
    """Pareto-best (sets, partial sets) of a suit: without a pair, and with one pair.

    A partial set is two tiles one tile from a set: a pair, two neighbours or
    a gap of one.
    """
    no_pair: set[tuple[int, int]] = set()
    with_pair: set[tuple[int, int]] = set()
    _walk(_unpack(key, 7 if honours else 9), 0, 0, 0, False, honours, no_pair, with_pair)
    return _frontier(no_pair), _frontier(with_pair)


def _walk(c: list[int], i: int, sets: int, partials: int, pair: bool, honours: bool,
          no_pair: set[tuple[int, int]], with_pair: set[tuple[int, int]]) -> None:
    size = len(c)
    while i < size and c[i] == 0:
        i += 1
    if i == size:
        (with_pair if pair else no_pair).add((sets, partials))
        return
    if c[i] >= 3:
        c[i] -= 3
        _walk(c, i, sets + 1, partials, pair, honours, no_pair, with_pair)
        c[i] += 3
    if not honours and i + 2 < size and c[i + 1] and c[i + 2]:
        c[i] -= 1
        c[i + 1] -= 1
        c[i + 2] -= 1
        _walk(c, i, sets + 1, partials, pair, honours, no_pair, with_pair)
        c[i] += 1
        c[i + 1] += 1
        c[i + 2] += 1
    if c[i] >= 2:
        c[i] -= 2
        if not pair:
            _walk(c, i, sets, partials, True, honours, no_pair, with_pair)
        _walk(c, i, sets, partials + 1, pair, honours, no_pair, with_pair)
        c[i] += 2
    if not honours:
        for gap in (1, 2):
            if i + gap < size and c[i + gap]:
                c[i] -= 1
                c[i + gap] -= 1
                _walk(c, i, sets, partials + 1, pair, honours, no_pair, with_pair)
                c[i] += 1
                c[i + gap] += 1
    c[i] -= 1
    _walk(c, i, sets, partials, pair, honours, no_pair, with_pair)
    c[i] += 1


def _frontier(found: set[tuple[int, int]]) -> Frontier:
    return tuple(sorted(
        (m, t) for m, t in found
        if not any((m2 >= m and t2 >= t) and (m2, t2) != (m, t) for m2, t2 in found)
    ))


def standard_shanten(counts: Sequence[int], melds: int = 0, sets: int = 4) -> int:
    """Shanten of the standard shape: 0 is tenpai, -1 complete.

    ``sets`` is how many sets a complete hand has (4 in riichi, 5 in Taiwanese
    16-tile). Uses ``2*sets - 2*found_sets - partials - pair`` with found sets
    and partials together capped at ``sets``, best over every split of every
    suit.
    """
    c = counts
    keys = (
        (_key(c, 0, 9), False), (_key(c, 9, 9), False), (_key(c, 18, 9), False),
        (_key(c, 27, 7), True),
    )
    # states: (sets, partials, pair) combined over suits, kept Pareto-small
    states: set[tuple[int, int, int]] = {(melds, 0, 0)}
    for key, honours in keys:
        no_pair, with_pair = _blocks(key, honours)
        nxt: set[tuple[int, int, int]] = set()
        for m, t, p in states:
            for dm, dt in no_pair:
                nxt.add((m + dm, t + dt, p))
            if not p:
                for dm, dt in with_pair:
                    nxt.add((m + dm, t + dt, 1))
        states = nxt
    best = 2 * sets
    for m, t, p in states:
        best = min(best, 2 * sets - 2 * m - min(t, sets - m) - p)
    return best


def seven_pairs_shanten(counts: Sequence[int]) -> int:
    """Shanten towards seven distinct pairs (closed 13- or 14-tile hands)."""
    pairs = sum(1 for n in counts if n >= 2)
    distinct = sum(1 for n in counts if n)
    return 6 - pairs + max(0, 7 - distinct)


def thirteen_orphans_shanten(counts: Sequence[int]) -> int:
    """Shanten towards thirteen orphans (closed hands)."""
    held = sum(1 for k in TERMINALS_AND_HONOURS if counts[k])
    pair = any(counts[k] >= 2 for k in TERMINALS_AND_HONOURS)
    return 13 - held - (1 if pair else 0)


def shanten(counts: Sequence[int], melds: int = 0) -> int:
    """Smallest shanten over the three shapes (the special ones only when closed)."""
    best = standard_shanten(counts, melds)
    if melds == 0 and best > -1:
        best = min(best, seven_pairs_shanten(counts), thirteen_orphans_shanten(counts))
    return best

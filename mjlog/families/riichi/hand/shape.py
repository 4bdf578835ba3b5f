"""The hand-analysis kernel: complete shapes, tenpai waits and shanten.

A hand is given as **kind counts**: a sequence of 34 ints, one per kind
(``mjlog.core.tiles`` numbering: 0..8 characters, 9..17 circles, 18..26 bamboo,
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

from collections.abc import Callable, Iterable, Sequence
from functools import cache, lru_cache
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


def _unpack(key: int, size: int) -> list[int]:
    return [(key >> (3 * i)) & 7 for i in range(size)]


# ---------------------------------------------------------------- complete shapes


_MEMO_SIZE: Final = 1 << 11
"""How many suits each memo below keeps (the least recently used go first), so that memory
stays flat over an archive of any size. They serve only a suit's first count (its facts
are then kept in the suit tables), since waits are counted when the rule checks ask, not
after every discard: at 8,192 these memos were most of what an audit's memory grew by
from 300 to 4,800 games (``benchmarks/bench_memory.py``), for about 2% of its speed."""


@lru_cache(maxsize=_MEMO_SIZE)
def _sets_only(key: int, honours: bool) -> bool:
    """Whether a suit (packed counts) splits into triplets and runs only.

    One pass from the lowest kind: the tiles of a kind not taken by the runs begun at the
    two kinds below it start ``count % 3`` runs, and the rest are triplets (three runs
    from one kind are the same tiles as three triplets, so fewer runs never miss a split).
    """
    if honours:
        return all((key >> (3 * i)) & 7 in (0, 3) for i in range(7))
    older = newer = 0  # runs begun two kinds below and one kind below, each needing this kind
    for i in range(9):
        left = ((key >> (3 * i)) & 7) - older - newer
        if left < 0:
            return False
        older, newer = newer, left % 3
    return older == newer == 0


@lru_cache(maxsize=_MEMO_SIZE)
def _sets_and_pair(key: int, honours: bool) -> bool:
    """Whether a suit splits into sets and exactly one pair."""
    return any((key >> (3 * i)) & 7 >= 2 and _sets_only(key - (2 << (3 * i)), honours)
               for i in range(7 if honours else 9))


Facts = tuple[int, int, int, int]
"""Of one suit: (size mod 3, waits as a 34-bit mask, sets-only bit, sets-and-pair bit).

The two bits are ``1 << suit`` when true and 0 when not, so that or-ing the
four suits' bits gives a 4-bit mask.
"""

_SUIT_TABLES: Final[tuple[dict[bytes, Facts], ...]] = ({}, {}, {}, {})
"""Memoised :data:`Facts` of each suit (characters, circles, bamboo, honours) by its counts."""

_OLDER_TABLES: Final[tuple[dict[bytes, Facts], ...]] = ({}, {}, {}, {})
"""Each suit's table as it was when it last started again: what is met again is taken from
here, so the suits seen often outlive a new start (two generations, about what a least
recently used table keeps, with no bookkeeping on a hit)."""

_FACTS: Final[dict[Facts, Facts]] = {}
"""Every distinct :data:`Facts` met (a few thousand at most: a suit's waits are 9 bits)."""

_SUIT_TABLE_SIZE: Final = 1 << 11
"""Entries each suit's table holds before it starts again (the older one holds as many)."""

_SLICES: Final = ((0, 9), (9, 18), (18, 27), (27, 34))


def _suit_facts(suit: int, counts: bytes) -> Facts:
    """One suit's facts, from the older table or computed, put in the suit's table (which
    callers look in first)."""
    table = _SUIT_TABLES[suit]
    if len(table) >= _SUIT_TABLE_SIZE:  # start again, keeping these for one more round
        older = _OLDER_TABLES[suit]
        older.clear()
        older.update(table)
        table.clear()
    facts = _OLDER_TABLES[suit].get(counts)
    if facts is None:
        facts = _compute_suit_facts(suit, counts)
        facts = _FACTS.setdefault(facts, facts)  # one tuple for the many suits that share it
    table[counts] = facts
    return facts


def _compute_suit_facts(suit: int, counts: bytes) -> Facts:
    """One suit's facts from its counts (not memoised here).

    *waits* has bit ``k`` (a kind) set when adding one tile of kind ``k``
    (held fewer than four times) completes the suit: into sets only when its
    size is 2 mod 3, into sets and a pair when its size is 1 mod 3.
    """
    honours = suit == 3
    key = 0
    for i, n in enumerate(counts):
        key |= n << (3 * i)
    n = sum(counts) % 3
    waits = 0
    if n:
        test = _sets_and_pair if n == 1 else _sets_only
        for i, held in enumerate(counts):
            if held < 4 and test(key + (1 << (3 * i)), honours):
                waits |= 1 << (_SUIT_STARTS[suit] + i)
    bit = 1 << suit
    return (n, waits, bit if _sets_only(key, honours) else 0,
            bit if _sets_and_pair(key, honours) else 0)


def _facts(counts: Sequence[int]) -> tuple[Facts, Facts, Facts, Facts]:
    b = bytes(counts)
    t0, t1, t2, t3 = _SUIT_TABLES
    return (t0.get(k0 := b[0:9]) or _suit_facts(0, k0),
            t1.get(k1 := b[9:18]) or _suit_facts(1, k1),
            t2.get(k2 := b[18:27]) or _suit_facts(2, k2),
            t3.get(k3 := b[27:34]) or _suit_facts(3, k3))


def _cases() -> dict[int, tuple[int, ...]]:
    """Suit sizes mod 3 (two bits per suit) of a hand one tile short, and where the tile goes.

    ``(s,)``: one suit is 1 mod 3 and takes the pair; ``(a, b)``: two suits
    are 2 mod 3, one of them holds the pair and the other takes the tile.
    """
    out: dict[int, tuple[int, ...]] = {}
    for s in range(4):
        out[1 << (2 * s)] = (s,)
        for t in range(s + 1, 4):
            out[(2 << (2 * s)) | (2 << (2 * t))] = (s, t)
    return out


_CASES: Final = _cases()


def is_standard_complete(counts: Sequence[int]) -> bool:
    """Whether the counts are sets and one pair (any number of sets, called sets apart)."""
    f = _facts(counts)
    pair_suits = [s for s in range(4) if f[s][0] == 2]
    if len(pair_suits) != 1 or any(f[s][0] == 1 for s in range(4)):
        return False
    p = pair_suits[0]
    return bool(f[p][3]) and all(f[s][2] for s in range(4) if s != p)


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
    return _standard_waits(_facts(counts))


def _standard_waits(facts: tuple[Facts, Facts, Facts, Facts]) -> int:
    f0, f1, f2, f3 = facts
    case = _CASES.get(f0[0] | f1[0] << 2 | f2[0] << 4 | f3[0] << 6)
    if case is None:
        return 0
    sets_only = f0[2] | f1[2] | f2[2] | f3[2]
    if len(case) == 1:
        s = case[0]
        return facts[s][1] if sets_only | (1 << s) == 15 else 0
    a, b = case
    if sets_only | (1 << a) | (1 << b) != 15:
        return 0
    mask = facts[a][1] if facts[b][3] else 0
    if facts[a][3]:
        mask |= facts[b][1]
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


_NO_MIDDLES: Final = bytes(7)


def waits(counts: Sequence[int], melds: int = 0) -> int:
    """All winning kinds (a 34-bit mask) of a tenpai hand with ``melds`` called sets.

    ``counts`` holds 34 ints from 0 to 4. Seven pairs and thirteen orphans
    count only for a closed 13-tile hand. A kind held four times in hand is
    not a wait. Returns 0 for a hand that is not tenpai (or does not have 1
    mod 3 tiles).
    """
    b = bytes(counts)
    t0, t1, t2, t3 = _SUIT_TABLES
    k0, k1, k2 = b[0:9], b[9:18], b[18:27]
    mask = _standard_waits((
        t0.get(k0) or _suit_facts(0, k0), t1.get(k1) or _suit_facts(1, k1),
        t2.get(k2) or _suit_facts(2, k2), t3.get(k3 := b[27:34]) or _suit_facts(3, k3),
    ))
    if melds == 0:
        if b.count(2) == 6 and b.count(1) == 1 and b.count(0) == NUM_KINDS - 7:
            mask |= 1 << b.index(1)
        if k0[1:8] == _NO_MIDDLES and k1[1:8] == _NO_MIDDLES and k2[1:8] == _NO_MIDDLES:
            mask |= thirteen_orphans_waits(counts)
    return mask


def is_isolated(counts: Sequence[int], kind: int) -> bool:
    """Whether ``kind`` is a single with no other tile of its suit within two (a tile
    that helps no set: random players throw these first)."""
    if counts[kind] != 1:
        return False
    if kind >= 27:
        return True
    i = kind % 9  # the neighbours within two, inside the suit, hold nothing
    return not ((i > 0 and counts[kind - 1]) or (i > 1 and counts[kind - 2])
                or (i < 8 and counts[kind + 1]) or (i < 7 and counts[kind + 2]))


def least_shanten(kinds: Iterable[int], counts: list[int],
                  shanten_of: Callable[[list[int]], int]) -> tuple[set[int], int]:
    """Of the ``kinds`` one may discard, those whose discard leaves ``counts`` fewest from
    ready by ``shanten_of``, and that number (99 when ``kinds`` is empty). ``counts`` is
    changed while counting and restored; nothing is chosen here."""
    best: set[int] = set()
    low = 99
    for k in set(kinds):
        counts[k] -= 1
        sh = shanten_of(counts)
        counts[k] += 1
        if sh < low:
            low, best = sh, {k}
        elif sh == low:
            best.add(k)
    return best, low


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
def _blocks(counts: bytes, honours: bool) -> tuple[Frontier, Frontier]:
    """Pareto-best (sets, partial sets) of a suit: without a pair, and with one pair.

    A partial set is two tiles one tile from a set: a pair, two neighbours or
    a gap of one.
    """
    found = _splits(tuple(counts), honours, True)
    return (_frontier({(m, t) for m, t, pair in found if not pair}),
            _frontier({(m, t) for m, t, pair in found if pair}))


@lru_cache(maxsize=1 << 17)
def _splits(c: tuple[int, ...], honours: bool, pair_free: bool
            ) -> frozenset[tuple[int, int, bool]]:
    """Every (sets, partial sets, pair taken) the tiles ``c`` of one suit can be split
    into, taking the first tile left as a set, a run, the pair (while ``pair_free``), a
    partial set or a loose tile, and the rest the same way. Memoized on what is left, so
    that a long suit (a Taiwanese hand holds up to 16 tiles) is split in polynomial time."""
    i = 0
    while i < len(c) and c[i] == 0:
        i += 1
    if i == len(c):
        return frozenset({(0, 0, False)})
    c = c[i:]
    out: set[tuple[int, int, bool]] = set()

    def take(rest: tuple[int, ...], sets: int, partials: int, pair: bool, free: bool) -> None:
        out.update((m + sets, t + partials, p or pair)
                   for m, t, p in _splits(rest, honours, free))

    first, tail = c[0], c[1:]
    if first >= 3:
        take((first - 3, *tail), 1, 0, False, pair_free)
    if not honours and len(c) > 2 and c[1] and c[2]:
        take((first - 1, c[1] - 1, c[2] - 1, *c[3:]), 1, 0, False, pair_free)
    if first >= 2:
        if pair_free:
            take((first - 2, *tail), 0, 0, True, False)
        take((first - 2, *tail), 0, 1, False, pair_free)
    if not honours:
        for gap in (1, 2):
            if len(c) > gap and c[gap]:
                rest = list(c)
                rest[0] -= 1
                rest[gap] -= 1
                take(tuple(rest), 0, 1, False, pair_free)
    take((first - 1, *tail), 0, 0, False, pair_free)
    return frozenset(out)


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
    b = bytes(counts)
    states: _States = {(melds, 0): 0}
    for lo, hi in _SLICES[:3]:  # the suits, then the honours last
        states = _with_suit(states, _blocks(b[lo:hi], False), sets)
    lo, hi = _SLICES[3]
    return _fewest(states, _blocks(b[lo:hi], True), sets)


def least_standard_shanten(kinds: Iterable[int], counts: list[int], melds: int,
                           sets: int) -> tuple[set[int], int]:
    """:func:`least_shanten` by :func:`standard_shanten`, the same answer in less time:
    the other three suits are combined once for each suit a discard comes from, and
    each discard then adds only its own suit's splits. ``counts`` is left as it was."""
    b = bytes(counts)
    blocks = [_blocks(b[lo:hi], i == 3) for i, (lo, hi) in enumerate(_SLICES)]
    others: dict[int, _States] = {}
    best: set[int] = set()
    low = 99
    for k in set(kinds):
        suit = 3 if k >= 27 else k // 9
        if suit not in others:
            states: _States = {(melds, 0): 0}
            for j, block in enumerate(blocks):
                if j != suit:
                    states = _with_suit(states, block, sets)
            others[suit] = states
        lo, hi = _SLICES[suit]
        key = bytearray(b[lo:hi])
        key[k - lo] -= 1
        sh = _fewest(others[suit], _blocks(bytes(key), suit == 3), sets)
        if sh < low:
            low, best = sh, {k}
        elif sh == low:
            best.add(k)
    return best, low


_States = dict[tuple[int, int], int]
"""(sets, pair held) -> most partial sets, over the suits combined so far."""


def _with_suit(states: _States, blocks: tuple[Frontier, Frontier], sets: int) -> _States:
    """``states`` with one more suit's splits taken in. Partial sets beyond what the
    remaining sets can use are worthless, so they are capped (which makes the order in
    which suits are taken irrelevant). Written without ``min``/``max`` calls: this is the
    inner loop of every shanten count."""
    no_pair, with_pair = blocks
    nxt: _States = {}
    get = nxt.get
    for (m, p), t in states.items():
        for dm, dt in no_pair:
            cap, v = sets - m - dm, t + dt
            if v > cap:
                v = cap if cap > 0 else 0
            if get(k := (m + dm, p), -1) < v:
                nxt[k] = v
        if not p:
            for dm, dt in with_pair:
                cap, v = sets - m - dm, t + dt
                if v > cap:
                    v = cap if cap > 0 else 0
                if get(k := (m + dm, 1), -1) < v:
                    nxt[k] = v
    return nxt


def _fewest(states: _States, blocks: tuple[Frontier, Frontier], sets: int) -> int:
    """The shanten of ``states`` with a last suit's splits taken in: what
    :func:`_with_suit` followed by taking the least ``2*sets - 2*sets_found - partials -
    pair`` gives, without building the states of the whole hand."""
    no_pair, with_pair = blocks
    low = 99
    for (m, p), t in states.items():
        for dm, dt in no_pair:
            cap, v = sets - m - dm, t + dt
            if v > cap:
                v = cap if cap > 0 else 0
            if (left := 2 * cap - v - p) < low:
                low = left
        if not p:
            for dm, dt in with_pair:
                cap, v = sets - m - dm, t + dt
                if v > cap:
                    v = cap if cap > 0 else 0
                if (left := 2 * cap - v - 1) < low:
                    low = left
    return low


def seven_pairs_shanten(counts: Sequence[int]) -> int:
    """Shanten towards seven distinct pairs (closed 13- or 14-tile hands)."""
    b = bytes(counts)
    distinct = NUM_KINDS - b.count(0)
    pairs = distinct - b.count(1)
    return 6 - pairs + max(0, 7 - distinct)


def thirteen_orphans_shanten(counts: Sequence[int]) -> int:
    """Shanten towards thirteen orphans (closed hands)."""
    c = counts
    orphans = (c[0], c[8], c[9], c[17], c[18], c[26], c[27], c[28], c[29], c[30], c[31], c[32],
               c[33])
    held = 13 - orphans.count(0)
    paired = held - orphans.count(1) > 0
    return 13 - held - (1 if paired else 0)


def shanten(counts: Sequence[int], melds: int = 0) -> int:
    """Smallest shanten over the three shapes (the special ones only when closed).

    A hand one tile short whose shapes wait only on kinds it holds all four of (``6666s``
    with three calls) has no winning tile, so it is not ready: 1, not 0, as the mahjong
    library counts it and as a table counts such a hand not ready at a draw. A hand of
    3n + 2 tiles is counted by its shapes alone."""
    best = standard_shanten(counts, melds)
    if melds == 0 and best > -1:
        best = min(best, seven_pairs_shanten(counts), thirteen_orphans_shanten(counts))
    if best == 0 and sum(counts) % 3 == 1 and not waits(counts, melds):
        return 1
    return best

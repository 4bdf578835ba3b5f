"""A fast riichi valuation on top of the hand kernel, for the common hands.

:mod:`mjlog.families.riichi.scoring.riichi` values hands through the ``mahjong`` library,
which is the reference but costs about 0.1 ms a hand: a fifth of an audit.
This module values the ordinary hands (standard shape or seven pairs, with
ordinary yaku) in mjlog's own code, from the per-suit decomposition tables,
and gives up (returns ``None``) on everything else: any yakuman or hand that
could be one (thirteen orphans, four concealed triplets, three dragon or three
wind triplets, all honours, all terminals, all green, a closed one-suit hand,
four kans, tenhou, chiihou). :func:`mjlog.families.riichi.scoring.riichi.value` uses it first
and the library for the rest; score verification asks the library again
whenever this module's answer differs from the record, so a mismatch is
always the library's word. Tests check that both agree on every win of the
Tenhou corpus.

Conventions are the library's and Tenhou's: a double-wind pair is 4 fu, an
open hand of 20 fu counts 30, a triplet completed by ron is open (unless the
win tile can be read as completing a run instead, which is a different
reading of the hand), the reading with the highest payment wins (then han,
then fu).
"""

from __future__ import annotations

from functools import lru_cache
from typing import Final, NamedTuple

from mjlog.core.events import AddedKan, Chi, ClosedKan, OpenKan, Pon, YakuClaim
from mjlog.core.ruleset import RiichiOptions, Ruleset
from mjlog.core.tiles import KIND_OF, NUM_TILES, RED_FIVE_IDS
from mjlog.families.riichi.scoring.situation import WinSituation

Set = tuple[int, bool, bool, bool]
"""A set: (first kind, is a run, concealed, is a kan)."""

_TERMINALS_HONOURS: Final = frozenset({0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33})
_GREEN: Final = frozenset({19, 20, 21, 23, 25, 32})
_DRAGONS: Final = frozenset({31, 32, 33})
_WINDS: Final = frozenset({27, 28, 29, 30})
_HONOURS: Final = frozenset(range(27, 34))
_NORTH: Final = 30


def next_kind(indicator: int, three_player: bool) -> int:
    """The dora a kind of indicator points to."""
    if indicator < 27:
        if three_player and indicator == 0:
            return 8
        return indicator - 8 if indicator % 9 == 8 else indicator + 1
    if indicator < 31:
        return 27 if indicator == 30 else indicator + 1
    return 31 if indicator == 33 else indicator + 1


_DORA_OF_4: Final = tuple(next_kind(k, False) for k in range(34))
_DORA_OF_3: Final = tuple(next_kind(k, True) for k in range(34))


Split = tuple[int, tuple[Set, ...]]
"""A split of some tiles: (the pair's kind or -1, the sets)."""


@lru_cache(maxsize=1 << 11)  # bounded: flat memory over any archive
def _suit_splits(counts: bytes, start: int, honours: bool) -> tuple[Split, ...]:
    """Every split of one suit into sets and at most one pair: (pair kind or -1, sets)."""
    out: list[tuple[int, tuple[Set, ...]]] = []
    _split(list(counts), 0, start, honours, -1, [], out)
    return tuple(out)


def _split(c: list[int], i: int, start: int, honours: bool, pair: int, sets: list[Set],
           out: list[tuple[int, tuple[Set, ...]]]) -> None:
    size = len(c)
    while i < size and c[i] == 0:
        i += 1
    if i == size:
        out.append((pair, tuple(sets)))
        return
    if c[i] >= 3:
        c[i] -= 3
        sets.append((start + i, False, True, False))
        _split(c, i, start, honours, pair, sets, out)
        sets.pop()
        c[i] += 3
    if not honours and i + 2 < size and c[i + 1] and c[i + 2]:
        c[i] -= 1
        c[i + 1] -= 1
        c[i + 2] -= 1
        sets.append((start + i, True, True, False))
        _split(c, i, start, honours, pair, sets, out)
        sets.pop()
        c[i] += 1
        c[i + 1] += 1
        c[i + 2] += 1
    if c[i] >= 2 and pair < 0:
        c[i] -= 2
        _split(c, i, start, honours, start + i, sets, out)
        c[i] += 2


def readings(counts: list[int]) -> list[tuple[int, tuple[Set, ...]]]:
    """Every split of the concealed tiles (kind counts) into sets and exactly one pair.

    Returns (pair kind, sets) for each; no seven-pairs or thirteen-orphans reading.
    """
    b = bytes(counts)
    parts = (_suit_splits(b[0:9], 0, False), _suit_splits(b[9:18], 9, False),
             _suit_splits(b[18:27], 18, False), _suit_splits(b[27:34], 27, True))
    result: list[tuple[int, tuple[Set, ...]]] = [(-1, ())]
    for part in parts:
        if not part:
            return []
        result = [(p1 if p2 < 0 else p2, s1 + s2) for p1, s1 in result for p2, s2 in part
                  if p1 < 0 or p2 < 0]
    return [r for r in result if r[0] >= 0]


def _meld_sets(sit: WinSituation) -> list[Set] | None:
    sets: list[Set] = []
    for m in sit.melds:
        k = KIND_OF[m.tiles[0]]
        if isinstance(m, Chi):
            sets.append((min(KIND_OF[t] for t in m.tiles), True, False, False))
        elif isinstance(m, Pon):
            sets.append((k, False, False, False))
        elif isinstance(m, OpenKan | AddedKan):
            sets.append((k, False, False, True))
        elif isinstance(m, ClosedKan):
            sets.append((k, False, True, True))
        else:
            return None
    return sets


FU_BASE: Final = 20
"""Fu every standard hand starts with (副底)."""
FU_CLOSED_RON: Final = 10
"""Fu for a ron with a closed hand (面前加符)."""
FU_TSUMO: Final = 2
"""Fu for a tsumo (not with pinfu)."""
FU_SEVEN_PAIRS: Final = 25
"""Fu of seven pairs, fixed and not rounded."""
WAIT_FU: Final = {"ryanmen": 0, "shanpon": 0, "kanchan": 2, "penchan": 2, "tanki": 2}
"""Fu of each kind of wait: two-sided, dual pon, closed, edge, single."""


def set_fu(kind: int, *, kan: bool, concealed: bool) -> int:
    """Fu of a triplet or kan: 2 for an open triplet of simples, doubled for terminals or
    honours, doubled when concealed, times four for a kan. Runs give none."""
    return (2 * (2 if kind in _TERMINALS_HONOURS else 1) * (2 if concealed else 1)
            * (4 if kan else 1))


def pair_fu(kind: int, seat_wind: int, round_wind: int) -> int:
    """Fu of the pair: 2 for dragons, 2 for the seat wind and 2 for the round wind
    (4 for a double wind); winds are kinds 27..30."""
    return ((2 if kind in _DRAGONS else 0) + (2 if kind == seat_wind else 0)
            + (2 if kind == round_wind else 0))


_PLAIN_RIICHI = RiichiOptions()


def _base_and_limit(han: int, fu: int, ruleset: Ruleset) -> tuple[int, str]:
    # a writer of a riichi format may value another family's win: plain riichi limits then
    opts = ruleset.family_options
    rules = opts if isinstance(opts, RiichiOptions) else _PLAIN_RIICHI
    if han >= 13:
        if rules.kazoe == "yakuman":
            return 8000, "yakuman"
        if rules.kazoe == "sanbaiman":
            return 6000, "sanbaiman"
        return 8000 * (han // 13), "yakuman"
    if han >= 11:
        return 6000, "sanbaiman"
    if han >= 8:
        return 4000, "baiman"
    if han >= 6:
        return 3000, "haneman"
    if han >= 5:
        return 2000, "mangan"
    base = fu * (1 << (han + 2))
    if rules.kiriage and ((han == 4 and fu == 30) or (han == 3 and fu == 60)):
        return 2000, ""
    if base > 2000:
        return 2000, "mangan"
    return base, ""


def up100(x: int) -> int:
    """``x`` rounded up to a multiple of 100 (how payments round)."""
    return (x + 99) // 100 * 100


Reading = tuple[int, int, list[tuple[str, int]]]
"""(fu, han, yaku with han) of one reading of a hand."""


class _Hand:
    """What every reading of one win shares."""

    __slots__ = ("closed", "dora", "honours", "kinds", "melds", "red", "ruleset", "simples",
                 "sit", "suits", "ura", "win")

    def __init__(self, sit: WinSituation, ruleset: Ruleset, melds: list[Set],
                 kinds: list[int], kind_set: set[int]) -> None:
        self.sit = sit
        self.ruleset = ruleset
        self.melds = melds
        self.closed = all(m[2] for m in melds)
        self.kinds = kinds
        self.win = KIND_OF[sit.win_tile]
        self.suits = {k // 9 for k in kind_set if k < 27}
        self.honours = kind_set.isdisjoint(_HONOURS) is False
        self.simples = kind_set.isdisjoint(_TERMINALS_HONOURS)
        nxt = _DORA_OF_3 if ruleset.players == 3 else _DORA_OF_4
        dora = [nxt[KIND_OF[t]] for t in sit.dora_indicators]
        self.dora = sum([kinds.count(d) for d in dora])
        if sit.kita:
            self.dora += sit.kita * (1 + dora.count(_NORTH))
        self.ura = 0
        if sit.riichi or sit.double_riichi:
            ura = [nxt[KIND_OF[t]] for t in sit.ura_indicators]
            self.ura = sum([kinds.count(d) for d in ura]) + sit.kita * ura.count(_NORTH)
        red = 0
        if ruleset.red_fives:
            red = len(RED_FIVE_IDS.intersection(sit.hand))
            for m in sit.melds:
                red += len(RED_FIVE_IDS.intersection(m.tiles))
        self.red = red


def _value_reading(h: _Hand, pair: int, sets: list[Set], wait: int,
                   chiitoitsu: bool) -> Reading | None:
    """(fu, han, yaku) of one reading; ``wait`` says how the win tile completes it.

    ``wait``: -1 pair (tanki), -2 seven pairs, else the index in ``sets`` of
    the set the win tile completes.
    """
    seat_wind = 27 + h.sit.seat_wind
    round_wind = 27 + h.sit.round_wind
    yaku: list[tuple[str, int]] = []
    if chiitoitsu:
        fu = FU_SEVEN_PAIRS
        runs: list[Set] = []
        triplets: list[Set] = []
    else:
        sets, kind_of_wait = _wait_of(h, sets, wait)
        runs = [s for s in sets if s[1]]
        triplets = [s for s in sets if not s[1]]
        fu = _fu(h, pair, triplets, kind_of_wait, seat_wind, round_wind, yaku)
    _situation_yaku(h, chiitoitsu, yaku)
    if not chiitoitsu:
        _set_yaku(h, pair, runs, triplets, yaku, seat_wind, round_wind)
    elif _TERMINALS_HONOURS.issuperset(h.kinds):
        yaku.append(("honroutou", 2))
    han = 0
    for _, v in yaku:
        han += v
    if han == 0:
        return None
    if h.dora:
        yaku.append(("dora", h.dora))
    if h.red:
        yaku.append(("aka-dora", h.red))
    if h.ura:
        yaku.append(("ura-dora", h.ura))
    return fu, han + h.dora + h.red + h.ura, yaku


def _wait_of(h: _Hand, sets: list[Set], wait: int) -> tuple[list[Set], str]:
    """The sets as the win leaves them (a triplet completed by ron is open) and the kind
    of wait: tanki, kanchan, penchan, ryanmen or shanpon."""
    s = sets[wait] if wait >= 0 else None
    if s is not None and not h.sit.tsumo and not s[1]:
        sets = list(sets)
        sets[wait] = (s[0], False, False, s[3])
    if wait == -1:
        return sets, "tanki"
    if s is not None and s[1]:
        pos = h.win - s[0]
        if pos == 1:
            return sets, "kanchan"
        if (pos == 2 and s[0] % 9 == 0) or (pos == 0 and s[0] % 9 == 6):
            return sets, "penchan"
        return sets, "ryanmen"
    return sets, "shanpon"


def _fu(h: _Hand, pair: int, triplets: list[Set], kind_of_wait: str, seat_wind: int,
        round_wind: int, yaku: list[tuple[str, int]]) -> int:
    """The fu of an ordinary reading (adds pinfu to ``yaku`` when it scores it)."""
    closed, tsumo = h.closed, h.sit.tsumo
    fu = FU_BASE + pair_fu(pair, seat_wind, round_wind) + WAIT_FU[kind_of_wait]
    for k, _, conc, kan in triplets:
        fu += set_fu(k, kan=kan, concealed=conc)
    if closed and fu == FU_BASE and kind_of_wait == "ryanmen":
        yaku.append(("pinfu", 1))
    elif tsumo:
        fu += FU_TSUMO
    if closed and not tsumo:
        fu += FU_CLOSED_RON
    elif not closed and fu == FU_BASE:
        fu = 30  # an open hand with nothing else still counts 30
    return (fu + 9) // 10 * 10


def _situation_yaku(h: _Hand, chiitoitsu: bool, yaku: list[tuple[str, int]]) -> None:
    """The yaku of the win's situation, of seven pairs, all simples and one suit."""
    sit, closed = h.sit, h.closed
    if sit.tsumo and closed:
        yaku.append(("menzen-tsumo", 1))
    if sit.double_riichi:
        yaku.append(("double-riichi", 2))
    elif sit.riichi:
        yaku.append(("riichi", 1))
    for on, name in ((sit.ippatsu, "ippatsu"), (sit.rinshan, "rinshan-kaihou"),
                     (sit.chankan, "chankan"), (sit.haitei, "haitei"),
                     (sit.houtei, "houtei")):
        if on:
            yaku.append((name, 1))
    if chiitoitsu:
        yaku.append(("chiitoitsu", 2))
    if h.simples and (closed or h.ruleset.riichi.open_tanyao):
        yaku.append(("tanyao", 1))
    if not h.honours and len(h.suits) == 1:
        yaku.append(("chinitsu", 6 if closed else 5))
    elif h.honours and len(h.suits) == 1:
        yaku.append(("honitsu", 3 if closed else 2))


_SEAT_WIND_YAKU = ("seat-wind-east", "seat-wind-south", "seat-wind-west", "seat-wind-north")
_ROUND_WIND_YAKU = ("round-wind-east", "round-wind-south", "round-wind-west",
                    "round-wind-north")


def _set_yaku(h: _Hand, pair: int, runs: list[Set], triplets: list[Set],
              yaku: list[tuple[str, int]], seat_wind: int, round_wind: int) -> None:
    run_starts = sorted(s[0] for s in runs)
    trip_kinds = [s[0] for s in triplets]
    if h.closed:
        same = sum(run_starts.count(k) // 2 for k in set(run_starts))
        if same == 2:
            yaku.append(("ryanpeikou", 3))
        elif same == 1:
            yaku.append(("iipeikou", 1))
    for k, name in ((31, "haku"), (32, "hatsu"), (33, "chun")):
        if k in trip_kinds:
            yaku.append((name, 1))
    if seat_wind in trip_kinds:
        yaku.append((_SEAT_WIND_YAKU[seat_wind - 27], 1))
    if round_wind in trip_kinds:
        yaku.append((_ROUND_WIND_YAKU[round_wind - 27], 1))
    _run_yaku(h.closed, runs, run_starts, yaku)
    _triplet_yaku(pair, triplets, trip_kinds, runs, yaku)
    if (pair in _TERMINALS_HONOURS and all(k in _TERMINALS_HONOURS for k in trip_kinds)
            and all(k % 9 in (0, 6) for k in run_starts)):
        if not runs:
            yaku.append(("honroutou", 2))
        elif h.honours:
            yaku.append(("chanta", 2 if h.closed else 1))
        else:
            yaku.append(("junchan", 3 if h.closed else 2))


def _run_yaku(closed: bool, runs: list[Set], run_starts: list[int],
              yaku: list[tuple[str, int]]) -> None:
    """三色同順 and 一気通貫."""
    if len(runs) >= 3:
        starts = set(run_starts)
        if any(k + 9 in starts and k + 18 in starts for k in starts if k < 7):
            yaku.append(("sanshoku", 2 if closed else 1))
        if any(k + 3 in starts and k + 6 in starts for k in starts if k % 9 == 0):
            yaku.append(("ittsu", 2 if closed else 1))


def _triplet_yaku(pair: int, triplets: list[Set], trip_kinds: list[int], runs: list[Set],
                  yaku: list[tuple[str, int]]) -> None:
    """三色同刻, 対々和, 三暗刻, 三槓子 and 小三元."""
    trips = set(trip_kinds)
    if len(trips) >= 3 and any(k + 9 in trips and k + 18 in trips for k in trips if k < 9):
        yaku.append(("sanshoku-doukou", 2))
    if not runs:
        yaku.append(("toitoi", 2))
    if sum(1 for s in triplets if s[2]) == 3:
        yaku.append(("sanankou", 2))
    if sum(1 for s in triplets if s[3]) == 3:
        yaku.append(("sankantsu", 2))
    if len(_DRAGONS & trips) == 2 and pair in _DRAGONS:
        yaku.append(("shousangen", 2))


def _counts_and_kinds(sit: WinSituation) -> tuple[list[int], list[int]]:
    """Kind counts of the concealed tiles, and the kinds of every tile of the hand."""
    counts = [0] * 34
    kind_of = KIND_OF
    kinds = [kind_of[t] for t in sit.hand]
    for k in kinds:
        counts[k] += 1
    for m in sit.melds:
        kinds.extend([kind_of[t] for t in m.tiles])
    return counts, kinds


def fast_value(sit: WinSituation, ruleset: Ruleset) -> tuple[int, int, tuple[YakuClaim, ...],
                                                            str, int, int] | None:
    """``(fu, han, yaku, limit, main, additional)`` of an ordinary hand, ``None`` otherwise.

    ``main``/``additional`` are as in :class:`mjlog.families.riichi.scoring.riichi.Valuation`.
    ``None`` means "not valued here": a possible yakuman, an unusual hand, or
    no winning reading (the library then decides).
    """
    if sit.tenhou or sit.chiihou:
        return None
    melds = _meld_sets(sit)
    if melds is None or sum(1 for m in melds if m[3]) == 4:
        return None
    counts, kinds = _counts_and_kinds(sit)
    kind_set = set(kinds)
    if kind_set <= _TERMINALS_HONOURS or kind_set <= _GREEN:
        return None
    h = _Hand(sit, ruleset, melds, kinds, kind_set)
    if h.closed and not h.honours and len(h.suits) == 1:
        return None  # could be nine gates
    found = _valued_readings(h, counts, melds)
    if not found:
        return None
    fu, han, yaku = found[0] if len(found) == 1 else _best(found, sit, ruleset)
    base, limit = _base_and_limit(han, fu, ruleset)
    main, additional = _payments(base, sit)
    return fu, han, tuple(_claim(n, v) for n, v in yaku), limit, main, additional


def _valued_readings(h: _Hand, counts: list[int], melds: list[Set]) -> list[Reading] | None:
    """The value of every reading of the hand and every place of its winning tile;
    ``None`` when a reading could be a yakuman (the library decides those)."""
    found: list[Reading] = []
    for pair, concealed in readings(counts):
        sets = list(concealed) + melds
        trip_kinds = [s[0] for s in sets if not s[1]]
        if (len(_DRAGONS.intersection(trip_kinds)) == 3
                or len(_WINDS.intersection(trip_kinds)) >= 3
                or sum(1 for s in sets if not s[1] and s[2]) == 4):
            return None
        waits = [i for i, s in enumerate(concealed)
                 if (s[1] and s[0] <= h.win <= s[0] + 2) or (not s[1] and s[0] == h.win)]
        if pair == h.win:
            waits.append(-1)
        for w in waits:
            r = _value_reading(h, pair, sets, w, False)
            if r is not None:
                found.append(r)
    if h.closed and not h.melds and counts.count(2) == 7:
        r = _value_reading(h, -1, [], -2, True)
        if r is not None:
            found.append(r)
    return found


class YakuReading(NamedTuple):
    """One reading of a winning hand and the ordinary yaku it scores.

    ``sets`` are the concealed sets first (in kind order), then the called and
    kanned sets in the order of ``WinSituation.melds``; ``concealed_sets`` says
    how many come first. ``pair`` is the pair's kind (-1 for seven pairs).
    ``yaku`` excludes dora.
    """

    pair: int
    sets: tuple[Set, ...]
    concealed_sets: int
    yaku: tuple[str, ...]


def yaku_readings(sit: WinSituation, ruleset: Ruleset) -> list[YakuReading]:
    """Every reading of ``sit``'s hand that scores at least one ordinary yaku.

    Unlike :func:`fast_value` it values no hand and does not give up on
    possible yakuman: it lists ordinary yaku only (no yakuman), so a caller
    that needs yakuman asks :func:`mjlog.families.riichi.scoring.riichi.value`. Thirteen
    orphans and other shapes without sets give no reading.
    """
    melds = _meld_sets(sit)
    if melds is None or not all(0 <= t < NUM_TILES for t in sit.hand):
        return []  # a set the hand cannot read, or a flower or unknown tile
    counts, kinds = _counts_and_kinds(sit)
    h = _Hand(sit, ruleset, melds, kinds, set(kinds))
    win = h.win
    out: list[YakuReading] = []
    for pair, concealed in readings(counts):
        sets = list(concealed) + melds
        places = [i for i, s in enumerate(concealed)
                  if (s[1] and s[0] <= win <= s[0] + 2) or (not s[1] and s[0] == win)]
        if pair == win:
            places.append(-1)
        for w in places:
            r = _value_reading(h, pair, sets, w, False)
            if r is not None:
                out.append(YakuReading(pair, tuple(sets), len(concealed),
                                       tuple(n for n, _ in r[2] if n not in _DORA_NAMES)))
    if h.closed and not h.melds and counts.count(2) == 7:
        r = _value_reading(h, -1, [], -2, True)
        if r is not None:
            out.append(YakuReading(-1, (), 0, tuple(n for n, _ in r[2] if n not in _DORA_NAMES)))
    return out


def shapes(sit: WinSituation) -> list[YakuReading]:
    """Every reading of ``sit``'s winning hand as sets and a pair (seven pairs as one
    reading without sets), with no yaku named: the shapes a referee shows for a hand that
    scores none. Empty for a hand with an unknown tile or flower, or no such shape."""
    melds = _meld_sets(sit)
    if melds is None or not all(0 <= t < NUM_TILES for t in sit.hand):
        return []
    counts, _ = _counts_and_kinds(sit)
    out = [YakuReading(pair, (*concealed, *melds), len(concealed), ())
           for pair, concealed in readings(counts)]
    if not melds and counts.count(2) == 7:
        out.append(YakuReading(-1, (), 0, ()))
    return out


_DORA_NAMES: Final = frozenset({"dora", "aka-dora", "ura-dora"})
_CLAIMS: dict[tuple[str, int], YakuClaim] = {}


def _claim(name: str, han: int) -> YakuClaim:
    """One shared, immutable claim per (name, han)."""
    claim = _CLAIMS.get((name, han))
    if claim is None:
        claim = _CLAIMS[name, han] = YakuClaim(name=name, han=han)
    return claim


def hand_value(han: int, fu: int, ruleset: Ruleset) -> tuple[int, str]:
    """(base points, limit name) of a hand of ``han`` and ``fu`` under ``ruleset``.

    The base is ``fu * 2**(han + 2)`` below the limits; a ron pays it times 4
    (times 6 to the dealer), rounded up to 100. Limits: mangan at 5 han or a
    base over 2000, haneman 6-7, baiman 8-10, sanbaiman 11-12, yakuman (kazoe)
    13 and more, as :attr:`Ruleset.kazoe` says; kiriage rounds 30 fu 4 han and
    60 fu 3 han up to a mangan without naming it one.
    """
    return _base_and_limit(han, fu, ruleset)


def ron_points(han: int, fu: int, ruleset: Ruleset, *, dealer: bool) -> int:
    """What a ron of ``han`` and ``fu`` pays, honba and sticks apart."""
    return up100(_base_and_limit(han, fu, ruleset)[0] * (6 if dealer else 4))


def _payments(base: int, sit: WinSituation) -> tuple[int, int]:
    if not sit.tsumo:
        return up100(base * (6 if sit.is_dealer else 4)), 0
    if sit.is_dealer:
        return up100(base * 2), up100(base * 2)
    return up100(base * 2), up100(base)


def _best(found: list[Reading], sit: WinSituation, ruleset: Ruleset) -> Reading:
    """The reading paid most (then most han, then most fu), the first among equals."""
    def key(r: Reading) -> tuple[int, int, int]:
        main, additional = _payments(_base_and_limit(r[1], r[0], ruleset)[0], sit)
        return main + 2 * additional, r[1], r[0]
    return max(found, key=key)

"""The hand kernel: waits, shanten and complete shapes, by hand and over the whole corpus."""

from __future__ import annotations

import functools
import itertools
import random
from pathlib import Path

import pytest
from mahjong.agari import Agari
from mahjong.shanten import Shanten

from mjlog.core.events import Discard
from mjlog.core.record import GameRecord
from mjlog.core.tiles import KIND_OF, kind_str, parse_kinds
from mjlog.families.riichi.hand.shape import (
    _sets_only,
    counts_of,
    is_complete,
    is_isolated,
    is_standard_complete,
    kinds_of_mask,
    least_shanten,
    least_standard_shanten,
    shanten,
    standard_shanten,
    waits,
)
from mjlog.replay.engine import Engine


def c(text: str) -> list[int]:
    return counts_of([k for k, _ in parse_kinds(text)])


def w(text: str, melds: int = 0) -> str:
    return " ".join(kind_str(k) for k in kinds_of_mask(waits(c(text), melds)))


@pytest.mark.parametrize(("hand", "melds", "expected"), [
    ("1112345678999m", 0, "1m 2m 3m 4m 5m 6m 7m 8m 9m"),  # nine gates
    ("19m19p19s1234567z", 0, "1m 9m 1p 9p 1s 9s 1z 2z 3z 4z 5z 6z 7z"),  # 13-sided
    ("19m19p19s1234566z", 0, "7z"),
    ("1133557799m11p2z", 0, "2z"),  # seven pairs
    ("1133557799m1111p", 0, ""),  # a seven-pairs single held four times: no wait
    ("123m456p789s1122z", 0, "1z 2z"),  # dual pon
    ("23m55p", 3, "1m 4m"),
    ("1m", 4, "1m"),
    ("1111m", 3, ""),  # only 1m would do, and all four are in hand
    ("2345m", 3, "2m 5m"),
    ("13m55p", 3, "2m"),
    ("12m55p", 3, "3m"),
    ("1234567m111p222s", 0, "1m 4m 7m"),
    ("123m456p789s1234z", 0, ""),
])
def test_waits(hand: str, melds: int, expected: str) -> None:
    assert w(hand, melds) == expected


@pytest.mark.parametrize(("hand", "melds", "expected"), [
    ("123m456p789s11222z", 0, -1),
    ("123m456p789s1122z", 0, 0),
    ("19m19p19s1234567z", 0, 0),
    ("1133557799m1p23z", 0, 1),  # five pairs: one from seven pairs
    ("13579m13579p135s", 0, 4),
    ("159m159p159s1234z", 0, 3),  # ten of the thirteen orphans
    ("1m", 4, 0),
    ("6666s", 3, 1),  # its only shape waits on a fifth 6s: not ready
    ("678999p6666z", 1, 1),  # 678p 999p 666z waits on a fifth 6z (corpus hands)
    ("1111m", 3, 1),
])
def test_shanten(hand: str, melds: int, expected: int) -> None:
    assert shanten(c(hand), melds) == expected


def test_complete_shapes() -> None:
    assert is_complete(c("123m456p789s11222z"))
    assert is_complete(c("1133557799m1122p"))
    assert is_complete(c("19m19p19s12345677z"))
    assert not is_complete(c("19m19p19s12345677z"), melds=1)
    assert not is_complete(c("123m456p789s11223z"))


def test_five_sets_and_a_pair_taiwanese_size() -> None:
    """The tables take any number of sets: a 17-tile hand of five sets and a pair."""
    hand = c("123456789m123p44455s")
    assert is_standard_complete(hand)
    assert standard_shanten(hand, sets=5) == -1
    assert standard_shanten(c("123456789m123p4445s"), sets=5) == 0


@pytest.mark.parametrize(("tiles", "sets"), [(14, 4), (17, 5)])
def test_least_standard_shanten_is_least_shanten_by_standard_shanten(tiles: int,
                                                                     sets: int) -> None:
    """The suit-by-suit shortcut picks the same discards, at the same shanten, as counting
    every discard's hand whole, on random hands with 0 to 2 melds."""
    rng = random.Random(tiles)
    lows = set()
    for _ in range(3000):
        melds = rng.randrange(3)
        counts = [0] * 34
        for k in rng.sample([k for k in range(34) for _ in range(4)], tiles - 3 * melds):
            counts[k] += 1
        held = [k for k in range(34) if counts[k]]
        before = list(counts)
        fast = least_standard_shanten(held, counts, melds, sets)
        assert counts == before
        whole = functools.partial(standard_shanten, melds=melds, sets=sets)
        assert fast == least_shanten(held, counts, whole), counts
        lows.add(fast[1])
    assert len(lows) >= 3  # hands near and far from ready were both tried


def test_sets_only_in_one_pass_is_the_search_over_every_split() -> None:
    """Every suit of up to 12 tiles (any counts of 0 to 4): the one-pass split agrees with
    trying a triplet or a run of the lowest kind, recursively."""

    @functools.cache
    def search(c: tuple[int, ...]) -> bool:
        i = next((j for j, n in enumerate(c) if n), -1)
        if i < 0:
            return True
        if c[i] >= 3 and search((*c[:i], c[i] - 3, *c[i + 1:])):
            return True
        return i <= 6 and c[i + 1] > 0 and c[i + 2] > 0 and search(
            (*c[:i], c[i] - 1, c[i + 1] - 1, c[i + 2] - 1, *c[i + 3:]))

    tried = complete = 0
    for c in itertools.product(range(5), repeat=9):
        if sum(c) % 3 or sum(c) > 12:
            continue
        key = sum(n << (3 * i) for i, n in enumerate(c))
        assert _sets_only(key, False) == search(c), c
        tried += 1
        complete += search(c)
    assert tried > 30_000 and complete > 1_000


@pytest.fixture(scope="session")
def corpus_hands(tenhou_xml_records: list[tuple[Path, GameRecord]]
                 ) -> list[tuple[list[int], int]]:
    """Every distinct concealed hand (kind counts, sets called) right after a discard."""
    seen: set[tuple[tuple[int, ...], int]] = set()
    for _, rec in tenhou_xml_records:
        engine = Engine()
        for i, ev in enumerate(rec.events):
            engine.apply(ev, i)
            if isinstance(ev, Discard):
                ps = engine.state.players[ev.player]
                counts = [0] * 34
                for t in ps.concealed:
                    counts[KIND_OF[t]] += 1
                seen.add((tuple(counts), len(ps.melds)))
    return [(list(h), m) for h, m in sorted(seen)]


@pytest.mark.parametrize(("hand", "tile", "alone"), [
    ("1m4m", "1m", True), ("1m4m", "4m", True), ("1m3m", "1m", False), ("1m3m", "3m", False),
    ("9m1p", "9m", True), ("9m1p", "1p", True), ("11m", "1m", False), ("1z2z", "1z", True),
    ("8m9m", "9m", False), ("5p7p", "7p", False), ("5p8p", "8p", True),
])
def test_a_single_with_no_tile_of_its_suit_within_two_is_isolated(hand: str, tile: str,
                                                                   alone: bool) -> None:
    assert is_isolated(c(hand), parse_kinds(tile)[0][0]) is alone


ORPHANS = frozenset({0, 8, 9, 17, 18, 26, *range(27, 34)})


def could_complete(counts: list[int]) -> list[int]:
    """The kinds of which one tile could complete ``counts`` in any shape: a kind held, a
    suited kind within two of one held (a set or the pair needs a partner among the tiles
    held), and the terminals and honours when every tile held is one (thirteen orphans).
    A tile of any other kind is left without a partner, so it never completes the hand."""
    out: set[int] = set()
    for k, n in enumerate(counts):
        if n:
            out.add(k)
            if k < 27:
                low = k - k % 9
                out.update(range(max(low, k - 2), min(low + 8, k + 2) + 1))
    if all(k in ORPHANS for k in out if counts[k]):
        out |= ORPHANS
    return sorted(out)


def test_only_the_kinds_that_could_complete_a_hand_are_tried() -> None:
    assert could_complete(c("25m")) == [0, 1, 2, 3, 4, 5, 6]
    assert could_complete(c("5m5z")) == [2, 3, 4, 5, 6, 31]
    assert could_complete(c("9p1z")) == sorted({15, 16, 17} | ORPHANS)  # thirteen orphans


@pytest.fixture(scope="session")
def library_shanten(corpus_hands: list[tuple[list[int], int]]) -> list[int]:
    """The library's shanten of each corpus hand (its least over every shape)."""
    lib = Shanten()
    return [lib.calculate_shanten(h) for h, _ in corpus_hands]


@pytest.mark.slow
def test_waits_equal_brute_force_on_every_corpus_hand(
        corpus_hands: list[tuple[list[int], int]], library_shanten: list[int]) -> None:
    """Kernel waits == the library's agari check tried with each kind that could complete
    the hand (:func:`could_complete`; a wait the kernel gives outside them is a mismatch).
    A hand the library counts as not ready (shanten 1 or more) has no tile that completes
    it, so only the ready ones are tried tile by tile: about 7% of them."""
    agari = Agari()
    tenpai = wrong = 0
    for (counts, melds), far in zip(corpus_hands, library_shanten, strict=True):
        brute = 0
        for k in could_complete(counts) if far <= 0 else ():
            if counts[k] < 4:
                counts[k] += 1
                if agari.is_agari(counts):
                    brute |= 1 << k
                counts[k] -= 1
        mine = waits(counts, melds)
        tenpai += bool(brute)
        wrong += mine != brute
    assert len(corpus_hands) > 600_000
    assert tenpai > 45_000
    assert wrong == 0


@pytest.mark.slow
def test_shanten_equals_the_library_on_every_corpus_hand(
        corpus_hands: list[tuple[list[int], int]], library_shanten: list[int]) -> None:
    assert [shanten(h, m) for h, m in corpus_hands] == library_shanten

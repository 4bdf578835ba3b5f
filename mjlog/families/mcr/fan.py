"""Fan counting of a Chinese Official (MCR, 国标麻将) win.

The facts of one win (:class:`FanHand`) go to PyMahjongGB, the Python binding of
ChineseOfficialMahjongHelper's fan calculator (MIT; ``docs/mcr.md`` says why this library and
what was checked against the rulebooks). This module only translates: our tile kinds and melds
into the library's tile codes and packs, its Chinese fan names into the canonical English names
of :data:`FAN_NAMES` with their points, and its errors into a sentence.

Tile kinds are mjlog's (0-8 characters 1m-9m, 9-17 dots 1p-9p, 18-26 bamboo 1s-9s, 27-30 the
winds E S W N, 31-33 the dragons white green red); the library's codes are::

    kinds   0-8      9-17     18-26    27-30    31 32 33 (white green red)
    codes   W1-W9    B1-B9    T1-T9    F1-F4    J3 J2 J1

The library's dragons run the other way from mjlog's: J1 is red (中), J2 green (發),
J3 white (白), as in its C++ core (``TILE_C, TILE_F, TILE_P``) and in Botzone's records.

What this module does not do: judge whether the hand reaches :data:`MINIMUM_FAN` (the caller
compares :attr:`FanCount.without_flowers`), check that the melds were legal claims, or know the
blessings (天和, 地和, 人和), which are not fans of the rules the library follows.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from importlib import import_module
from typing import Literal, cast

from mjlog.core.about import MissingExtra, install_hint

__all__ = [
    "EXTRA_FANS",
    "FAN_NAMES",
    "MINIMUM_FAN",
    "Fan",
    "FanCount",
    "FanHand",
    "FanLibraryMissing",
    "FanMeld",
    "count_fan",
]

MINIMUM_FAN = 8
"""The least a win must count, flowers not included (起和番 8; 2006 rules, 第二章 and 第三章)."""

LIBRARY = "PyMahjongGB"
"""The package that counts the fans (imported as ``MahjongGB``)."""

# (Chinese name as the library spells it, canonical English name, points), in the order of the
# fan table of the 2006 rules (第三章 番种): 81 fans, the flower fan last. The English names
# are the EMA's (Mahjong Competition Rules, the "green book"), "All Fives" included.
_FAN_TABLE: tuple[tuple[str, str, int], ...] = (
    ("大四喜", "Big Four Winds", 88),
    ("大三元", "Big Three Dragons", 88),
    ("绿一色", "All Green", 88),
    ("九莲宝灯", "Nine Gates", 88),
    ("四杠", "Four Kongs", 88),
    ("连七对", "Seven Shifted Pairs", 88),
    ("十三幺", "Thirteen Orphans", 88),
    ("清幺九", "All Terminals", 64),
    ("小四喜", "Little Four Winds", 64),
    ("小三元", "Little Three Dragons", 64),
    ("字一色", "All Honors", 64),
    ("四暗刻", "Four Concealed Pungs", 64),
    ("一色双龙会", "Pure Terminal Chows", 64),
    ("一色四同顺", "Quadruple Chow", 48),
    ("一色四节高", "Four Pure Shifted Pungs", 48),
    ("一色四步高", "Four Pure Shifted Chows", 32),
    ("三杠", "Three Kongs", 32),
    ("混幺九", "All Terminals and Honors", 32),
    ("七对", "Seven Pairs", 24),
    ("七星不靠", "Greater Honors and Knitted Tiles", 24),
    ("全双刻", "All Even Pungs", 24),
    ("清一色", "Full Flush", 24),
    ("一色三同顺", "Pure Triple Chow", 24),
    ("一色三节高", "Pure Shifted Pungs", 24),
    ("全大", "Upper Tiles", 24),
    ("全中", "Middle Tiles", 24),
    ("全小", "Lower Tiles", 24),
    ("清龙", "Pure Straight", 16),
    ("三色双龙会", "Three-Suited Terminal Chows", 16),
    ("一色三步高", "Pure Shifted Chows", 16),
    ("全带五", "All Fives", 16),
    ("三同刻", "Triple Pung", 16),
    ("三暗刻", "Three Concealed Pungs", 16),
    ("全不靠", "Lesser Honors and Knitted Tiles", 12),
    ("组合龙", "Knitted Straight", 12),
    ("大于五", "Upper Four", 12),
    ("小于五", "Lower Four", 12),
    ("三风刻", "Big Three Winds", 12),
    ("花龙", "Mixed Straight", 8),
    ("推不倒", "Reversible Tiles", 8),
    ("三色三同顺", "Mixed Triple Chow", 8),
    ("三色三节高", "Mixed Shifted Pungs", 8),
    ("无番和", "Chicken Hand", 8),
    ("妙手回春", "Last Tile Draw", 8),
    ("海底捞月", "Last Tile Claim", 8),
    ("杠上开花", "Out with Replacement Tile", 8),
    ("抢杠和", "Robbing the Kong", 8),
    ("碰碰和", "All Pungs", 6),
    ("混一色", "Half Flush", 6),
    ("三色三步高", "Mixed Shifted Chows", 6),
    ("五门齐", "All Types", 6),
    ("全求人", "Melded Hand", 6),
    ("双暗杠", "Two Concealed Kongs", 6),
    ("双箭刻", "Two Dragon Pungs", 6),
    ("全带幺", "Outside Hand", 4),
    ("不求人", "Fully Concealed Hand", 4),
    ("双明杠", "Two Melded Kongs", 4),
    ("和绝张", "Last Tile", 4),
    ("箭刻", "Dragon Pung", 2),
    ("圈风刻", "Prevalent Wind", 2),
    ("门风刻", "Seat Wind", 2),
    ("门前清", "Concealed Hand", 2),
    ("平和", "All Chows", 2),
    ("四归一", "Tile Hog", 2),
    ("双同刻", "Double Pung", 2),
    ("双暗刻", "Two Concealed Pungs", 2),
    ("暗杠", "Concealed Kong", 2),
    ("断幺", "All Simples", 2),
    ("一般高", "Pure Double Chow", 1),
    ("喜相逢", "Mixed Double Chow", 1),
    ("连六", "Short Straight", 1),
    ("老少副", "Two Terminal Chows", 1),
    ("幺九刻", "Pung of Terminals or Honors", 1),
    ("明杠", "Melded Kong", 1),
    ("缺一门", "One Voided Suit", 1),
    ("无字", "No Honors", 1),
    ("独听・边张", "Edge Wait", 1),
    ("独听・嵌张", "Closed Wait", 1),
    ("独听・单钓", "Single Wait", 1),
    ("自摸", "Self-Drawn", 1),
    ("花牌", "Flower Tiles", 1),
)

# Fans the library counts that the 2006 rules do not list: one concealed and one melded kong
# together (明暗杠) count 5 in ChineseOfficialMahjongHelper, where the book would give
# Concealed Kong 2 + Melded Kong 1 (docs/mcr.md, "Where the editions differ").
_EXTRA_TABLE: tuple[tuple[str, str, int], ...] = (
    ("明暗杠", "Concealed Kong and Melded Kong", 5),
)

FAN_NAMES: dict[str, int] = {english: points for _, english, points in _FAN_TABLE}
"""Every fan of the 2006 rules (81, Flower Tiles included): canonical English name -> points."""

EXTRA_FANS: dict[str, int] = {english: points for _, english, points in _EXTRA_TABLE}
"""Fans the library counts beyond the 81 of the book (name -> points); see ``docs/mcr.md``."""

_ENGLISH: dict[str, tuple[str, int]] = {
    chinese: (english, points) for chinese, english, points in _FAN_TABLE + _EXTRA_TABLE
}

_ERRORS = {
    "ERROR_NOT_WIN": "not a winning hand: no shape of the rules fits the tiles",
    "ERROR_WRONG_TILES_COUNT": "wrong number of tiles: melds and concealed tiles must make 13",
    "ERROR_TILE_COUNT_GREATER_THAN_4": "more than four copies of a tile",
}

_SUIT_CODES = ("W", "B", "T")  # characters (man), dots (pin), bamboo (sou), as mjlog orders them
_PACK_TYPES = {"chow": "CHI", "pung": "PENG", "kong": "GANG"}
# Our pung/kong offer counts seats after the caller (1 next, 3 previous); the library counts
# 1 previous (上家), 2 opposite, 3 next (下家). Only "0 = concealed" matters to its counting.
_OFFER_TO_LIBRARY = {0: 0, 1: 3, 2: 2, 3: 1}


@dataclass(frozen=True, slots=True)
class FanMeld:
    """One meld of the winner, as fan counting needs it.

    ``first`` is the tile kind of a pung or kong, or the lowest tile of a chow. ``offer``: for a
    pung or kong the seat that gave the tile, counted after the caller (1 next, 2 opposite,
    3 previous; 0 for a concealed kong); for a chow which of its three tiles was claimed (1-3).
    """

    kind: Literal["chow", "pung", "kong"]
    first: int
    concealed: bool
    offer: int


@dataclass(frozen=True, slots=True)
class FanHand:
    """The facts of one win that its fans depend on (winds: 0 E, 1 S, 2 W, 3 N).

    ``concealed`` does not include the winning tile ``win``. ``last_copy`` is 和绝张 (the
    winning tile's three other copies are in sight), ``kong_replacement`` 杠上开花,
    ``robbing_kong`` 抢杠和, ``last_tile`` the wall's last tile (妙手回春 when self-drawn,
    海底捞月 by discard).
    """

    concealed: tuple[int, ...]
    melds: tuple[FanMeld, ...]
    win: int
    self_drawn: bool
    flowers: int = 0
    seat_wind: int = 0
    round_wind: int = 0
    last_copy: bool = False
    kong_replacement: bool = False
    robbing_kong: bool = False
    last_tile: bool = False


@dataclass(frozen=True, slots=True)
class Fan:
    """One fan of a win: its canonical English name, its points, and how many times it counts."""

    name: str
    points: int
    count: int


@dataclass(frozen=True, slots=True)
class FanCount:
    """The fans of a win; ``without_flowers`` is what the 8-fan minimum is judged on."""

    fans: tuple[Fan, ...]
    total: int
    without_flowers: int


class FanLibraryMissing(MissingExtra):
    """PyMahjongGB, which counts the fans, is not installed (or did not build)."""


_Calculator = Callable[..., tuple[tuple[int, int, str, str], ...]]


def _calculator() -> _Calculator:
    """The library's fan calculator; raises :class:`FanLibraryMissing` naming the package."""
    try:
        module = import_module("MahjongGB")
    except ImportError as error:
        raise FanLibraryMissing(
            f"MCR fan counting needs {LIBRARY}, which is not installed or did not build (it "
            f"compiles C++, so g++ must be present): {install_hint('mcr')}; {error}"
        ) from error
    return cast(_Calculator, module.MahjongFanCalculator)


def tile_code(kind: int) -> str:
    """The library's code of a tile kind (0 -> ``W1``, 9 -> ``B1``, 27 -> ``F1``, 31 white ->
    ``J3``, 33 red -> ``J1``).

    Raises ``ValueError`` for a kind outside 0-33 (flowers are counted, not passed as tiles).
    """
    if not 0 <= kind <= 33:
        raise ValueError(f"tile kind {kind} is not one of 0-33")
    if kind < 27:
        return f"{_SUIT_CODES[kind // 9]}{kind % 9 + 1}"
    if kind < 31:
        return f"F{kind - 26}"
    return f"J{34 - kind}"


def _pack(meld: FanMeld) -> tuple[str, str, int]:
    """A meld as the library's pack: (type, tile code, offer); a chow is named by its middle
    tile. A claimed pung or kong whose offer is 0 is passed as claimed from the opposite seat,
    since the library reads offer 0 as concealed and only concealed/claimed changes the fans."""
    if meld.kind == "chow":
        if meld.first >= 27 or meld.first % 9 > 6:
            raise ValueError(f"a chow cannot start at tile kind {meld.first}")
        return ("CHI", tile_code(meld.first + 1), meld.offer if 1 <= meld.offer <= 3 else 1)
    if meld.kind == "kong" and meld.concealed:
        return ("GANG", tile_code(meld.first), 0)
    offer = _OFFER_TO_LIBRARY.get(meld.offer, 0) or 2
    return (_PACK_TYPES[meld.kind], tile_code(meld.first), offer)


def _miscounted(hand: FanHand) -> str | None:
    """Why the tiles cannot be a hand of 14 (kongs counting 3), or None."""
    tiles = len(hand.concealed) + 1 + 3 * len(hand.melds)
    if tiles != 14:
        return f"wrong number of tiles: {tiles} with the winning tile, kongs counted as 3 (not 14)"
    copies = Counter(hand.concealed)
    copies[hand.win] += 1
    for meld in hand.melds:
        if meld.kind == "chow":
            copies.update(range(meld.first, meld.first + 3))
        else:
            copies[meld.first] += 4 if meld.kind == "kong" else 3
    over = sorted(kind for kind, count in copies.items() if count > 4)
    if over:
        return f"more than four copies of {', '.join(tile_code(kind) for kind in over)}"
    return None


def _inconsistent(hand: FanHand) -> str | None:
    """Why the win's flags contradict each other, or None."""
    if hand.kong_replacement and not hand.self_drawn:
        return "a win on a kong's replacement tile (杠上开花) is self-drawn"
    if hand.robbing_kong and hand.self_drawn:
        return "robbing a kong (抢杠和) is a win by another player's tile, not self-drawn"
    if hand.kong_replacement and not any(meld.kind == "kong" for meld in hand.melds):
        return "a win on a kong's replacement tile (杠上开花) needs a kong among the melds"
    if hand.kong_replacement and hand.robbing_kong:
        return "a win cannot both rob a kong and be on a kong's replacement tile"
    if not 0 <= hand.seat_wind <= 3 or not 0 <= hand.round_wind <= 3:
        return "seat and round winds are 0-3 (E S W N)"
    if not 0 <= hand.flowers <= 8:
        return f"{hand.flowers} flowers: there are eight flower tiles"
    return None


def _fans(result: tuple[tuple[int, int, str, str], ...]) -> FanCount:
    """The library's verbose result (points, count, Chinese name, English name) as a FanCount."""
    fans = []
    for points, count, chinese, english in result:
        name, _ = _ENGLISH.get(chinese, (english, points))
        fans.append(Fan(name=name, points=points, count=count))
    total = sum(fan.points * fan.count for fan in fans)
    flowers = sum(fan.points * fan.count for fan in fans if fan.name == "Flower Tiles")
    return FanCount(fans=tuple(fans), total=total, without_flowers=total - flowers)


def count_fan(hand: FanHand) -> FanCount | str:
    """Count the fans of a win, or say why the tiles are not a win (a sentence).

    Applies the exclusion principles of the rules (a fan implied by another is not counted
    again), as the library does. Does not judge the 8-fan minimum. Raises ``ValueError`` for a
    tile kind outside 0-33 or a chow that cannot exist, and :class:`FanLibraryMissing` when
    PyMahjongGB is not installed.
    """
    packs = tuple(_pack(meld) for meld in hand.melds)
    tiles = tuple(tile_code(kind) for kind in hand.concealed)
    win = tile_code(hand.win)
    problem = _inconsistent(hand) or _miscounted(hand)
    if problem is not None:
        return problem
    calculate = _calculator()
    try:
        result = calculate(
            packs, tiles, win, hand.flowers, hand.self_drawn, hand.last_copy,
            hand.kong_replacement or hand.robbing_kong, hand.last_tile,
            hand.seat_wind, hand.round_wind, True,
        )
    except TypeError as error:
        return _ERRORS.get(str(error), f"{LIBRARY} refused the hand: {error}")
    return _fans(result)

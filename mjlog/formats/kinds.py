"""Tables shared by the formats that name tiles by kind only (tenhou.net/6 JSON, mjai).

Those formats say "a 5p", not which of the four 5p. Their readers follow each
hand and give every tile that enters play a physical id of its own with
:func:`mjlog.core.tiles.assign_ids` (red fives take copy 0, other tiles the lowest
free copy), so that the replay engine can follow physical tiles as it does
for Tenhou's XML. Writers only need the kind and whether a five is red.

This module also holds what those formats share about results: the
names of limits, abortive draws and yaku in Japanese, English and Chinese,
as the records in use write them.
"""

from __future__ import annotations

import functools
from typing import Final

from mjlog.core.events import AddedKan, Chi, ClosedKan, Discard, Event, Kita, OpenKan, Pon
from mjlog.core.tiles import (
    KIND_OF,
    RED_FIVE_IDS,
    UNKNOWN,
    Kind,
    Tile,
    TileError,
    assign_ids,
    kind_str,
)
from mjlog.families.riichi.hand.shape import waits
from mjlog.families.riichi.scoring.yaku import YAKU

MALFORMED: Final = (TypeError, ValueError, KeyError, AttributeError, IndexError)
"""What a reader of a platform's JSON meets on a value of the wrong kind or shape (a
number where a list was, a list too short): caught at the place being read and reported
there as ``bad-value``, never a traceback."""

# ---------------------------------------------------------------- hands

Meld = Chi | Pon | OpenKan | AddedKan | ClosedKan | Kita
"""A set on the table (a kita counts as one, as Tenhou lists it among a win's sets)."""


def meld_tiles(m: Meld) -> tuple[Tile, ...]:
    """The tiles of a set on the table."""
    return (m.tile,) if isinstance(m, Kita) else m.tiles



class Hands:
    """The concealed hands of one round while a kind-only record is read.

    ``take(p, kind, red)`` removes and returns a physical tile of that kind
    from player ``p``'s hand (the red one only when ``red``); ``new(kind,
    red)`` gives a tile that has not been in play this round. Raises
    :class:`~mjlog.core.tiles.TileError` when the hand has no such tile or all
    copies are in play; the caller turns that into a diagnostic.
    """

    __slots__ = ("hands", "red_fives", "used")

    def __init__(self, players: int, red_fives: bool) -> None:
        self.hands: list[list[Tile]] = [[] for _ in range(players)]
        self.used: set[int] = set()
        self.red_fives = red_fives

    def new(self, kind: Kind, red: bool) -> Tile:
        """A physical tile of ``kind`` not yet in play this round (see
        :func:`~mjlog.core.tiles.assign_ids`, whose order of copies this follows)."""
        used = self.used
        if kind < 34 and not red:
            base = kind * 4
            for c in COPY_ORDER[base]:
                if c not in used:
                    used.add(c)
                    return c
        return assign_ids(((kind, red and self.red_fives),), used)[0]

    def add(self, p: int, kind: Kind, red: bool) -> Tile:
        """Give player ``p`` a new tile of ``kind`` (dealt or drawn) and return it."""
        t = self.new(kind, red)
        self.hands[p].append(t)
        return t

    def take(self, p: int, kind: Kind, red: bool, prefer: int = -1) -> Tile:
        """Remove a tile of ``kind`` from ``p``'s hand: ``prefer`` if it is one, else the oldest."""
        hand = self.hands[p]
        red = red and self.red_fives
        if prefer >= 0 and same(prefer, kind, red, self.red_fives) and Tile(prefer) in hand:
            hand.remove(Tile(prefer))
            return Tile(prefer)
        rf = self.red_fives
        for i, t in enumerate(hand):  # same(), written out: this runs for every discard
            if KIND_OF[t] == kind and (rf and t in RED_FIVE_IDS) == red:
                return hand.pop(i)
        raise TileError(f"player {p} has no {'red ' if red else ''}{kind_str(kind)} in hand")


COPY_ORDER: Final[dict[int, tuple[Tile, ...]]] = {
    k * 4: tuple(map(Tile, (k * 4 + 1, k * 4 + 2, k * 4 + 3, k * 4) if k * 4 in RED_FIVE_IDS
                 else (k * 4, k * 4 + 1, k * 4 + 2, k * 4 + 3))) for k in range(34)}
"""Copies in the order ordinary tiles of a kind take them (copy 0 of a five last)."""


def winning_hand(hand: list[Tile], tsumo: bool, drawn: int,
                 last: Event | None) -> tuple[tuple[Tile, ...], Tile]:
    """(the winner's hand with the winning tile, sorted; the winning tile) at a win.

    A tsumo wins on the tile just drawn; a ron on the last discard, the tile
    added to a kan (chankan), a tile of a closed kan (thirteen orphans robbing
    it) or a kita. ``hand`` is the concealed hand before the win; it is not
    changed.
    """
    if tsumo:
        tile = Tile(drawn) if drawn >= 0 else (hand[-1] if hand else Tile(0))
        return tuple(sorted(hand)), tile
    if isinstance(last, AddedKan):
        tile = last.added
    elif isinstance(last, ClosedKan):
        tile = last.tiles[-1]
    else:
        tile = last.tile if isinstance(last, Discard | Kita) else Tile(0)
    return tuple(sorted([*hand, tile])), tile


def shape_tenpai(hand: list[Tile], melds: list[Meld]) -> bool:
    """Whether a hand waits on some tile (by shape; hidden tiles are left out)."""
    counts = [0] * 34
    for t in hand:
        if t != UNKNOWN:
            counts[KIND_OF[t]] += 1
    return waits(counts, sum(1 for m in melds if not isinstance(m, Kita))) != 0


def same(tile: int, kind: Kind, red: bool, red_fives: bool) -> bool:
    """Whether physical ``tile`` is of ``kind`` and as red as asked."""
    return KIND_OF[tile] == kind and (red_fives and tile in RED_FIVE_IDS) == red


# ---------------------------------------------------------------- results

LIMIT_ALIASES: Final[dict[str, str]] = {
    "満貫": "mangan", "跳満": "haneman", "倍満": "baiman", "三倍満": "sanbaiman",
    "役満": "yakuman", "数え役満": "yakuman",
    "mangan": "mangan", "haneman": "haneman", "baiman": "baiman", "sanbaiman": "sanbaiman",
    "yakuman": "yakuman", "kazoeyakuman": "yakuman",
    "满贯": "mangan", "跳满": "haneman", "倍满": "baiman", "三倍满": "sanbaiman",
    "役满": "yakuman", "累计役满": "yakuman",
}
"""Limit names as written in results, to mjlog's limit names."""

LIMIT_JAPANESE: Final[dict[str, str]] = {
    "mangan": "満貫", "haneman": "跳満", "baiman": "倍満", "sanbaiman": "三倍満",
    "yakuman": "役満",
}

ABORTIVE_JAPANESE: Final[dict[str, str]] = {
    "nine-terminals": "九種九牌", "four-riichi": "四家立直", "triple-ron": "三家和了",
    "four-kans": "四槓散了", "four-winds": "四風連打",
}

# English and Chinese names of the yaku, as tenhou.net/6 records converted
# from other clients write them (Tenhou's English client, Mahjong Soul).
_YAKU_OTHER: Final[dict[str, tuple[str, ...]]] = {
    "menzen-tsumo": ("Fully Concealed Hand", "Menzen Tsumo", "Tsumo", "门前清自摸和"),
    "riichi": ("Riichi", "Reach"),
    "ippatsu": ("Ippatsu", "一发"),
    "chankan": ("Chankan", "Robbing a Kan", "抢杠"),
    "rinshan-kaihou": ("Rinshan Kaihou", "After a Kan", "岭上开花"),
    "haitei": ("Haitei Raoyue", "Under the Sea", "Haitei"),
    "houtei": ("Houtei Raoyui", "Under the River", "Houtei", "河底捞鱼"),
    "pinfu": ("Pinfu",),
    "tanyao": ("Tanyao", "All Simples", "断幺"),
    "iipeikou": ("Iipeikou", "Pure Double Sequence", "一杯口"),
    "haku": ("White Dragon", "Haku", "役牌 白", "役牌白", "白"),
    "hatsu": ("Green Dragon", "Hatsu", "役牌 發", "役牌 发", "發", "发"),
    "chun": ("Red Dragon", "Chun", "役牌 中", "中"),
    "double-riichi": ("Double Riichi", "Daburu Riichi", "两立直", "双立直"),
    "chiitoitsu": ("Chiitoitsu", "Seven Pairs", "七对子"),
    "chanta": ("Chanta", "Half Outside Hand", "混全带幺九"),
    "ittsu": ("Ittsu", "Pure Straight", "Ikkitsuukan", "一气通贯"),
    "sanshoku": ("Sanshoku Doujun", "Mixed Triple Sequence", "Sanshoku", "三色同顺"),
    "sanshoku-doukou": ("Sanshoku Doukou", "Triple Triplets",),
    "sankantsu": ("Sankantsu", "Three Quads", "三杠子"),
    "toitoi": ("Toitoi", "All Triplets", "对对和"),
    "sanankou": ("Sanankou", "Three Concealed Triplets",),
    "shousangen": ("Shousangen", "Little Three Dragons",),
    "honroutou": ("Honroutou", "All Terminals and Honors", "混老头"),
    "ryanpeikou": ("Ryanpeikou", "Twice Pure Double Sequence", "二杯口"),
    "junchan": ("Junchan", "Fully Outside Hand", "纯全带幺九"),
    "honitsu": ("Honitsu", "Half Flush",),
    "chinitsu": ("Chinitsu", "Full Flush",),
    "renhou": ("Renhou", "Blessing of Man",),
    "tenhou": ("Tenhou", "Blessing of Heaven",),
    "chiihou": ("Chiihou", "Blessing of Earth",),
    "daisangen": ("Daisangen", "Big Three Dragons",),
    "suuankou": ("Suuankou", "Four Concealed Triplets",),
    "suuankou-tanki": ("Suuankou Tanki", "四暗刻单骑"),
    "tsuuiisou": ("Tsuuiisou", "All Honors",),
    "ryuuiisou": ("Ryuuiisou", "All Green", "绿一色"),
    "chinroutou": ("Chinroutou", "All Terminals", "清老头"),
    "chuuren-poutou": ("Chuuren Poutou", "Nine Gates", "九莲宝灯"),
    "junsei-chuuren-poutou": ("Junsei Chuuren Poutou", "True Nine Gates", "纯正九莲宝灯"),
    "kokushi": ("Kokushi Musou", "Thirteen Orphans",),
    "kokushi-13": ("Kokushi Musou Juusanmen", "国士無双１３面", "国士无双十三面"),
    "daisuushii": ("Daisuushii", "Big Four Winds", "大四喜"),
    "shousuushii": ("Shousuushii", "Little Four Winds",),
    "suukantsu": ("Suukantsu", "Four Quads", "四杠子"),
    "dora": ("Dora", "宝牌"),
    "ura-dora": ("Ura Dora", "Uradora", "里宝牌"),
    "aka-dora": ("Aka Dora", "Red Five", "Akadora", "红宝牌"),
    "kita-dora": ("抜きドラ", "Kita", "Nukidora", "North Dora", "拔北宝牌", "北宝牌",
                  "拔北"),
}

_WINDS = ("東", "南", "西", "北")
_WINDS_EN = ("East", "South", "West", "North")


def _norm(name: str) -> str:
    return "".join(ch for ch in name.lower() if ch not in " _-:・　")


def _aliases() -> dict[str, str]:
    out: dict[str, str] = {}
    for y in YAKU:
        out[_norm(y.name)] = y.name
        out[_norm(y.japanese)] = y.name
        out[_norm(y.library)] = y.name
    out[_norm("kita-dora")] = "kita-dora"
    for name, others in _YAKU_OTHER.items():
        for o in others:
            out.setdefault(_norm(o), name)
    for ja, en in zip(_WINDS, _WINDS_EN, strict=True):
        for seat, what in (("seat", ("自風", "Seat Wind", "自风")),
                           ("round", ("場風", "Prevalent Wind", "Round Wind", "场风"))):
            for w in what:
                out.setdefault(_norm(f"{w} {ja}"), f"{seat}-wind-{en.lower()}")
                out.setdefault(_norm(f"{w} {en}"), f"{seat}-wind-{en.lower()}")
    return out


YAKU_ALIASES: Final[dict[str, str]] = _aliases()
"""Normalised yaku names (lower case, no spaces) in any known language to mjlog's names."""

ROUND_WIND_YAKU: Final = ("役牌:場風牌", "場風牌", "役牌 場風牌", "Round Wind", "Prevalent Wind",
                          "场风牌")
"""Names that say "round wind" without saying which: the round's wind decides."""
SEAT_WIND_YAKU: Final = ("役牌:自風牌", "自風牌", "役牌 自風牌", "Seat Wind", "自风牌")
"""Names that say "seat wind" without saying which: the winner's seat decides."""


_ROUND_WIND_NORM: Final = frozenset(_norm(x) for x in ROUND_WIND_YAKU)
_SEAT_WIND_NORM: Final = frozenset(_norm(x) for x in SEAT_WIND_YAKU)


@functools.lru_cache(maxsize=1024)
def yaku_from_text(text: str, round_wind: int = 0, seat_wind: int = 0) -> str | None:
    """mjlog's name of a yaku written in Japanese, English or Chinese, ``None`` if unknown.
    Kept for the texts met last (a reader asks for the same few dozen, win after win)."""
    n = _norm(text)
    if n in YAKU_ALIASES:
        return YAKU_ALIASES[n]
    if n in _ROUND_WIND_NORM:
        return f"round-wind-{_WINDS_EN[round_wind % 4].lower()}"
    if n in _SEAT_WIND_NORM:
        return f"seat-wind-{_WINDS_EN[seat_wind % 4].lower()}"
    return None


def limit_of(han: int, fu: int, yakuman: bool) -> str:
    """The limit a hand of ``han`` and ``fu`` reaches, for records that state han and fu
    but not the limit (a 4-han 30-fu hand is not rounded up to a mangan)."""
    if yakuman or han >= 13:
        return "yakuman"
    for least, name in ((11, "sanbaiman"), (8, "baiman"), (6, "haneman"), (5, "mangan")):
        if han >= least:
            return name
    return "mangan" if (han == 4 and fu >= 40) or (han == 3 and fu >= 70) else ""


_LIMITS_LONGEST_FIRST: Final = tuple((_norm(alias), LIMIT_ALIASES[alias]) for alias in sorted(
    LIMIT_ALIASES, key=len, reverse=True))
"""Each limit's name as written, normalised, with mjlog's name: the longest first."""


@functools.lru_cache(maxsize=1024)
def limit_from_text(text: str) -> str:
    """mjlog's limit name found in a result string, ``""`` when it names none. Kept for the
    texts met last (a reader asks for a few hundred, win after win)."""
    n = _norm(text)
    return next((name for alias, name in _LIMITS_LONGEST_FIRST if alias in n), "")


TENHOU_JAPANESE: Final[dict[str, str]] = {
    y.name: y.japanese for y in YAKU
}
"""Tenhou's written names of the yaku (as its JSON logs write them), by mjlog name."""
for _i, _w in enumerate(_WINDS):
    TENHOU_JAPANESE[f"seat-wind-{_WINDS_EN[_i].lower()}"] = f"自風 {_w}"
    TENHOU_JAPANESE[f"round-wind-{_WINDS_EN[_i].lower()}"] = f"場風 {_w}"
for _name, _ja in (("haku", "役牌 白"), ("hatsu", "役牌 發"), ("chun", "役牌 中"),
                   ("kita-dora", "抜きドラ")):
    TENHOU_JAPANESE[_name] = _ja

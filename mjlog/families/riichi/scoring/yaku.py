"""The yaku table: Tenhou's yaku ids, mjlog's names, Japanese, and the scoring library's names.

One row per yaku. ``name`` is mjlog's own romaji name (the one events and
reports use); ``japanese`` the usual written name; ``library`` the class name
of the yaku in the ``mahjong`` scoring library, which :mod:`mjlog.families.riichi.scoring.riichi`
maps back to a row. Dora, ura dora and red fives are rows too, as Tenhou
reports them among the yaku.

This module is data only: it imports nothing outside the standard library
and judges nothing.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final


@dataclass(frozen=True, slots=True, kw_only=True)
class YakuInfo:
    """One yaku: its Tenhou id, mjlog name, Japanese name and scoring-library class."""

    tenhou_id: int
    name: str
    japanese: str
    library: str
    yakuman: bool = False
    han: int = 1
    """Han with a closed hand (13 for a yakuman; for dora rows, one dora)."""
    han_open: int = 1
    """Han with an open hand (0: closed hands only)."""


def _row(tenhou_id: int, name: str, japanese: str, library: str, yakuman: bool = False,
         han: int = 1, han_open: int | None = None) -> YakuInfo:
    if yakuman:
        han = 13
    return YakuInfo(tenhou_id=tenhou_id, name=name, japanese=japanese, library=library,
                    yakuman=yakuman, han=han, han_open=han if han_open is None else han_open)


YAKU: Final = (
    _row(0, "menzen-tsumo", "門前清自摸和", "Tsumo", han_open=0),
    _row(1, "riichi", "立直", "Riichi", han_open=0),
    _row(2, "ippatsu", "一発", "Ippatsu", han_open=0),
    _row(3, "chankan", "槍槓", "Chankan"),
    _row(4, "rinshan-kaihou", "嶺上開花", "Rinshan"),
    _row(5, "haitei", "海底摸月", "Haitei"),
    _row(6, "houtei", "河底撈魚", "Houtei"),
    _row(7, "pinfu", "平和", "Pinfu", han_open=0),
    _row(8, "tanyao", "断幺九", "Tanyao"),
    _row(9, "iipeikou", "一盃口", "Iipeiko", han_open=0),
    _row(10, "seat-wind-east", "自風東", "SeatWindEast"),
    _row(11, "seat-wind-south", "自風南", "SeatWindSouth"),
    _row(12, "seat-wind-west", "自風西", "SeatWindWest"),
    _row(13, "seat-wind-north", "自風北", "SeatWindNorth"),
    _row(14, "round-wind-east", "場風東", "RoundWindEast"),
    _row(15, "round-wind-south", "場風南", "RoundWindSouth"),
    _row(16, "round-wind-west", "場風西", "RoundWindWest"),
    _row(17, "round-wind-north", "場風北", "RoundWindNorth"),
    _row(18, "haku", "役牌白", "Haku"),
    _row(19, "hatsu", "役牌發", "Hatsu"),
    _row(20, "chun", "役牌中", "Chun"),
    _row(21, "double-riichi", "両立直", "DaburuRiichi", han=2, han_open=0),
    _row(22, "chiitoitsu", "七対子", "Chiitoitsu", han=2, han_open=0),
    _row(23, "chanta", "混全帯幺九", "Chantai", han=2, han_open=1),
    _row(24, "ittsu", "一気通貫", "Ittsu", han=2, han_open=1),
    _row(25, "sanshoku", "三色同順", "Sanshoku", han=2, han_open=1),
    _row(26, "sanshoku-doukou", "三色同刻", "SanshokuDoukou", han=2),
    _row(27, "sankantsu", "三槓子", "SanKantsu", han=2),
    _row(28, "toitoi", "対々和", "Toitoi", han=2),
    _row(29, "sanankou", "三暗刻", "Sanankou", han=2),
    _row(30, "shousangen", "小三元", "Shosangen", han=2),
    _row(31, "honroutou", "混老頭", "Honroto", han=2),
    _row(32, "ryanpeikou", "二盃口", "Ryanpeikou", han=3, han_open=0),
    _row(33, "junchan", "純全帯幺九", "Junchan", han=3, han_open=2),
    _row(34, "honitsu", "混一色", "Honitsu", han=3, han_open=2),
    _row(35, "chinitsu", "清一色", "Chinitsu", han=6, han_open=5),
    _row(36, "renhou", "人和", "Renhou", han=5, han_open=0),
    _row(37, "tenhou", "天和", "Tenhou", True),
    _row(38, "chiihou", "地和", "Chiihou", True),
    _row(39, "daisangen", "大三元", "Daisangen", True),
    _row(40, "suuankou", "四暗刻", "Suuankou", True),
    _row(41, "suuankou-tanki", "四暗刻単騎", "SuuankouTanki", True),
    _row(42, "tsuuiisou", "字一色", "Tsuuiisou", True),
    _row(43, "ryuuiisou", "緑一色", "Ryuuiisou", True),
    _row(44, "chinroutou", "清老頭", "Chinroutou", True),
    _row(45, "chuuren-poutou", "九蓮宝燈", "ChuurenPoutou", True),
    _row(46, "junsei-chuuren-poutou", "純正九蓮宝燈", "DaburuChuurenPoutou", True),
    _row(47, "kokushi", "国士無双", "KokushiMusou", True),
    _row(48, "kokushi-13", "国士無双十三面", "DaburuKokushiMusou", True),
    _row(49, "daisuushii", "大四喜", "DaiSuushii", True),
    _row(50, "shousuushii", "小四喜", "Shousuushii", True),
    _row(51, "suukantsu", "四槓子", "Suukantsu", True),
    _row(52, "dora", "ドラ", "Dora"),
    _row(53, "ura-dora", "裏ドラ", "UraDora"),
    _row(54, "aka-dora", "赤ドラ", "AkaDora"),
)
"""Every yaku, indexed by Tenhou id (``YAKU[i].tenhou_id == i``)."""

BY_NAME: Final = {y.name: y for y in YAKU}
"""Rows by mjlog name."""
BY_LIBRARY: Final = {y.library: y for y in YAKU}
"""Rows by the scoring library's class name."""

YAKU_NAMES: Final = tuple(y.name for y in YAKU)
"""mjlog's yaku names by Tenhou id."""

PAO_YAKU: Final = frozenset({"daisangen", "daisuushii"})
"""Yakuman for which a player who fed the last set is liable (pao)."""


def default_han(name: str, open_hand: bool) -> int:
    """The han a yaku is usually worth (what a claim written without ``:han`` means)."""
    info = BY_NAME.get(name)
    if info is None:
        return 1
    return info.han_open if open_hand and info.han_open else info.han


def yaku_name(tenhou_id: int) -> str:
    """mjlog's name of a Tenhou yaku id; unknown ids read as ``tenhou-<id>``."""
    return YAKU[tenhou_id].name if 0 <= tenhou_id < len(YAKU) else f"tenhou-{tenhou_id}"

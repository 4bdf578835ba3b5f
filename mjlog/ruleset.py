"""The ruleset: one frozen, keyword-only value describing the table's rules.

A record suggests the ruleset it was played under (``GameStart.ruleset``); the
auditor can also apply another one. Options are added here as checks come to
need them; each is documented in :data:`OPTION_DOCS`.

This module only describes rules; it applies none of them.
"""

from __future__ import annotations

import typing
from dataclasses import dataclass, fields, replace
from typing import Final, Literal

Family = Literal["riichi", "taiwan16"]
Length = Literal["one-round", "east", "south", "full"]
Dealing = Literal["one-roll", "two-rolls", "pakkoro", "automatic", "digital"]
Kazoe = Literal["yakuman", "sanbaiman", "none"]
KanAfterRiichi = Literal["wait", "shape", "forbidden"]
FourKans = Literal["abort", "fifth-ends", "no-abort"]
KanDora = Literal["after-discard", "immediate", "none"]
Kuikae = Literal["allowed", "same", "both"]
SeatWind = Literal["dice", "dealer"]
MenzenTsumo = Literal["counts", "not-alone", "ignored"]


@dataclass(frozen=True, slots=True, kw_only=True)
class Ruleset:
    """The rules of a table. Construct from a preset with :func:`preset`."""

    name: str = "tenhou"
    family: Family = "riichi"
    players: int = 4
    red_fives: bool = True
    open_tanyao: bool = True
    length: Length = "south"
    starting_score: int = 25000
    dealing: Dealing = "digital"
    kiriage: bool = False
    kazoe: Kazoe = "yakuman"
    double_yakuman: bool = False
    ippatsu: bool = True
    ura_dora: bool = True
    # -- kan (rules.md section 1)
    kan_after_riichi: KanAfterRiichi = "wait"
    four_kans: FourKans = "abort"
    kan_dora: KanDora = "after-discard"
    chankan_closed_kokushi: bool = True
    open_kan_pao: bool = False
    # -- general legality (section 7)
    kuikae: Kuikae = "both"
    riichi_min_score: int = 1000
    riichi_min_wall: int = 0
    furiten_tsumo: bool = False
    double_ron: bool = True
    nine_terminals: bool = True
    four_winds: bool = True
    four_riichi: bool = True
    triple_ron: bool = True
    # -- kanzen sakizuke (section 2)
    sakizuke: bool = False
    sakizuke_flush: bool = True
    sakizuke_concealed: bool = True
    sakizuke_all_calls: bool = False
    sakizuke_value_first: bool = False
    sakizuke_incidental: bool = False
    sakizuke_tanyao: bool = True
    sakizuke_menzen_tsumo: MenzenTsumo = "counts"
    sakizuke_ron_only: bool = False
    oute_bisha: bool = True
    oute_bisha_yakuhai: bool = True
    # -- Taiwanese 16-tile (sections 3 and 4)
    tw_base: int = 50
    tw_tai: int = 20
    tw_seat_wind: SeatWind = "dice"
    tw_liguligu: bool = True
    tw_sixteen: bool = True
    tw_seven_rob_one: bool = True
    tw_last_discard: bool = False
    tw_qingyise: int = 8
    tw_four_concealed: int = 5
    tw_five_concealed: int = 8
    tw_all_honours: int = 8
    tw_sixteen_tai: int = 10
    tw_heavenly: int = 24
    tw_heavenly_ready: int = 16
    tw_earth_ready: int = 8
    tw_earth_ready_first: int = 12

    def with_options(self, **options: object) -> Ruleset:
        """A copy with some options changed (unknown names raise ``TypeError``)."""
        return replace(self, **options)  # type: ignore[arg-type]


OPTION_DOCS: dict[str, str] = {
    "name": "Name of the preset this ruleset derives from.",
    "family": "Rule family: 'riichi' (Japanese) or 'taiwan16' (Taiwanese 16-tile).",
    "players": "Number of players: 4, or 3 for three-player riichi (sanma).",
    "red_fives": "Whether one five of each suit is a red five (aka dora).",
    "open_tanyao": "Whether all-simples counts with an open hand (kuitan).",
    "length": "Game length: 'one-round' (a single round), 'east' (tonpuusen), "
    "'south' (hanchan), 'full' (east to north).",
    "starting_score": "Each player's score at the start of the game.",
    "dealing": "How the wall is broken and dealt (see mjlog.wall.dealing): 'one-roll', "
    "'two-rolls' (二度振り), 'pakkoro' (12-sided dice), 'automatic' (the table deals the "
    "hands), or 'digital' (an online platform's own method).",
    "kiriage": "Whether 4 han 30 fu and 3 han 60 fu are rounded up to mangan (切り上げ満貫).",
    "kazoe": "What 13 han or more from ordinary yaku is worth (数え役満): 'yakuman', "
    "'sanbaiman', or 'none' (counted on: 26 han a double yakuman).",
    "double_yakuman": "Whether suuankou tanki, kokushi 13-wait, junsei chuuren and "
    "daisuushii count as double yakuman.",
    "ippatsu": "Whether a win within one go-around of riichi scores ippatsu (一発).",
    "ura_dora": "Whether a riichi winner's ura dora count (裏ドラ).",
    "kan_after_riichi": "K4, which closed kan a riichi player may make (always with the tile "
    "just drawn, never okuri-kan): 'wait' (the winning tiles stay the same; Tenhou, Mahjong "
    "Soul), 'shape' (also: the three tiles are a triplet in every reading of the hand), "
    "'forbidden' (none).",
    "four_kans": "K2, the four-kan limit: 'abort' (四開槓: a fourth kan by more than one "
    "player ends the round after the next discard; four by one player play on, and nobody "
    "may make a fifth; Tenhou), 'fifth-ends' (as 'abort', but a fifth kan is allowed and "
    "ends the round at once), 'no-abort' (no abortive draw; no fifth kan).",
    "kan_dora": "K5, when a kan's dora indicator is turned: 'after-discard' (a closed kan at "
    "once, an open or added kan after the discard that follows; Tenhou), 'immediate' (every "
    "kan at once, 即ノリ), 'none' (no kan dora, as in JPML's official rules).",
    "chankan_closed_kokushi": "K6, whether thirteen orphans may rob a closed kan.",
    "open_kan_pao": "K8 (大明槓の包): whether a win on the replacement tile right after an open "
    "kan is paid entirely by the player whose discard was kanned.",
    "kuikae": "Swap-calling (喰い替え) after a chi or pon: 'allowed', 'same' (the called "
    "tile may not be discarded at once), 'both' (nor the other end of the run; Tenhou).",
    "riichi_min_score": "Points a player needs to declare riichi (0: none).",
    "riichi_min_wall": "Tiles the live wall must still hold when riichi is declared; 0: as "
    "many as there are players, so that the declarer draws again (Tenhou).",
    "furiten_tsumo": "Whether furiten also forbids a tsumo win, and a passed win forbids one "
    "until the player's next discard (a kansaki extension).",
    "double_ron": "Whether two players may ron the same tile (else the first in turn order "
    "takes it, 頭ハネ).",
    "nine_terminals": "Whether nine different terminals and honours on the first draw may "
    "abort the round (九種九牌).",
    "four_winds": "Whether the same wind discarded by all four players on the first go-around "
    "aborts the round (四風連打).",
    "four_riichi": "Whether a fourth riichi aborts the round (四家立直).",
    "triple_ron": "Whether three players ronning the same tile aborts the round (三家和).",
    "sakizuke": "Kanzen sakizuke (完全先付け): S1, an open hand's first call must carry a "
    "yaku, and S2, no one-sided win (片和了り). A win that breaks either is chombo.",
    "sakizuke_flush": "S1: whether flush and terminal yaku (混一色, 清一色, 混全帯, 純全帯, "
    "混老頭) use a first call whose tiles fit them.",
    "sakizuke_concealed": "S1: whether a yaku complete inside the concealed part settles the "
    "hand (examples 1-3 and 1-5).",
    "sakizuke_all_calls": "S1: whether every call, not only the first, must carry a yaku.",
    "sakizuke_value_first": "S1: whether a hand whose only yaku are value tiles needs a value "
    "tile as its first call.",
    "sakizuke_incidental": "Whether a win whose only yaku are incidental (海底, 河底, 嶺上, "
    "搶槓, 一発) is allowed.",
    "sakizuke_tanyao": "Whether open all-simples (when allowed at all) settles a hand for "
    "sakizuke; false: it adds its han but does not count as the yaku.",
    "sakizuke_menzen_tsumo": "門前清自摸和 under sakizuke: 'counts' (a closed tsumo is never "
    "one-sided), 'not-alone' (it is not enough alone), 'ignored' (S2 is judged without it).",
    "sakizuke_ron_only": "Whether sakizuke applies to ron only (some Kyoto rules).",
    "oute_bisha": "S2 variant 王手飛車: whether a hand where every wait has a yaku but no "
    "yaku is common to all waits is allowed.",
    "oute_bisha_yakuhai": "S2 variant: whether two different value tiles in a shanpon count "
    "as one common yaku (役牌).",
    "tw_base": "Taiwanese: 底, the points every win is paid on top of its 台.",
    "tw_tai": "Taiwanese: the points one 台 is worth.",
    "tw_seat_wind": "Taiwanese: whose wind is east, for 風牌 and 花牌: 'dice' (the player the "
    "dice open the wall at, 開門; the source) or 'dealer'.",
    "tw_liguligu": "Taiwanese: whether seven pairs and a triplet (嚦咕嚦咕, 8 台) wins.",
    "tw_sixteen": "Taiwanese: whether 十六不搭 (sixteen unrelated tiles and a pair) wins.",
    "tw_seven_rob_one": "Taiwanese: whether a player with seven flowers may rob the eighth "
    "(七搶一; one association dropped it in 2012).",
    "tw_last_discard": "Taiwanese: whether a ron on the last discard scores 河底撈魚 (1 台).",
    "tw_qingyise": "Taiwanese: 台 of 清一色, 8 (or 12).",
    "tw_four_concealed": "Taiwanese: 台 of 四暗刻, 5 (or 6).",
    "tw_five_concealed": "Taiwanese: 台 of 五暗刻, 8 (or 16).",
    "tw_all_honours": "Taiwanese: 台 of 字一色, 8 (or 16: then its 小三元 is not added and "
    "4 is taken off a 大三元, 小四喜 or 大四喜 it holds).",
    "tw_sixteen_tai": "Taiwanese: 台 of 十六不搭, 10 (or 6).",
    "tw_heavenly": "Taiwanese: 台 of 天胡, 地胡 and 人胡, 24 (or 16).",
    "tw_heavenly_ready": "Taiwanese: 台 of 天聽 (tenpai declared before the first draw), 16 "
    "(or 8).",
    "tw_earth_ready": "Taiwanese: 台 of 地聽 (tenpai declared with the first discard), 8 (or 4).",
    "tw_earth_ready_first": "Taiwanese: 台 of 地聽一發 (a win within a go-around of it), 12 "
    "(or 8).",
}

PRESETS: dict[str, Ruleset] = {
    "tenhou": Ruleset(name="tenhou"),
    "tenhou-sanma": Ruleset(name="tenhou-sanma", players=3, starting_score=35000),
    "majsoul": Ruleset(name="majsoul", double_yakuman=True),
    "majsoul-sanma": Ruleset(name="majsoul-sanma", players=3, starting_score=35000,
                             double_yakuman=True),
    "jpml": Ruleset(name="jpml", red_fives=False, starting_score=30000, ippatsu=False,
                    ura_dora=False, kan_dora="none"),
    "kansaki": Ruleset(name="kansaki", red_fives=False, open_tanyao=False, dealing="two-rolls",
                       kan_after_riichi="shape", sakizuke=True, furiten_tsumo=True,
                       oute_bisha=False, oute_bisha_yakuhai=True),
    "taiwan16": Ruleset(name="taiwan16", family="taiwan16", red_fives=False, length="full",
                        starting_score=0, dealing="one-roll", ippatsu=False, ura_dora=False,
                        kan_dora="none", four_kans="no-abort", kuikae="allowed",
                        riichi_min_score=0, double_ron=False, nine_terminals=False,
                        four_winds=False, four_riichi=False, triple_ron=False),
}
"""Named presets. ``majsoul``: Mahjong Soul's ranked rules as far as scoring goes
(double yakuman count double); ``jpml``: the Japan Professional Mahjong League's
official rules (日本プロ麻雀連盟公式ルール: no red fives, no ippatsu, no ura or kan dora,
30000 to start); ``kansaki``: a club "nashi-nashi" set (完全先付け, no open tanyao, a kan
after riichi only when the triplet is one in every reading, furiten forbidding tsumo too,
王手飛車 not allowed, no red fives, dealt with two rolls); ``taiwan16``: Taiwanese 16-tile
mahjong as the source of ``docs/rules.md`` section 4 describes it (144 tiles with flowers,
one 一荘 east to north, 底 50 and 台 20, scores counted from 0), its two-valued 台 at the
common value."""


@dataclass(frozen=True, slots=True)
class TableSize:
    """What a family's table holds: tiles in play, dead wall, tiles dealt to a hand."""

    tiles: int
    dead_wall: int
    hand: int


_TAIWAN16_TABLE: Final = TableSize(tiles=144, dead_wall=16, hand=16)
_RIICHI_TABLES: Final = {3: TableSize(tiles=108, dead_wall=14, hand=13),
                         4: TableSize(tiles=136, dead_wall=14, hand=13)}


def table_of(rs: Ruleset) -> TableSize:
    """The table of a ruleset's family and number of players."""
    if rs.family == "taiwan16":
        return _TAIWAN16_TABLE
    return _RIICHI_TABLES[3 if rs.players == 3 else 4]


def preset(name: str) -> Ruleset:
    """The named preset; raises ``KeyError`` with the known names otherwise."""
    try:
        return PRESETS[name]
    except KeyError:
        raise KeyError(f"unknown ruleset {name!r}; known: {', '.join(sorted(PRESETS))}") from None


def overrides(rs: Ruleset, base: Ruleset | None = None) -> list[str]:
    """``option=value`` for each option where ``rs`` differs from ``base``.

    ``base`` defaults to the preset ``rs`` is named after (the defaults when
    there is none); values are written as :func:`parse_option` reads them.
    """
    base = base or PRESETS.get(rs.name) or Ruleset(name=rs.name)
    return [f"{f.name}={option_text(getattr(rs, f.name))}" for f in fields(Ruleset)
            if f.name != "name" and getattr(rs, f.name) != getattr(base, f.name)]


def describe(rs: Ruleset) -> str:
    """The ruleset's name, with the options that differ from its preset in brackets."""
    base = PRESETS.get(rs.name)
    if base is None:
        return rs.name
    diffs = overrides(rs, base)
    return f"{rs.name} ({', '.join(diffs)})" if diffs else rs.name


def option_text(value: object) -> str:
    """An option's value as written on the command line and in notation (``true``)."""
    return str(value).lower() if isinstance(value, bool) else str(value)


def option_choices(name: str) -> tuple[str, ...]:
    """The values a text option takes (empty for booleans, numbers and free text)."""
    tp = _TYPES[name]
    return tuple(typing.get_args(tp)) if typing.get_origin(tp) is Literal else ()


def parse_option(name: str, text: str) -> object:
    """The value of option ``name`` written as ``text`` (``true``, ``4``, ``shape`` …).

    Raises ``ValueError`` with a message naming what is expected.
    """
    if name not in OPTION_DOCS or name == "name":
        raise ValueError(f"unknown rule option {name!r} (known: "
                         f"{', '.join(k for k in OPTION_DOCS if k != 'name')})")
    tp = _TYPES[name]
    if tp is bool:
        if text not in ("true", "false"):
            raise ValueError(f"{name} is true or false, not {text!r}")
        return text == "true"
    if tp is int:
        if not text.isdigit():
            raise ValueError(f"{name} is a number, not {text!r}")
        return int(text)
    choices = option_choices(name)
    if choices and text not in choices:
        raise ValueError(f"{name} is one of {', '.join(choices)}, not {text!r}")
    return text


_TYPES: dict[str, object] = typing.get_type_hints(Ruleset)
assert {f.name for f in fields(Ruleset)} == OPTION_DOCS.keys(), "every option is documented"

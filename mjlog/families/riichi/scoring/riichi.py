"""Valuing a riichi win: yaku, fu, han, limit and base payments, through the ``mahjong`` library.

The ``mahjong`` library (MIT) does the hand valuation: decompositions, yaku,
fu and the score table. This module configures it from the
:class:`~mjlog.core.ruleset.Ruleset` (table rules) and a
:class:`~mjlog.families.riichi.scoring.situation.WinSituation` (the facts of one win), and
maps its answer to mjlog's yaku names (:mod:`mjlog.families.riichi.scoring.yaku`).

Gap wrapped here: with kiriage on, the library (2.1) names no limit for a
real mangan below 5 han (4 han 40 fu); mjlog names it ``mangan``, as Tenhou
does.

Names: a kiriage mangan (30 fu 4 han or 60 fu 3 han paid as a mangan) has
no limit name, as in Tenhou's records; a counted (kazoe) yakuman is
``yakuman``.

This module values one hand; payments between players are
:mod:`mjlog.families.riichi.scoring.payments`.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from mahjong.constants import EAST
from mahjong.hand_calculating.hand import HandCalculator
from mahjong.hand_calculating.hand_config import HandConfig, HandConstants, OptionalRules
from mahjong.meld import Meld

from mjlog.core.events import AddedKan, Chi, OpenKan, Pon, YakuClaim
from mjlog.core.events import Meld as MeldEvent
from mjlog.core.ruleset import Ruleset
from mjlog.core.tiles import NUM_TILES
from mjlog.families.riichi.scoring.fast import fast_value
from mjlog.families.riichi.scoring.situation import WinSituation
from mjlog.families.riichi.scoring.yaku import BY_LIBRARY

LIMITS = ("", "mangan", "haneman", "baiman", "sanbaiman", "yakuman")
"""Limit names, lowest first."""

_LEVELS = {
    "": "", "mangan": "mangan", "haneman": "haneman", "baiman": "baiman",
    "sanbaiman": "sanbaiman", "yakuman": "yakuman", "kazoe yakuman": "yakuman",
    "kazoe sanbaiman": "sanbaiman", "kiriage mangan": "", "2x yakuman": "yakuman",
    "3x yakuman": "yakuman", "4x yakuman": "yakuman", "5x yakuman": "yakuman",
    "6x yakuman": "yakuman",
}

_KAZOE = {
    "yakuman": HandConstants.KAZOE_LIMITED,
    "sanbaiman": HandConstants.KAZOE_SANBAIMAN,
    "none": HandConstants.KAZOE_NO_LIMIT,
}


@dataclass(frozen=True, slots=True, kw_only=True)
class Valuation:
    """A hand's value as mjlog computes it.

    ``yaku`` in the library's order, dora last; ``main`` is a ron's payment, or
    on a tsumo what the dealer pays (each player pays, when the dealer won);
    ``additional`` what each non-dealer pays on a non-dealer's tsumo;
    ``points`` what the winner receives from all payers (in three-player
    games nobody pays the absent seat's share). None of them includes honba
    or riichi sticks. ``error`` is the library's stable code
    (``hand_not_winning``, ``no_yaku`` …) when the hand has no value.
    """

    yaku: tuple[YakuClaim, ...] = ()
    fu: int = 0
    han: int = 0
    limit: str = ""
    main: int = 0
    additional: int = 0
    points: int = 0
    error: str = ""
    by: str = "library"
    """Who valued the hand: ``library`` (the reference) or ``mjlog`` (the fast path)."""


@cache
def _options(ruleset: Ruleset) -> OptionalRules:
    return OptionalRules(
        has_open_tanyao=ruleset.riichi.open_tanyao, has_aka_dora=ruleset.red_fives,
        has_double_yakuman=ruleset.riichi.double_yakuman, kazoe_limit=_KAZOE[ruleset.riichi.kazoe],
        kiriage=ruleset.riichi.kiriage, fu_for_open_pinfu=True, fu_for_pinfu_tsumo=False,
        is_three_player=ruleset.players == 3,
    )


def _meld(ev: MeldEvent) -> Meld:
    if isinstance(ev, Chi):
        return Meld(Meld.CHI, ev.tiles, True, ev.called, ev.player, ev.from_player)
    if isinstance(ev, Pon):
        return Meld(Meld.PON, ev.tiles, True, ev.called, ev.player, ev.from_player)
    if isinstance(ev, OpenKan):
        return Meld(Meld.KAN, ev.tiles, True, ev.called, ev.player, ev.from_player)
    if isinstance(ev, AddedKan):
        return Meld(Meld.SHOUMINKAN, ev.tiles, True, ev.called, ev.player, ev.from_player)
    return Meld(Meld.KAN, ev.tiles, False, None, ev.player, ev.player)


@cache
def _config(ruleset: Ruleset) -> HandConfig:
    return HandConfig(options=_options(ruleset))


CONFIG_FIELDS = frozenset({
    "yaku", "options", "is_tsumo", "is_riichi", "is_ippatsu", "is_rinshan", "is_chankan",
    "is_haitei", "is_houtei", "is_daburu_riichi", "is_nagashi_mangan", "is_tenhou",
    "is_renhou", "is_chiihou", "is_open_riichi", "player_wind", "round_wind", "is_dealer",
    "paarenchan", "kyoutaku_number", "tsumi_number", "num_nuki_dora",
})
"""Every attribute of the library's ``HandConfig``; :func:`config` sets them all."""


def config(sit: WinSituation, ruleset: Ruleset) -> HandConfig:
    """The library's configuration of one win.

    One configuration object per ruleset is reused and every attribute set
    afresh (building one costs a tenth of a valuation, most of it the yaku
    objects). The library writes dora counts into those yaku objects, so read
    a result before valuing the next hand.
    """
    cfg = _config(ruleset)
    cfg.is_tsumo = sit.tsumo
    cfg.is_riichi = sit.riichi
    cfg.is_ippatsu = sit.ippatsu
    cfg.is_rinshan = sit.rinshan
    cfg.is_chankan = sit.chankan
    cfg.is_haitei = sit.haitei
    cfg.is_houtei = sit.houtei
    cfg.is_daburu_riichi = sit.double_riichi
    cfg.is_nagashi_mangan = False
    cfg.is_tenhou = sit.tenhou
    cfg.is_renhou = False
    cfg.is_chiihou = sit.chiihou
    cfg.is_open_riichi = False
    cfg.player_wind = EAST + sit.seat_wind
    cfg.round_wind = EAST + sit.round_wind
    cfg.is_dealer = sit.seat_wind == 0
    cfg.paarenchan = 0
    cfg.kyoutaku_number = 0
    cfg.tsumi_number = 0
    cfg.num_nuki_dora = sit.kita
    return cfg


def _points(sit: WinSituation, main: int, additional: int) -> int:
    if not sit.tsumo:
        return main
    if sit.is_dealer:
        return main * (sit.players - 1)
    return main + additional * (sit.players - 2)


def value(sit: WinSituation, ruleset: Ruleset, *, reference: bool = False) -> Valuation:
    """Value a winning hand. Does not check that the win was allowed (furiten, timing).

    Ordinary hands are valued by mjlog's fast path (:mod:`mjlog.families.riichi.scoring.fast`),
    the rest by the library; ``reference`` asks the library in every case.
    """
    hand = sit.hand
    if (len(hand) + 3 * len(sit.melds) < 14 or max(hand) >= NUM_TILES or min(hand) < 0
            or any(max(m.tiles) >= NUM_TILES or min(m.tiles) < 0 for m in sit.melds)):
        return Valuation(error="hand_not_known")  # unknown tiles, flowers, or too few
    ura = sit.ura_indicators if sit.riichi or sit.double_riichi else ()
    if any(t >= NUM_TILES or t < 0 for t in (*sit.dora_indicators, *ura)):
        return Valuation(error="indicator_not_known")  # an indicator nobody wrote down
    if not reference:
        fast = fast_value(sit, ruleset)
        if fast is not None:
            fu, han, yaku, limit, main, additional = fast
            return Valuation(yaku=yaku, fu=fu, han=han, limit=limit, main=main,
                             additional=additional, points=_points(sit, main, additional),
                             by="mjlog")
    return library_value(sit, ruleset)


def library_value(sit: WinSituation, ruleset: Ruleset) -> Valuation:
    """Value a winning hand with the ``mahjong`` library (the reference)."""
    melds = [_meld(m) for m in sit.melds]
    tiles: list[int] = list(sit.hand)
    for m in melds:
        tiles.extend(m.tiles)
    try:
        result = HandCalculator.estimate_hand_value(
            tiles, sit.win_tile, melds=melds, dora_indicators=list(sit.dora_indicators),
            config=config(sit, ruleset), ura_dora_indicators=list(sit.ura_indicators),
        )
    except (IndexError, KeyError, ValueError, TypeError) as exc:  # e.g. five of one tile
        return Valuation(error=f"impossible_hand ({exc.__class__.__name__})")
    if result.error or result.cost is None or result.yaku is None:
        return Valuation(error=str(result.error or "no_value"))
    is_open = result.is_open_hand
    yaku = tuple(
        YakuClaim(name=BY_LIBRARY[type(y).__name__].name,
                  han=y.han_open if is_open and y.han_open else y.han_closed)
        for y in result.yaku
    )
    cost = result.cost
    main, additional = cost["main"], cost["additional"]
    han, fu = result.han or 0, result.fu or 0
    limit = _LEVELS.get(cost["yaku_level"], cost["yaku_level"])
    if not limit and han < 5 and fu << (han + 2) > 2000:
        limit = "mangan"  # the library names no limit here when kiriage is on
    return Valuation(
        yaku=yaku, fu=fu, han=han, limit=limit,
        main=main, additional=additional, points=_points(sit, main, additional),
    )

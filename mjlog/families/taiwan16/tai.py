"""台 scoring of a Taiwanese win, and what each player pays for it.

:func:`tai` values a win (:class:`TaiWin`) as a list of patterns with their
台 (:class:`~mjlog.core.events.YakuClaim`, ``han`` holding the 台), following the
source's section 2 (seed 003) and its exclusions:

* 門前自摸 (3) replaces 門前 and 自摸; 全求 and 半求 bring their 獨聽 (and
  半求 its 自摸); 海底撈月 and 槓上開花 bring 自摸 or 門前自摸;
* 小三元 and 大三元 do not add their dragon triplets; 大四喜 does not add wind
  triplets, 小四喜 does; 五暗刻 does not add 門前 or 碰碰胡 (a tsumo adds 自摸
  and the 不求 bonus, 2 in all); 字一色 implies 碰碰胡 and 混一色;
* with ``tw_all_honours=16`` (the local rule of the source) the 小三元 a 字一色
  hand always holds is not added, and 4 is taken off when 大三元, 小四喜 or
  大四喜 is (the source's 29 台 example);
* 嚦咕嚦咕 adds only its value triplet, 自摸 (no 不求 bonus), 獨聽 and the
  flushes; 十六不搭 the same (no triplet, no flush is possible);
* 天胡 does not add 門前自摸; 地聽一發 contains 地聽 and 門前; 天聽 and 地聽
  contain 門前 (a tsumo adds 自摸 and the 不求 bonus); 地胡 (天聽 and a tsumo
  before the first discard) contains 天聽 and 門前自摸; 人胡 (天聽 and a ron
  before the first discard) contains 天聽 and 門前;
* 八仙過海 and 七搶一 (8, or 12 as 配牌花胡 in the deal) replace 花牌 and 花槓;
  a hand that is complete as well adds its own 台.

台 that depend on the dealer (莊家 1 and 連莊/拉莊 2n) are not in the list:
they are paid only between the dealer and the winner, see :func:`payments`.
Nothing here looks at the table: the caller states the win.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from mjlog.core.events import YakuClaim
from mjlog.core.ruleset import Ruleset
from mjlog.families.riichi.scoring.fast import readings
from mjlog.families.taiwan16.hand import is_liguligu, is_sixteen_unrelated

_DRAGONS: Final = (31, 32, 33)
_WINDS: Final = (27, 28, 29, 30)

PATTERNS: Final[dict[str, str]] = {
    "menqian": "門前", "zimo": "自摸", "menqian-zimo": "門前自摸", "quanqiu": "全求",
    "banqiu": "半求", "zhuangjia": "莊家", "lianzhuang": "連莊", "lazhuang": "拉莊",
    "fengpai": "風牌", "sanyuanpai": "三元牌", "duting": "獨聽", "haidi": "海底撈月",
    "hedi": "河底撈魚", "gangshang": "槓上開花", "qianggang": "搶槓", "huapai": "花牌",
    "huagang": "花槓", "pinghu": "平胡", "pengpeng": "碰碰胡", "hunyise": "混一色",
    "qingyise": "清一色", "xiaosanyuan": "小三元", "dasanyuan": "大三元",
    "sananke": "三暗刻", "sianke": "四暗刻", "wuanke": "五暗刻", "xiaosixi": "小四喜",
    "dasixi": "大四喜", "ziyise": "字一色", "baxian": "八仙過海", "qiqiangyi": "七搶一",
    "huahu": "配牌花胡", "tianhu": "天胡", "dihu": "地胡", "renhu": "人胡",
    "tianting": "天聽", "diting": "地聽", "diting-yifa": "地聽一發",
    "liguligu": "嚦咕嚦咕", "shiliu-buda": "十六不搭",
}
"""Every pattern mjlog scores: its name in events and notation, and its written name."""

NAME_OF: Final[dict[str, str]] = {**{v: k for k, v in PATTERNS.items()},
                                  **{k: k for k in PATTERNS}}
"""Pattern name from either its mjlog name or its written (Chinese) name."""


@dataclass(frozen=True, slots=True, kw_only=True)
class TaiWin:
    """A win as 台 scoring needs it; the caller reads it off the table.

    ``counts``: the concealed kinds with the winning tile (34 ints);
    ``melds``: the shown or kanned sets as (first kind, ``chi``/``pon``/
    ``kan``/``ankan``); ``waits``: the winning kinds of the hand before the
    win (a mask); ``flowers``: the flower numbers 0..7 (春夏秋冬梅蘭菊竹) the
    winner has set aside; ``seat_wind`` and ``round_wind``: 0..3.
    """

    counts: tuple[int, ...]
    melds: tuple[tuple[int, str], ...] = ()
    win_kind: int
    tsumo: bool
    waits: int = 0
    seat_wind: int = 0
    round_wind: int = 0
    flowers: tuple[int, ...] = ()
    last_tile: bool = False
    """The win is on the last tile of the live wall (海底撈月, 河底撈魚)."""
    replacement: bool = False
    """A tsumo on a replacement tile (after a kan or a flower: 槓上開花)."""
    robbed_kan: bool = False
    heavenly: bool = False
    """The dealer wins on the deal and its flower replacements (天胡)."""
    declared: int = 0
    """地聽: 0 none, 1 declared with the first discard, 2 won within one go-around of it."""
    heavenly_ready: int = 0
    """天聽: 0 none, 1 declared before the first draw, 2 won before the first discard."""
    flower_win: str = ""
    """``eight`` (八仙過海), ``rob`` (七搶一), or empty."""
    flower_win_in_deal: bool = False
    """The flower win was made in the deal and its replacements (配牌花胡)."""


def _add(out: dict[str, int], name: str, value: int) -> None:
    if value:
        out[name] = out.get(name, 0) + value


def flower_tai(flowers: Sequence[int], seat_wind: int) -> dict[str, int]:
    """花牌 (one per flower of the seat's wind: 春/梅 for east …) and 花槓 (a whole set of
    four, seasons or plants)."""
    out: dict[str, int] = {}
    held = set(flowers)
    _add(out, "huapai", sum(1 for f in (seat_wind, seat_wind + 4) if f in held))
    _add(out, "huagang", sum(1 for s in (0, 4) if {s, s + 1, s + 2, s + 3} <= held))
    return out


def _flush(kinds: set[int], rs: Ruleset) -> tuple[str, int] | None:
    suits = {k // 9 for k in kinds if k < 27}
    honours = any(k >= 27 for k in kinds)
    if not suits:
        return "ziyise", rs.taiwan.all_honours
    if len(suits) == 1:
        return ("hunyise", 4) if honours else ("qingyise", rs.taiwan.qingyise)
    return None


def _value_triplets(out: dict[str, int], triplets: Sequence[int], w: TaiWin,
                    dragons: bool = True, winds: bool = True) -> None:
    for k in triplets:
        if winds and k in _WINDS:
            _add(out, "fengpai", (k - 27 == w.seat_wind) + (k - 27 == w.round_wind))
        elif dragons and k in _DRAGONS:
            _add(out, "sanyuanpai", 1)


def _standard(w: TaiWin, rs: Ruleset, pair: int, sets: Sequence[tuple[int, bool, bool]],
              concealed_hand: bool, open_calls: int) -> dict[str, int]:
    """The patterns of one reading: ``sets`` as (first kind, run, concealed)."""
    out: dict[str, int] = {}
    triplets = [k for k, run, _ in sets if not run]
    kinds = {pair} | {k + i for k, run, _ in sets for i in ((0, 1, 2) if run else (0,))}
    flush = _flush(kinds, rs)
    honours = _honour_sets(out, w, pair, triplets)
    concealed_triplets = sum(1 for _, run, conc in sets if not run and conc)
    if flush is not None:
        name, value = flush
        _add(out, name, value)
        if name == "ziyise" and rs.taiwan.all_honours >= 16 and out.pop("xiaosanyuan", 0) == 0 \
                and honours:  # the source's local rule
            out["ziyise"] -= 4
    if len(triplets) == 5 and not (flush and flush[0] == "ziyise") and concealed_triplets < 5:
        _add(out, "pengpeng", 2)
    if concealed_triplets >= 5:
        _add(out, "wuanke", rs.taiwan.five_concealed)
    elif concealed_triplets == 4:
        _add(out, "sianke", rs.taiwan.four_concealed)
    elif concealed_triplets == 3:
        _add(out, "sananke", 2)
    runs_only = all(run for _, run, _ in sets)
    if runs_only and pair < 27 and not w.tsumo and not w.flowers and _two_sided(w, sets):
        _add(out, "pinghu", 2)
    _common(out, w, concealed_hand, open_calls, five_concealed=concealed_triplets >= 5)
    return out


def _honour_sets(out: dict[str, int], w: TaiWin, pair: int, triplets: list[int]) -> bool:
    """The patterns of dragon and wind sets (三元牌, 風牌, 大小三元, 大小四喜); whether the
    hand has 大三元, 小四喜 or 大四喜 (which the all-honours local rule looks at)."""
    dragon_sets = sum(1 for k in triplets if k in _DRAGONS)
    wind_sets = sum(1 for k in triplets if k in _WINDS)
    big_dragons = dragon_sets == 3
    small_dragons = dragon_sets == 2 and pair in _DRAGONS
    big_winds = wind_sets == 4
    small_winds = wind_sets == 3 and pair in _WINDS
    _value_triplets(out, triplets, w, dragons=not (big_dragons or small_dragons),
                    winds=not big_winds)
    if big_dragons:
        _add(out, "dasanyuan", 8)
    elif small_dragons:
        _add(out, "xiaosanyuan", 4)
    if big_winds:
        _add(out, "dasixi", 16)
    elif small_winds:
        _add(out, "xiaosixi", 8)
    return big_dragons or small_winds or big_winds


def _two_sided(w: TaiWin, sets: Sequence[tuple[int, bool, bool]]) -> bool:
    k = w.win_kind
    for first, run, conc in sets:
        if run and conc and ((k == first and first % 9 != 6) or (k == first + 2 and first % 9)):
            return True
    return False


def _common(out: dict[str, int], w: TaiWin, concealed_hand: bool, open_calls: int, *,
            five_concealed: bool = False) -> None:
    """Patterns of how the hand won: 門前/自摸, 全求/半求, 獨聽, last tile, kans."""
    single = w.waits != 0 and w.waits & (w.waits - 1) == 0
    if w.heavenly:
        pass  # 天胡 holds 門前自摸
    elif concealed_hand:
        if five_concealed or w.declared or w.heavenly_ready:  # 門前 implied: 自摸 and 不求
            _add(out, "zimo", 2 if w.tsumo else 0)
        else:
            _add(out, "menqian-zimo" if w.tsumo else "menqian", 3 if w.tsumo else 1)
    elif w.tsumo:
        _add(out, "zimo", 1)
    if open_calls == 5 and single:
        _add(out, "banqiu" if w.tsumo else "quanqiu", 1 if w.tsumo else 2)
    if single:
        _add(out, "duting", 1)
    if w.last_tile:
        _add(out, "haidi" if w.tsumo else "hedi", 1)
    if w.replacement and (w.tsumo or w.flower_win):
        _add(out, "gangshang", 1)
    if w.robbed_kan:
        _add(out, "qianggang", 1)


def _special(w: TaiWin, rs: Ruleset) -> dict[str, int] | None:
    """嚦咕嚦咕 or 十六不搭, when the hand is one and the ruleset has it."""
    c = w.counts
    single = w.waits != 0 and w.waits & (w.waits - 1) == 0
    out: dict[str, int] = {}
    if rs.taiwan.liguligu and is_liguligu(c, len(w.melds)):
        out["liguligu"] = 8
        triplet = next(k for k in range(34) if c[k] == 3)
        _value_triplets(out, [triplet], w)
        flush = _flush({k for k in range(34) if c[k]}, rs)
        if flush is not None:
            _add(out, *flush)
    elif rs.taiwan.sixteen and is_sixteen_unrelated(c, len(w.melds)):
        out["shiliu-buda"] = rs.taiwan.sixteen_tai
    else:
        return None
    _add(out, "zimo", 1 if w.tsumo else 0)
    _add(out, "duting", 1 if single else 0)
    return out


def _hand_tai(w: TaiWin, rs: Ruleset) -> dict[str, int] | None:
    """The best patterns of the hand itself (no flowers), None when it is not complete."""
    concealed_hand = all(kind == "ankan" for _, kind in w.melds)
    open_calls = sum(1 for _, kind in w.melds if kind != "ankan")
    meld_sets = [(k, kind == "chi", kind == "ankan") for k, kind in w.melds]
    best: dict[str, int] | None = None
    for pair, sets in readings(list(w.counts)):
        mine = [(k, run, conc and (w.tsumo or run or k != w.win_kind
                                   or _win_in_other_set(w.win_kind, pair, sets)))
                for k, run, conc, _ in sets]
        found = _standard(w, rs, pair, mine + meld_sets, concealed_hand, open_calls)
        if best is None or sum(found.values()) > sum(best.values()):
            best = found
    special = _special(w, rs)
    if special is not None and (best is None or sum(special.values()) > sum(best.values())):
        best = special
    if best is not None and w.heavenly:
        for name in ("menqian", "menqian-zimo", "zimo"):
            best.pop(name, None)
        best["tianhu"] = rs.taiwan.heavenly
    if best is not None and w.heavenly_ready:
        best.pop("menqian", None)
        if w.heavenly_ready == 1:
            best["tianting"] = rs.taiwan.heavenly_ready
        elif w.tsumo:
            best.pop("zimo", None)
            best["dihu"] = rs.taiwan.heavenly
        else:
            best["renhu"] = rs.taiwan.heavenly
    elif best is not None and w.declared:
        best.pop("menqian", None)  # in 嚦咕嚦咕 or 十六不搭 it was never added
        if w.declared == 2:
            best["diting-yifa"] = rs.taiwan.earth_ready_first
        else:
            best["diting"] = rs.taiwan.earth_ready
    return best


def _win_in_other_set(kind: int, pair: int, sets: Sequence[tuple[int, bool, bool, bool]]) -> bool:
    """Whether a reading can place the winning tile outside its triplet of that kind
    (in a run or the pair), so the triplet stays concealed on a ron."""
    return pair == kind or any(run and first <= kind <= first + 2 for first, run, _, _ in sets)


def tai(w: TaiWin, rs: Ruleset) -> tuple[YakuClaim, ...] | None:
    """The patterns of a win with their 台, or ``None`` when the hand is no win at all
    (not complete and no flower win). Dealer 台 are not included (see :func:`payments`)."""
    hand = _hand_tai(w, rs)
    out: dict[str, int] = {}
    if w.flower_win:
        name = "huahu" if w.flower_win_in_deal else ("baxian" if w.flower_win == "eight"
                                                      else "qiqiangyi")
        out[name] = 12 if w.flower_win_in_deal else 8
        if hand is not None:
            out.update(hand)
    elif hand is None:
        return None
    else:
        out.update(hand)
        out.update(flower_tai(w.flowers, w.seat_wind))
    if not rs.taiwan.last_discard:
        out.pop("hedi", None)
    return tuple(YakuClaim(name=k, han=v) for k, v in out.items() if v)


_FIXED: Final[dict[str, int]] = {
    "menqian": 1, "zimo": 1, "menqian-zimo": 3, "quanqiu": 2, "banqiu": 1, "zhuangjia": 1,
    "duting": 1, "haidi": 1, "hedi": 1, "gangshang": 1, "qianggang": 1, "pinghu": 2,
    "pengpeng": 2, "hunyise": 4, "xiaosanyuan": 4, "dasanyuan": 8, "sananke": 2,
    "xiaosixi": 8, "dasixi": 16, "baxian": 8, "qiqiangyi": 8, "huahu": 12, "liguligu": 8,
}


def default_tai(name: str, rs: Ruleset) -> int:
    """The usual 台 of a pattern under ``rs`` (1 for those counted per set or flower)."""
    fixed = _FIXED.get(name)
    if fixed is not None:
        return fixed
    tw = rs.taiwan
    return {"qingyise": tw.qingyise, "sianke": tw.four_concealed, "wuanke": tw.five_concealed,
            "ziyise": tw.all_honours, "shiliu-buda": tw.sixteen_tai, "tianhu": tw.heavenly,
            "dihu": tw.heavenly, "renhu": tw.heavenly, "tianting": tw.heavenly_ready,
            "diting": tw.earth_ready, "diting-yifa": tw.earth_ready_first}.get(name, 1)


def east_seat(dealer: int, dice: tuple[int, ...], rs: Ruleset, n: int = 4) -> int:
    """The seat whose wind is east: the one the dice open the wall at (開門), counting the
    dealer as 1 and on in turn order; the dealer with ``tw_seat_wind=dealer`` or no dice."""
    if rs.taiwan.seat_wind == "dealer" or not dice:
        return dealer
    return (dealer + sum(dice) - 1) % n



def total(claims: Sequence[YakuClaim]) -> int:
    """The 台 of a list of patterns."""
    return sum(c.han for c in claims)


def dealer_bonus(lian: int) -> int:
    """The 台 a dealer's win or payment adds: 莊家 1 and 連莊/拉莊 2n (2n + 1)."""
    return 2 * lian + 1


def payments(n: int, winner: int, payer: int | None, dealer: int, lian: int, hand_tai: int,
             rs: Ruleset, extra: dict[int, int] | None = None) -> list[int]:
    """Score changes of a win, seat by seat.

    ``payer`` is the discarder (``None``: a tsumo, paid by every other seat).
    Each payer pays 底 + 台 x (台 value); the dealer's 2n + 1 台 are added
    wherever the dealer wins or pays (the source's section 4 table).
    ``extra`` adds 台 for some payers only (七搶一). Returns ``n`` deltas.
    """
    deltas = [0] * n
    payers = [p for p in range(n) if p != winner] if payer is None else [payer]
    for p in payers:
        t = hand_tai + (extra or {}).get(p, 0)
        if dealer in (winner, p):
            t += dealer_bonus(lian)
        amount = rs.taiwan.base + t * rs.taiwan.tai
        deltas[p] -= amount
        deltas[winner] += amount
    return deltas

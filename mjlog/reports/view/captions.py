"""What happened, in words, and the result screens: the viewer's text of each event.

:func:`caption` says what an event did ("Ben pons 5z from Chiyo"), in English,
Japanese ("BenがChiyoの5zをポン") or Chinese ("Ben碰Chiyo的5z"): players by name and
tiles by code in every language; :func:`round_name` names a round in them;
:func:`result_screen` gives the data of a win, a draw or the game's end (its words in
English: :mod:`mjlog.reports.view.words` translates them on the page).
They read the table after the event (never change it) and the event's own
fields as the record states them: a value the record got wrong is shown as
recorded, and the audit's score mismatch beside it says so.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import partial
from typing import Any, Final

from mjlog.core.events import (
    AbortiveDraw,
    AddedKan,
    Chi,
    ClosedKan,
    Discard,
    DoraReveal,
    Draw,
    Event,
    ExhaustiveDraw,
    Flower,
    GameEnd,
    GameStart,
    Kita,
    OpenKan,
    Pon,
    ReadyDeclared,
    RiichiAccepted,
    RoundEnd,
    RoundStart,
    Win,
)
from mjlog.core.tiles import KIND_OF, RED_FIVE_IDS, UNKNOWN, tile_str
from mjlog.replay.state import TableState
from mjlog.reports.render import WIND_NAMES
from mjlog.reports.view.words import joined, t

_CODES: Final = {red: (*(tile_str(t, red) for t in range(UNKNOWN)), "??")
                 for red in (False, True)}
"""Each tile id's code, with and without red fives."""


def code(tile: int, red: bool) -> str:
    """A tile's two-character code (``??`` for a tile nobody wrote down)."""
    return _CODES[red][tile]


def codes(tiles: Iterable[int], red: bool, sort: bool = True) -> str:
    """Tiles as concatenated codes, sorted by kind (a red five in place of its five) unless
    ``sort`` is false."""
    items = sorted(tiles, key=lambda t: (KIND_OF[t], t not in RED_FIVE_IDS)) if sort else tiles
    return "".join(code(t, red) for t in items)


_SAY: Final[dict[str, dict[str, str]]] = {
    "en": {
        "draw": "{p} draws {t}", "rinshan": "{p} draws {t} from the dead wall",
        "unwritten": "a tile not written down", "discard": "{p} discards {t}",
        "tsumogiri": " (the tile just drawn)", "declares": " and declares riichi",
        "chi": "{p} chis {t} from {f}: {tiles}", "pon": "{p} pons {t} from {f}: {tiles}",
        "open_kan": "{p} calls kan on {t} from {f}: {tiles}",
        "added_kan": "{p} adds {t} to a pon: kan {tiles}",
        "closed_kan": "{p} declares a closed kan: {tiles}", "kita": "{p} sets aside {t} (kita)",
        "flower": "{p} sets aside flower {t}{took}", "took": ", taken from {f}",
        "riichi": "{p}'s riichi stands: a stick on the table", "ready": "{p} declares ready",
        "dora": "New dora indicator: {t}", "start": "The game starts: {names}",
        "round": "{wind} {n}{honba}: {p} deals", "honba": ", honba {h}",
        "win": "{p} wins by {how}: {value}{points} points", "tsumo": "tsumo",
        "ron": "ron from {f}", "han": "{han} {unit} {fu} fu, ", "tai": "{han} {unit}, ",
        "exhaustive": "Exhaustive draw: {ready}", "nagashi": "Nagashi mangan: {ready}",
        "ready_list": "{names} ready", "nobody": "nobody ready",
        "abortive": "Abortive draw ({kind})", "round_end": "The round ends",
        "game_end": "The game ends", "other": "{what}", "other_who": "{what} ({p})",
        "seat": "Seat {n}", "round_name": "{wind} {n}", "round_honba": "{wind} {n}, honba {h}",
    },
    "ja": {
        "draw": "{p}が{t}をツモ", "rinshan": "{p}が嶺上牌{t}をツモ", "unwritten": "記録のない牌",
        "discard": "{p}が{t}を打牌", "tsumogiri": "（ツモ切り）", "declares": "、立直宣言",
        "chi": "{p}が{f}の{t}をチー：{tiles}", "pon": "{p}が{f}の{t}をポン：{tiles}",
        "open_kan": "{p}が{f}の{t}をカン（大明槓）：{tiles}",
        "added_kan": "{p}がポンに{t}を加えて加槓：{tiles}", "closed_kan": "{p}が暗槓：{tiles}",
        "kita": "{p}が{t}を抜く（抜きドラ）", "flower": "{p}が花牌{t}を抜く{took}",
        "took": "（{f}から奪取）", "riichi": "{p}の立直成立：供託1本",
        "ready": "{p}が聴牌宣言", "dora": "新ドラ表示牌：{t}", "start": "対局開始：{names}",
        "round": "{wind}{n}局{honba}：{p}が親", "honba": " {h}本場",
        "win": "{p}{how}：{value}{points}点", "tsumo": "のツモ和了", "ron": "が{f}からロン和了",
        "han": "{han}{unit}{fu}符、", "tai": "{han}{unit}、",
        "exhaustive": "流局：{ready}", "nagashi": "流し満貫：{ready}",
        "ready_list": "{names}が聴牌", "nobody": "全員ノーテン", "abortive": "途中流局（{kind}）",
        "round_end": "局終了", "game_end": "対局終了", "other": "{what}",
        "other_who": "{what}（{p}）", "seat": "{n}番席", "round_name": "{wind}{n}局",
        "round_honba": "{wind}{n}局 {h}本場",
    },
    "zh": {
        "draw": "{p}摸{t}", "rinshan": "{p}从岭上摸{t}", "unwritten": "未记录的牌",
        "discard": "{p}打出{t}", "tsumogiri": "（摸切）", "declares": "，宣告立直",
        "chi": "{p}吃{f}的{t}：{tiles}", "pon": "{p}碰{f}的{t}：{tiles}",
        "open_kan": "{p}杠{f}的{t}（大明杠）：{tiles}", "added_kan": "{p}加杠{t}：{tiles}",
        "closed_kan": "{p}暗杠：{tiles}", "kita": "{p}拔北{t}", "flower": "{p}补花{t}{took}",
        "took": "（抢自{f}）", "riichi": "{p}立直成立：放置一根立直棒", "ready": "{p}宣告听牌",
        "dora": "新宝牌指示牌：{t}", "start": "对局开始：{names}",
        "round": "{wind}{n}局{honba}：{p}坐庄", "honba": " {h}本场",
        "win": "{p}{how}：{value}{points}点", "tsumo": "自摸和牌", "ron": "荣和，{f}放铳",
        "han": "{han}{unit}{fu}符，", "tai": "{han}{unit}，",
        "exhaustive": "荒牌流局：{ready}", "nagashi": "流局满贯：{ready}",
        "ready_list": "{names}听牌", "nobody": "全员未听牌", "abortive": "途中流局（{kind}）",
        "round_end": "本局结束", "game_end": "对局结束", "other": "{what}",
        "other_who": "{what}（{p}）", "seat": "{n}号座", "round_name": "{wind}{n}局",
        "round_honba": "{wind}{n}局 {h}本场",
    },
}
"""Each language's captions, with fields: the English ones are the captions as they have
always been (other code and tests read them)."""

_CALLS: Final = {Chi: "chi", Pon: "pon", OpenKan: "open_kan"}


def _who(names: list[str], p: int | None, lang: str = "en") -> str:
    if p is None:
        return "?"
    return names[p] if 0 <= p < len(names) else _SAY[lang]["seat"].format(n=p + 1)


def round_name(wind: int, number: int, honba: int, lang: str = "en") -> str:
    """A round's name in words (``East 1, honba 2``, ``東1局 2本場``)."""
    key = "round_honba" if honba else "round_name"
    return _SAY[lang][key].format(wind=t(WIND_NAMES[wind % 4], lang), n=number, h=honba)


def caption(ev: Event, s: TableState, names: list[str], red: bool, unit: str = "han",
            lang: str = "en") -> str:
    """One line saying what ``ev`` did in ``lang`` (:data:`mjlog.reports.view.words.LANGS`), naming
    players by name and tiles by code (neither translated); a win's value in ``unit``
    (``han`` with its fu, or ``台``)."""
    say, w = _SAY[lang], partial(_who, names, lang=lang)
    match ev:
        case Draw():
            tile = say["unwritten"] if ev.tile == UNKNOWN else code(ev.tile, red)
            return say["rinshan" if ev.rinshan else "draw"].format(p=w(ev.player), t=tile)
        case Discard():
            return (say["discard"].format(p=w(ev.player), t=code(ev.tile, red))
                    + (say["tsumogiri"] if ev.tsumogiri else "")
                    + (say["declares"] if ev.riichi else ""))
        case Chi() | Pon() | OpenKan():
            return say[_CALLS[type(ev)]].format(p=w(ev.player), t=code(ev.called, red),
                                                f=w(ev.from_player), tiles=codes(ev.tiles, red))
        case AddedKan():
            return say["added_kan"].format(p=w(ev.player), t=code(ev.added, red),
                                           tiles=codes(ev.tiles, red))
        case ClosedKan():
            return say["closed_kan"].format(p=w(ev.player), tiles=codes(ev.tiles, red))
        case Kita():
            return say["kita"].format(p=w(ev.player), t=code(ev.tile, red))
        case Flower():
            took = say["took"].format(f=w(ev.from_player)) if ev.from_player is not None else ""
            return say["flower"].format(p=w(ev.player), t=code(ev.tile, red), took=took)
        case RiichiAccepted():
            return say["riichi"].format(p=w(ev.player))
        case ReadyDeclared():
            return say["ready"].format(p=w(ev.player))
        case DoraReveal():
            return say["dora"].format(t=code(ev.indicator, red))
        case _:
            return _round_caption(ev, names, unit, lang)


def _round_caption(ev: Event, names: list[str], unit: str, lang: str) -> str:
    """Captions of the events that start, end or decide a round or the game."""
    say, w = _SAY[lang], partial(_who, names, lang=lang)
    match ev:
        case GameStart():
            return say["start"].format(names=joined(names, lang))
        case RoundStart():
            honba = say["honba"].format(h=ev.honba) if ev.honba else ""
            return say["round"].format(wind=t(WIND_NAMES[ev.round_wind % 4], lang),
                                       n=ev.round_number, honba=honba, p=w(ev.dealer))
        case Win():
            how = say["tsumo"] if ev.winner == ev.from_player else \
                say["ron"].format(f=w(ev.from_player))
            value = say["han" if unit == "han" else "tai"].format(
                han=ev.han, unit=t(unit, lang), fu=ev.fu) if ev.han else ""
            return say["win"].format(p=w(ev.winner), how=how, value=value,
                                     points=_points_shown(ev))
        case ExhaustiveDraw():
            ready = [w(p) for p, h in enumerate(ev.hands) if h is not None]
            return say["nagashi" if ev.nagashi else "exhaustive"].format(
                ready=say["ready_list"].format(names=joined(ready, lang)) if ready
                else say["nobody"])
        case AbortiveDraw():
            kind = ev.kind.replace("_", " ")
            return say["abortive"].format(kind=t(kind, lang))
        case RoundEnd():
            return say["round_end"]
        case GameEnd():
            return say["game_end"]
        case _:
            who = getattr(ev, "player", None)
            what = t(ev.TYPE.replace("_", " "), lang)
            return say["other_who" if who is not None else "other"].format(
                what=what, p=w(who) if who is not None else "")


def _points_shown(ev: Win) -> str:
    """A win's points as its record states them; for a record that states none (Mortal's
    mjai), what the winner received; else a dash (never a "0" the record did not say)."""
    got = ev.deltas[ev.winner] if 0 <= ev.winner < len(ev.deltas) else 0
    return f"{ev.points:,}" if ev.points else f"{got:,}" if got > 0 else "–"


def result_screen(ev: Event, s: TableState, names: list[str], red: bool,
                  first_dealer: int = 0) -> dict[str, Any] | None:
    """The result screen of a win, a draw or the game's end (equal scores placed from the
    first dealer on); ``None`` for other events."""
    if isinstance(ev, Win):
        hand = list(ev.hand)
        if ev.win_tile in hand:
            hand.remove(ev.win_tile)
        melds = [codes(m.tiles, red) for m in s.players[ev.winner].melds] \
            if 0 <= ev.winner < s.n else []
        return {"kind": "win", "winner": ev.winner, "from": ev.from_player,
                "hand": codes(hand, red), "tile": code(ev.win_tile, red), "melds": melds,
                "yaku": [[y.name, y.han] for y in ev.yaku], "han": ev.han, "fu": ev.fu,
                "points": ev.points, "limit": ev.limit, "deltas": list(ev.deltas),
                "dora": codes(ev.dora_indicators, red, sort=False),
                "ura": codes(ev.ura_indicators, red, sort=False)}
    if isinstance(ev, ExhaustiveDraw | AbortiveDraw):
        name = ("nagashi mangan" if ev.nagashi else "exhaustive draw") \
            if isinstance(ev, ExhaustiveDraw) else ev.kind.replace("_", " ")
        return {"kind": "draw", "name": name, "deltas": list(ev.deltas),
                "hands": [codes(h, red) if h is not None else None for h in ev.hands]}
    if isinstance(ev, GameEnd):
        scores = list(ev.scores) if ev.scores is not None else list(s.scores)
        n = len(scores)
        order = sorted(range(n), key=lambda p: (-scores[p], (p - first_dealer) % n))
        return {"kind": "end", "rows": [
            [place, p, _who(names, p), scores[p],
             ev.points[p] if ev.points is not None and p < len(ev.points) else None]
            for place, p in enumerate(order, 1)]}
    return None

"""What happened, in words, and the result screens: the viewer's text of each event.

:func:`caption` says what an event did ("Ben pons 5z from Chiyo");
:func:`result_screen` gives the data of a win, a draw or the game's end.
Both read the table after the event (never change it) and the event's own
fields as the record states them: a value the record got wrong is shown as
recorded, and the audit's score mismatch beside it says so.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import partial
from typing import Any, Final

from mjlog.events import (
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
from mjlog.render import WIND_NAMES
from mjlog.replay.state import TableState
from mjlog.tiles import KIND_OF, RED_FIVE_IDS, UNKNOWN, tile_str

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


def _who(names: list[str], p: int | None) -> str:
    if p is None:
        return "?"
    return names[p] if 0 <= p < len(names) else f"Seat {p + 1}"


def caption(ev: Event, s: TableState, names: list[str], red: bool, unit: str = "han") -> str:
    """One line saying what ``ev`` did, naming players by name and tiles by code; a win's
    value in ``unit`` (``han`` with its fu, or ``台``)."""
    w = partial(_who, names)
    match ev:
        case Draw():
            tile = "a tile not written down" if ev.tile == UNKNOWN else code(ev.tile, red)
            return f"{w(ev.player)} draws {tile}" + (
                " from the dead wall" if ev.rinshan else "")
        case Discard():
            return (f"{w(ev.player)} discards {code(ev.tile, red)}"
                    + (" (the tile just drawn)" if ev.tsumogiri else "")
                    + (" and declares riichi" if ev.riichi else ""))
        case Chi() | Pon() | OpenKan():
            verb = {Chi: "chis", Pon: "pons", OpenKan: "calls kan on"}[type(ev)]
            return (f"{w(ev.player)} {verb} {code(ev.called, red)} from {w(ev.from_player)}: "
                    f"{codes(ev.tiles, red)}")
        case AddedKan():
            return f"{w(ev.player)} adds {code(ev.added, red)} to a pon: kan {codes(ev.tiles, red)}"
        case ClosedKan():
            return f"{w(ev.player)} declares a closed kan: {codes(ev.tiles, red)}"
        case Kita():
            return f"{w(ev.player)} sets aside {code(ev.tile, red)} (kita)"
        case Flower():
            took = f", taken from {w(ev.from_player)}" if ev.from_player is not None else ""
            return f"{w(ev.player)} sets aside flower {code(ev.tile, red)}{took}"
        case RiichiAccepted():
            return f"{w(ev.player)}'s riichi stands: a stick on the table"
        case ReadyDeclared():
            return f"{w(ev.player)} declares ready"
        case DoraReveal():
            return f"New dora indicator: {code(ev.indicator, red)}"
        case _:
            return _round_caption(ev, names, unit)


def _round_caption(ev: Event, names: list[str], unit: str) -> str:
    """Captions of the events that start, end or decide a round or the game."""
    w = partial(_who, names)
    match ev:
        case GameStart():
            return f"The game starts: {', '.join(names)}"
        case RoundStart():
            return (f"{WIND_NAMES[ev.round_wind % 4]} {ev.round_number}"
                    f"{f', honba {ev.honba}' if ev.honba else ''}: {w(ev.dealer)} deals")
        case Win():
            how = "tsumo" if ev.winner == ev.from_player else f"ron from {w(ev.from_player)}"
            value = (f"{ev.han} {unit}" + (f" {ev.fu} fu" if unit == "han" else "") + ", "
                     if ev.han else "")
            return f"{w(ev.winner)} wins by {how}: {value}{ev.points:,} points"
        case ExhaustiveDraw():
            ready = [w(p) for p, h in enumerate(ev.hands) if h is not None]
            name = "Nagashi mangan" if ev.nagashi else "Exhaustive draw"
            return f"{name}: {', '.join(ready) + ' ready' if ready else 'nobody ready'}"
        case AbortiveDraw():
            return f"Abortive draw ({ev.kind.replace('_', ' ')})"
        case RoundEnd():
            return "The round ends"
        case GameEnd():
            return "The game ends"
        case _:
            who = getattr(ev, "player", None)
            return f"{ev.TYPE.replace('_', ' ')}" + (f" ({w(who)})" if who is not None else "")


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

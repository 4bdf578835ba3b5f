"""What makes two records the same game, whatever format carried them.

Formats that name tiles by kind renumber the physical copies and drop what
they have no place for (a platform's meta, a round's wall, final points in
mjai, the fu of a limit hand and a yaku worth no han in tenhou.net/6), and
tenhou.net/6 seats its first dealer first: games are compared with their seats
turned so (:func:`mjlog.formats.seats.from_first_dealer`), and with a round's kan dora
indicators at its result (when they are turned is not carried everywhere).
:func:`outline` keeps what every format mjlog writes carries: who
played, every move with its tiles by kind and red, every result with its
value and payments, the scores.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from mjlog.core.events import (
    AbortiveDraw,
    Discard,
    DoraReveal,
    Draw,
    Event,
    ExhaustiveDraw,
    GameEnd,
    GameStart,
    RiichiAccepted,
    RoundEnd,
    RoundStart,
    Win,
)
from mjlog.core.tiles import KIND_OF, RED_FIVE_IDS
from mjlog.formats.seats import from_first_dealer


class _Outliner:
    """Outlines the events of one game; a five is red only in a game with red fives."""

    def __init__(self) -> None:
        self.red = True

    def k(self, tile: int) -> tuple[int, bool]:
        return KIND_OF[tile], self.red and tile in RED_FIVE_IDS

    def ks(self, tiles: Iterable[int] | None) -> tuple[tuple[int, bool], ...] | None:
        return None if tiles is None else tuple(sorted(self.k(t) for t in tiles))

    def one(self, ev: Event) -> tuple[Any, ...] | None:
        _k, _ks = self.k, self.ks
        if isinstance(ev, GameStart):
            self.red = ev.ruleset.red_fives
            return ("start", tuple(p.name for p in ev.players), ev.ruleset.players)
        if isinstance(ev, RoundStart):
            return ("round", ev.round_wind, ev.round_number, ev.honba, ev.kyotaku, ev.dealer,
                    ev.scores, tuple(_ks(h) for h in ev.hands), _k(ev.dora_indicator))
        if isinstance(ev, Draw):
            return ("draw", ev.player, _k(ev.tile), ev.rinshan)
        if isinstance(ev, Discard):
            return ("discard", ev.player, _k(ev.tile), ev.riichi)
        if isinstance(ev, RiichiAccepted):
            return ("riichi", ev.player)
        if isinstance(ev, DoraReveal):
            return ("dora", _k(ev.indicator))
        if isinstance(ev, Win):
            return ("win", ev.winner, ev.from_player, _ks(ev.hand), _k(ev.win_tile),
                    tuple(sorted(_ks(m) or () for m in ev.melds)),
                    tuple(sorted((y.name, y.han) for y in ev.yaku if y.han)),
                    ev.fu if not ev.limit else None, ev.han, ev.points,
                    ev.deltas, _ks(ev.ura_indicators))
        if isinstance(ev, ExhaustiveDraw):
            return ("draw-end", tuple(_ks(h) for h in ev.hands), ev.deltas, ev.nagashi)
        if isinstance(ev, AbortiveDraw):
            return ("abort", ev.kind, ev.deltas)
        if isinstance(ev, RoundEnd):
            return ("round-end", ev.scores)
        if isinstance(ev, GameEnd):
            return ("end", ev.scores)
        name = type(ev).__name__.lower()
        player = getattr(ev, "player", None)
        tiles = getattr(ev, "tiles", None) or (getattr(ev, "tile", None),)
        return (name, player, _ks(t for t in tiles if t is not None))


_UNVALUED = {"win": slice(0, 6), "end": slice(0, 1)}


def outline(events: Sequence[Event], *, values: bool = True) -> list[tuple[Any, ...]]:
    """The game as every format carries it (see the module's docstring). Without
    ``values``, as mjai carries it: a win's yaku, fu, han and points and the final scores
    are left out (its payments stay)."""
    out: list[tuple[Any, ...]] = []
    doras: list[tuple[Any, ...]] = []
    for x in map(_Outliner().one, from_first_dealer(events)):
        if x is None:
            continue
        if x[0] == "dora":  # when a kan dora is turned is not carried everywhere
            doras.append(x)
            continue
        if x[0] in ("win", "draw-end", "abort", "round-end"):
            out.extend(doras)
            doras.clear()
        out.append(x)
    if values:
        return out
    return [(*x[_UNVALUED[x[0]]], *(x[10:11] if x[0] == "win" else ()))
            if x[0] in _UNVALUED else x for x in out]

"""The table the notation reader fills in from and the writer compares with.

:class:`NotationTable` is the replay's :class:`~mjlog.replay.state.TableState`
(hands, scores, sticks, whose turn, the last discard) with what only the
notation needs on top: the last tile drawn, whether the next draw is a
replacement, the tile that may be robbed after a kan or kita, each seat's
calls in order (kita included, as a win lists them), the ura indicators
already shown, the scores a round's ``after`` line sets, and the copy a tile
named in the text stands for. Reader and writer apply every event to it in
the same way, so both agree on what goes without saying. It never judges.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Final

from mjlog.core.events import (
    AbortiveDraw,
    AddedKan,
    Chi,
    ClosedKan,
    Discard,
    Draw,
    Event,
    ExhaustiveDraw,
    Flower,
    GameStart,
    Kita,
    OpenKan,
    Pon,
    RoundEnd,
    RoundStart,
    Win,
)
from mjlog.core.ruleset import Ruleset
from mjlog.core.tiles import KIND_OF, RED_FIVE_IDS, UNKNOWN, UNKNOWN_KIND, Tile
from mjlog.families.base import RuleFamily
from mjlog.families.registry import family_of
from mjlog.formats.notation.ids import copies
from mjlog.formats.notation.lexer import WINDS
from mjlog.replay.state import TableState, fresh_used

Shown = Chi | Pon | OpenKan | AddedKan | ClosedKan | Kita

_COPIES: Final = {red: tuple(copies(k, red) for k in range(KIND_OF[UNKNOWN - 1] + 1))
                  for red in (False, True)}
"""Each kind's copies (:func:`~mjlog.formats.notation.ids.copies`), flowers included, with
red fives and without."""


class NotationTable(TableState):
    """A :class:`TableState` with the notation's defaults on top (module docstring)."""

    __slots__ = ("family", "first_dealer", "kan_player", "kan_tile", "last_draw", "red",
                 "rinshan_next", "ruleset", "shown", "ura_shown")

    def __init__(self, n: int, first_dealer: int, ruleset: Ruleset) -> None:
        super().__init__(n)
        self.size = ruleset.table
        self.ruleset = ruleset
        self.family: RuleFamily = family_of(ruleset)
        self.red = ruleset.red_fives
        self.first_dealer = first_dealer
        self.dealer = first_dealer
        self.scores = [ruleset.starting_score] * n
        self._reset_extras()

    def _reset_extras(self) -> None:
        self.shown: list[list[Shown]] = [[] for _ in range(self.n)]
        """Each seat's calls in the order made, kita included; an added kan replaces its pon."""
        self.last_draw = -1
        self.rinshan_next = False
        """Whether the next draw is a replacement (after a kan, kita or flower)."""
        self.kan_tile = -1
        """The tile a ron may rob: the one a kan or kita just showed, else -1."""
        self.kan_player = -1
        self.ura_shown: list[int] = []

    # -- seats

    def dealer_of(self, round_number: int) -> int:
        """The dealer a round has unless the record says otherwise."""
        return (self.first_dealer + round_number - 1) % self.n

    def seat(self, letter: str) -> int:
        """The seat of a wind letter in the current round (E is the dealer)."""
        return (self.dealer + WINDS.index(letter)) % self.n

    def wind(self, seat: int) -> str:
        """The wind letter of a seat in the current round (``?`` for no seat)."""
        return WINDS[(seat - self.dealer) % self.n] if 0 <= seat < self.n else "?"

    def open_hand(self, seat: int) -> bool:
        """Whether the seat has called from another player."""
        return 0 <= seat < self.n and any(
            isinstance(m, Chi | Pon | OpenKan | AddedKan) for m in self.shown[seat])

    def win_melds(self, seat: int) -> tuple[tuple[Tile, ...], ...]:
        """A winner's sets as a win lists them: the latest call first (as Tenhou does)."""
        if not 0 <= seat < self.n:
            return ()
        return tuple((m.tile,) if isinstance(m, Kita) else m.tiles
                     for m in reversed(self.shown[seat]))

    def deltas_of(self, ev: Win | ExhaustiveDraw | AbortiveDraw, first: bool) -> tuple[int, ...]:
        """The score changes a result implies when the text states none (the family's
        :meth:`~mjlog.families.base.RuleFamily.result_deltas`; ``first``: the round's first win)."""
        return self.family.result_deltas(ev, players=self.n, dealer=self.dealer, first=first,
                                         ruleset=self.ruleset)

    def flower_owner(self, tile: int) -> int:
        """The seat that has set flower ``tile`` aside, -1 when nobody has."""
        return next((p for p in range(self.n) if tile in self.players[p].flowers), -1)

    def new_header(self, dealer: int) -> None:
        """A round header is being read or written: its tiles are named afresh."""
        self.dealer = dealer
        self.used = fresh_used()

    # -- copies

    def fresh(self, kind: int, red: bool) -> int:
        """The canonical copy of a tile entering play (dealt, drawn, shown)."""
        if kind == UNKNOWN_KIND:
            return UNKNOWN
        if red:
            return kind * 4
        order = _COPIES[self.red][kind]
        used = self.used
        for t in order:
            if not used[t]:
                return t
        return order[0]

    def ura(self, kind: int, red: bool, avoid: Sequence[int]) -> int:
        """The canonical copy of an ura indicator: the one a win already showed, if any."""
        for t in self.ura_shown:
            if KIND_OF[t] == kind and (t in RED_FIVE_IDS and self.red) == red \
                    and t not in avoid:
                return t
        return self.fresh(kind, red)

    def held(self, seat: int, kind: int, red: bool, avoid: Sequence[int] = ()) -> int:
        """The canonical copy of a tile a player gives from hand (a fresh one when the
        hand does not hold it: it was among the tiles nobody wrote down)."""
        if kind == UNKNOWN_KIND:
            return UNKNOWN
        if red:
            return kind * 4
        hand = self.players[seat].concealed if 0 <= seat < self.n else set()
        order = _COPIES[self.red][kind]
        for t in order:
            if t in hand and t not in avoid:
                return t
        used = self.used
        for t in order:
            if not used[t] and t not in avoid:
                return t
        return order[0]

    # -- following the game

    def apply(self, ev: Event) -> None:
        """Follow one event (never judges it); one that does not fit the table is passed
        over, for the replay to report."""
        cls = ev.__class__
        if cls is GameStart or not self.fits(ev):
            return
        TableState.apply(self, ev)
        extra = _EXTRA.get(cls)
        if extra is not None:
            extra(self, ev)

    def _draw(self, ev: Draw) -> None:
        self.last_draw = ev.tile
        self.rinshan_next = False
        self.kan_tile = -1

    def _discard(self, ev: Discard) -> None:
        self.used[ev.tile] = 1
        self.kan_tile = -1

    def _call(self, ev: Chi | Pon | OpenKan) -> None:
        for t in ev.tiles:
            self.used[t] = 1
        self.shown[ev.player].append(ev)
        self.rinshan_next = isinstance(ev, OpenKan)

    def _own(self, ev: ClosedKan | AddedKan | Kita) -> None:
        """A kan or kita of one's own: its tile may be robbed until the replacement."""
        p = ev.player
        shown = self.shown[p]
        if isinstance(ev, ClosedKan):
            self.kan_tile = ev.tiles[0]
            shown.append(ev)
        elif isinstance(ev, AddedKan):
            self.kan_tile = ev.added
            i = next((i for i, m in enumerate(shown) if isinstance(m, Pon)
                      and KIND_OF[m.called] == KIND_OF[ev.added]), -1)
            if i >= 0:
                shown[i] = ev
            else:
                shown.append(ev)
        else:
            self.kan_tile = ev.tile  # a kita can be robbed (thirteen orphans)
            shown.append(ev)
        for t in ev.tiles if not isinstance(ev, Kita) else (ev.tile,):
            self.used[t] = 1
        self.kan_player = p
        self.rinshan_next = True

    def _flower(self, ev: Flower) -> None:
        self.used[ev.tile] = 1
        self.rinshan_next = True
        self.kan_tile = -1

    def _win(self, ev: Win) -> None:
        self.ura_shown.extend(t for t in ev.ura_indicators if t not in self.ura_shown)

    def _round_start(self, ev: RoundStart) -> None:
        self._reset_extras()

    def _round_end(self, ev: RoundEnd) -> None:
        if ev.scores is not None:
            self.scores = list(ev.scores)


_EXTRA: dict[type, Callable[[NotationTable, Any], None]] = {
    Draw: NotationTable._draw, Discard: NotationTable._discard, Chi: NotationTable._call,
    Pon: NotationTable._call, OpenKan: NotationTable._call, ClosedKan: NotationTable._own,
    AddedKan: NotationTable._own, Kita: NotationTable._own, Flower: NotationTable._flower,
    Win: NotationTable._win, RoundStart: NotationTable._round_start,
    RoundEnd: NotationTable._round_end,
}
"""What the notation follows beyond the table, for each kind of event."""

"""The table as the replay sees it at one moment, and how each event changes it.

:class:`TableState` *applies* events (:meth:`TableState.apply`): it moves
tiles, scores and turns, and never judges. The engine
(:mod:`mjlog.replay.engine`) judges each event and then changes the table by
these same transitions; the notation reader and writer and random play
follow a game with them directly. Rivers hold the very
:class:`~mjlog.core.events.Discard` events of the record (shared values), with the
indices of called-away tiles beside them, so following a game allocates
almost nothing per move.

An event that does not fit the table (a seat or tile outside it) is the
caller's to find first (:meth:`TableState.fits`); applying it may raise.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable
from functools import cache
from typing import Any, Final, cast

from mjlog.core.events import (
    MOVES,
    AbortiveDraw,
    AddedKan,
    Chi,
    Chombo,
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
    Meld,
    OpenKan,
    Pon,
    ReadyDeclared,
    RiichiAccepted,
    RoundEnd,
    RoundStart,
    Win,
)
from mjlog.core.ruleset import Ruleset, TableSize
from mjlog.core.tiles import FIRST_FLOWER, KIND_OF, UNKNOWN, Tile

DEAD_WALL = 14
"""Tiles in the riichi dead wall (rinshan tiles and indicators)."""
_SEAT_FIELDS = ("player", "from_player", "winner")
_TILE_FIELDS = ("tile", "called", "added", "indicator", "win_tile")
_TILE_LIST_FIELDS = ("tiles", "hand", "dora_indicators", "ura_indicators")
_PER_SEAT_FIELDS = ("scores", "deltas", "scores_before", "hands", "points")
_PER_SEAT = frozenset({RoundStart, RiichiAccepted, Win, ExhaustiveDraw, AbortiveDraw, RoundEnd,
                       GameEnd})
"""The events that give a value per seat (:meth:`TableState.uneven`)."""
_NAMED: dict[type, tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]]] = {}
"""Each event class's seat fields, tile fields and fields of tiles (of ``_SEAT_FIELDS``,
``_TILE_FIELDS``, ``_TILE_LIST_FIELDS``)."""


def _named(cls: type) -> tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]]:
    """The seat fields, tile fields and fields of tiles an event class has, looked up
    once per class."""
    found = _NAMED.get(cls)
    if found is None:
        names = {f.name for f in dataclasses.fields(cls)}
        found = _NAMED[cls] = (tuple(n for n in _SEAT_FIELDS if n in names),
                               tuple(n for n in _TILE_FIELDS if n in names),
                               tuple(n for n in _TILE_LIST_FIELDS if n in names))
    return found


_THREE_PLAYER_TILES: Final = 108
"""A three-player riichi table: no manzu from 2 to 8 (tile ids 4 to 31)."""


@cache
def tiles_here(size: TableSize | None, seats: int) -> bytes:
    """1 for each tile id at a table of ``size`` (the unknown tile's slot too): flowers only
    at a table that holds them, no manzu from 2 to 8 at a three-player table. A table of
    no stated size is the riichi table of its seats."""
    size = size or Ruleset(players=seats).table
    top = FIRST_FLOWER if size.tiles <= FIRST_FLOWER else UNKNOWN
    here = bytearray(b"\1" * top + bytes(UNKNOWN - top) + b"\1")
    if size.tiles == _THREE_PLAYER_TILES:
        here[4:32] = bytes(28)
    return bytes(here)


@cache
def _seen_at_deal(size: TableSize | None, seats: int) -> bytes:
    """:attr:`TableState.used` before the deal: the unknown tile's slot and every tile that
    is not at the table, so that drawing one never takes the fast path."""
    return bytes(1 - h for h in tiles_here(size, seats)[:UNKNOWN]) + b"\1"


def fresh_used() -> bytearray:
    """A round's record of tiles seen: none yet, but the unknown tile's slot."""
    used = bytearray(UNKNOWN + 1)
    used[UNKNOWN] = 1
    return used


class PlayerState:
    """One seat: concealed tiles, melds, river, riichi and kita."""

    __slots__ = ("called_away", "concealed", "flowers", "kita", "melds", "riichi_calls",
                 "riichi_index",
                 "river", "unknown")

    def __init__(self) -> None:
        self.concealed: set[int] = set()
        self.melds: list[Meld] = []
        """The call events (chi, pon, kans) in the order made; an added kan replaces its pon."""
        self.river: list[Discard] = []
        self.called_away: set[int] = set()
        """Indices into ``river`` of discards another player called."""
        self.riichi_index = -1
        """Index into ``river`` of the riichi declaration, -1 without riichi."""
        self.riichi_calls = -1
        """The table's ``calls`` when the player declared riichi, -1 without riichi."""
        self.kita: list[Tile] = []
        self.flowers: list[Tile] = []
        """Taiwanese: the flowers set aside, in order."""
        self.unknown = 0
        """Tiles in hand that the record does not name (partial records)."""

    @property
    def riichi(self) -> bool:
        """Whether the player has declared riichi this round."""
        return self.riichi_index >= 0


class TableState:
    """Everything on the table: seats, wall counts, indicators, scores, sticks and turn."""

    __slots__ = (
        "_size", "calls", "dealer", "dealing", "dora_indicators", "here", "honba", "kans",
        "kyotaku", "last_discard", "last_discarder", "live_wall", "n", "players",
        "round_number", "round_wind", "scores", "to_discard", "to_draw", "turn",
        "ura_indicators", "used",
    )

    def __init__(self, n: int) -> None:
        self.reset(n)

    def reset(self, n: int) -> None:
        """An empty table of ``n`` seats (a new game)."""
        self.n = n
        self.here = b""
        """:func:`tiles_here` of this table, set with :attr:`size`."""
        self.size = None
        self.players = [PlayerState() for _ in range(n)]
        self.round_wind = 0
        self.round_number = 1
        self.honba = 0
        self.kyotaku = 0
        self.dealer = 0
        self.scores: list[int] = [0] * n
        self.dora_indicators: list[Tile] = []
        self.ura_indicators: list[Tile] = []
        """Ura dora indicators, once a win has shown them."""
        self.live_wall = 0
        self.kans = 0
        self.calls = 0
        """Calls this round: chi, pon and every kan, and kita (what breaks ippatsu)."""
        self.used = fresh_used()
        """1 for every physical tile seen so far this round (dealt, drawn, indicator);
        the unknown tile's slot is always 1, and from a round's start (:meth:`new_round`)
        so are those of the tiles the table does not hold (:func:`tiles_here`), so that
        drawing one never takes the fast path."""
        self.turn = 0
        """Moves made this round (draws, discards and calls)."""
        self.to_draw = -1
        """Seat expected to draw next, -1 when nobody is."""
        self.to_discard = -1
        """Seat expected to discard next, -1 when nobody is."""
        self.last_discard = -1
        """The last discarded tile while it may still be called, else -1."""
        self.last_discarder = -1
        self.dealing = False
        """Taiwanese: the flower procedure after the deal is still on (until the dealer's
        first discard): anyone may set flowers aside, and the dealer discards next."""

    def new_round(self) -> None:
        """Clear everything that a round start resets (not scores)."""
        self.players = [PlayerState() for _ in range(self.n)]
        self.dora_indicators = []
        self.ura_indicators = []
        self.kans = 0
        self.calls = 0
        self.used = bytearray(_seen_at_deal(self.size, self.n))
        self.turn = 0
        self.to_draw = self.to_discard = self.last_discard = self.last_discarder = -1
        self.dealing = False

    @property
    def size(self) -> TableSize | None:
        """The table's size (tiles, dead wall, hand) from the game's ruleset; ``None``
        before a game start (a round then takes the riichi table of its seats). Setting
        it sets :attr:`here`, the tiles such a table holds."""
        return self._size

    @size.setter
    def size(self, size: TableSize | None) -> None:
        self._size = size
        self.here = tiles_here(size, self.n)

    # -- following a game

    def apply(self, ev: Event) -> None:
        """Change the table as ``ev`` does (a move also counts one turn). Never judges."""
        cls = ev.__class__
        if cls in MOVES:
            self.turn += 1
        handler = _APPLY.get(cls)
        if handler is not None:
            handler(self, ev)

    def uneven(self, ev: Event) -> str:
        """The field of ``ev`` that gives per-seat values (scores, deltas, hands, points)
        for another number of seats than the table's (a round start: than it deals
        hands), or ``""`` when none does; an empty tuple gives none."""
        if ev.__class__ not in _PER_SEAT:
            return ""
        n = len(ev.hands) if ev.__class__ is RoundStart else self.n
        for name in _PER_SEAT_FIELDS:
            v = getattr(ev, name, None)
            if v and isinstance(v, tuple) and len(v) != n:
                return name
        return ""

    def fits(self, ev: Event) -> bool:
        """Whether ``ev`` names only seats and tiles of this table (flowers only at a table
        that has them, the unknown tile anywhere) and gives per-seat
        values for each of its seats (:meth:`uneven`); a round start deals the table it
        names, its dealer among the seats."""
        n, here = self.n, self.here
        cls = ev.__class__
        if cls is Draw or cls is Discard:  # nine events in ten: a seat and a tile
            p, t = ev.player, ev.tile  # type: ignore[union-attr]
            return 0 <= p < n and 0 <= t <= UNKNOWN and here[t] == 1
        if ev.__class__ is RoundStart:
            n = len(ev.hands)
            here = tiles_here(self.size, n)
            dealt = [ev.dora_indicator, *(t for hand in ev.hands for t in hand)]
            if not 0 <= ev.dealer < n or not all(0 <= t <= UNKNOWN and here[t] for t in dealt):
                return False
        if cls in _PER_SEAT and self.uneven(ev):
            return False
        seat_fields, tile_fields, tile_lists = _named(cls)
        for name in seat_fields:
            v = getattr(ev, name)
            if v is not None and not 0 <= v < n:
                return False
        for name in tile_fields:
            t = getattr(ev, name)
            if not (0 <= t <= UNKNOWN and here[t]):
                return False
        return all(0 <= t <= UNKNOWN and here[t] for name in tile_lists
                   for t in getattr(ev, name))

    def game_start(self, ev: GameStart) -> None:
        """A new game: an empty table of its players, sized by its ruleset."""
        self.reset(len(ev.players))
        self.size = ev.ruleset.table

    def round_start(self, ev: RoundStart) -> None:
        """Deal a round: hands, scores, sticks, dealer, the first indicator, the live wall."""
        if ((ev.scores or not ev.results_only) and len(ev.scores) != self.n) \
                or len(ev.hands) != self.n:
            game_size = self.size
            self.reset(len(ev.hands))
            self.size = game_size
        self.new_round()
        self.round_wind, self.round_number, self.honba = ev.round_wind, ev.round_number, ev.honba
        self.kyotaku, self.dealer = ev.kyotaku, ev.dealer
        if ev.scores or not ev.results_only:  # a score sheet's round may carry them on
            self.scores = list(ev.scores)
        size = self.size or Ruleset(players=self.n).table
        self.live_wall = size.tiles - size.dead_wall - sum(map(len, ev.hands))
        used = self.used
        used[ev.dora_indicator] = 1
        for p, hand in enumerate(ev.hands):
            known = [t for t in hand if t != UNKNOWN] if UNKNOWN in hand else hand
            ps = self.players[p]
            ps.concealed = set(known)
            ps.unknown = len(hand) - len(known)
            for t in known:
                used[t] = 1
        if ev.dora_indicator != UNKNOWN:
            self.dora_indicators.append(ev.dora_indicator)
        self.to_draw = ev.dealer
        if len(ev.hands[ev.dealer]) == size.hand + 1:  # Taiwanese: the dealer holds 17
            self.to_draw, self.to_discard, self.dealing = -1, ev.dealer, True

    def draw(self, ev: Draw) -> None:
        """A tile from the wall into a hand (the turn is counted by the caller)."""
        p, t = ev.player, ev.tile
        self.live_wall -= 1
        if t == UNKNOWN:
            self.players[p].unknown += 1
        else:
            self.used[t] = 1
            self.players[p].concealed.add(t)
        self.to_draw = -1
        self.to_discard = self.dealer if self.dealing else p
        self.last_discard = -1

    def discard(self, ev: Discard) -> None:
        """A tile from a hand to its river (one not written down, from the unknown ones)."""
        p, t = ev.player, ev.tile
        self.dealing = False
        ps = self.players[p]
        if t in ps.concealed:
            ps.concealed.remove(t)
        elif ps.unknown > 0 and t != UNKNOWN:
            ps.unknown -= 1
            self.used[t] = 1
        if ev.riichi:
            ps.riichi_index = len(ps.river)
            ps.riichi_calls = self.calls
        ps.river.append(ev)
        self.to_discard = -1
        self.to_draw = (p + 1) % self.n
        self.last_discard = t
        self.last_discarder = p

    def takes_last_discard(self, ev: Chi | Pon | OpenKan) -> bool:
        """Whether a call takes the discard that may be called now, from its discarder."""
        return (ev.called == self.last_discard and ev.from_player == self.last_discarder
                and ev.player != ev.from_player)

    def missing(self, p: int, tiles: list[int]) -> tuple[list[int], bool]:
        """The tiles a hand does not hold, and whether they are among its unknown tiles."""
        ps = self.players[p]
        hand = ps.concealed
        missing = [t for t in tiles if t not in hand]
        return missing, bool(missing) and len(missing) <= ps.unknown and UNKNOWN not in missing

    def take_from_hand(self, p: int, tiles: list[int]) -> None:
        """Tiles leave a hand for a meld (named ones, or some of the unknown ones)."""
        missing, unnamed = self.missing(p, tiles)
        ps = self.players[p]
        if unnamed:
            ps.unknown -= len(missing)
            for t in missing:
                self.used[t] = 1
        ps.concealed.difference_update(tiles)

    def call(self, ev: Chi | Pon | OpenKan) -> None:
        """A chi, pon or open kan on the last discard."""
        p = ev.player
        self.calls += 1
        if self.takes_last_discard(ev):
            giver = self.players[ev.from_player]
            giver.called_away.add(len(giver.river) - 1)
        self.take_from_hand(p, [t for t in ev.tiles if t != ev.called])
        self.players[p].melds.append(ev)
        self.last_discard = -1
        self.to_draw = -1
        if isinstance(ev, OpenKan):
            self._after_kan(p)
        else:
            self.to_discard = p

    def _after_kan(self, p: int) -> None:
        self.kans += 1
        self.to_discard = -1
        self.to_draw = p

    def closed_kan(self, ev: ClosedKan) -> None:
        """Four concealed tiles set down as a kan; a replacement draw follows."""
        self.calls += 1
        self.take_from_hand(ev.player, list(ev.tiles))
        self.players[ev.player].melds.append(ev)
        self._after_kan(ev.player)

    def pon_of(self, p: int, added: int) -> int:
        """The index among ``p``'s melds of the pon an added kan of ``added`` joins, or -1."""
        kind = KIND_OF[added]
        return next((i for i, m in enumerate(self.players[p].melds)
                     if isinstance(m, Pon) and KIND_OF[m.called] == kind), -1)

    def added_kan(self, ev: AddedKan) -> None:
        """A tile added to a pon; it may be robbed (chankan) until the replacement draw."""
        p = ev.player
        self.calls += 1
        ps = self.players[p]
        i = self.pon_of(p, ev.added)
        if i >= 0:
            ps.melds[i] = ev
        else:
            ps.melds.append(ev)
        self.take_from_hand(p, [ev.added])
        self._after_kan(p)
        self.last_discard = ev.added
        self.last_discarder = p

    def kita(self, ev: Kita) -> None:
        """A north set aside (three-player); a replacement draw follows."""
        p = ev.player
        self.calls += 1
        self.take_from_hand(p, [ev.tile])
        self.players[p].kita.append(ev.tile)
        self.to_discard = -1
        self.to_draw = p

    def flower(self, ev: Flower) -> None:
        """A flower set aside (or taken from another who had set it aside)."""
        p = ev.player
        if ev.from_player is None:
            self.take_from_hand(p, [ev.tile])
        elif ev.tile in (held := self.players[ev.from_player].flowers):
            held.remove(ev.tile)
        self.players[p].flowers.append(ev.tile)
        self.to_discard = -1
        self.to_draw = p

    def riichi(self, ev: RiichiAccepted) -> None:
        """A riichi stick deposited."""
        self.scores[ev.player] -= 1000
        self.kyotaku += 1

    def dora(self, ev: DoraReveal) -> None:
        """A new dora indicator shown."""
        self.used[ev.indicator] = 1
        self.dora_indicators.append(ev.indicator)

    def pay(self, deltas: tuple[int, ...]) -> None:
        """A result's score changes."""
        scores = self.scores
        for p, d in enumerate(deltas[: self.n]):
            scores[p] += d

    def win(self, ev: Win) -> None:
        """A win: ura indicators shown, payments, the riichi sticks taken."""
        for t in ev.ura_indicators:
            if t not in self.ura_indicators:  # a double ron shows them twice
                self.used[t] = 1
                self.ura_indicators.append(t)
        self.pay(ev.deltas)
        self.kyotaku = 0
        self.to_draw = self.to_discard = -1

    def draw_result(self, ev: ExhaustiveDraw | AbortiveDraw) -> None:
        """An exhaustive or abortive draw: its payments."""
        self.pay(ev.deltas)
        self.to_draw = self.to_discard = -1


_APPLY: dict[type, Callable[[TableState, Any], None]] = {
    GameStart: TableState.game_start, RoundStart: TableState.round_start,
    Draw: TableState.draw, Discard: TableState.discard, Chi: TableState.call,
    Pon: TableState.call, OpenKan: TableState.call, ClosedKan: TableState.closed_kan,
    AddedKan: TableState.added_kan, Kita: TableState.kita, Flower: TableState.flower,
    RiichiAccepted: TableState.riichi, DoraReveal: TableState.dora, Win: TableState.win,
    ExhaustiveDraw: TableState.draw_result, AbortiveDraw: TableState.draw_result,
}
"""How each kind of event changes the table (the others change nothing)."""


def misfit(events: Iterable[Event]) -> tuple[int, str] | None:
    """The first event that names a seat or tile outside its game's table, as ``(index,
    reason)``, or ``None`` when every event fits; one before any game start fits no
    table, nor a call of a discard from the caller's own seat. A round start fits when it
    deals one hand and one score to each of the game's players and its dealer is one of
    them. Judges nothing else (the replay does)."""
    table = TableState(4)
    started = dealt = False
    for i, ev in enumerate(events):
        cls = ev.__class__
        if cls is GameStart:
            start = cast(GameStart, ev)
            table.game_start(start)
            started, dealt = True, False
            if start.ruleset.players != table.n:
                return i, f"names {table.n} players for a {start.ruleset.players}-player ruleset"
        elif not started:
            return i, "comes before the game's start"
        elif cls is RoundStart and len(cast(RoundStart, ev).hands) != table.n:
            return i, f"deals {len(cast(RoundStart, ev).hands)} hands at a table of {table.n}"
        elif cls in _IN_ROUND and not dealt:
            return i, "comes outside a round (no deal before it)"
        elif not table.fits(ev):
            return i, f"names a seat or tile outside a table of {table.n}"
        elif cls in _CALLS and ev.from_player == ev.player:  # type: ignore[union-attr]
            return i, "calls a tile from the caller's own seat"
        dealt = cls is RoundStart or (dealt and cls is not RoundEnd)
    return None


_CALLS = frozenset((Chi, Pon, OpenKan))
"""Calls of another player's discard."""
_IN_ROUND = frozenset((*MOVES, RiichiAccepted, ReadyDeclared, DoraReveal, Win, ExhaustiveDraw,
                       AbortiveDraw, Chombo, RoundEnd))
"""Events that belong to a dealt round."""

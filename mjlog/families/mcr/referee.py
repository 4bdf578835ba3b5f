"""The MCR referee: what the ``mcr`` checks and scorer share, kept once per game.

:class:`MCRReferee` runs before the checks of :mod:`mjlog.families.mcr.checks` and keeps
what they read:

* who has won on the last discard (or the tile of an added kong, which may be
  robbed: 抢杠和, MCR §6) so far (截和);
* each seat's wrong number of tiles (相公, MCR §11), once found;
* for the win being judged, its facts (:class:`~mjlog.families.mcr.fan.FanHand`, built
  from the table by :func:`fan_hand`) and its fans (:func:`~mjlog.families.mcr.fan.count_fan`),
  computed once for the checks and the scorer.

It judges nothing itself. MCR has no furiten: a player may pass a win and win
later on the same tile. Not judged by anyone: call priority (a record shows only
the call that was made).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from mjlog.core.events import (
    EVENT_TYPES,
    MOVES,
    AddedKan,
    Chi,
    ClosedKan,
    Draw,
    Event,
    Flower,
    GameStart,
    Meld,
    OpenKan,
    Pon,
    RoundStart,
    Win,
)
from mjlog.core.record import GameRecord
from mjlog.core.ruleset import Ruleset
from mjlog.core.tiles import KIND_OF, NUM_KINDS
from mjlog.families.check import Check, Referee
from mjlog.families.mcr.fan import FanCount, FanHand, FanLibraryMissing, FanMeld, count_fan
from mjlog.families.mcr.options import mcr_options
from mjlog.families.riichi.rules.evidence import hand_picture
from mjlog.replay.engine import Engine
from mjlog.replay.state import TableState

_KANS = (ClosedKan, OpenKan, AddedKan)


def fan_meld(m: Meld, p: int, n: int) -> FanMeld:
    """A call of player ``p`` (at a table of ``n``) as fan counting reads it."""
    if isinstance(m, Chi):
        first = min(KIND_OF[t] for t in m.tiles)
        return FanMeld("chow", first, False, KIND_OF[m.called] - first + 1)
    if isinstance(m, ClosedKan):
        return FanMeld("kong", KIND_OF[m.tiles[0]], True, 0)
    offer = (m.from_player - p) % n
    return FanMeld("pung" if isinstance(m, Pon) else "kong", KIND_OF[m.called], False, offer)


def in_sight(state: TableState, tile: int) -> int:
    """Copies of ``tile``'s kind in sight on the table, ``tile`` itself apart: discards not
    called away and the tiles of every meld shown (和绝张 counts them; a concealed kong
    lies face down)."""
    kind = KIND_OF[tile]
    seen = 0
    for ps in state.players:
        seen += sum(1 for i, d in enumerate(ps.river)
                    if i not in ps.called_away and KIND_OF[d.tile] == kind and d.tile != tile)
        seen += sum(1 for m in ps.melds if not isinstance(m, ClosedKan)
                    for t in m.tiles if KIND_OF[t] == kind and t != tile)
    return seen


def kong_replacement(events: Sequence[Event], index: int, w: int) -> bool:
    """Whether the tile drawn just before ``events[index]`` (a self-drawn win of ``w``) is
    the replacement of ``w``'s kong (杠上开花), flowers replaced on the way included."""
    i = index - 1
    while i >= 0:
        ev = events[i]
        if isinstance(ev, Draw) and ev.player == w and ev.rinshan:
            i -= 1
            continue
        if isinstance(ev, Flower) and ev.player == w:
            i -= 1
            continue
        return isinstance(ev, _KANS) and ev.player == w
    return False


def fan_hand(state: TableState, events: Sequence[Event], index: int,
             win: Win) -> FanHand | str:
    """The facts of ``win`` (``events[index]``) on ``state``, the table just before it:
    its concealed kinds without the winning tile, melds, winds, flowers and situation; or
    why the table cannot give them (tiles nobody wrote down, a flower in hand)."""
    w, tile = win.winner, win.win_tile
    n = state.n
    if not 0 <= w < n or KIND_OF[tile] >= NUM_KINDS:
        return "the winning tile is no tile of a hand"
    ps = state.players[w]
    if ps.unknown:
        return HIDDEN
    tsumo = win.from_player == w
    held = [t for t in ps.concealed if not (tsumo and t == tile)]
    if any(KIND_OF[t] >= NUM_KINDS for t in held):
        return "a flower is still in the hand"
    prev = events[index - 1] if index > 0 else None
    return FanHand(
        concealed=tuple(sorted(KIND_OF[t] for t in held)),
        melds=tuple(fan_meld(m, w, n) for m in ps.melds),
        win=KIND_OF[tile], self_drawn=tsumo, flowers=min(len(ps.flowers), 8),
        seat_wind=(w - state.dealer) % n, round_wind=state.round_wind % 4,
        last_copy=in_sight(state, tile) >= 3,
        kong_replacement=tsumo and kong_replacement(events, index, w),
        robbing_kong=not tsumo and isinstance(prev, AddedKan),
        last_tile=state.live_wall <= 0,
    )


def count_win(state: TableState, events: Sequence[Event], index: int,
              win: Win) -> FanCount | str:
    """The fans of ``win`` (:func:`fan_hand`, then :func:`~mjlog.families.mcr.fan.count_fan`), or
    why it is no win. Raises :class:`~mjlog.families.mcr.fan.FanLibraryMissing` without the
    fan library."""
    hand = fan_hand(state, events, index, win)
    return hand if isinstance(hand, str) else count_fan(hand)


HIDDEN = "the hand holds tiles nobody wrote down"
"""Why :func:`fan_hand` cannot give a hand whose tiles are not all known."""


@dataclass(slots=True)
class Seat:
    """The referee's memory of one MCR player in the current round."""

    miscount: str = ""
    """Why the hand holds a wrong number of tiles (相公), empty while it is right."""


class MCRReferee(Referee):
    """The shared memory of the MCR checks and scorer (module docstring)."""

    def __init__(self, record: GameRecord, ruleset: Ruleset, engine: Engine) -> None:
        super().__init__(record, ruleset, engine)
        self.seats: list[Seat] = []
        self.winners: list[int] = []
        """Who has won on the last discard (or added kong) so far, in record order."""
        self.count: FanCount | str | None = ""
        """The fans of the win being judged, or why it is no win; None when they cannot be
        counted (:attr:`uncounted` says why): such a win is not judged, never false."""
        self.uncounted = ""
        self.void = ""
        """Why the win being judged is a false win (错和), settled with the penalty; empty
        for a win that stands."""

    def picture(self, p: int) -> tuple[str, str]:
        """Evidence: the hand of player ``p`` on the table now."""
        return ("hand", hand_picture(self.engine.state.players[p], False))

    def valid(self) -> bool:
        """Whether the win being judged is a win that reaches the minimum fan."""
        c = self.count
        return isinstance(c, FanCount) and c.without_flowers >= mcr_options(self.rules).minimum_fan

    def _void(self, ev: Win) -> str:
        """Why ``ev`` is a false win: no win, too few fan, a concealed kong robbed."""
        count = self.count
        if isinstance(count, str):
            return count
        if count is not None and not self.valid():
            return f"{count.without_flowers} fan without the flowers"
        i = self.engine.index
        if ev.from_player != ev.winner and i > 0 and isinstance(self.events[i - 1], ClosedKan):
            return "a concealed kong robbed"
        return ""

    # -- hooks

    def before_game_start(self, ev: GameStart) -> None:
        self.seats = [Seat() for _ in ev.players]

    def before_round_start(self, ev: RoundStart) -> None:
        self.seats = [Seat() for _ in ev.hands]
        self.winners = []

    def _settle(self, ev: object) -> None:
        """A move: a new tile to win on, or none; nobody has won on it yet."""
        self.winners = []

    def before_win(self, ev: Win) -> None:
        self.winners.append(ev.winner)
        self.count, self.uncounted = self._count(ev)
        self.void = self._void(ev)

    def _count(self, ev: Win) -> tuple[FanCount | str | None, str]:
        """:func:`count_win` of ``ev``, or None and why the fans cannot be counted: tiles
        nobody wrote down, or no fan library installed."""
        try:
            count = count_win(self.engine.state, self.events, self.engine.index, ev)
        except FanLibraryMissing as missing:
            return None, str(missing)
        return (None, HIDDEN) if count == HIDDEN else (count, "")


for _tag, _cls in EVENT_TYPES.items():  # every move ends the chance to win on a tile
    if _cls in MOVES and not hasattr(MCRReferee, "before_" + _tag):
        setattr(MCRReferee, "before_" + _tag, MCRReferee._settle)


class MCRCheck(Check[MCRReferee]):
    """A check of the ``mcr`` family: its referee is an :class:`MCRReferee`."""

    FAMILY = "mcr"

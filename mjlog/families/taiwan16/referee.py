"""The Taiwanese referee: what the ``taiwan16`` checks and scoring share, kept once per game.

:class:`TaiwanReferee` runs before the checks of :mod:`mjlog.families.taiwan16.checks`
and keeps the round's memory they read (``docs/rules.md`` sections 3 and 4):

* **過水**: a player enters it on passing a win (a discard or an added kan
  that completes the hand and is not won on, a drawn tile that completes it
  and is not won with, the replacement of an open kan included); a discard
  from a hand that was not complete ends it, except the discard of the turn
  whose tsumo was passed; an added kan ends it, a closed kan does not. The
  memory names the passed win that started it.
* which hands are dead (暗相, 明相), set by the checks that kill a hand;
* the replacement chain of an open kan (T5), the flower a player robbed
  (七搶一), the tile others may still win on and the wins on it so far;
* for the win being judged, whether the hand is complete and whether it is a
  flower win, computed once for the checks and the scorer.

It judges nothing itself. Not judged by anyone: call priority (a record shows
only the call that was made).
"""

from __future__ import annotations

from dataclasses import dataclass

from mjlog.core.events import (
    EVENT_TYPES,
    AddedKan,
    ClosedKan,
    Discard,
    Draw,
    Flower,
    GameStart,
    OpenKan,
    RoundStart,
    Win,
)
from mjlog.core.record import GameRecord
from mjlog.core.ruleset import Ruleset
from mjlog.core.tiles import KIND_OF, NUM_KINDS, tile_str
from mjlog.families.check import Check, Referee, Rule
from mjlog.families.riichi.rules.evidence import hand_picture
from mjlog.families.taiwan16.hand import SeatWaits, is_win, kind_counts
from mjlog.replay.engine import Engine


@dataclass(slots=True)
class Seat:
    """The referee's memory of one Taiwanese player in the current round."""

    guo_shui: str = ""
    """The passed win that put the player in 過水 (evidence), empty when not in it."""
    passed_tsumo: bool = False
    """This turn's drawn tile completed the hand and was not won with."""
    dead: str = ""
    """Why the hand is dead (暗相/明相), empty when it is alive."""
    kan_chain: bool = False
    """Drawing replacements after an open kan (T5)."""
    robbed: int = -1
    """The seat this player took a flower from (七搶一), -1 when none."""
    robbed_tile: int = -1


class TaiwanReferee(Referee):
    """The shared memory of the Taiwanese checks and scorer (module docstring)."""

    def __init__(self, record: GameRecord, ruleset: Ruleset, engine: Engine) -> None:
        super().__init__(record, ruleset, engine)
        self.seats: list[Seat] = []
        self.pending: tuple[int, int, str, int] | None = None
        """A tile others may win on: (player, tile, ``discard``/``added kan``, turn)."""
        self.winners: set[int] = set()
        self.complete = False
        """Whether the hand of the win being judged is complete."""
        self.flower_win = ""
        """The win being judged as a flower win: ``eight``, ``rob`` (七搶一) or ``""``."""
        self.waits = SeatWaits(liguligu=ruleset.taiwan.liguligu, sixteen=ruleset.taiwan.sixteen)
        """Each seat's waits, once per hand it holds."""

    def picture(self, p: int) -> tuple[str, str]:
        """Evidence: the hand of player ``p`` on the table now."""
        return ("hand", hand_picture(self.engine.state.players[p], False))

    def furiten(self, p: int) -> str:
        """Seat ``p``'s dead hand or 過水 (a passed win), as the checks hold them now."""
        if not 0 <= p < len(self.seats):
            return ""
        seat = self.seats[p]
        if seat.dead:
            return f"dead hand: {seat.dead}"
        return f"過水: {seat.guo_shui}" if seat.guo_shui else ""  # "passed a win on …"

    def kill(self, rule: Rule, p: int, why: str, message: str,
             evidence: tuple[tuple[str, str], ...] = ()) -> None:
        """Make ``p``'s hand dead (暗相/明相) for breaking ``rule``, and report it."""
        seat = self.seats[p]
        if not seat.dead:
            seat.dead = why
        self.violation(rule, message, p, evidence=(*evidence, self.picture(p)),
                       consequence=f"the hand is dead ({why}): it may not win this round")

    def complete_with(self, p: int, extra: int = -1) -> bool:
        """Whether ``p``'s hand (with tile ``extra``) is a complete Taiwanese hand. With
        ``extra``, read from the hand's waits (:class:`mjlog.families.taiwan16.hand.SeatWaits`)."""
        ps = self.engine.state.players[p]
        if extra >= 0:
            return self.waits.completes(p, ps.concealed, len(ps.melds), extra, ps.unknown)
        if ps.unknown or any(KIND_OF[t] >= NUM_KINDS for t in ps.concealed):
            return False
        opts = self.rules.taiwan
        return is_win(kind_counts(ps.concealed), len(ps.melds),
                      liguligu=opts.liguligu, sixteen=opts.sixteen)

    def drew_complete(self, p: int, tile: int) -> bool:
        """:meth:`complete_with` of ``p``'s hand, which holds the ``tile`` just drawn: read
        from the waits of the hand before the draw, which settling the last discard has
        asked for already (the same answer: a tile completes a hand exactly when its kind is
        one of the hand's waits)."""
        ps = self.engine.state.players[p]
        return self.waits.completes(p, ps.concealed - {tile}, len(ps.melds), tile, ps.unknown)

    def _enter(self, p: int, what: str) -> None:
        seat = self.seats[p]
        if not seat.guo_shui and not seat.dead:
            seat.guo_shui = what

    # -- hooks

    def before_game_start(self, ev: GameStart) -> None:
        self.seats = [Seat() for _ in ev.players]

    def before_round_start(self, ev: RoundStart) -> None:
        self.seats = [Seat() for _ in ev.hands]
        self.pending = None

    def _settle(self, ev: object) -> None:
        """The tile others could win on was not won on: whoever it completes passed it."""
        if self.pending is None:
            return
        p, tile, what, turn = self.pending
        self.pending = None
        for q in range(self.engine.state.n):
            if q != p and q not in self.winners and self.complete_with(q, tile):
                self._enter(q, f"passed a win on {tile_str(tile, False)} ({what} by player "
                            f"{p}, turn {turn})")
        self.winners = set()

    def before_draw(self, ev: Draw) -> None:
        self._settle(ev)
        self.seats[ev.player].passed_tsumo = False

    def after_draw(self, ev: Draw) -> None:
        p = ev.player
        i = self.engine.index
        nxt = self.events[i + 1] if i + 1 < len(self.events) else None
        if (isinstance(nxt, Win) and nxt.winner == p) or self.engine.state.dealing:
            return  # nothing is passed during the flower procedure: 天胡 comes after it
        if KIND_OF[ev.tile] < NUM_KINDS and self.drew_complete(p, ev.tile):
            seat = self.seats[p]
            seat.passed_tsumo = True
            why = " (the replacement of an open kan, T5)" if seat.kan_chain else ""
            self._enter(p, f"passed a tsumo on {tile_str(ev.tile, False)}{why} "
                        f"(turn {self.engine.state.turn})")

    def before_discard(self, ev: Discard) -> None:
        self._settle(ev)
        p = ev.player
        seat = self.seats[p]
        if seat.guo_shui and not seat.passed_tsumo and not self.complete_with(p):
            seat.guo_shui = ""
        seat.passed_tsumo = False
        seat.kan_chain = False

    def after_discard(self, ev: Discard) -> None:
        self.pending = (ev.player, ev.tile, "discard", self.engine.state.turn)
        self.winners = set()

    def after_open_kan(self, ev: OpenKan) -> None:
        self.seats[ev.player].kan_chain = True

    def before_added_kan(self, ev: AddedKan) -> None:
        self._settle(ev)
        self.seats[ev.player].guo_shui = ""  # an added kan risks robbing, as a discard does

    def after_added_kan(self, ev: AddedKan) -> None:
        self.pending = (ev.player, ev.added, "added kan", self.engine.state.turn)
        self.winners = set()

    def before_closed_kan(self, ev: ClosedKan) -> None:
        self._settle(ev)
        self.seats[ev.player].passed_tsumo = False

    def before_flower(self, ev: Flower) -> None:
        self._settle(ev)
        if ev.from_player is not None:
            self.seats[ev.player].robbed = ev.from_player
            self.seats[ev.player].robbed_tile = ev.tile

    def before_win(self, ev: Win) -> None:
        w = ev.winner
        self.winners.add(w)
        tsumo = ev.from_player == w
        self.flower_win = ""
        if len(self.engine.state.players[w].flowers) == 8 and tsumo:
            self.flower_win = "rob" if self.seats[w].robbed >= 0 else "eight"
        self.complete = self.complete_with(w) if tsumo else self.complete_with(w, ev.win_tile)


for _tag in EVENT_TYPES:  # every other event also settles the tile others could win on
    if _tag != "win" and not hasattr(TaiwanReferee, "before_" + _tag):
        setattr(TaiwanReferee, "before_" + _tag, TaiwanReferee._settle)


class TaiwanCheck(Check[TaiwanReferee]):
    """A check of the ``taiwan16`` family: its referee is a :class:`TaiwanReferee`."""

    FAMILY = "taiwan16"

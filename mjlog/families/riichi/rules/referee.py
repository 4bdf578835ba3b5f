"""The riichi referee: what the riichi checks share, kept once per game.

:class:`RiichiReferee` runs before the checks of :mod:`mjlog.families.riichi.rules` on every
event and keeps the round's memory they read: each player's waits after
their last discard, the kinds they have discarded, furiten from a passed
winning tile (temporary and riichi), the last tile drawn, the call just made,
the kans made, whether the next draw must come from the dead wall, the tile
others may still ron and the rons on it so far. It judges nothing itself.

Waits are counted when asked for, once per hand: a player's hand is kept as
it was after each discard, and the tiles the others pass are kept in one list
for the round. Temporary furiten matters only for a ron before the player's
next discard, whose hand is the one kept, so it is found by going through the
tiles passed since then when a check asks (:meth:`RiichiReferee.passed`).
Only a player in riichi has each tile passed judged at once, its furiten
lasting the round. Counting every player's waits after every discard instead
was two thirds of the referee's time.

Hands the record does not fully name (partial records) get no waits. The
referee and its checks judge rules only; inconsistencies are the engine's
findings and values are the score verifier's.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from mjlog.core.diagnostics import Violation
from mjlog.core.events import (
    AddedKan,
    Chi,
    ClosedKan,
    Discard,
    Draw,
    ExhaustiveDraw,
    GameEnd,
    GameStart,
    Kita,
    OpenKan,
    Pon,
    RoundStart,
    Win,
)
from mjlog.core.record import GameRecord
from mjlog.core.ruleset import Ruleset
from mjlog.core.tiles import KIND_OF, NUM_KINDS, UNKNOWN, tile_str, tiles_str
from mjlog.families.check import Check, Referee, Rule
from mjlog.families.riichi.hand.shape import counts_of, waits
from mjlog.families.riichi.rules.evidence import consequence, hand_picture, kinds_text
from mjlog.families.riichi.scoring.verify import WinValues
from mjlog.replay.engine import Engine
from mjlog.replay.state import PlayerState


@dataclass(slots=True)
class Seat:
    """The referee's memory of one player in the current round."""

    hand: tuple[int, ...] = ()
    """The concealed tiles after the player's last discard (the tiles dealt before it)."""
    melds: int = 0
    """The player's called and kanned sets then."""
    waits: int = -1
    """Winning kinds (mask) of ``hand`` once counted (:meth:`RiichiReferee.waits`), -1
    until then."""
    waits_held: bool = False
    """Whether the hand is still ``hand``, but for a draw not yet discarded (no call, kan
    or kita since): throwing that draw keeps it."""
    since: int = -1
    """Where the tiles passed since the player's last discard (or the deal) start in
    :attr:`RiichiReferee.passes` (-1 before the round: none counts)."""
    river_kinds: int = 0
    """Kinds the player has discarded this round (mask)."""
    riichi_furiten: str = ""
    """Riichi furiten: the winning tile passed after riichi (evidence)."""
    last_draw: int = -1
    just_called: Chi | Pon | None = None
    """The chi or pon just made, until the discard that must follow it."""


class RiichiReferee(Referee):
    """The shared memory of the riichi checks, kept by its own hooks (module docstring)."""

    def __init__(self, record: GameRecord, ruleset: Ruleset, engine: Engine,
                 values: WinValues | None = None) -> None:
        super().__init__(record, ruleset, engine)
        self.values = values or WinValues(ruleset)
        """Each win's situation and value (shared with score verification)."""
        self.seats: list[Seat] = []
        self.pending: tuple[int, int, str] | None = None
        """A tile others may still ron: (player, tile, what) until the next move."""
        self.passes: list[tuple[int, int, str, int]] = []
        """The tiles passed this round, in order: (player, tile, what, turn)."""
        self.in_riichi: list[int] = []
        """The players who have declared riichi this round, as they declared."""
        self.kan_players: list[int] = []
        self.rinshan_due = -1
        """The player whose next draw must come from the dead wall, -1 when nobody."""
        self.rinshan_before = -1
        """:attr:`rinshan_due` as it was before the draw being made (for its checks)."""
        self.wins_in_row: list[int] = []
        """The rons on the tile just discarded, in order."""
        self.held: list[Violation] = []
        """Faults only a concealed hand shows, held this round until the hand is revealed
        (``hidden_faults=when-revealed``; :meth:`hold`)."""
        self.round_start = -1

    def consequence(self, rule: Rule, player: int | None) -> str:
        """Chombo and its payment, or no penalty
        (:func:`mjlog.families.riichi.rules.evidence.consequence`)."""
        return consequence(rule, self.rules, player, self.engine.state)

    def t(self, tile: int) -> str:
        """A tile in mpsz, red fives as the ruleset has them."""
        return tile_str(tile, self.rules.red_fives)

    def picture(self, p: int) -> tuple[str, str]:
        """Evidence: the hand of player ``p`` on the table now."""
        return ("hand", hand_picture(self.engine.state.players[p], self.rules.red_fives))

    def furiten(self, p: int) -> str:
        """Furiten of seat ``p`` as the furiten check would judge a ron now: a wait it has
        discarded, a winning tile passed in riichi, or one passed since its last discard
        (the waits are those of its hand after its last discard, or as dealt)."""
        if not 0 <= p < len(self.seats):
            return ""
        seat = self.seats[p]
        own = self.waits(p) & seat.river_kinds
        if own:
            return f"furiten: waits on {kinds_text(own)}, discarded"
        if seat.riichi_furiten:
            return f"riichi furiten: passed {seat.riichi_furiten}"
        passed = self.passed(p)
        return f"temporary furiten: passed {passed}" if passed else ""

    def waits(self, p: int) -> int:
        """The winning kinds (mask) of player ``p``'s hand after its last discard (or as
        dealt), counted the first time they are asked for (0 for a hand not fully written
        down)."""
        seat = self.seats[p]
        if seat.waits < 0:
            seat.waits = _waits_of(seat.hand, seat.melds)
        return seat.waits

    def passed(self, p: int) -> str:
        """Temporary furiten of player ``p``: the first winning tile the others passed since
        its last discard or the deal (evidence), or ""."""
        seat = self.seats[p]
        w = self.waits(p) if seat.since >= 0 else 0
        if w:
            for q, tile, what, turn in self.passes[seat.since:]:
                if q != p and w >> KIND_OF[tile] & 1:
                    return self._passed_note(q, tile, what, turn)
        return ""

    def _passed_note(self, p: int, tile: int, what: str, turn: int) -> str:
        """A tile passed, as furiten evidence: ``5m (discard of player 2, turn 14)``."""
        return f"{self.t(tile)} ({what} of player {p}, turn {turn})"

    # -- faults a concealed hand hides

    def hold(self, found: Violation) -> bool:
        """Under ``hidden_faults=when-revealed``, keep the fault until its player's hand
        is shown (:meth:`reveal`); at the round's end without that, it is dropped with a
        note (:meth:`unrevealed`)."""
        if self.rules.riichi.hidden_faults != "when-revealed" or found.player is None:
            return False
        self.held.append(found)
        return True

    def reveal(self, players: Iterable[int]) -> None:
        """The held faults of ``players``, whose hands are now shown, become violations."""
        shown = set(players)
        self.violations.extend(v for v in self.held if v.player in shown)
        self.held = [v for v in self.held if v.player not in shown]

    def unrevealed(self) -> None:
        """The round ended with faults whose hands were never shown: a note each, never a
        violation (nobody could see them at the table)."""
        for v in self.held:
            self.engine.note("unjudged", f"{v.code} not judged: the hand was never revealed "
                             f"(hidden_faults=when-revealed): {v.message}", v.player)
        self.held = []

    # -- the round

    def before_game_start(self, ev: GameStart) -> None:
        self.seats = [Seat() for _ in ev.players]

    def before_game_end(self, ev: GameEnd) -> None:
        self.unrevealed()

    def before_round_start(self, ev: RoundStart) -> None:
        self.unrevealed()
        self.seats = [Seat(hand=tuple(hand), since=0) for hand in ev.hands]
        self.pending = None
        self.passes = []
        self.in_riichi = []
        self.kan_players = []
        self.rinshan_due = -1
        self.wins_in_row = []
        self.round_start = self.engine.index

    def _settle(self, ev: object) -> None:
        """The tile others could ron was not ronned: whoever waits on it passed it."""
        pend = self.pending
        if pend is None:
            return
        self.pending = None
        p, tile, what = pend
        turn = self.engine.state.turn
        self.passes.append((p, tile, what, turn))
        for q in self.in_riichi:  # riichi furiten is judged at once
            seat = self.seats[q]
            if q != p and not seat.riichi_furiten and self.waits(q) >> KIND_OF[tile] & 1:
                seat.riichi_furiten = self._passed_note(p, tile, what, turn)

    before_chi = before_pon = before_open_kan = before_kita = _settle

    def before_draw(self, ev: Draw) -> None:
        """The tile passed is settled, and the draw is the player's last; what was due
        from the dead wall is kept in :attr:`rinshan_before` for the draw's checks (one
        hook on a draw, not one before it and one after: nine events in ten are moves)."""
        self._settle(ev)
        self.rinshan_before, self.rinshan_due = self.rinshan_due, -1
        self.seats[ev.player].last_draw = ev.tile

    def before_win(self, ev: Win) -> None:
        if ev.from_player != ev.winner:
            self.wins_in_row.append(ev.winner)
        if self.held:
            self.reveal((ev.winner,))

    def before_exhaustive_draw(self, ev: ExhaustiveDraw) -> None:
        """The tile passed is settled; the hands shown, and those of players in riichi
        (who must show theirs), reveal their held faults."""
        self._settle(ev)
        if self.held:
            self.reveal([*self.in_riichi, *(p for p, h in enumerate(ev.hands)
                                             if h is not None)])

    # -- after the moves

    def after_discard(self, ev: Discard) -> None:
        p = ev.player
        seat = self.seats[p]
        if seat.just_called is not None:
            seat.last_draw = -1
        seat.since = len(self.passes)
        seat.just_called = None
        if ev.riichi and p not in self.in_riichi:
            self.in_riichi.append(p)
        seat.river_kinds |= 1 << KIND_OF[ev.tile]
        if not (seat.waits_held and ev.tile == seat.last_draw):  # else the same hand as before
            ps = self.engine.state.players[p]
            seat.hand = (UNKNOWN,) if ps.unknown else tuple(ps.concealed)
            seat.melds = len(ps.melds)
            seat.waits = -1
            seat.waits_held = True
        self.pending = (p, ev.tile, "discard")

    def after_chi(self, ev: Chi | Pon) -> None:
        seat = self.seats[ev.player]
        seat.just_called = ev
        seat.waits_held = False

    after_pon = after_chi

    def _after_kan(self, ev: OpenKan | AddedKan | ClosedKan) -> None:
        self.seats[ev.player].waits_held = False
        self.kan_players.append(ev.player)
        self.rinshan_due = ev.player if len(self.kan_players) != 5 else -1  # a fifth ends it

    after_open_kan = after_closed_kan = _after_kan

    def after_added_kan(self, ev: AddedKan) -> None:
        self._after_kan(ev)
        self.pending = (ev.player, ev.added, "added kan")

    def after_kita(self, ev: Kita) -> None:
        self.seats[ev.player].waits_held = False
        self.rinshan_due = ev.player
        self.pending = (ev.player, ev.tile, "kita")


def counts(ps: PlayerState, without: int = -1) -> list[int] | None:
    """Kind counts of a player's concealed tiles, leaving out the physical tile ``without``;
    ``None`` for a hand that holds a tile riichi has not (a flower)."""
    kinds = [KIND_OF[t] for t in ps.concealed if t != without]
    return None if kinds and max(kinds) >= NUM_KINDS else counts_of(kinds)


def _waits_of(hand: Iterable[int], melds: int) -> int:
    """The winning kinds (mask) of concealed tiles with ``melds`` called sets (0 for a hand
    holding a tile nobody wrote down or one riichi has not, a flower)."""
    kinds = [KIND_OF[t] for t in hand]
    return 0 if not kinds or max(kinds) >= NUM_KINDS else waits(counts_of(kinds), melds)


def hand_waits(ps: PlayerState, without: int = -1) -> int:
    """The winning kinds (mask) of a hand now, leaving out the tile ``without`` (0 for a
    hand not fully written down, or holding a flower)."""
    if ps.unknown:
        return 0
    return _waits_of((t for t in ps.concealed if t != without), len(ps.melds))


def meld_text(call: Chi | Pon | OpenKan | AddedKan | ClosedKan, red: bool) -> str:
    """A call as evidence: ``pon 555z``."""
    return f"{call.TYPE} {tiles_str(call.tiles, red)}"


class RiichiCheck(Check[RiichiReferee]):
    """A check of the riichi family: its referee is a :class:`RiichiReferee`."""

    FAMILY = "riichi"

"""The replay engine: applies events to a :class:`TableState` and reports inconsistencies.

Every event is judged first (each problem becomes a :class:`Finding`) and
then applied as well as it can be, so one bad event never stops the replay
or hides the problems after it. The engine checks that a record is
consistent with itself and with the physical table: turn order, tiles in
hand, each physical tile used once, the wall, and that the points balance
from round to round. It does not check rules that vary between rulesets
(kan after riichi, furiten …) nor recompute hand values.

Finding codes (all of severity ``error``):

=========================  ===================================================
``discard-not-in-hand``    a discarded tile is not among the player's tiles
``call-not-in-hand``       tiles a call uses from hand are not there
``call-not-last-discard``  a chi, pon or open kan takes a tile that is not
                           the last discard, or from the wrong player
``out-of-turn``            a draw, discard, call or 天聽 declaration when
                           it is not that player's move
``tile-reused``            one physical tile is dealt, drawn or shown twice
``wall-exhausted``         a draw when the live wall is empty
``win-hand-mismatch``      the winning hand in the record is not the hand
                           the replay holds
``start-scores-mismatch``  a round starts with other scores than the last
                           ended with
``kyotaku-mismatch``       a round starts with other riichi sticks than the
                           table holds
``riichi-scores-mismatch`` scores recorded after a riichi deposit differ
``result-scores-mismatch`` a result's scores before payment differ from the
                           table's
``deltas-unbalanced``      a result's deltas do not add up to the riichi
                           sticks collected
``round-end-scores-mismatch``  recorded scores after a round differ
``final-scores-mismatch``  the game's final scores differ from the replay's
``unreplayable-event``     an event that cannot apply to this table at all
                           (a seat or tile id outside it)
=========================  ===================================================
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from mjlog.diagnostics import Finding, Severity, Src
from mjlog.events import (
    AbortiveDraw,
    AddedKan,
    Chi,
    ClosedKan,
    Comment,
    Discard,
    Disconnect,
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
    Reconnect,
    RiichiAccepted,
    RoundEnd,
    RoundStart,
    Unknown,
    Win,
    round_label,
)
from mjlog.record import GameRecord
from mjlog.replay.state import TableState
from mjlog.ruleset import Ruleset
from mjlog.tiles import KIND_OF, UNKNOWN, tile_str, tiles_str

Handler = Callable[[Any], None]


class Engine:
    """Replays one game's events, keeping the table and the findings.

    Feed events in order with :meth:`apply`; read :attr:`state` between them.
    ``src_of`` maps an event's index to its source position for findings.
    """

    def __init__(self, src_of: Callable[[int], Src | None] | None = None) -> None:
        self.state = TableState(4)
        self.findings: list[Finding] = []
        self.game: GameStart | None = None
        self.red_fives = True
        self.rounds = 0
        self.index = -1
        self._src_of = src_of
        self._sticks_collected = False
        self._round_ended = True
        self._end_scores: list[int] | None = None
        self._partial_draws: set[int] = set()
        self._handlers: dict[type, Handler] = {
            GameStart: self._game_start, RoundStart: self._round_start, Draw: self._draw,
            Discard: self._discard, Chi: self._chi_pon, Pon: self._chi_pon,
            OpenKan: self._open_kan, AddedKan: self._added_kan, ClosedKan: self._closed_kan,
            Kita: self._kita, Flower: self._flower, RiichiAccepted: self._riichi,
            ReadyDeclared: self._ready, DoraReveal: self._dora,
            Win: self._win, ExhaustiveDraw: self._draw_result, AbortiveDraw: self._draw_result,
            RoundEnd: self._round_end, GameEnd: self._game_end, Disconnect: _ignore,
            Reconnect: _ignore, Comment: _ignore, Unknown: _ignore,
        }

    # -- driving

    def apply(self, ev: Event, index: int = -1) -> None:
        """Judge and apply one event; ``index`` is its position in the record."""
        self.index = index
        self._handle(ev)

    def _handle(self, ev: Event) -> None:
        try:
            self._handlers[ev.__class__](ev)
        except (IndexError, KeyError, ValueError, TypeError) as exc:
            # e.g. a seat or tile id outside the table in a hand-made record
            self.find("unreplayable-event", f"{ev.TYPE} cannot be applied to this table: {exc!r}")

    def run(self, events: list[Event], start: int = 0, stop: int | None = None,
            pause: frozenset[type] = frozenset()) -> int:
        """Apply ``events[start:stop]`` in order; return the index after the last applied.

        With ``pause``, stops *before* the first event of one of those classes
        and returns its index, so a caller can look at the table just before
        it (and then :meth:`apply` it). Draws and discards that need no
        finding are applied inline (they are nine events in ten); everything
        else goes through its handler. Draws and discards cannot pause.
        """
        end = len(events) if stop is None else stop
        # The fast path keeps the turn in locals; they go back to the state before any
        # handler runs and whenever this returns, and are read again after a handler.
        s = self.state
        used, n = s.used, s.n
        hands = [ps.concealed for ps in s.players]
        rivers = [ps.river for ps in s.players]
        turn, to_draw, to_discard, live = s.turn, s.to_draw, s.to_discard, s.live_wall
        last_discard, last_discarder, dealing = s.last_discard, s.last_discarder, s.dealing
        for i in range(start, end):
            ev = events[i]
            cls = ev.__class__
            if cls is Draw:
                p, t = ev.player, ev.tile  # type: ignore[union-attr]
                if to_draw == p and not used[t] and live > 0 and not dealing:
                    turn += 1
                    used[t] = 1
                    live -= 1
                    hands[p].add(t)
                    to_draw = -1
                    to_discard = p
                    last_discard = -1
                    continue
            elif cls is Discard:
                p, t = ev.player, ev.tile  # type: ignore[union-attr]
                if to_discard == p and t in hands[p] and not ev.riichi:  # type: ignore[union-attr]
                    turn += 1
                    hands[p].remove(t)
                    rivers[p].append(ev)  # type: ignore[arg-type]
                    to_discard = -1
                    to_draw = (p + 1) % n
                    last_discard = t
                    last_discarder = p
                    continue
            s.turn, s.to_draw, s.to_discard, s.live_wall = turn, to_draw, to_discard, live
            s.last_discard, s.last_discarder = last_discard, last_discarder
            if cls in pause:
                return i
            self.index = i
            self._handle(ev)
            s = self.state
            if cls is RoundStart or cls is GameStart:  # these replace the seats or the table
                used, n = s.used, s.n
                hands = [ps.concealed for ps in s.players]
                rivers = [ps.river for ps in s.players]
            turn, to_draw, to_discard, live = s.turn, s.to_draw, s.to_discard, s.live_wall
            last_discard, last_discarder, dealing = s.last_discard, s.last_discarder, s.dealing
        s.turn, s.to_draw, s.to_discard, s.live_wall = turn, to_draw, to_discard, live
        s.last_discard, s.last_discarder = last_discard, last_discarder
        return end

    def steps(self, events: list[Event]) -> Iterator[int]:
        """Apply events one by one, yielding each index after it is applied."""
        for i, ev in enumerate(events):
            self.apply(ev, i)
            yield i

    @property
    def round(self) -> str:
        """Label of the current round (``E1-0``), empty before the first."""
        s = self.state
        return round_label(s.round_wind, s.round_number, s.honba) if self.rounds else ""

    def find(self, code: str, message: str, player: int | None = None,
             severity: Severity = Severity.ERROR) -> None:
        """Record a finding at the current event."""
        self.findings.append(Finding(
            code=code, message=message, severity=severity, round=self.round,
            turn=self.state.turn, player=player,
            src=self._src_of(self.index) if self._src_of else None,
        ))

    def note(self, code: str, message: str, player: int | None = None) -> None:
        """Record a note (severity info): something the replay could not check."""
        self.find(code, message, player, Severity.INFO)

    def _t(self, tile: int) -> str:
        return tile_str(tile, self.red_fives)

    # -- game and round

    def _game_start(self, ev: GameStart) -> None:
        self.game = ev
        self.red_fives = ev.ruleset.red_fives
        self.state = TableState(len(ev.players))

    def _round_start(self, ev: RoundStart) -> None:
        s = self.state
        if len(ev.scores) != s.n or len(ev.hands) != s.n:
            s = self.state = TableState(len(ev.hands))
        sticks_held = s.kyotaku
        self.rounds += 1
        s.new_round()
        s.round_wind, s.round_number, s.honba = ev.round_wind, ev.round_number, ev.honba
        if self._end_scores is not None and list(ev.scores) != self._end_scores:
            self.find("start-scores-mismatch",
                      f"round starts with scores {list(ev.scores)}, the last round ended "
                      f"with {self._end_scores}")
        if self.rounds > 1 and self._round_ended and ev.kyotaku != sticks_held:
            self.find("kyotaku-mismatch",
                      f"round starts with {ev.kyotaku} riichi sticks, the table holds "
                      f"{sticks_held}")
        s.kyotaku, s.dealer, s.scores = ev.kyotaku, ev.dealer, list(ev.scores)
        size = (self.game.ruleset if self.game is not None else Ruleset(players=s.n)).table
        s.live_wall = size.tiles - size.dead_wall - sum(map(len, ev.hands))
        dealt = [ev.dora_indicator]
        for p, hand in enumerate(ev.hands):
            known = [t for t in hand if t != UNKNOWN] if UNKNOWN in hand else hand
            ps = s.players[p]
            ps.concealed = set(known)
            ps.unknown = len(hand) - len(known)
            if ps.unknown:
                self.note("partial-record", f"{ps.unknown} of player {p}'s dealt tiles are not "
                          "written down: tile checks cover the tiles named", p)
            dealt.extend(known)
        if len(set(dealt)) == len(dealt):
            used = s.used
            for t in dealt:
                used[t] = 1
        else:  # some tile is dealt twice: mark one by one to report each
            for t in dealt:
                self._mark(t)
        if ev.dora_indicator != UNKNOWN:
            s.dora_indicators.append(ev.dora_indicator)
        s.to_draw = ev.dealer
        if len(ev.hands[ev.dealer]) == size.hand + 1:  # Taiwanese: the dealer holds 17
            s.to_draw, s.to_discard, s.dealing = -1, ev.dealer, True
        self._sticks_collected = False
        self._round_ended = False
        self._end_scores = None
        self._partial_draws = set()

    def _mark(self, tile: int, player: int | None = None) -> None:
        used = self.state.used
        if used[tile]:
            self.find("tile-reused", f"physical tile {self._t(tile)} (id {tile}) appears twice",
                      player)
        used[tile] = 1

    # -- moves

    def _draw(self, ev: Draw) -> None:
        s = self.state
        p = ev.player
        s.turn += 1
        if s.to_draw != p:
            self.find("out-of-turn", f"player {p} draws, but it is not their draw", p)
        t = ev.tile
        s.live_wall -= 1
        if s.live_wall < 0:
            self.find("wall-exhausted", "a draw from an empty live wall", p)
        if t == UNKNOWN:  # a draw nobody wrote down
            s.players[p].unknown += 1
            if p not in self._partial_draws:
                self._partial_draws.add(p)
                self.note("partial-record", f"player {p}'s draws are not all written down: "
                          "tile checks cover the tiles named", p)
        else:
            if s.used[t]:
                self._mark(t, p)
            s.used[t] = 1
            s.players[p].concealed.add(t)
        s.to_draw = -1
        s.to_discard = s.dealer if s.dealing else p
        s.last_discard = -1

    def _discard(self, ev: Discard) -> None:
        s = self.state
        p = ev.player
        s.turn += 1
        if s.to_discard != p:
            self.find("out-of-turn", f"player {p} discards, but it is not their discard", p)
        s.dealing = False
        ps = s.players[p]
        t = ev.tile
        try:
            ps.concealed.remove(t)
        except KeyError:
            if ps.unknown > 0 and t != UNKNOWN:  # one of the tiles not written down
                ps.unknown -= 1
                self._mark(t, p)
            else:
                self.find("discard-not-in-hand",
                          f"discards {self._t(t)} (id {t}), which is not in hand "
                          f"{tiles_str(ps.concealed, self.red_fives)}", p)
        if ev.riichi:
            ps.riichi_index = len(ps.river)
            ps.riichi_calls = s.calls
        ps.river.append(ev)
        s.to_discard = -1
        s.to_draw = (p + 1) % s.n
        s.last_discard = t
        s.last_discarder = p

    def _take_discard(self, ev: Chi | Pon | OpenKan) -> None:
        s = self.state
        p = ev.player
        s.turn += 1
        s.calls += 1
        if ev.called != s.last_discard or ev.from_player != s.last_discarder or p == ev.from_player:
            last = self._t(s.last_discard) if s.last_discard >= 0 else "nothing"
            self.find("call-not-last-discard",
                      f"{ev.TYPE} takes {self._t(ev.called)} from player {ev.from_player}; "
                      f"the last discard is {last} by player {s.last_discarder}", p)
        else:
            giver = s.players[ev.from_player]
            giver.called_away.add(len(giver.river) - 1)
        self._take_from_hand(p, [t for t in ev.tiles if t != ev.called], ev.TYPE)
        s.players[p].melds.append(ev)
        s.last_discard = -1
        s.to_draw = -1

    def _take_from_hand(self, p: int, tiles: list[int], what: str) -> None:
        ps = self.state.players[p]
        hand = ps.concealed
        missing = [t for t in tiles if t not in hand]
        if missing and len(missing) <= ps.unknown and UNKNOWN not in missing:
            ps.unknown -= len(missing)  # tiles the record did not name
            for t in missing:
                self._mark(t, p)
            missing = []
        if missing:
            self.find("call-not-in-hand",
                      f"{what} uses {tiles_str(missing, self.red_fives)} (ids "
                      f"{', '.join(map(str, missing))}), not in hand "
                      f"{tiles_str(hand, self.red_fives)}", p)
        hand.difference_update(tiles)

    def _chi_pon(self, ev: Chi | Pon) -> None:
        self._take_discard(ev)
        self.state.to_discard = ev.player

    def _open_kan(self, ev: OpenKan) -> None:
        self._take_discard(ev)
        self._after_kan(ev.player)

    def _after_kan(self, p: int) -> None:
        s = self.state
        s.kans += 1
        s.to_discard = -1
        s.to_draw = p

    def _own_turn_call(self, p: int, what: str) -> None:
        s = self.state
        s.turn += 1
        s.calls += 1
        if s.to_discard != p:
            self.find("out-of-turn", f"player {p} declares {what} when it is not their turn", p)

    def _closed_kan(self, ev: ClosedKan) -> None:
        p = ev.player
        self._own_turn_call(p, "a closed kan")
        self._take_from_hand(p, list(ev.tiles), "closed kan")
        self.state.players[p].melds.append(ev)
        self._after_kan(p)

    def _added_kan(self, ev: AddedKan) -> None:
        p = ev.player
        self._own_turn_call(p, "an added kan")
        ps = self.state.players[p]
        kind = KIND_OF[ev.added]
        for i, m in enumerate(ps.melds):
            if isinstance(m, Pon) and KIND_OF[m.called] == kind:
                ps.melds[i] = ev
                break
        else:
            self.find("call-not-in-hand", f"added kan of {self._t(ev.added)} without a pon", p)
            ps.melds.append(ev)
        self._take_from_hand(p, [ev.added], "added kan")
        self._after_kan(p)
        self.state.last_discard = ev.added  # may be robbed (chankan)
        self.state.last_discarder = p

    def _kita(self, ev: Kita) -> None:
        p = ev.player
        self._own_turn_call(p, "kita")
        self._take_from_hand(p, [ev.tile], "kita")
        s = self.state
        s.players[p].kita.append(ev.tile)
        s.to_discard = -1
        s.to_draw = p

    def _flower(self, ev: Flower) -> None:
        p = ev.player
        s = self.state
        s.turn += 1
        if not s.dealing and s.to_discard != p and ev.from_player is None:
            self.find("out-of-turn", f"player {p} sets a flower aside when it is not their "
                      "turn", p)
        if ev.from_player is None:
            self._take_from_hand(p, [ev.tile], "setting a flower aside")
        else:
            held = s.players[ev.from_player].flowers
            if ev.tile in held:
                held.remove(ev.tile)
            else:
                self.find("call-not-in-hand", f"takes flower {self._t(ev.tile)} from player "
                          f"{ev.from_player}, who has not set it aside", p)
        s.players[p].flowers.append(ev.tile)
        s.to_discard = -1
        s.to_draw = p

    def _ready(self, ev: ReadyDeclared) -> None:
        s = self.state
        if not s.dealing or ev.player == s.dealer:
            self.find("out-of-turn", f"player {ev.player} declares 天聽, which only a player "
                      "other than the dealer may, before the dealer's first discard", ev.player)

    def _riichi(self, ev: RiichiAccepted) -> None:
        s = self.state
        s.scores[ev.player] -= 1000
        s.kyotaku += 1
        if ev.scores is not None and list(ev.scores) != s.scores:
            self.find("riichi-scores-mismatch",
                      f"scores after the riichi deposit are recorded as {list(ev.scores)}, "
                      f"the table has {s.scores}", ev.player)

    def _dora(self, ev: DoraReveal) -> None:
        self._mark(ev.indicator)
        self.state.dora_indicators.append(ev.indicator)

    # -- results

    def _check_payment(self, before: tuple[int, ...] | None, deltas: tuple[int, ...],
                       collected: int) -> None:
        s = self.state
        if before is not None and list(before) != s.scores:
            self.find("result-scores-mismatch",
                      f"scores before payment are recorded as {list(before)}, the table has "
                      f"{s.scores}")
        if deltas:
            if len(deltas) != s.n or sum(deltas) != collected:
                self.find("deltas-unbalanced",
                          f"deltas {list(deltas)} add up to {sum(deltas)}, expected {collected} "
                          "(riichi sticks collected)")
            for p, d in enumerate(deltas[: s.n]):
                s.scores[p] += d

    def _win(self, ev: Win) -> None:
        s = self.state
        w = ev.winner
        ps = s.players[w]
        hand = set(ps.concealed)
        if ev.from_player != w:
            hand.add(ev.win_tile)
        if ps.unknown:  # the record's hand must hold the known tiles and name the rest
            named = set(ev.hand) - hand
            ok = hand <= set(ev.hand) and len(named) == ps.unknown and UNKNOWN not in named
            if ok:
                for t in named:
                    self._mark(t, w)
        else:
            ok = hand == set(ev.hand)
        if not ok:
            self.find("win-hand-mismatch",
                      f"the record's winning hand is {tiles_str(ev.hand, self.red_fives)}, the "
                      f"replay holds {tiles_str(hand, self.red_fives)}", w)
        for t in ev.ura_indicators:
            if t not in s.ura_indicators:  # a double ron shows them twice
                self._mark(t)
                s.ura_indicators.append(t)
        collected = 0 if self._sticks_collected else s.kyotaku * 1000
        self._check_payment(ev.scores_before, ev.deltas, collected)
        self._sticks_collected = True
        s.kyotaku = 0
        s.to_draw = s.to_discard = -1

    def _draw_result(self, ev: ExhaustiveDraw | AbortiveDraw) -> None:
        self._check_payment(ev.scores_before, ev.deltas, 0)
        s = self.state
        s.to_draw = s.to_discard = -1

    def _round_end(self, ev: RoundEnd) -> None:
        s = self.state
        if ev.scores is not None and list(ev.scores) != s.scores:
            self.find("round-end-scores-mismatch",
                      f"scores after the round are recorded as {list(ev.scores)}, the replay "
                      f"has {s.scores}")
        self._end_scores = list(s.scores)
        self._round_ended = True

    def _game_end(self, ev: GameEnd) -> None:
        s = self.state
        if ev.scores is None:
            return
        expected = final_scores(s.scores, s.kyotaku if self.game is not None else 0,
                                self.game.first_dealer if self.game is not None else 0)
        if list(ev.scores) != expected:
            self.find("final-scores-mismatch",
                      f"final scores are recorded as {list(ev.scores)}, the replay has {expected}")


def final_scores(scores: list[int], sticks: int, first_dealer: int) -> list[int]:
    """A game's final scores: riichi sticks left on the table go to the player in first
    place (ties: the seat nearer the first dealer)."""
    final = list(scores)
    if sticks:
        n = len(final)
        top = min(range(n), key=lambda p: (-final[p], (p - first_dealer) % n))
        final[top] += 1000 * sticks
    return final


def _ignore(ev: Event) -> None:
    """Events that do not change the table (disconnections, unknown elements)."""


def replay(record: GameRecord) -> Engine:
    """Replay a whole record and return the engine with its final state and findings."""
    engine = Engine(record.src)
    engine.run(record.events)
    return engine

"""The replay engine: judges each event's consistency, applies it, and drives the observers.

Every event is judged first (each problem becomes a :class:`Finding`) and
then applied to the :class:`~mjlog.replay.state.TableState` by the table's
own transitions, so one bad event never stops the replay or hides the
problems after it. The engine checks that a record is consistent with itself
and with the physical table: turn order, tiles in hand, each physical tile
used once, the wall, and that the points balance from round to round. It
does not check rules that vary between rulesets (kan after riichi, furiten …)
nor recompute hand values: those are observers (:mod:`mjlog.replay.observer`)
that :meth:`Engine.run` drives in the same replay.

Its finding codes (``discard-not-in-hand``, ``out-of-turn``,
``tile-reused``, ``internal-error`` …) are listed with their meaning in
:mod:`mjlog.core.catalogue`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import replace
from typing import Any, Final, NamedTuple, TypeVar

from mjlog.core.diagnostics import PER_GAME, Finding, Severity, Src
from mjlog.core.events import (
    AbortiveDraw,
    AddedKan,
    Chi,
    Chombo,
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
from mjlog.core.record import GameRecord
from mjlog.core.tiles import UNKNOWN, tile_str, tiles_str
from mjlog.replay.observer import Hooks, Observer, hooks_of
from mjlog.replay.state import TableState

Handler = Callable[[Any], None]
Payer = Callable[[Win | ExhaustiveDraw, TableState, bool], tuple[int, ...] | None]
"""Works out a score sheet's result that writes no payments: each seat's change for the
result on the table just before it (``True``: the round's first win, which takes the
honba and sticks), or ``None`` when the result states no value
(:func:`mjlog.families.riichi.scoring.written.payer` makes one for a ruleset)."""
_Paid = TypeVar("_Paid", Win, ExhaustiveDraw)
_OUTSIDE_ROUNDS = frozenset({GameStart, RoundStart, GameEnd})
"""The events observers see before the first round starts."""


HookList = list[tuple[Observer, Any]]
_MOVE_NAMES: Final = ("before_draw", "after_draw", "before_discard", "after_discard")
"""The names of the hooks on draws and discards, in :class:`_MoveHooks` order."""
_MOVE_AT: Final = {name: k for k, name in enumerate(_MOVE_NAMES)}
"""The place of each of :data:`_MOVE_NAMES` in :class:`_MoveHooks`."""


class _MoveHooks(NamedTuple):
    """What :meth:`Engine.run` does with plain draws and discards: their observers' hooks
    (None for none; a dormant hook only while awake) and whether each may be applied
    inline (not a kind it pauses before)."""

    draw_before: HookList | None
    draw_after: HookList | None
    drop_before: HookList | None
    drop_after: HookList | None
    draw: bool
    discard: bool


class Engine:
    """Replays one game's events, keeping the table and the findings.

    Feed events in order with :meth:`run` (with observers) or :meth:`apply`;
    read :attr:`state` between them. ``src_of`` maps an event's index to its
    source position for findings.
    """

    def __init__(self, src_of: Callable[[int], Src | None] | None = None) -> None:
        self.state = TableState(4)
        self.findings: list[Finding] = []
        self.left_out = 0
        """Findings past :data:`PER_GAME`, counted, not kept."""
        self.game: GameStart | None = None
        self.red_fives = True
        self.rounds = 0
        self.index = -1
        self._src_of = src_of
        self._sticks_collected = False
        self._round_ended = True
        self._end_scores: list[int] | None = None
        self._partial_draws: set[int] = set()
        self._halt = False
        self._round_fits = False
        """Whether a round has started and its start fitted the table (observers see it)."""
        self._results_only = False
        """Whether the current round is a score sheet's (:attr:`RoundStart.results_only`)."""
        self.payer: Payer | None = None
        """How a score sheet's results are paid where the sheet writes no payments (score
        verification sets one for the ruleset it judges by); ``None``: they are not, and
        a note says so."""
        self._failed: list[tuple[Observer, Exception]] = []
        """The hooks that failed on the event being applied, with what they raised."""
        self._awake: set[tuple[int, str]] = set()
        """The dormant hooks woken, as (id of the observer, name of the hook)."""
        self._every: tuple[HookList | None, ...] = (None,) * 4
        """Every hook on draws and discards of the run (:data:`_MOVE_NAMES` order)."""
        self._moves: _MoveHooks | None = None
        self._relist: set[str] = set()
        """The names of the hooks woken or put to rest during the event being applied."""
        self._handlers: dict[type, Handler] = {
            GameStart: self._game_start, RoundStart: self._round_start, Draw: self._draw,
            Discard: self._discard, Chi: self._call, Pon: self._call, OpenKan: self._call,
            AddedKan: self._added_kan, ClosedKan: self._closed_kan, Kita: self._kita,
            Flower: self._flower, RiichiAccepted: self._riichi, ReadyDeclared: self._ready,
            DoraReveal: self._dora, Win: self._win, ExhaustiveDraw: self._draw_result,
            AbortiveDraw: self._draw_result, Chombo: self._chombo, RoundEnd: self._round_end,
            GameEnd: self._game_end, Disconnect: _ignore, Reconnect: _ignore,
            Comment: _ignore, Unknown: _ignore,
        }

    # -- driving

    def apply(self, ev: Event, index: int = -1) -> None:
        """Judge and apply one event; ``index`` is its position in the record."""
        self.index = index
        self._handle(ev)

    def _handle(self, ev: Event) -> bool:
        """Judge and apply ``ev``; whether it fitted the table."""
        if not self.state.fits(ev):
            self._unfit(ev)
            return False
        return self._judge(ev)

    def _unfit(self, ev: Event) -> None:
        """Report ``ev``, which does not fit the table, as the record's fault."""
        field = self.state.uneven(ev)
        self.find("unreplayable-event", f"{ev.TYPE} gives {field} for another number of "
                  f"seats than the table's {self.state.n}" if field else f"{ev.TYPE} "
                  "cannot be applied to this table: it names a seat or tile outside it")

    def _judge(self, ev: Event) -> bool:
        """Judge and apply ``ev``, which fits the table; whether the engine could (its own
        failure is an ``internal-error``, never the record's)."""
        try:
            self._handlers[ev.__class__](ev)
        except Exception as exc:  # the event fitted the table: the failure is the engine's
            self.find("internal-error", f"the engine failed on {ev.TYPE}: {exc!r}")
            return False
        return True

    def halt(self) -> None:
        """Stop :meth:`run` after the event being applied (an observer's request)."""
        self._halt = True

    def run(self, events: Sequence[Event], observers: Sequence[Observer] = (),
            start: int = 0, stop: int | None = None,
            pause: frozenset[type] = frozenset()) -> int:
        """Apply ``events[start:stop]`` in order, with each observer's hooks around each
        event; return the index after the last applied.

        With ``pause``, stops *before* the first event of one of those classes
        and returns its index, so a caller can look at the table just before
        it. An observer may stop the run after the current event
        (:meth:`halt`). Draws and discards that need no finding are applied inline,
        between their hooks (they are nine events in ten); on such a plain move, a
        dormant hook (:attr:`Observer.dormant`) is called only while woken (:meth:`wake`).
        A draw from the dead wall and a riichi discard take the general path.
        """
        before, after = hooks_of(observers) if observers else ({}, {})
        end = len(events) if stop is None else stop
        fast = Draw not in pause or Discard not in pause
        self._every = (before.get(Draw), after.get(Draw), before.get(Discard),
                       after.get(Discard))
        draw_before, draw_after, drop_before, drop_after = map(
            self._awake_in, self._every, _MOVE_NAMES)
        moves = self._moves = _MoveHooks(draw_before, draw_after, drop_before, drop_after,
                                         Draw not in pause, Discard not in pause)
        self._relist.clear()
        hooked = any(h is not None for h in self._every)
        i = start
        while i < end:
            if fast:
                inline = self._hooked if hooked and self._round_fits else self._fast
                i = inline(events, i, end, moves)
                if self._halt:
                    self._halt = False
                    return i
                if i >= end:
                    break
            ev = events[i]
            cls = ev.__class__
            if cls in pause:
                return i
            if self._round_fits or cls in _OUTSIDE_ROUNDS:
                self._slow(ev, i, before.get(cls), after.get(cls))
            else:  # outside a replayable round the engine alone judges (out-of-turn …)
                self.apply(ev, i)
            i += 1
            if self._halt:
                self._halt = False
                return i
        return end

    def _fast(self, events: Sequence[Event], i: int, end: int, moves: _MoveHooks) -> int:
        """Apply draws and discards inline from ``i``, with no hook (none looks at them, or
        the round does not fit the table); return the index of the first event that needs
        the slow path (a finding, a riichi discard …), or ``end``."""
        # The turn lives in locals here and goes back to the state on return.
        s = self.state
        used, n = s.used, s.n
        hands = [ps.concealed for ps in s.players]
        rivers = [ps.river for ps in s.players]
        turn, to_draw, to_discard, live = s.turn, s.to_draw, s.to_discard, s.live_wall
        last_discard, last_discarder, dealing = s.last_discard, s.last_discarder, s.dealing
        fast_draw, fast_discard = moves.draw, moves.discard
        while i < end:
            ev = events[i]
            cls = ev.__class__
            if cls is Draw and fast_draw:
                p, t = ev.player, ev.tile  # type: ignore[union-attr]
                if to_draw != p or not 0 <= t < UNKNOWN or used[t] or live <= 0 or dealing:
                    break
                turn, live, to_draw, to_discard, last_discard = turn + 1, live - 1, -1, p, -1
                used[t] = 1
                hands[p].add(t)
            elif cls is Discard and fast_discard:
                p, t = ev.player, ev.tile  # type: ignore[union-attr]
                if to_discard != p or t not in hands[p] or ev.riichi or dealing:  # type: ignore[union-attr]
                    break
                turn, to_discard, to_draw = turn + 1, -1, (p + 1) % n
                last_discard, last_discarder = t, p
                hands[p].remove(t)
                rivers[p].append(ev)  # type: ignore[arg-type]
            else:
                break
            i += 1
        s.turn, s.to_draw, s.to_discard, s.live_wall = turn, to_draw, to_discard, live
        s.last_discard, s.last_discarder = last_discard, last_discarder
        return i

    def _hooked(self, events: Sequence[Event], i: int, end: int, moves: _MoveHooks) -> int:
        """:meth:`_fast` for a round that fits the table, each move between its observers'
        hooks (which see the table as it is then); also returns after an event whose hook
        halted the run."""
        s = self.state
        used, n = s.used, s.n
        hands = [ps.concealed for ps in s.players]
        rivers = [ps.river for ps in s.players]
        while i < end:
            ev = events[i]
            cls = ev.__class__
            if cls is Draw and moves.draw:
                p, t = ev.player, ev.tile  # type: ignore[union-attr]
                if s.to_draw != p or not 0 <= t < UNKNOWN or used[t] or s.live_wall <= 0 \
                        or s.dealing or ev.rinshan:  # type: ignore[union-attr]
                    break
                before, after = moves.draw_before, moves.draw_after
            elif cls is Discard and moves.discard:
                p, t = ev.player, ev.tile  # type: ignore[union-attr]
                if s.to_discard != p or t not in hands[p] or ev.riichi or s.dealing:  # type: ignore[union-attr]
                    break
                before, after = moves.drop_before, moves.drop_after
            else:
                break
            if before:
                self._hooks(before, ev, i)
            s.turn += 1
            if cls is Draw:
                s.live_wall -= 1
                s.to_draw, s.to_discard, s.last_discard = -1, p, -1
                used[t] = 1
                hands[p].add(t)
            else:
                s.to_discard, s.to_draw, s.last_discard, s.last_discarder = -1, (p + 1) % n, t, p
                hands[p].remove(t)
                rivers[p].append(ev)  # type: ignore[arg-type]
            if after:
                self._hooks(after, ev, i)
            i += 1
            if self._failed:
                self._report_failed(ev)
            if self._relist:
                self._relisted()
            if self._halt:
                break
        return i

    def _hooks(self, hooks: list[tuple[Observer, Any]], ev: Event, i: int) -> None:
        """Call each hook on ``ev``, the event at ``i``; an exception is kept (in
        :attr:`_failed`) to be reported once the event is applied, never swallowed."""
        self.index = i
        for obs, fn in hooks:
            try:
                fn(ev)
            except Exception as exc:  # reported after the event, never swallowed
                self._failed.append((obs, exc))

    def _report_failed(self, ev: Event) -> None:
        """An ``internal-error`` finding for each hook that failed on ``ev``."""
        for obs, error in self._failed:
            who = obs.name or type(obs).__name__
            self.find("internal-error", f"{who} failed on {ev.TYPE}: {error!r}")
        self._failed.clear()

    def _slow(self, ev: Event, i: int, before: list[tuple[Observer, Any]] | None,
              after: list[tuple[Observer, Any]] | None) -> None:
        """One event through the observers' hooks and the engine's own judging."""
        self.index = i
        if not self.state.fits(ev):  # the record's fault: reported, and no observer sees it
            self._unfit(ev)
            if ev.__class__ is RoundStart:
                self._round_fits = False
            return
        if before:
            self._hooks(before, ev, i)
        fitted = self._judge(ev)
        if ev.__class__ is RoundStart:
            self._round_fits = fitted
        if after:
            self._hooks(after, ev, i)
        if self._failed:  # every hook's failure is reported, whatever the engine made of it
            self._report_failed(ev)
        if self._relist:
            self._relisted()

    def wake(self, observer: Observer, name: str) -> None:
        """Call ``observer``'s dormant hook ``name`` (:attr:`Observer.dormant`) on plain
        draws or discards too, from the next event on, until :meth:`rest`. Raises
        ``ValueError`` for a name that is not a hook on draws or discards."""
        if name not in _MOVE_AT:
            raise ValueError(f"{name} is not a hook on draws or discards")
        key = (id(observer), name)
        if key not in self._awake:
            self._awake.add(key)
            self._relist.add(name)

    def rest(self, observer: Observer, name: str) -> None:
        """Skip ``observer``'s dormant hook ``name`` on plain draws and discards again,
        from the next event on (it still sees every other draw and discard)."""
        key = (id(observer), name)
        if key in self._awake:
            self._awake.remove(key)
            self._relist.add(name)

    def _awake_in(self, hooks: HookList | None, name: str) -> HookList | None:
        """The hooks of ``hooks`` (all named ``name``) that plain moves call: all but the
        dormant ones not woken."""
        if hooks is None:
            return None
        awake = self._awake
        return [(obs, fn) for obs, fn in hooks
                if name not in obs.dormant or (id(obs), name) in awake]

    def _relisted(self) -> None:
        """The hooks of plain moves again, after hooks were woken or put to rest (changed
        in place, between two events: nothing iterates them then)."""
        moves = self._moves
        if moves is not None:
            lists = (moves.draw_before, moves.draw_after, moves.drop_before, moves.drop_after)
            for name in self._relist:
                k = _MOVE_AT[name]
                inline = lists[k]
                if inline is not None:
                    inline[:] = self._awake_in(self._every[k], name) or ()
        self._relist.clear()

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
        """Record a finding at the current event; past :data:`PER_GAME` findings, only
        count it (``left_out``)."""
        if len(self.findings) >= PER_GAME:
            self.left_out += 1
            return
        if player is not None and not 0 <= player < self.state.n:
            player = None  # a seat outside the table (the message names it) is no player
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
        self.state.game_start(ev)

    def _round_start(self, ev: RoundStart) -> None:
        s = self.state
        carried = ev.results_only and not ev.scores  # a score sheet's: the table's go on
        sticks_held = 0 if (len(ev.scores) != s.n and not carried) or len(ev.hands) != s.n \
            else s.kyotaku
        self.rounds += 1
        self._results_only = ev.results_only
        s.round_start(ev)
        if self._end_scores is not None and not carried and list(ev.scores) != self._end_scores:
            self.find("start-scores-mismatch",
                      f"round starts with scores {list(ev.scores)}, the last round ended "
                      f"with {self._end_scores}")
        if self.rounds > 1 and self._round_ended and ev.kyotaku != sticks_held:
            self.find("kyotaku-mismatch",
                      f"round starts with {ev.kyotaku} riichi sticks, the table holds "
                      f"{sticks_held}")
        for p, ps in enumerate(s.players):
            if ps.unknown:
                self.note("partial-record", f"{ps.unknown} of player {p}'s dealt tiles are not "
                          "written down: tile checks cover the tiles named", p)
        dealt = [ev.dora_indicator, *(t for hand in ev.hands for t in hand if t != UNKNOWN)]
        if len(set(dealt)) != len(dealt):  # some tile is dealt twice: report each
            seen = {UNKNOWN}
            for t in dealt:
                if t in seen:
                    self._reused(t)
                seen.add(t)
        self._sticks_collected = False
        self._round_ended = False
        self._end_scores = None
        self._partial_draws = set()

    def _reused(self, tile: int, player: int | None = None) -> None:
        self.find("tile-reused", f"physical tile {self._t(tile)} (id {tile}) appears twice",
                  player)

    def _mark(self, tile: int, player: int | None = None) -> None:
        used = self.state.used
        if used[tile]:
            self._reused(tile, player)
        used[tile] = 1

    # -- moves

    def _draw(self, ev: Draw) -> None:
        s = self.state
        p, t = ev.player, ev.tile
        s.turn += 1
        if s.to_draw != p:
            self.find("out-of-turn", f"player {p} draws, but it is not their draw", p)
        if s.live_wall - 1 < 0:
            self.find("wall-exhausted", "a draw from an empty live wall", p)
        if t == UNKNOWN:  # a draw nobody wrote down
            if p not in self._partial_draws:
                self._partial_draws.add(p)
                self.note("partial-record", f"player {p}'s draws are not all written down: "
                          "tile checks cover the tiles named", p)
        elif s.used[t]:
            self._reused(t, p)
        s.draw(ev)

    def _discard(self, ev: Discard) -> None:
        s = self.state
        p, t = ev.player, ev.tile
        s.turn += 1
        if s.to_discard != p:
            self.find("out-of-turn", f"player {p} discards, but it is not their discard", p)
        ps = s.players[p]
        if t not in ps.concealed:
            if ps.unknown > 0 and t != UNKNOWN:  # one of the tiles not written down
                self._mark(t, p)
            else:
                self.find("discard-not-in-hand",
                          f"discards {self._t(t)} (id {t}), which is not in hand "
                          f"{tiles_str(ps.concealed, self.red_fives)}", p)
        s.discard(ev)

    def _call(self, ev: Chi | Pon | OpenKan) -> None:
        s = self.state
        p = ev.player
        s.turn += 1
        if not s.takes_last_discard(ev):
            last = self._t(s.last_discard) if s.last_discard >= 0 else "nothing"
            self.find("call-not-last-discard",
                      f"{ev.TYPE} takes {self._t(ev.called)} from player {ev.from_player}; "
                      f"the last discard is {last} by player {s.last_discarder}", p)
        self._judge_take(p, [t for t in ev.tiles if t != ev.called], ev.TYPE)
        s.call(ev)

    def _judge_take(self, p: int, tiles: list[int], what: str) -> None:
        """Findings for tiles that leave a hand: reused unknown ones, or ones not there."""
        s = self.state
        missing, unnamed = s.missing(p, tiles)
        if unnamed:  # tiles the record did not name
            for t in missing:
                self._mark(t, p)
        elif missing:
            self.find("call-not-in-hand",
                      f"{what} uses {tiles_str(missing, self.red_fives)} (ids "
                      f"{', '.join(map(str, missing))}), not in hand "
                      f"{tiles_str(s.players[p].concealed, self.red_fives)}", p)

    def _own_turn_call(self, p: int, what: str) -> None:
        s = self.state
        s.turn += 1
        if s.to_discard != p:
            self.find("out-of-turn", f"player {p} declares {what} when it is not their turn", p)

    def _closed_kan(self, ev: ClosedKan) -> None:
        self._own_turn_call(ev.player, "a closed kan")
        self._judge_take(ev.player, list(ev.tiles), "closed kan")
        self.state.closed_kan(ev)

    def _added_kan(self, ev: AddedKan) -> None:
        p = ev.player
        self._own_turn_call(p, "an added kan")
        s = self.state
        if s.pon_of(p, ev.added) < 0:
            self.find("call-not-in-hand", f"added kan of {self._t(ev.added)} without a pon", p)
        self._judge_take(p, [ev.added], "added kan")
        s.added_kan(ev)

    def _kita(self, ev: Kita) -> None:
        self._own_turn_call(ev.player, "kita")
        self._judge_take(ev.player, [ev.tile], "kita")
        self.state.kita(ev)

    def _flower(self, ev: Flower) -> None:
        p = ev.player
        s = self.state
        s.turn += 1
        if not s.dealing and s.to_discard != p and ev.from_player is None:
            self.find("out-of-turn", f"player {p} sets a flower aside when it is not their "
                      "turn", p)
        if ev.from_player is None:
            self._judge_take(p, [ev.tile], "setting a flower aside")
        elif ev.tile not in s.players[ev.from_player].flowers:
            self.find("call-not-in-hand", f"takes flower {self._t(ev.tile)} from player "
                      f"{ev.from_player}, who has not set it aside", p)
        s.flower(ev)

    def _ready(self, ev: ReadyDeclared) -> None:
        s = self.state
        if not s.dealing or ev.player == s.dealer:
            self.find("out-of-turn", f"player {ev.player} declares 天聽, which only a player "
                      "other than the dealer may, before the dealer's first discard", ev.player)

    def _riichi(self, ev: RiichiAccepted) -> None:
        s = self.state
        s.riichi(ev)
        if ev.scores is not None and list(ev.scores) != s.scores:
            self.find("riichi-scores-mismatch",
                      f"scores after the riichi deposit are recorded as {list(ev.scores)}, "
                      f"the table has {s.scores}", ev.player)

    def _dora(self, ev: DoraReveal) -> None:
        if self.state.used[ev.indicator]:
            self._reused(ev.indicator)
        self.state.dora(ev)

    # -- results

    def _judge_payment(self, before: tuple[int, ...] | None, deltas: tuple[int, ...],
                       collected: int) -> None:
        s = self.state
        if before is not None and list(before) != s.scores:
            self.find("result-scores-mismatch",
                      f"scores before payment are recorded as {list(before)}, the table has "
                      f"{s.scores}")
        if deltas and (len(deltas) != s.n or sum(deltas) != collected):
            self.find("deltas-unbalanced",
                      f"deltas {list(deltas)} add up to {sum(deltas)}, expected {collected} "
                      "(riichi sticks collected)")

    def _win(self, ev: Win) -> None:
        if self._results_only:
            self._written_win(ev)
            return
        s = self.state
        w = ev.winner
        ps = s.players[w]
        hand = set(ps.concealed)
        if ev.from_player != w:
            hand.add(ev.win_tile)
        if ps.unknown and UNKNOWN in ev.hand:  # nobody wrote the hand down: the known tiles
            ok = hand <= set(ev.hand)
        elif ps.unknown:  # the record's hand must hold the known tiles and name the rest
            named = set(ev.hand) - hand
            ok = hand <= set(ev.hand) and len(named) == ps.unknown and UNKNOWN not in named
            if ok:
                for t in sorted(named):
                    self._mark(t, w)
        else:
            ok = hand == set(ev.hand)
        if not ok:
            self.find("win-hand-mismatch",
                      f"the record's winning hand is {tiles_str(ev.hand, self.red_fives)}, the "
                      f"replay holds {tiles_str(hand, self.red_fives)}", w)
        for t in ev.ura_indicators:
            if t != UNKNOWN and t not in s.ura_indicators and s.used[t]:
                self._reused(t)
        collected = 0 if self._sticks_collected else s.kyotaku * 1000
        self._judge_payment(ev.scores_before, ev.deltas, collected)
        self._sticks_collected = True
        s.win(ev)

    def _written_win(self, ev: Win) -> None:
        """A score sheet's win: no tiles to judge. Paid as the sheet writes it, or, where it
        writes no payments, by :attr:`payer` (the first winner of a round takes the honba
        and sticks)."""
        s = self.state
        first = not self._sticks_collected
        self._judge_payment(ev.scores_before, ev.deltas, s.kyotaku * 1000 if first else 0)
        if not ev.deltas:
            ev = self._paid(ev, first)
        self._sticks_collected = True
        s.win(ev)

    def _paid(self, ev: _Paid, first: bool) -> _Paid:
        """``ev``, a score sheet's result that writes no payments, with those
        :attr:`payer` works out (unchanged, with a note, where it cannot)."""
        deltas = self.payer(ev, self.state, first) if self.payer is not None else None
        if deltas is None:
            self.note("unjudged", f"{ev.TYPE} not paid: "
                      + ("no ruleset was given to pay a score sheet by" if self.payer is None
                         else "the sheet states no value for it"))
            return ev
        return replace(ev, deltas=deltas)

    def _draw_result(self, ev: ExhaustiveDraw | AbortiveDraw) -> None:
        self._judge_payment(ev.scores_before, ev.deltas, 0)
        if self._results_only and not ev.deltas and isinstance(ev, ExhaustiveDraw):
            ev = self._paid(ev, False)
        self.state.draw_result(ev)

    def _chombo(self, ev: Chombo) -> None:
        """A score sheet's chombo: the hand ends; nothing is paid at the table here (the
        settlement charges it)."""
        self.state.to_draw = self.state.to_discard = -1
        self.note("chombo-written", f"player {ev.player}'s chombo, as the sheet writes it: "
                  "the hand ends and the ruleset's chombo is charged", ev.player)

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
        game = self.game
        lost = game is not None and game.ruleset.leftover_sticks == "lost"
        expected = final_scores(s.scores, s.kyotaku if game is not None and not lost else 0,
                                game.first_dealer if game is not None else 0)
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


def replay(record: GameRecord, observers: Sequence[Observer] = ()) -> Engine:
    """Replay a whole record with ``observers`` and return the engine with its final
    state and findings."""
    engine = Engine(record.src)
    engine.run(record.events, observers)
    return engine


__all__ = ["Engine", "Hooks", "final_scores", "replay"]

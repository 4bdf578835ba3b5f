"""The referee: replays a record and judges every move against a ruleset.

:class:`Referee` drives the :class:`~mjlog.replay.engine.Engine` event by
event. Before each event is applied it looks at the table (the engine's
state, untouched) and at its own per-player memory of the round: the waits
of each hand after its last discard, the kinds it has discarded, furiten
from a passed winning tile, the last tile drawn, the call just made, the
kans made and the kan dora still due. Every broken rule becomes a
:class:`~mjlog.diagnostics.Violation`; then the event is applied as the
engine would without the referee, so one violation never hides the next.

Hands the record does not fully name (partial records) are not judged on
their waits. The referee checks rules only; inconsistencies are the
engine's findings and values are the score verifier's.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from mjlog.diagnostics import Violation
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
    GameStart,
    Kita,
    OpenKan,
    Pon,
    RiichiAccepted,
    RoundStart,
    Win,
)
from mjlog.hand.shape import counts_of, is_thirteen_orphans, kinds_of_mask, waits
from mjlog.record import GameRecord
from mjlog.replay.engine import Engine
from mjlog.replay.state import PlayerState
from mjlog.rules import RULES
from mjlog.rules.evidence import consequence, hand_picture, kinds_text, readings_text
from mjlog.rules.sakizuke import judge_win
from mjlog.ruleset import Ruleset, describe
from mjlog.scoring.fast import YakuReading, readings
from mjlog.tiles import KIND_OF, kind_str, tile_str, tiles_str

_TERMINALS_HONOURS = frozenset({0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33})
_WINDS = frozenset({27, 28, 29, 30})
_UNFIT = (IndexError, KeyError, ValueError, TypeError)


class _Seat:
    """The referee's memory of one player in the current round."""

    __slots__ = (
        "just_called",
        "last_draw",
        "passed",
        "riichi_furiten",
        "river_kinds",
        "waits",
    )

    def __init__(self) -> None:
        self.waits = 0
        """Winning kinds (mask) of the hand after the player's last discard."""
        self.river_kinds = 0
        """Kinds the player has discarded this round (mask)."""
        self.passed = ""
        """Temporary furiten: the passed winning tile (evidence), until the next discard."""
        self.riichi_furiten = ""
        """Riichi furiten: the winning tile passed after riichi (evidence)."""
        self.last_draw = -1
        self.just_called: Chi | Pon | None = None
        """The chi or pon just made, until the discard that must follow it."""


class Referee:
    """Replays one game under a ruleset and collects its :class:`Violation` list."""

    def __init__(self, record: GameRecord, ruleset: Ruleset | None = None) -> None:
        self.record = record
        self.events = record.events
        self.engine = Engine(record.src)
        self.rules = ruleset or Ruleset()
        self._fixed = ruleset is not None
        self.label = describe(self.rules)
        self.violations: list[Violation] = []
        self.unjudged = 0
        """Events that did not fit the table (a seat or tile outside it): the engine
        reports them; the referee skips judging them."""
        self.index = -1
        self.seats: list[_Seat] = []
        self.pending: tuple[int, int, str] | None = None
        """A tile others may still ron: (player, tile, what) until the next move."""
        self.kan_players: list[int] = []
        self.dora_due: list[list[int]] = []
        """Kan dora still to be turned: [kan player, closed (1/0), discards since]."""
        self.rinshan_due = -1
        self.abort_due = ""
        self.four_kans_armed = False
        self.wins_in_row: list[int] = []
        self.riichi_count = 0
        self.round_start = -1
        self._pre: dict[type, Callable[[Any], None]] = {
            GameStart: self._game_start, RoundStart: self._round_start, Draw: self._draw,
            Discard: self._discard, Chi: self._chi_pon, Pon: self._chi_pon,
            OpenKan: self._open_kan, AddedKan: self._own_kan, ClosedKan: self._own_kan,
            Kita: self._kita, DoraReveal: self._dora, Win: self._win,
            AbortiveDraw: self._abortive, ExhaustiveDraw: self._exhaustive,
        }
        self._post: dict[type, Callable[[Any], None]] = {
            Discard: self._after_discard, OpenKan: self._after_kan, AddedKan: self._after_kan,
            ClosedKan: self._after_kan, RiichiAccepted: self._after_riichi,
        }

    # -- driving

    def run(self, before: Callable[[Event, int], None] | None = None,
            classes: frozenset[type] = frozenset()) -> list[Violation]:
        """Judge and apply every event; return the violations found.

        ``before(event, index)`` is called for each event of ``classes`` just
        before it is applied, so that another check (score verification) can
        share this replay instead of making its own.
        """
        engine = self.engine
        pre, post = self._pre, self._post
        for i, ev in enumerate(self.events):
            self.index = i
            cls = ev.__class__
            if before is not None and cls in classes:
                before(ev, i)
            h = pre.get(cls)
            if h is not None:
                try:
                    h(ev)
                except _UNFIT:
                    self.unjudged += 1
            engine.apply(ev, i)
            g = post.get(cls)
            if g is not None:
                try:
                    g(ev)
                except _UNFIT:
                    self.unjudged += 1
        return self.violations

    def violation(self, code: str, message: str, player: int | None, *,
                  evidence: tuple[tuple[str, str], ...] = (), move: bool = True) -> None:
        """Record a violation of rule ``code`` at the current event."""
        rule = RULES[code]
        s = self.engine.state
        self.violations.append(Violation(
            code=code, rule=rule.section, citation=rule.citation, message=message,
            ruleset=self.label, round=self.engine.round, turn=s.turn + (1 if move else 0),
            event=self.index, player=player, src=self.record.src(self.index),
            evidence=evidence, consequence=consequence(code, self.rules, player, s),
        ))

    def _t(self, tile: int) -> str:
        return tile_str(tile, self.rules.red_fives)

    def _picture(self, p: int) -> tuple[str, str]:
        return ("hand", hand_picture(self.engine.state.players[p], self.rules.red_fives))

    # -- game and round

    def _game_start(self, ev: GameStart) -> None:
        if not self._fixed:
            self.rules = ev.ruleset
        self.label = describe(self.rules)

    def _round_start(self, ev: RoundStart) -> None:
        self.seats = [_Seat() for _ in ev.hands]
        self.pending = None
        self.kan_players = []
        self.dora_due = []
        self.rinshan_due = -1
        self.abort_due = ""
        self.four_kans_armed = False
        self.wins_in_row = []
        self.riichi_count = 0
        self.round_start = self.index

    # -- passing a winning tile

    def _settle(self) -> None:
        """The tile others could ron was not ronned: whoever waits on it passed it."""
        pend = self.pending
        if pend is None:
            return
        self.pending = None
        p, tile, what = pend
        bit = 1 << KIND_OF[tile]
        players = self.engine.state.players
        for q, seat in enumerate(self.seats):
            if q != p and seat.waits & bit:
                note = f"{self._t(tile)} ({what} of player {p}, turn {self.engine.state.turn})"
                seat.passed = seat.passed or note
                if players[q].riichi and not seat.riichi_furiten:
                    seat.riichi_furiten = note

    def _missed_abort(self) -> None:
        if self.abort_due:
            self.violation("abortive-missed", f"play goes on although the round ends in an "
                           f"abortive draw ({self.abort_due})", None)
            self.abort_due = ""

    # -- moves

    def _draw(self, ev: Draw) -> None:
        self._settle()
        self._missed_abort()
        p = ev.player
        if ev.rinshan != (self.rinshan_due == p):
            if ev.rinshan:
                self.violation("rinshan-draw", "a replacement draw without a kan or kita", p)
            else:
                self.violation("rinshan-draw", "the draw after a kan is not from the dead "
                               "wall", p)
        self.rinshan_due = -1
        for due in self.dora_due:
            if due[2] > 0 and p != due[0]:
                self._dora_missing(due)
        self.seats[p].last_draw = ev.tile

    def _dora_missing(self, due: list[int]) -> None:
        due[2] = -1  # reported; a late indicator still belongs to it
        when = "before the kan player's discard" if due[1] or self.rules.riichi.kan_dora == "immediate" \
            else "after the discard that follows it"
        self.violation("kan-dora", f"a kan by player {due[0]} turned no dora indicator "
                       f"{when}", due[0])

    def _discard(self, ev: Discard) -> None:
        p = ev.player
        seat = self.seats[p]
        ps = self.engine.state.players[p]
        for due in self.dora_due:
            if due[2] < 0:
                continue
            if due[1] or self.rules.riichi.kan_dora == "immediate":
                self._dora_missing(due)
            else:
                due[2] += 1
        if seat.just_called is not None:
            self._kuikae(ev, seat.just_called)
            seat.last_draw = -1
        if ps.riichi and seat.just_called is None and ev.tile != seat.last_draw \
                and ev.tile in ps.concealed:
            self.violation("riichi-hand-changed", f"discards {self._t(ev.tile)} from hand "
                           f"after riichi, keeping the {self._t(seat.last_draw)} drawn", p,
                           evidence=(self._picture(p),))
        if ev.riichi:
            self._riichi_declared(ev, ps)

    def _after_discard(self, ev: Discard) -> None:
        p = ev.player
        seat = self.seats[p]
        s = self.engine.state
        ps = s.players[p]
        seat.passed = ""
        seat.just_called = None
        seat.river_kinds |= 1 << KIND_OF[ev.tile]
        seat.waits = self._waits(ps)
        self.pending = (p, ev.tile, "discard")
        if self.four_kans_armed:
            self.four_kans_armed = False
            self.abort_due = "四開槓, four kans by more than one player"
        if s.turn == 8 and not s.calls and self.rules.riichi.four_winds and s.n == 4:
            kinds = {KIND_OF[q.river[0].tile] for q in s.players if len(q.river) == 1}
            if len(kinds) == 1 and kinds <= _WINDS and all(len(q.river) == 1 for q in s.players):
                self.abort_due = "四風連打, four winds discarded"

    def _waits(self, ps: PlayerState) -> int:
        return 0 if ps.unknown else waits(_counts(ps), len(ps.melds))

    def _kuikae(self, ev: Discard, call: Chi | Pon) -> None:
        mode = self.rules.riichi.kuikae
        if mode == "allowed":
            return
        k = KIND_OF[ev.tile]
        called = KIND_OF[call.called]
        other = -1
        if isinstance(call, Chi) and mode == "both":
            low = min(KIND_OF[t] for t in call.tiles)
            if called == low and low % 9 <= 5:
                other = low + 3
            elif called == low + 2 and low % 9 >= 1:
                other = low - 1
        if k in (called, other):
            what = "the tile it called" if k == called else "the other end of the run"
            self.violation("kuikae", f"discards {self._t(ev.tile)}, {what}, right after "
                           f"{call.TYPE} of {self._t(call.called)}", ev.player,
                           evidence=(("call", _meld_text(call, self.rules.red_fives)),
                                     self._picture(ev.player)))

    def _riichi_declared(self, ev: Discard, ps: PlayerState) -> None:
        p = ev.player
        s = self.engine.state
        rules = self.rules
        problems = []
        if ps.riichi:
            problems.append("the player is already in riichi")
        if any(not isinstance(m, ClosedKan) for m in ps.melds):
            problems.append("the hand is open")
        if s.scores[p] < rules.riichi.riichi_min_score:
            problems.append(f"{s.scores[p]} points, fewer than the {rules.riichi.riichi_min_score} "
                            "the stick needs")
        need = rules.riichi.riichi_min_wall or s.n
        if s.live_wall < need:
            problems.append(f"{s.live_wall} tiles left in the live wall, fewer than {need}")
        if not ps.unknown and ev.tile in ps.concealed \
                and not waits(_counts(ps, ev.tile), len(ps.melds)):
            problems.append(f"the hand is not tenpai after discarding {self._t(ev.tile)}")
        if problems:
            self.violation("riichi-illegal", "riichi declared although " + "; ".join(problems),
                           p, evidence=(self._picture(p),))

    def _after_riichi(self, ev: RiichiAccepted) -> None:
        self.riichi_count += 1
        if self.riichi_count == 4 and self.rules.riichi.four_riichi and self.engine.state.n == 4:
            self.abort_due = "四家立直, four players in riichi"

    # -- calls

    def _chi_pon(self, ev: Chi | Pon) -> None:
        self._settle()
        self._missed_abort()
        p = ev.player
        s = self.engine.state
        if isinstance(ev, Chi):
            if s.n == 3:
                self.violation("chi-not-from-left", "chi in a three-player game", p)
            elif ev.from_player != (p - 1) % s.n:
                self.violation("chi-not-from-left", f"chi from player {ev.from_player}, who "
                               f"is not on the left of player {p}", p)
        self._call_taken(ev)
        self.seats[p].just_called = ev

    def _call_taken(self, ev: Chi | Pon | OpenKan) -> None:
        p = ev.player
        if self.engine.state.players[p].riichi:
            self.violation("riichi-call", f"{ev.TYPE} after riichi", p)

    def _open_kan(self, ev: OpenKan) -> None:
        self._settle()
        self._missed_abort()
        self._kan_limits(ev)
        self._call_taken(ev)

    def _own_kan(self, ev: AddedKan | ClosedKan) -> None:
        p = ev.player
        seat = self.seats[p]
        if seat.just_called is not None:
            self.violation("kan-after-call", f"{ev.TYPE} right after {seat.just_called.TYPE}, "
                           "before its discard", p)
        self._kan_limits(ev)
        ps = self.engine.state.players[p]
        if ps.riichi:
            if isinstance(ev, AddedKan):
                self.violation("riichi-call", "added kan after riichi", p)
            else:
                self._kan_after_riichi(ev, ps, seat)
        if isinstance(ev, AddedKan):
            self.pending = (p, ev.added, "added kan")

    def _kan_limits(self, ev: OpenKan | AddedKan | ClosedKan) -> None:
        p = ev.player
        s = self.engine.state
        if s.live_wall <= 0:
            self.violation("kan-wall-empty", f"{ev.TYPE} with no tile left in the live wall", p)
        if len(self.kan_players) >= 4 and self.rules.riichi.four_kans != "fifth-ends":
            self.violation("fifth-kan", f"a fifth kan in the round (kans so far by players "
                           f"{', '.join(map(str, self.kan_players))})", p)

    def _kan_after_riichi(self, ev: ClosedKan, ps: PlayerState, seat: _Seat) -> None:
        p = ev.player
        rules = self.rules
        kind = KIND_OF[ev.tiles[0]]
        drawn = seat.last_draw
        if drawn < 0 or KIND_OF[drawn] != kind:
            self.violation("okuri-kan", f"closed kan of {self._t(ev.tiles[0])} after riichi "
                           f"with the {self._t(drawn)} just drawn kept in hand (okuri-kan)", p,
                           evidence=(self._picture(p),))
            return
        if rules.riichi.kan_after_riichi == "forbidden":
            self.violation("kan-after-riichi", "closed kan after riichi, which this ruleset "
                           "forbids", p, evidence=(self._picture(p),))
            return
        if ps.unknown:
            return
        before = _counts(ps, drawn)
        after = list(before)
        after[kind] = 0
        w_before = waits(before, len(ps.melds))
        w_after = waits(after, len(ps.melds) + 1)
        broken = _readings_without(before, w_before, kind) if rules.riichi.kan_after_riichi == "shape" \
            else []
        if w_before != w_after or broken:
            why = "changes the waits" if w_before != w_after else \
                "breaks readings of the hand where the three tiles are not a triplet"
            self.violation("kan-after-riichi", f"closed kan of {self._t(ev.tiles[0])} after "
                           f"riichi {why}", p, evidence=(
                               self._picture(p), ("waits before", kinds_text(w_before)),
                               ("waits after", kinds_text(w_after)),
                               ("readings destroyed", readings_text(
                                   broken or _readings_without(before, w_before, kind))),
                           ))

    def _after_kan(self, ev: OpenKan | AddedKan | ClosedKan) -> None:
        p = ev.player
        self.kan_players.append(p)
        n = len(self.kan_players)
        if self.rules.riichi.kan_dora != "none":
            self.dora_due.append([p, 1 if isinstance(ev, ClosedKan) else 0, 0])
        self.rinshan_due = p
        if n == 5:
            self.rinshan_due = -1  # a fifth kan (where allowed) ends the round at once
            self.abort_due = "a fifth kan"
        elif n == 4 and len(set(self.kan_players)) > 1 and self.rules.riichi.four_kans != "no-abort":
            self.four_kans_armed = True

    def _kita(self, ev: Kita) -> None:
        self._settle()
        self.rinshan_due = ev.player
        self.pending = (ev.player, ev.tile, "kita")

    def _dora(self, ev: DoraReveal) -> None:
        if self.dora_due:
            self.dora_due.pop(0)
        else:
            self.violation("kan-dora", f"dora indicator {self._t(ev.indicator)} turned with no "
                           "kan to turn it for", None, move=False)

    # -- results

    def _win(self, ev: Win) -> None:
        w = ev.winner
        s = self.engine.state
        rules = self.rules
        tsumo = ev.from_player == w
        if not tsumo:
            self.wins_in_row.append(w)
            if len(self.wins_in_row) >= 2 and not rules.double_ron:
                self.violation("double-ron", "another ron on the same tile, where only the "
                               "first in turn order may win", w, move=False)
            if len(self.wins_in_row) == 3 and rules.riichi.triple_ron:
                self.violation("abortive-missed", "three rons on one tile are recorded as "
                               "wins; the ruleset makes it an abortive draw (三家和)", w,
                               move=False)
        if not tsumo and isinstance(self.events[self.index - 1], ClosedKan):
            hand = counts_of([KIND_OF[t] for t in ev.hand])
            if not (rules.riichi.chankan_closed_kokushi and is_thirteen_orphans(hand)):
                self.violation("chankan-closed", "ron on the tile of a closed kan", w,
                               move=False)
        seat = self.seats[w]
        if not s.players[w].unknown:
            self._furiten(ev, seat, tsumo)
        sak = rules.riichi.sakizuke
        if sak is not None and not (tsumo and sak.ron_only):
            for code, message, evidence in judge_win(s, self.events, self.round_start,
                                                     self.index, ev, rules):
                self.violation(code, message, w, evidence=evidence, move=False)

    def _furiten(self, ev: Win, seat: _Seat, tsumo: bool) -> None:
        w = ev.winner
        if tsumo and not self.rules.riichi.furiten_tsumo:
            return
        code = "furiten-tsumo" if tsumo else ""
        own = seat.waits & seat.river_kinds
        if own:
            self.violation(code or "furiten-ron", f"{'tsumo' if tsumo else 'ron'} on a hand "
                           f"waiting on {kinds_text(own)}, which the player has discarded", w,
                           evidence=(self._picture(w), ("waits", kinds_text(seat.waits)),
                                     ("discarded", kinds_text(own))), move=False)
        elif seat.riichi_furiten:
            self.violation(code or "furiten-riichi", "win after passing a winning tile in "
                           f"riichi: {seat.riichi_furiten}", w,
                           evidence=(self._picture(w), ("waits", kinds_text(seat.waits)),
                                     ("passed", seat.riichi_furiten)), move=False)
        elif seat.passed:
            self.violation(code or "furiten-passed", "win after passing a winning tile "
                           f"since the player's last discard: {seat.passed}", w,
                           evidence=(self._picture(w), ("waits", kinds_text(seat.waits)),
                                     ("passed", seat.passed)), move=False)

    def _abortive(self, ev: AbortiveDraw) -> None:
        s = self.engine.state
        rules = self.rules
        kind = ev.kind
        why = ""
        if kind == "nine-terminals":
            p = s.to_discard
            ps = s.players[p] if p >= 0 else None
            kinds = {KIND_OF[t] for t in ps.concealed} & _TERMINALS_HONOURS if ps else set()
            if not rules.riichi.nine_terminals:
                why = "the ruleset has no 九種九牌"
            elif ps is None or ps.river or s.calls:
                why = "not on the player's first draw of an uninterrupted go-around"
            elif not ps.unknown and len(kinds) < 9:
                why = f"only {len(kinds)} different terminals and honours in hand"
        elif kind == "four-winds":
            ok = self.abort_due.startswith("四風連打")
            why = "" if ok else "the first four discards are not one wind, uncalled"
            why = why or ("" if rules.riichi.four_winds else "the ruleset has no 四風連打")
        elif kind == "four-riichi":
            why = "" if self.riichi_count >= 4 else f"only {self.riichi_count} riichi"
            why = why or ("" if rules.riichi.four_riichi else "the ruleset has no 四家立直")
        elif kind == "four-kans":
            if len(self.kan_players) < 4 or (len(set(self.kan_players)) == 1
                                             and len(self.kan_players) == 4):
                why = f"{len(self.kan_players)} kans, by players " \
                    f"{', '.join(map(str, self.kan_players)) or 'nobody'}"
            elif rules.riichi.four_kans == "no-abort":
                why = "the ruleset has no 四開槓"
        elif kind == "triple-ron" and not rules.riichi.triple_ron:
            why = "the ruleset has no 三家和"
        if why:
            self.violation("abortive-unjustified", f"abortive draw ({kind}): {why}", None,
                           move=False)
        self.abort_due = ""

    def _exhaustive(self, ev: ExhaustiveDraw) -> None:
        self._settle()
        self._missed_abort()


def _counts(ps: PlayerState, without: int = -1) -> list[int]:
    """Kind counts of a player's concealed tiles, leaving out the physical tile ``without``."""
    return counts_of([KIND_OF[t] for t in ps.concealed if t != without])


def _meld_text(call: Chi | Pon | OpenKan | AddedKan | ClosedKan, red: bool) -> str:
    return f"{call.TYPE} {tiles_str(call.tiles, red)}"


def _readings_without(counts: list[int], mask: int, kind: int) -> list[YakuReading]:
    """Readings of the tenpai hand (one per winning tile) with no triplet of ``kind``."""
    out: list[YakuReading] = []
    for w in kinds_of_mask(mask):
        c = list(counts)
        c[w] += 1
        for pair, sets in readings(c):
            if not any(s[0] == kind and not s[1] for s in sets):
                out.append(YakuReading(pair, sets, len(sets), (f"wins on {kind_str(w)}",)))
    return out


def check(record: GameRecord, ruleset: Ruleset | None = None) -> tuple[Engine, list[Violation]]:
    """Replay ``record`` and judge it under ``ruleset`` (default: the record's own).

    Returns the engine (with the replay's own findings) and the violations.
    A Taiwanese ruleset is judged by :class:`mjlog.taiwan.referee.TaiwanReferee`.
    """
    start = record.events[0] if record.events else None
    own = start.ruleset if isinstance(start, GameStart) else None
    if (ruleset or own or Ruleset()).family == "taiwan16":
        from mjlog.taiwan.referee import TaiwanReferee

        tw = TaiwanReferee(record, ruleset, scores=False)
        return tw.engine, tw.run()[0]
    ref = Referee(record, ruleset)
    ref.run()
    return ref.engine, ref.violations

"""The Taiwanese referee: one replay that judges a ``taiwan16`` record and verifies its scores.

:class:`TaiwanReferee` drives the :class:`~mjlog.replay.engine.Engine` event
by event, like the riichi referee, with its own memory of each player:

* **過水** (``docs/rules.md`` section 3): a player enters it on passing a win
  (a discard or an added kan that completes the hand and is not won on, a
  drawn tile that completes it and is not won with, the replacement of an
  open kan included); a discard from a hand that was not complete ends it,
  except the discard of the turn whose tsumo was passed; an added kan ends
  it, a closed kan does not. A win in it is a false win (``guo-shui``), and
  the report names the passed win that started it.
* **T1-T5** (section 4): the discard after a chi that the same two tiles
  also wait on, the discard after a pon of the same tile, a pon of a tile
  already discarded in the same go-around, a call with three tiles or fewer
  left, a tsumo on the replacement chain of an open kan. T1-T4 make the
  hand openly dead (明相).
* **Flowers**: a flower kept in hand at a discard (暗相), a flower
  discarded (明相), a flower robbed without seven flowers or where 七搶一 is
  off; a flower set aside out of the procedure's order after the deal
  (``flower-order``: seat by seat from the dealer, a replacement flower
  waiting for the next go-around).
* **Wins**: a dead hand that wins (``dead-hand-win``); a hand that is no win
  (``false-win``, 詐胡); a ron on a closed kan (``chankan-closed``); a
  second ron on one tile (``double-ron``: the first in turn order wins).

Score verification rides along: each win is valued by
:func:`mjlog.taiwan.tai.tai` from the table and paid by
:func:`mjlog.taiwan.tai.payments`, and compared with the record's claims
(``win-yaku`` per pattern, ``win-tai``, ``win-points``, ``win-deltas``); a
draw pays nothing (``draw-deltas``); the next round keeps the dealer with
one more 連莊 after a dealer's win or a draw (``next-round``).

Declarations are remembered for scoring: 天聽 (:class:`~mjlog.events.ReadyDeclared`
during the flower procedure) and 地聽 (a first discard with ``riichi``); a
discard of another tile than the one drawn, or a call, ends them.

Not judged: call priority (a record shows only the call that was made).
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from typing import Any

from mjlog.diagnostics import ScoreMismatch, Violation
from mjlog.events import (
    AddedKan,
    Chi,
    ClosedKan,
    Discard,
    Draw,
    Event,
    ExhaustiveDraw,
    Flower,
    GameStart,
    OpenKan,
    Pon,
    ReadyDeclared,
    RoundStart,
    Win,
    round_label,
)
from mjlog.record import GameRecord
from mjlog.replay.engine import Engine
from mjlog.rules import RULES
from mjlog.rules.evidence import hand_picture, kinds_text
from mjlog.ruleset import Ruleset, TaiwanOptions, describe
from mjlog.scoring.payments import next_round
from mjlog.scoring.verify import ScoreReport
from mjlog.taiwan import tai as tw
from mjlog.taiwan.hand import is_win, kind_counts, meld_of, partner_waits, waits
from mjlog.tiles import FIRST_FLOWER, KIND_OF, NUM_KINDS, kind_str, tile_str

_UNFIT = (IndexError, KeyError, ValueError, TypeError)


class _Seat:
    """The referee's memory of one Taiwanese player in the current round."""

    __slots__ = (
        "ban",
        "dead",
        "declared",
        "discards",
        "drawn_rinshan",
        "guo_shui",
        "heavenly_ready",
        "kan_chain",
        "passed_tsumo",
        "robbed",
        "robbed_tile",
    )

    def __init__(self) -> None:
        self.guo_shui = ""
        """The passed win that put the player in 過水 (evidence), empty when not in it."""
        self.passed_tsumo = False
        """This turn's drawn tile completed the hand and was not won with."""
        self.dead = ""
        """Why the hand is dead (暗相/明相), empty when it is alive."""
        self.ban: tuple[str, int] = ("", 0)
        """After a chi or pon: the rule and the kinds (mask) its discard may not be."""
        self.kan_chain = False
        """Drawing replacements after an open kan (T5)."""
        self.drawn_rinshan = False
        self.declared = 0
        """地聽: the turn it was declared on the first discard (0: not declared)."""
        self.heavenly_ready = False
        """天聽 was declared during the flower procedure and still stands."""
        self.discards = 0
        self.robbed = -1
        """The seat this player took a flower from (七搶一), -1 when none."""
        self.robbed_tile = -1


class TaiwanReferee:
    """Replays one game under a ``taiwan16`` ruleset: violations and the score report."""

    def __init__(self, record: GameRecord, ruleset: Ruleset | None = None, *,
                 rules: bool = True, scores: bool = True) -> None:
        self.record = record
        self.events = record.events
        self.engine = Engine(record.src)
        self.rs = ruleset or Ruleset(family_options=TaiwanOptions())
        self._fixed = ruleset is not None
        self.label = describe(self.rs)
        self.check_rules = rules
        self.check_scores = scores
        self.violations: list[Violation] = []
        self.report = ScoreReport()
        self.seats: list[_Seat] = []
        self.index = -1
        self.pending: tuple[int, int, str, int] | None = None
        """A tile others may win on: (player, tile, ``discard``/``added kan``, turn)."""
        self.winners: set[int] = set()
        self.river: list[tuple[int, int]] = []
        """This round's discards: (player, kind)."""
        self.expected: tuple[int, int, int, int] | None = None
        self.round_has_win = False
        self.east = 0
        self.deal_flowers: list[int] = []
        self.procedure = (0, 0)
        """Where the flower procedure after the deal stands: (go-around, seat from the dealer)."""
        self.due: dict[int, tuple[int, int]] = {}
        """Flowers held during the procedure: tile -> (go-around it may be set aside in, seat)."""
        self.out_of_order: set[int] = set()
        self._pre: dict[type, Callable[[Any], None]] = {
            GameStart: self._game_start, RoundStart: self._round_start, Draw: self._draw,
            Discard: self._discard, Chi: self._call, Pon: self._call, OpenKan: self._call,
            AddedKan: self._added_kan, ClosedKan: self._closed_kan, Flower: self._flower,
            ReadyDeclared: self._ready, Win: self._win, ExhaustiveDraw: self._exhaustive,
        }
        self._post: dict[type, Callable[[Any], None]] = {
            Draw: self._after_draw, Discard: self._after_discard, AddedKan: self._after_added,
            OpenKan: self._after_open_kan,
        }

    # -- driving

    def run(self) -> tuple[list[Violation], ScoreReport]:
        """Judge and apply every event; return the violations and the score report."""
        engine = self.engine
        for i, ev in enumerate(self.events):
            self.index = i
            cls = ev.__class__
            if cls is not Win and self.pending is not None:
                self._settle()
            h = self._pre.get(cls)
            if h is not None:
                with contextlib.suppress(*_UNFIT):  # the engine reports what does not fit
                    h(ev)
            engine.apply(ev, i)
            g = self._post.get(cls)
            if g is not None:
                with contextlib.suppress(*_UNFIT):
                    g(ev)
        return self.violations, self.report

    def violation(self, code: str, message: str, player: int | None, *,
                  evidence: tuple[tuple[str, str], ...] = (), consequence: str = "") -> None:
        """Record a violation of rule ``code`` at the current event."""
        if not self.check_rules:
            return
        rule = RULES[code]
        s = self.engine.state
        self.violations.append(Violation(
            code=code, rule=rule.section, citation=rule.citation, message=message,
            ruleset=self.label, round=self.engine.round, turn=s.turn + 1, event=self.index,
            player=player, src=self.record.src(self.index), evidence=evidence,
            consequence=consequence,
        ))

    def mismatch(self, code: str, fld: str, recorded: bool | int | str | None,
                 computed: bool | int | str | None, *, player: int | None = None) -> None:
        """Record a score mismatch at the current event."""
        if not self.check_scores:
            return
        s = self.engine.state
        self.report.mismatches.append(ScoreMismatch(
            code=code, field=fld, recorded=recorded, computed=computed,
            round=round_label(s.round_wind, s.round_number, s.honba) if self.engine.rounds
            else "", turn=s.turn, player=player, src=self.record.src(self.index)))

    def _kill(self, p: int, why: str, code: str, message: str,
              evidence: tuple[tuple[str, str], ...] = ()) -> None:
        seat = self.seats[p]
        if not seat.dead:
            seat.dead = why
        self.violation(code, message, p, evidence=(*evidence, self._picture(p)),
                       consequence=f"the hand is dead ({why}): it may not win this round")

    def _picture(self, p: int) -> tuple[str, str]:
        return ("hand", hand_picture(self.engine.state.players[p], False))

    # -- the hand

    def _counts(self, p: int, extra: int = -1) -> list[int]:
        return kind_counts(self.engine.state.players[p].concealed, extra)

    def _complete(self, p: int, extra: int = -1) -> bool:
        ps = self.engine.state.players[p]
        if ps.unknown or any(KIND_OF[t] >= NUM_KINDS for t in ps.concealed) \
                or (extra >= 0 and KIND_OF[extra] >= NUM_KINDS):
            return False
        return is_win(self._counts(p, extra), len(ps.melds), liguligu=self.rs.taiwan.liguligu,
                      sixteen=self.rs.taiwan.sixteen)

    def _enter(self, p: int, what: str) -> None:
        seat = self.seats[p]
        if not seat.guo_shui and not seat.dead:
            seat.guo_shui = what

    # -- game and round

    def _game_start(self, ev: GameStart) -> None:
        if not self._fixed:
            self.rs = ev.ruleset
            self.label = describe(self.rs)

    def _round_start(self, ev: RoundStart) -> None:
        exp = self.expected
        if exp is not None:
            got = (ev.round_wind, ev.round_number, ev.honba, ev.dealer)
            for name, r, c in zip(("round wind", "round number", "lian (honba)", "dealer"),
                                  got, exp, strict=True):
                if r != c:
                    self.mismatch("next-round", name, r, c)
        self.expected = None
        self.seats = [_Seat() for _ in ev.hands]
        self.pending = None
        self.river = []
        self.round_has_win = False
        self.east = tw.east_seat(ev.dealer, ev.dice, self.rs, len(ev.hands))
        self.deal_flowers = [0] * len(ev.hands)
        n = len(ev.hands)
        self.procedure = (0, 0)
        self.out_of_order = set()
        self.due = {t: (0, (p - ev.dealer) % n) for p, hand in enumerate(ev.hands)
                    for t in hand if KIND_OF[t] >= NUM_KINDS}

    def _end_round(self, dealer_keeps: bool) -> None:
        s = self.engine.state
        self.expected = next_round(s.round_wind, s.round_number, s.honba, s.dealer, s.n,
                                   dealer_keeps=dealer_keeps, honba_up=dealer_keeps)

    # -- passing a win

    def _settle(self) -> None:
        """The tile others could win on was not won on: whoever it completes passed it."""
        assert self.pending is not None
        p, tile, what, turn = self.pending
        self.pending = None
        for q in range(self.engine.state.n):
            if q != p and q not in self.winners and self._complete(q, tile):
                self._enter(q, f"passed a win on {tile_str(tile, False)} ({what} by player "
                            f"{p}, turn {turn})")
        self.winners = set()

    # -- moves

    def _draw(self, ev: Draw) -> None:
        s = self.engine.state
        if s.dealing and KIND_OF[ev.tile] >= NUM_KINDS:  # a replacement flower waits a round
            self.due[ev.tile] = (self.procedure[0] + 1, (ev.player - s.dealer) % s.n)
        seat = self.seats[ev.player]
        seat.drawn_rinshan = ev.rinshan
        seat.passed_tsumo = False

    def _after_draw(self, ev: Draw) -> None:
        p = ev.player
        nxt = self.events[self.index + 1] if self.index + 1 < len(self.events) else None
        if (isinstance(nxt, Win) and nxt.winner == p) or self.engine.state.dealing:
            return  # nothing is passed during the flower procedure: 天胡 comes after it
        if KIND_OF[ev.tile] < NUM_KINDS and self._complete(p):
            seat = self.seats[p]
            seat.passed_tsumo = True
            why = " (the replacement of an open kan, T5)" if seat.kan_chain else ""
            self._enter(p, f"passed a tsumo on {tile_str(ev.tile, False)}{why} "
                        f"(turn {self.engine.state.turn})")

    def _discard(self, ev: Discard) -> None:
        p = ev.player
        s = self.engine.state
        seat = self.seats[p]
        kind = KIND_OF[ev.tile]
        if s.dealing:  # the flower procedure is over: a flower still in hand is kept
            for q in range(s.n):
                self._kept(q, ev.tile if q == p else -1)
        else:
            self._kept(p, ev.tile)
        if kind >= NUM_KINDS:
            self._kill(p, "明相", "flower-discarded",
                       f"discards flower {tile_str(ev.tile)} instead of setting it aside")
        rule, banned = seat.ban
        if rule and kind < NUM_KINDS and banned >> kind & 1:
            self._kill(p, "明相", rule, f"discards {kind_str(kind)} right after the "
                       f"{'chi' if rule == 'chi-wait-discard' else 'pon'}",
                       (("may not discard", kinds_text(banned)),))
        seat.ban = ("", 0)
        if seat.declared and seat.discards and not ev.tsumogiri:
            seat.declared = 0  # 地聽 ends when the hand changes
        if seat.heavenly_ready and not ev.tsumogiri:
            seat.heavenly_ready = False  # so does 天聽, from the first discard on
        if seat.guo_shui and not seat.passed_tsumo and not self._complete(p):
            seat.guo_shui = ""
        seat.passed_tsumo = False
        seat.kan_chain = False
        if ev.riichi and seat.discards == 0 and not s.players[p].melds \
                and not seat.heavenly_ready:
            seat.declared = s.turn + 1
        seat.discards += 1
        self.river.append((p, kind))

    def _kept(self, p: int, discarded: int) -> None:
        ps = self.engine.state.players[p]
        kept = [t for t in ps.concealed if KIND_OF[t] >= NUM_KINDS and t != discarded]
        if kept and not self.seats[p].dead:
            self._kill(p, "暗相", "flower-kept",
                       f"keeps flower {tile_str(kept[0])} in hand instead of setting it aside")

    def _after_discard(self, ev: Discard) -> None:
        self.pending = (ev.player, ev.tile, "discard", self.engine.state.turn)
        self.winners = set()

    def _call(self, ev: Chi | Pon | OpenKan) -> None:
        p = ev.player
        s = self.engine.state
        kind = KIND_OF[ev.called]
        if s.live_wall <= 3:
            self._kill(p, "明相", "call-late", f"{ev.TYPE.replace('_', ' ')} with "
                       f"{s.live_wall} tiles left in the wall", (("wall", str(s.live_wall)),))
        if isinstance(ev, Pon):
            earlier = self._same_go_around(p, kind)
            if earlier >= 0:
                self._kill(p, "明相", "pon-same-go-around",
                           f"pon of {kind_str(kind)}, which player {earlier} discarded "
                           "earlier in the same go-around")
            self.seats[p].ban = ("pon-discard", 1 << kind)
        elif isinstance(ev, Chi):
            own = sorted(KIND_OF[t] for t in ev.tiles if t != ev.called)
            self.seats[p].ban = ("chi-wait-discard", partner_waits(own[0], own[1]))
        self.seats[p].declared = 0
        self.seats[p].heavenly_ready = False

    def _same_go_around(self, p: int, kind: int) -> int:
        """The player who discarded ``kind`` since ``p``'s own last discard (included),
        before the discard being called; -1 when nobody did."""
        for q, k in reversed(self.river[:-1]):
            if k == kind:
                return q
            if q == p:
                break
        return -1

    def _after_open_kan(self, ev: OpenKan) -> None:
        self.seats[ev.player].kan_chain = True

    def _added_kan(self, ev: AddedKan) -> None:
        self.seats[ev.player].guo_shui = ""  # an added kan risks robbing, as a discard does

    def _after_added(self, ev: AddedKan) -> None:
        self.pending = (ev.player, ev.added, "added kan", self.engine.state.turn)
        self.winners = set()

    def _closed_kan(self, ev: ClosedKan) -> None:
        self.seats[ev.player].passed_tsumo = False

    def _flower(self, ev: Flower) -> None:
        p = ev.player
        s = self.engine.state
        if s.dealing:
            self.deal_flowers[p] += 1
            if ev.from_player is None:
                self._procedure_order(p, ev.tile)
        if ev.from_player is not None:
            held = len(s.players[p].flowers)
            if not self.rs.taiwan.seven_rob_one or held != 7:
                why = ("七搶一 is not played under this ruleset" if not self.rs.taiwan.seven_rob_one
                       else f"the player has {held} flowers, not seven")
                self._kill(p, "明相", "flower-rob", f"takes flower {tile_str(ev.tile)} from "
                           f"player {ev.from_player}: {why}")
            self.seats[p].robbed = ev.from_player
            self.seats[p].robbed_tile = ev.tile

    def _ready(self, ev: ReadyDeclared) -> None:
        s = self.engine.state
        if s.dealing and ev.player != s.dealer:  # the engine reports any other declaration
            self.seats[ev.player].heavenly_ready = True

    def _procedure_order(self, p: int, tile: int) -> None:
        """Judge a flower set aside after the deal against the procedure: seat by seat from
        the dealer, each setting aside what it held at its turn, go-around after go-around
        (a replacement flower waits for the next one).

        A flower set aside after its seat's turn has passed is late; one set aside early
        (in the go-around its replacement came in) is reported only when another flower
        was still due before it. A flower never set aside is ``flower-kept``, not this.
        """
        s = self.engine.state
        done, at = self.procedure
        first, seat = self.due.pop(tile, (0, (p - s.dealer) % s.n))
        here = (max(first, done + (seat < at)), seat)  # the first turn of that seat it may use
        late = first < here[0]
        skipped: list[tuple[int, int, int]] = []
        if first > done:  # a replacement of this go-around: others still due go first
            skipped = sorted((r, q, t) for t, (r, q) in self.due.items()
                             if (done, at) <= (r, q) < here and t not in self.out_of_order)
        if (late and tile not in self.out_of_order) or skipped:
            other = (skipped[0][1] + s.dealer) % s.n if skipped else (at + s.dealer) % s.n
            message = (f"sets flower {tile_str(tile)} aside in the go-around it came in, "
                       f"before player {other} set {tile_str(skipped[0][2])} aside"
                       if skipped else f"sets flower {tile_str(tile)} aside late: it was due "
                       f"in go-around {first + 1}, before player {other}'s flowers")
            self.violation("flower-order", message, p, evidence=(
                ("procedure", f"from the dealer seat by seat, go-around {here[0] + 1} now"),
                self._picture(p)), consequence="not allowed: the replacement tiles go to other "
                "players than the procedure gives")
            self.out_of_order.update(t for _, _, t in skipped)  # each is reported once
        if late:  # the rest of that late turn is not reported again; the procedure stays
            self.out_of_order.update(t for t, d in self.due.items() if d == (first, seat))
            return
        self.procedure = here

    # -- results

    def _win(self, ev: Win) -> None:
        w = ev.winner
        self.winners.add(w)
        s = self.engine.state
        seat = self.seats[w]
        tsumo = ev.from_player == w
        first = not self.round_has_win
        self.round_has_win = True
        flowers = [t - FIRST_FLOWER for t in s.players[w].flowers]
        flower_win = ""
        if len(flowers) == 8 and tsumo:
            flower_win = "rob" if seat.robbed >= 0 else "eight"
        if not tsumo:
            tile = ev.win_tile
            complete = self._complete(w, tile)
        else:
            tile = ev.win_tile
            complete = self._complete(w)
        if seat.dead:
            self.violation("dead-hand-win", f"wins with a dead hand ({seat.dead})", w,
                           evidence=(self._picture(w),),
                           consequence="false win (詐胡): the win is void")
        elif not complete and not flower_win:
            self.violation("false-win", "declares a win with a hand that is not complete", w,
                           evidence=(self._picture(w),),
                           consequence="false win (詐胡): the win is void")
        elif seat.guo_shui:
            self.violation("guo-shui", "wins while in 過水", w,
                           evidence=(("passed", seat.guo_shui), self._picture(w)),
                           consequence="false win (詐胡): the win is void")
        if not tsumo and isinstance(self.events[self.index - 1], ClosedKan):
            self.violation("chankan-closed", "ron on the tile of a closed kan", w,
                           evidence=(self._picture(w),),
                           consequence="false win (詐胡): only an added kan may be robbed")
        elif not tsumo and len(self.winners) > 1 and not self.rs.double_ron:
            self.violation("double-ron", "another ron on the same tile: the first player in "
                           "turn order from the discarder wins alone (截胡)", w,
                           consequence="false win (詐胡): the win is void")
        if tsumo and seat.kan_chain and complete:
            self.violation("open-kan-tsumo", "tsumo on the replacement of an open kan", w,
                           evidence=(self._picture(w),),
                           consequence="false win (詐胡): the win is void; the player is in "
                           "過水")
        if self.check_scores:
            self._score(ev, first, complete, flower_win, flowers)
        self._end_round(dealer_keeps=w == s.dealer)

    def _score(self, ev: Win, first: bool, complete: bool, flower_win: str,
               flowers: list[int]) -> None:
        rep = self.report
        rep.wins += 1
        s = self.engine.state
        w = ev.winner
        tsumo = ev.from_player == w
        seat = self.seats[w]
        counts = self._counts(w, -1 if tsumo else ev.win_tile)
        before = list(counts)
        if KIND_OF[ev.win_tile] < NUM_KINDS:
            before[KIND_OF[ev.win_tile]] -= 1
        ps = s.players[w]
        melds = tuple(meld_of(m) for m in ps.melds)
        declared = 0
        if seat.declared:
            declared = 2 if seat.discards == 1 else 1
        robbed = seat.robbed
        method_one = robbed >= 0 and not _own_flower_before_rob(self.events, self.index, w)
        win = tw.TaiWin(
            counts=tuple(counts), melds=melds, win_kind=KIND_OF[ev.win_tile],
            tsumo=tsumo and not method_one,
            waits=waits(before, len(melds), liguligu=self.rs.taiwan.liguligu,
                        sixteen=self.rs.taiwan.sixteen) if complete else 0,
            seat_wind=(w - self.east) % s.n, round_wind=s.round_wind, flowers=tuple(flowers),
            last_tile=s.live_wall == 0, replacement=seat.drawn_rinshan and tsumo,
            robbed_kan=self.pending is not None and self.pending[2] == "added kan",
            heavenly=tsumo and w == s.dealer and s.dealing,
            declared=declared, flower_win=flower_win,
            heavenly_ready=(2 if seat.discards == 0 else 1) if seat.heavenly_ready else 0,
            # 配牌花胡: eight flowers from the deal, or seven and a rob before the first discard
            flower_win_in_deal=bool(flower_win) and (
                self.deal_flowers[w] == 8
                or (self.deal_flowers[w] == 7 and robbed >= 0 and seat.discards == 0)),
        )
        claims = tw.tai(win, self.rs) if (complete or flower_win) else None
        if claims is None:
            self.mismatch("win-unscorable", "hand", None, None, player=w)
            return
        rep.wins_verified += 1
        recorded = {y.name: y.han for y in ev.yaku if y.han}
        computed = {y.name: y.han for y in claims}
        for name in sorted(recorded.keys() | computed.keys()):
            if recorded.get(name) != computed.get(name):
                self.mismatch("win-yaku", f"yaku.{name}", recorded.get(name),
                              computed.get(name), player=w)
        hand_tai = tw.total(claims)
        if ev.han != hand_tai:
            self.mismatch("win-tai", "tai", ev.han, hand_tai, player=w)
        deltas = self._deltas(ev, win, claims, robbed, method_one, complete)
        if ev.points != deltas[w]:
            self.mismatch("win-points", "points", ev.points, deltas[w], player=w)
        if ev.deltas and first:
            for p, (r, c) in enumerate(zip(ev.deltas, deltas, strict=False)):
                if r != c:
                    self.mismatch("win-deltas", f"deltas[{p}]", r, c, player=p)

    def _deltas(self, ev: Win, win: tw.TaiWin, claims: tuple[Any, ...], robbed: int,
                method_one: bool, complete: bool) -> list[int]:
        s = self.engine.state
        w = ev.winner
        total = tw.total(claims)
        if robbed < 0 or not win.flower_win:
            payer = None if ev.from_player == w else ev.from_player
            return tw.payments(s.n, w, payer, s.dealer, s.honba, total, self.rs)
        rob = next(c.han for c in claims if c.name in ("qiqiangyi", "huahu"))
        if not complete or method_one:  # the robbed player pays it all
            return tw.payments(s.n, w, robbed, s.dealer, s.honba, total, self.rs)
        taken = self.seats[w].robbed_tile - FIRST_FLOWER  # the others pay the seven others
        flowers = sum(tw.flower_tai([f for f in win.flowers if f != taken],
                                    win.seat_wind).values())
        extra = {p: flowers for p in range(s.n) if p not in (w, robbed)}
        return tw.payments(s.n, w, None, s.dealer, s.honba, total - rob, self.rs,
                           extra={**extra, robbed: rob})

    def _exhaustive(self, ev: ExhaustiveDraw) -> None:
        if self.check_scores:
            self.report.draws += 1
            if any(ev.deltas):
                for p, d in enumerate(ev.deltas):
                    if d:
                        self.mismatch("draw-deltas", f"deltas[{p}]", d, 0, player=p)
            else:
                self.report.draws_verified += 1
        self._end_round(dealer_keeps=True)


def _own_flower_before_rob(events: list[Event], index: int, w: int) -> bool:
    """Whether the winner's rob of a flower came right after setting aside a flower of
    their own (七搶一 the second way, paid as a tsumo) rather than on another's flower."""
    for i in range(index - 1, 0, -1):
        ev = events[i]
        if isinstance(ev, Flower) and ev.player == w and ev.from_player is not None:
            prev = events[i - 1]
            return isinstance(prev, Flower) and prev.player == w and prev.from_player is None
    return False


def judge(record: GameRecord, ruleset: Ruleset | None = None) -> tuple[list[Violation],
                                                                       ScoreReport, Engine]:
    """Replay a Taiwanese record: its violations, its score report and the engine."""
    ref = TaiwanReferee(record, ruleset)
    violations, report = ref.run()
    return violations, report, ref.engine


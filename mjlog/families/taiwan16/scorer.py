"""Score verification of ``taiwan16`` records: every win's 台 and payments, every draw.

:class:`TaiwanScorer` observes the replay beside the Taiwanese referee (whose
memory it reads: the tile that may be robbed, the flower a player took,
whether the winning hand is complete). Each win is valued by
:func:`mjlog.families.taiwan16.tai.tai` from the table and paid by
:func:`mjlog.families.taiwan16.tai.payments`, and compared with the record's claims
(``win-yaku`` per pattern, ``win-tai``, ``win-points``, ``win-deltas``); a
draw pays nothing (``draw-deltas``); the next round keeps the dealer with one
more 連莊 after a dealer's win or a draw (``next-round``).

Declarations are remembered for scoring: 天聽 (a
:class:`~mjlog.core.events.ReadyDeclared` during the flower procedure) and 地聽 (a
first discard with ``riichi``); a discard of another tile than the one drawn,
or a call, ends them. It checks values only: whether a win was allowed is the
checks' business.
"""

from __future__ import annotations

from dataclasses import dataclass

from mjlog.core.diagnostics import ScoreMismatch
from mjlog.core.events import (
    Chi,
    Discard,
    Draw,
    Event,
    ExhaustiveDraw,
    Flower,
    OpenKan,
    Pon,
    ReadyDeclared,
    RoundStart,
    Win,
    YakuClaim,
)
from mjlog.core.tiles import FIRST_FLOWER, KIND_OF, NUM_KINDS
from mjlog.families.riichi.scoring.payments import next_round
from mjlog.families.riichi.scoring.verify import ScoreReport
from mjlog.families.taiwan16 import tai as tw
from mjlog.families.taiwan16.hand import kind_counts, meld_of, waits
from mjlog.families.taiwan16.referee import TaiwanReferee
from mjlog.replay.observer import Observer


@dataclass(slots=True)
class _Seat:
    """What scoring remembers of one player in the current round."""

    declared: int = 0
    """地聽: the turn it was declared on the first discard (0: not declared)."""
    heavenly_ready: bool = False
    """天聽 was declared during the flower procedure and still stands."""
    discards: int = 0
    drawn_rinshan: bool = False
    deal_flowers: int = 0
    """Flowers set aside during the procedure after the deal."""


class TaiwanScorer(Observer):
    """Verifies a ``taiwan16`` game's values and payments (module docstring)."""

    name = "scores"

    def __init__(self, referee: TaiwanReferee) -> None:
        self.ref = referee
        self.report = ScoreReport()
        self.seats: list[_Seat] = []
        self.expected: tuple[int, int, int, int] | None = None
        self.round_has_win = False
        self.east = 0

    def mismatch(self, code: str, fld: str, recorded: bool | int | str | None,
                 computed: bool | int | str | None, *, player: int | None = None) -> None:
        """Record a score mismatch at the current event."""
        engine = self.ref.engine
        s = engine.state
        self.report.mismatches.append(ScoreMismatch(
            code=code, field=fld, recorded=recorded, computed=computed, round=engine.round,
            turn=s.turn, player=player, src=self.ref.record.src(engine.index)))

    # -- the round

    def before_round_start(self, ev: RoundStart) -> None:
        exp = self.expected
        if exp is not None:
            got = (ev.round_wind, ev.round_number, ev.honba, ev.dealer)
            for name, r, c in zip(("round wind", "round number", "lian (honba)", "dealer"),
                                  got, exp, strict=True):
                if r != c:
                    self.mismatch("next-round", name, r, c)
        self.expected = None
        self.seats = [_Seat() for _ in ev.hands]
        self.round_has_win = False
        self.east = tw.east_seat(ev.dealer, ev.dice, self.ref.rules, len(ev.hands))

    def _end_round(self, dealer_keeps: bool) -> None:
        s = self.ref.engine.state
        self.expected = next_round(s.round_wind, s.round_number, s.honba, s.dealer, s.n,
                                   dealer_keeps=dealer_keeps, honba_up=dealer_keeps)

    # -- declarations and what a win's value depends on

    def before_draw(self, ev: Draw) -> None:
        self.seats[ev.player].drawn_rinshan = ev.rinshan

    def before_discard(self, ev: Discard) -> None:
        seat = self.seats[ev.player]
        if seat.declared and seat.discards and not ev.tsumogiri:
            seat.declared = 0  # 地聽 ends when the hand changes
        if seat.heavenly_ready and not ev.tsumogiri:
            seat.heavenly_ready = False  # so does 天聽, from the first discard on
        if ev.riichi and seat.discards == 0 and not self.ref.engine.state.players[
                ev.player].melds and not seat.heavenly_ready:
            seat.declared = self.ref.engine.state.turn + 1
        seat.discards += 1

    def before_chi(self, ev: Chi | Pon | OpenKan) -> None:
        self.seats[ev.player].declared = 0
        self.seats[ev.player].heavenly_ready = False

    before_pon = before_open_kan = before_chi

    def before_flower(self, ev: Flower) -> None:
        if self.ref.engine.state.dealing:
            self.seats[ev.player].deal_flowers += 1

    def before_ready_declared(self, ev: ReadyDeclared) -> None:
        s = self.ref.engine.state
        if s.dealing and ev.player != s.dealer:  # the engine reports any other declaration
            self.seats[ev.player].heavenly_ready = True

    # -- results

    def before_win(self, ev: Win) -> None:
        first = not self.round_has_win
        self.round_has_win = True
        self._score(ev, first)
        self._end_round(dealer_keeps=ev.winner == self.ref.engine.state.dealer)

    def before_exhaustive_draw(self, ev: ExhaustiveDraw) -> None:
        self.report.draws += 1
        if any(ev.deltas):
            for p, d in enumerate(ev.deltas):
                if d:
                    self.mismatch("draw-deltas", f"deltas[{p}]", d, 0, player=p)
        else:
            self.report.draws_verified += 1
        self._end_round(dealer_keeps=True)

    def _score(self, ev: Win, first: bool) -> None:
        self.report.wins += 1
        ref, w = self.ref, ev.winner
        win = self._situation(ev)
        claims = tw.tai(win, ref.rules) if (ref.complete or ref.flower_win) else None
        if claims is None:
            self.mismatch("win-unscorable", "hand", None, None, player=w)
            return
        self.report.wins_verified += 1
        recorded = {y.name: y.han for y in ev.yaku if y.han}
        computed = {y.name: y.han for y in claims}
        for name in sorted(recorded.keys() | computed.keys()):
            if recorded.get(name) != computed.get(name):
                self.mismatch("win-yaku", f"yaku.{name}", recorded.get(name),
                              computed.get(name), player=w)
        hand_tai = tw.total(claims)
        if ev.han != hand_tai:
            self.mismatch("win-tai", "tai", ev.han, hand_tai, player=w)
        deltas = self._deltas(ev, win, claims)
        if ev.points != deltas[w]:
            self.mismatch("win-points", "points", ev.points, deltas[w], player=w)
        if ev.deltas and first:
            for p, (r, c) in enumerate(zip(ev.deltas, deltas, strict=False)):
                if r != c:
                    self.mismatch("win-deltas", f"deltas[{p}]", r, c, player=p)

    def _method_one(self, w: int) -> bool:
        """Whether a 七搶一 was made on another's flower (the robbed player pays it all)."""
        ref = self.ref
        return ref.seats[w].robbed >= 0 \
            and not _own_flower_before_rob(ref.events, ref.engine.index, w)

    def _situation(self, ev: Win) -> tw.TaiWin:
        ref, w = self.ref, ev.winner
        s = ref.engine.state
        tsumo = ev.from_player == w
        seat, memory = self.seats[w], ref.seats[w]
        counts = kind_counts(s.players[w].concealed, -1 if tsumo else ev.win_tile)
        before = list(counts)
        if KIND_OF[ev.win_tile] < NUM_KINDS:
            before[KIND_OF[ev.win_tile]] -= 1
        melds = tuple(meld_of(m) for m in s.players[w].melds)
        opts = ref.rules.taiwan
        return tw.TaiWin(
            counts=tuple(counts), melds=melds, win_kind=KIND_OF[ev.win_tile],
            tsumo=tsumo and not self._method_one(w),
            waits=waits(before, len(melds), liguligu=opts.liguligu, sixteen=opts.sixteen)
            if ref.complete else 0,
            seat_wind=(w - self.east) % s.n, round_wind=s.round_wind,
            flowers=tuple(t - FIRST_FLOWER for t in s.players[w].flowers),
            last_tile=s.live_wall == 0, replacement=seat.drawn_rinshan and tsumo,
            robbed_kan=ref.pending is not None and ref.pending[2] == "added kan",
            heavenly=tsumo and w == s.dealer and s.dealing,
            declared=(2 if seat.discards == 1 else 1) if seat.declared else 0,
            flower_win=ref.flower_win,
            heavenly_ready=(2 if seat.discards == 0 else 1) if seat.heavenly_ready else 0,
            # 配牌花胡: eight flowers from the deal, or seven and a rob before the first discard
            flower_win_in_deal=bool(ref.flower_win) and (
                seat.deal_flowers == 8
                or (seat.deal_flowers == 7 and memory.robbed >= 0 and seat.discards == 0)),
        )

    def _deltas(self, ev: Win, win: tw.TaiWin, claims: tuple[YakuClaim, ...]) -> list[int]:
        ref, w = self.ref, ev.winner
        s = ref.engine.state
        total = tw.total(claims)
        robbed = ref.seats[w].robbed
        if robbed < 0 or not win.flower_win:
            payer = None if ev.from_player == w else ev.from_player
            return tw.payments(s.n, w, payer, s.dealer, s.honba, total, ref.rules)
        rob = next(c.han for c in claims if c.name in ("qiqiangyi", "huahu"))
        if not ref.complete or self._method_one(w):  # the robbed player pays it all
            return tw.payments(s.n, w, robbed, s.dealer, s.honba, total, ref.rules)
        taken = ref.seats[w].robbed_tile - FIRST_FLOWER  # the others pay the seven others
        flowers = sum(tw.flower_tai([f for f in win.flowers if f != taken],
                                    win.seat_wind).values())
        extra = {p: flowers for p in range(s.n) if p not in (w, robbed)}
        return tw.payments(s.n, w, None, s.dealer, s.honba, total - rob, ref.rules,
                           extra={**extra, robbed: rob})


def _own_flower_before_rob(events: list[Event], index: int, w: int) -> bool:
    """Whether the winner's rob of a flower came right after setting aside a flower of
    their own (七搶一 the second way, paid as a tsumo) rather than on another's flower."""
    for i in range(index - 1, 0, -1):
        ev = events[i]
        if isinstance(ev, Flower) and ev.player == w and ev.from_player is not None:
            prev = events[i - 1]
            return isinstance(prev, Flower) and prev.player == w and prev.from_player is None
    return False

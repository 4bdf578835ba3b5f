"""Score verification of ``mcr`` records: every win's fans and payments, every draw.

:class:`MCRScorer` observes the replay beside the MCR referee, whose count of the
win being judged it reads (:func:`mjlog.families.mcr.referee.count_win`: the facts of the
win built from the table, counted by :func:`mjlog.families.mcr.fan.count_fan`). A win of
the minimum fan or more is paid by :func:`mjlog.families.mcr.payments.win_payments` and
compared with the record's claims: each fan (``win-yaku``, one per fan, by its
notation name :func:`fan_word`), the total fan (``win-han``), the winner's gain
(``win-points``) and each seat's change (``win-deltas``). A false win (no winning
shape, too few fan, a concealed kong robbed) is settled with the penalty of
:func:`mjlog.families.mcr.payments.false_win_payments` (``win-deltas``). A draw pays
nothing (``draw-deltas``); the deal passes after every hand (``next-round``).

It checks values only: whether a win was allowed is the checks' business.
"""

from __future__ import annotations

import re
from typing import Final

from mjlog.core.diagnostics import ScoreMismatch
from mjlog.core.events import ExhaustiveDraw, RoundStart, Win, YakuClaim
from mjlog.core.ruleset import Ruleset
from mjlog.families.mcr.fan import EXTRA_FANS, FAN_NAMES, FanCount
from mjlog.families.mcr.options import mcr_options
from mjlog.families.mcr.payments import false_win_payments, win_payments
from mjlog.families.mcr.referee import MCRReferee
from mjlog.families.riichi.scoring.payments import next_round
from mjlog.families.riichi.scoring.verify import ScoreReport
from mjlog.replay.observer import Observer

_NOT_WORD: Final = re.compile(r"[^a-z0-9]+")


def fan_word(name: str) -> str:
    """A fan's name as one notation word: ``All Pungs`` -> ``all-pungs``."""
    return _NOT_WORD.sub("-", name.lower()).strip("-")


FAN_POINTS: Final[dict[str, int]] = {fan_word(k): v for k, v in (FAN_NAMES | EXTRA_FANS).items()}
"""Every fan by its notation word, with its points (the 81 of the rules, and those the
counting library adds)."""
FAN_WORDS: Final[dict[str, str]] = {
    **{k: fan_word(k) for k in FAN_NAMES | EXTRA_FANS},
    **{k.lower(): fan_word(k) for k in FAN_NAMES | EXTRA_FANS},
    **{w: w for w in FAN_POINTS},
}
"""The notation word of a fan written by its English name (any case) or its word."""


def claims(count: FanCount) -> tuple[YakuClaim, ...]:
    """A count's fans as a win's claims: each fan's word, its points times its count (a
    fan listed twice is claimed once, with both)."""
    out: dict[str, int] = {}
    for f in count.fans:
        word = fan_word(f.name)
        out[word] = out.get(word, 0) + f.points * f.count
    return tuple(YakuClaim(name=k, han=v) for k, v in out.items())


def is_win(count: FanCount | str, rules: Ruleset) -> bool:
    """Whether a count is a win that reaches the ruleset's minimum fan (flowers apart)."""
    return isinstance(count, FanCount) \
        and count.without_flowers >= mcr_options(rules).minimum_fan


def deltas_of(count: FanCount | str, winner: int, discarder: int | None, players: int,
              rules: Ruleset) -> tuple[int, ...]:
    """What a win pays: :func:`~mjlog.families.mcr.payments.win_payments` of its total fan, or the
    false-win penalty where the count is no win of the minimum fan."""
    opts = mcr_options(rules)
    if isinstance(count, FanCount) and is_win(count, rules):
        return win_payments(count.total, winner, discarder, players, opts.base)
    return false_win_payments(winner, players, opts.false_win)


class MCRScorer(Observer):
    """Verifies an ``mcr`` game's values and payments (module docstring)."""

    name = "scores"

    def __init__(self, referee: MCRReferee) -> None:
        self.ref = referee
        self.report = ScoreReport()
        self.expected: tuple[int, int, int, int] | None = None

    def mismatch(self, code: str, fld: str, recorded: bool | int | str | None,
                 computed: bool | int | str | None, *, player: int | None = None) -> None:
        """Record a score mismatch at the current event."""
        engine = self.ref.engine
        self.report.mismatches.append(ScoreMismatch(
            code=code, field=fld, recorded=recorded, computed=computed, round=engine.round,
            turn=engine.state.turn, player=player, src=self.ref.record.src(engine.index)))

    def before_round_start(self, ev: RoundStart) -> None:
        exp = self.expected
        if exp is not None:
            got = (ev.round_wind, ev.round_number, ev.honba, ev.dealer)
            for name, r, c in zip(("round wind", "round number", "honba", "dealer"), got, exp,
                                  strict=True):
                if r != c:
                    self.mismatch("next-round", name, r, c)
        self.expected = None

    def _end_round(self) -> None:
        s = self.ref.engine.state
        self.expected = next_round(s.round_wind, s.round_number, s.honba, s.dealer, s.n,
                                   dealer_keeps=False, honba_up=False)

    def before_exhaustive_draw(self, ev: ExhaustiveDraw) -> None:
        self.report.draws += 1
        if any(ev.deltas):
            for p, d in enumerate(ev.deltas):
                if d:
                    self.mismatch("draw-deltas", f"deltas[{p}]", d, 0, player=p)
        else:
            self.report.draws_verified += 1
        self._end_round()

    def before_win(self, ev: Win) -> None:
        self.report.wins += 1
        ref, w = self.ref, ev.winner
        n = ref.engine.state.n
        count = ref.count
        payer = None if ev.from_player == w else ev.from_player
        if not (0 <= w < n and (payer is None or 0 <= payer < n)):
            self.mismatch("win-unscorable", "winner", w, None, player=None)
            return
        if count is None:  # the fans cannot be counted: nothing to verify the record by
            return
        self.report.wins_verified += 1
        opts = mcr_options(ref.rules)
        if ref.void or not isinstance(count, FanCount):
            deltas = false_win_payments(w, n, opts.false_win)
        else:
            deltas = win_payments(count.total, w, payer, n, opts.base)
            self._values(ev, count, deltas[w])
        if ev.deltas:
            for p, (r, c) in enumerate(zip(ev.deltas, deltas, strict=False)):
                if r != c:
                    self.mismatch("win-deltas", f"deltas[{p}]", r, c, player=p)
        self._end_round()

    def _values(self, ev: Win, count: FanCount, gain: int) -> None:
        """The claimed fans, total and points of a win against its count."""
        w = ev.winner
        recorded = {y.name: y.han for y in ev.yaku if y.han}
        computed = {y.name: y.han for y in claims(count)}
        for name in sorted(recorded.keys() | computed.keys()):
            if recorded.get(name) != computed.get(name):
                self.mismatch("win-yaku", f"fan.{name}", recorded.get(name),
                              computed.get(name), player=w)
        if ev.han != count.total:
            self.mismatch("win-han", "fan", ev.han, count.total, player=w)
        if ev.points != gain:
            self.mismatch("win-points", "points", ev.points, gain, player=w)

"""The ``mcr`` family: Chinese Official mahjong (MCR, 国标麻将).

Its checks are the units of :mod:`mjlog.families.mcr.checks`, judged in the order of
:data:`CHECKS` with an :class:`~mjlog.families.mcr.referee.MCRReferee`; its scores are
verified by :class:`~mjlog.families.mcr.scorer.MCRScorer`; its random players are
:mod:`mjlog.families.mcr.play`. Rounds turn no dora, nothing deposits a stick, a win's
value is its fan (the claims of a win in notation are its fans, by their words
:func:`~mjlog.families.mcr.scorer.fan_word`), and there is no limit.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

from mjlog.core.events import Event, Win, YakuClaim
from mjlog.core.record import GameRecord
from mjlog.core.ruleset import Ruleset
from mjlog.families.base import Judging, Result, RuleFamily
from mjlog.families.check import Check, Referee
from mjlog.families.mcr.checks import FalseWin, FlowerKept, FlowerReplaced, KongRob, TileCount
from mjlog.families.mcr.options import BOTZONE, FLAT_OPTIONS, PRESET, MCROptions, mcr_options
from mjlog.families.mcr.payments import win_payments
from mjlog.families.mcr.play import MCRGame
from mjlog.families.mcr.referee import MCRReferee, count_win
from mjlog.families.mcr.scorer import FAN_POINTS, FAN_WORDS, MCRScorer, claims, deltas_of, is_win
from mjlog.families.riichi.hand.shape import shanten, waits
from mjlog.families.riichi.players import Style
from mjlog.replay.engine import Engine
from mjlog.replay.state import TableState
from mjlog.wall.dealing import Geometry

CHECKS: tuple[type[Check[Any]], ...] = (
    FlowerKept, FlowerReplaced, TileCount, KongRob, FalseWin,
)
"""The MCR checks, in the order they judge each event (the order of their reports)."""


class MCR(RuleFamily):
    """Chinese Official mahjong (MCR)."""

    name: ClassVar[str] = "mcr"
    options = MCROptions
    option_rows = FLAT_OPTIONS
    presets = (PRESET, BOTZONE)
    title = "Chinese Official (MCR, 国标麻将)"
    has_dora = False
    riichi_stick = False
    needs_value = False
    value_unit = "fan"

    def wall(self, players: int) -> Geometry | None:
        """None: MCR tables break the wall by their own dice, which mjlog does not model
        (a stated wall is noted unverifiable)."""
        return None

    def checks(self) -> Sequence[type[Check[Any]]]:
        return CHECKS

    def referee(self, record: GameRecord, ruleset: Ruleset, engine: Engine) -> Referee:
        return MCRReferee(record, ruleset, engine)

    def judging(self, record: GameRecord, ruleset: Ruleset, engine: Engine, *, rules: bool,
                scores: bool) -> Judging:
        ref = MCRReferee(record, ruleset, engine)  # the scorer reads its count too
        j = Judging(observers=[ref], violations=ref.violations)
        if rules:
            j.observers.extend(c(ref) for c in CHECKS if c.enabled(ruleset))
        if scores:
            scorer = MCRScorer(ref)
            j.report = scorer.report
            j.observers.append(scorer)
        return j

    def random_game(self, ruleset: Ruleset, seed: int, style: Style) -> GameRecord:
        return MCRGame(ruleset, seed, style).play()

    def default_han(self, name: str, open_hand: bool, ruleset: Ruleset) -> int:
        """A fan's points (one count of it); 0 for a name that is no fan."""
        return FAN_POINTS.get(name, 0)

    def yaku_name(self, word: str) -> str:
        """A fan's notation word, from its English name (any case) or its word."""
        return FAN_WORDS.get(word, FAN_WORDS.get(word.lower(), word))

    def value_win(self, state: TableState, events: Sequence[Event], round_start: int,
                  win: Win, ruleset: Ruleset) -> tuple[int, int, tuple[YakuClaim, ...]] | str:
        """The fans of ``win`` on the table (no fu: 0), and the winner's gain; or why it is
        no win of the minimum fan."""
        count = count_win(state, events, len(events), win)
        if isinstance(count, str):
            return count
        if not is_win(count, ruleset):
            return f"{count.without_flowers} fan without the flowers: a false win"
        payer = None if win.from_player == win.winner else win.from_player
        deltas = deltas_of(count, win.winner, payer, state.n, ruleset)
        return 0, deltas[win.winner], claims(count)

    def yaku_names(self) -> frozenset[str]:
        return frozenset(FAN_POINTS)

    def limit(self, han: int, fu: int, ruleset: Ruleset) -> str:
        return ""

    def readiness(self, counts: Sequence[int], melds: int, ruleset: Ruleset) -> tuple[int, int]:
        """Shanten and waits over four sets and a pair, seven pairs and thirteen orphans
        (the knitted hands of MCR are not looked for); the fan minimum is not judged."""
        return shanten(counts, melds), waits(counts, melds)

    def result_deltas(self, ev: Result, *, players: int, dealer: int, first: bool,
                      ruleset: Ruleset) -> tuple[int, ...]:
        """A win pays its claimed fan (:func:`mjlog.families.mcr.payments.win_payments`: base + fan
        from the discarder, base from the others; base + fan from each when self-drawn);
        a draw pays nothing. A false win states its penalty itself (``deltas=``)."""
        if not isinstance(ev, Win):
            return (0,) * players
        if not (0 <= ev.winner < players and 0 <= ev.from_player < players):
            return ()
        payer = None if ev.from_player == ev.winner else ev.from_player
        fan = ev.han or sum(y.han for y in ev.yaku)
        return win_payments(max(fan, 0), ev.winner, payer, players,
                            mcr_options(ruleset).base)


MCR_FAMILY = MCR()

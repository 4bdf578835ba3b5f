"""The ``taiwan16`` family: Taiwanese 16-tile mahjong (台湾式十六張麻将).

Its checks are the units of :mod:`mjlog.families.taiwan16.checks`, judged in the order
of :data:`CHECKS` with a :class:`~mjlog.families.taiwan16.referee.TaiwanReferee`; its
scores are verified by :class:`~mjlog.families.taiwan16.scorer.TaiwanScorer`; its random
players are :mod:`mjlog.families.taiwan16.play`. Rounds turn no dora, a 地聽 declaration
deposits no stick, and a win may leave its points to its 台.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

from mjlog.core.events import Event, Win, YakuClaim
from mjlog.core.record import GameRecord
from mjlog.core.ruleset import Ruleset, TaiwanOptions
from mjlog.families.base import Judging, Result, RuleFamily
from mjlog.families.check import Check, Referee
from mjlog.families.riichi.hand.shape import standard_shanten
from mjlog.families.riichi.players import Style
from mjlog.families.taiwan16 import tai as tw
from mjlog.families.taiwan16.checks import (
    CallLate,
    DiscardAfterCall,
    FlowerDiscarded,
    FlowerKept,
    FlowerOrder,
    FlowerRob,
    OpenKanTsumo,
    PonSameGoAround,
    RonOnTile,
    WhoMayWin,
)
from mjlog.families.taiwan16.hand import waits
from mjlog.families.taiwan16.play import TaiwanGame
from mjlog.families.taiwan16.referee import TaiwanReferee
from mjlog.families.taiwan16.scorer import TaiwanScorer
from mjlog.replay.engine import Engine
from mjlog.replay.state import TableState
from mjlog.wall.dealing import TAIWAN, Geometry

CHECKS: tuple[type[Check[Any]], ...] = (
    FlowerKept, FlowerDiscarded, DiscardAfterCall, CallLate, PonSameGoAround, FlowerOrder,
    FlowerRob, WhoMayWin, RonOnTile, OpenKanTsumo,
)
"""The Taiwanese checks, in the order they judge each event (the order of their reports)."""


class Taiwan16(RuleFamily):
    """Taiwanese 16-tile mahjong."""

    name: ClassVar[str] = "taiwan16"
    options = TaiwanOptions
    has_dora = False
    riichi_stick = False
    needs_value = False
    value_unit = "台"
    title = "Taiwanese 16-tile (`--rules taiwan16`)"

    def wall(self, players: int) -> Geometry | None:
        """Walls of 18 stacks, a 16-tile dead wall, three dice."""
        return TAIWAN

    def checks(self) -> Sequence[type[Check[Any]]]:
        return CHECKS

    def referee(self, record: GameRecord, ruleset: Ruleset, engine: Engine) -> Referee:
        return TaiwanReferee(record, ruleset, engine)

    def judging(self, record: GameRecord, ruleset: Ruleset, engine: Engine, *, rules: bool,
                scores: bool) -> Judging:
        ref = TaiwanReferee(record, ruleset, engine)  # the scorer reads its memory too
        j = Judging(observers=[ref], violations=ref.violations)
        if rules:
            j.observers.extend(c(ref) for c in CHECKS if c.enabled(ruleset))
        if scores:
            scorer = TaiwanScorer(ref)
            j.report = scorer.report
            j.observers.append(scorer)
        return j

    def random_game(self, ruleset: Ruleset, seed: int, style: Style) -> GameRecord:
        return TaiwanGame(ruleset, seed, style).play()

    def default_han(self, name: str, open_hand: bool, ruleset: Ruleset) -> int:
        return tw.default_tai(name, ruleset)

    def yaku_name(self, word: str) -> str:
        return tw.NAME_OF.get(word, word)

    def value_win(self, state: TableState, events: Sequence[Event], round_start: int,
                  win: Win, ruleset: Ruleset) -> tuple[int, int, tuple[YakuClaim, ...]] | str:
        return "a Taiwanese win is valued from the 台 it claims"

    def yaku_names(self) -> frozenset[str]:
        return frozenset(tw.PATTERNS)

    def limit(self, han: int, fu: int, ruleset: Ruleset) -> str:
        return ""

    def readiness(self, counts: Sequence[int], melds: int, ruleset: Ruleset) -> tuple[int, int]:
        """Shanten over five sets and a pair; the waits of a hand one tile short, the
        special shapes included as the ruleset plays them. A hand one tile short is
        ready (0) exactly when it has a wait: one ready only for 嚦咕嚦咕 or 十六不搭 is 0,
        and one whose sets wait only on a fifth tile of a kind it holds four of is 1."""
        opts = ruleset.taiwan
        shanten = standard_shanten(counts, melds, sets=5)
        mask = waits(counts, melds, liguligu=opts.liguligu, sixteen=opts.sixteen)
        if sum(counts) % 3 == 1 and (shanten == 0) != bool(mask):
            shanten = 0 if mask else 1
        return shanten, mask

    def result_deltas(self, ev: Result, *, players: int, dealer: int, first: bool,
                      ruleset: Ruleset) -> tuple[int, ...]:
        """A win pays 底 + 台 x value for the 台 it claims, with the dealer's 2n + 1
        (:func:`mjlog.families.taiwan16.tai.payments`); a draw pays nothing."""
        n = players
        if not isinstance(ev, Win):
            return (0,) * n
        if not (0 <= ev.winner < n and 0 <= ev.from_player < n):
            return ()
        payer = None if ev.from_player == ev.winner else ev.from_player
        return tuple(tw.payments(n, ev.winner, payer, dealer, ev.honba, tw.total(ev.yaku),
                                 ruleset))


TAIWAN16 = Taiwan16()

"""The riichi family: Japanese riichi mahjong, four or three players.

Its checks are the units of :mod:`mjlog.families.riichi.rules` (section 1 kan rules, section 2
kanzen sakizuke, section 7 legality), judged in the order of :data:`CHECKS`
with a :class:`~mjlog.families.riichi.rules.referee.RiichiReferee`; its scores are verified by
:class:`~mjlog.families.riichi.scoring.verify.Verifier`; its random players are
:mod:`mjlog.families.riichi.players`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

from mjlog.core.events import AbortiveDraw, Event, ExhaustiveDraw, Win, YakuClaim
from mjlog.core.record import GameRecord
from mjlog.core.ruleset import RiichiOptions, Ruleset
from mjlog.families.base import Judging, Result, RuleFamily
from mjlog.families.check import Check, Referee
from mjlog.families.riichi.hand.shape import shanten, waits
from mjlog.families.riichi.players import RandomGame, Style
from mjlog.families.riichi.rules.calls import (
    ChiFromLeft,
    Kuikae,
    RiichiCall,
    RiichiHandChanged,
    RiichiIllegal,
)
from mjlog.families.riichi.rules.draws import Abortive, DoubleRon
from mjlog.families.riichi.rules.furiten import Furiten
from mjlog.families.riichi.rules.kan import (
    ChankanClosed,
    FifthKan,
    KanAfterCall,
    KanAfterRiichi,
    KanDora,
    KanWallEmpty,
    RinshanDraw,
)
from mjlog.families.riichi.rules.referee import RiichiReferee
from mjlog.families.riichi.rules.sakizuke import Sakizuke
from mjlog.families.riichi.rules.win import NoYakuWin
from mjlog.families.riichi.scoring.fast import hand_value
from mjlog.families.riichi.scoring.payments import draw_deltas, points_deltas
from mjlog.families.riichi.scoring.riichi import value
from mjlog.families.riichi.scoring.situation import situation
from mjlog.families.riichi.scoring.verify import Verifier, WinValues
from mjlog.families.riichi.scoring.written import payer
from mjlog.families.riichi.scoring.yaku import YAKU, default_han
from mjlog.replay.engine import Engine, Payer
from mjlog.replay.state import TableState
from mjlog.wall.dealing import RIICHI as RIICHI_WALL
from mjlog.wall.dealing import Geometry

CHECKS: tuple[type[Check[Any]], ...] = (
    DoubleRon, Abortive, RinshanDraw, KanDora, Kuikae, RiichiHandChanged, RiichiIllegal,
    ChiFromLeft, KanAfterCall, KanWallEmpty, FifthKan, RiichiCall, KanAfterRiichi,
    ChankanClosed, Furiten, Sakizuke, NoYakuWin,
)
"""The riichi checks, in the order they judge each event (the order of their reports)."""

_JAPANESE = {y.japanese: y.name for y in YAKU} | {"抜きドラ": "kita-dora"}
_NAMES = frozenset(y.name for y in YAKU) | {"kita-dora", "yakuhai"}
"""The yaku a claim may name: Tenhou's table, Mahjong Soul's kita dora (抜きドラ, one han
per kita), which score verification takes as dora (:mod:`mjlog.families.riichi.scoring.verify`),
and a
score sheet's ``yakuhai`` (value honours, without saying which: Pantheon's
``yakuhaiN``; a results-only win is valued by its written han, never by its yaku)."""


class Riichi(RuleFamily):
    """Japanese riichi mahjong."""

    name: ClassVar[str] = "riichi"
    options = RiichiOptions
    title = "The checks"

    def wall(self, players: int) -> Geometry | None:
        """The four-player table's walls of 17 stacks (the wall check refuses a stated wall
        of another number of players)."""
        return RIICHI_WALL

    def checks(self) -> Sequence[type[Check[Any]]]:
        return CHECKS

    def referee(self, record: GameRecord, ruleset: Ruleset, engine: Engine) -> Referee:
        return RiichiReferee(record, ruleset, engine)

    def judging(self, record: GameRecord, ruleset: Ruleset, engine: Engine, *, rules: bool,
                scores: bool) -> Judging:
        j = Judging()
        values = WinValues(ruleset)  # each win valued once, for the checks and the scores
        if rules:
            ref = RiichiReferee(record, ruleset, engine, values)
            j.violations = ref.violations
            j.observers = [ref, *(c(ref) for c in CHECKS if c.enabled(ruleset))]
        if scores:
            verifier = Verifier(record, ruleset, engine, yaku_judged=rules, values=values)
            j.report = verifier.report
            j.observers.append(verifier)
        return j

    def random_game(self, ruleset: Ruleset, seed: int, style: Style) -> GameRecord:
        return RandomGame(ruleset, seed, style).play()

    def default_han(self, name: str, open_hand: bool, ruleset: Ruleset) -> int:
        return default_han(name, open_hand)

    def yaku_name(self, word: str) -> str:
        return _JAPANESE.get(word, word)

    def yaku_names(self) -> frozenset[str]:
        return _NAMES

    def value_win(self, state: TableState, events: Sequence[Event], round_start: int,
                  win: Win, ruleset: Ruleset) -> tuple[int, int, tuple[YakuClaim, ...]] | str:
        val = value(situation(state, events, round_start, len(events), win), ruleset)
        return val.error or (val.fu, val.points, val.yaku)

    def limit(self, han: int, fu: int, ruleset: Ruleset) -> str:
        return hand_value(han, fu, ruleset)[1]

    def readiness(self, counts: Sequence[int], melds: int, ruleset: Ruleset) -> tuple[int, int]:
        """Shanten over the standard shape, seven pairs and thirteen orphans; the waits of
        a hand of 3n + 1 tiles."""
        return shanten(counts, melds), (waits(counts, melds) if sum(counts) % 3 == 1 else 0)

    def result_deltas(self, ev: Result, *, players: int, dealer: int, first: bool,
                      ruleset: Ruleset) -> tuple[int, ...]:
        """A win pays its stated points
        (:func:`~mjlog.families.riichi.scoring.payments.points_deltas`),
        the honba and sticks to the first winner only; an exhaustive draw moves the noten
        pool (none is filled in for nagashi mangan); an abortive draw pays nothing."""
        n = players
        if isinstance(ev, AbortiveDraw):
            return (0,) * n
        if isinstance(ev, ExhaustiveDraw):
            if ev.nagashi:
                return ()
            tenpai = [p < len(ev.hands) and ev.hands[p] is not None for p in range(n)]
            return tuple(draw_deltas(tenpai, ruleset.riichi))
        assert isinstance(ev, Win)
        w = ev.winner
        if not 0 <= w < n or not 0 <= ev.from_player < n:
            return ()
        pao = ev.pao if ev.pao is not None and 0 <= ev.pao < n else None
        return tuple(points_deltas(
            ev.points, players=n, winner=w, payer=None if ev.from_player == w
            else ev.from_player, dealer=dealer, honba=ev.honba if first else 0,
            sticks=ev.kyotaku, pao=pao))


    def payer(self, ruleset: Ruleset) -> Payer | None:
        """A win by its written value under ``ruleset``, a draw by its noten payments
        (:func:`mjlog.families.riichi.scoring.written.payer`)."""
        return payer(ruleset)


RIICHI = Riichi()

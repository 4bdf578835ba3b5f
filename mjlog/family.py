"""What a rule family is: the strategy that everything family-specific goes through.

A :class:`RuleFamily` owns what differs between riichi mahjong and Taiwanese
16-tile mahjong (and any family added later): its option group (which also
states the table's geometry, so that the core replay needs nothing else), its
rule checks and the referee they share, its score verification, its random
players, and the defaults its notation fills in. The families are registered
by name in :mod:`mjlog.families`; nothing else in mjlog compares a family's
name.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar

from mjlog.check import Check, Referee
from mjlog.diagnostics import Violation
from mjlog.events import AbortiveDraw, Event, ExhaustiveDraw, Win, YakuClaim
from mjlog.record import GameRecord
from mjlog.replay.engine import Engine, Payer
from mjlog.replay.observer import Observer
from mjlog.replay.state import TableState
from mjlog.ruleset import FamilyOptions, Ruleset
from mjlog.scoring.verify import ScoreReport

if TYPE_CHECKING:
    from mjlog.randomplay import Style

Result = Win | ExhaustiveDraw | AbortiveDraw


@dataclass(slots=True)
class Judging:
    """The observers that judge one game, and where their verdicts collect."""

    observers: list[Observer] = field(default_factory=list)
    violations: list[Violation] = field(default_factory=list)
    report: ScoreReport = field(default_factory=ScoreReport)


class RuleFamily:
    """One rule family's behaviour. Subclasses fill in every method."""

    name: ClassVar[str]
    options: ClassVar[type[FamilyOptions]]
    has_dora: ClassVar[bool] = True
    """Whether rounds turn a dora indicator (a notation round header names it)."""
    riichi_stick: ClassVar[bool] = True
    """Whether a declaration with a discard (``*`` in notation) deposits a stick."""
    needs_value: ClassVar[bool] = True
    """Whether a win written in notation must state its fu and points."""
    value_unit: ClassVar[str] = "han"
    """What a win's value is counted in (``han``, with fu; ``台`` in Taiwanese mahjong)."""

    def checks(self) -> Sequence[type[Check[Any]]]:
        """The family's rule checks, in the order they judge each event."""
        raise NotImplementedError

    def referee(self, record: GameRecord, ruleset: Ruleset, engine: Engine) -> Referee:
        """The referee that keeps what the family's checks share."""
        raise NotImplementedError

    def judging(self, record: GameRecord, ruleset: Ruleset, engine: Engine, *, rules: bool,
                scores: bool) -> Judging:
        """The observers that judge ``record`` under ``ruleset`` in ``engine``'s replay:
        the checks the ruleset enables (with ``rules``) and score verification (with
        ``scores``)."""
        raise NotImplementedError

    def random_game(self, ruleset: Ruleset, seed: int, style: Style) -> GameRecord:
        """One random legal game; the same seed, the same game."""
        raise NotImplementedError

    def default_han(self, name: str, open_hand: bool, ruleset: Ruleset) -> int:
        """The han (or 台) a yaku of this name is worth when a record states no number."""
        raise NotImplementedError

    def yaku_name(self, word: str) -> str:
        """The canonical name of a yaku written ``word`` (another language, an alias)."""
        raise NotImplementedError

    def value_win(self, state: TableState, events: Sequence[Event], round_start: int,
                  win: Win, ruleset: Ruleset) -> tuple[int, int, tuple[YakuClaim, ...]] | str:
        """The value of ``win`` (the next event after ``events``) on ``state``: its fu,
        points (a ron's payment, a tsumo's total) and yaku; or why it has none."""
        raise NotImplementedError

    def yaku_names(self) -> frozenset[str]:
        """Every canonical yaku (or pattern) name the family scores."""
        raise NotImplementedError

    def limit(self, han: int, fu: int, ruleset: Ruleset) -> str:
        """The limit name a win of ``han`` and ``fu`` reaches (``""`` below the limits)."""
        raise NotImplementedError

    def readiness(self, counts: Sequence[int], melds: int, ruleset: Ruleset) -> tuple[int, int]:
        """A hand's shanten (-1 when complete, 0 when ready) and, for a hand one tile
        short, its winning kinds (a 34-bit mask): what the replay viewer shows beside a
        hand. ``counts`` holds 34 kind counts of the concealed tiles; ``melds`` the calls.
        Judges nothing (furiten is the referee's, :meth:`mjlog.check.Referee.furiten`)."""
        raise NotImplementedError

    def result_deltas(self, ev: Result, *, players: int, dealer: int, first: bool,
                      ruleset: Ruleset) -> tuple[int, ...]:
        """The score changes a result states implicitly (its claimed value and who pays),
        for a record that writes none; ``()`` where they cannot be worked out.
        ``first``: the first win of a round (which takes the honba and sticks)."""
        raise NotImplementedError

    def payer(self, ruleset: Ruleset) -> Payer | None:
        """How the replay pays a score sheet's results that write no payments, under
        ``ruleset`` (:attr:`mjlog.replay.engine.Engine.payer`); None for a family whose
        records are never score sheets (the engine then notes such a result unpaid)."""
        return None

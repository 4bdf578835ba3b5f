"""What a rule family is: the strategy that everything family-specific goes through.

A :class:`RuleFamily` owns what differs between riichi mahjong and Taiwanese
16-tile mahjong (and any family added later): its option group (which also
states the table's tiles, dead wall and hands, so that the core replay needs
nothing else) with its flat options and presets, the physical wall a table
builds and deals (for the wall check), its rule checks and the referee they
share, its score verification and payments, its random players, the defaults
its notation fills in and the title of its section of the docs. The families
are registered by name in :mod:`mjlog.families.registry`; nothing else in mjlog
compares a family's name.

:class:`RuleFamily` is an abstract base class: a family that lacks one of its
methods cannot be instantiated, so it fails where its package makes its one
instance (imported by :mod:`mjlog.families.registry`), never in the middle of a replay.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar

from mjlog.core.diagnostics import Violation
from mjlog.core.events import AbortiveDraw, Event, ExhaustiveDraw, Win, YakuClaim
from mjlog.core.record import GameRecord
from mjlog.core.ruleset import FamilyOptions, Option, Ruleset
from mjlog.families.check import Check, Referee
from mjlog.replay.engine import Engine, Payer
from mjlog.replay.observer import Observer
from mjlog.replay.state import TableState
from mjlog.wall.dealing import Geometry

if TYPE_CHECKING:
    from mjlog.families.riichi.players import Style
    from mjlog.families.riichi.scoring.verify import ScoreReport

Result = Win | ExhaustiveDraw | AbortiveDraw


def _score_report() -> ScoreReport:
    """An empty score report. Imported here, when a game is judged, not with this module:
    riichi's score verification loads the ``mahjong`` library, which reading needs not."""
    from mjlog.families.riichi.scoring.verify import ScoreReport

    return ScoreReport()


@dataclass(slots=True)
class Judging:
    """The observers that judge one game, and where their verdicts collect."""

    observers: list[Observer] = field(default_factory=list)
    violations: list[Violation] = field(default_factory=list)
    report: ScoreReport = field(default_factory=_score_report)


class RuleFamily(ABC):
    """One rule family's behaviour. Subclasses fill in every abstract method and state
    ``name`` and ``options``; the rest have defaults."""

    name: ClassVar[str]
    """The family's name, :attr:`mjlog.core.ruleset.Ruleset.family` (``riichi``)."""
    options: ClassVar[type[FamilyOptions]]
    """Its option group (:class:`mjlog.core.ruleset.OptionGroup`: its options and its table)."""
    option_rows: ClassVar[tuple[Option, ...]] = ()
    """Its flat options (group: the family's name), each field of :attr:`options` once;
    registered with :func:`mjlog.core.ruleset.register_options` (a family whose options
    :mod:`mjlog.core.ruleset` lists itself leaves this empty)."""
    presets: ClassVar[tuple[Ruleset, ...]] = ()
    """The presets it adds to :data:`mjlog.core.ruleset.PRESETS` (the first is its default)."""
    title: ClassVar[str] = ""
    """The heading of its section of ``docs/rule-checks.md`` (default: its name)."""
    has_dora: ClassVar[bool] = True
    """Whether rounds turn a dora indicator (a notation round header names it)."""
    riichi_stick: ClassVar[bool] = True
    """Whether a declaration with a discard (``*`` in notation) deposits a stick."""
    needs_value: ClassVar[bool] = True
    """Whether a win written in notation must state its fu and points."""
    value_unit: ClassVar[str] = "han"
    """What a win's value is counted in (``han``, with fu; ``台`` in Taiwanese mahjong)."""

    @abstractmethod
    def wall(self, players: int) -> Geometry | None:
        """How a table of ``players`` builds its wall and deals from it (stacks, dead wall,
        dice; what the wall check deals a stated wall with); None where mjlog defines no
        physical deal for it (the wall check then notes the wall unverifiable)."""

    @abstractmethod
    def checks(self) -> Sequence[type[Check[Any]]]:
        """The family's rule checks, in the order they judge each event."""

    @abstractmethod
    def referee(self, record: GameRecord, ruleset: Ruleset, engine: Engine) -> Referee:
        """The referee that keeps what the family's checks share."""

    @abstractmethod
    def judging(self, record: GameRecord, ruleset: Ruleset, engine: Engine, *, rules: bool,
                scores: bool) -> Judging:
        """The observers that judge ``record`` under ``ruleset`` in ``engine``'s replay:
        the checks the ruleset enables (with ``rules``) and score verification (with
        ``scores``)."""

    @abstractmethod
    def random_game(self, ruleset: Ruleset, seed: int, style: Style) -> GameRecord:
        """One random legal game; the same seed, the same game."""

    @abstractmethod
    def default_han(self, name: str, open_hand: bool, ruleset: Ruleset) -> int:
        """The han (or 台) a yaku of this name is worth when a record states no number."""

    @abstractmethod
    def yaku_name(self, word: str) -> str:
        """The canonical name of a yaku written ``word`` (another language, an alias)."""

    @abstractmethod
    def value_win(self, state: TableState, events: Sequence[Event], round_start: int,
                  win: Win, ruleset: Ruleset) -> tuple[int, int, tuple[YakuClaim, ...]] | str:
        """The value of ``win`` (the next event after ``events``) on ``state``: its fu,
        points (a ron's payment, a tsumo's total) and yaku; or why it has none."""

    @abstractmethod
    def yaku_names(self) -> frozenset[str]:
        """Every canonical yaku (or pattern) name the family scores."""

    @abstractmethod
    def limit(self, han: int, fu: int, ruleset: Ruleset) -> str:
        """The limit name a win of ``han`` and ``fu`` reaches (``""`` below the limits)."""

    @abstractmethod
    def readiness(self, counts: Sequence[int], melds: int, ruleset: Ruleset) -> tuple[int, int]:
        """A hand's shanten (-1 when complete, 0 when ready) and, for a hand one tile
        short, its winning kinds (a 34-bit mask): what the replay viewer shows beside a
        hand. ``counts`` holds 34 kind counts of the concealed tiles; ``melds`` the calls.
        Judges nothing (furiten is the referee's, :meth:`mjlog.families.check.Referee.furiten`)."""

    @abstractmethod
    def result_deltas(self, ev: Result, *, players: int, dealer: int, first: bool,
                      ruleset: Ruleset) -> tuple[int, ...]:
        """The score changes a result states implicitly (its claimed value and who pays),
        for a record that writes none; ``()`` where they cannot be worked out.
        ``first``: the first win of a round (which takes the honba and sticks)."""

    def payer(self, ruleset: Ruleset) -> Payer | None:
        """How the replay pays a score sheet's results that write no payments, under
        ``ruleset`` (:attr:`mjlog.replay.engine.Engine.payer`); None for a family whose
        records are never score sheets (the engine then notes such a result unpaid)."""
        return None

"""Rule checks as units: the base every family's checks build on.

A :class:`Check` is a small observer of the replay (:mod:`mjlog.replay.observer`)
that judges one rule, or a tight family of rules, of one rule family. It
states:

* its codes, each with the section of ``docs/rules.md`` it cites, a one-line
  statement of the rule and whether breaking it is chombo (:class:`Rule`);
* the events it looks at: its ``before_<type>`` and ``after_<type>`` methods;
* when it runs: :meth:`Check.enabled` reads the ruleset (a check whose rule the
  ruleset does not play is not run at all) and :attr:`Check.OPTION` names the
  option that enables or shapes it;
* its own memory, as explicit per-seat or per-round state reset at each round
  start; what several checks of a family need (the waits of each hand, the
  tile that may still be won on …) is kept once by the family's
  :class:`Referee`, which runs before them;
* a docstring with a violating and a legal example in notation (``Violating:``
  and ``Legal:`` blocks), which a test replays.

Every broken rule becomes a :class:`~mjlog.core.diagnostics.Violation` through
:meth:`Referee.violation`. A check judges; it never changes the table.
"""

from __future__ import annotations

import re
from typing import Any, ClassVar, Generic, NamedTuple, TypeVar

from mjlog.core.diagnostics import PER_GAME, Violation
from mjlog.core.events import MOVES, Event
from mjlog.core.record import GameRecord
from mjlog.core.ruleset import Ruleset, describe
from mjlog.replay.engine import Engine
from mjlog.replay.observer import Observer


class Rule(NamedTuple):
    """One rule a check judges: its code, where ``docs/rules.md`` states it, the rule
    in one line, and whether breaking it is chombo (else the move is not allowed).

    ``penalty``: what breaking it costs, in one sentence, where the family settles it
    with a penalty that is not chombo (MCR's false win, 错和); empty where breaking it is
    chombo or costs nothing (the record is wrong)."""

    code: str
    section: str
    citation: str
    chombo: bool
    penalty: str = ""


class Referee(Observer):
    """One game's judging under one ruleset: what the family's checks share, and their
    violations. Subclasses keep the family's shared memory in their own hooks."""

    name = "referee"

    def __init__(self, record: GameRecord, ruleset: Ruleset, engine: Engine) -> None:
        self.record = record
        self.events: list[Event] = record.events
        self.engine = engine
        self.rules = ruleset
        self.label = describe(ruleset)
        self.violations: list[Violation] = []
        self.left_out = 0
        """Violations past :data:`PER_GAME`, counted, not kept."""
        self._unjudged: set[tuple[str, int | None, str]] = set()

    def violation(self, rule: Rule, message: str, player: int | None, *,
                  evidence: tuple[tuple[str, str], ...] = (), move: bool = True,
                  consequence: str = "", hidden: bool = False) -> None:
        """Record a violation of ``rule`` at the current event.

        ``move``: the event is a move, so the violation's turn is the one it
        makes (the engine has not counted it yet). An event that is not a move (a win, a
        draw, a dora turned) makes no turn of its own, whatever ``move`` says: its
        violation is at the turn of the move before it, where the table shows it.
        ``hidden``: only the player's concealed hand shows the fault; :meth:`hold` says
        whether it waits to be revealed (the family's referee decides).
        """
        engine = self.engine
        i = engine.index
        if move and 0 <= i < len(self.record.events) \
                and self.record.events[i].__class__ not in MOVES:
            move = False
        if len(self.violations) >= PER_GAME:
            self.left_out += 1
            return
        if player is not None and not 0 <= player < engine.state.n:
            player = None  # a seat outside the table (the message names it) is no player
        found = Violation(
            code=rule.code, rule=rule.section, citation=rule.citation, message=message,
            ruleset=self.label, round=engine.round,
            turn=engine.state.turn + (1 if move else 0), event=i, player=player,
            src=self.record.src(i), evidence=evidence,
            consequence=consequence or self.consequence(rule, player),
        )
        if not (hidden and self.hold(found)):
            self.violations.append(found)

    def hold(self, found: Violation) -> bool:
        """Keep a fault only a concealed hand shows until the hand is revealed (the
        family's referee does, under its ruleset); True when held. Here: never."""
        return False

    def unjudged(self, rule: Rule, why: str, player: int | None) -> None:
        """Say that ``rule`` could not be judged at the current event because a tile that
        decides it was never written down (``why`` names it): an ``unjudged`` note, once
        per rule, player and round. Unknown means unjudged, never guilty: this is never a
        violation, and the check still judges what the known tiles decide."""
        key = (rule.code, player, self.engine.round)
        if key not in self._unjudged:
            self._unjudged.add(key)
            self.engine.note("unjudged", f"{rule.code} not judged: {why}", player)

    def consequence(self, rule: Rule, player: int | None) -> str:
        """What breaking ``rule`` costs under the ruleset (the family says)."""
        return ""

    def furiten(self, p: int) -> str:
        """Why seat ``p`` may not win on a discard now, in words (furiten, 過水, a dead
        hand), or ``""``: the referee's memory as it stands, for the replay viewer.
        Judges nothing."""
        return ""


R = TypeVar("R", bound=Referee)


class Check(Observer, Generic[R]):
    """One rule check: a unit with its codes, hooks, switch and memory (module docstring)."""

    FAMILY: ClassVar[str] = ""
    RULES: ClassVar[tuple[Rule, ...]] = ()
    OPTION: ClassVar[str] = ""
    """The ruleset option that enables or shapes the check (``""`` when always on)."""

    def __init__(self, referee: R) -> None:
        self.name = self.RULES[0].code
        self.ref = referee

    @classmethod
    def enabled(cls, rules: Ruleset) -> bool:
        """Whether the check runs under ``rules`` (default: always)."""
        return True

    def rule(self, code: str) -> Rule:
        """This check's rule of that code."""
        return next(r for r in self.RULES if r.code == code)

    def wake(self, *hooks: str) -> None:
        """Have these of the check's :attr:`dormant` hooks see plain moves too, from the
        next event on (:meth:`~mjlog.replay.engine.Engine.wake`)."""
        for name in hooks:
            self.ref.engine.wake(self, name)

    def rest(self, *hooks: str) -> None:
        """Let these of the check's :attr:`dormant` hooks skip plain moves again, from the
        next event on."""
        for name in hooks:
            self.ref.engine.rest(self, name)


class Example(NamedTuple):
    """One example of a check's docstring: ``Violating`` or ``Legal``, the code it shows
    (``""``: the check's first), the preset and options it is judged under (``""``: the
    record's own) and its rounds in notation."""

    kind: str
    code: str
    under: str
    text: str


_EXAMPLE = re.compile(r"^    (Violating|Legal)(?: ([a-z0-9-]+))?(?: under ([^:]+))?::\n\n"
                      r"((?:        .*\n|\n)+)", re.MULTILINE)


def examples(unit: type[Check[Any]]) -> list[Example]:
    """The examples of a check's docstring (module docstring), in their order."""
    doc = unit.__doc__ or ""
    return [Example(kind, code or "", under or "",
                    "\n".join(line[8:] for line in text.splitlines()).strip("\n"))
            for kind, code, under, text in _EXAMPLE.findall(doc)]

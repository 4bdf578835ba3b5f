"""Per-move decision facts: tile efficiency, calls and safety at every decision of a game.

:func:`decisions` replays one game with
:class:`~mjlog.families.riichi.decisions.observer.DecisionFacts`
and returns one value per decision (:mod:`mjlog.families.riichi.decisions.model`), each with
``to_json()``. The facts are computed from the replayed table only: shanten and ukeire
(:mod:`mjlog.families.riichi.decisions.efficiency`, native when the core is built), the safety
class of
each tile against each opponent in riichi (:mod:`mjlog.families.riichi.decisions.safety`). They are
facts, not advice: nothing here says what a player should have done beyond which
discard accepts most tiles. ``docs/review.md`` documents every field.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager

from mjlog.core.record import GameRecord
from mjlog.core.ruleset import Ruleset
from mjlog.families.registry import ruleset_of
from mjlog.families.riichi.decisions.model import (
    CallDecision,
    DealIn,
    Decision,
    DiscardDecision,
    Option,
)
from mjlog.families.riichi.decisions.observer import DecisionFacts
from mjlog.replay.engine import Engine


class FactsError(RuntimeError):
    """The facts of a game could not be computed (mjlog's own failure, never the
    record's: a record that does not add up gets facts marked not computed)."""


@contextmanager
def _no_collection() -> Iterator[None]:
    """The cyclic garbage collector paused (if it was running) for one game's replay: the
    facts are many small objects that hold no cycles and live as long as the game's list,
    which the collector would otherwise walk again and again as it grows. Whatever
    cycles the replay leaves are collected once it resumes."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


def decisions(record: GameRecord, ruleset: Ruleset | None = None) -> list[Decision]:
    """Every decision of ``record``, in event order (a discard's call decisions after its
    discard decision), under ``ruleset`` (default: the one the record suggests; it
    decides the family, riichi or Taiwanese 16-tile, and kuikae). Raises
    :class:`FactsError` when the observer itself failed on an event."""
    rs = ruleset_of(record, ruleset)
    engine = Engine(record.src)
    facts = DecisionFacts(engine, rs)
    with _no_collection():
        engine.run(record.events, [facts])
    failed = [f for f in engine.findings if f.code == "internal-error"
              and f.message.startswith(DecisionFacts.name + " ")]
    if failed:
        raise FactsError(f"{record.path}: {failed[0].round} {failed[0].message}")
    return facts.decisions


__all__ = ["CallDecision", "DealIn", "Decision", "DecisionFacts", "DiscardDecision",
           "FactsError", "Option", "decisions"]

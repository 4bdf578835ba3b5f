"""The registry of rule families: the one place that knows them all by name.

Everything family-specific goes through the :class:`~mjlog.families.base.RuleFamily`
that :func:`family_of` finds for a ruleset. Adding a family is one package
(its option group with its flat options and presets, its checks, scorer and
players, and the family itself) and its line here (the import and its entry in
:data:`FAMILIES`); ``docs/design.md`` lists the steps. :func:`register` checks
each family and registers its options with :mod:`mjlog.core.ruleset`.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from mjlog.core.catalogue import Code
from mjlog.core.diagnostics import Severity, Violation
from mjlog.core.events import GameStart
from mjlog.core.record import GameRecord
from mjlog.core.ruleset import Ruleset, register_options
from mjlog.families.base import RuleFamily
from mjlog.families.check import Check, Rule
from mjlog.families.mcr.family import MCR_FAMILY
from mjlog.families.riichi.family import RIICHI
from mjlog.families.riichi.players import Style
from mjlog.families.taiwan16.family import TAIWAN16
from mjlog.replay.engine import Engine


def register(*families: RuleFamily) -> dict[str, RuleFamily]:
    """``families`` by name, each checked, with its option group, flat options and presets
    registered (:func:`mjlog.core.ruleset.register_options`). Raises ``TypeError`` for what is
    no instance of a complete :class:`~mjlog.families.base.RuleFamily` subclass (a family lacking
    a method already fails where its package instantiates it), one without a ``name`` or
    ``options`` or whose options name another family, or a name given twice; and
    ``ValueError`` for options that do not fit (:func:`~mjlog.core.ruleset.register_options`)."""
    out: dict[str, RuleFamily] = {}
    for family in families:
        kind = type(family)
        if not isinstance(family, RuleFamily):
            raise TypeError(f"{family!r} is not a RuleFamily instance")
        missing = [a for a in ("name", "options") if not hasattr(kind, a)]
        if missing:
            raise TypeError(f"rule family {kind.__name__} does not state {', '.join(missing)}")
        if family.name != family.options.FAMILY:
            raise TypeError(f"rule family {family.name!r}: its options "
                            f"{family.options.__name__} are of family {family.options.FAMILY!r}")
        if family.name in out:
            raise TypeError(f"two rule families are named {family.name!r}")
        register_options(family.options, family.option_rows, family.presets)
        out[family.name] = family
    return out


FAMILIES: dict[str, RuleFamily] = register(
    RIICHI,
    TAIWAN16,
    MCR_FAMILY,
)
"""Every rule family by name, one line each."""


def ruleset_of(record: GameRecord, ruleset: Ruleset | None = None) -> Ruleset:
    """``ruleset``, or else the one ``record`` suggests (its game start's; the default
    ruleset for a record without one)."""
    start = record.events[0] if record.events else None
    return ruleset or (start.ruleset if isinstance(start, GameStart) else Ruleset())


def engine_for(record: GameRecord, ruleset: Ruleset | None = None) -> Engine:
    """An engine to replay ``record`` with, which pays a score sheet's unwritten results
    under ``ruleset`` (default: the record's own) as its family says; judges nothing (for
    the replay's screens: an audit's score verification sets its own payer)."""
    rs = ruleset_of(record, ruleset)
    engine = Engine(record.src)
    engine.payer = family_of(rs).payer(rs)
    return engine


def family_of(ruleset: Ruleset) -> RuleFamily:
    """The family a ruleset's options belong to."""
    return FAMILIES[ruleset.family]


def all_checks() -> list[type[Check[Any]]]:
    """Every check of every family, family by family in judging order."""
    return [c for f in FAMILIES.values() for c in f.checks()]


def violation_codes() -> list[Code]:
    """Every code a check reports, as catalogue rows (once per family that has it)."""
    out: list[Code] = []
    for name, family in FAMILIES.items():
        for check in family.checks():
            out.extend(Code(r.code, "violation", f"{name} rules", Severity.ERROR, r.citation)
                       for r in check.RULES)
    return out


def rules_by_code() -> dict[str, Rule]:
    """Every rule a check judges, by code (a code two families share is listed once, as
    the first family states it)."""
    out: dict[str, Rule] = {}
    for check in all_checks():
        for rule in check.RULES:
            out.setdefault(rule.code, rule)
    return out


def check(record: GameRecord, ruleset: Ruleset | None = None) -> tuple[Engine, list[Violation]]:
    """Replay ``record`` and judge it under ``ruleset`` (default: the record's own), with
    the checks of the ruleset's family. Returns the engine (with the replay's own
    findings) and the violations."""
    rs = ruleset_of(record, ruleset)
    engine = Engine(record.src)
    judging = family_of(rs).judging(record, rs, engine, rules=True, scores=False)
    engine.run(record.events, judging.observers)
    return engine, judging.violations


def random_game(ruleset: Ruleset, seed: int, style: Style | None = None) -> GameRecord:
    """One random legal game under ``ruleset``, played by its family's random players;
    the same seed, the same game."""
    return family_of(ruleset).random_game(ruleset, seed, style or Style())


def random_games(ruleset: Ruleset, count: int, seed: int = 0,
                 style: Style | None = None) -> Iterator[GameRecord]:
    """``count`` random games with seeds ``seed``, ``seed + 1`` …"""
    for i in range(count):
        yield random_game(ruleset, seed + i, style)

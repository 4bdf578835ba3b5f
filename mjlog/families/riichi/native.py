"""The riichi audit by the native core (``core/src/riichi/``): the engine, the referee and
the checks ported so far, run over a game's event code in one call
(``mjlog._native.audit_code``), their results turned into the very objects the Python
route makes (:class:`~mjlog.core.diagnostics.Finding`, :class:`Violation`).

The Python checks (:mod:`mjlog.families.riichi.rules`) are the specification; the
differential test ``tests/test_native_checks.py`` holds the two identical. This module
does not choose the route (the audit still runs the Python checks): it encodes, calls
and converts, and imports no native code (the caller passes ``mjlog._native``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import fields
from functools import cache
from typing import Any, NamedTuple

from mjlog.core.diagnostics import Finding, Src, Violation
from mjlog.core.events import Event
from mjlog.core.ruleset import RiichiOptions, Ruleset, describe
from mjlog.families.check import Check, Rule
from mjlog.families.riichi.family import CHECKS
from mjlog.families.riichi.rules.evidence import consequence
from mjlog.replay.code import encode, findings_of
from mjlog.replay.state import TableState

NATIVE_CHECKS: tuple[str, ...] = (
    "double-ron", "abortive-unjustified", "rinshan-draw", "kan-dora", "kuikae",
    "riichi-hand-changed", "riichi-illegal", "chi-not-from-left", "kan-after-call",
    "kan-wall-empty", "fifth-kan", "riichi-call", "okuri-kan", "chankan-closed", "furiten-ron",
)
"""The checks the native core has, by the code of their first rule (``core/src/riichi``'s
``NATIVE_CHECKS``, in :data:`~mjlog.families.riichi.family.CHECKS` order)."""

DECLINING_CHECKS: tuple[str, ...] = ("sakizuke-first-call", "no-yaku-win")
"""Native checks that may decline a game (:func:`audit_native` gives ``None``: the Python
route judges it): where the Python check asks the ``mahjong`` library (a win fast.py does
not value: ``no-yaku-win``; whether a hand is a yakuman: sakizuke). Asked for by name
(``checks``), never by default."""

_OPTIONS: tuple[str, ...] = (
    "kan_after_riichi", "hidden_faults", "four_kans", "kan_dora", "chankan_closed_kokushi",
    "kuikae", "riichi_min_score", "riichi_min_wall", "triple_ron", "four_winds", "four_riichi",
    "nine_terminals", "furiten_tsumo", "open_tanyao", "kiriage", "kazoe", "ippatsu", "ura_dora",
    "open_kan_pao", "nagashi", "noten_per_ready",
)
"""The riichi options the native checks read (``riichi::Options::from_pairs``)."""

NativeViolation = tuple[str, int, int | None, str, int, str, list[tuple[str, str]], int]
"""A violation as ``audit_code`` gives it: code, event index, seat, round label, turn,
message, evidence pairs, the round's dealer."""


class NativeAudit(NamedTuple):
    """The native audit of one game: the engine's findings (with the checks' notes) and
    the count past the cap; the violations and theirs."""

    findings: list[Finding]
    left_out: int
    violations: list[Violation]
    violations_left_out: int


def options_of(rules: Ruleset) -> list[tuple[str, str]]:
    """The ruleset's options the native checks read, as ``(name, value)`` text pairs
    (flags ``0``/``1``); ``ValueError`` for a ruleset of another family."""
    riichi = rules.family_options
    if not isinstance(riichi, RiichiOptions):
        raise ValueError(f"the native riichi audit judges riichi rulesets, not {rules.family}")
    pairs = [("red_fives", str(int(bool(rules.red_fives)))),
             ("double_ron", str(int(bool(rules.double_ron)))),
             ("players", str(rules.players))]
    pairs += [(name, _text(getattr(riichi, name))) for name in _OPTIONS]
    saki = riichi.sakizuke
    pairs.append(("sakizuke", _text(saki is not None)))
    if saki is not None:
        pairs += [(f"sakizuke_{f.name}", _text(getattr(saki, f.name))) for f in fields(saki)]
    return pairs


def _text(value: object) -> str:
    """An option's value as ``options_of`` writes it (flags ``0``/``1``)."""
    return str(int(value)) if isinstance(value, bool) else str(value)


@cache
def _rules() -> dict[str, Rule]:
    """Every rule of the riichi checks by its code."""
    return {rule.code: rule for unit in CHECKS for rule in unit.RULES}


def check_classes(codes: Sequence[str] = NATIVE_CHECKS) -> list[type[Check[Any]]]:
    """The Python check units of these native checks (by their first rule's code), in
    :data:`CHECKS` order: what the native route replaces."""
    return [unit for unit in CHECKS if unit.RULES[0].code in codes]


def enabled_natives(rules: Ruleset) -> list[str]:
    """The native checks ``rules`` enables (their Python twin's ``enabled``)."""
    return [unit.RULES[0].code for unit in check_classes() if unit.enabled(rules)]


def violations_of(raw: Sequence[NativeViolation], rules: Ruleset,
                  src_of: Callable[[int], Src | None] | None) -> list[Violation]:
    """The native violations as :meth:`~mjlog.families.check.Referee.violation` makes them
    (citation and consequence from the rule, under ``rules``)."""
    label = describe(rules)
    table = TableState(4)
    out = []
    for code, index, player, round_label, turn, message, evidence, dealer in raw:
        rule = _rules()[code]
        table.dealer = dealer
        out.append(Violation(
            code=code, rule=rule.section, citation=rule.citation, message=message,
            ruleset=label, round=round_label, turn=turn, event=index, player=player,
            src=src_of(index) if src_of else None,
            evidence=tuple((name, text) for name, text in evidence),
            consequence=consequence(rule, rules, player, table)))
    return out


def audit_native(native: Any, events: Sequence[Event], rules: Ruleset,
                 src_of: Callable[[int], Src | None] | None = None,
                 checks: Sequence[str] | None = None, code: bytes | None = None
                 ) -> NativeAudit | None:
    """The native audit of a game under ``rules`` with the native ``checks`` (default:
    all that ``rules`` enables), as ``Engine(src_of).run`` with the referee and those
    checks gives it; ``None`` when the encoder declines the game or the native audit does
    (a win only the ``mahjong`` library values: ``no-yaku-win``). ``code``: the events'
    code (:func:`~mjlog.replay.code.encode`) when the caller has it already."""
    if code is None:
        code = encode(events, native).code
    if code is None:
        return None
    wanted = enabled_natives(rules) if checks is None else list(checks)
    if not wanted:
        wanted = ["-"]  # none: a name no check has (an empty list means all)
    raw, left_out, found, v_left_out, declined = native.audit_code(code, options_of(rules),
                                                                   wanted)
    if declined:
        return None
    return NativeAudit(findings_of(raw, src_of), left_out,
                       violations_of(found, rules, src_of), v_left_out)


__all__ = ["DECLINING_CHECKS", "NATIVE_CHECKS", "NativeAudit", "audit_native", "check_classes",
           "enabled_natives", "options_of", "violations_of"]

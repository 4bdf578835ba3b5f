"""Score verification by the native core (twin of
:class:`~mjlog.families.riichi.scoring.verify.Verifier`).

:func:`verify_scores_native` encodes a tile record (:mod:`mjlog.replay.code`), runs the native
engine with the native verifier (``core/src/scoring/verify.rs``) over it and builds the
same :class:`~mjlog.core.diagnostics.ScoreMismatch` values as the Python verifier run by
the riichi judging with ``scores=True, rules=False``.

The native verifier *declines* a game wherever the Python one would ask the ``mahjong``
library (a hand mjlog's fast path declines, a value the record does not confirm), on a
score sheet's round, or where a claim names something the code lacks: then
:func:`verify_scores_native` returns ``None`` with the reason and the game is verified in
Python. It does not run the rule checks.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple

from mjlog.core.diagnostics import Finding, ScoreMismatch, Src
from mjlog.core.events import PAO_UNNAMED, Event, GameStart
from mjlog.core.ruleset import Ruleset
from mjlog.families.riichi.native import options_of
from mjlog.replay.code import claim_names, encode, findings_of


def pao_named(events: list[Event]) -> bool:
    """Whether the record whose events are ``events`` can name the seat liable for a win
    (its game start's source is not in :data:`~mjlog.core.events.PAO_UNNAMED`)."""
    start = events[0] if events else None
    return not (isinstance(start, GameStart) and start.source in PAO_UNNAMED)


class NativeScores(NamedTuple):
    """A game's score verification by the native core: the mismatches and the engine's
    findings (the replay's, with the verifier's ``unjudged`` notes), or ``None`` for both
    and why the game was declined."""

    mismatches: list[ScoreMismatch] | None
    findings: list[Finding] | None
    declined: str = ""


def verify_scores_native(native: Any, events: list[Event], ruleset: Ruleset,
                  src_of: Callable[[int], Src | None] | None = None) -> NativeScores:
    """The score mismatches of a game under ``ruleset`` by the native core ``native``
    (``mjlog._native``) and the engine's findings, as ``Engine.run`` with the
    :class:`~mjlog.families.riichi.scoring.verify.Verifier` alone gives them; or why
    the game is declined (by the encoder or the verifier)."""
    encoding = encode(events, native)
    if encoding.code is None:
        return NativeScores(None, None, f"not encoded: {encoding.reason}")
    rows, raw, declined = native.riichi_verify_code(encoding.code, claim_names(),
                                                    options_of(ruleset), pao_named(events))
    if declined:
        return NativeScores(None, None, declined)
    mismatches = [ScoreMismatch(code=code, field=fld, recorded=rec, computed=comp,
                                message=message, round=label, turn=turn, player=player,
                                src=src_of(index) if src_of else None)
                  for code, index, player, fld, rec, comp, message, label, turn in rows]
    return NativeScores(mismatches, findings_of(raw, src_of))


__all__ = ["NativeScores", "pao_named", "verify_scores_native"]

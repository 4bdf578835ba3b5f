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

from collections.abc import Callable, Sequence
from typing import Any, NamedTuple

from mjlog.core.diagnostics import Finding, ScoreMismatch, Src
from mjlog.core.events import PAO_UNNAMED, Event, GameStart
from mjlog.core.ruleset import Ruleset
from mjlog.families.riichi.native import NativeAudit, options_of, violations_of
from mjlog.families.riichi.scoring.verify import ScoreReport
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
    return NativeScores(mismatches_of(rows, src_of), findings_of(raw, src_of))


def mismatches_of(rows: Sequence[tuple[Any, ...]],
                  src_of: Callable[[int], Src | None] | None) -> list[ScoreMismatch]:
    """The native verifier's mismatch rows as the Python verifier makes them."""
    return [ScoreMismatch(code=code, field=fld, recorded=rec, computed=comp,
                          message=message, round=label, turn=turn, player=player,
                          src=src_of(index) if src_of else None)
            for code, index, player, fld, rec, comp, message, label, turn in rows]


class ScoredAudit(NamedTuple):
    """A game's whole native audit with score verification (:func:`audit_scored_native`):
    the referee's and checks' part, the score report and the table's final scores
    (``None``: no table was set)."""

    audit: NativeAudit
    score: ScoreReport
    final: list[int] | None


def audit_scored_native(native: Any, events: list[Event], ruleset: Ruleset,
                        src_of: Callable[[int], Src | None] | None, code: bytes, *,
                        checks: Sequence[str] | None) -> ScoredAudit | None:
    """The riichi audit of a game's ``code`` in one native replay, as the Python route's
    judging with ``scores=True`` gives it: the referee and the native ``checks`` (``None``:
    no rules, the verifier alone), then the score verifier at each event. ``None`` when a
    check or the verifier declines the game (the Python route audits it). Does not
    encode (the caller has the code) nor choose the route."""
    wanted = list(checks or []) or ["-"]  # a name no check has: an empty list means all
    raw, left_out, found, v_left_out, declined, rows, counts, final = native.riichi_audit_code(
        code, options_of(ruleset), wanted, checks is not None, claim_names(), pao_named(events))
    if declined:
        return None
    wins, wins_verified, draws, draws_verified = counts
    score = ScoreReport(mismatches=mismatches_of(rows, src_of), wins=wins,
                        wins_verified=wins_verified, draws=draws, draws_verified=draws_verified)
    audit = NativeAudit(findings_of(raw, src_of), left_out,
                        violations_of(found, ruleset, src_of), v_left_out)
    return ScoredAudit(audit, score, list(final) if final else None)


__all__ = ["NativeScores", "ScoredAudit", "audit_scored_native", "mismatches_of", "pao_named",
           "verify_scores_native"]

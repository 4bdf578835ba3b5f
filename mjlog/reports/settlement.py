"""Who owes what: a game's scores corrected for every chombo and score mismatch, and its
final points with uma and oka.

The audit settles each game after judging it. Starting from the record's own
result, it applies, in order of play:

* each **chombo** (a violation whose rule makes it chombo, or a score sheet's
  written :class:`~mjlog.core.events.Chombo`; at most one per round, the first): the
  round ends there, so a win in it is void and its payments are reversed; the
  sticks it collected from earlier rounds stay on the table (left over at the
  end, they go to the first place, as on Tenhou),
  and under ``chombo_replay`` the sticks deposited in the round go back to
  their owners (otherwise they stay on the table too); then the offender pays
  as ``chombo`` says (``mangan``: 4000 to the dealer and 2000 to each other
  player, a dealer 4000 to each; ``fixed``: ``chombo_points`` off the final
  points);
* each **score mismatch** of a payment (``win-deltas``, ``draw-deltas``) outside
  a void round: the seat gets the computed change instead of the recorded one.

The record's later rounds are kept as they were played: a settlement corrects
scores, it does not replay a game that went on. Final points follow the
ruleset: each score less ``return_score``, in thousands (rounded as
``rounding`` says: Tenhou rounded each score to the nearest thousand until
2022), plus the uma of its place; the first place takes the rest, which
includes the oka. Ties go to the seat nearer the first dealer (``tie_uma=seat``), or
the tied players share the uma (and oka) of their places equally (``tie_uma=split``).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import Any, Final

from mjlog.core.diagnostics import ScoreMismatch, Violation
from mjlog.core.events import (
    AbortiveDraw,
    Chombo,
    Event,
    ExhaustiveDraw,
    GameEnd,
    RiichiAccepted,
    RoundStart,
    Win,
    round_label,
)
from mjlog.core.ruleset import Ruleset
from mjlog.families.registry import rules_by_code

_PAYMENT_MISMATCHES = ("win-deltas", "draw-deltas")


@dataclass(slots=True, kw_only=True)
class Settlement:
    """A game's scores as recorded and as corrected, its points, and how each
    correction was made."""

    recorded: list[int]
    """The scores at the end of the record (the game's final scores when it has them)."""
    corrected: list[int]
    start: list[int]
    """The scores at the first round of the record."""
    complete: bool
    points: list[float] | None = None
    """Final points with uma and oka (complete games only)."""
    recorded_points: list[float] | None = None
    corrections: list[str] = field(default_factory=list)
    """One line per correction, in order of play."""
    bust: list[int] = field(default_factory=list)
    """Seats whose corrected score is bust under the ruleset's ``tobi``."""
    penalties: list[float] = field(default_factory=list)
    """Points each seat loses at the game's end for its chombo (``chombo=fixed``)."""

    @property
    def changed(self) -> bool:
        """Whether anything was corrected."""
        return bool(self.corrections)

    def to_dict(self) -> dict[str, Any]:
        """The report's ``settlement`` object."""
        return {"recorded": self.recorded, "corrected": self.corrected, "start": self.start,
                "complete": self.complete, "points": self.points,
                "recorded_points": self.recorded_points, "corrections": self.corrections,
                "bust": self.bust, "penalties": self.penalties}


@dataclass(slots=True)
class _Round:
    start: RoundStart
    index: int
    results: list[Win | ExhaustiveDraw | AbortiveDraw] = field(default_factory=list)
    deposits: list[int] = field(default_factory=list)
    next_win: Win | None = None
    """The first win of a later round: it collected the sticks this round left."""


def settle(events: list[Event], final: list[int], violations: list[Violation],
           mismatches: list[ScoreMismatch], ruleset: Ruleset) -> Settlement:
    """The settlement of one game whose replay ended with scores ``final``."""
    end = next((ev for ev in reversed(events) if isinstance(ev, GameEnd)), None)
    recorded = list(end.scores) if end is not None and end.scores else list(final)
    first = next((ev for ev in events if isinstance(ev, RoundStart)), None)
    out = Settlement(recorded=recorded, corrected=list(recorded), complete=end is not None,
                     start=list(first.scores) if first is not None else list(recorded),
                     penalties=[0.0] * len(recorded))
    chombos = _chombos(events, violations, ruleset)
    left_over = sum(_void(r, v, out, ruleset, len(recorded)) for r, v in chombos)
    void = {v.round for _, v in chombos}
    bumped = _head_bumps(events, violations, out, len(recorded))
    for m in mismatches:  # a void round's payments are reversed whole: nothing to correct
        if m.code in _PAYMENT_MISMATCHES and m.player is not None and m.round not in void \
                and (m.round, m.player) not in bumped \
                and isinstance(m.recorded, int) and isinstance(m.computed, int):
            out.corrected[m.player] += m.computed - m.recorded
            out.corrections.append(f"{m.round}: player {m.player}'s payment corrected from "
                                   f"{m.recorded:+} to {m.computed:+} (the computed value)")
    if out.complete:
        _points(out, ruleset, left_over, end)
    out.bust = [p for p, s in enumerate(out.corrected)
                if (ruleset.tobi == "below-zero" and s < 0)
                or (ruleset.tobi == "at-zero" and s <= 0)]
    return out


def _head_bumps(events: list[Event], violations: list[Violation], out: Settlement,
                n: int) -> set[tuple[str, int]]:
    """Reverse the payments of each ron a ``double-ron`` violation names (where only the
    first in turn order from the discarder wins, 頭ハネ, the others' rons are void);
    return their (round, winner). The first winner keeps his win, honba and sticks. (A
    mismatch of the discarder's payment in that round is still corrected: a mismatch does
    not say which of the round's wins it is about.)"""
    bumped: set[tuple[str, int]] = set()
    for v in violations:
        ev = events[v.event] if v.code == "double-ron" and 0 <= v.event < len(events) else None
        if not isinstance(ev, Win):
            continue
        bumped.add((v.round, ev.winner))  # his payment mismatches are about a void ron
        for seat, d in enumerate(ev.deltas[:n]):
            out.corrected[seat] -= d
        out.corrections.append(f"{v.round}: player {ev.winner}'s ron is void (head bump: "
                               "only the first in turn order from the discarder wins), its "
                               "payments reversed")
    return bumped


@cache
def _chombo_codes() -> frozenset[str]:
    return frozenset(code for code, rule in rules_by_code().items() if rule.chombo)


def _chombos(events: list[Event], violations: list[Violation],
             ruleset: Ruleset) -> list[tuple[_Round, Violation]]:
    """The chombo that count, with their rounds: the first of each round, by a player.
    Without a chombo payment (a Taiwanese dead hand) only a false win counts."""
    codes = _chombo_codes()
    found = [v for v in violations if v.code in codes and v.player is not None
             and (ruleset.chombo != "none"
                  or (0 <= v.event < len(events) and isinstance(events[v.event], Win)))]
    if ruleset.chombo != "none":
        found += _written_chombos(events)
    if not found:
        return []
    rounds = _rounds(events)
    out: list[tuple[_Round, Violation]] = []
    seen: set[int] = set()
    for v in found:
        r = _round_of(rounds, v.event)
        if r is not None and r.index not in seen:
            seen.add(r.index)
            out.append((r, v))
    return out


def _written_chombos(events: list[Event]) -> list[Violation]:
    """A score sheet's chombo events (:class:`~mjlog.core.events.Chombo`), each as the
    violation it stands for, in its round."""
    found: list[Violation] = []
    label = ""
    for i, ev in enumerate(events):
        if isinstance(ev, RoundStart):
            label = round_label(ev.round_wind, ev.round_number, ev.honba)
        elif isinstance(ev, Chombo):
            found.append(Violation(code="chombo-written", rule="", citation="written on the "
                                   "score sheet", player=ev.player, event=i, round=label))
    return found


def _rounds(events: list[Event]) -> list[_Round]:
    rounds: list[_Round] = []
    for i, ev in enumerate(events):
        if isinstance(ev, RoundStart):
            rounds.append(_Round(ev, i))
        elif rounds and isinstance(ev, Win | ExhaustiveDraw | AbortiveDraw):
            rounds[-1].results.append(ev)
        elif rounds and isinstance(ev, RiichiAccepted):
            rounds[-1].deposits.append(ev.player)
    later: Win | None = None
    for r in reversed(rounds):
        r.next_win = later
        later = next((ev for ev in r.results if isinstance(ev, Win) and ev.deltas), later)
    return rounds


def _round_of(rounds: list[_Round], event: int) -> _Round | None:
    found = None
    for r in rounds:
        if r.index <= event:
            found = r
    return found


def _void(r: _Round, v: Violation, out: Settlement, ruleset: Ruleset, n: int) -> int:
    """Apply one chombo of round ``r``; the riichi sticks it leaves on the table.

    The round ends at the chombo, so a win in it is never paid: its payments are
    reversed, and the sticks it collected stay on the table. Under ``chombo_replay``
    the round is replayed, so the sticks deposited in it go back to their owners; when
    the round had no win, the first later win took them, and its winner gives them back.
    """
    p = v.player
    assert p is not None
    left = 0
    what = "false win" if ruleset.chombo == "none" else "chombo"
    label = f"{v.round}: {what} by player {p} ({v.code})"
    wins = [ev for ev in r.results if isinstance(ev, Win) and ev.deltas]
    returned = [s for s in r.deposits if 0 <= s < n] if ruleset.chombo_replay else []
    for seat in returned:
        out.corrected[seat] += 1000
    parts = []
    if wins:
        for ev in wins:
            for seat, d in enumerate(ev.deltas[:n]):
                out.corrected[seat] -= d
        left = (r.start.kyotaku + len(r.deposits) - len(returned)) * 1000
        parts.append("the win is void, its payments reversed")
    if returned:
        parts.append("its riichi sticks returned (the round is replayed)")
        if not wins and r.next_win is not None and 0 <= r.next_win.winner < n:
            out.corrected[r.next_win.winner] -= 1000 * len(returned)
            parts.append(f"taken back from player {r.next_win.winner}, whose later win "
                         "collected them")
    elif r.deposits and wins:
        parts.append("its riichi sticks left on the table")
    label += (": " + ", ".join(parts) if parts else "")
    label += _penalty(p, r.start.dealer, out, ruleset, n)
    out.corrections.append(label)
    return left


def _penalty(p: int, dealer: int, out: Settlement, ruleset: Ruleset, n: int) -> str:
    """Charge player ``p``'s chombo as the ruleset says; the words for the correction."""
    if ruleset.chombo == "mangan":
        for seat in range(n):
            if seat != p:
                pay = 4000 if p == dealer or seat == dealer else 2000
                out.corrected[seat] += pay
                out.corrected[p] -= pay
        return f"; player {p} pays " + ("4000 to each other player" if p == dealer else
                                        "4000 to the dealer and 2000 to each other player")
    if ruleset.chombo == "fixed":
        out.penalties[p] += ruleset.chombo_points / 1000
        return f"; player {p} loses {ruleset.chombo_points / 1000:g} points at the end"
    return ""


FLOATING_UMA: Final[dict[int, tuple[int, int, int, int]]] = {
    1: (12, -1, -3, -8), 2: (8, 4, -4, -8), 3: (8, 3, 1, -12), 4: (8, 3, 1, -12)}
"""``uma=float`` (浮きウマ): the uma of each place by how many players end at or above
the return score."""


def uma_of(ruleset: Ruleset, players: int, scores: Sequence[int] = ()) -> list[float]:
    """The uma of each place, first first (``10-20`` gives 20, 10, -10, -20; ``float``
    by how many of the final ``scores`` float, :data:`FLOATING_UMA`)."""
    if ruleset.uma == "float":
        if players != 4:
            return [0.0] * players
        floating = sum(s >= ruleset.return_score for s in scores) or 1
        return [float(x) for x in FLOATING_UMA[floating]]
    small_text, _, big_text = ruleset.uma.partition("-")
    small, big = float(small_text or 0), float(big_text or small_text or 0)
    if players == 3:
        return [big, 0.0, -big]
    if players == 4:
        return [big, small, -small, -big]
    return [0.0] * players


def _counted(score: int, ruleset: Ruleset) -> float:
    """A final score less the return score, in thousands, rounded as the ruleset says
    (``thousands``: the score to the nearest thousand, a half away from zero, first)."""
    if ruleset.rounding == "thousands":
        score = int(math.copysign(math.floor(abs(score) / 1000 + 0.5), score)) * 1000
    return round((score - ruleset.return_score) / 1000, 1)


def _points(out: Settlement, ruleset: Ruleset, left_over: int, end: GameEnd | None) -> None:
    """Final points from the corrected scores, less each seat's chombo penalties; under
    ``leftover_sticks=lost`` the riichi sticks left on the table count for nobody."""
    n = len(out.corrected)
    order = sorted(range(n), key=lambda p: -out.corrected[p])  # stable: seat order breaks ties
    groups = _tied_places(out.corrected, order, ruleset)
    if left_over:
        out.corrected[order[0]] += left_over
        out.corrections.append(f"{left_over} points of riichi sticks left on the table go to "
                               f"the first place, player {order[0]}")
    uma = uma_of(ruleset, n, out.corrected)
    points = [0.0] * n
    for place, p in enumerate(order[1:], start=1):
        points[p] = _counted(out.corrected[p], ruleset) + uma[place]
    # the first place takes what balances the table: the oka, and the sticks left on it
    # unless they are lost (then the points add up to less than zero, by those sticks)
    lost = max(sum(out.start) - sum(out.corrected), 0) / 1000 \
        if ruleset.leftover_sticks == "lost" else 0.0
    points[order[0]] = -sum(points) - lost
    for places in groups:
        if len(places) > 1:  # share the uma (and oka) the places got, keep each own score
            seats = [order[place] for place in places]
            counted = {p: _counted(out.corrected[p], ruleset) for p in seats}
            share = sum(points[p] - counted[p] for p in seats) / len(seats)
            for p in seats:
                points[p] = counted[p] + share
    points = [x - pen for x, pen in zip(points, out.penalties, strict=True)]
    out.points = [round(x, 1) for x in points]
    if end is not None and end.points:
        out.recorded_points = [round(float(x), 1) for x in end.points]


def _tied_places(scores: Sequence[int], order: Sequence[int],
                 ruleset: Ruleset) -> list[list[int]]:
    """The places (0 first) grouped as ``tie_uma`` shares them: under ``split``, the places
    of players on equal scores form one group; under ``seat``, every place is its own
    (the seat nearer the first dealer takes the higher place). Judged on the scores
    before the sticks left on the table go to the first place; does not round them."""
    groups: list[list[int]] = []
    for place, p in enumerate(order):
        if ruleset.tie_uma == "split" and groups \
                and scores[order[groups[-1][0]]] == scores[p]:
            groups[-1].append(place)
        else:
            groups.append([place])
    return groups

"""The ranges of the values every reader's events are held to, checked once for all formats.

A record may state any number; a game does not. Past these ranges a value is an error of
the record, said as ``bad-value`` at the event's place (the field's own JSON path in
mjlog's JSON Lines, whose fields are the events'):

===========================================  ===================================
value                                        range read
===========================================  ===================================
scores, score changes, a win's points,       ±:data:`SCORE_LIMIT` (10**9)
final scores and points
honba and riichi sticks on the table         0 to :data:`COUNT_LIMIT` (999)
a win's han and fu, a yaku's han             0 to :data:`COUNT_LIMIT` (999)
a player's rating, final points (floats)     finite (and ±:data:`SCORE_LIMIT`)
===========================================  ===================================

An integer out of range is kept as the record writes it (the audit then reports what it
makes of it, and statistics leave the game out, :mod:`mjlog.stats.facts`); a float that is
not finite (``nan``, ``inf``, which Tenhou XML and notation would read from text) is not
read: the player's rating, or the game's final points, become unknown, since no JSON
written from them could hold it. Numbers that JSON text cannot hold are refused earlier, by
the decoder (:mod:`mjlog.formats.jsontext`). This module judges nothing else: not whether a score
adds up, not whether a seat or tile fits its table (:func:`mjlog.replay.state.misfit`).
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Iterator
from typing import Any, Final

from mjlog.core.diagnostics import Diagnostic, InputError, Src
from mjlog.core.events import (
    AbortiveDraw,
    Event,
    ExhaustiveDraw,
    GameEnd,
    GameStart,
    RiichiAccepted,
    RoundEnd,
    RoundStart,
    Win,
)
from mjlog.core.record import GameRecord

SCORE_LIMIT: Final = 10**9
"""The largest magnitude of a score, a payment or a final point count mjlog reads: a
thousand times any real table's, and within the 32 bits of the statistics' columns."""
COUNT_LIMIT: Final = 999
"""The most honba, riichi sticks, han or fu mjlog reads (a real game sees a few dozen)."""
REPORTED: Final = 100
"""How many values out of range one game reports one by one; the rest are counted."""

_SCORE, _COUNT = (-SCORE_LIMIT, SCORE_LIMIT), (0, COUNT_LIMIT)
_RANGES: Final[dict[type, tuple[tuple[str, str, tuple[int, int]], ...]]] = {
    RoundStart: (("honba", "honba", _COUNT), ("kyotaku", "riichi sticks", _COUNT),
                 ("scores", "score", _SCORE)),
    RiichiAccepted: (("scores", "score", _SCORE),),
    Win: (("points", "points", _SCORE), ("deltas", "score change", _SCORE),
          ("scores_before", "score", _SCORE), ("honba", "honba", _COUNT),
          ("kyotaku", "riichi sticks", _COUNT), ("han", "han", _COUNT),
          ("fu", "fu", _COUNT)),
    ExhaustiveDraw: (("deltas", "score change", _SCORE), ("scores_before", "score", _SCORE),
                     ("honba", "honba", _COUNT), ("kyotaku", "riichi sticks", _COUNT)),
    AbortiveDraw: (("deltas", "score change", _SCORE), ("scores_before", "score", _SCORE),
                   ("honba", "honba", _COUNT), ("kyotaku", "riichi sticks", _COUNT)),
    RoundEnd: (("scores", "score", _SCORE),),
    GameEnd: (("scores", "final score", _SCORE),),
}
"""Each event's integer fields (a number or a tuple of them), what they are, their range."""


def out_of_range(ev: Event) -> Iterator[tuple[str, str]]:
    """Each value of ``ev`` past its range: its field (``scores[0]``) and what is wrong. Does
    not change ``ev``."""
    for name, what, (low, high) in _RANGES.get(type(ev), ()):
        value = getattr(ev, name)
        for field, x in ((name, value),) if not isinstance(value, tuple) else (
                (f"{name}[{i}]", v) for i, v in enumerate(value)):
            if isinstance(x, int) and not low <= x <= high:
                yield field, f"{what} {x} is out of the range mjlog reads ({low:,} to {high:,})"
    if isinstance(ev, Win):
        for i, y in enumerate(ev.yaku):
            if not 0 <= y.han <= COUNT_LIMIT:
                yield f"yaku[{i}].han", (f"han {y.han} of {y.name} is out of the range mjlog "
                                         f"reads (0 to {COUNT_LIMIT})")
    yield from _floats(ev)


def _floats(ev: Event) -> Iterator[tuple[str, str]]:
    """The floats of ``ev`` that are not finite or past :data:`SCORE_LIMIT`."""
    if isinstance(ev, GameStart):
        values: Any = [p.rating for p in ev.players]
        name, what = "players", "rating"
    elif isinstance(ev, GameEnd) and ev.points is not None:
        values, name, what = ev.points, "points", "final points"
    else:
        return
    for i, x in enumerate(values):
        if x is None:
            continue
        if not math.isfinite(x):
            yield (f"{name}[{i}].rating" if name == "players" else f"{name}[{i}]",
                   f"{what} {x} is not a finite number: not read")
        elif abs(x) > SCORE_LIMIT:
            yield (f"{name}[{i}].rating" if name == "players" else f"{name}[{i}]",
                   f"{what} {x:g} is out of the range mjlog reads (±{SCORE_LIMIT:,})")


def finite(ev: Event) -> Event:
    """``ev`` without the floats it holds that are not finite: a player's rating becomes
    unknown, a game end's points unknown. Any other event is returned as it is."""
    if isinstance(ev, GameStart) and any(p.rating is not None and not math.isfinite(p.rating)
                                         for p in ev.players):
        return dataclasses.replace(ev, players=tuple(
            p if p.rating is None or math.isfinite(p.rating)
            else dataclasses.replace(p, rating=None) for p in ev.players))
    if isinstance(ev, GameEnd) and ev.points is not None and not all(
            math.isfinite(x) for x in ev.points):
        return dataclasses.replace(ev, points=None)
    return ev


def check(rec: GameRecord, strict: bool = False) -> None:
    """Add a ``bad-value`` diagnostic to ``rec`` for each value of its events past its range
    (at most :data:`REPORTED`, the last counting the rest), and drop the floats that are not
    finite (:func:`finite`). With ``strict`` the first raises :class:`InputError`."""
    found: list[Diagnostic] = []
    more = 0
    for i, ev in enumerate(rec.events):
        if type(ev) not in _CHECKED:
            continue
        for field, message in out_of_range(ev):
            if len(found) >= REPORTED:
                more += 1
                continue
            d = Diagnostic(code="bad-value", message=message, src=_place(rec, i, field))
            if strict:
                raise InputError(d)
            found.append(d)
        rec.events[i] = finite(ev)
    if more:
        last = found[-1]
        found[-1] = dataclasses.replace(last, message=(
            f"{last.message}; and {more:,} more values out of range after it, not listed"))
    rec.diagnostics.extend(found)


_CHECKED: Final = frozenset((*_RANGES, GameStart))


def _place(rec: GameRecord, i: int, field: str) -> Src | None:
    """Where event ``i``'s ``field`` is: the event's place, and in mjlog's JSON Lines (whose
    lines are the events) the field's own path."""
    src = rec.src(i)
    if src is not None and rec.format == "jsonl":
        return Src(line=src.line, path=f"$.{field}")
    return src

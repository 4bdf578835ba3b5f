"""The text screens of ``mjlog replay``: the table at a move, the move that led to it, the
round's results, the wall and the findings so far.

:func:`replay_text` is the one place that writes them, for ``mjlog replay`` and for its
interactive form (:mod:`mjlog.reports.tui`), so both show the same screen for the same move.
It reads a replay the caller has positioned (an :class:`~mjlog.replay.engine.Engine`
that has applied the record up to some event); it never changes the table, chooses the
point to show nor reports usage errors (the command line does).
"""

from __future__ import annotations

from typing import Final

from mjlog.core.diagnostics import Finding
from mjlog.core.events import (
    AbortiveDraw,
    DoraReveal,
    Draw,
    Event,
    ExhaustiveDraw,
    GameEnd,
    GameStart,
    RoundStart,
    Win,
)
from mjlog.core.record import GameRecord
from mjlog.core.textsafe import terminal, terminal_lines
from mjlog.families.registry import family_of
from mjlog.replay.engine import Engine
from mjlog.reports.render import result_text, table_text, wall_text
from mjlog.reports.view.captions import caption, result_screen
from mjlog.wall.source import WallSource

Walls = tuple[list[WallSource | None], list[Finding]]
"""What :func:`mjlog.wall.verify.walls_for` returns: each round's wall (``None`` where not
known) and the notes saying why."""

BEFORE_RESULT: Final = frozenset({Win, ExhaustiveDraw, AbortiveDraw, RoundStart})
"""The events a replay pauses before to show a round "before the result"."""


def to_round_end(engine: Engine, events: list[Event], stop: int) -> tuple[int, list[Event]]:
    """Apply the events from ``stop`` up to the next round's start (or the record's end);
    return where it stopped and the results and game end met on the way."""
    end = stop
    while end < len(events) and not isinstance(events[end], RoundStart):
        end += 1
    engine.run(events, start=stop, stop=end)
    return end, [ev for ev in events[stop:end]
                 if isinstance(ev, Win | ExhaustiveDraw | AbortiveDraw | GameEnd)]


def wall_at(rec: GameRecord, walls: Walls, first: int, stop: int, red: bool) -> str:
    """The wall of the round starting at event ``first``, as it is before event ``stop``
    (``walls`` from :func:`mjlog.wall.verify.walls_for`, which this does not call)."""
    known, notes = walls
    r = sum(1 for ev in rec.events[:first] if isinstance(ev, RoundStart))
    wall = known[r] if r < len(known) else None
    if wall is None:
        why = notes[0].message if notes else "the record has no shuffle seed"
        return f"wall: not known ({why})\n"
    moves = rec.events[first + 1:stop]
    return wall_text(
        wall, red=red,
        draws=sum(1 for ev in moves if isinstance(ev, Draw) and not ev.rinshan),
        rinshan=sum(1 for ev in moves if isinstance(ev, Draw) and ev.rinshan),
        doras=1 + sum(1 for ev in moves if isinstance(ev, DoraReveal)),
    )


def replay_text(rec: GameRecord, engine: Engine, heading: str, first: int, stop: int, *,
                results: list[Event] | None = None, walls: Walls | None = None) -> str:
    """What ``mjlog replay`` prints for a point of a game, every line escaped for a terminal.

    ``engine`` has applied ``rec.events`` up to (not including) ``stop``, in the round
    that starts at event ``first``. ``results`` (the round's end, from :func:`to_round_end`)
    shows the round's end: its result screens, and the last event applied is named even
    at the round's first event. With ``walls`` the wall is shown too. Names come from the
    record and are escaped here.
    """
    start = rec.events[0] if rec.events and isinstance(rec.events[0], GameStart) else None
    red = start.ruleset.red_fives if start else True
    family = family_of(start.ruleset) if start else None
    out = [terminal_lines(table_text(engine.state, start, red=red, heading=heading,
                                     dora=family.has_dora if family else True))]
    names = [p.name or f"seat {i}" for i, p in enumerate(start.players)] if start else []
    unit = family.value_unit if family else "han"
    if stop > first + 1 or results is not None:
        last = rec.events[stop - 1]
        out.append(terminal(f"last move: {caption(last, engine.state, names, red, unit)}")
                   + "\n")
    for ev in results or ():
        res = result_screen(ev, engine.state, names, red, start.first_dealer if start else 0)
        if res is not None:
            out.append(terminal_lines(result_text(res, names, unit)))
    if walls is not None:
        out.append(wall_at(rec, walls, first, stop, red))
    out.extend(terminal(f"finding so far: {f}") + "\n" for f in engine.findings)
    return "".join(out)

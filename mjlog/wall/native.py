"""The wall proof by the native core (``core/src/wall.rs``), the twin of
:func:`mjlog.wall.verify.verify` for Tenhou seeds and published walls.

The native pass reads the game's event code (:mod:`mjlog.replay.code`) and what the code
does not hold, built here from the record: the game's parsed ``SHUFFLE`` seed (or why
there is none), and for each round start its recorded dice and what it brings of its
own: a published wall, read and its commitment checked by :mod:`mjlog.wall.published`
(the same functions :mod:`mjlog.wall.verify` calls), or an early-2009 round seed. The
shuffles, the placing of an excerpt among a seed's deals, the notes and every
comparison are native.

It *declines* (``None``: the Python route runs) a game the code cannot hold and a game
with a stated table wall (:attr:`RoundStart.wall` without a published one), whose
dealing by the family's geometry stays Python. It imports no native code itself (the
caller passes ``mjlog._native``).
"""

from __future__ import annotations

from typing import Any

from mjlog.core.diagnostics import Finding
from mjlog.core.events import Event, GameStart, RoundStart
from mjlog.core.record import GameRecord
from mjlog.formats.origin import round_published
from mjlog.replay.code import encode, findings_of
from mjlog.wall.published import Problem
from mjlog.wall.source import WallSource
from mjlog.wall.tenhou_shuffle import SeedError, parse_seed
from mjlog.wall.verify import _published, round_starts, seed_text

SeedArg = tuple[str, list[int]]
"""A parsed seed as the native pass takes it: its form and key words."""
WallArg = tuple[list[list[int]], list[int], list[int], list[int], list[int]]
"""A published wall: dealt hands by seat, live wall, replacement tiles, dora and ura
indicators."""
RoundArg = tuple[list[int], int, list[Problem], WallArg | None, SeedArg | None, str]
"""A round: dice, kind (0 nothing, 1 published, 2 own seed, 3 unreadable own seed),
problems, published wall, own seed, why."""
PLAIN, PUBLISHED, ROUND_SEED, ROUND_SEED_ERROR = 0, 1, 2, 3


def game_seed(start: GameStart) -> tuple[SeedArg | None, str]:
    """The game's parsed seed, or ``None`` and why there is none (``_from_seed``'s
    reasons)."""
    text = seed_text(start)
    if text is None:
        return None, "the record has no shuffle seed"
    try:
        seed = parse_seed(text)
    except SeedError as exc:
        return None, str(exc)
    return (seed.form, list(seed.words)), ""


def wall_arg(wall: WallSource) -> WallArg:
    """A published wall's tiles in the order the native pass reads them."""
    rinshan, doras, uras = wall.counts
    return ([list(h) for h in wall.hands(0)],
            [wall.draw(k) for k in range(wall.live_count)],
            [wall.rinshan(k) for k in range(rinshan)],
            [wall.dora(k) for k in range(doras)],
            [wall.ura(k) for k in range(uras)])


def round_arg(events: list[Event], i: int, rs: RoundStart, start: GameStart
              ) -> RoundArg | None:
    """What round start ``events[i]`` brings beside the code; ``None`` for a stated
    table wall (the game is declined)."""
    dice = list(rs.dice)
    published = round_published(rs)
    if published is not None:
        wall, problems = _published(events, i, rs, published, start)
        return dice, PUBLISHED, problems, None if wall is None else wall_arg(wall), None, ""
    if rs.wall is not None:
        return None
    per_round = dict(rs.extra).get("shuffle")
    if per_round is None:
        return dice, PLAIN, [], None, None, ""
    try:
        seed = parse_seed(per_round)
    except SeedError as exc:
        return dice, ROUND_SEED_ERROR, [], None, None, f"this round's shuffle: {exc}"
    return dice, ROUND_SEED, [], None, (seed.form, list(seed.words)), ""


def wall_input(record: GameRecord) -> tuple[SeedArg | None, str, list[RoundArg]] | None:
    """The native pass's arguments beside the code: seed, why none, each round's; ``None``
    when the game is declined (a stated table wall)."""
    events = record.events
    start = events[0] if events else None
    if not isinstance(start, GameStart):
        return None, "", []
    seed, why = game_seed(start)
    rounds: list[RoundArg] = []
    for i in round_starts(events):
        rs = events[i]
        assert isinstance(rs, RoundStart)
        got = round_arg(events, i, rs, start)
        if got is None:
            return None
        rounds.append(got)
    return seed, why, rounds


def verify_native(native: Any, record: GameRecord, code: bytes | None = None
                  ) -> list[Finding] | None:
    """:func:`mjlog.wall.verify.verify` by the native core ``native`` (``mjlog._native``):
    the same findings in the same order; ``None`` when the game is declined (the code
    cannot hold it, or it states a table wall). ``code``: the record's code
    (:func:`mjlog.replay.code.encode`) when the caller has it already."""
    args = wall_input(record)
    if args is None:
        return None
    if code is None:
        code = encode(record.events, native).code
    if code is None:
        return None
    raw = native.wall_check(code, *args)
    return findings_of(raw, record.src)


__all__ = ["game_seed", "round_arg", "verify_native", "wall_arg", "wall_input"]

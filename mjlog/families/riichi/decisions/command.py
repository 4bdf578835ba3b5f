"""What ``mjlog review`` writes: the decision facts as JSON Lines, or a summary per round.

:func:`json_lines` gives one line per decision, each the decision's JSON object
(``docs/review.md``) with the record's path (``file``) and the game's index in it
(``game``, from 0) in front. :func:`summary` gives a few lines per round a person reads on
a terminal: for each seat its discards, how many were the most accepting, the ukeire lost
and the costliest discard, then each deal-in with the discarder's shanten and the tile's
class. The text is not escaped here (the command escapes it for the terminal); nothing
here reads files or replays games.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence

from mjlog.core.events import GameStart
from mjlog.core.record import GameRecord
from mjlog.core.tiles import kind_str
from mjlog.families.riichi.decisions.model import Decision, DiscardDecision


def seat_names(rec: GameRecord) -> list[str]:
    """The players' names by seat (``Seat 1`` … where the record names nobody)."""
    start = rec.events[0] if rec.events else None
    if not isinstance(start, GameStart):
        return [f"Seat {p + 1}" for p in range(4)]
    return [p.name or f"Seat {i + 1}" for i, p in enumerate(start.players)]


def seat_of(rec: GameRecord, name: str) -> int | None:
    """The seat of the player named ``name`` in ``rec`` (``None`` when nobody is)."""
    start = rec.events[0] if rec.events else None
    if not isinstance(start, GameStart):
        return None
    return next((i for i, p in enumerate(start.players) if p.name == name), None)


def json_lines(path: str, game: int, decisions: Sequence[Decision]) -> Iterator[str]:
    """One JSON line (with its newline) per decision, ``file`` and ``game`` first."""
    for d in decisions:
        yield json.dumps({"file": path, "game": game, **d.to_json()},
                         ensure_ascii=False) + "\n"


def _seat_line(name: str, discards: list[DiscardDecision]) -> str:
    """One seat's discards of a round in one line."""
    judged = [d for d in discards if d.loss is not None]
    best = sum(1 for d in judged if d.best and d.tile in d.best)
    lost = sum(max(d.loss[1], 0) for d in judged if d.loss is not None and d.loss[0] == 0)
    forced = sum(1 for d in discards if d.forced)
    line = f"  {name}: {len(discards)} discards"
    if forced:
        line += f" ({forced} after riichi)"
    line += f", {best} of {len(judged)} most accepting, {lost} tiles of ukeire lost"
    worst = max(judged, key=lambda d: (d.loss or (0, 0)), default=None)
    if worst is not None and worst.loss is not None and worst.loss != (0, 0):
        shanten, tiles = worst.loss
        what = f"{shanten} shanten" if shanten else f"{tiles} tiles"
        best_tiles = "/".join(kind_str(k) for k in worst.best or ())
        line += (f"; costliest: {kind_str(worst.tile)} at event {worst.event} ({what} "
                 f"behind {best_tiles})")
    return line


def _deal_in_lines(names: list[str], discards: list[DiscardDecision]) -> list[str]:
    """A line per discard of the round that was won on."""
    out = []
    for d in discards:
        if d.deal_in is None:
            continue
        sh = d.deal_in.shanten
        ready = "not known" if sh is None else "ready" if sh == 0 else f"{sh} from ready"
        for w in d.deal_in.winners:
            cls = d.deal_in.classes.get(w) or "not computed"
            out.append(f"  deal-in: {names[d.seat]}'s {kind_str(d.tile)} at event {d.event} "
                       f"to {names[w]} (discarder {ready}; the tile was {cls})")
    return out


def summary(path: str, game: int, rec: GameRecord, decisions: Sequence[Decision],
            seats: set[int] | None = None) -> str:
    """The readable summary of one game's decisions (module docstring), for ``seats``
    only when given."""
    names = seat_names(rec)
    lines = [f"{path} game {game + 1}"]
    rounds: dict[str, list[DiscardDecision]] = {}
    for d in decisions:
        if isinstance(d, DiscardDecision):
            rounds.setdefault(d.round, []).append(d)
    for label, discards in rounds.items():
        lines.append(label)
        for p in sorted({d.seat for d in discards}):
            if seats is None or p in seats:
                lines.append(_seat_line(names[p] if p < len(names) else f"Seat {p + 1}",
                                        [d for d in discards if d.seat == p]))
        lines.extend(_deal_in_lines(names, [d for d in discards
                                            if seats is None or d.seat in seats]))
    return "\n".join(lines) + "\n"


__all__ = ["json_lines", "seat_names", "seat_of", "summary"]

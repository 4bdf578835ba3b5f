"""The ``decisions`` fact table: each player-round's decision facts, counted.

``mjlog stats --decisions`` replays every game with
:func:`mjlog.families.riichi.decisions.decisions`
(shanten and ukeire of every discard choice, the safety class of every tile against
each opponent in riichi) and sums, per player per round, what the metrics of
``docs/statistics.md`` need: discards made ready and not ready, deal-ins made ready and
not ready, the most accepting choices, the ukeire lost with and without a riichi
threat, and discards and deal-ins against riichi by the tile's safety class.

A row is written for every round of a game whose decisions were computed, zeros
included, so that a group's ``decision_rounds`` says how much of it was counted: a
facts folder written without ``--decisions`` has no such table, and its metrics say
"needs --decisions", never 0. This module only counts; what a fact means is
``docs/review.md``'s.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Iterable
from typing import Any, Final

import polars as pl

from mjlog.core.events import RoundStart
from mjlog.core.record import GameRecord
from mjlog.families.riichi.decisions.model import Decision, DiscardDecision

TABLE: Final = "decisions"
"""The fact table's name (a folder of its own in a facts folder)."""

CLASSES: Final = ("genbutsu", "suji", "kabe", "one_chance", "honour", "none")
"""The safety classes counted, as column suffixes: ``docs/review.md``'s classes with
``honour-4`` and ``honour-3`` as one (an honour of which three or four copies are
seen); an honour with fewer seen is ``none``."""
_BUCKET: Final = {"genbutsu": 0, "suji": 1, "kabe": 2, "one-chance": 3, "honour-4": 4,
                  "honour-3": 4, "none": 5}

COUNTS: Final[tuple[tuple[str, pl.DataType], ...]] = (
    ("discards", pl.Int16()), ("ready_discards", pl.Int16()),
    ("ready_deal_ins", pl.Int8()), ("not_ready_deal_ins", pl.Int8()),
    ("choices", pl.Int16()), ("best_choices", pl.Int16()), ("shanten_losses", pl.Int16()),
    ("threat_choices", pl.Int16()), ("threat_best_choices", pl.Int16()),
    ("calm_kept", pl.Int16()), ("calm_ukeire_lost", pl.Int32()),
    ("calm_ukeire_lost_sq", pl.Int32()),
    ("threat_kept", pl.Int16()), ("threat_ukeire_lost", pl.Int32()),
    ("threat_ukeire_lost_sq", pl.Int32()),
    *((f"threat_discards_{c}", pl.Int16()) for c in CLASSES),
    *((f"riichi_deal_ins_{c}", pl.Int8()) for c in CLASSES),
)
"""The counters of a row, in column order, with their types (module docstring;
``docs/statistics.md`` defines each)."""
_AT: Final = {name: i for i, (name, _) in enumerate(COUNTS)}
_THREAT_AT: Final = _AT["threat_discards_genbutsu"]
_DEAL_IN_AT: Final = _AT["riichi_deal_ins_genbutsu"]


def schema(group: dict[str, pl.DataType]) -> dict[str, pl.DataType]:
    """The table's schema: the per-game ``group`` columns, the round and seat, the
    counters."""
    return {**group, "round": pl.Int16(), "seat": pl.Int8(), **dict(COUNTS)}


def count_discard(row: list[int], d: DiscardDecision) -> None:
    """Add one discard decision's facts to a player-round's counters ``row``."""
    raw, tile = d.raw, d.tile
    taken = None if raw is None else next((o[1] for o in raw if o[0] == tile), None)
    if taken is not None:  # the shanten the discard left (DiscardDecision.taken()'s)
        row[0] += 1
        row[1] += taken == 0
    threats = d.threats
    if d.deal_in is not None and d.deal_in.shanten is not None:
        row[2 if d.deal_in.shanten == 0 else 3] += 1
    threatened = bool(threats)
    if not d.forced and d.best is not None and d.loss is not None:
        best = tile in d.best
        row[4] += 1
        row[5] += best
        row[6] += d.loss[0] > 0
        row[7] += threatened
        row[8] += threatened and best
        if d.loss[0] == 0:
            lost = d.loss[1]
            at = _AT["threat_kept"] if threatened else _AT["calm_kept"]
            row[at] += 1
            row[at + 1] += lost
            row[at + 2] += lost * lost
    if threats:
        for by in threats.values():
            cls = by.get(tile)
            if cls is not None:
                row[_THREAT_AT + _BUCKET[cls]] += 1
    if d.deal_in is not None:
        for w, cls in d.deal_in.classes.items():
            if cls is not None and d.deal_in.riichi.get(w):
                row[_DEAL_IN_AT + _BUCKET[cls]] += 1


def round_counts(rec: GameRecord, found: Iterable[Decision], players: int
                 ) -> list[list[int]]:
    """The counters of every player-round of a game, rounds in order (seat after seat):
    each round start of ``rec`` opens ``players`` rows, and each discard decision of
    ``found`` adds to the row of its round and seat."""
    starts = [i for i, ev in enumerate(rec.events) if isinstance(ev, RoundStart)]
    rows = [[0] * len(COUNTS) for _ in range(len(starts) * players)]
    for d in found:
        if not isinstance(d, DiscardDecision):
            continue
        r = bisect_right(starts, d.event) - 1
        if r >= 0 and d.seat < players:
            count_discard(rows[r * players + d.seat], d)
    return rows


def add_rows(cells: list[Any], game: int, names: list[str], rec: GameRecord) -> str | None:
    """Append a game's rows (flat: the game's number in its batch, the player, the round,
    the seat, the counters) to ``cells``; ``None``, or why the decisions could not be
    computed (then nothing is appended)."""
    from mjlog.families.riichi.decisions import (  # the replay: only for --decisions
        FactsError,
        decisions,
    )

    try:
        found = decisions(rec)
    except (FactsError, IndexError, KeyError, TypeError, ValueError) as exc:
        return str(exc) or repr(exc)
    n = len(names)
    for k, row in enumerate(round_counts(rec, found, n)):
        cells.extend((game, names[k % n], k // n, k % n, *row))
    return None


__all__ = ["CLASSES", "COUNTS", "TABLE", "add_rows", "count_discard", "round_counts",
           "schema"]

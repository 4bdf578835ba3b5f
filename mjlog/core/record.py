"""A game as read from a source: its events, where each came from, and what went wrong.

A :class:`GameRecord` is what every importer returns for one game. Positions
are stored compactly beside the events (one integer per event), so that
events can stay shared, allocation-free values; :meth:`GameRecord.src`
turns one into a :class:`~mjlog.core.diagnostics.Src` when a report needs it.
"""

from __future__ import annotations

from array import array
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Literal

from mjlog.core.diagnostics import Diagnostic, Src
from mjlog.core.events import Event, GameEnd

PositionKind = Literal["xml", "jsonl", "text", "json", "none"]


@dataclass(slots=True)
class GameRecord:
    """One game's events with their source positions and the reading diagnostics.

    For ``xml`` sources ``positions[i]`` is the index of event ``i``'s element
    among the root's children and ``lines`` (when the document spans several
    lines) its line; for ``jsonl`` sources it is the 1-based line number; for
    ``text`` sources (notation) the line, with the column in ``columns``; for
    ``json`` sources (tenhou.net/6) the line (0 for a one-object file), with
    the event's JSON path in ``paths``.
    An element that yields several events (a meld with its rinshan context,
    a round end) gives each of them the same position.
    """

    path: str
    format: str
    events: list[Event] = field(default_factory=list)
    diagnostics: list[Diagnostic] = field(default_factory=list)
    positions: array[int] = field(default_factory=lambda: array("i"))
    lines: array[int] | None = None
    position_kind: PositionKind = "none"
    columns: array[int] | None = None
    paths: Sequence[str] | None = None
    review: object | None = None
    """An AI's review of the game that came with it (a Mortal review report's): a
    :class:`mjlog.core.review.Review`, each reviewed move tied to its event. The core does not
    look at it; it changes nothing of the game."""

    def src(self, i: int) -> Src | None:
        """The source position of event ``i``, or ``None`` when unknown."""
        if i < 0 or i >= len(self.positions):
            return None
        pos = self.positions[i]
        if self.position_kind == "xml":
            line = self.lines[i] if self.lines is not None else 1
            return Src(line=line, index=pos)
        if self.position_kind == "jsonl":
            return Src(line=pos)
        if self.position_kind == "json":
            return Src(line=pos, path=self.paths[i] if self.paths is not None else "")
        if self.position_kind == "text":
            return Src(line=pos, column=self.columns[i] if self.columns is not None else 0)
        return None

    @property
    def complete(self) -> bool:
        """Whether the record ends with a game end."""
        return bool(self.events) and isinstance(self.events[-1], GameEnd)

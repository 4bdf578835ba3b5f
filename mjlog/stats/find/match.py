"""What ``mjlog find`` lists: one :class:`Match` per game, round or move found, and the
viewer page it links to.

A match's place is the one the audit report and the replay viewer use: the file (an
archive's record as ``ARCHIVE!MEMBER``), the game in it (from 1), the round label
(``E1-0``), the audit's turn and the viewer's step (``page.html#step=K``). A match found on
a facts folder has no turn or step (the facts tables do not hold them): its link opens
the game's page on its first deal. This module builds nothing from records.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from pathlib import Path, PurePosixPath
from typing import Any, Final

from mjlog.run import archives, storage

KINDS: Final = ("win", "kan", "finding", "round", "game")
"""What a match is: a win, a kan after riichi, an audit finding, a round's end, a game."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Match:
    """One thing found, with its place and viewer link."""

    source: str
    """The record's file (``ARCHIVE!MEMBER`` inside an archive)."""
    game: int
    """The game's number in its file, from 1."""
    round: str = ""
    """The round label (``E1-0``); empty for a whole game."""
    turn: int | None = None
    """The audit's turn in the round (what ``mjlog replay --turn`` takes)."""
    step: int | None = None
    """The viewer's step (``#step=K``)."""
    kind: str = "game"
    seat: int | None = None
    """The seat the match is about (the winner, the player who called the kan …)."""
    player: str = ""
    what: str = ""
    """What happened, in words."""
    yakuman: int = 0
    """A win's yakuman yaku (a triple yakuman counts 3, a double yakuman yaku 1)."""
    link: str = ""

    def to_dict(self) -> dict[str, Any]:
        """The match as plain JSON-able data."""
        return asdict(self)

    def key(self) -> tuple[str, int, str, str, int | None]:
        """What identifies the match whatever route found it (no step, turn or words)."""
        return self.source, self.game, self.round, self.kind, self.seat


def page_name(source: str, game: int, games: int, holders: list[tuple[str, bool]]) -> str:
    """The page ``mjlog view`` writes for a game, relative to its output folder: the
    record's path below the folder or archive named (just its name for a file named), its
    extension replaced by ``.html``, with ``-gameN`` for a file of several games."""
    below = _below(source, holders)
    parts = [p for p in PurePosixPath(below).parts if p not in ("/", ".", "..")
             and not p.endswith(":")] or ["record"]
    rel = PurePosixPath(*parts)
    stem = rel.with_suffix("").name + (f"-game{game}" if games > 1 else "")
    return str(rel.with_name(stem + ".html"))


def _below(source: str, holders: list[tuple[str, bool]]) -> str:
    """The record's path below the holder (folder or archive) that holds it."""
    path = source.replace(archives.SEPARATOR, "/")
    for holder, archive in holders:
        if storage.is_url(holder):
            base = holder.rstrip("/")
            if path.startswith(base + "/"):
                rest = path[len(base) + 1:]
                return f"{base.rsplit('/', 1)[-1]}/{rest}" if archive else rest
        elif Path(holder) in Path(path).parents:
            return str(Path(path).relative_to(Path(holder).parent if archive else Path(holder)))
    return path.rsplit("/", 1)[-1]


def link(page: str, step: int | None) -> str:
    """The viewer link of a page at a step (the page alone without one)."""
    return page if step is None else f"{page}#step={step}"

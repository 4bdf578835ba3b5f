"""Fact tables on disk: written into a new folder, put in place only when complete.

``mjlog stats --facts DIR`` writes through :class:`FactsWriter`: every part
goes into a hidden folder beside ``DIR``; when the run ends well, a
``_manifest.json`` (what went in: files, games, mjlog version, options,
schemas) is added and the folder takes ``DIR``'s place in one rename. An
error or an interrupt leaves ``DIR`` as it was. A non-empty ``DIR`` is
refused unless ``overwrite`` is given: facts of two runs never mix.
:class:`Census` counts what a run read, for the manifest and for the message
when nothing matched.
"""

from __future__ import annotations

import json
import os
import shutil
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, ClassVar

import polars as pl

from mjlog.stats.facts import ALL_SCHEMAS, DECISIONS, FACTS_VERSION, TABLES

MANIFEST = "_manifest.json"


@dataclass
class Census:
    """What a run read, before any filter: for the message when nothing matched."""

    games: int = 0
    complete: int = 0
    duplicates: int = 0
    undated: int = 0
    """Games whose record gives no date (which ``--since`` and ``--until`` leave out)."""
    rooms: set[str] = field(default_factory=set)
    rulesets: set[str] = field(default_factory=set)
    players: set[str] = field(default_factory=set)
    _CAP: ClassVar[int] = 200_000

    def add(self, batch: dict[str, pl.DataFrame]) -> None:
        """Count one batch's games (before filtering) and remember their names."""
        games = batch["rounds"].select("source", "complete", "date").unique()
        self.games += games.height
        self.complete += int(games["complete"].sum())
        self.undated += int(games["date"].is_null().sum())
        self.names(batch)

    def merge(self, other: Census) -> None:
        """Add what another census counted (a batch's, counted where it was read)."""
        self.games += other.games
        self.complete += other.complete
        self.undated += other.undated
        self.rooms |= other.rooms
        self.rulesets |= other.rulesets
        if len(self.players) < self._CAP:
            self.players |= other.players

    def names(self, batch: dict[str, pl.DataFrame]) -> None:
        """Remember a batch's rooms, rulesets and players (for the message when nothing
        matched), without counting its games."""
        rounds = batch["rounds"]
        self.rooms.update(r for r in rounds["room"].unique().to_list() if r is not None)
        self.rulesets.update(rounds["ruleset"].unique().to_list())
        if len(self.players) < self._CAP:
            self.players.update(batch["player_rounds"]["player"].unique().to_list())


class FactsWriter:
    """Writes batches of fact tables as Parquet parts into a folder that appears whole."""

    def __init__(self, target: Path, *, overwrite: bool = False, update: bool = False,
                 inputs: Sequence[str] = ()) -> None:
        """Raises :class:`FileExistsError` for a non-empty ``target`` without ``overwrite``
        or ``update``, and for one that is not a facts folder of mjlog's with either (its
        manifest, and nothing but its tables) or that holds one of the ``inputs``, before
        anything is read or written: nothing a user keeps there is replaced. A commit
        that a crash cut short is finished first (:func:`recover`). With ``update`` the
        facts already in ``target`` (:attr:`previous`, its manifest) are kept: their parts
        are linked into the new folder, and new parts follow them."""
        recover(target)
        filled = target.exists() and (not target.is_dir() or any(target.iterdir()))
        self.previous: dict[str, Any] | None = None
        if filled and not (overwrite or update):
            raise FileExistsError(f"{target} exists and is not empty: give --overwrite to "
                                  "replace it, --update to add new games to its facts, or "
                                  "choose a new folder")
        if filled:
            _refuse_foreign(target, inputs, "update" if update else "replace")
        if filled and update:
            self.previous = read_manifest(target)
        self.target = target
        self.partial = target.with_name(f".{target.name}.partial-{os.getpid()}")
        shutil.rmtree(self.partial, ignore_errors=True)
        for t in TABLES:
            (self.partial / t).mkdir(parents=True)
        self.parts = 0
        self.rows = dict.fromkeys(TABLES, 0)
        self.done = False
        if self.previous is not None:
            self._keep_previous(self.previous)

    def _keep_previous(self, manifest: dict[str, Any]) -> None:
        """Link the existing parts into the new folder (a copy where links cannot be made)."""
        for t in self._held():
            (self.partial / t).mkdir(exist_ok=True)
            for part in sorted((self.target / t).glob("part-*.parquet")):
                dest = self.partial / t / part.name
                try:
                    os.link(part, dest)
                except OSError:
                    shutil.copy2(part, dest)
        self.parts = int(manifest.get("parts", 0))
        self.rows = {t: int(manifest.get("rows", {}).get(t, 0)) for t in self._held()}

    def _held(self) -> tuple[str, ...]:
        """The tables of the folder kept by an update: :data:`TABLES`, and ``decisions``
        when it was written with them."""
        return (*TABLES, DECISIONS) if (self.target / DECISIONS).is_dir() else TABLES

    def previous_batches(self) -> Iterator[dict[str, pl.DataFrame]]:
        """The facts already written, part by part (none without ``update``)."""
        held = self._held()
        for i in range(self.parts if self.previous is not None else 0):
            yield {t: pl.read_parquet(self.target / t / f"part-{i:05d}.parquet")
                   for t in held}

    def write(self, batch: dict[str, pl.DataFrame]) -> None:
        """Write one batch's tables as the next part of each (the ``decisions`` table's
        folder is made with its first part: a run without it writes none)."""
        for t, df in batch.items():
            (self.partial / t).mkdir(exist_ok=True)
            df.write_parquet(self.partial / t / f"part-{self.parts:05d}.parquet")
            self.rows[t] = self.rows.get(t, 0) + df.height
        self.parts += 1

    def commit(self, items: Sequence[tuple[str, bool]], census: Census,
               options: dict[str, Any]) -> None:
        """Write the manifest and put the folder in ``target``'s place (replacing it)."""
        from mjlog import __version__

        prev = self.previous or {}
        manifest = {
            "mjlog_version": __version__, "facts_version": FACTS_VERSION,
            "written": datetime.now(UTC).isoformat(timespec="seconds"),
            "files": [*prev.get("files", []), *(p for p, _ in items)],
            "games_read": prev.get("games_read", 0) + census.games,
            "complete_games_read": prev.get("complete_games_read", 0) + census.complete,
            "duplicates_dropped": prev.get("duplicates_dropped", 0) + census.duplicates,
            "options": options, "parts": self.parts, "rows": self.rows,
            "schemas": {t: {c: str(d) for c, d in s.items()} for t, s in ALL_SCHEMAS.items()
                        if t in self.rows},
        }
        (self.partial / MANIFEST).write_text(
            json.dumps(manifest, ensure_ascii=False, indent=1) + "\n", "utf-8")
        old = self.target.with_name(f".{self.target.name}.old-{os.getpid()}")
        if self.target.exists():
            os.replace(self.target, old)
        os.replace(self.partial, self.target)
        shutil.rmtree(old, ignore_errors=True)
        self.done = True

    def discard(self) -> None:
        """Remove the partial folder unless it was committed (safe to call twice)."""
        if not self.done:
            shutil.rmtree(self.partial, ignore_errors=True)


def _refuse_foreign(target: Path, inputs: Sequence[str], what: str) -> None:
    """Raise :class:`FileExistsError` unless ``target`` is a facts folder mjlog wrote (its
    manifest, its tables and nothing else) that holds none of ``inputs``."""
    if not (target / MANIFEST).is_file():
        raise FileExistsError(f"{target} holds no facts mjlog wrote (no {MANIFEST}): not "
                              f"{what}d, nothing was read or written")
    own = {MANIFEST, *TABLES, DECISIONS}
    foreign = sorted(p.name for p in target.iterdir() if p.name not in own)
    if foreign:
        raise FileExistsError(f"{target} holds files mjlog did not write ({', '.join(foreign[:3])}"
                              f"{' …' if len(foreign) > 3 else ''}): not {what}d, nothing was "
                              "read or written")
    resolved = target.resolve()
    held = [i for i in inputs if resolved in Path(i).resolve().parents]
    if held:
        raise FileExistsError(f"{target} holds an input of this run ({held[0]}): not {what}d, "
                              "nothing was read or written")


def recover(target: Path) -> None:
    """Finish a commit that a crash cut short between its two renames: with ``target``
    missing, the complete new folder (manifest written) is put in its place, else the
    old one is put back; then the staging folders of processes no longer running are
    removed. Only mjlog's own staging folders (``.NAME.partial-PID``, ``.NAME.old-PID``)
    are touched, and never one whose process still runs."""
    parent = target.parent
    if not parent.is_dir():
        return
    partials = sorted(parent.glob(f".{target.name}.partial-*"))
    olds = sorted(parent.glob(f".{target.name}.old-*"))
    if not target.exists():
        whole = [p for p in partials if (p / MANIFEST).is_file()]
        kept = [p for p in olds if (p / MANIFEST).is_file()]
        if whole or kept:
            os.replace((whole or kept)[-1], target)
    if target.exists():
        for left in [*olds, *partials]:
            if left.exists() and not _alive(left.name.rsplit("-", 1)[-1]):
                shutil.rmtree(left, ignore_errors=True)


def _alive(pid: str) -> bool:
    """Whether the process that named a staging folder still runs (then it is its own)."""
    try:
        os.kill(int(pid), 0)
    except (ValueError, ProcessLookupError):
        return False
    except PermissionError:  # another user's process
        return True
    return True


def read_manifest(folder: Path) -> dict[str, Any]:
    """The manifest of a facts folder written by mjlog."""
    data: dict[str, Any] = json.loads((folder / MANIFEST).read_text("utf-8"))
    return data

"""Player statistics with polars: fact tables, a metric registry, streaming over archives.

Python use::

    from mjlog.stats import facts, metrics
    tables = facts(["logs/"])                 # four polars DataFrames
    df = metrics(tables, by=["player"])       # one row per player
    df = metrics(tables, by=["player", "year"], options={"double_ron": "twice"})

For archives too big to hold, :func:`summarize` streams: it reads games in
batches, optionally writes each batch's fact tables as Parquet, reduces the
batch to additive counters and drops it, so memory does not grow with the
number of games. ``mjlog stats`` is the command-line face of :func:`summarize`.
This package is the only part of mjlog that imports polars.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

import polars as pl

from mjlog import parallel
from mjlog.formats import expand
from mjlog.stats.facts import SCHEMAS, TABLES, Batch, add_file, facts, files_facts, iter_batches
from mjlog.stats.metrics import GROUP_KEYS, METRICS, OPTIONS, compute, count, merge

__all__ = ["GROUP_KEYS", "METRICS", "OPTIONS", "SCHEMAS", "Filters", "facts", "iter_batches",
           "metrics", "pl", "summarize"]


@dataclass(frozen=True, slots=True, kw_only=True)
class Filters:
    """Which games and players count. Empty fields do not filter."""

    players: tuple[str, ...] = ()
    since: datetime | None = None
    until: datetime | None = None
    rooms: tuple[str, ...] = ()
    rulesets: tuple[str, ...] = ()
    go_types: tuple[int, ...] = ()
    """Tenhou ``GO type`` values (169: Houou four-player hanchan with red fives)."""
    include_incomplete: bool = False

    def apply(self, tables: dict[str, pl.DataFrame]) -> dict[str, pl.DataFrame]:
        """The tables with only the rows these filters keep."""
        cond = pl.lit(True)
        if not self.include_incomplete:
            cond = cond & pl.col("complete")
        if self.since is not None:
            cond = cond & (pl.col("date") >= self.since)
        if self.until is not None:
            cond = cond & (pl.col("date") < self.until)
        if self.rooms:
            cond = cond & pl.col("room").is_in(list(self.rooms))
        if self.rulesets:
            cond = cond & pl.col("ruleset").is_in(list(self.rulesets))
        if self.go_types:
            cond = cond & pl.col("go_type").is_in(list(self.go_types))
        out = {t: df.filter(cond) for t, df in tables.items()}
        if self.players:
            for t in ("games", "player_rounds", "wins"):
                out[t] = out[t].filter(pl.col("player").is_in(list(self.players)))
        return out


def metrics(tables: dict[str, pl.DataFrame], *, by: Sequence[str] = ("player",),
            options: dict[str, str] | None = None, filters: Filters | None = None
            ) -> pl.DataFrame:
    """Every metric of :data:`METRICS` per group of ``by`` (any of :data:`GROUP_KEYS`)."""
    _check_by(by)
    kept = (filters or Filters()).apply(tables)
    return compute(count(kept, by), by, options)


def _check_by(by: Sequence[str]) -> None:
    bad = [k for k in by if k not in GROUP_KEYS]
    if bad:
        raise ValueError(f"cannot group by {', '.join(bad)}; choose from {', '.join(GROUP_KEYS)}")


def _batches(items: list[tuple[str, bool]], jobs: int, batch_games: int,
             progress: Callable[[int], Any] | None
             ) -> Iterator[tuple[dict[str, pl.DataFrame], list[str]]]:
    """Fact tables of about ``batch_games`` games at a time (and the games skipped)."""
    if jobs <= 1:
        batch = Batch()
        for item in items:
            add_file(batch, item)
            if progress is not None:
                progress(1)
            if batch.games >= batch_games:
                yield batch.frames(), batch.skipped
                batch = Batch()
        if batch.games:
            yield batch.frames(), batch.skipped
        return
    size = max(1, min(batch_games, len(items) // (jobs * 4) or 1))
    chunks = [items[i:i + size] for i in range(0, len(items), size)]
    with parallel.pool(jobs) as pool:
        for chunk, result in zip(chunks, pool.imap(files_facts, chunks), strict=True):
            if progress is not None:
                progress(len(chunk))
            yield result


class _Dedupe:
    """Drops complete games already seen (same players and first deal), keeping the first."""

    def __init__(self) -> None:
        self.seen: set[int] = set()
        self.dropped = 0

    def __call__(self, batch: dict[str, pl.DataFrame]) -> dict[str, pl.DataFrame]:
        games = batch["rounds"].filter(pl.col("complete")).select("game_id", "game_key").unique(
            maintain_order=True)
        drop = []
        for game_id, key in games.iter_rows():
            if key in self.seen:
                drop.append(game_id)
            else:
                self.seen.add(key)
        if not drop:
            return batch
        self.dropped += len(drop)
        return {t: df.filter(~pl.col("game_id").is_in(drop)) for t, df in batch.items()}


def summarize(inputs: Iterable[str | Path], *, by: Sequence[str] = ("player",),
              options: dict[str, str] | None = None, filters: Filters | None = None,
              facts_dir: str | Path | None = None, jobs: int = 1, batch_games: int = 500,
              dedupe: bool = True, progress: Callable[[int], Any] | None = None,
              skipped: list[str] | None = None) -> pl.DataFrame:
    """Stream ``inputs`` into metrics per group, in memory that does not grow with the games.

    With ``facts_dir``, each batch's fact tables are written there as
    ``<table>/part-00000.parquet`` … (read back with
    ``pl.read_parquet(dir / table)``). With ``dedupe``, a complete game met
    again (the same players and first deal, e.g. a second copy of a file)
    counts once. Games whose events do not fit a table are left out and
    described in ``skipped`` when a list is given. Raises :class:`InputError`
    for an unreadable named file.
    """
    _check_by(by)
    items = [(str(p), explicit) for p, explicit in expand(inputs)]
    keep = filters or Filters()
    out_dir = Path(facts_dir) if facts_dir is not None else None
    if out_dir is not None:
        for t in TABLES:
            (out_dir / t).mkdir(parents=True, exist_ok=True)
    acc: pl.DataFrame | None = None
    unique = _Dedupe() if dedupe else None
    for n, (raw, left_out) in enumerate(_batches(items, jobs, batch_games, progress)):
        if skipped is not None:
            skipped.extend(left_out)
        batch = unique(raw) if unique is not None else raw
        if out_dir is not None:
            for t, df in batch.items():
                df.write_parquet(out_dir / t / f"part-{n:05d}.parquet")
        part = count(keep.apply(batch), by)
        acc = part if acc is None else merge([acc, part], by)
    if acc is None:
        acc = count(keep.apply({t: pl.DataFrame(schema=SCHEMAS[t]) for t in TABLES}), by)
    return compute(acc, by, options)

"""Player statistics with polars: fact tables, a metric registry, streaming over archives.

Python use::

    from mjlog.stats import facts, metrics
    tables = facts(["logs/"])                 # five polars DataFrames
    df = metrics(tables, by=["player"])       # one row per player
    df = metrics(tables, by=["player", "year"], options={"double_ron": "twice"})

For archives too big to hold, :func:`summarize` streams: it reads games in
batches, optionally writes each batch's fact tables as Parquet, reduces the
batch to additive counters and drops it, so memory does not grow with the
number of games. ``mjlog stats`` is the command-line face of :func:`summarize`.
This package is the only part of mjlog that imports polars.
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Iterable, Sequence
from contextlib import closing
from dataclasses import asdict, dataclass
from datetime import datetime
from functools import partial
from pathlib import Path
from typing import Any

import polars as pl

from mjlog.formats import expand
from mjlog.run import parallel
from mjlog.stats.facts import (
    FACTS_VERSION,
    SCHEMAS,
    TABLES,
    Batch,
    Packed,
    add_file,
    facts,
    files_facts,
    iter_batches,
    pack,
    packed_files_facts,
    unpack,
)
from mjlog.stats.metrics import (
    BY_NAME,
    GROUP_KEYS,
    METRICS,
    OPTIONS,
    SETS,
    Totals,
    compute,
    count,
    options_in_force,
)
from mjlog.stats.report import Collector
from mjlog.stats.store import Census, FactsWriter

parallel.reclaim_signals()  # polars, imported above, put its SIGINT handler before mjlog's

__all__ = ["BY_NAME", "GROUP_KEYS", "METRICS", "OPTIONS", "SCHEMAS", "SETS", "Census", "Filters",
           "Summary", "facts", "iter_batches", "metrics", "options_in_force", "pl", "run",
           "summarize", "with_players"]


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
    keep_undated: bool = False
    """Whether ``since`` and ``until`` keep the games whose record gives no date."""

    def apply(self, tables: dict[str, pl.DataFrame]) -> dict[str, pl.DataFrame]:
        """The tables with only the rows these filters keep."""
        cond = pl.lit(True)
        if not self.include_incomplete:
            cond = cond & pl.col("complete")
        undated = pl.col("date").is_null() if self.keep_undated else pl.lit(False)
        if self.since is not None:
            cond = cond & ((pl.col("date") >= self.since) | undated)
        if self.until is not None:
            cond = cond & ((pl.col("date") < self.until) | undated)
        if self.rooms:
            cond = cond & pl.col("room").is_in(list(self.rooms))
        if self.rulesets:
            cond = cond & pl.col("ruleset").is_in(list(self.rulesets))
        if self.go_types:
            cond = cond & pl.col("go_type").is_in(list(self.go_types))
        out = {t: df.filter(cond) for t, df in tables.items()}
        if self.players:
            for t in ("games", "player_rounds", "wins", "yaku", "decisions"):
                if t in out:
                    out[t] = out[t].filter(pl.col("player").is_in(list(self.players)))
        return out

    def describe(self) -> dict[str, Any]:
        """The filters in force, as JSON values (for a manifest)."""
        return {k: (v.isoformat() if isinstance(v, datetime) else v)
                for k, v in asdict(self).items() if v not in ((), None, False)}


def with_players(by: Sequence[str]) -> list[str]:
    """The grouping actually used: ``by`` with ``players`` added, so that three- and
    four-player games are never pooled."""
    _check_by(by)
    return [*by, "players"] if "players" not in by else list(by)


def metrics(tables: dict[str, pl.DataFrame], *, by: Sequence[str] = ("player",),
            options: dict[str, str] | None = None, filters: Filters | None = None
            ) -> pl.DataFrame:
    """Every metric of :data:`METRICS` per group of ``by`` (any of :data:`GROUP_KEYS`; the
    number of players is always added)."""
    keys = with_players(by)
    kept = (filters or Filters()).apply(tables)
    return compute(count(kept, keys), keys, options)


def _check_by(by: Sequence[str]) -> None:
    bad = [k for k in by if k not in GROUP_KEYS]
    if bad:
        raise ValueError(f"cannot group by {', '.join(bad)}; choose from {', '.join(GROUP_KEYS)}")


def _batches(items: list[tuple[str, bool]], engine: parallel.Engine, batch_games: int,
             progress: Callable[[int, int], Any] | None, decisions: bool = False
             ) -> Generator[tuple[dict[str, pl.DataFrame], list[str]], None, None]:
    """Fact tables of about ``batch_games`` games at a time (and the games skipped), read
    here, in a local pool or on a cluster (:func:`mjlog.run.parallel.map_batches`); with
    ``decisions``, the ``decisions`` table too."""
    if engine.local:
        batch = Batch(decisions=decisions)
        for item in items:
            before = batch.games
            add_file(batch, item)
            if progress is not None:
                progress(1, batch.games - before)
            if batch.games >= batch_games:
                yield batch.frames(), batch.skipped
                batch = Batch(decisions=decisions)
        if batch.games or batch.skipped:  # what was skipped is said even with no game left
            yield batch.frames(), batch.skipped
        return
    with closing(_read(items, _sizing(batch_games), engine, decisions)) as batches:
        for chunk, results in batches:
            if progress is not None:
                progress(len(chunk), sum(_files_read(r[0]) for r in results))
            yield from results


def _sizing(batch_games: int) -> parallel.Sizing:
    """How statistics cut their files into batches for a pool or a cluster."""
    return parallel.Sizing(per_worker=4, most=batch_games)


def _files_read(tables: dict[str, pl.DataFrame]) -> int:
    """How many files a batch's fact tables hold games of (for the progress line)."""
    return int(tables["games"]["source"].n_unique())


Counted = tuple[pl.DataFrame, Census, int, list[str]]
"""A batch counted where it was read: its counters (after the filters), what it held
before them, the number of files it read games from, and the games skipped."""


@dataclass(frozen=True, slots=True)
class _Count:
    """The unit of work of a run that counts where it reads (:func:`_count_where_read`):
    a batch's files read, filtered and reduced to counters by ``keys``. Knows nothing of
    other batches, so it cannot check for duplicates."""

    keys: tuple[str, ...]
    keep: Filters
    decisions: bool = False

    def __call__(self, items: list[tuple[str, bool]]) -> Counted:
        tables, skipped = files_facts(items, self.decisions)
        census = Census()
        census.add(tables)
        return (count(self.keep.apply(tables), list(self.keys)), census,
                _files_read(tables), skipped)

    def died(self, item: tuple[str, bool]) -> Counted:
        """The result for a file whose reading killed the workers, alone and again."""
        frames, skipped = _worker_died(item)
        return count(frames, list(self.keys)), Census(), 0, skipped


def _count_where_read(items: list[tuple[str, bool]], engine: parallel.Engine,
                      batch_games: int, work: _Count, progress: Callable[[int, int], Any] | None,
                      census: Census, left_out: list[str], totals: Totals) -> None:
    """Each batch's :class:`_Count`, from a pool or a cluster, into ``totals``, ``census``
    and ``left_out``: only counters come back, not fact tables, so the client's work per
    game is a merge of small tables. The pool ends or the cluster's tasks are cancelled
    on an exception too."""
    with closing(parallel.map_batches(work, items, _sizing(batch_games), engine,
                                      work.died)) as batches:
        for chunk, results in batches:
            if progress is not None:
                progress(len(chunk), sum(r[2] for r in results))
            for counters, part, _, skipped in results:
                left_out.extend(skipped)
                census.merge(part)
                totals.add(counters)


_Read = tuple[list[tuple[str, bool]], list[tuple[dict[str, pl.DataFrame], list[str]]]]


def _read(items: list[tuple[str, bool]], sizing: parallel.Sizing, engine: parallel.Engine,
          decisions: bool = False) -> Generator[_Read, None, None]:
    """Each batch of files with its fact tables, from a pool or from a cluster (whose
    workers send the tables packed, :func:`mjlog.stats.facts.pack`)."""
    if engine.cluster is None:
        read = partial(files_facts, decisions=True) if decisions else files_facts
        yield from parallel.map_batches(read, items, sizing, engine, _worker_died)
        return
    packed = partial(packed_files_facts, decisions=True) if decisions else packed_files_facts
    with closing(parallel.map_batches(packed, items, sizing, engine,
                                      _packed_worker_died)) as batches:
        for chunk, results in batches:
            yield chunk, [(unpack(tables), skipped) for tables, skipped in results]


def _worker_died(item: tuple[str, bool]) -> tuple[dict[str, pl.DataFrame], list[str]]:
    return Batch().frames(), [f"{item[0]}: left out: the worker processes reading it "
                              "exited, alone and again (worker-died)"]


def _packed_worker_died(item: tuple[str, bool]) -> Packed:
    frames, skipped = _worker_died(item)
    return pack(frames), skipped


def _previous(writer: FactsWriter, keys: list[str], census: Census, unique: _Dedupe | None,
              collector: Collector | None, totals: Totals) -> None:
    """Count the facts a folder already holds into ``totals`` (what went in before counts
    again), with their games marked as seen and their names remembered."""
    for old in writer.previous_batches():
        census.names(old)
        if unique is not None:
            unique.seen.update(old["rounds"].filter(pl.col("complete"))["game_key"])
        if collector is not None:
            collector.add(old)
        totals.add(count(old, keys))


def _new_items(items: list[tuple[str, bool]], previous: dict[str, Any],
               settings: dict[str, Any]) -> list[tuple[str, bool]]:
    """The inputs a facts folder's manifest does not list. Raises ``ValueError`` when its
    facts were written under other filters or by another version of the tables."""
    old = previous.get("options", {})
    if previous.get("facts_version") != FACTS_VERSION or any(
            old.get(k, False if k == "decisions" else None) != v  # older folders: without
            for k, v in settings.items()):
        raise ValueError("the facts folder was written under other filters or tables: "
                         "--update adds only to facts of the same kind; give --overwrite "
                         "to recompute them")
    done = set(previous.get("files", []))
    return [item for item in items if item[0] not in done]


class _Dedupe:
    """Drops complete games already seen (same players and first deal), keeping the first."""

    def __init__(self) -> None:
        self.seen: set[int] = set()
        self.dropped = 0

    def __call__(self, batch: dict[str, pl.DataFrame]) -> dict[str, pl.DataFrame]:
        games = batch["rounds"].filter(pl.col("complete")).select("source", "game_key").unique(
            maintain_order=True)
        drop = []
        for source, key in games.iter_rows():
            if key in self.seen:
                drop.append(source)
            else:
                self.seen.add(key)
        if not drop:
            return batch
        self.dropped += len(drop)
        return {t: df.filter(~pl.col("source").is_in(drop)) for t, df in batch.items()}


@dataclass
class Summary:
    """The result of :func:`run`: the metrics table and what went into it."""

    table: pl.DataFrame
    by: list[str]
    census: Census
    skipped: list[str]
    report: Any = None
    """The report's data (:class:`mjlog.stats.report.Collector`) when asked for."""


def summarize(inputs: Iterable[str | Path], *, by: Sequence[str] = ("player",),
              options: dict[str, str] | None = None, filters: Filters | None = None,
              facts_dir: str | Path | None = None, jobs: int = 1, batch_games: int = 500,
              dedupe: bool = True, progress: Callable[[int, int], Any] | None = None,
              skipped: list[str] | None = None, decisions: bool = False) -> pl.DataFrame:
    """Stream ``inputs`` into metrics per group, in memory that does not grow with the games.

    The table of :func:`run` (which see); games left out because their events
    do not fit a table are described in ``skipped`` when a list is given.
    """
    out = run(inputs, by=by, options=options, filters=filters, facts_dir=facts_dir, jobs=jobs,
              batch_games=batch_games, dedupe=dedupe, progress=progress, decisions=decisions)
    if skipped is not None:
        skipped.extend(out.skipped)
    return out.table


def run(inputs: Iterable[str | Path], *, by: Sequence[str] = ("player",),
        options: dict[str, str] | None = None, filters: Filters | None = None,
        facts_dir: str | Path | None = None, overwrite: bool = False, update: bool = False,
        jobs: int = 1, cluster: str | None = None, batch_games: int = 500,
        dedupe: bool = True, progress: Callable[[int, int], Any] | None = None,
        report: bool = False, listed: Sequence[tuple[str, bool]] | None = None,
        decisions: bool = False) -> Summary:
    """Stream ``inputs`` into metrics per group of ``by`` (plus ``players``).

    With ``facts_dir``, the fact tables of the games counted (after the filters
    and the duplicate check: every table holds the same games) are written
    there as ``<table>/part-00000.parquet`` … with a ``_manifest.json``; the
    folder appears only when complete (see :class:`mjlog.stats.store.FactsWriter`).
    With ``dedupe``, a complete game met again (the same players and first
    deal) counts once. With ``update``, the facts already in ``facts_dir`` are
    kept and only the inputs its manifest does not list are read: the table and the
    facts are those of a run over everything (an archive that grew costs only its
    new games). ``jobs`` reads in a pool of processes, ``cluster`` on the workers of
    the Dask cluster whose scheduler is at that address (:mod:`mjlog.run.cluster`): the
    same table and facts; without ``dedupe``, ``facts_dir`` and ``report`` there, each
    batch is counted where it is read and only its counters come back. ``listed``:
    ``inputs`` as :func:`mjlog.formats.expand` gives them, from a caller that has listed
    them already (a folder or a bucket is then not listed twice). Raises
    :class:`InputError` for an unreadable named file, :class:`FileExistsError` for a
    non-empty ``facts_dir`` without ``overwrite`` or ``update``, and ``ValueError`` for an
    update under other filters. ``decisions`` replays every game for its decision facts too
    (:mod:`mjlog.stats.moves`; without, the metrics needing them are empty). Does not print.
    """
    keys = with_players(by)
    opts = options_in_force(options)
    items = list(listed) if listed is not None else list(expand(inputs))
    keep = filters or Filters()
    writer = FactsWriter(Path(facts_dir), overwrite=overwrite, update=update,
                         inputs=[p for p, _ in items]) if facts_dir else None
    census, unique = Census(), (_Dedupe() if dedupe else None)
    left_out: list[str] = []
    collector = Collector(keys) if report else None
    totals = Totals(keys)
    settings = {"filters": keep.describe(), "dedupe": dedupe, "decisions": decisions}
    if writer is not None and writer.previous is not None:
        items = _new_items(items, writer.previous, settings)
        _previous(writer, keys, census, unique, collector, totals)
    engine = parallel.Engine(jobs, cluster)
    if not engine.local and unique is None and writer is None and collector is None:
        _count_where_read(items, engine, batch_games, _Count(tuple(keys), keep, decisions),
                          progress, census, left_out, totals)
        return _summary(totals, keys, opts, census, left_out, collector)
    batches = _batches(items, engine, batch_games, progress, decisions)
    try:
        for raw, skipped in batches:
            left_out.extend(skipped)
            _take(raw, keep, unique, writer, collector, census, totals)
        census.duplicates = unique.dropped if unique is not None else 0
        if writer is not None:
            writer.commit(items, census, {"by": keys, "options": opts, **settings})
    finally:
        _close(batches, writer)  # on an exception too: the pool ends here, not at exit
    return _summary(totals, keys, opts, census, left_out, collector)


def _close(batches: Generator[Any, None, None], writer: FactsWriter | None) -> None:
    """End a run's reading (its worker pool stops here) and remove its partial facts
    folder (:meth:`FactsWriter.discard`: none once committed), the folder even when a
    second interrupt cuts the pool's stop short."""
    try:
        batches.close()
    finally:
        if writer is not None:
            writer.discard()


def _take(raw: dict[str, pl.DataFrame], keep: Filters, unique: _Dedupe | None,
          writer: FactsWriter | None, collector: Collector | None, census: Census,
          totals: Totals) -> None:
    """One batch of fact rows into a run: its games in the census, then with duplicates
    dropped and the filters applied, written as facts, gathered for the report and
    counted."""
    census.add(raw)
    kept = keep.apply(unique(raw) if unique is not None else raw)
    if writer is not None:
        writer.write(kept)
    if collector is not None:
        collector.add(kept)
    totals.add(count(kept, totals.by))


def _summary(totals: Totals, keys: list[str], opts: dict[str, str], census: Census,
             left_out: list[str], collector: Collector | None) -> Summary:
    acc = totals.result()
    if acc is None:
        acc = count({t: pl.DataFrame(schema=SCHEMAS[t]) for t in TABLES}, keys)
    return Summary(compute(acc, keys, opts), keys, census, left_out, collector)

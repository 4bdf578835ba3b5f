"""Is it rigged? Tests of the shuffle over every proven wall (``mjlog fairness``).

The pipeline: each game is read and sampled (:mod:`mjlog.stats.fairness.sample`: the
wall by kind in drawing order, the starting shanten, dice and ura of each
round, and whether the wall is proven), the samples are counted
(:mod:`mjlog.stats.fairness.tally`), and the counts are tested
(:mod:`mjlog.stats.fairness.inference`) and written (:mod:`mjlog.stats.fairness.report`).
Reading and sampling run here, in a local pool or on a cluster, as statistics
do (:func:`mjlog.run.parallel.map_batches`); the counting runs here, so that a game
read twice is counted once.

Needs scipy (``pip install 'mjlog[fairness]'``); nothing else of mjlog imports this
package.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import closing
from typing import Any

from mjlog.core.diagnostics import InputError, Severity
from mjlog.formats import file_bytes, read_bytes
from mjlog.run import parallel
from mjlog.stats.facts import UNREADABLE
from mjlog.stats.fairness.sample import GameSample, sample_game, sample_native
from mjlog.stats.fairness.tally import Tally

__all__ = ["UNREADABLE", "collect", "samples_of"]

Batch = tuple[list[GameSample], list[str]]
"""A batch's game samples and what it skipped (with why)."""
BATCH_FILES = 200
"""The most files in one batch sent to a worker."""


def samples_of(items: list[tuple[str, bool]]) -> Batch:
    """The samples of every game of ``items`` and the files or games skipped: a file
    that cannot be read (named, or found in a folder and in a known format) or is read
    with an error (its rounds read before the error are kept), a game that is not a riichi
    game, a platform's file that holds no game, each with why.
    A Tenhou XML game takes the native core's route where it can
    (:func:`~mjlog.stats.fairness.sample.sample_native`). A unit of work for a pool or a
    cluster."""
    out: list[GameSample] = []
    skipped: list[str] = []
    for path, explicit in items:
        try:
            data = file_bytes(path)
            game = sample_native(data, path)
            if game is not None:
                out.append(game)
                continue
            records = read_bytes(data, path)
        except InputError as exc:
            if exc.diagnostic.code == "not-a-game":  # a platform's file that holds no game
                skipped.append(exc.about(path))
            elif explicit or exc.diagnostic.code != "unknown-format":
                skipped.append(f"{path}{UNREADABLE}{exc.diagnostic.message}")
            continue
        for i, rec in enumerate(records):
            damage = next((d for d in rec.diagnostics if d.severity is Severity.ERROR), None)
            if damage is not None:  # what was read before it is still counted
                skipped.append(f"{path}{UNREADABLE}{damage}")
            try:
                game = sample_game(rec, i)
            except (IndexError, KeyError, TypeError, ValueError) as exc:
                skipped.append(f"{path} game {i + 1}: cannot be sampled: {exc!r}")
                continue
            if game is None:
                skipped.append(f"{path} game {i + 1}: not a riichi game")
            else:
                out.append(game)
    return out, skipped


def _died(item: tuple[str, bool]) -> Batch:
    return [], [f"{item[0]}{UNREADABLE}its worker died reading it"]


HERE = parallel.Engine()
"""Everything in this process."""


def collect(items: list[tuple[str, bool]], engine: parallel.Engine = HERE,
            progress: Callable[[int, int], Any] | None = None) -> Tally:
    """The tally of every game in ``items`` (files or archive members, each with whether
    it was named), read where ``engine`` says."""
    tally = Tally()
    for chunk, games, skipped in _batches(items, engine):
        for game in games:
            tally.add(game)
        tally.skipped.extend(skipped)
        if progress is not None:
            progress(chunk, len(games))
    return tally


def _batches(items: list[tuple[str, bool]], engine: parallel.Engine
             ) -> Iterator[tuple[int, list[GameSample], list[str]]]:
    """(files, samples, skipped) of each batch, in order."""
    if engine.local:
        for item in items:
            games, skipped = samples_of([item])
            yield 1, games, skipped
        return
    sizing = parallel.Sizing(per_worker=4, most=BATCH_FILES)
    with closing(parallel.map_batches(samples_of, items, sizing, engine, _died)) as batches:
        for chunk, results in batches:
            for i, (games, skipped) in enumerate(results):
                yield (len(chunk) if i == 0 else 0), games, skipped

"""Files converted to another format, file by file, as a unit of work for any engine.

:func:`convert_file` reads one file and writes its games in the target format as
text; it prints nothing and writes no file: what it has to say comes back in its
result, so that a pool's or a cluster's worker can run it and the command that
called it prints and writes (``mjlog convert``). :func:`convert_all` runs it over
many files here, in a local pool or on a cluster (:func:`mjlog.run.parallel.map_batches`),
the results in the order of the files.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Generator
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Final

from mjlog.core.diagnostics import InputError
from mjlog.formats import WriteOptions, read_path, write
from mjlog.run import parallel

Item = tuple[str, bool]
"""A file and whether it was named (not found in a folder or an archive)."""


@dataclass(frozen=True, slots=True)
class Converted:
    """One file's conversion: its text, or ``None`` when it was not converted, and the
    lines to say about it (on standard error)."""

    path: str
    text: str | None
    messages: list[str] = field(default_factory=list)
    skipped: bool = False
    """A file that holds no game (a platform's file of another kind): neither converted
    nor failed."""


def convert_file(item: Item, target: str, options: WriteOptions) -> Converted:
    """``item``'s records in ``target``. Not converted (said in the messages): a file that
    cannot be read, no record (silently, for a file not named), or a game that
    ``target`` cannot hold. Never raises for bad input."""
    path, explicit = item
    try:
        records = read_path(path)
    except InputError as exc:
        d = exc.diagnostic
        if d.code == "not-a-game":  # a platform's file that holds no game
            return Converted(path, None, [f"{path}: skipped: {d.message}"], skipped=True)
        said = explicit or d.code != "unknown-format"
        return Converted(path, None, [f"{path}: {d.message}"] if said else [])
    messages = [f"{path}: {d}" for rec in records for d in rec.diagnostics]
    named = dataclasses.replace(options, log_name=Path(path).stem)
    try:
        text = ("\n" if target == "notation" else "").join(
            write(target, rec.events, named) for rec in records)
    except InputError as exc:
        return Converted(path, None, [*messages, exc.about(path)])
    return Converted(path, text, messages)


def convert_files(items: list[Item], target: str, options: WriteOptions) -> list[Converted]:
    """:func:`convert_file` of several files: one task of a pool or a cluster."""
    return [convert_file(item, target, options) for item in items]


BATCHES: Final = parallel.Sizing(per_worker=8, most=32)


def convert_all(items: list[Item], target: str, options: WriteOptions,
                engine: parallel.Engine) -> Generator[Converted, None, None]:
    """:func:`convert_file` of every item, in their order, run where ``engine`` says."""
    work = partial(convert_files, target=target, options=options)
    yield from parallel.map_files(work, items, BATCHES, engine, _worker_died)


def _worker_died(item: Item) -> list[Converted]:
    return [Converted(item[0], None, [f"{item[0]}: the worker processes converting it "
                                      "exited, alone and again (worker-died); not converted"])]

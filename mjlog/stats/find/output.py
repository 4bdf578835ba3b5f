"""What ``mjlog find`` writes: the matches as text lines, JSON or CSV.

Text is one line per match, every field from a record shown escaped for the terminal
(:func:`mjlog.core.textsafe.terminal`); CSV text cells that a spreadsheet would take for a
formula start with ``'`` (:func:`mjlog.stats.command.write_table`, as ``mjlog stats``
writes); JSON is an array of objects (:meth:`Match.to_dict`). This module decides
nothing about what matches.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import fields
from pathlib import Path
from typing import Final

import polars as pl

from mjlog.core.textsafe import terminal
from mjlog.stats.command import write_table
from mjlog.stats.find.match import Match

FORMATS: Final = ("text", "json", "csv")
_SCHEMA: Final[dict[str, pl.DataType]] = {
    f.name: (pl.Int64() if f.name in ("game", "turn", "step", "seat", "yakuman")
             else pl.String()) for f in fields(Match)}


def text_line(m: Match) -> str:
    """One match on one line: place, what happened, link (controls shown escaped)."""
    place = f"{m.source} game {m.game}"
    if m.round:
        place += f" {m.round}" + (f" turn {m.turn}" if m.turn is not None else "")
    return terminal(f"{place}: {m.what}  {m.link}")


def frame(matches: Iterable[Match]) -> pl.DataFrame:
    """The matches as a table, one column per field of :class:`Match`."""
    rows = [m.to_dict() for m in matches]
    return pl.DataFrame(rows, schema=_SCHEMA, orient="row") if rows else pl.DataFrame(
        schema=_SCHEMA)


def render(matches: list[Match], fmt: str) -> str:
    """The matches in ``fmt`` (``text``, ``json``), as one text."""
    if fmt == "json":
        return json.dumps([m.to_dict() for m in matches], ensure_ascii=False, indent=1) + "\n"
    return "".join(text_line(m) + "\n" for m in matches)


def write(matches: list[Match], fmt: str, path: Path | None) -> None:
    """Write the matches in ``fmt`` to ``path``, or to standard output when None."""
    if fmt == "csv":
        write_table(frame(matches), "csv", path)
        return
    text = render(matches, fmt)
    if path is None:
        import sys

        sys.stdout.write(text)
    else:
        path.write_text(text, "utf-8")

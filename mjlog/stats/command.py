"""What ``mjlog stats`` does besides computing: explaining an empty result, writing files.

Kept apart from the click command so that each piece reads at once and can be
tested without a terminal.
"""

from __future__ import annotations

import difflib
import re
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import polars as pl

from mjlog.core.textsafe import CSV_FORMULA

FORMATS = ("table", "csv", "json", "markdown", "parquet")
_BY_SUFFIX = {".csv": "csv", ".json": "json", ".md": "markdown", ".parquet": "parquet",
              ".txt": "table"}


def output_format(output: str | None, given: str | None) -> str:
    """The format to write: the one given, else the output file's extension, else a table.
    Raises ``ValueError`` for an extension it does not know."""
    if given:
        return given
    if output is None or output == "-":
        return "table"
    fmt = _BY_SUFFIX.get(Path(output).suffix.lower())
    if fmt is None:
        raise ValueError(f"cannot tell the format of {output}: give --format "
                         f"({', '.join(FORMATS)}) or end it in .csv, .json, .md, .parquet")
    return fmt


def _closest(asked: Iterable[str], known: set[str], what: str) -> list[str]:
    out = []
    for name in asked:
        if name in known:
            continue
        close = difflib.get_close_matches(name, sorted(known), n=3, cutoff=0.5)
        hint = f"; closest: {', '.join(close)}" if close else ""
        listed = ", ".join(sorted(known)[:12]) + (" …" if len(known) > 12 else "")
        out.append(f"no {what} named {name!r} in these records{hint} (known: {listed})")
    return out


def why_nothing(census: Any, filters: Any) -> str:
    """Why no game was counted, in words a user can act on."""
    if census.games == 0:
        return "no game records were found in the inputs"
    reasons = [*_closest(filters.rooms, census.rooms, "room"),
               *_closest(filters.rulesets, census.rulesets, "ruleset"),
               *_closest(filters.players, census.players, "player")]
    dated = filters.since is not None or filters.until is not None
    if dated and not filters.keep_undated and census.undated == census.games:
        reasons.append(f"none of the {census.games} games read gives a date, and --since and "
                       "--until leave such games out: try --keep-undated")
    if census.complete == 0 and not filters.include_incomplete:
        reasons.append(f"none of the {census.games} games read is complete (each stops before "
                       "the end): try --include-incomplete")
    if not reasons:
        reasons.append(f"none of the {census.games} games read matched the filters given")
    return "; ".join(reasons)


def write_table(df: pl.DataFrame, fmt: str, path: Path | None) -> None:
    """Write ``df`` as CSV, JSON or Parquet to ``path``, or to standard output when None.
    In CSV, a text cell that a spreadsheet would take for a formula (a player named
    ``=HYPERLINK(…)``) starts with ``'`` (:data:`textsafe.CSV_FORMULA`)."""
    if fmt == "csv":
        df = _csv_safe(df)
    if path is None:
        if fmt == "parquet":
            df.write_parquet(sys.stdout.buffer)
            sys.stdout.buffer.flush()
        elif fmt == "csv":
            sys.stdout.write(df.write_csv())
        else:
            sys.stdout.write(df.write_json() + "\n")
        return
    if fmt == "parquet":
        df.write_parquet(path)
    elif fmt == "csv":
        df.write_csv(path)
    else:
        df.write_json(path)


def _csv_safe(df: pl.DataFrame) -> pl.DataFrame:
    """``df`` with every text cell that starts as a formula prefixed with ``'``."""
    formula = "^[" + re.escape("".join(CSV_FORMULA)) + "]"
    return df.with_columns(
        pl.when(pl.col(c).str.contains(formula)).then(pl.lit("'") + pl.col(c))
        .otherwise(pl.col(c)).alias(c)
        for c, dtype in df.schema.items() if dtype == pl.String)

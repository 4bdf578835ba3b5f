"""The fast route of ``mjlog find``: polars lazy filters over a facts folder.

A facts folder is what ``mjlog stats RECORDS --facts DIR`` writes
(:mod:`mjlog.stats.store`): Parquet parts of the ``rounds``, ``wins``, ``yaku`` and
``player_rounds`` tables. The query's terms become filters over them, evaluated lazily
(only the columns used are read):

* terms on a win (``yakuman``, ``yaku``, ``limit``, ``dealin``): the ``wins`` table, with
  the ``yaku`` table for yakuman (a yakuman yaku by name, or a yaku of 13 han or more);
* terms on a round (``ron``, ``draw``): ``rounds.result`` and the wins by ron per round;
* terms on a game (``player``, ``date``, ``platform``): ``player_rounds`` and ``rounds``.

The facts hold no kans and no audit findings: ``kan-after-riichi`` and ``code=`` raise
:class:`NeedsRecords` (search the records instead). Nor do they hold the viewer's steps:
a match's link opens its game's page at its first deal. The facts are the records' own
values, as on the exact route, but only the games the ``stats`` run kept (complete, not
duplicates, within its filters, unless it was told otherwise). This module prints nothing.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Final

import polars as pl

from mjlog.stats.facts import GUEST
from mjlog.stats.find.match import Match, link
from mjlog.stats.find.query import COUNTED, LIMITS, YAKUMAN_NAMES, Query, Term, date_span
from mjlog.stats.store import MANIFEST

NOT_IN_FACTS: Final = frozenset({"kan-after-riichi", "code"})
"""Terms the facts tables cannot answer."""
_OPS: Final = {"=": "eq", "!=": "ne", ">=": "ge", "<=": "le", ">": "gt", "<": "lt"}


class NeedsRecords(ValueError):
    """A query the facts tables cannot answer: the records must be searched."""


def is_facts_folder(path: str | Path) -> bool:
    """Whether ``path`` is a facts folder mjlog wrote (it holds ``_manifest.json``)."""
    return (Path(path) / MANIFEST).is_file()


def _scan(folder: Path, table: str) -> pl.LazyFrame:
    return pl.scan_parquet(folder / table / "*.parquet")


def search_facts(folder: str | Path, query: Query) -> list[Match]:
    """Every match of ``query`` in a facts folder, in the order of the facts (file, game,
    round). Raises :class:`NeedsRecords` for a term the facts cannot answer."""
    folder = Path(folder)
    missing = sorted({t.field for t in query.terms} & NOT_IN_FACTS)
    if missing:
        raise NeedsRecords(f"{' and '.join(missing)} cannot be answered from a facts folder "
                           "(its tables hold no kans and no audit findings): give the records "
                           "instead, e.g. mjlog find RECORDS… -w '" + query.text + "'")
    games = _games(folder, query)
    rounds = _rounds(folder, query)
    if query.has({"yakuman", "yaku", "limit", "dealin"}):
        found = _wins(folder, query).join(rounds, on=["source", "round"], how="semi")
        kind = "win"
    elif query.has({"ron", "draw"}):
        found, kind = rounds, "round"
    else:
        found, kind = games, "game"
    if kind != "game":
        found = found.join(games, on="source", how="semi")
    return list(_matches(folder, found.collect(), kind))


def _games(folder: Path, query: Query) -> pl.LazyFrame:
    """The games (``source``, first round's labels) where the terms on a game hold."""
    rounds = _scan(folder, "rounds")
    games = rounds.group_by("source", maintain_order=True).agg(
        pl.col("date").first(), pl.col("platform").first())
    for t in query.of("platform"):
        same = pl.col("platform").fill_null("") == t.value.lower()
        games = games.filter(same if t.op == "=" else ~same)
    for t in query.of("date"):
        games = games.filter(_date_filter(t))
    for t in query.of("player"):
        held = _scan(folder, "player_rounds").filter(_record_name("player") == t.value).select(
            "source").unique()
        games = games.join(held, on="source", how="semi" if t.op == "=" else "anti")
    return games.select("source")


def _record_name(column: str) -> pl.Expr:
    """A player's name as the record gives it: statistics name each Tenhou guest apart
    (``NoName (tenhou:…, seat 2)``, :func:`mjlog.stats.facts.player_names`), the record and
    the exact route just ``NoName``."""
    col = pl.col(column)
    return pl.when(col.str.starts_with(GUEST + " (")).then(pl.lit(GUEST)).otherwise(col)


def _date_filter(t: Term) -> pl.Expr:
    """A game's date against a ``date`` term, as :func:`mjlog.stats.find.exact.date_holds`; a
    game without a date holds none."""
    low, high = date_span(t)
    d = pl.col("date")
    inside = (d >= low) & (d < high)
    held = {"=": inside, "!=": ~inside, ">=": d >= low, ">": d >= high, "<": d < low,
            "<=": d < high}[t.op]
    return held.fill_null(False)


def _rounds(folder: Path, query: Query) -> pl.LazyFrame:
    """The rounds (``source``, ``round``, ``label``, ``result``) where the terms on a round
    hold."""
    rounds = _scan(folder, "rounds").select("source", "round", "label", "result")
    if query.has({"ron"}):
        rons = _scan(folder, "wins").filter(~pl.col("tsumo")).group_by(
            "source", "round").agg(pl.len().alias("rons"))
        rounds = rounds.join(rons, on=["source", "round"], how="left").with_columns(
            pl.col("rons").fill_null(0))
        for t in query.of("ron"):
            rounds = rounds.filter(getattr(pl.col("rons"), _OPS[t.op])(int(t.value)))
    for t in query.of("draw"):
        result = pl.col("result").fill_null("")
        hit = (~result.is_in(["win", "nagashi", "exhaustive", ""]) if t.value == "abortive"
               else result == t.value)
        rounds = rounds.filter(hit if t.op == "=" else ~hit)
    return rounds


def _wins(folder: Path, query: Query) -> pl.LazyFrame:
    """The wins where every term on a win holds."""
    wins = _scan(folder, "wins").select(
        "source", "round", "winner", _record_name("player").alias("player"), "from_player",
        "tsumo", "points", "limit")
    yaku = _scan(folder, "yaku").select("source", "round", "winner", "yaku", "han")
    keys = ["source", "round", "winner"]
    big = yaku.filter(pl.col("yaku").is_in(sorted(YAKUMAN_NAMES)) | (pl.col("han") >= 13)) \
        .group_by(keys).agg(pl.len().cast(pl.Int64).alias("yakuman"))
    wins = wins.join(big, on=keys, how="left").with_columns(
        pl.col("yakuman").fill_null(0)).with_columns(
        (pl.col("yakuman") > 0).alias("yakuman_yaku"))
    for t in query.of("yakuman", "yaku", "limit", "dealin"):
        if t.field == "yakuman":
            wins = wins.filter(pl.col("yakuman_yaku"))
        elif t.field == "yaku":
            held = yaku.filter(pl.col("yaku") == t.value).select(keys).unique()
            wins = wins.join(held, on=keys, how="semi" if t.op == "=" else "anti")
        elif t.field == "limit":
            wins = wins.filter(_limit_filter(t))
        else:
            wins = wins.filter(~pl.col("tsumo") & getattr(pl.col("points"), _OPS[t.op])(
                int(t.value)))
    seats = _scan(folder, "player_rounds").select(
        "source", "round", pl.col("seat").alias("from_player"),
        _record_name("player").alias("from"))
    return wins.join(seats, on=["source", "round", "from_player"], how="left")


def _limit_filter(t: Term) -> pl.Expr:
    """A win's limit against a ``limit`` term, as :func:`mjlog.stats.find.exact.limit_holds`."""
    if t.value == COUNTED:
        counted = (pl.col("limit") == "yakuman") & ~pl.col("yakuman_yaku")
        return counted.fill_null(False) if t.op == "=" else ~counted.fill_null(False)
    rank = pl.col("limit").replace_strict(
        {name: i + 1 for i, name in enumerate(LIMITS)}, default=0, return_dtype=pl.Int8)
    return getattr(rank, _OPS[t.op])(LIMITS.index(t.value) + 1)  # type: ignore[no-any-return]


def _matches(folder: Path, found: pl.DataFrame, kind: str) -> Iterator[Match]:
    """The rows found as matches, each linked to its game's page."""
    games = _games_per_file(folder)
    labels = _labels(folder, found) if kind == "win" else {}
    for row in found.iter_rows(named=True):
        path, number = split_source(row["source"])
        page = _page(path, number, games.get(path, 1))
        if kind == "win":
            how = "tsumo" if row["tsumo"] else f"ron from {row['from']}"
            value = f"{row['points']:,}" + (f" {row['limit']}" if row["limit"] else "")
            yield Match(source=path, game=number, round=labels.get(
                (row["source"], row["round"]), ""), kind="win", seat=row["winner"],
                player=row["player"], what=f"{row['player']} {how}: {value}",
                yakuman=row["yakuman"], link=link(page, None))
        elif kind == "round":
            yield Match(source=path, game=number, round=row["label"], kind="round",
                        what=_round_words(row), link=link(page, None))
        else:
            yield Match(source=path, game=number, kind="game", what="game",
                        link=link(page, None))


def _round_words(row: dict[str, object]) -> str:
    rons = row.get("rons")
    if isinstance(rons, int) and rons > 1:
        return f"{rons} wins by ron"
    result = row.get("result")
    return f"draw: {result}" if result not in (None, "win") else "round"


def _labels(folder: Path, found: pl.DataFrame) -> dict[tuple[str, int], str]:
    """The round labels of the rounds of the wins found."""
    keys = found.select("source", "round").unique()
    rows = _scan(folder, "rounds").select("source", "round", "label").join(
        keys.lazy(), on=["source", "round"], how="semi").collect()
    return {(r[0], r[1]): r[2] for r in rows.iter_rows()}


def _games_per_file(folder: Path) -> dict[str, int]:
    """How many games each file holds, as the facts have them (``path#N`` is game N)."""
    sources = _scan(folder, "rounds").select("source").unique().collect()["source"]
    out: dict[str, int] = {}
    for s in sources:
        path, number = split_source(s)
        out[path] = max(out.get(path, 0), number)
    return out


def split_source(source: str) -> tuple[str, int]:
    """A facts ``source`` (``path``, or ``path#N`` for the file's game N from 2 on) as the
    path and the game's number from 1."""
    path, hash_, number = source.rpartition("#")
    if hash_ and number.isdigit():
        return path, int(number)
    return source, 1


def _page(path: str, number: int, games: int) -> str:
    """The page ``mjlog view FILE`` writes for a game: the file's name with ``.html``."""
    from mjlog.stats.find.match import page_name

    return page_name(path, number, games, [])

"""``mjlog find``: search records and facts folders for games, rounds and moves by what
happened (:mod:`mjlog.stats.find.query` reads the query, :mod:`mjlog.stats.find.exact` replays
records,
:mod:`mjlog.stats.find.fast` filters a facts folder, :mod:`mjlog.stats.find.output` writes the
list)."""

from mjlog.stats.find.match import Match
from mjlog.stats.find.query import Query, QueryError, parse

__all__ = ["Match", "Query", "QueryError", "parse"]

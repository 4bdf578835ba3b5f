"""``mjlog find``: search records and facts folders for games, rounds and moves by what
happened (:mod:`mjlog.find.query` reads the query, :mod:`mjlog.find.exact` replays records,
:mod:`mjlog.find.fast` filters a facts folder, :mod:`mjlog.find.output` writes the list)."""

from mjlog.find.match import Match
from mjlog.find.query import Query, QueryError, parse

__all__ = ["Match", "Query", "QueryError", "parse"]

"""``mjlog find`` apart from its command line: route each input, gather the matches.

A facts folder (one holding ``_manifest.json``, written by ``mjlog stats --facts``) is
searched by :mod:`mjlog.stats.find.fast`; every other input (files, folders, archives) is
replayed by :mod:`mjlog.stats.find.exact`. Kept apart from the click command so it can be tested
without a terminal; it prints nothing.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace

from mjlog.reports.audit import Checks, counted
from mjlog.stats.find.exact import CHECKS, search_records
from mjlog.stats.find.fast import is_facts_folder, search_facts
from mjlog.stats.find.match import Match
from mjlog.stats.find.query import Query, QueryError, Term, parse


@dataclass
class Found:
    """What a search gave: the matches in input order, and the inputs it could not read."""

    matches: list[Match] = field(default_factory=list)
    unreadable: list[str] = field(default_factory=list)


def query_of(texts: Sequence[str]) -> Query:
    """The query of each ``--where`` text, joined with AND. Raises :class:`QueryError`
    whose message names the option (``--where #2`` when there are several)."""
    terms: list[Term] = []
    for k, text in enumerate(texts):
        try:
            terms.extend(parse(text).terms)
        except QueryError as exc:
            which = f"--where #{k + 1}" if len(texts) > 1 else "--where"
            raise QueryError(exc.reason, exc.column, which) from None
    return Query(tuple(terms), " and ".join(texts))


def search(inputs: Sequence[str], query: Query,
           expand: Callable[[Sequence[str]], list[tuple[str, bool]]],
           holders: list[tuple[str, bool]], *, jobs: int = 1, checks: Checks = CHECKS,
           pages: str = "", steps: bool = False) -> Found:
    """Search every input: facts folders on the fast route, the rest on the exact route
    (``expand`` lists their files; ``holders``: the folders and archives among them, for
    the links). ``pages`` is put before each link (where the pages of ``mjlog view`` are).
    With ``steps``, the games a facts folder matched are replayed from their records
    (:func:`placed`) to give each match its turn, step and link. Raises
    :class:`mjlog.stats.find.fast.NeedsRecords` for a query a facts folder cannot answer."""
    found = Found()
    facts = [i for i in inputs if is_facts_folder(i)]
    records = [i for i in inputs if i not in facts]
    for folder in facts:
        matches = search_facts(folder, query)
        found.matches.extend(placed(matches, query, jobs, checks, found.unreadable)
                             if steps else matches)
    if records:
        for item in search_records(expand(records), query, jobs=jobs, holders=holders,
                                   checks=checks):
            if isinstance(item, str):
                found.unreadable.append(item)
            else:
                found.matches.append(item)
    if pages:
        prefix = pages if pages.endswith("/") else pages + "/"
        found.matches = [replace(m, link=prefix + m.link) for m in found.matches]
    return found


def placed(matches: list[Match], query: Query, jobs: int, checks: Checks,
           unreadable: list[str]) -> list[Match]:
    """The matches a facts folder gave, found again on the exact route in the games they
    are in (read from the paths the facts name): the same matches, with their turns, steps
    and links. A record that cannot be read any more is added to ``unreadable`` and its
    matches kept as they were."""
    games = {(m.source, m.game) for m in matches}
    files = list(dict.fromkeys(m.source for m in matches))
    exact: dict[tuple[str, int], list[Match]] = {}
    lost: set[str] = set()
    for item in search_records([(f, True) for f in files], query, jobs=jobs, checks=checks):
        if isinstance(item, str):
            unreadable.append(item)
            lost.add(item.split(": ", 1)[0])
        elif (item.source, item.game) in games:
            exact.setdefault((item.source, item.game), []).append(item)
    out: list[Match] = []
    for key in dict.fromkeys((m.source, m.game) for m in matches):
        out.extend(exact.get(key, []) if key[0] not in lost else
                   [m for m in matches if (m.source, m.game) == key])
    return out


def summary(found: Found) -> str:
    """One line: how many matches, in how many games and files."""
    games = {(m.source, m.game) for m in found.matches}
    files = {m.source for m in found.matches}
    n = len(found.matches)
    return (f"{counted(n, 'match', 'matches')} in {counted(len(games), 'game')} of "
            f"{counted(len(files), 'file')}")

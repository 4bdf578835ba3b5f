"""The query language of ``mjlog find``: terms joined with AND, parsed into a :class:`Query`.

A query is a list of terms separated by spaces, commas or the word ``and``::

    yakuman
    yaku=kokushi limit>=haneman
    ron>=2 and date>=2022-01-01 and platform=tenhou
    dealin>=12000 player="Aさん"
    draw=four-winds
    kan-after-riichi code=furiten-ron

A term is a bare word (``yakuman``, ``double-ron``, ``triple-ron``, ``kan-after-riichi``,
``nagashi``) or ``FIELD OP VALUE`` with ``OP`` one of ``= != >= <= > <``; a value with
spaces or operators in it is written in double quotes. :data:`FIELDS` lists the fields and
the operators each takes. A mistake raises :class:`QueryError` with the column where the
term starts.

This module only reads the text: it looks at no record (:mod:`mjlog.stats.find.exact` and
:mod:`mjlog.stats.find.fast` do).
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from functools import cache
from typing import Final

from mjlog.core.events import ABORTIVE_KINDS
from mjlog.families.riichi.scoring.yaku import YAKU

LIMITS: Final = ("mangan", "haneman", "baiman", "sanbaiman", "yakuman")
"""The limits in rank order (``limit>=haneman`` is haneman and above)."""
COUNTED: Final = "counted-yakuman"
"""A yakuman reached by counting han (kazoe), not by a yakuman yaku."""
DRAW_KINDS: Final = (*ABORTIVE_KINDS, "abortive", "exhaustive", "nagashi")
"""What ``draw=`` takes: an abortive draw's kind, any abortive draw, an exhaustive draw,
nagashi mangan."""
_DRAW_ALIASES: Final = {
    "yao9": "nine-terminals", "kyuushu": "nine-terminals", "九種九牌": "nine-terminals",
    "reach4": "four-riichi", "四家立直": "four-riichi", "ron3": "triple-ron",
    "三家和了": "triple-ron", "kan4": "four-kans", "四槓散了": "four-kans",
    "kaze4": "four-winds", "四風連打": "four-winds", "nm": "nagashi", "流し満貫": "nagashi",
    "nagashi-mangan": "nagashi", "ryuukyoku": "exhaustive", "流局": "exhaustive"}
"""Other names of the draws: Tenhou's ``RYUUKYOKU type`` codes and the Japanese names."""
ORDERED: Final = ("=", "!=", ">=", "<=", ">", "<")
EQUAL: Final = ("=", "!=")
FIELDS: Final[dict[str, tuple[str, ...]]] = {
    "yaku": EQUAL, "limit": ORDERED, "ron": ORDERED, "dealin": ORDERED, "draw": EQUAL,
    "player": EQUAL, "code": EQUAL, "date": ORDERED, "platform": EQUAL}
"""Each field and the operators it takes."""
WORDS: Final = {
    "yakuman": ("yakuman", "=", "yes"), "double-ron": ("ron", ">=", "2"),
    "triple-ron": ("ron", ">=", "3"), "kan-after-riichi": ("kan-after-riichi", "=", "yes"),
    "nagashi": ("draw", "=", "nagashi"), "abortive": ("draw", "=", "abortive")}
"""The bare words and the terms they stand for."""
WIN_FIELDS: Final = frozenset({"yakuman", "yaku", "limit", "dealin"})
ROUND_FIELDS: Final = frozenset({"ron", "draw"})
GAME_FIELDS: Final = frozenset({"player", "date", "platform"})

_TOKEN = re.compile(r'\s*(?:(,)|"((?:[^"\\]|\\.)*)"|([^\s,"=!<>]+)|(!=|>=|<=|=|>|<))')


class QueryError(ValueError):
    """A query that cannot be read: the message and the column (1-based) where it went
    wrong; ``str()`` is one line, ``at column N: message`` (after ``where``, which names
    the query, when given)."""

    def __init__(self, message: str, column: int, where: str = "") -> None:
        super().__init__(f"{where + ': ' if where else ''}at column {column}: {message}")
        self.column = column
        self.reason = message


@dataclass(frozen=True, slots=True)
class Term:
    """One condition: a field, an operator and its value as read (``yaku`` and ``draw``
    values are mjlog's names, ``limit`` a rank, ``date`` ISO text)."""

    field: str
    op: str
    value: str
    column: int


@dataclass(frozen=True, slots=True)
class Query:
    """Terms that must all hold (AND). Terms on a win hold on the same win; terms on a
    round, a kan or a finding hold in the same round; terms on a game, in the game."""

    terms: tuple[Term, ...] = ()
    text: str = field(default="", compare=False)

    def of(self, *fields: str) -> list[Term]:
        """The terms on these fields."""
        return [t for t in self.terms if t.field in fields]

    def has(self, fields: frozenset[str] | set[str]) -> bool:
        """Whether any term is on one of these fields."""
        return any(t.field in fields for t in self.terms)


def parse(text: str) -> Query:
    """The query of ``text`` (module docstring). Raises :class:`QueryError` with the column
    of the first mistake; an empty query is one (it would list every game)."""
    tokens = _tokens(text)
    terms: list[Term] = []
    k = 0
    while k < len(tokens):
        column, kind, value = tokens[k]
        if kind == "sep" or (kind == "word" and value.lower() == "and"):
            k += 1
            continue
        if kind != "word":
            raise QueryError(f"expected a term, found {value!r}", column)
        if k + 1 < len(tokens) and tokens[k + 1][1] == "op":
            if k + 2 >= len(tokens) or tokens[k + 2][1] not in ("word", "quoted"):
                after = tokens[k + 2] if k + 2 < len(tokens) else (len(text) + 1, "", "")
                shown = f", found {after[2]!r}" if after[2] else ""
                raise QueryError(f"{value}{tokens[k + 1][2]} needs a value{shown}", after[0])
            terms.append(_term(value.lower(), tokens[k + 1][2], tokens[k + 2][2], column,
                               tokens[k + 2][0]))
            k += 3
        else:
            terms.append(_word(value, column))
            k += 1
    if not terms:
        raise QueryError("the query is empty: give at least one term, e.g. yakuman", 1)
    return Query(tuple(terms), text)


def _tokens(text: str) -> list[tuple[int, str, str]]:
    """``(column, kind, value)`` of each token: ``sep``, ``quoted``, ``word`` or ``op``."""
    out: list[tuple[int, str, str]] = []
    at = 0
    while at < len(text):
        m = _TOKEN.match(text, at)
        if m is None or m.end() == at:
            if text[at:].strip() == "":
                break
            column = at + len(text[at:]) - len(text[at:].lstrip()) + 1
            raise QueryError(f"unexpected {text[column - 1]!r} (an unclosed quote?)", column)
        start = m.start(m.lastindex or 0) + 1
        kind = ("sep", "quoted", "word", "op")[(m.lastindex or 1) - 1]
        value = m.group(m.lastindex or 0)
        out.append((start, kind, value.replace('\\"', '"') if kind == "quoted" else value))
        at = m.end()
    return out


def _word(word: str, column: int) -> Term:
    """The term a bare word stands for (:data:`WORDS`)."""
    found = WORDS.get(word.lower())
    if found is None:
        if word.lower() in FIELDS:
            raise QueryError(f"{word} needs an operator and a value, e.g. {_example(word)}",
                             column)
        known = [*WORDS, *FIELDS]
        raise QueryError(f"unknown term {word!r}{_closest(word, known)}; terms: "
                         + ", ".join(WORDS) + ", " + ", ".join(f"{f}=…" for f in FIELDS), column)
    return Term(found[0], found[1], found[2], column)


def _example(name: str) -> str:
    return {"yaku": "yaku=kokushi", "limit": "limit>=haneman", "ron": "ron>=2",
            "dealin": "dealin>=12000", "draw": "draw=four-winds", "player": 'player="A B"',
            "code": "code=furiten-ron", "date": "date>=2022-01-01",
            "platform": "platform=tenhou"}[name]


def _closest(word: str, known: list[str]) -> str:
    close = difflib.get_close_matches(word.lower(), known, n=3, cutoff=0.6)
    return f" (closest: {', '.join(close)})" if close else ""


def _term(name: str, op: str, value: str, column: int, at: int) -> Term:
    """A ``FIELD OP VALUE`` term starting at ``column``, its value (at column ``at``)
    checked and put in mjlog's terms."""
    if name not in FIELDS:
        raise QueryError(f"unknown field {name!r}{_closest(name, list(FIELDS))}; fields: "
                         + ", ".join(FIELDS), column)
    if op not in FIELDS[name]:
        raise QueryError(f"{name} takes {' '.join(FIELDS[name])}, not {op}",
                         column + len(name))
    return Term(name, op, _VALUES.get(name, _text)(value, at), column)


def _text(value: str, column: int) -> str:
    if not value:
        raise QueryError("empty value", column)
    return value


def _number(value: str, column: int) -> str:
    if not value.isascii() or not value.isdigit():
        raise QueryError(f"expected a whole number, found {value!r}", column)
    return str(int(value))


def _limit(value: str, column: int) -> str:
    v = value.lower()
    if v in ("kazoe", "kazoe-yakuman", COUNTED):
        return COUNTED
    if v not in LIMITS:
        raise QueryError(f"unknown limit {value!r}; limits: {', '.join(LIMITS)}, {COUNTED}",
                         column)
    return v


def _draw(value: str, column: int) -> str:
    v = _DRAW_ALIASES.get(value, _DRAW_ALIASES.get(value.lower(), value.lower()))
    if v not in DRAW_KINDS:
        raise QueryError(f"unknown draw {value!r}{_closest(v, list(DRAW_KINDS))}; draws: "
                         + ", ".join(DRAW_KINDS), column)
    return v


def _date(value: str, column: int) -> str:
    for form in ("%Y-%m-%d", "%Y-%m", "%Y"):
        try:
            datetime.strptime(value, form)
        except ValueError:
            continue
        return value
    raise QueryError(f"expected a date YYYY-MM-DD (or YYYY-MM, YYYY), found {value!r}", column)


def _yaku(value: str, column: int) -> str:
    found = yaku_names().get(value.lower())
    if found is None:
        raise QueryError(f"unknown yaku {value!r}{_closest(value, list(yaku_names()))}",
                         column)
    return found


def _code(value: str, column: int) -> str:
    known = finding_codes()
    if value not in known:
        raise QueryError(f"unknown finding code {value!r}{_closest(value, sorted(known))} "
                         "(`mjlog rules` and docs/findings.md list them)", column)
    return value


_VALUES: Final = {"yaku": _yaku, "limit": _limit, "ron": _number, "dealin": _number,
                  "draw": _draw, "date": _date, "code": _code, "player": _text,
                  "platform": _text}


@cache
def yaku_names() -> dict[str, str]:
    """Every name a yaku is asked for by (lower case) to mjlog's name: mjlog's own, the
    Japanese of the yaku table, the scoring library's class name, and the Japanese and
    Chinese of the pages' words."""
    from mjlog.reports.view.words import YAKU as WORDS_YAKU

    out: dict[str, str] = {}
    for y in YAKU:
        if y.name in ("dora", "ura-dora", "aka-dora"):
            continue
        for alias in (y.name, y.japanese, y.library, *WORDS_YAKU.get(y.name, ())):
            out.setdefault(alias.lower(), y.name)
    return out


@cache
def finding_codes() -> frozenset[str]:
    """Every code a finding of the audit can have: the catalogue's and the rule checks'."""
    from mjlog.core.catalogue import CODES
    from mjlog.families.registry import violation_codes

    return frozenset(c.code for c in CODES) | frozenset(c.code for c in violation_codes())


YAKUMAN_NAMES: Final = frozenset(y.name for y in YAKU if y.yakuman)
"""mjlog's names of the yakuman yaku."""


def is_yakuman_yaku(name: str, han: int) -> bool:
    """Whether a yaku of a win is a yakuman: one of :data:`YAKUMAN_NAMES`, or a yaku the
    record values at 13 han or more (a platform's own yakuman)."""
    return name in YAKUMAN_NAMES or han >= 13


def compare(left: float | str, op: str, right: float | str) -> bool:
    """``left OP right`` for the operators of :data:`ORDERED`."""
    if op == "=":
        return left == right
    if op == "!=":
        return left != right
    if op == ">=":
        return left >= right  # type: ignore[operator]
    if op == "<=":
        return left <= right  # type: ignore[operator]
    if op == ">":
        return left > right  # type: ignore[operator]
    return left < right  # type: ignore[operator]


def date_span(term: Term) -> tuple[datetime, datetime]:
    """The times ``[low, high)`` a date value covers (``2022-01`` is the whole month)."""
    v = term.value
    if len(v) == 4:
        return datetime(int(v), 1, 1), datetime(int(v) + 1, 1, 1)
    if len(v) == 7:
        y, m = int(v[:4]), int(v[5:])
        return datetime(y, m, 1), datetime(y + m // 12, m % 12 + 1, 1)
    low = datetime.strptime(v, "%Y-%m-%d")
    return low, low + timedelta(days=1)

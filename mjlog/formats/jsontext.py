"""JSON text as every reader decodes it: nesting too deep is a syntax error, not a crash,
and a number no record holds is a value with its place, not a float or a huge integer.

Python's decoder recurses once per level and raises ``RecursionError`` on
input nested some thousand levels deep. :func:`loads` turns that into the
``json.JSONDecodeError`` that every reader already reports as ``json-syntax``
with its position.

Python's decoder also reads ``NaN``, ``Infinity``, ``-Infinity`` and ``1e999`` (as
floats no JSON writer may write back), integers of any size (10**30, which no field of a
record holds) and fails with ``ValueError`` on an integer of more than 4,300 digits.
Every decoder here reads a number only when it is finite and within
±:data:`NUMBER_LIMIT`; any other is read as ``null`` and listed as a
:class:`BadNumber` with its JSON path (:func:`decode`), or raised as one (:func:`loads`),
so that each reader reports it as ``bad-value`` at its place. Ranges of particular
fields (scores, honba) are not judged here (:mod:`mjlog.formats.limits`).

:func:`salvage` keeps what stands before the damage in an object that does
not parse as a whole. :func:`remember` is the bounded memory of short lines that the JSON
Lines and mjai readers (and the JSON Lines writer) keep, since draws and discards repeat.
This module only decodes; it writes nothing.
"""

from __future__ import annotations

import json
import math
import re
import threading
from collections.abc import Iterator
from typing import IO, Any, Final, TypeVar

K = TypeVar("K")
V = TypeVar("V")

SHORT_LINE = 96
"""The longest line worth remembering: a draw's or a discard's is far shorter."""
MEMORY = 4096
"""Entries a memory of lines holds at most (a game has some 400 distinct draws and
discards); when full it is emptied, not searched for the oldest."""


def remember(memory: dict[K, V], key: K, value: V) -> V:
    """Put ``value`` in ``memory`` under ``key`` (emptying it first when it holds
    :data:`MEMORY` entries) and return ``value``. Does not check that ``key`` is short."""
    if len(memory) >= MEMORY:
        memory.clear()
    memory[key] = value
    return value


NUMBER_LIMIT: Final = 2**53
"""The largest magnitude of a number mjlog reads from JSON (9,007,199,254,740,992: every
integer up to it is exact in a double, so in every JSON reader). Real records hold numbers
of at most 13 digits (Riichi City's times in milliseconds)."""
REPORTED: Final = 100
"""How many numbers past :data:`NUMBER_LIMIT` one document reports one by one; the rest
are counted in the last one's message."""


class BadNumber(ValueError):
    """A number in JSON text that mjlog does not read: not finite (``NaN``, ``Infinity``,
    ``1e999``) or past ±:data:`NUMBER_LIMIT` (10**30, an integer of 4,000 digits).
    ``path`` is its place in the document (``$.sc[0]``), ``literal`` its text."""

    def __init__(self, path: str, literal: str, more: int = 0) -> None:
        shown = literal if len(literal) <= 24 else f"{literal[:12]}… ({len(literal)} characters)"
        also = f"; and {more:,} more such numbers after it, not listed" if more else ""
        super().__init__(f"{shown} is not a number mjlog reads (it reads finite numbers "
                         f"within ±2**53; this one is read as null){also}")
        self.path = path
        self.literal = literal
        self.more = more

    def at(self, prefix: str) -> str:
        """The number's path below ``prefix`` (the path of the JSON text it is in, for text
        held in a string of another document)."""
        return prefix + self.path[1:]


class _Odd:
    """What a decoder hook gives for a number mjlog does not read, until :func:`decode`
    replaces it by ``None``."""

    __slots__ = ("literal",)

    def __init__(self, literal: str) -> None:
        self.literal = literal


_ODD = threading.local()
"""How many numbers the decoding in this thread has given as :class:`_Odd` (``count``)."""


def _odd(literal: str) -> _Odd:
    """The decoder's hook for ``NaN``, ``Infinity`` and ``-Infinity`` (and the others'
    fallback): a :class:`_Odd`, counted in this thread."""
    _ODD.count = getattr(_ODD, "count", 0) + 1
    return _Odd(literal)


def _int(text: str) -> int | _Odd:
    """The decoder's hook for an integer: the integer, or a :class:`_Odd` past
    :data:`NUMBER_LIMIT` (more than 16 digits are never converted)."""
    if len(text) < 16:  # at most 15 digits and a sign: within the limit
        return int(text)
    if len(text.lstrip("-")) > 16:  # never converted: 4,300 digits would raise
        return _odd(text)
    value = int(text)
    return value if abs(value) <= NUMBER_LIMIT else _odd(text)


def _float(text: str) -> float | _Odd:
    """The decoder's hook for a number with a fraction or exponent: the float, or a
    :class:`_Odd` when it is not finite or past :data:`NUMBER_LIMIT`."""
    value = float(text)
    return value if math.isfinite(value) and abs(value) <= NUMBER_LIMIT else _odd(text)


_DECODER = json.JSONDecoder(parse_int=_int, parse_float=_float, parse_constant=_odd)
_SPACE = re.compile(r"[ \t\r\n]*")


def decode(text: str | bytes) -> tuple[Any, list[BadNumber]]:
    """The JSON document ``text``, each number mjlog does not read (see :class:`BadNumber`)
    read as ``None`` and listed with its path (at most :data:`REPORTED`, the last one
    counting the rest). Raises ``json.JSONDecodeError`` as :func:`loads` does; does not
    judge any field's range."""
    _ODD.count = 0
    try:
        doc = _DECODER.decode(text.decode("utf-8") if isinstance(text, bytes) else text)
    except RecursionError:
        doc_text = text.decode("utf-8", "replace") if isinstance(text, bytes) else text
        at = next((i for i, ch in enumerate(doc_text) if ch in "[{"), 0)
        raise json.JSONDecodeError("JSON nested too deeply to read", doc_text, at) from None
    if not _ODD.count:
        return doc, []
    return _cleaned(doc)


def loads(text: str | bytes) -> Any:
    """``json.loads(text)``; input nested deeper than the decoder can follow raises
    ``json.JSONDecodeError`` at the first bracket, like any other bad JSON; the first number
    mjlog does not read raises its :class:`BadNumber` (a ``ValueError``, not a
    ``JSONDecodeError``), which counts the others."""
    doc, bad = decode(text)
    if bad:
        first = bad[0]
        raise BadNumber(first.path, first.literal, len(bad) - 1 + bad[-1].more)
    return doc


def _cleaned(doc: Any) -> tuple[Any, list[BadNumber]]:
    """``doc`` with every :class:`_Odd` in it replaced by ``None``, and each one's
    :class:`BadNumber`, in document order (iteratively: nesting may be deep)."""
    if isinstance(doc, _Odd):
        return None, [BadNumber("$", doc.literal)]
    bad: list[BadNumber] = []
    more = 0
    stack: list[tuple[Iterator[tuple[Any, Any]], Any, str]] = [(_items(doc), doc, "$")]
    while stack:
        items, node, path = stack[-1]
        for key, value in items:
            if isinstance(value, _Odd):
                node[key] = None
                if len(bad) < REPORTED:
                    bad.append(BadNumber(_step(path, key), value.literal))
                else:
                    more += 1
            elif isinstance(value, dict | list) and value:
                stack.append((_items(value), value, _step(path, key)))
                break
        else:
            stack.pop()
    if more:
        bad[-1] = BadNumber(bad[-1].path, bad[-1].literal, more)
    return doc, bad


def _items(node: Any) -> Iterator[tuple[Any, Any]]:
    """A container's (key or index, value) pairs."""
    return iter(node.items()) if isinstance(node, dict) else enumerate(node) \
        if isinstance(node, list) else iter(())


def _step(path: str, key: Any) -> str:
    """The JSON path of ``key`` below ``path``."""
    return f"{path}[{key}]" if isinstance(key, int) else f"{path}.{key}"


LINE_LIMIT = 16 * 2**20
"""The longest line a reader of JSON Lines reads (an event is a few hundred bytes)."""


class LineTooLong(ValueError):
    """A line longer than :data:`LINE_LIMIT`: it is not read."""

    def __init__(self, size: int) -> None:
        super().__init__(f"a line of {size / 2**20:.0f} MB or more; not read (the limit is "
                         f"{LINE_LIMIT // 2**20} MB a line)")


def file_lines(file: IO[bytes]) -> Iterator[tuple[int, str, Exception | None]]:
    """:func:`text_lines` of an open binary file, read a line at a time: a line is never
    held longer than :data:`LINE_LIMIT` (the rest of it is passed over, and it yields
    :class:`LineTooLong`)."""
    lineno = 0
    while raw := file.readline(LINE_LIMIT + 1):
        lineno += 1
        if lineno == 1:
            raw = raw.removeprefix(b"\xef\xbb\xbf")
        if len(raw) > LINE_LIMIT and not raw.endswith(b"\n"):
            size = len(raw)
            while (rest := file.readline(LINE_LIMIT)) and not rest.endswith(b"\n"):
                size += len(rest)
            yield lineno, "", LineTooLong(size + len(rest))
            continue
        try:
            yield lineno, raw.decode("utf-8").removesuffix("\n"), None
        except UnicodeDecodeError as exc:
            yield lineno, "", exc


def text_lines(data: bytes) -> Iterator[tuple[int, str, UnicodeDecodeError | None]]:
    """Each line of UTF-8 text (split on newlines only: JSON keeps U+2028 raw), numbered
    from 1, after a byte-order mark: ``(line number, text, None)``, or for a line that is
    not UTF-8 ``(line number, "", the error)``, so that a bad byte costs its line only."""
    data = data.removeprefix(b"\xef\xbb\xbf")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        for lineno, raw in enumerate(data.split(b"\n"), 1):
            try:
                yield lineno, raw.decode("utf-8"), None
            except UnicodeDecodeError as exc:
                yield lineno, "", exc
        return
    for lineno, line in enumerate(text.split("\n"), 1):
        yield lineno, line, None


def salvage(text: str) -> tuple[dict[str, Any], list[BadNumber]]:
    """The members of the JSON object ``text`` that parse before the first damage, and the
    numbers among them that mjlog does not read (as :func:`decode` reads them).

    Members are read one by one from the start; the damaged member, if it is a list, keeps
    its elements up to the first that does not parse (the complete rounds of a log cut in
    the middle). Stops at the first damage: nothing after it is guessed at. Returns
    ``{}`` when ``text`` does not open an object.
    """
    _ODD.count = 0
    found = _salvaged(text)
    if not _ODD.count:
        return found, []
    doc, bad = _cleaned(found)
    return doc, bad


def _salvaged(text: str) -> dict[str, Any]:
    """:func:`salvage`'s members, numbers mjlog does not read still :class:`_Odd`."""
    found: dict[str, Any] = {}
    at = _skip(text, 0)
    if not text.startswith("{", at):
        return found
    at = _skip(text, at + 1)
    try:
        while text.startswith('"', at):
            key, at = _DECODER.raw_decode(text, at)
            at = _skip(text, at)
            if not text.startswith(":", at):
                break
            start = _skip(text, at + 1)
            try:
                found[key], at = _DECODER.raw_decode(text, start)
            except (ValueError, RecursionError):
                if text.startswith("[", start):
                    found[key] = _list_prefix(text, start)
                break
            at = _skip(text, at)
            if not text.startswith(",", at):
                break
            at = _skip(text, at + 1)
    except (ValueError, RecursionError):
        pass
    return found


def _list_prefix(text: str, at: int) -> list[Any]:
    """The elements of the list opening at ``at`` that parse before the first that does not."""
    items: list[Any] = []
    at = _skip(text, at + 1)
    while True:
        try:
            item, at = _DECODER.raw_decode(text, at)
        except (ValueError, RecursionError):
            return items
        items.append(item)
        at = _skip(text, at)
        if not text.startswith(",", at):
            return items
        at = _skip(text, at + 1)


def _skip(text: str, at: int) -> int:
    match = _SPACE.match(text, at)
    return match.end() if match else at

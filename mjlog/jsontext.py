"""JSON text as every reader decodes it: nesting too deep is a syntax error, not a crash.

Python's decoder recurses once per level and raises ``RecursionError`` on
input nested some thousand levels deep. :func:`loads` turns that into the
``json.JSONDecodeError`` that every reader already reports as ``json-syntax``
with its position. :func:`salvage` keeps what stands before the damage in an object that does
not parse as a whole. :func:`remember` is the bounded memory of short lines that the JSON
Lines and mjai readers (and the JSON Lines writer) keep, since draws and discards repeat.
This module only decodes; it writes nothing.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import IO, Any, TypeVar

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


_DECODER = json.JSONDecoder()
_SPACE = re.compile(r"[ \t\r\n]*")


def loads(text: str | bytes) -> Any:
    """``json.loads(text)``; input nested deeper than the decoder can follow raises
    ``json.JSONDecodeError`` at the first bracket, like any other bad JSON."""
    try:
        return json.loads(text)
    except RecursionError:
        doc = text.decode("utf-8", "replace") if isinstance(text, bytes) else text
        at = next((i for i, ch in enumerate(doc) if ch in "[{"), 0)
        raise json.JSONDecodeError("JSON nested too deeply to read", doc, at) from None


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


def salvage(text: str) -> dict[str, Any]:
    """The members of the JSON object ``text`` that parse before the first damage.

    Members are read one by one from the start; the damaged member, if it is a list, keeps
    its elements up to the first that does not parse (the complete rounds of a log cut in
    the middle). Stops at the first damage: nothing after it is guessed at. Returns
    ``{}`` when ``text`` does not open an object.
    """
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

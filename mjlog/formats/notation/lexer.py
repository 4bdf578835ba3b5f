"""The notation's words: lines, tokens with their columns, tiles and values; no table.

Everything here reads text into plain values and positions (or writes plain
values as text); nothing knows whose turn it is or what a hand holds.
Problems raise :class:`NotationError` with the line and column.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Final

from mjlog.core.tiles import NUM_KINDS, UNKNOWN_KIND

MAGIC: Final = "mjlog-notation 1"
"""The first line of every notation file: the format and its version."""
WINDS: Final = "ESWN"
HONOUR_LETTERS: Final = {"E": 27, "S": 28, "W": 29, "N": 30, "H": 31, "G": 32, "R": 33}
"""Honours may be written as letters: winds E S W N, dragons H (白), G (發), R (中)."""
ABORTS: Final = ("nine-terminals", "four-riichi", "triple-ron", "four-kans", "four-winds",
                 "unstated")
"""The kinds of abortive draw (``unstated``: a score sheet that does not say which)."""
RESULTS: Final = ("ron", "tsumo", "draw", "abort", "after", "noend", "unknown", "riichi",
                  "chombo")
"""The words a result line starts with (``riichi``: a results-only round's declarations)."""

_TILE: Final = r"(?:[0-9][mpszf]|[ESWNHGR]|\?)"
MOVE_RE: Final = re.compile(
    rf"^(?:(?P<seat>[ESWN])(?P<dir>[<>]))?(?P<rinshan>~)?(?P<a>{_TILE})(?P<b>{_TILE})?"
    r"(?P<giri>')?(?P<riichi>\*)?$")
CALL_RE: Final = re.compile(
    r"^(?P<seat>[ESWN]):(?P<op>chi|pon|kan)(?P<tiles>[^!]+)(?:!(?P<raw>.*))?$")
OWN_RE: Final = re.compile(
    r"^(?:(?P<seat>[ESWN]):)?(?P<op>ankan|kakan|kita|flower|rob)(?P<tiles>[^!]*)(?:!(?P<raw>.*))?$")
SEAT_OP_RE: Final = re.compile(
    r"^(?P<seat>[ESWN]):(?P<op>paid|unpaid|bye|back|ting)(?:=(?P<arg>.*))?$")
ROUND_RE: Final = re.compile(r"^(?P<wind>[ESWN])(?P<number>[1-4])-(?P<honba>\d+)$")
BAD_ROUND_RE: Final = re.compile(r"^[ESWN]\d+-\d+$")
TAG_RE: Final = re.compile(
    r'^\[(?P<key>[A-Za-z][\w.-]*+)(?P<values>(?:\s++"(?:[^"\\]++|\\.)*+")*+)\s*+\]$')
"""A header tag. Every repetition is possessive (``*+``, ``++``): a value is a run of plain
characters or escapes that is never given back, so that matching keeps no backtracking
point per character (the pattern without them held one for each: 8.8 GB for a tag of
50 MB) and runs in time and memory linear in the line."""
_VALUE_RE: Final = re.compile(r'"((?:[^"\\]++|\\.)*+)"')
TAG_VALUES: Final = 64
"""The most values a header tag holds (``[Players ...]`` names four; mjlog writes no tag of
more): a tag of millions of them is not kept value by value."""
_WORD_RE: Final = re.compile(r"\S+")


class NotationError(Exception):
    """A problem at one place of the text; becomes a diagnostic."""

    def __init__(self, code: str, message: str, line: int, column: int) -> None:
        super().__init__(message)
        self.code = code
        self.line = line
        self.column = column


def games(text: str) -> list[list[str]]:
    """The lines of each game of a text (a game starts at each magic line); every game's
    list keeps the file's line numbers (earlier lines are blank)."""
    lines = text.replace("\r\n", "\n").split("\n")
    starts = [i for i, line in enumerate(lines) if line.strip() == MAGIC] or [0]
    starts[0] = 0
    out = []
    for k, start in enumerate(starts):
        stop = starts[k + 1] if k + 1 < len(starts) else len(lines)
        out.append([""] * start + lines[start:stop])
    return out


def words(text: str) -> list[tuple[str, int]]:
    """The words of a line with their 1-based columns."""
    return [(m.group(), m.start() + 1) for m in _WORD_RE.finditer(text)]


def tag_values(text: str, start: int = 0, end: int | None = None) -> list[str]:
    """The quoted values in ``text[start:end]`` (a header tag's, where :data:`TAG_RE` found
    them: the span is read in place, not copied), unescaped; raises ``ValueError`` for a
    tag of more than :data:`TAG_VALUES` (without reading past them)."""
    out: list[str] = []
    for m in _VALUE_RE.finditer(text, start, len(text) if end is None else end):
        if len(out) == TAG_VALUES:
            raise ValueError(f"a header tag holds at most {TAG_VALUES} values")
        out.append(_unescape(m.group(1)))
    return out


_ESCAPE_RE: Final = re.compile(r"\\(u[0-9A-Fa-f]{4}|.)", re.DOTALL)
"""An escape in a quoted header value: ``\\uXXXX`` (a character by its code) or a
backslash before any other character (that character)."""
_UNQUOTABLE: Final = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029]")
"""What a quoted value never holds raw: controls and line breaks (a line of the file would
end inside the value)."""


def _unescape(value: str) -> str:
    """A quoted value's text with its escapes undone, in pieces joined a few thousand at
    a time: memory stays linear in the value even for a 50 MB value made of escapes (one
    ``re.sub`` held a piece per escape: 420 MB)."""
    if "\\" not in value:
        return value
    done: list[str] = []
    parts: list[str] = []
    last = 0
    for m in _ESCAPE_RE.finditer(value):
        parts += (value[last:m.start()], _unescaped(m))
        last = m.end()
        if len(parts) >= 8192:
            done.append("".join(parts))
            parts.clear()
    parts.append(value[last:])
    done.append("".join(parts))
    return "".join(done)


def _unescaped(m: re.Match[str]) -> str:
    code = m.group(1)
    return chr(int(code[1:], 16)) if len(code) == 5 else code


def kinds(text: str, line: int, col: int) -> list[tuple[int, bool]]:
    """mpsz (honour letters, ``f`` flowers and ``?`` allowed) to (kind, red) pairs; raises
    :class:`NotationError`. The lists returned are shared: callers never change them."""
    known = _KINDS_CACHE.get(text)
    if known is not None:
        return known
    out = _parse_kinds(text, line, col)
    if len(_KINDS_CACHE) < 100_000:
        _KINDS_CACHE[text] = out
    return out


_KINDS_CACHE: dict[str, list[tuple[int, bool]]] = {}
"""Tile strings already parsed."""


def _parse_kinds(text: str, line: int, col: int) -> list[tuple[int, bool]]:
    out: list[tuple[int, bool]] = []
    digits: list[tuple[int, int]] = []
    for i, ch in enumerate(text):
        if "0" <= ch <= "9":
            digits.append((ord(ch) - 48, i))
        elif ch in "mpszf":
            if not digits:
                raise NotationError("bad-tile", f"suit {ch!r} without digits", line, col + i)
            out.extend(_suit(ch, digits, line, col))
            digits = []
        elif ch in HONOUR_LETTERS and not digits:
            out.append((HONOUR_LETTERS[ch], False))
        elif ch == "?" and not digits:
            out.append((UNKNOWN_KIND, False))
        else:
            raise NotationError("bad-tile", f"{ch!r} is not part of a tile", line, col + i)
    if digits:
        raise NotationError("bad-tile", "digits without a suit letter", line,
                            col + digits[0][1])
    return out


def _suit(ch: str, digits: list[tuple[int, int]], line: int,
          col: int) -> list[tuple[int, bool]]:
    """The tiles of digits followed by suit letter ``ch``."""
    if ch in "mps":
        base = "mps".index(ch) * 9
        return [(base + 4, True) if d == 0 else (base + d - 1, False) for d, _ in digits]
    top, what = (8, "flower") if ch == "f" else (7, "honour")
    for d, j in digits:
        if not 1 <= d <= top:
            raise NotationError("bad-tile", f"there is no {what} {d}{ch}", line, col + j)
    return [((NUM_KINDS - 1 + d) if ch == "f" else (26 + d), False) for d, _ in digits]


def is_int(text: str, signed: bool = False) -> bool:
    """Whether ``text`` is a number in ASCII digits (with a minus sign when ``signed``), of
    at most 18 digits."""
    return (_SIGNED if signed else _UNSIGNED).fullmatch(text) is not None


_UNSIGNED: Final = re.compile(r"[0-9]{1,18}")
_SIGNED: Final = re.compile(r"-?[0-9]{1,18}")
_DELTA: Final = re.compile(r"[+-]?[0-9]{1,18}")
"""Numbers of at most 18 digits: no number of a record has more (the shuffle seed is a
string), and Python refuses to convert one of more than 4,300."""


def number(text: str, line: int, col: int, what: str, code: str = "bad-round") -> int:
    """A number in ASCII digits; raises :class:`NotationError` naming ``what``."""
    if not is_int(text, signed=True):
        shown = repr(text) if len(text) <= 24 else f"{text[:12]!r}… ({len(text)} characters)"
        raise NotationError(code, f"{what} is a number of at most 18 digits, not {shown}",
                            line, col)
    return int(text)


def int_list(text: str, line: int, col: int, what: str) -> tuple[int, ...]:
    """Comma-separated integers, each with a sign or none; raises :class:`NotationError`
    (``bad-result``)."""
    values = text.split(",") if text else []
    if not all(_DELTA.fullmatch(x) for x in values):
        raise NotationError("bad-result", f"{what} must be numbers (of at most 18 digits) "
                            "separated by commas", line, col)
    return tuple(int(x) for x in values)


def quote(text: str) -> str:
    """A header value in double quotes: ``\\`` and ``"`` escaped by a backslash, and
    control characters and line breaks as ``\\uXXXX``, so the value stays on its line
    and reads back as it was (:func:`tag_values`)."""
    text = text.replace("\\", "\\\\").replace('"', '\\"')
    return '"' + _UNQUOTABLE.sub(lambda m: f"\\u{ord(m.group()):04x}", text) + '"'


def pct(v: str) -> str:
    """A ``@key=value`` value with spaces, ``%``, ``#`` and line breaks escaped."""
    return (v.replace("%", "%25").replace(" ", "%20").replace("\n", "%0A")
            .replace("#", "%23").replace("\t", "%09"))


def unpct(v: str) -> str:
    """The value :func:`pct` escaped."""
    return re.sub(r"%([0-9A-F]{2})", lambda m: chr(int(m.group(1), 16)), v)


def ints_str(values: Sequence[int]) -> str:
    """Integers separated by commas."""
    return ",".join(map(str, values))


def deltas_str(values: Sequence[int]) -> str:
    """Score changes with their signs (``+1000,-1000,0,0``)."""
    return ",".join(f"{d:+d}" if d else "0" for d in values)

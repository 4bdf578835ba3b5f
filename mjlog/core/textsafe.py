"""Text from records made safe for where it goes: terminal and text reports, CSV, Markdown.

Names, file names and archive members come from records that anyone may write. Printed
raw, a control character drives the terminal (ESC sequences, OSC 52 writes the clipboard,
OSC 8 makes links), a newline forges a report line or a Markdown heading, a right-to-left
override draws "owes 55.0" backwards, and a CSV cell starting with ``=`` is a live formula
in a spreadsheet. Each function here neutralises one of these for one destination; none
changes ordinary text. (HTML is escaped by the pages' templates; JSON by its encoder.)
"""

from __future__ import annotations

import re
from typing import Final

_UNSAFE: Final = re.compile(
    "[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029]")
"""Control characters (C0, DEL, C1), bidirectional marks, embeddings, overrides and
isolates, and the Unicode line and paragraph separators."""


def _escaped(m: re.Match[str]) -> str:
    c = ord(m.group(0))
    return f"\\x{c:02x}" if c < 0x100 else f"\\u{c:04x}"


def terminal(text: str) -> str:
    """One line of text with every control or bidirectional character shown escaped
    (``\\x1b``, ``\\u202e``), so it prints as itself and ends where it ends."""
    return _UNSAFE.sub(_escaped, text)


def terminal_lines(text: str) -> str:
    """:func:`terminal` for each line of ``text`` (its newlines kept)."""
    return "\n".join(map(terminal, text.split("\n")))


CSV_FORMULA: Final = ("=", "+", "-", "@", "\t", "\r")
"""What a spreadsheet takes a cell starting with as a formula (OWASP's list): such a text
cell of a CSV file is written with a ``'`` before it (:mod:`mjlog.stats.command`)."""


def markdown_cell(text: str) -> str:
    """A text cell of a Markdown table: on one line, its ``|`` escaped, controls shown."""
    return terminal(text).replace("|", "\\|")

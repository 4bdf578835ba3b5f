"""JSON text as every reader decodes it: nesting too deep is a syntax error, not a crash.

Python's decoder recurses once per level and raises ``RecursionError`` on
input nested some thousand levels deep. :func:`loads` turns that into the
``json.JSONDecodeError`` that every reader already reports as ``json-syntax``
with its position. This module only decodes; it writes nothing.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any


def loads(text: str | bytes) -> Any:
    """``json.loads(text)``; input nested deeper than the decoder can follow raises
    ``json.JSONDecodeError`` at the first bracket, like any other bad JSON."""
    try:
        return json.loads(text)
    except RecursionError:
        doc = text.decode("utf-8", "replace") if isinstance(text, bytes) else text
        at = next((i for i, ch in enumerate(doc) if ch in "[{"), 0)
        raise json.JSONDecodeError("JSON nested too deeply to read", doc, at) from None


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

"""JSON text as every reader decodes it: nesting too deep is a syntax error, not a crash.

Python's decoder recurses once per level and raises ``RecursionError`` on
input nested some thousand levels deep. :func:`loads` turns that into the
``json.JSONDecodeError`` that every reader already reports as ``json-syntax``
with its position. This module only decodes; it writes nothing.
"""

from __future__ import annotations

import json
from typing import Any


def loads(text: str | bytes) -> Any:
    """``json.loads(text)``; input nested deeper than the decoder can follow raises
    ``json.JSONDecodeError`` at the first bracket, like any other bad JSON."""
    try:
        return json.loads(text)
    except RecursionError:
        doc = text.decode("utf-8", "replace") if isinstance(text, bytes) else text
        at = min((i for i in (doc.find("["), doc.find("{")) if i >= 0), default=0)
        raise json.JSONDecodeError("JSON nested too deeply to read", doc, at) from None

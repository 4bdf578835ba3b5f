"""mjlog notation: a game record a person can write by hand (see ``docs/notation.md``).

Layers, each a module:

* :mod:`~mjlog.formats.notation.lexer`: lines and words with their columns,
  tiles and values; no table;
* :mod:`~mjlog.formats.notation.ids`: the physical copy each tile named is,
  and the ``ids`` line that says so when the copies are not the canonical ones;
* :mod:`~mjlog.formats.notation.table`: the table reader and writer follow
  (the replay's own :class:`~mjlog.replay.state.TableState`, with what the
  notation fills in from);
* :mod:`~mjlog.formats.notation.results`: what reader and writer share about
  results-only rounds (a round written with its outcome alone, as a score sheet has
  it: the same events as :mod:`mjlog.formats.sheets` gives);
* :mod:`~mjlog.formats.notation.reader` and
  :mod:`~mjlog.formats.notation.writer`: text to events and back. The writer
  is the reader run backwards: it writes a field only when the reader would
  not fill in the very same value, so ``read(write(events)) == events``.

What differs between rule families (whether a round turns a dora, whether a
declaration pays a stick, the usual value of a yaku, the payments of a
result) comes from the ruleset's family (:mod:`mjlog.families.base`). This package
does no I/O and never judges legality: the replay does.
"""

from __future__ import annotations

from typing import Final

from mjlog.core.diagnostics import Diagnostic, InputError, Src
from mjlog.core.record import GameRecord
from mjlog.formats.notation.ids import pack_ids, unpack_ids
from mjlog.formats.notation.lexer import MAGIC, games
from mjlog.formats.notation.reader import FORMAT, _Reader
from mjlog.formats.notation.writer import MACHINE_META, write

EXTENSION: Final = ".mjn"
DIAGNOSTIC_CODES: Final = frozenset({
    "not-notation", "bad-header", "bad-round", "bad-token", "bad-tile", "bad-ids",
    "bad-result", "bad-encoding", "unknown-yaku", "valued",
})
"""Codes of the reader's diagnostics (of severity error, but ``unknown-yaku``, a warning,
``valued``, a note, and a ``bad-token`` warning for a round of single tiles)."""

__all__ = ["DIAGNOSTIC_CODES", "EXTENSION", "FORMAT", "MACHINE_META", "MAGIC", "pack_ids",
           "read", "unpack_ids", "write"]


def read(data: bytes, path: str = "", *, strict: bool = False) -> list[GameRecord]:
    """Read notation: one game, or several, each starting with its own first line.

    Problems become diagnostics with line and column, and reading goes on at
    the next token or line; with ``strict`` the first raises
    :class:`InputError`.
    """
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        d = Diagnostic(code="bad-encoding", message=f"not UTF-8: {exc.reason}",
                       src=Src(index=exc.start))
        if strict:
            raise InputError(d) from None
        return [GameRecord(path=path, format=FORMAT, diagnostics=[d], position_kind="text")]
    parts = games(text)
    del text  # the lines hold it now: a record of one long line is not held twice
    return [_Reader(lines, path, strict).run() for lines in parts]

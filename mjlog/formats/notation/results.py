"""Results-only rounds: a round written with its outcome alone, as a score sheet has it.

A round header not followed by a ``hands`` line opens a results-only round
(:attr:`mjlog.core.events.RoundStart.results_only`): no tile is dealt, and its lines are
``riichi`` declarations, results (``ron S from N 3han 30fu``, ``tsumo E mangan``,
``draw shown=ES``, ``abort``, ``chombo W``) and the scores after (``after …``). The reader
gives the very events the score sheet readers (:mod:`mjlog.formats.sheets`) give for the
same hand, and the writer writes such rounds back in this form.

This module holds what reader and writer share about them: which words are a win's
value, what a written ``after`` line says was paid (the sheet readers' rule), and what
the writer must know of a round before writing it. It reads no text and judges nothing:
no payment is computed here.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Final

from mjlog.core.events import (
    AbortiveDraw,
    Chombo,
    Event,
    ExhaustiveDraw,
    GameEnd,
    RiichiAccepted,
    RoundEnd,
    RoundStart,
    Win,
)
from mjlog.families.riichi.scoring.payments import written_deltas

LIMIT_WORDS: Final = {"mangan": 5, "haneman": 6, "baiman": 8, "sanbaiman": 11}
"""A limit written instead of han, and the han it stands for (as the sheet readers read
it: the win's ``limit`` stays empty). ``yakuman`` is the win's limit itself."""
YAKUMAN: Final = "yakuman"
_HAN: Final = re.compile(r"^([0-9]{1,3})han$")
_RESERVED: Final = re.compile(r"^(?:[0-9]{1,18}(?:fu|han)?|-[0-9]{1,18}|from|unstated)$")
_UNSAFE: Final = re.compile(r"[\s=:#@]|^$")
RESULT_CLASSES: Final = (Win, ExhaustiveDraw, AbortiveDraw)


def han_word(word: str) -> int | None:
    """The han of a word such as ``3han``, or ``None`` for any other word."""
    m = _HAN.match(word)
    return int(m.group(1)) if m else None


def writable_yaku(name: str) -> bool:
    """Whether a yaku's name reads back as that yaku on a win line (not as a value, an
    override, a comment or two words)."""
    return not (_UNSAFE.search(name) or _RESERVED.match(name) or name in LIMIT_WORDS
                or name == YAKUMAN)


def sheet_deltas(before: Sequence[int] | None, after: Sequence[int] | None,
                 riichi: set[int], n: int) -> tuple[int, ...]:
    """What a round's written scores say its one result paid: the scores after less
    those before, each riichi declarer's stick apart; ``()`` where either is not
    written or has not one score per seat (as :mod:`mjlog.formats.sheets` does)."""
    if before is None or after is None or len(before) != n or len(after) != n:
        return ()
    return written_deltas(before, after, riichi)


@dataclass(slots=True)
class WrittenScores:
    """The scores a results-only record has written last (the game's start, a round
    header's ``scores=``, an ``after`` line; ``None`` after a round that writes none),
    and the round's riichi declarers, results and chombo: what an ``after`` line's
    payments are derived from."""

    scores: list[int] | None = None
    riichi: set[int] = field(default_factory=set)
    results: list[int] = field(default_factory=list)
    """Indices (in the reader's events) of the round's results with no ``deltas=``."""
    count: int = 0
    chombo: bool = False

    def round_start(self, ev: RoundStart) -> None:
        """A new round: its stated scores (if any) are the scores before it."""
        if ev.scores:
            self.scores = list(ev.scores)
        self.riichi, self.results, self.count, self.chombo = set(), [], 0, False

    def see(self, ev: Event, index: int = -1, written: bool = False) -> None:
        """Follow one event of the round (``written``: a result that states its deltas)."""
        if isinstance(ev, RiichiAccepted):
            self.riichi.add(ev.player)
        elif isinstance(ev, RESULT_CLASSES):
            self.count += 1
            if not written:
                self.results.append(index)
        elif isinstance(ev, Chombo):
            self.chombo = True

    def derived(self, after: Sequence[int] | None, n: int) -> tuple[int, ...]:
        """The payments of the round's one result as the scores before and ``after``
        say; ``()`` for a round of several results or a chombo."""
        if self.count != 1 or self.chombo:
            return ()
        return sheet_deltas(self.scores, after, self.riichi, n)

    def round_end(self, ev: RoundEnd) -> None:
        self.scores = None if ev.scores is None else list(ev.scores)


def round_ahead(events: Sequence[Event], start: int, before: WrittenScores,
                n: int) -> tuple[Event | None, tuple[int, ...]]:
    """For the writer, at the round start ``events[start]``: the round's one result and
    the payments its ``after`` line implies for it (``(None, ())`` when it has not one
    result). ``before`` holds the scores before the round (:meth:`WrittenScores.round_start`
    applied); it is not changed."""
    ahead = WrittenScores(scores=before.scores)
    single: Event | None = None
    after: tuple[int, ...] | None = None
    for ev in events[start + 1:]:
        if isinstance(ev, RoundStart | RoundEnd | GameEnd):
            after = ev.scores if isinstance(ev, RoundEnd) else None
            break
        ahead.see(ev)
        if isinstance(ev, RESULT_CLASSES):
            single = ev
    if ahead.count != 1:
        return None, ()
    return single, ahead.derived(after, n)

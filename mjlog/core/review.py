"""An AI's review of one player's moves, kept beside a game's events as an annotation.

A review is another program's opinion, not mjlog's: Mortal (through mjai-reviewer)
says at each decision of one player which actions it would take, with a Q-value and a
probability for each. :class:`Review` keeps that opinion as the report wrote it, each
reviewed move tied to the event of the record it is about (:attr:`ReviewedMove.event`),
so a viewer can show it at that move. Nothing here judges a move or replays the game;
:mod:`mjlog.formats.review` reads a report into these values.

Tiles are kept in the report's own notation (mjai: ``5m``, ``5mr`` a red five, ``E`` ..
``C`` the honours).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

ACTION_KINDS: Final = ("discard", "riichi", "chi", "pon", "kan", "win", "draw", "pass")
"""What a reviewed action can be: a discard, a riichi declaration, a chi, a pon, a kan
(closed, open or added), a win (tsumo or ron), an abortive draw the player may call (nine
terminals), or passing (not calling, not winning)."""


@dataclass(frozen=True, slots=True)
class Action:
    """One action as a review names it: its kind (:data:`ACTION_KINDS`) and its tiles in
    mjai names (a discard's tile; a chi's, pon's or kan's tiles from the hand, then the
    called tile; none for riichi, a win, a draw or a pass)."""

    kind: str
    tiles: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Choice:
    """One action the AI weighed at a move, with its Q-value and its probability (0..1)."""

    action: Action
    q_value: float
    prob: float


@dataclass(frozen=True, slots=True)
class ReviewedMove:
    """The AI's opinion at one decision of the reviewed player.

    ``event`` is the index in the record's events of the move the player made (for a
    pass, of the discard or added kan the player let go by); ``round`` and ``honba`` are
    the report's (``round`` counts from 0: 0 is East 1, 4 South 1), ``junme`` its count of
    the player's turns in the round. ``choices`` are the AI's options, best first.
    """

    event: int
    round: int
    honba: int
    junme: int
    actual: Action
    expected: Action
    agrees: bool
    choices: tuple[Choice, ...]


@dataclass(frozen=True, slots=True)
class Review:
    """A review report's opinion of one player's game.

    ``engine`` is the reviewer's engine as the report names it (``Mortal``), ``model``
    the model's tag and ``version`` the reviewer's version, each empty when the report
    does not say; ``notes`` say, in English, which parts of the report did not fit the
    game (those entries are left out of ``moves``).
    """

    engine: str
    player: int
    moves: tuple[ReviewedMove, ...]
    model: str = ""
    version: str = ""
    temperature: float | None = None
    rating: float | None = None
    reviewed: int | None = None
    matches: int | None = None
    notes: tuple[str, ...] = ()

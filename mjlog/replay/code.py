"""The compact event code of a riichi game, which the native table engine replays in one
call (``mjlog._native.replay_code``, ``core/src/engine.rs``).

:func:`encode` turns a game's events into native-endian 64-bit signed words
(``array('q')``), one *row* per event in the record's order, so that a row's place is
its event's index. A row is its kind's number (the ``K_*`` constants) and then its
fields; ``[x]`` is a list, written as its length then its items; ``?[x]`` an optional
list, ``-1`` for ``None``; flags are 0 or 1; tiles are physical ids (the unknown tile is
144), seats are indices, scores points::

    0  K_NOOP         (comment, unknown element: they change and name nothing)
    1  K_GAME_START   seats, tiles, dead_wall, hand, red_fives, leftover_lost, first_dealer
    2  K_ROUND_START  wind, number, honba, kyotaku, dealer, dora_indicator, results_only,
                      [scores], hand count, [hand] for each hand
    3  K_DRAW         player, tile, rinshan
    4  K_DISCARD      player, tile, riichi
    5  K_CHI, 6 K_PON, 7 K_OPEN_KAN   player, from_player, called, [tiles]
    8  K_ADDED_KAN    player, from_player, called, added, [tiles]
    9  K_CLOSED_KAN   player, [tiles]
    10 K_KITA         player, tile
    11 K_FLOWER       player, tile, has_from, from_player (only with has_from)
    12 K_RIICHI       player, ?[scores]
    13 K_READY        player
    14 K_DORA         indicator
    15 K_WIN          winner, from_player, win_tile, [hand], [dora_indicators],
                      [ura_indicators], [deltas], ?[scores_before], the claims:
                      [yaku name id, han, ...], fu, han, points, limit id, pao (-1
                      nobody); name ids index :func:`claim_names`
    16 K_EXHAUSTIVE, 17 K_ABORTIVE    hand count, shown (a mask of the seats whose hand
                                      is not None), K_ABORTIVE only: the kind's index in
                                      ABORTIVE_KINDS (-1 for another), [deltas],
                                      ?[scores_before], K_EXHAUSTIVE only: nagashi
    18 K_CHOMBO       player
    19 K_ROUND_END    ?[scores]
    20 K_GAME_END     ?[scores], points count
    21 K_DISCONNECT, 22 K_RECONNECT   player

A row holds what the engine and the score verifier judge and nothing else (no metadata;
a win's yaku and limit names as ids of :func:`claim_names`):
the per-seat lists whose length alone is judged (a draw's shown hands, the final points)
are their length. Values are written as the record holds them, unchecked: the engine
judges them, as the Python engine does.

The encoder *declines* a game it cannot encode exactly (:class:`Encoding` with no code
and the reason): a table of another family than riichi or of other than three or four
seats, an event class it has no row for, a value that is not an ``int`` (a ``bool``
neither) or lies outside +-2**40, a per-seat field that is not a tuple, a round start
of a tile record without scores. Such a game takes the Python engine. The draws and
discards the readers share (:data:`mjlog.core.events.DRAWS`, ``DISCARDS``) have their
rows made once.

With the native core, its ``EventCoder`` (``core/src/python_code.rs``) writes every row
whose values are plainly what their class says and leaves the others (the game start, a
``bool`` or a list where an ``int`` or a tuple goes …) to :func:`row` here, so the code
is the same either way (``tests/test_native_engine.py`` compares them byte for byte).

This module only encodes, and turns the native findings back into :class:`Finding`
values; it imports no native code (the caller passes ``mjlog._native``).
"""

from __future__ import annotations

from array import array
from collections.abc import Callable, Iterable, Sequence
from functools import cache
from itertools import compress, count, repeat
from operator import is_
from typing import Any, Final, NamedTuple

from mjlog.core.diagnostics import Finding, Severity, Src
from mjlog.core.events import (
    ABORTIVE_KINDS,
    DISCARDS,
    DRAWS,
    AbortiveDraw,
    AddedKan,
    Chi,
    Chombo,
    ClosedKan,
    Comment,
    Discard,
    Disconnect,
    DoraReveal,
    Draw,
    Event,
    ExhaustiveDraw,
    Flower,
    GameEnd,
    GameStart,
    Kita,
    OpenKan,
    Pon,
    ReadyDeclared,
    Reconnect,
    RiichiAccepted,
    RoundEnd,
    RoundStart,
    Unknown,
    Win,
)
from mjlog.core.ruleset import RiichiOptions

K_NOOP, K_GAME_START, K_ROUND_START, K_DRAW, K_DISCARD = 0, 1, 2, 3, 4
K_CHI, K_PON, K_OPEN_KAN, K_ADDED_KAN, K_CLOSED_KAN, K_KITA, K_FLOWER = 5, 6, 7, 8, 9, 10, 11
K_RIICHI, K_READY, K_DORA, K_WIN, K_EXHAUSTIVE, K_ABORTIVE = 12, 13, 14, 15, 16, 17
K_CHOMBO, K_ROUND_END, K_GAME_END, K_DISCONNECT, K_RECONNECT = 18, 19, 20, 21, 22

BOUND: Final = 2**40
"""Every value of a code lies strictly within +-BOUND: the engine's sums of them cannot
leave 64 bits."""
SEATS: Final = (3, 4)
"""The numbers of seats a code's table may have."""
NativeFinding = tuple[str, int, int | None, str, bool, str, int]
"""A finding as ``replay_code`` gives it: code, event index, seat, message, whether it is
a note, round label, turn."""


class Encoding(NamedTuple):
    """A game's code, or ``None`` and why the game was declined."""

    code: bytes | None
    reason: str = ""


class Declined(ValueError):
    """An event the code cannot hold exactly (the message says why)."""


_INT: Final = frozenset({int})


def _list(values: Sequence[object]) -> list[Any]:
    """A list field: its length, then its items (checked with the row)."""
    return [len(values), *values]


def _seats(values: object) -> list[Any]:
    """An optional per-seat field (``None`` or a tuple, as ``TableState.uneven`` reads it)."""
    if values is None:
        return [-1]
    if not isinstance(values, tuple):
        raise Declined(f"a per-seat field that is no tuple: {values!r}")
    return [len(values), *values]


def _count(values: object) -> int:
    """The length of a per-seat field whose length alone the engine judges."""
    if values is None or values == ():
        return 0
    if not isinstance(values, tuple):
        raise Declined(f"a per-seat field that is no tuple: {values!r}")
    return len(values)


def _shown(values: object) -> int:
    """The seats whose item of a per-seat field is not ``None``, as a bit mask (checked
    a tuple by :func:`_count` first)."""
    if values is None:
        return 0
    if not isinstance(values, tuple) or len(values) > 32:
        raise Declined(f"a per-seat field of {values!r} seats")
    return sum(1 << p for p, item in enumerate(values) if item is not None)


def _game_start(ev: GameStart) -> list[int]:
    rules = ev.ruleset
    if not isinstance(rules.family_options, RiichiOptions):
        raise Declined(f"a table of the {rules.family} family")
    if len(ev.players) not in SEATS:
        raise Declined(f"a table of {len(ev.players)} seats")
    size = rules.table
    return [K_GAME_START, len(ev.players), size.tiles, size.dead_wall,
            size.hand, int(bool(rules.red_fives)), int(rules.leftover_sticks == "lost"),
            ev.first_dealer]


def _round_start(ev: RoundStart) -> list[int]:
    if len(ev.hands) not in SEATS:
        raise Declined(f"a round dealing {len(ev.hands)} hands")
    if not ev.scores and not ev.results_only:
        raise Declined("a round start of a tile record without scores")
    words = [K_ROUND_START, ev.round_wind, ev.round_number, ev.honba,
             ev.kyotaku, ev.dealer, ev.dora_indicator,
             int(bool(ev.results_only)), *_list(ev.scores), len(ev.hands)]
    for hand in ev.hands:
        words += _list(hand)
    return words


def _call(kind: int) -> Callable[[Any], list[int]]:
    def row(ev: Chi | Pon | OpenKan) -> list[int]:
        return [kind, ev.player, ev.from_player, ev.called, *_list(ev.tiles)]
    return row


def _flower(ev: Flower) -> list[int]:
    src = ev.from_player
    return [K_FLOWER, ev.player, ev.tile,
            *([0] if src is None else [1, src])]


_NAMES: Final[dict[str, int]] = {}
"""The claim names (yaku names, limit names) met so far, by their id in a code: a Win
row writes each name as its id (:func:`claim_names` lists them in id order)."""
_MAX_NAMES: Final = 4096


def claim_id(name: object) -> int:
    """A claim name's id in a code (given the first time the name is met; -1 for a
    name that is no ``str`` or past the table's cap)."""
    if type(name) is not str:
        return -1
    found = _NAMES.get(name)
    if found is None:
        if len(_NAMES) >= _MAX_NAMES:
            return -1
        found = _NAMES[name] = len(_NAMES)
    return found


def claim_names() -> list[str]:
    """Every claim name met so far, in id order (the table a code's ids index)."""
    return list(_NAMES)


def _claims(ev: Win) -> list[Any]:
    """A win's claims: its yaku as (name id, han) pairs, fu, han, points, limit id, pao
    (-1 for nobody)."""
    pairs: list[Any] = []
    for y in ev.yaku:
        pairs += (claim_id(y.name), y.han)
    return [*_list(pairs), ev.fu, ev.han, ev.points, claim_id(ev.limit),
            -1 if ev.pao is None else ev.pao]


def _win(ev: Win) -> list[int]:
    return [K_WIN, ev.winner, ev.from_player, ev.win_tile, *_list(ev.hand),
            *_list(ev.dora_indicators), *_list(ev.ura_indicators), *_seats(ev.deltas),
            *_seats(ev.scores_before), *_claims(ev)]


def _draw_result(kind: int) -> Callable[[Any], list[int]]:
    def row(ev: ExhaustiveDraw | AbortiveDraw) -> list[int]:
        which = [_ABORT_INDEX.get(ev.kind, -1)] if isinstance(ev, AbortiveDraw) else []
        nagashi = [int(bool(ev.nagashi))] if isinstance(ev, ExhaustiveDraw) else []
        return [kind, _count(ev.hands), _shown(ev.hands), *which, *_seats(ev.deltas),
                *_seats(ev.scores_before), *nagashi]
    return row


_ABORT_INDEX: Final[dict[str, int]] = {k: i for i, k in enumerate(ABORTIVE_KINDS)}
"""An abortive draw's kind as the code writes it (its index; -1 for another)."""


def _seat(kind: int) -> Callable[[Any], list[int]]:
    def row(ev: Any) -> list[int]:
        return [kind, ev.player]
    return row


_ROWS: Final[dict[type, Callable[[Any], list[int]]]] = {
    GameStart: _game_start, RoundStart: _round_start,
    Draw: lambda ev: [K_DRAW, ev.player, ev.tile, int(bool(ev.rinshan))],
    Discard: lambda ev: [K_DISCARD, ev.player, ev.tile, int(bool(ev.riichi))],
    Chi: _call(K_CHI), Pon: _call(K_PON), OpenKan: _call(K_OPEN_KAN),
    AddedKan: lambda ev: [K_ADDED_KAN, ev.player, ev.from_player,
                          ev.called, ev.added, *_list(ev.tiles)],
    ClosedKan: lambda ev: [K_CLOSED_KAN, ev.player, *_list(ev.tiles)],
    Kita: lambda ev: [K_KITA, ev.player, ev.tile],
    Flower: _flower,
    RiichiAccepted: lambda ev: [K_RIICHI, ev.player, *_seats(ev.scores)],
    ReadyDeclared: _seat(K_READY), Chombo: _seat(K_CHOMBO),
    DoraReveal: lambda ev: [K_DORA, ev.indicator],
    Win: _win, ExhaustiveDraw: _draw_result(K_EXHAUSTIVE),
    AbortiveDraw: _draw_result(K_ABORTIVE),
    RoundEnd: lambda ev: [K_ROUND_END, *_seats(ev.scores)],
    GameEnd: lambda ev: [K_GAME_END, *_seats(ev.scores), _count(ev.points)],
    Disconnect: _seat(K_DISCONNECT), Reconnect: _seat(K_RECONNECT),
    Comment: lambda ev: [K_NOOP], Unknown: lambda ev: [K_NOOP],
}
"""Each event class's row."""


def row(ev: Event) -> bytes:
    """One event's row; :class:`Declined` for an event the code cannot hold."""
    make = _ROWS.get(ev.__class__)
    if make is None:
        raise Declined(f"no row for a {type(ev).__name__} event")
    try:
        words = make(ev)
        if _INT.issuperset(map(type, words)) and min(words) > -BOUND and max(words) < BOUND:
            return array("q", words).tobytes()
    except TypeError as exc:  # a field of another type than its class says
        raise Declined(f"a field of another type: {exc}") from None
    bad = next(v for v in words if type(v) is not int or not -BOUND < v < BOUND)
    raise Declined(f"the value {bad!r} is no integer of the code")


@cache
def _shared() -> dict[int, bytes]:
    """The rows of the shared draws and discards by the id of their event (those objects
    live as long as the process, so their ids name them)."""
    shared: tuple[Event, ...] = (*DRAWS, *DISCARDS)
    return {id(ev): row(ev) for ev in shared}


def encode(events: Sequence[Event], native: Any = None) -> Encoding:
    """A game's code (module docstring), or ``None`` and the reason it was declined (the
    event's index, its type, why). With ``native`` (``mjlog._native``), its
    ``EventCoder`` writes the rows it can and this module's :func:`row` the rest: the
    same code. Does not judge the game."""
    if native is not None:
        return _encode_native(events, native)
    shared = _shared()
    rows: list[bytes | None] = list(map(shared.get, map(id, events)))
    i = -1
    try:
        for i in compress(count(), map(is_, rows, repeat(None))):
            rows[i] = row(events[i])
    except Declined as why:
        return Encoding(None, f"event {i} ({type(events[i]).__name__}): {why}")
    return Encoding(b"".join(rows), "")  # type: ignore[arg-type]


@cache
def _coder(native: Any) -> Any:
    """``native``'s ``EventCoder`` for the row kinds of the event classes (the game start
    left to :func:`row`, which judges its ruleset) and the readers' shared draws and
    discards (their rows written once)."""
    kinds = {Draw: K_DRAW, Discard: K_DISCARD, RoundStart: K_ROUND_START, Chi: K_CHI,
             Pon: K_PON, OpenKan: K_OPEN_KAN, AddedKan: K_ADDED_KAN,
             ClosedKan: K_CLOSED_KAN, Kita: K_KITA, Flower: K_FLOWER,
             RiichiAccepted: K_RIICHI, ReadyDeclared: K_READY, DoraReveal: K_DORA,
             ExhaustiveDraw: K_EXHAUSTIVE, AbortiveDraw: K_ABORTIVE,
             Chombo: K_CHOMBO, RoundEnd: K_ROUND_END, GameEnd: K_GAME_END,
             Disconnect: K_DISCONNECT, Reconnect: K_RECONNECT, Comment: K_NOOP,
             Unknown: K_NOOP}
    return native.EventCoder(list(kinds.items()), [*DRAWS, *DISCARDS])


def _encode_native(events: Sequence[Event], native: Any) -> Encoding:
    """:func:`encode` with the native coder writing the rows it can."""
    segments, holes = _coder(native).rows(events if isinstance(events, list)
                                          else list(events))
    parts = [segments[0]]
    for k, i in enumerate(holes):
        try:
            parts.append(row(events[i]))
        except Declined as why:
            return Encoding(None, f"event {i} ({type(events[i]).__name__}): {why}")
        parts.append(segments[k + 1])
    return Encoding(b"".join(parts), "")


def findings_of(raw: Iterable[NativeFinding],
                src_of: Callable[[int], Src | None] | None) -> list[Finding]:
    """The native engine's findings as the Python engine makes them (``src_of`` maps an
    event's index to its source position, as :class:`~mjlog.replay.engine.Engine`'s)."""
    return [Finding(code=code, message=message,
                    severity=Severity.INFO if note else Severity.ERROR, round=label,
                    turn=turn, player=player, src=src_of(index) if src_of else None)
            for code, index, player, message, note, label, turn in raw]


def replay_native(native: Any, events: Sequence[Event],
                  src_of: Callable[[int], Src | None] | None = None,
                  ) -> tuple[list[Finding], int] | None:
    """A game's replay findings by the native engine ``native`` (``mjlog._native``) and
    how many past the cap were only counted, as ``Engine(src_of).run(events)`` gives them
    (no observer, no payer); ``None`` when the game is declined (:func:`encode`)."""
    code = encode(events, native).code
    if code is None:
        return None
    raw, left_out = native.replay_code(code)
    return findings_of(raw, src_of), left_out


__all__ = ["Declined", "Encoding", "claim_id", "claim_names", "encode", "findings_of",
           "replay_native", "row"]

"""Tiles: the one tile type of mjlog, its kinds and its notations.

A **tile** is a physical tile, an ``int`` from 0 to 143 (the ``Tile`` type).
Keeping the physical identity lets the replay notice a tile used twice and lets
a Tenhou record round-trip exactly. Ids 0..135 are Tenhou's 136-id numbering;
136..143 are the eight Taiwanese flowers.

A **kind** is what a player sees on the face, an ``int`` from 0 to 41:

========  ==========  ==============================================
kinds     mpsz        tiles
========  ==========  ==============================================
0..8      ``1m..9m``  characters (萬子, manzu)
9..17     ``1p..9p``  circles (筒子, pinzu)
18..26    ``1s..9s``  bamboo (索子, souzu)
27..30    ``1z..4z``  winds east, south, west, north (東南西北)
31..33    ``5z..7z``  dragons white, green, red (白發中)
34..41    ``1f..8f``  flowers 春夏秋冬 梅蘭菊竹 (Taiwanese 16-tile only)
========  ==========  ==============================================

Tile id ``t < 136`` has kind ``t // 4`` and copy ``t % 4``. Copy 0 of each
five (ids 16, 52 and 88) is the red five when the game plays with red fives;
in mpsz it is written ``0m``, ``0p``, ``0s``. Whether a game has red fives is a
property of the game (its ruleset), not of the id: with red fives off, id 16 is
an ordinary ``5m``.

This module does no I/O and knows nothing of rules.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import NewType

Tile = NewType("Tile", int)
"""A physical tile id: 0..135 (Tenhou numbering) and 136..143 (flowers)."""

Kind = int
"""A tile kind: 0..33 for the 34 riichi kinds, 34..41 for flowers."""

NUM_KINDS = 34
"""Kinds that occur in riichi mahjong."""
NUM_KINDS_ALL = 42
"""Kinds including the eight flowers."""
NUM_TILES = 136
"""Tiles of a riichi set (ids 0..135)."""
NUM_TILES_ALL = 144
"""Tiles of a Taiwanese set (ids 0..143)."""
FIRST_FLOWER = 136
"""Id of the first flower tile (春)."""

RED_FIVE_IDS: frozenset[int] = frozenset({16, 52, 88})
"""Ids that are red fives in games that use red fives."""

SUITS = "mpsz"
_FLOWER_SUIT = "f"

_KIND_NAMES: tuple[str, ...] = tuple(
    f"{n}{s}" for s in "mps" for n in range(1, 10)
) + tuple(f"{n}z" for n in range(1, 8)) + tuple(f"{n}f" for n in range(1, 9))

HONOR_NAMES: tuple[str, ...] = ("東", "南", "西", "北", "白", "發", "中")
"""Japanese names of the honours 1z..7z."""
FLOWER_NAMES: tuple[str, ...] = ("春", "夏", "秋", "冬", "梅", "蘭", "菊", "竹")
"""Names of the flowers 1f..8f."""

UNKNOWN: Tile = Tile(144)
"""A tile nobody wrote down (a partial record): some tile, which one is not known."""
UNKNOWN_KIND: Kind = 255
"""The kind of :data:`UNKNOWN`."""

KIND_OF: bytes = bytes([t >> 2 for t in range(NUM_TILES)] + list(range(34, 42)) + [UNKNOWN_KIND])
"""Precomputed kind of every tile id (index with the id), :data:`UNKNOWN` included."""


class TileError(ValueError):
    """A tile string or id that does not denote a tile."""


def kind_of(tile: int) -> Kind:
    """Return the kind (0..41) of a tile id. Does not validate the id's range."""
    return KIND_OF[tile]


def is_red(tile: int, red_fives: bool = True) -> bool:
    """Whether ``tile`` is a red five in a game with (or without) red fives."""
    return red_fives and tile in RED_FIVE_IDS


def kind_str(kind: Kind) -> str:
    """mpsz string of a kind, e.g. ``kind_str(31) == "5z"``."""
    try:
        return _KIND_NAMES[kind]
    except IndexError:
        raise TileError(f"no tile kind {kind}") from None


def tile_str(tile: int, red_fives: bool = True) -> str:
    """mpsz string of one tile: ``0m`` for a red five when the game has them, ``?`` unknown."""
    if tile == UNKNOWN:
        return "?"
    if not 0 <= tile < NUM_TILES_ALL:
        raise TileError(f"no tile id {tile}")
    if red_fives and tile in RED_FIVE_IDS:
        return "0" + SUITS[tile // 36]
    return _KIND_NAMES[KIND_OF[tile]]


def tiles_str(tiles: Iterable[int], red_fives: bool = True, sort: bool = True) -> str:
    """Compact mpsz of several tiles, e.g. ``123m055p1z``.

    Tiles are grouped by suit, sorted by kind (red five in place of a five)
    when ``sort`` is true, otherwise kept in the given order (suit letters are
    then written at each change of suit).
    """
    items = list(tiles)
    if sort:
        items.sort(key=lambda t: (KIND_OF[t], t not in RED_FIVE_IDS))
    return join_mpsz(tile_str(t, red_fives) for t in items)


def join_mpsz(names: Iterable[str]) -> str:
    """Join single-tile mpsz strings (``"1m"``, ``"2m"``, ``"?"``) in the given order,
    writing each suit letter once per run: ``"12m?"``."""
    out: list[str] = []
    suit = ""
    for s in names:
        if s == "?":  # an unknown tile stands alone
            if suit:
                out.append(suit)
                suit = ""
            out.append(s)
            continue
        if suit and s[1] != suit:
            out.append(suit)
        out.append(s[0])
        suit = s[1]
    if suit:
        out.append(suit)
    return "".join(out)


def parse_kinds(text: str) -> list[tuple[Kind, bool]]:
    """Parse compact mpsz (``"123m0p5z"``) into ``(kind, red)`` pairs in order.

    ``0`` is a red five; honours are ``1z``..``7z``; flowers ``1f``..``8f``.
    Does not assign physical ids (see :func:`assign_ids`).
    """
    out: list[tuple[Kind, bool]] = []
    digits: list[str] = []
    for pos, ch in enumerate(text):
        if ch.isascii() and ch.isdigit():
            digits.append(ch)
            continue
        if ch in " \t":
            continue
        if ch not in SUITS and ch != _FLOWER_SUIT:
            raise TileError(f"unexpected {ch!r} at column {pos + 1} in {text!r}")
        if not digits:
            raise TileError(f"suit letter {ch!r} without digits at column {pos + 1}")
        for d in digits:
            out.append(_kind_of_digit(int(d), ch, text))
        digits.clear()
    if digits:
        raise TileError(f"digits without a suit letter at the end of {text!r}")
    return out


def _kind_of_digit(n: int, suit: str, text: str) -> tuple[Kind, bool]:
    if suit == "z":
        if not 1 <= n <= 7:
            raise TileError(f"no honour {n}z in {text!r}")
        return 26 + n, False
    if suit == _FLOWER_SUIT:
        if not 1 <= n <= 8:
            raise TileError(f"no flower {n}f in {text!r}")
        return 33 + n, False
    base = SUITS.index(suit) * 9
    if n == 0:
        return base + 4, True
    return base + n - 1, False


def assign_ids(kinds: Sequence[tuple[Kind, bool]], used: set[int] | None = None) -> list[Tile]:
    """Give each ``(kind, red)`` a free physical id, marking it in ``used``.

    Red fives take copy 0; ordinary tiles take the lowest free copy, avoiding
    copy 0 of a five so that it stays free for the red one.
    Raises :class:`TileError` when a fifth copy of a kind is asked for.
    """
    taken = used if used is not None else set()
    out: list[Tile] = []
    for kind, red in kinds:
        if kind >= NUM_KINDS:
            tid = FIRST_FLOWER + kind - NUM_KINDS
            candidates: Sequence[int] = (tid,)
        elif red:
            candidates = (kind * 4,)
        elif kind * 4 in RED_FIVE_IDS:
            candidates = (kind * 4 + 1, kind * 4 + 2, kind * 4 + 3, kind * 4)
        else:
            candidates = range(kind * 4, kind * 4 + 4)
        for c in candidates:
            if c not in taken:
                taken.add(c)
                out.append(Tile(c))
                break
        else:
            raise TileError(f"no free copy of {kind_str(kind)}{' (red)' if red else ''}")
    return out


def parse_tiles(text: str, used: set[int] | None = None) -> list[Tile]:
    """Parse compact mpsz into physical tiles (see :func:`assign_ids`)."""
    return assign_ids(parse_kinds(text), used)

"""How safe a tile is against one threat: the classes of Japanese defence reading.

A **threat** is an opponent in riichi. Against it, each tile kind gets one class, the
first that applies in this order (``docs/review.md`` gives the sources and examples):

==============  ======================================================================
class           the tile kind …
==============  ======================================================================
``genbutsu``    is in the threat's river (現物), or was discarded by anyone after the
                threat's riichi declaration and not won on: the threat cannot ron it
                (furiten, riichi furiten)
``suji``        a number tile whose every two-sided (ryanmen) wait is ruled out by
                genbutsu (筋): 1 and 7 need 4, 2 and 8 need 5, 3 and 9 need 6; 4 needs
                1 and 7, 5 needs 2 and 8, 6 needs 3 and 9
``kabe``        a number tile whose every two-sided wait needs a kind of which all four
                copies are visible to the deciding player (壁, "no chance")
``one-chance``  the same with at least three copies visible of such a kind (ワンチャンス)
``honour-4``    an honour with all four copies visible (only thirteen orphans can win
                on it)
``honour-3``    an honour with three copies visible (only a single wait can)
``none``        anything else
==============  ======================================================================

The two-sided waits on a number *n* are the shapes (*n*+1, *n*+2), when *n* ≤ 6, and
(*n*-2, *n*-1), when *n* ≥ 4: 1 has only 23, 7 only 56, 4 both 23 and 56. A shape is
impossible when one of its two kinds has all four copies visible (own hand, every river,
every meld, dora indicators). The classes rule out two-sided waits only (suji, kabe),
or say how few copies are left: none of them says a tile cannot deal in, except
genbutsu. Nothing here keeps the table: callers give the safe kinds and the visible
counts.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Final

CLASSES: Final = ("genbutsu", "suji", "kabe", "one-chance", "honour-4", "honour-3", "none")
"""Every class, safest reading first (the order they are tried in)."""

_SUJI: Final = ((3,), (4,), (5,), (0, 6), (1, 7), (2, 8), (3,), (4,), (5,))
"""For each number (0: a 1 … 8: a 9), the numbers that must be genbutsu for suji."""

_SHAPES: Final = tuple(
    tuple(shape for shape in ((n + 1, n + 2), (n - 2, n - 1))
          if shape[0] >= 1 and shape[1] <= 7)
    for n in range(9))
"""For each number (0-based), its two-sided shapes as pairs of numbers (0-based): a
shape (a, a+1) waits two-sided when a ≥ 1 and a+1 ≤ 7 (12 and 89 are edge waits)."""


@lru_cache(maxsize=1 << 12)
def suji_mask(safe: int) -> int:
    """The number kinds (a 34-bit mask) that are suji given the genbutsu kinds ``safe``
    (a 34-bit mask), genbutsu or not."""
    mask = 0
    for base in (0, 9, 18):
        for n, needs in enumerate(_SUJI):
            if all(safe >> (base + m) & 1 for m in needs):
                mask |= 1 << (base + n)
    return mask


def wall_class(kind: int, visible: bytes | bytearray) -> str:
    """``kabe``, ``one-chance`` or ``none`` for a number kind by the copies visible
    (``visible``: 34 counts); ``none`` for an honour."""
    if kind >= 27:
        return "none"
    base = kind - kind % 9
    least = 4
    for a, b in _SHAPES[kind % 9]:
        seen = max(visible[base + a], visible[base + b])
        if seen < least:
            least = seen
    return "kabe" if least >= 4 else "one-chance" if least >= 3 else "none"


def safety_class(kind: int, safe: int, visible: bytes | bytearray) -> str:
    """The class (:data:`CLASSES`) of tile ``kind`` against a threat whose genbutsu kinds
    are ``safe`` (a 34-bit mask), for a player who sees ``visible`` copies of each kind."""
    if safe >> kind & 1:
        return "genbutsu"
    if kind >= 27:
        n = visible[kind]
        return "honour-4" if n >= 4 else "honour-3" if n == 3 else "none"
    if suji_mask(safe) >> kind & 1:
        return "suji"
    return wall_class(kind, visible)


def classes(kinds: list[int], safe: int, visible: bytes | bytearray) -> dict[int, str]:
    """:func:`safety_class` of each kind of ``kinds`` (a dict by kind)."""
    suji = suji_mask(safe)
    out = {}
    for k in kinds:
        if safe >> k & 1:
            out[k] = "genbutsu"
        elif k >= 27:
            n = visible[k]
            out[k] = "honour-4" if n >= 4 else "honour-3" if n == 3 else "none"
        elif suji >> k & 1:
            out[k] = "suji"
        else:
            out[k] = wall_class(k, visible)
    return out


__all__ = ["CLASSES", "classes", "safety_class", "suji_mask", "wall_class"]

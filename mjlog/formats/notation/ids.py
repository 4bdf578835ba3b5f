"""Physical tile copies in notation: the ``ids`` line, and the copy a tile named gets.

Without an ``ids`` line each tile named gets a canonical copy (the lowest free
one; a red five only when written ``0``). The writer adds an ``ids`` line when
the copies differ: one base-4 digit per tile named in the round, in reading
order, three digits to a character.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from mjlog.core.tiles import FIRST_FLOWER, NUM_KINDS, RED_FIVE_IDS

_B64: Final = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"


def copies(kind: int, red_fives: bool) -> tuple[int, ...]:
    """A kind's copies in canonical order: the red five (copy 0 of a five) last."""
    if kind >= NUM_KINDS:  # a flower: one copy
        return (FIRST_FLOWER + kind - NUM_KINDS,)
    base = kind * 4
    if red_fives and base in RED_FIVE_IDS:
        return (base + 1, base + 2, base + 3, base)
    return (base, base + 1, base + 2, base + 3)


def pack_ids(digits: Sequence[int]) -> str:
    """Copy digits (0..3), three to a character, after their count: ``"5:Ab"``."""
    out = []
    for i in range(0, len(digits), 3):
        a, b, c = [*digits[i:i + 3], 0, 0][:3]
        out.append(_B64[a * 16 + b * 4 + c])
    return f"{len(digits)}:{''.join(out)}"


def unpack_ids(text: str) -> list[int]:
    """The digits of :func:`pack_ids`; raises ``ValueError`` on bad input."""
    count_text, sep, body = text.partition(":")
    if not sep:
        raise ValueError("ids need a count, a colon and the digits")
    count = int(count_text)
    digits: list[int] = []
    for ch in body:
        v = _B64.find(ch)
        if v < 0:
            raise ValueError(f"{ch!r} is not an ids character")
        digits.extend((v // 16, v // 4 % 4, v % 4))
    if not count <= len(digits) <= count + 2:
        raise ValueError(f"ids hold {len(digits)} digits for a count of {count}")
    return digits[:count]

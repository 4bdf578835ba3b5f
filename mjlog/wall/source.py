"""What a round's wall offers, whether reproduced from a seed or dealt at a table."""

from __future__ import annotations

from typing import Protocol

from mjlog.core.tiles import Tile


class WallSource(Protocol):
    """What the checker needs of a round's wall, whichever way it was found."""

    @property
    def dice(self) -> tuple[int, ...]: ...
    @property
    def by_kind(self) -> bool:
        """Whether its tiles name kinds only (a published wall): compared by kind and red."""
    @property
    def counts(self) -> tuple[int, int, int]:
        """How many replacement tiles, dora and ura indicators the dead wall holds."""
    @property
    def live_count(self) -> int:
        """Tiles of the live wall before any kan, the dealer's first draw included."""
    def hands(self, dealer: int) -> tuple[tuple[Tile, ...], ...]: ...
    def draw(self, k: int) -> Tile: ...
    def rinshan(self, k: int) -> Tile: ...
    def dora(self, k: int) -> Tile: ...
    def ura(self, k: int) -> Tile: ...

"""The table as the replay sees it at one moment.

Mutable, and owned by :class:`mjlog.replay.engine.Engine`, which is the only
thing that changes it. Readers (the text renderer, later the checks) only
look. Rivers hold the very :class:`~mjlog.events.Discard` events of the
record (shared values), with the indices of called-away tiles beside them, so
replaying allocates almost nothing per move.
"""

from __future__ import annotations

from mjlog.events import Discard, Meld
from mjlog.tiles import UNKNOWN, Tile

DEAD_WALL = 14
"""Tiles in the riichi dead wall (rinshan tiles and indicators)."""


def _fresh_used() -> bytearray:
    used = bytearray(UNKNOWN + 1)
    used[UNKNOWN] = 1
    return used


class PlayerState:
    """One seat: concealed tiles, melds, river, riichi and kita."""

    __slots__ = ("called_away", "concealed", "flowers", "kita", "melds", "riichi_calls",
                 "riichi_index",
                 "river", "unknown")

    def __init__(self) -> None:
        self.concealed: set[int] = set()
        self.melds: list[Meld] = []
        """The call events (chi, pon, kans) in the order made; an added kan replaces its pon."""
        self.river: list[Discard] = []
        self.called_away: set[int] = set()
        """Indices into ``river`` of discards another player called."""
        self.riichi_index = -1
        """Index into ``river`` of the riichi declaration, -1 without riichi."""
        self.riichi_calls = -1
        """The table's ``calls`` when the player declared riichi, -1 without riichi."""
        self.kita: list[Tile] = []
        self.flowers: list[Tile] = []
        """Taiwanese: the flowers set aside, in order."""
        self.unknown = 0
        """Tiles in hand that the record does not name (partial records)."""

    @property
    def riichi(self) -> bool:
        """Whether the player has declared riichi this round."""
        return self.riichi_index >= 0


class TableState:
    """Everything on the table: seats, wall counts, indicators, scores, sticks and turn."""

    __slots__ = (
        "calls", "dealer", "dealing", "dora_indicators", "honba", "kans", "kyotaku", "last_discard",
        "last_discarder", "live_wall", "n", "players", "round_number", "round_wind",
        "scores", "to_discard", "to_draw", "turn", "ura_indicators", "used",
    )

    def __init__(self, n: int) -> None:
        self.n = n
        self.players = [PlayerState() for _ in range(n)]
        self.round_wind = 0
        self.round_number = 1
        self.honba = 0
        self.kyotaku = 0
        self.dealer = 0
        self.scores: list[int] = [0] * n
        self.dora_indicators: list[Tile] = []
        self.ura_indicators: list[Tile] = []
        """Ura dora indicators, once a win has shown them."""
        self.live_wall = 0
        self.kans = 0
        self.calls = 0
        """Calls this round: chi, pon and every kan, and kita (what breaks ippatsu)."""
        self.used = _fresh_used()
        """1 for every physical tile seen so far this round (dealt, drawn, indicator);
        the unknown tile's slot is always 1, so that drawing one never takes the fast path."""
        self.turn = 0
        """Moves made this round (draws, discards and calls)."""
        self.to_draw = -1
        """Seat expected to draw next, -1 when nobody is."""
        self.to_discard = -1
        """Seat expected to discard next, -1 when nobody is."""
        self.last_discard = -1
        """The last discarded tile while it may still be called, else -1."""
        self.last_discarder = -1
        self.dealing = False
        """Taiwanese: the flower procedure after the deal is still on (until the dealer's
        first discard): anyone may set flowers aside, and the dealer discards next."""

    def new_round(self) -> None:
        """Clear everything that a round start resets (not scores)."""
        self.players = [PlayerState() for _ in range(self.n)]
        self.dora_indicators = []
        self.ura_indicators = []
        self.kans = 0
        self.calls = 0
        self.used = _fresh_used()
        self.turn = 0
        self.to_draw = self.to_discard = self.last_discard = self.last_discarder = -1
        self.dealing = False

"""The facts of one win, taken from the replayed table rather than from the record.

A record states its own yaku; to check them, mjlog needs the situation as the
table shows it: who won from whom, the winner's tiles and sets, riichi and
double riichi, ippatsu, the last tile (haitei, houtei), rinshan, chankan,
tenhou and chiihou, winds, sticks, indicators and kita. :func:`situation`
reads them from a :class:`~mjlog.replay.state.TableState` positioned just
before the win and from the round's events so far.

Timing conventions (those of Tenhou, found in its records):

* ippatsu is broken by any call after the riichi declaration, a closed kan
  included, and by a kita (three-player north) of anyone, the riichi player's
  own included (in the corpus: no ippatsu in the 28 wins after another's kita
  and the 7 after one's own; ippatsu in all 385 ordinary wins without one; the
  rule was established on 1,113 further three-player games). A kan or kita
  robbed by a ron never happened: it breaks nothing, and a robbed kita scores
  no chankan (1 record outside the corpus);
* double riichi needs the declaration on the player's first discard with no
  call before it, a kita included (9 records: riichi, not double riichi, after
  a kita);
* tenhou and chiihou need a win on the player's first draw with no call
  before it.

This module states facts; it does not value the hand.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple, cast

from mjlog.core.events import (
    MOVES,
    AddedKan,
    ClosedKan,
    Draw,
    Event,
    Kita,
    Meld,
    Win,
)
from mjlog.core.tiles import Tile
from mjlog.replay.state import TableState


class WinSituation(NamedTuple):
    """Everything about one win that is not the shape of the hand.

    ``hand`` is the concealed part including ``win_tile``; ``melds`` the call
    events of the winner (an added kan replaces its pon); winds are 0..3 for
    east..north. (A named tuple: one is built for every win, and a tuple is
    built faster than a frozen dataclass.)
    """

    winner: int
    from_player: int
    players: int
    dealer: int
    seat_wind: int
    round_wind: int
    hand: tuple[Tile, ...]
    win_tile: Tile
    melds: tuple[Meld, ...]
    riichi: bool = False
    double_riichi: bool = False
    ippatsu: bool = False
    haitei: bool = False
    houtei: bool = False
    rinshan: bool = False
    chankan: bool = False
    tenhou: bool = False
    chiihou: bool = False
    honba: int = 0
    kyotaku: int = 0
    dora_indicators: tuple[Tile, ...] = ()
    ura_indicators: tuple[Tile, ...] = ()
    kita: int = 0

    @property
    def tsumo(self) -> bool:
        """Whether the win is by self-draw."""
        return self.from_player == self.winner

    @property
    def is_dealer(self) -> bool:
        """Whether the winner is the dealer."""
        return self.winner == self.dealer


def situation(state: TableState, events: Sequence[Event], round_start: int, index: int,
              win: Win) -> WinSituation:
    """The situation of ``win`` (at ``events[index]``), from the table just before it.

    ``round_start`` is the index of the round's :class:`RoundStart`. Ura
    indicators are the record's own: only a win shows them.
    """
    w = win.winner
    ps = state.players[w]
    tsumo = win.from_player == w
    if ps.unknown:  # a partial record: only the record names the whole hand
        hand = win.hand
    else:
        hand = cast(tuple[Tile, ...], tuple(sorted(ps.concealed)) if tsumo
                    else tuple(sorted([*ps.concealed, win.win_tile])))
    last_at = _last_move(events, round_start, index)
    last = events[last_at] if last_at >= 0 else None
    rinshan = tsumo and isinstance(last, Draw) and last.rinshan
    chankan = not tsumo and isinstance(last, AddedKan | ClosedKan)
    robbed = chankan or (not tsumo and isinstance(last, Kita))
    calls = state.calls - (1 if robbed else 0)  # a robbed kan or kita never happened
    riichi = ps.riichi
    double = riichi and ps.riichi_index == 0 and ps.riichi_calls == 0
    ippatsu = riichi and len(ps.river) == ps.riichi_index + 1 and calls == ps.riichi_calls
    last_tile = state.live_wall == 0
    first_draw = not ps.river and calls == 0
    n = state.n
    return WinSituation(
        winner=w, from_player=win.from_player, players=n, dealer=state.dealer,
        seat_wind=(w - state.dealer) % n, round_wind=state.round_wind, hand=hand,
        win_tile=win.win_tile, melds=tuple(ps.melds), riichi=riichi and not double,
        double_riichi=double, ippatsu=ippatsu,
        haitei=tsumo and last_tile and not rinshan, houtei=not tsumo and last_tile and not chankan,
        rinshan=rinshan, chankan=chankan,
        tenhou=tsumo and first_draw and w == state.dealer,
        chiihou=tsumo and first_draw and w != state.dealer,
        honba=state.honba, kyotaku=state.kyotaku, dora_indicators=tuple(state.dora_indicators),
        ura_indicators=win.ura_indicators, kita=len(ps.kita),
    )


def _last_move(events: Sequence[Event], start: int, index: int) -> int:
    for i in range(index - 1, start - 1, -1):
        if isinstance(events[i], MOVES):
            return i
    return -1

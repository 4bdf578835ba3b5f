"""Payments: who pays whom at a win or a draw, and what the next round starts with.

Pure arithmetic on values already computed; no table state. Conventions are
those of :class:`~mjlog.core.ruleset.Ruleset` (``honba_ron``, ``noten_pool`` …),
with Tenhou's as defaults, each found in Tenhou's own records:

* a ron pays the hand's value plus 100 per honba for each other seat (300
  in four-player, 200 in three-player games), from the discarder alone;
* a tsumo pays each player their share plus 100 per honba; in three-player
  games nobody pays the absent seat's share (ツモ損);
* in a multiple ron the honba and the riichi sticks go to one winner only,
  the first in turn order after the discarder (頭ハネ);
* pao (責任払い, liability for 大三元 and 大四喜): on a tsumo the liable
  player pays everything, honba included; on a ron the liable player and the
  discarder each pay half the value, and the liable player pays the honba;
* an exhaustive draw without nagashi mangan moves the noten pool (3000 in
  four-player, 2000 in three-player games) from the noten players to the
  tenpai ones, split evenly; nagashi mangan is paid like a mangan tsumo
  without honba, and no noten payments are made;
* an abortive draw pays nothing.
"""

from __future__ import annotations

from collections.abc import Container, Sequence
from typing import TYPE_CHECKING

from mjlog.families.riichi.scoring.fast import up100

if TYPE_CHECKING:  # only named in annotations: no scoring library needed to use the rest
    from mjlog.core.ruleset import RiichiOptions
    from mjlog.families.riichi.scoring.riichi import Valuation
    from mjlog.families.riichi.scoring.situation import WinSituation


def win_deltas(val: Valuation, sit: WinSituation, *, sticks: int, honba: bool = True,
               pao: int | None = None, pao_value: Valuation | None = None) -> list[int]:
    """Each seat's score change for one win.

    ``sticks`` is the riichi sticks this winner collects and ``honba``
    whether it collects the honba (both go to one winner of a multiple ron);
    ``pao``, the liable seat, with ``pao_value`` the part of the hand it is
    liable for (the whole hand when ``None``).
    """
    return split_deltas(
        sit.players, sit.winner, None if sit.tsumo else sit.from_player, sit.dealer,
        val.main, val.additional, honba=sit.honba if honba else 0, sticks=sticks, pao=pao,
        whole=_ron_value(pao_value or val, sit))


def points_deltas(points: int, *, players: int, winner: int, payer: int | None, dealer: int,
                  honba: int, sticks: int, pao: int | None = None) -> list[int]:
    """Each seat's score change for a win stated by its points alone (what a record
    claims): a ron's payment, or a tsumo's total, split as :func:`split_deltas` pays it."""
    n = players
    if payer is not None:
        main = additional = points
    elif winner == dealer:
        main = additional = points // (n - 1)
    else:
        additional = up100(-(-points // (4 if n == 4 else 3)))
        main = points - additional * (n - 2)
    return split_deltas(n, winner, payer, dealer, main, additional, honba=honba,
                        sticks=sticks, pao=pao, whole=points)


def split_deltas(players: int, winner: int, payer: int | None, dealer: int, main: int,
                 additional: int, *, honba: int, sticks: int, pao: int | None = None,
                 whole: int = 0) -> list[int]:
    """Each seat's score change: a ron pays ``main`` from ``payer``; a tsumo (``payer``
    ``None``) ``main`` from the dealer (from everyone when the dealer wins) and
    ``additional`` from the others; 100 per honba from each payer (all on the
    discarder for a ron); the sticks to the winner. With a liable seat ``pao``, the
    hand worth ``whole`` as a ron: on a tsumo pao pays it all, on a ron half and the
    honba."""
    n = players
    deltas = [0] * n
    w = winner
    if pao is not None and pao != w:
        if payer is None:
            deltas[pao] -= whole + 100 * honba * (n - 1)
        else:  # the liable player pays half and all of the honba
            deltas[pao] -= whole // 2 + 100 * (n - 1) * honba
            deltas[payer] -= whole - whole // 2
    elif payer is not None:
        deltas[payer] -= main + 100 * (n - 1) * honba
    else:
        for p in range(n):
            if p != w:
                deltas[p] -= (main if dealer in (p, w) else additional) + 100 * honba
    deltas[w] -= sum(deltas)
    deltas[w] += 1000 * sticks
    return deltas


def _ron_value(val: Valuation, sit: WinSituation) -> int:
    """What the hand is worth as a ron (for a liable player's share)."""
    if not sit.tsumo:
        return val.main
    if sit.is_dealer:
        return val.main * 3
    return val.main + 2 * val.additional


def worked_back(change: int, *, sticks: int, honba: int = 0, players: int = 4) -> int:
    """What the other seats paid a winner whose score changed by ``change``, worked back
    from it: the change less the ``sticks`` riichi sticks it collected (1000 each) and,
    with ``honba``, less 100 per honba from each of the other ``players - 1`` seats (what
    :func:`split_deltas` adds), which leaves the hand's value: a ron's payment or a
    tsumo's total. For a record that states a win's score changes but not its value (or
    the sum of a multiple ron's changes alone). It does not check that the value is one
    a hand can have."""
    return change - 1000 * sticks - 100 * (players - 1) * honba


def written_deltas(before: Sequence[int], after: Sequence[int], riichi: Container[int]
                   ) -> tuple[int, ...]:
    """A result's payments worked back from the scores written before and after it (a
    score sheet's): each seat's change, the stick of each riichi declarer in ``riichi``
    (1000, paid into the pot before the result) apart. Raises ``ValueError`` when the two
    do not have as many scores; checks nothing else."""
    return tuple(a - (b - 1000 * (p in riichi))
                 for p, (b, a) in enumerate(zip(before, after, strict=True)))


def noten_deltas(tenpai: Sequence[bool], pool: int) -> list[int]:
    """Noten payments at an exhaustive draw: the pool moves from noten to tenpai seats."""
    n = len(tenpai)
    k = sum(tenpai)
    if k == 0 or k == n:
        return [0] * n
    return [pool // k if t else -pool // (n - k) for t in tenpai]


def draw_deltas(tenpai: Sequence[bool], rules: RiichiOptions) -> list[int]:
    """The noten payments of an exhaustive draw under ``rules`` (``noten_per_ready``):
    the usual pool (3000, or 2000 with three players), or so much to each ready player."""
    per_ready = rules.noten_per_ready
    pool = per_ready * sum(tenpai) if per_ready else 3000 if len(tenpai) == 4 else 2000
    return noten_deltas(tenpai, pool)


def nagashi_deltas(winners: Sequence[int], dealer: int, players: int) -> list[int]:
    """Nagashi mangan payments: each winner is paid a mangan tsumo (no honba)."""
    deltas = [0] * players
    for w in winners:
        for p in range(players):
            if p == w:
                continue
            pay = 4000 if (p == dealer or w == dealer) else 2000
            deltas[p] -= pay
            deltas[w] += pay
    return deltas


def next_round(round_wind: int, round_number: int, honba: int, dealer: int, players: int,
               *, dealer_keeps: bool, honba_up: bool) -> tuple[int, int, int, int]:
    """``(round_wind, round_number, honba, dealer)`` of the round that follows.

    ``dealer_keeps``: the dealer won or was tenpai at a draw, or the round
    was aborted (renchan); ``honba_up``: the dealer kept the seat or the round
    was drawn.
    """
    new_honba = honba + 1 if honba_up else 0
    if dealer_keeps:
        return round_wind, round_number, new_honba, dealer
    number = round_number + 1
    wind = round_wind
    if number > players:
        number = 1
        wind += 1
    return wind, number, new_honba, (dealer + 1) % players

"""Payments of a Chinese Official (MCR, 国标麻将) hand: a win, and a false win (错和).

A win by discard: the discarder pays the base (8) plus the fan, each other loser pays the base.
A self-drawn win: every loser pays the base plus the fan. A false win: the offender pays a
penalty to each other player (:data:`FALSE_WIN_PENALTY`, 10 each). ``docs/mcr.md`` cites the
rulebook sections. The result is one score change per seat, summing to zero.

What this module does not do: judge whether a win reaches the 8-fan minimum (a win below it is a
false win, for the caller to decide), count fans (:mod:`mjlog.families.mcr.fan`), or apply the other
penalties of the rules (delays, wrong claims), which are the referee's and vary by table.
"""

from __future__ import annotations

__all__ = ["BASE", "FALSE_WIN_PENALTY", "false_win_payments", "win_payments"]

BASE = 8
"""What every loser pays on top of the fan (底分 8; 2006 rules, 第二章 计分)."""

FALSE_WIN_PENALTY = 10
"""What a false win (错和) costs the offender per other player, who play on (2006 rules, 第二章
错和; the EMA rules, section on false Mahjong, give the same 10 to each of the three)."""


def _check_seats(players: int, *seats: int | None) -> None:
    """Raise ``ValueError`` unless every given seat is one of ``0 .. players-1``."""
    if players < 2:
        raise ValueError(f"{players} players: a payment needs at least two")
    for seat in seats:
        if seat is not None and not 0 <= seat < players:
            raise ValueError(f"seat {seat} is not one of 0-{players - 1}")


def win_payments(
    fan: int, winner: int, discarder: int | None, players: int = 4, base: int = BASE
) -> tuple[int, ...]:
    """Score changes per seat for a win of ``fan`` (flowers included): ``discarder`` None for a
    self-drawn win (each loser pays ``base + fan``), else the discarder pays ``base + fan`` and
    the others ``base``. Raises ``ValueError`` for a seat outside the table, a discarder who is the
    winner, or a negative fan. Does not check the 8-fan minimum."""
    _check_seats(players, winner, discarder)
    if discarder == winner:
        raise ValueError(f"seat {winner} cannot win on its own discard")
    if fan < 0 or base < 0:
        raise ValueError(f"fan {fan} and base {base} cannot be negative")
    changes = [0] * players
    for seat in range(players):
        if seat == winner:
            continue
        owed = base + fan if discarder is None or seat == discarder else base
        changes[seat] -= owed
        changes[winner] += owed
    return tuple(changes)


def false_win_payments(
    offender: int, players: int = 4, penalty: int = FALSE_WIN_PENALTY
) -> tuple[int, ...]:
    """Score changes per seat for a false win (错和): the offender pays ``penalty`` to each other
    player. Raises ``ValueError`` for a seat outside the table or a negative penalty."""
    _check_seats(players, offender)
    if penalty < 0:
        raise ValueError(f"penalty {penalty} cannot be negative")
    return tuple(
        -penalty * (players - 1) if seat == offender else penalty for seat in range(players)
    )

"""Payments of Chinese Official (MCR) wins and false wins, with the worked numbers of public
sources:

* "A Guide to Mahjong (Chinese / Official International Rules)", mahjonged.com (a copy is in
  ailab-pku/Chinese-Standard-Mahjong, ``mahjong-rules/A GUIDE TO MAHJONG Rules.pdf``), the
  section on payments (pp. 37-38): a 12-fan win (10 + 2 flowers) by discard takes 8 + 8 + 8 and
  12 more from the discarder, 36; self-drawn it takes 20 from each, 60; a false win costs 30,
  10 to each player.
* Tom Sloper, "Chinese Official Tournament Rules", column 289 (sloperama.com, 22 October 2006,
  scoring exercises at the 4th China Majiang Championship): every hand won by discard, "25+8=33
  from discarder", "95+8=103 from discarder"; a 6-fan hand is a false win: "You pay 10 points to
  each player".
"""

from __future__ import annotations

import pytest

from mjlog.families.mcr.payments import BASE, FALSE_WIN_PENALTY, false_win_payments, win_payments


def test_guide_discard_example() -> None:
    """Guide p. 38: 12 fan by discard; seat 2 discards to seat 0."""
    assert win_payments(12, winner=0, discarder=2) == (36, -8, -20, -8)


def test_guide_self_drawn_example() -> None:
    """Guide p. 38: 12 fan self-drawn, 20 from each of the three."""
    assert win_payments(12, winner=1, discarder=None) == (-20, 60, -20, -20)


@pytest.mark.parametrize(("fan", "from_discarder"), [(25, 33), (95, 103), (17, 25), (9, 17)])
def test_sloper_column_289(fan: int, from_discarder: int) -> None:
    """Sloper #289, exercises 1, 2, 9 and 5: the discarder pays fan + 8, the others 8."""
    changes = win_payments(fan, winner=3, discarder=0)
    assert changes == (-from_discarder, -8, -8, from_discarder + 16)


def test_false_win_costs_ten_to_each_player() -> None:
    """Guide p. 38 and Sloper #289, exercise 6: 30 in all, 10 to each of the three."""
    assert FALSE_WIN_PENALTY == 10 and BASE == 8
    assert false_win_payments(2) == (10, 10, -30, 10)


def test_false_win_penalty_is_a_parameter() -> None:
    assert false_win_payments(0, penalty=5) == (-15, 5, 5, 5)
    assert false_win_payments(1, players=3, penalty=10) == (10, -20, 10)


@pytest.mark.parametrize(("fan", "discarder"), [(8, 1), (8, None), (88, 3), (140, None)])
def test_payments_sum_to_zero(fan: int, discarder: int | None) -> None:
    assert sum(win_payments(fan, winner=0, discarder=discarder)) == 0


def test_base_is_a_parameter() -> None:
    assert win_payments(8, winner=0, discarder=1, base=0) == (8, -8, 0, 0)


@pytest.mark.parametrize(
    ("fan", "winner", "discarder", "message"),
    [
        (8, 0, 0, "own discard"),
        (8, 4, None, "seat 4"),
        (8, 0, -1, "seat -1"),
        (-1, 0, None, "negative"),
    ],
)
def test_bad_payments_are_errors(
    fan: int, winner: int, discarder: int | None, message: str
) -> None:
    with pytest.raises(ValueError, match=message):
        win_payments(fan, winner, discarder)


def test_bad_false_win_is_an_error() -> None:
    with pytest.raises(ValueError, match="seat 5"):
        false_win_payments(5)
    with pytest.raises(ValueError, match="negative"):
        false_win_payments(0, penalty=-10)

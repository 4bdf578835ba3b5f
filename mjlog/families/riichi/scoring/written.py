"""Payments of a results-only record (a score sheet): what a written result pays.

A score sheet states each win's value (han and fu, a limit, or points) instead of
its tiles. This module turns that statement into the win's value under a ruleset and
each seat's score change, with the very functions tile records are paid by:
:func:`mjlog.families.riichi.scoring.fast.hand_value` (kiriage, kazoe, the limits) and
:func:`mjlog.families.riichi.scoring.payments.split_deltas` /
:func:`~mjlog.families.riichi.scoring.payments.points_deltas`
(who pays whom, honba, sticks, pao) and :func:`~mjlog.families.riichi.scoring.payments.draw_deltas`
(noten payments). It holds no payment table of its own.

It does not judge whether the stated value is right for some hand: without tiles
nothing can say so. The engine pays a written result by it (:func:`payer`) where the
sheet writes no payments; score verification compares a sheet's written payments with
it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

from mjlog.core.events import ExhaustiveDraw, Win
from mjlog.core.ruleset import Ruleset
from mjlog.families.riichi.scoring.fast import hand_value, up100
from mjlog.families.riichi.scoring.payments import draw_deltas, points_deltas, split_deltas
from mjlog.replay.state import TableState


class WrittenValue(NamedTuple):
    """A written win's value: ``main`` a ron's payment, or on a tsumo what the dealer
    pays (each player pays, when the dealer won); ``additional`` what each non-dealer
    pays on a non-dealer's tsumo; ``points`` the total; ``limit`` its limit name."""

    main: int
    additional: int
    points: int
    limit: str


_YAKUMAN_BASE = 8000


def written_value(win: Win, *, dealer: int, players: int, ruleset: Ruleset) -> WrittenValue | None:
    """The value of ``win`` as written: from its han and fu (a limit named ``yakuman``
    is a yakuman whatever the han), else from its points alone; ``None`` when it states
    neither. Honba and sticks are not in it."""
    if win.limit == "yakuman" and not win.han:
        base, limit = _YAKUMAN_BASE, "yakuman"
    elif win.han > 0:
        base, limit = hand_value(win.han, win.fu, ruleset)
    else:
        return None if win.points <= 0 else WrittenValue(win.points, 0, win.points, win.limit)
    tsumo = win.from_player == win.winner
    if not tsumo:
        main = up100(base * (6 if win.winner == dealer else 4))
        return WrittenValue(main, 0, main, limit)
    if win.winner == dealer:
        main = up100(base * 2)
        return WrittenValue(main, main, main * (players - 1), limit)
    main, additional = up100(base * 2), up100(base)
    return WrittenValue(main, additional, main + additional * (players - 2), limit)


def written_win_deltas(win: Win, *, dealer: int, players: int, honba: int, sticks: int,
                       ruleset: Ruleset) -> list[int] | None:
    """Each seat's score change for a written win: its value (:func:`written_value`),
    ``honba`` (0 for a second winner of a multiple ron) and the ``sticks`` it collects;
    ``None`` when the win states no value."""
    val = written_value(win, dealer=dealer, players=players, ruleset=ruleset)
    if val is None:
        return None
    payer = None if win.from_player == win.winner else win.from_player
    pao = win.pao if win.pao is not None and win.pao != win.winner else None
    if win.han <= 0 and win.limit != "yakuman":  # points alone: split as a record claims
        return points_deltas(val.points, players=players, winner=win.winner, payer=payer,
                             dealer=dealer, honba=honba, sticks=sticks, pao=pao)
    return split_deltas(players, win.winner, payer, dealer, val.main, val.additional,
                        honba=honba, sticks=sticks, pao=pao,
                        whole=val.main if payer is not None
                        else val.main * 3 if win.winner == dealer
                        else val.main + 2 * val.additional)


def ready_of(draw: ExhaustiveDraw, players: int) -> list[bool]:
    """Who was ready at a written exhaustive draw: a seat whose hand is shown (an empty
    tuple on a score sheet), not one whose hand is ``None``."""
    return [p < len(draw.hands) and draw.hands[p] is not None for p in range(players)]


def written_draw_deltas(draw: ExhaustiveDraw, *, players: int, ruleset: Ruleset) -> list[int]:
    """The noten payments of a written exhaustive draw under ``ruleset``."""
    return draw_deltas(ready_of(draw, players), ruleset.riichi)


def payer(ruleset: Ruleset) -> Callable[[Win | ExhaustiveDraw, TableState, bool],
                                        tuple[int, ...] | None]:
    """What the replay engine pays a score sheet's unwritten results by
    (:attr:`mjlog.replay.engine.Engine.payer`): a win by its written value under
    ``ruleset``, the honba and sticks to the round's first winner; a draw by its noten
    payments."""
    def pay(ev: Win | ExhaustiveDraw, table: TableState, first: bool) -> tuple[int, ...] | None:
        if isinstance(ev, ExhaustiveDraw):
            return tuple(written_draw_deltas(ev, players=table.n, ruleset=ruleset))
        deltas = written_win_deltas(ev, dealer=table.dealer, players=table.n,
                                    honba=table.honba if first else 0,
                                    sticks=table.kyotaku if first else 0, ruleset=ruleset)
        return None if deltas is None else tuple(deltas)
    return pay

"""Score sheets: results-only records, one line per hand, as canonical events.

A score sheet says who won each hand, from whom, for how much, who declared riichi and
who was ready at a draw, and perhaps the scores after the hand; it shows no tile. The
readers of its formats (:mod:`.pantheon`, Pantheon's textlog; :mod:`.csvsheet`, a club's
spreadsheet) parse their lines into :class:`Hand` values and hand them to
:func:`build`, which writes the game as events (:mod:`mjlog.core.events`): a game start,
then per hand a :class:`~mjlog.core.events.RoundStart` flagged ``results_only`` (no tiles,
one empty hand per seat), its :class:`~mjlog.core.events.RiichiAccepted` deposits, its
results (:class:`~mjlog.core.events.Win` with the written han, fu, points and yaku;
:class:`~mjlog.core.events.ExhaustiveDraw` with an empty hand shown for each ready seat;
:class:`~mjlog.core.events.AbortiveDraw`; :class:`~mjlog.core.events.Chombo`) and a
:class:`~mjlog.core.events.RoundEnd` with the written scores; and a game end.

Where a sheet does not write a hand's label, the round, honba and dealer follow from
the hand before by :func:`mjlog.families.riichi.scoring.payments.next_round`, as the replay expects
them. Where it writes the scores before and after a hand with one result, that
result's payments are the difference (less the riichi deposits): the sheet's claim,
which score verification compares with what the written value pays. Nothing here
computes a payment. Each event keeps its line and column.
"""

from __future__ import annotations

from array import array
from dataclasses import dataclass, field

from mjlog.core.diagnostics import Diagnostic, InputError, Severity, Src
from mjlog.core.events import (
    AbortiveDraw,
    Chombo,
    Event,
    ExhaustiveDraw,
    GameEnd,
    GameStart,
    PlayerInfo,
    RiichiAccepted,
    RoundEnd,
    RoundStart,
    Win,
    YakuClaim,
)
from mjlog.core.record import GameRecord
from mjlog.core.ruleset import Ruleset
from mjlog.core.tiles import UNKNOWN
from mjlog.families.riichi.scoring.payments import next_round, written_deltas

Place = tuple[int, int]
"""A line and column, both from 1."""

LIMIT_HAN = {"mangan": 5, "haneman": 6, "baiman": 8, "sanbaiman": 11}
"""The han a limit written instead of han stands for (yakuman is its own limit)."""


class SheetError(ValueError):
    """A line of a sheet that cannot be read, at ``place``."""

    def __init__(self, message: str, place: Place) -> None:
        super().__init__(message)
        self.place = place


@dataclass(slots=True, kw_only=True)
class WrittenWin:
    """One win as a sheet writes it; ``from_player`` is the winner for a tsumo."""

    winner: int
    from_player: int
    han: int = 0
    fu: int = 0
    points: int = 0
    yakuman: bool = False
    yaku: tuple[YakuClaim, ...] = ()
    pao: int | None = None
    place: Place = (0, 0)


@dataclass(slots=True, kw_only=True)
class Hand:
    """One line of a sheet: a hand's label (``None``: follows from the hand before), its
    result (``ron``, ``tsumo``, ``draw``, ``abort`` or ``chombo``), the wins, the riichi
    declarations, who was ready at a draw, the chombo's offender and the scores after."""

    place: Place
    result: str
    label: tuple[int, int, int | None] | None = None
    label_place: Place = (0, 0)
    wins: list[WrittenWin] = field(default_factory=list)
    riichi: list[int] = field(default_factory=list)
    riichi_place: Place = (0, 0)
    ready: list[int] = field(default_factory=list)
    offender: int = -1
    scores: list[int] | None = None
    scores_place: Place = (0, 0)


@dataclass(slots=True, kw_only=True)
class Sheet:
    """A whole game as read from a sheet, ready for :func:`build`."""

    source: str
    players: list[str]
    ruleset: Ruleset
    hands: list[Hand]
    final: list[int] | None = None
    final_place: Place = (0, 0)
    start: list[int] | None = None
    place: Place = (1, 1)
    meta: tuple[tuple[str, str], ...] = ()


class _Out:
    """Events with their places, as a record keeps them."""

    def __init__(self) -> None:
        self.events: list[Event] = []
        self.lines = array("i")
        self.columns = array("i")

    def add(self, ev: Event, place: Place) -> None:
        self.events.append(ev)
        self.lines.append(place[0])
        self.columns.append(place[1])


class _Table:
    """What the sheet says of the table between hands: round, honba, dealer, sticks and
    the last written scores (``None`` once a hand writes none)."""

    def __init__(self, n: int, start: list[int]) -> None:
        self.n = n
        self.wind, self.number, self.honba, self.dealer = 0, 1, 0, 0
        self.sticks = 0
        self.scores: list[int] | None = list(start)

    def follow(self, hand: Hand) -> None:
        """Move to the hand after ``hand`` as its result says (no payment is computed)."""
        keeps, up = True, True
        if hand.result in ("ron", "tsumo"):
            keeps = up = any(w.winner == self.dealer for w in hand.wins)
            self.sticks = 0
        elif hand.result == "draw":
            keeps = self.dealer in hand.ready
        elif hand.result == "chombo":
            return
        self.wind, self.number, self.honba, self.dealer = next_round(
            self.wind, self.number, self.honba, self.dealer, self.n,
            dealer_keeps=keeps, honba_up=up)


def build(sheet: Sheet, path: str, fmt: str, diagnostics: list[Diagnostic]) -> GameRecord:
    """The game of ``sheet`` as a record of events with their places."""
    n = len(sheet.players)
    start = sheet.start or [sheet.ruleset.starting_score] * n
    out = _Out()
    out.add(GameStart(source=fmt, players=tuple(PlayerInfo(name=p) for p in sheet.players),
                      ruleset=sheet.ruleset, meta=sheet.meta), sheet.place)
    table = _Table(n, start)
    for k, hand in enumerate(sheet.hands):
        _hand(out, table, hand, start if k == 0 else None)
    if sheet.hands:
        out.add(GameEnd(scores=tuple(sheet.final) if sheet.final else None),
                sheet.final_place if sheet.final else sheet.hands[-1].place)
    return GameRecord(path=path, format=fmt, events=out.events, diagnostics=diagnostics,
                      positions=out.lines, lines=None, position_kind="text",
                      columns=out.columns)


def _hand(out: _Out, table: _Table, hand: Hand, start: list[int] | None) -> None:
    """One hand's events; moves ``table`` on to the next hand."""
    n = table.n
    if hand.label is not None:
        wind, number, honba = hand.label
        table.wind, table.number = wind, number
        table.honba = table.honba if honba is None else honba
        table.dealer = (number - 1) % n
    out.add(RoundStart(round_wind=table.wind, round_number=table.number, honba=table.honba,
                       kyotaku=table.sticks, dealer=table.dealer,
                       scores=tuple(start) if start else (), dora_indicator=UNKNOWN,
                       hands=((),) * n, results_only=True),
            hand.label_place if hand.label is not None else hand.place)
    for p in hand.riichi:
        out.add(RiichiAccepted(player=p), hand.riichi_place)
    table.sticks += len(hand.riichi)
    deltas = _written_deltas(table, hand)
    for k, ev in enumerate(_results(table, hand, deltas)):
        out.add(ev, hand.wins[k].place if isinstance(ev, Win) else hand.place)
    out.add(RoundEnd(scores=tuple(hand.scores) if hand.scores else None),
            hand.scores_place if hand.scores else hand.place)
    table.scores = list(hand.scores) if hand.scores else None
    table.follow(hand)


def _written_deltas(table: _Table, hand: Hand) -> tuple[int, ...]:
    """The payments a hand's written scores claim: after less before, the riichi deposits
    apart; ``()`` where the sheet does not write both, or the hand has two wins."""
    before, after = table.scores, hand.scores
    if before is None or after is None or len(hand.wins) > 1 or hand.result == "chombo":
        return ()
    return written_deltas(before[:table.n], after, hand.riichi)


def _results(table: _Table, hand: Hand, deltas: tuple[int, ...]) -> list[Event]:
    """The result events of one hand (a multiple ron in turn order after the discarder)."""
    n = table.n
    if hand.result == "draw":
        ready = set(hand.ready)
        return [ExhaustiveDraw(hands=tuple(() if p in ready else None for p in range(n)),
                               deltas=deltas, honba=table.honba, kyotaku=table.sticks)]
    if hand.result == "abort":
        return [AbortiveDraw(kind="unstated", deltas=deltas, honba=table.honba,
                             kyotaku=table.sticks)]
    if hand.result == "chombo":
        return [Chombo(player=hand.offender)]
    wins = sorted(hand.wins, key=lambda w: (w.winner - w.from_player) % n)
    hand.wins[:] = wins
    return [Win(winner=w.winner, from_player=w.from_player, hand=(), win_tile=UNKNOWN,
                yaku=w.yaku, fu=w.fu, han=w.han, points=w.points,
                limit="yakuman" if w.yakuman else "", deltas=deltas if k == 0 else (),
                honba=table.honba if k == 0 else 0, kyotaku=table.sticks if k == 0 else 0,
                pao=w.pao)
            for k, w in enumerate(wins)]


def fail(error: SheetError, strict: bool, diagnostics: list[Diagnostic]) -> None:
    """Report a line that cannot be read: raise in strict mode, else keep a diagnostic
    (the line is left out)."""
    line, column = error.place
    diag = Diagnostic(code="sheet-syntax", severity=Severity.ERROR, message=str(error),
                      src=Src(line=line, column=column))
    if strict:
        raise InputError(diag)
    diagnostics.append(diag)


def limit_han(word: str) -> tuple[int, bool] | None:
    """(han, yakuman) for a limit written instead of han (``mangan`` … ``yakuman``), or
    ``None`` for any other word."""
    w = word.lower()
    if w == "yakuman":
        return 0, True
    return (LIMIT_HAN[w], False) if w in LIMIT_HAN else None

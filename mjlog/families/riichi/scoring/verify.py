"""Score verification: recompute every win, draw and payment of a record and compare.

:class:`Verifier` observes a replay (:mod:`mjlog.replay.observer`) and looks
at the table just before each result. There it takes the situation from the
table (:mod:`mjlog.families.riichi.scoring.situation`), values the hand
(:mod:`mjlog.families.riichi.scoring.riichi`), works out the payments
(:mod:`mjlog.families.riichi.scoring.payments`) and compares each field with the record. At
the next round start it compares the dealer, round and honba with what the
result implies. Every difference is a :class:`~mjlog.core.diagnostics.ScoreMismatch`.

Its mismatch codes (``win-yaku``, ``win-fu``, ``draw-deltas``, ``next-round`` …)
are listed with their meaning in :mod:`mjlog.core.catalogue`.

Each hand is valued by :func:`mjlog.families.riichi.scoring.riichi.value` (mjlog's fast path
for ordinary hands, the ``mahjong`` library for the rest); when the fast
path's value differs from the record, the library values the hand again and
its answer is the one compared and reported.

It checks values only: whether a win was allowed (furiten, yaku timing
rules of a ruleset) is the business of rule checks.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field

from mjlog.core.diagnostics import ScoreMismatch
from mjlog.core.events import (
    MOVES,
    PAO_UNNAMED,
    AbortiveDraw,
    AddedKan,
    Chombo,
    Draw,
    Event,
    ExhaustiveDraw,
    GameEnd,
    GameStart,
    OpenKan,
    Pon,
    RoundStart,
    Win,
    round_label,
)
from mjlog.core.record import GameRecord
from mjlog.core.ruleset import Ruleset
from mjlog.core.tiles import KIND_OF, UNKNOWN, tiles_str
from mjlog.families.riichi.hand.shape import waits
from mjlog.families.riichi.scoring.payments import (
    draw_deltas,
    nagashi_deltas,
    next_round,
    win_deltas,
)
from mjlog.families.riichi.scoring.riichi import Valuation, value
from mjlog.families.riichi.scoring.situation import WinSituation, situation
from mjlog.families.riichi.scoring.written import payer, ready_of, written_value, written_win_deltas
from mjlog.replay.engine import Engine
from mjlog.replay.observer import Observer
from mjlog.replay.state import TableState

_DRAGONS = frozenset({31, 32, 33})
_WINDS = frozenset({27, 28, 29, 30})
_TERMINALS_HONOURS = frozenset({0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33})


@dataclass(slots=True)
class ScoreReport:
    """What score verification found in one game, with its counts."""

    mismatches: list[ScoreMismatch] = field(default_factory=list)
    wins: int = 0
    wins_verified: int = 0
    draws: int = 0
    draws_verified: int = 0


class WinValues:
    """Each win's situation and value under a ruleset, computed once per game and shared
    by the observers that need them (score verification, the ``no-yaku-win`` check). The
    situation leaves out ippatsu and ura dora where the ruleset has none."""

    def __init__(self, ruleset: Ruleset) -> None:
        self.ruleset = ruleset
        self._memo: dict[int, tuple[WinSituation, Valuation]] = {}

    def at(self, state: TableState, events: Sequence[Event], round_start: int, index: int,
           win: Win) -> tuple[WinSituation, Valuation]:
        """The situation and value of ``win``, the event at ``index``, on ``state`` (the
        table just before it)."""
        found = self._memo.get(index)
        if found is None:
            rules = self.ruleset.riichi
            sit = situation(state, events, round_start, index, win)
            if not rules.ippatsu and sit.ippatsu:
                sit = sit._replace(ippatsu=False)
            if not rules.ura_dora and sit.ura_indicators:
                sit = sit._replace(ura_indicators=())
            found = self._memo[index] = (sit, value(sit, self.ruleset))
        return found


class Verifier(Observer):
    """One game's verification, an observer of its replay: the ruleset, the report and
    what is expected next.

    :func:`verify` replays a record with it alone; the audit runs it beside the
    rule checks in one replay. It looks at round starts, results and the game's
    start and end, each on the table just before it.
    """

    name = "scores"

    def __init__(self, record: GameRecord, ruleset: Ruleset | None, engine: Engine, *,
                 yaku_judged: bool = False, values: WinValues | None = None) -> None:
        self.yaku_judged = yaku_judged
        """The rule checks judge a win without a yaku (``no-yaku-win``): no mismatch for it."""
        self.values = values or WinValues(ruleset or Ruleset())
        """Each win's situation and value, shared with the rule checks."""
        self.record = record
        self.events = record.events
        self.engine = engine
        self.ruleset = ruleset
        self.report = ScoreReport()
        self.round_start = -1
        self.expected: tuple[int, int, int, int] | None = None
        self.dealer_keeps = False
        self.any_win = False
        self.sticks_to = -1
        self.last_abortive = False
        self.pao_named = True
        """Whether the record's wins can name the seat liable for them (pao): where they
        cannot, one naming nobody claims nothing, and its payments alone are checked."""
        self.results_only = False
        """Whether the round is a score sheet's: its results are judged by their written
        value (:mod:`mjlog.families.riichi.scoring.written`), never by tiles."""
        if ruleset is not None:  # the engine pays a sheet's unwritten results by it too
            engine.payer = payer(ruleset)

    @property
    def index(self) -> int:
        """The index of the event being verified."""
        return self.engine.index

    def before_game_start(self, ev: GameStart) -> None:
        self.pao_named = ev.source not in PAO_UNNAMED
        if self.ruleset is None:  # the record's own ruleset, known only now
            self.ruleset = ev.ruleset
            self.values = WinValues(ev.ruleset)
            self.engine.payer = payer(ev.ruleset)

    def before_game_end(self, ev: GameEnd) -> None:
        s = self.engine.state
        if self.last_abortive and min(s.scores, default=0) >= 0:
            self.mismatch("game-end", "game end", "ended", "round played again",
                          message="the game ends after an abortive draw, which replays the round")

    def mismatch(self, code: str, fld: str, recorded: bool | int | str | None,
                 computed: bool | int | str | None, *, player: int | None = None,
                 message: str = "") -> None:
        s = self.engine.state
        self.report.mismatches.append(ScoreMismatch(
            code=code, field=fld, recorded=recorded, computed=computed, message=message,
            round=round_label(s.round_wind, s.round_number, s.honba) if self.engine.rounds else "",
            turn=s.turn, player=player, src=self.record.src(self.index),
        ))

    # -- rounds

    def before_round_start(self, ev: RoundStart) -> None:
        exp = self.expected
        if exp is not None:
            got = (ev.round_wind, ev.round_number, ev.honba, ev.dealer)
            for name, r, c in zip(("round wind", "round number", "honba", "dealer"), got, exp,
                                  strict=True):
                if r != c:
                    self.mismatch("next-round", name, r, c)
        self.expected = None
        self.round_start = self.index
        self.results_only = ev.results_only
        self.any_win = False
        self.sticks_to = -1

    def _expect_next(self, *, dealer_keeps: bool, honba_up: bool) -> None:
        s = self.engine.state
        self.expected = next_round(s.round_wind, s.round_number, s.honba, s.dealer, s.n,
                                   dealer_keeps=dealer_keeps, honba_up=honba_up)

    # -- wins

    def before_win(self, ev: Win) -> None:
        self.last_abortive = False
        rep = self.report
        rep.wins += 1
        assert self.ruleset is not None
        s = self.engine.state
        if not self.any_win:
            self.any_win = True
            self.dealer_keeps = False
            self.sticks_to = self._sticks_receiver(ev)
        if self.results_only:
            self._written_win(ev, self.ruleset)
            return
        sit, val = self.values.at(s, self.events, self.round_start, self.index, ev)
        first = ev.winner == self.sticks_to
        if val.by != "library" and not self._confirmed(ev, val, sit, first):
            val = value(sit, self.ruleset, reference=True)  # the reference has the last word
        before = len(rep.mismatches)
        false_win = val.error == "no_yaku" and self.yaku_judged
        unwritten = ("tiles of the hand" if val.error == "hand_not_known" and UNKNOWN in sit.hand
                     else "a dora indicator" if val.error == "indicator_not_known" else "")
        if false_win:
            rep.wins -= 1  # judged by the rules (no-yaku-win): no value to verify
        elif unwritten:
            rep.wins -= 1  # nobody wrote it down: nothing to verify the value by
            self.engine.note("unjudged", f"the value of player {ev.winner}'s win not verified: "
                             f"{unwritten} nobody wrote down", ev.winner)
        elif val.error:
            self.mismatch("win-unscorable", "hand", ev.points, None, player=ev.winner,
                          message=f"the scoring library says {val.error}")
        else:
            if ev.yaku or ev.han or ev.points:  # mjai's Mortal dialect claims no value
                self._compare_value(ev, val, sit.kita)
            if ev.dora_indicators and list(ev.dora_indicators) != s.dora_indicators:
                self.mismatch("win-indicators", "dora indicators",
                              tiles_str(ev.dora_indicators, sort=False),
                              tiles_str(s.dora_indicators, sort=False), player=ev.winner)
            pao = liable_seat(sit, self.events, self.round_start, self.index, self.ruleset)
            if ev.pao != pao and (self.pao_named or ev.pao is not None):
                self.mismatch("win-pao", "pao", ev.pao, pao, player=ev.winner)
            if ev.deltas:
                self._compare_deltas("win-deltas", ev.deltas, win_deltas(
                    val, sit, sticks=s.kyotaku if first else 0, honba=first, pao=pao))
        if len(rep.mismatches) == before and not (false_win or unwritten):
            rep.wins_verified += 1
        self.dealer_keeps = self.dealer_keeps or ev.winner == s.dealer
        self._expect_next(dealer_keeps=self.dealer_keeps, honba_up=self.dealer_keeps)

    def _written_win(self, ev: Win, ruleset: Ruleset) -> None:
        """A score sheet's win: its written points and payments against what its stated
        value (han and fu, a limit) comes to under ``ruleset``. No tiles: nothing else."""
        rep = self.report
        s = self.engine.state
        w = ev.winner
        first = w == self.sticks_to
        before = len(rep.mismatches)
        val = written_value(ev, dealer=s.dealer, players=s.n, ruleset=ruleset)
        if val is None:
            self.mismatch("win-unscorable", "value", ev.points, None, player=w,
                          message="the sheet states neither han nor points for this win")
        else:
            if ev.points and ev.han > 0 and ev.points != val.points:
                self.mismatch("win-points", "points", ev.points, val.points, player=w)
            if ev.deltas:
                computed = written_win_deltas(ev, dealer=s.dealer, players=s.n,
                                              honba=s.honba if first else 0,
                                              sticks=s.kyotaku if first else 0, ruleset=ruleset)
                self._compare_deltas("win-deltas", ev.deltas, computed or [])
        if len(rep.mismatches) == before:
            rep.wins_verified += 1
        self.dealer_keeps = self.dealer_keeps or w == s.dealer
        self._expect_next(dealer_keeps=self.dealer_keeps, honba_up=self.dealer_keeps)

    def before_chombo(self, ev: Chombo) -> None:
        """A score sheet's chombo: the hand is played again, by the same dealer with the
        same honba (its cost is the settlement's)."""
        self.last_abortive = False
        s = self.engine.state
        self.expected = (s.round_wind, s.round_number, s.honba, s.dealer)

    def _confirmed(self, ev: Win, val: Valuation, sit: WinSituation, first: bool) -> bool:
        """Whether the record confirms a valuation of mjlog's own, so that the reference is
        not asked: it claims the same value (yaku, fu, han, points) or, claiming none (mjai's
        Mortal dialect), the same payments."""
        if ev.yaku or ev.han or ev.points:
            return _agrees(ev, val, sit.kita)
        if val.error or not ev.deltas:
            return False
        assert self.ruleset is not None
        pao = liable_seat(sit, self.events, self.round_start, self.index, self.ruleset)
        sticks = self.engine.state.kyotaku if first else 0
        return list(ev.deltas) == list(win_deltas(val, sit, sticks=sticks, honba=first, pao=pao))

    def _sticks_receiver(self, first: Win) -> int:
        """The winner who takes the riichi sticks: first in turn order after the discarder."""
        events = self.events
        winners = []
        i = self.index
        while i < len(events) and isinstance(ev := events[i], Win):  # no copy of the rest
            winners.append(ev.winner)
            i += 1
        n = self.engine.state.n
        return min(winners, key=lambda w: (w - first.from_player) % n or n)

    def _compare_value(self, ev: Win, val: Valuation, kita: int) -> None:
        w = ev.winner
        recorded = {y.name: y.han for y in ev.yaku if y.han}
        # a han with no yaku named (akochan's mjai: han and fu only) does not say them
        computed = as_recorded(val, recorded, kita) if ev.yaku or not ev.han else {}
        for name in sorted(recorded.keys() | computed.keys()):
            if recorded.get(name) != computed.get(name):
                self.mismatch("win-yaku", f"yaku.{name}", recorded.get(name),
                              computed.get(name), player=w)
        if ev.fu not in (0, val.fu):  # a fu of 0: the record does not say
            self.mismatch("win-fu", "fu", ev.fu, val.fu, player=w)
        if ev.han != val.han:
            self.mismatch("win-han", "han", ev.han, val.han, player=w)
        if ev.points not in (0, val.points):  # points of 0: the record does not say
            self.mismatch("win-points", "points", ev.points, val.points, player=w)
        if ev.limit != val.limit:
            self.mismatch("win-limit", "limit", ev.limit, val.limit, player=w)

    def _compare_deltas(self, code: str, recorded: tuple[int, ...], computed: list[int]) -> None:
        for p, (r, c) in enumerate(zip(recorded, computed, strict=False)):
            if r != c:
                self.mismatch(code, f"deltas[{p}]", r, c, player=p)

    # -- draws

    def before_exhaustive_draw(self, ev: ExhaustiveDraw | AbortiveDraw) -> None:
        self.last_abortive = isinstance(ev, AbortiveDraw)
        rep = self.report
        rep.draws += 1
        before = len(rep.mismatches)
        s = self.engine.state
        if isinstance(ev, AbortiveDraw):
            if ev.deltas and any(ev.deltas):
                self._compare_deltas("draw-deltas", ev.deltas, [0] * s.n)
            self._expect_next(dealer_keeps=True, honba_up=True)
        else:
            tenpai = [self._tenpai(p) for p in range(s.n)] if not self.results_only \
                else ready_of(ev, s.n)  # a score sheet says who was ready: nothing to judge
            for p, hand in enumerate(ev.hands[: s.n] if not self.results_only else ()):
                if s.players[p].unknown:  # not all of the hand is known: trust the record
                    tenpai[p] = hand is not None
                elif (hand is not None) != tenpai[p]:
                    self.mismatch("draw-tenpai", f"tenpai[{p}]", hand is not None, tenpai[p],
                                  player=p)
            rules = (self.ruleset or Ruleset()).riichi
            nagashi = [p for p in range(s.n) if rules.nagashi and self._nagashi(p)]
            if ev.nagashi != bool(nagashi):
                self.mismatch("draw-nagashi", "nagashi", ev.nagashi, bool(nagashi))
            if ev.deltas:
                expected = (nagashi_deltas(nagashi, s.dealer, s.n) if nagashi
                            else draw_deltas(tenpai, rules))
                self._compare_deltas("draw-deltas", ev.deltas, expected)
            self._expect_next(dealer_keeps=tenpai[s.dealer], honba_up=True)
        if len(rep.mismatches) == before:
            rep.draws_verified += 1

    before_abortive_draw = before_exhaustive_draw

    def _tenpai(self, p: int) -> bool:
        ps = self.engine.state.players[p]
        counts = [0] * 34
        for t in ps.concealed:
            counts[KIND_OF[t]] += 1
        return waits(counts, len(ps.melds)) != 0

    def _nagashi(self, p: int) -> bool:
        ps = self.engine.state.players[p]
        return (bool(ps.river) and not ps.called_away
                and all(KIND_OF[d.tile] in _TERMINALS_HONOURS for d in ps.river))


def _agrees(ev: Win, val: Valuation, kita: int) -> bool:
    """Whether a valuation says what the record says (yaku, fu, han, points, limit).

    A fu of 0 means the record does not say (tenhou.net/6 and mjai write no fu
    for limit hands) and agrees with any; so do points of 0 and, beside a han, no yaku
    named (akochan's mjai states han and fu only).
    """
    if (ev.han, ev.limit) != (val.han, val.limit) or ev.points not in (0, val.points) \
            or ev.fu not in (0, val.fu):
        return False
    recorded = {y.name: y.han for y in ev.yaku if y.han}
    return (not ev.yaku and ev.han > 0) or recorded == as_recorded(val, recorded, kita)


def as_recorded(val: Valuation, recorded: dict[str, int], kita: int) -> dict[str, int]:
    """A valuation's yaku with their han, as the record counts them.

    Tenhou counts each kita (three-player north set aside) among the dora;
    Mahjong Soul lists one han per kita apart, as 抜きドラ (``kita-dora``). Where
    the record does, the computed dora give up those han to it.
    """
    computed = {y.name: y.han for y in val.yaku if y.han}
    if kita and "kita-dora" in recorded and computed.get("dora", 0) >= kita:
        computed["dora"] -= kita
        if not computed["dora"]:
            del computed["dora"]
        computed["kita-dora"] = kita
    return computed


def liable(sit: WinSituation) -> int | None:
    """The liable seat (pao): who fed the last set of a 大三元 or 大四喜, ``None`` if nobody.

    Only a hand with all three dragon (four wind) sets called or kanned can
    make someone liable, and only when the last of them was called from that
    player.
    """
    for group, size in ((_DRAGONS, 3), (_WINDS, 4)):
        sets = [m for m in sit.melds if KIND_OF[m.tiles[0]] in group]
        if len(sets) == size:
            last = sets[-1]
            if isinstance(last, Pon | OpenKan | AddedKan) and last.from_player != sit.winner:
                return last.from_player
    return None


def liable_seat(sit: WinSituation, events: Sequence[Event], round_start: int, index: int,
                ruleset: Ruleset) -> int | None:
    """The seat that pays the whole win at ``events[index]``, ``None`` if nobody.

    That is the :func:`liable` feeder of 大三元 or 大四喜, or, where the ruleset
    has K8 (``open_kan_pao``), the player whose discard was kanned by an open
    kan right before a win on its replacement tile.
    """
    pao = liable(sit)
    if pao is None and ruleset.riichi.open_kan_pao and sit.rinshan:
        for i in range(index - 1, round_start, -1):
            ev = events[i]
            if isinstance(ev, OpenKan):
                return ev.from_player
            if isinstance(ev, MOVES) and not isinstance(ev, Draw):
                break  # the replacement tile came after another kan or a kita
    return pao


class _Situations(Observer):
    """Collects the situation of every win, on the table just before it."""

    def __init__(self, record: GameRecord, engine: Engine) -> None:
        self.events = record.events
        self.engine = engine
        self.round_start = -1
        self.found: list[tuple[int, WinSituation]] = []

    def before_round_start(self, ev: RoundStart) -> None:
        self.round_start = self.engine.index

    def before_win(self, ev: Win) -> None:
        i = self.engine.index
        self.found.append((i, situation(self.engine.state, self.events, self.round_start, i,
                                        ev)))


def win_situations(record: GameRecord) -> Iterator[tuple[int, WinSituation, Ruleset]]:
    """The index and situation of every win of ``record``, taken from its replay, with
    the ruleset the record suggests.

    Only the facts: nothing is valued or compared. A record without a game
    start gives nothing.
    """
    ev = record.events
    if not ev or not isinstance(start_ev := ev[0], GameStart):
        return
    engine = Engine(record.src)
    collect = _Situations(record, engine)
    engine.run(ev, [collect])
    for i, sit in collect.found:
        yield i, sit, start_ev.ruleset


def verify(record: GameRecord, ruleset: Ruleset | None = None) -> tuple[Engine, ScoreReport]:
    """Replay ``record`` and verify its scores under ``ruleset`` (default: the record's own).

    Returns the engine (its findings and final state, as :func:`mjlog.replay.engine.replay`
    gives them) and the score report.
    """
    engine = Engine(record.src)
    v = Verifier(record, ruleset, engine)
    engine.run(record.events, [v])
    return engine, v.report

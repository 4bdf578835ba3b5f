"""The observer that computes the facts of every decision while the engine replays a game.

:class:`DecisionFacts` watches discards, calls, kans, dora indicators and wins. At each
discard it takes the discarder's hand (3n + 2 tiles) and the tiles that player can see,
and records a :class:`~mjlog.families.riichi.decisions.model.DiscardDecision`; then, for each other
seat
whose hand allows a pon, chi or open kan of the tile, a
:class:`~mjlog.families.riichi.decisions.model.CallDecision`, settled by what follows (a call, a
draw, a
ron). What a player **can see** is counted as the table shows it: the own hand, every
river (a called tile once, in its meld), every meld, kita, and the dora indicators; red
fives count as fives.

It only reads the table (:class:`~mjlog.replay.state.TableState`) and judges nothing:
an inconsistent record gets whatever its table holds, and a hand of the wrong size or
with unknown tiles gets its facts marked not computed.
"""

from __future__ import annotations

from operator import sub
from typing import Final

from mjlog.core.events import (
    AddedKan,
    Chi,
    ClosedKan,
    Discard,
    DoraReveal,
    Kita,
    OpenKan,
    Pon,
    RoundStart,
    Win,
    round_label,
)
from mjlog.core.ruleset import Ruleset
from mjlog.core.tiles import KIND_OF, UNKNOWN
from mjlog.families.registry import family_of
from mjlog.families.riichi.decisions.efficiency import CHI_SHAPES, facts_route, route
from mjlog.families.riichi.decisions.model import (
    CallDecision,
    DealIn,
    Decision,
    DiscardDecision,
    note,
)
from mjlog.families.riichi.decisions.safety import classes, safety_class
from mjlog.replay.engine import Engine
from mjlog.replay.observer import Observer
from mjlog.replay.state import PlayerState

KINDS: Final = 34
HIDDEN_HAND: Final = "the hand holds tiles nobody wrote down (?)"
HIDDEN_TABLE: Final = "a tile on the table is unknown (?), so unseen copies are not counted"


def _counts(ps: PlayerState) -> bytearray | None:
    """Kind counts of a known hand of riichi kinds; ``None`` for one holding a flower."""
    counts = bytearray(KINDS)
    try:
        for t in ps.concealed:
            counts[KIND_OF[t]] += 1
    except IndexError:  # a flower (kinds 34 on)
        return None
    return counts


def _visible(unseen: bytes) -> bytes:
    """The copies of each kind a player sees: those not unseen (all four of a kind the
    table does not hold)."""
    return bytes(4 - u for u in unseen)


class DecisionFacts(Observer):
    """Computes every decision's facts during a replay (module docstring); read them from
    :attr:`decisions` after the run."""

    name = "decisions"

    def __init__(self, engine: Engine, ruleset: Ruleset) -> None:
        self.engine = engine
        self.sets = ruleset.table.hand // 3
        """Sets of a complete hand: 4 for a hand of 13 (riichi), 5 for 16 (Taiwanese)."""
        self.kuikae: str = getattr(ruleset.family_options, "kuikae", "allowed")
        """The family's swap-calling rule (``allowed`` where it has none)."""
        self._dora = family_of(ruleset).has_dora
        """Whether the table shows dora indicators (a Taiwanese table deals none)."""
        self.decisions: list[Decision] = []
        self._options, self._ukeire = route()
        self._facts, self._callable, self._offer_ukeire = facts_route()
        self._round = ""
        self._here = (1 << KINDS) - 1
        self._rest = bytearray(KINDS)
        """4 minus the public copies of each kind (0 for kinds the table lacks)."""
        self._hidden = 0
        """Public tiles of unknown kind (a ``?`` discard or indicator)."""
        self._riichi: list[int] = []
        """The seats in riichi (threats), in the order they declared."""
        self._safe: list[int] = []
        """Each seat's genbutsu kinds as a threat (mask): its river and, once in riichi,
        every later discard."""
        self._offers: list[CallDecision] = []
        self._waiting: dict[int, CallDecision] = {}
        self._called: dict[int, Chi | Pon] = {}
        self._last: tuple[DiscardDecision, bytes | None, tuple[int, ...]] | None = None
        """The last discard decision, the copies its player could not see (``None``: not
        known) and each seat's genbutsu then."""
        self._called_now: Chi | Pon | None = None
        """The call the discard being judged follows (for kuikae)."""
        self._discard_at = -1
        """The index of the last discard event (the event of its call decisions)."""

    # -- the table's public tiles

    def _show(self, tile: int) -> None:
        k = KIND_OF[tile]
        if k >= KINDS:
            self._hidden += tile == UNKNOWN
        elif self._rest[k]:
            self._rest[k] -= 1

    def after_round_start(self, ev: RoundStart) -> None:
        s = self.engine.state
        here = s.here
        self._here = sum(1 << k for k in range(KINDS) if here[4 * k])
        self._rest = bytearray(4 if self._here >> k & 1 else 0 for k in range(KINDS))
        self._hidden = 0
        self._safe = [0] * s.n
        self._riichi = []
        self._offers, self._waiting, self._called, self._last = [], {}, {}, None
        self._round = round_label(ev.round_wind, ev.round_number, ev.honba)
        if self._dora:
            self._show(ev.dora_indicator)

    def after_dora_reveal(self, ev: DoraReveal) -> None:
        self._show(ev.indicator)

    def before_closed_kan(self, ev: ClosedKan) -> None:
        self._last, self._offers = None, []
        for t in ev.tiles:
            self._show(t)

    def before_kita(self, ev: Kita) -> None:
        self._last, self._offers = None, []
        self._show(ev.tile)

    def before_added_kan(self, ev: AddedKan) -> None:
        self._last, self._offers = None, []  # a win now robs the kan: no discard dealt in
        self._show(ev.added)
        self._passed(KIND_OF[ev.added], ev.player)

    def _passed(self, kind: int, p: int) -> None:
        """A tile of ``kind`` let go by the table: genbutsu for ``p`` and every player in
        riichi."""
        if kind >= KINDS:
            return
        bit = 1 << kind
        safe = self._safe
        safe[p] |= bit
        for q in self._riichi:
            safe[q] |= bit

    # -- discards

    def before_discard(self, ev: Discard) -> None:
        self._offers = []
        self._discard_at = self.engine.index
        self._called_now = self._called.pop(ev.player, None)
        decision, visible = self._discard(ev)
        self.decisions.append(decision)
        self._last = (decision, visible, tuple(self._safe))
        waiting = self._waiting.pop(ev.player, None)
        if waiting is not None:
            waiting.after = self._best_of(decision)
        self._show(ev.tile)
        self._passed(KIND_OF[ev.tile], ev.player)
        if ev.riichi and ev.player not in self._riichi:
            self._riichi.append(ev.player)
        if self.engine.state.live_wall > 0:
            self._offer(ev)

    def _discard(self, ev: Discard) -> tuple[DiscardDecision, bytes | None]:
        """The decision of ``ev`` and the copies of each kind its player cannot see
        (``None`` when the hand is not known): counted in one call of the core's
        ``discard_facts``, or by :meth:`_explained` for a hand it does not count."""
        p = ev.player
        ps = self.engine.state.players[p]
        d = DiscardDecision(event=self.engine.index, round=self._round, seat=p,
                            tile=KIND_OF[ev.tile], riichi=ev.riichi,
                            tsumogiri=ev.tsumogiri, forced=ps.riichi)
        if ps.unknown:
            return self._explained(d, ps)
        mask = 0
        call = self._called_now
        if call is not None and self.kuikae != "allowed":
            d.forbidden = frozenset(_kuikae(call, self.kuikae))
            mask = sum(1 << k for k in d.forbidden if k < KINDS)
        got = self._facts(ps.concealed, len(ps.melds), self.sets, self._here, self._rest,
                          mask, d.tile)
        if got is None:
            return self._explained(d, ps)
        d.raw, best, loss, unseen = got
        if self._hidden:
            d.counted = False
            note(d, "counts", HIDDEN_TABLE)
        else:
            d.best = best
            if not d.forced and loss is None:
                note(d, "loss", "the tile thrown is not in the hand")
            elif not d.forced:
                d.loss = loss
        if self._riichi:
            self._threats(d, unseen)
        return d, unseen

    def _explained(self, d: DiscardDecision, ps: PlayerState
                   ) -> tuple[DiscardDecision, bytes | None]:
        """:meth:`_discard` for a hand ``discard_facts`` does not count: the reason in
        ``not_computed``, and what can still be counted (the options of a hand whose
        table shows more copies than four)."""
        counts = None if ps.unknown else _counts(ps)
        if counts is None:
            d.threats = None
            note(d, "options", HIDDEN_HAND if ps.unknown else "the hand holds a flower")
            return d, None
        melds = len(ps.melds)
        if sum(counts) != 3 * (self.sets - melds) + 2:
            d.threats = None
            note(d, "options", f"the hand holds {sum(counts)} tiles with {melds} calls, "
                 "not a hand that discards")
            return d, None
        try:
            unseen = bytes(map(sub, self._rest, counts))
        except ValueError:  # more copies than four seen: the record reuses a tile
            note(d, "counts", "more than four copies of a kind are on the table")
            unseen = bytes(KINDS)
            d.counted = False
        d.raw = self._options(bytes(counts), melds, self.sets, self._here, unseen)
        if self._hidden:
            d.counted = False
            note(d, "counts", HIDDEN_TABLE)
        self._judge(d)
        self._threats(d, unseen)
        return d, unseen

    def _judge(self, d: DiscardDecision) -> None:
        """The best options and the loss of the one taken (none when forced or when
        copies are not counted). The options come most accepting first."""
        call = self._called_now
        if call is not None and self.kuikae != "allowed":
            d.forbidden = frozenset(_kuikae(call, self.kuikae))
        raw = d.raw
        if not d.counted or raw is None:
            return
        allowed = ([o for o in raw if o[0] not in d.forbidden] or raw) if d.forbidden else raw
        top = allowed[0]
        sh, n = top[1], top[3]
        d.best = [o[0] for o in allowed if o[1] == sh and o[3] == n]
        if d.forced:
            return
        tile = d.tile
        for o in raw:
            if o[0] == tile:
                d.loss = (o[1] - sh, n - o[3])
                return
        note(d, "loss", "the tile thrown is not in the hand")

    def _threats(self, d: DiscardDecision, unseen: bytes) -> None:
        """Each kind held (an option of ``d``), classed against each opponent in riichi
        (the copies its player sees are those not ``unseen``)."""
        if not self._riichi:
            return
        threats = [q for q in self._riichi if q != d.seat]
        if not threats:
            return
        if self._hidden:
            d.threats = None
            note(d, "threats", HIDDEN_TABLE)
            return
        kinds = sorted(o[0] for o in d.raw or ())
        visible = _visible(unseen)
        d.threats = {q: classes(kinds, self._safe[q], visible) for q in threats}

    def _best_of(self, d: DiscardDecision) -> tuple[int, int, int, int | None] | None:
        """The best option of a decision as a call's ``after`` (``None`` if not known)."""
        if d.raw is None:
            return None
        allowed = [o for o in d.raw if o[0] not in d.forbidden] or d.raw
        o = allowed[0]  # most accepting first
        return o[0], o[1], o[2], o[3] if d.counted else None

    # -- call offers

    def _offer(self, ev: Discard) -> None:
        """A call decision for each other seat whose hand could call ``ev``'s tile (not
        in riichi, its hand known)."""
        s = self.engine.state
        k = KIND_OF[ev.tile]
        if k >= KINDS:
            return
        n, p = s.n, ev.player
        players = s.players
        hands = [None if q == p or ps.riichi or ps.unknown else ps.concealed
                 for q, ps in enumerate(players)]
        for q, pon, kan, chi in self._callable(hands, k, (p + 1) % n if n == 4 else -1):
            calls: list[tuple[str, tuple[int, ...]]] = []
            if pon:
                calls.append(("pon", (k, k)))
            if kan:
                calls.append(("open_kan", (k, k, k)))
            for bit, (a, b) in enumerate(CHI_SHAPES):
                if chi >> bit & 1:
                    calls.append(("chi", (k + a, k + b)))
            c = CallDecision(event=self.engine.index, round=self._round, seat=q, tile=k,
                             from_seat=p, calls=calls)
            c.before = self._before(players[q], c)
            self._offers.append(c)
            self.decisions.append(c)

    def _before(self, ps: PlayerState, c: CallDecision) -> tuple[int, int, int | None] | None:
        """The :data:`~mjlog.families.riichi.decisions.model.Ukeire` of a hand offered a call."""
        got = self._offer_ukeire(ps.concealed, len(ps.melds), self.sets, self._here,
                                 self._rest)
        if isinstance(got, int):
            note(c, "before", "the hand is not one tile short of complete" if got == 1
                 else "more than four copies of a kind are on the table")
            return None
        sh, mask, count = got
        if self._hidden:
            note(c, "count", HIDDEN_TABLE)
            return sh, mask, None
        return sh, mask, count

    def _called_tile(self, ev: Chi | Pon | OpenKan) -> None:
        """A call: its offer taken (others called over), its tiles from hand shown."""
        for t in ev.tiles:
            if t != ev.called:
                self._show(t)
        own = tuple(sorted(KIND_OF[t] for t in ev.tiles if t != ev.called))
        taken = (ev.TYPE, own)
        mine = next((c for c in self._offers if c.seat == ev.player), None)
        if mine is None:  # a hand not known, or a call the hand did not allow
            mine = CallDecision(event=self._discard_at, round=self._round,
                                seat=ev.player, tile=KIND_OF[ev.called],
                                from_seat=ev.from_player, calls=[taken])
            note(mine, "before", HIDDEN_HAND)
            self.decisions.append(mine)
        for c in self._offers:
            c.outcome = "other-call"
        mine.taken, mine.outcome = taken, "taken"
        self._offers = []
        self._waiting[ev.player] = mine
        if not isinstance(ev, OpenKan):
            self._called[ev.player] = ev

    before_chi = before_pon = before_open_kan = _called_tile

    # -- wins

    def before_win(self, ev: Win) -> None:
        offers = self._offers
        if offers and ev.from_player != ev.winner and offers[0].from_seat == ev.from_player:
            kept = set(map(id, self._offers))
            self.decisions[:] = [d for d in self.decisions if id(d) not in kept]
            self._offers = []
        last = self._last
        if last is None or ev.from_player == ev.winner or last[0].seat != ev.from_player:
            return
        d, unseen, safe = last
        riichi = self.engine.state.players[ev.winner].riichi
        cls = None if unseen is None or self._hidden or d.tile >= KINDS else safety_class(
            d.tile, safe[ev.winner], _visible(unseen))
        taken = d.taken()
        if d.deal_in is None:
            d.deal_in = DealIn(winners=[], shanten=taken.shanten if taken else None,
                               classes={}, riichi={})
        d.deal_in.winners.append(ev.winner)
        d.deal_in.classes[ev.winner] = cls
        d.deal_in.riichi[ev.winner] = riichi


def _kuikae(call: Chi | Pon, rule: str) -> set[int]:
    """The kinds kuikae forbids right after ``call`` (as the rule check judges it)."""
    called = KIND_OF[call.called]
    out = {called}
    if isinstance(call, Chi) and rule == "both":
        low = min(KIND_OF[t] for t in call.tiles)
        if called == low and low % 9 <= 5:
            out.add(low + 3)
        elif called == low + 2 and low % 9 >= 1:
            out.add(low - 1)
    return out


__all__ = ["DecisionFacts"]

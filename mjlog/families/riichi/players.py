"""Legal random play: whole riichi games played by random players under a ruleset.

:func:`random_game` deals real shuffled walls and lets four (or three)
random players play a game to its end. It exists to test the checks: a
generated game must replay, verify and audit with nothing to report under
the ruleset it was played under, and a generated game with one illegal move
injected must not. The same seed always gives the same game.

The players are random but not aimless: they mostly throw the tile that
keeps their hand closest to winning, call now and then, declare riichi,
kans (kita in three-player games) and abortive draws when they may, and
take most wins offered. Every decision is made from the table as the
:class:`~mjlog.replay.engine.Engine` holds it and from the generator's own
memory of furiten, never from the rule checks, so that the two are
independent. Where a rule is in doubt the players stay on the safe side:

* they treat any passed winning tile (a discard, an added kan, a kita) as
  furiten, yaku or not, and never ron a closed kan or a kita;
* a riichi player always takes a tsumo it may take, so never passes one;
* a kan after riichi keeps both the waits and the shape, whatever the
  ruleset allows; nobody makes a fifth kan, or a kan on the last tile;
* under kanzen sakizuke (``sakizuke``) nobody calls, and only a riichi hand
  wins, which satisfies S1 and S2 under every variant switch.

Values and payments come from :mod:`mjlog.families.riichi.scoring` (the same code that
verifies them). Riichi family only: Taiwanese 16-tile games are played by
:mod:`mjlog.families.taiwan16.play`; :func:`mjlog.families.registry.random_game` picks the family's
players.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from mjlog.core.events import (
    AbortiveDraw,
    AddedKan,
    Chi,
    ClosedKan,
    Discard,
    DoraReveal,
    Draw,
    Event,
    ExhaustiveDraw,
    GameEnd,
    GameStart,
    Kita,
    OpenKan,
    PlayerInfo,
    Pon,
    RiichiAccepted,
    RoundEnd,
    RoundStart,
    Win,
)
from mjlog.core.record import GameRecord
from mjlog.core.ruleset import Ruleset
from mjlog.core.tiles import KIND_OF, Tile
from mjlog.families.riichi.hand.shape import (
    TERMINALS_AND_HONOURS,
    counts_of,
    is_complete,
    is_isolated,
    least_shanten,
    shanten,
    waits,
)
from mjlog.families.riichi.scoring.fast import readings
from mjlog.families.riichi.scoring.payments import (
    draw_deltas,
    nagashi_deltas,
    next_round,
    win_deltas,
)
from mjlog.families.riichi.scoring.riichi import Valuation, value
from mjlog.families.riichi.scoring.situation import WinSituation, situation
from mjlog.families.riichi.scoring.verify import liable_seat
from mjlog.replay.engine import Engine, final_scores
from mjlog.replay.state import DEAD_WALL, PlayerState

SOURCE = "mjlog-random"
"""``GameStart.source`` of generated games."""

_ORPHANS = frozenset(TERMINALS_AND_HONOURS)
_WINDS = frozenset({27, 28, 29, 30})
_NORTH = 30
_LAST_WIND = {"one-round": 0, "east": 0, "south": 1, "full": 3}
"""The last round wind a game of each length plays."""
Outcome = tuple[bool, bool]
"""How a round ended: (the dealer keeps the seat, the honba goes up)."""
_MAX_ROUNDS = 40
"""A game stops after this many rounds even if the dealer keeps winning."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Style:
    """How often the random players take each option they may take (0 to 1)."""

    win: float = 0.9
    riichi: float = 0.7
    kan: float = 0.6
    """A closed or added kan; an open kan at half this rate."""
    pon: float = 0.25
    chi: float = 0.15
    kita: float = 0.8
    nine_terminals: float = 0.5
    best: float = 0.85
    """A discard that keeps the hand closest to winning (else any discard)."""


class _Memory:
    """What the generator remembers of one player in a round: furiten and the draw."""

    __slots__ = ("drawn", "passed", "riichi_passed", "river_kinds", "waits")

    def __init__(self) -> None:
        self.river_kinds = 0
        self.waits = 0
        """Winning kinds of the hand after the player's last discard (or the deal)."""
        self.passed = False
        self.riichi_passed = False
        self.drawn = -1


def _counts(tiles: set[int] | list[int], extra: int = -1) -> list[int]:
    c = counts_of([KIND_OF[t] for t in tiles])
    if extra >= 0:
        c[KIND_OF[extra]] += 1
    return c


class RandomGame:
    """One generated game: the table, the players' memory and the events so far."""

    def __init__(self, ruleset: Ruleset, seed: int, style: Style = Style()) -> None:
        ruleset.riichi  # noqa: B018 (raises TypeError for a ruleset of another family)
        self.rules = ruleset
        self.style = style
        self.seed = seed
        self.rng = random.Random(seed)
        self.n = ruleset.players
        self.events: list[Event] = []
        self.engine = Engine()
        self.round_start = -1
        self.mem: list[_Memory] = []
        self.live: list[Tile] = []
        self.dead: list[Tile] = []
        self.kans: list[int] = []
        self.dora_due = 0
        self.shown: list[list[tuple[Tile, ...]]] = []

    # -- emitting

    def emit(self, ev: Event) -> None:
        """Append an event and apply it to the table."""
        self.engine.apply(ev, len(self.events))
        self.events.append(ev)

    # -- the game

    def play(self) -> GameRecord:
        """Play the whole game and return it as a record."""
        rs = self.rules
        names = ("Ann", "Bob", "Cho", "Dai")[: self.n]
        self.emit(GameStart(source=SOURCE, players=tuple(PlayerInfo(name=f"random-{x}")
                                                         for x in names),
                            ruleset=rs, meta=(("seed", str(self.seed)),)))
        scores = [rs.starting_score] * self.n
        wind, number, honba, dealer, sticks = 0, 1, 0, 0, 0
        for _ in range(_MAX_ROUNDS):
            keeps, honba_up = self._round(wind, number, honba, dealer, sticks, scores)
            s = self.engine.state
            scores, sticks = list(s.scores), s.kyotaku
            self.emit(RoundEnd(scores=tuple(scores)))
            wind, number, honba, dealer = next_round(wind, number, honba, dealer, self.n,
                                                     dealer_keeps=keeps, honba_up=honba_up)
            if min(scores) < 0 or wind > _LAST_WIND[rs.length] or rs.length == "one-round":
                break
        left = 0 if rs.leftover_sticks == "lost" else sticks
        self.emit(GameEnd(scores=tuple(final_scores(scores, left, 0))))
        return GameRecord(path=f"{SOURCE}:{rs.name}:{self.seed}", format="generated",
                          events=self.events)

    def _wall(self) -> list[Tile]:
        kinds = [k for k in range(34) if self.n == 4 or not 1 <= k <= 7]
        tiles = [Tile(4 * k + c) for k in kinds for c in range(4)]
        self.rng.shuffle(tiles)
        return tiles

    def _round(self, wind: int, number: int, honba: int, dealer: int, sticks: int,
               scores: list[int]) -> Outcome:
        """Play one round; return (the dealer keeps the seat, honba goes up)."""
        n = self.n
        tiles = self._wall()
        self.dead = tiles[:DEAD_WALL]
        hands = [tuple(sorted(tiles[DEAD_WALL + 13 * p: DEAD_WALL + 13 * (p + 1)]))
                 for p in range(n)]
        self.live = tiles[DEAD_WALL + 13 * n:]
        self.mem = [_Memory() for _ in range(n)]
        for mem, hand in zip(self.mem, hands, strict=True):
            mem.waits = waits(_counts(list(hand)), 0)  # a dealt hand may be tenpai
        self.kans = []
        self.dora_due = 0
        self.shown = [[] for _ in range(n)]
        self.round_start = len(self.events)
        self.emit(RoundStart(round_wind=wind, round_number=number, honba=honba, kyotaku=sticks,
                             dealer=dealer, scores=tuple(scores), dora_indicator=self.dead[0],
                             hands=tuple(hands)))
        step: Outcome | int = dealer
        while not isinstance(step, tuple):
            step = self._draw(step, rinshan=False)
        return step

    # -- a player's turn

    def _draw(self, p: int, *, rinshan: bool) -> Outcome | int:
        """``p`` draws (from the dead wall's end after a kan or kita) and plays the turn.

        Returns the round's outcome when it ends, else who draws next.
        """
        tile = self.live.pop() if rinshan else self.live.pop(0)
        self.emit(Draw(player=p, tile=tile, rinshan=rinshan))
        mem = self.mem[p]
        mem.drawn = tile
        s = self.engine.state
        ps = s.players[p]
        if self._may_win(p, tile, tsumo=True) \
                and (ps.riichi or self.rng.random() < self.style.win):
            return self._wins([p], p, tile)
        if not ps.river and not s.calls and self.rules.riichi.nine_terminals \
                and len({KIND_OF[t] for t in ps.concealed} & _ORPHANS) >= 9 \
                and self.rng.random() < self.style.nine_terminals:
            hands: list[tuple[Tile, ...] | None] = [None] * self.n
            hands[p] = tuple(sorted(map(Tile, ps.concealed)))
            return self._abort("nine-terminals", tuple(hands))
        own = self._own_call(p)
        if own is not None:
            return own
        return self._discard(p, None)

    def _own_call(self, p: int) -> Outcome | int | None:
        """Maybe a kita or a kan; ``None`` when the turn goes on to a discard."""
        s = self.engine.state
        ps = s.players[p]
        drawn = self.mem[p].drawn
        if s.live_wall <= 0:
            return None
        if self.n == 3:
            north = sorted(t for t in ps.concealed if KIND_OF[t] == _NORTH
                           and (t == drawn or not ps.riichi))
            if north and self.rng.random() < self.style.kita:
                self.emit(Kita(player=p, tile=Tile(north[0])))
                self.shown[p].append((Tile(north[0]),))
                self._rons(p, north[0], can_win=False)
                return self._draw(p, rinshan=True)
        if len(self.kans) >= 4 or self.rng.random() >= self.style.kan:
            return None
        c = _counts(ps.concealed)
        if ps.riichi:
            k = KIND_OF[drawn]
            if c[k] == 4 and self.rules.riichi.kan_after_riichi != "forbidden" \
                    and self._kan_keeps_riichi(ps, drawn):
                return self._closed_kan(p, k)
            return None
        for k in range(34):
            if c[k] == 4:
                return self._closed_kan(p, k)
        for m in ps.melds:
            if isinstance(m, Pon):
                fourth = [t for t in ps.concealed if KIND_OF[t] == KIND_OF[m.called]]
                if fourth:
                    return self._added_kan(p, m, Tile(fourth[0]))
        return None

    def _kan_keeps_riichi(self, ps: PlayerState, drawn: int) -> bool:
        """Whether a closed kan of the drawn tile keeps the waits and the shape.

        The shape is kept when the three tiles held before the draw are a
        triplet in every reading of every winning hand.
        """
        k = KIND_OF[drawn]
        before = _counts([t for t in ps.concealed if t != drawn])
        after = list(before)
        after[k] = 0
        w = waits(before, len(ps.melds))
        if not w or w != waits(after, len(ps.melds) + 1):
            return False
        for x in range(34):
            if w >> x & 1:
                c = list(before)
                c[x] += 1
                if any(not any(st[0] == k and not st[1] for st in sets)
                       for _, sets in readings(c)):
                    return False
        return True

    def _closed_kan(self, p: int, k: int) -> Outcome | int:
        ps = self.engine.state.players[p]
        quad = tuple(sorted(Tile(t) for t in ps.concealed if KIND_OF[t] == k))
        self.emit(ClosedKan(player=p, tiles=quad))
        self.shown[p].append(quad)
        self.kans.append(p)
        if self.rules.riichi.kan_dora != "none":
            self.dora_due += 1
            self._reveal()  # a closed kan's indicator (and any still due) at once
        return self._draw(p, rinshan=True)

    def _added_kan(self, p: int, pon: Pon, tile: Tile) -> Outcome | int:
        quad = tuple(sorted((*pon.tiles, tile)))
        self.emit(AddedKan(player=p, from_player=pon.from_player, called=pon.called,
                           added=tile, tiles=quad))
        shown = self.shown[p]
        shown[shown.index(pon.tiles)] = quad
        self.kans.append(p)
        robbers = self._rons(p, tile)
        if robbers:
            return self._wins(robbers, p, tile)
        self._kan_dora()
        return self._draw(p, rinshan=True)

    def _kan_dora(self) -> None:
        """An open or added kan's indicator: at once, or due after the next discard."""
        if self.rules.riichi.kan_dora != "none":
            self.dora_due += 1
            if self.rules.riichi.kan_dora == "immediate":
                self._reveal()

    def _reveal(self) -> None:
        while self.dora_due:
            self.dora_due -= 1
            shown = len(self.engine.state.dora_indicators)
            self.emit(DoraReveal(indicator=self.dead[shown]))

    # -- discards

    def _discard(self, p: int, call: Chi | Pon | None) -> Outcome | int:
        """``p`` discards (after a draw, or after ``call``); then others may act."""
        s = self.engine.state
        ps = s.players[p]
        mem = self.mem[p]
        rs = self.rules
        riichi = False
        if ps.riichi:
            tile = Tile(mem.drawn)
        else:
            tile, ready = self._choose(ps, self._discards(ps, call))
            if ready and all(isinstance(m, ClosedKan) for m in ps.melds) \
                    and s.scores[p] >= rs.riichi.riichi_min_score \
                    and s.live_wall >= (rs.riichi.riichi_min_wall or self.n) \
                    and self.rng.random() < self.style.riichi:
                tile, riichi = self.rng.choice(ready), True
        self.emit(Discard(player=p, tile=tile, tsumogiri=tile == mem.drawn, riichi=riichi))
        mem.drawn = -1
        mem.passed = False
        mem.river_kinds |= 1 << KIND_OF[tile]
        mem.waits = waits(_counts(ps.concealed), len(ps.melds))
        winners = self._rons(p, tile)
        if winners:
            return self._wins(winners, p, tile)
        if riichi:
            after = list(s.scores)
            after[p] -= 1000
            self.emit(RiichiAccepted(player=p, scores=tuple(after)))
        if self.dora_due and rs.riichi.kan_dora == "after-discard":
            self._reveal()
        abort = self._abort_after_discard(riichi)
        if abort:
            return self._abort(abort, (None,) * self.n)
        if s.live_wall == 0:
            return self._exhaustive()
        called = self._calls(p, tile)
        return (p + 1) % self.n if called is None else called

    def _discards(self, ps: PlayerState, call: Chi | Pon | None) -> list[Tile]:
        """The tiles ``ps`` may discard (after a chi or pon: no swap-calling)."""
        tiles = sorted(Tile(t) for t in ps.concealed)
        if call is None or self.rules.riichi.kuikae == "allowed":
            return tiles
        banned = self._kuikae_kinds(call)
        return [t for t in tiles if KIND_OF[t] not in banned]

    def _kuikae_kinds(self, call: Chi | Pon) -> set[int]:
        k = KIND_OF[call.called]
        banned = {k}
        if isinstance(call, Chi) and self.rules.riichi.kuikae == "both":
            low = min(KIND_OF[t] for t in call.tiles)
            if k == low and low % 9 <= 5:
                banned.add(low + 3)
            elif k == low + 2 and low % 9 >= 1:
                banned.add(low - 1)
        return banned

    def _choose(self, ps: PlayerState, options: list[Tile]) -> tuple[Tile, list[Tile]]:
        """A discard (mostly one that keeps the hand closest to winning, else any), and
        the discards seen to leave the hand tenpai (those riichi may declare with)."""
        if self.rng.random() >= self.style.best:
            return self.rng.choice(options), []
        melds = len(ps.melds)
        c = _counts(ps.concealed)
        lone = [t for t in options if is_isolated(c, KIND_OF[t])]
        if lone:  # a tile with no partner never helps: no need to count shanten
            tile = self.rng.choice(lone)
            c[KIND_OF[tile]] -= 1
            return tile, [tile] if waits(c, melds) else []
        kinds, low = least_shanten((KIND_OF[t] for t in options), c,
                                   lambda x: shanten(x, melds))
        best = [t for t in options if KIND_OF[t] in kinds]
        return self.rng.choice(best), best if low == 0 else []

    def _abort_after_discard(self, riichi: bool) -> str:
        """The abortive draw this discard brings, if any (none was ronned)."""
        s = self.engine.state
        rs = self.rules
        if riichi and self.n == 4 and rs.riichi.four_riichi \
                and sum(1 for q in s.players if q.riichi) == 4:
            return "four-riichi"
        if len(self.kans) == 4 and len(set(self.kans)) > 1 and rs.riichi.four_kans != "no-abort":
            return "four-kans"
        if self.n == 4 and rs.riichi.four_winds and s.turn == 8 and not s.calls \
                and all(len(q.river) == 1 for q in s.players):
            firsts = {KIND_OF[q.river[0].tile] for q in s.players}
            if len(firsts) == 1 and firsts <= _WINDS:
                return "four-winds"
        return ""

    # -- calls

    def _calls(self, p: int, tile: Tile) -> Outcome | int | None:
        """Maybe a pon, an open kan or a chi on ``p``'s discard; ``None`` if nobody calls."""
        if self.rules.riichi.sakizuke is not None:
            return None
        s = self.engine.state
        k = KIND_OF[tile]
        rng = self.rng
        for d in range(1, self.n):
            q = (p + d) % self.n
            ps = s.players[q]
            if ps.riichi:
                continue
            same = sorted(Tile(t) for t in ps.concealed if KIND_OF[t] == k)
            if len(same) == 3 and len(self.kans) < 4 and rng.random() < self.style.kan / 2:
                kan = OpenKan(player=q, from_player=p, called=tile,
                              tiles=tuple(sorted((*same, tile))))
                self.emit(kan)
                self.shown[q].append(kan.tiles)
                self.kans.append(q)
                self._kan_dora()
                return self._draw(q, rinshan=True)
            if len(same) >= 2 and rng.random() < self.style.pon:
                pon = Pon(player=q, from_player=p, called=tile,
                          tiles=tuple(sorted((*same[:2], tile))))
                if self._may_discard_after(ps, pon):
                    self.emit(pon)
                    self.shown[q].append(pon.tiles)
                    return self._discard(q, pon)
        q = (p + 1) % self.n
        ps = s.players[q]
        if self.n == 3 or k >= 27 or ps.riichi or rng.random() >= self.style.chi:
            return None
        by_kind: dict[int, Tile] = {}
        for t in sorted(ps.concealed):
            by_kind.setdefault(KIND_OF[t], Tile(t))
        for a, b in ((k - 2, k - 1), (k - 1, k + 1), (k + 1, k + 2)):
            if a >= 0 and a // 9 == b // 9 == k // 9 and a in by_kind and b in by_kind:
                chi = Chi(player=q, from_player=p, called=tile,
                          tiles=tuple(sorted((by_kind[a], by_kind[b], tile))))
                if self._may_discard_after(ps, chi):
                    self.emit(chi)
                    self.shown[q].append(chi.tiles)
                    return self._discard(q, chi)
        return None

    def _may_discard_after(self, ps: PlayerState, call: Chi | Pon) -> bool:
        """Whether the caller keeps a tile it may discard after ``call``."""
        left = set(ps.concealed) - set(call.tiles)
        if self.rules.riichi.kuikae == "allowed":
            return bool(left)
        banned = self._kuikae_kinds(call)
        return any(KIND_OF[t] not in banned for t in left)

    # -- wins

    def _furiten(self, q: int, ps: PlayerState, *, tsumo: bool) -> bool:
        """Furiten by a passed tile or by a wait in the player's own river. For a tsumo the
        waits of the hand as it is now count too (a kan may have changed them)."""
        mem = self.mem[q]
        if mem.passed or mem.riichi_passed:
            return True
        w = mem.waits
        if tsumo:
            w |= waits(_counts([t for t in ps.concealed if t != mem.drawn]), len(ps.melds))
        return bool(w & mem.river_kinds)

    def _may_win(self, q: int, tile: int, *, tsumo: bool) -> bool:
        """Whether ``q`` may win on ``tile``: a complete hand, a yaku, no furiten."""
        s = self.engine.state
        ps = s.players[q]
        c = _counts(ps.concealed, -1 if tsumo else tile)
        if not is_complete(c, len(ps.melds)):
            return False
        if self.rules.riichi.sakizuke is not None and not ps.riichi:
            return False
        if (not tsumo or self.rules.riichi.furiten_tsumo) and self._furiten(q, ps, tsumo=tsumo):
            return False
        return not self._value(q, tile, tsumo=tsumo)[2].error

    def _rons(self, p: int, tile: int, *, can_win: bool = True) -> list[int]:
        """Who rons ``tile`` given up by ``p``, in turn order; everyone else who waits
        on it has passed it (furiten)."""
        s = self.engine.state
        winners: list[int] = []
        bit = 1 << KIND_OF[tile]
        for d in range(1, self.n):
            q = (p + d) % self.n
            ps = s.players[q]
            if not self.mem[q].waits & bit:  # its hand is as it was after its last discard
                continue
            if can_win and self._may_win(q, tile, tsumo=False) \
                    and self.rng.random() < self.style.win:
                winners.append(q)
            else:
                mem = self.mem[q]
                mem.passed = True
                mem.riichi_passed = mem.riichi_passed or ps.riichi
        rs = self.rules
        if len(winners) == 3 and rs.riichi.triple_ron:
            return winners  # an abortive draw: see _wins
        if len(winners) > 1 and not rs.double_ron:
            return winners[:1]  # the first in turn order takes it (頭ハネ)
        return winners

    def _value(self, w: int, tile: int, *, tsumo: bool) -> tuple[Win, WinSituation, Valuation]:
        """The win ``w`` would make on ``tile`` (without payments), its situation and value."""
        s = self.engine.state
        ps = s.players[w]
        hand = sorted(ps.concealed) if tsumo else sorted([*ps.concealed, tile])
        ura = self.dead[5: 5 + len(s.dora_indicators)] if ps.riichi and self.rules.riichi.ura_dora \
            else []
        win = Win(winner=w, from_player=w if tsumo else s.last_discarder,
                  hand=tuple(map(Tile, hand)), win_tile=Tile(tile), ura_indicators=tuple(ura))
        sit = situation(s, self.events, self.round_start, len(self.events), win)
        if not self.rules.riichi.ippatsu and sit.ippatsu:
            sit = sit._replace(ippatsu=False)
        return win, sit, value(sit, self.rules)

    def _wins(self, winners: list[int], p: int, tile: int) -> Outcome:
        """Emit the wins (or the abortive draw of a triple ron) and end the round."""
        s = self.engine.state
        if len(winners) == 3 and self.rules.riichi.triple_ron and p not in winners:
            return self._abort("triple-ron", (None,) * self.n)
        for i, w in enumerate(winners):
            win, sit, val = self._value(w, tile, tsumo=w == p)
            pao = liable_seat(sit, self.events, self.round_start, len(self.events), self.rules)
            deltas = win_deltas(val, sit, sticks=s.kyotaku if i == 0 else 0, honba=i == 0,
                                pao=pao)
            self.emit(Win(
                winner=w, from_player=win.from_player, hand=win.hand, win_tile=win.win_tile,
                melds=tuple(reversed(self.shown[w])), yaku=val.yaku, fu=val.fu, han=val.han,
                points=val.points, limit=val.limit, deltas=tuple(deltas),
                scores_before=tuple(s.scores), honba=s.honba, kyotaku=s.kyotaku,
                dora_indicators=tuple(s.dora_indicators), ura_indicators=win.ura_indicators,
                pao=pao))
        keeps = s.dealer in winners
        return keeps, keeps

    # -- draws

    def _abort(self, kind: str, hands: tuple[tuple[Tile, ...] | None, ...]) -> Outcome:
        s = self.engine.state
        self.emit(AbortiveDraw(kind=kind, hands=hands, deltas=(0,) * self.n,
                               scores_before=tuple(s.scores), honba=s.honba, kyotaku=s.kyotaku))
        return True, True

    def _exhaustive(self) -> Outcome:
        s = self.engine.state
        tenpai = [bool(waits(_counts(q.concealed), len(q.melds))) for q in s.players]
        nagashi = [p for p, q in enumerate(s.players)
                   if self.rules.riichi.nagashi and q.river and not q.called_away
                   and all(KIND_OF[d.tile] in _ORPHANS for d in q.river)]
        deltas = nagashi_deltas(nagashi, s.dealer, self.n) if nagashi \
            else draw_deltas(tenpai, self.rules.riichi)
        hands = tuple(tuple(sorted(map(Tile, q.concealed))) if t else None
                      for q, t in zip(s.players, tenpai, strict=True))
        self.emit(ExhaustiveDraw(hands=hands, deltas=tuple(deltas), scores_before=tuple(s.scores),
                                 nagashi=bool(nagashi), honba=s.honba, kyotaku=s.kyotaku))
        return tenpai[s.dealer], True

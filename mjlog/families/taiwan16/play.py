"""Legal random play of Taiwanese 16-tile games, for the generator and the tests.

:class:`TaiwanGame` plays a whole 一荘 (east to north, the dealer keeping
the deal on a win or a draw) with four random players on real shuffled
144-tile walls and three dice. It follows the table procedure of the
source: the flower procedure after the deal (dealer first, going round
until nobody holds a flower), flowers set aside and replaced at once during
play, a flower drawn as the last tile ending the round, replacements from
the dead wall's end, five sets and a pair (or 嚦咕嚦咕, 十六不搭) to win.

The players decide from the table and from their own memory, never from
the referee, so that the two meet as independent implementations. They
keep every prohibition on the safe side: no discard a chi or pon forbids
(T1, T2), no pon of a tile discarded earlier in the go-around (T3), no call
with three tiles or fewer left (T4), no tsumo on an open kan's replacement
chain (T5); a player who passes a win (on purpose, or because T5 forbids
it) is in 過水 until a discard from an incomplete hand or an added kan, and
does not win meanwhile. A player may declare 地聽 with a tenpai first
discard; then it only draws and discards until it wins. Only one player
wins a discard (the first in turn order). 七搶一 is not played.

Values and payments come from :mod:`mjlog.families.taiwan16.tai`, the code that
verifies them.
"""

from __future__ import annotations

import random
from typing import cast

from mjlog.core.events import (
    AddedKan,
    Chi,
    ClosedKan,
    Discard,
    Draw,
    Event,
    ExhaustiveDraw,
    Flower,
    GameEnd,
    GameStart,
    OpenKan,
    PlayerInfo,
    Pon,
    RoundEnd,
    RoundStart,
    Win,
)
from mjlog.core.record import GameRecord
from mjlog.core.ruleset import Ruleset
from mjlog.core.tiles import FIRST_FLOWER, KIND_OF, NUM_KINDS, Tile
from mjlog.families.riichi.hand.shape import is_isolated, least_standard_shanten
from mjlog.families.riichi.players import Style
from mjlog.families.riichi.scoring.payments import next_round
from mjlog.families.taiwan16 import tai as tw
from mjlog.families.taiwan16.hand import (
    SeatWaits,
    is_win,
    kind_counts,
    meld_of,
    partner_waits,
    waits,
)
from mjlog.replay.engine import Engine

SOURCE = "mjlog-random"
_MAX_ROUNDS = 64
"""A game stops after this many rounds even if the dealer keeps the deal."""
_KEEP, _PASS = -2, -1
"""Turn results that end the round: the dealer keeps the deal, or passes it on (a
result of 0 or more is the seat that draws next)."""


class _Memory:
    """What the generator remembers of one player in a round."""

    __slots__ = ("ban", "declared", "discards", "drawn", "guo_shui", "kan_chain",
                 "passed_tsumo", "rinshan")

    def __init__(self) -> None:
        self.guo_shui = False
        self.passed_tsumo = False
        self.kan_chain = False
        self.ban = 0
        """Kinds (mask) the discard after a chi or pon may not be."""
        self.declared = 0
        self.discards = 0
        self.drawn = -1
        self.rinshan = False


class TaiwanGame:
    """One generated Taiwanese game: the table, the players' memory and the events."""

    def __init__(self, ruleset: Ruleset, seed: int, style: Style) -> None:
        self.rules = ruleset
        self.waits = SeatWaits(liguligu=ruleset.taiwan.liguligu, sixteen=ruleset.taiwan.sixteen)
        # five sets need better play than four: the riichi default style wins too rarely
        self.style = Style(best=0.98, chi=0.35, pon=0.5) if style == Style() else style
        self.seed = seed
        self.rng = random.Random(seed)
        self.n = 4
        self.events: list[Event] = []
        self.engine = Engine()
        self.wall: list[Tile] = []
        self.mem: list[_Memory] = []
        self.river: list[tuple[int, int]] = []
        self.dice: tuple[int, ...] = ()
        self.dealt_flowers = [0] * 4

    def emit(self, ev: Event) -> None:
        """Append an event and apply it to the table."""
        self.engine.apply(ev, len(self.events))
        self.events.append(ev)

    # -- the game

    def play(self) -> GameRecord:
        """Play the whole game and return it as a record."""
        rs = self.rules
        self.emit(GameStart(source=SOURCE, players=tuple(
            PlayerInfo(name=f"random-{x}") for x in ("Ann", "Bob", "Cho", "Dai")),
            ruleset=rs, meta=(("seed", str(self.seed)),)))
        scores = [rs.starting_score] * self.n
        wind, number, lian, dealer = 0, 1, 0, 0
        last = {"one-round": 0, "east": 0, "south": 1, "full": 3}[rs.length]
        for _ in range(_MAX_ROUNDS):
            keeps = self._round(wind, number, lian, dealer, scores)
            scores = list(self.engine.state.scores)
            self.emit(RoundEnd(scores=tuple(scores)))
            wind, number, lian, dealer = next_round(wind, number, lian, dealer, self.n,
                                                    dealer_keeps=keeps, honba_up=keeps)
            if wind > last or rs.length == "one-round":
                break
        self.emit(GameEnd(scores=tuple(scores)))
        return GameRecord(path=f"{SOURCE}:{rs.name}:{self.seed}", format="generated",
                          events=self.events)

    def _round(self, wind: int, number: int, lian: int, dealer: int,
               scores: list[int]) -> bool:
        """Play one round; return whether the dealer keeps the deal."""
        n = self.n
        tiles = [Tile(t) for t in range(144)]
        self.rng.shuffle(tiles)
        size = self.rules.table.hand
        hands = [tiles[size * k: size * (k + 1)] for k in range(n)]
        hands[0].append(tiles[size * n])
        self.wall = tiles[size * n + 1:]
        self.dice = tuple(self.rng.randint(1, 6) for _ in range(3))
        self.mem = [_Memory() for _ in range(n)]
        self.river = []
        self.dealt_flowers = [0] * n
        self.emit(RoundStart(
            round_wind=wind, round_number=number, honba=lian, kyotaku=0, dealer=dealer,
            scores=tuple(scores), dora_indicator=Tile(144), dice=self.dice,
            hands=tuple(tuple(sorted(hands[(k - dealer) % n])) for k in range(n))))
        # the flower procedure: dealer first, round after round until nobody holds one
        while True:
            moved = False
            for k in range(n):
                p = (dealer + k) % n
                for f in sorted(t for t in self.engine.state.players[p].concealed
                                if KIND_OF[t] >= NUM_KINDS):
                    moved = True
                    self.dealt_flowers[p] += 1
                    self.emit(Flower(player=p, tile=Tile(f)))
                    self._replace(p)
            if not moved:
                break
        result = self._turn(dealer, drew=True)
        while result >= 0:
            result = self._turn(result, drew=False)
        return result == _KEEP

    # -- turns

    def _replace(self, p: int) -> None:
        t = self.wall.pop()
        self.emit(Draw(player=p, tile=t, rinshan=True))
        self.mem[p].drawn = t
        self.mem[p].rinshan = True

    def _live(self) -> int:
        return self.engine.state.live_wall

    def _counts(self, p: int, extra: int = -1) -> list[int]:
        return kind_counts(self.engine.state.players[p].concealed, extra)

    def _complete(self, p: int, extra: int = -1) -> bool:
        """Whether ``p``'s hand (with physical tile ``extra``) is a winning shape. A hand
        with its drawn tile is looked up in the waits of the hand before the draw, which
        the other seats' discards have asked for already."""
        ps = self.engine.state.players[p]
        if extra >= 0:
            return self.waits.completes(p, ps.concealed, len(ps.melds), extra)
        drawn = self.mem[p].drawn
        if drawn >= 0 and drawn in ps.concealed:
            return self.waits.completes(p, ps.concealed - {drawn}, len(ps.melds), drawn)
        rs = self.rules
        return is_win(self._counts(p), len(ps.melds),
                      liguligu=rs.taiwan.liguligu, sixteen=rs.taiwan.sixteen)

    def _turn(self, p: int, *, drew: bool) -> int:
        """``p`` draws (unless the deal gave the seventeenth tile) and plays the turn.

        Returns the round's outcome (whether the dealer keeps the deal) when
        it ends, else who draws next.
        """
        mem = self.mem[p]
        if not drew:
            if self._live() <= 0:
                return self._exhaustive()
            t = self.wall.pop(0)
            self.emit(Draw(player=p, tile=t))
            mem.drawn, mem.rinshan = t, False
        while mem.drawn >= 0 and KIND_OF[mem.drawn] >= NUM_KINDS:
            self.emit(Flower(player=p, tile=Tile(mem.drawn)))
            if self._live() <= 0:  # a flower as the last tile ends the round
                return self._exhaustive()
            self._replace(p)
        mem.passed_tsumo = False
        own_draw = isinstance(self.events[-1], Draw) and self.events[-1].player == p
        if self._complete(p) or self._eight_flowers(p):
            if not mem.guo_shui and not mem.kan_chain and own_draw \
                    and (mem.declared or self.rng.random() < self.style.win):
                return self._win(p, p, Tile(mem.drawn))
            if self._complete(p):
                mem.guo_shui = mem.passed_tsumo = True
        if mem.declared:
            return self._discard(p, Tile(mem.drawn))
        kan = self._own_kan(p)
        if kan is not None:
            return kan
        return self._discard(p, self._choose(p))

    def _eight_flowers(self, p: int) -> bool:
        return len(self.engine.state.players[p].flowers) == 8

    def _own_kan(self, p: int) -> int | None:
        if self._live() <= 0 or self.rng.random() >= self.style.kan:
            return None
        ps = self.engine.state.players[p]
        c = self._counts(p)
        mem = self.mem[p]
        for k in range(NUM_KINDS):
            if c[k] == 4:
                self.emit(ClosedKan(player=p, tiles=tuple(sorted(
                    Tile(t) for t in ps.concealed if KIND_OF[t] == k))))
                self._replace(p)
                return self._turn(p, drew=True)
        for m in ps.melds:
            if isinstance(m, Pon):
                fourth = [t for t in ps.concealed if KIND_OF[t] == KIND_OF[m.called]]
                if fourth:
                    tile = Tile(fourth[0])
                    self.emit(AddedKan(player=p, from_player=m.from_player, called=m.called,
                                       added=tile, tiles=tuple(sorted((*m.tiles, tile)))))
                    mem.guo_shui = False
                    robber = self._robber(p, tile)
                    if robber is not None:
                        return self._win(robber, p, tile)
                    self._replace(p)
                    return self._turn(p, drew=True)
        return None

    def _choose(self, p: int) -> Tile:
        """A discard: mostly one that keeps the hand closest to winning, never a banned one."""
        ps = self.engine.state.players[p]
        ban = self.mem[p].ban
        options = cast(list[Tile], sorted(
            [t for t in ps.concealed if not ban >> KIND_OF[t] & 1] if ban else ps.concealed))
        if self.rng.random() >= self.style.best:
            return self.rng.choice(options)
        c = self._counts(p)
        lone = [t for t in options if c[KIND_OF[t]] == 1 and is_isolated(c, KIND_OF[t])]
        if lone:  # a tile with no partner never helps: no need to count shanten
            return self.rng.choice(lone)
        melds = len(ps.melds)
        kinds, _ = least_standard_shanten((KIND_OF[t] for t in options), c, melds, 5)
        return self.rng.choice([t for t in options if KIND_OF[t] in kinds])

    def _discard(self, p: int, tile: Tile) -> int:
        mem = self.mem[p]
        declare = False
        if mem.discards == 0 and not self.engine.state.players[p].melds:
            c = self._counts(p)
            c[KIND_OF[tile]] -= 1
            declare = bool(waits(c, 0)) and self.rng.random() < self.style.riichi * 0.4
        if mem.guo_shui and not mem.passed_tsumo and not self._complete(p):
            mem.guo_shui = False
        self.emit(Discard(player=p, tile=tile, tsumogiri=tile == mem.drawn, riichi=declare))
        if declare:
            mem.declared = 1
        mem.discards += 1
        mem.ban = 0
        mem.drawn = -1
        mem.kan_chain = mem.passed_tsumo = False
        kind = KIND_OF[tile]
        self.river.append((p, kind))
        robber = self._robber(p, tile)
        if robber is not None:
            return self._win(robber, p, tile)
        if self._live() <= 0:
            return self._exhaustive()
        called = self._calls(p, tile) if self._live() > 3 else None
        return (p + 1) % self.n if called is None else called

    def _robber(self, p: int, tile: Tile) -> int | None:
        """The first player after ``p`` who wins on ``tile``; the others who could pass it."""
        winner = None
        for k in range(1, self.n):
            q = (p + k) % self.n
            if not self._complete(q, tile):
                continue
            mem = self.mem[q]
            if winner is None and not mem.guo_shui and (
                    mem.declared or self.rng.random() < self.style.win):
                winner = q
            else:
                mem.guo_shui = True
        return winner

    def _calls(self, p: int, tile: Tile) -> int | None:
        """Maybe a pon, an open kan or a chi of ``tile``; returns the result of the caller's
        turn that follows (see :meth:`_turn`), or ``None`` when nobody calls."""
        kind = KIND_OF[tile]
        for k in range(1, self.n):
            q = (p + k) % self.n
            mem = self.mem[q]
            if mem.declared:
                continue
            ps = self.engine.state.players[q]
            held = ps.concealed
            same = [Tile(t) for t in range(4 * kind, 4 * kind + 4) if t in held]  # its copies
            if len(same) == 3 and self.rng.random() < self.style.kan * 0.5:
                self.emit(OpenKan(player=q, from_player=p, called=tile,
                                  tiles=tuple(sorted((*same, tile)))))
                mem.kan_chain = True
                self._replace(q)
                return self._turn(q, drew=True)
            if len(same) >= 2 and not self._seen_this_go_around(q, kind) \
                    and self.rng.random() < self.style.pon:
                self.emit(Pon(player=q, from_player=p, called=tile,
                              tiles=tuple(sorted((*same[:2], tile)))))
                mem.ban = 1 << kind
                return self._discard(q, self._choose(q))
        q = (p + 1) % self.n
        if kind < 27 and not self.mem[q].declared and self.rng.random() < self.style.chi:
            for lo in (kind - 2, kind - 1, kind):
                if lo < kind - kind % 9 or lo + 2 > kind - kind % 9 + 8:
                    continue
                need = [x for x in (lo, lo + 1, lo + 2) if x != kind]
                ps = self.engine.state.players[q]
                own = [next((Tile(t) for t in ps.concealed if KIND_OF[t] == x), None)
                       for x in need]
                if None in own:
                    continue
                a, b = (t for t in own if t is not None)
                ban = partner_waits(KIND_OF[a], KIND_OF[b])
                if all(ban >> KIND_OF[t] & 1 for t in ps.concealed if t not in (a, b)):
                    continue  # nothing left to discard
                self.emit(Chi(player=q, from_player=p, called=tile,
                              tiles=tuple(sorted((a, b, tile)))))
                self.mem[q].ban = ban
                return self._discard(q, self._choose(q))
        return None

    def _seen_this_go_around(self, q: int, kind: int) -> bool:
        for p, k in reversed(self.river[:-1]):
            if k == kind:
                return True
            if p == q:
                break
        return False

    # -- results

    def _win(self, w: int, frm: int, tile: Tile) -> int:
        s = self.engine.state
        ps = s.players[w]
        mem = self.mem[w]
        tsumo = frm == w
        counts = self._counts(w, -1 if tsumo else tile)
        before = list(counts)
        if KIND_OF[tile] < NUM_KINDS:
            before[KIND_OF[tile]] -= 1
        rs = self.rules
        melds = tuple(meld_of(m) for m in ps.melds)
        opts = rs.taiwan
        complete = is_win(counts, len(melds), liguligu=opts.liguligu, sixteen=opts.sixteen)
        robbed_kan = isinstance(self.events[-1], AddedKan)
        win = tw.TaiWin(
            counts=tuple(counts), melds=melds, win_kind=KIND_OF[tile], tsumo=tsumo,
            waits=waits(before, len(melds), liguligu=opts.liguligu, sixteen=opts.sixteen)
            if complete else 0,
            seat_wind=(w - tw.east_seat(s.dealer, self.dice, rs)) % self.n,
            round_wind=s.round_wind,
            flowers=tuple(t - FIRST_FLOWER for t in ps.flowers),
            last_tile=s.live_wall == 0, replacement=mem.rinshan and tsumo,
            robbed_kan=robbed_kan, heavenly=tsumo and w == s.dealer and s.dealing,
            declared=(2 if mem.discards == 1 else 1) if mem.declared else 0,
            flower_win="eight" if tsumo and len(ps.flowers) == 8 else "",
            flower_win_in_deal=self.dealt_flowers[w] == 8,
        )
        claims = tw.tai(win, rs) or ()
        deltas = tw.payments(self.n, w, None if tsumo else frm, s.dealer, s.honba,
                             tw.total(claims), rs)
        hand = set(ps.concealed) | ({tile} if not tsumo else set())
        self.emit(Win(winner=w, from_player=frm, hand=tuple(sorted(map(Tile, hand))),
                      win_tile=tile, melds=tuple(m.tiles for m in reversed(ps.melds)),
                      yaku=claims, han=tw.total(claims), points=deltas[w], deltas=tuple(deltas),
                      scores_before=tuple(s.scores), honba=s.honba))
        return _KEEP if w == s.dealer else _PASS

    def _exhaustive(self) -> int:
        s = self.engine.state
        self.emit(ExhaustiveDraw(deltas=(0,) * self.n, scores_before=tuple(s.scores),
                                 honba=s.honba))
        return _KEEP

"""Legal random play of Chinese Official (MCR) games, for the generator and the tests.

:class:`MCRGame` plays a whole game (four wind rounds of four hands, the deal
passing after every hand; fewer with a shorter ``length``) with four random
players on shuffled 144-tile walls. It follows the table procedure of MCR §6:
the flower procedure after the deal (dealer first, going round until nobody
holds a flower), flowers set aside and replaced at once during play, a flower
drawn as the last tile ending the hand, replacements from the wall's far end,
the wall played to its last tile. A player wins only a winning shape of 8 fan
or more without the flowers (the ruleset's minimum), counted by the same
:func:`mjlog.families.mcr.fan.count_fan` the audit uses; only the next player in turn
from the discarder wins a discard (截和); an added kong may be robbed. MCR has
no furiten: a player may pass a win and take a later one.

Values and payments come from :mod:`mjlog.families.mcr.scorer` and
:mod:`mjlog.families.mcr.payments`, the code that verifies them.
"""

from __future__ import annotations

import functools
import random

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
from mjlog.core.tiles import KIND_OF, NUM_KINDS, Tile
from mjlog.families.mcr.fan import FanCount
from mjlog.families.mcr.referee import count_win
from mjlog.families.mcr.scorer import claims, deltas_of, is_win
from mjlog.families.riichi.hand.shape import is_isolated, least_standard_shanten, waits
from mjlog.families.riichi.players import Style
from mjlog.families.riichi.scoring.payments import next_round
from mjlog.replay.engine import Engine

SOURCE = "mjlog-random"
_NOBODY = -1
"""What :meth:`MCRGame._calls` returns when nobody calls, :meth:`MCRGame._own_kan` when
the player makes no kong (None: the hand has ended)."""
_LAST = {"one-round": 0, "east": 0, "south": 1, "full": 3}
"""The last wind round each game length plays."""


@functools.lru_cache(maxsize=65536)
def _waits(counts: bytes, melds: int) -> int:
    """Winning kinds (a mask) of a hand one tile short: four sets and a pair, seven pairs,
    thirteen orphans (the knitted hands are not looked for)."""
    return waits(counts, melds)


def kind_counts(tiles: set[int]) -> list[int]:
    """Kind counts (34) of physical tiles, flowers skipped."""
    counts = [0] * NUM_KINDS
    for t in tiles:
        if KIND_OF[t] < NUM_KINDS:
            counts[KIND_OF[t]] += 1
    return counts


class MCRGame:
    """One generated MCR game: the table, the wall and the events."""

    def __init__(self, ruleset: Ruleset, seed: int, style: Style) -> None:
        self.rules = ruleset
        # 8 fan need better play than riichi's default style gives
        self.style = Style(best=0.97, chi=0.3, pon=0.45) if style == Style() else style
        self.seed = seed
        self.rng = random.Random(seed)
        self.n = 4
        self.events: list[Event] = []
        self.engine = Engine()
        self.wall: list[Tile] = []

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
        wind, number, dealer = 0, 1, 0
        while True:
            self._round(wind, number, dealer, scores)
            scores = list(self.engine.state.scores)
            self.emit(RoundEnd(scores=tuple(scores)))
            wind, number, _, dealer = next_round(wind, number, 0, dealer, self.n,
                                                 dealer_keeps=False, honba_up=False)
            if wind > _LAST[rs.length] or (rs.length == "one-round" and number > 1):
                break
        self.emit(GameEnd(scores=tuple(scores)))
        return GameRecord(path=f"{SOURCE}:{rs.name}:{self.seed}", format="generated",
                          events=self.events)

    def _round(self, wind: int, number: int, dealer: int, scores: list[int]) -> None:
        """Deal and play one hand."""
        n = self.n
        tiles = [Tile(t) for t in range(144)]
        self.rng.shuffle(tiles)
        size = self.rules.table.hand
        hands = [tiles[size * k: size * (k + 1)] for k in range(n)]
        hands[0].append(tiles[size * n])
        self.wall = tiles[size * n + 1:]
        self.emit(RoundStart(
            round_wind=wind, round_number=number, honba=0, kyotaku=0, dealer=dealer,
            scores=tuple(scores), dora_indicator=Tile(144),
            hands=tuple(tuple(sorted(hands[(k - dealer) % n])) for k in range(n))))
        self._flower_procedure(dealer)
        player: int | None = self._turn(dealer)
        while player is not None:
            player = self._draw_turn(player)

    def _flower_procedure(self, dealer: int) -> None:
        """Dealer first, round after round until nobody holds a flower: each sets its
        flowers aside and draws their replacements."""
        while True:
            moved = False
            for k in range(self.n):
                p = (dealer + k) % self.n
                for f in sorted(t for t in self.engine.state.players[p].concealed
                                if KIND_OF[t] >= NUM_KINDS):
                    moved = True
                    self.emit(Flower(player=p, tile=Tile(f)))
                    self.emit(Draw(player=p, tile=self.wall.pop(), rinshan=True))
            if not moved:
                return

    # -- turns

    def _draw_turn(self, p: int) -> int | None:
        """``p`` draws from the wall and plays the turn; None when the hand ends."""
        if self.engine.state.live_wall <= 0:
            self._exhaustive()
            return None
        self.emit(Draw(player=p, tile=self.wall.pop(0)))
        return self._turn(p)

    def _turn(self, p: int) -> int | None:
        """``p``, holding 14 tiles (a kong counting three), sets flowers aside, maybe
        wins, makes a kong or discards. Returns who draws next, None when the hand ends."""
        drawn = self.events[-1].tile if isinstance(self.events[-1], Draw) else -1
        while drawn >= 0 and KIND_OF[drawn] >= NUM_KINDS:
            self.emit(Flower(player=p, tile=Tile(drawn)))
            if self.engine.state.live_wall <= 0:  # a flower as the last tile ends the hand
                self._exhaustive()
                return None
            drawn = self._replace(p)
        if drawn >= 0 and self.rng.random() < self.style.win:
            count = self._count(p, p, Tile(drawn))
            if count is not None:
                self._win(p, p, Tile(drawn), count)
                return None
        kan = self._own_kan(p)
        if kan != _NOBODY:
            return kan
        return self._discard(p, self._choose(p))

    def _replace(self, p: int) -> int:
        t = self.wall.pop()
        self.emit(Draw(player=p, tile=t, rinshan=True))
        return t

    def _count(self, w: int, frm: int, tile: Tile) -> FanCount | None:
        """The fans of ``w`` winning on ``tile`` from ``frm`` now, when the hand is a win of
        the minimum fan; None otherwise (a quick look at the waits first)."""
        ps = self.engine.state.players[w]
        held = set(ps.concealed) - {tile} if w == frm else set(ps.concealed)
        if not _waits(bytes(kind_counts(held)), len(ps.melds)) >> KIND_OF[tile] & 1:
            return None
        draft = Win(winner=w, from_player=frm, hand=(), win_tile=tile)
        count = count_win(self.engine.state, self.events, len(self.events), draft)
        return count if isinstance(count, FanCount) and is_win(count, self.rules) else None

    def _own_kan(self, p: int) -> int | None:
        if self.engine.state.live_wall <= 0 or self.rng.random() >= self.style.kan:
            return _NOBODY
        ps = self.engine.state.players[p]
        c = kind_counts(ps.concealed)
        for k in range(NUM_KINDS):
            if c[k] == 4:
                self.emit(ClosedKan(player=p, tiles=tuple(sorted(
                    Tile(t) for t in ps.concealed if KIND_OF[t] == k))))
                self._replace(p)
                return self._turn(p)
        for m in ps.melds:
            fourth = [t for t in ps.concealed if KIND_OF[t] == KIND_OF[m.called]] \
                if isinstance(m, Pon) else []
            if fourth:
                tile = Tile(fourth[0])
                assert isinstance(m, Pon)
                self.emit(AddedKan(player=p, from_player=m.from_player, called=m.called,
                                   added=tile, tiles=tuple(sorted((*m.tiles, tile)))))
                robber = self._robber(p, tile)
                if robber is not None:
                    self._win(*robber)
                    return None
                self._replace(p)
                return self._turn(p)
        return _NOBODY

    def _choose(self, p: int) -> Tile:
        """A discard: mostly one that keeps the hand closest to winning."""
        ps = self.engine.state.players[p]
        options = sorted(ps.concealed)
        if self.rng.random() >= self.style.best:
            return Tile(self.rng.choice(options))
        c = kind_counts(ps.concealed)
        lone = [t for t in options if c[KIND_OF[t]] == 1 and is_isolated(c, KIND_OF[t])]
        if lone:
            return Tile(self.rng.choice(lone))
        kinds, _ = least_standard_shanten((KIND_OF[t] for t in options), c, len(ps.melds), 4)
        return Tile(self.rng.choice([t for t in options if KIND_OF[t] in kinds]))

    def _discard(self, p: int, tile: Tile) -> int | None:
        drawn = self.events[-1].tile if isinstance(self.events[-1], Draw) else -1
        self.emit(Discard(player=p, tile=tile, tsumogiri=tile == drawn))
        robber = self._robber(p, tile)
        if robber is not None:
            self._win(*robber)
            return None
        if self.engine.state.live_wall <= 0:
            self._exhaustive()
            return None
        called = self._calls(p, tile)
        return (p + 1) % self.n if called == _NOBODY else called

    def _robber(self, p: int, tile: Tile) -> tuple[int, int, Tile, FanCount] | None:
        """The first player after ``p`` who wins on ``tile`` (and wants to), with the
        win's count."""
        for k in range(1, self.n):
            q = (p + k) % self.n
            count = self._count(q, p, tile)
            if count is not None and self.rng.random() < self.style.win:
                return q, p, tile, count
        return None

    def _calls(self, p: int, tile: Tile) -> int | None:
        """Maybe a pon, an open kong or a chow of ``tile``: the result of the caller's turn
        that follows (:meth:`_turn`), or :data:`_NOBODY` when nobody calls."""
        kind = KIND_OF[tile]
        for k in range(1, self.n):
            q = (p + k) % self.n
            held = self.engine.state.players[q].concealed
            same = [Tile(t) for t in range(4 * kind, 4 * kind + 4) if t in held]
            if len(same) == 3 and self.rng.random() < self.style.kan * 0.5:
                self.emit(OpenKan(player=q, from_player=p, called=tile,
                                  tiles=tuple(sorted((*same, tile)))))
                self._replace(q)
                return self._turn(q)
            if len(same) >= 2 and self.rng.random() < self.style.pon:
                self.emit(Pon(player=q, from_player=p, called=tile,
                              tiles=tuple(sorted((*same[:2], tile)))))
                return self._discard(q, self._choose(q))
        return self._chow(p, tile)

    def _chow(self, p: int, tile: Tile) -> int | None:
        q = (p + 1) % self.n
        kind = KIND_OF[tile]
        if kind >= 27 or self.rng.random() >= self.style.chi:
            return _NOBODY
        held = self.engine.state.players[q].concealed
        for lo in (kind - 2, kind - 1, kind):
            if lo < kind - kind % 9 or lo + 2 > kind - kind % 9 + 8:
                continue
            own = [next((Tile(t) for t in sorted(held) if KIND_OF[t] == x), None)
                   for x in (lo, lo + 1, lo + 2) if x != kind]
            a, b = own
            if a is None or b is None:
                continue
            self.emit(Chi(player=q, from_player=p, called=tile, tiles=tuple(sorted((a, b, tile)))))
            return self._discard(q, self._choose(q))
        return _NOBODY

    # -- results

    def _win(self, w: int, frm: int, tile: Tile, count: FanCount) -> None:
        s = self.engine.state
        ps = s.players[w]
        deltas = deltas_of(count, w, None if frm == w else frm, self.n, self.rules)
        hand = set(ps.concealed) | ({tile} if frm != w else set())
        self.emit(Win(winner=w, from_player=frm, hand=tuple(sorted(map(Tile, hand))),
                      win_tile=tile, melds=tuple(m.tiles for m in reversed(ps.melds)),
                      yaku=claims(count), han=count.total, points=deltas[w],
                      deltas=tuple(deltas), scores_before=tuple(s.scores), honba=0))

    def _exhaustive(self) -> None:
        s = self.engine.state
        self.emit(ExhaustiveDraw(deltas=(0,) * self.n, scores_before=tuple(s.scores),
                                 honba=0))

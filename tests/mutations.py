"""Mutations: one illegal action injected into a legal game, for the rule-check tests.

A mutation keeps a game up to some move, then injects the illegal action
(sometimes giving a player, in the deal or in a draw, an unseen copy of a
tile the action needs) and stops there. Each mutator yields at most one
mutation per game, with the violation code the rule checks must give.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field, replace

from mjlog.core.events import (
    AddedKan,
    Chi,
    ClosedKan,
    Discard,
    Draw,
    Event,
    OpenKan,
    Pon,
    RoundStart,
    Win,
)
from mjlog.core.record import GameRecord
from mjlog.core.tiles import KIND_OF, Tile
from mjlog.families.registry import check
from mjlog.families.riichi.hand.shape import counts_of, waits
from mjlog.replay.engine import Engine
from mjlog.replay.state import tiles_here

Mutation = tuple[list[Event], str]
"""(the mutated events, the code expected)."""


def _walk(events: list[Event]) -> Iterator[tuple[int, Engine, int]]:
    """Each index with the engine *after* applying that event, and the round's start."""
    engine = Engine()
    start = -1
    for i, ev in enumerate(events):
        if isinstance(ev, RoundStart):
            start = i
        engine.apply(ev, i)
        yield i, engine, start


def _unseen(events: list[Event], start: int, stop: int, kind: int) -> list[Tile]:
    """Copies of ``kind`` that appear nowhere in the round up to ``stop`` (none of a kind
    the round's riichi table does not hold: manzu 2 to 8 at three seats)."""
    seen: set[int] = set()
    rs = events[start]
    assert isinstance(rs, RoundStart)
    seen.add(rs.dora_indicator)
    for h in rs.hands:
        seen.update(h)
    for ev in events[start + 1:stop]:
        for name in ("tile", "indicator", "added", "called"):
            t = getattr(ev, name, None)
            if isinstance(t, int):
                seen.add(t)
        seen.update(getattr(ev, "tiles", ()))
    here = tiles_here(None, len(rs.hands))
    return [Tile(t) for t in range(4 * kind, 4 * kind + 4) if t not in seen and here[t]]


def _kept_since_deal(events: list[Event], start: int, stop: int, p: int) -> set[int]:
    """Tiles dealt to ``p`` that have not left p's hand before ``stop``."""
    rs = events[start]
    assert isinstance(rs, RoundStart)
    kept: set[int] = set(rs.hands[p])
    for ev in events[start + 1:stop]:
        if getattr(ev, "player", None) == p:
            kept.discard(getattr(ev, "tile", -1))
            kept.difference_update(getattr(ev, "tiles", ()))
            kept.discard(getattr(ev, "added", -1))
    return kept


def _redeal(events: list[Event], start: int, p: int, out: int, into: Tile) -> list[Event]:
    rs = events[start]
    assert isinstance(rs, RoundStart)
    hands = list(rs.hands)
    hands[p] = tuple(sorted(into if t == out else t for t in hands[p]))
    return [*events[:start], replace(rs, hands=tuple(hands)), *events[start + 1:]]


def _counts(tiles: set[int]) -> list[int]:
    return counts_of([KIND_OF[t] for t in tiles])


def chi_from_opposite(events: list[Event]) -> Iterator[Mutation]:
    for i, engine, _ in _walk(events):
        ev = events[i]
        s = engine.state
        if not isinstance(ev, Discard) or s.n != 4 or not isinstance(events[i + 1], Draw):
            continue
        y = (ev.player + 2) % 4
        ps = s.players[y]
        k = KIND_OF[ev.tile]
        if k >= 27 or ps.riichi:
            continue
        by_kind = {KIND_OF[t]: t for t in ps.concealed}
        for a, b in ((k - 2, k - 1), (k - 1, k + 1), (k + 1, k + 2)):
            if a // 9 == b // 9 == k // 9 and a >= 0 and a in by_kind and b in by_kind:
                tiles = (Tile(by_kind[a]), Tile(by_kind[b]))
                rest = [t for t in ps.concealed if t not in tiles and abs(KIND_OF[t] - k) > 3]
                if rest:
                    chi = Chi(player=y, from_player=ev.player, called=ev.tile,
                              tiles=tuple(sorted((*tiles, ev.tile))))
                    yield [*events[:i + 1], chi, Discard(player=y, tile=Tile(rest[0]))], \
                        "chi-not-from-left"
                    return


def kuikae(events: list[Event]) -> Iterator[Mutation]:
    for i, engine, _ in _walk(events):
        ev = events[i]
        if not isinstance(ev, Chi | Pon) or not isinstance(events[i + 1], Discard):
            continue
        k = KIND_OF[ev.called]
        same = [t for t in engine.state.players[ev.player].concealed if KIND_OF[t] == k]
        if same:
            yield [*events[:i + 1], Discard(player=ev.player, tile=Tile(same[0]))], "kuikae"
            return


def kan_after_pon(events: list[Event]) -> Iterator[Mutation]:
    for i, engine, start in _walk(events):
        ev = events[i]
        if not isinstance(ev, Pon):
            continue
        fourth = _unseen(events, start, i + 1, KIND_OF[ev.called])
        p = ev.player
        kept = sorted(_kept_since_deal(events, start, i + 1, p)
                      & engine.state.players[p].concealed)
        if fourth and kept:
            redealt = _redeal(events, start, p, kept[0], fourth[0])
            kan = AddedKan(player=p, from_player=ev.from_player, called=ev.called,
                           added=fourth[0], tiles=tuple(sorted((*ev.tiles, fourth[0]))))
            yield [*redealt[:i + 1], kan], "kan-after-call"
            return


def wait_changing_kan(events: list[Event]) -> Iterator[Mutation]:
    for i, engine, start in _walk(events):
        ev = events[i]
        if not isinstance(ev, Draw) or ev.rinshan:
            continue
        ps = engine.state.players[ev.player]
        if not ps.riichi or len(ps.river) <= ps.riichi_index:
            continue
        before = set(ps.concealed) - {ev.tile}
        c = _counts(before)
        for k in range(34):
            if c[k] != 3:
                continue
            fourth = _unseen(events, start, i, k)
            after = list(c)
            after[k] = 0
            if fourth and waits(c, len(ps.melds)) != waits(after, len(ps.melds) + 1):
                draw = replace(ev, tile=fourth[0])
                trip = [Tile(t) for t in before if KIND_OF[t] == k]
                kan = ClosedKan(player=ev.player, tiles=tuple(sorted((*trip, fourth[0]))))
                yield [*events[:i], draw, kan], "kan-after-riichi"
                return


def okuri_kan(events: list[Event]) -> Iterator[Mutation]:
    for i, engine, start in _walk(events):
        ev = events[i]
        if not isinstance(ev, Draw) or ev.rinshan:
            continue
        p = ev.player
        ps = engine.state.players[p]
        if not ps.riichi or len(ps.river) <= ps.riichi_index or ps.unknown:
            continue
        hand = set(ps.concealed) - {ev.tile}
        c = _counts(hand)
        kept = _kept_since_deal(events, start, i, p) & hand
        for k in range(34):
            if c[k] != 3 or k == KIND_OF[ev.tile]:
                continue
            fourth = _unseen(events, start, i + 1, k)
            for x in sorted(kept):
                if KIND_OF[x] == k or not fourth:
                    continue
                c2 = list(c)
                c2[KIND_OF[x]] -= 1
                c2[k] += 1
                if waits(c2, len(ps.melds)):  # still tenpai with the fourth copy
                    redealt = _redeal(events, start, p, x, fourth[0])
                    quad = tuple(sorted([Tile(t) for t in hand if KIND_OF[t] == k] + [fourth[0]]))
                    yield [*redealt[:i + 1], ClosedKan(player=p, tiles=quad)], "okuri-kan"
                    return


def furiten_ron(events: list[Event]) -> Iterator[Mutation]:
    rivers: dict[int, int] = {}
    for i, engine, _ in _walk(events):
        ev = events[i]
        if isinstance(ev, RoundStart):
            rivers = {}
        if not isinstance(ev, Discard):
            continue
        rivers[ev.player] = rivers.get(ev.player, 0) | 1 << KIND_OF[ev.tile]
        s = engine.state
        k = KIND_OF[ev.tile]
        for p in range(s.n):
            ps = s.players[p]
            if p == ev.player or ps.unknown:
                continue
            w = waits(_counts(ps.concealed), len(ps.melds))
            if w >> k & 1 and w & rivers.get(p, 0):
                hand = tuple(sorted([*map(Tile, ps.concealed), ev.tile]))
                win = Win(winner=p, from_player=ev.player, hand=hand, win_tile=ev.tile)
                yield [*events[:i + 1], win], "furiten-ron"
                return


def kan_on_last_tile(events: list[Event]) -> Iterator[Mutation]:
    for i, engine, start in _walk(events):
        ev = events[i]
        if not isinstance(ev, Draw) or engine.state.live_wall != 0:
            continue
        ps = engine.state.players[ev.player]
        c = _counts(set(ps.concealed) - {ev.tile})
        for k in range(34):
            fourth = _unseen(events, start, i, k)
            if c[k] == 3 and fourth and not ps.riichi:
                trip = [Tile(t) for t in ps.concealed if KIND_OF[t] == k and t != ev.tile]
                kan = ClosedKan(player=ev.player, tiles=tuple(sorted((*trip, fourth[0]))))
                yield [*events[:i], replace(ev, tile=fourth[0]), kan], "kan-wall-empty"
                return


def fifth_kan(events: list[Event]) -> Iterator[Mutation]:
    """At a draw after a round's fourth kan, the drawer makes a fifth."""
    kans = 0
    for i, engine, start in _walk(events):
        ev = events[i]
        if isinstance(ev, RoundStart):
            kans = 0
        elif isinstance(ev, OpenKan | AddedKan | ClosedKan):
            kans += 1
        if kans != 4 or not isinstance(ev, Draw):
            continue
        ps = engine.state.players[ev.player]
        c = _counts(set(ps.concealed) - {ev.tile})
        kept = sorted(_kept_since_deal(events, start, i, ev.player) & ps.concealed)
        for held in (3, 2, 1, 0):  # fewest changes first: redeal missing copies, draw one
            for k in range(34):
                spare = _unseen(events, start, i, k)
                others = [t for t in kept if KIND_OF[t] != k]
                if c[k] != held or len(spare) < 4 - held or len(others) < 3 - held:
                    continue
                redealt = events
                for out, into in zip(others, spare[: 3 - held], strict=False):
                    redealt = _redeal(redealt, start, ev.player, out, into)
                quad = [Tile(t) for t in ps.concealed if KIND_OF[t] == k and t != ev.tile]
                kan = ClosedKan(player=ev.player, tiles=tuple(sorted((*quad, *spare[:4 - held]))))
                yield [*redealt[:i], replace(ev, tile=spare[3 - held]), kan], "fifth-kan"
                return
        for m in ps.melds:
            fourth = _unseen(events, start, i, KIND_OF[m.called]) if isinstance(m, Pon) else []
            if isinstance(m, Pon) and fourth:
                added = AddedKan(player=ev.player, from_player=m.from_player, called=m.called,
                                 added=fourth[0], tiles=tuple(sorted((*m.tiles, fourth[0]))))
                yield [*events[:i], replace(ev, tile=fourth[0]), added], "fifth-kan"
                return


MUTATORS: dict[str, Callable[[list[Event]], Iterator[Mutation]]] = {
    "chi from the opposite player": chi_from_opposite,
    "kuikae discard": kuikae,
    "kan right after a pon": kan_after_pon,
    "wait-changing closed kan after riichi": wait_changing_kan,
    "okuri-kan": okuri_kan,
    "ron on a furiten wait": furiten_ron,
    "kan after the last live tile": kan_on_last_tile,
    "fifth kan": fifth_kan,
}
"""Every mutator by the name of the illegal action it injects."""


@dataclass
class Tally:
    """Mutations made, caught with the expected code, and caught with no other, by kind."""

    made: Counter[str] = field(default_factory=Counter)
    caught: Counter[str] = field(default_factory=Counter)
    alone: Counter[str] = field(default_factory=Counter)

    def inject(self, rec: GameRecord, kinds: Iterable[str] = MUTATORS) -> None:
        """Make each kind of mutation of ``rec`` (where it allows one) and judge it."""
        for name in kinds:
            for events, code in MUTATORS[name](rec.events):
                self.made[name] += 1
                _, violations = check(GameRecord(path=rec.path, format="mutated",
                                                 events=events))
                codes = [v.code for v in violations]
                self.caught[name] += code in codes
                self.alone[name] += codes == [code]

    def print(self, title: str) -> None:
        print(f"{title} (made, caught, caught with no other violation):")
        for name in MUTATORS:
            print(f"  {name}: {self.made[name]}, {self.caught[name]}, {self.alone[name]}")

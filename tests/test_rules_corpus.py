"""Rule checks over the real corpus: platform games break no rule of their platform's
preset, and one illegal action injected into them is caught with the right code.

A mutation keeps a real game up to some move, then injects the illegal action
(sometimes giving a player, in the deal, an unseen copy of a tile the action
needs) and stops there. The unmutated game gives no violation; the mutated
one must give the expected code.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import replace
from pathlib import Path

import pytest

from mjlog.diagnostics import InputError
from mjlog.events import (
    AddedKan,
    Chi,
    ClosedKan,
    Discard,
    Draw,
    Event,
    Pon,
    RoundStart,
    Win,
)
from mjlog.formats import read_path
from mjlog.hand.shape import counts_of, waits
from mjlog.record import GameRecord
from mjlog.replay.engine import Engine
from mjlog.rules.referee import check
from mjlog.tiles import KIND_OF, Tile

from .conftest import CORPUS, CORPUS_MISSING

TENHOU_XML = CORPUS / "tenhou-xml"
_BOT = "MahjongRepository-tenhou-python-bot/project/system_testing/fixtures/"
KNOWN: dict[str, dict[str, int]] = {
    # bot-written (see test_corpus_tenhou): a riichi with one tile left in the wall, and
    # four 4z discarded on the first go-around of S1-3 without the abortive draw
    _BOT + "24.txt": {"riichi-illegal": 1, "abortive-missed": 1},
}
KNOWN_JSON: dict[str, dict[str, int]] = {
    # a hand-made call-order fixture (see test_formats_json): it rons 9p, which it discarded
    "tenhou-json/Equim-chan-mjai-reviewer/convlog/tests/testdata/confusing_nakis_2.json":
        {"furiten-ron": 1},
}

pytestmark = pytest.mark.skipif(not TENHOU_XML.is_dir(), reason=CORPUS_MISSING)


def _records(folder: Path) -> Iterator[tuple[str, GameRecord]]:
    for path in sorted(p for p in folder.rglob("*") if p.is_file()):
        try:
            records = read_path(path)
        except InputError:  # not a record (READMEs, oracles)
            continue
        for rec in records:
            yield str(path.relative_to(CORPUS)), rec


@pytest.fixture(scope="module")
def xml_games() -> list[tuple[str, GameRecord]]:
    return list(_records(TENHOU_XML))


def test_tenhou_games_break_no_rule_of_their_preset(xml_games: list[tuple[str, GameRecord]]
                                                     ) -> None:
    assert len(xml_games) == 2486
    found = {}
    for rel, rec in xml_games:
        _, violations = check(rec)
        if violations:
            found[rel.removeprefix("tenhou-xml/")] = dict(Counter(v.code for v in violations))
    assert found == KNOWN


def test_json_games_break_no_rule_of_their_preset() -> None:
    found = {}
    games = 0
    for folder in ("tenhou-json", "majsoul", "mjai"):
        for rel, rec in _records(CORPUS / folder):
            games += 1
            _, violations = check(rec)
            if violations:
                found[rel] = dict(Counter(v.code for v in violations))
    assert games >= 99
    assert found == KNOWN_JSON


# ---------------------------------------------------------------- mutations

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
    """Copies of ``kind`` that appear nowhere in the round up to ``stop``."""
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
    return [Tile(4 * kind + c) for c in range(4) if 4 * kind + c not in seen]


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


MUTATORS: dict[str, Callable[[list[Event]], Iterator[Mutation]]] = {
    "chi from the opposite player": chi_from_opposite,
    "kuikae discard": kuikae,
    "kan right after a pon": kan_after_pon,
    "wait-changing closed kan after riichi": wait_changing_kan,
    "okuri-kan": okuri_kan,
    "ron on a furiten wait": furiten_ron,
    "kan after the last live tile": kan_on_last_tile,
}


def test_every_injected_violation_is_caught(xml_games: list[tuple[str, GameRecord]]) -> None:
    """Every fourth corpus game, each kind of mutation once where the game allows it."""
    made: Counter[str] = Counter()
    caught: Counter[str] = Counter()
    alone: Counter[str] = Counter()
    for rel, rec in xml_games[::4]:
        if rel.removeprefix("tenhou-xml/") in KNOWN or not rec.complete:
            continue
        for name, mutate in MUTATORS.items():
            for events, code in mutate(rec.events):
                made[name] += 1
                _, violations = check(GameRecord(path=rel, format="mutated", events=events))
                codes = [v.code for v in violations]
                caught[name] += code in codes
                alone[name] += codes == [code]
    print("mutations by kind (made, caught, caught with no other violation):")
    for name in MUTATORS:
        print(f"  {name}: {made[name]}, {caught[name]}, {alone[name]}")
    assert all(made[name] >= 10 for name in MUTATORS), made
    assert caught == made

"""The native wall proof (``core/src/wall.rs`` through :mod:`mjlog.wall.native`) against
its specification, :func:`mjlog.wall.verify.verify`: the same findings (code, event index,
seat, message, severity, round, turn) in the same order, on every corpus game with a
shuffle seed or a published wall, on seeded mutants of them (draw tiles, replacement
flags, dealt hands, dice, dora and ura indicators changed, rounds and draws dropped) and
on corrupted seeds and published walls; and a stated table wall is declined.
"""

from __future__ import annotations

import dataclasses
import os
import random
from array import array
from collections.abc import Callable, Iterable
from functools import cache
from typing import Any

import pytest

from mjlog.core import native
from mjlog.core.diagnostics import Finding
from mjlog.core.events import DoraReveal, Draw, Event, GameStart, RoundStart, Win
from mjlog.core.record import GameRecord
from mjlog.core.tiles import UNKNOWN, Tile
from mjlog.formats import read_path
from mjlog.formats.origin import of_start, round_published
from mjlog.reports.audit import audit_record
from mjlog.wall.native import PUBLISHED, verify_native, wall_input
from mjlog.wall.verify import verify

from .conftest import CORPUS, CORPUS_MISSING

CORE = native.core()
Row = tuple[str, object, int | None, str, str, str, int]
"""A finding as both routes are compared on: code, source place (the event's index in a
mutant), seat, message, severity, round, turn."""


@pytest.fixture(scope="module")
def core() -> Any:
    """The native core; in CI its absence fails (CI builds it), elsewhere it skips."""
    if CORE is None:
        if os.environ.get("CI"):
            pytest.fail("CI must build the native core: " + native.describe())
        pytest.skip("the native core is not built here (no cargo at install)")
    return CORE


def _rows(findings: Iterable[Finding]) -> list[Row]:
    return [(f.code, f.src, f.player, f.message, f.severity.value, f.round, f.turn)
            for f in findings]


def _walled(rec: GameRecord) -> bool:
    """Whether a game has a shuffle seed or a published wall."""
    start = rec.events[0] if rec.events else None
    if not isinstance(start, GameStart):
        return False
    return of_start(start, "").shuffle_seed is not None or any(
        type(ev) is RoundStart and round_published(ev) is not None for ev in rec.events)


def _index_rows() -> list[list[str]]:
    index = CORPUS / "_index.tsv"
    if not index.exists():
        pytest.skip(CORPUS_MISSING)
    return [line.split("\t") for line in index.read_text(encoding="utf-8").splitlines()[1:]]


def _walled_in(row: list[str]) -> list[GameRecord]:
    """The games with a wall of one corpus file (none for a file that is no record)."""
    try:
        records = read_path(CORPUS / row[0])
    except Exception:  # a file of the corpus that is no record
        return []
    return [rec for rec in records if _walled(rec)]


@cache
def corpus_games() -> tuple[GameRecord, ...]:
    """Every corpus game with a seed or a published wall (the corpus's order)."""
    return tuple(rec for row in _index_rows() for rec in _walled_in(row))


@cache
def sample_games(seeded: int, published: int) -> tuple[GameRecord, ...]:
    """The first ``seeded`` games of the corpus with a seed and ``published`` with a
    published wall: what the fast tests read (the whole corpus takes seconds)."""
    want = {"seed": seeded, "published": published}
    out: list[GameRecord] = []
    for row in _index_rows():
        if not any(want.values()):
            break
        if row[1] == "tenhou-xml" and not want["seed"]:
            continue
        for rec in _walled_in(row):
            kind = "seed" if _seed_of(rec) is not None else "published"
            if want[kind]:
                want[kind] -= 1
                out.append(rec)
    return tuple(out)


def _seed_of(rec: GameRecord) -> object:
    return (wall_input(rec) or (None,))[0]


def _seeded_games(records: Iterable[GameRecord] | None = None) -> list[GameRecord]:
    return [rec for rec in (sample_games(20, 8) if records is None else records)
            if _seed_of(rec) is not None]


def _published_games(records: Iterable[GameRecord] | None = None) -> list[GameRecord]:
    return [rec for rec in (sample_games(20, 8) if records is None else records) if any(
        r[1] == PUBLISHED for r in (wall_input(rec) or (None, "", []))[2])]


def compare(core: Any, records: Iterable[GameRecord]) -> tuple[int, int, list[str]]:
    """How many games both routes judged, how many findings they agreed on, and the
    first differences (path, both routes' rows)."""
    games = findings = 0
    diffs: list[str] = []
    for rec in records:
        want = _rows(verify(rec))
        got_raw = verify_native(core, rec)
        assert got_raw is not None, f"{rec.path}: the native wall proof declined the game"
        got = _rows(got_raw)
        games += 1
        findings += len(want)
        if got != want and len(diffs) < 3:
            diffs.append(f"{rec.path}\n python {want[:4]}\n native {got[:4]}")
    return games, findings, diffs


# -- the corpus


def test_a_few_corpus_games_agree(core: Any) -> None:
    """The fast version: the first seeded games and every published wall."""
    games = list(sample_games(20, 8))
    n, _, diffs = compare(core, games)
    assert not diffs, "\n".join(diffs)
    assert n == len(games) >= 10


@pytest.mark.slow
def test_every_corpus_game_with_a_wall_agrees(core: Any) -> None:
    games = corpus_games()
    n, found, diffs = compare(core, games)
    assert not diffs, "\n".join(diffs)
    assert n == len(games) > 2000
    print(f"{n} games, {found} findings compared, 0 different")


# -- mutants


def _record(rec: GameRecord, events: list[Event]) -> GameRecord:
    """``rec`` with ``events``, each event's place its index (so a finding names it)."""
    return dataclasses.replace(rec, events=events, positions=array("i", range(len(events))),
                               lines=None, position_kind="xml")


def _tile(rng: random.Random) -> Tile:
    """A tile id, now and then the unknown tile or one outside every table."""
    roll = rng.random()
    return Tile(UNKNOWN if roll < 0.03 else -1 if roll < 0.05 else rng.randrange(136))


def _id(rng: random.Random) -> Tile:
    """A tile id of the 136-tile set."""
    return Tile(rng.randrange(136))


def _pick(events: list[Event], kinds: tuple[type, ...], rng: random.Random) -> int:
    """A random event of one of ``kinds`` (-1 when there is none)."""
    at = [i for i, ev in enumerate(events) if isinstance(ev, kinds)]
    return rng.choice(at) if at else -1


def _redraw(events: list[Event], rng: random.Random) -> None:
    i = _pick(events, (Draw,), rng)
    ev = events[i] if i >= 0 else None
    if isinstance(ev, Draw):
        events[i] = dataclasses.replace(ev, tile=_tile(rng))


def _flip_rinshan(events: list[Event], rng: random.Random) -> None:
    i = _pick(events, (Draw,), rng)
    if i >= 0:
        ev = events[i]
        assert isinstance(ev, Draw)
        events[i] = dataclasses.replace(ev, rinshan=not ev.rinshan)


def _redora(events: list[Event], rng: random.Random) -> None:
    i = _pick(events, (RoundStart, DoraReveal, Win), rng)
    ev = events[i] if i >= 0 else None
    if isinstance(ev, RoundStart):
        events[i] = dataclasses.replace(ev, dora_indicator=_id(rng))
    elif isinstance(ev, DoraReveal):
        events[i] = dataclasses.replace(ev, indicator=_id(rng))
    elif isinstance(ev, Win) and ev.ura_indicators:
        k = rng.randrange(len(ev.ura_indicators))
        ura = (*ev.ura_indicators[:k], _id(rng), *ev.ura_indicators[k + 1:])
        events[i] = dataclasses.replace(ev, ura_indicators=ura)


def _redeal(events: list[Event], rng: random.Random) -> None:
    i = _pick(events, (RoundStart,), rng)
    ev = events[i]
    if not isinstance(ev, RoundStart) or not ev.hands:
        return
    if rng.random() < 0.3:
        events[i] = dataclasses.replace(ev, dice=(rng.randrange(1, 7), rng.randrange(1, 7)))
        return
    seat = rng.randrange(len(ev.hands))
    hand = list(ev.hands[seat])
    if hand:
        hand[rng.randrange(len(hand))] = _id(rng)
    hands = (*ev.hands[:seat], tuple(hand), *ev.hands[seat + 1:])
    events[i] = dataclasses.replace(ev, hands=hands)


def _drop_round(events: list[Event], rng: random.Random) -> None:
    starts = [i for i, ev in enumerate(events) if type(ev) is RoundStart]
    if not starts:
        return
    k = rng.randrange(len(starts))
    end = starts[k + 1] if k + 1 < len(starts) else len(events) - 1
    del events[starts[k]:end]


def _drop_draw(events: list[Event], rng: random.Random) -> None:
    i = _pick(events, (Draw,), rng)
    if i >= 0:
        del events[i]


MUTATIONS: tuple[Callable[[list[Event], random.Random], None], ...] = (
    _redraw, _redraw, _flip_rinshan, _redora, _redora, _redeal, _drop_round, _drop_draw)


def mutants(records: Iterable[GameRecord], per_game: int, seed: int
            ) -> Iterable[GameRecord]:
    """``per_game`` mutants of each record, each with one to three mutations."""
    rng = random.Random(seed)
    for rec in records:
        for _ in range(per_game):
            events = list(rec.events)
            for _ in range(rng.randrange(1, 4)):
                rng.choice(MUTATIONS)(events, rng)
            yield _record(rec, events)


def test_mutants_agree_and_are_found_where_they_are(core: Any) -> None:
    games = list(mutants([*_seeded_games()[:6], *_published_games()[:2]], 12, seed=46))
    n, found, diffs = compare(core, games)
    assert not diffs, "\n".join(diffs)
    assert n == len(games) and found > n  # the mutants are found, not only compared


@pytest.mark.slow
def test_thousands_of_mutants_agree(core: Any) -> None:
    games = corpus_games()
    picked = [*games[::10], *_published_games(games)]
    n, found, diffs = compare(core, mutants(picked, 8, seed=4646))
    assert not diffs, "\n".join(diffs)
    print(f"{n} mutants, {found} findings compared, 0 different")


def test_a_changed_draw_is_found_at_its_event_by_both(core: Any) -> None:
    rec = _seeded_games()[0]
    events = list(rec.events)
    i = next(k for k, ev in enumerate(events) if type(ev) is Draw and k > 20)
    ev = events[i]
    assert isinstance(ev, Draw)
    events[i] = dataclasses.replace(ev, tile=Tile(ev.tile ^ 1))
    got = verify_native(core, _record(rec, events))
    assert got is not None
    draws = [f for f in got if f.code == "wall-draw-mismatch"]
    assert [f.src.index if f.src else None for f in draws] == [i]
    assert draws[0].player == ev.player
    assert _rows(got) == _rows(verify(_record(rec, events)))


# -- corrupted seeds and published walls


def _with_seed(rec: GameRecord, seed: str | None) -> GameRecord:
    start = rec.events[0]
    assert isinstance(start, GameStart)
    origin = dataclasses.replace(of_start(start, ""), shuffle_seed=seed)
    return _record(rec, [dataclasses.replace(start, origin=origin), *rec.events[1:]])


def _corrupted(text: str, rng: random.Random) -> str | None:
    """``text`` (a seed) with one of: a character changed, cut short, another prefix,
    emptied, none at all."""
    roll = rng.randrange(6)
    head, _, body = text.partition(",")
    if roll == 0 and body:
        k = rng.randrange(len(body))
        return f"{head},{body[:k]}{'A' if body[k] != 'A' else 'B'}{body[k + 1:]}"
    if roll == 1:
        return text[: rng.randrange(len(text))]
    if roll == 2:
        return "mt19937ar-sha512-n288," + ",".join(f"{rng.getrandbits(33):x}"
                                                    for _ in range(3))
    if roll == 3:
        return "mt19937ar-sha512-n288," + ",".join(f"{rng.getrandbits(32):x}"
                                                    for _ in range(32))
    return "" if roll == 4 else None


def test_corrupted_seeds_agree(core: Any) -> None:
    rng = random.Random(7)
    games = _seeded_games()[:10]
    corrupted = [_with_seed(rec, _corrupted(
        of_start(rec.events[0], "").shuffle_seed or "", rng))  # type: ignore[arg-type]
        for rec in games for _ in range(4)]
    n, found, diffs = compare(core, corrupted)
    assert not diffs, "\n".join(diffs)
    assert found >= n  # every corrupted seed is said something of


def test_another_seed_is_one_dealt_mismatch_note_at_the_first_round(core: Any) -> None:
    rec = _with_seed(_seeded_games()[0], "mt19937ar-sha512-n288-base64,AQAAAAIAAAA=")
    got = verify_native(core, rec)
    assert got is not None
    first = next(i for i, ev in enumerate(rec.events) if type(ev) is RoundStart)
    assert [(f.code, f.src.index if f.src else None) for f in got] == [
        ("wall-dealt-mismatch", first)]
    assert _rows(got) == _rows(verify(rec))


def test_changed_published_walls_agree(core: Any) -> None:
    rng = random.Random(11)
    out: list[GameRecord] = []
    for rec in _published_games()[:8]:
        events = list(rec.events)
        for i, ev in enumerate(events):
            pub = round_published(ev) if type(ev) is RoundStart else None
            if pub is None or rng.random() < 0.5:
                continue
            assert isinstance(ev, RoundStart)
            text = pub.wall
            k = 2 * rng.randrange(len(text) // 2)
            wall = text[:k] + text[k + 2:k + 4] + text[k:k + 2] + text[k + 4:]
            events[i] = dataclasses.replace(
                ev, published=dataclasses.replace(pub, wall=wall if rng.random() < 0.8
                                                  else text[:-2]))
        out.append(_record(rec, events))
    n, _, diffs = compare(core, out)
    assert not diffs, "\n".join(diffs)
    assert n == len(out)


def test_a_stated_table_wall_is_declined(core: Any) -> None:
    rec = _seeded_games()[0]
    events = list(rec.events)
    i = next(k for k, ev in enumerate(events) if type(ev) is RoundStart)
    rs = events[i]
    assert isinstance(rs, RoundStart)
    events[i] = dataclasses.replace(rs, wall=tuple(map(Tile, range(136))))
    events[0] = _with_seed(rec, None).events[0]
    assert verify_native(core, _record(rec, events)) is None


def _round_seeded(rec: GameRecord, rng: random.Random) -> GameRecord:
    """``rec`` without its game seed, each round with a seed of its own (the early-2009
    ``mt19937ar`` form), now and then one that cannot be read or none."""
    events = _with_seed(rec, None).events
    for i, ev in enumerate(events):
        if type(ev) is not RoundStart:
            continue
        roll = rng.random()
        words = ",".join(f"{rng.getrandbits(32):x}" for _ in range(8))
        text = (f"mt19937ar,{words}" if roll < 0.6 else "mt19937ar,xyz" if roll < 0.75
                else "other-form" if roll < 0.85 else None)
        extra = tuple(kv for kv in ev.extra if kv[0] != "shuffle")
        events[i] = dataclasses.replace(
            ev, extra=extra if text is None else (*extra, ("shuffle", text)))
    return _record(rec, events)


def test_rounds_with_their_own_seeds_agree(core: Any) -> None:
    """No corpus game has early 2009's per-round seeds: made ones, good and bad, agree,
    and a round whose seed cannot be read is said unverifiable at its start."""
    rng = random.Random(2009)
    games = [_round_seeded(rec, rng) for rec in _seeded_games()[:6] for _ in range(3)]
    n, found, diffs = compare(core, games)
    assert not diffs, "\n".join(diffs)
    assert n == len(games) and found > n
    got = [f for rec in games for f in verify_native(core, rec) or []]
    assert any(f.code == "wall-unverifiable" and "this round's shuffle" in f.message
               for f in got)
    assert any(f.code == "wall-dealt-mismatch" and f.player is not None for f in got)


def test_the_audits_wall_findings_are_the_native_ones(core: Any) -> None:
    """Run as the audit runs it (``audit_record`` with the wall check only), the wall
    check adds to the engine's findings exactly what the native proof finds."""
    records = [*sample_games(20, 8)[:8], *mutants(_seeded_games()[:3], 3, seed=53)]
    for rec in records:
        plain = audit_record(rec, wall=False, scores=False, rules=False).findings
        walled = audit_record(rec, wall=True, scores=False, rules=False).findings
        assert walled[:len(plain)] == plain
        assert _rows(walled[len(plain):]) == _rows(verify_native(core, rec) or []), rec.path


def test_bad_arguments_are_a_value_error_not_a_crash(core: Any) -> None:
    with pytest.raises(ValueError, match="64-bit words"):
        core.wall_check(b"abc", None, "", [])
    with pytest.raises(ValueError, match="malformed event code"):
        core.wall_check(array("q", [2, 0]).tobytes(), None, "", [])
    with pytest.raises(ValueError, match="no wall problem"):
        core.wall_check(b"", None, "", [([], 1, [("bogus", "m")], None, None, "")])
    with pytest.raises(ValueError, match="no seed form"):
        core.wall_check(b"", ("other", [1]), "", [])

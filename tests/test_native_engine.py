"""The native table engine (``core/src/engine.rs``) against its specification, the Python
engine (``mjlog.replay.engine.Engine`` run without observers): the same findings (code,
event index, seat, message, severity, round, turn) and the same count past the cap, on
the corpus's riichi games, on thousands of seeded mutants of them (moves dropped,
swapped, doubled, given to another seat, tiles and scores changed), and on generated
games; and the encoder (``mjlog.replay.code``) declines what it cannot hold.
"""

from __future__ import annotations

import contextlib
import dataclasses
import os
import random
from array import array
from collections.abc import Callable, Iterable, Sequence
from functools import cache
from typing import Any, NamedTuple, cast

import pytest

from mjlog.core import native
from mjlog.core.diagnostics import Finding, InputError, Src
from mjlog.core.events import (
    Comment,
    DoraReveal,
    Draw,
    Event,
    GameStart,
    RoundStart,
    Unknown,
    Win,
)
from mjlog.core.record import GameRecord
from mjlog.core.ruleset import RiichiOptions, Ruleset, preset
from mjlog.core.tiles import UNKNOWN, Tile, tile_str
from mjlog.families.registry import random_games
from mjlog.formats import read_bytes, read_path
from mjlog.replay import code as engine_code
from mjlog.replay.engine import Engine

from .conftest import CORPUS, CORPUS_MISSING, EXAMPLES
from .test_sheets import PANTHEON_GAMES

CORE = native.core()
Row = tuple[str, int, int | None, str, str, str, int]
"""A finding as both engines are compared on: code, event index, seat, message, severity,
round, turn."""


@pytest.fixture(scope="module")
def core() -> Any:
    """The native core; in CI its absence fails (CI builds it), elsewhere it skips."""
    if CORE is None:
        if os.environ.get("CI"):
            pytest.fail("CI must build the native core: " + native.describe())
        pytest.skip("the native core is not built here (no cargo at install)")
    return CORE


def _at(i: int) -> Src:
    return Src(index=i)


def _rows(findings: Iterable[Finding]) -> list[Row]:
    return [(f.code, f.src.index if f.src else -1, f.player, f.message, f.severity.value,
             f.round, f.turn) for f in findings]


def python_rows(events: Sequence[Event]) -> tuple[list[Row], int]:
    """The Python engine's findings of a game, and how many it only counted."""
    engine = Engine(_at)
    engine.run(events, [])
    return _rows(engine.findings), engine.left_out


def native_rows(core: Any, events: Sequence[Event]) -> tuple[list[Row], int] | None:
    """The native engine's, or None when the encoder declines the game."""
    got = engine_code.replay_native(core, events, _at)
    return None if got is None else (_rows(got[0]), got[1])


class Tally(NamedTuple):
    """Games compared, declined and different, findings compared, and the first
    difference (a description) when there is one."""

    compared: int
    declined: int
    different: int
    findings: int
    first: str


def compare(core: Any, games: Iterable[Sequence[Event]]) -> Tally:
    """Both engines on every game; the tally of what they did."""
    compared = declined = different = findings = 0
    first = ""
    for events in games:
        mine = native_rows(core, events)
        if mine is None:
            declined += 1
            continue
        theirs = python_rows(events)
        compared += 1
        findings += len(theirs[0])
        if mine != theirs:
            different += 1
            first = first or _difference(theirs, mine)
    return Tally(compared, declined, different, findings, first)


def _difference(python: tuple[list[Row], int], rust: tuple[list[Row], int]) -> str:
    for a, b in zip(python[0], rust[0], strict=False):
        if a != b:
            return f"python {a}\nnative {b}"
    return f"python {len(python[0])} findings ({python[1]} left out), native {len(rust[0])} " \
           f"({rust[1]})"


# -- the games


def _is_riichi(record: GameRecord) -> bool:
    start = record.events[0] if record.events else None
    return not isinstance(start, GameStart) or isinstance(start.ruleset.family_options,
                                                          RiichiOptions)


@cache
def corpus_records(step: int = 1) -> tuple[GameRecord, ...]:
    """Every riichi game of every ``step``-th file the corpus lists (files no reader takes
    left out)."""
    index = CORPUS / "_index.tsv"
    if not index.exists():
        pytest.skip(CORPUS_MISSING)
    out: list[GameRecord] = []
    for line in index.read_text(encoding="utf-8").splitlines()[1::step]:
        try:
            records = read_path(CORPUS / line.split("\t")[0])
        except InputError:
            continue
        out.extend(r for r in records if _is_riichi(r))
    return tuple(out)


def _sample(records: Sequence[GameRecord], n: int) -> list[GameRecord]:
    return list(records[:: max(1, len(records) // n)])[:n]


# -- the mutator

_SEAT_FIELDS = ("player", "from_player", "winner")
_TILE_FIELDS = ("tile", "called", "added", "indicator", "win_tile", "dora_indicator")
_TILES_FIELDS = ("tiles", "hand", "ura_indicators", "dora_indicators")
_SCORE_FIELDS = ("scores", "deltas", "scores_before")


def _odd_tile(rng: random.Random) -> int:
    """A tile id, now and then the unknown tile or one outside every table."""
    roll = rng.random()
    if roll < 0.05:
        return UNKNOWN
    if roll < 0.08:
        return -1  # (an id past 144 in a draw crashes the Python engine: see the report)
    return rng.randrange(136)


def _having(events: list[Event], names: Sequence[str], rng: random.Random) -> tuple[int, str]:
    """A random event of ``events`` with one of the fields ``names`` set, and the field
    (``-1`` when none has)."""
    for _ in range(20):
        i = rng.randrange(len(events))
        fields = [n for n in names if getattr(events[i], n, None) not in (None, ())]
        if fields:
            return i, rng.choice(fields)
    return -1, ""


def _replaced(ev: Any, name: str, value: object) -> Event:
    """``ev`` with its field ``name`` set to ``value``."""
    return cast(Event, dataclasses.replace(ev, **{name: value}))


def _drop(events: list[Event], rng: random.Random) -> None:
    del events[rng.randrange(1, len(events))]


def _swap(events: list[Event], rng: random.Random) -> None:
    i = rng.randrange(1, len(events) - 1)
    events[i], events[i + 1] = events[i + 1], events[i]


def _double(events: list[Event], rng: random.Random) -> None:
    i = rng.randrange(1, len(events))
    events.insert(i, events[i])


def _reseat(events: list[Event], rng: random.Random) -> None:
    i, name = _having(events, _SEAT_FIELDS, rng)
    if i >= 0:
        events[i] = _replaced(events[i], name, rng.randrange(5))


def _retile(events: list[Event], rng: random.Random) -> None:
    i, name = _having(events, (*_TILE_FIELDS, *_TILES_FIELDS, "hands"), rng)
    if i < 0:
        return
    value = getattr(events[i], name)
    if name in _TILE_FIELDS:
        value = _odd_tile(rng)
    elif name == "hands":
        k = rng.randrange(len(value))
        value = (*value[:k], _changed(value[k], rng), *value[k + 1:])
    else:
        value = _changed(value, rng)
    events[i] = _replaced(events[i], name, value)


def _changed(tiles: tuple[int, ...], rng: random.Random) -> tuple[int, ...]:
    if not tiles:
        return (_odd_tile(rng),)
    k = rng.randrange(len(tiles))
    return (*tiles[:k], _odd_tile(rng), *tiles[k + 1:])


def _rescore(events: list[Event], rng: random.Random) -> None:
    i, name = _having(events, _SCORE_FIELDS, rng)
    if i < 0:
        return
    values = list(getattr(events[i], name))
    if rng.random() < 0.1:
        values.pop()  # another number of seats
    elif values:
        values[rng.randrange(len(values))] += rng.choice((-1000, 100, 300, 8000))
    events[i] = _replaced(events[i], name, tuple(values))


MUTATIONS: tuple[Callable[[list[Event], random.Random], None], ...] = (
    _drop, _drop, _swap, _swap, _double, _reseat, _reseat, _retile, _retile, _rescore)
"""The mutations, each as often as it appears (moves are dropped, swapped and
reassigned most)."""


def mutants(records: Sequence[GameRecord], count: int, seed: int) -> Iterable[list[Event]]:
    """``count`` mutants of games of ``records``, each with one to three mutations."""
    rng = random.Random(seed)
    for _ in range(count):
        events = list(rng.choice(records).events)
        if len(events) < 3:
            continue
        for _ in range(rng.randint(1, 3)):
            rng.choice(MUTATIONS)(events, rng)
        yield events


# -- the tests


def _report(what: str, tally: Tally) -> None:
    print(f"\n{what}: {tally.compared} compared, {tally.declined} declined, "
          f"{tally.different} different, {tally.findings} findings")
    assert tally.different == 0, f"{what}: {tally.different} differ; first:\n{tally.first}"


def test_corpus_sample_same_findings(core: Any) -> None:
    """Twenty games of the corpus, of every format: identical findings."""
    tally = compare(core, (r.events for r in _sample(corpus_records(50), 20)))
    _report("corpus sample", tally)
    assert tally.compared == 20


def test_corpus_mutants_same_findings(core: Any) -> None:
    """Two hundred mutants of the corpus's games: identical findings, and findings there
    are (the mutants break what they should)."""
    tally = compare(core, mutants(_sample(corpus_records(50), 40), 200, seed=46))
    _report("mutants", tally)
    assert tally.compared > 190 and tally.findings > 200


def test_generated_games_same_findings(core: Any) -> None:
    """Random games of four and three players, and mutants of them."""
    games = [*random_games(preset("tenhou"), 3, seed=1),
             *random_games(preset("tenhou-sanma"), 3, seed=1)]
    tally = compare(core, [g.events for g in games])
    _report("generated", tally)
    assert tally.compared == 6
    _report("generated mutants", compare(core, mutants(games, 100, seed=7)))


@pytest.mark.slow
def test_whole_corpus_same_findings(core: Any) -> None:
    """Every riichi game of the corpus."""
    records = corpus_records()
    tally = compare(core, (r.events for r in records))
    _report("whole corpus", tally)
    assert tally.compared == len(records)


@pytest.mark.slow
def test_thousands_of_mutants_same_findings(core: Any) -> None:
    """Five thousand mutants of the whole corpus."""
    tally = compare(core, mutants(corpus_records(), 5000, seed=2026))
    _report("corpus mutants", tally)
    assert tally.compared > 4900


@pytest.mark.slow
def test_many_generated_games_same_findings(core: Any) -> None:
    """Forty generated games of each table size, and a thousand mutants of them."""
    games = [*random_games(preset("tenhou"), 40, seed=100),
             *random_games(preset("tenhou-sanma"), 40, seed=100)]
    _report("generated", compare(core, [g.events for g in games]))
    _report("generated mutants", compare(core, mutants(games, 1000, seed=8)))


def test_partial_and_score_sheet_records(core: Any) -> None:
    """Unknown tiles (a partial record) and a score sheet's unpaid results: the notes and
    the reused tiles come out alike."""
    game = next(random_games(preset("tenhou"), 1, seed=3)).events
    rng = random.Random(5)
    hidden = [dataclasses.replace(ev, tile=UNKNOWN) if isinstance(ev, Draw)
              and rng.random() < 0.2 else ev for ev in game]
    tally = compare(core, [hidden])
    _report("partial", tally)
    assert tally.findings > 0


def test_examples_and_score_sheets(core: Any) -> None:
    """The examples (the Taiwanese ones declined) and score sheets (chombo, unpaid results
    and carried scores), and mutants of the sheets: identical findings."""
    examples = [r for path in sorted(EXAMPLES.glob("*.mj*")) for r in read_path(path)]
    tally = compare(core, [r.events for r in examples])
    _report("examples", tally)
    assert tally.compared + tally.declined == len(examples) and tally.declined >= 4
    sheets = [r for text in PANTHEON_GAMES for r in read_bytes(text.encode(), "sheet")]
    tally = compare(core, [r.events for r in sheets])
    _report("sheets", tally)
    assert tally.compared == len(sheets) and tally.findings >= len(sheets)
    _report("sheet mutants", compare(core, mutants(sheets, 100, seed=9)))


def _first(events: Sequence[Event], cls: type) -> int:
    return next(i for i, ev in enumerate(events) if isinstance(ev, cls))


def test_a_draw_past_every_tile_is_unreplayable(core: Any) -> None:
    """A draw of tile 145 by the seat to draw: ``unreplayable-event`` on both routes."""
    game = list(next(random_games(preset("tenhou"), 1, seed=3)).events)
    i = _first(game, Draw)
    game[i] = _replaced(game[i], "tile", 145)
    mine = native_rows(core, game)
    assert mine is not None and mine[0][0][:2] == ("unreplayable-event", i)
    assert python_rows(game) == mine


def test_named_tiles_of_a_partial_winning_hand_in_order(core: Any) -> None:
    """Three of the winner's dealt tiles not written down, named by the winning hand after
    they were shown as indicators: three ``tile-reused`` in the same order."""
    game = list(next(random_games(preset("tenhou"), 1, seed=3)).events)
    w = _first(game, Win)
    win = cast(Win, game[w])
    r = max(i for i in range(w) if isinstance(game[i], RoundStart))
    deal = cast(RoundStart, game[r])
    named = [t for t in win.hand if t in deal.hands[win.winner]][:3]
    hands = tuple(tuple(UNKNOWN if t in named else t for t in hand) for hand in deal.hands)
    game[r] = dataclasses.replace(deal, hands=hands)
    game[w:w] = [DoraReveal(indicator=Tile(t)) for t in named]
    theirs, mine = python_rows(game), native_rows(core, game)
    assert [f[3] for f in theirs[0] if f[0] == "tile-reused"][-3:] == [
        f"physical tile {tile_str(t)} (id {t}) appears twice" for t in sorted(named)]
    assert theirs == mine


def test_encoder_declines_what_it_cannot_hold() -> None:
    """Another family, another number of seats, a value that is no integer, an event
    class without a row: declined, with the event and the reason."""
    taiwan = GameStart(source="x", players=(), ruleset=Ruleset().with_options(
        family="taiwan16"))
    assert engine_code.encode([taiwan]) == (None, "event 0 (GameStart): a table of the "
                                                  "taiwan16 family")
    assert engine_code.encode([GameStart(source="x", players=())]).reason == (
        "event 0 (GameStart): a table of 0 seats")
    bad = engine_code.encode([Comment(text="a"), Draw(player=0, tile=True)])  # type: ignore[arg-type]
    assert bad.code is None and bad.reason.startswith("event 1 (Draw): the value True")
    assert engine_code.encode([object()]).reason == (  # type: ignore[list-item]
        "event 0 (object): no row for a object event")
    ok = engine_code.encode([Unknown(tag="x"), Draw(player=1, tile=Tile(5))])
    assert ok.code == array("q", [engine_code.K_NOOP, engine_code.K_DRAW, 1, 5, 0]).tobytes()


def _odd_events(rng: random.Random, events: list[Event]) -> list[Event]:
    """``events`` with a value of another type than its class says somewhere: a ``bool``,
    a float, a list for a tuple, an integer past the code's bound."""
    i, name = _having(events, (*_SEAT_FIELDS, *_TILE_FIELDS, *_SCORE_FIELDS, "tiles"), rng)
    if i >= 0:
        value = getattr(events[i], name)
        odd = rng.choice((True, 1.0, 2**41, -(2**41))) if isinstance(value, int) \
            else list(value)
        events[i] = _replaced(events[i], name, odd)
    return events


def test_native_coder_writes_the_python_code(core: Any) -> None:
    """The native ``EventCoder`` with the Python rows in its holes gives the code the
    Python encoder gives, byte for byte, and declines what it declines, with the same
    reason: on corpus games, their mutants and events with values of odd types."""
    games = [r.events for r in _sample(corpus_records(50), 20)]
    games += list(mutants(_sample(corpus_records(50), 20), 200, seed=12))
    rng = random.Random(4)
    games += [_odd_events(rng, list(rng.choice(games))) for _ in range(200)]
    declined = 0
    for events in games:
        python = engine_code.encode(events)
        assert engine_code.encode(events, core) == python
        declined += python.code is None
    assert 0 < declined < len(games)


def test_malformed_codes_are_value_errors(core: Any) -> None:
    """Bytes that are no code: a ValueError naming the word, never a crash; random bytes
    and random words never bring the engine down."""
    with pytest.raises(ValueError, match="whole number of 64-bit words"):
        core.replay_code(b"\x01")
    with pytest.raises(ValueError, match="at word 0"):
        core.replay_code(array("q", [99]).tobytes())
    rng = random.Random(11)
    for _ in range(2000):
        words = array("q", (rng.choice((rng.randrange(-3, 30), rng.randrange(150),
                                        rng.getrandbits(63))) for _ in range(rng.randrange(40))))
        with contextlib.suppress(ValueError):
            core.replay_code(words.tobytes())

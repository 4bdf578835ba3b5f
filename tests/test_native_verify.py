"""The native score verifier (``core/src/scoring/verify.rs``) against its specification,
:class:`mjlog.families.riichi.scoring.verify.Verifier` run by ``Engine.run`` as the riichi
judging runs it with ``scores=True, rules=False``: the same mismatches (code, event,
seat, field, recorded and computed values with their types, message, round, turn) and
the same engine findings, on the corpus's riichi games under their own ruleset and
presets that change values (kiriage, no open tanyao, jpml), their mutants (the engine's
mutator and changed claims) and generated games. Games the native verifier declines (it
would have asked the ``mahjong`` library) are counted, not compared.
"""

from __future__ import annotations

import dataclasses
import random
from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Any, NamedTuple

import pytest

from mjlog.core.diagnostics import ScoreMismatch, Src
from mjlog.core.events import Event, ExhaustiveDraw, GameStart, Win, YakuClaim
from mjlog.core.record import GameRecord
from mjlog.core.ruleset import Ruleset, preset
from mjlog.core.tiles import UNKNOWN, Tile
from mjlog.families.registry import random_games
from mjlog.families.riichi.scoring.native import verify_scores_native
from mjlog.families.riichi.scoring.verify import Verifier
from mjlog.replay.engine import Engine

from .test_native_engine import _rows, _sample, core, corpus_records, mutants

__all__ = ["core"]  # the fixture, shared with the engine's differential test

Row = tuple[Any, ...]


def _at(i: int) -> Src:
    return Src(index=i)


def _mismatch_rows(found: Iterable[ScoreMismatch]) -> list[Row]:
    """Mismatches as compared: every field, with each value's type beside it (a bool is
    no int here)."""
    return [(m.code, m.src.index if m.src else -1, m.player, m.field, m.recorded,
             type(m.recorded).__name__, m.computed, type(m.computed).__name__, m.message,
             m.round, m.turn) for m in found]


def own_ruleset(events: Sequence[Event]) -> Ruleset:
    start = events[0] if events else None
    return start.ruleset if isinstance(start, GameStart) else Ruleset()


def rulesets(events: Sequence[Event]) -> list[Ruleset]:
    """The record's own ruleset, then presets that value hands otherwise: kiriage, no open
    tanyao, jpml (no red fives), each of the record's number of seats."""
    own = own_ruleset(events)
    out = [own, own.with_options(kiriage=True), own.with_options(open_tanyao=False)]
    jpml = preset("jpml")
    if jpml.players != own.players:
        jpml = dataclasses.replace(jpml, players=own.players)
    return [*out, jpml]


class _Record(GameRecord):
    """A record whose events' source positions are their indices (as :func:`_at`)."""

    def src(self, index: int) -> Src | None:
        return _at(index)


def python_rows(events: list[Event], ruleset: Ruleset) -> tuple[list[Row], list[Row]]:
    """The Python verifier's mismatches and the engine's findings."""
    engine = Engine(_at)
    record = _Record(path="", format="", events=events)
    verifier = Verifier(record, ruleset, engine, yaku_judged=False)
    engine.run(events, [verifier])
    return _mismatch_rows(verifier.report.mismatches), _rows(engine.findings)


class Tally(NamedTuple):
    """Runs compared, declined (with the reasons), different, mismatches compared, and
    the first difference."""

    compared: int
    declined: Counter[str]
    different: int
    mismatches: int
    first: str


def compare(core: Any, games: Iterable[list[Event]], presets: bool = True) -> Tally:
    """Both verifiers on every game under each of its :func:`rulesets` (the own one alone
    without ``presets``)."""
    compared = different = mismatches = 0
    declined: Counter[str] = Counter()
    first = ""
    for events in games:
        for ruleset in rulesets(events) if presets else [own_ruleset(events)]:
            mine = verify_scores_native(core, events, ruleset, _at)
            if mine.mismatches is None or mine.findings is None:
                declined[mine.declined.split(":")[0]] += 1
                continue
            theirs = python_rows(events, ruleset)
            compared += 1
            mismatches += len(theirs[0])
            got = (_mismatch_rows(mine.mismatches), _rows(mine.findings))
            if got != theirs:
                different += 1
                first = first or f"python {theirs}\nnative {got}"
    return Tally(compared, declined, different, mismatches, first)


def _report(what: str, tally: Tally) -> None:
    print(f"\n{what}: {tally.compared} compared, {sum(tally.declined.values())} declined "
          f"{dict(tally.declined)}, {tally.different} different, {tally.mismatches} mismatches")
    assert tally.different == 0, f"{what}: {tally.different} differ; first:\n{tally.first}"


# -- claims changed


def _claim_mutant(events: list[Event], rng: random.Random) -> list[Event] | None:
    """``events`` with one win's claims changed: a yaku dropped, the fu or the points
    altered, the pao named, or a dora indicator added; or an exhaustive draw's nagashi
    claim flipped; ``None`` for a game without a win."""
    draws = [i for i, ev in enumerate(events) if isinstance(ev, ExhaustiveDraw)]
    if draws and rng.random() < 0.2:  # the nagashi claim flipped
        i = rng.choice(draws)
        draw = events[i]
        assert isinstance(draw, ExhaustiveDraw)
        return [*events[:i], dataclasses.replace(draw, nagashi=not draw.nagashi),
                *events[i + 1:]]
    wins = [i for i, ev in enumerate(events) if isinstance(ev, Win)]
    if not wins:
        return None
    i = rng.choice(wins)
    ev = events[i]
    assert isinstance(ev, Win)
    how = rng.randrange(5)
    if how == 0 and ev.yaku:
        drop = rng.randrange(len(ev.yaku))
        changed = dataclasses.replace(ev, yaku=ev.yaku[:drop] + ev.yaku[drop + 1:])
    elif how == 1:
        changed = dataclasses.replace(ev, fu=ev.fu + 10)
    elif how == 2:
        changed = dataclasses.replace(ev, points=ev.points + 100,
                                      yaku=(*ev.yaku, YakuClaim(name="no-such-yaku", han=0)))
    elif how == 3:
        changed = dataclasses.replace(ev, pao=(ev.winner + 1) % 3)
    else:
        extra = Tile(rng.choice((0, 53, UNKNOWN)))
        changed = dataclasses.replace(ev, dora_indicators=(*ev.dora_indicators, extra))
    return [*events[:i], changed, *events[i + 1:]]


def claim_mutants(records: Sequence[GameRecord], count: int, seed: int) -> list[list[Event]]:
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        got = _claim_mutant(list(rng.choice(records).events), rng)
        if got is not None:
            out.append(got)
    return out


# -- the tests


def test_corpus_sample_same_mismatches(core: Any) -> None:
    """Twelve games of the corpus under their own ruleset and three presets."""
    tally = compare(core, (list(r.events) for r in _sample(corpus_records(50), 12)))
    _report("corpus sample", tally)
    assert tally.compared > 12


def test_claim_mutants_same_mismatches(core: Any) -> None:
    """Wins whose claims were changed: the native verifier declines a value the record
    no longer confirms (the library would be asked) and judges the pao exactly."""
    tally = compare(core, claim_mutants(_sample(corpus_records(50), 20), 40, seed=46),
                    presets=False)
    _report("claim mutants", tally)
    assert tally.compared + sum(tally.declined.values()) >= 30


def test_mutants_and_generated_same_mismatches(core: Any) -> None:
    """Mutants of the corpus (the engine's mutator) and generated games."""
    _report("mutants", compare(core, mutants(_sample(corpus_records(50), 20), 60, seed=46),
                               presets=False))
    games = [*random_games(preset("tenhou"), 2, seed=1),
             *random_games(preset("tenhou-sanma"), 2, seed=1)]
    tally = compare(core, [list(g.events) for g in games])
    _report("generated", tally)
    assert tally.compared + sum(tally.declined.values()) == 16


@pytest.mark.slow
def test_whole_corpus_same_mismatches(core: Any) -> None:
    """Every riichi game of the corpus under its own ruleset and three presets."""
    _report("whole corpus", compare(core, (list(r.events) for r in corpus_records())))


@pytest.mark.slow
def test_many_mutants_same_mismatches(core: Any) -> None:
    """A thousand mutants and five hundred claim mutants of the corpus, and generated
    games with their mutants."""
    records = corpus_records(5)
    _report("mutants", compare(core, mutants(records, 1000, seed=7), presets=False))
    _report("claim mutants", compare(core, claim_mutants(records, 500, seed=7), presets=False))
    games = [*random_games(preset("tenhou"), 20, seed=3),
             *random_games(preset("tenhou-sanma"), 20, seed=3)]
    _report("generated", compare(core, [list(g.events) for g in games]))
    _report("generated mutants", compare(core, mutants(games, 300, seed=9), presets=False))

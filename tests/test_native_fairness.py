"""The fairness report's native twins: shanten of closed hands, the simulated uniform hands
and the samples of Tenhou XML games, identical to their Python specifications."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

pytest.importorskip("scipy", reason="the fairness report needs scipy (pip install '.[test]')")

from mjlog.core.diagnostics import InputError
from mjlog.families.riichi.hand.shape import shanten
from mjlog.formats import file_bytes, read_bytes
from mjlog.formats.compression import gunzip
from mjlog.stats.fairness import inference
from mjlog.stats.fairness.sample import GameSample, sample_game, sample_native

from .conftest import EXAMPLES
from .test_native import _native_core, _route, xml_mutants

SEEDED = EXAMPLES / "east-seeded.mjlog"


def _hand(kinds: list[int]) -> list[int] | None:
    counts = [0] * 34
    for k in kinds:
        counts[k] += 1
    return counts if max(counts) <= 4 else None


@pytest.mark.slow  # 3,000 hands, about 5 s (the hard cases below stay in the inner loop)
@settings(max_examples=3000, deadline=None)
@given(st.lists(st.integers(0, 33), min_size=13, max_size=14)
       | st.lists(st.sampled_from([0, 1, 2, 3, 8, 9, 17, 18, 26, 27, 31, 33]), min_size=13,
                  max_size=14))
def test_closed_shanten_twins_agree(kinds: list[int]) -> None:
    """Any closed hand of 13 or 14 tiles (some made of few kinds, for pairs, sets and
    thirteen orphans): the native count is the Python kernel's."""
    core = _native_core()
    counts = _hand(kinds)
    if counts is not None:
        assert core.closed_shanten(counts) == shanten(counts)  # type: ignore[attr-defined]


def test_closed_shanten_of_the_hard_cases() -> None:
    """A ready hand whose only wait is a kind held four times is 1 on both routes; a
    dealt win is -1; the core refuses what is not a closed hand."""
    core = _native_core()
    four_held = [4] + [0] * 8 + [1] * 9 + [0] * 16
    assert shanten(four_held) == core.closed_shanten(four_held) == 1  # type: ignore[attr-defined]
    won = [3, 1, 1, 1, 2, 1, 1, 1, 3] + [0] * 25  # nine gates, complete
    assert shanten(won) == core.closed_shanten(won) == -1  # type: ignore[attr-defined]
    with pytest.raises(ValueError):
        core.closed_shanten([5] + [1] * 9 + [0] * 24)  # type: ignore[attr-defined]
    with pytest.raises(ValueError):
        core.closed_shanten([1] * 12 + [0] * 22)  # type: ignore[attr-defined]


@pytest.mark.parametrize("players", [3, 4])
def test_uniform_hands_twins_agree(players: int) -> None:
    """The simulated uniform walls' starting shanten and pairs: the same histograms."""
    _native_core()
    found = []
    for pure in (False, True):
        with _route(pure):
            inference.uniform_hands.cache_clear()
            found.append(inference.uniform_hands(players, 3000, 7))
    inference.uniform_hands.cache_clear()
    assert (found[0][0] == found[1][0]).all() and (found[0][1] == found[1][1]).all()
    assert int(found[0][0][0].sum()) == 3000


def _twins(data: bytes, path: str) -> tuple[GameSample | None, GameSample | None]:
    """The native sample of a record (None: declined) and the Python route's."""
    with _route(False):
        ours = sample_native(data, path)
    with _route(True):
        try:
            records = read_bytes(data, path)
        except InputError:  # a mutant may not be a record at all
            records = []
        spec = sample_game(records[0]) if records else None
    return ours, spec


def test_a_seeded_games_samples_are_the_python_routes() -> None:
    """The example whose walls come from a made-up seed: sampled natively, identically."""
    _native_core()
    ours, spec = _twins(SEEDED.read_bytes(), str(SEEDED))
    assert ours is not None and ours == spec
    assert [r.status for r in ours.rounds] == ["proven"] * 4


@settings(max_examples=80, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_mutated_seeded_games_are_sampled_the_same(data: st.DataObject) -> None:
    """An attribute changed, an element dropped, copied or moved: the core declines, or
    gives the Python route's samples."""
    _native_core()
    text = data.draw(xml_mutants(SEEDED.read_bytes()))
    ours, spec = _twins(text, "mutant.mjlog")
    assert ours is None or ours == spec


@pytest.mark.slow
def test_the_corpus_is_sampled_the_same(tenhou_xml_paths: list[Path]) -> None:
    """Every Tenhou XML game of the corpus: the native samples are the Python route's, and
    the core samples most of them (those with a 2009-on seed whose rounds are proven)."""
    _native_core()
    taken = 0
    for path in tenhou_xml_paths:
        ours, spec = _twins(file_bytes(str(path)), str(path))
        if ours is not None:
            assert ours == spec, path
            taken += 1
    assert taken > 0.9 * len(tenhou_xml_paths)


@pytest.mark.slow
@settings(max_examples=400, deadline=None)
@given(data=st.data())
def test_mutants_of_corpus_games_are_sampled_the_same(tenhou_xml_paths: list[Path],
                                                      data: st.DataObject) -> None:
    """Mutants of corpus games (riichi wins with ura, kans, three-player games): the core
    declines, or gives the Python route's samples."""
    _native_core()
    path = data.draw(st.sampled_from(tenhou_xml_paths))
    text = data.draw(xml_mutants(gunzip(path.read_bytes())[0]))
    ours, spec = _twins(text, str(path))
    assert ours is None or ours == spec, path

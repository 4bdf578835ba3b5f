"""The fairness report: its tests on simulated shuffles, fair and planted, and the command
on records whose walls are proven (made here from made-up Tenhou seeds) and on the corpus."""

from __future__ import annotations

import importlib.util
import json
import random
import re
import sys
from dataclasses import replace
from pathlib import Path

import pytest
from click.testing import CliRunner

pytest.importorskip("scipy", reason="the fairness report needs scipy (pip install '.[test]')")

from mjlog.cli import main
from mjlog.core.tiles import KIND_OF, Tile
from mjlog.stats.fairness.inference import Result, analyse
from mjlog.stats.fairness.sample import GameSample, expected_hits, wall_round
from mjlog.stats.fairness.tally import Tally
from mjlog.wall.dealing import deal
from mjlog.wall.verify import DealtWall

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT.parent / "shared" / "corpus"
PLANTED = {"often": (0.3, 2000), "rare": (0.1, 10000)}
"""How often the planted bias of :func:`planted` is planted, and the rounds that
docs/fairness.md says find it (20 and 19 times in 20 seeds)."""


def physical(rng: random.Random) -> DealtWall:
    """A wall shuffled by Python's ``random`` (uniform), dealt at a table by mjlog's dealer."""
    tiles = list(range(136))
    rng.shuffle(tiles)
    walls = [[(Tile(tiles[w * 34 + 2 * k]), Tile(tiles[w * 34 + 2 * k + 1]))
              for k in range(17)] for w in range(4)]
    dice = (rng.randint(1, 6), rng.randint(1, 6))
    return DealtWall(deal(walls, dice, method="one-roll"), dice)


def planted(rng: random.Random, wall: DealtWall, chance: float) -> DealtWall:
    """``wall``, except that with ``chance`` the dealer is given a second tile of a kind he
    holds one of (swapped in from the live wall for another tile of his hand)."""
    if rng.random() >= chance:
        return wall
    d = wall.deal
    hand, live = list(d.hands[0]), list(d.live)
    kinds = [KIND_OF[t] for t in hand]
    single = rng.choice([i for i, k in enumerate(kinds) if kinds.count(k) == 1])
    where = [j for j in range(1, len(live)) if KIND_OF[live[j]] == kinds[single]]
    if not where:
        return wall
    out = rng.choice([i for i in range(13) if i != single])
    j = rng.choice(where)
    hand[out], live[j] = live[j], hand[out]
    return DealtWall(replace(d, hands=(tuple(hand), *d.hands[1:]), live=tuple(live)), wall.dice)


def simulated(seed: int, rounds: int, chance: float = 0.0) -> list[Result]:
    """The report's tests over ``rounds`` simulated rounds (one per game)."""
    rng = random.Random(seed)
    tally = Tally()
    for g in range(rounds):
        wall = planted(rng, physical(rng), chance)
        tally.add(GameSample(key=g, platform="simulated", players=4, month=None, source="",
                             names=("A", "B", "C", "D"), rounds=(wall_round(wall, 0),)))
    return analyse(tally, seed=0)


@pytest.mark.slow  # seconds: CI runs it, the inner loop not
def test_uniform_walls_are_not_rejected() -> None:
    """20 runs of 500 uniformly shuffled walls: every test runs (position by position
    too), and a run with any rejection is as rare as the 5% false discovery rate makes it
    under a fair shuffle (expected: 1 run in 20 at most; P(4 or more) = 1.6%)."""
    rejecting = []
    for seed in range(20):
        results = simulated(seed, 500)
        ran = [r for r in results if r.run]
        assert {r.test for r in ran} == {"wall", "position", "shanten", "pairs", "dice"}
        assert len([r for r in ran if r.test == "position"]) == 88
        if any(r.rejects for r in results):
            rejecting.append(seed)
    assert len(rejecting) <= 3, rejecting


@pytest.mark.parametrize(("bias", "seed"), [
    ("often", 1),
    pytest.param("rare", 1, marks=pytest.mark.slow),
    pytest.param("rare", 2, marks=pytest.mark.slow),
])
def test_a_planted_bias_is_found(bias: str, seed: int) -> None:
    """Dealers given an extra tile of a pair (three rounds in ten, or one): the dealers'
    pairs test rejects at the sample size the docs give, and says so in words; the other
    seats' does not, nor do the dealers' on fair walls of the same seeds."""
    chance, rounds = PLANTED[bias]
    results = {(r.test, r.subject): r for r in simulated(seed, rounds, chance)}
    dealers = results["pairs", "dealers"]
    assert dealers.rejects and dealers.estimate is not None and dealers.estimate > 0
    assert "not as rich in pairs" in dealers.sentence
    assert not results["pairs", "other seats"].rejects
    fair = {(r.test, r.subject): r for r in simulated(seed, rounds)}
    assert not fair["pairs", "dealers"].rejects


def test_expected_ura_hits_by_hand() -> None:
    """One indicator among 4 unseen tiles (1m 1m 2m 5z) for a hand holding three 2m and
    one 6z: it is 1m half the time (3 hits), 5z a quarter (1 hit), 2m a quarter (none)."""
    unseen = [0] * 34
    unseen[0], unseen[1], unseen[31] = 2, 1, 1
    mine = [0] * 34
    mine[1], mine[32] = 3, 1
    mean, var = expected_hits(unseen, mine, three=False)
    assert mean == pytest.approx(0.5 * 3 + 0.25 * 1)
    assert var == pytest.approx(0.5 * 9 + 0.25 * 1 - mean ** 2)


def _seeded_games(folder: Path, count: int) -> list[Path]:
    """``count`` games of examples/make_examples.py's made-up seeds, written to ``folder``
    (the script is loaded without writing its bytecode into examples/)."""
    spec = importlib.util.spec_from_file_location("make_examples",
                                                  ROOT / "examples" / "make_examples.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    before, sys.dont_write_bytecode = sys.dont_write_bytecode, True
    try:
        spec.loader.exec_module(module)
    finally:
        sys.dont_write_bytecode = before
    seeded_game = module.seeded_game

    paths = []
    for k in range(count):
        path = folder / f"seeded-{k:03d}.mjlog"
        path.write_text(seeded_game(1000 + k), "utf-8")
        paths.append(path)
    return paths


def test_command_on_proven_walls(tmp_path: Path) -> None:
    """50 games dealt from made-up Tenhou seeds: 200 proven rounds, every kind of test
    run; a game whose one draw was changed (the first draw of seat 1 in its third round,
    the round's 4th) is a mismatch named by file, round and draw, and the round is not
    tested; a copy of a game is counted once."""
    paths = _seeded_games(tmp_path, 50)
    text = paths[7].read_text("utf-8")
    changed = re.sub(r"(<INIT seed=\"2,[^>]*>.*?<U)(\d+)", lambda m: m[1] + str(
        (int(m[2]) + 4) % 136), text, count=1, flags=re.S)
    assert changed != text
    paths[7].write_text(changed, "utf-8")
    (tmp_path / "copy.mjlog").write_text(paths[3].read_text("utf-8"), "utf-8")
    out = tmp_path / "report.json"
    result = CliRunner().invoke(main, ["fairness", str(tmp_path), "-o", str(out)])
    assert result.exit_code == 0, result.output
    data = json.loads(out.read_text("utf-8"))
    assert data["games"] == 50 and data["duplicates"] == 1
    assert data["rounds"] == {"proven": 199, "mismatch": 1}
    assert data["mismatches"] == [{"source": str(paths[7]), "round": "E3-2",
                                   "status": "mismatch", "why": "live-wall draw 4"}]
    ran = {t["test"] for t in data["tests"] if t["p"] is not None}
    assert ran == {"wall", "position", "shanten", "pairs", "dice"}
    dice = next(t for t in data["tests"] if t["test"] == "dice")
    assert sum(dice["observed"]) == 199


def test_text_report_names_what_it_could_not_test(tmp_path: Path) -> None:
    """A small sample: the terminal report says which tests need more rounds and how
    many, and still lists the proven rounds by month."""
    _seeded_games(tmp_path, 3)
    result = CliRunner().invoke(main, ["fairness", str(tmp_path)])
    assert result.exit_code == 0, result.output
    assert "12 proven" in result.output
    assert "tenhou, 4 players, proven walls" in result.output
    assert "not tested (needs 170 rounds)" in result.output
    assert re.search(r"tenhou\s+undated\s+12\b", result.output)


def test_damaged_input_exits_2_after_the_report(tmp_path: Path) -> None:
    """A game cut short keeps its rounds before the damage; the damage is named with its
    line and column; the status is 2, after the report."""
    good, cut = _seeded_games(tmp_path, 2)
    text = cut.read_text("utf-8")
    cut.write_text(text[:text.index("<INIT", text.index("<INIT") + 1) + 40], "utf-8")
    result = CliRunner().invoke(main, ["fairness", str(good), str(cut)])
    assert result.exit_code == 2
    assert "; rounds: 5 proven" in result.output
    assert re.search(r"seeded-001.mjlog: cannot read: error: xml-syntax at line 1, column \d+",
                     result.output), result.output

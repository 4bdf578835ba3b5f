"""The native core and its Python twins: the same results on both routes, the route chosen
as documented (``MJLOG_PURE``), and mjlog installed as pure Python where cargo is absent."""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from benchmarks.native_vs_pure import compare
from mjlog import native
from mjlog.events import GameStart, RoundStart
from mjlog.record import GameRecord
from mjlog.wall.tenhou_shuffle import PythonShuffle, SeedError, TenhouSeed, parse_seed

from .conftest import CORPUS, CORPUS_MISSING, EXAMPLES, ROOT

CORE = native.core()
NOT_BUILT = "the native core is not built here (no cargo at install): nothing to compare"


def _native_core() -> object:
    """The native core; in CI its absence fails (CI builds it), elsewhere it skips."""
    if CORE is None:
        if os.environ.get("CI"):
            pytest.fail("CI must build the native core: " + native.describe())
        pytest.skip(NOT_BUILT)
    return CORE


def test_ci_runs_on_the_native_core() -> None:
    """The suite in CI runs natively, so that every test below compares something."""
    _native_core()
    assert native.describe().startswith("core: native")


def _walls_agree(words: tuple[int, ...], raw: bool, tables: list[int]) -> None:
    core = _native_core()
    twin = core.TenhouShuffler(list(words), raw)  # type: ignore[attr-defined]
    spec = PythonShuffle(words, raw)
    for players in tables:
        assert twin.next_wall(players) == spec.next_wall(players)


@settings(max_examples=150, deadline=None)
@given(words=st.lists(st.integers(0, 2**32 - 1), min_size=1, max_size=700),
       raw=st.booleans(), tables=st.lists(st.sampled_from([3, 4]), min_size=1, max_size=4))
def test_tenhou_shuffle_twins_agree_on_any_key(words: list[int], raw: bool,
                                               tables: list[int]) -> None:
    """Keys of every length (the reference seeding's loop runs max(624, len) times), last
    words zero or not (the Python twin seeds those two ways), both tables, both forms."""
    _walls_agree(tuple(words), raw, tables)


def test_tenhou_shuffle_refuses_what_the_python_twin_refuses() -> None:
    core = _native_core()
    with pytest.raises(ValueError, match="3 or 4 players"):
        core.TenhouShuffler([1], False).next_wall(5)  # type: ignore[attr-defined]
    with pytest.raises(ValueError, match="3 or 4 players"):
        PythonShuffle((1,), False).next_wall(5)
    with pytest.raises(ValueError, match="key word"):
        core.TenhouShuffler([], False)  # type: ignore[attr-defined]
    with pytest.raises(OverflowError):
        core.TenhouShuffler([2**32], False)  # type: ignore[attr-defined]


def _seeds(rec: GameRecord) -> list[TenhouSeed]:
    """The game's shuffle seed and every round's own (early 2009) of a known form."""
    start = rec.events[0]
    texts = [dict(start.meta).get("shuffle.seed", "")] if isinstance(start, GameStart) else []
    texts += [dict(e.extra).get("shuffle", "") for e in rec.events if isinstance(e, RoundStart)]
    seeds = []
    for text in texts:
        with contextlib.suppress(SeedError):  # none, or of a form with no known shuffle
            seeds.append(parse_seed(text))
    return seeds


@pytest.mark.slow
def test_tenhou_shuffle_twins_agree_on_every_corpus_seed(
        tenhou_xml_records: list[tuple[Path, GameRecord]]) -> None:
    """Every game seed of the corpus, for as many rounds as its game has, and every
    per-round seed (early 2009)."""
    count = 0
    for _, rec in tenhou_xml_records:
        rounds = [e for e in rec.events if isinstance(e, RoundStart)]
        players = len(rounds[0].hands) if rounds else 4
        for seed in _seeds(rec):
            _walls_agree(seed.words, seed.form == "mt19937ar", [players] * len(rounds))
            count += 1
    assert count > 2000, count


def _routes_agree(paths: list[str], args: list[str]) -> int:
    _native_core()
    result = compare(paths, args)
    assert result.different == 0, f"first difference: {result.first}"
    return result.compared


def test_examples_give_the_same_reports_on_both_routes() -> None:
    compared = _routes_agree([str(EXAMPLES)], [])
    assert compared >= 27  # 26 games and the summary


@pytest.mark.slow
@pytest.mark.parametrize("rules", [[], ["--rules", "kansaki", "--force-rules"]])
def test_the_corpus_gives_the_same_reports_on_both_routes(rules: list[str]) -> None:
    """The whole shared corpus, under each record's own preset and under kansaki."""
    if not CORPUS.exists():
        pytest.skip(CORPUS_MISSING)
    compared = _routes_agree([str(CORPUS)], ["--jobs", "2", *rules])
    assert compared > 2500  # every corpus game (2,700 or so) and the summary


def _version(env: dict[str, str]) -> str:
    done = subprocess.run([sys.executable, "-m", "mjlog.cli", "--version"], env=env,
                          capture_output=True, text=True, check=True)
    return done.stdout + done.stderr


def test_version_names_the_core_and_mjlog_pure_forces_python() -> None:
    env = {k: v for k, v in os.environ.items() if k != native.PURE_VARIABLE}
    pure = _version({**env, native.PURE_VARIABLE: "1"})
    assert "core: pure Python (MJLOG_PURE is set)" in pure and "warning" not in pure
    if CORE is not None:
        assert "core: native 0.1.0 (Rust)" in _version(env)
        assert "core: native" in _version({**env, native.PURE_VARIABLE: "0"})


@pytest.mark.slow
def test_without_cargo_mjlog_installs_as_pure_python_and_says_so(tmp_path: Path) -> None:
    """A wheel built with no Rust on the PATH has no native core; installed, mjlog works,
    says which core runs, and warns once, in one line, that the native core is missing."""
    path = os.pathsep.join(d for d in os.environ["PATH"].split(os.pathsep)
                           if not (Path(d) / "cargo").exists())
    env = {k: v for k, v in os.environ.items() if k not in ("CARGO", native.PURE_VARIABLE)}
    env["PATH"] = path
    subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w",
                    str(tmp_path / "wheel"), str(ROOT)], env=env, check=True,
                   capture_output=True)
    (wheel,) = (tmp_path / "wheel").glob("mjlog-*.whl")
    assert not [n for n in zipfile.ZipFile(wheel).namelist() if "_native" in n]
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    site = next((venv / "lib").glob("python3*/site-packages"))
    with zipfile.ZipFile(wheel) as archive:
        archive.extractall(site)
    # the dependencies come from the suite's own environment, after the wheel's mjlog
    deps = next(p for p in sys.path if p.endswith("site-packages"))
    (site / "deps.pth").write_text(deps + "\n", encoding="utf-8")
    python = str(venv / "bin" / "python")
    version = subprocess.run(
        [python, "-c", "import mjlog.native as n; print(n.describe())"],
        env=env, capture_output=True, text=True, check=True, cwd=tmp_path).stdout
    assert "core: pure Python (the native core was not built" in version
    done = subprocess.run([python, "-c", "from mjlog.cli import run; run()", "audit",
                           str(EXAMPLES / "18-furiten-riichi-ron.mjn")],
                          env=env, capture_output=True, text=True, check=False, cwd=tmp_path)
    assert done.returncode == 1, done.stderr  # the example's violation, judged in Python
    assert "violation: furiten-ron" in done.stdout
    warnings = [line for line in done.stderr.splitlines() if "native core" in line]
    assert len(warnings) == 1 and warnings[0].startswith("mjlog: warning:")

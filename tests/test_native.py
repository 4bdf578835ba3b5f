"""The native core and its Python twins: the same results on both routes, the route chosen
as documented (``MJLOG_PURE``), and mjlog installed as pure Python where cargo is absent."""

from __future__ import annotations

import contextlib
import dataclasses
import importlib
import os
import re
import subprocess
import sys
import zipfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from polars.testing import assert_frame_equal

from benchmarks.native_vs_pure import compare
from mjlog.core import native
from mjlog.core.events import GameStart, RoundStart
from mjlog.core.record import GameRecord
from mjlog.formats import tenhou_xml
from mjlog.formats.compression import gunzip
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
        [python, "-c", "import mjlog.core.native as n; print(n.describe())"],
        env=env, capture_output=True, text=True, check=True, cwd=tmp_path).stdout
    assert "core: pure Python (the native core was not built" in version
    done = subprocess.run([python, "-c", "from mjlog.cli import run; run()", "audit",
                           str(EXAMPLES / "18-furiten-riichi-ron.mjn")],
                          env=env, capture_output=True, text=True, check=False, cwd=tmp_path)
    assert done.returncode == 1, done.stderr  # the example's violation, judged in Python
    assert "violation: furiten-ron" in done.stdout
    warnings = [line for line in done.stderr.splitlines() if "native core" in line]
    assert len(warnings) == 1 and warnings[0].startswith("mjlog: warning:")


# -- statistics' fact rows from Tenhou XML (TenhouFacts, twin of reading + add_game)

FACTS = importlib.import_module("mjlog.stats.facts")  # mjlog.stats.facts is also a function


@contextlib.contextmanager
def _route(pure: bool) -> Iterator[None]:
    """This process on one route (the variable set, the cached choices cleared)."""
    before = os.environ.get(native.PURE_VARIABLE)
    os.environ[native.PURE_VARIABLE] = "1" if pure else "0"
    native.core.cache_clear()
    FACTS._native_reader.cache_clear()
    try:
        yield
    finally:
        if before is None:
            del os.environ[native.PURE_VARIABLE]
        else:
            os.environ[native.PURE_VARIABLE] = before
        native.core.cache_clear()
        FACTS._native_reader.cache_clear()


def _batches(items: list[tuple[str, bool]]) -> tuple[Any, Any]:
    """The fact batches of ``items`` on the native route and on the Python route."""
    _native_core()
    batches = []
    for pure in (False, True):
        with _route(pure):
            batch = FACTS.Batch()
            for item in items:
                FACTS.add_file(batch, item)
            batches.append(batch)
    return batches[0], batches[1]


def _same_facts(native_batch: Any, pure_batch: Any) -> None:
    ours, spec = native_batch.frames(), pure_batch.frames()
    for table in FACTS.TABLES:
        assert_frame_equal(ours[table], spec[table])
    assert native_batch.skipped == pure_batch.skipped


def _accepted(text: bytes) -> bool:
    """Whether the native core reads this XML game (not declined); raises what it raises."""
    _native_core()
    with _route(False):
        return not isinstance(FACTS._native_reader().read(text), str)


def test_a_tenhou_games_fact_rows_are_the_python_routes() -> None:
    path = str(EXAMPLES / "east-riichi.mjlog")
    assert _accepted(FACTS.file_bytes(path))
    _same_facts(*_batches([(path, True)]))


def _facts_of_text(tmp: Path, text: bytes) -> None:
    """Native and Python fact rows of one record text agree, whether the core reads it or
    declines it; the core never raises."""
    path = tmp / "game.xml"
    path.write_bytes(text)
    _accepted(text)
    _same_facts(*_batches([(str(path), True)]))


XML = (EXAMPLES / "east-riichi.mjlog").read_bytes()
ODD = ["", "0", "-1", "01", "+1", " 1", "1,", "1,,2", "136", "99999999999999999999", "東",
       "%E6%9D%B1", "1.5", "nan", "0,0", "3,2,1", "1e3", "\u0663"]
"""Values for any attribute: the forms the two routes might read differently."""


@settings(max_examples=60, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_mutated_tenhou_games_give_the_same_facts_on_both_routes(
        tmp_path: Path, data: st.DataObject) -> None:
    """An attribute's value replaced by an odd one, an element dropped, duplicated or moved:
    the core either declines or gives the Python route's rows."""
    _facts_of_text(tmp_path, data.draw(xml_mutants(XML)))


@st.composite
def xml_mutants(draw: st.DrawFn, text: bytes) -> bytes:
    """``text`` (a Tenhou XML game) with one to three edits of its elements."""
    parts = re.split(rb"(<[^>]*>)", text)
    at = [i for i, p in enumerate(parts) if p.startswith(b"<") and not p.startswith(b"<?")
          and not p.startswith(b"</") and not p.startswith(b"<mjloggm")]
    for _ in range(draw(st.integers(1, 3))):
        i = draw(st.sampled_from(at))
        kind = draw(st.sampled_from(["value", "drop", "copy", "move", "tag"]))
        attrs = list(re.finditer(rb'="([^"]*)"', parts[i]))
        if kind == "value" and attrs:
            m = draw(st.sampled_from(attrs))
            odd = draw(st.sampled_from(ODD)).encode()
            parts[i] = parts[i][:m.start(1)] + odd + parts[i][m.end(1):]
        elif kind == "drop":
            parts[i] = b""
        elif kind == "copy":
            parts[i] = parts[i] * 2
        elif kind == "move":
            j = draw(st.sampled_from(at))
            parts[i], parts[j] = parts[j], parts[i]
        else:
            parts[i] = draw(st.sampled_from([b"<D>", b"<T999/>", b"<D\xd9\xa3/>", b"<X/>",
                                             b"<E5 a=\"1\"/>", b"<!-- c -->", b"<D01/>"]))
    return b"".join(parts)


@pytest.mark.slow
def test_the_corpus_gives_the_same_facts_on_both_routes(tenhou_xml_paths: list[Path]) -> None:
    """Every Tenhou XML game of the corpus: the same five tables on both routes, and the
    core reads all but the records the Python reader gives a diagnostic or a comment."""
    items = [(str(p), True) for p in tenhou_xml_paths]
    _same_facts(*_batches(items))
    read = sum(_accepted(FACTS.file_bytes(p)) for p, _ in items)
    assert read >= 2400, f"the native core read {read} of {len(items)}"


@pytest.mark.slow
@settings(max_examples=400, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_mutants_of_corpus_games_give_the_same_facts(
        tmp_path: Path, tenhou_xml_paths: list[Path], data: st.DataObject) -> None:
    path = data.draw(st.sampled_from(tenhou_xml_paths[::25]))
    text = gunzip(path.read_bytes())[0]
    _facts_of_text(tmp_path, data.draw(xml_mutants(text)))


# -- Tenhou XML read from the native scan (tenhou_scan, twin of the reader's tree walk)


def _records(text: bytes) -> tuple[dict[str, Any], dict[str, Any], bool]:
    """The record of ``text`` read on the native route and on the Python route (every
    field: events, positions, lines, diagnostics …), and whether the core scanned it."""
    _native_core()
    out = []
    for pure in (False, True):
        with _route(pure):
            rec = tenhou_xml.read(text, "game.xml")
            out.append({f.name: getattr(rec, f.name) for f in dataclasses.fields(rec)})
    with _route(False):
        scanned = not isinstance(native.core().tenhou_scan(gunzip(text)[0]), str)  # type: ignore[union-attr]
    return out[0], out[1], scanned


def test_a_tenhou_game_is_read_the_same_from_the_native_scan() -> None:
    for name in ("east-riichi.mjlog", "east-ron.mjlog", "east-seeded.mjlog"):
        ours, spec, scanned = _records((EXAMPLES / name).read_bytes())
        assert scanned and ours == spec


@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_mutated_tenhou_games_are_read_the_same_on_both_routes(data: st.DataObject) -> None:
    ours, spec, _ = _records(data.draw(xml_mutants(XML)))
    assert ours == spec


@pytest.mark.slow
def test_the_corpus_is_read_the_same_on_both_routes(tenhou_xml_paths: list[Path]) -> None:
    """Every Tenhou XML file of the corpus (multi-line ones with their lines too)."""
    scanned = 0
    for path in tenhou_xml_paths:
        ours, spec, native_read = _records(path.read_bytes())
        assert ours == spec, path
        scanned += native_read
    assert scanned >= 2400, f"the native core scanned {scanned} of {len(tenhou_xml_paths)}"


@pytest.mark.slow
@settings(max_examples=400, deadline=None)
@given(data=st.data())
def test_mutants_of_corpus_games_are_read_the_same(tenhou_xml_paths: list[Path],
                                                   data: st.DataObject) -> None:
    path = data.draw(st.sampled_from(tenhou_xml_paths[::25]))
    ours, spec, _ = _records(data.draw(xml_mutants(gunzip(path.read_bytes())[0])))
    assert ours == spec


@pytest.mark.parametrize(("old", "new", "past"), [
    (b'rate="1500.00,', b'rate="nan,', True),  # a rating that is not finite
    (b'<INIT seed="0,0,0', b'<INIT seed="0,40000,0', True),  # honba past its range
    (b'ten="250,', b'ten="30000000,', True),  # a score of 3,000,000,000
    (b'ten="250,', b'ten="9999999,', False),  # 999,999,900: the largest score in range
])
def test_numbers_past_their_ranges_give_the_same_facts_on_both_routes(
        tmp_path: Path, old: bytes, new: bytes, past: bool) -> None:
    """Values past the ranges every reader is held to (mjlog.formats.limits): the core's
    route declines them and the Python route's judgment stands on both; a value at the
    range's edge is read by the core."""
    _native_core()
    assert old in XML
    text = XML.replace(old, new, 1)
    with _route(False):
        taken = FACTS.native_tenhou(text, "game.xml") is not None
    assert taken is not past
    _facts_of_text(tmp_path, text)

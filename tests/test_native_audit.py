"""The audit's route (issue #46): a riichi game whose every part asked for has a native
twin is audited by the native core (:func:`mjlog.reports.audit.native_audit`), any other
by the Python route, and the two give the same report.

Each game here is audited twice in this process, once as the audit chooses and once with
the native core hidden (``mjlog.core.native.core`` giving ``None``, as ``MJLOG_PURE=1``
does), and the two reports' JSON compared whole; :data:`mjlog.reports.audit.ROUTES` says
which route each audit took. With score verification (``scores=True``, the default) the
native verifier runs in the same native replay as the referee and the checks, and a game
it declines (a hand only the ``mahjong`` library values) takes the Python route.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from benchmarks.native_vs_pure import compare
from mjlog.core import native
from mjlog.core.record import GameRecord
from mjlog.core.ruleset import Ruleset
from mjlog.formats import read_bytes, read_path
from mjlog.replay.engine import Engine
from mjlog.replay.observer import Observer
from mjlog.reports import audit
from mjlog.reports.audit import ROUTES, audit_record

from .conftest import CORPUS, EXAMPLES
from .test_native_engine import _sample, corpus_records
from .test_native_engine import core as core
from .test_sheets import PANTHEON_GAMES

PRESETS: tuple[str | None, ...] = (None, "kansaki")
"""The rulesets every comparison runs under: each record's own, and ``kansaki`` (forced)."""


def _report(rec: GameRecord, index: int, preset: str | None, **parts: Any) -> str:
    """The game's report as JSON, by the route the audit chooses."""
    return json.dumps(audit_record(rec, index, preset=preset, force=preset is not None,
                                   **parts).to_dict(), ensure_ascii=False)


def _both(rec: GameRecord, index: int, preset: str | None, monkeypatch: pytest.MonkeyPatch,
          **parts: Any) -> tuple[str, str, str]:
    """The report by the chosen route and by the Python route, and the route chosen."""
    before = Counter(ROUTES)
    chosen = _report(rec, index, preset, **parts)
    route = next(iter((Counter(ROUTES) - before).elements()))
    with monkeypatch.context() as m:
        m.setattr(native, "core", lambda: None)
        pure = _report(rec, index, preset, **parts)
    return chosen, pure, route


def _records(paths: Sequence[Path]) -> Iterator[tuple[GameRecord, int]]:
    for path in paths:
        yield from ((rec, i) for i, rec in enumerate(read_path(path)))


def _compare(games: Sequence[tuple[GameRecord, int]], monkeypatch: pytest.MonkeyPatch,
             **parts: Any) -> Counter[str]:
    """Compare every game under :data:`PRESETS`; the count of each route taken. Fails at
    the first report that differs, naming the game."""
    routes: Counter[str] = Counter()
    for rec, index in games:
        for preset in PRESETS:
            chosen, pure, route = _both(rec, index, preset, monkeypatch, **parts)
            assert chosen == pure, f"{rec.path} game {index} under {preset}: reports differ"
            routes[route] += 1
    assert not audit.NATIVE_ERRORS, "a native part raised: the core is out of step"
    return routes


def test_examples_same_reports_on_both_routes(core: Any,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """Every example, under its own ruleset and ``kansaki``, with and without the rule
    checks and the wall proof: the same JSON report; the native route taken where it can."""
    games = list(_records(sorted(EXAMPLES.glob("*.mj*"))))
    routes = _compare(games, monkeypatch, scores=False)
    routes += _compare(games, monkeypatch, scores=False, rules=False)
    routes += _compare(games, monkeypatch, scores=False, wall=False)
    assert routes["native"] >= 3 * len(PRESETS) * 3 and routes["python"] > 0


def test_examples_same_reports_with_scores_on_both_routes(
        core: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every example with score verification, with and without the rule checks and the
    wall proof: the same JSON report (mismatches, wins and draws verified, settlement);
    the native route taken for most, games without a game end among them."""
    games = list(_records(sorted(EXAMPLES.glob("*.mj*"))))
    routes = _compare(games, monkeypatch)
    routes += _compare(games, monkeypatch, rules=False)
    routes += _compare(games, monkeypatch, wall=False)
    assert routes["native"] >= len(games) * len(PRESETS) and routes["python"] > 0


def test_corpus_sample_same_reports_on_both_routes(core: Any,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """Twenty corpus games under their own ruleset and ``kansaki``: the same JSON report,
    most by the native route."""
    games = [(rec, 0) for rec in _sample(corpus_records(50), 20)]
    routes = _compare(games, monkeypatch, scores=False)
    assert routes["native"] >= len(games)
    routes = _compare(games, monkeypatch)  # with score verification
    assert routes["native"] >= len(games)


def _east_riichi() -> GameRecord:
    return read_path(EXAMPLES / "east-riichi.mjlog")[0]


def _route(rec: GameRecord, **kw: Any) -> str:
    """Which route :func:`audit_record` takes for ``rec``."""
    before = Counter(ROUTES)
    audit_record(rec, **kw)
    return next(iter((Counter(ROUTES) - before).elements()))


def test_a_plain_riichi_game_takes_the_native_route(core: Any) -> None:
    """A complete Tenhou game without score verification: native, with the rule checks
    and the wall proof or without either."""
    assert _route(_east_riichi(), scores=False) == "native"
    assert _route(_east_riichi(), scores=False, rules=False, wall=False) == "native"


def test_no_core_takes_the_python_route(monkeypatch: pytest.MonkeyPatch) -> None:
    """No native core (not built, or ``MJLOG_PURE=1``): Python."""
    monkeypatch.setattr(native, "core", lambda: None)
    assert _route(_east_riichi(), scores=False) == "python"


def test_a_check_without_a_native_twin_takes_the_python_route(
        core: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """A ruleset enabling a check the native core lacks (here: ``furiten-ron`` taken off
    the native list) sends the whole game the Python route."""
    rs = audit.ruleset_for(_east_riichi().events[0], None)  # type: ignore[arg-type]
    codes = audit.native_checks(rs)
    assert codes is not None and "furiten-ron" in codes
    monkeypatch.setattr(audit, "_NATIVE_CHECKS", audit._NATIVE_CHECKS - {"furiten-ron"})
    assert audit.native_checks(rs) is None
    assert _route(_east_riichi(), scores=False) == "python"
    assert _route(_east_riichi(), scores=False, rules=False) == "native"  # no check runs


def test_a_native_part_that_raises_leaves_the_game_to_python(
        core: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """A native part raising ``ValueError`` (a core out of step with this Python): the
    game takes the Python route, the error counted in ``NATIVE_ERRORS``."""
    def raising(*args: Any, **kw: Any) -> None:
        raise ValueError("no native option nope")

    monkeypatch.setattr(audit, "audit_native", raising)
    monkeypatch.setattr(audit, "NATIVE_ERRORS", Counter())
    rec = _east_riichi()
    assert _route(rec, scores=False) == "python"
    assert dict(audit.NATIVE_ERRORS) == {"no native option nope": 1}
    with monkeypatch.context() as m:
        m.setattr(native, "core", lambda: None)
        pure = audit_record(rec, scores=False).to_dict()
    assert audit_record(rec, scores=False).to_dict() == pure


def test_a_taiwanese_game_takes_the_python_route(core: Any) -> None:
    rec = read_path(EXAMPLES / "17-taiwan-whole-game.mjn")[0]
    assert audit.native_checks(audit.ruleset_for(rec.events[0], None)) is None  # type: ignore[arg-type]
    assert _route(rec, scores=False) == "python"


def test_a_score_sheet_takes_the_python_route(core: Any) -> None:
    """A score sheet's rounds are paid by the ruleset (the engine's payer): Python."""
    rec = read_bytes(PANTHEON_GAMES[0].encode(), "sheet")[0]
    assert not audit.native_record(rec)
    assert _route(rec, scores=False) == "python"


def test_a_watching_observer_takes_the_python_route(core: Any) -> None:
    """``watch=`` (the replay viewer's observer) sees the Python engine: Python; and it
    saw every event."""
    seen: list[int] = []

    class Counting(Observer):
        name = "counting"

        def __init__(self, engine: Engine) -> None:
            self.engine = engine

        def after_draw(self, ev: object) -> None:
            seen.append(self.engine.index)

    def watch(engine: Engine, rules: Ruleset, judging: Sequence[Observer]) -> Observer:
        return Counting(engine)

    assert _route(_east_riichi(), scores=False, watch=watch) == "python"
    assert seen


def test_score_verification_takes_the_native_route(core: Any) -> None:
    """With score verification (the default): native, the verifier's counts in the report
    as the Python verifier makes them."""
    rec = _east_riichi()
    assert _route(rec) == "native"
    report = audit_record(rec)
    assert report.wins + report.draws > 0
    assert report.wins_verified == report.wins and report.draws_verified == report.draws


def test_a_game_the_verifier_declines_takes_the_python_route(
        core: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """A game the native verifier (or a check) declines, ``riichi_audit_code`` giving a
    reason: the Python route, and the same report."""
    real = core.riichi_audit_code

    class Declining:
        def __getattr__(self, name: str) -> Any:
            return getattr(core, name)

        def riichi_audit_code(self, *args: Any) -> tuple[Any, ...]:
            return (*real(*args)[:4], "a hand fast.py declines", *real(*args)[5:])

    rec = _east_riichi()
    with monkeypatch.context() as m:
        m.setattr(native, "core", lambda: None)
        pure = audit_record(rec).to_dict()
    monkeypatch.setattr(native, "core", Declining)
    assert _route(rec) == "python"
    assert audit_record(rec).to_dict() == pure


def test_a_game_without_its_end_takes_the_native_route_with_scores(
        core: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """A record cut before its game end: with score verification the native engine gives
    back the table's final scores, so it goes native and settles as the Python route;
    without, it still takes the Python route."""
    whole = _east_riichi()
    cut = whole.events[: max(i for i, ev in enumerate(whole.events)
                             if type(ev).__name__ == "GameEnd")]
    rec = replace(whole, events=cut)
    assert not audit.native_record(rec) and audit.native_record(rec, ended=False)
    chosen, pure, route = _both(rec, 0, None, monkeypatch)
    assert route == "native" and chosen == pure
    assert json.loads(chosen)["settlement"] is not None
    assert _route(rec, scores=False) == "python"


@pytest.mark.slow
@pytest.mark.parametrize("scores", [False, True])
@pytest.mark.parametrize("preset", PRESETS)
def test_whole_corpus_same_reports_on_both_routes(core: Any, preset: str | None,
                                                  scores: bool) -> None:
    """``benchmarks/native_vs_pure.py``'s comparison over the whole corpus (two processes
    each, ``mjlog audit``, with and without ``--no-scores``): every report line the same."""
    if not (CORPUS / "_index.tsv").exists():
        pytest.skip("the corpus is not beside the repository")
    args = ["--jobs", "2"] + ([] if scores else ["--no-scores"])
    if preset:
        args += ["--rules", preset, "--force-rules"]
    result = compare([str(CORPUS)], args)
    assert result.compared > 2000
    assert result.different == 0, result.first

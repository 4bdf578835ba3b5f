"""The seams: failures inside a check or a reader are reported, never swallowed; the format
registry claims each file for one format at most; observers see each event in order."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from mjlog.cli import main
from mjlog.core import native
from mjlog.core.diagnostics import InputError
from mjlog.core.events import Discard, Draw, Event, RoundStart
from mjlog.core.tiles import UNKNOWN
from mjlog.families.riichi.rules.kan import KanAfterRiichi
from mjlog.formats import FORMATS, detect, read_bytes, read_path, write
from mjlog.formats.head import Head
from mjlog.replay.engine import Engine
from mjlog.replay.observer import Observer
from mjlog.reports.audit import audit_record

from .conftest import CORPUS, CORPUS_MISSING, EXAMPLES

KAN = EXAMPLES / "06-kan-after-riichi.mjn"


def _boom(*args: Any, **kwargs: Any) -> None:
    raise ValueError("a bug in a check")


def test_a_check_that_raises_is_an_internal_error_and_the_audit_fails(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(KanAfterRiichi, "before_closed_kan", _boom)
    monkeypatch.setattr(native, "core", lambda: None)  # the Python check runs (not native)
    result = CliRunner().invoke(main, ["audit", str(KAN), "--format", "json"])
    assert result.exit_code == 1, result.output
    game = json.loads(result.output)["games"][0]
    errors = [f for f in game["findings"] if f["code"] == "internal-error"]
    assert len(errors) == 1 and errors[0]["severity"] == "error"
    assert "okuri-kan failed on closed_kan: ValueError('a bug in a check')" \
        in errors[0]["message"]
    assert errors[0]["round"] == "E1-0" and "line" in errors[0]
    # the other checks and the replay went on: the report still has its verdicts
    assert game["wins"] == 1


@pytest.mark.parametrize(("hook", "kind"), [("before_discard", Discard), ("after_draw", Draw)])
def test_a_move_hook_that_raises_is_an_internal_error_at_each_move(
        hook: str, kind: type[Draw] | type[Discard]) -> None:
    """Draws and discards are applied inline between their hooks: a hook that raises on
    each is one internal-error finding at each, where the move is, and the replay goes on
    to judge everything else as it would without it."""
    broken = type("Broken", (Observer,), {"name": "broken", hook: _boom})()
    (rec,) = read_path(KAN)
    engine, plain = Engine(rec.src), Engine(rec.src)
    engine.run(rec.events, [broken])
    plain.run(rec.events)
    errors = [f for f in engine.findings if f.code == "internal-error"]
    at = [i for i, e in enumerate(rec.events) if isinstance(e, kind)]
    assert [f.src for f in errors] == [rec.src(i) for i in at]
    assert all(f"broken failed on {kind.TYPE}: ValueError" in f.message for f in errors)
    assert [f for f in engine.findings if f.code != "internal-error"] == plain.findings
    assert engine.state.scores == plain.state.scores and engine.rounds == plain.rounds


@pytest.mark.parametrize("error", [IndexError, KeyError, ValueError, TypeError])
def test_the_engines_own_failure_is_an_internal_error_never_the_records(
        monkeypatch: pytest.MonkeyPatch, error: type[Exception]) -> None:
    """An exception in the engine's handling of an event that fits the table is mjlog's
    bug: ``internal-error`` where the event is, not ``unreplayable-event`` ("cannot be
    applied to this table"), which would blame the record."""
    def broken(self: Engine, ev: Any) -> None:
        raise error("a bug in the engine")

    (rec,) = read_path(KAN)
    monkeypatch.setattr(Engine, "_closed_kan", broken)
    engine = Engine(rec.src)
    engine.run(rec.events)
    at = next(i for i, e in enumerate(rec.events) if type(e).__name__ == "ClosedKan")
    codes = [(f.code, f.src) for f in engine.findings]
    assert ("internal-error", rec.src(at)) in codes
    assert "unreplayable-event" not in {c for c, _ in codes}
    assert "the engine failed on closed_kan" in engine.findings[
        [c for c, _ in codes].index("internal-error")].message


def test_a_hook_that_raises_on_an_event_the_engine_could_not_apply_is_reported(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A check's crash on an event the engine failed on is not swallowed with it: both are
    reported, each as its own internal-error."""
    def broken(self: Engine, ev: Any) -> None:
        raise ValueError("a bug in the engine")

    monkeypatch.setattr(Engine, "_closed_kan", broken)
    monkeypatch.setattr(KanAfterRiichi, "before_closed_kan", _boom)
    monkeypatch.setattr(native, "core", lambda: None)  # the Python engine runs (not native)
    (rec,) = read_path(KAN)
    report = audit_record(rec, wall=False)
    messages = [f.message for f in report.findings if f.code == "internal-error"]
    assert any("the engine failed on closed_kan" in m for m in messages)
    assert any("okuri-kan failed on closed_kan" in m for m in messages)


def test_a_reader_that_raises_gives_an_internal_error_diagnostic(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from mjlog.formats import notation

    monkeypatch.setattr(notation, "read", _boom)
    (rec,) = read_path(KAN)
    assert [d.code for d in rec.diagnostics] == ["internal-error"]
    assert "ValueError('a bug in a check')" in rec.diagnostics[0].message
    report = audit_record(rec)
    assert report.errors == 1


@pytest.mark.parametrize("target", ["tenhou6", "mjai"])
def test_a_format_that_cannot_hold_the_game_refuses_it_and_writes_nothing(
        target: str, tmp_path: Path) -> None:
    """tenhou.net/6 and mjai hold riichi games: a Taiwanese game is refused by name, with
    no output file and exit status 2, while the other files of the run are converted."""
    taiwan = EXAMPLES / "15-taiwan-seven-rob-one.mjn"
    out = tmp_path / "game.json"
    result = CliRunner().invoke(main, ["convert", str(taiwan), "-t", target, "-o", str(out)])
    assert result.exit_code == 2 and not out.exists()
    assert f"{target} holds riichi games only; this one is taiwan16" in result.output
    folder = tmp_path / "many"
    result = CliRunner().invoke(main, ["convert", str(KAN), str(taiwan), "-t", target,
                                       "-o", str(folder)])
    assert result.exit_code == 2 and "converted 1 files" in result.output
    assert [p.name for p in folder.rglob("*.*")] == [KAN.with_suffix(
        FORMATS[target].extension).name]


@pytest.mark.parametrize("target", [f for f in FORMATS if FORMATS[f].write is not None])
def test_a_tile_nobody_saw_is_written_as_such_or_refused(target: str) -> None:
    """Every writer either keeps a hidden tile hidden (it reads back as one, in the same
    place) or refuses the game with ``cannot-write``: none writes a tile that is not there."""
    (rec,) = read_path(EXAMPLES / "east-riichi.jsonl")
    at = next(i for i, e in enumerate(rec.events) if isinstance(e, Draw) and e.player == 1)
    events = [*rec.events]
    events[at] = Draw(player=1, tile=UNKNOWN)
    if not FORMATS[target].hidden:
        with pytest.raises(InputError) as caught:
            write(target, events)
        assert caught.value.diagnostic.code == "cannot-write"
        return
    (back,) = read_bytes(write(target, events).encode())
    assert [d.code for d in back.diagnostics if d.severity == "error"] == []
    draws = [e for e in back.events if isinstance(e, Draw) and e.player == 1]
    assert [e.tile == UNKNOWN for e in draws] == [
        e.tile == UNKNOWN for e in events if isinstance(e, Draw) and e.player == 1]


def test_a_writer_that_raises_is_reported_not_a_traceback(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    def broken(events: object, options: object) -> str:
        raise ValueError("a bug in a check")

    monkeypatch.setitem(FORMATS, "mjai", dataclasses.replace(FORMATS["mjai"], write=broken))
    (rec,) = read_path(KAN)
    with pytest.raises(InputError) as caught:
        write("mjai", rec.events)
    assert caught.value.diagnostic.code == "cannot-write"
    assert "the mjai writer failed: ValueError('a bug in a check')" in str(
        caught.value.diagnostic.message)
    result = CliRunner().invoke(main, ["convert", str(KAN), "-t", "mjai"])
    assert result.exit_code == 2 and "the mjai writer failed" in result.output


def test_no_corpus_file_is_claimed_by_two_formats() -> None:
    if not CORPUS.exists():
        pytest.skip(CORPUS_MISSING)
    claimed: dict[str, int] = {}
    for path in sorted(p for p in CORPUS.rglob("*") if p.is_file()):
        data = path.read_bytes()
        fmt = detect(data)
        if fmt is None:
            continue
        from mjlog.formats.compression import decompress

        head = Head(decompress(data))
        names = [name for name, f in FORMATS.items() if f.looks_like(head)]
        assert names == [fmt], (path, names)
        claimed[fmt] = claimed.get(fmt, 0) + 1
        assert path.suffix not in (".md", ".tsv"), (path, fmt)  # prose and indexes
    assert set(claimed) == {"tenhou-xml", "tenhou6", "mjai", "majsoul", "kobalab",
                            "riichicity", "mleague", "tenhou-link"}, claimed
    assert claimed["tenhou-xml"] > 2400


class _Log(Observer):
    """Writes down what it sees, before and after."""

    def __init__(self, engine: Engine, log: list[str]) -> None:
        self.engine = engine
        self.log = log

    def before_draw(self, ev: Draw) -> None:
        self.log.append(f"before draw {self.engine.state.turn}")

    def after_draw(self, ev: Draw) -> None:
        self.log.append(f"after draw {self.engine.state.turn}")

    def after_discard(self, ev: Discard) -> None:
        self.log.append(f"after discard {self.engine.state.turn}")


def test_observers_see_the_table_before_and_after_each_event_they_name() -> None:
    (rec,) = read_path(KAN)
    events: list[Event] = rec.events
    first = next(i for i, ev in enumerate(events) if isinstance(ev, RoundStart))
    engine = Engine()
    log: list[str] = []
    engine.run(events, [_Log(engine, log), _Log(engine, log)], stop=first + 3)
    assert log == ["before draw 0", "before draw 0", "after draw 1", "after draw 1",
                   "after discard 2", "after discard 2"]


@pytest.mark.parametrize("doc, fmt", [
    ({"title": ["", ""], "name": ["a", "b", "c", "d"], "rule": {"disp": "", "aka": 1},
      "log": [[[0, 0, 0], [25000] * 4, ["1m"], [], *([["2m"] * 13, [], []] * 4),
               ["和了", [0, 0, 0, 0]]]]}, "tenhou6"),
    ({"head": {"uuid": "x"}, "data": {"data": {"version": 0,
                                               "records": ["CgxSZWNvcmROZXdSb3VuZA=="]}}},
     "majsoul"),
])
def test_a_variant_mjlog_does_not_read_gets_one_diagnostic(doc: dict[str, object],
                                                           fmt: str) -> None:
    """A file of a known format's shape that is none of its variants mjlog reads: one
    clear diagnostic, not a cascade of errors."""
    (rec,) = read_bytes(json.dumps(doc).encode(), "variant.json")
    assert rec.format == fmt
    assert [d.code for d in rec.diagnostics] == ["unknown-variant"]


class _Sleeper(Observer):
    """Notes the draws and discards its dormant hooks see; with ``wake``, wakes its discard
    hook at each riichi discard and puts it to rest at the next discard it sees."""

    dormant = frozenset({"before_draw", "before_discard"})

    def __init__(self, engine: Engine, wake: bool) -> None:
        self.engine, self.waking = engine, wake
        self.draws: list[int] = []
        self.discards: list[int] = []

    def before_draw(self, ev: Draw) -> None:
        self.draws.append(self.engine.index)

    def before_discard(self, ev: Discard) -> None:
        self.discards.append(self.engine.index)
        if self.waking and ev.riichi:
            self.engine.wake(self, "before_discard")
        elif self.waking:
            self.engine.rest(self, "before_discard")


class _Every(Observer):
    """Notes every discard."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self.discards: list[int] = []

    def before_discard(self, ev: Discard) -> None:
        self.discards.append(self.engine.index)


def test_a_dormant_hook_skips_plain_moves_until_woken() -> None:
    """Asleep, a dormant hook sees only the moves that are not plain (riichi discards,
    draws from the dead wall); woken, it sees every move from the next event on until it
    rests; waking or resting inside a hook never makes the engine skip another observer's
    hook on that move."""
    (rec,) = read_path(KAN)
    events = rec.events
    discards = [i for i, e in enumerate(events) if isinstance(e, Discard)]
    riichi = [i for i, e in enumerate(events) if isinstance(e, Discard) and e.riichi]
    rinshan = [i for i, e in enumerate(events) if isinstance(e, Draw) and e.rinshan]
    assert riichi and rinshan and len(discards) > 2 * len(riichi)
    engine = Engine(rec.src)
    asleep = _Sleeper(engine, wake=False)
    engine.run(events, [asleep])
    assert asleep.discards == riichi and asleep.draws == rinshan
    engine = Engine(rec.src)
    waking, every = _Sleeper(engine, wake=True), _Every(engine)
    engine.run(events, [waking, every])
    after = [min(i for i in discards if i > r) for r in riichi if r != discards[-1]]
    assert waking.discards == sorted(set(riichi) | set(after))
    assert every.discards == discards

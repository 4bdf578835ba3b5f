"""The mjlog command line, run as a user would (through click's runner)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from click.testing import CliRunner

from mjlog.cli import main
from mjlog.formats import read_path, write
from mjlog.reports.audit import audit, format_text

from .conftest import EXAMPLES, ROOT


def run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, list(args))
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    return result.exit_code, result.output


GENERATED = sorted(str(p) for p in EXAMPLES.glob("east-*"))


def test_audit_generated_examples_is_clean() -> None:
    code, out = run("audit", *GENERATED)
    assert code == 0
    assert "6 files read, 0 skipped (not a record), 0 unreadable" in out
    assert "6 games (6 complete), 24 rounds: 6 clean, 0 with problems\n" in out
    assert "notes: wall-unverifiable 16" in out  # the four unseeded rounds of four games


def test_audit_examples_finds_the_disputes() -> None:
    """The quick start: the hand-written disputes in examples/ are caught (exit 1)."""
    code, out = run("audit", str(EXAMPLES))
    assert code == 1
    assert "26 files read, 1 skipped (not a record), 0 unreadable" in out
    assert ("26 games (6 complete), 61 rounds: 15 clean, 11 with problems (2 with errors or "
            "warnings in the record, 4 with rule violations, 5 with score mismatches)") in out
    assert "examples/make_examples.py: skipped: not a record mjlog reads" in out
    assert "discard-not-in-hand 1, out-of-turn 1" in out
    assert ("mismatches: draw-deltas 4, win-deltas 8, win-fu 1, win-han 1, win-points 4, "
            "win-yaku 1") in out
    assert ("violations: dead-hand-win 1, furiten-ron 1, guo-shui 1, pon-discard 1, "
            "sakizuke-first-call 1") in out


def test_audit_json_is_valid_and_counts(tmp_path: Path) -> None:
    code, out = run("audit", str(EXAMPLES), "--format", "json")
    assert code == 1
    report = json.loads(out)
    schema = json.loads((ROOT / "schemas" / "audit-report.schema.json").read_text("utf-8"))
    jsonschema.validate(report, schema)
    assert report["summary"]["games"] == 26 and report["summary"]["rounds"] == 61
    assert report["skipped"] == [str(EXAMPLES / "make_examples.py")]


def test_audit_finds_errors_and_exits_1(tmp_path: Path) -> None:
    text = (EXAMPLES / "east-ron.mjlog").read_text("utf-8")
    i = text.index("<D", 600)
    j = text.index("/>", i)
    bad = tmp_path / "bad.log"
    bad.write_text(text[:i] + "<D135" + text[j:], "utf-8")
    code, out = run("audit", str(bad))
    assert code == 1
    assert "discard-not-in-hand [E2-0, turn 8, Aoi [0], line 1, element 35]" in out


def test_audit_unreadable_exits_2(tmp_path: Path) -> None:
    junk = tmp_path / "notes.txt"
    junk.write_text("just some notes\n", "utf-8")
    code, out = run("audit", str(junk))
    assert code == 2 and "cannot read: unknown-format" in out
    code, _ = run("audit", str(tmp_path / "missing.mjlog"))
    assert code == 2


def test_audit_jobs_gives_the_same_report(tmp_path: Path) -> None:
    for i in range(3):
        shutil.copy(EXAMPLES / "east-ron.mjlog", tmp_path / f"g{i}.mjlog")
    _, one = run("audit", str(tmp_path), "--format", "json")
    _, two = run("audit", str(tmp_path), "--format", "json", "--jobs", "2")
    assert json.loads(one) == json.loads(two)


def test_audit_gzip_detected_by_content(tmp_path: Path) -> None:
    import gzip

    f = tmp_path / "record.bin"
    f.write_bytes(gzip.compress((EXAMPLES / "east-ron.mjlog").read_bytes()))
    code, out = run("audit", str(f))
    assert code == 0 and "1 file read" in out and "\n1 game (" in out


def test_replay_prints_the_table() -> None:
    code, out = run("replay", str(EXAMPLES / "east-riichi.jsonl"), "--round", "E1", "--turn", "12")
    assert code == 0
    assert "East 1, honba 0, riichi sticks 0; dealer seat 0; turn 12; live wall 64" in out
    assert "seat 1 S Ben  25000  [riichi]" in out and "8m*'" in out
    code, out = run("replay", str(EXAMPLES / "east-ron.mjlog"))
    assert code == 0 and "East 4" in out


def test_replay_shows_the_wall() -> None:
    code, out = run("replay", str(EXAMPLES / "east-seeded.mjlog"), "--round", "E2", "--turn",
                    "6", "--show-wall")
    assert code == 0 and "live wall 67" in out and "live, 67 left, next first:" in out
    code, out = run("replay", str(EXAMPLES / "east-ron.mjlog"), "--show-wall")
    assert code == 0 and "wall: not known (the wall cannot be verified: the record has no " \
        "shuffle seed)" in out


def test_audit_catches_a_forged_draw_in_a_seeded_record(tmp_path: Path) -> None:
    lines = (EXAMPLES / "east-seeded.jsonl").read_text("utf-8").splitlines()
    events = [json.loads(line) for line in lines]
    draws = [i for i, e in enumerate(events) if e["type"] == "draw"][20:25:4]
    a, b = draws  # two draws of the same seat: swap their tiles (and the discards after them)
    for i, j in ((a, b), (b, a)):
        events[i]["tile"] = events[i + 1]["tile"] = json.loads(lines[j])["tile"]
    bad = tmp_path / "forged.jsonl"
    bad.write_text("".join(json.dumps(e) + "\n" for e in events), "utf-8")
    code, out = run("audit", str(bad))
    assert code == 1 and "findings: wall-draw-mismatch 2" in out
    code, out = run("audit", str(bad), "--no-wall")
    assert code == 0


def test_replay_unknown_round_is_a_usage_error_that_lists_the_rounds() -> None:
    code, out = run("replay", str(EXAMPLES / "east-ron.mjlog"), "--round", "S3")
    assert code == 2 and "no round S3 in this game; its rounds: E1-0, E2-0" in out
    code, out = run("replay", str(EXAMPLES / "east-ron.mjlog"), "--round", "Easter")
    assert code == 2 and "'Easter' is no round" in out


def test_replay_takes_a_round_in_any_spelling() -> None:
    wanted = run("replay", str(EXAMPLES / "east-riichi.jsonl"), "--round", "E1", "--turn", "9")
    for spelling in ("e1", "East 1", "east1", "E1-0", "east 1, honba 0"):
        assert run("replay", str(EXAMPLES / "east-riichi.jsonl"), "--round", spelling,
                   "--turn", "9") == wanted, spelling


def test_replay_names_the_last_move_and_at_the_end_the_result_and_standings() -> None:
    code, out = run("replay", str(EXAMPLES / "east-riichi.jsonl"), "--round", "E1", "--turn", "12")
    assert code == 0 and "last move: Ben discards 8m (the tile just drawn) and declares riichi" \
        in out
    code, out = run("replay", str(EXAMPLES / "east-riichi.jsonl"), "--round", "E1", "--end")
    assert code == 0 and "result: Ben wins by ron from Chiyo" in out
    assert "  riichi: 1 han" in out and "value: 2 han 40 fu, 2,600 points" in out
    assert "payments: Aoi +0, Ben +3,600, Chiyo -2,600, Dai +0" in out
    assert "seat 1 S Ben  27600" in out  # the table after the payment
    code, out = run("replay", str(EXAMPLES / "east-riichi.jsonl"), "--round", "E4", "--end")
    assert code == 0 and "final standings:\n  1. Ben: 27,600, +38 points" in out
    code, out = run("replay", str(EXAMPLES / "east-riichi.jsonl"), "--turn", "3", "--end")
    assert code == 2 and "not both" in out


def test_replay_help_explains_the_marks() -> None:
    code, out = run("replay", "--help")
    assert code == 0 and "5m* the riichi declaration" in out and "(5m) a tile another" in out


def test_convert_to_jsonl(tmp_path: Path) -> None:
    code, out = run("convert", str(EXAMPLES / "east-ron.mjlog"))
    assert code == 0 and out == (EXAMPLES / "east-ron.jsonl").read_text("utf-8")
    # examples/ holds east-ron.mjlog and east-ron.jsonl: one output name for two records
    code, err = run("convert", str(EXAMPLES), "-t", "jsonl", "-o", str(tmp_path / "out"))
    assert code == 2 and "would both be written to" in err and "nothing was written" in err
    assert not (tmp_path / "out").exists()
    sources = [*sorted(EXAMPLES.glob("*.mjn")), *sorted(EXAMPLES.glob("*.mjlog"))]
    code, _ = run("convert", *map(str, sources), "-t", "jsonl", "-o", str(tmp_path / "out"))
    assert code == 0
    written = sorted(p.name for p in (tmp_path / "out").iterdir())
    assert written == sorted(f"{p.stem}.jsonl" for p in sources)
    assert (tmp_path / "out" / "east-ron.jsonl").read_text("utf-8") == out
    code, _ = run("convert", str(EXAMPLES), "-t", "jsonl", "--keep-extension",
                  "-o", str(tmp_path / "whole"))
    assert code == 0
    whole = {p.name for p in (tmp_path / "whole").iterdir()}
    assert {"east-ron.mjlog.jsonl", "east-ron.jsonl.jsonl"} <= whole
    assert (tmp_path / "whole" / "east-ron.mjlog.jsonl").read_text("utf-8") == out


def test_an_output_never_replaces_an_input(tmp_path: Path) -> None:
    record = tmp_path / "game.jsonl"
    record.write_bytes((EXAMPLES / "east-ron.jsonl").read_bytes())
    before = record.read_bytes()
    code, err = run("convert", str(record), "-t", "jsonl", "-o", str(record))
    assert code == 2 and "is an input" in err
    code, err = run("convert", str(tmp_path), "-t", "jsonl", "-o", str(tmp_path))
    assert code == 2 and "is an input" in err
    code, err = run("audit", str(record), "-o", str(record))
    assert code == 2 and "would replace an input" in err
    assert record.read_bytes() == before


def test_stats_command_outputs(tmp_path: Path) -> None:
    import polars as pl

    code, out = run("stats", str(EXAMPLES))
    assert code == 0 and "win_rate" in out and "Ben" in out
    for ext in ("parquet", "csv", "json"):
        target = tmp_path / f"s.{ext}"
        code, _ = run("stats", str(EXAMPLES), "--by", "player,ruleset", "--double-ron",
                      "twice", "-o", str(target))
        assert code == 0 and target.exists()
    df = pl.read_parquet(tmp_path / "s.parquet")
    assert df.columns[:5] == ["player", "ruleset", "players", "games", "rounds"]
    assert "deal_in_rate__double_ron_twice" in df.columns and df.height == 4
    code, _ = run("stats", *GENERATED, "--facts", str(tmp_path / "facts"), "-o",
                  str(tmp_path / "x.csv"))
    assert code == 0 and pl.read_parquet(tmp_path / "facts" / "wins").height == 2
    code, out = run("stats", str(EXAMPLES), "--by", "colour")
    assert code == 2 and "cannot group by colour" in out
    code, out = run("stats", str(EXAMPLES), "--player", "Ben", "--by", "")
    assert code == 0 and "4p" in out


def test_generate_writes_games_that_audit_clean(tmp_path: Path) -> None:
    code, out = run("generate", "--rules", "tenhou-sanma", "--set", "kan_dora=immediate",
                    "-n", "3", "--seed", "11", "-o", str(tmp_path))
    assert code == 0
    files = sorted(p.name for p in tmp_path.iterdir())
    assert files == [f"random-tenhou-sanma-{s}.mjn" for s in (11, 12, 13)]
    assert '[Rules "kan_dora=immediate"]' in (tmp_path / files[0]).read_text("utf-8")
    code, out = run("audit", str(tmp_path))
    assert code == 0, out
    assert "3 files read" in out and "3 games (3 complete)" in out and "0 mismatches" in out


def test_generate_same_seed_same_text_and_bad_option_exits_2() -> None:
    assert run("generate", "--seed", "4")[1] == run("generate", "--seed", "4")[1]
    code, out = run("generate", "--set", "kuikae=never")
    assert code == 2 and "kuikae is one of allowed, same, both" in out


@pytest.mark.parametrize("args", [
    ["convert", str(EXAMPLES / "east-ron.mjlog"), "-t", "jsonl", "-o", "/dev/full"],
    ["audit", str(EXAMPLES / "east-ron.mjlog"), "-o", "/dev/full"],
    ["stats", str(EXAMPLES / "east-ron.mjlog"), "-o", "/proc/no-such/table.csv"],
    ["generate", "-n", "1", "-o", "/dev/full/folder"],
])
def test_an_output_that_cannot_be_written_is_one_line_and_exit_2(args: list[str]) -> None:
    code, out = run(*args)
    assert code == 2 and "cannot write" in out and "Traceback" not in out


def test_a_file_name_that_is_not_utf8_is_reported(tmp_path: Path) -> None:
    folder = tmp_path / os.fsdecode(b"g\xff")
    folder.mkdir()
    (folder / "game.mjlog").write_bytes((EXAMPLES / "east-ron.mjlog").read_bytes())
    code, _ = run("audit", str(folder), "--format", "json", "-o", str(tmp_path / "r.json"))
    assert code == 0
    report = json.loads((tmp_path / "r.json").read_text("utf-8"))
    assert report["games"][0]["path"].endswith("g\ufffd/game.mjlog")


def test_an_output_is_replaced_whole_or_not_at_all(tmp_path: Path) -> None:
    """A write that fails half-way (a full disk) leaves the previous output as it was and
    no temporary file behind."""
    import click

    from mjlog.cli import _atomically

    report = tmp_path / "report.json"
    report.write_text("the previous report")

    def half_then_full(path: Path) -> None:
        path.write_text("half of a rep")
        raise OSError(28, "No space left on device")

    with pytest.raises(click.ClickException) as err:
        _atomically(report, half_then_full)
    assert "cannot write" in err.value.message and err.value.exit_code == 2
    assert report.read_text() == "the previous report"
    assert [p.name for p in tmp_path.iterdir()] == ["report.json"]
    code, _ = run("audit", str(EXAMPLES / "east-ron.mjlog"), "-o", str(report))
    assert code == 0 and report.read_text().startswith("1 file read")


def test_findings_per_game_are_capped_with_a_count(tmp_path: Path) -> None:
    """A record that goes wrong at every move (the same four discards 120,000 times) keeps
    the first 1,000 findings and counts the rest, in a report that fits its schema."""
    text = (EXAMPLES / "01-double-east.mjn").read_text("utf-8")
    head = text[:text.index("9m'")]
    (tmp_path / "endless.mjn").write_text(head + "9m' 1z' 7p 3s\n" * 30_000, "utf-8")
    code, out = run("audit", str(tmp_path / "endless.mjn"), "--format", "json")
    report = json.loads(out)
    schema = json.loads((ROOT / "schemas" / "audit-report.schema.json").read_text("utf-8"))
    jsonschema.validate(report, schema)
    (game,) = report["games"]
    capped = [f for f in game["findings"] if f["code"] == "findings-capped"]
    assert code == 1 and len(game["findings"]) == 1001 and len(capped) == 1
    left = int(capped[0]["message"].split("left out: ")[1].split(" ")[0].replace(",", ""))
    assert left > 100_000  # about two findings a move over 120,000 moves


@pytest.mark.parametrize("fmt", ["json", "text"])
def test_the_report_written_as_it_goes_is_the_report_made_whole(fmt: str, tmp_path: Path
                                                                  ) -> None:
    """audit writes each game's part of the report as the game is audited (flat memory);
    the text is the very text the whole report gives, with and without -o."""
    (tmp_path / "bad.mjn").write_bytes(b"mjlog-notation 1\n1z\n")
    inputs = [str(EXAMPLES), str(tmp_path)]
    whole = audit(inputs)
    expected = (json.dumps(whole.to_dict(), ensure_ascii=False, indent=1) + "\n"
                if fmt == "json" else format_text(whole))
    _, out = run("audit", *inputs, "--format", fmt)
    assert out == expected
    run("audit", *inputs, "--format", fmt, "-o", str(tmp_path / "report"))
    assert (tmp_path / "report").read_text("utf-8") == expected
    _, empty = run("audit", str(tmp_path / "bad.mjn"), "--format", fmt)
    only_unreadable = audit([str(tmp_path / "bad.mjn")])
    assert empty == (json.dumps(only_unreadable.to_dict(), ensure_ascii=False, indent=1) + "\n"
                     if fmt == "json" else format_text(only_unreadable))


def _notation(old: str, new: str) -> str:
    return (EXAMPLES / "01-double-east.mjn").read_text("utf-8").replace(old, new, 1)


def _tenhou6(change: Callable[[list[Any]], None]) -> str:
    (rec,) = read_path(EXAMPLES / "east-riichi.mjlog")
    doc = json.loads(write("tenhou6", rec.events))
    change(doc["log"][0])
    return json.dumps(doc)


def _jsonl(old: str, new: str) -> str:
    return (EXAMPLES / "east-riichi.jsonl").read_text("utf-8").replace(old, new, 1)


HOSTILE = {  # name: (file name, text, a diagnostic code the audit must report)
    "superscript digit in a tile": ("a.mjn", _notation("9m'", "9²m'"), "bad-token"),
    "5,000-digit tile number": ("b.mjn", _notation("9m'", "9" * 5000 + "m'"), "bad-token"),
    "dice=x": ("c.mjn", _notation("dice=3,4", "dice=x"), "bad-round"),
    "sticks=one": ("d.mjn", _notation("dice=3,4", "dice=3,4 sticks=one"), "bad-round"),
    "a round header of the wrong shape": (
        "e.json", _tenhou6(lambda r: r.__setitem__(0, [0, 0])), "bad-value"),
    "two red fives drawn": (
        "f.json", _tenhou6(lambda r: r[5].__setitem__(slice(0, 2), [51, 51])),
        "unplaceable-move"),
    "a seat of -1": ("g.jsonl", _jsonl('"player":1,', '"player":-1,'), "unreplayable-event"),
    "scores past 64 bits": (
        "h.jsonl", _jsonl('"scores":[25000', '"scores":[10000000000000000000000'),
        "start-scores-mismatch"),
}


@pytest.mark.parametrize("name", list(HOSTILE))
def test_hostile_input_gets_a_diagnostic_never_a_traceback(name: str, tmp_path: Path) -> None:
    """Each input once crashed a command with a traceback: now every command reports it
    (the audit with the expected code, in a report that fits its schema), converts or
    refuses it, and goes on."""
    file_name, text, code = HOSTILE[name]
    (tmp_path / file_name).write_text(text, "utf-8")
    (tmp_path / "good.mjlog").write_bytes((EXAMPLES / "east-ron.mjlog").read_bytes())
    status, out = run("audit", str(tmp_path), "--format", "json")
    report = json.loads(out)
    schema = json.loads((ROOT / "schemas" / "audit-report.schema.json").read_text("utf-8"))
    jsonschema.validate(report, schema)
    codes = {x["code"] for g in report["games"] for kind in ("findings", "diagnostics")
             for x in g[kind]}
    assert status == 1 and code in codes and "internal-error" not in codes
    assert report["summary"]["games"] == 2  # the good game is audited too
    for target in ("jsonl", "notation", "tenhou6", "mjai"):
        status, out = run("convert", str(tmp_path / file_name), "-t", target)
        assert status in (0, 2) and "Traceback" not in out and "writer failed" not in out
    status, out = run("stats", str(tmp_path))
    assert status in (0, 1) and "Traceback" not in out


def test_audit_as_json_lines_is_the_json_report_a_line_at_a_time() -> None:
    """--format jsonl: the JSON report's games, skipped and unreadable files and summary,
    each line valid against its part of the report's schema."""
    _, whole = run("audit", str(EXAMPLES), "--format", "json")
    code, text = run("audit", str(EXAMPLES), "--format", "jsonl")
    assert code == 1
    lines = [json.loads(line) for line in text.splitlines()]
    report = json.loads(whole)
    assert [x["game"] for x in lines if "game" in x] == report["games"]
    assert [x["skipped"] for x in lines if "skipped" in x] == report["skipped"] != []
    assert lines[-1] == {"mjlog_version": report["mjlog_version"], "summary": report["summary"]}
    assert {next(iter(x)) for x in lines[:-1]} == {"game", "skipped"}
    schema = json.loads((ROOT / "schemas" / "audit-report.schema.json").read_text("utf-8"))
    part = {"$defs": schema["$defs"], "$ref": "#/$defs/game"}
    for x in lines:
        if "game" in x:
            jsonschema.validate(x["game"], part)
    jsonschema.validate({**report, "games": [], "summary": lines[-1]["summary"]}, schema)


def test_audit_as_json_lines_writes_each_game_as_it_is_audited(tmp_path: Path) -> None:
    xml = ROOT.parent / "shared" / "corpus" / "tenhou-xml"
    if not xml.is_dir():
        pytest.skip("the real-record corpus is not beside the repository (../shared/corpus)")
    proc = subprocess.Popen([sys.executable, "-m", "mjlog.cli", "audit", str(xml), "--format",
                             "jsonl"], cwd=tmp_path, env={**os.environ, "PYTHONPATH": str(ROOT)},
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    try:
        assert proc.stdout is not None
        first = json.loads(proc.stdout.readline())
        assert "game" in first and proc.poll() is None  # the audit of the folder goes on
    finally:
        proc.kill()
        proc.wait()


def test_convert_keeps_sub_folders_of_a_relative_folder(tmp_path: Path,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """``mjlog convert . -o OUT``: each record keeps its place below the folder named, as
    for a folder named by its full path."""
    (tmp_path / "games" / "2024").mkdir(parents=True)
    shutil.copy(EXAMPLES / "east-ron.mjlog", tmp_path / "games" / "a.mjlog")
    shutil.copy(EXAMPLES / "east-ron.mjlog", tmp_path / "games" / "2024" / "b.mjlog")
    monkeypatch.chdir(tmp_path / "games")
    for name, source in (("dot", "."), ("slash", "./"), ("full", str(tmp_path / "games"))):
        code, _ = run("convert", source, "-t", "jsonl", "-o", str(tmp_path / name))
        assert code == 0, name
        assert sorted(p.relative_to(tmp_path / name).as_posix()
                      for p in (tmp_path / name).rglob("*.jsonl")) == ["2024/b.jsonl", "a.jsonl"]


def test_a_game_of_which_no_round_was_read_has_nothing_to_settle(tmp_path: Path) -> None:
    """A record cut before its first round is read: its report says there is nothing to
    settle, not that every player stands at 0 and is even."""
    cut = tmp_path / "cut.mjlog"
    text = (EXAMPLES / "east-riichi.mjlog").read_bytes()
    cut.write_bytes(text[:text.index(b"<INIT") + 20])
    result = CliRunner().invoke(main, ["audit", str(cut)])
    assert "settlement: nothing to settle (no round was read)" in result.output
    assert "over the rounds recorded" not in result.output

"""Hostile input (issue #47, "nothing escapes, nothing is lost, nothing lies").

* Numbers no record holds (``1e999``, ``NaN``, ``-Infinity``, an integer of 4,000 digits,
  a tile id of 10**30) anywhere in a record of every JSON format, and values past the
  ranges mjlog reads (a final score of 3,000,000,000, honba 40,000): a ``bad-value``
  diagnostic at the value's place, never a traceback, never ``NaN`` or ``Infinity`` in
  what mjlog writes, and statistics that leave the game out and say so.
* A tar cut in the middle of a member or of a header: every command reports it as
  unreadable in one line naming it, exits with status 2 after the rest, and reports
  every other file.
* A houou-logs database whose ``logs`` is a recursive view, or whose rows hold bytes that
  are not UTF-8: read in bounded time, each bad row a diagnostic naming it.
* mjlog notation with one tag of 50 MB: read in memory linear in the input.

Every record here is our own, written by the test (or one of ``examples/``).
"""

from __future__ import annotations

import gzip
import json
import sqlite3
import subprocess
import sys
import tarfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from mjlog.core.diagnostics import Diagnostic, InputError
from mjlog.formats import detect, read_bytes, write
from tests.conftest import EXAMPLES, ROOT

HOLE = "\x00HOLE\x00"
"""A string put where a raw literal goes, then replaced in the JSON text."""


def hole(doc: Any, where: tuple[Any, ...], literal: str) -> str:
    """The JSON text of ``doc`` with the value at ``where`` (keys and indexes) replaced by
    ``literal`` written as it is (``NaN``, ``1e999``, 4,000 digits)."""
    copy = json.loads(json.dumps(doc))
    at = copy
    for key in where[:-1]:
        at = at[key]
    at[where[-1]] = HOLE
    return json.dumps(copy, ensure_ascii=False).replace(json.dumps(HOLE), literal)


def json_path(where: tuple[Any, ...]) -> str:
    """``where`` as a JSON path (``$.log[0][4][0]``)."""
    return "$" + "".join(f"[{k}]" if isinstance(k, int) else f".{k}" for k in where)


# ---------------------------------------------------------------- records of our own

_EXAMPLE = (EXAMPLES / "east-riichi.jsonl").read_text("utf-8").splitlines()


def _line_of(lines: list[str], kind: str) -> int:
    """The 0-based index of the first line of event ``kind``."""
    return next(i for i, line in enumerate(lines) if f'"type":"{kind}"' in line)


def jsonl(line_kind: str, where: tuple[Any, ...], literal: str) -> tuple[bytes, int]:
    """The example game as mjlog JSON Lines, ``literal`` at ``where`` of its first
    ``line_kind`` line; the record and that line's number."""
    lines = list(_EXAMPLE)
    i = _line_of(lines, line_kind)
    lines[i] = hole(json.loads(lines[i]), where, literal)
    return "\n".join(lines).encode() + b"\n", i + 1


def _written(fmt: str) -> str:
    (rec,) = read_bytes("\n".join(_EXAMPLE).encode())
    return write(fmt, rec.events)


def mjai(line_kind: str, where: tuple[Any, ...], literal: str) -> tuple[bytes, int]:
    """The example game as mjai, ``literal`` at ``where`` of its first ``line_kind``
    line; the record and that line's number."""
    lines = _written("mjai").splitlines()
    i = next(k for k, line in enumerate(lines) if f'"type":"{line_kind}"' in line)
    lines[i] = hole(json.loads(lines[i]), where, literal)
    return "\n".join(lines).encode() + b"\n", i + 1


def one_doc(fmt: str) -> Callable[[tuple[Any, ...], str], bytes]:
    """A maker of the example game written as ``fmt`` (one JSON document) with a
    literal at a place."""
    return lambda where, literal: hole(json.loads(_written(fmt)), where, literal).encode()


_MPSZ = [f"{n}{s}" for s in "mps" for n in range(1, 10)] + [f"{n}z" for n in range(1, 8)]


def majsoul_doc(ben: int = 0, final: int = 40500) -> dict[str, Any]:
    """A Mahjong Soul record (``GameDetailRecords`` as JSON) of one round that ends in a
    nine-terminals abort; its honba ``ben`` and seat 0's final score ``final``."""
    def hand(k: int, n: int) -> list[str]:
        return [_MPSZ[(k * 13 + i) % 34] for i in range(n)]
    head = {"uuid": "210815-6da08e40-2605-42fb-a5e3-f8aa5940362a", "start_time": 1629039063,
            "config": {"category": 2, "mode": {"mode": 1, "detail_rule": {}},
                       "meta": {"mode_id": 2}},
            "accounts": [{"account_id": 1000 + s, "seat": s, "nickname": f"p{s}",
                          "level": {"id": 10301}} for s in range(4)],
            "result": {"players": [{"seat": s, "total_point": 0,
                                    "part_point_1": [final, 30000, 20000, 9500][s]}
                                   for s in range(4)]}}
    deal = {"chang": 0, "ju": 0, "ben": ben, "liqibang": 0, "scores": [25000] * 4,
            "tiles0": hand(0, 14), "tiles1": hand(1, 13), "tiles2": hand(2, 13),
            "tiles3": hand(3, 13), "doras": ["1z"]}
    actions = [{"type": 1, "result": {"name": ".lq.RecordNewRound", "data": deal}},
               {"type": 1, "result": {"name": ".lq.RecordLiuJu", "data": {"type": 1}}}]
    return {"head": head, "data": {"name": ".lq.GameDetailRecords",
                                   "data": {"version": 210715, "actions": actions}}}


def _rc_tile(kind: int) -> int:
    """Riichi City's number of a tile kind (low four bits the number, then the suit)."""
    if kind >= 27:
        return (kind - 27 + 3) * 16 + 1
    suit, n = divmod(kind, 9)
    return {0: 2, 1: 0, 2: 1}[suit] * 16 + n + 1


_USERS = [101, 102, 103, 104]


def riichicity_text(deal: dict[str, Any] | None = None, end: dict[str, Any] | None = None,
                    *, where: tuple[Any, ...] = (), literal: str = "") -> bytes:
    """A Riichi City record of one round that ends in a nine-terminals abort. ``deal``
    and ``end`` change the data of the deal's events and of the game's result; a literal
    at ``where`` (starting with ``deal`` or ``end``) goes into that data as written."""
    hands = [[_rc_tile((p * 13 + i) % 34) for i in range(14 if p == 0 else 13)]
             for p in range(4)]
    base = {"dealer_pos": 0, "dices": [1, 3], "bao_pai_card": _rc_tile(33), "quan_feng": 49,
            "chang_ci": 1, "ben_chang_num": 0, "li_zhi_bang_num": 0,
            "user_info_list": [{"user_id": u, "hand_points": 25000} for u in _USERS],
            **(deal or {})}
    result = {"user_data": [{"user_id": u, "point_num": 25000, "score": 0} for u in _USERS],
              **(end or {})}

    def data(name: str, obj: dict[str, Any]) -> str:
        return hole(obj, where[1:], literal) if where[:1] == (name,) else json.dumps(obj)
    events = [{"eventType": 1, "userId": _USERS[p],
               "data": data("deal", {"hand_cards": hands[p], **base})} for p in range(4)]
    events.append({"eventType": 5, "userId": 0, "data": json.dumps({
        "end_type": 6, "win_info": [],
        "user_profit": [{"user_id": u, "point_profit": 0, "user_point": 25000}
                        for u in _USERS]})})
    events.append({"eventType": 6, "userId": 0, "data": data("end", result)})
    hand = {"players": [{"userId": u, "position": p, "nickname": f"p{p}"}
                        for p, u in enumerate(_USERS)], "handEventRecord": events}
    return json.dumps({"code": 0, "message": "ok", "data": {
        "playerCount": 4, "initPoints": 25000, "round": 1, "gamePlay": 1001,
        "handRecord": [hand]}}).encode()


def mleague_doc(honba: str = "0", score: str = "=25000") -> list[dict[str, Any]]:
    """An M-League command list of one round of four discards that ends in an exhaustive
    draw; its honba and seat A0's starting score as the log writes them."""
    def c(cmd: str, *args: str) -> dict[str, Any]:
        return {"time": "2023-04-28 21:21:00", "id": "0", "cmd": cmd, "args": list(args)}
    seats = ["A0", "B0", "C0", "D0"]
    hands = ["1m2m3m4m5m6m7m8m9m1p2p3p4p", "2m3m4m5m6m7m8m9m1p2p3p4p5p",
             "3m4m5m6m7m8m9m1p2p3p4p5p6p", "1s2s3s4s5s6s7s8s9s1z2z3z4z"]
    out = [c("player", s, f"p{k}", "user", "T00") for k, s in enumerate(seats)]
    out += [c("gamestart", "id=L001"), c("kyokustart", "0", "A0", honba, "0", "1z", "1z",
                                         "2z", "3z", "4z")]
    out += [c("point", s, score if s == "A0" else "=25000") for s in seats]
    out += [c("dora", "7m", "6m")] + [c("haipai", s, h) for s, h in zip(seats, hands,
                                                                          strict=True)]
    for s, t in zip(seats, ["5z", "6z", "7z", "9s"], strict=True):
        out += [c("tsumo", s, "69", t), c("sutehai", s, t, "tsumogiri")]
    out += [c("ryukyoku"), c("kyokuend"), c("gameend", "A0", "0", "B0", "0", "C0", "0",
                                            "D0", "0")]
    return out


# ---------------------------------------------------------------- numbers

NON_NUMBERS = ["1e999", "NaN", "-Infinity", "9" * 4000, str(10**30)]
"""Literals Python's json module reads (as inf, nan, a huge int) and no record holds."""

_SCORE_PLACES: dict[str, tuple[Callable[[str], tuple[bytes, int]], int | None, str]] = {
    # format: (make(literal) -> (record, line), line (None: the maker's), path)
    "jsonl": (lambda lit: jsonl("game_end", ("scores", 0), lit), None, "$.scores[0]"),
    "tenhou6": (lambda lit: (one_doc("tenhou6")(("sc", 0), lit), 0), 0, "$.sc[0]"),
    "mjai": (lambda lit: mjai("start_kyoku", ("scores", 0), lit), None, "$.scores[0]"),
    "kobalab": (lambda lit: (one_doc("kobalab")(("defen", 0), lit), 0), 0, "$.defen[0]"),
    "majsoul": (lambda lit: (hole(majsoul_doc(), ("head", "result", "players", 0,
                                                  "part_point_1"), lit).encode(), 0), 0,
                "$.head.result.players[0].part_point_1"),
    "riichicity": (lambda lit: (riichicity_text(where=("end", "user_data", 0, "point_num"),
                                                literal=lit), 0), 0,
                   "$.data.handRecord[0].handEventRecord[5].data.user_data[0].point_num"),
    "mleague": (lambda lit: (hole(mleague_doc(), (6, "args", 1), lit).encode(), 0), 0,
                "$[6].args[1]"),
}
"""For each JSON format, a number of the record (a score where the format has one as a
number) and its place."""


def _bad_values(rec: Any) -> list[Diagnostic]:
    return [d for d in rec.diagnostics if d.code == "bad-value"]


def _no_failure(records: list[Any]) -> None:
    failures = [str(d) for r in records for d in r.diagnostics if d.code == "internal-error"]
    assert failures == []


def _strict_json(text: str) -> None:
    """``text`` (JSON, or JSON Lines) holds no NaN or Infinity: it parses with them refused."""
    def refuse(name: str) -> None:
        raise AssertionError(f"{name} in the output")
    try:
        json.loads(text, parse_constant=refuse)
    except json.JSONDecodeError:  # JSON Lines
        for line in text.splitlines():
            if line.strip():
                json.loads(line, parse_constant=refuse)


@pytest.mark.parametrize("literal", NON_NUMBERS, ids=["1e999", "NaN", "-Infinity",
                                                      "4000-digits", "10**30"])
@pytest.mark.parametrize("fmt", list(_SCORE_PLACES))
def test_a_number_no_record_holds_is_a_bad_value_at_its_place(fmt: str, literal: str) -> None:
    make, line, path = _SCORE_PLACES[fmt]
    data, made_line = make(literal)
    assert detect(data) == fmt
    records = read_bytes(data, "hostile")
    _no_failure(records)
    found = [(d.src.line if d.src else -1, d.src.path if d.src else "")
             for r in records for d in _bad_values(r)]
    assert (made_line if line is None else line, path) in found, found
    for rec in records:
        _strict_json(write("jsonl", rec.events))
    with pytest.raises(InputError) as strict:
        read_bytes(data, "hostile", strict=True)
    assert strict.value.diagnostic.code == "bad-value"


_TILE_PLACES: list[tuple[str, Callable[[], tuple[bytes, int]], str]] = [
    ("jsonl", lambda: jsonl("draw", ("tile",), str(10**30)), "$.tile"),
    ("tenhou6", lambda: (one_doc("tenhou6")(("log", 0, 4, 0), str(10**30)), 0),
     "$.log[0][4][0]"),
    ("riichicity", lambda: (riichicity_text(where=("deal", "hand_cards", 0),
                                            literal=str(10**30)), 0),
     "$.data.handRecord[0].handEventRecord[0].data.hand_cards[0]"),
]


@pytest.mark.parametrize(("fmt", "make", "path"), _TILE_PLACES, ids=[p[0] for p in _TILE_PLACES])
def test_a_tile_id_of_ten_to_the_thirty_is_a_bad_value_at_its_place(
        fmt: str, make: Callable[[], tuple[bytes, int]], path: str) -> None:
    data, line = make()
    records = read_bytes(data, "hostile")
    _no_failure(records)
    found = [(d.src.line if d.src else -1, d.src.path if d.src else "")
             for r in records for d in _bad_values(r)]
    assert (line, path) in found, found


def _range_cases() -> dict[str, tuple[bytes, int, str]]:
    """Values past the ranges mjlog reads, in a record of every JSON format: the record,
    and the line and path where the value's event is."""
    big, honba = "3000000000", "40000"
    j_end, j_end_line = jsonl("game_end", ("scores", 0), big)
    j_round, j_round_line = jsonl("round_start", ("honba",), honba)
    m_score, m_line = mjai("start_kyoku", ("scores", 0), big)
    m_honba, _ = mjai("start_kyoku", ("honba",), honba)
    return {
        "jsonl-final-score": (j_end, j_end_line, "$.scores[0]"),
        "jsonl-honba": (j_round, j_round_line, "$.honba"),
        "tenhou6-final-score": (one_doc("tenhou6")(("sc", 0), big), 0, "$.sc"),
        "tenhou6-honba": (one_doc("tenhou6")(("log", 0, 0, 1), honba), 0, "$.log[0]"),
        "mjai-score": (m_score, m_line, ""),
        "mjai-honba": (m_honba, m_line, ""),
        "kobalab-final-score": (one_doc("kobalab")(("defen", 0), big), 0, "$.defen"),
        "kobalab-honba": (one_doc("kobalab")(("log", 0, 0, "qipai", "changbang"), honba), 0,
                          "$.log[0][0].qipai"),
        "majsoul-final-score": (json.dumps(majsoul_doc(final=int(big))).encode(), 0,
                                "$.head.result"),
        "majsoul-honba": (json.dumps(majsoul_doc(ben=int(honba))).encode(), 0,
                          "$.data.data.actions[0].result.data"),
        "riichicity-final-score": (riichicity_text(end={"user_data": [
            {"user_id": u, "point_num": int(big) if u == 101 else 0, "score": 0}
            for u in _USERS]}), 0, "$.data.handRecord"),
        "riichicity-honba": (riichicity_text(deal={"ben_chang_num": int(honba)}), 0,
                             "$.data.handRecord[0].handEventRecord[4]"),
        # the round starts at its first draw (the 15th command), where its deal is complete
        "mleague-score": (json.dumps(mleague_doc(score="=" + big)).encode(), 0,
                          "$[15].args"),
        "mleague-honba": (json.dumps(mleague_doc(honba=honba)).encode(), 0, "$[15].args"),
    }


RANGE_CASES = _range_cases()


@pytest.mark.parametrize("case", list(RANGE_CASES))
def test_a_value_past_its_range_is_a_bad_value_at_its_place(case: str) -> None:
    data, line, path = RANGE_CASES[case]
    records = read_bytes(data, "hostile")
    _no_failure(records)
    found = [(d.src.line if d.src else -1, d.src.path if d.src else "", d.message)
             for r in records for d in _bad_values(r)]
    assert any((ln, p) == (line, path) for ln, p, _ in found), found
    word = "honba" if case.endswith("honba") else "score"
    assert any(word in m and ("3000000000" in m or "40000" in m) for _, _, m in found), found
    for rec in records:
        _strict_json(write("jsonl", rec.events))


def test_notation_numbers_past_what_python_converts_or_not_finite_are_said(
        tmp_path: Path) -> None:
    """Notation is no JSON, but the same numbers reach it: honba of 5,000 digits was an
    ``internal-error`` (Python's limit of 4,300 digits), and ``nan``/``inf`` ratings and
    points were read as floats that JSON Lines then wrote as ``NaN`` and ``Infinity``."""
    (rec,) = read_bytes("\n".join(_EXAMPLE).encode())
    text = write("notation", rec.events)
    text = text.replace("\nE1-0 ", "\nE1-" + "9" * 5000 + " ", 1)
    text = text.replace('[Ratings "1500.0" "1500.0"', '[Ratings "nan" "inf"', 1)
    text = text.replace("points=5.0,38.0", "points=nan,inf", 1)
    lines = text.split("\n")
    records = read_bytes(text.encode(), "hostile.mjn")
    _no_failure(records)
    found = {(d.code, d.src.line if d.src else 0, d.src.column if d.src else 0)
             for r in records for d in r.diagnostics}
    honba_line = next(i for i, line in enumerate(lines, 1) if line.startswith("E1-9"))
    header = next(i for i, line in enumerate(lines, 1) if line.startswith("["))
    end_line = next(i for i, line in enumerate(lines, 1) if line.startswith("end "))
    assert ("bad-round", honba_line, 4) in found, found
    # the ratings at the game start's place (the header's first tag), the points at the end
    assert {("bad-value", header, 1), ("bad-value", end_line, 1)} <= found, found
    for r in records:
        _strict_json(write("jsonl", r.events))


def _cli(*args: str) -> Result:
    from mjlog.cli import main

    return CliRunner().invoke(main, list(args))


def _hostile_folder(root: Path) -> list[Path]:
    """Every hostile record above as a file, and a sound game beside them."""
    folder = root / "hostile"
    folder.mkdir()
    written = []
    for fmt, (make, _, _) in _SCORE_PLACES.items():
        for k, literal in enumerate(NON_NUMBERS):
            path = folder / f"{fmt}-{k}.json"
            path.write_bytes(make(literal)[0])
            written.append(path)
    for case, (data, _, _) in RANGE_CASES.items():
        path = folder / f"{case}.json"
        path.write_bytes(data)
        written.append(path)
    (folder / "sound.jsonl").write_bytes((EXAMPLES / "east-ron.jsonl").read_bytes())
    return written


def test_statistics_leave_out_a_game_with_a_value_past_its_column_and_say_so(
        tmp_path: Path) -> None:
    """A score past 32 bits and honba past 16 bits made polars fail the whole run; now the
    game is left out, named on standard error, and the other games are counted."""
    folder = tmp_path / "ranges"
    folder.mkdir()
    for case in ("jsonl-final-score", "jsonl-honba", "tenhou6-final-score"):
        (folder / f"{case}.json").write_bytes(RANGE_CASES[case][0])
    (folder / "sound.jsonl").write_bytes((EXAMPLES / "east-ron.jsonl").read_bytes())
    out = _cli("stats", str(folder), "--min-games", "1", "--format", "json")
    assert out.exit_code == 0, out.output
    assert out.exception is None or isinstance(out.exception, SystemExit), out.exception
    warned = [line for line in out.stderr.splitlines() if "cannot be summarised" in line]
    assert len(warned) == 3, out.stderr
    assert any("jsonl-final-score" in w and "final_score" in w and "3000000000" in w
               for w in warned), warned
    assert any("jsonl-honba" in w and "honba" in w and "40000" in w for w in warned), warned
    table = json.loads(out.stdout)
    assert table and "Infinity" not in out.stdout


@pytest.mark.slow  # five commands over every hostile record: ~10 s (each place is tested above)
def test_every_command_reads_hostile_numbers_without_a_traceback(tmp_path: Path) -> None:
    """audit (as JSON and as the referee's page), convert to JSON Lines, stats with its
    report, and view, over every hostile record at once: no traceback, no NaN or Infinity
    in what is written."""
    written = _hostile_folder(tmp_path)
    folder = written[0].parent
    audit = _cli("audit", str(folder), "--format", "json")
    assert audit.exit_code == 1, (audit.exception, audit.output[-2000:])
    assert audit.exception is None or isinstance(audit.exception, SystemExit)
    _strict_json(audit.stdout)
    converted = _cli("convert", str(folder), "-t", "jsonl", "-o", str(tmp_path / "jsonl"))
    assert converted.exception is None or isinstance(converted.exception, SystemExit), \
        converted.output[-2000:]
    outputs = sorted((tmp_path / "jsonl").rglob("*.jsonl"))
    assert len(outputs) >= len(written) // 2
    for path in outputs:
        _strict_json(path.read_text("utf-8"))
    page = tmp_path / "report.html"
    stats = _cli("stats", str(folder), "--min-games", "1", "--report", str(page))
    assert stats.exit_code == 0, stats.output[-2000:]
    assert page.stat().st_size > 0
    referee = _cli("audit", str(folder), "--format", "html", "-o", str(tmp_path / "a.html"))
    assert referee.exit_code == 1, referee.output[-2000:]
    viewed = _cli("view", str(folder), "-o", str(tmp_path / "view"))
    assert viewed.exception is None or isinstance(viewed.exception, SystemExit), \
        viewed.output[-2000:]
    assert viewed.exit_code in (0, 1), viewed.output[-2000:]
    assert "Traceback" not in (viewed.output + stats.output + converted.output + audit.output
                               + referee.output)


# ---------------------------------------------------------------- truncated tars

_MEMBERS = ["east-riichi.jsonl", "east-ron.jsonl", "east-seeded.jsonl"]


def _cut_tar(root: Path, cut: str) -> Path:
    """A tar of three example games cut short: in the middle of the second member's data
    (``member``), of its header (``header``), of the first member's header (``first``),
    or a gzip tar cut in the middle of the compressed stream (``gzip``)."""
    whole = root / "whole.tar"
    with tarfile.open(whole, "w") as t:
        for name in _MEMBERS:
            t.add(EXAMPLES / name, name)
    data = whole.read_bytes()
    whole.unlink()
    with tarfile.open(fileobj=__import__("io").BytesIO(data)) as t:
        second = t.getmembers()[1]
    if cut == "member":
        out, kept = root / "cut.tar", data[:second.offset_data + 5000]
    elif cut == "header":
        out, kept = root / "cut.tar", data[:second.offset + 200]
    elif cut == "first":
        out, kept = root / "cut.tar", data[:300]
    else:
        packed = gzip.compress(data)
        out, kept = root / "cut.tar.gz", packed[:len(packed) // 2]
    out.write_bytes(kept)
    return out


_COMMANDS = {
    "audit": ["audit", "--format", "json"],
    "convert": ["convert", "-t", "jsonl"],
    "stats": ["stats", "--min-games", "1"],
    "view": ["view"],
}


@pytest.mark.parametrize("cut", ["member", "header", "first", "gzip"])
@pytest.mark.parametrize("command", list(_COMMANDS))
def test_a_cut_tar_is_unreadable_in_one_line_and_the_rest_is_reported(
        tmp_path: Path, command: str, cut: str) -> None:
    """Every command: the archive named once as unreadable, exit status 2 after the rest,
    the sound record beside it reported, and the member before the cut read. (It was a
    traceback from tarfile, or click's "Aborted!" for a gzip tar.)"""
    folder = tmp_path / "in"
    folder.mkdir()
    archive = _cut_tar(folder, cut)
    (folder / "sound.jsonl").write_bytes((EXAMPLES / "east-ron.jsonl").read_bytes())
    args = [*_COMMANDS[command], str(folder)]
    if command in ("convert", "view"):
        args += ["-o", str(tmp_path / "out")]
    out = _cli(*args)
    assert out.exit_code == 2, out.output[-3000:]
    assert out.exception is None or isinstance(out.exception, SystemExit), out.exception
    assert "Traceback" not in out.output and "Aborted" not in out.output
    if command == "audit":  # the report says it, as it says every input it could not read
        named = [f"{u['path']}: {u['message']}" for u in json.loads(out.stdout)["unreadable"]]
    else:  # said on standard error (view repeats it in its closing line)
        named = [line for line in out.stderr.splitlines() if str(archive) in line]
    assert named and all(f"{archive}!" not in line for line in named), named
    assert all("cut short" in line or "damaged" in line for line in named), named
    _reported(command, out, tmp_path / "out", archive, cut != "first")


def _reported(command: str, out: Result, written: Path, archive: Path, member: bool) -> None:
    """The sound record and (``member``) the archive's first member are in the command's
    output."""
    first = f"{archive}!{_MEMBERS[0]}"
    if command == "audit":
        report = json.loads(out.stdout)
        paths = {g["path"] for g in report["games"]}
        assert str(archive.parent / "sound.jsonl") in paths and (first in paths) == member
        assert report["summary"]["unreadable_files"] == 1
    elif command == "convert":
        names = {p.name for p in written.rglob("*.jsonl")}
        assert "sound.jsonl" in names and (_MEMBERS[0] in names) == member, names
    elif command == "stats":
        assert "games" in out.stdout and "Ben" in out.stdout, out.stdout
    else:
        pages = {p.name for p in written.rglob("*.html")}
        assert any(n.startswith("sound") for n in pages), pages
        assert any(n.startswith("east-riichi") for n in pages) == member, pages


# ---------------------------------------------------------------- houou-logs databases

_LOGS_TABLE = ("CREATE TABLE logs (id TEXT PRIMARY KEY, date TEXT NOT NULL, num_players "
               "INTEGER NOT NULL, is_tonpu INTEGER NOT NULL, is_processed INTEGER NOT NULL, "
               "was_error INTEGER NOT NULL, log BLOB) WITHOUT ROWID")


def _houou_db(path: Path, rows: list[tuple[str, str]]) -> Path:
    """A houou-logs database whose rows are given as SQL expressions (id, log), so that a
    row can hold text that is not UTF-8 (``CAST(x'ff' AS TEXT)``)."""
    with sqlite3.connect(path) as db:
        db.execute(_LOGS_TABLE)
        for ident, log in rows:
            db.execute(f"INSERT INTO logs VALUES ({ident}, '2022-01-01', 4, 1, 1, 0, {log})")
    db.close()
    return path


def _hex(data: bytes) -> str:
    return f"x'{data.hex()}'"


def test_a_logs_view_that_never_ends_is_not_read_as_a_table(tmp_path: Path) -> None:
    """``logs`` as a recursive view (the listing ran forever): only a real table is a
    houou-logs database, so the file is no archive; the run ends at once."""
    db = tmp_path / "endless.db"
    with sqlite3.connect(db) as conn:
        conn.execute("CREATE VIEW logs AS WITH RECURSIVE r(id, log) AS (SELECT 'a', x'00' "
                     "UNION ALL SELECT id || 'a', log FROM r) SELECT id, log FROM r")
    conn.close()
    sound = tmp_path / "sound.jsonl"
    sound.write_bytes((EXAMPLES / "east-ron.jsonl").read_bytes())
    try:
        done = subprocess.run([sys.executable, "-m", "mjlog.cli", "audit", str(tmp_path),
                               "--format", "json"], capture_output=True, text=True,
                              timeout=120, cwd=ROOT)
    except subprocess.TimeoutExpired:
        pytest.fail("the audit of a database whose logs view never ends did not end")
    report = json.loads(done.stdout)
    assert [g["path"] for g in report["games"]] == [str(sound)], done.stderr[-2000:]
    assert "Traceback" not in done.stderr


def test_a_query_past_its_step_bound_stops_with_a_reason(tmp_path: Path,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """Every query of a houou-logs database runs under a bound of SQLite's steps: past it
    the query stops and the archive says why (here the bound is made small)."""
    from mjlog.run import archives

    rows = [(f"'2022010100gm-0000-0000-{i:08x}'", _hex(b"<mjloggm/>")) for i in range(300)]
    db = _houou_db(tmp_path / "many.db", rows)
    assert len(list(archives.members(str(db)))) == 300
    monkeypatch.setattr(archives, "SQLITE_STEPS", 500)
    fresh = tmp_path / "again.db"
    fresh.write_bytes(db.read_bytes())
    with pytest.raises(archives.ArchiveError, match="steps"):
        list(archives.members(str(fresh)))
    assert "500 steps" in (archives.damage(str(fresh)) or "")


def test_records_past_the_row_bound_are_not_listed_and_the_database_says_so(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """At most :data:`mjlog.run.archives.SQLITE_ROWS` records of a database are listed (here
    made 2); the database is then an unreadable input that says how many were read."""
    from mjlog.formats import expand, file_bytes
    from mjlog.run import archives

    rows = [(f"'2022010100gm-0000-0000-{i:08x}'", _hex(b"<mjloggm/>")) for i in range(3)]
    db = _houou_db(tmp_path / "three.db", rows)
    monkeypatch.setattr(archives, "SQLITE_ROWS", 2)
    found = list(expand([db]))
    assert found == [(f"{db}!2022010100gm-0000-0000-00000000", False),
                     (f"{db}!2022010100gm-0000-0000-00000001", False), (str(db), True)]
    with pytest.raises(InputError, match="more than 2 records; the first 2 are read"):
        file_bytes(db)


def test_rows_that_are_not_utf8_are_diagnostics_naming_the_row(tmp_path: Path) -> None:
    """An id that is not UTF-8 text (the listing failed with a traceback) is an unreadable
    record named by its escaped id; a log stored as text that is not UTF-8 is read as the
    bytes it holds, and its reader says where the bad byte is; the other rows are read."""
    tenhou = (EXAMPLES / "east-ron.mjlog").read_bytes()
    broken = tenhou.replace(b'n0="', b'n0="\xff', 1)
    db = _houou_db(tmp_path / "2022.db", [
        ("'2022010100gm-0000-0000-00000001'", _hex(gzip.compress(tenhou))),
        (f"CAST({_hex(b'2022010100gm-0000-0000-bad' + bytes([0xFF]))} AS TEXT)",
         _hex(gzip.compress(tenhou))),
        ("'2022010100gm-0000-0000-00000003'", f"CAST({_hex(broken)} AS TEXT)"),
    ])
    out = _cli("audit", str(db), "--format", "json")
    assert out.exception is None or isinstance(out.exception, SystemExit), out.exception
    assert out.exit_code == 2, out.output[-3000:]
    report = json.loads(out.stdout)
    games = {g["path"].split("!")[1]: g for g in report["games"]}
    assert set(games) == {"2022010100gm-0000-0000-00000001", "2022010100gm-0000-0000-00000003"}
    (bad_id,) = report["unreadable"]
    assert bad_id["path"] == f"{db}!2022010100gm-0000-0000-bad\\xff"
    assert "not UTF-8" in bad_id["message"] and "bad\\xff" in bad_id["message"]
    third = games["2022010100gm-0000-0000-00000003"]
    encoding = [d for d in third["diagnostics"] if "encoding" in d["message"]]
    assert encoding and (encoding[0]["line"], encoding[0]["column"]) == (1, 52), encoding


_ENDLESS = ("WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r) "
            "SELECT count(*) FROM r")


def test_a_query_that_never_ends_stops_at_its_step_bound_or_at_ctrl_c(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The bound of steps ends a query that would run forever; a Ctrl-C (here a timer's
    signal raising ``KeyboardInterrupt``) ends it at once and is raised, not swallowed by
    SQLite's callback."""
    import signal
    import time

    from mjlog.run import archives

    conn = sqlite3.connect(":memory:")
    monkeypatch.setattr(archives, "SQLITE_STEPS", 2_000_000)
    with pytest.raises(archives.ArchiveError, match="2,000,000 steps"):
        archives._query(conn, "endless.db", _ENDLESS, ())
    monkeypatch.setattr(archives, "SQLITE_STEPS", 10**15)

    def interrupt(signum: int, frame: Any) -> None:
        raise KeyboardInterrupt

    before = signal.signal(signal.SIGALRM, interrupt)
    started = time.monotonic()
    try:
        signal.setitimer(signal.ITIMER_REAL, 0.3)
        with pytest.raises(KeyboardInterrupt):
            archives._query(conn, "endless.db", _ENDLESS, ())
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, before)
    assert time.monotonic() - started < 10


# ---------------------------------------------------------------- one very long tag

_TAG_MB = 50


def _long_tag(kind: str) -> bytes:
    """A notation record (an example) with one header tag of 50 MB, gzipped (about 50 kB):
    a long value, a value never closed, a value of escaped quotes, or a tag of 13 million
    values."""
    n = _TAG_MB * 2**20
    tag = {"value": '[Meta "x" "' + "a" * n + '"]',
           "unterminated": '[Meta "x" "' + "a" * n,
           "escapes": '[Meta "x" "' + '\\"' * (n // 2) + '"]',
           "values": "[Players" + ' "a"' * (n // 4) + "]"}[kind]
    lines = (EXAMPLES / "01-double-east.mjn").read_text("utf-8").split("\n")
    return gzip.compress("\n".join([lines[0], tag, *lines[1:]]).encode(), 6)


_PEAK = ("import resource, subprocess, sys\n"
         "done = subprocess.run([sys.executable, '-m', 'mjlog.cli', 'audit', sys.argv[1]],"
         " capture_output=True, text=True)\n"
         "print(done.returncode, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)\n"
         "print(done.stdout[-2000:], done.stderr[-2000:])\n")
"""Run ``mjlog audit FILE`` from a small Python of its own and print its exit status and
peak memory (KiB): measured from the test's own process, a child's peak counts the test
process's memory, which its start shares."""


@pytest.mark.slow
@pytest.mark.parametrize("kind", ["value", "unterminated", "escapes", "values"])
def test_a_tag_of_50_mb_is_read_in_memory_linear_in_it(tmp_path: Path, kind: str) -> None:
    """The header's pattern held a backtracking point per character of a quoted value: a
    50 MB tag took 8.8 GB (3.5 GB for one never closed). Now the audit of the record stays
    under 300 MB, and says what is wrong with the tag."""
    record = tmp_path / f"{kind}.mjn.gz"
    record.write_bytes(_long_tag(kind))
    done = subprocess.run([sys.executable, "-c", _PEAK, str(record)], capture_output=True,
                          text=True, timeout=600, cwd=ROOT)
    status, peak = map(int, done.stdout.split("\n", 1)[0].split())
    assert status in (0, 1), done.stdout
    assert "Traceback" not in done.stdout
    assert peak < 300 * 1024, f"peak {peak // 1024} MB"

"""Property-based fuzzing of every JSON reader with numbers no record holds.

A small record of our own in each JSON format (the example game written as JSON Lines,
tenhou.net/6, mjai and kobalab; the Mahjong Soul, Riichi City and M-League records that
``test_hostile_inputs.py`` writes) gets one to three of its numbers replaced, each at a
random place, by a literal that Python's json module reads as a float that is not
finite, as a huge integer, fails on (more than 4,300 digits), or by a value past the
ranges mjlog reads (scores, honba). Riichi City's numbers inside its events' data
strings are among the places. Whatever the places, the only documented outcomes are:

* reading gives records (or an :class:`InputError` with a documented code), never an
  exception and never an ``internal-error``;
* each number that JSON should not hold is a ``bad-value`` at its line and JSON path;
* the audit finds what it finds, without failing, and its report is strict JSON;
* ``mjlog convert -t jsonl`` writes no ``NaN`` or ``Infinity``.
"""

from __future__ import annotations

import json
import math
import re
import tempfile
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from mjlog.core.diagnostics import InputError
from mjlog.core.events import GameEnd, GameStart
from mjlog.formats import detect, read_bytes
from mjlog.reports.audit import audit_record
from tests.test_hostile_inputs import (
    _EXAMPLE,
    HOLE,
    _strict_json,
    _written,
    majsoul_doc,
    mleague_doc,
    riichicity_text,
)

FUZZ = settings(max_examples=40, deadline=timedelta(seconds=20),
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
READ_ERRORS = {"unknown-format", "bad-gzip", "too-large", "not-a-game"}

REFUSED = ["1e999", "-1e999", "NaN", "Infinity", "-Infinity", "9" * 4000, "-" + "9" * 5000,
           str(10**30), str(-(10**30)), str(2**53 + 1), "1.5e300", str(2**63), "1e16"]
"""Literals the JSON decoder refuses wherever they are: a ``bad-value`` at their place."""
PAST_RANGE = ["3000000000", "-3000000000", "40000", "1e9", "2147483648", "32768", "-1",
              "9007199254740992", "0.5"]
"""Literals JSON holds that may be past the range of the field they land in."""


def _records() -> dict[str, tuple[str, list[Any]]]:
    """Each format's record as (how its text is made, its documents): ``lines`` for one
    JSON document a line, ``doc`` for one document, ``riichicity`` for one whose events'
    data are documents in strings."""
    game = json.loads(riichicity_text())
    for e in game["data"]["handRecord"][0]["handEventRecord"]:
        e["data"] = json.loads(e["data"])
    return {
        "jsonl": ("lines", [json.loads(x) for x in _EXAMPLE]),
        "mjai": ("lines", [json.loads(x) for x in _written("mjai").splitlines()]),
        "tenhou6": ("doc", [json.loads(_written("tenhou6"))]),
        "kobalab": ("doc", [json.loads(_written("kobalab"))]),
        "majsoul": ("doc", [majsoul_doc()]),
        "riichicity": ("riichicity", [game]),
        "mleague": ("doc", [mleague_doc()]),
    }


RECORDS = _records()


_NUMERIC = re.compile(r"([=+-]?)[0-9]+")
"""A number written as a string (M-League's ``=25000``, ``0``): a place too, whose
literal is written in the string."""


def _numbers(doc: Any, where: tuple[Any, ...] = ()) -> list[tuple[tuple[Any, ...], str | None]]:
    """The places of every number in ``doc`` (keys and indexes from its root), each with
    ``None``, or for a number written as a string, the string's sign or ``=``."""
    if isinstance(doc, dict):
        return [p for k, v in doc.items() for p in _numbers(v, (*where, k))]
    if isinstance(doc, list):
        return [p for i, v in enumerate(doc) for p in _numbers(v, (*where, i))]
    if isinstance(doc, int | float) and not isinstance(doc, bool):
        return [(where, None)]
    m = _NUMERIC.fullmatch(doc) if isinstance(doc, str) else None
    return [(where, m.group(1))] if m else []


def _path(where: tuple[Any, ...]) -> str:
    return "$" + "".join(f"[{k}]" if isinstance(k, int) else f".{k}" for k in where)


def _set(doc: Any, where: tuple[Any, ...], value: Any) -> None:
    for key in where[:-1]:
        doc = doc[key]
    doc[where[-1]] = value


def _text(kind: str, docs: list[Any], holes: dict[str, str]) -> bytes:
    """The record's text with each hole's literal in place."""
    if kind == "lines":
        text = "\n".join(json.dumps(d, ensure_ascii=False) for d in docs) + "\n"
    elif kind == "doc":
        text = json.dumps(docs[0], ensure_ascii=False)
    else:  # Riichi City: each event's data back into its string, literals in place first
        game = json.loads(json.dumps(docs[0]))
        for e in game["data"]["handRecord"][0]["handEventRecord"]:
            inner = json.dumps(e["data"])
            for hole, literal in holes.items():
                inner = inner.replace(json.dumps(hole), literal)
            e["data"] = inner
        text = json.dumps(game, ensure_ascii=False)
    for hole, literal in holes.items():
        text = text.replace(json.dumps(hole), literal)
    return text.encode()


def _place(kind: str, where: tuple[Any, ...]) -> tuple[int, str]:
    """The line and JSON path a reader gives a number at ``where`` of the documents."""
    if kind == "lines":
        return where[0] + 1, _path(where[1:])
    inner = kind == "riichicity" and where[4:5] == ("handEventRecord",) \
        and where[6:7] == ("data",)  # in an event's data: a document in a string
    at = 7 if inner else len(where)
    return 0, _path(where[1:at]) + _path(where[at:])[1:]


def _reported(place: tuple[int, str], found: set[tuple[int, str]]) -> bool:
    """Whether a ``bad-value`` is at ``place``, or (in an event's data, read one event at
    a time) at an event before it in its round, which the reader then gave up: what
    follows it is not read, so it states nothing."""
    if place in found:
        return True
    m = _EVENT.match(place[1])
    if m is None:
        return False
    for _, path in found:
        other = _EVENT.match(path)
        if other is not None and other["round"] == m["round"] and \
                int(other["event"]) < int(m["event"]):
            return True
    return False


_EVENT = re.compile(r"(?P<round>.*\.handEventRecord)\[(?P<event>\d+)\]")


@st.composite
def hostile(draw: st.DrawFn, fmt: str) -> tuple[bytes, list[tuple[int, str]]]:
    """``fmt``'s record with one to three numbers replaced by hostile literals; the record
    and the places of those the decoder must refuse."""
    kind, docs = RECORDS[fmt]
    docs = json.loads(json.dumps(docs))
    places = _numbers(docs)
    holes: dict[str, str] = {}
    refused = []
    chosen = draw(st.lists(st.sampled_from(places), min_size=1, max_size=3,
                           unique_by=lambda p: p[0]))
    for k, (where, sign) in enumerate(sorted(chosen, key=places.index)):
        literal = draw(st.sampled_from(REFUSED + PAST_RANGE))
        hole = f"{HOLE}{k}"
        _set(docs, where, hole)
        if sign is not None and draw(st.booleans()):  # in the string, as the record writes
            holes[hole] = json.dumps(sign + literal)
            continue
        holes[hole] = literal
        if literal in REFUSED:
            refused.append(_place(kind, where))
    if kind == "lines":  # a line is not read past its first such number, which counts the rest
        refused = [p for i, p in enumerate(refused) if p[0] not in {q[0] for q in refused[:i]}]
    event(f"{len(refused)} refused")
    return _text(kind, docs, holes), refused


def _check(fmt: str, data: bytes, refused: list[tuple[int, str]]) -> None:
    """Read, audit and convert: only documented outcomes (see the module's docstring)."""
    try:
        records = read_bytes(data, "fuzz")
    except InputError as exc:
        assert exc.diagnostic.code in READ_ERRORS, str(exc)
        event(f"not read: {exc.diagnostic.code}")
        return
    assert detect(data) == fmt
    found = {(d.src.line, d.src.path) for r in records for d in r.diagnostics
             if d.code == "bad-value" and d.src is not None}
    assert all(_reported(place, found) for place in refused), (refused, found)
    for rec in records:
        failures = [str(d) for d in rec.diagnostics if d.code == "internal-error"]
        assert failures == []
        report = audit_record(rec, wall=False)
        assert [str(f) for f in report.findings if f.code == "internal-error"] == []
        json.dumps(report.to_dict(), allow_nan=False)
        for ev in rec.events:
            if isinstance(ev, GameEnd):
                assert all(math.isfinite(x) for x in ev.points or ())
            if isinstance(ev, GameStart):
                assert all(math.isfinite(p.rating) for p in ev.players if p.rating is not None)
    _converted(data)


def _converted(data: bytes) -> None:
    """``mjlog convert -t jsonl`` of the record: JSON with no NaN or Infinity."""
    from mjlog.cli import main

    with tempfile.TemporaryDirectory() as folder:
        record = Path(folder) / "record.json"
        record.write_bytes(data)
        out = CliRunner().invoke(main, ["convert", str(record), "-t", "jsonl"])
    assert out.exception is None or isinstance(out.exception, SystemExit), out.exception
    assert "Traceback" not in out.output
    _strict_json(out.stdout)


@pytest.mark.parametrize("fmt", list(RECORDS))
def test_hostile_numbers_anywhere_give_only_documented_outcomes(fmt: str) -> None:
    @FUZZ
    @given(hostile(fmt))
    def run(case: tuple[bytes, list[tuple[int, str]]]) -> None:
        _check(fmt, *case)

    run()


@pytest.mark.parametrize("fmt", list(RECORDS))
def test_the_records_read_clean_before_they_are_damaged(fmt: str) -> None:
    """The fuzz starts from records every reader reads without a bad value, so that what
    it finds is the numbers' doing."""
    kind, docs = RECORDS[fmt]
    (rec,) = read_bytes(_text(kind, docs, {}))
    assert rec.format == fmt
    assert [str(d) for d in rec.diagnostics if d.code == "bad-value"] == []
    assert _numbers(docs)

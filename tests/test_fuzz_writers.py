"""Property-based fuzzing of every reader into every writer.

A record of our own in each format mjlog reads is damaged (bytes flipped,
deleted, duplicated or swapped; numbers changed, also into odd Unicode digits
and letters) and goes read → audit → write in every format and dialect → read.
Whatever the damage, the only documented outcomes are: an :class:`InputError`
with a documented code, a record with diagnostics, findings, and writers that
either write or refuse with ``cannot-write`` naming what the target cannot
hold. A reader, a check or a writer that fails (``internal-error``, "the …
writer failed") fails the test, and so do an audit report that does not fit
its schema and a case that takes longer than the deadline (a hang).
"""

from __future__ import annotations

import json
import re
from datetime import timedelta
from typing import Any

import jsonschema
import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from mjlog.core.diagnostics import InputError
from mjlog.core.record import GameRecord
from mjlog.formats import FORMATS, WriteOptions, read_bytes, write, writers
from mjlog.reports.audit import AuditReport, audit_record

from .conftest import EXAMPLES, ODD_JSON, ROOT

pytestmark = pytest.mark.slow  # property-based fuzzing of every writer

FUZZ = settings(max_examples=60, deadline=timedelta(seconds=20),
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
READ_ERRORS = {"unknown-format", "bad-gzip", "too-large"}
REPORT_SCHEMA = jsonschema.Draft202012Validator(
    json.loads((ROOT / "schemas" / "audit-report.schema.json").read_text("utf-8")))
WRITE_OPTIONS = [(fmt, WriteOptions()) for fmt in writers()] + [
    ("notation", WriteOptions(plain=True)), ("tenhou6", WriteOptions(per_round=True)),
    *(("mjai", WriteOptions(dialect=d)) for d in FORMATS["mjai"].dialects)]


def _seed(fmt: str) -> bytes:
    """A complete game of our own in ``fmt``: the example, or the example written in it."""
    riichi = (EXAMPLES / "east-riichi.jsonl").read_bytes()
    if fmt == "tenhou-xml":
        return (EXAMPLES / "east-riichi.mjlog").read_bytes()
    if fmt == "notation":
        return (EXAMPLES / "06-kan-after-riichi.mjn").read_bytes()
    if fmt == "jsonl":
        return riichi
    (rec,) = read_bytes(riichi)
    return write(fmt, rec.events).encode()


SEEDS = {fmt: _seed(fmt) for fmt in (*writers(), "tenhou-xml")}
"""A seed for every format mjlog writes, and Tenhou XML (the platforms' own formats that
mjlog only reads are fuzzed from their own tests' records)."""
ODD = [b"", b"0", b"9", b"-1", b"99999", b"x", "²".encode(), "٣".encode(), b"\xff",
       b"\"", b",", b"]", b"}", b"\n", "一".encode()]


def _number_spans(data: bytes) -> list[tuple[int, int]]:
    return [m.span() for m in re.finditer(rb"\d+", data)]


ODD_VALUES: st.SearchStrategy[Any] = st.one_of(st.integers(-3, 140), st.sampled_from(ODD_JSON))


@st.composite
def changed_value(draw: st.DrawFn, doc: Any) -> Any:
    """``doc`` (parsed JSON) with one value somewhere inside it replaced by an odd one."""
    if isinstance(doc, dict | list) and doc and draw(st.integers(0, 5)):
        keys = list(doc) if isinstance(doc, dict) else list(range(len(doc)))
        key = draw(st.sampled_from(keys))
        copy = dict(doc) if isinstance(doc, dict) else list(doc)
        copy[key] = draw(changed_value(doc[key]))
        return copy
    return draw(ODD_VALUES)


@st.composite
def damaged_json(draw: st.DrawFn, fmt: str) -> bytes:
    """``fmt``'s seed (JSON, one document a line) with up to three values changed."""
    lines = SEEDS[fmt].decode().splitlines()
    for _ in range(draw(st.integers(1, 3))):
        i = draw(st.integers(0, len(lines) - 1))
        lines[i] = json.dumps(draw(changed_value(json.loads(lines[i]))), ensure_ascii=False)
    return "\n".join(lines).encode()


@st.composite
def damaged(draw: st.DrawFn, fmt: str) -> bytes:
    """``fmt``'s seed with up to four edits past its first 30 bytes (so that it is still
    recognised): bytes or numbers replaced, runs cut, doubled or swapped."""
    data = bytearray(SEEDS[fmt])
    for _ in range(draw(st.integers(1, 4))):
        kind = draw(st.sampled_from(["byte", "number", "cut", "double", "swap"]))
        if kind == "number" and (spans := _number_spans(bytes(data[30:]))):
            start, end = draw(st.sampled_from(spans))
            data[30 + start:30 + end] = draw(st.sampled_from(ODD[1:8]))
            continue
        pos = draw(st.integers(30, len(data) - 1))
        size = draw(st.integers(1, 40))
        if kind == "cut":
            del data[pos:pos + size]
        elif kind == "double":
            data[pos:pos] = data[pos:pos + size]
        elif kind == "swap":
            other = draw(st.integers(30, len(data) - 1))
            data[pos], data[other] = data[other], data[pos]
        else:
            data[pos:pos + 1] = draw(st.sampled_from(ODD))
    return bytes(data)


def _no_failure(rec: GameRecord) -> None:
    failures = [str(d) for d in rec.diagnostics if d.code == "internal-error"]
    assert failures == []


def _round_trip(data: bytes) -> None:
    """Read, audit, write in every format and read each output back: nothing fails."""
    try:
        records = read_bytes(data, "fuzz")
    except InputError as exc:
        assert exc.diagnostic.code in READ_ERRORS
        event(f"not read: {exc.diagnostic.code}")
        return
    for rec in records:
        event(f"read: {len(rec.events)} events" if len(rec.events) < 10 else "read")
        _no_failure(rec)
        report = audit_record(rec, wall=False)
        assert [f for f in report.findings if f.code == "internal-error"] == []
        whole = AuditReport()
        whole.summary.add(report)
        whole.games.append(report)
        REPORT_SCHEMA.validate(json.loads(json.dumps(whole.to_dict())))  # as written
        for fmt, options in WRITE_OPTIONS:
            try:
                text = write(fmt, rec.events, options)
            except InputError as exc:
                event("a writer refused")
                assert exc.diagnostic.code == "cannot-write"
                assert "writer failed" not in exc.diagnostic.message, exc.diagnostic.message
                continue
            for back in read_bytes(text.encode(), f"fuzz-{fmt}", fmt=fmt):
                _no_failure(back)


@FUZZ
@given(damaged("tenhou-xml"))
def test_damaged_tenhou_xml_into_every_writer(data: bytes) -> None:
    _round_trip(data)


@FUZZ
@given(damaged("jsonl"))
def test_damaged_json_lines_into_every_writer(data: bytes) -> None:
    _round_trip(data)


@FUZZ
@given(damaged("notation"))
def test_damaged_notation_into_every_writer(data: bytes) -> None:
    _round_trip(data)


@FUZZ
@given(st.one_of(damaged("tenhou6"), damaged_json("tenhou6")))
def test_damaged_tenhou6_into_every_writer(data: bytes) -> None:
    _round_trip(data)


@FUZZ
@given(st.one_of(damaged("mjai"), damaged_json("mjai")))
def test_damaged_mjai_into_every_writer(data: bytes) -> None:
    _round_trip(data)


@FUZZ
@given(damaged_json("jsonl"))
def test_changed_json_lines_values_into_every_writer(data: bytes) -> None:
    _round_trip(data)


def test_every_seed_reads_clean_and_writes_everywhere() -> None:
    """The undamaged seeds themselves go through every writer (the fuzz starts from sound
    records, so what it finds is the damage's doing)."""
    for fmt, data in SEEDS.items():
        (rec,) = read_bytes(data, fmt=fmt)
        assert [d for d in rec.diagnostics if d.severity == "error"] == [], fmt
        for target, options in WRITE_OPTIONS:
            assert write(target, rec.events, options)


@FUZZ
@given(st.one_of(damaged("kobalab"), damaged_json("kobalab")))
def test_damaged_kobalab_into_every_writer(data: bytes) -> None:
    _round_trip(data)

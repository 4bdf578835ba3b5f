"""Property-based fuzzing: damaged input gives documented diagnostics, never a crash.

The importers are fed truncated, mutated and spliced records; whatever comes
out must be a GameRecord whose diagnostics use documented codes (or the
documented :class:`InputError`), and the audit with every check (under the
record's rules and under kansaki) must digest the events without an
``internal-error``.
"""

from __future__ import annotations

import gzip

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mjlog.core.diagnostics import InputError
from mjlog.core.record import GameRecord
from mjlog.formats import read_bytes, serialize, tenhou_xml
from mjlog.reports.audit import audit_record

from .conftest import EXAMPLES

pytestmark = pytest.mark.slow  # property-based fuzzing of the readers

XML = (EXAMPLES / "east-riichi.mjlog").read_bytes()
JSONL = (EXAMPLES / "east-riichi.jsonl").read_bytes()
FUZZ = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])

TAGS = ["<T1/>", "<D1/>", "<N who=\"9\" m=\"1\"/>", "<AGARI/>", "<INIT seed=\"x\"/>",
        "<REACH who=\"1\" step=\"3\"/>", "<DORA hai=\"999\"/>", "<UN n0=\"%ZZ\"/>", "<GO/>",
        "<RYUUKYOKU type=\"odd\"/>", "<BYE who=\"-1\"/>", "&amp;", "<!-- c -->", "<![CDATA[x]]>"]


def _mutate(data: bytes, edits: list[tuple[int, bytes]]) -> bytes:
    """Overwrite bytes at each position (an empty replacement deletes one byte)."""
    out = bytearray(data)
    for pos, repl in edits:
        out[pos:pos + max(1, len(repl))] = repl
    return bytes(out)


def _audit(rec: GameRecord) -> None:
    """Audit with every check: findings are fine, a check's or reader's failure is not."""
    for preset in (None, "kansaki"):
        report = audit_record(rec, preset=preset)
        failures = [str(x) for x in (*report.findings, *report.diagnostics)
                    if x.code == "internal-error"]
        assert failures == []


def _check_xml(data: bytes) -> None:
    try:
        rec = tenhou_xml.read(data)
    except InputError as exc:
        assert exc.diagnostic.code == "bad-gzip"
        return
    assert {d.code for d in rec.diagnostics} <= tenhou_xml.DIAGNOSTIC_CODES
    _audit(rec)


@FUZZ
@given(st.integers(min_value=0, max_value=len(XML)))
def test_truncated_xml(cut: int) -> None:
    _check_xml(XML[:cut])


@FUZZ
@given(st.lists(st.tuples(st.integers(0, len(XML) - 1), st.binary(min_size=0, max_size=4)),
                min_size=1, max_size=6))
def test_mutated_xml(edits: list[tuple[int, bytes]]) -> None:
    _check_xml(_mutate(XML, edits))


@FUZZ
@given(st.integers(0, len(XML)), st.sampled_from(TAGS))
def test_spliced_xml(pos: int, tag: str) -> None:
    _check_xml(XML[:pos] + tag.encode() + XML[pos:])


@FUZZ
@given(st.integers(0, len(XML)))
def test_truncated_gzip(cut: int) -> None:
    _check_xml(gzip.compress(XML)[:cut])


@FUZZ
@given(st.lists(st.tuples(st.integers(0, len(JSONL) - 1), st.binary(min_size=0, max_size=3)),
                min_size=1, max_size=6))
def test_mutated_jsonl(edits: list[tuple[int, bytes]]) -> None:
    for rec in serialize.read(_mutate(JSONL, edits)):
        assert {d.code for d in rec.diagnostics} <= serialize.DIAGNOSTIC_CODES
        _audit(rec)


@FUZZ
@given(st.binary(max_size=200))
def test_any_bytes(data: bytes) -> None:
    try:
        for rec in read_bytes(data):
            _audit(rec)
    except InputError as exc:
        assert exc.diagnostic.code in {"unknown-format", "bad-gzip"}

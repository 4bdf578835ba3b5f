"""Property-based fuzzing of the readers of the platforms' own records.

mjlog writes none of these formats, so there is no record of our own to
start from: a real record of each (read from ``../shared/corpus``, never
copied) gets one to three of its values changed anywhere in the document
(into numbers, odd strings, lists, objects), and goes read → audit → write in
every format → read, as in ``test_fuzz_writers.py``. The only documented
outcomes are diagnostics, findings, ``not-a-game``, and writers that write or
refuse; a reader, a check or a writer that fails fails the test.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from .conftest import CORPUS
from .test_fuzz_writers import FUZZ, _round_trip, changed_value

pytestmark = pytest.mark.slow

SOURCES = {
    "majsoul": CORPUS / "majsoul-raw",
    "riichicity": CORPUS / "other/0num4-paifu-playground-riichicity/4ma_gin_han_sample.json",
    "mleague": CORPUS / "other/Preserver6166-MleaguePaifuParser",
}


def _seed(fmt: str) -> Any:
    path = SOURCES[fmt]
    files = sorted(path.rglob("*.json")) if path.is_dir() else [path]
    return json.loads(files[0].read_text(encoding="utf-8")) if files else None


SEEDS = {fmt: _seed(fmt) for fmt in SOURCES} if CORPUS.exists() else {}


@st.composite
def changed(draw: st.DrawFn, fmt: str) -> bytes:
    """A platform record with up to three values changed somewhere inside it."""
    doc = SEEDS[fmt]
    for _ in range(draw(st.integers(1, 3))):
        doc = draw(changed_value(doc))
    return json.dumps(doc, ensure_ascii=False).encode()


def _need(fmt: str) -> None:
    if SEEDS.get(fmt) is None:
        pytest.skip(f"the real-record corpus is not at {CORPUS}: no {fmt} record to damage")


@pytest.mark.parametrize("fmt", list(SOURCES))
def test_damaged_platform_record_into_every_writer(fmt: str) -> None:
    _need(fmt)

    @FUZZ
    @given(changed(fmt))
    def run(data: bytes) -> None:
        _round_trip(data)

    run()


def test_the_seeds_are_real_records() -> None:
    for fmt in SOURCES:
        _need(fmt)
        assert isinstance(SEEDS[fmt], dict | list)
    assert all(isinstance(p, Path) for p in SOURCES.values())


@FUZZ
@given(st.binary(max_size=400))
def test_any_bytes_after_the_binary_records_start_are_read_or_refused(tail: bytes) -> None:
    """Mahjong Soul's binary form: whatever follows its first bytes gives diagnostics or
    a game, never a failure."""
    _round_trip(b"\n\x15.lq.GameDetailRecords" + tail)

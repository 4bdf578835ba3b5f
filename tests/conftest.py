"""Shared test fixtures: where the real corpus is, and small records of our own."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"
CORPUS = ROOT.parent / "shared" / "corpus"

CORPUS_MISSING = (
    f"the real-record corpus is not at {CORPUS} (it lives beside the repository in "
    "../shared/corpus and is never copied into it); corpus tests need it"
)


def announced(codes: str) -> Counter[str]:
    """The codes an ``# expect:`` line announces: ``nothing`` or ``code, code x2, ...``."""
    found: Counter[str] = Counter()
    for item in codes.split(","):
        item = item.strip()
        if item and item != "nothing":
            code, _, times = item.partition(" x")
            found[code] += int(times) if times else 1
    return found


def corpus_paths(fmt: str) -> list[Path]:
    """Files of one format listed in the corpus index (``_index.tsv``)."""
    index = CORPUS / "_index.tsv"
    if not index.exists():
        pytest.skip(CORPUS_MISSING)
    rows = [line.split("\t") for line in index.read_text(encoding="utf-8").splitlines()[1:]]
    return [CORPUS / r[0] for r in rows if r[1] == fmt]


@pytest.fixture(scope="session")
def tenhou_xml_paths() -> list[Path]:
    """Every Tenhou mjlog file of the corpus."""
    return corpus_paths("tenhou-xml")


@pytest.fixture(scope="session")
def example_xml() -> bytes:
    """A complete east-only game of our own in Tenhou mjlog XML."""
    return (EXAMPLES / "east-riichi.mjlog").read_bytes()

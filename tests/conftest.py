"""Shared test fixtures: where the real corpus is, and small records of our own."""

from __future__ import annotations

import os
import shutil
import sys
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from mjlog.core.record import GameRecord
from mjlog.formats import tenhou_xml

# The suite starts a few hundred Python processes (the command line, worker pools, a
# cluster's scheduler and workers). Where the environment sets PYTHONDONTWRITEBYTECODE,
# each of them compiled every module it imported again: 0.95 s to start the command line
# instead of 0.36 s. Here the processes the suite starts cache their bytecode.
os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
sys.dont_write_bytecode = False

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"
CORPUS = ROOT.parent / "shared" / "corpus"

ODD_JSON: list[Any] = [None, True, "", "x", "٣", "²", "5mr", "?", 10**30, -(10**30), 1.5, [], {},
                       [1, 2], "東"]
"""JSON values no field of a record expects: every JSON type, odd numbers, digits and
letters of other scripts, a tile where a number goes (the fuzz tests put them anywhere)."""

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
def tenhou_xml_records(tenhou_xml_paths: list[Path]) -> list[tuple[Path, GameRecord]]:
    """Every Tenhou mjlog file of the corpus with its record, read once per test process
    and shared by the corpus tests that read them (141 MiB for the 2,485 files). The
    tests only read them: a test that changes a record changes it for the others."""
    return [(path, tenhou_xml.read(path.read_bytes(), str(path))) for path in tenhou_xml_paths]


@pytest.fixture(scope="session")
def example_xml() -> bytes:
    """A complete east-only game of our own in Tenhou mjlog XML."""
    return (EXAMPLES / "east-riichi.mjlog").read_bytes()


CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
CHROMIUM_FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update",
                  "--disable-sync"]


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    """Debian's headless Chromium (``/usr/bin/chromium``, which ``.ci/run`` installs), driven
    by Playwright with no browser download of its own. Outside CI a machine without it skips
    the page tests, saying so; in CI they fail instead."""
    if CHROMIUM is None:
        message = "Chromium is not installed (apt-get install chromium; .ci/run does it)"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_FLAGS)
        yield b
        b.close()

"""Rule checks over the real corpus: platform games break no rule of their platform's
preset, and one illegal action injected into them is caught with the right code.

The mutations are those of :mod:`tests.mutations`. The unmutated game gives no
violation; the mutated one must give the expected code.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest

from mjlog.core.diagnostics import InputError
from mjlog.core.record import GameRecord
from mjlog.families.registry import check
from mjlog.formats import read_path

from .conftest import CORPUS, CORPUS_MISSING
from .mutations import MUTATORS, Tally

TENHOU_XML = CORPUS / "tenhou-xml"
_BOT = "MahjongRepository-tenhou-python-bot/project/system_testing/fixtures/"
KNOWN: dict[str, dict[str, int]] = {
    # bot-written (see test_corpus_tenhou): a riichi with one tile left in the wall, and
    # four 4z discarded on the first go-around of S1-3 without the abortive draw
    _BOT + "24.txt": {"riichi-illegal": 1, "abortive-missed": 1},
}
KNOWN_JSON: dict[str, dict[str, int]] = {
    # a hand-made call-order fixture (see test_formats_json): it rons 9p, which it discarded
    "tenhou-json/Equim-chan-mjai-reviewer/convlog/tests/testdata/confusing_nakis_2.json":
        {"furiten-ron": 1},
}

pytestmark = [pytest.mark.slow, pytest.mark.skipif(not TENHOU_XML.is_dir(), reason=CORPUS_MISSING)]


def _records(folder: Path) -> Iterator[tuple[str, GameRecord]]:
    """The games of every file under ``folder`` (or of the file ``folder``), in order."""
    files = [folder] if folder.is_file() else sorted(p for p in folder.rglob("*") if p.is_file())
    for path in files:
        try:
            records = read_path(path)
        except InputError:  # not a record (READMEs, oracles)
            continue
        for rec in records:
            yield str(path.relative_to(CORPUS)), rec


RARE = frozenset({"fifth kan"})
"""Mutations tried on every game rather than every fourth."""


@pytest.fixture(scope="module")
def xml_games(tenhou_xml_records: list[tuple[Path, GameRecord]]
              ) -> list[tuple[str, GameRecord]]:
    """Every game of the Tenhou folder, in file order: the XML records the session has
    read already, and the other records there (a tenhou.net/6 game) read here."""
    shared = dict(tenhou_xml_records)
    out: list[tuple[str, GameRecord]] = []
    for path in sorted(p for p in TENHOU_XML.rglob("*") if p.is_file()):
        if path in shared:
            out.append((str(path.relative_to(CORPUS)), shared[path]))
        else:
            out.extend(_records(path))
    return out


def test_tenhou_games_break_no_rule_of_their_preset(xml_games: list[tuple[str, GameRecord]]
                                                     ) -> None:
    assert len(xml_games) == 2486
    found = {}
    for rel, rec in xml_games:
        _, violations = check(rec)
        if violations:
            found[rel.removeprefix("tenhou-xml/")] = dict(Counter(v.code for v in violations))
    assert found == KNOWN


def test_json_games_break_no_rule_of_their_preset() -> None:
    found = {}
    games = 0
    for folder in ("tenhou-json", "majsoul", "mjai"):
        for rel, rec in _records(CORPUS / folder):
            games += 1
            _, violations = check(rec)
            if violations:
                found[rel] = dict(Counter(v.code for v in violations))
    assert games >= 99
    assert found == KNOWN_JSON


def test_every_injected_violation_is_caught(xml_games: list[tuple[str, GameRecord]]) -> None:
    """Each kind of mutation once per game where the game allows it: every fourth game,
    and every game for a fifth kan (the corpus has six rounds with four kans, and
    the tiles a fifth needs are still unseen in one of them)."""
    tally = Tally()
    for i, (rel, rec) in enumerate(xml_games):
        if rel.removeprefix("tenhou-xml/") in KNOWN or not rec.complete:
            continue
        tally.inject(rec, [name for name in MUTATORS if name in RARE or i % 4 == 0])
    tally.print("mutations of corpus games by kind")
    assert all(tally.made[name] >= (1 if name in RARE else 10) for name in MUTATORS), \
        tally.made
    assert tally.caught == tally.made

"""M-League's game log: read, verified under the league's rules, and as the converter of
the corpus writes it in tenhou.net/6.

The corpus holds one game (``other/Preserver6166-MleaguePaifuParser``) with
that converter's report beside it, which carries the same game as a
tenhou.net viewer link: mjlog reads both, and writes the log the converter
wrote, round by round.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from mjlog.core.diagnostics import Severity
from mjlog.core.events import GameEnd, GameStart, Win
from mjlog.formats import detect, read_bytes, read_path, tenhou6, write
from mjlog.reports.audit import audit_record
from tests.conftest import CORPUS, CORPUS_MISSING
from tests.outline import outline

RESOURCES = CORPUS / "other/Preserver6166-MleaguePaifuParser/src/main/resources"
LOG = RESOURCES / "L001_S014_0012_02A.umd.json"
REPORT = RESOURCES / "L001_S014_0012_02A_tenhou"


def _log() -> Path:
    if not LOG.exists():
        pytest.skip(CORPUS_MISSING)
    return LOG


def test_the_game_reads_and_verifies_under_the_leagues_rules() -> None:
    path = _log()
    assert detect(path.read_bytes()) == "mleague"
    (rec,) = read_path(path)
    assert rec.diagnostics == []
    report = audit_record(rec)
    assert [f for f in report.findings if f.severity is not Severity.INFO] == []
    assert (report.mismatches, report.violations) == ([], [])
    start, end = rec.events[0], rec.events[-1]
    assert isinstance(start, GameStart) and start.ruleset.name == "mleague"
    assert sum(isinstance(e, Win) for e in rec.events) == 7
    # 25,000 to start, 30,000 back, uma 10-30 in tenths: the league's own final points
    assert isinstance(end, GameEnd) and end.points == (6.1, 59.5, -16.0, -49.6)
    assert report.settlement is not None
    assert report.settlement.points == report.settlement.recorded_points == list(end.points)


def test_written_as_tenhou6_it_is_the_converters_log() -> None:
    """Every round mjlog writes is the one the corpus's converter wrote; the converter
    leaves out the final scores and points (``sc``), which mjlog writes."""
    (rec,) = read_path(_log())
    text = REPORT.read_text(encoding="utf-8")
    m = re.search(r"tenhou\.net/5/#json=(\{.*)$", text, re.MULTILINE)
    assert m is not None
    theirs = json.loads(m.group(1))
    ours = json.loads(tenhou6.write(rec.events))
    assert ours["log"] == theirs["log"]
    assert "sc" not in theirs and ours["sc"][1::2] == [6.1, 59.5, -16, -49.6]


def test_a_converters_report_is_read_from_its_link() -> None:
    _log()
    assert detect(REPORT.read_bytes()) == "tenhou-link"
    (linked,) = read_path(REPORT)
    assert [d.code for d in linked.diagnostics] == ["read-from-link"]
    assert linked.diagnostics[0].src is not None and linked.diagnostics[0].src.line == 17
    (rec,) = read_path(LOG)
    end = rec.events[-1]
    assert isinstance(end, GameEnd)
    # the link has no final scores and writes the names without their space: the rest is
    # the same game
    theirs, ours = outline(linked.events), outline(rec.events)
    assert theirs[0][1] == tuple(n.replace(" ", "") for n in ours[0][1])
    assert theirs[1:] == ours[1:-1]


@pytest.mark.parametrize("fmt", ["tenhou6", "mjai", "notation", "jsonl", "kobalab"])
def test_converted_and_read_back_it_is_the_same_game(fmt: str) -> None:
    (rec,) = read_path(_log())
    values = fmt != "mjai"
    (back,) = read_bytes(write(fmt, rec.events).encode(), "back", fmt=fmt)
    assert outline(back.events, values=values) == outline(rec.events, values=values)


def test_bad_input_keeps_what_came_before() -> None:
    commands = json.loads(_log().read_text(encoding="utf-8"))
    cut = [*commands[:200], {"time": "", "id": "x", "cmd": "tsumo", "args": ["E0", "1", "1m"]}]
    (rec,) = read_bytes(json.dumps(cut, ensure_ascii=False).encode(), "cut.json")
    assert rec.format == "mleague"
    codes = [d.code for d in rec.diagnostics]
    assert codes[0] == "bad-value" and "E0" in rec.diagnostics[0].message
    assert sum(isinstance(e, Win) for e in rec.events) == 1  # East 1's win was read

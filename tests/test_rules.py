"""Rule checks (mjlog.rules): the cases written in notation, one game per case.

Each file of ``tests/rules/`` holds games announcing what they break::

    # expect: CODES                                  (under the record's ruleset)
    # expect under PRESET [option=value ...]: CODES  (under another)

and each game must give exactly those violations, and no finding of the
replay itself (a case is a consistent record). A case exercises the checks
its expectations name, and those of an optional ``# checks: code, ...`` line
(for a legal case that names no violation); every check needs at least
three violating and three legal runs. ``# unjudged: code, ...`` names the
checks that a tile nobody wrote down keeps from judging (``unjudged`` notes,
under the record's own ruleset).
"""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest

from mjlog.audit import ruleset_for
from mjlog.events import GameStart
from mjlog.families import check, rules_by_code
from mjlog.formats import notation
from mjlog.ruleset import parse_option

from .conftest import announced

CASES = Path(__file__).parent / "rules"
EXPECT = re.compile(r"^#\s*expect(?: under ([^:]+))?:\s*(.*)$", re.MULTILINE)
CHECKS = re.compile(r"^#\s*checks:\s*(.*)$", re.MULTILINE)
UNJUDGED = re.compile(r"^#\s*unjudged:\s*(.*)$", re.MULTILINE)


def _cases() -> list[tuple[str, str]]:
    out = []
    for path in sorted(CASES.glob("*.mjn")):
        chunks = path.read_text("utf-8").split("mjlog-notation 1\n")[1:]
        for chunk in chunks:
            name = re.search(r"^# case: (.*)$", chunk, re.MULTILINE)
            assert name, f"{path.name}: a game without '# case:'"
            out.append((f"{path.stem}: {name.group(1)}", "mjlog-notation 1\n" + chunk))
    return out


CASE_LIST = _cases()
RULES = rules_by_code()


@pytest.mark.parametrize(("name", "text"), CASE_LIST, ids=[c[0] for c in CASE_LIST])
def test_case_gives_exactly_what_it_announces(name: str, text: str) -> None:
    (rec,) = notation.read(text.encode())
    assert [d for d in rec.diagnostics if d.severity == "error"] == []
    start = rec.events[0]
    assert isinstance(start, GameStart)
    expectations = EXPECT.findall(text)
    assert expectations, "each case announces what it breaks"
    for under, codes in expectations:
        words = under.split()
        preset, settings = (words[0] if words else None), words[1:]
        options = tuple((k, parse_option(k, v)) for k, _, v in (s.partition("=") for s in settings))
        engine, violations = check(rec, ruleset_for(start, preset, options))
        assert [f for f in engine.findings if f.severity != "info"] == [], under
        found = Counter(v.code for v in violations)
        assert found == announced(codes), (under or "own ruleset", [str(v) for v in violations])
        if not under and (said := UNJUDGED.search(text)):
            notes = Counter(f.message.split()[0] for f in engine.findings if f.code == "unjudged")
            assert notes == announced(said.group(1)), [f.message for f in engine.findings]


def test_every_check_has_three_violating_and_three_legal_runs() -> None:
    violating: Counter[str] = Counter()
    legal: Counter[str] = Counter()
    for _, text in CASE_LIST:
        runs = [announced(codes) for _, codes in EXPECT.findall(text)]
        exercised = {code for run in runs for code in run}
        exercised |= {c.strip() for line in CHECKS.findall(text) for c in line.split(",")}
        assert exercised <= RULES.keys(), exercised - RULES.keys()
        for run in runs:
            for code in exercised:
                (violating if run[code] else legal)[code] += 1
    thin = {code: (violating[code], legal[code]) for code in RULES
            if violating[code] < 3 or legal[code] < 3}
    assert thin == {}

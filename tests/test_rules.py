"""Rule checks (mjlog.rules): the cases written in notation, one game per case.

Each file of ``tests/rules/`` holds games announcing what they break::

    # expect: CODES                                  (under the record's ruleset)
    # expect under PRESET [option=value ...]: CODES  (under another)

and each game must give exactly those violations, and no finding of the
replay itself (a case is a consistent record).
"""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest

from mjlog.audit import ruleset_for
from mjlog.events import GameStart
from mjlog.formats import notation
from mjlog.rules.referee import check
from mjlog.ruleset import parse_option

from .conftest import announced

CASES = Path(__file__).parent / "rules"
EXPECT = re.compile(r"^#\s*expect(?: under ([^:]+))?:\s*(.*)$", re.MULTILINE)


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

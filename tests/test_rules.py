"""Rule checks (mjlog.families.riichi.rules): the cases written in notation, one game per case.

Each file of ``tests/rules/`` holds games announcing what they break, and where::

    # expect: PLACED                                  (under the record's ruleset)
    # expect under PRESET [option=value ...]: PLACED  (under another)

``PLACED`` is ``nothing`` or violations separated by commas, each written
``code@ROUND/TURN/SEAT`` (``kan-after-riichi@E1-0/12/S``; ``... x2`` for the
same one twice at one place):

* ``ROUND`` the round label of the finding (``E1-0``, ``S3-2``);
* ``TURN`` its turn, the number of the move within the round as
  ``mjlog replay --turn`` counts it: each draw, discard, call, kan, kita or
  flower is one (``9m'`` is two); a win, an abortive draw or a dora turned has
  the turn of the move before it; 0 before the first move;
* ``SEAT`` its player as the notation names seats, by wind of the round
  (``E`` the dealer, then ``S``, ``W``, ``N``), or ``-`` for a finding of no
  player (an abortive draw).

Every expected code must state its place (an item without one fails the
case), in every ``.mjn`` file of the folder. Each game must give exactly those
violations at exactly those places, and no finding of the replay itself (a
case is a consistent record). A case exercises the checks its expectations
name, and those of an optional ``# checks: code, ...`` line (for a legal case
that names no violation); every check needs at least three violating and
three legal runs. ``# unjudged: code, ...`` names the checks that a tile
nobody wrote down keeps from judging (``unjudged`` notes, under the record's
own ruleset).
"""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest

from mjlog.core.diagnostics import Violation
from mjlog.core.events import WIND_LETTERS, GameStart, RoundStart, round_label
from mjlog.core.record import GameRecord
from mjlog.core.ruleset import parse_option
from mjlog.families.registry import check, rules_by_code
from mjlog.formats import notation
from mjlog.reports.audit import ruleset_for

from .conftest import announced

CASES = Path(__file__).parent / "rules"
EXPECT = re.compile(r"^#\s*expect(?: under ([^:]+))?:\s*(.*)$", re.MULTILINE)
CHECKS = re.compile(r"^#\s*checks:\s*(.*)$", re.MULTILINE)
UNJUDGED = re.compile(r"^#\s*unjudged:\s*(.*)$", re.MULTILINE)
PLACED = re.compile(r"(?P<code>[a-z0-9-]+)@(?P<round>[ESWN]\d+-\d+)/(?P<turn>\d+)/"
                    r"(?P<seat>[ESWN-])(?: x(?P<times>[1-9]\d*))?")
SYNTAX = "code@ROUND/TURN/SEAT, e.g. kan-after-riichi@E1-0/12/S"

Place = tuple[str, str, int, str]
"""A violation where it is found: code, round label, turn, seat (a wind, or ``-``)."""


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


def expected(codes: str) -> Counter[Place]:
    """The placed violations an ``# expect:`` line announces (``nothing`` for none).

    Raises ``ValueError`` naming the item for one that states no place, or
    states it other than ``code@ROUND/TURN/SEAT``. Does not check that the code
    exists (the three-runs test does)."""
    found: Counter[Place] = Counter()
    for item in (i.strip() for i in codes.split(",")):
        if not item or item == "nothing":
            continue
        m = PLACED.fullmatch(item)
        if not m:
            raise ValueError(f"{item!r}: an expected code states its place: {SYNTAX}")
        place = (m["code"], m["round"], int(m["turn"]), m["seat"])
        found[place] += int(m["times"] or 1)
    return found


def placed(rec: GameRecord, violations: list[Violation]) -> Counter[Place]:
    """Each violation's place in the expectations' words: its player named by wind
    of its round (the record's ``RoundStart`` says who deals), ``-`` for none."""
    start = rec.events[0]
    assert isinstance(start, GameStart)
    n = len(start.players)
    dealers = {round_label(e.round_wind, e.round_number, e.honba): e.dealer
               for e in rec.events if isinstance(e, RoundStart)}
    out: Counter[Place] = Counter()
    for v in violations:
        seat = "-" if v.player is None else WIND_LETTERS[(v.player - dealers[v.round]) % n]
        out[(v.code, v.round, v.turn, seat)] += 1
    return out


def judge_case(text: str) -> None:
    """Audit one case under each ruleset it names and assert it gives exactly what,
    and where, it announces (module docstring); ``ValueError`` for an expectation
    that states no place. Asserts nothing about the three-runs rule."""
    (rec,) = notation.read(text.encode())
    assert [d for d in rec.diagnostics if d.severity == "error"] == []
    start = rec.events[0]
    assert isinstance(start, GameStart)
    expectations = EXPECT.findall(text)
    assert expectations, "each case announces what it breaks"
    for under, codes in expectations:
        announced_here = expected(codes)
        words = under.split()
        preset, settings = (words[0] if words else None), words[1:]
        options = tuple((k, parse_option(k, v)) for k, _, v in (s.partition("=") for s in settings))
        engine, violations = check(rec, ruleset_for(start, preset, options))
        assert [f for f in engine.findings if f.severity != "info"] == [], under
        found = placed(rec, violations)
        assert found == announced_here, (
            f"{under or 'own ruleset'}: announced {sorted(announced_here.elements())}, "
            f"the audit gives {sorted(found.elements())}", [str(v) for v in violations])
        if not under and (said := UNJUDGED.search(text)):
            notes = Counter(f.message.split()[0] for f in engine.findings if f.code == "unjudged")
            assert notes == announced(said.group(1)), [f.message for f in engine.findings]


@pytest.mark.parametrize(("name", "text"), CASE_LIST, ids=[c[0] for c in CASE_LIST])
def test_case_gives_exactly_what_it_announces(name: str, text: str) -> None:
    judge_case(text)


def _first_placed(path: Path) -> str:
    """The first case of ``path`` that announces a violation (it has a place)."""
    return next(text for name, text in CASE_LIST
                if name.startswith(f"{path.stem}: ") and PLACED.search(text))


def _moved(text: str, group: str, to: str) -> str:
    """``text`` with one part (``turn``, ``seat`` …) of its first placed expectation
    written ``to`` instead."""
    m = PLACED.search(text)
    assert m
    return text[:m.start(group)] + to + text[m.end(group):]


@pytest.mark.parametrize("path", sorted(CASES.glob("*.mjn")), ids=lambda p: p.name)
def test_a_place_one_turn_or_one_seat_off_fails_the_case(path: Path) -> None:
    text = _first_placed(path)
    judge_case(text)
    m = PLACED.search(text)
    assert m
    turn, seat = int(m["turn"]), m["seat"]
    wrong = [_moved(text, "turn", str(t)) for t in (turn - 1, turn + 1) if t >= 0]
    wrong += [_moved(text, "seat", s) for s in "ESWN-" if s != seat][:1]
    for text_off in wrong:
        with pytest.raises(AssertionError, match="the audit gives"):
            judge_case(text_off)


@pytest.mark.parametrize("path", sorted(CASES.glob("*.mjn")), ids=lambda p: p.name)
def test_a_case_without_places_fails(path: Path) -> None:
    text = _first_placed(path)
    bare = re.sub(r"@[ESWN]\d+-\d+/\d+/[ESWN-]", "", text)
    with pytest.raises(ValueError, match="states its place"):
        judge_case(bare)


def test_an_expectation_names_its_place_in_the_notations_words() -> None:
    assert expected("nothing") == Counter()
    assert expected("double-ron@E1-0/2/W, double-ron@E1-0/2/N x2") == Counter(
        {("double-ron", "E1-0", 2, "W"): 1, ("double-ron", "E1-0", 2, "N"): 2})
    for bad in ("kan-after-riichi", "kan-after-riichi@E1-0/12", "kan-after-riichi@E1-0/x/S",
                "kan-after-riichi@E1-0/12/player1", "kan-after-riichi at E1-0 turn 12 S"):
        with pytest.raises(ValueError, match="states its place"):
            expected(bad)


def test_every_check_has_three_violating_and_three_legal_runs() -> None:
    violating: Counter[str] = Counter()
    legal: Counter[str] = Counter()
    for _, text in CASE_LIST:
        runs = [Counter(code for code, *_ in expected(codes).elements())
                for _, codes in EXPECT.findall(text)]
        exercised = {code for run in runs for code in run}
        exercised |= {c.strip() for line in CHECKS.findall(text) for c in line.split(",")}
        assert exercised <= RULES.keys(), exercised - RULES.keys()
        for run in runs:
            for code in exercised:
                (violating if run[code] else legal)[code] += 1
    thin = {code: (violating[code], legal[code]) for code in RULES
            if violating[code] < 3 or legal[code] < 3}
    assert thin == {}

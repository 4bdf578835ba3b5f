"""The native riichi referee and the kan and call checks (``core/src/riichi/``) against
their specification, the Python checks of ``mjlog/families/riichi/rules/kan.py`` and
``calls.py`` run by ``Engine.run`` with the referee: the same violations (code, event,
seat, round, turn, message, evidence, consequence) and the same engine findings with the
checks' ``unjudged`` notes, under the record's own ruleset and under ``kansaki`` and
``tenhou`` with ``kan_after_riichi`` in each mode; on the corpus's riichi games, seeded
mutants of them (``tests/test_native_engine.py``'s mutator), generated games and the
rule cases of ``tests/rules``.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Iterable, Sequence
from typing import Any, NamedTuple

import pytest

from mjlog.core.diagnostics import Finding, Src, Violation
from mjlog.core.events import Draw, Event, GameStart, RoundStart, Win
from mjlog.core.record import GameRecord
from mjlog.core.ruleset import Ruleset, parse_option, preset
from mjlog.core.tiles import UNKNOWN, Tile
from mjlog.families.registry import random_games
from mjlog.families.riichi import native as native_audit
from mjlog.families.riichi.rules.referee import RiichiReferee
from mjlog.formats import read_bytes
from mjlog.replay.engine import Engine
from mjlog.reports.audit import ruleset_for

from .conftest import ROOT
from .test_native_engine import _sample, core, corpus_records, mutants
from .test_rules import EXPECT

__all__ = ["core"]  # the fixture, shared with the engine's differential test

Row = tuple[Any, ...]
MODES = ("wait", "shape", "forbidden")
RULE_CASES = tuple(ROOT / "tests" / "rules" / name
                   for name in ("kan.mjn", "legality.mjn", "unknown.mjn"))
"""The rule cases of the ported checks, and those of records with tiles not written down
(the ``unjudged`` notes)."""


def _at(i: int) -> Src:
    return Src(index=i)


def rulesets(events: Sequence[Event]) -> list[Ruleset]:
    """The record's own ruleset, then ``kansaki`` and ``tenhou`` with ``kan_after_riichi``
    in each mode (of the record's number of seats)."""
    start = events[0] if events else None
    own = start.ruleset if isinstance(start, GameStart) else Ruleset()
    out = [own]
    for name in ("kansaki", "tenhou"):
        base = preset(name)
        if own.players != base.players:
            base = dataclasses.replace(base, players=own.players)
        out += [base.with_options(kan_after_riichi=mode) for mode in MODES]
    return out


def _finding_rows(findings: Iterable[Finding]) -> list[Row]:
    return [(f.code, f.src.index if f.src else -1, f.player, f.message, f.severity.value,
             f.round, f.turn) for f in findings]


def _violation_rows(violations: Iterable[Violation]) -> list[Row]:
    return [(v.code, v.event, v.player, v.round, v.turn, v.message, v.evidence,
             v.consequence, v.rule, v.citation, v.ruleset) for v in violations]


def python_rows(events: Sequence[Event], rules: Ruleset) -> tuple[list[Row], list[Row]]:
    """The Python route: the engine with the referee and the native checks' Python twins
    that ``rules`` enables; its findings and the violations."""
    record = GameRecord(path="", format="", events=list(events))
    engine = Engine(_at)
    ref = RiichiReferee(record, rules, engine)
    units = [unit(ref) for unit in native_audit.check_classes() if unit.enabled(rules)]
    engine.run(record.events, [ref, *units])
    return _finding_rows(engine.findings), _violation_rows(ref.violations)


def native_rows(core: Any, events: Sequence[Event], rules: Ruleset
                ) -> tuple[list[Row], list[Row]] | None:
    """The native route's, or None when the encoder declines the game."""
    got = native_audit.audit_native(core, events, rules, _at)
    if got is None:
        return None
    return _finding_rows(got.findings), _violation_rows(got.violations)


class Tally(NamedTuple):
    """Runs (a game under a ruleset) compared and declined, runs that differ, violations
    and notes compared, and the first difference."""

    compared: int
    declined: int
    different: int
    violations: int
    notes: int
    first: str


def compare(core: Any, games: Iterable[Sequence[Event]], every_ruleset: bool = True) -> Tally:
    """Both routes on every game under each of :func:`rulesets` (only the record's own
    without ``every_ruleset``)."""
    return compare_under(core, ((events, rules) for events in games
                                for rules in rulesets(events)[: None if every_ruleset else 1]))


def compare_under(core: Any, runs: Iterable[tuple[Sequence[Event], Ruleset]]) -> Tally:
    """Both routes on every game under its ruleset."""
    compared = declined = different = violations = notes = 0
    first = ""
    for events, rules in runs:
        if True:
            mine = native_rows(core, events, rules)
            if mine is None:
                declined += 1
                continue
            theirs = python_rows(events, rules)
            compared += 1
            violations += len(theirs[1])
            notes += sum(1 for f in theirs[0] if f[0] == "unjudged")
            if mine != theirs:
                different += 1
                first = first or _difference(theirs, mine, rules)
    return Tally(compared, declined, different, violations, notes, first)


def _difference(python: tuple[list[Row], list[Row]], rust: tuple[list[Row], list[Row]],
                rules: Ruleset) -> str:
    for what, a_rows, b_rows in (("violation", python[1], rust[1]),
                                 ("finding", python[0], rust[0])):
        for a, b in zip(a_rows, b_rows, strict=False):
            if a != b:
                return f"under {rules.name}: {what}\npython {a}\nnative {b}"
        if len(a_rows) != len(b_rows):
            return f"under {rules.name}: python {len(a_rows)} {what}s, native {len(b_rows)}"
    return ""


def _report(what: str, tally: Tally) -> None:
    print(f"\n{what}: {tally.compared} runs compared, {tally.declined} declined, "
          f"{tally.different} different, {tally.violations} violations, "
          f"{tally.notes} unjudged notes")
    assert tally.different == 0, f"{what}: {tally.different} differ; first:\n{tally.first}"


# -- the tests


def _case_rulesets(text: str, start: GameStart) -> list[Ruleset]:
    """The rulesets a rule case announces its findings under (``# expect under``)."""
    out = []
    for under, _ in EXPECT.findall(text):
        words = under.split()
        options = tuple((k, parse_option(k, v))
                        for k, _, v in (w.partition("=") for w in words[1:]))
        out.append(ruleset_for(start, words[0] if words else None, options))
    return out


def test_rule_cases_same_violations(core: Any) -> None:
    """The rule cases of kan and legality, under every ruleset and those each announces:
    the same violations, and violations there are (the cases break the rules)."""
    records = []
    for path in RULE_CASES:
        for chunk in path.read_text("utf-8").split("mjlog-notation 1\n")[1:]:
            text = "mjlog-notation 1\n" + chunk
            records += [(text, r) for r in read_bytes(text.encode(), path.name)]
    tally = compare(core, [r.events for _, r in records])
    _report("rule cases", tally)
    assert tally.compared == 7 * len(records) and tally.violations > 50
    announced = [(r.events, rules) for text, r in records
                 for rules in _case_rulesets(text, r.events[0])]  # type: ignore[arg-type]
    tally = compare_under(core, announced)
    _report("rule cases, announced rulesets", tally)
    assert tally.compared == len(announced)


def test_corpus_sample_same_violations(core: Any) -> None:
    """Ten games of the corpus under every ruleset."""
    tally = compare(core, (r.events for r in _sample(corpus_records(50), 10)))
    _report("corpus sample", tally)
    assert tally.compared == 70


def test_corpus_mutants_same_violations(core: Any) -> None:
    """A hundred mutants of the corpus's games under their own ruleset."""
    tally = compare(core, mutants(_sample(corpus_records(50), 20), 100, seed=46),
                    every_ruleset=False)
    _report("mutants", tally)
    assert tally.compared > 90


def _hidden(events: Sequence[Event], rng: random.Random, share: float) -> list[Event]:
    """``events`` with about ``share`` of the draws and dealt tiles not written down."""
    out: list[Event] = []
    for ev in events:
        if isinstance(ev, Draw) and rng.random() < share:
            ev = dataclasses.replace(ev, tile=UNKNOWN)
        elif isinstance(ev, RoundStart):
            ev = dataclasses.replace(ev, hands=tuple(
                tuple(UNKNOWN if rng.random() < share / 4 else t for t in hand)
                for hand in ev.hands))
        out.append(ev)
    return out


def test_partial_records_same_notes(core: Any) -> None:
    """Generated games and corpus games with draws and dealt tiles not written down: the
    same ``unjudged`` notes, and notes there are."""
    rng = random.Random(46)
    games = [g.events for g in random_games(preset("tenhou"), 3, seed=5)]
    games += [r.events for r in _sample(corpus_records(50), 6)]
    tally = compare(core, [_hidden(events, rng, 0.3) for events in games])
    _report("partial records", tally)
    assert tally.notes > 0


def test_generated_games_same_violations(core: Any) -> None:
    """Random games of four and three players under every ruleset."""
    games = [*random_games(preset("tenhou"), 2, seed=1),
             *random_games(preset("tenhou-sanma"), 2, seed=1)]
    tally = compare(core, [g.events for g in games])
    _report("generated", tally)
    assert tally.compared == 28


@pytest.mark.slow
def test_whole_corpus_same_violations(core: Any) -> None:
    """Every riichi game of the corpus under every ruleset."""
    records = corpus_records()
    tally = compare(core, (r.events for r in records))
    _report("whole corpus", tally)
    assert tally.compared == 7 * len(records)


@pytest.mark.slow
def test_thousands_of_mutants_same_violations(core: Any) -> None:
    """Two thousand mutants of the whole corpus, under their own ruleset, and five hundred
    under every ruleset."""
    _report("corpus mutants", compare(core, mutants(corpus_records(), 2000, seed=2026),
                                      every_ruleset=False))
    _report("corpus mutants, every ruleset",
            compare(core, mutants(corpus_records(), 500, seed=7)))


def test_options_reach_the_native_checks(core: Any) -> None:
    """An option that is none, or a value that is no flag, is a ValueError naming it."""
    with pytest.raises(ValueError, match="no native option nope"):
        core.audit_code(b"", [("nope", "1")], [])
    with pytest.raises(ValueError, match="chankan_closed_kokushi"):
        core.audit_code(b"", [("chankan_closed_kokushi", "yes")], [])
    assert native_audit.options_of(preset("tenhou"))[0] == ("red_fives", "1")


_ROBBED_CLOSED_KAN = b"""mjlog-notation 1
[Players "A" "B" "C" "D"]
[Ruleset "tenhou"]
E1-0 dora=9p
hands 123m456p789s1122z 555s456p789m333z9s 46s789m123p111s99s ?
8p' 5s ankan5s
ron W 30fu 1000
noend
"""


@pytest.mark.parametrize("odd", [UNKNOWN, 136])  # a tile nobody wrote down; a flower
def test_a_closed_kan_robbed_by_a_hand_with_an_odd_tile(core: Any, odd: int) -> None:
    """A ron on a closed kan by a winning hand that names a tile nobody wrote down, or a
    flower: where thirteen orphans may not rob it, chombo on both routes (the Python check
    once raised on the tile's kind); where it may, the same verdict on both routes."""
    events = list(read_bytes(_ROBBED_CLOSED_KAN, "robbed.mjn")[0].events)
    w, win = next((i, ev) for i, ev in enumerate(events) if isinstance(ev, Win))
    events[w] = dataclasses.replace(win, hand=(*win.hand[:-1], Tile(odd)))
    for rules in (preset("tenhou"), preset("jpml")):
        python, rust = python_rows(events, rules), native_rows(core, events, rules)
        assert python == rust
        assert "internal-error" not in [row[0] for row in python[0]]
    chombo = [("chankan-closed", "E1-0", 4)] if odd == UNKNOWN else []  # a flower: no table
    assert [(row[0], row[3], row[4]) for row in python[1]] == chombo

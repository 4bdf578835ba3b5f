"""Checks as units: each one's docstring examples replay as announced, and the docs and
``mjlog rules`` come from the units.

A unit's docstring holds blocks such as::

    Violating CODE under PRESET option=value::

        E1-0 dora=9p
        hands ...

(``CODE`` may be left out by a unit of one code, ``under ...`` by an example
under the family's own preset). Each block is one round of a record whose
players are A, B, C and D; a violating block must give that code, a legal
block none of the unit's codes, and neither may give a finding of the replay.
"""

from __future__ import annotations

from typing import Any

import pytest
from click.testing import CliRunner

from mjlog.cli import main
from mjlog.core.events import GameStart
from mjlog.core.ruleset import parse_option
from mjlog.families.check import Check, Example, examples
from mjlog.families.docgen import checks_table, stale
from mjlog.families.registry import FAMILIES, all_checks, check
from mjlog.formats import notation
from mjlog.reports.audit import ruleset_for

from .conftest import ROOT

_PRESET = {"riichi": "tenhou", "taiwan16": "taiwan16", "mcr": "mcr"}


def _examples(unit: type[Check[Any]]) -> list[Example]:
    """(kind, code, under, round text) of each example block of a unit's docstring."""
    return examples(unit)


EXAMPLES = [(unit, *ex) for unit in all_checks() for ex in _examples(unit)]


def test_every_unit_shows_a_violating_example_of_each_code_and_a_legal_one() -> None:
    for unit in all_checks():
        examples = _examples(unit)
        codes = {r.code for r in unit.RULES}
        shown = {code or unit.RULES[0].code for kind, code, _, _ in examples
                 if kind == "Violating"}
        assert shown == codes, (unit.__name__, codes - shown)
        assert any(kind == "Legal" for kind, _, _, _ in examples), unit.__name__


@pytest.mark.parametrize(("unit", "kind", "code", "under", "text"), EXAMPLES,
                         ids=[f"{u.__name__}-{k}-{c or 'all'}" for u, k, c, _, _ in EXAMPLES])
def test_docstring_example_gives_what_it_says(unit: type[Check[Any]], kind: str, code: str,
                                              under: str, text: str) -> None:
    names = " ".join(f'"{name}"' for name in "ABCD")
    record = (f'mjlog-notation 1\n[Players {names}]\n[Ruleset "{_PRESET[unit.FAMILY]}"]\n'
              f"{text}\nnoend\n")
    (rec,) = notation.read(record.encode())
    assert [d for d in rec.diagnostics if d.severity == "error"] == []
    start = rec.events[0]
    assert isinstance(start, GameStart)
    words = under.split()
    options = tuple((k, parse_option(k, v)) for k, _, v in (w.partition("=") for w in words[1:]))
    engine, violations = check(rec, ruleset_for(start, words[0] if words else None, options))
    assert [str(f) for f in engine.findings if f.severity != "info"] == []
    found = {v.code for v in violations}
    if kind == "Violating":
        assert (code or unit.RULES[0].code) in found, [str(v) for v in violations]
    else:
        assert not found & {r.code for r in unit.RULES}, [str(v) for v in violations]


def test_the_docs_list_the_checks_the_units_define() -> None:
    assert stale() == [], "generated docs are out of date: python -m mjlog.families.docgen"
    doc = ROOT / "docs" / "rule-checks.md"
    out = CliRunner().invoke(main, ["rules"]).output
    for family in FAMILIES.values():
        assert checks_table(family) in doc.read_text("utf-8")
        for unit in family.checks():
            for rule in unit.RULES:
                assert rule.code in out and rule.citation in out

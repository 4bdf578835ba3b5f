"""The native furiten, double-ron, abortive-draw, no-yaku-win and sakizuke checks
(``core/src/riichi/furiten.rs``, ``draws.rs``, ``win.rs``, ``sakizuke.rs``) against their
specification, the Python checks of ``mjlog/families/riichi/rules/furiten.py``,
``draws.py``, ``win.py`` and ``sakizuke.py`` run by ``Engine.run`` with the referee: the
same violations of exactly these checks (code, event, seat, round, turn, message, evidence,
consequence) and the same engine findings with their ``unjudged`` notes.

Furiten and the draws run under each game's own ruleset, ``kansaki``, ``tenhou`` and
``tenhou`` with each option they read turned; sakizuke under ``kansaki`` with each of its
switches turned. ``no-yaku-win`` and sakizuke make the native audit *decline* a game where
the Python check asks the ``mahjong`` library (a hand fast.py does not value): such runs
are counted, not compared. Games: the corpus's riichi games, seeded mutants of them
(``tests/test_native_engine.py``'s mutator), generated games, the rule cases of
``tests/rules`` and the examples of the checks' docstrings.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Iterable, Sequence
from typing import Any, NamedTuple

import pytest

from mjlog.core.diagnostics import Finding, Src, Violation
from mjlog.core.events import (
    ABORTIVE_KINDS,
    AbortiveDraw,
    Discard,
    Event,
    GameStart,
    RoundEnd,
    RoundStart,
    Win,
)
from mjlog.core.record import GameRecord
from mjlog.core.ruleset import Ruleset, parse_option, preset
from mjlog.families.check import examples
from mjlog.families.registry import random_games
from mjlog.families.riichi import native as native_audit
from mjlog.families.riichi.rules.draws import Abortive, DoubleRon
from mjlog.families.riichi.rules.furiten import Furiten
from mjlog.families.riichi.rules.referee import RiichiReferee
from mjlog.formats import notation, read_bytes
from mjlog.replay.engine import Engine
from mjlog.reports.audit import ruleset_for

from .conftest import ROOT
from .test_native_checks import _difference
from .test_native_engine import _sample, core, corpus_records, mutants

__all__ = ["core"]  # the fixture, shared with the engine's differential test

Row = tuple[Any, ...]
MINE = ("double-ron", "abortive-unjustified", "furiten-ron")
"""The native checks compared here, by the code of their first rule (``no-yaku-win``
apart: with it the native audit declines some games)."""
NO_YAKU = ("no-yaku-win",)
FLIPPED: tuple[dict[str, Any], ...] = (
    {"double_ron": False}, {"triple_ron": False}, {"four_winds": False},
    {"four_riichi": False}, {"nine_terminals": False}, {"furiten_tsumo": True},
    {"four_kans": "no-abort"}, {"red_fives": False},
)
"""``tenhou`` with each option the checks read turned from its default."""
RULE_CASES = tuple(ROOT / "tests" / "rules" / name
                   for name in ("legality.mjn", "sakizuke.mjn", "yaku.mjn", "unknown.mjn"))


def _at(i: int) -> Src:
    return Src(index=i)


def rulesets(events: Sequence[Event]) -> list[Ruleset]:
    """The record's own ruleset, ``kansaki``, ``tenhou`` and ``tenhou`` with each of
    :data:`FLIPPED` (of the record's number of seats)."""
    start = events[0] if events else None
    own = start.ruleset if isinstance(start, GameStart) else Ruleset()
    out = [own]
    for name in ("kansaki", "tenhou"):
        base = preset(name)
        if own.players != base.players:
            base = dataclasses.replace(base, players=own.players)
        out.append(base)
    out += [dataclasses.replace(out[-1], red_fives=False) if "red_fives" in flip
            else out[-1].with_options(**flip) for flip in FLIPPED]
    return out


def _finding_rows(findings: Iterable[Finding]) -> list[Row]:
    return [(f.code, f.src.index if f.src else -1, f.player, f.message, f.severity.value,
             f.round, f.turn) for f in findings]


def _violation_rows(violations: Iterable[Violation]) -> list[Row]:
    return [(v.code, v.event, v.player, v.round, v.turn, v.message, v.evidence,
             v.consequence, v.rule, v.citation, v.ruleset) for v in violations]


def python_rows(events: Sequence[Event], rules: Ruleset, mine: Sequence[str] = MINE
                ) -> tuple[list[Row], list[Row]]:
    """The Python route: the engine with the referee and the Python twins of the checks
    ``mine`` that ``rules`` enables; its findings and the violations."""
    record = GameRecord(path="", format="", events=list(events))
    engine = Engine(_at)
    ref = RiichiReferee(record, rules, engine)
    units = [unit(ref) for unit in native_audit.check_classes(mine) if unit.enabled(rules)]
    engine.run(record.events, [ref, *units])
    return _finding_rows(engine.findings), _violation_rows(ref.violations)


def native_rows(core: Any, events: Sequence[Event], rules: Ruleset, mine: Sequence[str] = MINE
                ) -> tuple[list[Row], list[Row]] | None:
    """The native route's with the checks ``mine`` only, or None when the encoder or the
    native audit declines the game."""
    wanted = [u.RULES[0].code for u in native_audit.check_classes(mine) if u.enabled(rules)]
    got = native_audit.audit_native(core, events, rules, _at, checks=wanted)
    if got is None:
        return None
    return _finding_rows(got.findings), _violation_rows(got.violations)


class Tally(NamedTuple):
    """Runs compared and declined, runs that differ, violations (by code) and notes
    compared, and the first difference."""

    compared: int
    declined: int
    different: int
    violations: dict[str, int]
    notes: int
    first: str


def compare(core: Any, games: Iterable[Sequence[Event]], every_ruleset: bool = True,
            mine: Sequence[str] = MINE) -> Tally:
    """Both routes on every game under each of :func:`rulesets` (only the record's own
    without ``every_ruleset``) with the checks ``mine``."""
    return compare_under(core, ((events, rules) for events in games
                                for rules in rulesets(events)[: None if every_ruleset else 1]),
                         mine)


def compare_under(core: Any, runs: Iterable[tuple[Sequence[Event], Ruleset]],
                  mine: Sequence[str] = MINE) -> Tally:
    """Both routes on every game under its ruleset with the checks ``mine``."""
    compared = declined = different = notes = 0
    codes: dict[str, int] = {}
    first = ""
    for events, rules in runs:
        ours = native_rows(core, events, rules, mine)
        if ours is None:
            declined += 1
            continue
        theirs = python_rows(events, rules, mine)
        compared += 1
        for v in theirs[1]:
            codes[v[0]] = codes.get(v[0], 0) + 1
        notes += sum(1 for f in theirs[0] if f[0] == "unjudged")
        if ours != theirs:
            different += 1
            first = first or _difference(theirs, ours, rules)
    return Tally(compared, declined, different, codes, notes, first)


def _report(what: str, tally: Tally) -> None:
    print(f"\n{what}: {tally.compared} runs compared, {tally.declined} declined, "
          f"{tally.different} different, violations {dict(sorted(tally.violations.items()))}, "
          f"{tally.notes} unjudged notes")
    assert tally.different == 0, f"{what}: {tally.different} differ; first:\n{tally.first}"


def _records(texts: Iterable[tuple[str, str]]) -> list[GameRecord]:
    """The records of ``mjlog-notation`` texts (name, text), one game a chunk."""
    out: list[GameRecord] = []
    for name, text in texts:
        for chunk in text.split("mjlog-notation 1\n")[1:]:
            out += read_bytes(("mjlog-notation 1\n" + chunk).encode(), name)
    return out


def _docstring_games() -> list[tuple[GameRecord, Ruleset]]:
    """The examples of the checks' docstrings (``mjlog.families.check.examples``), each a
    round of a ``tenhou`` record, with the ruleset it announces."""
    out = []
    for unit in (Furiten, DoubleRon, Abortive):
        for _, _, under, text in examples(unit):
            record = f'mjlog-notation 1\n[Ruleset "tenhou"]\n{text}\nnoend\n'
            (rec,) = notation.read(record.encode())
            start = rec.events[0]
            assert isinstance(start, GameStart)
            words = under.split()
            options = tuple((k, parse_option(k, v))
                            for k, _, v in (w.partition("=") for w in words[1:]))
            out.append((rec, ruleset_for(start, words[0] if words else None, options)))
    return out


# -- the tests


def test_rule_cases_same_violations(core: Any) -> None:
    """The rule cases of legality, sakizuke, yaku and unknown tiles under every ruleset:
    the same violations, and each of these checks' codes among them."""
    games = _records((p.name, p.read_text("utf-8")) for p in RULE_CASES)
    tally = compare(core, [r.events for r in games])
    _report("rule cases", tally)
    assert tally.compared == len(rulesets(games[0].events)) * len(games)
    for code in ("furiten-ron", "furiten-passed", "furiten-riichi", "furiten-tsumo",
                 "double-ron", "abortive-unjustified", "abortive-missed"):
        assert tally.violations.get(code, 0) > 0, code


def test_docstring_examples_same_violations(core: Any) -> None:
    """The checks' own examples, violating and legal, under every ruleset and the one each
    announces."""
    games = _docstring_games()
    assert len(games) == 5 + 2 + 3
    tally = compare(core, [r.events for r, _ in games])
    _report("docstring examples", tally)
    announced = compare_under(core, [(r.events, rules) for r, rules in games])
    _report("docstring examples, announced rulesets", announced)
    assert announced.violations.get("furiten-tsumo", 0) == 1
    assert announced.violations.get("double-ron", 0) == 1


def test_abortive_kinds_each_judged(core: Any) -> None:
    """Every abortive kind put at the end of a few corpus rounds: the same verdicts, and
    unjustified ones among them (the kind reaches the native check)."""
    games = []
    for record in _sample(corpus_records(50), 4):
        events = list(record.events)
        starts = [i for i, ev in enumerate(events) if isinstance(ev, RoundStart)]
        for kind in (*ABORTIVE_KINDS, "no-such-kind"):
            cut = starts[1] + 5 if len(starts) > 1 else len(events) - 1
            games.append([*events[:cut], AbortiveDraw(kind=kind), RoundEnd(scores=None)])
    tally = compare(core, games)
    _report("abortive kinds", tally)
    assert tally.violations.get("abortive-unjustified", 0) > 10


def test_corpus_sample_same_violations(core: Any) -> None:
    """Eight games of the corpus under every ruleset."""
    tally = compare(core, (r.events for r in _sample(corpus_records(50), 8)))
    _report("corpus sample", tally)
    assert tally.compared == 8 * 11


def test_corpus_mutants_same_violations(core: Any) -> None:
    """A hundred mutants of the corpus's games under their own ruleset."""
    tally = compare(core, mutants(_sample(corpus_records(50), 20), 100, seed=461),
                    every_ruleset=False)
    _report("mutants", tally)
    assert tally.compared > 90


def test_generated_games_same_violations(core: Any) -> None:
    """Random games of four and three players under every ruleset."""
    games = [*random_games(preset("tenhou"), 2, seed=3),
             *random_games(preset("tenhou-sanma"), 2, seed=3)]
    tally = compare(core, [g.events for g in games])
    _report("generated", tally)
    assert tally.compared == 4 * 11


@pytest.mark.slow
def test_whole_corpus_same_violations(core: Any) -> None:
    """Every riichi game of the corpus under every ruleset."""
    records = corpus_records()
    tally = compare(core, (r.events for r in records))
    _report("whole corpus", tally)
    assert tally.compared == 11 * len(records)


@pytest.mark.slow
def test_thousands_of_mutants_same_violations(core: Any) -> None:
    """Two thousand mutants of the whole corpus under their own ruleset, and three hundred
    under every ruleset."""
    _report("corpus mutants", compare(core, mutants(corpus_records(), 2000, seed=4646),
                                      every_ruleset=False))
    _report("corpus mutants, every ruleset",
            compare(core, mutants(corpus_records(), 300, seed=47)))


def test_options_reach_the_native_checks(core: Any) -> None:
    """The options these checks read are passed by name, and a value that is no flag is
    a ValueError naming it."""
    pairs = dict(native_audit.options_of(preset("tenhou").with_options(furiten_tsumo=True)))
    assert pairs["furiten_tsumo"] == "1" and pairs["double_ron"] == "1"
    with pytest.raises(ValueError, match="four_winds"):
        core.audit_code(b"", [("four_winds", "yes")], [])


def _furiten_mutant(events: list[Event], w: int, rng: random.Random) -> list[Event] | None:
    """``events`` with one of the last discards of the winner at ``w`` made its win tile."""
    win = events[w]
    assert isinstance(win, Win)
    drops = [i for i, ev in enumerate(events[:w])
             if isinstance(ev, Discard) and ev.player == win.winner][-6:]
    if not drops:
        return None
    i = rng.choice(drops)
    ev = events[i]
    assert isinstance(ev, Discard)
    return [*events[:i], dataclasses.replace(ev, tile=win.win_tile), *events[i + 1:]]


def test_mutated_hands_shift_furiten(core: Any) -> None:
    """Corpus rounds with a discard of the winner's swapped for the win tile (a furiten
    made by hand): the same verdicts, and furiten among them."""
    rng = random.Random(46)
    games = []
    for record in _sample(corpus_records(50), 10):
        events = list(record.events)
        for w in [i for i, ev in enumerate(events) if isinstance(ev, Win)][:3]:
            if (mutant := _furiten_mutant(events, w, rng)) is not None:
                games.append(mutant)
    tally = compare(core, games, every_ruleset=False)
    _report("furiten made by hand", tally)
    assert sum(tally.violations.get(c, 0) for c in ("furiten-ron", "furiten-passed",
                                                     "furiten-riichi")) > 0


def _no_yaku_tally(core: Any, games: Sequence[Sequence[Event]]) -> Tally:
    """``no-yaku-win`` alone on ``games`` under every ruleset, with the Python route's
    ``no-yaku-win`` violations of the games the native audit declines counted apart
    (``notes`` of the tally: the declined runs where Python does find one)."""
    tally = compare(core, games, mine=NO_YAKU)
    found = 0
    for events in games:
        for rules in rulesets(events):
            if native_rows(core, events, rules, NO_YAKU) is None:
                found += bool(python_rows(events, rules, NO_YAKU)[1])
    return tally._replace(notes=found)


def test_no_yaku_win_declines_what_the_library_values(core: Any) -> None:
    """``no-yaku-win``: the native audit finds no violation itself; it declines the games
    with a win only the ``mahjong`` library values, and every ``no-yaku-win`` Python
    finds is in a declined game (the rule cases have some, and games it need not decline)."""
    games = [r.events for r in _records((p.name, p.read_text("utf-8")) for p in RULE_CASES)]
    games += [r.events for r in _sample(corpus_records(50), 6)]
    tally = _no_yaku_tally(core, games)
    print(f"\nno-yaku-win: {tally.compared} runs compared, {tally.declined} declined "
          f"({tally.notes} of them with a Python no-yaku-win), {tally.different} different")
    assert tally.different == 0, tally.first
    assert tally.compared > tally.declined > 0 and tally.notes > 0
    assert tally.violations == {}


@pytest.mark.slow
def test_no_yaku_win_whole_corpus(core: Any) -> None:
    """``no-yaku-win`` on every riichi game of the corpus under its own ruleset and
    ``kansaki`` (no open tanyao): the same where not declined."""
    runs = [(r.events, rules) for r in corpus_records()
            for rules in (rulesets(r.events)[0], rulesets(r.events)[1])]
    tally = compare_under(core, runs, NO_YAKU)
    _report("no-yaku-win, whole corpus", tally)
    assert tally.violations == {}


SAKIZUKE = ("sakizuke-first-call",)
SAKIZUKE_FLIPS: tuple[dict[str, Any], ...] = (
    {}, {"sakizuke_flush": False}, {"sakizuke_concealed": False},
    {"sakizuke_all_calls": True}, {"sakizuke_value_first": True},
    {"sakizuke_incidental": True}, {"sakizuke_tanyao": False},
    {"sakizuke_menzen_tsumo": "not-alone"}, {"sakizuke_menzen_tsumo": "ignored"},
    {"sakizuke_ron_only": True}, {"oute_bisha": False},
    {"oute_bisha": False, "oute_bisha_yakuhai": False}, {"open_tanyao": False},
)
"""``kansaki`` as it is and with each sakizuke switch (and open tanyao) turned."""


def sakizuke_runs(games: Iterable[Sequence[Event]]) -> list[tuple[Sequence[Event], Ruleset]]:
    """Each game under ``kansaki`` with each of :data:`SAKIZUKE_FLIPS` (its seats)."""
    out = []
    for events in games:
        start = events[0] if events else None
        base = preset("kansaki")
        if isinstance(start, GameStart) and start.ruleset.players != base.players:
            base = dataclasses.replace(base, players=start.ruleset.players)
        out += [(events, base.with_options(**flip)) for flip in SAKIZUKE_FLIPS]
    return out


def _sakizuke_report(what: str, tally: Tally) -> None:
    print(f"\n{what}: {tally.compared} runs compared, {tally.declined} declined, "
          f"{tally.different} different, violations {dict(sorted(tally.violations.items()))}, "
          f"{tally.notes} unjudged notes")
    assert tally.different == 0, f"{what}: {tally.different} differ; first:\n{tally.first}"


def test_sakizuke_rule_cases_same_violations(core: Any) -> None:
    """The rule cases (sakizuke's own among them) under kansaki and each sakizuke switch:
    the same sakizuke violations where the native audit does not decline, and each code."""
    games = [r.events for r in _records((p.name, p.read_text("utf-8")) for p in RULE_CASES)]
    tally = compare_under(core, sakizuke_runs(games), SAKIZUKE)
    _sakizuke_report("sakizuke, rule cases", tally)
    assert tally.compared > 10 * tally.declined
    for code in ("sakizuke-first-call", "sakizuke-one-sided", "sakizuke-incidental"):
        assert tally.violations.get(code, 0) > 0, code


def test_sakizuke_corpus_sample_same_violations(core: Any) -> None:
    """Six corpus games under kansaki and each sakizuke switch."""
    tally = compare_under(core, sakizuke_runs(r.events for r in _sample(corpus_records(50), 6)),
                          SAKIZUKE)
    _sakizuke_report("sakizuke, corpus sample", tally)
    assert tally.compared > 20 and tally.violations  # a game is declined at any win the
    # native valuation declines (most corpus games have one under kansaki)


@pytest.mark.slow
def test_sakizuke_whole_corpus_same_violations(core: Any) -> None:
    """Every riichi game of the corpus under kansaki and each sakizuke switch, and a
    thousand mutants under kansaki."""
    records = corpus_records()
    _sakizuke_report("sakizuke, whole corpus",
                     compare_under(core, sakizuke_runs(r.events for r in records), SAKIZUKE))
    runs = [(m, preset("kansaki")) for m in mutants(records, 1000, seed=4647)]
    _sakizuke_report("sakizuke, mutants", compare_under(core, runs, SAKIZUKE))

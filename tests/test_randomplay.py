"""Legal random play: generated games replay, verify and audit with nothing to report
under the ruleset they were played under, survive the notation round trip, and one
illegal move injected into them is caught with the right code.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from mjlog.core.events import ExhaustiveDraw, Win
from mjlog.core.record import GameRecord
from mjlog.core.ruleset import Ruleset, TaiwanOptions, parse_option, preset
from mjlog.families.registry import random_game, random_games
from mjlog.families.riichi.players import SOURCE, RandomGame, Style
from mjlog.formats import notation
from mjlog.reports.audit import audit_record

from .mutations import MUTATORS, Tally


def _ruleset(spec: str) -> Ruleset:
    """``preset,option=value,...``"""
    name, *opts = spec.split(",")
    return preset(name).with_options(**{k: parse_option(k, v) for k, v in
                                        (o.split("=") for o in opts)})


def _problems(rec: GameRecord) -> dict[str, list[Any]]:
    rep = audit_record(rec, wall=False)
    found: dict[str, list[Any]] = {
        "findings": rep.findings, "violations": rep.violations, "mismatches": rep.mismatches,
        "diagnostics": rep.diagnostics}
    return {k: v for k, v in found.items() if v}


def _moves(records: list[GameRecord]) -> Counter[str]:
    c: Counter[str] = Counter()
    for rec in records:
        for ev in rec.events:
            c[ev.TYPE] += 1
            if isinstance(ev, Win) and ev.from_player != ev.winner:
                c["ron"] += 1
            if isinstance(ev, ExhaustiveDraw) and ev.nagashi:
                c["nagashi"] += 1
    return c


@pytest.mark.parametrize(("spec", "games"), [
    ("tenhou", 30), ("tenhou-sanma", 25), ("majsoul", 10), ("majsoul-sanma", 10),
    ("jpml", 15), ("kansaki", 25),
])
def test_generated_games_audit_clean_under_their_preset(spec: str, games: int) -> None:
    rs = _ruleset(spec)
    records = list(random_games(rs, games, seed=100))
    bad = {rec.path: p for rec in records if (p := _problems(rec))}
    assert bad == {}
    assert all(rec.complete for rec in records)
    moves = _moves(records)
    # the games are real games: wins of both kinds, riichi, kans, exhaustive draws
    assert moves["win"] >= 2 * games and moves["ron"] >= games // 2, moves
    assert moves["riichi_accepted"] >= games and moves["exhaustive_draw"] >= games, moves
    assert moves["closed_kan"] >= 1 and moves["dora_reveal"] >= (0 if rs.riichi.kan_dora == "none"
                                                                 else 1), moves
    if rs.riichi.sakizuke is not None:  # the sakizuke players never call
        assert moves["pon"] == moves["chi"] == 0
    else:
        assert moves["pon"] >= games and moves["added_kan"] >= 1, moves
        assert moves["chi"] >= (games if rs.players == 4 else 0), moves
    if rs.players == 3:
        assert moves["kita"] >= games and moves["chi"] == 0, moves


VARIANTS = [
    "tenhou,kan_dora=immediate", "tenhou,kan_dora=none", "tenhou,open_kan_pao=true",
    "tenhou,four_kans=no-abort",
    "tenhou,four_kans=fifth-ends", "tenhou,kuikae=allowed", "tenhou,kuikae=same",
    "tenhou,kan_after_riichi=shape", "tenhou,kan_after_riichi=forbidden",
    "tenhou,double_ron=false", "tenhou,triple_ron=false", "tenhou,furiten_tsumo=true",
    "tenhou,nine_terminals=false,four_winds=false,four_riichi=false",
    "tenhou,ippatsu=false,ura_dora=false,red_fives=false,open_tanyao=false,kiriage=true",
    "tenhou,riichi_min_score=0,riichi_min_wall=8,length=east",
    "tenhou-sanma,kan_dora=immediate,kazoe=sanbaiman",
    "kansaki,sakizuke_all_calls=true,sakizuke_menzen_tsumo=ignored,oute_bisha=true",
]


@pytest.mark.parametrize("spec", VARIANTS)
def test_generated_games_audit_clean_under_variants(spec: str) -> None:
    records = list(random_games(_ruleset(spec), 6, seed=500))
    bad = {rec.path: p for rec in records if (p := _problems(rec))}
    assert bad == {}


def test_the_same_seed_gives_the_same_game() -> None:
    rs = preset("tenhou")
    assert random_game(rs, 7).events == random_game(rs, 7).events
    assert random_game(rs, 7).events != random_game(rs, 8).events
    start = random_game(rs, 7).events[0]
    assert getattr(start, "source", "") == SOURCE and getattr(start, "ruleset", None) == rs


def test_taiwanese_rulesets_are_played_by_the_taiwanese_players() -> None:
    rec = random_game(preset("taiwan16"), 1)
    assert rec.events[0].ruleset.family == "taiwan16"  # type: ignore[union-attr]
    assert any(ev.TYPE == "flower" for ev in rec.events)
    with pytest.raises(TypeError, match="taiwan16"):
        RandomGame(Ruleset(family_options=TaiwanOptions()), 1)


@pytest.mark.parametrize("spec", ["tenhou", "tenhou-sanma", "kansaki"])
def test_generated_games_round_trip_through_notation(spec: str) -> None:
    for rec in random_games(_ruleset(spec), 5, seed=900):
        text = notation.write(rec.events)
        [back] = notation.read(text.encode(), "generated.mjn", strict=True)
        assert back.events == rec.events
        assert _problems(back) == {}


@pytest.fixture(scope="module")
def kan_happy() -> list[GameRecord]:
    """Games where every kan that may be made is made (four kans play on)."""
    style = Style(kan=1.0, pon=0.9, chi=0.0, riichi=0.0, win=0.3)
    rs = preset("tenhou").with_options(four_kans="no-abort")
    return list(random_games(rs, 120, seed=0, style=style))


@pytest.mark.slow
def test_kan_happy_games_reach_four_kans_and_stay_legal(kan_happy: list[GameRecord]) -> None:
    assert all(_problems(rec) == {} for rec in kan_happy)
    assert sum(_kans_per_round(rec).count(4) for rec in kan_happy) >= 20


def _kans_per_round(rec: GameRecord) -> list[int]:
    out: list[int] = []
    for ev in rec.events:
        if ev.TYPE == "round_start":
            out.append(0)
        elif ev.TYPE in ("open_kan", "added_kan", "closed_kan"):
            out[-1] += 1
    return out


@pytest.mark.slow
def test_every_illegal_move_injected_into_generated_games_is_caught(
        kan_happy: list[GameRecord]) -> None:
    records = [*random_games(preset("tenhou"), 100, seed=2000), *kan_happy]
    tally = Tally()
    for rec in records:
        tally.inject(rec)
    tally.print("mutations of generated games by kind")
    assert all(tally.made[name] >= 10 for name in MUTATORS), tally.made
    assert tally.caught == tally.made

"""Scoring: the tables of ../shared/seeds/001 (fu, limits, quick reference), payments, mismatches.

The seed is a 2001 Japanese rule text; its tables are restated here cell by
cell. Its han counts leave out the two "bazoro" han it adds in its formula
(fu x 4 x 2**(han + 2)), so they are today's han.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from mahjong.constants import EAST
from mahjong.hand_calculating.hand_config import HandConfig, OptionalRules
from mahjong.hand_calculating.scores import ScoresCalculator

from mjlog.core.events import Win
from mjlog.core.record import GameRecord
from mjlog.core.ruleset import PRESETS, Ruleset
from mjlog.core.tiles import Tile
from mjlog.families.riichi.scoring import riichi as riichi_scoring
from mjlog.families.riichi.scoring.fast import (
    FU_BASE,
    FU_CLOSED_RON,
    FU_SEVEN_PAIRS,
    FU_TSUMO,
    WAIT_FU,
    hand_value,
    pair_fu,
    ron_points,
    set_fu,
)
from mjlog.families.riichi.scoring.payments import nagashi_deltas, next_round, noten_deltas
from mjlog.families.riichi.scoring.riichi import Valuation
from mjlog.families.riichi.scoring.situation import WinSituation
from mjlog.families.riichi.scoring.verify import verify
from mjlog.formats import mjai, notation, read_path, serialize

from .conftest import EXAMPLES, ROOT

TENHOU = PRESETS["tenhou"]

# 点数早見表: fu -> ron payment (non-dealer, dealer) for 1..4 han; None where the seed
# has "-" (no such hand), "mangan" where it says 満貫.
QUICK_TABLE: dict[int, list[tuple[int, int] | str | None]] = {
    20: [None, (1300, 2000), (2600, 3900), (5200, 7700)],
    25: [None, (1600, 2400), (3200, 4800), (6400, 9600)],
    30: [(1000, 1500), (2000, 2900), (3900, 5800), (7700, 11600)],
    40: [(1300, 2000), (2600, 3900), (5200, 7700), "mangan"],
    50: [(1600, 2400), (3200, 4800), (6400, 9600), "mangan"],
    60: [(2000, 2900), (3900, 5800), (7700, 11600), "mangan"],
    70: [(2300, 3400), (4500, 6800), "mangan", "mangan"],
}
CELLS = [(fu, han + 1, cell) for fu, row in QUICK_TABLE.items() for han, cell in enumerate(row)
         if cell is not None]


def _library_ron(han: int, fu: int, dealer: bool) -> int:
    config = HandConfig(player_wind=EAST if dealer else EAST + 1,
                        options=OptionalRules(kiriage=False))
    return ScoresCalculator.calculate_scores(han, fu, config)["main"]


@pytest.mark.parametrize(("fu", "han", "cell"), CELLS)
def test_quick_reference_table(fu: int, han: int, cell: tuple[int, int] | str) -> None:
    non_dealer, dealer = (8000, 12000) if isinstance(cell, str) else cell
    assert ron_points(han, fu, TENHOU, dealer=False) == non_dealer
    assert ron_points(han, fu, TENHOU, dealer=True) == dealer
    assert hand_value(han, fu, TENHOU)[1] == ("mangan" if cell == "mangan" else "")
    assert _library_ron(han, fu, False) == non_dealer
    assert _library_ron(han, fu, True) == dealer


# 満貫 5, 跳満 6-7, 倍満 8-10, 三倍満 11-12, 役満 13+: dealer / non-dealer payments.
LIMITS = [(5, "mangan", 12000, 8000), (6, "haneman", 18000, 12000),
          (7, "haneman", 18000, 12000), (8, "baiman", 24000, 16000),
          (10, "baiman", 24000, 16000), (11, "sanbaiman", 36000, 24000),
          (12, "sanbaiman", 36000, 24000), (13, "yakuman", 48000, 32000),
          (20, "yakuman", 48000, 32000)]


@pytest.mark.parametrize(("han", "limit", "dealer", "non_dealer"), LIMITS)
def test_limit_table(han: int, limit: str, dealer: int, non_dealer: int) -> None:
    for fu in (20, 30, 110):
        assert hand_value(han, fu, TENHOU)[1] == limit
        assert ron_points(han, fu, TENHOU, dealer=True) == dealer
        assert ron_points(han, fu, TENHOU, dealer=False) == non_dealer


def test_kazoe_and_kiriage_options() -> None:
    assert hand_value(13, 30, TENHOU.with_options(kazoe="sanbaiman")) == (6000, "sanbaiman")
    kiriage = TENHOU.with_options(kiriage=True)
    assert ron_points(4, 30, kiriage, dealer=False) == 8000
    assert ron_points(3, 60, kiriage, dealer=True) == 12000
    assert hand_value(4, 30, kiriage)[1] == ""  # paid as a mangan, not named one


# 符: the seed's fu table, row by row.
E, S, W = 27, 28, 29
HAKU = 31


@pytest.mark.parametrize(("kind", "kan", "concealed", "fu"), [
    (4, False, False, 2),   # 明刻 中張牌
    (0, False, False, 4),   # 明刻 幺九牌
    (4, False, True, 4),    # 暗刻 中張牌
    (HAKU, False, True, 8),  # 暗刻 幺九牌
    (13, True, False, 8),   # 明槓 中張牌
    (17, True, False, 16),  # 明槓 幺九牌
    (22, True, True, 16),   # 暗槓 中張牌
    (E, True, True, 32),    # 暗槓 幺九牌
])
def test_set_fu(kind: int, kan: bool, concealed: bool, fu: int) -> None:
    assert set_fu(kind, kan=kan, concealed=concealed) == fu


@pytest.mark.parametrize(("kind", "seat", "round_", "fu"), [
    (E, E, E, 4),      # 連風牌
    (S, S, E, 2),      # 自風
    (E, S, E, 2),      # 場風
    (HAKU, S, E, 2),   # 飜牌
    (W, S, E, 0),      # その他
    (4, S, E, 0),
])
def test_pair_fu(kind: int, seat: int, round_: int, fu: int) -> None:
    assert pair_fu(kind, seat, round_) == fu


def test_base_wait_and_win_fu() -> None:
    assert FU_BASE == 20
    assert WAIT_FU == {"ryanmen": 0, "kanchan": 2, "penchan": 2, "tanki": 2, "shanpon": 0}
    assert (FU_TSUMO, FU_CLOSED_RON, FU_SEVEN_PAIRS) == (2, 10, 25)


# ---------------------------------------------------------------- payments


def test_noten_payments() -> None:
    assert noten_deltas([True, False, False, False], 3000) == [3000, -1000, -1000, -1000]
    assert noten_deltas([True, True, False, False], 3000) == [1500, 1500, -1500, -1500]
    assert noten_deltas([True, True, True, False], 3000) == [1000, 1000, 1000, -3000]
    assert noten_deltas([False] * 4, 3000) == [0] * 4
    assert noten_deltas([True] * 4, 3000) == [0] * 4
    assert noten_deltas([True, False, False], 2000) == [2000, -1000, -1000]
    assert noten_deltas([True, True, False], 2000) == [1000, 1000, -2000]


def test_nagashi_payments() -> None:
    assert nagashi_deltas([1], dealer=0, players=4) == [-4000, 8000, -2000, -2000]
    assert nagashi_deltas([0], dealer=0, players=4) == [12000, -4000, -4000, -4000]
    assert nagashi_deltas([1], dealer=0, players=3) == [-4000, 6000, -2000]


def test_next_round() -> None:
    # dealer keeps the seat: same round, one more honba
    assert next_round(0, 1, 0, 0, 4, dealer_keeps=True, honba_up=True) == (0, 1, 1, 0)
    # a non-dealer won: the deal passes on, honba back to 0
    assert next_round(0, 1, 2, 0, 4, dealer_keeps=False, honba_up=False) == (0, 2, 0, 1)
    # a drawn East 4 whose dealer is noten: South 1, one more honba
    assert next_round(0, 4, 1, 3, 4, dealer_keeps=False, honba_up=True) == (1, 1, 2, 0)
    assert next_round(0, 3, 0, 2, 3, dealer_keeps=False, honba_up=False) == (1, 1, 0, 0)


# ---------------------------------------------------------------- mismatches end to end


def _tampered(tmp_path: Path, **changes: object) -> Path:
    """east-ron.jsonl with its win's record changed."""
    rec = serialize.read((EXAMPLES / "east-ron.jsonl").read_bytes())[0]
    events = [ev if not isinstance(ev, Win) else _replace(ev, changes) for ev in rec.events]
    out = tmp_path / "tampered.jsonl"
    out.write_text("".join(serialize.write_lines(events)), encoding="utf-8")
    return out


def _replace(ev: Win, changes: dict[str, object]) -> Win:
    from dataclasses import replace
    return replace(ev, **changes)  # type: ignore[arg-type]


def test_example_games_verify() -> None:
    for path in sorted(EXAMPLES.glob("*.jsonl")):
        for rec in serialize.read(path.read_bytes()):
            _, report = verify(rec)
            assert report.mismatches == []
            assert report.wins_verified == report.wins
            assert report.draws_verified == report.draws == sum(
                1 for ev in rec.events if ev.TYPE in ("exhaustive_draw", "abortive_draw"))


def test_a_wrong_fu_and_payment_are_reported(tmp_path: Path) -> None:
    path = _tampered(tmp_path, fu=30, points=1000, deltas=(0, 1000, -1000, 0))
    proc = subprocess.run([sys.executable, "-m", "mjlog.cli", "audit", str(path), "--format",
                           "json"], capture_output=True, text=True, cwd=ROOT, check=False)
    assert proc.returncode == 1
    report = json.loads(proc.stdout)
    got = {(m["code"], m["field"], m["recorded"], m["computed"])
           for m in report["games"][0]["mismatches"]}
    assert got == {("win-fu", "fu", 30, 40), ("win-points", "points", 1000, 1300),
                   ("win-deltas", "deltas[1]", 1000, 1300),
                   ("win-deltas", "deltas[2]", -1000, -1300)}
    s = report["summary"]
    assert (s["wins"], s["wins_verified"], s["score_mismatches"]) == (1, 0, 4)
    assert all("line" in m and m["round"] == "E1-0" for m in report["games"][0]["mismatches"])


def test_a_missing_yaku_is_reported(tmp_path: Path) -> None:
    rec = serialize.read((EXAMPLES / "east-ron.jsonl").read_bytes())[0]
    win = next(ev for ev in rec.events if isinstance(ev, Win))
    path = _tampered(tmp_path, yaku=(), han=0)
    _, report = verify(serialize.read(path.read_bytes())[0])
    fields = {(m.code, m.field, m.recorded, m.computed) for m in report.mismatches}
    assert ("win-yaku", "yaku.tanyao", None, 1) in fields
    assert ("win-han", "han", 0, 1) in fields
    assert win.yaku and win.yaku[0].name == "tanyao"


def test_dora_indicators_other_than_the_tables_are_reported(tmp_path: Path) -> None:
    path = _tampered(tmp_path, dora_indicators=(Tile(112),))
    _, report = verify(serialize.read(path.read_bytes())[0])
    assert [(m.code, m.recorded, m.computed) for m in report.mismatches] == [
        ("win-indicators", "2z", "1z")]


_OPEN_KAN_RINSHAN = """mjlog-notation 1
[Players "A" "B" "C" "D"]
[Ruleset "tenhou"]
E1-0 dora=9p
hands 123m456p789s1122z 23m567p234s555z99m ? ?
5z' S:kan555z 4m
tsumo S 40fu 2700 rinshan-kaihou haku{pao}
noend
"""


def test_open_kan_responsibility_k8() -> None:
    """K8: a rinshan win right after an open kan is paid by the player whose tile was
    kanned, where the ruleset says so; elsewhere it is an ordinary tsumo."""
    plain = notation.read(_OPEN_KAN_RINSHAN.format(pao="").encode())[0]
    liable = notation.read(_OPEN_KAN_RINSHAN.format(pao=" pao=E").encode())[0]
    k8 = PRESETS["tenhou"].with_options(open_kan_pao=True)
    assert verify(plain)[1].mismatches == []
    assert {m.code for m in verify(liable)[1].mismatches} == {"win-pao", "win-deltas"}
    assert verify(liable, k8)[1].mismatches == []
    wrong = verify(plain, k8)[1].mismatches
    assert [(m.code, m.recorded, m.computed) for m in wrong if m.code == "win-pao"] == [
        ("win-pao", None, 0)]
    [win] = [ev for ev in liable.events if isinstance(ev, Win)]
    assert win.deltas == (-2700, 2700, 0, 0)  # the kanned player pays the whole tsumo


# -- kita and ippatsu (three-player): any kita after the declaration breaks ippatsu, the
# riichi player's own included; a kita robbed by a ron never happened and scores no chankan;
# a kita before a first-discard riichi makes it a plain riichi.

_SANMA = ('mjlog-notation 1\n[Players "A" "B" "C"]\n[Ruleset "tenhou-sanma"]\nE1-0 dora=1s\n'
          "hands 19m19p19s1235677z 123p456p789p123s{wait} 11m99m5p5p6s6s7s7s8s8s1z\n"
          "{moves}\n{result}\nnoend\n")


@pytest.mark.parametrize(("wait", "moves", "result", "ippatsu"), [
    ("5s", "9m' 9s'* 5s'", "ron S 40fu 12000 double-riichi ippatsu ittsu dora", True),
    ("5s", "9m' 9s'* 4z kita 5s'", "ron S 40fu 8000 double-riichi ittsu dora", False),
    ("5s", "9m' 9s'* 3s' 6z' 4z kita 5s",
     "tsumo S 30fu 12000 double-riichi menzen-tsumo rinshan-kaihou ittsu dora:2", False),
    ("4z", "9m' 9s'* 4z kita", "ron S 40fu 12000 double-riichi ippatsu ittsu dora", True),
    ("5s", "4z kita 9m' 9s'* 5s'", "ron S 40fu 8000 riichi ippatsu ittsu dora", True),
], ids=["no kita", "another's kita", "own kita", "robbed kita", "double riichi after kita"])
def test_kita_and_ippatsu(wait: str, moves: str, result: str, ippatsu: bool) -> None:
    (rec,) = notation.read(_SANMA.format(wait=wait, moves=moves, result=result).encode())
    assert rec.diagnostics == []
    engine, report = verify(rec)
    assert [f.code for f in engine.findings if f.severity != "info"] == []
    assert report.mismatches == []
    [win] = [ev for ev in rec.events if isinstance(ev, Win)]
    names = {y.name for y in win.yaku}
    assert ("ippatsu" in names) == ippatsu and "chankan" not in names


_PAO_RON = """mjlog-notation 1
[Players "A" "B" "C" "D"]
[Ruleset "tenhou"]
E1-1 dora=9p
hands 123m456p789s1122z 556677z45p99s1m9m1p ? ?
5z' S:pon55z 1m 6z' S:pon66z 9m 2s' 3s' 7z' S:pon77z 1p
3p'
ron S 40fu 32000 daisangen pao=E
noend
"""


def test_pao_on_a_ron_pays_the_honba_from_the_liable_player() -> None:
    """大三元 completed on E's 7z, won by ron on W's 3p with one honba: the discarder and
    the liable player each pay half of the hand, and the liable player pays the honba."""
    (rec,) = notation.read(_PAO_RON.encode())
    assert rec.diagnostics == []
    [win] = [ev for ev in rec.events if isinstance(ev, Win)]
    assert win.deltas == (-16300, 32300, -16000, 0)
    engine, report = verify(rec)
    assert [f.code for f in engine.findings if f.severity != "info"] == []
    assert report.mismatches == []


def _mortal(path: Path, change: int = 0) -> GameRecord:
    """A game written in mjai's Mortal dialect (its wins claim no value, only deltas), read
    back; ``change`` moves that many points from the first win's winner to seat 0 or 1."""
    (rec,) = read_path(path)
    lines = mjai.write(rec.events, dialect="mortal").splitlines()
    if change:
        at = next(i for i, ln in enumerate(lines) if '"hora"' in ln)
        hora = json.loads(lines[at])
        other = 1 if hora["actor"] == 0 else 0
        hora["deltas"][hora["actor"]] -= change
        hora["deltas"][other] += change
        lines[at] = json.dumps(hora)
    (back,) = mjai.read("\n".join(lines).encode(), "mortal.mjson")
    return back


@pytest.mark.parametrize("change", [0, 100])
def test_a_win_claiming_only_payments_asks_the_reference_when_they_differ(
        change: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """A Mortal-dialect win whose payments are those mjlog's own valuation gives is not
    valued again by the library; one whose payments differ is, and the mismatch is told."""
    rec = _mortal(EXAMPLES / "east-ron.jsonl", change)
    asked: list[object] = []
    real = riichi_scoring.library_value

    def counted(sit: WinSituation, rules: Ruleset) -> Valuation:
        asked.append(sit)
        return real(sit, rules)

    monkeypatch.setattr(riichi_scoring, "library_value", counted)
    _, report = verify(rec)
    assert report.wins >= 1
    mismatched = [m for m in report.mismatches if m.code == "win-deltas"]
    if change:
        assert asked and mismatched
    else:
        assert not asked and report.mismatches == [] and report.wins_verified == report.wins


@pytest.mark.parametrize("dialect", ["mortal", "mjai"])
def test_a_win_in_a_format_that_cannot_name_pao_is_judged_by_its_payments(
        dialect: str) -> None:
    """mjai has no field for the seat liable for a win: the 大三元 E fed reads back naming
    nobody, which claims nothing (no win-pao), also once in mjlog's own JSON Lines (its
    source stays mjai). The payments still show the liability: the same win paid by the
    discarder alone is a win-deltas mismatch. A format that names pao and names nobody is
    told (see test_open_kan_responsibility_k8)."""
    (rec,) = notation.read(_PAO_RON.encode())
    text = mjai.write(rec.events, dialect=dialect)
    (back,) = mjai.read(text.encode(), "pao.mjson")
    [win] = [ev for ev in back.events if isinstance(ev, Win)]
    assert win.pao is None and win.deltas == (-16300, 32300, -16000, 0)
    assert verify(back)[1].mismatches == []
    (again,) = serialize.read("".join(serialize.write_lines(back.events)).encode())
    assert verify(again)[1].mismatches == []
    unpaid = text.replace("[-16300,32300,-16000,0]", "[-32300,32300,0,0]")
    assert unpaid != text
    (alone,) = mjai.read(unpaid.encode(), "pao.mjson")
    assert [(m.code, m.field) for m in verify(alone)[1].mismatches] == [
        ("win-deltas", "deltas[0]"), ("win-deltas", "deltas[2]")]


def _seen_by(text: str, seat: int) -> str:
    """An mjai log as seat ``seat`` sees it: the others' dealt tiles and draws are ``?``."""
    out = []
    for line in text.splitlines():
        o = json.loads(line)
        if o["type"] == "start_kyoku":
            o["tehais"] = [h if p == seat else ["?"] * len(h) for p, h in enumerate(o["tehais"])]
        elif o["type"] == "tsumo" and o["actor"] != seat:
            o["pai"] = "?"
        out.append(json.dumps(o, separators=(",", ":")))
    return "\n".join(out) + "\n"


@pytest.mark.parametrize("example", ["east-ron.jsonl", "07-dealer-tsumo.mjn", "10-riichi-ura.mjn"])
def test_a_hidden_hand_is_valued_when_its_win_shows_it_and_never_convicted(example: str) -> None:
    """A log seen from another seat hides the winner's hand until the win: the original
    dialect's ``hora_tehais`` shows it, and the win is valued as in the full log (the
    same payments changed by 100 are told). Mortal's dialect never shows it: the win is
    not verified (an ``unjudged`` note), and no finding or mismatch blames the hand."""
    (rec,) = read_path(EXAMPLES / example)
    [win] = [ev for ev in rec.events if isinstance(ev, Win)]
    seat = (win.winner + 1) % 4
    seen = _seen_by(mjai.write(rec.events, dialect="mjai"), seat)
    (shown,) = mjai.read(seen.encode(), "seen.mjson")
    engine, report = verify(shown)
    assert [f.code for f in engine.findings if f.severity != "info"] == []
    assert (report.wins, report.wins_verified, report.mismatches) == (1, 1, [])
    moved = [d + (100 if p == win.winner else -100 if p == seat else 0)
             for p, d in enumerate(win.deltas)]
    changed = seen.replace(json.dumps({"deltas": list(win.deltas)}, separators=(",", ":"))[1:-1],
                           json.dumps({"deltas": moved}, separators=(",", ":"))[1:-1])
    assert changed != seen
    (paid,) = mjai.read(changed.encode(), "seen.mjson")
    assert {m.code for m in verify(paid)[1].mismatches} == {"win-deltas"}
    (blind,) = mjai.read(_seen_by(mjai.write(rec.events, dialect="mortal"), seat).encode(),
                         "blind.mjson")
    engine, report = verify(blind)
    assert [f.code for f in engine.findings if f.severity != "info"] == []
    assert (report.wins, report.mismatches) == (0, [])
    assert [f.player for f in engine.findings
            if f.code == "unjudged" and "win" in f.message] == [win.winner]

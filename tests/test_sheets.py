"""Score sheets (results-only records): Pantheon's textlog and CSV sheets, read as events,
replayed and audited with their written scores, under the competition presets.

The Pantheon games are five of the published test games of MahjongPantheon/pantheon
(``Mimir/tests/models/testdata/games.txt``, played there under its ``ema`` ruleset):
their lines rebuilt here as text, with the final scores their header publishes. The
CSV sheets are our own, their scores computed by hand in the comments.
"""

from __future__ import annotations

import re
from collections import defaultdict
from pathlib import Path

import pytest
from click.testing import CliRunner

from mjlog.cli import main
from mjlog.core.diagnostics import InputError
from mjlog.core.events import Chombo, ExhaustiveDraw, RiichiAccepted, RoundStart, Win
from mjlog.core.record import GameRecord
from mjlog.families.riichi.scoring.verify import verify
from mjlog.formats import detect, read_bytes
from mjlog.reports.audit import audit_record
from mjlog.reports.settlement import Settlement

PANTHEON_GAMES = [
    # games.txt, game 1: single rons, tsumo, a draw with two riichi sticks carried over.
    """player1:13700 player2:33800 player3:34200 player4:38300
ron player2 from player3 1han 30fu (tanyao)
ron player3 from player4 6han (yakuhai1 honitsu sananko) riichi player1
ron player2 from player4 2han 40fu (riichi ippatsu) riichi player2
ron player4 from player1 4han 30fu (yakuhai1 dora 3)
ron player4 from player3 2han 30fu (yakuhai1 dora)
tsumo player4 3han 30fu (riichi tanyao tsumo) riichi player4
tsumo player4 2han 30fu (yakuhai2)
tsumo player3 1han 30fu (yakuhai1) riichi player2
draw tempai player1 player2 riichi player1 player2
ron player2 from player3 2han 40fu (riichi yakuhai1) riichi player2
""",
    # Game 3: 4 han 30 fu paid 7,900 (no kiriage); a last draw whose stick goes to first.
    """player9:42000 player11:35500 player10:15500 player12:27000
tsumo player9 4han 30fu (tsumo sanshoku dora)
tsumo player9 4han 40fu (tanyao dora 3)
ron player11 from player12 2han 30fu (yakuhai1 dora)
ron player10 from player9 1han 30fu (yakuhai1)
ron player11 from player9 3han 40fu (riichi dora 2) riichi player11
ron player11 from player10 3han 30fu (yakuhai1 dora 2)
ron player12 from player9 4han 30fu (riichi sanshoku pinfu) riichi player12
draw tempai player9
tsumo player11 2han 30fu (yakuhai1 dora)
draw tempai player11 player12 riichi player11
""",
    # Game 8: "draw tempai all"; ippatsu haneman tsumo by the dealer.
    """player29:19900 player30:57800 player31:23000 player32:19300
tsumo player30 6han (riichi tsumo ippatsu pinfu dora 2) riichi player29 player30
draw tempai all riichi player29
ron player31 from player30 1han 40fu (riichi) riichi player31
ron player29 from player32 1han 40fu (tanyao) riichi player32
tsumo player30 6han (riichi tsumo ippatsu tanyao pinfu dora)
ron player30 from player32 3han 30fu (yakuhai1 dora 2)
ron player30 from player32 2han 30fu (pinfu dora)
tsumo player32 3han 30fu (yakuhai1 dora 2) riichi player31
tsumo player32 1han 30fu (tanyao) riichi player31
""",
    # Game 9: a double ron ("also" on the next line) with riichi sticks on the table.
    """player4:33100 player17:39200 player8:42500 player25:5200
tsumo player8 2han 40fu (riichi tsumo)
ron player4 from player25 3han 40fu (riichi ippatsu yakuhai1)
tsumo player17 1han 30fu (yakuhai1)
ron player4 from player17 3han 30fu (riichi pinfu dora)
ron player8 from player4 1han 40fu (riichi) riichi player8
also player25 1han 30fu (yakuhai1)
draw tempai player17 player8 player25 riichi player17 player25
ron player4 from player25 1han 40fu (riichi)
ron player8 from player25 5han (riichi ippatsu honitsu)
ron player4 from player17 1han 30fu (yakuhai1)
tsumo player17 7han (yakuhai2 toitoi dora 3) riichi player4 player8
""",
    # Game 13: a chombo first (nothing paid at the table under ema: -20 after uma).
    """player27:23300 player32:22100 player2:40600 player14:34000
chombo player32
ron player2 from player14 1han 30fu (yakuhai1)
tsumo player2 1han 30fu (yakuhai1)
tsumo player27 2han 30fu (tanyao dora)
tsumo player32 3han 40fu (yakuhai1 toitoi)
tsumo player14 3han 40fu (yakuhai2 dora)
draw tempai player32 player14
ron player2 from player32 5han (riichi dora 4) riichi player2
ron player14 from player2 4han 30fu (yakuhai1 dora 3)
tsumo player2 6han (riichi ippatsu tsumo pinfu dora 2) riichi player32 player2
""",
    # Game 22: draws with nobody, one and all ready; honba up to 6.
    """player27:35500 player24:31600 player1:21700 player11:31200
draw tempai player24
ron player11 from player27 2han 40fu (riichi dora) riichi player11
draw tempai all
ron player1 from player11 2han 30fu (riichi pinfu) riichi player1
tsumo player11 5han (riichi tsumo tanyao pinfu iipeiko) riichi player11
ron player11 from player1 1han 30fu (yakuhai1)
draw tempai player24
ron player27 from player1 3han 30fu (riichi pinfu dora) riichi player27
draw tempai player27 player24 riichi player24
ron player27 from player24 1han 30fu (yakuhai1) riichi player11
draw tempai nobody riichi player11
ron player1 from player11 1han 40fu (yakuhai1)
""",
]


def _header_scores(text: str) -> list[int]:
    """The final scores a textlog's first line publishes (our own parse, for the test)."""
    return [int(pair.split(":")[1]) for pair in text.splitlines()[0].split()]


def _read(text: str, name: str = "sheet") -> GameRecord:
    records = read_bytes(text.encode(), name)
    assert len(records) == 1
    return records[0]


def _problems(rec: GameRecord, rules: str | None = None) -> dict[int, set[str]]:
    """Each line with findings, mismatches or violations (notes apart): their codes."""
    g = audit_record(rec, preset=rules)
    found: dict[int, set[str]] = defaultdict(set)
    for x in (*g.problems, *g.mismatches, *g.violations, *rec.diagnostics):
        found[x.src.line if x.src else 0].add(x.code)
    return dict(found)


def _settled(rec: GameRecord, rules: str | None = None) -> Settlement:
    st = audit_record(rec, preset=rules).settlement
    assert st is not None and st.points is not None
    return st


@pytest.mark.parametrize("text", PANTHEON_GAMES)
def test_pantheon_games_reproduce_their_published_totals(text: str) -> None:
    assert detect(text.encode()) == "pantheon"
    rec = _read(text)
    assert not rec.diagnostics
    engine, _ = verify(rec)
    assert not [f for f in engine.findings if f.severity.value != "info"]
    # The replay's own final scores (sticks left over to first place, as ema says).
    final = list(engine.state.scores)
    if engine.state.kyotaku:
        top = max(range(4), key=lambda p: (final[p], -p))
        final[top] += 1000 * engine.state.kyotaku
    assert final == _header_scores(text)
    assert _problems(rec, "ema") == {}


def test_pantheon_tile_checks_never_fire() -> None:
    rec = _read(PANTHEON_GAMES[0])
    rounds = [ev for ev in rec.events if isinstance(ev, RoundStart)]
    assert rounds and all(r.results_only and r.hands == ((),) * 4 for r in rounds)
    codes = {f.code for f in audit_record(rec, preset="ema").findings}
    assert codes == set()  # no wall, partial-record or hand note on a score sheet


def test_pantheon_wrong_total_is_found_at_the_header() -> None:
    text = PANTHEON_GAMES[0].replace("player1:13700", "player1:13800", 1)
    assert _problems(_read(text), "ema") == {1: {"final-scores-mismatch"}}


def test_pantheon_kiriage_changes_the_published_game() -> None:
    # Game 3 pays a 4 han 30 fu ron 7,700 (ema); under wrc's kiriage it is 8,000, and the
    # published total no longer follows.
    assert _problems(_read(PANTHEON_GAMES[1]), "wrc") == {27 - 26: {"final-scores-mismatch"}}


def test_pantheon_double_ron_and_riichi_sticks() -> None:
    rec = _read(PANTHEON_GAMES[3])
    wins = [(i, ev) for i, ev in enumerate(rec.events) if isinstance(ev, Win)]
    lines = {i: src.line for i, _ in wins if (src := rec.src(i)) is not None}
    double = [(i, w) for i, w in wins if lines.get(i) in (6, 7)]
    # Both wins off player4 (seat 0): player8 (seat 2) and player25 (seat 3); seat 2
    # comes first after the discarder, and takes the sticks.
    assert [(w.winner, w.from_player, w.kyotaku > 0) for _, w in double] \
        == [(2, 0, True), (3, 0, False)]
    assert [lines[i] for i, _ in double] == [6, 7]


def test_pantheon_chombo_costs_twenty_after_uma() -> None:
    rec = _read(PANTHEON_GAMES[4])
    assert any(isinstance(ev, Chombo) and ev.player == 1 for ev in rec.events)
    st = _settled(rec, "ema")
    assert st.corrected == _header_scores(PANTHEON_GAMES[4])
    # 23,300 / 22,100 / 40,600 / 34,000 under ema (uma 15/5/-5/-15, 30,000 back):
    # player2 +10.6 + 15, player14 +4 + 5, player27 -6.7 - 5, player32 -7.9 - 15 - 20.
    assert st.points == [-11.7, -42.9, 25.6, 9.0]
    assert st.penalties == [0.0, 20.0, 0.0, 0.0]


def test_pantheon_bad_statement_has_its_line_and_column() -> None:
    text = PANTHEON_GAMES[0].replace("ron player2 from player3 1han 30fu", "ron player2 frm "
                                     "player3 1han 30fu", 1)
    rec = _read(text)
    assert [(d.code, d.src.line, d.src.column) for d in rec.diagnostics if d.src] \
        == [("sheet-syntax", 2, 13)]
    with pytest.raises(InputError) as err:
        read_bytes(text.encode(), "x", strict=True)
    assert err.value.diagnostic.src is not None and err.value.diagnostic.src.line == 2


# A sheet of our own under wrc (kiriage). Scores after each hand, worked out by hand:
# E1-0  Ben rons Dan, 3 han 30 fu: 3,900.
# E2-0  dealer Ben tsumo 2 han 30 fu, 1,000 all; Cat's riichi stick to Ben: +4,000.
# E2-1  draw, Ann and Ben ready: +1,500 each, Cat and Dan -1,500.
# E2-2  Ann rons Cat 1 han 30 fu: 1,000 + 600 honba; Dan's riichi stick to Ann.
# E3-0  Dan rons Ann 4 han 30 fu: a mangan under kiriage, 8,000.
# E4-0  Ann tsumo 3 han 40 fu after her riichi: 2,600 from dealer Dan, 1,300 each other.
CLEAN = """# ruleset: wrc
hand,result,winner,from,han,fu,points,riichi,ready,Ann,Ben,Cat,Dan
E1-0,ron,Ben,Dan,3,30,,,,30000,33900,30000,26100
E2-0,tsumo,Ben,,2,30,,Cat,,29000,37900,28000,25100
E2-1,draw,,,,,,,Ann Ben,30500,39400,26500,23600
E2-2,ron,Ann,Cat,1,30,,Dan,,33100,39400,24900,22600
E3-0,ron,Dan,Ann,4,30,,,,25100,39400,24900,30600
E4-0,tsumo,Ann,,3,40,,Ann,,30300,38100,23600,28000
"""

# The same hands with three planted mistakes, each carried on by the rows after it:
# line 4: Ben is not given Cat's riichi stick (36,900 for 37,900);
# line 6: labelled E2-1 (honba 1, paid 1,300) where the table is at E2-2;
# line 7: the kiriage mangan paid 7,700.
PLANTED = """# ruleset: wrc
hand,result,winner,from,han,fu,points,riichi,ready,Ann,Ben,Cat,Dan
E1-0,ron,Ben,Dan,3,30,,,,30000,33900,30000,26100
E2-0,tsumo,Ben,,2,30,,Cat,,29000,36900,28000,25100
E2-1,draw,,,,,,,Ann Ben,30500,38400,26500,23600
E2-1,ron,Ann,Cat,1,30,,Dan,,32800,38400,25200,22600
E3-0,ron,Dan,Ann,4,30,,,,25100,38400,25200,30300
E4-0,tsumo,Ann,,3,40,,Ann,,30300,37100,23900,27700
"""


def test_csv_sheet_is_read_by_content() -> None:
    assert detect(CLEAN.encode()) == "csv-sheet"
    rec = _read(CLEAN)
    assert not rec.diagnostics
    riichi = [(rec.src(i), ev.player) for i, ev in enumerate(rec.events)
              if isinstance(ev, RiichiAccepted)]
    assert [(s.line, s.column, p) for s, p in riichi if s] == [(4, 23, 2), (6, 24, 3), (8, 23, 0)]
    draw = next(ev for ev in rec.events if isinstance(ev, ExhaustiveDraw))
    assert draw.hands == ((), (), None, None)


def test_clean_csv_sheet_has_no_findings() -> None:
    rec = _read(CLEAN)
    assert _problems(rec, "wrc") == {}
    assert _settled(rec, "wrc").corrected == [30300, 38100, 23600, 28000]


def test_three_planted_mistakes_are_found_each_at_its_line() -> None:
    found = _problems(_read(PLANTED), "wrc")
    assert found == {
        4: {"win-deltas", "deltas-unbalanced"},  # the stick Ben was not given
        6: {"next-round"},  # honba 1 written, 2 due
        7: {"win-deltas"},  # 7,700 paid for 8,000
    }
    g = audit_record(_read(PLANTED), preset="wrc")
    by_line = {(m.src.line, m.field, m.recorded, m.computed) for m in g.mismatches if m.src}
    assert by_line == {(4, "deltas[1]", 3000, 4000), (6, "honba", 1, 2),
                       (7, "deltas[0]", -7700, -8000), (7, "deltas[3]", 7700, 8000)}
    # The settlement corrects the payments: Ben +1,000, Ann -300, Dan +300.
    assert g.settlement is not None
    assert g.settlement.corrected == [30300 - 300, 37100 + 1000, 23900, 27700 + 300]


# Two hands without written scores, paid by the ruleset. Ben rons Cat 4 han 30 fu, Dan
# (not the dealer) rons Ann for a mangan. ema: 7,700 (no kiriage); wrc: 8,000.
EMA_WRC = """# players: Ann Ben Cat Dan
hand,result,winner,from,han,fu
E1,ron,Ben,Cat,4,30
E2,ron,Dan,Ann,mangan,
"""


def test_kiriage_and_tie_split_uma_change_the_result() -> None:
    rec = _read(EMA_WRC)
    ema = _settled(rec, "ema")
    assert ema.corrected == [22000, 37700, 22300, 38000]
    # ema (uma 15/5/-5/-15, 30,000 back): Dan 8 + 15, Ben 7.7 + 5, Cat -7.7 - 5,
    # Ann -8 - 15.
    assert ema.points == [-23.0, 12.7, -12.7, 23.0]
    wrc = _settled(rec, "wrc")
    assert wrc.corrected == [22000, 38000, 22000, 38000]
    # wrc: Ben and Dan tie on 38,000 and share (15 + 5) / 2; Ann and Cat (-5 - 15) / 2.
    assert wrc.points == [-8 - 10, 8 + 10, -8 - 10, 8 + 10]


def test_csv_errors_have_line_and_column() -> None:
    bad = CLEAN.replace("E2-1,draw", "E2-1,drew", 1).replace("33100,39400", "33100,39k00", 1)
    rec = _read(bad)
    assert [(d.code, d.src.line, d.src.column) for d in rec.diagnostics if d.src] \
        == [("sheet-syntax", 5, 6), ("sheet-syntax", 6, 35)]


def test_csv_sheet_needs_players() -> None:
    with pytest.raises(InputError) as err:
        read_bytes(b"hand,result,winner,from,han,fu\nE1,ron,A,B,1,30\n", "x")
    assert err.value.diagnostic.code == "sheet-syntax"


def test_cli_audits_a_sheet_in_text_and_html(tmp_path: Path) -> None:
    path = tmp_path / "club-night.csv"
    path.write_text(PLANTED, "utf-8")
    text = CliRunner().invoke(main, ["audit", str(path), "--rules", "wrc"])
    assert text.exit_code == 1
    assert "win-deltas [E2-0, Ben [1], line 4:" in text.output
    assert "next-round" in text.output and "corrected from -7700 to -8000" in text.output
    page = tmp_path / "referee.html"
    html = CliRunner().invoke(main, ["audit", str(path), "--rules", "wrc", "--format",
                                     "html", "-o", str(page)])
    assert html.exit_code == 1, html.output
    written = page.read_text("utf-8")
    assert "<html" in written and "win-deltas" in written and "next-round" in written


@pytest.mark.parametrize("text", [CLEAN, PANTHEON_GAMES[3]])
def test_cut_or_damaged_sheets_never_raise_a_traceback(text: str) -> None:
    # Every cut of the text, and each line with a word dropped, reads or is refused
    # with a positioned diagnostic; the audit of what reads never fails.
    variants = [text[:k] for k in range(0, len(text), 7)]
    for n, line in enumerate(text.splitlines()):
        words = line.replace(",", ", ").split(" ")
        for k in range(len(words)):
            lines = text.splitlines()
            lines[n] = " ".join(words[:k] + words[k + 1:]).replace(", ", ",")
            variants.append("\n".join(lines))
    for variant in variants:
        try:
            records = read_bytes(variant.encode(), "x")
        except InputError as exc:
            assert exc.diagnostic.code in ("sheet-syntax", "unknown-format")
            continue
        for rec in records:
            assert all(d.code != "internal-error" for d in rec.diagnostics)
            assert all(f.code != "internal-error" for f in audit_record(rec).findings)


def test_replay_pays_a_sheet_that_writes_no_scores(tmp_path: Path) -> None:
    """``mjlog replay`` of a sheet with no score columns pays each hand under the sheet's
    ruleset (wrc: the kiriage mangan of E3-0), so the table before E4-0 holds the scores
    CLEAN writes after E3-0."""
    bare = "\n".join(",".join(line.split(",")[:9]) for line in CLEAN.splitlines()[1:])
    path = tmp_path / "bare.csv"
    path.write_text("# ruleset: wrc\n# players: Ann, Ben, Cat, Dan\n" + bare + "\n", "utf-8")
    result = CliRunner().invoke(main, ["replay", str(path), "--round", "E4-0", "--turn", "0"])
    assert result.exit_code == 0, result.output
    scores = [int(re.sub(r"\s+\[.*\]$", "", line).split()[-1])
              for line in result.output.splitlines() if line.startswith("seat ")]
    assert scores == [25100, 39400, 24900, 30600], result.output
    assert "unjudged" not in result.output

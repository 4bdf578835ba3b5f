"""Results-only rounds in mjlog notation: a round written with its outcome alone (a round
header with no ``hands`` line, then ``riichi``, ``ron S from N 3han 30fu``, ``tsumo``,
``draw shown=``, ``abort``, ``chombo`` and ``after`` lines) gives exactly the events the
score sheet readers give, and the writer writes sheets back in that form."""

from __future__ import annotations

from dataclasses import replace

import pytest

from mjlog.core.diagnostics import InputError
from mjlog.core.events import Chombo, Comment, Event, GameStart, RoundStart, Win
from mjlog.core.record import GameRecord
from mjlog.formats import read_bytes, write
from mjlog.formats.notation import read as read_notation
from mjlog.formats.notation import write as write_notation
from mjlog.reports.audit import audit_record

from .conftest import ROOT
from .test_sheets import CLEAN, EMA_WRC, PANTHEON_GAMES, PLANTED

SHEETS = [*PANTHEON_GAMES, CLEAN, PLANTED, EMA_WRC]

HEAD = 'mjlog-notation 1\n[Players "Ann" "Ben" "Cat" "Dan"]\n[Ruleset "wrc"]\n'
CLEAN_BY_HAND = HEAD + """\
E1-0
ron S from N 3han 30fu          # Ben rons Dan
after 30000,33900,30000,26100
E2-0
riichi S                        # Ben deals: E Ben, S Cat, W Dan, N Ann
tsumo E 2han 30fu
after 29000,37900,28000,25100
E2-1
draw shown=EN
after 30500,39400,26500,23600
E2-2
riichi W
ron N from S 1han 30fu
after 33100,39400,24900,22600
E3-0
ron S from W 4han 30fu
after 25100,39400,24900,30600
E4-0
riichi S
tsumo S 3han 40fu
after 30300,38100,23600,28000
end
"""
"""The CSV sheet ``CLEAN`` of ``test_sheets.py``, written by hand in notation."""


def _one(text: str) -> GameRecord:
    (rec,) = read_bytes(text.encode(), "x")
    return rec


def _game(events: list[Event]) -> list[Event]:
    """The events after the game start (whose source names the format), comments apart."""
    return [ev for ev in events if not isinstance(ev, GameStart | Comment)]


def _errors(text: str) -> list[tuple[str, int, int]]:
    rec = read_notation(text.encode())[0]
    return [(d.code, d.src.line, d.src.column) for d in rec.diagnostics
            if d.src and d.severity.value == "error"]


@pytest.mark.parametrize("sheet", SHEETS, ids=lambda s: s.splitlines()[1][:30])
def test_sheet_to_notation_and_back_gives_the_same_events(sheet: str) -> None:
    rec = _one(sheet)
    text = write_notation(rec.events)
    assert "hands" not in text  # every round written with its results alone
    (back,) = read_notation(text.encode())
    assert [d for d in back.diagnostics if d.severity.value == "error"] == []
    assert back.events == rec.events
    assert write_notation(back.events) == text


def test_notation_by_hand_gives_the_csv_readers_events() -> None:
    csv, notation = _one(CLEAN), _one(CLEAN_BY_HAND)
    assert not notation.diagnostics
    assert _game(notation.events) == _game(csv.events)
    start = notation.events[0]
    assert isinstance(start, GameStart) and start.ruleset == csv.events[0].ruleset  # type: ignore[union-attr]
    rounds = [ev for ev in notation.events if isinstance(ev, RoundStart)]
    assert len(rounds) == 6 and all(r.results_only for r in rounds)
    # The payments come from the after lines: E2-0's tsumo, Cat's stick to Ben.
    wins = [ev for ev in notation.events if isinstance(ev, Win)]
    assert wins[1].deltas == (-1000, 4000, -1000, -1000) and wins[1].kyotaku == 1


def test_planted_mistakes_are_found_at_the_notation_lines() -> None:
    text = write_notation(_one(PLANTED).events)
    lines = text.splitlines()
    g = audit_record(_one(text), preset="wrc")
    found = {(m.src.line, m.field, m.recorded, m.computed) for m in g.mismatches if m.src}
    tsumo = lines.index("tsumo E 2han 30fu") + 1
    head = lines.index("E2-1", tsumo) + 1 + 3  # the second E2-1 (the first is the draw's)
    mangan = lines.index("ron S from W 4han 30fu") + 1
    assert lines[head - 1] == "E2-1"
    assert found == {(tsumo, "deltas[1]", 3000, 4000), (head, "honba", 1, 2),
                     (mangan, "deltas[0]", -7700, -8000), (mangan, "deltas[3]", 7700, 8000)}


def test_written_deltas_other_than_the_after_line_survive() -> None:
    rec = _one(CLEAN)
    k = next(i for i, ev in enumerate(rec.events) if isinstance(ev, Win))
    events = list(rec.events)
    events[k] = replace(events[k], deltas=())  # type: ignore[arg-type]
    text = write_notation(events)
    assert "ron S from N 3han 30fu deltas=-" in text
    assert read_notation(text.encode())[0].events == events


def test_limits_points_yaku_and_pao() -> None:
    text = HEAD + """E1-0
ron W from S mangan riichi dora:2
E2-0
tsumo N yakuman daisangen pao=S
E3-0
ron E from N 5200
E4-0
tsumo E 2han 30fu
after 40000,20000,20000,20000
end
"""
    rec = _one(text)
    assert not [d for d in rec.diagnostics if d.severity.value == "error"]
    w = [ev for ev in rec.events if isinstance(ev, Win)]
    assert [(x.winner, x.from_player, x.han, x.fu, x.points, x.limit) for x in w] == [
        (2, 1, 5, 0, 0, ""), (0, 0, 0, 0, 0, "yakuman"), (2, 1, 0, 0, 5200, ""),
        (3, 3, 2, 30, 0, "")]
    assert [(y.name, y.han) for y in w[0].yaku] == [("riichi", 0), ("dora", 2)]
    assert w[1].pao == 2  # S of E2 (dealer Ben) is Cat
    assert w[3].deltas == ()  # the previous rounds wrote no scores: nothing to compare
    assert read_notation(write_notation(rec.events).encode())[0].events == rec.events


def test_chombo_and_unstated_abort() -> None:
    text = HEAD.replace("wrc", "ema") + """E1-0
riichi E
chombo S
E1-0 sticks=1
abort
E1-1
draw
end
"""
    rec = _one(text)
    assert not rec.diagnostics
    chombo = [ev for ev in rec.events if isinstance(ev, Chombo)]
    assert chombo == [Chombo(player=1)]
    st = audit_record(rec, preset="ema").settlement
    assert st is not None and st.penalties == [0.0, 20.0, 0.0, 0.0]
    assert read_notation(write_notation(rec.events).encode())[0].events == rec.events


@pytest.mark.parametrize(("body", "code", "line", "col"), [
    ("E1-0\nron S 3han 30fu\n", "bad-result", 5, 16),  # a ron names who dealt in
    ("E1-0\nron S from 3han 30fu\n", "bad-result", 5, 7),  # from takes a wind
    ("E1-0\ntsumo S riichi\n", "bad-result", 5, 1),  # no value
    ("E1-0\nriichi S X\n", "bad-result", 5, 10),
    ("E1-0\nchombo\n", "bad-result", 5, 1),
    ("E1-0\n4m7z\n", "bad-round", 5, 1),  # a move: this round has no hands line
    ("E1-0 dora=9p\nhands ? ? ? ?\nriichi S\n", "bad-result", 6, 1),  # riichi is *
])
def test_results_only_mistakes_say_where(body: str, code: str, line: int, col: int) -> None:
    assert _errors(HEAD + body) == [(code, line, col)]


def test_strict_reading_raises_at_the_first_mistake() -> None:
    with pytest.raises(InputError) as err:
        read_notation((HEAD + "E1-0\nron S 3han 30fu\n").encode(), strict=True)
    assert err.value.diagnostic.src is not None and err.value.diagnostic.src.line == 5


def test_the_writer_refuses_a_results_only_round_with_moves() -> None:
    rec = _one(CLEAN)
    events = list(rec.events)
    ex = read_notation((HEAD + "E1-0 dora=9p\nhands ? ? ? ?\n9m'\n").encode())[0].events
    events.insert(2, ex[2])  # a draw and discard into the sheet's first round
    events.insert(3, ex[3])
    with pytest.raises(InputError) as err:
        write("notation", events)
    assert err.value.diagnostic.code == "cannot-write"
    assert "results-only" in err.value.diagnostic.message


def test_the_example_of_the_docs_reads_and_settles() -> None:
    doc = (ROOT / "docs" / "notation.md").read_text("utf-8").split("## Results-only rounds")[1]
    block = doc.split("```\n")[1]
    rec = _one(block)
    assert not rec.diagnostics
    # By hand (ema): E1-0 Ben +3,900 from Dan; E2-0 Cat's stick and 1,000 all to Ben;
    # E2-1 Ben and Ann ready, +1,500 each; E2-2 Dan and Ann put a stick each, Ann rons
    # Cat for 8,000 + 600 honba + 2,000 in sticks, Dan rons Cat for 1,300; E3-0 Ann's
    # chombo (20 after uma) and an abort; E3-1 Cat tsumo 500 all + 100 each honba.
    g = audit_record(rec, preset="ema")
    assert [(f.code, f.src.line if f.src else 0) for f in g.findings] == [("chombo-written", 18)]
    assert g.settlement is not None
    assert g.settlement.corrected == [39500, 38800, 18400, 23300]
    assert g.settlement.penalties == [20.0, 0.0, 0.0, 0.0]
    wrc = audit_record(rec, preset="wrc")
    assert [(v.code, v.src.line if v.src else 0) for v in wrc.violations] == [("double-ron", 16)]


@pytest.mark.parametrize("sheet", [CLEAN, PANTHEON_GAMES[3], PANTHEON_GAMES[4]],
                         ids=["csv", "double-ron", "chombo"])
def test_damaged_results_only_notation_reads_and_writes_back(sheet: str) -> None:
    # Every cut of the text and every line with one word dropped reads with diagnostics
    # at most (never a traceback); whatever reads writes back to the very same events.
    text = write_notation(_one(sheet).events)
    variants = [text[:k] for k in range(0, len(text), 11)]
    lines = text.splitlines()
    for n, line in enumerate(lines):
        words = line.split(" ")
        for k in range(len(words)):
            variants.append("\n".join([*lines[:n], " ".join(words[:k] + words[k + 1:]),
                                       *lines[n + 1:]]))
    for variant in variants:
        for rec in read_notation(variant.encode()):
            if not rec.events or not isinstance(rec.events[0], GameStart):
                continue
            again = read_notation(write_notation(rec.events).encode())[0]
            assert again.events == rec.events, variant

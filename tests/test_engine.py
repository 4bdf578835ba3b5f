"""The replay engine: full table state, and one finding per kind of inconsistency.

Each test takes a consistent game of our own, breaks one thing, and checks that
exactly the expected finding comes out while the replay goes on to the end.
"""

from __future__ import annotations

import dataclasses

import pytest

from mjlog.core.events import (
    Chi,
    Discard,
    Draw,
    Event,
    ExhaustiveDraw,
    GameEnd,
    RoundEnd,
    RoundStart,
    Win,
)
from mjlog.core.record import GameRecord
from mjlog.core.ruleset import preset
from mjlog.core.tiles import UNKNOWN, Tile
from mjlog.families.registry import random_game
from mjlog.formats import notation, serialize
from mjlog.replay.engine import Engine, replay
from mjlog.replay.observer import Observer
from mjlog.reports.audit import audit_record

from .conftest import EXAMPLES


def _events(name: str = "east-riichi") -> list[Event]:
    recs = serialize.read((EXAMPLES / f"{name}.jsonl").read_bytes())
    assert len(recs) == 1 and not recs[0].diagnostics
    return recs[0].events


def _codes(events: list[Event]) -> list[str]:
    engine = Engine()
    engine.run(events)
    return [f.code for f in engine.findings]


def _index(events: list[Event], cls: type, nth: int = 0) -> int:
    return [i for i, e in enumerate(events) if isinstance(e, cls)][nth]


def test_examples_replay_clean_with_full_state() -> None:
    events = _events()
    engine = Engine()
    win_at = _index(events, Win)
    engine.run(events[:win_at])
    s = engine.state
    assert s.players[1].riichi and s.kyotaku == 1 and s.scores[1] == 24000
    assert len(s.players[1].concealed) == 13
    assert s.live_wall == 70 - 11 and s.turn == 22
    assert [len(p.river) for p in s.players] == [3, 3, 3, 2]
    engine.run(events, start=win_at)
    assert engine.findings == []
    assert engine.state.scores == [25000, 27600, 22400, 25000] and engine.state.kyotaku == 0
    assert _codes(_events("east-ron")) == []


def test_discard_not_in_hand() -> None:
    ev = _events()
    i = _index(ev, Discard, 5)
    d = ev[i]
    assert isinstance(d, Discard)
    ev[i] = dataclasses.replace(d, tile=Tile(135 if d.tile != 135 else 134))
    codes = _codes(ev)
    assert "discard-not-in-hand" in codes
    # the replay goes on: later rounds still start from the right scores
    assert "start-scores-mismatch" not in codes


def test_draw_out_of_turn() -> None:
    ev = _events()
    i = _index(ev, Draw, 3)
    d = ev[i]
    assert isinstance(d, Draw)
    ev[i] = dataclasses.replace(d, player=(d.player + 1) % 4)
    assert _codes(ev)[0] == "out-of-turn"


def test_discard_out_of_turn() -> None:
    ev = _events()
    i = _index(ev, Draw, 2)
    del ev[i]  # seat 2 never draws, then discards
    assert "out-of-turn" in _codes(ev)


def test_tile_used_twice() -> None:
    ev = _events()
    rs_i = _index(ev, RoundStart, 1)
    rs = ev[rs_i]
    assert isinstance(rs, RoundStart)
    i = _index(ev, Draw, 20)  # a draw in East 2
    d = ev[i]
    assert isinstance(d, Draw) and i > rs_i
    ev[i] = dataclasses.replace(d, tile=rs.dora_indicator)
    nxt = ev[i + 1]
    assert isinstance(nxt, Discard)
    ev[i + 1] = dataclasses.replace(nxt, tile=rs.dora_indicator)
    assert _codes(ev) == ["tile-reused"]


def test_live_wall_below_zero() -> None:
    ev = _events()
    end = _index(ev, ExhaustiveDraw, 0)
    last_discard = ev[end - 1]
    assert isinstance(last_discard, Discard)
    p = (last_discard.player + 1) % 4
    spare = Tile(116)  # the ura indicator of East 1: not in play in East 2
    ev[end:end] = [Draw(player=p, tile=spare), Discard(player=p, tile=spare, tsumogiri=True)]
    assert _codes(ev) == ["wall-exhausted"]


def test_call_of_a_tile_that_is_not_the_last_discard() -> None:
    ev = _events()
    i = _index(ev, Discard, 4)
    d = ev[i]
    assert isinstance(d, Discard)
    caller = (d.player + 1) % 4
    chi = Chi(player=caller, from_player=d.player, called=Tile(d.tile ^ 1),
              tiles=(Tile(d.tile ^ 1), Tile(0), Tile(1)))
    ev.insert(i + 1, chi)
    codes = _codes(ev)
    assert codes[:2] == ["call-not-last-discard", "call-not-in-hand"]


def test_unbalanced_deltas_and_wrong_end_scores() -> None:
    ev = _events()
    i = _index(ev, Win)
    w = ev[i]
    assert isinstance(w, Win)
    ev[i] = dataclasses.replace(w, deltas=(0, 3700, -2600, 0))
    codes = _codes(ev)
    assert codes[:2] == ["deltas-unbalanced", "round-end-scores-mismatch"]


def test_round_starting_with_other_scores() -> None:
    ev = _events()
    i = _index(ev, RoundStart, 2)
    rs = ev[i]
    assert isinstance(rs, RoundStart)
    ev[i] = dataclasses.replace(rs, scores=(rs.scores[0] + 1000, rs.scores[1] - 1000,
                                            *rs.scores[2:]))
    # The replay follows the round's own start, so the round's recorded payment and end
    # (which follow the old scores) and the next round's start disagree with it too.
    assert _codes(ev) == ["start-scores-mismatch", "result-scores-mismatch",
                          "round-end-scores-mismatch", "start-scores-mismatch"]


def test_final_scores() -> None:
    ev = _events()
    end = ev[-1]
    assert isinstance(end, GameEnd) and end.scores is not None
    ev[-1] = dataclasses.replace(end, scores=(end.scores[1], end.scores[0], *end.scores[2:]))
    assert _codes(ev) == ["final-scores-mismatch"]


def test_win_with_another_hand() -> None:
    ev = _events()
    i = _index(ev, Win)
    w = ev[i]
    assert isinstance(w, Win)
    ev[i] = dataclasses.replace(w, hand=(*w.hand[:-1], Tile(135)))
    assert _codes(ev) == ["win-hand-mismatch"]


def test_seat_outside_the_table_is_a_finding_not_a_crash() -> None:
    ev = _events()
    i = _index(ev, Draw, 0)
    ev[i] = Draw(player=7, tile=Tile(3))
    codes = _codes(ev)
    assert "unreplayable-event" in codes or "out-of-turn" in codes


def test_a_flower_drawn_at_a_table_without_flowers_is_a_finding_not_a_crash() -> None:
    """Found by the writers' fuzz test: the draw of a flower (tile 136) in a riichi round
    went into the hand, and counting who was ready at the round's exhaustive draw failed."""
    ev = _events()
    i = _index(ev, RoundStart, 1) + 1
    d = ev[i]
    assert isinstance(d, Draw)
    ev[i] = dataclasses.replace(d, tile=Tile(136))
    end = next(e for e in ev[i:] if isinstance(e, ExhaustiveDraw | Win))
    assert isinstance(end, ExhaustiveDraw)  # the round's end counts the hands
    report = audit_record(GameRecord(path="flower", format="jsonl", events=ev), wall=False)
    codes = [f.code for f in report.findings]
    assert "unreplayable-event" in codes and "internal-error" not in codes


def test_a_tile_a_three_player_table_does_not_hold_is_a_finding() -> None:
    """A three-player table has no manzu from 2 to 8: a draw of 3m is named at once, not
    taken into the hand (where only the moves after it showed that something was wrong)."""
    ev = list(random_game(preset("tenhou-sanma"), 5).events)
    assert _codes(ev) == []
    i = _index(ev, Draw, 0)
    d = ev[i]
    assert isinstance(d, Draw)
    ev[i] = dataclasses.replace(d, tile=Tile(8))
    assert _codes(ev)[0] == "unreplayable-event"


def _riichi_win(ev: list[Event]) -> tuple[int, Win]:
    return next((i, e) for i, e in enumerate(ev) if isinstance(e, Win) and e.ura_indicators
                and any(y.name == "riichi" for y in e.yaku))


def test_a_flower_among_a_wins_tiles_is_a_finding_not_a_crash() -> None:
    """Found by putting a flower in each tile field of the examples: a riichi win's ura
    indicator was valued as a tile and the valuation failed."""
    ev = _events()
    i, win = _riichi_win(ev)
    ev[i] = dataclasses.replace(win, ura_indicators=(Tile(136),))
    report = audit_record(GameRecord(path="flower", format="jsonl", events=ev), wall=False)
    codes = [f.code for f in report.findings]
    assert "unreplayable-event" in codes and "internal-error" not in codes


def test_an_ura_indicator_nobody_wrote_down_convicts_nobody() -> None:
    """The unknown tile as a riichi win's ura indicator: its value is not verified (a
    note), and the indicator is no reused tile."""
    ev = _events()
    i, win = _riichi_win(ev)
    ev[i] = dataclasses.replace(win, ura_indicators=(UNKNOWN,))
    report = audit_record(GameRecord(path="unknown", format="jsonl", events=ev), wall=False)
    assert [f.code for f in report.findings] == ["unjudged"]
    assert "a dora indicator nobody wrote down" in report.findings[0].message
    assert report.mismatches == []


def test_findings_carry_round_turn_player_and_position() -> None:
    recs = serialize.read((EXAMPLES / "east-riichi.jsonl").read_bytes())
    rec: GameRecord = recs[0]
    i = _index(rec.events, Discard, 5)
    d = rec.events[i]
    assert isinstance(d, Discard)
    rec.events[i] = dataclasses.replace(d, tile=Tile(135))
    f = replay(rec).findings[0]
    assert f.code == "discard-not-in-hand" and f.round == "E1-0" and f.player == d.player
    assert f.turn == 12 and f.src is not None and f.src.line == i + 1


@pytest.mark.parametrize("name", ["east-ron", "east-riichi"])
def test_round_end_scores_follow_the_results(name: str) -> None:
    ev = _events(name)
    engine = Engine()
    for i, e in enumerate(ev):
        engine.apply(e, i)
        if isinstance(e, RoundEnd):
            assert e.scores == tuple(engine.state.scores)
    assert engine.findings == []


@pytest.mark.parametrize("observed", [False, True])
def test_the_dealers_first_discard_ends_the_taiwanese_deal(observed: bool) -> None:
    """The dealer starts a Taiwanese round with 17 tiles and discards before anyone draws.
    Applied inline (no observer looking at discards) that discard once left the table
    dealing, and the next player's discard was out of turn; it is the same with an
    observer of every draw and discard, which takes the same inline path."""
    class Every(Observer):
        def before_draw(self, ev: object) -> None: ...
        def after_discard(self, ev: object) -> None: ...

    (rec,) = notation.read((EXAMPLES / "17-taiwan-whole-game.mjn").read_bytes())
    engine = replay(rec, [Every()] if observed else [])
    assert [f.code for f in engine.findings if f.severity.value == "error"] == []
    assert engine.rounds > 1

"""The referee's furiten, counted when asked, against furiten counted at every move.

:class:`~mjlog.families.riichi.rules.referee.RiichiReferee` counts a player's waits only when a
check
or the viewer asks, and goes through the tiles passed since the player's last discard
then. :class:`_EveryMove` here keeps furiten the plain way (every player's waits after
the deal and after each of its discards, each passed tile judged at once against every
player), and the two must say the same for every seat after every event of random games
whose players often let a winning tile pass.
"""

from __future__ import annotations

import pytest

from mjlog.core.events import AddedKan, Discard, Event, RoundStart
from mjlog.core.ruleset import PRESETS
from mjlog.core.tiles import KIND_OF, tile_str
from mjlog.families.riichi.players import RandomGame, Style
from mjlog.families.riichi.rules.evidence import kinds_text
from mjlog.families.riichi.rules.referee import RiichiReferee, hand_waits
from mjlog.families.riichi.scoring.verify import WinValues
from mjlog.replay.engine import Engine
from mjlog.replay.observer import Observer


class _EveryMove(Observer):
    """Furiten kept at every move, for each seat: waits, discarded kinds, passed tiles."""

    def __init__(self, engine: Engine, red: bool) -> None:
        self.engine, self.red = engine, red
        self.waits: list[int] = []
        self.river: list[int] = []
        self.passed: list[str] = []
        self.riichi: list[str] = []
        self.pending: tuple[int, int, str] | None = None

    def after_round_start(self, ev: RoundStart) -> None:
        n = len(ev.hands)
        self.waits = [hand_waits(ps) for ps in self.engine.state.players]  # the dealt hands
        self.river, self.passed, self.riichi = [0] * n, [""] * n, [""] * n
        self.pending = None

    def settle(self, ev: Event) -> None:
        if self.pending is None:
            return
        p, tile, what = self.pending
        self.pending = None
        s = self.engine.state
        for q in range(s.n):
            if q != p and self.waits[q] >> KIND_OF[tile] & 1:
                note = f"{tile_str(tile, self.red)} ({what} of player {p}, turn {s.turn})"
                self.passed[q] = self.passed[q] or note
                if s.players[q].riichi and not self.riichi[q]:
                    self.riichi[q] = note

    before_draw = before_chi = before_pon = before_open_kan = before_kita = settle
    before_exhaustive_draw = settle

    def after_discard(self, ev: Discard) -> None:
        p = ev.player
        self.passed[p] = ""
        self.river[p] |= 1 << KIND_OF[ev.tile]
        self.waits[p] = hand_waits(self.engine.state.players[p])
        self.pending = (p, ev.tile, "discard")

    def after_added_kan(self, ev: AddedKan) -> None:
        self.pending = (ev.player, ev.added, "added kan")

    def furiten(self, p: int) -> str:
        own = self.waits[p] & self.river[p]
        if own:
            return f"furiten: waits on {kinds_text(own)}, discarded"
        if self.riichi[p]:
            return f"riichi furiten: passed {self.riichi[p]}"
        return f"temporary furiten: passed {self.passed[p]}" if self.passed[p] else ""


@pytest.mark.parametrize("seed", range(12))
def test_furiten_counted_when_asked_is_furiten_counted_at_every_move(seed: int) -> None:
    rules = PRESETS["tenhou"]
    rec = RandomGame(rules, seed, Style(win=0.3, riichi=0.8)).play()
    engine = Engine(rec.src)
    referee = RiichiReferee(rec, rules, engine, WinValues(rules))
    plain = _EveryMove(engine, rules.red_fives)
    said = 0
    for i in range(len(rec.events)):
        engine.run(rec.events, [referee, plain], start=i, stop=i + 1)
        if not plain.waits:
            continue
        for p in range(engine.state.n):
            assert referee.furiten(p) == plain.furiten(p), (i, p)
            said += bool(plain.furiten(p))
    assert said > 0  # the games do let winning tiles pass

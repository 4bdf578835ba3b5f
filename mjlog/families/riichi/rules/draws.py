"""Abortive draws and multiple rons: the riichi family's checks of how a round ends
(``docs/rules.md`` section 7)."""

from __future__ import annotations

from dataclasses import dataclass

from mjlog.core.events import (
    AbortiveDraw,
    AddedKan,
    ClosedKan,
    Discard,
    OpenKan,
    RiichiAccepted,
    RoundStart,
    Win,
)
from mjlog.core.ruleset import Ruleset
from mjlog.core.tiles import KIND_OF
from mjlog.families.check import Rule
from mjlog.families.riichi.rules.referee import RiichiCheck, RiichiReferee

_TERMINALS_HONOURS = frozenset({0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33})
_WINDS = frozenset({27, 28, 29, 30})


class DoubleRon(RiichiCheck):
    """Two rons on one tile only where the ruleset allows double ron; else only the
    first in turn order from the discarder wins (頭ハネ).

    Violating under tenhou double_ron=false::

        E1-0 dora=9p
        hands 123m456p789s1122z 23m456p789s555z99s 23m567p234s666z88s ?
        4m'
        ron S 40fu 1300
        ron W 40fu 1300

    Legal under tenhou double_ron=false::

        E1-0 dora=9p
        hands 123m456p789s1122z 23m456p789s555z99s ? ?
        4m'
        ron S 40fu 1300
    """

    RULES = (Rule("double-ron", "7", "Two rons on one tile only where double ron is "
                  "allowed.", False),)
    OPTION = "double_ron"

    @classmethod
    def enabled(cls, rules: Ruleset) -> bool:
        return not rules.double_ron

    def before_win(self, ev: Win) -> None:
        if ev.from_player != ev.winner and len(self.ref.wins_in_row) >= 2:
            self.ref.violation(self.RULES[0], "another ron on the same tile, where only the "
                               "first in turn order may win", ev.winner, move=False)


@dataclass(slots=True)
class _AbortMemory:
    due: str = ""
    """The abortive draw the round should have ended in, until play goes on past it."""
    four_kans_armed: bool = False
    """A fourth kan by more than one player: the round ends after the next discard."""
    riichi: int = 0


class Abortive(RiichiCheck):
    """An abortive draw only when its condition holds and the ruleset plays it; and a
    round whose condition holds ends there (四風連打, 四家立直, 四開槓, 三家和, a fifth kan
    where it ends the round).

    Violating abortive-unjustified::

        E1-0 dora=9p
        hands 123m456p789s1122z ? ? ?
        5m
        abort nine-terminals

    Violating abortive-missed::

        E1-0 dora=9p
        hands 123m456p789s1234z ? ? ?
        9m1z 1z' 1z' 1z'
        9m'

    Legal::

        E1-0 dora=9p
        hands 123m456p789s1234z ? ? ?
        9m1z 1z' 1z' 1z'
        abort four-winds
    """

    RULES = (
        Rule("abortive-unjustified", "7", "An abortive draw only when its condition holds and "
             "the ruleset has it.", True),
        Rule("abortive-missed", "7", "A round whose abortive condition holds ends there "
             "(四風連打, 四家立直, 四開槓, 三家和).", False),
    )

    dormant = frozenset({"before_draw", "after_discard"})
    """Draws are judged only while an abortive draw is due; discards only in the first
    go-around (四風連打) and after a fourth kan (四開槓)."""

    def __init__(self, referee: RiichiReferee) -> None:
        super().__init__(referee)
        self.mem = _AbortMemory()

    def before_round_start(self, ev: RoundStart) -> None:
        self.mem = _AbortMemory()
        self.rest("before_draw")
        self.wake("after_discard")

    def _due(self, why: str) -> None:
        self.mem.due = why
        self.wake("before_draw")

    def _missed(self, ev: object) -> None:
        if self.mem.due:
            self.ref.violation(self.RULES[1], f"play goes on although the round ends in an "
                               f"abortive draw ({self.mem.due})", None)
            self.mem.due = ""
            self.rest("before_draw")

    before_draw = before_chi = before_pon = before_open_kan = before_exhaustive_draw = _missed

    def before_win(self, ev: Win) -> None:
        if ev.from_player != ev.winner and len(self.ref.wins_in_row) == 3 \
                and self.ref.rules.riichi.triple_ron:
            self.ref.violation(self.RULES[1], "three rons on one tile are recorded as wins; "
                               "the ruleset makes it an abortive draw (三家和)", ev.winner,
                               move=False)

    def after_discard(self, ev: Discard) -> None:
        mem = self.mem
        s = self.ref.engine.state
        if mem.four_kans_armed:
            mem.four_kans_armed = False
            self._due("四開槓, four kans by more than one player")
        if s.turn == 8 and not s.calls and self.ref.rules.riichi.four_winds and s.n == 4:
            kinds = {KIND_OF[q.river[0].tile] for q in s.players if len(q.river) == 1}
            if len(kinds) == 1 and kinds <= _WINDS and all(len(q.river) == 1 for q in s.players):
                self._due("四風連打, four winds discarded")
        if s.turn >= 8:  # past the first go-around; a turn never goes back in a round
            self.rest("after_discard")

    def after_riichi_accepted(self, ev: RiichiAccepted) -> None:
        self.mem.riichi += 1
        if self.mem.riichi == 4 and self.ref.rules.riichi.four_riichi \
                and self.ref.engine.state.n == 4:
            self._due("四家立直, four players in riichi")

    def after_open_kan(self, ev: OpenKan | AddedKan | ClosedKan) -> None:
        kans = self.ref.kan_players
        if len(kans) == 5:
            self._due("a fifth kan")
        elif len(kans) == 4 and len(set(kans)) > 1 \
                and self.ref.rules.riichi.four_kans != "no-abort":
            self.mem.four_kans_armed = True
            self.wake("after_discard")

    after_added_kan = after_closed_kan = after_open_kan

    def before_abortive_draw(self, ev: AbortiveDraw) -> None:
        why = self._unjustified(ev.kind)
        if why:
            self.ref.violation(self.RULES[0], f"abortive draw ({ev.kind}): {why}", None,
                               move=False)
        self.mem.due = ""
        self.rest("before_draw")

    def _unjustified(self, kind: str) -> str:
        """Why an abortive draw of ``kind`` may not end the round here (empty: it may)."""
        rules = self.ref.rules.riichi
        if kind == "nine-terminals":
            return self._nine_terminals()
        if kind == "four-winds":
            if not self.mem.due.startswith("四風連打"):
                return "the first four discards are not one wind, uncalled"
            return "" if rules.four_winds else "the ruleset has no 四風連打"
        if kind == "four-riichi":
            if self.mem.riichi < 4:
                return f"only {self.mem.riichi} riichi"
            return "" if rules.four_riichi else "the ruleset has no 四家立直"
        if kind == "four-kans":
            kans = self.ref.kan_players
            if len(kans) < 4 or (len(set(kans)) == 1 and len(kans) == 4):
                return f"{len(kans)} kans, by players {', '.join(map(str, kans)) or 'nobody'}"
            return "the ruleset has no 四開槓" if rules.four_kans == "no-abort" else ""
        if kind == "triple-ron" and not rules.triple_ron:
            return "the ruleset has no 三家和"
        return ""

    def _nine_terminals(self) -> str:
        s = self.ref.engine.state
        p = s.to_discard
        ps = s.players[p] if p >= 0 else None
        kinds = {KIND_OF[t] for t in ps.concealed} & _TERMINALS_HONOURS if ps else set()
        if not self.ref.rules.riichi.nine_terminals:
            return "the ruleset has no 九種九牌"
        if ps is None or ps.river or s.calls:
            return "not on the player's first draw of an uninterrupted go-around"
        if len(kinds) + ps.unknown < 9:
            return f"only {len(kinds)} different terminals and honours in hand" + (
                f" and {ps.unknown} unknown tiles" if ps.unknown else "")
        if len(kinds) < 9:
            self.ref.unjudged(self.RULES[0], f"{ps.unknown} tiles of the hand are unknown "
                              "(?), so whether it holds nine terminals and honours is", p)
        return ""


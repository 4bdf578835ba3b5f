"""The call and riichi checks of the riichi family (``docs/rules.md`` section 7)."""

from __future__ import annotations

from mjlog.core.events import AddedKan, Chi, ClosedKan, Discard, OpenKan, Pon, RoundStart
from mjlog.core.ruleset import Ruleset
from mjlog.core.tiles import KIND_OF, UNKNOWN
from mjlog.families.check import Rule
from mjlog.families.riichi.rules.referee import RiichiCheck, counts, hand_waits, meld_text
from mjlog.replay.state import PlayerState


class ChiFromLeft(RiichiCheck):
    """A chi takes only the discard of the player on the left; three-player games have
    no chi.

    Violating::

        E1-0 dora=9p
        hands 123m456p789s1122z ? ? ?
        4m' W:chi23m 9s

    Legal::

        E1-0 dora=9p
        hands 123m456p789s1122z ? ? ?
        4m' S:chi23m 9s
    """

    RULES = (Rule("chi-not-from-left", "7", "Chi only from the player on the left; no chi "
                  "in three-player.", True),)

    def before_chi(self, ev: Chi) -> None:
        n = self.ref.engine.state.n
        p = ev.player
        if n == 3:
            self.ref.violation(self.RULES[0], "chi in a three-player game", p)
        elif ev.from_player != (p - 1) % n:
            self.ref.violation(self.RULES[0], f"chi from player {ev.from_player}, who is not "
                               f"on the left of player {p}", p)


class Kuikae(RiichiCheck):
    """No swap-calling: right after a chi or pon, the called tile may not be discarded
    (``same``), nor the other end of the run (``both``).

    Violating::

        E1-0 dora=9p
        hands 123m456p789s1122z ? ? ?
        4m' S:chi23m 4m

    Legal::

        E1-0 dora=9p
        hands 123m456p789s1122z ? ? ?
        4m' S:chi56m 7p
    """

    RULES = (Rule("kuikae", "7", "No swap-calling: after a chi or pon, not the same tile (nor "
                  "the other end of the run, by ruleset).", True),)
    OPTION = "kuikae"

    dormant = frozenset({"before_discard"})
    """Only the discard that follows a chi or pon is judged (woken by the call)."""

    @classmethod
    def enabled(cls, rules: Ruleset) -> bool:
        return rules.riichi.kuikae != "allowed"

    def after_chi(self, ev: Chi | Pon) -> None:
        self.wake("before_discard")

    after_pon = after_chi

    def before_discard(self, ev: Discard) -> None:
        seats = self.ref.seats
        if all(seat.just_called is None for q, seat in enumerate(seats) if q != ev.player):
            self.rest("before_discard")  # no call waits for its discard after this one
        call = seats[ev.player].just_called
        if call is None:
            return
        k = KIND_OF[ev.tile]
        called = KIND_OF[call.called]
        other = -1
        if isinstance(call, Chi) and self.ref.rules.riichi.kuikae == "both":
            low = min(KIND_OF[t] for t in call.tiles)
            if called == low and low % 9 <= 5:
                other = low + 3
            elif called == low + 2 and low % 9 >= 1:
                other = low - 1
        if k in (called, other):
            ref = self.ref
            what = "the tile it called" if k == called else "the other end of the run"
            ref.violation(self.RULES[0], f"discards {ref.t(ev.tile)}, {what}, right after "
                          f"{call.TYPE} of {ref.t(call.called)}", ev.player,
                          evidence=(("call", meld_text(call, ref.rules.red_fives)),
                                    ref.picture(ev.player)))


class RiichiCall(RiichiCheck):
    """After riichi the only call is a closed kan.

    Violating::

        E1-0 dora=9p
        hands 123m456p789s1122z 23m456p789s55z111s ? ?
        9m' 8m'* 9p' 8p'
        5z' S:pon55z 1s

    Legal::

        E1-0 dora=9p
        hands 123m456p789s1122z 23m567p234s555z77z ? ?
        9m' 8m8m* 8p' 9s'
        1z' 5z ankan5z dora:4m 1p'
    """

    RULES = (Rule("riichi-call", "7", "After riichi the only call is a closed kan.", True),)

    def before_chi(self, ev: Chi | Pon | OpenKan | AddedKan) -> None:
        if self.ref.engine.state.players[ev.player].riichi:
            what = "added kan" if isinstance(ev, AddedKan) else ev.TYPE
            self.ref.violation(self.RULES[0], f"{what} after riichi", ev.player)

    before_pon = before_open_kan = before_added_kan = before_chi


class RiichiHandChanged(RiichiCheck):
    """After riichi the drawn tile is discarded, unless it wins or makes a kan.

    Violating::

        E1-0 dora=9p
        hands 123m456p789s1122z 23m456p789s555z99s ? ?
        9m' 8m'* 9p' 8p'
        7p' 5p9s

    Legal::

        E1-0 dora=9p
        hands 123m456p789s1122z 23m456p789s555z99s ? ?
        9m' 8m'* 9p' 8p'
        7p' 5p'
    """

    RULES = (Rule("riichi-hand-changed", "7", "After riichi the drawn tile is discarded "
                  "unless it wins or makes a kan.", True),)

    dormant = frozenset({"before_discard"})
    """Only the discards of a round after its first riichi are judged (woken by it)."""

    def before_round_start(self, ev: RoundStart) -> None:
        self.rest("before_discard")

    def before_discard(self, ev: Discard) -> None:
        if ev.riichi:
            self.wake("before_discard")
        ref, p = self.ref, ev.player
        seat = ref.seats[p]
        ps = ref.engine.state.players[p]
        if not ps.riichi or seat.just_called is not None or ev.tile == seat.last_draw \
                or ev.tile not in ps.concealed:
            return
        if seat.last_draw == UNKNOWN:
            ref.unjudged(self.RULES[0], f"the tile drawn before the discard of "
                         f"{ref.t(ev.tile)} is unknown (?)", p)
        else:
            ref.violation(self.RULES[0], f"discards {ref.t(ev.tile)} from hand after riichi, "
                          f"keeping the {ref.t(seat.last_draw)} drawn", p,
                          evidence=(ref.picture(p),))


NOT_READY = "the hand is not tenpai"
"""How a riichi on a hand that is not ready is said (the fault a concealed hand hides)."""


class RiichiIllegal(RiichiCheck):
    """Riichi needs a closed tenpai hand, the points for the stick and enough tiles left
    in the wall, and is declared once.

    Violating::

        E1-0 dora=9p
        hands 123m456p789s1122z 14m456p789s555z99s ? ?
        9m' 8m'* 9p' 8p'

    Legal::

        E1-0 dora=9p
        hands 123m456p789s1122z 23m456p789s555z99s ? ?
        9m' 8m'* 9p' 8p'
    """

    RULES = (Rule("riichi-illegal", "7", "Riichi needs a closed tenpai hand, the points for "
                  "the stick and enough tiles left in the wall.", True),)
    OPTION = "riichi_min_score"
    dormant = frozenset({"before_discard"})
    """A plain discard declares no riichi: only the others are judged."""

    def before_discard(self, ev: Discard) -> None:
        if not ev.riichi:
            return
        ref, p = self.ref, ev.player
        problems = self._problems(ev, ref.engine.state.players[p])
        if problems:  # a hand not ready is the one fault only the concealed hand shows
            ref.violation(self.RULES[0], "riichi declared although " + "; ".join(problems), p,
                          evidence=(ref.picture(p),),
                          hidden=len(problems) == 1 and problems[0].startswith(NOT_READY))

    def _problems(self, ev: Discard, ps: PlayerState) -> list[str]:
        ref, p = self.ref, ev.player
        s = ref.engine.state
        rules = ref.rules.riichi
        problems = []
        if ps.riichi:
            problems.append("the player is already in riichi")
        if any(not isinstance(m, ClosedKan) for m in ps.melds):
            problems.append("the hand is open")
        if rules.riichi_min_score and s.scores[p] < rules.riichi_min_score:  # 0: none
            problems.append(f"{s.scores[p]} points, fewer than the {rules.riichi_min_score} "
                            "the stick needs")
        need = rules.riichi_min_wall or s.n
        if s.live_wall < need:
            problems.append(f"{s.live_wall} tiles left in the live wall, fewer than {need}")
        if ps.unknown:
            ref.unjudged(self.RULES[0], f"{ps.unknown} tiles of the hand are unknown (?), so "
                         "whether it is tenpai is", p)
        elif ev.tile in ps.concealed and counts(ps, ev.tile) is not None \
                and not hand_waits(ps, ev.tile):
            problems.append(f"{NOT_READY} after discarding {ref.t(ev.tile)}")
        return problems

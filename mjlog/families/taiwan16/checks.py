"""The checks of the ``taiwan16`` family (``docs/rules.md`` sections 3 and 4).

Who may win (過水, a dead hand, a false win), which rons stand (no robbing a
closed kan, one ron per tile), T1-T5, and the flowers (kept, discarded,
robbed, set aside out of the procedure's order). Examples are Taiwanese
rounds: E is the dealer and holds 17 tiles; ``dice=1,1,3`` opens the wall at
the dealer.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from mjlog.core.events import (
    Chi,
    ClosedKan,
    Discard,
    Draw,
    Flower,
    OpenKan,
    Pon,
    RoundStart,
    Win,
)
from mjlog.core.tiles import KIND_OF, NUM_KINDS, kind_str, tile_str
from mjlog.families.check import Rule
from mjlog.families.riichi.rules.evidence import kinds_text
from mjlog.families.taiwan16.hand import partner_waits
from mjlog.families.taiwan16.referee import TaiwanCheck, TaiwanReferee

_FALSE_WIN = "false win (詐胡): the win is void"


class WhoMayWin(TaiwanCheck):
    """A win needs a live, complete hand, and no 過水: a dead hand (暗相, 明相) may not
    win; a hand that is no win (five sets and a pair, 嚦咕嚦咕, 十六不搭 or a flower win)
    is 詐胡; a player who passed a win may not win until a discard from a hand that
    was not complete, or an added kan (過水).

    Violating guo-shui::

        E1-0 dice=1,1,3
        hands 1488999p1122336677z 123456789m23p12355s 456789m567p4566789s 123456m123567p89s44z
        1p 4p
        tsumo S

    Violating false-win::

        E1-0 dice=1,1,3
        hands 1488999p1122336677z 123456789m23p12355s 456789m567p4566789s 123456m123567p89s44z
        1z 7z
        tsumo S

    Violating dead-hand-win::

        E1-0 dice=1,1,3
        hands 1488999p1f122336677z 123456789m23p12355s 456789m567p4566789s 123456m123567p89s44z
        9p 2z' 3z' 8s' 4p
        tsumo E

    Legal::

        E1-0 dice=1,1,3
        hands 1488999p1122336677z 123456789m23p12355s 456789m567p4566789s 123456m123567p89s44z
        1p 7z' 9s' 8s' 1z4p
        ron S
    """

    RULES = (
        Rule("guo-shui", "3", "A player who passed a win (過水) may not win until a discard "
             "from an incomplete hand or an added kan.", True),
        Rule("false-win", "4", "A win needs five sets and a pair (or 嚦咕嚦咕, 十六不搭, a "
             "flower win): anything else is 詐胡.", True),
        Rule("dead-hand-win", "4", "A dead hand (暗相, 明相) may not win.", True),
    )

    def before_win(self, ev: Win) -> None:
        ref, w = self.ref, ev.winner
        seat = ref.seats[w]
        if seat.dead:
            ref.violation(self.rule("dead-hand-win"), f"wins with a dead hand ({seat.dead})", w,
                          evidence=(ref.picture(w),), consequence=_FALSE_WIN)
        elif not ref.complete and not ref.flower_win:
            ref.violation(self.rule("false-win"), "declares a win with a hand that is not "
                          "complete", w, evidence=(ref.picture(w),), consequence=_FALSE_WIN)
        elif seat.guo_shui:
            ref.violation(self.rule("guo-shui"), "wins while in 過水", w,
                          evidence=(("passed", seat.guo_shui), ref.picture(w)),
                          consequence=_FALSE_WIN)


class RonOnTile(TaiwanCheck):
    """No Taiwanese hand may rob a closed kan; and where the ruleset has no double ron,
    only the first player in turn order from the discarder wins (截胡).

    Violating chankan-closed::

        E1-0 dice=1,1,3
        hands 1444488999p1122336z 123456789m23p12355s 456789m567p4566789s 123456m123567p89s44z
        ankan4p
        ron S

    Violating double-ron::

        E1-0 dice=1,1,3
        hands 1488999p1122336677z 456789m567p4566789s 123456789m23p12355s 123456789m23p12399s
        7z 1p'
        ron W
        ron N

    Legal::

        E1-0 dice=1,1,3
        hands 1488999p1122336677z 456789m567p4566789s 123456789m23p12355s 123456789m23p12399s
        7z 1p'
        ron W
    """

    RULES = (
        Rule("chankan-closed", "1 K6", "Only an added kan may be robbed (variant: thirteen "
             "orphans may rob a closed kan).", True),
        Rule("double-ron", "7", "Two rons on one tile only where double ron is allowed.",
             False),
    )

    def before_win(self, ev: Win) -> None:
        ref, w = self.ref, ev.winner
        if ev.from_player == w:
            return
        if isinstance(ref.events[ref.engine.index - 1], ClosedKan):
            ref.violation(self.rule("chankan-closed"), "ron on the tile of a closed kan", w,
                          evidence=(ref.picture(w),),
                          consequence="false win (詐胡): only an added kan may be robbed")
        elif len(ref.winners) > 1 and not ref.rules.double_ron:
            ref.violation(self.rule("double-ron"), "another ron on the same tile: the first "
                          "player in turn order from the discarder wins alone (截胡)", w,
                          consequence=_FALSE_WIN)


class OpenKanTsumo(TaiwanCheck):
    """T5: no tsumo win on the replacement chain of an open kan (it puts the player in
    過水 instead).

    Violating::

        E1-0 dice=1,1,3
        hands 148899p5s1122336677z 123456789m23p555s99s 456789m567p4667789s 123456m123567p89s44z
        5s S:kan555s 4p
        tsumo S

    Legal::

        E1-0 dice=1,1,3
        hands 1488999p1122336677z 123456789m23p555s99s 456789m567p4667789s 123456m123567p89s44z
        9p 5s ankan5s 4p
        tsumo S
    """

    RULES = (Rule("open-kan-tsumo", "4 T5", "No tsumo win on the replacement chain of an "
                  "open kan.", True),)

    def before_win(self, ev: Win) -> None:
        ref, w = self.ref, ev.winner
        if ev.from_player == w and ref.seats[w].kan_chain and ref.complete:
            ref.violation(self.RULES[0], "tsumo on the replacement of an open kan", w,
                          evidence=(ref.picture(w),), consequence="false win (詐胡): the win "
                          "is void; the player is in 過水")


class FlowerKept(TaiwanCheck):
    """A flower is set aside and replaced at once; one kept in hand at a discard (after
    the procedure that follows the deal) makes the hand dead (暗相).

    Violating::

        E1-0 dice=1,1,3
        hands 1488999p1122336677z 123456789m23p12355s 456789m567p4566789s 123456m123567p89s44z
        1z 7z' 5f9s 8s'

    Legal::

        E1-0 dice=1,1,3
        hands 1488999p1122336677z 123456789m23p12355s 456789m567p4566789s 123456m123567p89s44z
        1z 7z' 5f flower5f 3z' 8s'
    """

    RULES = (Rule("flower-kept", "4", "A flower is set aside and replaced at once; one kept "
                  "in hand makes the hand dead (暗相).", True),)

    def before_discard(self, ev: Discard) -> None:
        s = self.ref.engine.state
        if s.dealing:  # the flower procedure is over: a flower still in hand is kept
            for q in range(s.n):
                self._kept(q, ev.tile if q == ev.player else -1)
        else:
            self._kept(ev.player, ev.tile)

    def _kept(self, p: int, discarded: int) -> None:
        ref = self.ref
        kept = [t for t in ref.engine.state.players[p].concealed
                if KIND_OF[t] >= NUM_KINDS and t != discarded]
        if kept and not ref.seats[p].dead:
            ref.kill(self.RULES[0], p, "暗相", f"keeps flower {tile_str(kept[0])} in hand "
                     "instead of setting it aside")


class FlowerDiscarded(TaiwanCheck):
    """A flower discarded makes the hand openly dead (明相).

    Violating::

        E1-0 dice=1,1,3
        hands 1488999p1122336677z 123456789m23p12355s 456789m567p4566789s 123456m123567p89s44z
        1z 7z' 5f' 8s'

    Legal::

        E1-0 dice=1,1,3
        hands 1488999p1122336677z 123456789m23p12355s 456789m567p4566789s 123456m123567p89s44z
        1z 7z' 5f flower5f 3z' 8s'
    """

    RULES = (Rule("flower-discarded", "4", "A flower discarded makes the hand openly dead "
                  "(明相).", True),)

    def before_discard(self, ev: Discard) -> None:
        if KIND_OF[ev.tile] >= NUM_KINDS:
            self.ref.kill(self.RULES[0], ev.player, "明相", f"discards flower "
                          f"{tile_str(ev.tile)} instead of setting it aside")


@dataclass(slots=True)
class _Bans:
    """After a chi or pon: the rule and the kinds (mask) each seat's discard may not be."""

    ban: dict[int, tuple[str, int]] = field(default_factory=dict)


class DiscardAfterCall(TaiwanCheck):
    """T1: after a chi, no discard of a tile the same two tiles also wait on; T2: after a
    pon, no discard of the same tile. Either makes the hand openly dead (明相).

    Violating chi-wait-discard::

        E1-0 dice=1,1,3
        hands 1488999p1122336677z 123456789m23p12355s 456789m567p4566789s 123456m123567p89s44z
        1z 7z3m W:chi45m 6m

    Violating pon-discard::

        E1-0 dice=1,1,3
        hands 1488999p1122336677z 123456789m23p12355s 456789m567p4566789s 123456m123567p89s44z
        1z 9p' E:pon99p 9p

    Legal::

        E1-0 dice=1,1,3
        hands 1488999p1122336677z 123456789m23p12355s 456789m567p4566789s 123456m123567p89s44z
        1z 7z3m W:chi45m 9s
    """

    RULES = (
        Rule("chi-wait-discard", "4 T1", "After a chi, no discard of a tile the same two "
             "tiles also wait on.", True),
        Rule("pon-discard", "4 T2", "After a pon, no discard of the same tile.", True),
    )

    def __init__(self, referee: TaiwanReferee) -> None:
        super().__init__(referee)
        self.mem = _Bans()

    def before_round_start(self, ev: RoundStart) -> None:
        self.mem = _Bans()

    def before_chi(self, ev: Chi) -> None:
        own = sorted(KIND_OF[t] for t in ev.tiles if t != ev.called)
        self.mem.ban[ev.player] = ("chi-wait-discard", partner_waits(own[0], own[1]))

    def before_pon(self, ev: Pon) -> None:
        self.mem.ban[ev.player] = ("pon-discard", 1 << KIND_OF[ev.called])

    def before_discard(self, ev: Discard) -> None:
        code, banned = self.mem.ban.pop(ev.player, ("", 0))
        kind = KIND_OF[ev.tile]
        if code and kind < NUM_KINDS and banned >> kind & 1:
            call = "chi" if code == "chi-wait-discard" else "pon"
            self.ref.kill(self.rule(code), ev.player, "明相", f"discards {kind_str(kind)} "
                          f"right after the {call}", (("may not discard", kinds_text(banned)),))


class CallLate(TaiwanCheck):
    """T4: no chi, pon or open kan with three or fewer tiles left in the wall; the hand
    becomes openly dead (明相).

    Violating::

        E1-0 dice=1,1,3
        hands 1488999p1122336677z 123456789m23p12355s 456789m567p4566789s 123456m123567p89s44z
        1z 3s' 9s' 2p' 4s' 3s' 4z' 3m' 3z' 2z' 1z' 8s' 5p' 5m' 2z' 1s' 1z' 8s' 2p' 5z' 3s'
        7m' 7m' 4z' 8p' 3p' 8m' 5s' 7s' 7z' 7s' 6p' 7p' 2m' 9m' 2m' 6z' 5z' 2s' 7s' 8p' 2s'
        6z' 4m' 5z' 1s' 4s' 9m' 1m' 1s' 3p' 8m' 9s' 6m' 6p' 2s' 7p' 9p' 5p' 7z' 6s' W:pon66s
        9s

    Legal::

        E1-0 dice=1,1,3
        hands 1488999p1122336677z 123456789m23p12355s 456789m567p4566789s 123456m123567p8s444z
        1z 4z' N:pon44z 8s
    """

    RULES = (Rule("call-late", "4 T4", "No chi, pon or open kan with three or fewer tiles "
                  "left in the wall.", True),)

    def before_chi(self, ev: Chi | Pon | OpenKan) -> None:
        wall = self.ref.engine.state.live_wall
        if wall <= 3:
            self.ref.kill(self.RULES[0], ev.player, "明相", f"{ev.TYPE.replace('_', ' ')} with "
                          f"{wall} tiles left in the wall", (("wall", str(wall)),))

    before_pon = before_open_kan = before_chi


@dataclass(slots=True)
class _River:
    """This round's discards: (player, kind)."""

    discards: list[tuple[int, int]] = field(default_factory=list)


class PonSameGoAround(TaiwanCheck):
    """T3: no pon of a tile already discarded earlier in the same go-around (the player's
    own discard included); the hand becomes openly dead (明相).

    Violating::

        E1-0 dice=1,1,3
        hands 1488999p1122336677z 123456789m23p555s99s 456789m567p4566789s 123456m123567p89s44z
        1z 7z5s 8s5s S:pon55s 7z

    Legal::

        E1-0 dice=1,1,3
        hands 1488999p1122336677z 123456789m23p555s99s 456789m567p4566789s 123456m123567p89s44z
        1z 7z5s 8s' 3z' 2z' 6z6z 8s5s S:pon55s 7z
    """

    RULES = (Rule("pon-same-go-around", "4 T3", "No pon of a tile already discarded earlier "
                  "in the same go-around.", True),)

    def __init__(self, referee: TaiwanReferee) -> None:
        super().__init__(referee)
        self.mem = _River()

    def before_round_start(self, ev: RoundStart) -> None:
        self.mem = _River()

    def before_discard(self, ev: Discard) -> None:
        self.mem.discards.append((ev.player, KIND_OF[ev.tile]))

    def before_pon(self, ev: Pon) -> None:
        p, kind = ev.player, KIND_OF[ev.called]
        for q, k in reversed(self.mem.discards[:-1]):  # since p's own last discard
            if k == kind:
                self.ref.kill(self.RULES[0], p, "明相", f"pon of {kind_str(kind)}, which player "
                              f"{q} discarded earlier in the same go-around")
                return
            if q == p:
                return


class FlowerRob(TaiwanCheck):
    """Only a player with seven flowers may take the eighth as another sets it aside
    (七搶一), and only where the ruleset plays it; else the hand is openly dead (明相).

    Violating::

        E1-0 dice=1,1,3
        hands 148899p1f1122336677z 123456789m23p12355s 456789m567p4566789s 123456m123567p89s44z
        flower1f 2m 9p 3f flower3f S:rob1f 5z'

    Legal::

        E1-0 dice=1,1,3
        hands 148899p1f1122336677z 123456789m2p2f3f4f5f6f7f 456789m567p4566789s 123456m123567p89s44z
        flower1f 2m S:flower2f 1s S:flower3f 3s S:flower4f 4s S:flower5f 5s S:flower6f 6s
        S:flower7f 7s 9p 8f flower8f S:rob1f 5z
        tsumo S qiqiangyi 230 deltas=-230,+230,0,0
    """

    RULES = (Rule("flower-rob", "4", "Only a player with seven flowers may take the eighth "
                  "(七搶一), where the ruleset plays it.", True),)
    OPTION = "tw_seven_rob_one"

    def before_flower(self, ev: Flower) -> None:
        if ev.from_player is None:
            return
        held = len(self.ref.engine.state.players[ev.player].flowers)
        allowed = self.ref.rules.taiwan.seven_rob_one
        if not allowed or held != 7:
            why = "七搶一 is not played under this ruleset" if not allowed \
                else f"the player has {held} flowers, not seven"
            self.ref.kill(self.RULES[0], ev.player, "明相", f"takes flower {tile_str(ev.tile)} "
                          f"from player {ev.from_player}: {why}")


@dataclass(slots=True)
class _Procedure:
    """Where the flower procedure after the deal stands, and the flowers still held."""

    at: tuple[int, int] = (0, 0)
    """(go-around, seat counted from the dealer) of the turn now."""
    due: dict[int, tuple[int, int]] = field(default_factory=dict)
    """Flowers held during the procedure: tile -> (go-around it may be set aside in, seat)."""
    reported: set[int] = field(default_factory=set)


class FlowerOrder(TaiwanCheck):
    """After the deal, flowers are set aside seat by seat from the dealer, each seat
    setting aside what it holds at its turn, go-around after go-around; a replacement
    flower waits for the next go-around.

    A flower set aside after its seat's turn has passed is late; one set aside
    early (in the go-around its replacement came in) is reported only when
    another flower was still due before it. A flower never set aside is
    ``flower-kept``, not this.

    Violating::

        E1-0 dice=1,1,3
        hands 1488999p11223366z1f2f 123456789m23p1235s3f 456789m567p4566789s 123456m123567p89s4z4f
        S:flower3f 5s E:flower1f 7z E:flower2f 7z N:flower4f 4z 1p
        ron S

    Legal::

        E1-0 dice=1,1,3
        hands 1488999p11223366z1f2f 123456789m23p1235s3f 456789m567p4566789s 123456m123567p89s4z4f
        E:flower1f 7z E:flower2f 7z S:flower3f 5s N:flower4f 4z 1p
        ron S
    """

    RULES = (Rule("flower-order", "4", "After the deal, flowers are set aside seat by seat "
                  "from the dealer; a replacement flower waits for the next go-around.", False),)

    def __init__(self, referee: TaiwanReferee) -> None:
        super().__init__(referee)
        self.mem = _Procedure()

    def before_round_start(self, ev: RoundStart) -> None:
        n = len(ev.hands)
        self.mem = _Procedure(due={t: (0, (p - ev.dealer) % n) for p, hand in enumerate(ev.hands)
                                   for t in hand if KIND_OF[t] >= NUM_KINDS})

    def before_draw(self, ev: Draw) -> None:
        s = self.ref.engine.state
        if s.dealing and KIND_OF[ev.tile] >= NUM_KINDS:  # a replacement flower waits a round
            self.mem.due[ev.tile] = (self.mem.at[0] + 1, (ev.player - s.dealer) % s.n)

    def before_flower(self, ev: Flower) -> None:
        if self.ref.engine.state.dealing and ev.from_player is None:
            self._judge(ev.player, ev.tile)

    def _judge(self, p: int, tile: int) -> None:
        s = self.ref.engine.state
        mem = self.mem
        done, at = mem.at
        first, seat = mem.due.pop(tile, (0, (p - s.dealer) % s.n))
        here = (max(first, done + (seat < at)), seat)  # the first turn of that seat it may use
        late = first < here[0]
        skipped: list[tuple[int, int, int]] = []
        if first > done:  # a replacement of this go-around: others still due go first
            skipped = sorted((r, q, t) for t, (r, q) in mem.due.items()
                             if (done, at) <= (r, q) < here and t not in mem.reported)
        if (late and tile not in mem.reported) or skipped:
            self._report(p, tile, first, here, skipped)
            mem.reported.update(t for _, _, t in skipped)  # each is reported once
        if late:  # the rest of that late turn is not reported again; the procedure stays
            mem.reported.update(t for t, d in mem.due.items() if d == (first, seat))
            return
        mem.at = here

    def _report(self, p: int, tile: int, first: int, here: tuple[int, int],
                skipped: list[tuple[int, int, int]]) -> None:
        ref = self.ref
        s = ref.engine.state
        other = (skipped[0][1] + s.dealer) % s.n if skipped else (self.mem.at[1] + s.dealer) % s.n
        message = (f"sets flower {tile_str(tile)} aside in the go-around it came in, before "
                   f"player {other} set {tile_str(skipped[0][2])} aside" if skipped
                   else f"sets flower {tile_str(tile)} aside late: it was due in go-around "
                   f"{first + 1}, before player {other}'s flowers")
        ref.violation(self.RULES[0], message, p, evidence=(
            ("procedure", f"from the dealer seat by seat, go-around {here[0] + 1} now"),
            ref.picture(p)), consequence="not allowed: the replacement tiles go to other "
            "players than the procedure gives")

"""The checks of the ``mcr`` family (Chinese Official mahjong, ``docs/rules.md`` section 10,
M1-M5, which cites the Green Book's sections 6, 7, 8 and 11).

Who may win (a winning shape of 8 fan or more, flowers not counted), which rons
stand (only an added kong may be robbed; one winner per tile, 截和), the flowers
(set aside and replaced, never kept or discarded) and the number of tiles a
hand holds (相公). Calls and moves out of turn are the engine's findings
(``out-of-turn``, ``call-not-last-discard``, ``call-not-in-hand``), which every
family shares; outside the flower procedure after the deal, a flower not
replaced is one of them too (the player's next move is not the replacement
draw).

Examples are MCR rounds: E is the dealer and holds 14 tiles, the others 13; the
dealer discards first. S waits on 1p and 4p with 123456789m 23p 55s (a Pure
Straight, 16 fan).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from mjlog.core.events import ClosedKan, Discard, Draw, Flower, RoundStart, Win
from mjlog.core.tiles import KIND_OF, NUM_KINDS, tile_str
from mjlog.families.check import Rule
from mjlog.families.mcr.fan import FanCount
from mjlog.families.mcr.options import mcr_options
from mjlog.families.mcr.payments import FALSE_WIN_PENALTY
from mjlog.families.mcr.referee import MCRCheck, MCRReferee


def _false_win(check: MCRCheck) -> str:
    """What a false win costs under the ruleset."""
    opts = mcr_options(check.ref.rules)
    return f"false win (错和): the win is void; the player pays {opts.false_win} to each " \
           "other player"


FALSE_WIN_COST = ("A false win (错和) when broken: the win is void and the player pays "
                  f"the option `mcr_false_win` ({FALSE_WIN_PENALTY} points by default) to "
                  "each other player.")
"""The penalty of every code that makes a win false, for the rulebook (docgen)."""


class FalseWin(MCRCheck):
    """A win needs a winning shape (four sets and a pair, seven pairs, thirteen orphans,
    the knitted hands) and at least the minimum fan (8) without the flowers; anything
    else is a false win (错和).

    Violating no-winning-shape::

        E1-0
        hands 1488999p1122336z 123456789m23p55s 456789m567p4569s 123456m123567p8s
        1p 7z' 9s' 8s' 7z1z
        ron S

    Violating fan-below-minimum::

        E1-0
        hands 1488999p1122336z 123456m23p55s678s 456789m567p4569s 123456m123567p8s
        1p
        ron S

    Legal::

        E1-0
        hands 1488999p1122336z 123456789m23p55s 456789m567p4569s 123456m123567p8s
        1p
        ron S
    """

    RULES = (
        Rule("no-winning-shape", "10 M3", "A win needs a winning shape: four sets and a "
             "pair, seven pairs, thirteen orphans or a knitted hand; anything else is 错和.",
             False, FALSE_WIN_COST),
        Rule("fan-below-minimum", "10 M3", "A win needs 8 fan (the ruleset's "
             "minimum) without the flowers; less is 错和.", False, FALSE_WIN_COST),
    )
    OPTION = "mcr_minimum_fan"

    def before_win(self, ev: Win) -> None:
        ref, w = self.ref, ev.winner
        count = ref.count
        if count is None:
            for rule in self.RULES:
                ref.unjudged(rule, f"the fans are not counted: {ref.uncounted}", w)
        elif isinstance(count, str):
            ref.violation(self.rule("no-winning-shape"), f"declares a win that is none: {count}", w,
                          evidence=(ref.picture(w),), consequence=_false_win(self))
        elif not ref.valid():
            minimum = mcr_options(ref.rules).minimum_fan
            ref.violation(self.rule("fan-below-minimum"), f"wins with {_fans(count)}: "
                          f"{count.without_flowers} fan without the flowers, {minimum} needed",
                          w, evidence=(ref.picture(w), ("fans", _fans(count))),
                          consequence=_false_win(self))


def _fans(count: FanCount) -> str:
    """The fans of a count in words: ``Pure Straight 16, All Simples 2``."""
    return ", ".join(f"{f.name} {f.points}" + (f" x{f.count}" if f.count > 1 else "")
                     for f in count.fans) or "no fan"


class KongRob(MCRCheck):
    """Only an added kong may be robbed (抢杠和); a concealed kong never. One player
    wins a discard: the next in turn from the discarder (截和), where the ruleset
    plays no double win.

    Violating rob-concealed-kong::

        E1-0
        hands 1444488999p1122z 123456789m23p55s 456789m567p4569s 123456m123567p8s
        ankan4p
        ron S

    Violating double-ron::

        E1-0
        hands 1488999p1122336z 123456789m23p55s 123456789m23p99s 456789m567p4569s
        1p
        ron S
        ron W

    Legal::

        E1-0
        hands 1488999p1122336z 123456789m23p55s 456789m567p4569s 123456m123567p8s
        1p
        ron S
    """

    RULES = (
        Rule("rob-concealed-kong", "10 M4", "Only an added kong may "
             "be robbed; a concealed kong never.", False, FALSE_WIN_COST),
        Rule("double-ron", "10 M5", "One player wins a discard: the next in turn from "
             "the discarder (截和), unless the ruleset allows double wins.", False),
    )

    def before_win(self, ev: Win) -> None:
        ref, w = self.ref, ev.winner
        if ev.from_player == w:
            return
        if isinstance(ref.events[ref.engine.index - 1], ClosedKan):
            ref.violation(self.rule("rob-concealed-kong"), "wins on the tile of a concealed kong",
                          w, evidence=(ref.picture(w),), consequence=_false_win(self))
        elif len(ref.winners) > 1 and not ref.rules.double_ron:
            ref.violation(self.rule("double-ron"), "another win on the same tile: the next "
                          f"player in turn from the discarder (player {ref.winners[0]}) wins "
                          "alone (截和)", w, consequence="the win is void, its payments reversed: "
                          "only the first winner in turn is paid")


class FlowerKept(MCRCheck):
    """A flower is set aside and replaced at once (MCR §6); one kept in hand at a discard
    (after the flower procedure that follows the deal), or discarded, is a foul. A flower
    kept is reported once.

    Violating flower-kept::

        E1-0
        hands 1488999p1122336z 123456789m23p55s 456789m567p4569s 123456m123567p8s
        1z 7z' 5f9s 8s'

    Violating flower-discarded::

        E1-0
        hands 1488999p1122336z 123456789m23p55s 456789m567p4569s 123456m123567p8s
        1z 7z' 5f'

    Legal::

        E1-0
        hands 1488999p1122336z 123456789m23p55s 456789m567p4569s 123456m123567p8s
        1z 7z' 5f flower5f 3z' 8s'
    """

    RULES = (
        Rule("flower-kept", "10 M1", "A flower is set aside and replaced at once, never "
             "kept in hand.", False),
        Rule("flower-discarded", "10 M1", "A flower is set aside and replaced, never "
             "discarded.", False),
    )

    def __init__(self, referee: MCRReferee) -> None:
        super().__init__(referee)
        self.seen: set[int] = set()
        """The flowers reported kept this round (each is reported once)."""

    def before_round_start(self, ev: RoundStart) -> None:
        self.seen = set()

    def before_discard(self, ev: Discard) -> None:
        s = self.ref.engine.state
        if KIND_OF[ev.tile] >= NUM_KINDS:
            self.ref.violation(self.rule("flower-discarded"), f"discards flower "
                               f"{tile_str(ev.tile)} instead of setting it aside", ev.player,
                               consequence="not allowed: the flower is set aside and replaced")
        for q in range(s.n) if s.dealing else (ev.player,):
            kept = sorted(t for t in s.players[q].concealed
                          if KIND_OF[t] >= NUM_KINDS and t != ev.tile and t not in self.seen)
            self.seen.update(kept)
            if kept:
                self.ref.violation(self.rule("flower-kept"), f"keeps flower "
                                   f"{tile_str(kept[0])} in hand instead of setting it aside",
                                   q, evidence=(self.ref.picture(q),),
                                   consequence="not allowed: the flower is set aside and "
                                   "replaced")


@dataclass(slots=True)
class _Owed:
    """Replacements owed for flowers set aside during the procedure after the deal."""

    owed: dict[int, int] = field(default_factory=dict)


class FlowerReplaced(MCRCheck):
    """During the flower procedure after the deal, each flower set aside is replaced from
    the wall before the dealer's first discard (MCR §6). (After it, a flower not
    replaced puts the next move out of turn: the engine finds that.)

    Violating::

        E1-0
        hands 1488999p112233z1f 123456789m23p5s2f 456789m567p4569s 123456m123567p8s
        S:flower2f E:flower1f 6z'

    Legal::

        E1-0
        hands 1488999p112233z1f 123456789m23p5s2f 456789m567p4569s 123456m123567p8s
        S:flower2f 5s E:flower1f 6z'
    """

    RULES = (Rule("flower-not-replaced", "10 M1", "Each flower set aside is replaced "
                  "from the wall.", False),)

    def __init__(self, referee: MCRReferee) -> None:
        super().__init__(referee)
        self.mem = _Owed()

    def before_round_start(self, ev: RoundStart) -> None:
        self.mem = _Owed()

    def before_flower(self, ev: Flower) -> None:
        if ev.from_player is None:
            self.mem.owed[ev.player] = self.mem.owed.get(ev.player, 0) + 1

    def before_draw(self, ev: Draw) -> None:
        owed = self.mem.owed
        if owed.get(ev.player, 0) > 0:
            owed[ev.player] -= 1

    def before_discard(self, ev: Discard) -> None:
        if not self.ref.engine.state.dealing:
            self.mem.owed.clear()
            return
        for p, n in sorted(self.mem.owed.items()):
            if n > 0:
                self.ref.violation(self.RULES[0], f"set {n} flower(s) aside during the flower "
                                   "procedure without drawing the replacement", p,
                                   evidence=(self.ref.picture(p),),
                                   consequence="the hand holds too few tiles (相公): it may "
                                   "not win this hand")
        self.mem.owed.clear()


class TileCount(MCRCheck):
    """A hand holds 13 tiles after each discard, a kong counting three (相公, MCR §11):
    judged for the discarder at each discard, and for every hand at the end of the flower
    procedure (the dealer's first discard). Reported once per player and hand.

    Violating::

        E1-0
        hands 1488999p112233z1f 123456789m23p5s2f 456789m567p4569s 123456m123567p8s
        S:flower2f E:flower1f 6z'

    Legal::

        E1-0
        hands 1488999p1122336z 123456789m23p55s 456789m567p4569s 123456m123567p8s
        1z 7z' 9s' 8s'
    """

    RULES = (Rule("wrong-tile-count", "10 M2", "A hand holds 13 tiles after its "
                  "discard, each kong counting three (相公: it may not win).", False),)

    def __init__(self, referee: MCRReferee) -> None:
        super().__init__(referee)
        self.first = False
        """The discard being judged ends the flower procedure after the deal."""

    def before_discard(self, ev: Discard) -> None:
        self.first = self.ref.engine.state.dealing

    def after_discard(self, ev: Discard) -> None:
        n = self.ref.engine.state.n
        for q in range(n) if self.first else (ev.player,):
            self._judge(q)

    def _judge(self, p: int) -> None:
        ref = self.ref
        seat = ref.seats[p]
        ps = ref.engine.state.players[p]
        held = len(ps.concealed) + ps.unknown + 3 * len(ps.melds)
        if held != 13 and not seat.miscount:
            seat.miscount = f"{held} tiles"
            ref.violation(self.RULES[0], f"holds {held} tiles after the discard, not 13", p,
                          evidence=(ref.picture(p),), move=False,
                          consequence="相公: the hand may not win this hand")

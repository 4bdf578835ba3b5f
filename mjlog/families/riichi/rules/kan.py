"""The kan checks of the riichi family (``docs/rules.md`` section 1, K1-K7)."""

from __future__ import annotations

from dataclasses import dataclass, field

from mjlog.core.events import (
    AddedKan,
    ClosedKan,
    Discard,
    DoraReveal,
    Draw,
    Kita,
    OpenKan,
    RoundStart,
    Win,
)
from mjlog.core.ruleset import Ruleset
from mjlog.core.tiles import KIND_OF, NUM_KINDS, UNKNOWN, kind_str
from mjlog.families.check import Rule
from mjlog.families.riichi.hand.shape import counts_of, is_thirteen_orphans, kinds_of_mask, waits
from mjlog.families.riichi.rules.evidence import kinds_text, readings_text
from mjlog.families.riichi.rules.referee import RiichiCheck, RiichiReferee, Seat, counts
from mjlog.families.riichi.scoring.fast import YakuReading, readings
from mjlog.replay.state import PlayerState


class KanAfterCall(RiichiCheck):
    """K1: no kan directly after a chi or pon, before its discard.

    Violating::

        E1-0 dora=9p
        hands 123m456p789s1122z 23m567p234s555z99m ? ?
        5z' S:pon55z kakan5z dora:4z 1p'

    Legal::

        E1-0 dora=9p
        hands 123m456p789s1122z 23m567p234s55z99m6z ? ?
        5z' S:pon55z 6z 1p' 9s'
        2z' 5z kakan5z 2p' dora:4z
    """

    RULES = (Rule("kan-after-call", "1 K1", "No kan directly after a chi or pon, before "
                  "its discard.", True),)

    def before_added_kan(self, ev: AddedKan | ClosedKan) -> None:
        call = self.ref.seats[ev.player].just_called
        if call is not None:
            self.ref.violation(self.RULES[0], f"{ev.TYPE} right after {call.TYPE}, before its "
                               "discard", ev.player)

    before_closed_kan = before_added_kan


class KanWallEmpty(RiichiCheck):
    """K3: no kan once the live wall is empty (no replacement tile would be left).

    Violating::

        E1-0 dora=9p
        hands 123m456p789s1122z 333s567p234m789m1z ? ?
        1m' 1m' 1m' 2m' 2m' 3m' 3m' 4m' 4m' 4m' 5m' 5m' 5m' 5m' 6m' 6m'
        6m' 6m' 7m' 7m' 7m' 8m' 8m' 8m' 9m' 9m' 9m' 1p' 1p' 1p' 1p' 2p'
        2p' 2p' 2p' 3p' 3p' 3p' 3p' 4p' 4p' 4p' 5p' 5p' 6p' 6p' 7p' 7p'
        7p' 8p' 8p' 8p' 8p' 9p' 9p' 9p' 1s' 1s' 1s' 1s' 2s' 2s' 2s' 2s'
        4s' 4s' 4s' 4s' 5s' 3s ankan3s

    Legal::

        E1-0 dora=9p
        hands 123m456p789s1122z 333s567p234m789m1z ? ?
        1m' 1m' 1m' 2m' 2m' 3m' 3m' 4m' 4m' 4m' 5m' 5m' 5m' 5m' 6m' 6m'
        6m' 6m' 7m' 7m' 7m' 8m' 8m' 8m' 9m' 9m' 9m' 1p' 1p' 1p' 1p' 2p'
        2p' 2p' 2p' 3p' 3p' 3p' 3p' 4p' 4p' 4p' 5p' 5p' 6p' 6p' 7p' 7p'
        7p' 8p' 8p' 8p' 8p' 9p' 9p' 9p' 1s' 1s' 1s' 1s' 2s' 2s' 2s' 2s'
        4s' 4s' 3s' S:kan333s 4s 1z
    """

    RULES = (Rule("kan-wall-empty", "1 K3", "No kan once the live wall is empty.", True),)

    def before_open_kan(self, ev: OpenKan | AddedKan | ClosedKan) -> None:
        if self.ref.engine.state.live_wall <= 0:
            self.ref.violation(self.RULES[0], f"{ev.TYPE} with no tile left in the live wall",
                               ev.player)

    before_added_kan = before_closed_kan = before_open_kan


class FifthKan(RiichiCheck):
    """K2: at most four kans in a round; where a fifth is allowed, it ends the round.

    Violating::

        E1-0 dora=1s
        hands 567m567p789s1122z 1111m2222p3333m4s 999p23s56789s567z ?
        9s' 4s ankan1m dora:1z 4s ankan2p dora:2z 4s ankan3m dora:3z 7p ankan4s dora:4z
        6p7p 9p ankan9p
        abort four-kans

    Legal::

        E1-0 dora=1s
        hands 567m567p789s1122z 1111m2222p3333m4s 999p23s56789s567z ?
        9s' 4s ankan1m dora:1z 4s ankan2p dora:2z 4s ankan3m dora:3z 7p ankan4s dora:4z
        6p7p 9p' 8p' 9m'
    """

    RULES = (Rule("fifth-kan", "1 K2", "At most four kans in a round (variant: a fifth ends "
                  "it).", True),)
    OPTION = "four_kans"

    @classmethod
    def enabled(cls, rules: Ruleset) -> bool:
        return rules.riichi.four_kans != "fifth-ends"

    def before_open_kan(self, ev: OpenKan | AddedKan | ClosedKan) -> None:
        kans = self.ref.kan_players
        if len(kans) >= 4:
            self.ref.violation(self.RULES[0], f"a fifth kan in the round (kans so far by "
                               f"players {', '.join(map(str, kans))})", ev.player)

    before_added_kan = before_closed_kan = before_open_kan


class KanAfterRiichi(RiichiCheck):
    """K4: after riichi a closed kan uses the tile just drawn (no okuri-kan) and keeps the
    waits, also the shape under ``shape``, or is not allowed at all under ``forbidden``.

    Violating okuri-kan::

        E1-0 dora=9p
        hands 567m456p789s1122z 4444m567p234s66z9s ? ?
        9m' 5m9s* 8p' 9m'
        3z' 1p ankan4m dora:4z 2p'

    Violating kan-after-riichi::

        E1-0 dora=9p
        hands 567m456p789s1122z 1113m456p789s555z ? ?
        9m' 8m8m* 8p' 9s'
        3z' 1m ankan1m dora:4z 1p'

    Legal::

        E1-0 dora=9p
        hands 123m456p789s1122z 23m567p234s555z77z ? ?
        9m' 8m8m* 8p' 9s'
        1z' 5z ankan5z dora:4m 1p'
    """

    RULES = (
        Rule("okuri-kan", "1 K4", "After riichi a closed kan must use the tile just drawn "
             "(no okuri-kan).", True),
        Rule("kan-after-riichi", "1 K4", "After riichi a closed kan must keep the waits (or "
             "the shape, or is forbidden, by ruleset).", True),
    )
    OPTION = "kan_after_riichi"

    def before_closed_kan(self, ev: ClosedKan) -> None:
        ps = self.ref.engine.state.players[ev.player]
        if ps.riichi:
            self._judge(ev, ps, self.ref.seats[ev.player])

    def _judge(self, ev: ClosedKan, ps: PlayerState, seat: Seat) -> None:
        ref, p = self.ref, ev.player
        mode = ref.rules.riichi.kan_after_riichi
        kind = KIND_OF[ev.tiles[0]]
        drawn = seat.last_draw
        held = sum(1 for t in ps.concealed if KIND_OF[t] == kind)
        if drawn == UNKNOWN and held < 4 and mode != "forbidden":
            self._unknown_draw(ev, ps, held, mode == "shape")
        elif drawn < 0 or KIND_OF[drawn] != kind:
            kept = f"with the {ref.t(drawn)} just drawn kept in hand" if drawn >= 0 else \
                "with no tile drawn just before it"
            ref.violation(self.RULES[0], f"closed kan of {ref.t(ev.tiles[0])} after riichi "
                          f"{kept} (okuri-kan)", p, evidence=(ref.picture(p),), hidden=True)
        elif mode == "forbidden":
            ref.violation(self.RULES[1], "closed kan after riichi, which this ruleset forbids",
                          p, evidence=(ref.picture(p),))
        elif ps.unknown:
            ref.unjudged(self.RULES[1], f"{ps.unknown} tiles of the hand are unknown (?), "
                         "so its waits are", p)
        elif (hand := counts(ps, drawn)) is not None:
            self._waits(ev, hand, len(ps.melds), mode == "shape")

    def _unknown_draw(self, ev: ClosedKan, ps: PlayerState, held: int, shape: bool) -> None:
        """The tile drawn before the kan is unknown (``?``). With three of the kind held by
        name and no other unknown tile, the kan shows that the drawn tile was the fourth:
        no okuri-kan, and the waits of the known hand decide the rest. Otherwise neither
        is known."""
        ref, p = self.ref, ev.player
        if held == 3 and ps.unknown == 1 and (hand := counts(ps)) is not None:
            self._waits(ev, hand, len(ps.melds), shape)
            return
        why = f"the tile drawn before the kan of {ref.t(ev.tiles[0])} is unknown (?)"
        ref.unjudged(self.RULES[0], why, p)
        ref.unjudged(self.RULES[1], why, p)

    def _waits(self, ev: ClosedKan, before: list[int], melds: int, shape: bool) -> None:
        ref, p = self.ref, ev.player
        kind = KIND_OF[ev.tiles[0]]
        after = list(before)
        after[kind] = 0
        w_before = waits(before, melds)
        w_after = waits(after, melds + 1)
        broken = readings_without(before, w_before, kind) if shape else []
        if w_before != w_after or broken:
            why = "changes the waits" if w_before != w_after else \
                "breaks readings of the hand where the three tiles are not a triplet"
            ref.violation(self.RULES[1], f"closed kan of {ref.t(ev.tiles[0])} after riichi "
                          f"{why}", p, evidence=(
                              ref.picture(p), ("waits before", kinds_text(w_before)),
                              ("waits after", kinds_text(w_after)),
                              ("readings destroyed", readings_text(
                                  broken or readings_without(before, w_before, kind))),
                          ), hidden=True)


def readings_without(hand: list[int], mask: int, kind: int) -> list[YakuReading]:
    """Readings of the tenpai hand (one per winning tile) with no triplet of ``kind``."""
    out: list[YakuReading] = []
    for w in kinds_of_mask(mask):
        c = list(hand)
        c[w] += 1
        for pair, sets in readings(c):
            r = YakuReading(pair, sets, len(sets), (f"wins on {kind_str(w)}",))
            if not any(s[0] == kind and not s[1] for s in sets) and r not in out:
                out.append(r)
    return out


@dataclass(slots=True)
class _Due:
    """A kan whose dora indicator is still to be turned."""

    player: int
    closed: bool
    discards: int = 0
    """Discards since the kan; -1 once reported missing (a late indicator still ends it)."""


@dataclass(slots=True)
class _KanDoraMemory:
    due: list[_Due] = field(default_factory=list)


class KanDora(RiichiCheck):
    """K5: each completed kan turns one more dora indicator, when the ruleset says: a
    closed kan at once and an open or added kan after the next discard (``after-discard``),
    every kan at once (``immediate``), or none (``none``).

    Violating::

        E1-0 dora=9p
        hands 123m456p789s1122z 3333s5555m9m899p1z ? ?
        9m' 1p ankan3s 2p'

    Legal::

        E1-0 dora=9p
        hands 123m456p789s1122z 23m567p234s555z99m ? ?
        5z' S:kan555z 1p9m dora:4z
    """

    RULES = (Rule("kan-dora", "1 K5", "Each completed kan turns one more dora indicator, at "
                  "the time the ruleset says.", False),)
    OPTION = "kan_dora"
    dormant = frozenset({"before_draw", "before_discard"})
    """Moves are judged only while a kan waits for its indicator (woken by the kan)."""

    def __init__(self, referee: RiichiReferee) -> None:
        super().__init__(referee)
        self.mem = _KanDoraMemory()

    def before_round_start(self, ev: RoundStart) -> None:
        self.mem = _KanDoraMemory()
        self.rest(*self.dormant)

    def _missing(self, due: _Due) -> None:
        due.discards = -1  # reported; a late indicator still belongs to it
        at_once = due.closed or self.ref.rules.riichi.kan_dora == "immediate"
        when = "before the kan player's discard" if at_once else \
            "after the discard that follows it"
        self.ref.violation(self.RULES[0], f"a kan by player {due.player} turned no dora "
                           f"indicator {when}", due.player)

    def before_draw(self, ev: Draw) -> None:
        for due in self.mem.due:
            if due.discards > 0 and ev.player != due.player:
                self._missing(due)

    def before_discard(self, ev: Discard) -> None:
        if not self.mem.due:
            return
        immediate = self.ref.rules.riichi.kan_dora == "immediate"
        for due in self.mem.due:
            if due.discards < 0:
                continue
            if due.closed or immediate:
                self._missing(due)
            else:
                due.discards += 1

    def before_dora_reveal(self, ev: DoraReveal) -> None:
        if self.mem.due:
            self.mem.due.pop(0)
            if not self.mem.due:
                self.rest(*self.dormant)
        else:
            self.ref.violation(self.RULES[0], f"dora indicator {self.ref.t(ev.indicator)} "
                               "turned with no kan to turn it for", None, move=False)

    def after_open_kan(self, ev: OpenKan | AddedKan | ClosedKan) -> None:
        if self.ref.rules.riichi.kan_dora != "none":
            self.mem.due.append(_Due(ev.player, isinstance(ev, ClosedKan)))
            self.wake(*self.dormant)

    after_added_kan = after_closed_kan = after_open_kan


class RinshanDraw(RiichiCheck):
    """K7: after a kan (or a kita) the player draws from the dead wall, and only then.

    Violating::

        E1-0 dora=9p
        hands 123m456p789s1122z 23m567p234s555z99m ? ?
        5z' S:kan555z ~1p9m dora:4z

    Legal::

        E1-0 dora=9p
        hands 123m456p789s1122z 23m567p234s555z99m ? ?
        5z' S:kan555z 1p9m dora:4z
    """

    RULES = (Rule("rinshan-draw", "1 K7", "After a kan (or kita) the player draws from the "
                  "dead wall.", False),)

    dormant = frozenset({"before_draw"})
    """A plain draw is from the live wall: it is judged only when one from the dead wall
    is due (woken by the kan or kita)."""

    def _due(self, ev: OpenKan | AddedKan | ClosedKan | Kita) -> None:
        self.wake("before_draw")

    after_open_kan = after_added_kan = after_closed_kan = after_kita = _due

    def before_draw(self, ev: Draw) -> None:
        self.rest("before_draw")  # the draw settles what was due
        if ev.rinshan != (self.ref.rinshan_before == ev.player):
            what = "a replacement draw without a kan or kita" if ev.rinshan else \
                "the draw after a kan is not from the dead wall"
            self.ref.violation(self.RULES[0], what, ev.player)


class ChankanClosed(RiichiCheck):
    """K6: only an added kan may be robbed; where the ruleset allows it, thirteen orphans
    may also rob a closed kan.

    Violating::

        E1-0 dora=9p
        hands 123m456p789s1122z 555s456p789m333z9s 46s789m123p111s99s ?
        8p' 5s ankan5s
        ron W 30fu 1000

    Legal::

        E1-0 dora=9p
        hands 123m456p789s2234z 111z456p789s33z5s5m 119m19p19s234567z ?
        8p' 1z ankan1z
        ron W 0fu 32000 kokushi
    """

    RULES = (Rule("chankan-closed", "1 K6", "Only an added kan may be robbed (variant: "
                  "thirteen orphans may rob a closed kan).", True),)
    OPTION = "chankan_closed_kokushi"

    def before_win(self, ev: Win) -> None:
        ref = self.ref
        if ev.from_player == ev.winner or not isinstance(ref.events[ref.engine.index - 1],
                                                          ClosedKan):
            return
        allowed = ref.rules.riichi.chankan_closed_kokushi
        if allowed and UNKNOWN in ev.hand:
            ref.unjudged(self.RULES[0], "the winner's hand has unknown tiles (?), so whether "
                         "it is thirteen orphans is", ev.winner)
            return
        kinds = [KIND_OF[t] for t in ev.hand]  # a flower (or ?) is no thirteen orphans
        orphans = allowed and all(k < NUM_KINDS for k in kinds) \
            and is_thirteen_orphans(counts_of(kinds))
        if not orphans:
            ref.violation(self.RULES[0], "ron on the tile of a closed kan", ev.winner,
                          move=False)

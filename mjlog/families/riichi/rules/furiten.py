"""Furiten: the riichi family's checks of a win on a wait the player may not win on
(``docs/rules.md`` section 7, and the kansaki extension of section 2)."""

from __future__ import annotations

from mjlog.core.events import Win
from mjlog.families.check import Rule
from mjlog.families.riichi.rules.evidence import kinds_text
from mjlog.families.riichi.rules.referee import RiichiCheck


class Furiten(RiichiCheck):
    """No ron on a wait the player has discarded (furiten), nor after passing a winning
    tile until one's next discard (temporary furiten), nor after passing one in riichi
    (riichi furiten); under ``furiten_tsumo`` these forbid a tsumo too.

    The memory is the referee's: each hand's waits after its last discard, the
    kinds it has discarded, and the passed winning tiles. Hands the record does
    not fully name are not judged.

    Violating furiten-ron::

        E1-0 dora=9p
        hands 123m456p789s1122z 23m456p789s555z99s ? ?
        9m' 1m' 9p' 8p'
        4m'
        ron S 40fu 1300

    Violating furiten-passed::

        E1-0 dora=9p
        hands 123m456p789s1122z 23m456p789s555z99s ? ?
        9m' 8m' 1m' 4m'
        ron S 40fu 1300

    Violating furiten-riichi::

        E1-0 dora=9p
        hands 123m456p789s1122z 23m456p789s555z99s ? ?
        9m' 8m'* 1m' 9p'
        8p' 7p' 4m'
        ron S 40fu 2600

    Violating furiten-tsumo under kansaki::

        E1-0 dora=9p
        hands 123m456p789s1122z 23m456p789s555z99s ? ?
        9m' 1m' 9p' 8p'
        7p' 4m
        tsumo S 40fu 1500

    Legal::

        E1-0 dora=9p
        hands 123m456p789s1122z 23m456p789s555z99s ? ?
        9m' 8m' 1m' 9p'
        8p' 7p' 4m'
        ron S 40fu 1300
    """

    RULES = (
        Rule("furiten-ron", "7", "No ron on a wait the player has discarded (furiten).", True),
        Rule("furiten-passed", "7", "No ron after passing a winning tile, until one's next "
             "discard (temporary furiten).", True),
        Rule("furiten-riichi", "7", "No ron after passing a winning tile while in riichi "
             "(riichi furiten).", True),
        Rule("furiten-tsumo", "2", "Furiten also forbids a tsumo win (kansaki extension).",
             True),
    )
    OPTION = "furiten_tsumo"

    def before_win(self, ev: Win) -> None:
        ref = self.ref
        tsumo = ev.from_player == ev.winner
        if tsumo and not ref.rules.riichi.furiten_tsumo:
            return
        if unknown := ref.engine.state.players[ev.winner].unknown:
            ref.unjudged(self.RULES[0], f"{unknown} tiles of the winner's hand are unknown "
                         "(?), so its waits are", ev.winner)
            return
        found = self._why(ev.winner, "tsumo" if tsumo else "ron")
        if found is not None:
            code, message, evidence = found
            rule = self.rule("furiten-tsumo" if tsumo else code)
            ref.violation(rule, message, ev.winner, move=False,
                          evidence=(ref.picture(ev.winner),
                                    ("waits", kinds_text(ref.waits(ev.winner))), evidence))

    def _why(self, p: int, how: str) -> tuple[str, str, tuple[str, str]] | None:
        """The furiten of player ``p``'s win (code, message, evidence), or ``None``."""
        ref = self.ref
        seat = ref.seats[p]
        own = ref.waits(p) & seat.river_kinds
        if own:
            return ("furiten-ron", f"{how} on a hand waiting on {kinds_text(own)}, which the "
                    "player has discarded", ("discarded", kinds_text(own)))
        if seat.riichi_furiten:
            return ("furiten-riichi", "win after passing a winning tile in riichi: "
                    f"{seat.riichi_furiten}", ("passed", seat.riichi_furiten))
        passed = ref.passed(p)
        if passed:
            return ("furiten-passed", "win after passing a winning tile since the player's "
                    f"last discard: {passed}", ("passed", passed))
        return None

"""The win itself: a win must have a yaku under the ruleset (``docs/rules.md`` §7)."""

from __future__ import annotations

from mjlog.core.events import Win
from mjlog.core.ruleset import Ruleset
from mjlog.families.check import Rule
from mjlog.families.riichi.rules.evidence import reading_text
from mjlog.families.riichi.rules.referee import RiichiCheck
from mjlog.families.riichi.scoring.fast import shapes, yaku_readings
from mjlog.families.riichi.scoring.situation import WinSituation


class NoYakuWin(RiichiCheck):
    """A win needs at least one yaku under the ruleset (dora are no yaku). A hand that
    is complete but scores none (an open all-simples where the ruleset has no open
    tanyao, below) is a false win, whatever its payment says.

    Violating under kansaki::

        E1-0 dora=9p
        hands 123m456p789s1122z 22m345m567p88s67s9p 456m789p345s3344z 789m123p678s7777z
        2m' S:pon22m 9p 5s'
        ron S 30fu 1000 tanyao

    Legal under kansaki::

        E1-0 dora=9p
        hands 123m456p789s1122z 22m345m5679p88s55z 456m789p345s3344z 789m123p678s7777z
        2m' S:pon22m 9p 5z'
        ron S 30fu 1000 haku
    """

    RULES = (Rule("no-yaku-win", "7", "A win needs at least one yaku under the ruleset "
                  "(dora are no yaku).", True),)

    def before_win(self, ev: Win) -> None:
        ref = self.ref
        if ref.engine.state.players[ev.winner].unknown:
            return  # valued from the hand the record states: the score verifier judges it
        sit, val = ref.values.at(ref.engine.state, ref.events, ref.round_start,
                                 ref.engine.index, ev)
        if val.error != "no_yaku":
            return
        found = shapes(sit)
        ref.violation(self.RULES[0], "wins with a hand that has no yaku under "
                      f"{ref.label}", ev.winner, move=False, evidence=(
                          ref.picture(ev.winner),
                          ("readings", "; ".join(reading_text(r) + ": no yaku"
                                                 for r in found) or "none"),
                          *_why(sit, ref.rules)))


def _why(sit: WinSituation, rules: Ruleset) -> tuple[tuple[str, str], ...]:
    """Why a yaku the players may have counted does not count here (open tanyao)."""
    riichi = rules.riichi
    if riichi.open_tanyao:
        return ()
    kuitan = rules.with_options(open_tanyao=True)
    if any("tanyao" in r.yaku for r in yaku_readings(sit, kuitan)):
        return (("why", "all simples with an open hand (kuitan) is no yaku under this "
                 "ruleset (open_tanyao=false)"),)
    return ()

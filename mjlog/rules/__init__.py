"""Rule checks: what a ruleset forbids, found in a replayed record.

The replay engine (:mod:`mjlog.replay.engine`) checks that a record is
consistent with itself; the score verifier (:mod:`mjlog.scoring.verify`)
that its values are right. This package checks the *rules* that differ
between tables: kan timing and the four-kan limit, kan after riichi, kan
dora, robbing a kan, rinshan, kanzen sakizuke, riichi preconditions,
furiten, chi from the left, swap-calling and abortive draws
(``docs/rules.md`` sections 1, 2 and 7). Each check is registered in
:data:`RULES` with its code, the rules.md section, a one-line citation and
the :class:`~mjlog.ruleset.Ruleset` option that switches or shapes it; each
broken rule becomes a :class:`~mjlog.diagnostics.Violation` with evidence and
the consequence under the ruleset.

:func:`mjlog.rules.referee.check` replays one record under a ruleset (the record's own by
default) and returns the violations; findings never stop the replay.

Not checked here: anything the engine or the score verifier already reports
(turn order, tiles in hand, payments, noten payments, honba, the next dealer,
pao), and call priority, which a record cannot show (it keeps the call that
was made, not the ones that were wanted).
"""

from __future__ import annotations

from typing import NamedTuple


class Rule(NamedTuple):
    """One registered check: its code, where rules.md states it and what switches it."""

    code: str
    section: str
    citation: str
    option: str
    """The ruleset option that enables or shapes the check ("" when always on)."""
    chombo: bool
    """Whether breaking it is chombo (else the move is simply not allowed)."""


def _rules(*rows: Rule) -> dict[str, Rule]:
    return {r.code: r for r in rows}


RULES: dict[str, Rule] = _rules(
    Rule("kan-after-call", "1 K1", "No kan directly after a chi or pon, before its discard.",
         "", True),
    Rule("fifth-kan", "1 K2", "At most four kans in a round (variant: a fifth ends it).",
         "four_kans", True),
    Rule("kan-wall-empty", "1 K3", "No kan once the live wall is empty.", "", True),
    Rule("okuri-kan", "1 K4", "After riichi a closed kan must use the tile just drawn "
         "(no okuri-kan).", "kan_after_riichi", True),
    Rule("kan-after-riichi", "1 K4", "After riichi a closed kan must keep the waits (or the "
         "shape, or is forbidden, by ruleset).", "kan_after_riichi", True),
    Rule("kan-dora", "1 K5", "Each completed kan turns one more dora indicator, at the time "
         "the ruleset says.", "kan_dora", False),
    Rule("chankan-closed", "1 K6", "Only an added kan may be robbed (variant: thirteen orphans "
         "may rob a closed kan).", "chankan_closed_kokushi", True),
    Rule("rinshan-draw", "1 K7", "After a kan (or kita) the player draws from the dead wall.",
         "", False),
    Rule("sakizuke-first-call", "2 S1", "An open hand's first call must carry a yaku of the "
         "winning hand, or a yaku must be complete in its concealed part.", "sakizuke", True),
    Rule("sakizuke-one-sided", "2 S2", "No win from a tenpai hand with a winning tile that "
         "gives no yaku (片和了り; 王手飛車 by ruleset).", "sakizuke", True),
    Rule("sakizuke-incidental", "2", "Incidental yaku (海底, 河底, 嶺上, 搶槓, 一発) do not "
         "make a win.", "sakizuke_incidental", True),
    Rule("riichi-call", "7", "After riichi the only call is a closed kan.", "", True),
    Rule("riichi-hand-changed", "7", "After riichi the drawn tile is discarded unless it wins "
         "or makes a kan.", "", True),
    Rule("riichi-illegal", "7", "Riichi needs a closed tenpai hand, the points for the stick "
         "and enough tiles left in the wall.", "riichi_min_score", True),
    Rule("furiten-ron", "7", "No ron on a wait the player has discarded (furiten).", "", True),
    Rule("furiten-passed", "7", "No ron after passing a winning tile, until one's next "
         "discard (temporary furiten).", "", True),
    Rule("furiten-riichi", "7", "No ron after passing a winning tile while in riichi "
         "(riichi furiten).", "", True),
    Rule("furiten-tsumo", "2", "Furiten also forbids a tsumo win (kansaki extension).",
         "furiten_tsumo", True),
    Rule("chi-not-from-left", "7", "Chi only from the player on the left; no chi in "
         "three-player.", "", True),
    Rule("kuikae", "7", "No swap-calling: after a chi or pon, not the same tile (nor the "
         "other end of the run, by ruleset).", "kuikae", True),
    Rule("abortive-unjustified", "7", "An abortive draw only when its condition holds and "
         "the ruleset has it.", "", True),
    Rule("abortive-missed", "7", "A round whose abortive condition holds ends there (四風連打, "
         "四家立直, 四開槓, 三家和).", "", False),
    Rule("double-ron", "7", "Two rons on one tile only where double ron is allowed.",
         "double_ron", False),
    # -- Taiwanese 16-tile (family taiwan16, judged by mjlog.taiwan.referee)
    Rule("guo-shui", "3", "A player who passed a win (過水) may not win until a discard from "
         "an incomplete hand or an added kan.", "", True),
    Rule("false-win", "4", "A win needs five sets and a pair (or 嚦咕嚦咕, 十六不搭, a flower "
         "win): anything else is 詐胡.", "", True),
    Rule("dead-hand-win", "4", "A dead hand (暗相, 明相) may not win.", "", True),
    Rule("chi-wait-discard", "4 T1", "After a chi, no discard of a tile the same two tiles "
         "also wait on.", "", True),
    Rule("pon-discard", "4 T2", "After a pon, no discard of the same tile.", "", True),
    Rule("pon-same-go-around", "4 T3", "No pon of a tile already discarded earlier in the "
         "same go-around.", "", True),
    Rule("call-late", "4 T4", "No chi, pon or open kan with three or fewer tiles left in the "
         "wall.", "", True),
    Rule("open-kan-tsumo", "4 T5", "No tsumo win on the replacement chain of an open kan.",
         "", True),
    Rule("flower-kept", "4", "A flower is set aside and replaced at once; one kept in hand "
         "makes the hand dead (暗相).", "", True),
    Rule("flower-discarded", "4", "A flower discarded makes the hand openly dead (明相).", "",
         True),
    Rule("flower-rob", "4", "Only a player with seven flowers may take the eighth (七搶一), "
         "where the ruleset plays it.", "tw_seven_rob_one", True),
    Rule("flower-order", "4", "After the deal, flowers are set aside seat by seat from the "
         "dealer; a replacement flower waits for the next go-around.", "", False),
)
"""Every rule check by code."""

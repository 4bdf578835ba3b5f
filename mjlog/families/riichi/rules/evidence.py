"""Evidence and consequences: the texts a violation carries for a referee to read.

Pictures of a hand, sets of waits and readings of a hand in mpsz, and what a
broken rule costs under the ruleset. Texts only: nothing here judges.
"""

from __future__ import annotations

from collections.abc import Sequence

from mjlog.core.ruleset import Ruleset
from mjlog.core.tiles import join_mpsz, kind_str, tiles_str
from mjlog.families.check import Rule
from mjlog.families.riichi.hand.shape import kinds_of_mask
from mjlog.families.riichi.scoring.fast import Set, YakuReading
from mjlog.replay.state import PlayerState, TableState


def hand_picture(ps: PlayerState, red: bool) -> str:
    """The concealed tiles, then each call in brackets: ``23455m678p [pon 555z]``."""
    text = tiles_str(ps.concealed, red)
    if ps.unknown:
        text += "?" * ps.unknown
    for m in ps.melds:
        text += f" [{m.TYPE.replace('_', ' ')} {tiles_str(m.tiles, red)}]"
    return text


def kinds_text(mask: int) -> str:
    """The kinds of a 34-bit mask in mpsz (``3m6m`` becomes ``36m``), or ``none``."""
    kinds = kinds_of_mask(mask)
    return join_mpsz(kind_str(k) for k in kinds) if kinds else "none"


def set_text(s: Set) -> str:
    """One set in mpsz: ``345m``, ``555z``, a kan ``5555z``."""
    first, run, _, kan = s
    kinds = [first, first + 1, first + 2] if run else [first] * (4 if kan else 3)
    return join_mpsz(kind_str(k) for k in kinds)


def reading_text(r: YakuReading) -> str:
    """A reading: its sets and pair, then its yaku (``123m 456p 789s 555z 11z: haku``)."""
    parts = [set_text(s) for s in r.sets]
    if r.pair >= 0:
        parts.append(join_mpsz([kind_str(r.pair)] * 2))
    return " ".join(parts) + (": " + ", ".join(r.yaku) if r.yaku else "")


def readings_text(rs: Sequence[YakuReading]) -> str:
    """Several readings separated by ``; `` (``none`` when empty)."""
    return "; ".join(reading_text(r) for r in rs) or "none"


def consequence(rule: Rule, rules: Ruleset, player: int | None, state: TableState) -> str:
    """What breaking ``rule`` costs under ``rules`` (one line).

    Chombo is paid as the ruleset's ``chombo`` says: as a mangan (満貫払い, the
    usual club convention: a dealer pays 4000 to each other player, anyone
    else 4000 to the dealer and 2000 to each other player; with three players,
    the same shares without the missing seat), or as points off the final
    tally (``fixed``), or not at all. Platforms do not let a player break their rules; the line
    says what the table would do.
    """
    code = rule.code
    if not rule.chombo:
        return "no penalty: the record does not follow the rule (a platform or scribe error)"
    who = "the player" if player is None else f"player {player}"
    if rules.chombo == "fixed":
        pays = f"{who} loses {rules.chombo_points / 1000:g} points at the end"
    elif rules.chombo == "none":
        pays = "no payment under this ruleset"
    elif player is not None and player == state.dealer:
        pays = f"{who} (dealer) pays 4000 to each other player"
    else:
        pays = f"{who} pays 4000 to the dealer and 2000 to each other player"
    replay = "; the round is replayed" if rules.chombo_replay else ""
    if code.startswith(("furiten", "sakizuke", "chankan", "no-yaku")):
        return f"chombo under {rules.name}: the win is void; {pays}{replay}"
    return f"chombo under {rules.name}: {pays}{replay}"

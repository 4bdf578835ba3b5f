"""Kanzen sakizuke (完全先付け): S1 (the first call carries a yaku) and S2 (no one-sided win).

``docs/rules.md`` section 2. :func:`judge_win` looks at one win on the table
just before it and returns what it breaks, with the evidence: the first call
and the yaku of every reading of the winning hand (S1), the yaku of every
winning tile of the tenpai hand (S2).

How a yaku *uses* a call or is *complete in the concealed part* (S1):

==========================  ==================================================
value tiles (役牌)          the triplet of that tile
三色, 一気通貫, 三色同刻     one of its three sets; concealed when all three are
小三元                      one of its dragon triplets; concealed when both are
三槓子                      one of its kans; concealed when all three are closed
三暗刻                      never a call; always concealed
対々和, 混老頭, all simples  every set (open all-simples only where it counts)
flush and outside hands     the call, when ``sakizuke_flush`` (its tiles fit)
==========================  ==================================================

Yakuman are exempt except 大三元, judged like a value tile (example 1-8).
Incidental yaku (海底, 河底, 嶺上開花, 搶槓, 一発, and 門前清自摸和 under
``sakizuke_menzen_tsumo="not-alone"``) satisfy neither rule. This module
judges sakizuke only; the hand's value is the score verifier's.
"""

from __future__ import annotations

from collections.abc import Sequence

from mjlog.core.events import AddedKan, Chi, ClosedKan, Event, OpenKan, Pon, Win
from mjlog.core.ruleset import Ruleset, SakizukeOptions
from mjlog.core.tiles import KIND_OF, Tile
from mjlog.families.check import Rule
from mjlog.families.riichi.hand.shape import counts_of, kinds_of_mask, waits
from mjlog.families.riichi.rules.evidence import kinds_text, readings_text, set_text
from mjlog.families.riichi.rules.referee import RiichiCheck
from mjlog.families.riichi.scoring.fast import YakuReading, yaku_readings
from mjlog.families.riichi.scoring.riichi import value
from mjlog.families.riichi.scoring.situation import WinSituation, situation
from mjlog.families.riichi.scoring.yaku import BY_NAME
from mjlog.replay.state import TableState

Judgement = tuple[str, str, tuple[tuple[str, str], ...]]
"""(violation code, message, evidence)."""

INCIDENTAL = frozenset({"haitei", "houtei", "rinshan-kaihou", "chankan", "ippatsu"})
VALUE_KIND = {
    "haku": 31, "hatsu": 32, "chun": 33,
    "seat-wind-east": 27, "seat-wind-south": 28, "seat-wind-west": 29, "seat-wind-north": 30,
    "round-wind-east": 27, "round-wind-south": 28, "round-wind-west": 29,
    "round-wind-north": 30,
}
_WHOLE_HAND = frozenset({"toitoi", "honroutou", "tanyao"})
_FLUSH = frozenset({"honitsu", "chinitsu", "chanta", "junchan"})
_DRAGONS = (31, 32, 33)


def judge_win(state: TableState, events: Sequence[Event], round_start: int, index: int,
              win: Win, rules: Ruleset) -> list[Judgement]:
    """What the win at ``events[index]`` breaks of S1 and S2 (empty when nothing).

    ``state`` is the table just before the win. Hands the record does not
    fully name are not judged.
    """
    if state.players[win.winner].unknown:
        return []
    sit = situation(state, events, round_start, index, win)
    yakuman = _yakuman(sit, rules)
    if yakuman and yakuman != {"daisangen"}:
        return []
    out: list[Judgement] = []
    first = _first_call(sit)
    if yakuman:
        if first is not None and not _daisangen_settled(sit, first, rules):
            out.append(("sakizuke-first-call", "大三元 whose first call is no dragon and no "
                        "dragon triplet is concealed", (("first call", _call_text(first)),)))
        return out
    rs = yaku_readings(sit, rules)
    if not rs:
        return []  # no ordinary winning reading: the score verifier reports it
    incidental = _incidental(rules)
    quals = [_qualifying(r, sit, rules, incidental) for r in rs]
    if not any(quals):
        if not _opts(rules).incidental:
            out.append(("sakizuke-incidental", "a win on incidental yaku only",
                        (("readings", readings_text(rs)),)))
        return out
    if first is not None:
        j = sit.melds.index(first)
        if not any(_settled(r, q, j, sit, rules) for r, q in zip(rs, quals, strict=True)):
            out.append(("sakizuke-first-call", f"the first call ({_call_text(first)}) carries "
                        "no yaku of the winning hand, and no yaku is complete in its "
                        "concealed part", (("first call", _call_text(first)),
                                           ("readings", readings_text(rs)))))
    out.extend(_one_sided(sit, rules))
    return out


def _opts(rules: Ruleset) -> SakizukeOptions:
    """The sakizuke variant switches (the defaults where the ruleset does not play it)."""
    return rules.riichi.sakizuke or _DEFAULT


_DEFAULT = SakizukeOptions()


def _incidental(rules: Ruleset) -> frozenset[str]:
    if _opts(rules).menzen_tsumo == "not-alone":
        return INCIDENTAL | {"menzen-tsumo"}
    return INCIDENTAL


def _yakuman(sit: WinSituation, rules: Ruleset) -> set[str]:
    """The yakuman of the hand (empty when none); kazoe yakuman do not count."""
    val = value(sit, rules)
    return {y.name for y in val.yaku if (info := BY_NAME.get(y.name)) and info.yakuman}


def _first_call(sit: WinSituation) -> Chi | Pon | OpenKan | AddedKan | None:
    for m in sit.melds:
        if not isinstance(m, ClosedKan):
            return m
    return None


def _call_text(m: Chi | Pon | OpenKan | AddedKan | ClosedKan) -> str:
    k = min(KIND_OF[t] for t in m.tiles)
    return f"{m.TYPE.replace('_', ' ')} " + set_text(
        (k, isinstance(m, Chi), False, isinstance(m, OpenKan | AddedKan | ClosedKan)))


def _daisangen_settled(sit: WinSituation, first: Chi | Pon | OpenKan | AddedKan,
                       rules: Ruleset) -> bool:
    if not isinstance(first, Chi) and KIND_OF[first.tiles[0]] in _DRAGONS:
        return True
    if not _opts(rules).concealed:
        return False
    counts = counts_of([KIND_OF[t] for t in sit.hand])
    concealed = any(counts[k] >= 3 for k in _DRAGONS)
    return concealed or any(isinstance(m, ClosedKan) and KIND_OF[m.tiles[0]] in _DRAGONS
                            for m in sit.melds)


def _qualifying(r: YakuReading, sit: WinSituation, rules: Ruleset,
                incidental: frozenset[str]) -> frozenset[str]:
    """The reading's yaku that can settle a hand (not incidental, not uncounted tanyao)."""
    q = frozenset(r.yaku) - incidental
    if "tanyao" in q and not _opts(rules).tanyao and not _closed(sit):
        q -= {"tanyao"}
    return q


def _closed(sit: WinSituation) -> bool:
    return all(isinstance(m, ClosedKan) for m in sit.melds)


def _is_call(r: YakuReading, i: int, sit: WinSituation) -> bool:
    return i >= r.concealed_sets and not isinstance(sit.melds[i - r.concealed_sets], ClosedKan)


def _groups(name: str, r: YakuReading) -> list[list[int]]:
    """Indices of the sets that make up yaku ``name`` in reading ``r`` (each way it forms)."""
    sets = r.sets
    if name in VALUE_KIND:
        kind = VALUE_KIND[name]
        return [[i] for i, s in enumerate(sets) if s[0] == kind and not s[1]]
    if name in ("sanshoku", "ittsu", "sanshoku-doukou"):
        run = name != "sanshoku-doukou"
        step = 3 if name == "ittsu" else 9
        out = []
        for i, s in enumerate(sets):
            if s[1] != run or (name == "ittsu" and s[0] % 9):
                continue
            second = [x for x, t in enumerate(sets) if t[1] == run and t[0] == s[0] + step]
            third = [x for x, t in enumerate(sets) if t[1] == run and t[0] == s[0] + 2 * step]
            if second and third:
                out.append([i, second[0], third[0]])
        return out
    if name == "shousangen":
        return [[i for i, s in enumerate(sets) if s[0] in _DRAGONS and not s[1]]]
    if name == "sankantsu":
        return [[i for i, s in enumerate(sets) if s[3]]]
    if name == "sanankou":
        return [[i for i, s in enumerate(sets) if not s[1] and s[2]]]
    return []


def _uses(name: str, r: YakuReading, i: int, rules: Ruleset) -> bool:
    """Whether yaku ``name`` of reading ``r`` uses the set at index ``i`` (a call)."""
    if name in _WHOLE_HAND:
        return True
    if name in _FLUSH:
        return _opts(rules).flush
    if name == "sanankou":
        return False
    return any(i in g for g in _groups(name, r))


def _complete_concealed(name: str, r: YakuReading, sit: WinSituation) -> bool:
    if name == "sanankou":
        return True
    if name in _WHOLE_HAND or name in _FLUSH:
        return False
    return any(g and not any(_is_call(r, i, sit) for i in g) for g in _groups(name, r))


def _settled(r: YakuReading, q: frozenset[str], j: int, sit: WinSituation,
             rules: Ruleset) -> bool:
    """S1 for one reading: the first call (meld ``j``) carries a yaku, or one is concealed."""
    first = r.concealed_sets + j
    if _opts(rules).value_first and q and q <= VALUE_KIND.keys():
        return any(_uses(y, r, first, rules) for y in q)
    ok = any(_uses(y, r, first, rules) for y in q) or (
        _opts(rules).concealed and any(_complete_concealed(y, r, sit) for y in q))
    if ok and _opts(rules).all_calls:
        calls = [i for i in range(r.concealed_sets, len(r.sets)) if _is_call(r, i, sit)]
        ok = all(any(_uses(y, r, i, rules) for y in q) for i in calls)
    return ok


def _one_sided(sit: WinSituation, rules: Ruleset) -> list[Judgement]:
    """S2: every winning tile of the tenpai hand must give a yaku (and one in common)."""
    tenpai = list(sit.hand)
    tenpai.remove(sit.win_tile)
    mask = waits(counts_of([KIND_OF[t] for t in tenpai]), len(sit.melds))
    incidental = _incidental(rules)
    if _opts(rules).menzen_tsumo == "ignored":
        incidental = incidental | {"menzen-tsumo"}
    per_wait: list[tuple[int, frozenset[str]]] = []
    for k in kinds_of_mask(mask):
        tile = Tile(4 * k + 1)  # any copy but a red five: only yaku are asked
        w = sit._replace(hand=tuple(sorted([*tenpai, tile])), win_tile=tile)
        names: frozenset[str] = frozenset()
        for r in yaku_readings(w, rules):
            names |= _qualifying(r, w, rules, incidental)
        if not names and _yakuman(w, rules):
            names = frozenset({"yakuman"})
        per_wait.append((k, names))
    evidence = (("waits", kinds_text(mask)),
                *((kinds_text(1 << k), ", ".join(sorted(n)) or "no yaku") for k, n in per_wait))
    if any(not n for _, n in per_wait):
        bare = kinds_text(sum(1 << k for k, n in per_wait if not n))
        return [("sakizuke-one-sided", f"one-sided wait (片和了り): {bare} would give no yaku",
                 evidence)]
    if not _opts(rules).oute_bisha and len(per_wait) > 1:
        norm = [_normal(n, rules) for _, n in per_wait]
        if not frozenset.intersection(*norm):  # every item is a frozenset (_normal)
            return [("sakizuke-one-sided", "王手飛車: every winning tile gives a yaku, but no "
                     "yaku is common to all", evidence)]
    return []


def _normal(names: frozenset[str], rules: Ruleset) -> frozenset[str]:
    if _opts(rules).oute_bisha_yakuhai and names & VALUE_KIND.keys():
        return frozenset(n for n in names if n not in VALUE_KIND) | {"yakuhai"}
    return names


class Sakizuke(RiichiCheck):
    """Kanzen sakizuke (完全先付け): S1, an open hand's first call carries a yaku of the
    winning hand (or a yaku is complete in its concealed part); S2, no one-sided win
    (片和了り); and incidental yaku alone (海底, 河底, 嶺上, 搶槓, 一発) make no win. The
    variant switches are the ``sakizuke_*`` and ``oute_bisha*`` options.

    Violating sakizuke-first-call under kansaki::

        E1-0 dora=9p
        hands 123m456p789s1122z 34m55z678p345s9s13z ? ?
        2m' S:chi34m 1z 9m' 9p'
        5z' S:pon55z 3z 1p' 2p'
        9s'
        ron S 30fu 1000

    Violating sakizuke-one-sided under kansaki::

        E1-0 dora=9p
        hands 123m456p789s1122z 23m45678m345p99p1z ? ?
        1m' S:chi23m 1z 9s' 8s'
        9m'
        ron S 30fu 1000

    Violating sakizuke-incidental under kansaki::

        E1-0 dora=9p
        hands 123m456p789s1122z 23m456m678s345p9p1z ? ?
        1m' S:chi23m 1z
        1m' 1m' 2m' 2m' 3m' 3m' 4m' 4m' 4m' 5m' 5m' 5m' 6m' 6m' 6m' 7m'
        7m' 7m' 7m' 8m' 8m' 8m' 8m' 9m' 9m' 9m' 9m' 1p' 1p' 1p' 1p' 2p'
        2p' 2p' 2p' 3p' 3p' 3p' 4p' 4p' 5p' 5p' 6p' 6p' 6p' 7p' 7p' 7p'
        7p' 8p' 8p' 8p' 8p' 1s' 1s' 1s' 1s' 2s' 2s' 2s' 2s' 3s' 3s' 3s'
        3s' 4s' 4s' 4s' 9p'
        ron S 30fu 1000

    Legal under kansaki::

        E1-0 dora=9p
        hands 123m456p789s1122z 34m55z678p345s9s13z ? ?
        5z' S:pon55z 1z 9m' 9p'
        2m' S:chi34m 3z 1p' 2p'
        9s'
        ron S 30fu 1000
    """

    RULES = (
        Rule("sakizuke-first-call", "2 S1", "An open hand's first call must carry a yaku of "
             "the winning hand, or a yaku must be complete in its concealed part.", True),
        Rule("sakizuke-one-sided", "2 S2", "No win from a tenpai hand with a winning tile "
             "that gives no yaku (片和了り; 王手飛車 by ruleset).", True),
        Rule("sakizuke-incidental", "2", "Incidental yaku (海底, 河底, 嶺上, 搶槓, 一発) do not "
             "make a win.", True),
    )
    OPTION = "sakizuke"

    @classmethod
    def enabled(cls, rules: Ruleset) -> bool:
        return rules.riichi.sakizuke is not None

    def before_win(self, ev: Win) -> None:
        ref = self.ref
        if ev.from_player == ev.winner and _opts(ref.rules).ron_only:
            return
        if unknown := ref.engine.state.players[ev.winner].unknown:
            ref.unjudged(self.RULES[0], f"{unknown} tiles of the winner's hand are unknown "
                         "(?), so its readings are", ev.winner)
            return
        for code, message, evidence in judge_win(ref.engine.state, ref.events, ref.round_start,
                                                 ref.engine.index, ev, ref.rules):
            ref.violation(self.rule(code), message, ev.winner, evidence=evidence, move=False)

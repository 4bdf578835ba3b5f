"""Taiwanese 16-tile mahjong (mjlog.families.taiwan16): the worked examples of the source (seed 003)
with their exact figures, the special shapes' waits, and a thousand generated games that
survive the notation round trip and audit clean, with injected faults caught.
"""

from __future__ import annotations

import contextlib
import multiprocessing
from collections import Counter
from dataclasses import replace

import pytest

from mjlog.core.events import (
    Chi,
    Discard,
    Draw,
    Event,
    Flower,
    OpenKan,
    Pon,
    RiichiAccepted,
    RoundStart,
    Win,
)
from mjlog.core.record import GameRecord
from mjlog.core.ruleset import preset
from mjlog.core.tiles import FIRST_FLOWER, KIND_OF, Tile, kind_str, parse_kinds
from mjlog.families.registry import random_game
from mjlog.families.riichi.hand.shape import counts_of, kinds_of_mask
from mjlog.families.taiwan16.family import TAIWAN16
from mjlog.families.taiwan16.hand import (
    is_liguligu,
    is_sixteen_unrelated,
    is_win,
    kind_counts,
    waits,
)
from mjlog.families.taiwan16.tai import TaiWin, flower_tai, payments, tai, total
from mjlog.formats import notation
from mjlog.replay.engine import Engine
from mjlog.reports.audit import audit_record

RS = preset("taiwan16")


def _counts(text: str) -> list[int]:
    return counts_of([k for k, _ in parse_kinds(text)])


def _kind(text: str) -> int:
    return parse_kinds(text)[0][0]


def _win(hand: str, tile: str, melds: tuple[tuple[int, str], ...] = (), *, tsumo: bool = False,
         rs: object = RS, **kw: object) -> dict[str, int]:
    c = _counts(hand)
    w = waits(c, len(melds))
    c[_kind(tile)] += 1
    claims = tai(TaiWin(counts=tuple(c), melds=melds, win_kind=_kind(tile), tsumo=tsumo,
                        waits=w, **kw), rs)  # type: ignore[arg-type]
    assert claims is not None
    return {y.name: y.han for y in claims}


def _waits_text(hand: str) -> list[str]:
    return [kind_str(k) for k in kinds_of_mask(waits(_counts(hand), 0))]


# -- section 3: 底 50 / 台 20


def test_section3_red_dragon_single_wait() -> None:
    # (中) 1 台 and 獨聽 1 台, flowers of other seats: an open hand
    got = _win("456m789p123s777z5s", "5s", ((0, "chi"),))
    assert got == {"sanyuanpai": 1, "duting": 1}
    assert payments(4, 1, 2, 0, 0, total_of(got), RS)[1] == 20 * 2 + 50 == 90
    tsumo = _win("456m789p123s777z5s", "5s", ((0, "chi"),), tsumo=True)
    assert total_of(tsumo) == 3
    # each non-dealer pays 110; the source's 330 is three such payers (its example
    # leaves the dealer out; a dealer among them pays 莊家 1 台 more)
    deltas = payments(4, 1, None, 0, 0, total_of(tsumo), RS)
    assert deltas[2] == deltas[3] == -110 and deltas[0] == -130


def test_section3_no_pattern_and_self_draw() -> None:
    # the flower the example holds is another seat's (無効花), and it rules out 平胡
    assert _win("456m789p234s78s55p", "6s", ((0, "chi"),), flowers=(1,)) == {}
    assert payments(4, 1, 2, 0, 0, 0, RS)[1] == 50
    assert _win("456m789p234s78s55p", "6s", ((0, "chi"),), tsumo=True,
                flowers=(1,)) == {"zimo": 1}
    assert payments(4, 1, None, 0, 0, 1, RS)[2] == -70


def test_section3_concealed_all_runs() -> None:
    assert _win("123456m789p23s678s55p", "4s") == {"menqian": 1, "pinghu": 2}
    assert payments(4, 1, 2, 0, 0, 3, RS)[1] == 110
    assert _win("123456m789p23s678s55p", "4s", tsumo=True) == {"menqian-zimo": 3}
    # 平胡 needs no flower at all
    assert _win("123456m789p23s678s55p", "4s", flowers=(1,)) == {"menqian": 1}


# -- section 4: 連莊 and 拉莊 (n = 2, a hand of 3 台)


@pytest.mark.parametrize(("winner", "payer", "expected"), [
    (0, None, {1: -210, 2: -210, 3: -210}),  # dealer tsumo: {台 + 底 + (2n+1)} x 3
    (0, 2, {2: -210}),                        # dealer ron: 台 + 底 + (2n+1)
    (1, None, {0: -210, 2: -110, 3: -110}),   # child tsumo: (台 + 底) x 3 + (2n+1)
    (1, 0, {0: -210}),                        # child ron on the dealer
    (1, 2, {2: -110}),                        # child ron on a child: 台 + 底
])
def test_section4_lian_la_zhuang(winner: int, payer: int | None,
                                 expected: dict[int, int]) -> None:
    deltas = payments(4, winner, payer, 0, 2, 3, RS)
    assert {p: d for p, d in enumerate(deltas) if d < 0} == expected
    assert deltas[winner] == -sum(expected.values())


# -- section 5: flower wins


def test_eight_immortals_fifteen_tai() -> None:
    # the eighth flower replaced by 1s: an open 混一色 with 發 won on the replacement
    got = _win("23s456s789s666z11s", "1s", ((26, "pon"),), tsumo=True, replacement=True,
               flowers=tuple(range(8)), flower_win="eight")
    assert got == {"zimo": 1, "gangshang": 1, "sanyuanpai": 1, "hunyise": 4, "baxian": 8}
    assert sum(got.values()) == 15
    # the same replacement not completing the hand: 八仙過海 alone
    c = _counts("23s456s789s666z11s1p")
    alone = tai(TaiWin(counts=tuple(c), melds=((26, "pon"),), win_kind=9, tsumo=True,
                       replacement=True, flowers=tuple(range(8)), flower_win="eight"), RS)
    assert alone is not None and {y.name: y.han for y in alone} == {"baxian": 8}


def test_seven_rob_one_ten_tai() -> None:
    # east seat in the south round, 春秋梅蘭菊竹 and 夏 held, 冬 robbed; replacement 2m
    flowers = (0, 1, 2, 4, 5, 6, 7, 3)
    got = _win("111z555p777s999m34m22m", "2m", tsumo=True, replacement=True, seat_wind=0,
               round_wind=1, flowers=flowers, flower_win="rob")
    hand = {k: v for k, v in got.items() if k != "qiqiangyi"}
    assert hand == {"menqian-zimo": 3, "gangshang": 1, "fengpai": 1, "sianke": 5}
    assert sum(hand.values()) == 10 and got["qiqiangyi"] == 8
    # the robbed player adds 七搶一's 8 台; the other two the seven other flowers: 春 1
    # and 梅蘭菊竹 as 梅 1 + 花槓 1
    others = sum(flower_tai([f for f in flowers if f != 3], 0).values())
    assert others == 3
    deltas = payments(4, 0, None, 0, 0, 10, RS, extra={1: 8, 2: others, 3: others})
    assert deltas[1:] == [-(50 + 20 * 19), -(50 + 20 * 14), -(50 + 20 * 14)]


# -- section 6: the special shapes


def test_liguligu_nine_sided_wait() -> None:
    hand = "1113334455667788m"
    assert _waits_text(hand) == ["1m", "2m", "3m", "4m", "5m", "6m", "7m", "8m", "9m"]
    c = _counts(hand)
    c[0] += 1
    assert is_liguligu(c) and not is_liguligu(c, melds=1)
    assert _waits_text(hand) != [kind_str(k) for k in kinds_of_mask(
        waits(_counts(hand), 0, liguligu=False))]


def test_liguligu_eight_sided_wait_and_values() -> None:
    assert _waits_text("11z55z33m44s55p66m77s88p") == ["3m", "6m", "5p", "8p", "4s", "7s",
                                                        "1z", "5z"]
    # the 9p single wait with a 白 triplet: 獨聽 1 and 白 1
    assert _win("11335577m2244p555z9p", "9p") == {"liguligu": 8, "sanyuanpai": 1, "duting": 1}
    c = _counts("11335577m2244p555z9p9p")
    off = TaiWin(counts=tuple(c), win_kind=_kind("9p"), tsumo=False)
    assert tai(off, RS.with_options(tw_liguligu=False)) is None


def test_sixteen_unrelated_waits() -> None:
    assert _waits_text("147m258p69s1234567z1z") == ["1s", "2s", "3s"]
    assert _waits_text("17m258p369s1234567z1z") == ["4m"]
    c = _counts("147m258p369s1234567z1z")
    assert is_sixteen_unrelated(c) and not is_sixteen_unrelated(c, melds=1)
    assert waits(_counts("17m258p369s1234567z1z"), 0, sixteen=False) == 0
    got = _win("17m258p369s1234567z1z", "4m")
    assert got == {"shiliu-buda": 10, "duting": 1}


@pytest.mark.parametrize(("hand", "melds", "ready"), [
    ("115599m2266p115599s", 0, 0),  # eight pairs: ready for 嚦咕嚦咕 only, four sets away
    ("147m147p14s12345677z", 0, 0),  # ready for 十六不搭 only
    ("123456789m123p4445s", 0, 0),
    ("1111s", 4, 1),  # its sets wait on a fifth 1s: no wait, not ready
])
def test_a_hand_one_tile_short_is_ready_when_it_has_a_wait(hand: str, melds: int,
                                                            ready: int) -> None:
    """What the viewer shows beside a hand: its shanten agrees with its waits."""
    shanten, mask = TAIWAN16.readiness(_counts(hand), melds, RS)
    assert shanten == ready
    assert bool(mask) is (ready == 0)


def test_all_honours_local_rule_29_tai() -> None:
    # four wind pons and 發, a shanpon on 北 and 白, won on 北: 字一色 16 + 大四喜 16 + 發 1 - 4
    melds = ((27, "pon"), (28, "pon"), (29, "pon"), (32, "pon"))
    got = _win("44z55z", "4z", melds, rs=RS.with_options(tw_all_honours=16), seat_wind=2,
               round_wind=2)
    assert sum(got.values()) == 29
    assert got["dasixi"] == 16 and got["sanyuanpai"] == 1
    plain = _win("44z55z", "4z", melds, seat_wind=2, round_wind=2)
    assert plain == {"dasixi": 16, "ziyise": 8, "sanyuanpai": 1}


def total_of(claims: dict[str, int]) -> int:
    return sum(claims.values())


def test_total_of_claims() -> None:
    claims = tai(TaiWin(counts=tuple(_counts("123456m789p234s678s55p")), win_kind=_kind("4s"),
                        tsumo=True), RS)
    assert claims is not None and total(claims) == 3


# -- declarations: 天聽 (S:ting in the flower procedure) and 地聽 (* on the first discard)

_DEAL = ("E1-0 dice=1,1,3\nhands 1488999p1122336677z 123456789m23p12355s "
         "456789m567p4566789s 123456m123567p89s44z\n")  # S waits on 1p and 4p


def _declared(moves: str, result: str) -> tuple[list[str], list[str], GameRecord]:
    text = ('mjlog-notation 1\n[Players "A" "B" "C" "D"]\n[Ruleset "taiwan16"]\n'
            f"{_DEAL}{moves}\n{result}\n")
    (rec,) = notation.read(text.encode(), "declared.mjn")
    assert rec.diagnostics == []
    rep = audit_record(rec, wall=False)
    errors = [x.code for x in (*rep.problems, *rep.violations)]
    return errors, [f"{x.code}:{x.field}" for x in rep.mismatches], rec


@pytest.mark.parametrize(("moves", "result", "points"), [
    # 人胡: a ron before the declarer's first discard; 天聽 and 門前 are contained
    ("S:ting 1p", "ron S renhu pinghu", 50 + (24 + 2 + 1) * 20),
    # 地胡: a tsumo on the first draw; 天聽 and 門前自摸 are contained
    ("S:ting 7z 4p", "tsumo S dihu", 530 * 2 + 550),
    # 天聽 that stands (the tsumogiri keeps it): 16, and a tsumo adds 自摸 and 不求
    ("S:ting 7z 5z' 5z' 5z' 5z7z 4p", "tsumo S tianting zimo:2", 410 * 2 + 430),
    # 地聽一發 and 地聽: the declaration rides on the first discard, and pays no stick
    ("7z 5z'* 5z' 5z' 5z7z 4p", "tsumo S diting-yifa zimo:2", 330 * 2 + 350),
    ("7z 5z'* 5z' 5z' 5z7z 4z' 4z' 1s' 1s6z 4p", "tsumo S diting zimo:2", 250 * 2 + 270),
    # a discard from hand ends 天聽: the ron is scored without it
    ("S:ting 7z 5s5s 9s' 8s' 1z1p", "ron S menqian pinghu", 50 + 4 * 20),
])
def test_declarations_are_scored(moves: str, result: str, points: int) -> None:
    errors, mismatches, rec = _declared(moves, result)
    assert errors == [] and mismatches == []
    win = next(ev for ev in rec.events if isinstance(ev, Win))
    assert win.points == points
    assert not any(isinstance(ev, RiichiAccepted) for ev in rec.events)
    assert notation.read(notation.write(rec.events).encode(), "back.mjn")[0].events \
        == rec.events


@pytest.mark.parametrize(("moves", "result"), [
    ("S:ting 7z 5s5s 9s' 8s' 1z1p", "ron S tianting pinghu"),  # 天聽 ended by the 5s
    ("E:ting 7z 4p", "tsumo S dihu"),  # the dealer cannot declare 天聽 …
    ("7z S:ting 4p", "tsumo S dihu"),  # … nor anyone after the dealer's first discard
])
def test_declarations_that_do_not_count(moves: str, result: str) -> None:
    errors, mismatches, _ = _declared(moves, result)
    assert "win-tai:tai" in mismatches
    assert errors == ([] if "5s5s" in moves else ["out-of-turn"])


def test_seven_rob_one_first_way_in_a_record() -> None:
    # S has set seven flowers aside; the dealer draws the eighth, sets it aside, and S takes
    # it at once: the hand is not complete, so the robbed dealer pays 8 台 + 莊家 1 + 底
    text = ('mjlog-notation 1\n[Players "A" "B" "C" "D"]\n[Ruleset "taiwan16"]\n'
            "E1-0 dice=1,1,3\nhands 1478899p1122336677z 123456789m2f3f4f5f6f7f8f "
            "456789m567p4566789s 123456m123567p89s44z\n"
            "S:flower2f 2p S:flower3f 1s S:flower4f 3s S:flower5f 4s S:flower6f 5s "
            "S:flower7f 6s S:flower8f 7s\n1p 9p' 9s' 8s' 1f flower1f S:rob1f 5z\n"
            "tsumo S qiqiangyi 230 deltas=-230,+230,0,0\n")
    (rec,) = notation.read(text.encode(), "rob.mjn")
    rep = audit_record(rec, wall=False)
    assert (rep.findings, rep.violations, rep.mismatches) == ([], [], [])
    (paid_by_all,) = notation.read(text.replace(" 230 deltas=-230,+230,0,0", "").encode())
    rep = audit_record(paid_by_all, wall=False)  # the notation pays a tsumo by all three
    assert {m.code for m in rep.mismatches} == {"win-points", "win-deltas"}
    off = audit_record(rec, wall=False, options=(("tw_seven_rob_one", False),))
    assert sorted(v.code for v in off.violations) == ["dead-hand-win", "flower-rob"]


def test_a_hand_nobody_wrote_down_is_dealt_as_a_taiwanese_hand() -> None:
    # '?' for the dealer and for W: 17 and 16 unknown tiles, so the live wall holds
    # 144 - 16 - (17 + 16 * 3) = 63 tiles, as when every hand is written
    text = ('mjlog-notation 1\n[Players "A" "B" "C" "D"]\n[Ruleset "taiwan16"]\n'
            "E1-0 dice=1,1,3\nhands ? 123456789m23p12355s ? 123456m123567p89s44z\n"
            "7z 4p\ntsumo S menqian-zimo\n")
    (rec,) = notation.read(text.encode(), "unknown-hands.mjn")
    start = next(ev for ev in rec.events if isinstance(ev, RoundStart))
    assert [len(h) for h in start.hands] == [17, 16, 16, 16]
    engine = Engine()
    engine.run(rec.events[:2])
    assert engine.state.live_wall == 63 and engine.state.dealing
    written = notation.write(rec.events).splitlines()
    assert next(ln for ln in written if ln.startswith("hands")).startswith("hands ? 123456789m")
    rep = audit_record(rec, wall=False)
    assert [f.code for f in rep.problems] == []


# -- generated games

GAMES = 1000


def _play(seed: int) -> tuple[int, dict[str, int], list[str]]:
    """One game: generated, written, read back and audited; (rounds, move counts, problems)."""
    rec = random_game(RS, seed)
    text = notation.write(rec.events)
    (back,) = notation.read(text.encode(), f"taiwan-{seed}.mjn")
    problems = [str(d) for d in back.diagnostics]
    if back.events != rec.events:
        problems.append("the notation round trip changed the events")
    rep = audit_record(back, wall=False)
    problems += [f"{x.KIND}: {x.code}" for x in (*rep.problems, *rep.violations, *rep.mismatches)]
    moves: Counter[str] = Counter(ev.TYPE for ev in rec.events)
    moves["ron"] = sum(1 for ev in rec.events
                       if isinstance(ev, Win) and ev.from_player != ev.winner)
    for ev in rec.events:
        if isinstance(ev, Win):
            moves.update(f"tai:{y.name}" for y in ev.yaku)
    return rep.rounds, dict(moves), problems


@pytest.mark.slow
def test_a_thousand_generated_games_round_trip_and_audit_clean() -> None:
    with multiprocessing.get_context("spawn").Pool(2) as pool:
        results = pool.map(_play, range(GAMES), chunksize=25)
    bad = {seed: p for seed, (_, _, p) in enumerate(results) if p}
    assert bad == {}
    moves: Counter[str] = Counter()
    for _, m, _ in results:
        moves.update(m)
    rounds = sum(r for r, _, _ in results)
    assert rounds >= 10 * GAMES
    # real games: flowers, every call, wins of both kinds, draws, patterns
    for kind in ("flower", "chi", "pon", "open_kan", "added_kan", "closed_kan",
                 "exhaustive_draw"):
        assert moves[kind] >= GAMES // 10, (kind, moves[kind])
    assert moves["win"] >= 5 * GAMES and moves["ron"] >= GAMES, moves
    for pattern in ("menqian", "zimo", "menqian-zimo", "duting", "huapai", "fengpai",
                    "sanyuanpai", "gangshang", "haidi", "pengpeng", "hunyise", "pinghu"):
        assert moves[f"tai:{pattern}"] >= 5, pattern


# -- injected faults


def _cut(rec: GameRecord, events: list[Event]) -> GameRecord:
    return GameRecord(path=rec.path, format=rec.format, events=events)


def _fresh(engine: Engine, kinds: set[int], taken: set[int]) -> Tile:
    """An unseen physical tile of one of ``kinds`` (not dealt, drawn or shown, nor in
    ``taken``), which a mutation may hand out in a draw; KeyError when there is none."""
    t = next((t for t in range(FIRST_FLOWER) if not engine.state.used[t]
              and KIND_OF[t] in kinds and t not in taken), -1)
    if t < 0:
        raise KeyError(kinds)
    taken.add(t)
    return Tile(t)


def _river_since(events: list[Event], i: int, p: int) -> list[int]:
    """Kinds discarded from ``p``'s own last discard (included) to before ``events[i]``."""
    out: list[int] = []
    for ev in reversed(events[:i]):
        if isinstance(ev, Discard):
            out.append(KIND_OF[ev.tile])
            if ev.player == p:
                break
        elif isinstance(ev, RoundStart):
            break
    return out


def _pon_after(events: list[Event], i: int, engine: Engine, p: int, *,
               third: bool) -> list[Event] | None:
    """``p`` pons the discard ``events[i]``, then discards the third copy (``third``) or a
    tile of another kind; None when ``p`` cannot."""
    d = events[i]
    assert isinstance(d, Discard)
    kind = KIND_OF[d.tile]
    own = sorted(t for t in engine.state.players[p].concealed if KIND_OF[t] == kind)
    others = sorted(t for t in engine.state.players[p].concealed if KIND_OF[t] != kind)
    if len(own) < (3 if third else 2) or not others:
        return None
    pon = Pon(player=p, from_player=d.player, called=d.tile,
              tiles=tuple(sorted(Tile(t) for t in (*own[:2], d.tile))))
    out = own[2] if third else others[0]
    return [*events[:i + 1], pon, Discard(player=p, tile=Tile(out), tsumogiri=False)]


def _inject(rec: GameRecord) -> list[tuple[str, GameRecord]]:
    """Faults injected into one game (at most one of each kind), each cutting the game
    right after it (a passed win plays on with unseen tiles to the player's tsumo)."""
    out: list[tuple[str, GameRecord]] = []
    ev = rec.events
    done: set[str] = set()

    def add(code: str, events: list[Event] | None) -> None:
        if events is not None and code not in done:
            out.append((code, _cut(rec, events)))
            done.add(code)

    engine = Engine()  # one replay: the table after ev[:i + 1] at each step
    engine.apply(ev[0], 0)
    for i in range(1, len(ev) - 3):
        engine.apply(ev[i], i)
        s = engine.state
        players = s.players
        prev, a, b, c = ev[i - 1], ev[i], ev[i + 1], ev[i + 2]
        drawn = isinstance(prev, Draw) and isinstance(a, Flower) and prev.player == a.player
        if isinstance(a, Flower) and isinstance(b, Draw) and drawn and b.rinshan \
                and not s.dealing:
            # the drawn flower thrown instead of set aside
            add("flower-discarded", [*ev[:i], Discard(player=a.player, tile=a.tile,
                                                      tsumogiri=True)])
        if isinstance(a, Flower) and isinstance(b, Draw) and isinstance(c, Discard) \
                and c.player == a.player and c.tile != b.tile and drawn:
            # the flower kept in hand, another tile thrown
            add("flower-kept", [*ev[:i], replace(c, tsumogiri=False)])
        if isinstance(a, Flower) and a.from_player is None and not s.dealing:
            # another player, without seven flowers, takes the flower just set aside
            q = (a.player + 1) % s.n
            if len(players[q].flowers) < 7:
                add("flower-rob", [*ev[:i + 1], Flower(player=q, tile=a.tile,
                                                       from_player=a.player)])
        d = ev[i + 3]
        if s.dealing and isinstance(a, Flower) and isinstance(c, Flower) \
                and a.from_player is None and c.from_player is None and a.player != c.player \
                and isinstance(b, Draw) and isinstance(d, Draw):
            # two seats' turns of the flower procedure swapped
            add("flower-order", [*ev[:i], c, d, a, b])
        if isinstance(a, Chi) and isinstance(b, Discard):
            own = sorted(KIND_OF[t] for t in a.tiles if t != a.called)
            lo, hi = own
            banned = {lo - 1, hi + 1} if hi - lo == 1 else {lo + 1}
            hand = sorted(players[a.player].concealed)
            pick = next((t for t in hand if KIND_OF[t] in banned and KIND_OF[t] // 9 == lo // 9
                         and KIND_OF[t] < 27), None)
            if pick is not None:
                add("chi-wait-discard", [*ev[:i + 1], replace(b, tile=Tile(pick))])
        if isinstance(a, Discard) and isinstance(b, Draw):
            q = b.player
            ps = players[q]
            if not is_win(kind_counts(ps.concealed, a.tile), len(ps.melds)):
                add("false-win", [*ev[:i + 1], Win(
                    winner=q, from_player=a.player,
                    hand=tuple(sorted(Tile(t) for t in [*ps.concealed, a.tile])),
                    win_tile=a.tile)])
        if isinstance(a, Discard) and KIND_OF[a.tile] < 27 and not isinstance(b, Win):
            kind = KIND_OF[a.tile]
            for q in range(s.n):
                if q == a.player:
                    continue
                if s.live_wall <= 3:
                    add("call-late", _pon_after(ev, i, engine, q, third=False))
                    continue
                if kind in _river_since(ev, i, q):
                    add("pon-same-go-around", _pon_after(ev, i, engine, q, third=False))
                add("pon-discard", _pon_after(ev, i, engine, q, third=True))
                if "open-kan-tsumo" not in done:
                    with contextlib.suppress(KeyError):
                        add("open-kan-tsumo", _open_kan_tsumo(ev, i, engine, q))
        if isinstance(a, Discard) and isinstance(b, Win) and b.from_player == a.player \
                and b.winner != a.player and s.live_wall > s.n and "guo-shui" not in done:
            with contextlib.suppress(KeyError):
                add("guo-shui", _passed_ron(ev, i, engine))
    return out


def _open_kan_tsumo(ev: list[Event], i: int, engine: Engine, q: int) -> list[Event]:
    """``q`` makes an open kan on the discard ``ev[i]`` and wins on an unseen replacement
    tile (T5); KeyError when ``q`` holds no triplet of it or is not ready after the kan."""
    a = ev[i]
    assert isinstance(a, Discard)
    kind = KIND_OF[a.tile]
    ps = engine.state.players[q]
    own = sorted(t for t in ps.concealed if KIND_OF[t] == kind)
    if len(own) != 3:
        raise KeyError(kind)
    rest = kind_counts(ps.concealed)
    rest[kind] = 0
    tile = _fresh(engine, set(kinds_of_mask(waits(rest, len(ps.melds) + 1))), set())
    kan = OpenKan(player=q, from_player=a.player, called=a.tile,
                  tiles=tuple(sorted(Tile(t) for t in (*own, a.tile))))
    won = tuple(sorted(Tile(t) for t in (*(t for t in ps.concealed if KIND_OF[t] != kind),
                                         tile)))
    return [*ev[:i + 1], kan, Draw(player=q, tile=tile, rinshan=True),
            Win(winner=q, from_player=q, hand=won, win_tile=tile)]


def _passed_ron(ev: list[Event], i: int, engine: Engine) -> list[Event]:
    """The ron ``ev[i + 1]`` on the discard ``ev[i]`` is passed instead; play goes round,
    others throwing unseen honours, to the winner's tsumo on an unseen winning tile."""
    a, b = ev[i], ev[i + 1]
    assert isinstance(a, Discard) and isinstance(b, Win)
    s = engine.state
    q, taken = b.winner, set[int]()
    wins = set(kinds_of_mask(waits(kind_counts(s.players[q].concealed),
                                   len(s.players[q].melds))))
    events: list[Event] = list(ev[:i + 1])
    p = (a.player + 1) % s.n
    while p != q:
        t = _fresh(engine, set(range(27, 34)) - wins, taken)
        events += [Draw(player=p, tile=t), Discard(player=p, tile=t, tsumogiri=True)]
        p = (p + 1) % s.n
    t = _fresh(engine, wins, taken)
    hand = tuple(sorted(Tile(x) for x in (*s.players[q].concealed, t)))
    return [*events, Draw(player=q, tile=t), Win(winner=q, from_player=q, hand=hand,
                                                 win_tile=t)]


@pytest.mark.slow
def test_injected_faults_are_caught() -> None:
    made: Counter[str] = Counter()
    caught: Counter[str] = Counter()
    for seed in range(30):
        rec = random_game(RS, 5000 + seed)
        for code, mutated in _inject(rec):
            made[code] += 1
            rep = audit_record(mutated, wall=False)
            assert rep.problems == [], code
            if code in {v.code for v in rep.violations}:
                caught[code] += 1
    assert set(made) == {"flower-discarded", "flower-kept", "flower-rob", "flower-order",
                         "chi-wait-discard", "pon-discard", "pon-same-go-around", "call-late",
                         "open-kan-tsumo", "guo-shui", "false-win"}
    assert min(made.values()) >= 10, made
    assert caught == made

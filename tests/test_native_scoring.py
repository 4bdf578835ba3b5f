"""The native riichi valuation, payments and win situations (``core/src/scoring/``)
against their specification: :func:`mjlog.families.riichi.scoring.fast.fast_value`
(the same value, fu, han, yaku names and han in order, limit and payments, or the same
refusal), :mod:`mjlog.families.riichi.scoring.payments` (the same deltas and next round)
and :func:`mjlog.families.riichi.scoring.verify.win_situations` with ``liable_seat`` (the
same situation and liable seat of every win, read by the native engine). On every win of
the corpus (under the record's ruleset and variants: kiriage without open tanyao, no
kazoe limit with red fives switched, kazoe sanbaiman with kiriage), of generated games,
and of hypothesis-generated hands.
"""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Iterable, Iterator
from functools import cache
from pathlib import Path
from typing import Any, NamedTuple

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from mjlog.core import native
from mjlog.core.events import (
    AddedKan,
    Chi,
    ClosedKan,
    ExhaustiveDraw,
    GameStart,
    Meld,
    OpenKan,
    Pon,
    RoundStart,
    Win,
)
from mjlog.core.record import GameRecord
from mjlog.core.ruleset import RiichiOptions, Ruleset, preset
from mjlog.core.tiles import NUM_TILES, Tile
from mjlog.families.registry import random_games
from mjlog.families.riichi.scoring import payments
from mjlog.families.riichi.scoring.fast import fast_value, hand_value, yaku_readings
from mjlog.families.riichi.scoring.riichi import Valuation
from mjlog.families.riichi.scoring.situation import WinSituation
from mjlog.families.riichi.scoring.verify import liable, liable_seat, win_situations
from mjlog.formats import read_path
from mjlog.replay import code as engine_code

from .conftest import CORPUS, CORPUS_MISSING

CORE = native.core()

_MELD_CODES: dict[type, int] = {Chi: 0, Pon: 1, OpenKan: 2, AddedKan: 3, ClosedKan: 4}
_FLAGS = ("riichi", "double_riichi", "ippatsu", "haitei", "houtei", "rinshan", "chankan",
          "tenhou", "chiihou")
Row = tuple[int, int, list[tuple[str, int]], str, int, int] | None
"""A value as both sides are compared: fu, han, (yaku, han) in order, limit, main,
additional; ``None`` for a declined hand."""


def need_core() -> Any:
    """The native core; in CI its absence fails (CI builds it), elsewhere it skips."""
    if CORE is None:
        if os.environ.get("CI"):
            pytest.fail("CI must build the native core: " + native.describe())
        pytest.skip("the native core is not built here (no cargo at install)")
    return CORE


@pytest.fixture(scope="module")
def core() -> Any:
    """The native core (:func:`need_core`)."""
    return need_core()


def _options(ruleset: Ruleset) -> RiichiOptions:
    opts = ruleset.family_options
    return opts if isinstance(opts, RiichiOptions) else RiichiOptions()


def _rules(ruleset: Ruleset) -> tuple[int, bool, bool, bool, str]:
    o = _options(ruleset)
    return ruleset.players, ruleset.red_fives, o.open_tanyao, o.kiriage, o.kazoe


def valuable(sit: WinSituation) -> bool:
    """Whether :func:`mjlog.families.riichi.scoring.riichi.value` would ask fast.py about
    ``sit`` (every tile and indicator known, enough tiles)."""
    ura = sit.ura_indicators if sit.riichi or sit.double_riichi else ()
    tiles = [*sit.hand, *sit.dora_indicators, *ura, *(t for m in sit.melds for t in m.tiles)]
    return (len(sit.hand) + 3 * len(sit.melds) >= 14 and bool(sit.hand)
            and all(0 <= t < NUM_TILES for t in tiles))


def _args(sit: WinSituation, ruleset: Ruleset) -> tuple[Any, ...]:
    """``sit`` and ``ruleset`` as ``riichi_value`` and ``riichi_yaku_readings`` take them."""
    flags = sum(1 << i for i, name in enumerate(_FLAGS) if getattr(sit, name))
    melds = [(_MELD_CODES.get(type(m), 5), list(m.tiles)) for m in sit.melds]
    return (list(sit.hand), melds, sit.win_tile,
            (sit.winner, sit.from_player, sit.dealer, sit.seat_wind, sit.round_wind), flags,
            list(sit.dora_indicators), list(sit.ura_indicators), sit.kita, _rules(ruleset))


def native_row(core: Any, sit: WinSituation, ruleset: Ruleset) -> Row:
    """The native value of ``sit`` under ``ruleset``."""
    got = core.riichi_value(*_args(sit, ruleset))
    return None if got is None else (got[0], got[1], list(got[2]), got[3], got[4], got[5])


Readings = list[tuple[int, list[tuple[int, bool, bool, bool]], int, list[str]]]
"""``yaku_readings`` as both sides are compared: pair, sets, concealed sets, yaku."""


def native_readings(core: Any, sit: WinSituation, ruleset: Ruleset) -> Readings:
    """The native ``yaku_readings`` of ``sit``."""
    return [(p, list(sets), n, list(yaku))
            for p, sets, n, yaku in core.riichi_yaku_readings(*_args(sit, ruleset))]


def python_readings(sit: WinSituation, ruleset: Ruleset) -> Readings:
    """:func:`fast.yaku_readings` of ``sit``."""
    return [(r.pair, list(r.sets), r.concealed_sets, list(r.yaku))
            for r in yaku_readings(sit, ruleset)]


def python_row(sit: WinSituation, ruleset: Ruleset) -> Row:
    """fast.py's value of ``sit`` under ``ruleset``."""
    got = fast_value(sit, ruleset)
    if got is None:
        return None
    fu, han, yaku, limit, main, additional = got
    return fu, han, [(y.name, y.han) for y in yaku], limit, main, additional


class Tally(NamedTuple):
    """Wins compared (their value and their ``yaku_readings``), declined by both,
    different, and the first difference."""

    compared: int
    declined: int
    different: int
    first: str


def compare(core: Any, cases: Iterable[tuple[WinSituation, Ruleset]]) -> Tally:
    """Both valuations of every case that fast.py would be asked about."""
    compared = declined = different = 0
    first = ""
    for sit, ruleset in cases:
        if not valuable(sit):
            continue
        mine = native_row(core, sit, ruleset), native_readings(core, sit, ruleset)
        theirs = python_row(sit, ruleset), python_readings(sit, ruleset)
        compared += 1
        declined += theirs[0] is None
        if mine != theirs:
            different += 1
            first = first or f"{sit}\n{ruleset.name}\npython {theirs}\nnative {mine}"
    return Tally(compared, declined, different, first)


def variants(ruleset: Ruleset) -> list[Ruleset]:
    """``ruleset`` and two variants of the options that change values: kiriage without
    open tanyao; no kazoe limit without red fives, in three-player counting of dora."""
    o = _options(ruleset)
    return [
        ruleset,
        dataclasses.replace(ruleset, name="kiriage", family_options=dataclasses.replace(
            o, kiriage=True, open_tanyao=False)),
        dataclasses.replace(ruleset, name="no-limit", red_fives=not ruleset.red_fives,
                            family_options=dataclasses.replace(o, kazoe="none")),
        dataclasses.replace(ruleset, name="sanbaiman", family_options=dataclasses.replace(
            o, kazoe="sanbaiman", kiriage=True)),
    ]


def situations(records: Iterable[GameRecord]) -> Iterator[tuple[WinSituation, Ruleset]]:
    """Every win of ``records`` with the record's riichi ruleset."""
    for rec in records:
        for _, sit, ruleset in win_situations(rec):
            if isinstance(ruleset.family_options, RiichiOptions):
                yield sit, ruleset


def with_variants(cases: Iterable[tuple[WinSituation, Ruleset]]
                  ) -> Iterator[tuple[WinSituation, Ruleset]]:
    for sit, ruleset in cases:
        for r in variants(ruleset):
            yield sit, r


def _corpus_records(limit: int | None) -> list[GameRecord]:
    """Records of the corpus read with :func:`read_path` (every format it reads)."""
    index = CORPUS / "_index.tsv"
    if not index.exists():
        pytest.skip(CORPUS_MISSING)
    rows = [line.split("\t") for line in index.read_text(encoding="utf-8").splitlines()[1:]]
    paths = [CORPUS / r[0] for r in rows if r[1] not in ("unknown", "format")
             and not r[1].startswith("schema")]
    out: list[GameRecord] = []
    for path in paths[:limit]:
        out.extend(_read(path))
    return out


def _read(path: Path) -> list[GameRecord]:
    try:
        got = read_path(path)
    except Exception:  # a file the readers refuse is the readers' tests' business
        return []
    records = got if isinstance(got, list) else [got]
    return [r for r in records if isinstance(r, GameRecord) and r.events
            and isinstance(r.events[0], GameStart)]


# -- the corpus and generated games


@pytest.mark.slow
def test_every_corpus_win_is_valued_alike(core: Any) -> None:
    """Every win of every corpus record, under its ruleset and three variants."""
    t = compare(core, with_variants(situations(_corpus_records(None))))
    print(f"\ncorpus: {t.compared} valuations compared, {t.declined} declined by both, "
          f"{t.different} different")
    assert t.different == 0, t.first
    assert t.compared > 4 * 19_000 and t.declined > 0


def test_some_corpus_wins_are_valued_alike(core: Any) -> None:
    """The fast loop's share of the corpus: its first 60 files."""
    t = compare(core, with_variants(situations(_corpus_records(60))))
    assert t.different == 0, t.first
    assert t.compared > 400


@cache
def _generated(count: int) -> tuple[GameRecord, ...]:
    """``count`` generated four-player games and as many three-player ones."""
    return (*random_games(preset("tenhou"), count, seed=4600),
            *random_games(preset("tenhou-sanma"), count, seed=4600))


def _generated_alike(core: Any, count: int) -> Tally:
    t = compare(core, with_variants(situations(_generated(count))))
    assert t.different == 0, t.first
    return t


def test_generated_wins_are_valued_alike(core: Any) -> None:
    """Wins of generated four- and three-player games."""
    assert _generated_alike(core, 8).compared > 40


@pytest.mark.slow
def test_many_generated_wins_are_valued_alike(core: Any) -> None:
    t = _generated_alike(core, 300)
    print(f"\ngenerated: {t.compared} valuations compared, {t.declined} declined by both, "
          f"{t.different} different")
    assert t.compared > 4000


# -- generated hands


_SET = st.tuples(st.booleans(), st.integers(0, 33), st.integers(0, 5))
"""A set: a run (else a triplet), its first kind, how it is held (0-1 concealed, 2 chi or
pon, 3 open kan, 4 added kan, 5 closed kan)."""


@st.composite
def hands(draw: st.DrawFn) -> tuple[WinSituation, Ruleset]:
    """A complete 14-tile hand (four sets and a pair, or seven pairs, or any tiles), some
    sets called, with a random situation and ruleset."""
    used = [0] * 34

    def take(kind: int) -> Tile:
        if used[kind] >= 4:
            raise _Overdrawn
        used[kind] += 1
        return Tile(kind * 4 + used[kind] - 1)

    shape = draw(st.sampled_from(("sets", "sets", "sets", "pairs", "any")))
    concealed: list[Tile] = []
    melds: list[Meld] = []
    players = draw(st.sampled_from((3, 4)))
    winner = draw(st.integers(0, players - 1))
    try:
        if shape == "pairs":
            for k in draw(st.lists(st.integers(0, 33), min_size=7, max_size=7, unique=True)):
                concealed += [take(k), take(k)]
        elif shape == "any":
            concealed = [take(k) for k in draw(st.lists(st.integers(0, 33), min_size=14,
                                                        max_size=14))]
        else:
            for run, kind, held in draw(st.lists(_SET, min_size=4, max_size=4)):
                _add_set(run, kind, held, take, concealed, melds, winner)
            pair = draw(st.integers(0, 33))
            concealed += [take(pair), take(pair)]
    except _Overdrawn:
        assume(False)
    return _situation(draw, concealed, melds, players, winner), _ruleset(draw, players)


class _Overdrawn(Exception):
    """A fifth copy of a kind."""


def _add_set(run: bool, kind: int, held: int, take: Any, concealed: list[Tile],
             melds: list[Meld], winner: int) -> None:
    if run:
        k = kind % 27 // 9 * 9 + min(kind % 9, 6)
        tiles = [take(k), take(k + 1), take(k + 2)]
        if held == 2:
            melds.append(Chi(player=winner, tiles=tuple(tiles), called=tiles[0],
                             from_player=(winner + 3) % 4))
        else:
            concealed += tiles
        return
    if held < 2:
        concealed += [take(kind) for _ in range(3)]
        return
    tiles = [take(kind) for _ in range(3 if held == 2 else 4)]
    src = (winner + 1) % 4
    t = tuple(tiles)
    melds.append(
        Pon(player=winner, tiles=t, called=t[0], from_player=src) if held == 2
        else OpenKan(player=winner, tiles=t, called=t[0], from_player=src) if held == 3
        else AddedKan(player=winner, tiles=t, called=t[0], added=t[3], from_player=src)
        if held == 4 else ClosedKan(player=winner, tiles=t))


def _situation(draw: st.DrawFn, concealed: list[Tile], melds: list[Meld], players: int,
               winner: int) -> WinSituation:
    hand = tuple(sorted(concealed))
    win_tile = draw(st.sampled_from(hand))
    tsumo = draw(st.booleans())
    dealer = draw(st.integers(0, players - 1))
    flags = {name: draw(st.booleans()) for name in _FLAGS}
    flags["tenhou"] = flags["tenhou"] and draw(st.booleans())
    flags["chiihou"] = flags["chiihou"] and draw(st.booleans())
    indicators = st.lists(st.integers(0, NUM_TILES - 1).map(Tile), max_size=3)
    return WinSituation(
        winner=winner, from_player=winner if tsumo else (winner + 1) % players,
        players=players, dealer=dealer, seat_wind=(winner - dealer) % players,
        round_wind=draw(st.integers(0, 3)), hand=hand, win_tile=win_tile, melds=tuple(melds),
        honba=draw(st.integers(0, 5)), kyotaku=draw(st.integers(0, 3)),
        dora_indicators=tuple(draw(indicators)), ura_indicators=tuple(draw(indicators)),
        kita=draw(st.integers(0, 4)) if players == 3 else 0, **flags)


def _ruleset(draw: st.DrawFn, players: int) -> Ruleset:
    o = RiichiOptions(open_tanyao=draw(st.booleans()), kiriage=draw(st.booleans()),
                      kazoe=draw(st.sampled_from(("yakuman", "sanbaiman", "none"))))
    return Ruleset(name="drawn", players=players, red_fives=draw(st.booleans()),
                   family_options=o)


def _valued_alike(case: tuple[WinSituation, Ruleset]) -> None:
    core = need_core()
    sit, ruleset = case
    assert native_row(core, sit, ruleset) == python_row(sit, ruleset)
    assert native_readings(core, sit, ruleset) == python_readings(sit, ruleset)


@settings(max_examples=250, deadline=None, suppress_health_check=list(HealthCheck))
@given(case=hands())
def test_generated_hands_are_valued_alike(case: tuple[WinSituation, Ruleset]) -> None:
    _valued_alike(case)


@pytest.mark.slow
@settings(max_examples=5000, deadline=None, suppress_health_check=list(HealthCheck))
@given(case=hands())
def test_many_generated_hands_are_valued_alike(case: tuple[WinSituation, Ruleset]) -> None:
    _valued_alike(case)


@settings(max_examples=300, deadline=None)
@given(han=st.integers(0, 60), fu=st.integers(20, 140), kiriage=st.booleans(),
       kazoe=st.sampled_from(("yakuman", "sanbaiman", "none")))
def test_hand_value_agrees(han: int, fu: int, kiriage: bool, kazoe: str) -> None:
    core = need_core()
    rs = Ruleset(family_options=RiichiOptions(kiriage=kiriage, kazoe=kazoe))  # type: ignore[arg-type]
    assert tuple(core.riichi_hand_value(han, fu, _rules(rs))) == hand_value(han, fu, rs)


def test_bad_input_is_a_value_error(core: Any) -> None:
    rules = (4, True, True, False, "yakuman")
    with pytest.raises(ValueError, match="tile ids"):
        core.riichi_value([200], [], 0, (0, 1, 0, 0, 0), 0, [], [], 0, rules)
    with pytest.raises(ValueError, match="kazoe"):
        core.riichi_value([0], [], 0, (0, 1, 0, 0, 0), 0, [], [], 0, (*rules[:4], "x"))
    with pytest.raises(ValueError, match="seat"):
        core.riichi_win_deltas(4, 0, 1, 0, 1000, 0, 0, 0, 7, None)


# -- payments


def python_win_deltas(sit: WinSituation, main: int, additional: int, *, first: bool,
                      pao: int | None, pao_value: tuple[int, int] | None) -> list[int]:
    """:func:`payments.win_deltas` of a hand paying ``main`` and ``additional``."""
    val = Valuation(main=main, additional=additional)
    part = None if pao_value is None else Valuation(main=pao_value[0], additional=pao_value[1])
    return payments.win_deltas(val, sit, sticks=sit.kyotaku if first else 0, honba=first,
                               pao=pao, pao_value=part)


def native_win_deltas(core: Any, sit: WinSituation, main: int, additional: int, *,
                      first: bool, pao: int | None, pao_value: tuple[int, int] | None
                      ) -> list[int]:
    return list(core.riichi_win_deltas(
        sit.players, sit.winner, sit.from_player, sit.dealer, main, additional,
        sit.honba if first else 0, sit.kyotaku if first else 0, pao, pao_value))


def test_win_deltas_agree_on_every_generated_win(core: Any) -> None:
    """The deltas of every valued win of generated games, as the first winner (honba and
    sticks) and as another, with the liable seat fast.py's verifier names."""
    compared = 0
    for sit, ruleset in situations(_generated(8)):
        got = fast_value(sit, ruleset) if valuable(sit) else None
        if got is None:
            continue
        for first in (True, False):
            kw: dict[str, Any] = {"first": first, "pao": liable(sit), "pao_value": None}
            assert native_win_deltas(core, sit, got[4], got[5], **kw) == \
                python_win_deltas(sit, got[4], got[5], **kw), sit
            compared += 1
    assert compared > 40


_SEATS = st.integers(0, 3)


@settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
@given(case=hands(), main=st.integers(0, 50000), additional=st.integers(0, 20000),
       first=st.booleans(), pao=st.one_of(st.none(), _SEATS),
       pao_value=st.one_of(st.none(), st.tuples(st.integers(0, 50000), st.integers(0, 20000))))
def test_win_deltas_agree(case: tuple[WinSituation, Ruleset], main: int, additional: int,
                          first: bool, pao: int | None, pao_value: tuple[int, int] | None
                          ) -> None:
    core = need_core()
    sit = case[0]
    pao = None if pao is None else pao % sit.players
    kw: dict[str, Any] = {"first": first, "pao": pao, "pao_value": pao_value}
    assert native_win_deltas(core, sit, main, additional, **kw) == \
        python_win_deltas(sit, main, additional, **kw)


@settings(max_examples=300, deadline=None)
@given(points=st.integers(0, 200000), players=st.sampled_from((3, 4)), winner=_SEATS,
       payer=st.one_of(st.none(), _SEATS), dealer=_SEATS, honba=st.integers(0, 12),
       sticks=st.integers(0, 6), pao=st.one_of(st.none(), _SEATS))
def test_points_deltas_agree(points: int, players: int, winner: int, payer: int | None,
                             dealer: int, honba: int, sticks: int, pao: int | None) -> None:
    core = need_core()
    winner, dealer = winner % players, dealer % players
    payer = None if payer is None or payer % players == winner else payer % players
    pao = None if pao is None else pao % players
    assert list(core.riichi_points_deltas(points, players, winner, payer, dealer, honba,
                                          sticks, pao)) == payments.points_deltas(
        points, players=players, winner=winner, payer=payer, dealer=dealer, honba=honba,
        sticks=sticks, pao=pao)


@settings(max_examples=200, deadline=None)
@given(tenpai=st.lists(st.booleans(), min_size=3, max_size=4),
       per_ready=st.sampled_from((0, 0, 1000, 1500)), nagashi=st.lists(_SEATS, max_size=2),
       dealer=_SEATS)
def test_draw_deltas_agree(tenpai: list[bool], per_ready: int, nagashi: list[int],
                           dealer: int) -> None:
    core = need_core()
    n = len(tenpai)
    nagashi = [p % n for p in nagashi]
    dealer %= n
    expected = (payments.nagashi_deltas(nagashi, dealer, n) if nagashi
                else payments.draw_deltas(tenpai, RiichiOptions(noten_per_ready=per_ready)))
    assert list(core.riichi_draw_deltas(tenpai, per_ready, nagashi, dealer)) == expected


@settings(max_examples=150, deadline=None)
@given(wind=st.integers(0, 3), number=st.integers(1, 4), honba=st.integers(0, 9),
       dealer=_SEATS, players=st.sampled_from((3, 4)), keeps=st.booleans(), up=st.booleans())
def test_next_round_agrees(wind: int, number: int, honba: int, dealer: int, players: int,
                           keeps: bool, up: bool) -> None:
    core = need_core()
    dealer %= players
    assert tuple(core.riichi_next_round((wind, number, honba), dealer, players, keeps, up)) \
        == payments.next_round(wind, number, honba, dealer, players, dealer_keeps=keeps,
                               honba_up=up)


@pytest.mark.slow
def test_corpus_results_pay_alike(core: Any) -> None:
    """Every win's recorded points and every exhaustive draw's tenpai of the corpus paid
    both ways (what ``Riichi.result_deltas`` and the verifier compute)."""
    wins = draws = 0
    for rec in _corpus_records(None):
        n = rec.events[0].ruleset.players if isinstance(rec.events[0], GameStart) else 4
        for ev in rec.events:
            if isinstance(ev, Win) and 0 <= ev.winner < n and 0 <= ev.from_player < n:
                payer = None if ev.from_player == ev.winner else ev.from_player
                pao = ev.pao if ev.pao is not None and 0 <= ev.pao < n else None
                for dealer in range(n):
                    assert list(core.riichi_points_deltas(
                        ev.points, n, ev.winner, payer, dealer, ev.honba, ev.kyotaku, pao)) \
                        == payments.points_deltas(
                        ev.points, players=n, winner=ev.winner, payer=payer, dealer=dealer,
                        honba=ev.honba, sticks=ev.kyotaku, pao=pao)
                wins += 1
            elif isinstance(ev, ExhaustiveDraw):
                tenpai = [p < len(ev.hands) and ev.hands[p] is not None for p in range(n)]
                assert list(core.riichi_draw_deltas(tenpai, 0, [], 0)) == \
                    payments.draw_deltas(tenpai, RiichiOptions())
                draws += 1
    print(f"\ncorpus payments: {wins} wins x every dealer, {draws} draws")
    assert wins > 19_000 and draws > 3_500


# -- situations from the native engine


def python_situations(rec: GameRecord) -> list[tuple[Any, ...]]:
    """:func:`win_situations` of ``rec`` as rows ``riichi_win_situations`` gives, with
    the :func:`liable_seat` of each win without and with ``open_kan_pao``."""
    rows = []
    plain = Ruleset(family_options=RiichiOptions(open_kan_pao=False))
    k8 = Ruleset(family_options=RiichiOptions(open_kan_pao=True))
    for i, sit, _ in win_situations(rec):
        start = max(j for j in range(i) if isinstance(rec.events[j], RoundStart))
        pao = (liable_seat(sit, rec.events, start, i, plain),
               liable_seat(sit, rec.events, start, i, k8))
        flags = sum(1 << b for b, name in enumerate(_FLAGS) if getattr(sit, name))
        melds = [(_MELD_CODES.get(type(m), 5), list(m.tiles),
                  sit.winner if isinstance(m, ClosedKan) else m.from_player) for m in sit.melds]
        rows.append((i, (sit.winner, sit.from_player, sit.players, sit.dealer, sit.seat_wind,
                         sit.round_wind), list(sit.hand), sit.win_tile, melds, flags,
                     (sit.honba, sit.kyotaku), list(sit.dora_indicators),
                     list(sit.ura_indicators), sit.kita, pao))
    return rows


def native_situations(core: Any, rec: GameRecord) -> list[tuple[Any, ...]] | None:
    """The native engine's rows, ``None`` when the encoder declines the game."""
    code = engine_code.encode(rec.events, core).code
    return None if code is None else [tuple(r) for r in core.riichi_win_situations(code)]


def compare_situations(core: Any, records: Iterable[GameRecord]) -> tuple[int, int, int, str]:
    """Games compared, wins compared, games different, the first difference."""
    games = wins = different = 0
    first = ""
    for rec in records:
        mine = native_situations(core, rec)
        if mine is None:
            continue
        theirs = python_situations(rec)
        games += 1
        wins += len(theirs)
        if mine != theirs:
            different += 1
            diff = next(((a, b) for a, b in zip(theirs, mine, strict=False) if a != b),
                        (len(theirs), len(mine)))
            first = first or f"{rec.src(0)}\npython {diff[0]}\nnative {diff[1]}"
    return games, wins, different, first


def test_generated_situations_agree(core: Any) -> None:
    """The native engine's win situations of generated games are Python's."""
    _, wins, different, first = compare_situations(core, _generated(8))
    assert different == 0, first
    assert wins > 10


@pytest.mark.slow
def test_corpus_situations_agree(core: Any) -> None:
    games, wins, different, first = compare_situations(core, _corpus_records(None))
    print(f"\ncorpus situations: {games} games, {wins} wins compared, {different} games "
          f"different")
    assert different == 0, first
    assert wins > 19_000

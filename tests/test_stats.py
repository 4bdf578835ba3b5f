"""Statistics: every metric on two games written for the test, values worked out by hand.

Game 1 (seats A B C D, from 25000): E1 B declares riichi, C pons from A, then A
deals in to C (3900 + B's stick) and D (1000, dama) at once; E2 A chis and wins
2000 on B's riichi declaration tile; E3 exhaustive draw, A and C tenpai
(+1500 / -1500); E4 nine terminals; E4-1 D (dealer) declares riichi and wins
by tsumo with ippatsu and one ura (12000 + the stick). Final A 19600, B 16500,
C 27400, D 36500. Game 2 (from 5000): C wins 8000 from B, who ends at -3000.
"""

from __future__ import annotations

import re
from datetime import datetime
from pathlib import Path
from typing import Any

import polars as pl
import pytest
from hypothesis import given
from hypothesis import strategies as st

from mjlog.core.events import (
    AbortiveDraw,
    Chi,
    Discard,
    Event,
    ExhaustiveDraw,
    GameEnd,
    GameStart,
    PlayerInfo,
    Pon,
    RiichiAccepted,
    RoundEnd,
    RoundStart,
    Win,
    YakuClaim,
)
from mjlog.core.record import GameRecord
from mjlog.core.tiles import Tile
from mjlog.stats import SCHEMAS, Filters, facts, metrics, summarize
from mjlog.stats.facts import Batch, add_game, tenhou_id
from mjlog.stats.metrics import Totals, count, merge

from .conftest import CORPUS, EXAMPLES, corpus_paths

NAMES = ("A", "B", "C", "D")
HANDS = tuple(tuple(Tile(13 * p + k) for k in range(13)) for p in range(4))


def _start() -> GameStart:
    return GameStart(source="test", players=tuple(PlayerInfo(name=n) for n in NAMES))


def _round(number: int, dealer: int, scores: tuple[int, ...], honba: int = 0,
           hands: tuple[tuple[Tile, ...], ...] = HANDS) -> RoundStart:
    return RoundStart(round_wind=0, round_number=number, honba=honba, kyotaku=0, dealer=dealer,
                      scores=scores, dora_indicator=Tile(135), hands=hands)


def _d(p: int, t: int, riichi: bool = False) -> Discard:
    return Discard(player=p, tile=Tile(t), riichi=riichi)


def _win(w: int, f: int, points: int, deltas: tuple[int, ...], *yaku: tuple[str, int]) -> Win:
    return Win(winner=w, from_player=f, hand=(), win_tile=Tile(0), points=points,
               yaku=tuple(YakuClaim(name=n, han=h) for n, h in yaku),
               han=sum(h for _, h in yaku), fu=30, deltas=deltas)


def game_one() -> GameRecord:
    s = (25000,) * 4
    ev: list[Event] = [
        _start(),
        _round(1, 0, s), _d(0, 100), _d(1, 101), _d(2, 102), _d(3, 103), _d(0, 104),
        _d(1, 105, riichi=True), RiichiAccepted(player=1),
        Pon(player=2, from_player=0, called=Tile(104), tiles=(Tile(104), Tile(105), Tile(106))),
        _d(2, 107), _d(3, 108), _d(0, 109),
        _win(2, 0, 3900, (-3900, 0, 4900, 0), ("haku", 1), ("dora", 2)),
        _win(3, 0, 1000, (-1000, 0, 0, 1000), ("tanyao", 1)), RoundEnd(),
        _round(2, 1, (20100, 24000, 29900, 26000)), _d(1, 110), _d(2, 111), _d(3, 112),
        Chi(player=0, from_player=3, called=Tile(112), tiles=(Tile(112), Tile(116), Tile(120))),
        _d(0, 113), _d(1, 114, riichi=True),
        _win(0, 1, 2000, (2000, -2000, 0, 0), ("tanyao", 1)), RoundEnd(),
        _round(3, 2, (22100, 22000, 29900, 26000)), _d(2, 115),
        ExhaustiveDraw(hands=(HANDS[0], None, HANDS[2], None),
                       deltas=(1500, -1500, 1500, -1500)), RoundEnd(),
        _round(4, 3, (23600, 20500, 31400, 24500)),
        AbortiveDraw(kind="nine-terminals", deltas=(0, 0, 0, 0)), RoundEnd(),
        _round(4, 3, (23600, 20500, 31400, 24500), honba=1), _d(3, 117, riichi=True),
        RiichiAccepted(player=3),
        _win(3, 3, 12000, (-4000, -4000, -4000, 13000), ("riichi", 1), ("ippatsu", 1),
             ("menzen-tsumo", 1), ("tanyao", 1), ("ura-dora", 1)), RoundEnd(),
        GameEnd(scores=(19600, 16500, 27400, 36500), points=(-20.4, -43.5, 17.4, 46.5)),
    ]
    return GameRecord(path="g1", format="jsonl", events=ev)


def game_two() -> GameRecord:
    ev: list[Event] = [
        _start(), _round(1, 0, (5000,) * 4), _d(0, 100), _d(1, 101),
        _win(2, 1, 8000, (0, -8000, 8000, 0), ("chun", 1), ("dora", 3)), RoundEnd(),
        GameEnd(scores=(5000, -3000, 13000, 5000)),
    ]
    return GameRecord(path="g2", format="jsonl", events=ev)


@pytest.fixture(scope="module")
def tables() -> dict[str, pl.DataFrame]:
    batch = Batch()
    add_game(batch, game_one())
    add_game(batch, game_two())
    return batch.frames()


def _row(df: pl.DataFrame, player: str) -> dict[str, float | None]:
    return df.filter(pl.col("player") == player).to_dicts()[0]


EXPECTED = {  # metric column → A, B, C, D (by hand, see the module docstring)
    "games": (2, 2, 2, 2),
    "rounds": (6, 6, 6, 6),
    "win_rate": (1 / 6, 0, 2 / 6, 2 / 6),
    "deal_in_rate__double_ron_once": (1 / 6, 2 / 6, 0, 0),
    "riichi_rate": (0, 2 / 6, 0, 1 / 6),
    "call_rate": (1 / 6, 0, 1 / 6, 0),
    "tsumo_rate": (0, None, 0, 1 / 2),
    "dama_rate": (0, None, 1 / 2, 1 / 2),
    "draw_rate__draws_all": (2 / 6,) * 4,
    "tenpai_at_draw": (1, 0, 1, 0),
    "average_placement": (2.5, 4, 1.5, 2),
    "first_rate": (0, 0, 0.5, 0.5),
    "second_rate": (0.5, 0, 0.5, 0),
    "third_rate": (0.5, 0, 0, 0.5),
    "fourth_rate": (0, 1, 0, 0),
    "bust_rate": (0, 0.5, 0, 0),
    "average_win__raw": (2000, None, 5950, 6500),
    "average_deal_in__double_ron_once": (4900, 5000, None, None),
    "riichi_win_rate": (None, 0, None, 1),
    "riichi_deal_in_rate": (None, 0.5, None, 0),
    "call_win_rate": (1, None, 1, None),
    "ippatsu_rate": (None, None, None, 1),
    "ura_per_riichi_win": (None, None, None, 1),
    "ura_hit_rate": (None, None, None, 1),
    # the metrics added with intervals, worked out from the same two games
    "tsumo_hit_rate": (1 / 6, 1 / 6, 1 / 6, 0),  # D's tsumo in E4-1
    "top_two_rate": (0.5, 0, 1, 0.5),  # game 2: A and D tie at 5000, A sits nearer the dealer
    "average_points": (-20.4, -43.5, 17.4, 46.5),  # game 2 gives no points
    "average_final_score": (12300, 6750, 20200, 20750),
    "average_win_turn": (1, None, 1, 1.5),  # own discards before the win
    "average_dora": (0, None, 2.5, 0.5),  # C: 2 and 3 dora; D: none, then one ura
    "average_riichi_turn": (None, 2, None, 1),  # the declaration tile counted
    "first_riichi_rate": (None, 1, None, 1),
    "riichi_balance": (None, -1500, None, 12000),  # B: -1000 (stick), -2000 (dealt in)
    "call_deal_in_rate": (0, None, 0, None),
    "call_balance": (2000, None, 4900, None),
    "dealer_win_rate": (0, 0, 0, 0.5),  # D: E4 drawn, E4-1 won
    "dealer_deal_in_rate": (0.5, 1, 0, 0),  # A dealt in as dealer of game 1's E1
    "dealer_tsumo_hit_rate": (0, 0, 0, 0),
    "longest_dealer_streak": (0, 0, 0, 1),  # D kept the deal once (E4 to E4-1)
    "yakuman": (0, 0, 0, 0),
    "stable_dan": (None, None, None, None),  # not Tenhou games: see test_tenhou_formulas
}


@pytest.mark.parametrize("column", sorted(EXPECTED))
def test_every_metric_by_hand(tables: dict[str, pl.DataFrame], column: str) -> None:
    df = metrics(tables, by=["player"])
    for player, want in zip(NAMES, EXPECTED[column], strict=True):
        got = _row(df, player)[column]
        if want is None:
            assert got is None, (column, player)
        else:
            assert got == pytest.approx(want), (column, player)


@pytest.mark.parametrize(("options", "column", "expected"), [
    ({"double_ron": "twice"}, "deal_in_rate__double_ron_twice", (2 / 6, 2 / 6, 0, 0)),
    ({"double_ron": "twice"}, "average_deal_in__double_ron_twice", (2450, 5000, None, None)),
    ({"average_win": "score-change"}, "average_win__score_change",
     (2000, None, 6450, 6500)),
    ({"average_win": "score-change-with-stick"},
     "average_win__score_change_with_stick", (2000, None, 6450, 7000)),
    ({"draws": "exhaustive"}, "draw_rate__draws_exhaustive", (1 / 6,) * 4),
])
def test_conventions(tables: dict[str, pl.DataFrame], options: dict[str, str], column: str,
                     expected: tuple[float | None, ...]) -> None:
    df = metrics(tables, by=["player"], options=options)
    for player, want in zip(NAMES, expected, strict=True):
        got = _row(df, player)[column]
        assert got == (None if want is None else pytest.approx(want)), (column, player)


def test_pooled_and_filtered(tables: dict[str, pl.DataFrame]) -> None:
    pooled = metrics(tables, by=[]).to_dicts()[0]
    assert pooled["rounds"] == 24 and pooled["win_rate"] == pytest.approx(5 / 24)
    only_b = metrics(tables, by=["player"], filters=Filters(players=("B",)))
    assert only_b["player"].to_list() == ["B"]
    with pytest.raises(ValueError, match="cannot group by"):
        metrics(tables, by=["colour"])
    with pytest.raises(ValueError, match="double_ron"):
        metrics(tables, options={"double_ron": "thrice"})


def test_fact_tables_have_the_documented_schemas(tables: dict[str, pl.DataFrame]) -> None:
    for name, df in tables.items():
        assert dict(df.schema) == SCHEMAS[name], name
    wins = tables["wins"]
    assert wins.filter(pl.col("player") == "D")["yaku"].to_list()[1] == [
        "riichi", "ippatsu", "menzen-tsumo", "tanyao", "ura-dora"]
    pr = tables["player_rounds"].filter((pl.col("player") == "B") & (pl.col("round") == 1))
    assert pr["riichi_own_turn"].to_list() == [2] and pr["riichi_accepted"].to_list() == [False]
    dama = tables["player_rounds"].filter(pl.col("dama")).select("player", "round").rows()
    assert sorted(dama) == [("C", 0), ("D", 0)]  # game 2's C, game 1's D: closed, no riichi


def test_process_pool_gives_the_same_table() -> None:
    one = summarize([EXAMPLES], by=["player"])
    two = summarize([EXAMPLES], by=["player"], jobs=2)
    assert one.equals(two)


def test_totals_merge_in_ever_larger_steps_to_the_same_counters(
        tables: dict[str, pl.DataFrame]) -> None:
    """Batches of new players (each batch's four players renamed) and of the same ones:
    the totals equal one merge of every batch, in a number of merges that grows with the
    logarithm of the batches, not with the batches."""
    keys = ["player", "players"]
    part = count(tables, keys)
    parts = [part.with_columns(pl.col("player") + f"~{k % 150}") for k in range(300)]
    totals = Totals(keys, floor=8)
    for p in parts:
        totals.add(p)
    got = totals.result()
    assert got is not None and got.height == 4 * 150
    want = merge(parts, keys)
    assert got.sort(keys).equals(want.sort(keys))
    assert got.filter(pl.col("player") == "A~0")["games"].item() == 2 * 2
    assert totals.merges <= 12  # merging batch by batch: 299


def test_a_pool_without_duplicate_check_counts_where_it_reads(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """``--jobs 2 --keep-duplicates``: the workers count and only counters come back (the
    route is taken); the table, the census and the games skipped are a local run's."""
    import mjlog.stats as stats

    taken = []
    counted = stats._count_where_read

    def counting(*args: Any) -> Any:
        taken.append(args)
        return counted(*args)

    monkeypatch.setattr(stats, "_count_where_read", counting)
    local = stats.run([EXAMPLES], by=["player", "room"], dedupe=False)
    pooled = stats.run([EXAMPLES], by=["player", "room"], dedupe=False, jobs=2,
                       filters=Filters(rooms=("nowhere",)))
    assert taken and pooled.table.is_empty()
    assert (pooled.census.games, pooled.census.players) == (local.census.games,
                                                             local.census.players) != (0, set())
    pooled = stats.run([EXAMPLES], by=["player", "room"], dedupe=False, jobs=2)
    assert pooled.table.equals(local.table) and pooled.skipped == local.skipped
    assert pooled.census == local.census and local.census.games > 20


def test_facts_written_as_parquet_read_back(tmp_path: Path) -> None:
    out = tmp_path / "facts"
    summarize([EXAMPLES], facts_dir=out)
    for name, schema in SCHEMAS.items():
        df = pl.read_parquet(out / name)
        assert dict(df.schema) == schema, name
    # the facts written are the ones counted: each game's JSON Lines copy counts once
    assert pl.read_parquet(out / "games").height == 3 * 4


def test_duplicates_count_once() -> None:
    deduped = summarize([EXAMPLES], by=[])
    kept = summarize([EXAMPLES], by=[], dedupe=False)
    assert deduped["games"][0] * 2 == kept["games"][0] == 24
    assert facts([EXAMPLES])["games"].height == 24


def test_a_game_that_does_not_fit_is_skipped_not_fatal(tmp_path: Path) -> None:
    from mjlog.formats import serialize
    from mjlog.stats.facts import add_file

    bad = game_two()
    bad.events[2] = _d(7, 100)  # a seat the table does not have
    path = tmp_path / "two.jsonl"
    path.write_text("".join(serialize.write_lines(game_one().events + bad.events)), "utf-8")
    batch = Batch()
    add_file(batch, (str(path), True))
    assert batch.games == 2 and len(batch.skipped) == 1 and "game 2" in batch.skipped[0]
    frames = batch.frames()
    assert frames["games"].height == 4 and frames["player_rounds"].height == 20


@pytest.mark.slow
def test_houou_corpus_falls_within_published_ranges() -> None:
    """Pooled over the four-player Houou hanchan games (GO type 169) of the corpus: every
    metric has a value (those from decisions none, without --decisions), and the
    published ones are in range (docs/statistics.md)."""
    from mjlog.stats import METRICS
    from mjlog.stats.metrics import column_name, options_in_force

    assert corpus_paths("tenhou-xml")  # skips with a message when the corpus is absent
    row = summarize([CORPUS / "tenhou-xml"], by=[],
                    filters=Filters(go_types=(169,))).to_dicts()[0]
    opts = options_in_force(None)
    # every metric but those counted from decisions (stats --decisions), which say so
    assert [m.name for m in METRICS if row[column_name(m, opts)] is None] == [
        m.name for m in METRICS if m.needs == "decisions"]
    assert 0.20 <= row["win_rate"] <= 0.225
    assert 0.115 <= row["deal_in_rate__double_ron_once"] <= 0.135
    assert 0.155 <= row["riichi_rate"] <= 0.195
    assert 0.32 <= row["call_rate"] <= 0.37
    assert 5300 <= row["average_win__raw"] <= 6000
    assert 0.38 <= row["tsumo_rate"] <= 0.43 and 0.46 <= row["riichi_win_rate"] <= 0.51
    assert 0.16 <= row["ippatsu_rate"] <= 0.21 and 0.37 <= row["ura_per_riichi_win"] <= 0.45
    assert row["average_placement"] == pytest.approx(2.5)
    assert row["stable_dan"] == pytest.approx(7.0)  # a whole Houou pool: 6 + 3 - 2
    assert row["win_rate_lo"] < row["win_rate"] < row["win_rate_hi"]


def test_every_metric_and_option_is_documented() -> None:
    from mjlog.stats import METRICS, OPTIONS

    from .conftest import ROOT

    text = (ROOT / "docs" / "statistics.md").read_text("utf-8")
    for m in METRICS:
        assert f"`{m.name}`" in text, m.name
    for name, values in OPTIONS.items():
        assert f"`{name}`" in text and all(f"`{v}`" in text for v in values), name


def game_three() -> GameRecord:
    """A riichi chased, a tsumo that hits the dealer, a kept deal and a yakuman.

    E1 (A deals) ends in nine terminals; E1-1 (A keeps the deal): A declares
    riichi, C chases, C wins by tsumo (A -1000, B -500, D -500, C +4000 with both
    sticks); E2 (B deals): D wins kokushi from B (32000).
    """
    s = (25000,) * 4
    ev: list[Event] = [
        _start(),
        _round(1, 0, s, hands=HANDS[1:] + HANDS[:1]),  # another deal: another game
        AbortiveDraw(kind="nine-terminals", deltas=(0, 0, 0, 0)), RoundEnd(),
        _round(1, 0, s, honba=1), _d(0, 100, riichi=True), RiichiAccepted(player=0),
        _d(1, 101), _d(2, 102, riichi=True), RiichiAccepted(player=2), _d(3, 103),
        _win(2, 2, 2000, (-1000, -500, 4000, -500), ("riichi", 1), ("menzen-tsumo", 1)),
        RoundEnd(),
        _round(2, 1, (23000, 24500, 29000, 24500)), _d(1, 104),
        Win(winner=3, from_player=1, hand=(), win_tile=Tile(0), points=32000,
            yaku=(YakuClaim(name="kokushi", han=13),), han=13, fu=0, limit="yakuman",
            deltas=(0, -32000, 0, 32000)), RoundEnd(),
        GameEnd(scores=(23000, -7500, 29000, 56500)),
    ]
    return GameRecord(path="g3", format="jsonl", events=ev)


THREE = {  # game three alone, A B C D, by hand (see its docstring)
    "first_riichi_rate": (1, None, 0, None),
    "chasing_riichi_rate": (0, None, 1, None),
    "chased_riichi_rate": (1, None, 0, None),
    "riichi_balance": (-2000, None, 3000, None),  # A: stick and tsumo; C: -1000 + 4000
    "tsumo_hit_rate": (1 / 3, 1 / 3, 0, 1 / 3),
    "dealer_tsumo_hit_rate": (0.5, 0, None, None),  # A dealt E1 and E1-1
    "dealer_deal_in_rate": (0, 1, None, None),
    "longest_dealer_streak": (1, 0, 0, 0),
    "yakuman": (0, 0, 0, 1),
    "bust_rate": (0, 1, 0, 0),
    "average_riichi_turn": (1, None, 1, None),
}


@pytest.mark.parametrize("column", sorted(THREE))
def test_riichi_order_dealer_and_yakuman_by_hand(column: str) -> None:
    batch = Batch()
    add_game(batch, game_three())
    df = metrics(batch.frames(), by=["player"])
    for player, want in zip(NAMES, THREE[column], strict=True):
        got = _row(df, player)[column]
        assert got == (None if want is None else pytest.approx(want)), (column, player)


def _tenhou(rec: GameRecord) -> GameRecord:
    """The game as if played in Tenhou's Houou room, with the players' ratings."""
    start = rec.events[0]
    assert isinstance(start, GameStart)
    rated = GameStart(source="tenhou_xml", meta=(("go.type", "169"),), players=tuple(
        PlayerInfo(name=n, rating=r) for n, r in zip(NAMES, (2000, 2100, 2200, 2300),
                                                     strict=True)))
    return GameRecord(path="2020010100gm-00a9-0000-0123abcd.mjlog", format="tenhou_xml",
                      events=[rated, *rec.events[1:]])


def test_tenhou_formulas_by_hand() -> None:
    """Stable dan (6·1st + 3·2nd) / 4th − 2 in Houou; stable rating: mean table rating
    (2150) + 40 × the mean placement bonus. Game one: D 1st, C 2nd, A 3rd, B 4th."""
    batch = Batch()
    add_game(batch, _tenhou(game_one()))
    tables = batch.frames()
    df = metrics(tables, by=["player"])
    assert _row(df, "B")["stable_dan"] == pytest.approx(-2)
    assert _row(df, "D")["stable_dan"] is None  # never fourth: no finite stable dan
    assert [_row(df, p)["stable_rate"] for p in NAMES] == pytest.approx(
        [2150 - 400, 2150 - 1200, 2150 + 400, 2150 + 1200])
    pooled = metrics(tables, by=[]).to_dicts()[0]
    assert pooled["stable_dan"] == pytest.approx((6 + 3) / 1 - 2)
    assert pooled["stable_rate"] == pytest.approx(2150)
    games = tables["games"]
    assert set(games["game_id"]) == {"tenhou:2020010100gm-00a9-0000-0123abcd"}
    assert set(games["room"]) == {"houou"} and set(games["platform"]) == {"tenhou"}
    assert games["date"][0].year == 2020


def _wilson(k: int, n: int) -> tuple[float, float]:
    z = 1.959963984540054
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * (p * (1 - p) / n + z * z / (4 * n * n)) ** 0.5 / (1 + z * z / n)
    return centre - half, centre + half


def test_intervals(tables: dict[str, pl.DataFrame]) -> None:
    """Wilson's interval for a rate; the normal one, from the sample deviation, for a mean."""
    a = _row(metrics(tables, by=["player"]), "A")
    assert (a["win_rate_lo"], a["win_rate_hi"]) == pytest.approx(_wilson(1, 6))
    # A placed 3rd and 2nd: mean 2.5, sample deviation 0.7071, standard error 0.5
    half = 1.959963984540054 * 0.5
    assert (a["average_placement_lo"], a["average_placement_hi"]) == pytest.approx(
        (2.5 - half, 2.5 + half))
    assert "longest_dealer_streak_lo" not in a and "stable_dan_lo" not in a


def test_three_and_four_players_are_never_pooled(tables: dict[str, pl.DataFrame]) -> None:
    three = Batch()
    start = GameStart(source="test", players=tuple(PlayerInfo(name=n) for n in "ABC"))
    rs = RoundStart(round_wind=0, round_number=1, honba=0, kyotaku=0, dealer=0,
                    scores=(35000,) * 3, dora_indicator=Tile(135), hands=HANDS[:3])
    add_game(three, GameRecord(path="s", format="jsonl", events=[
        start, rs, GameEnd(scores=(40000, 35000, 30000))]))
    both = {t: pl.concat([tables[t], three.frames()[t]]) for t in tables}
    rows = metrics(both, by=[]).sort("players").to_dicts()
    assert [(r["players"], r["games"]) for r in rows] == [(3, 3), (4, 8)]
    assert rows[0]["average_placement"] == pytest.approx(2.0)
    per_player = metrics(both, by=["player"]).filter(pl.col("player") == "A")
    assert sorted(per_player["players"].to_list()) == [3, 4]


def test_fact_columns_of_wins_yaku_and_rounds(tables: dict[str, pl.DataFrame]) -> None:
    wins = tables["wins"].filter(pl.col("player") == "C")
    assert wins.select("dora", "aka", "ura", "yakuman").rows() == [
        (2, 0, 0, False), (3, 0, 0, False)]
    yaku = tables["yaku"].filter(pl.col("player") == "D")
    assert yaku["yaku"].to_list() == ["tanyao", "riichi", "ippatsu", "menzen-tsumo", "tanyao"]
    assert "ura-dora" not in tables["yaku"]["yaku"].to_list()  # counted in wins.ura
    assert tables["rounds"]["player"].to_list()[:5] == ["A", "B", "C", "D", "D"]  # the dealer
    assert tables["rounds"]["player"].null_count() == 0
    sources = set(tables["games"]["source"])
    assert sources == {"g1", "g2"}


_TENHOU_ID_PATTERN = re.compile(
    r"(\d{4})(\d{2})(\d{2})(\d{2})gm-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{8}")


def _id_by_pattern(text: str) -> tuple[str, datetime] | str | None:
    """What the regular expression the log id was once found with gives (or "bad date")."""
    m = _TENHOU_ID_PATTERN.search(text)
    if m is None:
        return None
    try:
        return m[0], datetime(int(m[1]), int(m[2]), int(m[3]), int(m[4]))
    except ValueError:
        return "bad date"


def _id_by_strings(text: str) -> tuple[str, datetime] | str | None:
    try:
        return tenhou_id(text)
    except ValueError:
        return "bad date"


_ID_CHARS = "0123456789abcdefgmA-&=.x\u0663\u00b2"
"""Digits, hex, other letters, separators, an Arabic-Indic digit (a decimal digit) and a
superscript two (a digit, not a decimal one)."""


@st.composite
def _near_ids(draw: st.DrawFn) -> str:
    """Texts around a log id: ids with characters changed, added or taken out (among
    digits, hex, other letters, a non-ASCII digit and separators), several in one text."""
    chars = st.sampled_from(_ID_CHARS)
    parts = []
    for _ in range(draw(st.integers(1, 3))):
        text = list(draw(st.sampled_from(["2016010100gm-00a9-0000-0123abcd",
                                          "2009123123gm-0089-0000-ffffffff", ""])))
        for _ in range(draw(st.integers(0, 4))):
            at = draw(st.integers(0, len(text)))
            if draw(st.booleans()) and at < len(text):
                text[at] = draw(chars)
            else:
                text.insert(at, draw(chars))
        parts.append("".join(text))
    return draw(st.sampled_from(["", "x", "&"])).join(parts)


@given(_near_ids())
def test_tenhou_ids_are_found_as_the_pattern_finds_them(text: str) -> None:
    """The log id is found with string methods (cheaper in the statistics' pass): it finds
    what the regular expression finds, first match and date alike."""
    assert _id_by_strings(text) == _id_by_pattern(text)


def test_every_one_character_change_of_an_id_is_judged_as_the_pattern_judges_it() -> None:
    base = "2016010100gm-00a9-0000-0123abcd"
    texts = [base[:i] + c + base[i + k:] for i in range(len(base) + 1) for c in _ID_CHARS
             for k in (0, 1)] + [base[:i] + base[i + 1:] for i in range(len(base))]
    assert [_id_by_strings(t) for t in texts] == [_id_by_pattern(t) for t in texts]
    assert sum(_id_by_pattern(t) is None for t in texts) > 500  # most changes break the id


def test_a_tenhou_id_gives_its_date_and_hour() -> None:
    found = tenhou_id("log/2016010100gm-00a9-0000-0123abcd&tw=2.xml")
    assert found == ("2016010100gm-00a9-0000-0123abcd", datetime(2016, 1, 1, 0))
    assert tenhou_id("2016010100gm-00a9-0000-0123abcX") is None

"""The metric registry: every statistic as a numerator over a denominator, with its convention.

Statistics are computed in two steps. First, *counters* are taken per group
from the fact tables (:data:`COUNTERS`): sums (and one maximum) that add up
across batches of games, so an archive is reduced batch by batch in flat
memory. Second, *metrics* (:data:`METRICS`) are ratios of counters, each with
a 95% interval: Wilson's for a proportion, the normal one for a mean (from a
counter of squares). Where the services players use disagree
(``docs/stats.md``), a metric has options (:data:`OPTIONS`), and the output
column names the option in force, e.g. ``deal_in_rate__double_ron_once`` (a name SQL and
pandas take unquoted).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

import polars as pl

GROUP_KEYS = ("player", "year", "month", "platform", "ruleset", "room", "length", "players")
"""Columns statistics can be grouped by (``--by``); ``players`` is always among them."""

_PR, _W, _G, _D = "player_rounds", "wins", "games", "decisions"
_DEALER = pl.col("dealer")


def _sum(table: str, expr: pl.Expr) -> tuple[str, pl.Expr, str]:
    return table, expr.cast(pl.Int64).sum(), "sum"


def _n(table: str, cond: pl.Expr) -> tuple[str, pl.Expr, str]:
    return table, cond.fill_null(False).cast(pl.Int64).sum(), "sum"


def _sq(table: str, expr: pl.Expr) -> tuple[str, pl.Expr, str]:
    whole = expr.cast(pl.Int64)
    return table, (whole * whole).sum(), "sum"


_MILLI: Final = 1000
"""Counters of values with decimals (Tenhou's ±pt, table ratings) count thousandths as
whole numbers: a sum of whole numbers is the same whatever the order it is added in, so
the same games give the same figures however they were cut into batches (a local pool,
a cluster's workers). :data:`SCALED` says which, and by how much."""


def _milli(table: str, expr: pl.Expr) -> tuple[str, pl.Expr, str]:
    return table, (expr.cast(pl.Float64) * _MILLI).round().cast(pl.Int64).sum(), "sum"


def _milli_sq(table: str, expr: pl.Expr) -> tuple[str, pl.Expr, str]:
    whole = (expr.cast(pl.Float64) * _MILLI).round().cast(pl.Int64)
    return table, (whole * whole).sum(), "sum"


_CLASSES: Final = ("genbutsu", "suji", "kabe", "one_chance", "honour", "none")
"""The safety classes of the ``decisions`` table (:data:`mjlog.stats.moves.CLASSES`)."""
_SCORE_NET = pl.col("score_change") - 1000 * pl.col("riichi").cast(pl.Int64)
_HOUOU_TOP2 = {"ippan": (2, 1), "joukyuu": (4, 1), "tokujou": (5, 2), "houou": (6, 3)}
"""Tenhou's placement points for first and second per room, over the step by which the
fourth place's loss grows per dan (10 in east games, 15 in south games): the ratio is the
same for both lengths."""


def _dan_weight(place: int) -> pl.Expr:
    """Tenhou stable-dan weight of a first or second place, by room; 0 elsewhere."""
    expr = pl.lit(0)
    for room, weights in _HOUOU_TOP2.items():
        expr = pl.when(pl.col("room") == room).then(weights[place - 1]).otherwise(expr)
    return pl.when(pl.col("placement") == place).then(expr).otherwise(0)


_TENHOU_4P = (pl.col("platform") == "tenhou") & (pl.col("players") == 4) & pl.col(
    "room").is_in(list(_HOUOU_TOP2))
_RATE_BONUS = pl.when(pl.col("players") == 3).then(
    pl.col("placement").replace_strict({1: 30, 2: 0, 3: -30}, default=0)).otherwise(
    pl.col("placement").replace_strict({1: 30, 2: 10, 3: -10, 4: -30}, default=0))

COUNTERS: dict[str, tuple[str, pl.Expr, str]] = {
    "games": _n(_PR, pl.col("round") == 0),
    "placed_games": (_G, pl.len(), "sum"),
    "placement_sum": _sum(_G, pl.col("placement")),
    "placement_sq": _sq(_G, pl.col("placement")),
    "rank_1": _n(_G, pl.col("placement") == 1),
    "rank_2": _n(_G, pl.col("placement") == 2),
    "rank_3": _n(_G, pl.col("placement") == 3),
    "rank_4": _n(_G, pl.col("placement") == 4),
    "rank_12": _n(_G, pl.col("placement") <= 2),
    "busts": _n(_G, pl.col("final_score") < 0),
    "final_score_sum": _sum(_G, pl.col("final_score")),
    "final_score_sq": _sq(_G, pl.col("final_score")),
    "points_games": _n(_G, pl.col("points").is_not_null()),
    "points_sum": _milli(_G, pl.col("points")),
    "points_sq": _milli_sq(_G, pl.col("points")),
    "dan_games": _n(_G, _TENHOU_4P),
    "dan_top2": _sum(_G, pl.when(_TENHOU_4P).then(_dan_weight(1) + _dan_weight(2))
                     .otherwise(0)),
    "dan_fourths": _n(_G, _TENHOU_4P & (pl.col("placement") == 4)),
    "rated_games": _n(_G, pl.col("table_rating").is_not_null()),
    "rating_table_sum": _milli(_G, pl.col("table_rating")),
    "rating_bonus_sum": _sum(_G, pl.when(pl.col("table_rating").is_not_null())
                             .then(_RATE_BONUS).otherwise(0)),
    "rounds": (_PR, pl.len(), "sum"),
    "wins": _n(_PR, pl.col("won")),
    "deal_in_rounds": _n(_PR, pl.col("dealt_in")),
    "deal_ins": _sum(_PR, pl.col("deal_ins")),
    "deal_in_points": _sum(_PR, pl.col("deal_in_points")),
    "deal_in_points_sq": _sq(_PR, pl.col("deal_in_points")),
    "riichi": _n(_PR, pl.col("riichi")),
    "called": _n(_PR, pl.col("called")),
    "draws_all": _n(_PR, pl.col("exhaustive_draw") | pl.col("abortive_draw")),
    "draws_exhaustive": _n(_PR, pl.col("exhaustive_draw")),
    "draws_exhaustive_no_nagashi": _n(_PR, pl.col("exhaustive_draw") & ~pl.col("nagashi")),
    "tenpai_at_draw": _n(_PR, pl.col("tenpai_at_draw")),
    "riichi_wins": _n(_PR, pl.col("riichi_win")),
    "riichi_deal_ins": _n(_PR, pl.col("riichi_deal_in")),
    "riichi_first": _n(_PR, pl.col("riichi_order") == 1),
    "riichi_chasing": _n(_PR, pl.col("riichi_order") > 1),
    "riichi_chased": _n(_PR, pl.col("riichi_chased")),
    "riichi_turn_sum": _sum(_PR, pl.col("riichi_own_turn")),
    "riichi_turn_sq": _sq(_PR, pl.col("riichi_own_turn")),
    "riichi_change": _sum(_PR, pl.when(pl.col("riichi")).then(pl.col("score_change"))),
    "riichi_change_sq": _sq(_PR, pl.when(pl.col("riichi")).then(pl.col("score_change"))),
    "called_wins": _n(_PR, pl.col("called_win")),
    "called_deal_ins": _n(_PR, pl.col("called_deal_in")),
    "called_change": _sum(_PR, pl.when(pl.col("called")).then(pl.col("score_change"))),
    "called_change_sq": _sq(_PR, pl.when(pl.col("called")).then(pl.col("score_change"))),
    "tsumo_hits": _n(_PR, pl.col("tsumo_hit")),
    "dealer_rounds": _n(_PR, _DEALER),
    "dealer_wins": _n(_PR, _DEALER & pl.col("won")),
    "dealer_deal_ins": _n(_PR, _DEALER & pl.col("dealt_in")),
    "dealer_tsumo_hits": _n(_PR, _DEALER & pl.col("tsumo_hit")),
    "longest_dealer_streak": (_PR, pl.col("dealer_streak").max().cast(pl.Int64), "max"),
    "tsumo_wins": _n(_W, pl.col("tsumo")),
    "dama_wins": _n(_W, pl.col("dama")),
    "win_points": _sum(_W, pl.col("points")),
    "win_points_sq": _sq(_W, pl.col("points")),
    "win_score_change": _sum(_W, pl.col("score_change")),
    "win_score_change_sq": _sq(_W, pl.col("score_change")),
    "win_score_net_sq": _sq(_W, _SCORE_NET),
    "win_turn_sum": _sum(_W, pl.col("own_turn")),
    "win_turn_sq": _sq(_W, pl.col("own_turn")),
    "riichi_win_count": _n(_W, pl.col("riichi")),
    "ippatsu_wins": _n(_W, pl.col("ippatsu")),
    "ura_total": _sum(_W, pl.when(pl.col("riichi")).then(pl.col("ura"))),
    "ura_sq": _sq(_W, pl.when(pl.col("riichi")).then(pl.col("ura"))),
    "ura_wins": _n(_W, pl.col("riichi") & (pl.col("ura") > 0)),
    "dora_total": _sum(_W, pl.col("dora") + pl.col("aka") + pl.col("ura")),
    "dora_sq": _sq(_W, pl.col("dora") + pl.col("aka") + pl.col("ura")),
    "yakuman": _n(_W, pl.col("yakuman")),
    **{name: _sum(_D, pl.col(name)) for name in (
        "discards", "ready_discards", "ready_deal_ins", "not_ready_deal_ins", "choices",
        "best_choices", "shanten_losses", "calm_kept", "calm_ukeire_lost",
        "calm_ukeire_lost_sq", "threat_kept", "threat_ukeire_lost", "threat_ukeire_lost_sq",
        *(f"threat_discards_{c}" for c in _CLASSES), *(f"riichi_deal_ins_{c}" for c in _CLASSES))},
    "decision_rounds": (_D, pl.len(), "sum"),
    "not_ready_discards": _sum(_D, pl.col("discards") - pl.col("ready_discards")),
    "known_deal_ins": _sum(_D, pl.col("ready_deal_ins") + pl.col("not_ready_deal_ins")),
    "kept": _sum(_D, pl.col("calm_kept") + pl.col("threat_kept")),
    "ukeire_lost": _sum(_D, pl.col("calm_ukeire_lost") + pl.col("threat_ukeire_lost")),
    "ukeire_lost_sq": _sum(_D, pl.col("calm_ukeire_lost_sq") + pl.col("threat_ukeire_lost_sq")),
    "riichi_deal_ins_classed": _sum(_D, pl.sum_horizontal(
        *(pl.col(f"riichi_deal_ins_{c}") for c in _CLASSES))),
}
"""Every counter: the fact table it comes from, what it takes per group, and how batches
combine (``sum`` or ``max``). The ``decisions`` table's are 0 where a run did not count
decisions (``decision_rounds`` 0: the metrics over them are then empty)."""

OPTIONS: dict[str, tuple[str, ...]] = {
    "double_ron": ("once", "twice"),
    "average_win": ("raw", "score-change", "score-change-with-stick"),
    "draws": ("all", "exhaustive", "exhaustive-no-nagashi"),
}
"""Conventions where services differ; the first of each is the default."""

SETS: dict[str, tuple[str, ...]] = {
    "headline": ("win_rate", "deal_in_rate", "riichi_rate", "call_rate", "average_win",
                 "average_deal_in", "average_placement"),
    "riichi": ("riichi_rate", "riichi_win_rate", "riichi_deal_in_rate", "average_riichi_turn",
               "first_riichi_rate", "chasing_riichi_rate", "chased_riichi_rate",
               "ippatsu_rate", "ura_per_riichi_win", "ura_hit_rate", "riichi_balance"),
    "calls": ("call_rate", "call_win_rate", "call_deal_in_rate", "call_balance", "dama_rate"),
    "placement": ("average_placement", "first_rate", "second_rate", "third_rate",
                  "fourth_rate", "top_two_rate", "bust_rate", "average_points",
                  "average_final_score", "stable_dan", "stable_rate"),
    "decisions": ("ready_deal_in_share", "not_ready_deal_in_share", "ready_deal_in_rate",
                  "not_ready_deal_in_rate", "best_discard_rate", "shanten_loss_rate",
                  "ukeire_loss", "ukeire_loss_no_threat", "ukeire_loss_threat"),
    "safety": (*(f"deal_ins_on_{c}" for c in _CLASSES), *(f"danger_{c}" for c in _CLASSES)),
}
"""Named sets of metrics for ``--metrics`` (``all`` is every metric)."""


@dataclass(frozen=True, slots=True)
class Metric:
    """One statistic over counters, what it means, and how its interval is taken.

    ``kind`` is ``rate`` (a proportion: Wilson interval), ``mean`` (normal
    interval from the ``square`` counter over ``observations``), ``value``
    (a formula of counters, no interval), ``count`` or ``max`` (a counter as it is).
    """

    name: str
    label: str
    numerator: str
    denominator: str
    doc: str
    option: str = ""
    """The :data:`OPTIONS` key whose value picks the counters (``{value}`` in them)."""
    kind: str = "rate"
    square: str = ""
    observations: str = ""
    percent: bool = True
    needs: str = ""
    """What a run must be asked for to count this metric (``decisions``: ``--decisions``);
    without it the metric is empty and said to need it."""

    @property
    def interval(self) -> bool:
        """Whether the metric carries ``_lo``/``_hi`` columns."""
        return self.kind in ("rate", "mean")


def _r(name: str, label: str, num: str, den: str, doc: str, option: str = "") -> Metric:
    return Metric(name, label, num, den, doc, option)


def _mean(name: str, label: str, num: str, den: str, doc: str, square: str,
          observations: str = "", option: str = "") -> Metric:
    return Metric(name, label, num, den, doc, option, "mean", square, observations or den,
                  percent=False)


def _dr(name: str, label: str, num: str, den: str, doc: str) -> Metric:
    return Metric(name, label, num, den, doc, needs="decisions")


def _dmean(name: str, label: str, num: str, den: str, doc: str, square: str) -> Metric:
    return Metric(name, label, num, den, doc, kind="mean", square=square, observations=den,
                  percent=False, needs="decisions")


_CLASS_WORDS: Final = {
    "genbutsu": "genbutsu (the threat cannot ron it: in error or a record's oddity)",
    "suji": "suji", "kabe": "kabe (no chance)", "one_chance": "one-chance",
    "honour": "an honour with three or four copies seen",
    "none": "no class (an honour with two or fewer seen included)"}
_DECISION_METRICS: Final = (
    _dr("ready_deal_in_share", "放銃時聴牌率", "ready_deal_ins", "known_deal_ins",
        "Deal-ins made ready (shanten 0 after the discard dealt in, riichi or not) / "
        "deal-ins; a double ron is one deal-in. Like amae-koromo's and zyr17's 放銃時立直率 "
        "(deal-ins in riichi / deal-ins), with every ready hand in place of riichi."),
    _dr("not_ready_deal_in_share", "放銃時未聴牌率", "not_ready_deal_ins", "known_deal_ins",
        "Deal-ins made not ready (shanten 1 or more after the discard dealt in) / "
        "deal-ins."),
    _dr("ready_deal_in_rate", "聴牌打牌放銃率", "ready_deal_ins", "ready_discards",
        "Deal-ins made ready / discards made ready (shanten 0 after the discard, riichi "
        "and forced discards included): how often a ready player's discard was won on."),
    _dr("not_ready_deal_in_rate", "未聴牌打牌放銃率", "not_ready_deal_ins",
        "not_ready_discards", "Deal-ins made not ready / discards made not ready."),
    _dr("best_discard_rate", "最大受入率", "best_choices", "choices", "Discards that were "
        "the most accepting (least shanten, then most unseen copies) / discards, forced "
        "discards after riichi and discards whose copies are unknown left out."),
    _dr("shanten_loss_rate", "向聴戻し率", "shanten_losses", "choices", "Discards that left "
        "the hand further from ready than the most accepting one / discards (as "
        "best_discard_rate counts them)."),
    _dmean("ukeire_loss", "平均受入損失", "ukeire_lost", "kept", "Mean ukeire lost per "
           "discard, in unseen tiles: the most accepting discard's count less the "
           "discard's, over the discards of best_discard_rate that kept the best shanten.",
           "ukeire_lost_sq"),
    _dmean("ukeire_loss_no_threat", "平均受入損失(立直なし)", "calm_ukeire_lost",
           "calm_kept", "ukeire_loss over the discards made while no opponent was in riichi.",
           "calm_ukeire_lost_sq"),
    _dmean("ukeire_loss_threat", "平均受入損失(対立直)", "threat_ukeire_lost", "threat_kept",
           "ukeire_loss over the discards made while an opponent was in riichi.",
           "threat_ukeire_lost_sq"),
    *(_dr(f"deal_ins_on_{c}", f"対立直放銃({c})", f"riichi_deal_ins_{c}",
          "riichi_deal_ins_classed", f"Deal-ins to an opponent in riichi on {_CLASS_WORDS[c]}"
          " / deal-ins to an opponent in riichi (each riichi winner of a double ron once).")
      for c in _CLASSES),
    *(_dr(f"danger_{c}", f"対立直危険度({c})", f"riichi_deal_ins_{c}",
          f"threat_discards_{c}", f"Deal-ins to an opponent in riichi on {_CLASS_WORDS[c]} / "
          "discards of such a tile while that opponent was in riichi (a discard under two "
          "riichi counts against each).") for c in _CLASSES),
)
"""The metrics of the ``decisions`` table (``--decisions``)."""


METRICS: tuple[Metric, ...] = (
    _r("win_rate", "和了率", "wins", "rounds", "Rounds won / rounds played (each winner of a "
       "double ron wins once)."),
    _r("deal_in_rate", "放銃率", "deal_in:{double_ron}", "rounds", "Rounds dealt in / rounds "
       "played; double-ron=once counts a double ron once (kobalab, amae-koromo), twice counts "
       "each win (Path of Houou, zyr17).", "double_ron"),
    _r("riichi_rate", "立直率", "riichi", "rounds", "Rounds with a riichi declaration (dealt "
       "in on the declaration tile included) / rounds."),
    _r("call_rate", "副露率", "called", "rounds", "Rounds with at least one chi, pon or open "
       "kan (not closed kan, not kita) / rounds."),
    _r("tsumo_rate", "ツモ率", "tsumo_wins", "wins", "Wins by tsumo / wins."),
    _r("dama_rate", "ダマ率", "dama_wins", "wins", "Wins with a closed hand and no riichi / "
       "wins."),
    _r("draw_rate", "流局率", "draws:{draws}", "rounds", "Rounds ending in a draw / rounds; "
       "all = abortive included (kobalab), exhaustive = nagashi mangan included (amae-koromo), "
       "exhaustive-no-nagashi (zyr17).", "draws"),
    _r("tenpai_at_draw", "流局聴牌率", "tenpai_at_draw", "draws_exhaustive",
       "Tenpai at an exhaustive draw / exhaustive draws the player sat in."),
    _r("tsumo_hit_rate", "被ツモ率", "tsumo_hits", "rounds", "Rounds another player won by "
       "tsumo / rounds."),
    _mean("average_placement", "平均順位", "placement_sum", "placed_games", "Mean final placement "
          "(ties to the seat nearer the first dealer).", "placement_sq"),
    _r("first_rate", "トップ率", "rank_1", "placed_games", "Games finished first / games."),
    _r("second_rate", "2位率", "rank_2", "placed_games", "Games finished second / games."),
    _r("third_rate", "3位率", "rank_3", "placed_games", "Games finished third / games."),
    _r("fourth_rate", "ラス率", "rank_4", "placed_games", "Games finished fourth / games."),
    _r("top_two_rate", "連対率", "rank_12", "placed_games", "Games finished first or second / "
       "games."),
    _r("bust_rate", "飛び率", "busts", "placed_games", "Games ending below 0 points / games."),
    _mean("average_points", "平均得点", "points_sum", "points_games", "Mean of the game's "
          "final points as the record gives them (score over 1000, less the return, plus uma: "
          "Tenhou's ±pt, Mahjong Soul's final points) / games that give them.", "points_sq"),
    _mean("average_final_score", "平均素点", "final_score_sum", "placed_games", "Mean final score "
          "(the points on the table at the end).", "final_score_sq"),
    Metric("stable_dan", "安定段位", "dan_top2", "dan_fourths", "Tenhou's stable dan: the dan "
           "at which the expected dan points of a game are zero, (a·1st + b·2nd) / 4th − 2 with "
           "(a, b) = (2, 1) ippan, (4, 1) joukyuu, (5, 2) tokujou, (6, 3) houou; Tenhou "
           "four-player games only.", kind="value", percent=False),
    Metric("stable_rate", "安定R", "rating_bonus_sum", "rated_games", "Tenhou's stable rating: "
           "the rating at which the expected change is zero, the mean table rating as the "
           "records give it + 40 × the mean placement bonus (+30/+10/−10/−30; three players "
           "+30/0/−30); games whose record gives every player's rating.", kind="value",
           percent=False),
    _mean("average_win", "平均打点", "win_value:{average_win}", "wins", "Mean value of a win: "
          "raw = the record's hand value without honba and sticks (kobalab, Path of Houou); "
          "score-change = the winner's score change less their own riichi stick (amae-koromo, "
          "Mortal); score-change-with-stick keeps it (zyr17).", "win_sq:{average_win}",
          option="average_win"),
    _mean("average_deal_in", "平均放銃", "deal_in_points", "deal_in:{double_ron}",
          "Points paid when dealing in (honba included) / deal-ins; the interval takes each "
          "round dealt in as one observation.", "deal_in_points_sq", "deal_in_rounds",
          option="double_ron"),
    _mean("average_win_turn", "平均和了巡目", "win_turn_sum", "wins", "Mean own turn of a win: "
          "the winner's own discards before it (Mortal's and kobalab's count).", "win_turn_sq"),
    _mean("average_dora", "平均ドラ", "dora_total", "wins", "Dora, red fives and ura dora "
          "per win.", "dora_sq"),
    _r("riichi_win_rate", "立直後和了率", "riichi_wins", "riichi", "Riichi rounds won / "
       "riichi rounds."),
    _r("riichi_deal_in_rate", "立直後放銃率", "riichi_deal_ins", "riichi", "Riichi rounds "
       "dealt in (on the declaration tile too) / riichi rounds."),
    _mean("average_riichi_turn", "平均立直巡目", "riichi_turn_sum", "riichi", "Mean own turn "
          "of a riichi declaration: the player's own discards with the declaration tile "
          "(zyr17's count; Mortal's is one less).", "riichi_turn_sq"),
    _r("first_riichi_rate", "先制率", "riichi_first", "riichi", "Riichi rounds in which the "
       "player declared first / riichi rounds."),
    _r("chasing_riichi_rate", "追っかけ率", "riichi_chasing", "riichi", "Riichi rounds in "
       "which another player had declared before / riichi rounds."),
    _r("chased_riichi_rate", "被追っかけ率", "riichi_chased", "riichi", "Riichi rounds in "
       "which another player declared after the player / riichi rounds."),
    _mean("riichi_balance", "立直収支", "riichi_change", "riichi", "Mean score change of a "
          "riichi round: the stick, wins, deal-ins, others' tsumo and draw payments, all "
          "counted.", "riichi_change_sq"),
    _r("ippatsu_rate", "一発率", "ippatsu_wins", "riichi_win_count", "Ippatsu wins / riichi "
       "wins."),
    _mean("ura_per_riichi_win", "裏ドラ平均", "ura_total", "riichi_win_count", "Ura dora per "
          "riichi win (kobalab, zyr17).", "ura_sq"),
    _r("ura_hit_rate", "裏ドラ率", "ura_wins", "riichi_win_count", "Riichi wins with one "
       "ura dora or more / riichi wins (amae-koromo's 里宝率)."),
    _r("call_win_rate", "副露後和了率", "called_wins", "called", "Called rounds won / called "
       "rounds (amae-koromo, Mortal)."),
    _r("call_deal_in_rate", "副露後放銃率", "called_deal_ins", "called", "Called rounds dealt "
       "in / called rounds (amae-koromo, Mortal)."),
    _mean("call_balance", "副露収支", "called_change", "called", "Mean score change of a "
          "called round, everything counted.", "called_change_sq"),
    _r("dealer_win_rate", "親和了率", "dealer_wins", "dealer_rounds", "Dealer rounds won / "
       "dealer rounds."),
    _r("dealer_deal_in_rate", "親放銃率", "dealer_deal_ins", "dealer_rounds", "Dealer rounds "
       "dealt in / dealer rounds."),
    _r("dealer_tsumo_hit_rate", "親被ツモ率", "dealer_tsumo_hits", "dealer_rounds",
       "Dealer rounds another player won by tsumo / dealer rounds."),
    Metric("longest_dealer_streak", "最大連荘", "longest_dealer_streak", "", "The most "
           "rounds the player kept the deal in a row (renchan: 0 = never kept it).",
           kind="max", percent=False),
    Metric("yakuman", "役満", "yakuman", "", "Wins with a yakuman.", kind="count",
           percent=False),
    *_DECISION_METRICS,
)
"""The registry, in output order."""

BY_NAME = {m.name: m for m in METRICS}

_VARIANTS = {
    "deal_in:once": "deal_in_rounds", "deal_in:twice": "deal_ins",
    "draws:all": "draws_all", "draws:exhaustive": "draws_exhaustive",
    "draws:exhaustive-no-nagashi": "draws_exhaustive_no_nagashi",
    "win_value:raw": "win_points", "win_value:score-change-with-stick": "win_score_change",
    "win_sq:raw": "win_points_sq", "win_sq:score-change": "win_score_net_sq",
    "win_sq:score-change-with-stick": "win_score_change_sq",
}
_Z = 1.959963984540054
"""The normal quantile of a two-sided 95% interval."""


SCALED: Final = {"points_sum": _MILLI, "points_sq": _MILLI**2, "rating_table_sum": _MILLI}
"""The counters kept in thousandths (or millionths, for squares), by their factor."""


def _counter_expr(ref: str) -> pl.Expr:
    if ref == "win_value:score-change":
        return pl.col("win_score_change") - 1000 * pl.col("riichi_win_count")
    name = _VARIANTS.get(ref, ref)
    return pl.col(name) / SCALED[name] if name in SCALED else pl.col(name)


def _values() -> dict[str, pl.Expr]:
    """The ``value`` metrics' formulas."""
    rated = pl.col("rated_games")
    return {
        "stable_dan": pl.when(pl.col("dan_fourths") > 0).then(
            pl.col("dan_top2") / pl.col("dan_fourths") - 2),
        "stable_rate": pl.when(rated > 0).then(
            (_counter_expr("rating_table_sum") + 40 * pl.col("rating_bonus_sum")) / rated),
    }


def count(tables: dict[str, pl.DataFrame], by: Sequence[str]) -> pl.DataFrame:
    """Counters per group for one batch of fact tables (they combine across batches)."""
    keys = list(by)
    out: pl.DataFrame | None = None
    for table in (_PR, _W, _G, _D):
        exprs = [e.alias(name) for name, (t, e, _) in COUNTERS.items() if t == table]
        df = tables.get(table)
        if table == _D and (df is None or df.is_empty()):  # no decisions: counters stay 0
            continue
        assert df is not None
        part = (df.group_by(keys).agg(exprs) if keys else df.select(exprs))
        if out is None:
            out = part
        elif keys:
            out = out.join(part, on=keys, how="full", coalesce=True, nulls_equal=True)
        else:
            out = pl.concat([out, part], how="horizontal")
    assert out is not None
    return out.with_columns(pl.col(c).fill_null(0) if c in out.columns else pl.lit(
        0, pl.Int64).alias(c) for c in COUNTERS).select(*keys, *COUNTERS)


def merge(counters: Sequence[pl.DataFrame], by: Sequence[str]) -> pl.DataFrame:
    """Combine the counters of several batches (sums add up, maxima take the larger)."""
    df = pl.concat(list(counters), how="diagonal_relaxed")
    aggs = [pl.col(c).max() if how == "max" else pl.col(c).sum()
            for c, (_, _, how) in COUNTERS.items()]
    if not by:
        return df.select(aggs)
    return df.group_by(list(by)).agg(aggs)


class Totals:
    """The counters of many batches combined, at a cost that follows the rows added.

    Merging each batch's counters into the total at once costs the total's
    size every time: with one group per player, an archive with a few hundred
    thousand players then spends most of its time merging (about 0.2 s a batch
    at 200,000 groups). Here a batch's counters wait in a list until they hold
    as many rows as the total (and at least ``floor``), and then all are merged in
    one go, so each row is merged a few times at most. Memory is at most about
    twice the total's. The result is the same as merging batch by batch: every
    counter is an integer sum or maximum.
    """

    def __init__(self, by: Sequence[str], floor: int = 20_000) -> None:
        self.by = list(by)
        self.floor = floor
        self.total: pl.DataFrame | None = None
        self.waiting: list[pl.DataFrame] = []
        self.rows = 0
        self.merges = 0
        """How many merges ran (for tests and benchmarks)."""

    def add(self, part: pl.DataFrame) -> None:
        """Take one batch's counters (from :func:`count` with the same grouping)."""
        self.waiting.append(part)
        self.rows += part.height
        if self.rows >= max(self.floor, self.total.height if self.total is not None else 0):
            self._merge()

    def result(self) -> pl.DataFrame | None:
        """Every batch's counters combined; None when no batch was added."""
        self._merge()
        return self.total

    def _merge(self) -> None:
        parts = ([self.total] if self.total is not None else []) + self.waiting
        if len(parts) > 1:
            self.total = merge(parts, self.by)
            self.merges += 1
        elif parts:
            self.total = parts[0]
        self.waiting, self.rows = [], 0


def column_name(metric: Metric, options: dict[str, str]) -> str:
    """The output column of a metric, naming the convention in force in letters, digits
    and underscores only: ``deal_in_rate__double_ron_once``, ``average_win__raw`` (the
    option's name is left out where it is the metric's own)."""
    if not metric.option:
        return metric.name
    value = options[metric.option].replace("-", "_")
    option = "" if metric.option == metric.name else metric.option + "_"
    return f"{metric.name}__{option}{value}"


def old_column_name(metric: Metric, options: dict[str, str]) -> str:
    """The column's former name (``deal_in_rate[double-ron=once]``, which SQL needs
    quoted), still accepted where a column is named (``--sort``) for one release."""
    if not metric.option:
        return metric.name
    return f"{metric.name}[{metric.option.replace('_', '-')}={options[metric.option]}]"


def wilson(num: pl.Expr, den: pl.Expr) -> tuple[pl.Expr, pl.Expr]:
    """Wilson's 95% score interval of a proportion ``num / den``."""
    n = den.cast(pl.Float64)
    p = num.cast(pl.Float64) / n
    z2 = _Z * _Z
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = _Z * ((p * (1 - p) / n + z2 / (4 * n * n)).sqrt()) / (1 + z2 / n)
    ok = den > 0  # at 0 and at 1 the bound is exact (rounding would leave 1e-17 off)
    return (pl.when(ok).then(pl.when(num == 0).then(0.0).otherwise(centre - half)),
            pl.when(ok).then(pl.when(num == den).then(1.0).otherwise(centre + half)))


def _normal(num: pl.Expr, den: pl.Expr, square: pl.Expr, obs: pl.Expr
            ) -> tuple[pl.Expr, pl.Expr]:
    """The normal 95% interval of the mean ``num / den`` from ``obs`` observations whose
    squares sum to ``square`` (the ratio ``obs / den`` taken as fixed)."""
    n = obs.cast(pl.Float64)
    mean_obs = num.cast(pl.Float64) / n
    var = (square / n - mean_obs * mean_obs).clip(lower_bound=0.0) * n / (n - 1)
    half = _Z * (var / n).sqrt() * n / den.cast(pl.Float64)
    value = num.cast(pl.Float64) / den
    ok = (obs > 1) & (den > 0)
    return pl.when(ok).then(value - half), pl.when(ok).then(value + half)


def metric_columns(metric: Metric, opts: dict[str, str]) -> list[pl.Expr]:
    """A metric's value column, then its ``_lo`` and ``_hi`` columns when it has them."""
    name = column_name(metric, opts)
    if metric.kind == "value":
        return [_values()[metric.name].alias(name)]
    if metric.kind in ("count", "max"):
        return [pl.col(metric.numerator).alias(name)]
    num = _counter_expr(metric.numerator.format(**opts))
    den = _counter_expr(metric.denominator.format(**opts))
    value = pl.when(den > 0).then(num.cast(pl.Float64) / den)
    if metric.kind == "rate":
        lo, hi = wilson(num, den)
    else:
        square = _counter_expr(metric.square.format(**opts))
        lo, hi = _normal(num, den, square, _counter_expr(metric.observations.format(**opts)))
    return [value.alias(name), lo.alias(f"{name}_lo"), hi.alias(f"{name}_hi")]


def options_in_force(options: dict[str, str] | None) -> dict[str, str]:
    """Every option's value: the defaults, overridden by ``options`` (checked)."""
    opts = {k: v[0] for k, v in OPTIONS.items()} | (options or {})
    for k, v in opts.items():
        if k not in OPTIONS:
            raise ValueError(f"unknown option {k}; choose from {', '.join(OPTIONS)}")
        if v not in OPTIONS[k]:
            raise ValueError(f"{k} must be one of {', '.join(OPTIONS[k])}, not {v!r}")
    return opts


def compute(counters: pl.DataFrame, by: Sequence[str], options: dict[str, str] | None = None
            ) -> pl.DataFrame:
    """Every metric from combined counters: group keys, games, rounds, then each metric
    with its interval, sorted by games (most first)."""
    opts = options_in_force(options)
    cols = [c for m in METRICS for c in metric_columns(m, opts)]
    order = [*by, "games", "rounds", "decision_rounds"]
    return counters.select(*order, *cols).sort(["games", *by], descending=[True] + [
        False] * len(by), nulls_last=True)

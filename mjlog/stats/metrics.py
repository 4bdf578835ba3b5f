"""The metric registry: every statistic as a numerator over a denominator, with its convention.

Statistics are computed in two steps. First, *counters* (additive sums) are
taken per group from the fact tables (:data:`COUNTERS`). Counters from
batches of games add up, so an archive is reduced batch by batch in flat
memory. Second, *metrics* (:data:`METRICS`) are ratios of counters. Where the
services players use disagree (``docs/stats.md``), a metric has options
(:data:`OPTIONS`), and the output column names the option in force, e.g.
``deal_in_rate[double-ron=once]``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import polars as pl

GROUP_KEYS = ("player", "year", "month", "ruleset", "room", "players")
"""Columns statistics can be grouped by (``--by``)."""

# counter name → (table, expression summed per group)
COUNTERS: dict[str, tuple[str, pl.Expr]] = {
    "games": ("games", pl.len()),
    "placement_sum": ("games", pl.col("placement").sum()),
    "rank_1": ("games", (pl.col("placement") == 1).sum()),
    "rank_2": ("games", (pl.col("placement") == 2).sum()),
    "rank_3": ("games", (pl.col("placement") == 3).sum()),
    "rank_4": ("games", (pl.col("placement") == 4).sum()),
    "busts": ("games", (pl.col("final_score") < 0).sum()),
    "rounds": ("player_rounds", pl.len()),
    "wins": ("player_rounds", pl.col("won").sum()),
    "deal_in_rounds": ("player_rounds", pl.col("dealt_in").sum()),
    "deal_ins": ("player_rounds", pl.col("deal_ins").cast(pl.Int64).sum()),
    "deal_in_points": ("player_rounds", pl.col("deal_in_points").cast(pl.Int64).sum()),
    "riichi": ("player_rounds", pl.col("riichi").sum()),
    "called": ("player_rounds", pl.col("called").sum()),
    "draws_all": ("player_rounds",
                  (pl.col("exhaustive_draw") | pl.col("abortive_draw")).sum()),
    "draws_exhaustive": ("player_rounds", pl.col("exhaustive_draw").sum()),
    "draws_exhaustive_no_nagashi": ("player_rounds",
                                    (pl.col("exhaustive_draw") & ~pl.col("nagashi")).sum()),
    "tenpai_at_draw": ("player_rounds", pl.col("tenpai_at_draw").fill_null(False).sum()),
    "riichi_wins": ("player_rounds", pl.col("riichi_win").sum()),
    "riichi_deal_ins": ("player_rounds", pl.col("riichi_deal_in").sum()),
    "called_wins": ("player_rounds", pl.col("called_win").sum()),
    "tsumo_wins": ("wins", pl.col("tsumo").sum()),
    "dama_wins": ("wins", pl.col("dama").sum()),
    "win_points": ("wins", pl.col("points").cast(pl.Int64).sum()),
    "win_score_change": ("wins", pl.col("score_change").cast(pl.Int64).sum()),
    "riichi_win_count": ("wins", pl.col("riichi").sum()),
    "ippatsu_wins": ("wins", pl.col("ippatsu").sum()),
    "ura_total": ("wins", pl.col("ura").cast(pl.Int64).sum()),
    "ura_wins": ("wins", (pl.col("ura") > 0).sum()),
}
"""Every counter: the fact table it comes from and what it sums."""

OPTIONS: dict[str, tuple[str, ...]] = {
    "double_ron": ("once", "twice"),
    "average_win": ("raw", "score-change", "score-change-with-stick"),
    "draws": ("all", "exhaustive", "exhaustive-no-nagashi"),
    "ura": ("average", "at-least-one"),
}
"""Conventions where services differ; the first of each is the default."""


@dataclass(frozen=True, slots=True)
class Metric:
    """One statistic: ``numerator / denominator`` over counters, and what it means."""

    name: str
    label: str
    numerator: str
    denominator: str
    doc: str
    option: str = ""
    """The :data:`OPTIONS` key whose value picks the counters (``{value}`` in them)."""
    scale: float = 1.0


def _m(name: str, label: str, num: str, den: str, doc: str, option: str = "",
       scale: float = 1.0) -> Metric:
    return Metric(name, label, num, den, doc, option, scale)


METRICS: tuple[Metric, ...] = (
    _m("win_rate", "和了率", "wins", "rounds", "Rounds won / rounds played (each winner of a "
       "double ron wins once)."),
    _m("deal_in_rate", "放銃率", "deal_in:{double_ron}", "rounds", "Rounds dealt in / rounds "
       "played; double-ron=once counts a double ron once (kobalab, amae-koromo), twice counts "
       "each win (Path of Houou, zyr17).", "double_ron"),
    _m("riichi_rate", "立直率", "riichi", "rounds", "Rounds with a riichi declaration (dealt "
       "in on the declaration tile included) / rounds."),
    _m("call_rate", "副露率", "called", "rounds", "Rounds with at least one chi, pon or open "
       "kan (not closed kan, not kita) / rounds."),
    _m("tsumo_rate", "ツモ率", "tsumo_wins", "wins", "Wins by tsumo / wins."),
    _m("dama_rate", "ダマ率", "dama_wins", "wins", "Wins with a closed hand and no riichi / "
       "wins."),
    _m("draw_rate", "流局率", "draws:{draws}", "rounds", "Rounds ending in a draw / rounds; "
       "all = abortive included (kobalab), exhaustive = nagashi mangan included (amae-koromo), "
       "exhaustive-no-nagashi (zyr17).", "draws"),
    _m("tenpai_at_draw", "流局聴牌率", "tenpai_at_draw", "draws_exhaustive",
       "Tenpai at an exhaustive draw / exhaustive draws the player sat in."),
    _m("average_placement", "平均順位", "placement_sum", "games", "Mean final placement "
       "(ties to the seat nearer the first dealer)."),
    _m("first_rate", "トップ率", "rank_1", "games", "Games finished first / games."),
    _m("second_rate", "2位率", "rank_2", "games", "Games finished second / games."),
    _m("third_rate", "3位率", "rank_3", "games", "Games finished third / games."),
    _m("fourth_rate", "ラス率", "rank_4", "games", "Games finished fourth / games."),
    _m("bust_rate", "飛び率", "busts", "games", "Games ending below 0 points / games."),
    _m("average_win", "平均打点", "win_value:{average_win}", "wins", "Mean value of a win: "
       "raw = the record's hand value without honba and sticks (kobalab, Path of Houou); "
       "score-change = the winner's score change less their own riichi stick (amae-koromo, "
       "Mortal); score-change-with-stick keeps it (zyr17).", "average_win"),
    _m("average_deal_in", "平均放銃", "deal_in_points", "deal_in:{double_ron}",
       "Points paid when dealing in (honba included) / deal-ins.", "double_ron"),
    _m("riichi_win_rate", "立直後和了率", "riichi_wins", "riichi", "Riichi rounds won / "
       "riichi rounds."),
    _m("riichi_deal_in_rate", "立直後放銃率", "riichi_deal_ins", "riichi", "Riichi rounds "
       "dealt in (on the declaration tile too) / riichi rounds."),
    _m("call_win_rate", "副露後和了率", "called_wins", "called", "Called rounds won / called "
       "rounds (amae-koromo, Mortal)."),
    _m("ippatsu_rate", "一発率", "ippatsu_wins", "riichi_win_count", "Ippatsu wins / riichi "
       "wins."),
    _m("ura_rate", "裏ドラ", "ura:{ura}", "riichi_win_count", "Per riichi win: average = ura "
       "dora count (kobalab, zyr17); at-least-one = share with one or more (amae-koromo).",
       "ura"),
)
"""The registry, in output order."""

_VARIANTS = {
    "deal_in:once": "deal_in_rounds", "deal_in:twice": "deal_ins",
    "draws:all": "draws_all", "draws:exhaustive": "draws_exhaustive",
    "draws:exhaustive-no-nagashi": "draws_exhaustive_no_nagashi",
    "ura:average": "ura_total", "ura:at-least-one": "ura_wins",
    "win_value:raw": "win_points", "win_value:score-change-with-stick": "win_score_change",
}


def _counter_expr(ref: str) -> pl.Expr:
    if ref == "win_value:score-change":
        return pl.col("win_score_change") - 1000 * pl.col("riichi_win_count")
    return pl.col(_VARIANTS.get(ref, ref))


def count(tables: dict[str, pl.DataFrame], by: Sequence[str]) -> pl.DataFrame:
    """Counters per group for one batch of fact tables (additive across batches)."""
    keys = list(by)
    out: pl.DataFrame | None = None
    for table in ("player_rounds", "wins", "games"):
        exprs = [e.alias(name) for name, (t, e) in COUNTERS.items() if t == table]
        df = tables[table]
        part = (df.group_by(keys).agg(exprs) if keys else df.select(exprs))
        if out is None:
            out = part
        elif keys:
            out = out.join(part, on=keys, how="full", coalesce=True, nulls_equal=True)
        else:
            out = pl.concat([out, part], how="horizontal")
    assert out is not None
    return out.with_columns(pl.col(c).fill_null(0) for c in COUNTERS)


def merge(counters: Sequence[pl.DataFrame], by: Sequence[str]) -> pl.DataFrame:
    """Add up the counters of several batches."""
    df = pl.concat(list(counters), how="diagonal_relaxed")
    if not by:
        return df.select(pl.col(c).sum() for c in COUNTERS)
    return df.group_by(list(by)).agg(pl.col(c).sum() for c in COUNTERS)


def column_name(metric: Metric, options: dict[str, str]) -> str:
    """The output column of a metric, naming the convention in force."""
    if not metric.option:
        return metric.name
    return f"{metric.name}[{metric.option.replace('_', '-')}={options[metric.option]}]"


def compute(counters: pl.DataFrame, by: Sequence[str], options: dict[str, str] | None = None
            ) -> pl.DataFrame:
    """Every metric from summed counters: group keys, games, rounds, then the metrics."""
    opts = {k: v[0] for k, v in OPTIONS.items()} | (options or {})
    for k, v in opts.items():
        if v not in OPTIONS[k]:
            raise ValueError(f"{k} must be one of {', '.join(OPTIONS[k])}, not {v!r}")
    cols = []
    for m in METRICS:
        num = _counter_expr(m.numerator.format(**opts))
        den = _counter_expr(m.denominator.format(**opts))
        value = pl.when(den > 0).then(num.cast(pl.Float64) / den).otherwise(None)
        cols.append((value * m.scale).alias(column_name(m, opts)))
    order = [*by, "games", "rounds"]
    return counters.select(*order, *cols).sort(list(by) or ["games"], nulls_last=True)

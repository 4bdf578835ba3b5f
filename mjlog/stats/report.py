"""The statistics report: one self-contained HTML page with a profile per player or group.

:class:`Collector` gathers, batch by batch, the few small tables the pictures
need (counters by month, a pooled row per player count, one row per
player-game for points over games, turn histograms, yaku counts); it holds
aggregates, not games, except the per-game points. :func:`write_report`
draws the pictures with matplotlib as inline SVG (text kept as text, no
script, no network) and writes the page. Matplotlib is imported only here,
and only when a report is asked for. The page's fixed words, the headline
metrics' names and the yaku are written in the language asked for
(:mod:`mjlog.reports.view.words`); the caller's ``about`` line and the groups' names
are shown as given.
"""

from __future__ import annotations

import html
import io
import warnings
from collections.abc import Sequence
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

import polars as pl

from mjlog.reports.view.words import t
from mjlog.stats.metrics import (
    BY_NAME,
    Totals,
    column_name,
    compute,
    count,
    merge,
    options_in_force,
)

if TYPE_CHECKING:
    from matplotlib.figure import Figure

HEADLINE = ("win_rate", "deal_in_rate", "riichi_rate", "call_rate")
"""The rates drawn against the pool of all players."""


class Collector:
    """The report's data, gathered one batch of (filtered) fact tables at a time."""

    def __init__(self, keys: Sequence[str]) -> None:
        self.keys = list(keys)
        self.months = Totals([*self.keys, "year", "month"])
        self.pool: pl.DataFrame | None = None
        self.parts: dict[str, list[pl.DataFrame]] = {
            "games": [], "riichi_turns": [], "win_turns": [], "yaku": []}

    @property
    def monthly(self) -> pl.DataFrame | None:
        """The counters per group and month of every batch taken; None before any."""
        return self.months.result()

    def add(self, tables: dict[str, pl.DataFrame]) -> None:
        """Take one batch into the aggregates."""
        k = self.keys
        self.months.add(count(tables, [*k, "year", "month"]))
        pool = count(tables, ["players"])
        self.pool = pool if self.pool is None else merge([self.pool, pool], ["players"])
        games = tables["games"].select(*k, "date", "source", "placement", "points",
                                       "final_score")
        self.parts["games"].append(games)
        pr = tables["player_rounds"].filter(pl.col("riichi"))
        self.parts["riichi_turns"].append(
            pr.group_by([*k, "riichi_own_turn"]).agg(pl.len().alias("n")))
        self.parts["win_turns"].append(
            tables["wins"].group_by([*k, "own_turn"]).agg(pl.len().alias("n")))
        self.parts["yaku"].append(tables["yaku"].group_by([*k, "yaku"]).agg(pl.len().alias("n")))

    def table(self, name: str) -> pl.DataFrame:
        """One gathered table, its parts combined (once: the parts are replaced by it)."""
        parts = self.parts[name]
        if not parts:
            return pl.DataFrame()
        if len(parts) == 1:
            return parts[0]
        df = pl.concat(parts, how="vertical_relaxed")
        if name != "games":
            df = df.group_by([c for c in df.columns if c != "n"]).agg(pl.col("n").sum())
        self.parts[name] = [df]
        return df


def _group_filter(keys: Sequence[str], row: dict[str, Any]) -> pl.Expr:
    cond = pl.lit(True)
    for k in keys:
        v = row[k]
        cond = cond & (pl.col(k).is_null() if v is None else (pl.col(k) == v))
    return cond


@cache
def pyplot() -> Any:
    """matplotlib's pyplot, set up once for SVG with text kept as text."""
    import matplotlib

    matplotlib.use("svg")
    matplotlib.rcParams.update({"svg.fonttype": "none", "font.size": 9,
                                "axes.spines.top": False, "axes.spines.right": False,
                                "svg.hashsalt": "mjlog",  # the same ids for the same figure
                                "text.parse_math": False})  # a "$" in a name is a "$"
    import matplotlib.pyplot as plt

    return plt


def svg_of(fig: Figure) -> str:
    """A figure as inline SVG markup (its XML prologue dropped), then closed: the same
    markup for the same figure (no date, ids from the figure's content)."""
    plt = pyplot()
    buf = io.StringIO()
    with warnings.catch_warnings():  # names in CJK: the browser draws the text, not matplotlib
        warnings.filterwarnings("ignore", message="Glyph .* missing from font")
        fig.savefig(buf, format="svg", bbox_inches="tight", metadata={"Date": None})
    plt.close(fig)
    text = buf.getvalue()
    return text[text.index("<svg"):]


def _whole_ticks(ax: Any) -> None:
    """Ticks on whole numbers only along the x axis (games, turns)."""
    from matplotlib.ticker import MaxNLocator

    ax.xaxis.set_major_locator(MaxNLocator(integer=True))


def figure(width: float = 4.6, height: float = 2.6) -> tuple[Figure, Any]:
    fig, ax = pyplot().subplots(figsize=(width, height))
    return fig, ax


def _placement_chart(row: dict[str, Any], pool: dict[str, Any], players: int,
                     lang: str = "en") -> str:
    names = ["first_rate", "second_rate", "third_rate", "fourth_rate"][:players]
    fig, ax = figure()
    xs = range(1, players + 1)
    ax.bar(xs, [row[n] or 0 for n in names], color="#3b6ea5", label=t("this group", lang))
    ax.plot(xs, [pool[n] or 0 for n in names], "o", color="#c0392b",
            label=t("all players", lang))
    ax.set_xticks(list(xs), [f"{i}" for i in xs])
    ax.set_xlabel(t("placement", lang))
    ax.set_ylabel(t("share of games", lang))
    ax.legend(frameon=False)
    return svg_of(fig)


def _metric_name(name: str, lang: str) -> str:
    """A metric's name as the report writes it: its label and name in English (``和了率
    win rate``), its label in Japanese, its name's translation in Chinese."""
    if lang == "ja":
        return BY_NAME[name].label
    words = name.replace("_", " ")
    return t(words, lang) if lang != "en" else f"{BY_NAME[name].label} {words}"


def _rates_chart(row: dict[str, Any], pool: dict[str, Any], cols: dict[str, str],
                 lang: str = "en") -> str:
    fig, ax = figure()
    ys = list(range(len(HEADLINE)))
    for y, name in zip(ys, HEADLINE, strict=True):
        c = cols[name]
        v, lo, hi = row[c], row[f"{c}_lo"], row[f"{c}_hi"]
        if v is not None:
            ax.errorbar([v * 100], [y], xerr=[[max(0, v - lo) * 100], [max(0, hi - v) * 100]],
                        fmt="o",
                        color="#3b6ea5", capsize=3)
        if pool[c] is not None:
            ax.plot([pool[c] * 100], [y], "|", color="#c0392b", markersize=14)
    ax.set_yticks(ys, [_metric_name(n, lang) for n in HEADLINE])
    ax.set_xlabel(t("% (95% interval; red: all players)", lang))
    return svg_of(fig)


def _monthly_chart(monthly: pl.DataFrame, cols: dict[str, str], lang: str = "en") -> str | None:
    df = monthly.filter(pl.col("year").is_not_null()).sort("year", "month")
    if df.is_empty():
        return None
    labels = [f"{y}-{m:02d}" for y, m in df.select("year", "month").iter_rows()]
    fig, ax = figure()
    for name, colour in (("win_rate", "#3b6ea5"), ("deal_in_rate", "#c0392b")):
        c = cols[name]
        values = [(v or 0) * 100 for v in df[c].to_list()]
        ax.plot(range(len(labels)), values, marker="o", color=colour, label=t(name.replace(
            "_", " "), lang))
        ax.fill_between(range(len(labels)), [(v or 0) * 100 for v in df[f"{c}_lo"].to_list()],
                        [(v or 0) * 100 for v in df[f"{c}_hi"].to_list()], color=colour,
                        alpha=0.15)
    step = max(1, len(labels) // 8)
    ax.set_xticks(range(0, len(labels), step), labels[::step], rotation=30)
    ax.set_ylabel(t("% of rounds", lang))
    ax.legend(frameon=False)
    return svg_of(fig)


def _points_chart(games: pl.DataFrame, lang: str = "en") -> str | None:
    df = games.sort("date", "source", nulls_last=True)
    use = "points" if df["points"].null_count() == 0 else None
    if df.is_empty():
        return None
    values = df[use].cast(pl.Float64) if use else df["final_score"].cast(pl.Float64)
    fig, ax = figure()
    ax.plot(range(1, df.height + 1), values.cum_sum().to_list(), color="#3b6ea5")
    ax.axhline(0, color="#999", linewidth=0.8)
    _whole_ticks(ax)
    ax.set_xlabel(t("games (in date order)", lang))
    ax.set_ylabel(t("cumulative points" if use else "cumulative final score", lang))
    return svg_of(fig)


def _yaku_chart(yaku: pl.DataFrame, wins: int, lang: str = "en") -> str | None:
    top = yaku.sort(["n", "yaku"], descending=[True, False]).head(15)  # ties by name
    if top.is_empty() or not wins:
        return None
    fig, ax = figure(4.6, 3.4)
    names = [t(str(y), lang) for y in top["yaku"].to_list()[::-1]]
    ax.barh(names, [n / wins * 100 for n in top["n"].to_list()[::-1]], color="#3b6ea5")
    ax.set_xlabel(t("% of wins with this yaku", lang))
    return svg_of(fig)


def _turns_chart(riichi: pl.DataFrame, wins: pl.DataFrame, lang: str = "en") -> str | None:
    if riichi.is_empty() and wins.is_empty():
        return None
    fig, ax = figure()
    for df, col, label, colour in ((riichi, "riichi_own_turn", "riichi", "#c0392b"),
                                   (wins, "own_turn", "win", "#3b6ea5")):
        df = df.filter(pl.col(col).is_not_null()).sort(col)
        total = df["n"].sum() or 1
        ax.plot(df[col].to_list(), [n / total * 100 for n in df["n"].to_list()], marker="o",
                color=colour, label=t(f"{label} turn", lang))
    _whole_ticks(ax)
    ax.set_xlabel(t("own turn (own discards)", lang))
    ax.set_ylabel(t("% of riichi / wins", lang))
    ax.legend(frameon=False)
    return svg_of(fig)


_CSS = """
body{font:14px/1.45 system-ui,sans-serif;margin:0 auto;max-width:1100px;padding:1em 1.5em;
color:#222;background:#fafafa}
h1{font-size:1.5em}h2{margin-top:2em;border-bottom:2px solid #3b6ea5}
table{border-collapse:collapse;margin:.5em 0}td,th{padding:.2em .6em;text-align:right}
th:first-child,td:first-child{text-align:left}tr:nth-child(even){background:#eef2f7}
.charts{display:flex;flex-wrap:wrap;gap:1em}
figure.chart{margin:0;background:#fff;border:1px solid #ddd;padding:.4em}
figure.chart svg{display:block;max-width:100%;height:auto}
figcaption{font-size:.9em;color:#555}.note{color:#555}
"""


def page(title: str, body: list[str], lang: str = "en") -> str:
    """The page around ``body``, in ``lang``."""
    return (f"<!DOCTYPE html>\n<html lang=\"{lang}\"><head><meta charset=\"utf-8\">"
            "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
            "style-src 'unsafe-inline'; img-src data:\">"
            f"<title>{html.escape(title)}</title><style>{_CSS}</style></head><body>\n"
            + "\n".join(body) + "\n</body></html>\n")


def figure_html(kind: str, caption: str, svg: str | None, lang: str = "en") -> str:
    """A chart with its caption (``caption`` in ``lang`` already), or a line saying there
    was nothing to draw."""
    if svg is None:
        said = t("{caption}: nothing to draw.", lang, caption=caption)
        return f'<p class="note">{html.escape(said)}</p>'
    return (f'<figure class="chart" data-chart="{kind}">{svg}'
            f"<figcaption>{html.escape(caption)}</figcaption></figure>")


def _rates_table(row: dict[str, Any], pool: dict[str, Any], options: dict[str, str],
                 lang: str = "en") -> str:
    from mjlog.stats.table import cell

    lines = [f"<table><tr><th>{t('metric', lang)}</th><th>"
             f"{t('this group (95% interval)', lang)}</th><th>{t('all players', lang)}</th></tr>"]
    for name in ("win_rate", "deal_in_rate", "riichi_rate", "call_rate", "average_win",
                 "average_deal_in", "average_placement", "stable_dan"):
        m = BY_NAME[name]
        c = column_name(m, options)
        mine = cell(m, row[c], row.get(f"{c}_lo"), row.get(f"{c}_hi"))
        shown = f"{m.label} {name}" if lang == "en" else _metric_name(name, lang)
        lines.append(f"<tr><td>{html.escape(shown)}</td><td>{mine}</td>"
                     f"<td>{cell(m, pool[c])}</td></tr>")
    return "".join(lines) + "</table>"


def _profile(collector: Collector, row: dict[str, Any], pool: dict[str, Any],
             options: dict[str, str], lang: str = "en") -> list[str]:
    """One group's section: its headline table and its six pictures, in ``lang``."""
    from mjlog.stats.table import label

    keys = collector.keys
    cols = {n: column_name(BY_NAME[n], options) for n in HEADLINE}
    cond = _group_filter(keys, row)
    monthly = compute(collector.monthly.filter(cond), [*keys, "year", "month"], options) \
        if collector.monthly is not None else pl.DataFrame()
    win_turns = collector.table("win_turns").filter(cond)
    wins = int(win_turns["n"].sum()) if not win_turns.is_empty() else 0
    charts = [
        ("placement", "placement distribution (dots: all players)",
         _placement_chart(row, pool, int(row["players"]), lang)),
        ("rates", "headline rates with 95% intervals", _rates_chart(row, pool, cols, lang)),
        ("monthly", "win and deal-in rate by month", _monthly_chart(
            monthly, cols, lang) if not monthly.is_empty() else None),
        ("points", "points over games", _points_chart(
            collector.table("games").filter(cond), lang)),
        ("yaku", "yaku frequencies (dora not counted)", _yaku_chart(
            collector.table("yaku").filter(cond), wins, lang)),
        ("turns", "riichi and win turn distributions", _turns_chart(
            collector.table("riichi_turns").filter(cond), win_turns, lang)),
    ]
    title = html.escape(label(row, keys))
    counts = t("{games} games, {rounds} rounds", lang, games=f"{row['games']:,}",
               rounds=f"{row['rounds']:,}")
    return [f"<section><h2>{title}</h2><p>{counts}</p>",
            _rates_table(row, pool, options, lang), '<div class="charts">',
            *(figure_html(kind, t(caption, lang), svg, lang) for kind, caption, svg in charts),
            "</div></section>"]


def write_report(path: Path, table: pl.DataFrame, collector: Collector,
                 options: dict[str, str] | None, *, about: str, limit: int = 20,
                 lang: str = "en") -> int:
    """Write the page for the first ``limit`` rows of ``table`` (already filtered and
    sorted, every metric column present), its words in ``lang``; returns how many
    profiles it has."""
    opts = options_in_force(options)
    pools = {int(r["players"]): r for r in compute(collector.pool, ["players"], opts)
             .iter_rows(named=True)} if collector.pool is not None else {}
    heading = t("mjlog statistics", lang)
    body = [f"<h1>{heading}</h1>", f'<p class="note">{html.escape(about)}</p>']
    shown = 0
    for row in table.head(limit).iter_rows(named=True):
        pool = pools.get(int(row["players"]))
        if pool is None:
            continue
        body += _profile(collector, row, pool, opts, lang)
        shown += 1
    if table.height > limit:
        more = t("{n} more groups not drawn (--report-limit).", lang, n=table.height - limit)
        body.append(f'<p class="note">{more}</p>')
    path.write_text(page(heading, body, lang), "utf-8")
    return shown


def yaku_frequencies(collector: Collector) -> pl.DataFrame:
    """Per group and yaku: wins with the yaku, the group's wins, and the share with its
    Wilson 95% interval, most frequent first within each group (dora, red fives and ura
    dora are counts of a win, not yaku: see the ``wins`` table)."""
    from mjlog.stats.metrics import wilson

    keys = collector.keys
    wins = collector.table("win_turns")
    yaku = collector.table("yaku")
    if wins.is_empty() or yaku.is_empty():
        return pl.DataFrame(schema={**{k: pl.String() for k in keys}, "yaku": pl.String(),
                                    "count": pl.Int64(), "wins": pl.Int64(),
                                    "share": pl.Float64()})
    totals = wins.group_by(keys).agg(pl.col("n").sum().alias("wins"))
    df = yaku.rename({"n": "count"}).join(totals, on=keys, how="left", nulls_equal=True)
    lo, hi = wilson(pl.col("count"), pl.col("wins"))
    return df.with_columns((pl.col("count") / pl.col("wins")).alias("share"),
                           lo.alias("share_lo"), hi.alias("share_hi")).sort(
        [*keys, "count", "yaku"], descending=[False] * len(keys) + [True, False])

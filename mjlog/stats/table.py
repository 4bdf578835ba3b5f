"""The metrics table as people read it: chosen metrics, formatted cells, fitted to a width.

:func:`select` picks the rows (``--min-games``, ``--sort``) and metrics
(``--metrics``) of a table from :func:`mjlog.stats.run`; :func:`render_text`
fits it to a terminal (one column per metric when that fits, otherwise one
row per metric with the groups side by side, in as many blocks as needed);
:func:`render_markdown` writes it for a document. Numbers in files (CSV,
JSON, Parquet) stay raw: these functions only format what is printed.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

import polars as pl

from mjlog.core.textsafe import markdown_cell, terminal
from mjlog.stats.metrics import BY_NAME, METRICS, SETS, Metric, column_name, old_column_name


def metric_names(spec: str) -> list[str]:
    """The metrics a ``--metrics`` value names: sets (``headline``, ``all`` …) and single
    metrics, comma-separated, in order, each once. Raises ``ValueError`` naming the
    unknown ones and the closest known names."""
    import difflib

    out: list[str] = []
    for word in (w.strip() for w in spec.split(",")):
        if not word:
            continue
        names = [m.name for m in METRICS] if word == "all" else SETS.get(word, (word,))
        for name in names:
            if name not in BY_NAME:
                close = difflib.get_close_matches(name, [*BY_NAME, *SETS, "all"], n=3)
                hint = f" (did you mean {', '.join(close)}?)" if close else ""
                raise ValueError(f"unknown metric {name!r}{hint}; sets: "
                                 f"{', '.join([*SETS, 'all'])}")
            if name not in out:
                out.append(name)
    return out


def default_metrics(fmt: str, decisions: bool) -> list[str]:
    """The metrics shown when ``--metrics`` is not given: ``headline`` in a printed table
    (and ``decisions`` with ``--decisions``), every metric in a file, except, without
    ``--decisions``, those that need it (asked for by name, they say so)."""
    if fmt in ("table", "markdown"):
        return metric_names("headline,decisions" if decisions else "headline")
    return [m.name for m in METRICS if decisions or not m.needs]


NEEDS: Final = "needs --decisions"
"""What a cell of a metric that needs ``--decisions`` says for a group none was counted
for (in a file: an empty value, and :func:`needs_note` on standard error)."""


def needs_note(df: pl.DataFrame, sel: Selection) -> str:
    """A line naming the selected metrics that need ``--decisions`` where some group of
    ``df`` has no decision counted; "" when there is none."""
    needing = [m.name for m in sel.metrics if m.needs]
    if not needing or "decision_rounds" not in df.columns or df.is_empty():
        return ""
    if df["decision_rounds"].min() != 0:
        return ""
    return (f"{', '.join(needing)}: {NEEDS} (the facts of these games hold no decision "
            "counts; empty where decision_rounds is 0)")


@dataclass(frozen=True, slots=True)
class Selection:
    """What a table shows: its group keys, metrics and the option values in force."""

    keys: list[str]
    metrics: list[Metric]
    options: dict[str, str]

    def columns(self, intervals: bool = True) -> list[str]:
        """The raw columns of the selection: keys, games, rounds, each metric (and its
        interval)."""
        cols = [*self.keys, "games", "rounds"]
        if any(m.needs for m in self.metrics):
            cols.append("decision_rounds")
        for m in self.metrics:
            c = column_name(m, self.options)
            cols += [c, f"{c}_lo", f"{c}_hi"] if intervals and m.interval else [c]
        return cols


def _column_named(name: str, sel: Selection) -> str | None:
    """The column of the metric ``name`` names: by the metric's name, its column's name or
    its column's former name (:func:`~mjlog.stats.metrics.old_column_name`); None when
    no metric is so named."""
    if name in BY_NAME:
        return column_name(BY_NAME[name], sel.options)
    for m in METRICS:
        col = column_name(m, sel.options)
        if name in (col, old_column_name(m, sel.options)):
            return col
    return None


def select(table: pl.DataFrame, sel: Selection, *, min_games: int = 1,
           sort: str | None = None) -> tuple[pl.DataFrame, int]:
    """The rows with at least ``min_games`` games, sorted by ``sort`` (``METRIC`` highest
    first, ``METRIC:asc`` lowest first; games by default), with the selected columns;
    and how many rows ``min_games`` left out."""
    kept = table.filter(pl.col("games") >= min_games)
    if sort:
        name, _, direction = sort.partition(":")
        col = name if name in ("games", "rounds") else _column_named(name, sel)
        if col is None or direction not in ("", "asc", "desc"):
            raise ValueError(f"cannot sort by {sort!r}: give a metric name, games or rounds, "
                             "optionally followed by :asc")
        kept = kept.sort(col, descending=direction != "asc", nulls_last=True)
    return kept.select(sel.columns()), table.height - kept.height


def cell(metric: Metric, value: float | None, lo: float | None = None,
         hi: float | None = None) -> str:
    """A metric's value as printed: percentages for rates, thousands separators for
    points, two decimals for small means; the interval in brackets when given."""
    if value is None:
        return "–"
    if metric.kind in ("count", "max"):
        return f"{int(value):,}"
    text = _number(metric, value)
    if lo is None or hi is None:
        return text
    return f"{text} [{_number(metric, lo, unit=False)}–{_number(metric, hi, unit=False)}]"


def _number(metric: Metric, v: float, unit: bool = True) -> str:
    if metric.percent:
        return f"{v * 100:.1f}" + ("%" if unit else "")
    if abs(v) >= 100:
        return f"{v:,.0f}"
    return f"{v:.2f}"


def label(row: dict[str, object], keys: Sequence[str]) -> str:
    """A group's name as shown: its key values joined, ``4p`` for the player count."""
    shown = [f"{row[k]}p" if k == "players" else "–" if row[k] is None else str(row[k])
             for k in keys]
    return " · ".join(shown) or "all"


def width(text: str) -> int:
    """How many terminal columns ``text`` takes (East Asian wide letters take two)."""
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)


def _pad(text: str, size: int, right: bool) -> str:
    fill = " " * (size - width(text))
    return fill + text if right else text + fill


def _cells(df: pl.DataFrame, sel: Selection) -> tuple[list[str], list[list[str]]]:
    """Headers and formatted rows, one row per group (group label, games, metrics)."""
    header = ["group", "games", *[m.name for m in sel.metrics]]
    rows = []
    for row in df.iter_rows(named=True):
        out = [terminal(label(row, sel.keys)), f"{row['games']:,}"]
        for m in sel.metrics:
            c = column_name(m, sel.options)
            if m.needs and not row.get("decision_rounds"):
                out.append(NEEDS)
                continue
            out.append(cell(m, row[c], row.get(f"{c}_lo"), row.get(f"{c}_hi")))
        rows.append(out)
    return header, rows


def _grid(header: list[str], rows: list[list[str]], right_from: int = 1) -> list[str]:
    widths = [max(width(r[i]) for r in [header, *rows]) for i in range(len(header))]

    def line(r: list[str]) -> str:
        return "  ".join(_pad(v, w, i >= right_from)
                         for i, (v, w) in enumerate(zip(r, widths, strict=True))).rstrip()

    return [line(header), "  ".join("-" * w for w in widths), *map(line, rows)]


def render_text(df: pl.DataFrame, sel: Selection, columns: int = 100) -> str:
    """The table fitted to ``columns`` columns of text."""
    header, rows = _cells(df, sel)
    lines = _grid(header, rows)
    if max(map(width, lines)) <= columns:
        return "\n".join(lines)
    # metrics as rows, groups side by side, in blocks that fit
    names = ["metric", *(r[0] for r in rows)]
    body = [[h, *(r[i] for r in rows)] for i, h in enumerate(header) if i > 0]
    label_w = max(width(b[0]) for b in [names, *body])
    blocks, start = [], 1
    while start < len(names):
        end, used = start, label_w
        while end < len(names):
            w = max(width(b[end]) for b in [names, *body]) + 2
            if end > start and used + w > columns:
                break
            used, end = used + w, end + 1
        part = [[r[0], *r[start:end]] for r in [names, *body]]
        blocks.append("\n".join(_grid(part[0], part[1:])))
        start = end
    return "\n\n".join(blocks)


def render_markdown(df: pl.DataFrame, sel: Selection) -> str:
    """The table as a Markdown table (one row per group)."""
    header, rows = _cells(df, sel)
    out = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    out += ["| " + " | ".join(map(markdown_cell, r)) + " |" for r in rows]
    return "\n".join(out)


def conventions(sel: Selection) -> str:
    """One line naming the option in force of every selected metric that has one."""
    named = [f"{m.name}: {m.option.replace('_', '-')}={sel.options[m.option]}"
             for m in sel.metrics if m.option]
    return ("conventions: " + "; ".join(named)) if named else ""


def render_yaku(freq: pl.DataFrame, keys: Sequence[str], *, markdown: bool = False) -> str:
    """Yaku frequencies as text: one row per group and yaku, the share of the group's wins
    with its interval, then how many wins of how many."""
    header = ["group", "yaku", "share of wins", "wins"]
    rows = [[terminal(label(r, keys)), terminal(str(r["yaku"])),
             f"{r['share'] * 100:.1f}% [{r['share_lo'] * 100:.1f}–{r['share_hi'] * 100:.1f}]",
             f"{r['count']:,} of {r['wins']:,}"] for r in freq.iter_rows(named=True)]
    if markdown:
        out = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
        return "\n".join(out + ["| " + " | ".join(map(markdown_cell, r)) + " |" for r in rows])
    return "\n".join(_grid(header, rows, right_from=2))

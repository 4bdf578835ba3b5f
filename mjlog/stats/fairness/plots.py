"""The fairness report's pictures: inline SVG drawn by matplotlib from the tests' own
observed and expected counts (nothing is computed here that the tests did not)."""

from __future__ import annotations

import numpy as np

from mjlog.stats.fairness.inference import Result
from mjlog.stats.report import figure, figure_html, svg_of

LIMIT = 4.0
"""Pearson residuals are coloured up to this size either way."""


def charts(main: list[Result], positions: list[Result]) -> list[str]:
    """The pictures of one group: the wall's residuals, starting hands, dice, ura."""
    out = []
    ran = [r for r in positions if r.observed and sum(r.observed) > 0]
    if ran:
        out.append(figure_html("wall", "Pearson residuals of tile kinds by wall position "
                               "(blue: fewer than a uniform shuffle gives, red: more)",
                               _wall(ran)))
    for test, words in (("shanten", "starting shanten (-1: a dealt win)"),
                        ("pairs", "pairs in the starting hand")):
        hands = [r for r in main if r.test == test and r.observed and sum(r.observed)]
        if hands:
            out.append(figure_html(test, f"{words}: share of hands, bars observed, dots "
                                   "uniform shuffling", _hands(hands, words)))
    for r in main:
        if r.test == "dice" and r.observed and sum(r.observed):
            out.append(figure_html("dice", "dice totals: bars observed, dots two fair dice",
                                   _bars(r, "dice total")))
        if r.test == "ura" and r.run:
            out.append(figure_html("ura", "ura dora hit and expected (95% interval)", _ura(r)))
    return out


def _wall(positions: list[Result]) -> str:
    rows = [(np.asarray(r.observed) - np.asarray(r.expected))
            / np.sqrt(np.maximum(np.asarray(r.expected), 1e-9)) for r in positions]
    fig, ax = figure(6.4, max(2.6, 0.06 * len(rows) + 1))
    image = ax.imshow(np.array(rows), aspect="auto", cmap="RdBu_r", vmin=-LIMIT, vmax=LIMIT,
                      interpolation="nearest")
    labels = positions[0].labels
    ax.set_xticks(range(len(labels)), labels, rotation=90, fontsize=6)
    step = max(1, len(positions) // 12)
    ax.set_yticks(range(0, len(positions), step),
                  [positions[i].subject for i in range(0, len(positions), step)], fontsize=6)
    fig.colorbar(image, ax=ax, shrink=0.8)
    return svg_of(fig)


def _hands(results: list[Result], xlabel: str) -> str:
    fig, ax = figure()
    width = 0.8 / len(results)
    for k, r in enumerate(results):
        n = sum(r.observed) or 1
        x = np.arange(len(r.labels)) + k * width
        ax.bar(x, [o / n * 100 for o in r.observed], width, label=r.subject,
               color=("#3b6ea5", "#c0392b")[k % 2])
        ax.plot(x, [e / n * 100 for e in r.expected], "o", color="#222", markersize=3)
    ax.set_xticks(np.arange(len(results[0].labels)) + width / 2, results[0].labels)
    ax.set_xlabel(xlabel)
    ax.set_ylabel("% of hands")
    ax.legend(frameon=False)
    return svg_of(fig)


def _bars(r: Result, xlabel: str) -> str:
    fig, ax = figure()
    x = np.arange(len(r.labels))
    ax.bar(x, r.observed, color="#3b6ea5")
    ax.plot(x, r.expected, "o", color="#222", markersize=4)
    ax.set_xticks(x, r.labels)
    ax.set_xlabel(xlabel)
    ax.set_ylabel("rounds")
    return svg_of(fig)


def _ura(r: Result) -> str:
    fig, ax = figure(3.0, 2.4)
    assert r.ci is not None and r.estimate is not None
    expected = r.expected[0]
    ax.bar([0, 1], [r.observed[0], expected], color=["#3b6ea5", "#999"])
    lo, hi = r.ci[0] * expected, r.ci[1] * expected
    ax.errorbar([0], [r.observed[0]], yerr=[[r.observed[0] - lo], [hi - r.observed[0]]],
                color="#222", capsize=4)
    ax.set_xticks([0, 1], ["hit", "expected"])
    ax.set_ylabel("ura dora")
    return svg_of(fig)

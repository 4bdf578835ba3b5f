"""The fairness report's tests, computed from a :class:`~mjlog.stats.fairness.tally.Tally`.

Each test gives its statistic, p-value, an effect size with a 95% interval, and
the p-value adjusted for the number of tests in the report (Benjamini and
Hochberg's false discovery rate, :func:`scipy.stats.false_discovery_control`).
The statistics are scipy's (:mod:`scipy.stats`): Pearson's χ² for goodness of
fit and for contingency tables, the normal distribution for differences of means
and for the ura sums, the
noncentral χ² for the intervals of Cohen's *w* and Cramér's *V*. A test whose
expected counts are too small for its approximation (under 5 in a cell) is not
run; the report says how many rounds it needs.

What a rejection means, and what it cannot: see ``docs/fairness.md``.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from functools import cache
from typing import Any

import numpy as np
from scipy import optimize, stats

from mjlog.core import native
from mjlog.families.riichi.hand.shape import shanten as shanten_of
from mjlog.stats.fairness.sample import Layout
from mjlog.stats.fairness.tally import (
    PAIR_BINS,
    SHANTEN_BINS,
    Counts,
    Group,
    GroupKey,
    Player,
    Tally,
)

ALPHA = 0.05
"""The false discovery rate the report rejects at."""
MIN_EXPECTED = 5.0
"""The least expected count in a cell for a χ² test to be run."""
SIMULATED_WALLS = (20_000, 100_000)
"""The fewest and the most uniformly shuffled walls simulated for the starting hands:
twice the rounds observed, within these bounds."""
SEAT_CLASSES = ("dealers", "other seats")


@dataclass(frozen=True)
class Result:
    """One test of the report."""

    test: str
    """What is tested: ``wall``, ``position``, ``shanten``, ``dice`` or ``ura``."""
    group: str
    subject: str
    """What in the group it is about (``draw 5``, ``dealers`` …)."""
    claims: tuple[str, str]
    """The result in one line of plain words: as the test keeps it, and as it rejects it
    (see :attr:`sentence`)."""
    n: int
    statistic: float | None = None
    df: int | None = None
    p: float | None = None
    p_adjusted: float | None = None
    effect: str = ""
    estimate: float | None = None
    ci: tuple[float, float] | None = None
    observed: list[float] = field(default_factory=list)
    expected: list[float] = field(default_factory=list)
    labels: list[str] = field(default_factory=list)

    @property
    def sentence(self) -> str:
        """The result in one line of plain words, as the adjusted p-value decides."""
        return self.claims[1] if self.rejects else self.claims[0]

    @property
    def run(self) -> bool:
        """Whether the test was run (its sample was large enough)."""
        return self.p is not None

    @property
    def rejects(self) -> bool:
        """Whether the adjusted p-value is under :data:`ALPHA`."""
        return self.p_adjusted is not None and self.p_adjusted < ALPHA

    def to_dict(self) -> dict[str, Any]:
        """The result as JSON-ready data."""
        out = {k: getattr(self, k) for k in (
            "test", "group", "subject", "sentence", "n", "statistic", "df", "p", "p_adjusted",
            "effect", "estimate", "observed", "expected", "labels")}
        out["ci"] = list(self.ci) if self.ci else None
        out["rejects"] = self.rejects
        return out


def group_name(key: GroupKey) -> str:
    """``tenhou, 4 players, proven walls``."""
    platform, players, basis = key
    return f"{platform}, {players} players, {basis} walls" if basis == "proven" else \
        f"{platform}, {players} players, deals not proven"


def analyse(tally: Tally, seed: int = 0) -> list[Result]:
    """Every test of every group, adjusted for their number."""
    results: list[Result] = []
    for key in sorted(tally.groups):
        group = tally.groups[key]
        name = group_name(key)
        for layout in sorted(group.walls):
            results.extend(wall_tests(group.walls[layout], layout, name))
        results.extend(hand_tests(group, key[1], name, seed))
        results.append(dice_test(group.dice, name))
        results.append(ura_test(group.ura, name, "riichi wins"))
    return adjusted(results)


def adjusted(results: list[Result]) -> list[Result]:
    """``results`` with the p-values of those run adjusted together (Benjamini–Hochberg)."""
    ran = [i for i, r in enumerate(results) if r.p is not None]
    if not ran:
        return results
    ps = stats.false_discovery_control([results[i].p for i in ran], method="bh")
    out = list(results)
    for i, q in zip(ran, ps, strict=True):
        out[i] = replace(results[i], p_adjusted=float(q))
    return out


def position_labels(layout: Layout) -> list[str]:
    """A name for each row of a wall table of ``layout``."""
    n, live, rin, dora, ura = layout
    hands = ["the dealer's hand"] + [f"the hand of the dealer's {_NEXT[k]}"
                                     for k in range(n - 1)]
    return [*hands, "the dealer's 14th tile",
            *(f"draw {k + 1}" for k in range(1, live)),
            *(f"replacement tile {k + 1}" for k in range(rin)),
            *(f"dora indicator {k + 1}" for k in range(dora)),
            *(f"ura indicator {k + 1}" for k in range(ura))]


_NEXT = ("right (shimocha)", "opposite (toimen)", "left (kamicha)")


def wall_tests(table: Counts, layout: Layout, group: str) -> list[Result]:
    """The whole wall (kind against position, a contingency table) and each position (its
    kinds against the tile set's shares)."""
    kinds = np.flatnonzero(table.sum(axis=0))
    t = table[:, kinds]
    share = t.sum(axis=0) / t.sum()
    labels = position_labels(layout)
    out = [_contingency(t, group, "every position")]
    for row, label in enumerate(labels):
        out.append(gof("position", group, label, t[row], share, _kind_labels(kinds.tolist()),
                       "tiles" if row < layout[0] else "rounds",
                       "the kinds' shares of the tile set"))
    return out


def _kind_labels(kinds: Sequence[int]) -> list[str]:
    from mjlog.core.tiles import kind_str

    return [kind_str(int(k)) for k in kinds]


def _contingency(t: Counts, group: str, subject: str) -> Result:
    """Kinds against positions: χ² of independence, Cramér's V."""
    n = int(t.sum())
    expected = np.outer(t.sum(axis=1), t.sum(axis=0)) / max(n, 1)
    if n == 0 or expected.min() < MIN_EXPECTED:
        return _not_run("wall", group, subject, n, _rounds_needed(expected, n, t.shape[0]))
    res = stats.chi2_contingency(t, correction=False)
    df = int(res.dof)
    k = min(t.shape) - 1
    lo, hi = _ncx2_interval(float(res.statistic), df)
    v = math.sqrt(_noncentrality(float(res.statistic), df) / (n * k))
    claims = (_wall_sentence(True, v, t.shape[0]), _wall_sentence(False, v, t.shape[0]))
    return Result("wall", group, subject, claims,
                  n=int(t[t.shape[0] - 1].sum()), statistic=float(res.statistic), df=df,
                  p=float(res.pvalue), effect="Cramér's V", estimate=v,
                  ci=(math.sqrt(lo / (n * k)), math.sqrt(hi / (n * k))))


def _wall_sentence(fits: bool, v: float, rows: int) -> str:
    how = "as independent of the position as" if fits else \
        "less independent of the position than"
    return (f"the kinds of tiles at the wall's {rows} positions are {how} a uniform shuffle "
            f"makes them (Cramér's V {v:.4f})")


def _rounds_needed(expected: Any, n: int, rows: int) -> str:
    least = float(np.min(expected)) if n else 0.0
    if n == 0 or least == 0:
        return "no rounds"
    return f"needs about {math.ceil(n / rows * MIN_EXPECTED / least)} rounds"


def gof(test: str, group: str, subject: str, observed: Any, share: Any, labels: list[str],
        unit: str = "rounds", model: str = "the shares of a uniform shuffle") -> Result:
    """χ² goodness of fit of ``observed`` counts to ``share`` (``model`` names it), with
    Cohen's w."""
    obs = np.asarray(observed, dtype=float)
    n = int(obs.sum())
    expected = n * np.asarray(share, dtype=float)
    base = dict(observed=obs.tolist(), expected=expected.tolist(), labels=labels)
    if n == 0 or expected.min() < MIN_EXPECTED:
        need = math.ceil(MIN_EXPECTED / float(np.min(share))) if n else 0
        return replace(_not_run(test, group, subject, n,
                                f"needs {need} {unit}" if n else f"no {unit}"), **base)
    res = stats.chisquare(obs, expected)
    df = len(obs) - 1
    lo, hi = _ncx2_interval(float(res.statistic), df)
    w = math.sqrt(_noncentrality(float(res.statistic), df) / n)
    claims = tuple(f"{subject}: {n:,} {unit}; {verb} {model} (Cohen's w {w:.3f})"
                   for verb in ("they fit", "they do not fit"))
    return Result(test, group, subject, (claims[0], claims[1]), n=n,
                  statistic=float(res.statistic), df=df, p=float(res.pvalue),
                  effect="Cohen's w", estimate=w, ci=(math.sqrt(lo / n), math.sqrt(hi / n)), **base)


def _not_run(test: str, group: str, subject: str, n: int, why: str) -> Result:
    said = f"{subject}: not tested ({why})"
    return Result(test, group, subject, (said, said), n=n)


def _noncentrality(statistic: float, df: int) -> float:
    """The estimate of a χ²'s noncentrality, ``max(χ² - df, 0)``: the effect sizes *w* and
    *V* are computed from it, as their intervals are (a raw ``√(χ²/n)`` is biased upward,
    most for small samples, and would fall outside its own interval)."""
    return max(statistic - df, 0.0)


def _ncx2_interval(statistic: float, df: int) -> tuple[float, float]:
    """The 95% interval of the noncentrality of a χ² of ``df`` degrees that came out at
    ``statistic`` (inverting the noncentral χ² distribution's cdf)."""

    def at(q: float) -> float:
        if stats.chi2.cdf(statistic, df) <= q:
            return 0.0
        hi = max(10.0, 4 * statistic)
        while stats.ncx2.cdf(statistic, df, hi) > q:
            hi *= 2
        return float(optimize.brentq(lambda lam: stats.ncx2.cdf(statistic, df, lam) - q,
                                     1e-12, hi))

    return at(0.975), at(0.025)


@cache
def uniform_hands(players: int, walls: int, seed: int) -> tuple[Counts, Counts]:
    """Starting shanten and pairs of dealers (row 0, 14 tiles) and other seats (row 1)
    over ``walls`` uniformly shuffled walls (numpy's generator seeded with ``seed``).
    Which positions a deal takes does not matter: under a uniform shuffle every set of
    positions holds a uniformly drawn hand. The hands are counted by the native core where
    this process uses it (:mod:`mjlog.core.native`)."""
    kinds = np.array([k for k in range(34) if players == 4 or not 1 <= k <= 7], np.int64)
    tiles = np.repeat(kinds, 4)
    rng = np.random.default_rng(seed)
    shantens = np.zeros((2, SHANTEN_BINS), np.int64)
    pairs = np.zeros((2, PAIR_BINS), np.int64)
    core = native.core()
    for start in range(0, walls, 5000):
        batch = rng.permuted(np.tile(tiles, (min(5000, walls - start), 1)), axis=1)
        if core is not None:  # the twin of the loop below
            s, p = core.uniform_hands(batch.astype(np.uint8).tobytes(), len(tiles), players)
            shantens += np.array(s, np.int64).reshape(2, SHANTEN_BINS)
            pairs += np.array(p, np.int64).reshape(2, PAIR_BINS)
            continue
        for wall in batch:
            for k in range(players):
                row = 0 if k == 0 else 1
                counts = np.bincount(wall[:14] if k == 0 else wall[1 + 13 * k:14 + 13 * k],
                                     minlength=34)
                shantens[row, shanten_of(counts.tolist()) + 1] += 1
                pairs[row, int((counts >= 2).sum())] += 1
    return shantens, pairs


def reference(players: int, rounds: int, seed: int) -> tuple[Counts, Counts]:
    """:func:`uniform_hands` for a group of ``rounds`` rounds: twice as many walls,
    within :data:`SIMULATED_WALLS`."""
    walls = int(min(max(2 * rounds, SIMULATED_WALLS[0]), SIMULATED_WALLS[1]))
    return uniform_hands(players, walls, seed)


def hand_tests(group: Group, players: int, name: str, seed: int) -> list[Result]:
    """Dealers' and the other seats' starting shanten and pairs against uniformly
    shuffled walls."""
    shantens, pairs = reference(players, int(group.shanten[0].sum()), seed)
    return [*(_two_sample(group.shanten[row], shantens[row], name, SEAT_CLASSES[row],
                          _SHANTEN) for row in range(2)),
            *(_two_sample(group.pairs[row], pairs[row], name, SEAT_CLASSES[row], _PAIRS)
              for row in range(2))]


@dataclass(frozen=True)
class _Measure:
    """What a hand histogram counts: its test's name, its first bin's value, words."""

    test: str
    first: int
    unit: str
    closer: str


_SHANTEN = _Measure("shanten", -1, "shanten", "close to ready")
_PAIRS = _Measure("pairs", 0, "pairs", "rich in pairs")


def mean_of(hist: Any, first: int = -1) -> tuple[float, float]:
    """Mean and variance of a histogram whose bins count ``first``, ``first + 1`` …"""
    h = np.asarray(hist, dtype=float)
    n = h.sum()
    if n == 0:
        return 0.0, 0.0
    x = np.arange(len(h)) + first
    mean = float((h * x).sum() / n)
    return mean, float((h * (x - mean) ** 2).sum() / n)


def _two_sample(observed: Counts, simulated: Counts, group: str, subject: str,
                measure: _Measure) -> Result:
    """A hand histogram against the simulated one: the difference of their means, its
    interval and a two-sided z test (both samples are large: a normal approximation).
    A test of the mean, not of the whole histogram's shape: it is made for the question
    players ask (closer to ready, richer in pairs), and has more power for it."""
    n, m = int(observed.sum()), int(simulated.sum())
    labels = [str(v + measure.first) for v in range(len(observed))]
    share = simulated / max(m, 1)
    base = dict(observed=observed.tolist(), expected=(share * n).tolist(), labels=labels)
    if n < 30:
        return replace(_not_run(measure.test, group, subject, n, "needs 30 hands"), **base)
    mo, vo = mean_of(observed, measure.first)
    ms, vs = mean_of(simulated, measure.first)
    se = math.sqrt(vo / n + vs / m)
    half = 1.96 * se
    d = mo - ms
    z = d / se if se > 0 else 0.0
    claims = tuple(f"{subject}' starting hands were {how} {measure.closer} as uniform "
                   f"shuffling predicts: {mo:.2f} vs {ms:.2f} {measure.unit} on average "
                   f"(difference {d:+.3f}, 95% interval {d - half:+.3f} to {d + half:+.3f}; "
                   f"{n:,} hands)" for how in ("as", "not as"))
    return Result(measure.test, group, subject, (claims[0], claims[1]), n=n,
                  statistic=z, df=None, p=float(2 * stats.norm.sf(abs(z))),
                  effect=f"difference of mean {measure.unit}", estimate=d,
                  ci=(d - half, d + half), **base)


DICE = np.array([0, 0, 1, 2, 3, 4, 5, 6, 5, 4, 3, 2, 1]) / 36
"""The chance of each total of two fair dice."""


def dice_test(dice: Counts, group: str) -> Result:
    """Dice totals against two fair dice."""
    labels = [str(t) for t in range(2, 13)]
    return gof("dice", group, "dice totals", dice[2:], DICE[2:], labels,
               model="two fair dice")


def ura_test(ura: Sequence[float], group: str, subject: str) -> Result:
    """Ura dora hit against the hits expected from the tiles left in the wall (a normal
    approximation of the sum over wins)."""
    wins, hits, mean, var = int(ura[0]), float(ura[1]), float(ura[2]), float(ura[3])
    if wins < 30 or var <= 0 or mean <= 0:
        return _not_run("ura", group, subject, wins, "needs 30 riichi wins with their ura "
                        "indicators")
    sd = math.sqrt(var)
    z = (hits - mean) / sd
    p = float(2 * stats.norm.sf(abs(z)))
    ratio = hits / mean
    lo, hi = (hits - 1.96 * sd) / mean, (hits + 1.96 * sd) / mean
    claims = tuple(f"{subject} hit {how} ura dora as the tiles left in the wall promise: "
                   f"{hits:,.0f} vs {mean:,.1f} expected over {wins:,} wins, ratio {ratio:.3f} "
                   f"(95% interval {lo:.3f} to {hi:.3f})" for how in ("as many", "not as many"))
    return Result("ura", group, subject, (claims[0], claims[1]), n=wins, statistic=z, df=None, p=p,
                  effect="hits / expected", estimate=ratio, ci=(lo, hi),
                  observed=[hits], expected=[mean], labels=["ura dora"])


@dataclass(frozen=True)
class PlayerLine:
    """One player's luck against the platform's: starting hands and ura."""

    platform: str
    players: int
    name: str
    hands: int
    shanten: float
    """Mean starting shanten minus what uniform shuffling predicts for the same seats."""
    shanten_ci: tuple[float, float]
    ura: Result

    def to_dict(self) -> dict[str, Any]:
        """The line as JSON-ready data."""
        return {"platform": self.platform, "players": self.players, "name": self.name,
                "hands": self.hands, "shanten_difference": self.shanten,
                "shanten_ci": list(self.shanten_ci), "ura": self.ura.to_dict()}


def player_lines(tally: Tally, names: Sequence[str], least: int, seed: int,
                 limit: int) -> list[PlayerLine]:
    """The players named (or, with no name given, those with the most hands, at least
    ``least``, at most ``limit``), each against uniform shuffling."""
    chosen = [(k, p) for k, p in tally.players.items()
              if (k[2] in names if names else int(p.shanten.sum()) >= least)]
    chosen.sort(key=lambda kp: (-int(kp[1].shanten.sum()), kp[0]))
    out = []
    for (platform, players, name), player in chosen[:limit if not names else None]:
        group = tally.groups.get((platform, players, "proven")) or \
            tally.groups.get((platform, players, "unproven"))
        out.append(_player_line(platform, players, name, player, group, seed))
    return out


def _player_line(platform: str, players: int, name: str, player: Player,
                 group: Group | None, seed: int) -> PlayerLine:
    rounds = int(group.shanten[0].sum()) if group else 0
    ref = reference(players, rounds, seed)[0]
    x = np.arange(SHANTEN_BINS) - 1
    n = int(player.shanten.sum())
    diff = sq = 0.0
    for row in range(2):
        mu = mean_of(ref[row])[0]
        h = player.shanten[row]
        diff += float((h * (x - mu)).sum())
        sq += float((h * (x - mu) ** 2).sum())
    mean = diff / max(n, 1)
    var = max(sq / max(n, 1) - mean * mean, 0.0)
    half = 1.96 * math.sqrt(var / max(n, 1))
    return PlayerLine(platform, players, name, n, mean, (mean - half, mean + half),
                      ura_test(player.ura, name, "riichi wins"))

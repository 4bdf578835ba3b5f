"""Statistics from decisions (``mjlog stats --decisions``): every new metric against a
count made here, over Tenhou games of the shared corpus.

The counts here do not go through :mod:`mjlog.stats.moves`: ready and not-ready deal-ins
and discards are counted from the events with the engine's table and
:func:`mjlog.families.riichi.hand.shape.shanten`; the most accepting discards, the ukeire lost and
the
safety classes from each decision's JSON object (``to_json()``, the schema of
``docs/review.md``); riichi-to-win and calls-to-win from the events alone.
"""

from __future__ import annotations

import importlib
import re
from collections import Counter
from pathlib import Path
from typing import Any

import polars as pl
import pytest
from click.testing import CliRunner
from polars.testing import assert_frame_equal

from mjlog.cli import main
from mjlog.core import native
from mjlog.core.events import Chi, Discard, OpenKan, Pon, RoundStart, Win
from mjlog.core.record import GameRecord
from mjlog.core.tiles import KIND_OF
from mjlog.families.riichi.decisions import decisions
from mjlog.families.riichi.hand.shape import shanten
from mjlog.formats import read_path
from mjlog.replay.engine import Engine
from mjlog.replay.observer import Observer
from mjlog.stats import facts, metrics, summarize
from mjlog.stats.facts import DECISION_SCHEMA, TABLES, Batch, add_file
from mjlog.stats.metrics import BY_NAME, SETS, options_in_force
from mjlog.stats.table import NEEDS, Selection, render_text

from .conftest import CORPUS, corpus_paths

facts_module = importlib.import_module("mjlog.stats.facts")  # also the name of a function

FAST_GAMES = 20
SLOW_GAMES = 300
BUCKET = {"genbutsu": "genbutsu", "suji": "suji", "kabe": "kabe", "one-chance": "one_chance",
          "honour-4": "honour", "honour-3": "honour", "none": "none"}
"""docs/review.md's classes as the statistics bucket them."""
CLASSES = ("genbutsu", "suji", "kabe", "one_chance", "honour", "none")


def houou_paths(n: int) -> list[Path]:
    """The first ``n`` complete four-player Houou hanchan games (GO type 169) of the
    corpus index, by path; skips without the corpus."""
    corpus_paths("tenhou-xml")  # skips with a message when the corpus is absent
    rows = [line.split("\t") for line in
            (CORPUS / "_index.tsv").read_text("utf-8").splitlines()[1:]]
    paths = sorted(CORPUS / r[0] for r in rows
                   if r[1] == "tenhou-xml" and r[3] == "169" and r[5] == "yes")
    if len(paths) < n:
        pytest.skip(f"the corpus holds {len(paths)} Houou hanchan games, not {n}")
    return paths[:n]


@pytest.fixture(scope="module")
def sample() -> tuple[list[Path], dict[str, pl.DataFrame]]:
    paths = houou_paths(FAST_GAMES)
    return paths, facts(paths, decisions=True)


# ---------------------------------------------------------------- counts made here


class ReadyWitness(Observer):
    """At each discard, the discarder's shanten after it, from the engine's table and
    :func:`shanten` (not from the decision facts); at each ron on a discard (not on a
    kan: the tile robbed was not discarded), the discard dealt in, once for a double
    ron."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self.round = -1
        self.discards: Counter[tuple[int, int, bool]] = Counter()
        self.deal_ins: Counter[tuple[int, int, bool]] = Counter()
        self.last: tuple[int, int, bool] | None = None
        """The last discard, until the next draw or kan."""

    def before_round_start(self, ev: RoundStart) -> None:
        self.round += 1
        self.last = None

    def before_draw(self, ev: object) -> None:
        self.last = None

    before_added_kan = before_closed_kan = before_kita = before_draw

    def before_discard(self, ev: Discard) -> None:
        ps = self.engine.state.players[ev.player]
        counts = [0] * 34
        for t in ps.concealed:
            counts[KIND_OF[t]] += 1
        counts[KIND_OF[ev.tile]] -= 1
        key = (self.round, ev.player, shanten(counts, len(ps.melds)) == 0)
        self.discards[key] += 1
        self.last = key

    def before_win(self, ev: Win) -> None:
        if ev.from_player != ev.winner and self.last is not None and \
                self.last[1] == ev.from_player:
            self.deal_ins[self.last] += 1
            self.last = None  # a double ron: one deal-in


def ready_counts(rec: GameRecord) -> ReadyWitness:
    engine = Engine(rec.src)
    witness = ReadyWitness(engine)
    engine.run(rec.events, [witness])
    return witness


def json_counts(rec: GameRecord) -> Counter[str]:
    """The decision metrics' counters of one game, from each discard decision's JSON."""
    out: Counter[str] = Counter()
    for d in decisions(rec):
        j = d.to_json()
        if j["kind"] != "discard":
            continue
        threatened = bool(j["threats"])
        if not j["forced"] and j["best"] is not None and j["loss"] is not None:
            out["choices"] += 1
            out["best"] += j["taken"] in j["best"]
            out["shanten_lost"] += j["loss"]["shanten"] > 0
            if j["loss"]["shanten"] == 0:
                side = "threat" if threatened else "calm"
                out[f"{side}_kept"] += 1
                out[f"{side}_lost"] += j["loss"]["ukeire"]
        for by in (j["threats"] or {}).values():
            out[f"discard_{BUCKET[by[j['taken']]]}"] += 1
        deal_in = j["deal_in"]
        for w, cls in (deal_in or {"class": {}})["class"].items():
            if cls is not None and deal_in["riichi"][w]:
                out[f"deal_in_{BUCKET[cls]}"] += 1
    return out


def event_counts(rec: GameRecord) -> Counter[str]:
    """Riichi rounds and called rounds, and those the player won, and the rounds dealt in
    by a win that follows no discard of the player dealing in (a robbed kan, a damaged
    record), from the events."""
    out: Counter[str] = Counter()
    before: object = None
    riichi: set[int] = set()
    called: set[int] = set()
    won: set[int] = set()
    no_discard: set[int] = set()

    def close() -> None:
        out["no_discard"] += len(no_discard)
        out["riichi"] += len(riichi)
        out["riichi_won"] += len(riichi & won)
        out["called"] += len(called)
        out["called_won"] += len(called & won)

    for ev in rec.events:
        if isinstance(ev, RoundStart):
            close()
            riichi, called, won, no_discard = set(), set(), set(), set()
        elif isinstance(ev, Discard) and ev.riichi:
            riichi.add(ev.player)
        elif isinstance(ev, Chi | Pon | OpenKan):
            called.add(ev.player)
        elif isinstance(ev, Win):
            won.add(ev.winner)
            if ev.from_player != ev.winner and not (
                    isinstance(before, Discard) and before.player == ev.from_player):
                no_discard.add(ev.from_player)
        if not isinstance(ev, Win):
            before = ev
    close()
    return out


def _pooled(tables: dict[str, pl.DataFrame]) -> dict[str, Any]:
    return metrics(tables, by=[]).to_dicts()[0]


def _check_ready(paths: list[Path], tables: dict[str, pl.DataFrame]) -> None:
    """Per player-round: discards and deal-ins ready and not ready as counted here."""
    rows = tables["decisions"].select("source", "round", "seat", "discards",
                                      "ready_discards", "ready_deal_ins", "not_ready_deal_ins")
    got = {(r[0], r[1], r[2]): r[3:] for r in rows.iter_rows()}
    expected: dict[tuple[str, int, int], tuple[int, ...]] = {}
    for path in paths:
        w = ready_counts(read_path(str(path))[0])
        for key in {k[:2] for k in [*w.discards, *w.deal_ins]}:
            ready, other = (*key, True), (*key, False)
            expected[(str(path), *key)] = (
                w.discards[ready] + w.discards[other], w.discards[ready],
                w.deal_ins[ready], w.deal_ins[other])
    assert {k: v for k, v in got.items() if any(v)} == expected


def _check_json_counts(paths: list[Path], tables: dict[str, pl.DataFrame]) -> None:
    """The pooled metrics against the counts of every decision's JSON."""
    c: Counter[str] = Counter()
    for path in paths:
        c += json_counts(read_path(str(path))[0])
    row = _pooled(tables)
    assert c["choices"] > 100 * len(paths)  # about 60 choices a player per hanchan
    assert row["best_discard_rate"] == pytest.approx(c["best"] / c["choices"])
    assert row["shanten_loss_rate"] == pytest.approx(c["shanten_lost"] / c["choices"])
    kept = c["calm_kept"] + c["threat_kept"]
    assert row["ukeire_loss"] == pytest.approx((c["calm_lost"] + c["threat_lost"]) / kept)
    assert row["ukeire_loss_no_threat"] == pytest.approx(c["calm_lost"] / c["calm_kept"])
    assert row["ukeire_loss_threat"] == pytest.approx(c["threat_lost"] / c["threat_kept"])
    deal_ins = sum(c[f"deal_in_{k}"] for k in CLASSES)
    assert deal_ins > 0
    for k in CLASSES:
        share, danger = row[f"deal_ins_on_{k}"], row[f"danger_{k}"]
        assert share == pytest.approx(c[f"deal_in_{k}"] / deal_ins), k
        if c[f"discard_{k}"]:
            assert danger == pytest.approx(c[f"deal_in_{k}"] / c[f"discard_{k}"]), k
            lo, hi = row[f"danger_{k}_lo"], row[f"danger_{k}_hi"]
            assert lo <= danger <= hi, k
        else:
            assert danger is None, k


def _check_events(paths: list[Path], tables: dict[str, pl.DataFrame]) -> None:
    """riichi_win_rate and call_win_rate (already in the registry) against the events;
    every round dealt in while in riichi has a deal-in made ready."""
    c: Counter[str] = Counter()
    for path in paths:
        c += event_counts(read_path(str(path))[0])
    row = _pooled(tables)
    assert row["riichi_win_rate"] == pytest.approx(c["riichi_won"] / c["riichi"])
    assert row["call_win_rate"] == pytest.approx(c["called_won"] / c["called"])
    both = tables["player_rounds"].join(tables["decisions"], on=["source", "round", "seat"])
    assert both.height == tables["player_rounds"].height
    riichi_deal_ins = both.filter(pl.col("riichi_deal_in"))
    assert riichi_deal_ins.height > 0
    assert (riichi_deal_ins["ready_deal_ins"] == 1).all()
    made = both["ready_deal_ins"] + both["not_ready_deal_ins"]
    assert (made <= both["dealt_in"].cast(pl.Int8)).all()  # a round is dealt in once
    assert int(made.sum()) == int(both["dealt_in"].sum()) - c["no_discard"]


# ---------------------------------------------------------------- the tests


def test_ready_and_not_ready_against_the_events(
        sample: tuple[list[Path], dict[str, pl.DataFrame]]) -> None:
    paths, tables = sample
    _check_ready(paths, tables)
    row = _pooled(tables)
    d = tables["decisions"]
    ready, other = int(d["ready_deal_ins"].sum()), int(d["not_ready_deal_ins"].sum())
    assert row["ready_deal_in_share"] == pytest.approx(ready / (ready + other))
    assert row["not_ready_deal_in_share"] == pytest.approx(other / (ready + other))
    assert row["ready_deal_in_rate"] == pytest.approx(ready / int(d["ready_discards"].sum()))
    not_ready = int(d["discards"].sum()) - int(d["ready_discards"].sum())
    assert row["not_ready_deal_in_rate"] == pytest.approx(other / not_ready)
    assert row["ready_deal_in_share_lo"] <= row["ready_deal_in_share"] <= \
        row["ready_deal_in_share_hi"]


def test_efficiency_and_safety_against_each_decisions_json(
        sample: tuple[list[Path], dict[str, pl.DataFrame]]) -> None:
    _check_json_counts(*sample)


def test_riichi_and_calls_to_win_against_the_events(
        sample: tuple[list[Path], dict[str, pl.DataFrame]]) -> None:
    _check_events(*sample)


@pytest.mark.slow
def test_every_decision_metric_over_300_houou_games() -> None:
    paths = houou_paths(SLOW_GAMES)
    tables = facts(paths, decisions=True)
    _check_ready(paths, tables)
    _check_json_counts(paths, tables)
    _check_events(paths, tables)


def test_without_decisions_the_metrics_need_them(tmp_path: Path) -> None:
    """A facts folder written without --decisions: no decisions table, and its decision
    metrics are empty (not 0) and printed as needing --decisions; the others stand."""
    paths = houou_paths(2)
    out = tmp_path / "facts"
    summarize(paths, facts_dir=out)
    assert not (out / "decisions").exists()
    tables = {t: pl.read_parquet(out / t) for t in TABLES}
    table = metrics(tables, by=["player"])
    assert (table["decision_rounds"] == 0).all() and table["win_rate"].is_not_null().all()
    for name in (*SETS["decisions"], *SETS["safety"]):
        assert table[name].is_null().all(), name
    sel = Selection(["player", "players"], [BY_NAME["ukeire_loss"], BY_NAME["win_rate"]],
                    options_in_force(None))
    text = render_text(table.select(sel.columns()), sel, 200)
    assert text.count(NEEDS) == table.height and "%" in text
    result = CliRunner().invoke(main, ["stats", *map(str, paths), "--metrics",
                                       "ready_deal_in_share,win_rate", "--by", ""])
    assert result.exit_code == 0, result.output
    assert NEEDS in result.output


def test_decisions_in_a_facts_folder_and_sql_safe_columns(tmp_path: Path) -> None:
    paths = houou_paths(2)
    out, csv = tmp_path / "facts", tmp_path / "stats.csv"
    result = CliRunner().invoke(main, ["stats", *map(str, paths), "--decisions", "--facts",
                                       str(out), "-o", str(csv)])
    assert result.exit_code == 0, result.output
    written = pl.read_parquet(out / "decisions")
    assert dict(written.schema) == DECISION_SCHEMA and written.height == pl.read_parquet(
        out / "player_rounds").height
    columns = pl.read_csv(csv).columns
    assert all(re.fullmatch(r"[a-z0-9_]+", c) for c in columns), columns
    assert {"ukeire_loss_threat", "danger_suji_lo", "decision_rounds"} <= set(columns)
    plain = CliRunner().invoke(main, ["stats", *map(str, paths), "-o", str(csv)])
    assert plain.exit_code == 0 and "ukeire_loss" not in pl.read_csv(csv).columns
    again = CliRunner().invoke(main, ["stats", *map(str, paths), "--facts", str(out),
                                      "--update"])
    assert again.exit_code == 2 and "--overwrite" in again.output  # not mixed


def test_native_and_python_routes_give_the_same_decision_facts(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The native facts reader (Tenhou XML) with --decisions gives the Python route's
    tables: the five it reads itself, and the decisions counted from the Python record
    (the decision facts' own native kernel stays on for both: its twin is
    tests/test_decisions.py's)."""
    if native.core() is None:
        pytest.skip("the native core is not built")
    assert facts_module._native_reader() is not None
    paths = houou_paths(3)
    frames = []
    for python_facts in (False, True):
        with monkeypatch.context() as m:
            if python_facts:
                m.setattr(facts_module, "_native_reader", lambda: None)
            batch = Batch(decisions=True)
            for path in paths:
                add_file(batch, (str(path), True))
            frames.append(batch.frames())
    assert set(frames[0]) == {*TABLES, "decisions"}
    for t in frames[0]:
        assert_frame_equal(frames[0][t], frames[1][t])
    assert frames[0]["decisions"]["discards"].sum() > 0

"""The fairness report's page over the whole corpus, opened for real in headless Chromium.

The page is built by ``mjlog fairness`` over ``../shared/corpus``; a second run over the
same inputs writes the report as JSON (the run is seeded, so its numbers are the same).
The page must load from ``file://`` with the network off and log no console error; every
test row must show the JSON's p-values; the headline must count what the JSON counts;
the corpus's known facts must hold (no Tenhou test rejects, the mismatches it has) and
the Tenhou 4-player proven group must draw each of its five charts as one SVG picture.
Without the corpus the tests skip, saying so; without Chromium they skip outside CI and
fail in it (the ``browser`` fixture of conftest.py).
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

pytest.importorskip("scipy", reason="the fairness report needs scipy (pip install '.[test]')")
pytest.importorskip("matplotlib", reason="the fairness page draws with matplotlib")

from mjlog.cli import main
from mjlog.stats.fairness.report import _p

from .conftest import CORPUS, CORPUS_MISSING
from .viewer_pages import open_page

TENHOU_4P = "tenhou, 4 players, proven walls"
CHARTS = ["wall", "shanten", "pairs", "dice", "ura"]
"""The pictures of a group whose every test ran, in the order the page draws them."""
STATUSES = ("proven", "mismatch", "unreadable", "uncommitted", "unknown")

Key = tuple[str, str, str]
"""A test as the page names it: its group's heading, ``data-test``, ``data-subject``."""

_SECTIONS = """secs => secs.map(s => {
    const rows = t => t ? [...t.querySelectorAll('tr.test')].map(r => ({
        test: r.dataset.test, subject: r.dataset.subject, verdict: r.cells[0].textContent,
        sentence: r.cells[1].textContent, statistic: r.cells[2].textContent,
        p: r.querySelector('td.p').textContent, q: r.querySelector('td.q').textContent,
        effect: r.cells[5].textContent, estimate: r.querySelector('td.effect').textContent,
    })) : [];
    return {
        name: s.querySelector('h2').textContent,
        main: rows(s.querySelector(':scope > table')),
        positions: rows(s.querySelector(':scope > details > table')),
        rows: s.querySelectorAll('tr.test').length,
        charts: [...s.querySelectorAll('figure[data-chart]')].map(f => {
            const svg = f.querySelector('svg');
            const box = svg ? svg.getBoundingClientRect() : {width: 0, height: 0};
            return {kind: f.dataset.chart, svgs: f.querySelectorAll('svg').length,
                    width: box.width, height: box.height,
                    marks: svg ? svg.querySelectorAll('path, rect, use, image').length : 0};
        }),
    };
})"""


def _run(out: Path) -> None:
    """Run ``mjlog fairness`` over the whole corpus into ``out`` (.html or .json)."""
    result = CliRunner().invoke(main, ["fairness", str(CORPUS), "--jobs", "2", "-o", str(out)])
    # Status 2: some files of the corpus cannot be read whole; the report is still written.
    assert result.exit_code in (0, 2), result.output
    if result.exit_code == 2:
        assert "could not be read" in result.output, result.output
    assert out.stat().st_size > 0


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, Any]]:
    """The page over the corpus, and the JSON of a second run over the same inputs."""
    if not (CORPUS / "_index.tsv").exists():
        pytest.skip(CORPUS_MISSING)
    folder = tmp_path_factory.mktemp("fairness")
    page, data = folder / "report.html", folder / "report.json"
    _run(page)
    _run(data)
    return page, json.loads(data.read_text("utf-8"))


@pytest.fixture(scope="module")
def seen(browser: Any, built: tuple[Path, dict[str, Any]]) -> dict[str, Any]:
    """Open the page offline in Chromium: what it logged, asked for and shows."""
    context, page, errors = open_page(browser, built[0], viewport={"width": 1200, "height": 900})
    shown = {
        "sections": page.eval_on_selector_all("section", _SECTIONS),
        "headline": page.eval_on_selector_all("body > p", "ps => ps.map(p => p.textContent)"),
        "mismatches": page.eval_on_selector_all("li.mismatch",
                                                "ls => ls.map(l => l.textContent)"),
        "rows": page.eval_on_selector_all("tr.test", "rs => rs.length"),
    }
    context.close()
    return {"errors": errors, **shown}


def _shown(data: dict[str, Any]) -> dict[Key, dict[str, Any]]:
    """The JSON's tests the page draws: all but positions, and the positions that ran."""
    out: dict[Key, dict[str, Any]] = {}
    for t in data["tests"]:
        if t["test"] != "position" or t["p"] is not None:
            key = (t["group"], t["test"], t["subject"])
            assert key not in out, f"two tests are named {key}"
            out[key] = t
    return out


def _cells(t: dict[str, Any]) -> dict[str, str]:
    """The cells the page should give a JSON test (formatted as report.py's ``_row``)."""
    verdict = "--" if t["p"] is None else "NO" if t["rejects"] else "ok"
    stat = "-" if t["statistic"] is None else f"{t['statistic']:.4g}" + (
        f" (df {t['df']})" if t["df"] is not None else "")
    ci = t["ci"]
    estimate = f"{t['estimate']:.4g} ({ci[0]:.4g} to {ci[1]:.4g})" \
        if ci and t["estimate"] is not None else "-"
    return {"verdict": verdict, "sentence": t["sentence"], "statistic": stat,
            "p": _p(t["p"]), "q": _p(t["p_adjusted"]), "effect": t["effect"],
            "estimate": estimate}


def _section(seen: dict[str, Any], name: str) -> dict[str, Any]:
    """The page's section headed ``name``."""
    found = [s for s in seen["sections"] if s["name"] == name]
    assert len(found) == 1, [s["name"] for s in seen["sections"]]
    return dict(found[0])


@pytest.mark.slow
def test_page_opens_offline_without_errors(seen: dict[str, Any]) -> None:
    """The page loads from file:// with the network off, logs no error, asks for nothing."""
    assert seen["errors"] == []  # console errors, and any request off the file
    assert seen["sections"], "the page has no section"


@pytest.mark.slow
def test_every_row_shows_the_numbers_of_the_json(
        seen: dict[str, Any], built: tuple[Path, dict[str, Any]]) -> None:
    """Each test row shows the JSON's numbers; exactly the JSON's drawn tests are rows."""
    data = built[1]
    expected = _shown(data)
    groups = {t["group"] for t in data["tests"]}
    assert groups == {g["name"] for g in data["groups"]}
    assert groups <= {s["name"] for s in seen["sections"]}
    drawn: list[Key] = []
    for s in seen["sections"]:
        assert s["rows"] == len(s["main"]) + len(s["positions"]), s["name"]
        if s["name"] not in groups:
            assert s["rows"] == 0, s["name"]
            continue
        assert all(r["test"] != "position" for r in s["main"]), s["name"]
        assert all(r["test"] == "position" for r in s["positions"]), s["name"]
        for row in s["main"] + s["positions"]:
            key = (s["name"], row["test"], row["subject"])
            assert key in expected, f"the page draws {key}, which the JSON does not have"
            want = _cells(expected[key])
            assert {k: row[k] for k in want} == want, key
            drawn.append(key)
        ps = [expected[(s["name"], "position", r["subject"])]["p"] for r in s["positions"]]
        assert ps == sorted(ps), f"{s['name']}: positions not smallest p first"
    assert len(drawn) == len(set(drawn)), "a test is drawn twice"
    assert sorted(drawn) == sorted(expected)
    assert seen["rows"] == len(expected)


@pytest.mark.slow
def test_headline_counts_what_the_json_counts(
        seen: dict[str, Any], built: tuple[Path, dict[str, Any]]) -> None:
    """The headline's games, duplicates, rounds by status and tests run equal the JSON's."""
    data = built[1]
    first, second = seen["headline"][:2]
    games = re.match(r"mjlog fairness: ([\d,]+) games?", first)
    assert games, first
    assert int(games[1].replace(",", "")) == data["games"]
    twice = re.search(r"\(([\d,]+) read twice", first)
    assert (int(twice[1].replace(",", "")) if twice else 0) == data["duplicates"]
    rounds = first.split("; rounds: ", 1)[1]
    counted = {s: int(n.replace(",", "")) for n, s in re.findall(
        r"([\d,]+) (" + "|".join(STATUSES) + r")\b", rounds)}
    assert counted == {s: n for s, n in data["rounds"].items() if n}
    ran = [t for t in data["tests"] if t["p"] is not None]
    tests = re.match(r"tests: ([\d,]+) run, ([\d,]+) reject .*; ([\d,]+) not run", second)
    assert tests, second
    assert [int(n.replace(",", "")) for n in tests.groups()] == [
        len(ran), sum(t["rejects"] for t in ran), len(data["tests"]) - len(ran)]


@pytest.mark.slow
def test_corpus_facts_hold(seen: dict[str, Any], built: tuple[Path, dict[str, Any]]) -> None:
    """No Tenhou test rejects, Tenhou 4p proven is >15,000 rounds, the mismatches listed."""
    data = built[1]
    tenhou = [t for t in data["tests"] if t["group"].startswith("tenhou,")]
    assert tenhou and not [t for t in tenhou if t["rejects"]]
    for s in seen["sections"]:
        if s["name"].startswith("tenhou,"):
            assert all(r["verdict"] != "NO" for r in s["main"] + s["positions"]), s["name"]
    group = [g for g in data["groups"] if g["name"] == TENHOU_4P]
    assert len(group) == 1 and group[0]["rounds"] > 15_000, data["groups"]
    named = {(Path(m["source"]).name, m["round"], m["status"]) for m in data["mismatches"]}
    assert ("west.xml", "E1-0", "mismatch") in named
    west = next(m for m in data["mismatches"] if Path(m["source"]).name == "west.xml")
    assert "do not come from its seed" in west["why"]
    city = sorted(r for name, r, st in named if name == "gameDataSample.json"
                  and st == "unreadable")
    assert city == ["E1-0", "E2-0"], named
    assert data["mismatched"] == len(data["mismatches"]) == len(seen["mismatches"])
    for m in data["mismatches"]:
        line = f"{m['source']} {m['round']}: {m['status']}: {m['why']}"
        assert line in seen["mismatches"], line


@pytest.mark.slow
def test_tenhou_4p_proven_group_draws_each_chart(seen: dict[str, Any]) -> None:
    """The Tenhou 4-player proven group has one drawn SVG picture per chart."""
    charts = _section(seen, TENHOU_4P)["charts"]
    assert [c["kind"] for c in charts] == CHARTS
    for c in charts:
        assert c["svgs"] == 1, c
        assert c["width"] > 100 and c["height"] > 60 and c["marks"] > 1, c

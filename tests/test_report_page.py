"""The statistics report page, opened for real in headless Chromium.

The page must load from ``file://`` with the network off, log no console
error, ask for nothing outside itself, and draw every chart it has: each
``figure.chart`` holds an SVG with a visible size and drawn marks. Chromium
is Debian's (``/usr/bin/chromium``, which ``.ci/run`` installs), driven by
Playwright without a browser download of its own. Outside CI a machine
without Chromium skips these tests, saying so; in CI they fail instead.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from click.testing import CliRunner

from mjlog.cli import main

from .conftest import CORPUS, EXAMPLES, corpus_paths


def _report(tmp_path: Path, *args: str) -> Path:
    out = tmp_path / "report.html"
    result = CliRunner().invoke(main, ["stats", *args, "--report", str(out)])
    assert result.exit_code == 0, result.output
    return out


def _open(browser: Any, page_file: Path, shot: Path | None = None) -> dict[str, Any]:
    """Open the page offline; what it logged, asked for and drew."""
    context = browser.new_context(offline=True, viewport={"width": 1200, "height": 900})
    page = context.new_page()
    errors: list[str] = []
    requests: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("request", lambda r: requests.append(r.url))
    page.goto(page_file.as_uri(), wait_until="load")
    charts = page.eval_on_selector_all("figure.chart", """figs => figs.map(f => {
        const svg = f.querySelector('svg'); const box = svg ? svg.getBoundingClientRect() : null;
        return {kind: f.dataset.chart, width: box ? box.width : 0, height: box ? box.height : 0,
                marks: svg ? svg.querySelectorAll('path, rect, use').length : 0};
    })""")
    sections = page.eval_on_selector_all("section h2", "hs => hs.map(h => h.textContent)")
    if shot is not None:
        page.screenshot(path=str(shot), full_page=False)
    context.close()
    return {"errors": errors, "requests": requests, "charts": charts, "sections": sections}


def _drawn(chart: dict[str, Any]) -> bool:
    return bool(chart["width"] > 100 and chart["height"] > 60 and chart["marks"] > 5)


def test_report_of_the_examples_loads_offline_and_draws(browser: Any, tmp_path: Path) -> None:
    seen = _open(browser, _report(tmp_path, str(EXAMPLES)))
    assert seen["errors"] == []
    assert [u for u in seen["requests"] if not u.startswith("file://")] == []
    assert len(seen["sections"]) == 4  # Aoi, Ben, Chiyo, Dai
    kinds = {c["kind"] for c in seen["charts"]}
    assert {"placement", "rates", "points", "turns"} <= kinds
    assert all(_drawn(c) for c in seen["charts"]), seen["charts"]


def test_report_of_real_games_draws_every_chart(browser: Any, tmp_path: Path) -> None:
    """Houou games of the corpus: dated, so every one of the six charts has data."""
    assert corpus_paths("tenhou-xml")
    folder = CORPUS / "tenhou-xml"
    shot = Path(os.environ.get("MJLOG_REPORT_SHOT", tmp_path / "report.png"))
    page = _report(tmp_path, str(folder), "--go-type", "169", "--min-games", "3",
                   "--report-limit", "3", "--sort", "games")
    seen = _open(browser, page, shot)
    assert seen["errors"] == [] and all(u.startswith("file://") for u in seen["requests"])
    assert len(seen["sections"]) == 3
    per_section = [c["kind"] for c in seen["charts"]]
    assert len(per_section) == 18, per_section  # six charts for each of three players
    assert all(_drawn(c) for c in seen["charts"]), seen["charts"]
    assert shot.stat().st_size > 10_000

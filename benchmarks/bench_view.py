"""Benchmark: replay pages written per second beside the audit of the same games, their
sizes, and how fast the largest opens in headless Chromium.

Usage::

    python benchmarks/bench_view.py [FOLDER] [--limit N] [--repeat K]

FOLDER defaults to ``../shared/corpus/tenhou-xml``. For the first ``--limit``
record files (all by default), times in one run, taking turns ``--repeat``
times (3), the best of each: reading alone, the full audit of each game
(:func:`mjlog.reports.audit.audit_record`: rules, scores, wall), and the viewer's page
of each game (:func:`mjlog.reports.view.model.game_view`, which is the audit with the
table recorded at every event, then :func:`mjlog.reports.view.page.viewer_page`). Prints
games/s of each and the page's cost as a multiple of the audit's, the page
sizes (median, largest), and, with Playwright and Debian's Chromium installed,
the largest page's first contentful paint and the time until its table is drawn
(median of five loads, offline).
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from mjlog.core.diagnostics import InputError  # noqa: E402
from mjlog.core.record import GameRecord  # noqa: E402
from mjlog.formats import expand, read_path  # noqa: E402
from mjlog.reports.audit import audit_record  # noqa: E402
from mjlog.reports.view.model import game_view  # noqa: E402
from mjlog.reports.view.page import viewer_page  # noqa: E402


def records(folder: str, limit: int | None) -> list[GameRecord]:
    """Every game of the first ``limit`` record files under ``folder``."""
    out: list[GameRecord] = []
    for path, _ in list(expand([folder]))[:limit]:
        try:
            out += read_path(path)
        except InputError:
            continue
    return out


def best(fn: object, games: list[GameRecord], repeat: int) -> float:
    """The best of ``repeat`` times of ``fn`` over every game."""
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        for i, rec in enumerate(games):
            fn(rec, i)  # type: ignore[operator]
        times.append(time.perf_counter() - t)
    return min(times)


def first_paint(page: Path) -> tuple[float, float] | None:
    """Median first contentful paint and time to the drawn table (ms) of five loads."""
    chromium = shutil.which("chromium")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        return None
    if chromium is None:
        return None
    paints, tables = [], []
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=chromium, args=["--no-sandbox"])
        for _ in range(5):
            context = browser.new_context(offline=True)
            tab = context.new_page()
            tab.goto(page.as_uri(), wait_until="load")
            tab.wait_for_selector(".seat")
            paints.append(tab.evaluate(
                "performance.getEntriesByName('first-contentful-paint')[0].startTime"))
            tables.append(tab.evaluate("performance.now()"))
            context.close()
        browser.close()
    return statistics.median(paints), statistics.median(tables)


def main() -> int:
    """Run the benchmark and print its figures."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("folder", nargs="?", default=str(ROOT.parent / "shared/corpus/tenhou-xml"))
    ap.add_argument("--limit", type=int, default=None)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    t = time.perf_counter()
    games = records(args.folder, args.limit)
    read = time.perf_counter() - t
    if not games:
        print(f"no records under {args.folder}")
        return 2
    audit = best(lambda rec, i: audit_record(rec), games, args.repeat)
    sizes: list[tuple[int, int]] = []
    pages = best(lambda rec, i: sizes.append((len(viewer_page(game_view(rec)).encode()), i)),
                 games, args.repeat)
    n = len(games)
    print(f"{n} games, one run, best of {args.repeat} turns each")
    print(f"read only        {read:7.2f} s  {n / read:7.1f} games/s")
    print(f"audit            {audit:7.2f} s  {n / audit:7.1f} games/s")
    print(f"replay pages     {pages:7.2f} s  {n / pages:7.1f} pages/s  = {pages / audit:.2f}x "
          "the audit's time")
    kb = sorted(s for s, _ in sizes[:n])
    print(f"page size        median {statistics.median(kb) / 1024:.0f} KiB, largest "
          f"{kb[-1] / 1024:.0f} KiB, {sum(s > 400_000 for s in kb)} over 400 KB")
    largest = max(sizes[:n])[1]
    with tempfile.TemporaryDirectory() as tmp:
        page = Path(tmp) / "largest.html"
        page.write_text(viewer_page(game_view(games[largest])), encoding="utf-8")
        timing = first_paint(page)
    if timing is None:
        print("first paint      not measured: Playwright or Debian's chromium is not installed")
    else:
        print(f"first paint      {timing[0]:.0f} ms (largest page, median of 5), table drawn "
              f"at {timing[1]:.0f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())

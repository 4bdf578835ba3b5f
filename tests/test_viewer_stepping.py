"""The replay viewer in headless Chromium, format by format: stepping through a round
with the keyboard shows the hands, rivers and scores ``mjlog replay --turn N`` prints."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from mjlog.formats import read_path
from mjlog.reports.view.model import game_view

from .viewer_pages import OURS, SAMPLES, open_page, page_of, sample, step_through_a_round

_INNER_LOOP = ("tenhou-xml",)
"""The formats whose pages are stepped through in ``pytest -m "not slow"``; CI steps all."""


@pytest.mark.parametrize("name", [n if n in _INNER_LOOP else pytest.param(n, marks=pytest.mark.slow)
                                  for n in (*SAMPLES, *OURS)])
def test_stepping_through_a_round_shows_what_the_text_replay_shows(
        browser: Any, tmp_path: Path, name: str) -> None:
    record = sample(name, tmp_path)
    page_file = page_of(tmp_path, record)
    data = game_view(read_path(record)[0])
    context, page, errors = open_page(browser, page_file)
    try:
        assert page.locator(".seat").count() in (3, 4)
        assert step_through_a_round(page, record, data) >= 2
        assert errors == []
    finally:
        context.close()

"""The replay viewer's page: one self-contained HTML file per game.

:func:`viewer_page` puts a game's data (:func:`mjlog.reports.view.model.game_view`)
into the page template with its style sheet and script inline: the page
needs no network and opens from ``file://``. :func:`write_views` writes the
pages of several games, and an index page beside them when there is more than
one. The page's script only draws the data; it computes nothing about the game. The
decision facts travel packed (:func:`packed`) beside the rest of the data.
"""

from __future__ import annotations

import base64
import json
import re
import zlib
from collections.abc import Sequence
from functools import cache
from importlib.resources import files
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

import jinja2
from markupsafe import Markup

if TYPE_CHECKING:
    from mjlog.core.events import Event

_TEMPLATES = files("mjlog.reports.view") / "templates"


@cache
def environment() -> jinja2.Environment:
    """The page templates of :mod:`mjlog.reports.view`, HTML-escaped."""
    return jinja2.Environment(
        loader=jinja2.FunctionLoader(lambda name: (_TEMPLATES / name).read_text("utf-8")),
        autoescape=True, trim_blocks=True, lstrip_blocks=True)


@cache
def asset(name: str) -> str:
    """A file of the page's own (its style sheet or script), as text."""
    return (_TEMPLATES / name).read_text("utf-8")


def script_json(data: Any) -> Markup:
    """``data`` as JSON that is safe inside a ``<script>`` element (no ``</`` in it)."""
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    return Markup(text.replace("</", "<\\/").replace("<!--", "<\\!--"))


def viewer_page(game: dict[str, Any], *, title: str = "", index_href: str = "",
                share: list[str] | None = None) -> str:
    """The HTML page of one game's data; ``index_href`` links back to an index page;
    ``share``: each round's tenhou.net/6 JSON (:func:`share_lines`), offered for copying
    on the page. The page opens in the language of ``game["lang"]`` (English without
    one) and can be switched to each language the data carries words for. A page that
    would pass :data:`PAGE_BUDGET` carries its decision facts without the ukeire kinds
    (:func:`without_kinds`; the counts stay)."""
    facts = game.get("facts")
    data = script_json({k: v for k, v in game.items() if k != "facts"})

    def render(carried: str) -> str:
        return environment().get_template("viewer.html.j2").render(
            title=title or f"{Path(game['source']).name}, game {game['game'] + 1}", game=game,
            css=Markup(asset("viewer.css")), js=Markup(asset("viewer.js")),
            tiles_js=Markup(asset("tiles.js")), lang=game.get("lang", "en"), data=data,
            facts=carried, index_href=index_href,
            tenhou6=script_json(share) if share else Markup("null"))

    page = render(packed(facts) if facts else "")
    if facts and facts.get("d") and len(page.encode()) > PAGE_BUDGET:
        page = render(packed(without_kinds(facts)))
    return page


PAGE_BUDGET: Final = 400_000
"""The size a page keeps under where it can (bytes): past it, the ukeire kinds of the
decision facts are left out."""
KINDS_LEFT_OUT: Final = "the kinds are left out to keep the page within its size budget"
_MASKS: Final = re.compile(r"\.[0-9a-f]*")


def without_kinds(facts: dict[str, Any]) -> dict[str, Any]:
    """The page's decision facts (:func:`mjlog.reports.view.facts.facts_view`) without the ukeire
    kinds of the options (each option's ``.M``), saying why under ``kinds``."""
    return {**facts, "kinds": KINDS_LEFT_OUT,
            "d": [[*row[:5], None if row[5] is None else _MASKS.sub("", row[5]), *row[6:]]
                  for row in facts["d"]]}


def packed(data: Any) -> str:
    """``data`` as compact JSON, deflated (zlib) and in base64: how a page carries its
    decision facts (a third of its size unpacked); the page unpacks them with the
    browser's ``DecompressionStream``. The text holds no ``<`` or ``&``."""
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    return base64.b64encode(zlib.compress(text.encode("utf-8"), 9)).decode("ascii")


def share_lines(events: Sequence[Event]) -> list[str] | None:
    """Each round of a game as one tenhou.net/6 JSON line, the form NAGA, Mortal's reviewer
    and Tenhou's editor take (what ``mjlog convert -t tenhou6 --per-round`` writes); None
    for a game that format cannot hold (a Taiwanese game, a game whose events do not fit
    its table)."""
    from mjlog.core.diagnostics import InputError
    from mjlog.formats import WriteOptions, write  # the writers only where a page shares

    try:
        text = write("tenhou6", events, WriteOptions(per_round=True))
    except InputError:
        return None
    return [line for line in text.splitlines() if line.strip()]


def index_row(link: str, source: str, game: dict[str, Any], date: str = "") -> dict[str, Any]:
    """One game's line on the index page: its players with their places and final scores
    (the final standings of a game that ends, else the last scores, unplaced), its date,
    rounds and moves, and its findings with the notes counted apart."""
    problems = sum(f["severity"] != "info" for f in game["findings"])
    end = next((st["res"] for st in reversed(game["steps"])
                if st.get("res", {}).get("kind") == "end"), None)
    if end is not None:
        players = [(row[0], row[2], f"{row[3]:,}") for row in end["rows"]]
    else:
        last: list[int | None] = next((st["s"] for st in reversed(game["steps"]) if "s" in st),
                                      [])
        players = [(None, name, f"{score:,}" if score is not None else "")
                   for name, score in zip(game["players"], last, strict=False)]
    return {"link": link, "source": source, "date": date, "players": players,
            "rounds": len(game["rounds"]), "moves": len(game["steps"]), "findings": problems,
            "notes": len(game["findings"]) - problems}


def index_page(title: str, rows: list[dict[str, Any]]) -> str:
    """A page listing games, a row each (:func:`index_row`)."""
    return environment().get_template("index.html.j2").render(
        title=title, rows=rows, css=Markup(asset("viewer.css")))

"""The replay viewer's page: one self-contained HTML file per game.

:func:`viewer_page` puts a game's data (:func:`mjlog.view.model.game_view`)
into the page template with its style sheet and script inline: the page
needs no network and opens from ``file://``. :func:`write_views` writes the
pages of several games, and an index page beside them when there is more than
one. The page's script only draws the data; it computes nothing about the game.
"""

from __future__ import annotations

import json
from functools import cache
from importlib.resources import files
from pathlib import Path
from typing import Any

import jinja2
from markupsafe import Markup

_TEMPLATES = files("mjlog.view") / "templates"


@cache
def environment() -> jinja2.Environment:
    """The page templates of :mod:`mjlog.view`, HTML-escaped."""
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


def viewer_page(game: dict[str, Any], *, title: str = "", index_href: str = "") -> str:
    """The HTML page of one game's data; ``index_href`` links back to an index page."""
    return environment().get_template("viewer.html.j2").render(
        title=title or f"{Path(game['source']).name}, game {game['game'] + 1}", game=game,
        css=Markup(asset("viewer.css")), js=Markup(asset("viewer.js")),
        tiles_js=Markup(asset("tiles.js")),
        data=script_json(game), index_href=index_href)


def index_page(title: str, rows: list[tuple[str, str, str]]) -> str:
    """A page listing games: (link, name, summary) each."""
    return environment().get_template("index.html.j2").render(
        title=title, rows=rows, css=Markup(asset("viewer.css")))

"""Property-based fuzzing of what mjlog writes from names it did not choose.

Two kinds of names come from the files a user brings: archive members' names, which
become output files' names (``convert`` and ``view`` of a zip or a tar), and players'
names, which every output shows. Both are generated here from an alphabet made to
hurt: path separators, ``..``, drive letters, NUL and every other control character,
line and paragraph separators, bidirectional overrides, markup and spreadsheet
formula starts. Whatever the name:

* every file written lands inside the output folder, nothing is written beside it,
  and no member is lost (each readable member gives its own file);
* the terminal report never carries a raw control or bidirectional character nor a
  line of its own; JSON gives each name back exactly; HTML shows the name as text,
  never as markup; a CSV cell never starts a formula; a Markdown table keeps its rows;
* every writer either writes the game, which reads back with the same names, or
  refuses with ``cannot-write``.
"""

from __future__ import annotations

import csv
import io
import json
import tarfile
import unicodedata
import zipfile
from datetime import timedelta
from html.parser import HTMLParser
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from mjlog.cli import main
from mjlog.core.diagnostics import InputError
from mjlog.core.events import GameStart
from mjlog.formats import FORMATS, read_bytes, write, writers

from .conftest import EXAMPLES

pytestmark = pytest.mark.slow  # property-based fuzzing through the command line

FUZZ = settings(max_examples=25, deadline=timedelta(seconds=30),
                suppress_health_check=[HealthCheck.too_slow,
                                       HealthCheck.function_scoped_fixture])
HURTFUL = list("ab東/\\.:;|<>&\"'=+-@#`*_[]()%~ \t\n\r\x00\x07\x1b\x7f\x85"
               "\u2028\u2029\u202a\u202e\u2066\u2069\u200b\ufeff")
NAMES = st.text(alphabet=st.sampled_from(HURTFUL) | st.characters(codec="utf-8"),
                min_size=1, max_size=24)
RECORD = (EXAMPLES / "01-double-east.mjn").read_bytes()


BIDI = set("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


def _unsafe(text: str) -> list[str]:
    """The characters of ``text`` a terminal would act on or that reorder what it shows:
    controls other than the line end, line and paragraph separators, bidirectional
    marks, embeddings, overrides and isolates. (Other invisible characters, such as a
    soft hyphen or a zero-width joiner inside an emoji, are text and stay.)"""
    return [c for c in text if c != "\n" and (
        unicodedata.category(c) in ("Cc", "Zl", "Zp") or c in BIDI)]


def _files(root: Path) -> set[Path]:
    return {p for p in root.rglob("*") if p.is_file()}


def _archive(kind: str, names: list[str], path: Path) -> None:
    """A zip or a tar holding :data:`RECORD` under each of ``names``."""
    if kind == "zip":
        with zipfile.ZipFile(path, "w") as z:
            for name in names:
                z.writestr(name, RECORD)
        return
    with tarfile.open(path, "w", format=tarfile.PAX_FORMAT) as t:
        for name in names:
            info = tarfile.TarInfo(name)
            info.size = len(RECORD)
            t.addfile(info, io.BytesIO(RECORD))


@pytest.mark.parametrize("kind", ["zip", "tar"])
@pytest.mark.parametrize("command", [["convert", "-t", "jsonl"], ["view"]])
@FUZZ
@given(names=st.lists(NAMES, min_size=1, max_size=4, unique=True))
def test_archive_member_names_stay_inside_and_none_is_lost(
        tmp_path_factory: pytest.TempPathFactory, kind: str, command: list[str],
        names: list[str]) -> None:
    assume(all(not n.endswith(("/", "\\")) and "\x00" not in n for n in names))
    work = tmp_path_factory.mktemp("names")
    source = work / f"games.{kind}"
    try:
        _archive(kind, names, source)
    except (ValueError, UnicodeError):  # a name the archive format itself cannot hold
        assume(False)
    out = work / "deep" / "out"
    before = _files(work)
    result = CliRunner().invoke(main, [command[0], str(source), *command[1:], "-o", str(out)])
    assert result.exit_code in (0, 1, 2), result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    written = _files(work) - before
    # one record is written to -o itself, more into the folder -o names
    assert all(p == out or out in p.parents for p in written), sorted(map(str, written))
    records = [p for p in written if p.name != "index.html"]
    members = _members(source)
    assert len(records) == len(members), (names, members, sorted(map(str, written)))
    assert not _unsafe(result.output), result.output


def _members(source: Path) -> list[str]:
    """The members that are files, as the archive lists them (a name that a tar or zip
    normalises to another, or to a folder, is counted as the archive counts it)."""
    if source.suffix == ".zip":
        with zipfile.ZipFile(source) as z:
            return [i.filename for i in z.infolist() if not i.is_dir()]
    with tarfile.open(source) as t:
        return [m.name for m in t.getmembers() if m.isfile()]


class _Text(HTMLParser):
    """The text of a page outside scripts and styles, and the tags it opens."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.text: list[str] = []
        self.tags: list[str] = []
        self._skip = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append(tag)
        self._skip += tag in ("script", "style")

    def handle_endtag(self, tag: str) -> None:
        self._skip -= tag in ("script", "style")

    def handle_data(self, data: str) -> None:
        if not self._skip:
            self.text.append(data)


def _record_named(folder: Path, names: list[str], stem: str) -> Path:
    """The example game with ``names`` for its players, as ``folder/stem.jsonl``."""
    lines = (EXAMPLES / "east-riichi.jsonl").read_text("utf-8").splitlines()
    start = json.loads(lines[0])
    for player, name in zip(start["players"], names, strict=True):
        player["name"] = name
    path = folder / f"{stem}.jsonl"
    path.write_text("\n".join([json.dumps(start), *lines[1:]]) + "\n", "utf-8")
    return path


def _run(*args: str) -> str:
    result = CliRunner().invoke(main, list(args))
    assert result.exit_code in (0, 1), result.output
    return result.output


def _tags(page: Path) -> set[str]:
    parsed = _Text()
    parsed.feed(page.read_text("utf-8"))
    return set(parsed.tags)


PLAIN = ["Aoi", "Ben", "Chiyo", "Dai"]


@FUZZ
@given(names=st.lists(NAMES, min_size=4, max_size=4, unique=True))
def test_player_names_are_inert_in_every_report(tmp_path_factory: pytest.TempPathFactory,
                                                names: list[str]) -> None:
    folder = tmp_path_factory.mktemp("players")
    record, plain = _record_named(folder, names, "hostile"), _record_named(folder, PLAIN, "plain")
    text = _run("audit", str(record), "--all")
    assert not _unsafe(text) and len(text.splitlines()) == len(
        _run("audit", str(plain), "--all").splitlines())
    report = json.loads(_run("audit", str(record), "--format", "json"))
    assert report["games"][0]["players"] == names
    for command in (["audit", "--format", "html"], ["view"]):
        pages = folder / f"{command[0]}-hostile.html", folder / f"{command[0]}-plain.html"
        for source, page in zip((record, plain), pages, strict=True):
            _run(command[0], str(source), *command[1:], "-o", str(page))
        assert _tags(pages[0]) == _tags(pages[1])  # no name opened or closed an element
    table = _run("stats", str(record), "--format", "csv", "--include-incomplete")
    rows = list(csv.reader(io.StringIO(table)))
    assert len(rows) == 5 and not any(r[0].startswith(("=", "+", "-", "@")) for r in rows[1:])
    md = _run("stats", str(record), "--format", "markdown", "--include-incomplete")
    assert len([ln for ln in md.splitlines() if ln.startswith("|")]) == 2 + 4
    assert not _unsafe(_run("stats", str(record), "--include-incomplete"))


@FUZZ
@given(names=st.lists(NAMES, min_size=4, max_size=4))
def test_every_writer_keeps_the_names_or_refuses(names: list[str]) -> None:
    lines = (EXAMPLES / "east-riichi.jsonl").read_text("utf-8").splitlines()
    start = json.loads(lines[0])
    for player, name in zip(start["players"], names, strict=True):
        player["name"] = name
    first = json.dumps(start)
    (rec,) = read_bytes(("\n".join([first, *lines[1:]]) + "\n").encode())
    for fmt in writers():
        try:
            text = write(fmt, rec.events)
        except InputError as exc:
            assert exc.diagnostic.code == "cannot-write", (fmt, exc)
            continue
        (back,) = read_bytes(text.encode())
        start = back.events[0]
        assert isinstance(start, GameStart)
        assert [p.name for p in start.players] == names, (fmt, FORMATS[fmt].title)

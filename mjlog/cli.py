"""The ``mjlog`` command line: convert, replay, audit and generate records.

Exit status of every command: 0 when all went well, 1 when ``audit`` found an
error-severity problem, 2 when the usage is wrong or an input could not be
read. Problems with input are reported as messages with their position, never
as tracebacks.
"""

from __future__ import annotations

import difflib
import importlib.util
import json
import os
import re
import shutil
import signal
import sys
import textwrap
from collections.abc import Callable, Iterable, Iterator
from contextlib import closing, contextmanager, nullcontext
from datetime import datetime
from functools import partial
from pathlib import Path, PurePosixPath
from typing import TYPE_CHECKING, Any

import click

from mjlog import __version__, api, install_hint
from mjlog.core import native
from mjlog.core.about import MissingExtra
from mjlog.core.diagnostics import InputError
from mjlog.core.events import (
    Event,
    RoundStart,
    round_label,
)
from mjlog.core.record import GameRecord
from mjlog.core.ruleset import (
    MISSING,
    OPTION_DOCS,
    PRESETS,
    citation,
    flat,
    option_default,
    option_text,
    option_value,
)
from mjlog.core.textsafe import terminal
from mjlog.families.docgen import rule_entry
from mjlog.families.registry import FAMILIES, engine_for, random_game, rules_by_code
from mjlog.formats import (
    FORMATS,
    WriteOptions,
    detect,
    expand,
    file_bytes,
    read_path,
    write,
    writers,
)
from mjlog.formats.compression import LIMIT_VARIABLE
from mjlog.replay.engine import Engine
from mjlog.replay.observer import TurnLimit
from mjlog.reports import screens
from mjlog.reports.audit import (
    AuditReport,
    Checks,
    GameReport,
    Spool,
    audit_items,
    counted,
    summary_line,
)
from mjlog.reports.view.model import game_view
from mjlog.reports.view.page import index_page, index_row, share_lines, viewer_page
from mjlog.reports.view.report import RefereeReport
from mjlog.reports.view.words import LANGS
from mjlog.run import archives, parallel, storage
from mjlog.run.cluster import ClusterError
from mjlog.run.conversion import convert_all
from mjlog.run.progress import Progress
from mjlog.wall.verify import walls_for

if TYPE_CHECKING:
    import polars as pl

    from mjlog.stats import Filters, Summary
    from mjlog.stats.table import Selection


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="mjlog",
                      message=f"%(prog)s %(version)s\n{native.describe()}")
@click.option("--max-record-mb", type=click.IntRange(min=1), default=None, metavar="MB",
              help="Refuse a record whose text (decompressed) is larger: 256 MB unless "
              "set, and at most 16 MB for the formats that hold one game a file "
              f"(or set {LIMIT_VARIABLE}).")
def main(max_record_mb: int | None) -> None:
    """Read, replay, audit and convert mahjong game records (help: see below)."""
    if max_record_mb is not None:  # the environment reaches worker processes too
        os.environ[LIMIT_VARIABLE] = str(max_record_mb)


main.help = ("Read, replay, audit and convert mahjong game records.\n\nRecords may be "
             + "; ".join(f.title for f in FORMATS.values()) + ". The format is detected "
             "from the content, not the file name.")


class InputFailure(click.ClickException):
    """An input that cannot be read: exit status 2, as in every command."""

    exit_code = 2


class _Input(click.Path):
    """A file or folder that exists here, a record in an archive (``ARCHIVE!MEMBER``, as
    reports name it), or a URL of an object store (``s3://…``), which is looked at when
    the run reads it (:mod:`mjlog.run.storage`)."""

    def convert(self, value: str | os.PathLike[str], param: click.Parameter | None,
                ctx: click.Context | None) -> str | bytes | os.PathLike[str]:
        if isinstance(value, str) and (storage.is_url(value) or archives.split(value)):
            return value
        return super().convert(value, param, ctx)


_INPUTS = click.argument("inputs", nargs=-1, required=True, type=_Input(exists=True))


def _expanded(inputs: Iterable[str]) -> list[tuple[str, bool]]:
    """:func:`expand` of the command line's inputs; a URL that cannot be listed is a
    one-line error, exit status 2."""
    try:
        return list(expand(inputs))
    except InputError as exc:
        raise InputFailure(exc.diagnostic.message) from None


def _read_or_exit(path: str) -> list[GameRecord]:
    try:
        return read_path(path)
    except InputError as exc:
        raise InputFailure(exc.about(path)) from None


_NO_WALL = click.option("--no-wall", is_flag=True,
                        help="Do not check Tenhou records' tiles against their shuffle seed.")
_SET = click.option("--set", "settings", multiple=True, metavar="OPTION=VALUE",
                    help="Change one ruleset option (repeatable), e.g. --set kuikae=same.")
_FORCE_RULES = click.option(
    "--force-rules", is_flag=True,
    help="Apply --rules also to records of another rule family or number of players (by "
    "default they keep their own ruleset, with a note).")
_JOBS = click.option("--jobs", "-j", type=click.IntRange(min=1), default=1, show_default=True,
                     help="Worker processes on this machine.")
_CLUSTER = click.option(
    "--cluster", metavar="ADDRESS", default=None,
    help="Run on the workers of the Dask cluster whose scheduler is at ADDRESS (e.g. "
    "tcp://10.0.0.5:8786); they must see the inputs at the same paths. Needs "
    f"{install_hint('cluster')}; docs/scale.md says how.")


class ClusterFailure(click.ClickException):
    """No cluster to run on: exit status 2."""

    exit_code = 2


@contextmanager
def _cluster_errors() -> Iterator[None]:
    """Turn :class:`ClusterError` into a one-line message and exit status 2."""
    try:
        yield
    except ClusterError as exc:
        raise ClusterFailure(str(exc)) from None


# ---------------------------------------------------------------- convert


@main.command()
@_INPUTS
@click.option("-t", "--to", "target", type=click.Choice(writers()), default="jsonl",
              show_default=True,
              help="Output format: " + "; ".join(f"{f} ({FORMATS[f].title}, "
                                                 f"*{FORMATS[f].extension})" for f in writers())
              + ". docs/formats.md says what each keeps.")
@click.option("--dialect", type=click.Choice(list(FORMATS["mjai"].dialects)), default="mortal",
              show_default=True,
              help="mjai only: the dialect to write (mortal: Mortal/libriichi; mjai: the "
              "original mjai with yaku, fu and scores; mjai.app: arena logs; mjai-legacy: "
              "early mjai's archive dump).")
@click.option("--per-round", is_flag=True,
              help="tenhou6 only: one JSON object per round and line, as mjx writes them.")
@click.option("--plain", is_flag=True,
              help="Notation only: leave out what only a machine needs (which physical copy "
              "each tile is, Tenhou's shuffle seed). Smaller and easier to read; the game is "
              "the same move for move, but its wall can no longer be proven.")
@click.option("-o", "--output", type=click.Path(), default="-", show_default=True,
              help="Output file ('-' for standard output), or a folder when converting "
              "several files or a folder.")
@click.option("--keep-extension", is_flag=True,
              help="Into a folder: name each output after its input's whole name "
              "(game.xml -> game.xml.jsonl), so that inputs differing only in extension "
              "do not clash.")
@_JOBS
@_CLUSTER
def convert(inputs: tuple[str, ...], target: str, output: str, plain: bool, dialect: str,
            per_round: bool, keep_extension: bool, jobs: int, cluster: str | None) -> None:
    """Convert records to another format.

    With one input file the output is one file (or standard output). With
    several files or a folder, OUTPUT is a folder and each record is written
    under its path relative to the input, with the new format's extension (a
    record of an archive under a folder named after the archive). Files in
    folders or archives that are not records are skipped.
    """
    items = _expanded(inputs)
    holders = _holders(inputs)
    many = len(items) > 1 or any(not archive for _, archive in holders)
    if many and output == "-":
        raise click.UsageError("converting several files needs -o FOLDER")
    suffix = FORMATS[target].extension
    outs = _planned_outputs(items, holders, output, suffix, many, keep_extension)
    options = WriteOptions(plain=plain, per_round=per_round, dialect=dialect)
    failed = converted = 0
    with _staged(outs, output, many) as staged, Progress(len(items), "converting") as progress, \
            _cluster_errors(), closing(convert_all(items, target, options,
                                                   parallel.Engine(jobs, cluster))) as results:
        for (path, explicit), done in zip(items, results, strict=True):
            progress(1)
            for message in done.messages:
                progress.say(message)
            if done.skipped:
                continue
            if done.text is None:
                failed += explicit or path in outs
            elif output == "-":
                click.echo(done.text, nl=False)
            else:
                _write_text(staged[path], done.text)
            converted += done.text is not None
    if many:
        click.echo(f"converted {converted} files to {output}", err=True)
    if failed:
        sys.exit(2)


@contextmanager
def _staged(outs: dict[str, Path], output: str, many: bool) -> Iterator[dict[str, Path]]:
    """Where each output is written while the run lasts. Into a folder: a hidden folder
    beside it, whose files are moved into place when the run ends, so that an interrupted
    or failed run leaves the folder as it was (files already there and not written by this
    run stay)."""
    if not many:
        yield outs
        return
    final = Path(output)
    with _staged_folder(final) as stage:
        yield {src: stage / out.relative_to(final) for src, out in outs.items()}


@contextmanager
def _staged_folder(final: Path) -> Iterator[Path]:
    """A hidden folder beside ``final`` to write into while the run lasts. When the run
    ends well, each file written there is moved to the same place under ``final`` (files
    already there and not written by this run stay); an interrupted or failed run leaves
    ``final`` as it was."""
    stage = final.parent / f".{final.name}.{os.getpid()}.part"
    try:
        yield stage
        with _writing(final):
            for written in sorted(f for f in stage.rglob("*") if f.is_file()):
                out = final / written.relative_to(stage)
                out.parent.mkdir(parents=True, exist_ok=True)
                os.replace(written, out)
    finally:
        shutil.rmtree(stage, ignore_errors=True)


class OutputError(click.ClickException):
    """An output that cannot be written (a missing or read-only place, a full disk):
    reported in one line, exit status 2."""

    exit_code = 2


@contextmanager
def _writing(path: Path) -> Iterator[None]:
    """Turn an operating system error while writing ``path`` into :class:`OutputError`."""
    try:
        yield
    except OSError as exc:
        raise OutputError(f"cannot write {path}: {exc.strerror or exc}") from None


def _write_text(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` as UTF-8, creating its folder. A file name that was not
    UTF-8 in the text comes out with U+FFFD for its bad bytes."""
    printable = text.encode("utf-8", "surrogateescape").decode("utf-8", "replace")
    _atomically(path, lambda tmp: tmp.write_text(printable, encoding="utf-8"))


def _write_parts(path: Path, parts: Iterable[str]) -> None:
    """:func:`_write_text` of the text made of ``parts``, written a part at a time."""
    def write_to(tmp: Path) -> None:
        with tmp.open("w", encoding="utf-8") as out:
            out.writelines(parts)
    _atomically(path, write_to)


def _atomically(path: Path, write_to: Callable[[Path], object]) -> None:
    """Have ``write_to`` write a temporary file beside ``path``, then put it in ``path``'s
    place in one step: a reader sees the old file or the whole new one, never a part, and
    an error or an interrupt leaves the old one as it was. A device or pipe (``/dev/stdout``)
    is written directly."""
    with _writing(path):
        if path.exists() and not path.is_file():
            write_to(path)
            return
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(f".{path.name}.{os.getpid()}.part")
        try:
            write_to(tmp)
            os.replace(tmp, path)
        finally:
            tmp.unlink(missing_ok=True)


def _planned_outputs(items: list[tuple[str, bool]], holders: list[tuple[str, bool]],
                     output: str, suffix: str, many: bool, keep: bool) -> dict[str, Path]:
    """Where each input's conversion goes. Raises a usage error, before anything is
    written, when two records would go to one file or an output would replace an input
    (records only: files a folder holds that are no record are left out)."""
    if output == "-":
        return {}
    if not many:
        outs = {items[0][0]: Path(output)} if items else {}
    else:
        outs = {p: Path(output) / _renamed(_relative(p, holders), suffix, keep)
                for p, explicit in items if explicit or _is_record(p)}
    _refuse_clashes(outs, {Path(p).resolve() for p, _ in items if not storage.is_url(p)})
    return outs


def _refuse_clashes(outs: dict[str, Path], sources: set[Path]) -> None:
    seen: dict[Path, str] = {}
    for src, out in outs.items():
        key = out.resolve()
        if key in sources:
            raise click.UsageError(f"the output {out} is an input; nothing was written")
        if key in seen:
            raise click.UsageError(f"{seen[key]} and {src} would both be written to {out}; "
                                   "nothing was written (--keep-extension names each "
                                   "output after its input's whole name)")
        seen[key] = src


def _renamed(path: Path, suffix: str, keep: bool) -> Path:
    return path.with_name(path.name + suffix) if keep else path.with_suffix(suffix)


def _is_record(path: str) -> bool:
    try:
        return detect(file_bytes(path)) is not None
    except InputError:
        return True  # reading it fails later, with the reason


def _holders(inputs: tuple[str, ...]) -> list[tuple[str, bool]]:
    """The inputs that hold records (folders and archives), each with whether it is an
    archive: looked at once, not once per record."""
    out = []
    for i in inputs:
        archive = archives.named_like(i) and archives.kind(i) is not None
        if archive or storage.is_dir(i):
            out.append((i, archive))
    return out


def _relative(name: str, holders: list[tuple[str, bool]]) -> Path:
    """Where an input goes under the output folder: its path below the folder named,
    a record in an archive under a folder named after the archive (for a URL, below the
    URL named). Always a relative path that stays below the output folder, whatever the
    name (:func:`_contained`)."""
    return _contained(_below(name, holders))


def _contained(path: Path) -> Path:
    """``path`` made relative and kept below where it is joined: a root, a drive, ``.``
    and ``..`` are dropped (an archive member named ``../../x.mjn`` or ``/etc/x.mjn``
    goes to ``x.mjn`` and ``etc/x.mjn``); a name left empty becomes ``record``."""
    parts = [p for p in PurePosixPath(path.as_posix()).parts
             if p not in ("/", ".", "..") and not p.endswith(":")]
    return Path(*parts) if parts else Path("record")


def _below(name: str, holders: list[tuple[str, bool]]) -> Path:
    """:func:`_relative` before it is contained."""
    path = name.replace(archives.SEPARATOR, "/")
    for i, archive in holders:
        if storage.is_url(i):
            base = i.rstrip("/")
            if path.startswith(base + "/"):
                below = path[len(base) + 1:]
                return Path(base.rsplit("/", 1)[-1], below) if archive else Path(below)
        elif Path(i) in Path(path).parents:
            return Path(path).relative_to(Path(i).parent if archive else Path(i))
    return Path(path.rsplit("/", 1)[-1])


# ---------------------------------------------------------------- replay


@main.command("replay")
@click.argument("input_", metavar="INPUT", type=_Input(exists=True, dir_okay=False))
@click.option("--round", "round_", metavar="ROUND",
              help="Round to show: E2, e2, 'East 2', or E2-1 / 'East 2, honba 1' for one honba. "
              "Default: the last.")
@click.option("--turn", type=click.IntRange(min=0), metavar="N",
              help="Show the table after the N-th move of the round (draws, discards and "
              "calls count one each; 0 = as dealt). Default: just before the round's result.")
@click.option("--end", "at_end", is_flag=True,
              help="Show the round's end instead: the table after its result, the result "
              "(yaku, value, every payment, ura; a draw's ready hands) and, after the game's "
              "last round, the final standings.")
@click.option("--game", type=click.IntRange(min=1), default=1, show_default=True,
              help="Which game of a file holding several.")
@click.option("--show-wall", is_flag=True,
              help="Also show the wall (live and dead, what is still to come), for records "
              "whose shuffle seed reproduces it or whose platform publishes it (Mahjong "
              "Soul, Riichi City).")
@click.option("--interactive", is_flag=True,
              help="Step through the game in the terminal (keys: arrows, Home/End, r for "
              "the result, ? for the rest, q to quit), from --round/--turn/--end if given, "
              "else from the game's start. Needs prompt_toolkit (mjlog[tui]).")
def replay_cmd(input_: str, round_: str | None, turn: int | None, at_end: bool, game: int,
               show_wall: bool, interactive: bool) -> None:
    """Print the table (hands, melds, rivers, scores, dora, wall) at a point of a game,
    and the move that led to it.

    \b
    Marks in a river: 5m* the riichi declaration, 5m' a tile thrown as it was
    drawn (tsumogiri), (5m) a tile another player called. Tiles are mpsz: 0m is
    a red five, 1z-7z east, south, west, north, white, green, red, 1f-8f flowers.
    A hand's "and N not written down" counts tiles the record does not name.
    """
    records = _read_or_exit(input_)
    if game > len(records):
        raise click.UsageError(f"{input_} holds {len(records)} game(s)")
    if at_end and turn is not None:
        raise click.UsageError("give --turn or --end, not both")
    rec = records[game - 1]
    for d in rec.diagnostics:
        click.echo(terminal(f"{input_}: {d}"), err=True)
    engine, label, first, stop = _replay_to(rec, _round_wanted(round_), turn)
    results: list[Event] | None = None
    if at_end:
        stop, results = screens.to_round_end(engine, rec.events, stop)
        label = label.replace("before the result", "its end")
    walls = walls_for(rec) if show_wall else None
    if interactive:
        asked = round_ is not None or turn is not None or at_end
        _replay_interactively(input_, rec, (first, turn or 0, at_end) if asked else None, walls)
        return
    click.echo(screens.replay_text(rec, engine, f"{input_}  {label}", first, stop,
                                   results=results, walls=walls), nl=False)


def _replay_interactively(input_: str, rec: GameRecord, where: tuple[int, int, bool] | None,
                          walls: screens.Walls | None) -> None:
    """``replay --interactive``: refused off a terminal or without prompt_toolkit, in one
    line each; otherwise :func:`mjlog.reports.tui.run` from ``where`` (the round's first event,
    the turn, whether at its end; ``None``: the game's start)."""
    if importlib.util.find_spec("prompt_toolkit") is None:
        raise click.UsageError("--interactive steps with prompt_toolkit, which is not "
                               "installed: " + install_hint("tui"))
    if not (sys.stdin.isatty() and sys.stdout.isatty()):
        raise click.UsageError("--interactive needs a terminal (standard input and output); "
                               "without one, show a move with --turn N")
    from mjlog.reports import tui

    tui.run(rec, input_, where, walls)


_ROUND_WORDS = re.compile(r"^\s*(east|south|west|north|[eswn])\s*(\d+)"
                          r"(?:\s*(?:-|,\s*honba)\s*(\d+))?\s*$", re.IGNORECASE)


def _round_wanted(text: str | None) -> str | None:
    """``--round`` as a label (``E2`` or ``E2-1``): E2, e2, 'East 2', 'east 2, honba 1'."""
    if text is None:
        return None
    m = _ROUND_WORDS.match(text)
    if m is None:
        raise click.BadParameter(f"{text!r} is no round; write E2, 'East 2' or E2-1",
                                 param_hint="--round")
    label = f"{m[1][0].upper()}{int(m[2])}"
    return label if m[3] is None else f"{label}-{int(m[3])}"


def _matches(rs: RoundStart, want: str) -> bool:
    label = round_label(rs.round_wind, rs.round_number, rs.honba)
    return label == want or label.split("-")[0] == want


def _replay_to(
    rec: GameRecord, want: str | None, turn: int | None
) -> tuple[Engine, str, int, int]:
    """Replay up to the requested point.

    Returns the engine, a label of that point, the index of the round's start
    and the index of the first event not applied.
    """
    events = rec.events
    starts = [i for i, ev in enumerate(events) if isinstance(ev, RoundStart)]
    if want is not None:
        found = [i for i in starts if _matches(events[i], want)]  # type: ignore[arg-type]
        if not found:
            raise click.UsageError(f"no round {want} in this game; its rounds: " + ", ".join(
                round_label(e.round_wind, e.round_number, e.honba)  # type: ignore[union-attr]
                for e in (events[i] for i in starts)))
        starts = found
    elif not starts:
        raise click.UsageError("the record has no round")
    first = starts[0] if want is not None else starts[-1]
    engine = engine_for(rec)
    engine.run(events, stop=first + 1)
    rs = events[first]
    assert isinstance(rs, RoundStart)
    label = round_label(rs.round_wind, rs.round_number, rs.honba)
    stop = first + 1
    if turn is None or engine.state.turn < turn:  # to the move asked for, or the result
        limit = [TurnLimit(engine, turn)] if turn is not None else []
        stop = engine.run(events, limit, start=first + 1, pause=screens.BEFORE_RESULT)
    if turn is not None and engine.state.turn < turn:
        raise click.UsageError(f"round {label} has only {engine.state.turn} moves")
    where = f"turn {engine.state.turn}" if turn is not None else "before the result"
    return engine, f"{label}, {where}", first, stop


# ---------------------------------------------------------------- view


_LANG = click.option("--lang", type=click.Choice(LANGS), default="en", show_default=True,
                     help="The page's language: English, Japanese or Chinese (every fixed "
                     "word, yaku, action and result; the viewer can switch between them).")


@main.command("view")
@_INPUTS
@click.option("-o", "--output", metavar="OUT", default=None,
              help="The page to write (a .html file) for one game, or a folder for several "
              "(one page per game and index.html). Default: RECORD.html in the current "
              "folder for one game, the folder mjlog-view for several.")
@click.option("--rules", "preset", metavar="PRESET",
              help="Audit under this ruleset preset (see `mjlog rules`): its findings are "
              "marked on the page. Default: the ruleset each record suggests.")
@_SET
@_FORCE_RULES
@_NO_WALL
@_LANG
def view_cmd(inputs: tuple[str, ...], output: str | None, preset: str | None,
             settings: tuple[str, ...], force_rules: bool, no_wall: bool, lang: str) -> None:
    """Write each game as a page that replays it move by move, in any browser, offline.

    The page shows the table at every move (hands, melds, rivers, dora, scores,
    each hand's shanten, waits and furiten), each round's result, the final
    standings, and every finding of the audit at its move. Everything on it was
    computed by mjlog's replay; the page only draws it. Exit status: 0 when
    every page was written, 2 when an input could not be read.
    """
    options = _rule_options(preset, settings)
    items = _expanded(inputs)
    make = partial(game_view, preset=preset, options=options, force=force_rules,
                   wall=not no_wall, lang=lang)
    to_file = output is not None and output.endswith(".html")
    if to_file or (output is None and len(items) == 1):
        games = [g for item in items for g in _games_of(item)]
        if len(games) == 1:
            path, i, rec = games[0]
            out = Path(output) if output else Path(_relative(path, []).stem + ".html")
            _refuse_clashes({path: out}, {Path(p).resolve() for p, _ in items})
            _write_text(out, viewer_page(make(rec, i), share=share_lines(rec.events)))
            click.echo(f"wrote {out}", err=True)
            return
        if to_file or not games:
            raise InputFailure("no game records found" if not games else
                               f"the inputs hold {len(games)} games: -o names a folder for "
                               "several, not a page")
    _view_folder(items, Path(output or "mjlog-view"), _holders(inputs), make)


def _view_folder(items: list[tuple[str, bool]], folder: Path, holders: list[tuple[str, bool]],
                 make: Callable[[GameRecord, int], dict[str, Any]]) -> None:
    """A page per game under ``folder`` (named after its record, below the folder named) and
    ``index.html``; file by file, with a progress line on a terminal. The pages appear in
    the folder when all are written (:func:`_staged_folder`)."""
    unreadable: list[str] = []
    with _staged_folder(folder) as stage:
        count = _view_pages(items, stage, holders, make, unreadable)
    click.echo(f"wrote {counted(count, 'page')} and index.html to {folder}", err=True)
    if unreadable:  # every other page is written; the run still says it could not read all
        raise InputFailure(f"{len(unreadable)} input(s) could not be read: "
                           + "; ".join(unreadable))


def _view_pages(items: list[tuple[str, bool]], folder: Path, holders: list[tuple[str, bool]],
                make: Callable[[GameRecord, int], dict[str, Any]],
                unreadable: list[str]) -> int:
    """Write the pages of :func:`_view_folder` into ``folder``; return how many. An input
    that cannot be read is added to ``unreadable``, and the others are written."""
    rows: list[dict[str, Any]] = []
    with Progress(len(items), "writing pages") if sys.stderr.isatty() and len(items) > 1 \
            else nullcontext() as progress:
        for item in items:
            games = _games_of(item, unreadable)
            for path, i, rec in games:
                rel = _renamed(_relative(path, holders), "", False)
                name = rel.with_name(rel.name + (f"-game{i + 1}" if len(games) > 1 else "")
                                     + ".html")
                data = make(rec, i)
                _write_text(folder / name, viewer_page(data, index_href=_up(name) + "index.html",
                                                       share=share_lines(rec.events)))
                rows.append(index_row(name.as_posix(), path + (f" game {i + 1}" if len(games) > 1
                                                               else ""), data, _date_of(rec)))
            if progress is not None:
                progress(1, len(games))
    if not rows:
        raise InputFailure("; ".join(unreadable) or "no game records found")
    _write_text(folder / "index.html", index_page(counted(len(rows), "game"), rows))
    return len(rows)


def _date_of(rec: GameRecord) -> str:
    """The date a game was played, as the record says it (empty when it does not)."""
    from mjlog.core.events import GameStart
    from mjlog.stats.facts import where_and_when

    start = rec.events[0] if rec.events else None
    if not isinstance(start, GameStart):
        return ""
    date = where_and_when(rec.path, start)[1]
    return date.strftime("%Y-%m-%d") if date else ""


def _games_of(item: tuple[str, bool], unreadable: list[str] | None = None
              ) -> list[tuple[str, int, GameRecord]]:
    """Every game of one input file, with its path and index; a file in a folder that is no
    record gives none; a named one that cannot be read (a damaged archive too) ends the
    command (exit status 2), or, given ``unreadable``, is added to it (the caller says
    them, once) and gives none."""
    path, explicit = item
    try:
        records = read_path(path)
    except InputError as exc:
        if explicit or exc.diagnostic.code != "unknown-format":
            message = terminal(exc.about(path))
            if unreadable is None:
                raise InputFailure(message) from None
            unreadable.append(message)
        return []
    for rec in records:
        for d in rec.diagnostics:
            click.echo(f"{path}: {d}", err=True)
    return [(path, i, rec) for i, rec in enumerate(records)]


def _up(name: Path) -> str:
    """The relative link from a page at ``name`` to its folder's top."""
    return "../" * (len(name.parts) - 1)


# ---------------------------------------------------------------- audit


@main.command("audit")
@_INPUTS
@click.option("--format", "fmt", type=click.Choice(["text", "json", "jsonl", "html"]),
              default="text", show_default=True,
              help="Report format (json: schemas/audit-report.schema.json; jsonl: the same as "
              "one object a line, each game's line written as soon as it is audited, the "
              "summary last; html: the referee's page, with -o REPORT.html, and a replay page "
              "of each game with findings in REPORT-games/).")
@_JOBS
@_CLUSTER
@click.option("-o", "--output", type=click.Path(dir_okay=False), default=None,
              help="Write the report to this file instead of standard output.")
@click.option("--all", "all_games", is_flag=True, help="List clean games too (text format).")
@click.option("--summary-only", is_flag=True,
              help="Only the summary and the files that could not be read: no game's part, "
              "and the files skipped counted, not listed.")
@_NO_WALL
@click.option("--no-scores", is_flag=True,
              help="Do not recompute wins, draws and payments.")
@click.option("--rules", "preset", metavar="PRESET",
              help="Audit under this ruleset preset (see `mjlog rules`); default: the "
              "ruleset each record suggests.")
@_SET
@_FORCE_RULES
@click.option("--no-rules", is_flag=True, help="Do not judge the moves by the ruleset.")
@click.option("--lang", type=click.Choice(LANGS), default="en", show_default=True,
              help="With --format html: the language of the referee's page and its replay "
              "pages (English, Japanese or Chinese).")
def audit_cmd(inputs: tuple[str, ...], fmt: str, jobs: int, cluster: str | None,
              output: str | None,
              all_games: bool, summary_only: bool, no_wall: bool, no_scores: bool,
              preset: str | None, settings: tuple[str, ...], force_rules: bool,
              no_rules: bool, lang: str) -> None:
    """Replay records and report every inconsistency, rule violation and score mismatch.

    INPUTS are files, folders (searched recursively; files that are not
    records are skipped) or archives (zip, tar, a houou-logs database: each
    record is named ARCHIVE!MEMBER). Each game is judged under the ruleset it suggests,
    or under --rules PRESET with --set changes (for records of the preset's rule
    family and number of players; others keep their own, unless --force-rules).
    Exit status: 0 when nothing of error severity, no rule violation and no
    score mismatch was found, 1 when something was, 2 when an input could not
    be read or the usage is wrong (the same in every command). With -o, the
    summary's main line is still printed.
    """
    options = _rule_options(preset, settings)
    checks = Checks(wall=not no_wall, scores=not no_scores, rules=not no_rules, preset=preset,
                    options=options, force=force_rules)
    items = _expanded(inputs)
    if output and Path(output).resolve() in {Path(p).resolve() for p, _ in items}:
        raise click.UsageError(f"the report {output} would replace an input; nothing was "
                               "written")
    if fmt == "html":
        _audit_page(items, parallel.Engine(jobs, cluster), checks, output, lang)
        return
    stream = None if output else sys.stdout
    with Spool(fmt, all_games=all_games, summary_only=summary_only, stream=stream) as spool:
        with _cluster_errors():
            report = _audited(items, parallel.Engine(jobs, cluster), checks, spool.add,
                              bar=fmt == "text")
        if output:
            _write_parts(Path(output), spool.parts(report))
            click.echo(f"{output}: {summary_line(report.summary)}")
        else:
            for part in spool.parts(report):
                click.echo(part, nl=False)
    _exit_for(report)


def _exit_for(report: AuditReport) -> None:
    """End an audit with its exit status (0 clean, 1 findings, 2 unreadable or no game)."""
    s = report.summary
    if s.unreadable_files or not s.games:
        if not s.games:
            click.echo("no game records found", err=True)
        sys.exit(2)
    sys.exit(1 if s.errors or s.score_mismatches else 0)


def _audit_page(items: list[tuple[str, bool]], engine: parallel.Engine, checks: Checks,
                output: str | None, lang: str = "en") -> None:
    """``audit --format html``: the referee's page and the replay pages of the games with
    findings beside it."""
    if not output or output == "-" or not output.endswith(".html"):
        raise click.UsageError("--format html writes a page and the games' replay pages "
                               "beside it: give -o REPORT.html")
    page = RefereeReport(checks, lang=lang)
    with _cluster_errors():
        report = _audited(items, engine, checks, page.add, bar=True)
    out = Path(output)
    with _staged_folder(page.folder(out)) as stage:
        written = page.write(out, report, _write_text, stage)
    click.echo(f"{output}: {summary_line(report.summary)} ({len(written) - 1} replay pages "
               f"in {Path(output).stem}-games)")
    _exit_for(report)


def _audited(items: list[tuple[str, bool]], engine: parallel.Engine, checks: Checks,
             sink: Callable[[GameReport], object], *, bar: bool) -> AuditReport:
    """Audit ``items`` with each game's report going to ``sink``; with ``bar``, on a
    terminal, a progress bar on standard error."""
    if bar and sys.stderr.isatty() and len(items) > 1:
        with Progress(len(items), "auditing") as progress:
            return audit_items(items, jobs=engine.jobs, cluster=engine.cluster, checks=checks,
                               progress=progress, sink=sink)
    return audit_items(items, jobs=engine.jobs, cluster=engine.cluster, checks=checks,
                       sink=sink)


def _rule_options(preset: str | None, settings: tuple[str, ...]) -> tuple[tuple[str, object], ...]:
    """Check ``--rules PRESET`` and parse each ``--set OPTION=VALUE`` as the Python API does
    (:func:`mjlog.api.rule_options`); usage errors exit with status 2."""
    if preset is not None and preset not in PRESETS:
        raise click.BadParameter(f"unknown preset {preset!r}; known: "
                                 f"{', '.join(sorted(PRESETS))}", param_hint="--rules")
    pairs: dict[str, str] = {}
    for text in settings:
        name, eq, value = text.partition("=")
        if not eq:
            raise click.BadParameter(f"write OPTION=VALUE, not {text!r}", param_hint="--set")
        pairs[name] = value
    try:
        return api.rule_options(preset, pairs)
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint="--set") from None


# ---------------------------------------------------------------- event


@main.command("event")
@click.argument("event_file", metavar="EVENT", type=click.Path(exists=True))
@click.option("--format", "fmt", default="text", show_default=True,
              type=click.Choice(["text", "csv", "json", "markdown", "html", "ema-csv"]),
              help="csv: the standings; ema-csv: place, EMA id, name, points; html: the "
              "event's page with -o RESULTS.html, the referee's report and replay pages "
              "beside it.")
@click.option("-o", "--output", type=click.Path(dir_okay=False), default=None,
              help="Write to this file instead of standard output.")
def event_cmd(event_file: str, fmt: str, output: str | None) -> None:
    """A tournament's standings and checks, from its games audited and settled.

    EVENT is an event file (TOML) or a folder holding event.toml: the players, the
    ruleset, the schedule, the games (tile records, score sheets or both) and the
    penalties (docs/tournaments.md). Exit status: 0 when no check found an error, 1 when
    one did, 2 when the event file cannot be used.
    """
    from mjlog.reports import event as tournament
    from mjlog.reports.event.output import WRITERS

    try:
        report = tournament.run(tournament.load(event_file))
    except tournament.EventError as exc:
        raise InputFailure(terminal(str(exc))) from None
    if fmt == "html":
        from mjlog.reports.event.page import pages_folder, write_pages

        if not output or not output.endswith(".html"):
            raise click.UsageError("--format html writes a page and the referee's pages "
                                   "beside it: give -o RESULTS.html")
        with _staged_folder(pages_folder(Path(output))) as stage:
            write_pages(report, Path(output), _write_text, stage)
    else:
        _deliver_text(WRITERS[fmt](report), output)
    if output:
        click.echo(f"{output}: {counted(len(report.standings), 'player')}, "
                   f"{counted(report.errors, 'error')} found")
    sys.exit(1 if report.errors else 0)


# ---------------------------------------------------------------- generate


@main.command("generate")
@click.option("--rules", "preset", metavar="PRESET", default="tenhou", show_default=True,
              help="The ruleset preset the games are played under (see `mjlog rules`).")
@_SET
@click.option("-n", "--games", type=click.IntRange(min=1), default=1, show_default=True,
              help="How many games.")
@click.option("--seed", type=int, default=0, show_default=True,
              help="Seed of the first game; the next ones take the following seeds.")
@click.option("-o", "--output", type=click.Path(), default="-", show_default=True,
              help="A folder to write one notation file per game into, or '-' for "
              "standard output.")
def generate_cmd(preset: str, settings: tuple[str, ...], games: int, seed: int,
                 output: str) -> None:
    """Play random legal games and write them in mjlog notation.

    Random players play whole games under the ruleset (riichi, or a whole
    Taiwanese 一荘 under taiwan16): the same seed gives the same game, and
    every game audits clean under that ruleset. Useful as test data and to try a ruleset's options.
    """
    rs = PRESETS[preset].with_options(**dict(_rule_options(preset, settings)))
    folder = None if output == "-" else Path(output)
    for i in range(games):
        text = write("notation", random_game(rs, seed + i).events)
        if folder is None:
            click.echo(text, nl=False)
        else:
            _write_text(folder / f"random-{preset}-{seed + i}{FORMATS['notation'].extension}",
                        text)
    if folder is not None:
        click.echo(f"wrote {counted(games, 'game')} to {folder}", err=True)


@main.command("rules")
@click.argument("preset", metavar="[PRESET|CHECK]", required=False)
def rules_cmd(preset: str | None) -> None:
    """List the ruleset presets, options and checks; show one PRESET's values; or show
    one CHECK's entry of the rulebook (docs/rules.md): its rule, section, option and a
    violating and a legal example in notation.
    """
    if preset is not None:
        if preset not in PRESETS:
            entry = rule_entry(preset)
            if not entry:
                close = difflib.get_close_matches(preset, [*PRESETS, *rules_by_code()], n=3)
                raise click.BadParameter(
                    f"{preset!r} is no preset and no check" + (
                        f"; did you mean {', '.join(close)}?" if close else
                        f"; presets: {', '.join(sorted(PRESETS))}; `mjlog rules` lists the "
                        "checks"), param_hint="PRESET|CHECK")
            click.echo(entry, nl=False)
            return
        for name, value in flat(PRESETS[preset]).items():
            source = citation(preset, name)
            click.echo(f"{name} = {option_text(value)}" + (f"  ({source})" if source else ""))
        return
    click.echo("presets: " + ", ".join(PRESETS))
    click.echo("")
    click.echo("options (tenhou's value, or the default of the option's family or group; "
               "mjlog audit --rules PRESET --set OPTION=VALUE):")
    base = PRESETS["tenhou"]
    for name, doc in OPTION_DOCS.items():
        if name == "name":
            continue
        value = option_value(base, name)
        value = option_default(name) if value is MISSING else value
        differs = [p for p, rs in PRESETS.items()
                   if option_value(rs, name) not in (MISSING, value)]
        click.echo(f"  {name} = {option_text(value)}")
        for line in textwrap.wrap(doc, 74):
            click.echo(f"      {line}")
        if differs:
            click.echo("      other in: " + ", ".join(
                f"{p} ({option_text(option_value(PRESETS[p], name))})" for p in differs))
    click.echo("")
    click.echo("checks (code, rules.md section, rule, the option that shapes it), by family:")
    for name, family in FAMILIES.items():
        click.echo(f"  {name}:")
        for check in family.checks():
            option = f" [{check.OPTION}]" if check.OPTION else ""
            for rule in check.RULES:
                click.echo(f"    {rule.code:22} §{rule.section:5} {rule.citation}{option}")


# ---------------------------------------------------------------- stats


@main.command("stats")
@_INPUTS
@click.option("-o", "--output", default=None, metavar="OUT",
              help="Write to OUT ('-' for standard output); the format follows its extension "
              "(.csv, .json, .md, .parquet) unless --format says. Without it, print a table.")
@click.option("--format", "fmt", type=click.Choice(["table", "csv", "json", "markdown",
                                                     "parquet"]), default=None,
              help="Output format (default: from -o's extension, else table).")
@click.option("--metrics", "metric_spec", default=None, metavar="SPEC",
              help="Metrics to show: names and sets (headline, riichi, calls, placement, all), "
              "comma-separated. Default: headline in a table, all in a file.")
@click.option("--sort", default=None, metavar="METRIC[:asc]",
              help="Sort by a metric, highest first (':asc' for lowest first); default games.")
@click.option("--min-games", type=click.IntRange(min=0), default=None,
              help="Leave out groups with fewer games (default: 10 when grouping by player over "
              "more than 50 players, else 1).")
@click.option("--by", default="player", show_default=True, metavar="KEYS",
              help="Comma-separated grouping: any of player, year, month, platform, ruleset, "
              "room, length, players; '' for one row per player count (three- and "
              "four-player games are never pooled).")
@click.option("--player", "players", multiple=True, metavar="NAME",
              help="Only this player (repeatable).")
@click.option("--since", type=click.DateTime(), help="Only games from this date on.")
@click.option("--until", type=click.DateTime(), help="Only games before this date.")
@click.option("--keep-undated", is_flag=True,
              help="With --since or --until, also count the games whose record gives no date "
              "(left out otherwise, and counted in a warning).")
@click.option("--room", "rooms", multiple=True, help="Only this room (e.g. houou; repeatable).")
@click.option("--ruleset", "rulesets", multiple=True, help="Only this ruleset (repeatable).")
@click.option("--go-type", "go_types", multiple=True, type=int,
              help="Only this Tenhou GO type (e.g. 169; repeatable).")
@click.option("--include-incomplete", is_flag=True, help="Count games that stop early too.")
@click.option("--keep-duplicates", is_flag=True,
              help="Count a game found twice (same players and first deal) twice.")
@click.option("--double-ron", type=click.Choice(["once", "twice"]), default="once",
              show_default=True, help="How a double ron counts for the player who dealt in.")
@click.option("--average-win", type=click.Choice(["raw", "score-change",
                                                  "score-change-with-stick"]),
              default="raw", show_default=True, help="What 'average win' averages.")
@click.option("--draws", type=click.Choice(["all", "exhaustive", "exhaustive-no-nagashi"]),
              default="all", show_default=True, help="Which draws the draw rate counts.")
@click.option("--decisions", is_flag=True,
              help="Also replay every game for its decision facts (ready or not at a deal-in, "
              "ukeire lost, the most accepting discards, deal-ins by safety class): the "
              "decisions metrics and fact table. Slower (see docs/statistics.md).")
@click.option("--facts", "facts_dir", type=click.Path(file_okay=False), default=None,
              help="Also write the fact tables of the games counted here (Parquet, one "
              "folder per table, and _manifest.json); the folder appears when complete.")
@click.option("--overwrite", is_flag=True, help="Let --facts replace a non-empty folder.")
@click.option("--update", is_flag=True,
              help="Add to the facts already in --facts only the inputs its manifest does "
              "not list (an archive that grew); the table counts them all.")
@click.option("--report", "report_path", type=click.Path(dir_okay=False), default=None,
              help="Also write a page of pictures per group (self-contained HTML).")
@click.option("--yaku", "yaku_table", is_flag=True,
              help="Show how often each yaku comes in a group's wins instead of the metrics.")
@click.option("--report-limit", type=click.IntRange(min=1), default=20, show_default=True,
              help="Groups drawn in the report, from the top of the table.")
@click.option("--lang", type=click.Choice(LANGS), default="en", show_default=True,
              help="The language of --report's page (English, Japanese or Chinese).")
@_JOBS
@_CLUSTER
def stats_cmd(inputs: tuple[str, ...], output: str | None, fmt: str | None,
              metric_spec: str | None, sort: str | None, min_games: int | None, by: str,
              players: tuple[str, ...], since: datetime | None, until: datetime | None,
              keep_undated: bool,
              rooms: tuple[str, ...], rulesets: tuple[str, ...], go_types: tuple[int, ...],
              include_incomplete: bool, keep_duplicates: bool, double_ron: str,
              average_win: str, draws: str, facts_dir: str | None, overwrite: bool,
              update: bool, report_path: str | None, yaku_table: bool, report_limit: int,
              lang: str, jobs: int, cluster: str | None, decisions: bool = False) -> None:
    """Player statistics (win, deal-in, riichi, call rates, placements …) over records.

    Every rate comes with its 95% interval; every metric names its convention
    where services differ (see docs/statistics.md). Records are read as they
    are; audit them first. Exit status 1 when no game matched, saying why.
    """
    from mjlog import stats  # polars is only needed here
    from mjlog.stats import command, table

    options = {"double_ron": double_ron, "average_win": average_win, "draws": draws}
    keys = [k.strip() for k in by.split(",") if k.strip()]
    try:
        fmt = command.output_format(output, fmt)
        names = (table.metric_names(metric_spec) if metric_spec
                 else table.default_metrics(fmt, decisions))
        keys = stats.with_players(keys)
    except ValueError as exc:
        raise click.UsageError(str(exc)) from None
    if report_path is not None and importlib.util.find_spec("matplotlib") is None:
        raise click.UsageError("--report draws with matplotlib, which is not installed: "
                               + install_hint("report"))
    filters = stats.Filters(players=players, since=since, until=until, rooms=rooms,
                            rulesets=rulesets, go_types=go_types,
                            include_incomplete=include_incomplete, keep_undated=keep_undated)
    if update and facts_dir is None:
        raise click.UsageError("--update adds to the facts of --facts DIR: give that folder")
    summary = _stats_run(inputs, keys, options, filters, facts_dir, (overwrite, update),
                         parallel.Engine(jobs, cluster), keep_duplicates,
                         report_path is not None or yaku_table, decisions)
    unreadable = _stats_warned(summary, filters)
    if min_games is None:  # a large archive's one-game players hide the regulars
        min_games = 10 if "player" in keys and not players and summary.table.height > 50 else 1
    sel = table.Selection(keys, [stats.BY_NAME[n] for n in names],
                          stats.options_in_force(options))
    try:
        shown, hidden = table.select(summary.table, sel, min_games=min_games, sort=sort)
    except ValueError as exc:
        raise click.UsageError(str(exc)) from None
    if report_path is not None:
        full, _ = table.select(summary.table, table.Selection(
            keys, list(stats.METRICS), sel.options), min_games=min_games, sort=sort)
        _stats_report(Path(report_path), full, summary, options, report_limit, lang)
    if yaku_table:
        _yaku_output(shown, summary, sel, fmt, output)
    else:
        _stats_output(shown, hidden, min_games, sel, fmt, output)
        if needs := table.needs_note(shown, sel):
            click.echo(f"note: {needs}", err=True)
    if unreadable:  # the table of the rest is out; the run still could not read them all
        raise InputFailure(f"{len(unreadable)} input(s) could not be read")


def _stats_warned(summary: Summary, filters: Filters) -> list[str]:
    """Say on standard error each game left out and each input that could not be read;
    return the latter. With no table to show: exit 2 when an input could not be read,
    else 1, saying why nothing matched."""
    from mjlog.stats import command
    from mjlog.stats.facts import UNREADABLE

    for message in summary.skipped:
        click.echo(f"warning: {message}", err=True)
    undated = summary.census.undated
    if undated and (filters.since or filters.until) and not filters.keep_undated:
        click.echo(f"warning: {undated:,} game(s) give no date and are left out by --since "
                   "and --until (--keep-undated counts them)", err=True)
    unreadable = [m for m in summary.skipped if UNREADABLE in m]
    if summary.table.height == 0:
        if unreadable:
            raise InputFailure(f"{len(unreadable)} input(s) could not be read; nothing to show")
        click.echo(f"mjlog stats: nothing to show: {command.why_nothing(summary.census, filters)}",
                   err=True)
        sys.exit(1)
    return unreadable


def _yaku_output(shown: pl.DataFrame, summary: Summary, sel: Selection, fmt: str,
                 output: str | None) -> None:
    """Print or write the yaku frequencies of the groups shown."""
    from mjlog.stats import report, table

    freq = report.yaku_frequencies(summary.report).join(
        shown.select(sel.keys), on=sel.keys, how="semi", nulls_equal=True)
    text = (table.render_yaku(freq, sel.keys, markdown=fmt == "markdown")
            if fmt in ("table", "markdown") else None)
    _deliver(freq, text, fmt, output)


def _deliver(df: pl.DataFrame, text: str | None, fmt: str, output: str | None) -> None:
    """Print or write ``text`` when given, else ``df`` in ``fmt`` (to standard output for
    no output or '-'); a file is written whole or not at all."""
    from mjlog.stats import command

    to_stdout = output is None or output == "-"
    if text is not None and to_stdout:
        click.echo(text)
    elif text is not None:
        _atomically(Path(output or ""), lambda p: p.write_text(text + "\n", "utf-8"))
    elif to_stdout:
        command.write_table(df, fmt, None)
    else:
        _atomically(Path(output or ""), lambda p: command.write_table(df, fmt, p))
        click.echo(f"wrote {df.height} rows to {output}", err=True)


def _stats_run(inputs: tuple[str, ...], keys: list[str], options: dict[str, str],
               filters: Filters, facts_dir: str | None, replace: tuple[bool, bool],
               engine: parallel.Engine, keep_duplicates: bool, report: bool,
               decisions: bool = False) -> Summary:
    """:func:`mjlog.stats.run` with a progress bar on a terminal, errors as messages."""
    from mjlog import stats

    items = _expanded(inputs)
    count = len(items)
    run = partial(stats.run, inputs, by=keys, options=options, filters=filters,
                  facts_dir=facts_dir, overwrite=replace[0], update=replace[1],
                  jobs=engine.jobs, cluster=engine.cluster,
                  dedupe=not keep_duplicates, report=report, listed=items,
                  decisions=decisions)
    try:
        if sys.stderr.isatty() and count > 1:
            with Progress(count, "reading") as progress:
                return run(progress=progress)
        return run()
    except InputError as exc:
        raise InputFailure(exc.diagnostic.message) from None
    except ClusterError as exc:
        raise ClusterFailure(str(exc)) from None
    except FileExistsError as exc:
        raise click.UsageError(str(exc)) from None
    except ValueError as exc:
        raise click.UsageError(str(exc)) from None


def _stats_report(path: Path, full: pl.DataFrame, summary: Summary, options: dict[str, str],
                  limit: int, lang: str = "en") -> None:
    """Write the report page (from the rows of the table as selected and sorted)."""
    from mjlog.stats import report

    counted = int(full["games"].sum()) if "games" in full.columns else 0
    about = (f"{summary.census.games:,} games read, {counted:,} player-games counted, "
             f"grouped by {', '.join(summary.by)}; "
             "conventions: " + ", ".join(f"{k.replace('_', '-')}={v}"
                                         for k, v in options.items()))
    _atomically(path, lambda p: report.write_report(
        p, full, summary.report, options, about=about, limit=limit, lang=lang))
    click.echo(f"wrote the report to {path}", err=True)


def _stats_output(shown: pl.DataFrame, hidden: int, min_games: int, sel: Selection, fmt: str,
                  output: str | None) -> None:
    """Print or write the selected table, saying what was left out."""
    from mjlog.stats import table

    note = (f"{hidden} groups with fewer than {min_games} games left out (--min-games)"
            if hidden else "")
    text = None
    if fmt in ("table", "markdown"):
        text = (table.render_text(shown, sel, shutil.get_terminal_size((120, 24)).columns)
                if fmt == "table" else table.render_markdown(shown, sel))
        conv = table.conventions(sel)
        text += "".join(f"\n{line}" for line in (conv, note) if line and fmt == "table")
    _deliver(shown, text, fmt, output)
    if note and fmt != "table":
        click.echo(note, err=True)


@main.command("fairness")
@_INPUTS
@click.option("-o", "--output", type=click.Path(dir_okay=False), default=None, metavar="OUT",
              help="Write the report to OUT: .html for the page, .json for the data "
              "(default: text on the terminal).")
@click.option("--format", "fmt", type=click.Choice(["text", "json", "html"]), default=None,
              help="The report's form (default: from OUT's extension, else text).")
@click.option("--player", "names", multiple=True, metavar="NAME",
              help="Show this player's luck against the platform's (repeatable).")
@click.option("--min-hands", type=click.IntRange(min=1), default=100, show_default=True,
              help="Without --player: list the players dealt at least this many hands.")
@click.option("--players-limit", type=click.IntRange(min=0), default=20, show_default=True,
              help="Without --player: list at most this many (those with the most hands).")
@click.option("--seed", type=int, default=0, show_default=True,
              help="Seed of the uniformly shuffled walls the starting hands are compared with.")
@_JOBS
@_CLUSTER
def fairness_cmd(inputs: tuple[str, ...], output: str | None, fmt: str | None,
                 names: tuple[str, ...], min_hands: int, players_limit: int, seed: int,
                 jobs: int, cluster: str | None) -> None:
    """Is it rigged? Test the shuffle over every proven wall in the records.

    For each platform and player count: tile kinds at each wall position, starting
    hands by seat against uniformly shuffled walls, dice, and ura dora against the
    tiles left in the wall, each with its p-value, effect size and 95% interval,
    corrected for the number of tests; rounds whose deal is known but whose wall was
    never committed to are tested apart. Also: each player's luck, and the rounds
    proven, mismatched and uncommitted by platform and month (docs/fairness.md).
    Exit status 2 when some input could not be read.
    """
    if importlib.util.find_spec("scipy") is None:
        raise click.UsageError("fairness tests with scipy, which is not installed: "
                               + install_hint("fairness"))
    from mjlog.stats import fairness
    from mjlog.stats.fairness import report as fair

    kind = fmt or (Path(output).suffix.lstrip(".").lower() if output else "text")
    if kind not in ("text", "json", "html"):
        raise click.UsageError(f"cannot tell the report's form from {output!r}: use --format")
    if kind == "html" and importlib.util.find_spec("matplotlib") is None:
        raise click.UsageError("the page draws with matplotlib, which is not installed: "
                               + install_hint("fairness"))
    items = _expanded(inputs)
    with (Progress(len(items), "reading") if sys.stderr.isatty() and len(items) > 1
          else nullcontext()) as progress, _cluster_errors():
        tally = fairness.collect(items, parallel.Engine(jobs, cluster), progress)
    built = fair.build(tally, seed=seed, names=names, least=min_hands, limit=players_limit)
    if kind == "html":
        _atomically(Path(output or "fairness.html"), lambda p: fair.write_html(built, p))
    elif kind == "json":
        text = json.dumps(fair.to_json(built), ensure_ascii=False, indent=1) + "\n"
        _deliver_text(text, output)
    else:
        _deliver_text(fair.text(built), output)
    unreadable = sum(fairness.UNREADABLE in s for s in tally.skipped)
    if unreadable:
        raise InputFailure(f"{counted(unreadable, 'input')} could not be read (whole)")


def _deliver_text(text: str, output: str | None) -> None:
    """``text`` to ``output``, or to standard output without one."""
    if output:
        _write_text(Path(output), text)
    else:
        click.echo(text, nl=False)


@main.command("find")
@_INPUTS
@click.option("-w", "--where", "where", multiple=True, required=True, metavar="QUERY",
              help="What to find, e.g. 'yakuman', 'ron>=2', 'dealin>=12000 player=NAME', "
              "'code=furiten-ron date>=2022-01-01' (repeatable; all must hold; docs/find.md).")
@click.option("--format", "fmt", type=click.Choice(["text", "json", "csv"]), default="text",
              show_default=True, help="How the matches are written.")
@click.option("-o", "--output", type=click.Path(dir_okay=False), default=None,
              help="Write the matches to this file instead of standard output.")
@click.option("--pages", default="", metavar="PREFIX",
              help="Put PREFIX before each viewer link: where `mjlog view INPUTS -o FOLDER` "
              "wrote the pages (a folder or a URL).")
@click.option("--steps", is_flag=True,
              help="On a facts folder: replay the games matched, from their records, to give "
              "each match its turn and its viewer step.")
@_JOBS
@click.option("--rules", "preset", metavar="PRESET",
              help="With code=: audit under this ruleset preset (default: each record's own).")
@_SET
@_FORCE_RULES
@_NO_WALL
def find_cmd(inputs: tuple[str, ...], where: tuple[str, ...], fmt: str, output: str | None,
             pages: str, steps: bool, jobs: int, preset: str | None,
             settings: tuple[str, ...], force_rules: bool, no_wall: bool) -> None:
    """Find games, rounds and moves by what happened: yaku, limits, double ron, draws,
    kans after riichi, deal-ins, players, audit findings, dates.

    INPUTS are records, folders and archives (each game replayed: exact, with the
    viewer's move and link) or facts folders written by `mjlog stats --facts DIR`
    (filtered in polars: fast, each match placed by its round). Exit status: 0 when
    something was found, 1 when nothing was, 2 for a wrong query or an unreadable input.
    """
    from mjlog.stats.find.command import query_of, search, summary
    from mjlog.stats.find.fast import NeedsRecords
    from mjlog.stats.find.output import write as write_matches
    from mjlog.stats.find.query import QueryError

    try:
        query = query_of(where)
    except QueryError as exc:
        raise InputFailure(terminal(str(exc))) from None
    listed: list[tuple[str, bool]] = []

    def listing(names: Iterable[str]) -> list[tuple[str, bool]]:
        new = _expanded(names)
        listed.extend(new)  # for the check that the output is none of them
        return new

    checks = Checks(wall=not no_wall, preset=preset, options=_rule_options(preset, settings),
                    force=force_rules)
    try:
        found = search(inputs, query, listing, _holders(inputs), jobs=jobs, checks=checks,
                       pages=pages, steps=steps)
    except NeedsRecords as exc:
        raise InputFailure(str(exc)) from None
    if output:
        if Path(output).resolve() in {Path(p).resolve() for p in [*inputs, *(p for p, _ in listed)]
                                      if not storage.is_url(p)}:
            raise click.UsageError(f"the output {output} is an input; nothing was written")
        _atomically(Path(output), lambda p: write_matches(found.matches, fmt, p))
    else:
        write_matches(found.matches, fmt, None)
    click.echo(terminal(summary(found)), err=True)
    if found.unreadable:
        raise InputFailure(f"{len(found.unreadable)} input(s) could not be read: "
                           + terminal("; ".join(found.unreadable)))
    sys.exit(0 if found.matches else 1)


@main.command("review")
@_INPUTS
@click.option("-o", "--output", type=click.Path(dir_okay=False), default=None, metavar="FILE",
              help="Write the facts as JSON Lines (one decision a line, docs/review.md) to "
              "FILE instead of a summary per round on the terminal.")
@click.option("--seat", type=click.IntRange(min=0, max=3), default=None, metavar="N",
              help="Only the decisions of seat N (0 is the record's first seat).")
@click.option("--player", default=None, metavar="NAME",
              help="Only the decisions of the player named NAME (games without them are "
              "left out).")
def review_cmd(inputs: tuple[str, ...], output: str | None, seat: int | None,
               player: str | None) -> None:
    """The facts of every decision: shanten and ukeire of each discard choice, the most
    accepting one and the loss of the tile thrown, calls offered, and each tile's safety
    against every riichi (docs/review.md).

    INPUTS are records, folders and archives. Without -o, a summary per round; with -o,
    JSON Lines. Exit status: 0 when all went well, 2 when an input could not be read.
    """
    from mjlog.families.riichi.decisions import FactsError, decisions
    from mjlog.families.riichi.decisions import command as facts

    items = _expanded(inputs)
    if output and Path(output).resolve() in {Path(p).resolve() for p, _ in items}:
        raise click.UsageError(f"the output {output} would replace an input; nothing was "
                               "written")
    unreadable: list[str] = []
    parts: list[str] = []
    for item in items:
        for path, i, rec in _games_of(item, unreadable):
            seats = {seat} if seat is not None else None
            if player is not None:
                found = facts.seat_of(rec, player)
                if found is None:
                    continue
                seats = {found}
            try:
                made = decisions(rec)
            except FactsError as exc:
                unreadable.append(terminal(str(exc)))
                click.echo(f"mjlog: {terminal(str(exc))}", err=True)
                continue
            chosen = [d for d in made if seats is None or d.seat in seats]
            if output:
                parts.extend(facts.json_lines(path, i, chosen))
            else:
                for line in facts.summary(path, i, rec, chosen, seats).splitlines():
                    click.echo(terminal(line))
    if output:
        _write_parts(Path(output), parts)
        click.echo(f"{output}: {counted(len(parts), 'decision')}", err=True)
    if unreadable:
        raise InputFailure(f"{len(unreadable)} input(s) could not be read: "
                           + "; ".join(unreadable))


def run() -> None:
    """The ``mjlog`` command: :func:`main` with SIGINT and SIGTERM ending it cleanly (exit
    status 130 and 143; workers stopped, no output half-written)."""
    signal.signal(signal.SIGINT, parallel.interrupted)
    signal.signal(signal.SIGTERM, parallel.interrupted)
    native.warn_if_missing()
    try:
        main()
    except MissingExtra as missing:  # an optional part the command needs is not installed
        click.echo(f"Error: {terminal(str(missing))}", err=True)
        sys.exit(2)


if __name__ == "__main__":
    run()

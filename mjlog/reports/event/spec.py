"""The event file: a tournament's players, ruleset, schedule, games and penalties, as TOML.

:func:`load` reads ``EVENT.toml`` (or the ``event.toml`` of a folder) with the standard
library's :mod:`tomllib` into an :class:`Event`. The file's keys (``docs/tournaments.md``
shows a whole file)::

    name = "Riichi Open"          # the event's name
    ruleset = "ema"               # a preset of `mjlog rules`
    [options]                     # ruleset options, as --set NAME=VALUE
    kiriage = true
    [[players]]                   # each player once
    name = "Ann Andersen"
    ema_id = "04010001"           # optional
    country = "DK"                # optional
    aliases = ["ann", "Ann A."]   # names the player has in records and sheets
    substitute = false            # true: plays, is listed, is not ranked
    [[rounds]]                    # the schedule: per round, its tables in seat order
    round = 1
    tables = [["Ann Andersen", "Ben", "Cat", "Dan"], ["Eve", "Fay", "Gil", "Hal"]]
    [[games]]                     # each game: a tile record, a score sheet, or both
    round = 1                     # optional, with table; else found from the schedule
    table = 1
    record = "r1/t1.mjlog"        # paths relative to the event file
    sheet = "r1/t1.csv"
    game = 1                      # which game of a file of several (from 1)
    [[penalties]]                 # points after uma, outside the games
    player = "Ben"
    points = -10
    reason = "late for round 2"
    round = 2                     # optional
    [[substitutes]]               # who sat in for a scheduled player
    round = 3
    player = "Dan"
    by = "Zed"

Names in ``rounds``, ``penalties`` and ``substitutes`` are a player's name or alias.
What it checks: the file's syntax (with the line and column :mod:`tomllib` gives),
unknown keys, the type of each value, names that are no player or the alias of two,
the preset and the options (as ``--set`` checks them). Everything wrong raises
:class:`EventError` with its place (``games[3].record``). It does not look at the
games' files: a missing file is an event finding (:mod:`mjlog.reports.event.results`).
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from mjlog.api import rule_options
from mjlog.core.ruleset import PRESETS, option_text, parse_option
from mjlog.reports.audit import Options

EVENT_FILE = "event.toml"
"""The event file a folder given to ``mjlog event`` holds."""


class EventError(ValueError):
    """An event file that cannot be used, with the place of what is wrong."""

    def __init__(self, message: str, where: str = "") -> None:
        super().__init__(f"{where}: {message}" if where else message)
        self.where = where


@dataclass(frozen=True, slots=True, kw_only=True)
class Player:
    """One player of the event."""

    name: str
    ema_id: str = ""
    country: str = ""
    aliases: tuple[str, ...] = ()
    substitute: bool = False
    """A substitute plays and is listed, but is not ranked."""


@dataclass(frozen=True, slots=True, kw_only=True)
class GameEntry:
    """One game of the event file: where its record and sheet are, and its round and table."""

    index: int
    """Its place in ``[[games]]``, from 0."""
    record: Path | None = None
    sheet: Path | None = None
    game: int = 0
    """Which game of its file(s), from 0."""
    round: int | None = None
    table: int | None = None

    @property
    def where(self) -> str:
        """Its place in the event file."""
        return f"games[{self.index}]"


@dataclass(frozen=True, slots=True, kw_only=True)
class Penalty:
    """Points given or taken outside the games (after uma), with the reason."""

    player: str
    points: float
    reason: str
    round: int | None = None
    where: str = ""


@dataclass(frozen=True, slots=True, kw_only=True)
class Substitute:
    """``by`` sat in for the scheduled ``player`` in round ``round``."""

    round: int
    player: str
    by: str
    where: str = ""


@dataclass(frozen=True, slots=True, kw_only=True)
class Event:
    """A whole event file, its names resolved to the players' names."""

    name: str
    path: Path
    """The event file."""
    preset: str
    options: Options = ()
    players: tuple[Player, ...] = ()
    rounds: dict[int, list[list[str]]] = field(default_factory=dict)
    """The schedule: per round, its tables (from table 1), each in seat order (East first)."""
    games: tuple[GameEntry, ...] = ()
    penalties: tuple[Penalty, ...] = ()
    substitutes: tuple[Substitute, ...] = ()

    @property
    def folder(self) -> Path:
        """The folder the games' paths are relative to."""
        return self.path.parent

    def player(self, name: str) -> Player:
        """The player named ``name`` (a resolved name)."""
        return next(p for p in self.players if p.name == name)

    def scheduled(self) -> dict[int, list[list[str]]]:
        """The schedule with each substitute in the seat of the player they sat in for."""
        out = {r: [list(t) for t in tables] for r, tables in self.rounds.items()}
        for s in self.substitutes:
            for table in out.get(s.round, []):
                if s.player in table:
                    table[table.index(s.player)] = s.by
        return out


def event_file(path: str | Path) -> Path:
    """The event file of ``path``: the file itself, or a folder's ``event.toml``."""
    p = Path(path)
    return p / EVENT_FILE if p.is_dir() else p


def load(path: str | Path) -> Event:
    """The event of an event file (or of a folder holding ``event.toml``).

    Raises :class:`EventError` for a file that cannot be read, is not TOML (with the
    line and column) or does not describe an event (with the key)."""
    file = event_file(path)
    try:
        data = tomllib.loads(file.read_text("utf-8"))
    except OSError as exc:
        raise EventError(f"cannot read the event file: {exc.strerror or exc}",
                         str(file)) from None
    except UnicodeDecodeError:
        raise EventError("the event file is not UTF-8 text", str(file)) from None
    except tomllib.TOMLDecodeError as exc:
        raise EventError(f"not TOML: {exc}", str(file)) from None
    try:
        return parse(data, file)
    except EventError as exc:
        raise EventError(str(exc), str(file)) from None


_TOP = {"name", "ruleset", "options", "players", "rounds", "games", "penalties", "substitutes"}


def parse(data: Mapping[str, Any], file: Path) -> Event:
    """The event of an event file's parsed TOML ``data`` (:func:`load` reads it)."""
    _known(data, _TOP, "")
    name = _text(data, "name", "", default="").strip() or file.parent.name or file.stem
    preset = _text(data, "ruleset", "", default="ema")
    if preset not in PRESETS:
        raise EventError(f"no ruleset preset named {preset!r} (mjlog rules lists them: "
                         f"{', '.join(sorted(PRESETS))})", "ruleset")
    options = _options(data.get("options", {}), preset)
    players = tuple(_player(p, f"players[{i}]")
                    for i, p in enumerate(_list(data, "players", "")))
    names = Names(players)
    return Event(
        name=name, path=file, preset=preset, options=options, players=players,
        rounds=_rounds(_list(data, "rounds", ""), names),
        games=tuple(_game(g, i, file.parent) for i, g in enumerate(_list(data, "games", ""))),
        penalties=tuple(_penalty(p, f"penalties[{i}]", names)
                        for i, p in enumerate(_list(data, "penalties", ""))),
        substitutes=tuple(_substitute(s, f"substitutes[{i}]", names)
                          for i, s in enumerate(_list(data, "substitutes", ""))))


class Names:
    """The players by every name they go by: name, then alias, then either case-folded."""

    def __init__(self, players: tuple[Player, ...]) -> None:
        self.exact: dict[str, str] = {}
        self.folded: dict[str, str] = {}
        for i, p in enumerate(players):
            if p.name in self.exact and self.exact[p.name] == p.name:
                raise EventError(f"two players are named {p.name!r}", f"players[{i}].name")
            for k, alias in enumerate((p.name, *p.aliases)):
                where = f"players[{i}]" + (f".aliases[{k - 1}]" if k else ".name")
                for table, key in ((self.exact, alias), (self.folded, alias.casefold())):
                    if table.get(key, p.name) != p.name:
                        raise EventError(f"{alias!r} names two players: {table[key]!r} and "
                                         f"{p.name!r}", where)
                    table[key] = p.name

    def find(self, name: str) -> str | None:
        """The event's name of the player ``name`` stands for, or ``None``."""
        return self.exact.get(name) or self.folded.get(name.casefold())

    def need(self, name: object, where: str) -> str:
        """:meth:`find` of a name the event file gives; raises when it is no player's."""
        if not isinstance(name, str):
            raise EventError(f"a player's name is text, not {name!r}", where)
        found = self.find(name)
        if found is None:
            raise EventError(f"{name!r} is no player's name or alias ([[players]])", where)
        return found


def _known(table: object, keys: set[str], where: str) -> None:
    if not isinstance(table, Mapping):
        raise EventError(f"a table is expected, not {table!r}", where)
    unknown = sorted(set(table) - keys)
    if unknown:
        raise EventError(f"unknown key {unknown[0]!r} (known: {', '.join(sorted(keys))})",
                         f"{where}.{unknown[0]}" if where else unknown[0])


def _at(where: str, key: str) -> str:
    return f"{where}.{key}" if where else key


def _text(table: Mapping[str, Any], key: str, where: str, *, default: str | None = None) -> str:
    value = table.get(key, default)
    if not isinstance(value, str) or (default is None and not value.strip()):
        raise EventError("text is expected" + ("" if value is None else f", not {value!r}"),
                         _at(where, key))
    return value


def _int(table: Mapping[str, Any], key: str, where: str, *, low: int = 1) -> int | None:
    value = table.get(key)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or value < low:
        raise EventError(f"a whole number of at least {low} is expected, not {value!r}",
                         _at(where, key))
    return value


def _list(table: Mapping[str, Any], key: str, where: str) -> list[Any]:
    value = table.get(key, [])
    if not isinstance(value, list):
        raise EventError(f"a list is expected, not {value!r}", _at(where, key))
    return value


def _options(table: object, preset: str) -> Options:
    if not isinstance(table, Mapping):
        raise EventError(f"a table of NAME = VALUE is expected, not {table!r}", "options")
    for name, value in table.items():
        try:
            parse_option(name, option_text(value))
        except ValueError as exc:
            raise EventError(str(exc), f"options.{name}") from None
    try:
        return rule_options(preset, dict(table))
    except ValueError as exc:
        raise EventError(str(exc), "options") from None


def _player(table: object, where: str) -> Player:
    _known(table, {"name", "ema_id", "country", "aliases", "substitute"}, where)
    assert isinstance(table, Mapping)
    aliases = _list(table, "aliases", where)
    if not all(isinstance(a, str) and a for a in aliases):
        raise EventError("aliases are a list of names", _at(where, "aliases"))
    ema_id = table.get("ema_id", "")
    if isinstance(ema_id, int) and not isinstance(ema_id, bool):
        raise EventError("write an EMA id as text, \"04010001\": as a number it loses its "
                         "leading zeros", _at(where, "ema_id"))
    substitute = table.get("substitute", False)
    if not isinstance(substitute, bool):
        raise EventError(f"true or false is expected, not {substitute!r}",
                         _at(where, "substitute"))
    return Player(name=_text(table, "name", where).strip(),
                  ema_id=_text(table, "ema_id", where, default=""),
                  country=_text(table, "country", where, default=""),
                  aliases=tuple(aliases), substitute=substitute)


def _rounds(items: list[Any], names: Names) -> dict[int, list[list[str]]]:
    out: dict[int, list[list[str]]] = {}
    for i, table in enumerate(items):
        where = f"rounds[{i}]"
        _known(table, {"round", "tables"}, where)
        number = _int(table, "round", where) or i + 1
        if number in out:
            raise EventError(f"round {number} is scheduled twice", where)
        tables = []
        for k, seats in enumerate(_list(table, "tables", where)):
            at = f"{where}.tables[{k}]"
            if not isinstance(seats, list) or len(seats) not in (3, 4):
                raise EventError("a table is a list of its 3 or 4 players in seat order", at)
            tables.append([names.need(s, f"{at}[{j}]") for j, s in enumerate(seats)])
        out[number] = tables
    return out


def _path(table: Mapping[str, Any], key: str, where: str, folder: Path) -> Path | None:
    if key not in table:
        return None
    text = _text(table, key, where)
    return folder / text


def _game(table: object, index: int, folder: Path) -> GameEntry:
    where = f"games[{index}]"
    _known(table, {"record", "sheet", "game", "round", "table"}, where)
    assert isinstance(table, Mapping)
    record, sheet = _path(table, "record", where, folder), _path(table, "sheet", where, folder)
    if record is None and sheet is None:
        raise EventError("a game names its record, its sheet, or both", where)
    round_, number = _int(table, "round", where), _int(table, "table", where)
    if number is not None and round_ is None:
        raise EventError("a game that names its table names its round too", where)
    return GameEntry(index=index, record=record, sheet=sheet,
                     game=(_int(table, "game", where) or 1) - 1, round=round_, table=number)


def _penalty(table: object, where: str, names: Names) -> Penalty:
    _known(table, {"player", "points", "reason", "round"}, where)
    assert isinstance(table, Mapping)
    points = table.get("points")
    if isinstance(points, bool) or not isinstance(points, int | float):
        raise EventError(f"points are a number (negative for a penalty), not {points!r}",
                         _at(where, "points"))
    return Penalty(player=names.need(table.get("player"), _at(where, "player")),
                   points=float(points), reason=_text(table, "reason", where),
                   round=_int(table, "round", where), where=where)


def _substitute(table: object, where: str, names: Names) -> Substitute:
    _known(table, {"round", "player", "by"}, where)
    assert isinstance(table, Mapping)
    number = _int(table, "round", where)
    if number is None:
        raise EventError("a substitute names the round", _at(where, "round"))
    return Substitute(round=number, player=names.need(table.get("player"), _at(where, "player")),
                      by=names.need(table.get("by"), _at(where, "by")), where=where)

"""Events to and from JSON Lines: the one place where events meet JSON.

Each event is one JSON object on one line, tagged by ``"type"`` (the class's
``TYPE``), with its fields by name. Fields equal to their default are left
out; tuples become arrays; nested values (players, yaku, the ruleset) become
objects; :data:`~mjlog.core.events.Pairs` become objects whose keys keep their
order. ``schemas/events.schema.json`` describes the result and is generated
from the same type information (:mod:`mjlog.formats.schema`).

Reading is strict about types and reports problems as diagnostics with the
line and a JSON path (``line 12: $.hands[2][5]: expected an integer``); a bad
line is skipped and the rest is read. This module does no file I/O.
"""

from __future__ import annotations

import dataclasses
import json
import re
import types
import typing
from collections.abc import Callable, Iterable, Iterator
from typing import Any, Union

from mjlog.core.diagnostics import Diagnostic, InputError, Severity, Src
from mjlog.core.events import EVENT_TYPES, Discard, Draw, Event, GameStart, discard_of, draw_of
from mjlog.core.record import GameRecord
from mjlog.core.ruleset import (
    MISSING,
    OPTIONS,
    Ruleset,
    from_flat,
    option_default,
    option_type,
    option_value,
)
from mjlog.core.tiles import UNKNOWN, Tile
from mjlog.formats import jsontext

FORMAT = "jsonl"
DIAGNOSTIC_CODES = frozenset({"bad-encoding", "json-syntax", "bad-event", "bad-value",
                              "no-game-start"})
"""Codes of the diagnostics :func:`read` gives."""

Encoder = Callable[[Any], Any]
Decoder = Callable[[Any, str], Any]


class ConversionError(ValueError):
    """A JSON value that does not fit the event's field; ``path`` is where."""

    def __init__(self, path: str, message: str) -> None:
        super().__init__(f"{path}: {message}")
        self.path = path


def _is_pairs(tp: Any) -> bool:
    return (typing.get_origin(tp) is tuple
            and typing.get_args(tp) == (tuple[str, str], ...))


def _optional_arg(tp: Any) -> Any | None:
    if typing.get_origin(tp) in (Union, types.UnionType):
        args = [a for a in typing.get_args(tp) if a is not type(None)]
        if len(args) == 1 and len(typing.get_args(tp)) == 2:
            return args[0]
    return None


def _base(tp: Any) -> Any:
    """Strip ``NewType`` wrappers (``Tile`` is an ``int``)."""
    while hasattr(tp, "__supertype__"):
        tp = tp.__supertype__
    return tp


_encoders: dict[Any, Encoder | None] = {}
_decoders: dict[Any, Decoder] = {}


def _encoder(tp: Any) -> Encoder | None:
    """A function turning a value of type ``tp`` into JSON data, ``None`` for identity."""
    if tp in _encoders:
        return _encoders[tp]
    enc: Encoder | None
    tp0 = _base(tp)
    if tp0 is Ruleset:
        enc = ruleset_to_dict
    elif tp0 in (int, str, bool, float) or typing.get_origin(tp0) is typing.Literal:
        enc = None
    elif _is_pairs(tp0):
        enc = dict
    elif (inner := _optional_arg(tp0)) is not None:
        ie = _encoder(inner)
        enc = None if ie is None else (lambda v, ie=ie: None if v is None else ie(v))
    elif typing.get_origin(tp0) is tuple:
        ie = _encoder(typing.get_args(tp0)[0])
        enc = list if ie is None else (lambda v, ie=ie: [ie(x) for x in v])
    elif isinstance(tp0, type) and dataclasses.is_dataclass(tp0):
        enc = _dataclass_encoder(tp0)
    else:
        raise TypeError(f"no JSON mapping for {tp!r}")
    _encoders[tp] = enc
    return enc


def _fields(cls: type) -> list[tuple[str, Any, Any]]:
    """(name, type, default or MISSING) of a dataclass's fields that JSON Lines holds (not
    one whose metadata says ``written: False``), with types resolved."""
    hints = typing.get_type_hints(cls)
    out = []
    for f in dataclasses.fields(cls):
        if f.metadata.get("written") is False:  # a typed reading kept elsewhere verbatim
            continue
        if f.default is not dataclasses.MISSING:
            default: Any = f.default
        elif f.default_factory is not dataclasses.MISSING:
            default = f.default_factory()
        else:
            default = dataclasses.MISSING
        out.append((f.name, hints[f.name], default))
    return out


def _dataclass_encoder(cls: type) -> Encoder:
    plan = [(name, default, _encoder(tp)) for name, tp, default in _fields(cls)]

    def encode(obj: Any) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for name, default, enc in plan:
            v = getattr(obj, name)
            if v == default and default is not dataclasses.MISSING:
                continue
            out[name] = v if enc is None else enc(v)
        return out

    return encode


def _decoder(tp: Any) -> Decoder:
    """A function checking JSON data against ``tp`` and building the value."""
    if tp in _decoders:
        return _decoders[tp]
    tp0 = _base(tp)
    dec: Decoder
    if tp0 is Ruleset:
        dec = ruleset_from_dict
    elif tp is Tile:
        dec = _scalar(lambda v: type(v) is int and 0 <= v <= UNKNOWN, "a tile id 0..144 "
                      "(144: a tile nobody wrote down)")
    elif tp0 is bool:
        dec = _scalar(lambda v: isinstance(v, bool), "a boolean")
    elif tp0 is int:
        dec = _scalar(lambda v: isinstance(v, int) and not isinstance(v, bool), "an integer")
    elif tp0 is str or typing.get_origin(tp0) is typing.Literal:
        allowed = typing.get_args(tp0)
        dec = _scalar(lambda v: isinstance(v, str) and (not allowed or v in allowed),
                      f"one of {list(allowed)}" if allowed else "a string")
    elif tp0 is float:
        dec = _float
    elif _is_pairs(tp0):
        dec = _pairs
    elif (inner := _optional_arg(tp0)) is not None:
        dec = _optional(_decoder(inner))
    elif typing.get_origin(tp0) is tuple:
        dec = _tuple_of(_decoder(typing.get_args(tp0)[0]))
    elif isinstance(tp0, type) and dataclasses.is_dataclass(tp0):
        dec = _dataclass_decoder(tp0)
    else:
        raise TypeError(f"no JSON mapping for {tp!r}")
    _decoders[tp] = dec
    return dec


def _scalar(ok: Callable[[Any], bool], what: str) -> Decoder:
    def dec(v: Any, path: str) -> Any:
        if not ok(v):
            raise ConversionError(path, f"expected {what}, got {json.dumps(v)[:40]}")
        return v

    return dec


def _float(v: Any, path: str) -> float:
    if isinstance(v, bool) or not isinstance(v, int | float):
        raise ConversionError(path, f"expected a number, got {json.dumps(v)[:40]}")
    return float(v)


def _pairs(v: Any, path: str) -> tuple[tuple[str, str], ...]:
    if not isinstance(v, dict) or not all(isinstance(x, str) for x in v.values()):
        raise ConversionError(path, "expected an object of strings")
    return tuple(v.items())


def _optional(idec: Decoder) -> Decoder:
    def dec(v: Any, path: str) -> Any:
        return None if v is None else idec(v, path)

    return dec


def _tuple_of(idec: Decoder) -> Decoder:
    def dec(v: Any, path: str) -> tuple[Any, ...]:
        if not isinstance(v, list):
            raise ConversionError(path, f"expected an array, got {json.dumps(v)[:40]}")
        try:
            return tuple(idec(x, path) for x in v)
        except ConversionError:  # again, item by item with each one's path, to say where
            for i, x in enumerate(v):
                idec(x, f"{path}[{i}]")
            raise

    return dec


def _dataclass_decoder(cls: type) -> Decoder:
    """The decoder of a dataclass's JSON object. The path of a field is built only when
    something is wrong with it: the fields are decoded once without, and when one fails,
    again one by one with each field's path, for the error to say where."""
    plan = [(name, default, _decoder(tp)) for name, tp, default in _fields(cls)]
    allowed = frozenset({name for name, _, _ in plan} | {"type"})
    required = [name for name, default, _ in plan if default is dataclasses.MISSING]

    def decode(v: Any, path: str) -> Any:
        if not isinstance(v, dict):
            raise ConversionError(path, "expected an object")
        if not allowed.issuperset(v):
            extra = sorted(set(v) - allowed)
            raise ConversionError(path, f"unknown field(s) {', '.join(extra)}")
        try:
            kwargs = {name: dec(v[name], path) for name, _, dec in plan if name in v}
            faulty = len(kwargs) < len(plan) and any(name not in v for name in required)
        except ConversionError:
            faulty = True
        if faulty:  # the first field at fault, in order, with its path
            for name, default, dec in plan:
                if name in v:
                    dec(v[name], f"{path}.{name}")
                elif default is dataclasses.MISSING:
                    raise ConversionError(path, f"missing field {name!r}")
            raise AssertionError("a decoder failed once and not again")  # they are pure
        return cls(**kwargs)

    return decode


# ---------------------------------------------------------------- the ruleset

def ruleset_to_dict(rs: Ruleset) -> dict[str, Any]:
    """A ruleset as a flat JSON object: the options (flat names) that differ from a
    fresh ruleset of its family, in :data:`~mjlog.core.ruleset.OPTIONS` order."""
    fresh = Ruleset()
    out: dict[str, Any] = {}
    for name in OPTIONS:
        value = option_value(rs, name)
        if value is MISSING:
            continue
        default = option_value(fresh, name)
        if value != (option_default(name) if default is MISSING else default):
            out[name] = value
    return out


def ruleset_from_dict(v: Any, path: str) -> Ruleset:
    """The ruleset of a flat JSON object (:func:`ruleset_to_dict`); raises
    :class:`ConversionError` naming the option at fault."""
    if not isinstance(v, dict):
        raise ConversionError(path, "expected an object")
    values: dict[str, Any] = {}
    for name, value in v.items():
        if name not in OPTIONS:
            raise ConversionError(path, f"unknown field(s) {name}")
        values[name] = _decoder(option_type(name))(value, f"{path}.{name}")
    try:
        return from_flat(values)
    except TypeError as exc:
        raise ConversionError(path, str(exc)) from None


# ---------------------------------------------------------------- public API


def event_to_dict(ev: Event) -> dict[str, Any]:
    """The JSON object of one event (``type`` first, defaults left out)."""
    enc = _encoder(type(ev))
    assert enc is not None
    body: dict[str, Any] = enc(ev)
    return {"type": ev.TYPE, **body}


def event_from_dict(obj: Any, path: str = "$") -> Event:
    """Build an event from its JSON object; raises :class:`ConversionError` with a path."""
    if not isinstance(obj, dict):
        raise ConversionError(path, "expected an object")
    tag = obj.get("type")
    cls = EVENT_TYPES.get(tag) if isinstance(tag, str) else None
    if cls is None:
        raise ConversionError(f"{path}.type", f"unknown event type {tag!r}")
    event: Event = _decoder(cls)(obj, path)
    return event


def dumps(ev: Event) -> str:
    """One event as one line of compact JSON (no newline)."""
    return json.dumps(event_to_dict(ev), ensure_ascii=False, separators=(",", ":"))


def write_lines(events: Iterable[Event]) -> Iterator[str]:
    """Yield each event's JSON line, newline included.

    A draw's or a discard's line is written once per value met, then looked up (about
    four lines in ten of a game repeat one: a player drawing or discarding one tile).
    """
    lines: dict[Event, str] = {}
    for ev in events:
        if ev.__class__ in _COMMON:
            line = lines.get(ev)
            yield line if line is not None else jsontext.remember(lines, ev, _common_line(ev))
        else:
            yield dumps(ev) + "\n"


def _common_line(ev: Event) -> str:
    """The line (newline included) of a draw or a discard: :func:`dumps` of it, formatted
    directly when its fields hold plain ints and booleans, as every reader gives them."""
    player, tile = ev.player, ev.tile  # type: ignore[union-attr]
    plain = type(player) is int and type(tile) is int
    if plain and isinstance(ev, Draw) and type(ev.rinshan) is bool:
        flag = ',"rinshan":true' if ev.rinshan else ""
        return f'{{"type":"draw","player":{player},"tile":{tile}{flag}}}\n'
    if plain and isinstance(ev, Discard) and type(ev.riichi) is bool \
            and (ev.tsumogiri is None or type(ev.tsumogiri) is bool):
        said = "" if ev.tsumogiri is None else f',"tsumogiri":{str(ev.tsumogiri).lower()}'
        riichi = ',"riichi":true' if ev.riichi else ""
        return f'{{"type":"discard","player":{player},"tile":{tile}{said}{riichi}}}\n'
    return dumps(ev) + "\n"


_COMMON: frozenset[type] = frozenset({EVENT_TYPES["draw"], EVENT_TYPES["discard"]})
"""The kinds of event whose lines :func:`write_lines` and :func:`read_lines` remember."""


def read(data: bytes, path: str = "", *, strict: bool = False) -> list[GameRecord]:
    """Read mjlog JSON Lines: one or more games, each starting with ``game_start``.

    Blank lines are skipped. A line that is not valid JSON or not a valid event
    gives a diagnostic (line, column or JSON path) and is skipped; with
    ``strict`` it raises :class:`InputError`. Events before any ``game_start``
    are kept in a game of their own, with a diagnostic.
    """
    return list(read_lines(jsontext.text_lines(data), path, strict=strict))


def read_lines(lines: Iterable[tuple[int, str, Exception | None]], path: str = "", *,
               strict: bool = False) -> Iterator[GameRecord]:
    """:func:`read` over numbered lines (:func:`mjlog.formats.jsontext.text_lines` or
    :func:`mjlog.formats.jsontext.file_lines`), yielding each game as soon as the next begins, so
    that a file of many games is read one game at a time. A draw's or a discard's line
    seen before gives the event it gave then (events are immutable), unparsed."""
    rec: GameRecord | None = None
    pending: list[Diagnostic] = []
    known: dict[str, Event] = {}  # a short line read before: its (immutable) event
    for lineno, line, bad in lines:
        if bad is None and (ev := known.get(line)) is not None:
            d = None
        elif bad is None and (ev := _compact(line)) is not None:
            d = None
            jsontext.remember(known, line, ev)
        elif not line.strip() and bad is None:
            continue
        else:
            ev, d = _line_event(lineno, line, bad)
            if ev is not None and len(line) <= jsontext.SHORT_LINE and ev.__class__ in _COMMON:
                jsontext.remember(known, line, ev)
        if d is not None:
            if strict:
                raise InputError(d)
            (rec.diagnostics if rec is not None else pending).append(d)
            continue
        assert ev is not None
        if isinstance(ev, GameStart) or rec is None:
            if rec is not None:
                yield rec
            rec = GameRecord(path=path, format=FORMAT, position_kind="jsonl",
                             diagnostics=pending)
            pending = []
            if not isinstance(ev, GameStart):
                rec.diagnostics.append(Diagnostic(
                    code="no-game-start", message="events before any game_start",
                    severity=Severity.WARNING, src=Src(line=lineno)))
        rec.events.append(ev)
        rec.positions.append(lineno)
    if rec is not None:
        yield rec
    if pending or rec is None:
        yield GameRecord(path=path, format=FORMAT, diagnostics=pending, position_kind="jsonl")


_COMPACT = re.compile(
    r'\{"type":"(d(?:raw|iscard))","player":([0-3]),"tile":(0|[1-9][0-9]{0,2})'
    r'(?:,"(rinshan|tsumogiri)":(true|false))?(,"riichi":true)?\}')
"""A draw's or a discard's line exactly as :func:`dumps` writes it."""


def _compact(line: str) -> Event | None:
    """The event of a draw's or a discard's line as :func:`dumps` writes it (the same
    event :func:`event_from_dict` builds), or ``None`` for any other line, a tile id out
    of range included, which the general path then reads or rejects."""
    m = _COMPACT.fullmatch(line)
    if m is None:
        return None
    kind, player, tile, flag, value, riichi = m.groups()
    t = int(tile)
    if t > UNKNOWN:
        return None
    if kind == "draw":
        if riichi or flag == "tsumogiri":
            return None
        return draw_of(int(player), t, value == "true")
    if flag == "rinshan":
        return None
    return discard_of(int(player), t, None if value is None else value == "true",
                      riichi is not None)


def _line_event(lineno: int, line: str, bad: Exception | None
                ) -> tuple[Event | None, Diagnostic | None]:
    """One line's event, or the diagnostic that says why it has none."""
    try:
        if bad is not None:
            raise bad
        return event_from_dict(jsontext.loads(line)), None
    except UnicodeDecodeError as exc:
        return None, Diagnostic(code="bad-encoding", message=f"not UTF-8: {exc.reason}",
                                src=Src(line=lineno, column=exc.start + 1))
    except json.JSONDecodeError as exc:
        return None, Diagnostic(code="json-syntax", message=exc.msg,
                                src=Src(line=lineno, column=exc.colno))
    except jsontext.BadNumber as exc:  # NaN, 1e999, 10**30: the line's event is not read
        return None, Diagnostic(code="bad-value", message=str(exc),
                                src=Src(line=lineno, path=exc.path))
    except ConversionError as exc:
        return None, Diagnostic(code="bad-event", message=str(exc).split(": ", 1)[-1],
                                src=Src(line=lineno, path=exc.path))
    except jsontext.LineTooLong as exc:
        return None, Diagnostic(code="too-large", message=str(exc), src=Src(line=lineno))

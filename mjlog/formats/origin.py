"""Where and when a game was played: its :class:`~mjlog.core.events.Origin`, from the facts a
record keeps verbatim.

Every reader's game start carries an origin (:attr:`mjlog.core.events.GameStart.origin`):
statistics (the ``games`` table's id, date, platform and room) and the wall check (the
shuffle seed) read it and look up no metadata key. The platforms' own keys are read
here and nowhere else:

=====================  ==========================================================
platform               what names the game, when, where
=====================  ==========================================================
Tenhou (XML)           ``go.type`` (level bits), ``go.lobby``, ``shuffle.seed``;
                       the log id from the file name (``2016010100gm-…``)
tenhou.net/6           ``tenhou6.ref`` (a log id), ``tenhou6.rule`` (``disp``: the
                       table, ``鳳南喰赤``, or a Mahjong Soul room's name)
Mahjong Soul           ``majsoul.uuid``, ``majsoul.start_time``, ``majsoul.room``;
                       a uuid in a file name (``250113-20340fc8-…``)
Riichi City            ``riichicity.keyValue``, ``riichicity.nowTime``,
                       ``riichicity.gamePlay`` (ranked, tournament, friends')
M-League               ``mleague.id``
=====================  ==========================================================

A reader of a platform's own record fills the same keys into ``meta`` (so that JSON
Lines and notation keep them) and calls :func:`origin_of` on them; a reader of a format
that carries another's metadata verbatim (JSON Lines, notation) does the same, so that a
converted game keeps its origin. What it does not do: check that an id or date is
real (a date that does not exist is no date), or read anything but the game start.
"""

from __future__ import annotations

import json
import os
import re
from dataclasses import replace
from datetime import UTC, datetime
from typing import Any, Final

from mjlog.core.events import GameStart, Origin, Pairs, Published, RoundStart
from mjlog.core.record import GameRecord

_MAJSOUL_ID: Final = re.compile(r"(\d{2})(\d{2})(\d{2})-[0-9a-f]{8}-[0-9a-f-]+")
"""A Mahjong Soul game uuid (``250113-20340fc8-…``): its date comes first."""
_ROOM_BY_LEVEL: Final = {0x00: "ippan", 0x80: "joukyuu", 0x20: "tokujou", 0xA0: "houou"}
_ROOM_BY_TABLE: Final = {"般": "ippan", "上": "joukyuu", "特": "tokujou", "鳳": "houou"}
"""Tenhou's rooms by the first letter of a table code (``鳳南喰赤``)."""
_TENHOU_TABLE: Final = re.compile(r"三?[般上特鳳技若銀琥孔][東南]喰?赤?速?")
_RIICHI_CITY_ROOMS: Final = {"1001": "段位戦", "1002": "大会戦", "1003": "友人戦"}
"""Riichi City's kinds of game (``gamePlay``): ranked, tournament, friends'."""
_HEX: Final = "0123456789abcdef"
_GM: Final = "gm-"
"""What follows the date and hour in a Tenhou log id."""

LogId = tuple[str, str, datetime | None]
"""Whose id, the id, and the date it gives (if any)."""


def origin_of(meta: Pairs, *, source: str, ruleset_name: str, path: str) -> Origin:
    """The origin of a game whose start has ``meta``, comes from ``source`` (a format's
    name), suggests the ruleset ``ruleset_name`` and was read from ``path``. Raises
    nothing: an id whose date does not exist gives no id and says why (``bad_date``)."""
    keys = dict(meta)
    try:
        log, bad_date = _log_id(path, keys), None
    except ValueError as exc:  # an id that names a day that does not exist
        log, bad_date = None, str(exc)
    disp = _disp(keys)
    go = keys.get("go.type", "")
    lobby_type = int(go) if go.isascii() and go.isdigit() else None
    return Origin(
        platform=_platform(source, ruleset_name, keys, log, disp),
        game_id=f"{log[0]}:{log[1]}" if log else None, date=log[2] if log else None,
        room=_room(ruleset_name, keys, lobby_type, disp), lobby_type=lobby_type,
        shuffle_seed=keys.get("shuffle.seed"), bad_date=bad_date)


def of_start(start: GameStart, path: str) -> Origin:
    """A game start's origin: its reader's, else (a game start made by no reader)
    :func:`origin_of` its metadata."""
    if start.origin is not None:
        return start.origin
    return origin_of(start.meta, source=start.source, ruleset_name=start.ruleset.name,
                     path=path)


def with_origin(record: GameRecord) -> GameRecord:
    """``record`` with its game start given its origin where its reader gave none, and,
    in a format that keeps another's metadata verbatim (JSON Lines, notation), each round
    start its published wall (in place; the record is returned)."""
    events = record.events
    if events and isinstance(events[0], GameStart) and events[0].origin is None:
        events[0] = replace(events[0], origin=of_start(events[0], record.path))
    if record.format in VERBATIM:
        for i, ev in enumerate(events):
            if type(ev) is RoundStart and ev.extra and ev.published is None:
                published = published_of(ev.extra)
                if published is not None:
                    events[i] = replace(ev, published=published)
    return record


VERBATIM: Final = frozenset({"jsonl", "notation"})
"""The formats that keep the metadata of a game read from another verbatim."""


def published_of(extra: Pairs) -> Published | None:
    """The wall a round start's ``extra`` keeps as its platform published it
    (``riichicity.handCardEncode`` and ``handCardsSHA256``, or ``majsoul.paishan``,
    ``md5``, ``sha256``, ``salt`` and ``saltSha256``), or ``None``."""
    keys = dict(extra)
    if "riichicity.handCardEncode" in keys:
        return Published(platform="riichicity", wall=keys["riichicity.handCardEncode"],
                         sha256=keys.get("riichicity.handCardsSHA256"))
    if "majsoul.paishan" in keys:
        return Published(platform="majsoul", wall=keys["majsoul.paishan"],
                         md5=keys.get("majsoul.md5"), sha256=keys.get("majsoul.sha256"),
                         salt=keys.get("majsoul.salt"),
                         salt_sha256=keys.get("majsoul.saltSha256"))
    return None


def round_published(rs: RoundStart) -> Published | None:
    """A round start's published wall: its reader's, else (a round start made by no
    reader) :func:`published_of` its ``extra``."""
    return rs.published if rs.published is not None else published_of(rs.extra)


def _json_meta(meta: dict[str, str], key: str) -> Any:
    """A tenhou.net/6 or mjai field kept verbatim (JSON) in a game start's metadata."""
    try:
        return json.loads(meta[key]) if key in meta else None
    except ValueError:
        return None


def _log_id(path: str, meta: dict[str, str]) -> LogId | None:
    """The platform's own id of a game (platform, id, date): a platform's own record's,
    else from a tenhou.net/6 ``ref`` or the file name."""
    own = _own_id(meta)
    if own is not None:
        return own
    ref = _json_meta(meta, "tenhou6.ref")
    for text in (ref if isinstance(ref, str) else "", os.path.basename(path)):
        if not text:
            continue
        tenhou = tenhou_id(text)
        if tenhou is not None:
            return "tenhou", *tenhou
        m = _MAJSOUL_ID.match(text)
        if m:
            return "majsoul", m[0], datetime(2000 + int(m[1]), int(m[2]), int(m[3]))
    return None


def tenhou_id(text: str) -> tuple[str, datetime] | None:
    """The first Tenhou log id in ``text`` (``2016010100gm-00a9-0000-0123abcd``: ten
    digits, the date and hour, then ``gm-`` and three groups of lowercase hex digits), with
    its date and hour. Raises ``ValueError`` for a date that does not exist.

    Found with string methods, not a regular expression: met cold after each file is
    read, a regular expression search cost more than all of a game's other columns."""
    at = text.find(_GM, 10)
    while at != -1:
        found = text[at - 10:at + 21]
        if (len(found) == 31 and found[:10].isdecimal() and found[17] == found[22] == "-"
                and not (found[13:17] + found[18:22] + found[23:]).strip(_HEX)):
            return found, datetime(int(found[:4]), int(found[4:6]), int(found[6:8]),
                                   int(found[8:10]))
        at = text.find(_GM, at + 1)
    return None


def _own_id(meta: dict[str, str]) -> LogId | None:
    """The id a platform's own record gives its game: Mahjong Soul's uuid (with the game's
    start time), Riichi City's key, M-League's game id."""
    if "majsoul.uuid" in meta:
        start = meta.get("majsoul.start_time", "")
        when = datetime.fromtimestamp(int(start), UTC).replace(tzinfo=None) \
            if start.isdigit() else None
        return "majsoul", meta["majsoul.uuid"], when
    if "riichicity.keyValue" in meta:
        now = meta.get("riichicity.nowTime", "")
        when = datetime.fromtimestamp(int(now), UTC).replace(tzinfo=None) \
            if now.isdigit() else None
        return "riichicity", meta["riichicity.keyValue"], when
    if "mleague.id" in meta:
        return "mleague", meta["mleague.id"], None
    return None


def _disp(meta: dict[str, str]) -> str:
    """A tenhou.net/6 record's ``rule.disp`` (``鳳南喰赤``, a room's or a title's name), or ""."""
    rule = _json_meta(meta, "tenhou6.rule")
    return str(rule.get("disp", "")) if isinstance(rule, dict) else ""


def _room(ruleset_name: str, meta: dict[str, str], go_type: int | None, disp: str
          ) -> str | None:
    """Tenhou's room (``ippan`` … ``houou``, ``lobby-N``), a Mahjong Soul room's name, or None."""
    if go_type is not None:
        lobby = meta.get("go.lobby", "0")
        if lobby not in ("", "0"):
            return f"lobby-{lobby}"
        return _ROOM_BY_LEVEL.get(go_type & 0xA0, "ippan")
    if _TENHOU_TABLE.fullmatch(disp):
        return _ROOM_BY_TABLE.get(disp.lstrip("三")[:1])
    if ruleset_name.startswith("majsoul") and disp:
        return disp
    return meta.get("majsoul.room") or _RIICHI_CITY_ROOMS.get(meta.get("riichicity.gamePlay", ""))


def _platform(source: str, ruleset_name: str, meta: dict[str, str], log: LogId | None,
              disp: str) -> str | None:
    """Where the game was played, when the record says: ``tenhou``, ``majsoul``, or None."""
    if source == "tenhou_xml" or "go.type" in meta:
        return "tenhou"
    if ruleset_name.startswith("majsoul"):
        return "majsoul"
    if source in ("riichicity", "mleague"):
        return source
    if log is not None:
        return log[0]
    return "tenhou" if _TENHOU_TABLE.fullmatch(disp) else None

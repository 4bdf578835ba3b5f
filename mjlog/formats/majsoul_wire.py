"""Mahjong Soul's own record in its binary form: the protobuf messages, decoded here.

A record downloader saves either the whole answer to a record request
(``ResGameRecord``: the game's ``head`` and its ``data``) or only the
``data``: a ``Wrapper`` (``name`` ``.lq.GameDetailRecords``, ``data``) whose
messages are wrappers too. This module decodes the protobuf wire format with
a table of the fields mjlog reads (field number, name, kind), taken from the
public description of the protocol, into the very shape the JSON form has;
:mod:`mjlog.formats.majsoul` then reads it. Fields it does not list are
passed over, as protobuf readers do. It ships no descriptor and does no file
I/O.
"""

from __future__ import annotations

from typing import Any, Final

Field = tuple[str, str, bool]
"""A field: its name, its kind (``u`` unsigned, ``i`` signed 32-bit, ``b`` bool, ``s``
string, ``w`` a wrapped message, or a message's name) and whether it repeats."""

_NUMBERS: Final = frozenset("uib")
_R = True

SCHEMA: Final[dict[str, dict[int, Field]]] = {
    "ResGameRecord": {3: ("head", "RecordGame", False), 4: ("data", "w", False)},
    "Wrapper": {1: ("name", "s", False), 2: ("data", "y", False)},
    "RecordGame": {1: ("uuid", "s", False), 2: ("start_time", "u", False),
                   3: ("end_time", "u", False), 5: ("config", "GameConfig", False),
                   11: ("accounts", "AccountInfo", _R), 12: ("result", "GameEndResult", False)},
    "GameConfig": {1: ("category", "u", False), 2: ("mode", "GameMode", False),
                   3: ("meta", "GameMetaData", False)},
    "GameMode": {1: ("mode", "u", False), 6: ("detail_rule", "GameDetailRule", False)},
    "GameDetailRule": {3: ("dora_count", "u", False), 5: ("init_point", "u", False),
                       6: ("fandian", "u", False), 34: ("shunweima_2", "i", False),
                       35: ("shunweima_3", "i", False), 36: ("shunweima_4", "i", False)},
    "GameMetaData": {1: ("room_id", "u", False), 2: ("mode_id", "u", False),
                     3: ("contest_uid", "u", False)},
    "AccountInfo": {1: ("account_id", "u", False), 2: ("seat", "u", False),
                    3: ("nickname", "s", False), 7: ("level", "AccountLevel", False),
                    8: ("level3", "AccountLevel", False)},
    "AccountLevel": {1: ("id", "u", False), 2: ("score", "u", False)},
    "GameEndResult": {1: ("players", "PlayerItem", _R)},
    "PlayerItem": {1: ("seat", "u", False), 2: ("total_point", "i", False),
                   3: ("part_point_1", "i", False), 4: ("part_point_2", "i", False),
                   5: ("grading_score", "i", False), 6: ("gold", "i", False)},
    "GameDetailRecords": {1: ("records", "w", _R), 2: ("version", "u", False),
                          3: ("actions", "GameAction", _R)},
    "GameAction": {1: ("passed", "u", False), 2: ("type", "u", False),
                   3: ("result", "w", False), 6: ("game_event", "u", False)},
    "RecordNewRound": {1: ("chang", "u", False), 2: ("ju", "u", False),
                       3: ("ben", "u", False), 4: ("dora", "s", False),
                       5: ("scores", "i", _R), 6: ("liqibang", "u", False),
                       7: ("tiles0", "s", _R), 8: ("tiles1", "s", _R), 9: ("tiles2", "s", _R),
                       10: ("tiles3", "s", _R), 13: ("md5", "s", False),
                       14: ("paishan", "s", False), 15: ("left_tile_count", "u", False),
                       16: ("doras", "s", _R), 22: ("sha256", "s", False),
                       24: ("saltSha256", "s", False), 25: ("salt", "s", False)},
    "RecordDealTile": {1: ("seat", "u", False), 2: ("tile", "s", False),
                       3: ("left_tile_count", "u", False), 5: ("liqi", "LiQiSuccess", False),
                       6: ("doras", "s", _R)},
    "RecordDiscardTile": {1: ("seat", "u", False), 2: ("tile", "s", False),
                          3: ("is_liqi", "b", False), 5: ("moqie", "b", False),
                          8: ("doras", "s", _R), 9: ("is_wliqi", "b", False)},
    "RecordChiPengGang": {1: ("seat", "u", False), 2: ("type", "u", False),
                          3: ("tiles", "s", _R), 4: ("froms", "u", _R),
                          5: ("liqi", "LiQiSuccess", False)},
    "RecordAnGangAddGang": {1: ("seat", "u", False), 2: ("type", "u", False),
                            3: ("tiles", "s", False), 6: ("doras", "s", _R)},
    "RecordBaBei": {1: ("seat", "u", False), 6: ("doras", "s", _R), 8: ("moqie", "b", False)},
    "RecordHule": {1: ("hules", "HuleInfo", _R), 2: ("old_scores", "i", _R),
                   3: ("delta_scores", "i", _R), 5: ("scores", "i", _R),
                   9: ("baopai", "i", False)},
    "HuleInfo": {1: ("hand", "s", _R), 2: ("ming", "s", _R), 3: ("hu_tile", "s", False),
                 4: ("seat", "u", False), 5: ("zimo", "b", False), 6: ("qinjia", "b", False),
                 7: ("liqi", "b", False), 8: ("doras", "s", _R), 9: ("li_doras", "s", _R),
                 10: ("yiman", "b", False), 11: ("count", "u", False),
                 12: ("fans", "FanInfo", _R), 13: ("fu", "u", False),
                 15: ("point_rong", "u", False), 16: ("point_zimo_qin", "u", False),
                 17: ("point_zimo_xian", "u", False), 18: ("title_id", "u", False),
                 19: ("point_sum", "u", False)},
    "FanInfo": {1: ("name", "s", False), 2: ("val", "u", False), 3: ("id", "u", False)},
    "RecordNoTile": {1: ("liujumanguan", "b", False), 2: ("players", "NoTilePlayerInfo", _R),
                     3: ("scores", "NoTileScoreInfo", _R), 4: ("gameend", "b", False)},
    "NoTilePlayerInfo": {3: ("tingpai", "b", False), 4: ("hand", "s", _R)},
    "NoTileScoreInfo": {1: ("seat", "u", False), 2: ("old_scores", "i", _R),
                        3: ("delta_scores", "i", _R)},
    "RecordLiuJu": {1: ("type", "u", False), 3: ("seat", "u", False), 4: ("tiles", "s", _R),
                    5: ("liqi", "LiQiSuccess", False)},
    "LiQiSuccess": {1: ("seat", "u", False), 2: ("score", "i", False),
                    3: ("liqibang", "u", False)},
}
"""The fields of the messages mjlog reads, by message and field number."""

WRAPPER_START: Final = b"\n\x15.lq.GameDetailRecords"
"""How the ``data`` blob alone starts: field 1 (the name) of a ``Wrapper``."""


class WireError(ValueError):
    """Bytes that are not the protobuf message expected; ``offset`` is where."""

    def __init__(self, offset: int, message: str) -> None:
        super().__init__(f"{message} at byte {offset}")
        self.offset = offset


def looks_like(data: bytes) -> bool:
    """Whether bytes are Mahjong Soul's record in binary: the ``data`` blob, or a record
    answer whose ``head`` comes first (field 3) and names the game's messages."""
    return data.startswith(WRAPPER_START) or (
        data[:1] == b"\x1a" and b".lq.GameDetailRecords" in data[:65536])


def decode_record(data: bytes) -> dict[str, Any]:
    """The record in the JSON form's shape: ``{"head": ..., "data": {"name", "data"}}``
    (``head`` empty for the ``data`` blob alone). Raises :class:`WireError`."""
    if data.startswith(WRAPPER_START):
        return {"head": {}, "data": decode(data, "Wrapper", 0, len(data), wrapped=True)}
    out = decode(data, "ResGameRecord", 0, len(data))
    return {"head": out.get("head", {}), "data": out.get("data", {})}


def decode(data: bytes, message: str, start: int, end: int,
           wrapped: bool = False) -> dict[str, Any]:
    """One message of ``data[start:end]`` as a dict of the fields :data:`SCHEMA` lists
    (a ``Wrapper`` with its ``data`` decoded as the message its name gives)."""
    fields = SCHEMA[message]
    out: dict[str, Any] = {}
    at = start
    while at < end:
        if message == "GameDetailRecords":  # keep the messages before any damage
            try:
                at = _field(out, fields, data, at, end)
            except WireError as exc:
                out["damage"] = exc
                return out
            continue
        at = _field(out, fields, data, at, end, cut_ok=message in _CUT_OK)
    if at != end:
        raise WireError(at, "a field runs past its message")
    if wrapped or message == "Wrapper":
        name = str(out.get("name", ""))
        inner = SCHEMA.get(name.removeprefix(".lq."))
        raw = out.get("data", b"")
        out["data"] = decode(raw, name.removeprefix(".lq."), 0, len(raw)) \
            if inner is not None and isinstance(raw, bytes) else {}
    return out


_CUT_OK: Final = frozenset({"ResGameRecord", "Wrapper"})
"""The envelopes whose data, cut short (a download that stopped), is read as far as it
goes: the game's messages inside are kept up to the cut."""


def _field(out: dict[str, Any], fields: dict[int, Field], data: bytes, at: int,
           end: int, cut_ok: bool = False) -> int:
    """Decode the field at ``at`` into ``out`` (when it is one ``fields`` lists) and
    return where the next one starts; with ``cut_ok`` a field cut short by the end is
    decoded as far as it goes."""
    tag, at = _varint(data, at, end)
    number, wire = tag >> 3, tag & 7
    field = fields.get(number)
    if wire == 0:
        value, at = _varint(data, at, end)
        if field is not None:
            _store(out, field, _number(value, field[1]))
    elif wire == 2:
        size, at = _varint(data, at, end)
        if at + size > end:
            if not (cut_ok and field is not None and field[1] in "wy"):
                raise WireError(at, "a field runs past its message")
            size = end - at
        if field is not None:
            _length_delimited(out, field, data, at, at + size)
        at += size
    elif wire in (1, 5):
        at += 8 if wire == 1 else 4
    else:
        raise WireError(at, f"wire type {wire} is not one a record uses")
    return at


def _length_delimited(out: dict[str, Any], field: Field, data: bytes, start: int,
                      end: int) -> None:
    kind = field[1]
    if kind == "s":
        _store(out, field, data[start:end].decode("utf-8", "replace"))
    elif kind == "y":
        _store(out, field, data[start:end])
    elif kind == "w":
        _store(out, field, decode(data, "Wrapper", start, end))
    elif kind in _NUMBERS:  # a packed repeated number
        at = start
        while at < end:
            value, at = _varint(data, at, end)
            _store(out, field, _number(value, kind))
    else:
        _store(out, field, decode(data, kind, start, end))


def _store(out: dict[str, Any], field: Field, value: Any) -> None:
    name, _kind, repeated = field
    if repeated:
        out.setdefault(name, []).append(value)
    else:
        out[name] = value


def _number(value: int, kind: str) -> int | bool:
    if kind == "b":
        return value != 0
    if kind == "i" and value >= 1 << 63:  # a negative int32 is ten bytes long
        return value - (1 << 64)
    return value


def _varint(data: bytes, at: int, end: int) -> tuple[int, int]:
    value = shift = 0
    while True:
        if at >= end:
            raise WireError(at, "a number runs past its message")
        byte = data[at]
        at += 1
        value |= (byte & 0x7F) << shift
        if byte < 0x80:
            return value, at
        shift += 7
        if shift > 63:
            raise WireError(at, "a number longer than ten bytes")

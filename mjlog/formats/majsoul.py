"""Mahjong Soul's own record: ``GameDetailRecords`` decoded to JSON.

Browser scripts and record downloaders save a game as::

    {"head": {"uuid", "start_time", "end_time", "config": {"category",
              "mode": {"mode", "detail_rule"}, "meta": {"mode_id"}},
              "accounts": [{"seat", "nickname", "level", ...}],
              "result": {"players": [{"seat", "part_point_1", "total_point", ...}]}},
     "data": {"name": ".lq.GameDetailRecords",
              "data": {"version": 210715, "actions": [...]}}}

Version 210715 lists ``actions``: ``{"type": 1, "result": {"name", "data"}}``
holds one of the game's messages; types 2, 3 and 4 are player inputs, client
events and game events, which mjlog does not keep (it counts them in the game
start's meta). Version 0 lists the same messages directly as ``records``.
The messages (``.lq.`` prefix optional) are ``RecordNewRound``,
``RecordDealTile``, ``RecordDiscardTile``, ``RecordChiPengGang``,
``RecordAnGangAddGang``, ``RecordBaBei``, ``RecordHule``, ``RecordNoTile`` and
``RecordLiuJu``; ``docs/formats.md`` describes their fields as mjlog reads
them. Tiles are mpsz strings (``0m`` a red five).

A round's wall (``paishan``) and its commitment (``md5``, or ``sha256`` with
the ``salt`` revealed after the game) are kept verbatim in the round start's
``extra`` (``majsoul.*``); :mod:`mjlog.wall.published` proves the round's
tiles from them. Yaku are Mahjong Soul's ids (:data:`FAN_IDS`).

Problems give diagnostics with a JSON path; what was read before them is
kept. The binary protobuf form is decoded by :mod:`mjlog.formats.majsoul_wire` into
this shape (:func:`read_binary`), and so is the binary form lobby clients save as
a Node.js ``Buffer`` (``{"head", "data": {"type": "Buffer", "data": [bytes…]}}``).
A record that states no rules (no ``detail_rule``: the binary form alone) is read
with red fives only if a round's wall or deal shows one, and a note says so. This
module does no file I/O.
"""

from __future__ import annotations

import json
import re
from typing import Any, Final

from mjlog.core.diagnostics import Severity
from mjlog.core.events import (
    ABORTIVE_KINDS,
    AbortiveDraw,
    AddedKan,
    Chi,
    ClosedKan,
    Discard,
    DoraReveal,
    Draw,
    Event,
    ExhaustiveDraw,
    GameEnd,
    GameStart,
    Kita,
    OpenKan,
    Pairs,
    PlayerInfo,
    Pon,
    Published,
    RiichiAccepted,
    RoundEnd,
    RoundStart,
    Win,
    YakuClaim,
)
from mjlog.core.record import GameRecord
from mjlog.core.ruleset import PRESETS, Ruleset
from mjlog.core.tiles import KIND_OF, RED_FIVE_IDS, Kind, Tile, TileError, parse_kinds
from mjlog.formats.kinds import Meld, limit_of, meld_tiles, winning_hand
from mjlog.formats.majsoul_wire import WRAPPER_START, WireError, decode, decode_record
from mjlog.formats.origin import origin_of
from mjlog.formats.platform import MALFORMED, BadValue, JsonReader, Tiles, load

FORMAT = "majsoul"
DIAGNOSTIC_CODES: Final = frozenset({
    "bad-encoding", "json-syntax", "bad-value", "not-a-game", "unknown-message", "unknown-variant",
    "binary-syntax", "red-fives-inferred",
    "unknown-yaku", "no-result",
})
"""Codes of the diagnostics :func:`read` gives."""

_SIGNATURE = re.compile(rb'^\{\s*"head"\s*:\s*\{\s*"uuid"\s*:')

FAN_IDS: Final[dict[int, str]] = {
    1: "menzen-tsumo", 2: "riichi", 3: "chankan", 4: "rinshan-kaihou", 5: "haitei",
    6: "houtei", 7: "haku", 8: "hatsu", 9: "chun", 12: "tanyao", 13: "iipeikou",
    14: "pinfu", 15: "chanta", 16: "ittsu", 17: "sanshoku", 18: "double-riichi",
    19: "sanshoku-doukou", 20: "sankantsu", 21: "toitoi", 22: "sanankou", 23: "shousangen",
    24: "honroutou", 25: "chiitoitsu", 26: "junchan", 27: "honitsu", 28: "ryanpeikou",
    29: "chinitsu", 30: "ippatsu", 31: "dora", 32: "aka-dora", 33: "ura-dora",
    34: "kita-dora", 35: "tenhou", 36: "chiihou", 37: "daisangen", 38: "suuankou",
    39: "tsuuiisou", 40: "ryuuiisou", 41: "chinroutou", 42: "kokushi", 43: "shousuushii",
    44: "suukantsu", 45: "chuuren-poutou", 47: "junsei-chuuren-poutou",
    48: "suuankou-tanki", 49: "kokushi-13", 50: "daisuushii", 59: "renhou",
}
"""Mahjong Soul's yaku ids (``fans[].id``) to mjlog's names; 10 and 11 (seat and round
wind) name the wind by the winner's seat and the round."""
_SEAT_WIND_FAN: Final = 10
_ROUND_WIND_FAN: Final = 11
_WINDS: Final = ("east", "south", "west", "north")

LIUJU_KINDS: Final[dict[int, str]] = {1: "nine-terminals", 2: "four-winds", 3: "four-kans",
                                      4: "four-riichi", 5: "triple-ron"}
"""``RecordLiuJu.type`` to mjlog's abortive draw kinds."""

ROOMS: Final[dict[int, str]] = {
    2: "銅の間 東", 3: "銅の間 南", 5: "銀の間 東", 6: "銀の間 南", 8: "金の間 東",
    9: "金の間 南", 11: "玉の間 東", 12: "玉の間 南", 15: "王座の間 東", 16: "王座の間 南",
    17: "銅の間 三人東", 18: "銅の間 三人南", 19: "銀の間 三人東", 20: "銀の間 三人南",
    21: "金の間 三人東", 22: "金の間 三人南", 23: "玉の間 三人東", 24: "玉の間 三人南",
    25: "王座の間 三人東", 26: "王座の間 三人南",
}
"""Ranked rooms by ``config.meta.mode_id``, as the client names them."""

_RANKS: Final = ("初心", "雀士", "雀傑", "雀豪", "雀聖", "魂天")

_MODES: Final[dict[int, tuple[int, str]]] = {
    1: (4, "east"), 2: (4, "south"), 3: (4, "one-round"), 11: (3, "east"), 12: (3, "south"),
    13: (3, "one-round"),
}
"""``config.mode.mode``: players and length."""

MESSAGES: Final = ("RecordNewRound", "RecordDealTile", "RecordDiscardTile",
                   "RecordChiPengGang", "RecordAnGangAddGang", "RecordBaBei", "RecordHule",
                   "RecordNoTile", "RecordLiuJu")


def looks_like(start: bytes) -> bool:
    """Whether the start of a file is Mahjong Soul's record as JSON (a ``head`` object
    with a game ``uuid`` first, the ``GameDetailRecords`` name, or a ``head`` beside
    messages named by ``__type`` as lobby clients save it)."""
    return _SIGNATURE.match(start) is not None or (start.lstrip().startswith(b"{") and (
        b'".lq.GameDetailRecords"' in start
        or (b'"head"' in start and (_CLIENT.search(start) is not None
                                    or _BUFFER.search(start) is not None))))


def read(data: bytes, path: str = "", *, strict: bool = False) -> list[GameRecord]:
    """Read one game. Problems give diagnostics with a JSON path; what was read before
    them is kept. With ``strict`` the first error raises :class:`InputError`."""
    reader = _Reader(path, strict)
    ok, doc = load(data, reader)
    if not ok:
        return [reader.rec]
    try:
        reader.game(doc)
    except (BadValue, *MALFORMED) as exc:
        reader.bad(exc, "$")
    return [reader.rec]


def read_binary(data: bytes, path: str = "", *, strict: bool = False) -> list[GameRecord]:
    """Read one game from Mahjong Soul's binary record (:mod:`mjlog.formats.majsoul_wire`):
    the answer to a record request, or its ``data`` alone (then without players' names
    and rules). Damaged bytes give a ``binary-syntax`` diagnostic at their offset; the
    messages before the damage are read. Positions are JSON paths into the decoded
    messages."""
    reader = _Reader(path, strict)
    try:
        doc = decode_record(data)
    except WireError as exc:
        reader.diag("binary-syntax", f"not Mahjong Soul's record: {exc}")
        return [reader.rec]
    inner = doc["data"].get("data") if isinstance(doc.get("data"), dict) else None
    damage = inner.pop("damage", None) if isinstance(inner, dict) else None
    try:
        reader.game(doc)
    except (BadValue, *MALFORMED) as exc:
        reader.bad(exc, "$")
    if damage is not None:
        reader.diag("binary-syntax", f"{damage} (counted in the game's messages): the "
                    "messages before it are read")
    return [reader.rec]


def _client_records(doc: Any) -> list[tuple[str, str, Any]] | None:
    """The messages of a record as lobby clients save it: a top-level ``records`` list of
    messages, each named by its ``__type`` (or ``_type``) with its fields beside it (the
    binary ``data`` Buffer beside them holds the same messages); None for other shapes."""
    records = doc.get("records") if isinstance(doc, dict) else None
    if not isinstance(records, list) or not records or not all(
            isinstance(r, dict) and isinstance(r.get("__type", r.get("_type")), str)
            for r in records):
        return None
    return [(f"$.records[{i}]", str(r.get("__type", r.get("_type"))),
             {k: v for k, v in r.items() if k not in ("__type", "_type")})
            for i, r in enumerate(records)]


_CLIENT: Final = re.compile(rb'"_{1,2}type"\s*:\s*"(?:\.lq\.)?Record')
"""A lobby client's saved record: messages named by ``__type`` (or ``_type``)."""
_BUFFER: Final = re.compile(rb'"data"\s*:\s*\{\s*"type"\s*:\s*"Buffer"\s*,\s*"data"\s*:\s*\[')
"""A lobby client's saved record whose messages are its binary form alone, a Node.js
``Buffer`` as JSON."""


def _buffer(doc: Any) -> bytes | None:
    """The bytes of a Node.js ``Buffer`` saved as ``doc["data"]`` (``{"type": "Buffer",
    "data": [bytes…]}``); None for any other shape or a list that is not bytes."""
    data = doc.get("data") if isinstance(doc, dict) else None
    if not isinstance(data, dict) or data.get("type") != "Buffer":
        return None
    values = data.get("data")
    if not isinstance(values, list) or not all(
            type(v) is int and 0 <= v < 256 for v in values):
        return None
    return bytes(values)


def _rules_stated(head: dict[str, Any]) -> bool:
    """Whether a record's head states its table's rules (``config.mode.detail_rule``)."""
    config = head.get("config")
    mode = config.get("mode") if isinstance(config, dict) else None
    return isinstance(mode, dict) and isinstance(mode.get("detail_rule"), dict)


def _red_shown(messages: list[tuple[str, str, Any]]) -> bool | None:
    """Whether a round's wall (``paishan``) or deal (``tiles0``..``tiles3``) holds a red
    five (``0m``, ``0p``, ``0s``); None when no round shows its wall."""
    walls = [data for _, name, data in messages
             if name.removeprefix(".lq.") == "RecordNewRound" and isinstance(data, dict)
             and isinstance(data.get("paishan"), str)]
    if not walls:
        return None
    return any(_RED.search(w["paishan"]) or any(
        isinstance(t, str) and t.startswith("0")
        for k in ("tiles0", "tiles1", "tiles2", "tiles3") for t in w.get(k) or ())
        for w in walls)


_RED: Final = re.compile(r"0[mps]")



def _published(data: dict[str, Any]) -> Published | None:
    """The wall a round publishes (``paishan``) with its commitment, or ``None``: the
    typed twin of the ``majsoul.*`` keys the round start's ``extra`` keeps."""
    def text(key: str) -> str | None:
        return None if data.get(key) in (None, "") else str(data[key])

    wall = text("paishan")
    if wall is None:
        return None
    return Published(platform="majsoul", wall=wall, md5=text("md5"), sha256=text("sha256"),
                     salt=text("salt"), salt_sha256=text("saltSha256"))

def _tile(value: Any, path: str) -> tuple[Kind, bool]:
    """``(kind, red)`` of one mpsz tile string."""
    if not isinstance(value, str):
        raise BadValue(path, f"{value!r} is not a tile")
    try:
        kinds = parse_kinds(value)
    except TileError as exc:
        raise BadValue(path, str(exc)) from None
    if len(kinds) != 1 or kinds[0][0] >= 34:
        raise BadValue(path, f"{value!r} is not one tile")
    return kinds[0]


def _ints(value: Any, path: str, n: int) -> tuple[int, ...]:
    if not isinstance(value, list) or len(value) < n or not all(
            isinstance(x, int) for x in value[:n]):
        raise BadValue(path, f"expected a list of {n} integers")
    return tuple(value[:n])


def _rank(level: Any) -> str:
    """The rank a ``level`` object names (``{"id": 10402}`` is 雀豪2), ``""`` if none."""
    if not isinstance(level, dict) or not isinstance(level.get("id"), int):
        return ""
    major, minor = divmod(level["id"] % 10000, 100)
    return f"{_RANKS[major - 1]}{minor}" if 1 <= major <= len(_RANKS) else ""


def ruleset_of(head: dict[str, Any]) -> Ruleset:
    """The ruleset a record's head suggests: the ``majsoul`` preset (or ``majsoul-sanma``)
    for the players and length of ``config.mode.mode``, with what a room's
    ``detail_rule`` states (starting and return score, red fives, uma)."""
    config = head.get("config") if isinstance(head.get("config"), dict) else {}
    mode = config.get("mode") if isinstance(config, dict) else None
    mode = mode if isinstance(mode, dict) else {}
    players, length = _MODES.get(mode.get("mode", 2), (4, "south"))
    base = PRESETS["majsoul-sanma" if players == 3 else "majsoul"]
    options: dict[str, Any] = {}
    if length in ("east", "south"):
        options["length"] = length
    rule = mode.get("detail_rule")
    if isinstance(rule, dict):
        if isinstance(rule.get("init_point"), int) and rule["init_point"] > 0:
            options["starting_score"] = rule["init_point"]
        if isinstance(rule.get("fandian"), int) and rule["fandian"] > 0:
            options["return_score"] = rule["fandian"]
        meta = config.get("meta") if isinstance(config, dict) else None
        ranked = isinstance(meta, dict) and bool(meta.get("mode_id"))
        if not ranked and rule.get("dora_count", 0) == 0:  # a room's own: 0 or absent
            options["red_fives"] = False
        uma = [rule.get(f"shunweima_{k}") for k in (2, 3, 4)]
        if all(isinstance(u, int) for u in uma) and any(uma):
            options["uma"] = f"{abs(int(uma[1] or 0))}-{abs(int(uma[2] or 0))}"
        options.update(_room_rules(rule))
    return base.with_options(**options) if options else base


def _room_rules(rule: dict[str, Any]) -> dict[str, Any]:
    """The options a room's ``detail_rule`` changes beyond scores, red fives and uma:
    ``have_qieshangmanguan`` pays 30 fu 4 han and 60 fu 3 han as a mangan (kiriage: 2 of
    2 such wins of held-out records paid 8,000); ``can_jifei: false`` plays on below zero,
    where riichi needs no points (2 of 2 riichi held-out records declared at -1,900 and
    -3,100, the platform taking the stick)."""
    options: dict[str, Any] = {}
    if rule.get("have_qieshangmanguan") is True:
        options["kiriage"] = True
    if rule.get("can_jifei") is False:
        options.update(tobi="none", riichi_min_score=0)
    return options


class _Reader(JsonReader):
    """Builds one game from the decoded ``GameDetailRecords``."""

    def __init__(self, path: str, strict: bool) -> None:
        super().__init__(path, strict, FORMAT)
        self.n = 4
        self.red = True
        self.round: _Round | None = None
        self.scores: list[int] = []
        self.broken = False
        """Whether the round being read went wrong: its other messages are passed over."""

    # -- the game

    def game(self, doc: Any) -> None:
        head = doc.get("head") if isinstance(doc, dict) else None
        messages = self.messages(doc)
        if not isinstance(head, dict) or messages is None:
            self.diag("not-a-game", "not a Mahjong Soul game record: no \"head\" object and "
                      "\"data\" with actions or records", "$")
            return
        self.start(head, messages[1], messages[0])
        for msg_path, name, data in messages[0]:
            if self.broken and name.removeprefix(".lq.") != "RecordNewRound":
                continue  # the rest of a round that could not be read
            self.broken = False
            try:
                self.message(name, data, msg_path)
            except (BadValue, *MALFORMED) as exc:
                self.bad(exc, msg_path)
                self.round = None
                self.broken = True
        if self.round is not None:
            self.diag("no-result", "the record stops in the middle of a round",
                      self.round.at, Severity.WARNING)
        self.end(head)

    def messages(self, doc: Any) -> tuple[list[tuple[str, str, Any]], int] | None:
        """The game's messages as (JSON path, name, data) and how many player inputs and
        client events were passed over; ``None`` if the document holds none."""
        saved = _client_records(doc)
        if saved is not None:
            return saved, 0
        raw = _buffer(doc)
        if raw is not None:
            return self.buffered(raw)
        if not isinstance(doc, dict) or not isinstance(doc.get("data"), dict):
            return None
        outer = doc["data"]
        inner, at = outer, "$.data"
        if isinstance(outer.get("data"), dict):
            inner, at = outer["data"], "$.data.data"
        out: list[tuple[str, str, Any]] = []
        skipped = 0
        if isinstance(inner.get("actions"), list):
            for i, action in enumerate(inner["actions"]):
                result = action.get("result") if isinstance(action, dict) else None
                if isinstance(result, dict) and "name" in result:
                    out.append((f"{at}.actions[{i}].result.data", str(result["name"]),
                                 result.get("data")))
                else:
                    skipped += 1
            return out, skipped
        if isinstance(inner.get("records"), list):
            if any(isinstance(r, str) for r in inner["records"]):
                self.diag("unknown-variant", "a Mahjong Soul record whose messages are left "
                          "as binary protobuf (base64 strings): not a variant mjlog reads; "
                          "decode them to JSON first", f"{at}.records")
                return out, 0
            for i, record in enumerate(inner["records"]):
                if not isinstance(record, dict) or "name" not in record:
                    self.diag("bad-value", "a record that is not a decoded message (the "
                              "binary form is not read)", f"{at}.records[{i}]")
                    continue
                out.append((f"{at}.records[{i}].data", str(record["name"]),
                            record.get("data")))
            return out, 0
        return None

    def buffered(self, raw: bytes) -> tuple[list[tuple[str, str, Any]], int]:
        """The messages of the binary form a lobby client saved as a ``Buffer`` (the
        ``GameDetailRecords``, wrapped or not), with JSON paths into the decoded form as
        :func:`read_binary` gives them; none, with a ``binary-syntax`` error, if the
        bytes are not that form. Damage after some messages keeps those before it."""
        try:
            decoded = decode_record(raw)["data"] if raw.startswith(WRAPPER_START) else {
                "name": ".lq.GameDetailRecords",
                "data": decode(raw, "GameDetailRecords", 0, len(raw))}
        except WireError as exc:
            self.diag("binary-syntax", f"the Buffer is not Mahjong Soul's record: {exc}",
                      "$.data.data")
            return [], 0
        inner = decoded.get("data")
        damage = inner.pop("damage", None) if isinstance(inner, dict) else None
        if damage is not None:
            self.diag("binary-syntax", f"the Buffer is damaged: {damage}; the messages "
                      "before it are read", "$.data.data")
        return self.messages({"data": decoded}) or ([], 0)

    def start(self, head: dict[str, Any], skipped: int,
              messages: list[tuple[str, str, Any]]) -> None:
        rules = ruleset_of(head)
        if not _rules_stated(head):
            rules = self.red_from_walls(rules, messages)
        self.n = n = rules.players
        self.red = rules.red_fives
        names = [PlayerInfo(name="")] * n
        for acc in head.get("accounts") or []:
            if isinstance(acc, dict) and isinstance(acc.get("seat", 0), int):
                seat = acc.get("seat", 0)
                if 0 <= seat < n:
                    names[seat] = PlayerInfo(name=str(acc.get("nickname", "")),
                                             rank=_rank(acc.get("level3" if n == 3 else "level")))
        meta = _meta(head, skipped)
        self.emit(GameStart(source=FORMAT, players=tuple(names), ruleset=rules, meta=meta,
                            origin=origin_of(meta, source=FORMAT, ruleset_name=rules.name,
                                             path=self.rec.path)), "$.head")

    def red_from_walls(self, rules: Ruleset, messages: list[tuple[str, str, Any]]) -> Ruleset:
        """``rules`` with red fives as a record that states no rules shows them: none when
        no round's wall or deal holds one, else the platform's. A note says which; none
        when no round shows its wall (nothing is inferred: the platform's are kept)."""
        shown = _red_shown(messages)
        if shown is None:
            return rules
        if shown is False:
            rules = rules.with_options(red_fives=False)
            said = "no round's wall or deal holds a red five: read as a game without them"
        else:
            said = "the walls hold red fives: read with the platform's"
        self.diag("red-fives-inferred", f"the record states no rules (detail_rule); {said}",
                  "$.head", Severity.INFO)
        return rules

    def end(self, head: dict[str, Any]) -> None:
        result = head.get("result")
        players = result.get("players") if isinstance(result, dict) else None
        if not isinstance(players, list):
            return
        scores: list[int | None] = [None] * self.n
        points: list[float | None] = [None] * self.n
        for p in players:
            if isinstance(p, dict) and isinstance(p.get("seat", 0), int) \
                    and 0 <= p.get("seat", 0) < self.n:
                scores[p.get("seat", 0)] = p.get("part_point_1", 0)  # absent: 0
                total = p.get("total_point", 0)
                points[p.get("seat", 0)] = total / 1000 if isinstance(total, int) else None
        if all(isinstance(s, int) for s in scores) and all(x is not None for x in points):
            self.emit(GameEnd(scores=tuple(int(s or 0) for s in scores),
                              points=tuple(float(x or 0) for x in points)), "$.head.result")
        else:
            self.diag("bad-value", "the final result does not give every seat's score",
                      "$.head.result.players")

    # -- messages

    def message(self, name: str, data: Any, path: str) -> None:
        short = name.removeprefix(".lq.")
        if short not in MESSAGES:
            self.diag("unknown-message", f"message {name!r} is not one mjlog reads; passed "
                      "over", path, Severity.INFO)
            return
        if not isinstance(data, dict):
            raise BadValue(path, f"{short} without data")
        if short == "RecordNewRound":
            if self.round is not None:
                self.diag("no-result", "a round without a result", self.round.at,
                          Severity.WARNING)
            self.round = _Round(self, data, path)
            return
        rnd = self.round
        if rnd is None:
            raise BadValue(path, f"{short} outside a round")
        rnd.message(short, data, path)
        if short in ("RecordHule", "RecordNoTile", "RecordLiuJu"):
            self.round = None


def _meta(head: dict[str, Any], skipped: int) -> Pairs:
    """The head's facts kept verbatim: uuid, times, config, accounts' ids and levels,
    the final result, and how many player inputs and client events were passed over."""
    out: list[tuple[str, str]] = []
    for key in ("uuid", "start_time", "end_time", "config", "result"):
        if key in head:
            value = head[key]
            out.append((f"majsoul.{key}", value if isinstance(value, str)
                        else json.dumps(value, ensure_ascii=False, separators=(",", ":"))))
    config = head.get("config")
    meta = config.get("meta") if isinstance(config, dict) else None
    if isinstance(meta, dict) and meta.get("mode_id") in ROOMS:
        out.append(("majsoul.room", ROOMS[meta["mode_id"]]))
    accounts = [{k: a.get(k) for k in ("seat", "account_id", "level", "level3") if k in a}
                for a in head.get("accounts") or [] if isinstance(a, dict)]
    out.append(("majsoul.accounts", json.dumps(accounts, separators=(",", ":"))))
    if skipped:
        out.append(("majsoul.inputs-passed-over", str(skipped)))
    return tuple(out)


class _Round:
    """One round: the hands followed tile by tile, so that every tile has its id."""

    def __init__(self, reader: _Reader, data: dict[str, Any], at: str) -> None:
        self.r = reader
        self.n = n = reader.n
        self.at = at
        wind = data.get("chang", 0)
        ju = data.get("ju", 0)
        honba, sticks = data.get("ben", 0), data.get("liqibang", 0)
        if not all(isinstance(x, int) for x in (wind, ju, honba, sticks)) or not 0 <= ju < n:
            raise BadValue(at, "chang, ju, ben and liqibang must be small integers")
        self.dealer = dealer = ju
        self.wind = wind
        self.scores = list(_ints(data.get("scores"), f"{at}.scores", n))
        self.sticks = sticks
        self.honba = honba
        self.tiles = Tiles(n, reader.red)
        dealt: list[tuple[Tile, ...]] = []
        first: Tile | None = None
        for p in range(n):
            codes = data.get(f"tiles{p}")
            want = 14 if p == dealer else 13
            if not isinstance(codes, list) or len(codes) != want:
                raise BadValue(f"{at}.tiles{p}", f"seat {p} is dealt {want} tiles")
            tiles = [self.tiles.fresh(p, _tile(c, f"{at}.tiles{p}[{i}]"), f"{at}.tiles{p}[{i}]")
                     for i, c in enumerate(codes)]
            if p == dealer:
                first = tiles[-1]
                tiles = tiles[:-1]
            dealt.append(tuple(sorted(tiles)))
        doras = data.get("doras") or ([data["dora"]] if data.get("dora") else [])
        if not isinstance(doras, list) or not doras:
            raise BadValue(f"{at}.doras", "no dora indicator")
        first_dora = f"{at}.doras[0]"
        self.indicators = [self.tiles.fresh(-1, _tile(doras[0], first_dora), first_dora)]
        extra = tuple((f"majsoul.{k}", str(data[k])) for k in (
            "paishan", "md5", "sha256", "salt", "saltSha256", "left_tile_count")
            if data.get(k) not in (None, ""))
        reader.emit(RoundStart(round_wind=wind, round_number=ju + 1, honba=honba,
                               kyotaku=sticks, dealer=dealer, scores=tuple(self.scores),
                               dora_indicator=self.indicators[0], hands=tuple(dealt),
                               extra=extra, published=_published(data)), at)
        assert first is not None
        self.melds: list[list[Meld]] = [[] for _ in range(n)]
        self.riichi = [False] * n
        self.drawn: list[int] = [-1] * n
        self.last: Event | None = None
        self.rinshan = False
        reader.emit(Draw(player=dealer, tile=first), f"{at}.tiles{dealer}[13]")
        self.drawn[dealer] = first

    def seat(self, data: dict[str, Any], path: str) -> int:
        p = data.get("seat", 0)
        if not isinstance(p, int) or not 0 <= p < self.n:
            raise BadValue(f"{path}.seat", f"seat {p!r} is not at this table")
        return p

    # -- what happens between the messages

    def accepted(self, data: dict[str, Any], path: str) -> None:
        """The riichi a message reports as standing (``liqi``), deposited before it."""
        liqi = data.get("liqi")
        if not isinstance(liqi, dict):
            return
        p = self.seat(liqi, f"{path}.liqi")
        self.scores[p] -= 1000
        self.sticks += 1
        self.riichi[p] = True
        self.r.emit(RiichiAccepted(player=p, scores=tuple(self.scores)), f"{path}.liqi")

    def reveal(self, data: dict[str, Any], path: str) -> None:
        """The kan dora a message shows for the first time (its ``doras`` list grows)."""
        doras = data.get("doras")
        if not isinstance(doras, list):
            return
        for i in range(len(self.indicators), len(doras)):
            tile = self.tiles.fresh(-1, _tile(doras[i], f"{path}.doras[{i}]"), f"{path}.doras[{i}]")
            self.indicators.append(tile)
            self.r.emit(DoraReveal(indicator=tile), f"{path}.doras[{i}]")

    # -- the messages of a round

    def message(self, name: str, data: dict[str, Any], path: str) -> None:
        getattr(self, "on_" + name.removeprefix("Record"))(data, path)

    def on_DealTile(self, data: dict[str, Any], path: str) -> None:
        self.accepted(data, path)
        self.reveal(data, path)
        p = self.seat(data, path)
        tile = self.tiles.fresh(p, _tile(data.get("tile"), f"{path}.tile"), f"{path}.tile")
        self.r.emit(Draw(player=p, tile=tile, rinshan=self.rinshan), path)
        self.rinshan = False
        self.drawn[p] = tile

    def on_DiscardTile(self, data: dict[str, Any], path: str) -> None:
        p = self.seat(data, path)
        self.reveal(data, path)
        moqie = bool(data.get("moqie"))
        code = _tile(data.get("tile"), f"{path}.tile")
        tile = self.tiles.take(p, code, f"{path}.tile", self.drawn[p] if moqie else -1)
        self.drawn[p] = -1
        ev = Discard(player=p, tile=tile, tsumogiri=moqie,
                     riichi=bool(data.get("is_liqi") or data.get("is_wliqi")))
        self.r.emit(ev, path)
        self.last = ev

    def on_ChiPengGang(self, data: dict[str, Any], path: str) -> None:
        self.accepted(data, path)
        p = self.seat(data, path)
        kind = data.get("type", 0)  # absent: protobuf's default, 0 (chi)
        tiles, froms = data.get("tiles"), data.get("froms")
        last = self.last
        if not isinstance(last, Discard):
            raise BadValue(path, f"seat {p} calls, but the last move is not a discard")
        if not isinstance(tiles, list) or not isinstance(froms, list) \
                or len(tiles) != len(froms) or kind not in (0, 1, 2):
            raise BadValue(path, "a call needs type 0-2 and as many tiles as froms")
        own = [self.tiles.take(p, _tile(t, f"{path}.tiles[{i}]"), f"{path}.tiles[{i}]")
               for i, (t, f) in enumerate(zip(tiles, froms, strict=True)) if f == p]
        if len(own) != len(tiles) - 1:
            raise BadValue(f"{path}.froms", "a call takes exactly one tile from another seat")
        cls: type[Chi | Pon | OpenKan] = (Chi, Pon, OpenKan)[kind]
        ev = cls(player=p, from_player=last.player, called=last.tile,
                 tiles=tuple(sorted([*own, last.tile])))
        self.melds[p].append(ev)
        self.r.emit(ev, path)
        self.last = ev
        self.rinshan = kind == 2

    def on_AnGangAddGang(self, data: dict[str, Any], path: str) -> None:
        p = self.seat(data, path)
        code = _tile(data.get("tiles"), f"{path}.tiles")
        ev: Meld
        if data.get("type") == 3:
            tiles = tuple(sorted(self.tiles.take(p, (code[0], red), f"{path}.tiles", self.drawn[p])
                                 for red in self.kan_reds(p, code[0])))
            ev = ClosedKan(player=p, tiles=tiles)
            self.melds[p].append(ev)
        elif data.get("type") == 2:
            pon = next((m for m in self.melds[p] if isinstance(m, Pon)
                        and KIND_OF[m.called] == code[0]), None)
            if pon is None:
                raise BadValue(path, f"seat {p} adds to a pon of {data.get('tiles')!r} they do not "
                           "have")
            added = self.tiles.take(p, (code[0], self.has_red(p, code[0])), f"{path}.tiles",
                              self.drawn[p])
            ev = AddedKan(player=p, from_player=pon.from_player, called=pon.called,
                          added=added, tiles=tuple(sorted((*pon.tiles, added))))
            self.melds[p][self.melds[p].index(pon)] = ev
        else:
            raise BadValue(f"{path}.type", "type 3 is a closed kan and 2 an added kan")
        self.drawn[p] = -1
        self.r.emit(ev, path)
        self.last = ev
        self.reveal(data, path)
        self.rinshan = True

    def has_red(self, p: int, kind: Kind) -> bool:
        return any(KIND_OF[t] == kind and t in RED_FIVE_IDS and self.r.red
                   for t in self.tiles.held(p))

    def kan_reds(self, p: int, kind: Kind) -> list[bool]:
        """Whether each of the four tiles a closed kan of ``kind`` takes is the red five."""
        return [i == 0 and self.has_red(p, kind) for i in range(4)]

    def on_BaBei(self, data: dict[str, Any], path: str) -> None:
        p = self.seat(data, path)
        tile = self.tiles.take(p, (30, False), path, self.drawn[p])
        self.drawn[p] = -1
        ev = Kita(player=p, tile=tile)
        self.melds[p].append(ev)
        self.r.emit(ev, path)
        self.last = ev
        self.reveal(data, path)
        self.rinshan = True

    def on_Hule(self, data: dict[str, Any], path: str) -> None:
        hules = data.get("hules")
        if not isinstance(hules, list) or not hules:
            raise BadValue(f"{path}.hules", "a win without its winners")
        before = _ints(data.get("old_scores"), f"{path}.old_scores", self.n)
        total = _ints(data.get("delta_scores"), f"{path}.delta_scores", self.n)
        shares = self.shares(hules, total, path)
        for i, (h, deltas) in enumerate(zip(hules, shares, strict=True)):
            self.win(h, deltas, before, i == 0, f"{path}.hules[{i}]")
        self.r.emit(RoundEnd(scores=tuple(b + d for b, d in zip(before, total, strict=True))),
                    path)

    def shares(self, hules: list[Any], total: tuple[int, ...],
               path: str) -> list[tuple[int, ...]]:
        """Each winner's part of the round's score changes. One winner has them all; of
        several (a multiple ron), each is paid their ron by the discarder and the first
        after the discarder takes the honba and the sticks."""
        if len(hules) == 1:
            return [total]
        last = self.last
        loser = last.player if isinstance(last, Discard | AddedKan | ClosedKan | Kita) else 0
        order = sorted(range(len(hules)), key=lambda i: (
            (hules[i].get("seat", 0) - loser) % self.n if isinstance(hules[i], dict) else 0))
        out: list[tuple[int, ...]] = [()] * len(hules)
        for rank, i in enumerate(order):
            h = hules[i] if isinstance(hules[i], dict) else {}
            pay = int(h.get("point_rong", 0)) + (
                300 * self.honba + 1000 * self.sticks if rank == 0 else 0)
            d = [0] * self.n
            d[self.seat(h, f"{path}.hules[{i}]")] += pay
            d[loser] -= pay
            out[i] = tuple(d)
        if [sum(c) for c in zip(*out, strict=True)] != list(total):
            raise BadValue(f"{path}.delta_scores", "the winners' payments do not add up to the "
                       "round's score changes")
        return out

    def win(self, h: Any, deltas: tuple[int, ...], before: tuple[int, ...], first: bool,
            path: str) -> None:
        if not isinstance(h, dict):
            raise BadValue(path, "a winner is an object")
        w = self.seat(h, path)
        tsumo = bool(h.get("zimo"))
        last = self.last
        frm = w if tsumo else (last.player if isinstance(
            last, Discard | AddedKan | ClosedKan | Kita) else w)
        hand, win_tile = winning_hand(self.tiles.held(w), tsumo, self.drawn[w], last)
        got = sorted(_tile(t, f"{path}.hand") for t in [*(h.get("hand") or []),
                                                         h.get("hu_tile")])
        if got != sorted((KIND_OF[t], t in RED_FIVE_IDS and self.r.red) for t in hand):
            raise BadValue(f"{path}.hand", f"seat {w}'s winning hand is not the hand they hold")
        ura: tuple[Tile, ...] = ()
        li = h.get("li_doras")
        if isinstance(li, list) and li:
            ura = tuple(self.tiles.fresh(-1, _tile(t, f"{path}.li_doras[{i}]"),
                                   f"{path}.li_doras[{i}]") for i, t in enumerate(li))
        han, fu = int(h.get("count", 0)), int(h.get("fu", 0))
        yaku = self.yaku(h.get("fans"), w, bool(h.get("yiman")), f"{path}.fans")
        self.r.emit(Win(
            winner=w, from_player=frm, hand=hand, win_tile=win_tile,
            melds=tuple(meld_tiles(m) for m in self.melds[w]), yaku=yaku, fu=fu,
            han=13 * han if h.get("yiman") else han, points=self.points(h, w, tsumo),
            limit=limit_of(han, fu, bool(h.get("yiman"))), deltas=deltas, scores_before=before,
            honba=self.honba, kyotaku=self.sticks if first else 0,
            dora_indicators=tuple(self.indicators), ura_indicators=ura,
            extra=(("majsoul.title_id", str(h.get("title_id", 0))),)), path)

    def points(self, h: dict[str, Any], w: int, tsumo: bool) -> int:
        """What the hand is worth without honba and sticks: the ron, or the tsumo's sum."""
        if not tsumo:
            return int(h.get("point_rong", 0))
        child = int(h.get("point_zimo_xian", 0))
        if w == self.dealer:
            return child * (self.n - 1)
        return int(h.get("point_zimo_qin", 0)) + child * (self.n - 2)

    def yaku(self, fans: Any, w: int, yakuman: bool, path: str) -> tuple[YakuClaim, ...]:
        out = []
        for i, fan in enumerate(fans if isinstance(fans, list) else []):
            if not isinstance(fan, dict) or not isinstance(fan.get("id"), int):
                raise BadValue(f"{path}[{i}]", "a yaku is an object with an id")
            fid, val = fan["id"], int(fan.get("val", 0))
            if fid == _SEAT_WIND_FAN:
                name = f"seat-wind-{_WINDS[(w - self.dealer) % self.n]}"
            elif fid == _ROUND_WIND_FAN:
                name = f"round-wind-{_WINDS[self.wind % 4]}"
            elif fid in FAN_IDS:
                name = FAN_IDS[fid]
            else:
                self.r.diag("unknown-yaku", f"yaku id {fid} is not one mjlog knows (kept as "
                            f"majsoul-{fid})", f"{path}[{i}]", Severity.WARNING)
                name = f"majsoul-{fid}"
            out.append(YakuClaim(name=name, han=13 * val if yakuman else val))
        return tuple(out)

    def on_NoTile(self, data: dict[str, Any], path: str) -> None:
        players: list[Any] = data["players"] if isinstance(data.get("players"), list) else []
        shown = tuple(tuple(sorted(self.tiles.held(p)))
                      if p < len(players) and isinstance(players[p], dict)
                      and players[p].get("tingpai") else None for p in range(self.n))
        parts: list[Any] = data["scores"] if isinstance(data.get("scores"), list) else []
        before: tuple[int, ...] = tuple(self.scores)
        deltas = [0] * self.n
        for i, part in enumerate(parts):
            if not isinstance(part, dict):
                continue
            if i == 0 and "old_scores" in part:
                before = _ints(part["old_scores"], f"{path}.scores[0].old_scores", self.n)
            if "delta_scores" in part:
                d = _ints(part["delta_scores"], f"{path}.scores[{i}].delta_scores", self.n)
                deltas = [a + b for a, b in zip(deltas, d, strict=True)]
        self.r.emit(ExhaustiveDraw(hands=shown, deltas=tuple(deltas), scores_before=before,
                                   nagashi=bool(data.get("liujumanguan")), honba=self.honba,
                                   kyotaku=self.sticks), path)
        self.r.emit(RoundEnd(scores=tuple(b + d for b, d in zip(before, deltas, strict=True))),
                    path)

    def on_LiuJu(self, data: dict[str, Any], path: str) -> None:
        self.accepted(data, path)
        kind = LIUJU_KINDS.get(data.get("type", 0))
        if kind is None or kind not in ABORTIVE_KINDS:
            raise BadValue(f"{path}.type", f"abortive draw type {data.get('type')!r} is not one "
                       "mjlog knows")
        shown: tuple[tuple[Tile, ...] | None, ...] = (None,) * self.n
        if kind == "nine-terminals":
            p = self.seat(data, path)
            shown = tuple(tuple(sorted(self.tiles.held(q))) if q == p else None
                          for q in range(self.n))
        self.r.emit(AbortiveDraw(kind=kind, hands=shown, deltas=(0,) * self.n,
                                 scores_before=tuple(self.scores), honba=self.honba,
                                 kyotaku=self.sticks), path)
        self.r.emit(RoundEnd(scores=tuple(self.scores)), path)


"""M-League's game log: the command list its web viewer plays (UMD).

A file is one JSON list of commands, each ``{"time", "id", "cmd", "args"}``:
``player`` (seat code ``A0``..``D0``, name), ``gamestart``, ``kyokustart``
(dealer's seat, honba, riichi sticks in points, the round's wind and each seat's),
``point`` (``=25000`` a score, ``+1500``/``-1500`` a payment), ``dice``, ``dora``
(indicator and dora), ``haipai`` (the deal, four tiles at a time), ``tsumo``
(seat, tiles left, tile), ``sutehai`` (seat, tile, ``tsumogiri``, ``richi``),
``say`` (what a player calls out), ``open`` (a call: ``<own tiles>`` and the
tile called; or a hand shown at the end), ``richi`` (the stick paid),
``uradora``, ``agari`` (``ron=tile`` for a ron, the winner, the value or limit,
the fu, then yaku and han in pairs), ``ryukyoku``, ``kyokuend`` and
``gameend`` (each seat's final points). Tiles are mpsz; ``5M``, ``5P``, ``5S``
are the red fives.

A tsumo's value is written as its ron value, as the kobalab records do: the win's
points are taken from its payments (the written value is kept in ``extra``).
Problems give diagnostics with a JSON path; what was read before them is kept.
This module does no file I/O.
"""

from __future__ import annotations

import re
from typing import Any, Final

from mjlog.core.diagnostics import Severity
from mjlog.core.events import (
    Chi,
    Discard,
    DoraReveal,
    Draw,
    Event,
    ExhaustiveDraw,
    GameEnd,
    GameStart,
    OpenKan,
    PlayerInfo,
    Pon,
    RiichiAccepted,
    RoundEnd,
    RoundStart,
    Win,
    YakuClaim,
)
from mjlog.core.record import GameRecord
from mjlog.core.ruleset import PRESETS
from mjlog.core.tiles import KIND_OF, Kind, Tile
from mjlog.families.riichi.scoring.payments import worked_back
from mjlog.formats.kinds import (
    LIMIT_ALIASES,
    Meld,
    limit_of,
    meld_tiles,
    winning_hand,
)
from mjlog.formats.kinds import yaku_from_text as _yaku_from_text
from mjlog.formats.origin import origin_of
from mjlog.formats.platform import MALFORMED, BadValue, JsonReader, Tiles, load

FORMAT = "mleague"
DIAGNOSTIC_CODES: Final = frozenset({
    "bad-encoding", "json-syntax", "bad-value", "no-result", "unknown-yaku",
})
"""Codes of the diagnostics :func:`read` gives."""

_SIGNATURE = re.compile(rb'^\[\s*\{\s*"time"\s*:\s*"[^"]*"\s*,\s*"id"\s*:\s*"[^"]*"\s*,\s*"cmd"')
_TILE = re.compile(r"([1-9])([mpszMPS])")
_SEATS: Final = ("A0", "B0", "C0", "D0")

YAKU_NAMES: Final[dict[str, str]] = {
    "リーチ": "riichi", "ダブルリーチ": "double-riichi", "門前自摸": "menzen-tsumo",
    "タンヤオ": "tanyao", "赤": "aka-dora", "ドラ": "dora", "裏ドラ": "ura-dora",
    "一発": "ippatsu", "平和": "pinfu", "一盃口": "iipeikou", "三色同順": "sanshoku",
    "海底摸月": "haitei", "河底撈魚": "houtei", "嶺上開花": "rinshan-kaihou",
    "槍槓": "chankan", "一気通貫": "ittsu", "チャンタ": "chanta", "純チャン": "junchan",
    "トイトイ": "toitoi", "七対子": "chiitoitsu", "ホンイツ": "honitsu", "チンイツ": "chinitsu",
    "白": "haku", "發": "hatsu", "中": "chun",
}
"""The league's own names of yaku where they are not the usual Japanese ones."""
_LIMIT_POINTS: Final = {"mangan": 2000, "haneman": 3000, "baiman": 4000, "sanbaiman": 6000,
                        "yakuman": 8000}


def looks_like(start: bytes) -> bool:
    """Whether the start of a file is an M-League command list."""
    return _SIGNATURE.match(start.lstrip()) is not None


def tile_kind(text: Any) -> tuple[Kind, bool]:
    """``(kind, red)`` of one tile (``5M`` a red five); raises ``ValueError``."""
    m = _TILE.fullmatch(str(text))
    if m is None:
        raise ValueError(f"{text!r} is not a tile")
    n, suit = int(m.group(1)), m.group(2)
    red = suit.isupper()
    if red and n != 5:
        raise ValueError(f"{text!r} is not a tile")
    if suit == "z":
        if n > 7:
            raise ValueError(f"{text!r} is not a tile")
        return 27 + n - 1, False
    return "mps".index(suit.lower()) * 9 + n - 1, red


def tiles_of(text: str) -> list[tuple[Kind, bool]]:
    """The tiles of a run such as ``2m3m4m5M``."""
    out = []
    for m in _TILE.finditer(text):
        out.append(tile_kind(m.group(0)))
    return out


def read(data: bytes, path: str = "", *, strict: bool = False) -> list[GameRecord]:
    """Read one game. Problems give diagnostics with a JSON path; what was read before
    them is kept. With ``strict`` the first error raises :class:`InputError`."""
    reader = _Reader(path, strict)
    ok, doc = load(data, reader)
    if not ok:
        return [reader.rec]
    if not isinstance(doc, list):
        reader.diag("bad-value", "an M-League log is a list of commands", "$")
        return [reader.rec]
    for i, command in enumerate(doc):
        try:
            reader.command(command, f"$[{i}]")
        except (BadValue, *MALFORMED) as exc:
            reader.bad(exc, f"$[{i}]")
            reader.round = None
    reader.finish()
    return [reader.rec]


class _Reader(JsonReader):
    """Builds one game from the command list."""

    def __init__(self, path: str, strict: bool) -> None:
        super().__init__(path, strict, FORMAT)
        self.names = [""] * 4
        self.started = False
        self.round: _Round | None = None
        self.scores = [0] * 4
        self.first_dealer = -1
        self.game_id = ""

    def seat(self, code: Any, path: str) -> int:
        if code not in _SEATS:
            raise BadValue(path, f"{code!r} is not a seat (A0 to D0)")
        return _SEATS.index(code)

    def command(self, c: Any, path: str) -> None:
        if not isinstance(c, dict) or not isinstance(c.get("args"), list):
            raise BadValue(path, "a command is an object with its args")
        cmd, args = c.get("cmd"), c["args"]
        at = f"{path}.args"
        if cmd == "player":
            self.names[self.seat(args[0], f"{at}[0]")] = str(args[1]) if len(args) > 1 else ""
        elif cmd == "gamestart":
            self.game_id = next((str(a)[3:] for a in args if str(a).startswith("id=")), "")
        elif cmd == "kyokustart":
            if self.round is not None:
                self.diag("no-result", "a round without a result", self.round.at,
                          Severity.WARNING)
            self.round = _Round(self, args, path)
        elif cmd == "gameend":
            self.game_end(args, at)
        elif self.round is not None:
            self.round.command(str(cmd), args, at)
            if cmd == "kyokuend":
                self.round = None

    def start(self, dealer: int) -> None:
        """The game starts with its first round: the first dealer is known then."""
        if self.started:
            return
        self.started = True
        self.first_dealer = dealer
        meta = (("mleague.id", self.game_id),) if self.game_id else ()
        rules = PRESETS["mleague"]
        self.emit(GameStart(source=FORMAT, players=tuple(PlayerInfo(name=n) for n in self.names),
                            first_dealer=dealer, ruleset=rules, meta=meta,
                            origin=origin_of(meta, source=FORMAT, ruleset_name=rules.name,
                                             path=self.rec.path)), "$")

    def game_end(self, args: list[Any], path: str) -> None:
        points = [0.0] * 4
        for i in range(0, len(args) - 1, 2):
            if str(args[i]) in _SEATS:
                try:
                    points[_SEATS.index(str(args[i]))] = float(args[i + 1])
                except ValueError:
                    raise BadValue(f"{path}[{i + 1}]", f"{args[i + 1]!r} is not points") from None
        self.emit(GameEnd(scores=tuple(self.scores), points=tuple(points)), path)

    def finish(self) -> None:
        if self.round is not None:
            self.diag("no-result", "the log stops in the middle of a round", self.round.at,
                      Severity.WARNING)


class _Round:
    """One round's commands: every tile followed so that it has its id."""

    def __init__(self, reader: _Reader, args: list[Any], path: str) -> None:
        self.r = reader
        self.at = path
        if len(args) < 9:
            raise BadValue(f"{path}.args", "kyokustart gives the dealer, honba, sticks and winds")
        self.dealer = reader.seat(args[1], f"{path}.args[1]")
        reader.start(self.dealer)
        try:
            self.honba, self.sticks = int(args[2]), int(args[3]) // 1000
            self.wind = tile_kind(args[4])[0] - 27
        except ValueError as exc:
            raise BadValue(f"{path}.args", str(exc)) from None
        self.number = (self.dealer - reader.first_dealer) % 4 + 1
        self.tiles = Tiles(4, True)
        self.melds: list[list[Meld]] = [[] for _ in range(4)]
        self.drawn = [-1] * 4
        self.last: Event | None = None
        self.indicators: list[Tile] = []
        self.ura: list[Tile] = []
        self.dealt = False
        self.result: tuple[str, list[Any], str] | None = None
        self.deltas = [0] * 4
        """The payments the log lists after the result: each seat's change over the round,
        its riichi stick included."""
        self.start_scores: tuple[int, ...] = ()
        self.tenpai: set[int] = set()
        self.riichi: set[int] = set()

    def fresh(self, p: int, text: Any, path: str) -> Tile:
        try:
            code = tile_kind(text)
        except ValueError as exc:
            raise BadValue(path, str(exc)) from None
        return self.tiles.fresh(p, code, path)

    def command(self, cmd: str, args: list[Any], at: str) -> None:
        handler = getattr(self, f"on_{cmd}", None)
        if handler is not None:
            handler(args, at)

    def on_point(self, args: list[Any], at: str) -> None:
        p = self.r.seat(args[0], f"{at}[0]")
        text = str(args[1]) if len(args) > 1 else ""
        try:
            value = int(text.lstrip("=+"))
        except ValueError:
            raise BadValue(f"{at}[1]", f"{text!r} is not a score or payment") from None
        if text.startswith("="):
            self.r.scores[p] = value
        else:
            self.deltas[p] += value

    def on_dora(self, args: list[Any], at: str) -> None:
        tile = self.fresh(-1, args[-1], f"{at}[{len(args) - 1}]")  # the dora, its indicator
        self.indicators.append(tile)
        if self.dealt:
            self.r.emit(DoraReveal(indicator=tile), at)

    def on_uradora(self, args: list[Any], at: str) -> None:
        if args and args[-1]:  # empty when the winner shows none (no riichi)
            self.ura.append(self.fresh(-1, args[-1], f"{at}[{len(args) - 1}]"))

    def on_haipai(self, args: list[Any], at: str) -> None:
        p = self.r.seat(args[0], f"{at}[0]")
        for m in _TILE.finditer(str(args[1])):
            self.fresh(p, m.group(0), f"{at}[1]")

    def deal(self, at: str) -> None:
        """The round starts at its first draw: every hand is dealt by then."""
        self.dealt = True
        self.start_scores = tuple(self.r.scores)
        hands = tuple(tuple(sorted(h)) for h in self.tiles.hands.hands)
        if any(len(h) != 13 for h in hands) or not self.indicators:
            raise BadValue(at, "the deal is not 13 tiles a seat with a dora indicator")
        self.r.emit(RoundStart(round_wind=self.wind, round_number=self.number, honba=self.honba,
                               kyotaku=self.sticks, dealer=self.dealer,
                               scores=tuple(self.r.scores), dora_indicator=self.indicators[0],
                               hands=hands), at)

    def on_tsumo(self, args: list[Any], at: str) -> None:
        if not self.dealt:
            self.deal(at)
        p = self.r.seat(args[0], f"{at}[0]")
        tile = self.fresh(p, args[2] if len(args) > 2 else None, f"{at}[2]")
        rinshan = isinstance(self.last, OpenKan)
        self.r.emit(Draw(player=p, tile=tile, rinshan=rinshan), at)
        self.drawn[p] = tile
        self.last = None

    def on_sutehai(self, args: list[Any], at: str) -> None:
        p = self.r.seat(args[0], f"{at}[0]")
        flags = {str(a) for a in args[2:]}
        try:
            code = tile_kind(args[1])
        except ValueError as exc:
            raise BadValue(f"{at}[1]", str(exc)) from None
        tsumogiri = "tsumogiri" in flags
        tile = self.tiles.take(p, code, f"{at}[1]", self.drawn[p] if tsumogiri else -1)
        self.drawn[p] = -1
        ev = Discard(player=p, tile=tile, tsumogiri=tsumogiri, riichi="richi" in flags)
        self.r.emit(ev, at)
        self.last = ev

    def on_richi(self, args: list[Any], at: str) -> None:
        p = self.r.seat(args[0], f"{at}[0]")
        self.riichi.add(p)
        self.r.scores[p] -= 1000
        self.sticks += 1
        self.r.emit(RiichiAccepted(player=p, scores=tuple(self.r.scores)), at)

    def on_say(self, args: list[Any], at: str) -> None:
        if len(args) > 1 and args[1] == "tenpai":
            self.tenpai.add(self.r.seat(args[0], f"{at}[0]"))

    def on_open(self, args: list[Any], at: str) -> None:
        if len(args) < 3 or not str(args[1]).startswith("<"):
            return  # a hand shown at the round's end
        p = self.r.seat(args[0], f"{at}[0]")
        last = self.last
        if not isinstance(last, Discard):
            raise BadValue(at, f"seat {p} calls, but the last move is not a discard")
        try:
            own_codes = tiles_of(str(args[1]))
            called = tile_kind(args[2])
        except ValueError as exc:
            raise BadValue(f"{at}[1]", str(exc)) from None
        if called[0] != KIND_OF[last.tile]:
            raise BadValue(f"{at}[2]", f"seat {p} calls {args[2]!r}, not the last discard")
        own = [self.tiles.take(p, c, f"{at}[1]") for c in own_codes]
        kinds = {k for k, _ in own_codes} | {called[0]}
        cls: type[Chi | Pon | OpenKan] = OpenKan if len(own) == 3 else (
            Pon if len(kinds) == 1 else Chi)
        ev = cls(player=p, from_player=last.player, called=last.tile,
                 tiles=tuple(sorted([*own, last.tile])))
        self.melds[p].append(ev)
        self.r.emit(ev, at)
        self.last = ev
        self.drawn[p] = -1

    def on_agari(self, args: list[Any], at: str) -> None:
        self.result = ("win", args, at)

    def on_ryukyoku(self, args: list[Any], at: str) -> None:
        self.result = ("draw", args, at)

    def on_kyokuend(self, args: list[Any], at: str) -> None:
        if self.result is None:
            self.r.diag("no-result", "a round without a result", at, Severity.WARNING)
            self.r.emit(RoundEnd(scores=None), at)
            return
        kind, result, path = self.result
        before = tuple(self.r.scores)
        after = tuple(s + d for s, d in zip(self.start_scores, self.deltas, strict=True))
        deltas = tuple(a - b for a, b in zip(after, before, strict=True))
        if kind == "win":
            self.win(result, deltas, before, path)
        else:
            self.r.emit(ExhaustiveDraw(
                hands=tuple(tuple(sorted(self.tiles.held(p))) if p in self.tenpai else None
                            for p in range(4)),
                deltas=deltas, scores_before=before, honba=self.honba, kyotaku=self.sticks),
                path)
        self.r.scores = list(after)
        self.r.emit(RoundEnd(scores=after), at)

    def win(self, args: list[Any], deltas: tuple[int, ...], before: tuple[int, ...],
            path: str) -> None:
        ron = bool(args) and str(args[0]).startswith("ron=")
        rest = args[1:] if ron else args
        if len(rest) < 3:
            raise BadValue(path, "agari gives the winner, the value and the fu")
        w = self.r.seat(rest[0], f"{path}[{1 if ron else 0}]")
        last = self.last
        frm = last.player if ron and isinstance(last, Discard) else w
        hand, win_tile = winning_hand(self.tiles.held(w), not ron, self.drawn[w], last)
        yaku = []
        for i in range(3, len(rest) - 1, 2):
            name = YAKU_NAMES.get(str(rest[i])) or _yaku_from_text(str(rest[i]), self.wind,
                                                                    (w - self.dealer) % 4)
            if name is None:
                self.r.diag("unknown-yaku", f"unknown yaku {rest[i]!r} (kept as written)",
                            path, Severity.WARNING)
                name = str(rest[i])
            yaku.append(YakuClaim(name=name, han=int(rest[i + 1])))
        value = str(rest[1])
        fu = int(rest[2]) if str(rest[2]).isdigit() else 0
        han = sum(y.han for y in yaku)
        limit = LIMIT_ALIASES.get(value, "") or limit_of(han, fu, False)
        points = int(value) if value.isdigit() else 0
        if not ron:  # the log writes a tsumo's ron value; its payments give its sum
            points = worked_back(deltas[w], sticks=self.sticks, honba=self.honba, players=4)
        elif value in LIMIT_ALIASES:
            points = _LIMIT_POINTS[limit] * (6 if w == self.dealer else 4)
        self.r.emit(Win(
            winner=w, from_player=frm, hand=hand, win_tile=win_tile,
            melds=tuple(meld_tiles(m) for m in self.melds[w]), yaku=tuple(yaku),
            fu=fu, han=han, points=points, limit=limit, deltas=deltas, scores_before=before,
            honba=self.honba, kyotaku=self.sticks, dora_indicators=tuple(self.indicators),
            ura_indicators=tuple(self.ura) if w in self.riichi else (),
            extra=(("mleague.value", value),)), path)

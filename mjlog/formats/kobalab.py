"""kobalab's 牌譜 JSON: the record format of 電脳麻将 and its majiang-core library.

A game is one JSON object::

    {"title": "...", "player": [4 names], "qijia": 0,
     "log": [[{"qipai": {...}}, {"zimo": {...}}, {"dapai": {...}}, ..., {"hule": {...}}],
             ...],
     "defen": [final scores], "rank": [places], "point": [final points]}

Each round is a list of one-key objects in table order: ``qipai`` (the deal:
``zhuangfeng`` round wind, ``jushu`` dealer 0-3 counted from ``qijia``,
``changbang`` honba, ``lizhibang`` sticks, ``defen`` scores, ``baopai`` dora
indicator, ``shoupai`` hands), ``zimo`` and ``gangzimo`` (a draw, a
replacement draw), ``dapai`` (a discard; ``_`` the drawn tile, ``*`` riichi),
``fulou`` (chi, pon, open kan), ``gang`` (closed or added kan), ``kaigang``
(a kan dora indicator), ``hule`` (a win: ``shoupai``, ``baojia`` the
discarder, ``fubaopai`` ura indicators, ``fu``, ``fanshu``, ``damanguan``,
``defen``, ``hupai`` yaku, ``fenpei`` payments) and ``pingju`` (a draw: its
``name``, the hands shown, ``fenpei``). Seats in a round (``l``, and the
order of ``defen``, ``shoupai`` and ``fenpei``) count from the dealer: seat
``l`` is player ``(qijia + jushu + l) % 4``.

Tiles are a suit letter and a digit: ``m5``, ``p0`` (a red five), ``z1``
east to ``z7`` red dragon. A set is written with the called tile marked by
who it came from: ``-`` the player on the left, ``=`` across, ``+`` on the
right (``s12-3``, ``m888=``, ``z555-5`` an added kan, ``s8888`` a closed kan).

Problems give diagnostics with a JSON path; what was read before them is
kept. This module does no file I/O.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Sequence
from typing import Any, Final

from mjlog.core.diagnostics import Severity
from mjlog.core.events import (
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
    PlayerInfo,
    Pon,
    RiichiAccepted,
    RoundEnd,
    RoundStart,
    Win,
    YakuClaim,
)
from mjlog.core.record import GameRecord
from mjlog.core.ruleset import PRESETS, Ruleset, option_value, with_rounding_of
from mjlog.core.tiles import KIND_OF, RED_FIVE_IDS, Kind, Tile
from mjlog.families.riichi.scoring.payments import worked_back
from mjlog.formats.kinds import (
    TENHOU_JAPANESE,
    Meld,
    limit_of,
    meld_tiles,
    winning_hand,
    yaku_from_text,
)
from mjlog.formats.platform import MALFORMED, BadValue, JsonReader, Tiles, load
from mjlog.reports.settlement import FLOATING_UMA

FORMAT = "kobalab"
DIAGNOSTIC_CODES: Final = frozenset({
    "bad-encoding", "json-syntax", "bad-value", "no-result", "unknown-yaku",
    "unknown-result", "draw-deduced", "misnamed-key",
})
"""Codes of the diagnostics :func:`read` gives."""

_SIGNATURE = re.compile(rb'"qipai"\s*:\s*\{|"qijia"\s*:')
_SUITS: Final = "mpsz"
_TILE = re.compile(r"([mpsz])([0-9])")
_FROM: Final = {"-": 3, "=": 2, "+": 1}
"""A set's marker to the seat it was called from, counted from the caller."""

PINGJU: Final[dict[str, str]] = {
    "流局": "draw", "荒牌平局": "draw", "流し満貫": "nagashi", "九種九牌": "nine-terminals",
    "四家立直": "four-riichi", "三家和": "triple-ron", "四開槓": "four-kans",
    "四風連打": "four-winds",
}
"""``pingju.name`` to mjlog's kinds of draw (``draw`` and ``nagashi`` are exhaustive)."""
PINGJU_NAMES: Final = {v: k for k, v in PINGJU.items() if k != "荒牌平局"}

YAKU_NAMES: Final[dict[str, str]] = {
    "double-riichi": "ダブル立直", "haku": "役牌 白", "hatsu": "役牌 發", "chun": "役牌 中",
}
"""mjlog's yaku names to the names kobalab writes where they differ from Tenhou's."""
_SEAT_WIND: Final = ("役牌 自風", "自風")
_ROUND_WIND: Final = ("役牌 場風", "場風")
_OTHER_NAMES: Final = {"ダブル立直": "double-riichi", "両立直": "double-riichi",
                       "翻牌 白": "haku", "翻牌 發": "hatsu", "翻牌 中": "chun"}
_WINDS: Final = ("east", "south", "west", "north")
LEAGUE_PRESETS: Final = ("tenhou", "jpml")
"""The presets a kobalab record is matched with (the records are of online and league
games; a club's set such as ``kansaki`` is never guessed)."""


def looks_like(start: bytes) -> bool:
    """Whether the start of a file is kobalab's JSON (a ``qipai`` or ``qijia`` key): one
    game, or an array of games as kobalab's tools save several."""
    return (start.startswith(b"{") or _ARRAY.match(start) is not None) \
        and _SIGNATURE.search(start) is not None


_ARRAY: Final = re.compile(rb"\[\s*\{")


def tile_kind(text: str) -> tuple[Kind, bool]:
    """``(kind, red)`` of one tile (``m5``, ``p0``, ``z7``); raises ``ValueError``."""
    m = _TILE.fullmatch(text)
    if m is None:
        raise ValueError(f"{text!r} is not a tile")
    suit, n = _SUITS.index(m.group(1)), int(m.group(2))
    if suit == 3:
        if not 1 <= n <= 7:
            raise ValueError(f"{text!r} is not a tile")
        return 27 + n - 1, False
    return suit * 9 + (4 if n == 0 else n - 1), n == 0


def tiles_of(text: str) -> list[tuple[Kind, bool]]:
    """The tiles of a hand or set string (``m123p0z55``; markers and commas left out)."""
    out: list[tuple[Kind, bool]] = []
    suit = ""
    for ch in text:
        if ch in _SUITS:
            suit = ch
        elif ch.isdigit():
            if not suit:
                raise ValueError(f"a digit before any suit in {text!r}")
            out.append(tile_kind(suit + ch))
    return out


def tile_text(tile: int, red_fives: bool = True) -> str:
    """kobalab's name of a physical tile."""
    kind = KIND_OF[tile]
    suit, n = divmod(kind, 9)
    if red_fives and tile in RED_FIVE_IDS:
        return f"{_SUITS[suit]}0"
    return f"{_SUITS[suit]}{n + 1}"


def read(data: bytes, path: str = "", *, strict: bool = False) -> list[GameRecord]:
    """Read one game. Problems give diagnostics with a JSON path; what was read before
    them is kept. With ``strict`` the first error raises :class:`InputError`."""
    reader = _Reader(path, strict)
    ok, doc = load(data, reader)
    if not ok:
        return [reader.rec]
    if not isinstance(doc, list):
        return [_game(reader, doc)]
    records = [_game(_Reader(path, strict, f"$[{i}]"), game) for i, game in enumerate(doc)]
    return records or [_game(reader, None)]


def _game(reader: _Reader, doc: Any) -> GameRecord:
    """One game of a file (the file's whole object, or an element of its array)."""
    if not isinstance(doc, dict) or not isinstance(doc.get("log"), list):
        reader.diag("bad-value", "not a kobalab game: no \"log\" list", f"{reader.root}.log")
        return reader.rec
    try:
        reader.game(doc)
    except (BadValue, *MALFORMED) as exc:
        reader.bad(exc, reader.root)
    return reader.rec


def ruleset_of(doc: dict[str, Any]) -> Ruleset:
    """The ruleset a game suggests: the first of :data:`LEAGUE_PRESETS` that agrees with
    all the record shows of its rules (:func:`shown_options`), else Tenhou's changed where
    the record shows otherwise."""
    shown = shown_options(doc)
    base = next((PRESETS[name] for name in LEAGUE_PRESETS if all(
        option_value(PRESETS[name], k) == v for k, v in shown.items())), PRESETS["tenhou"])
    points = doc.get("point")
    return with_rounding_of(base.with_options(**shown),
                            points if isinstance(points, list) else ())


def shown_options(doc: dict[str, Any]) -> dict[str, Any]:
    """What a record shows of its rules: the starting score (every seat's in the first
    round), red fives (whether any tile is one), ura dora
    (whether any win shows them), kan dora (none when kans were made and no indicator
    was ever turned), ippatsu (claimed by a win, or played with ura dora) and the uma
    the final points give (then also the return score: the points count from the
    starting score)."""
    text = json.dumps(doc.get("log"))
    options: dict[str, Any] = {"red_fives": bool(re.search(r"[mps]0", text)),
                               "ura_dora": '"fubaopai"' in text}
    options["ippatsu"] = options["ura_dora"] or "一発" in text
    if '"gang"' in text and '"kaigang"' not in text:
        options["kan_dora"] = "none"
    rounds = doc["log"]
    first = rounds[0][0].get("qipai", {}) if rounds and isinstance(rounds[0], list) \
        and rounds[0] and isinstance(rounds[0][0], dict) else {}
    scores = first.get("defen") if isinstance(first, dict) else None
    if isinstance(scores, list) and scores and len(set(scores)) == 1 \
            and isinstance(scores[0], int):
        options["starting_score"] = scores[0]
        uma = _uma(doc, scores[0])
        if uma is not None:  # the points count from the starting score: no oka
            options.update(uma=uma, return_score=scores[0])
    return options


def _uma(doc: dict[str, Any], start: int) -> str | None:
    """The uma the final points show beyond each score's distance from ``start``:
    ``a-b`` (+b, +a, -a, -b) or ``float`` (:data:`mjlog.reports.settlement.FLOATING_UMA`);
    ``None`` when no points are given or they show neither."""
    scores, points, ranks = doc.get("defen"), doc.get("point"), doc.get("rank")
    if not all(isinstance(x, list) and len(x) == 4 for x in (scores, points, ranks)):
        return None
    assert isinstance(scores, list) and isinstance(points, list) and isinstance(ranks, list)
    try:
        extra = {int(r): round(float(p) - (int(s) - start) / 1000, 1)
                 for s, p, r in zip(scores, points, ranks, strict=True)}
        floating = sum(int(s) >= start for s in scores)
    except (TypeError, ValueError):
        return None
    by_place = tuple(extra.get(k, 0.0) for k in (1, 2, 3, 4))
    if not any(by_place):
        return None
    if by_place == FLOATING_UMA.get(floating):
        return "float"
    if by_place[0] == -by_place[3] and by_place[1] == -by_place[2]:
        return f"{by_place[1]:g}-{by_place[0]:g}"
    return None


class _Reader(JsonReader):
    """Builds one game from a kobalab object."""

    def __init__(self, path: str, strict: bool, root: str = "$") -> None:
        super().__init__(path, strict, FORMAT)
        self.n = 4
        self.qijia = 0
        self.red = True
        self.root = root
        """The JSON path of the game (``$[2]`` for the third game of an array)."""

    def game(self, doc: dict[str, Any]) -> None:
        qijia = doc.get("qijia", 0)
        self.qijia = qijia if isinstance(qijia, int) and 0 <= qijia < 4 else 0
        rules = ruleset_of(doc)
        self.red = rules.red_fives
        names = doc.get("player")
        if names is None and isinstance(doc.get("playerr"), list):
            names = doc["playerr"]
            self.diag("misnamed-key", "the players' names are under \"playerr\", not "
                      "\"player\": read from there", f"{self.root}.playerr", Severity.INFO)
        names = names if isinstance(names, list) else []
        players = tuple(PlayerInfo(name=str(names[i]) if i < len(names) else "")
                        for i in range(self.n))
        meta = tuple((f"kobalab.{k}", v if isinstance(v, str) else json.dumps(
            v, ensure_ascii=False, separators=(",", ":")))
            for k, v in doc.items() if k not in ("log", "player", "playerr", "qijia", "defen",
                                                 "rank", "point"))
        self.emit(GameStart(source=FORMAT, players=players, first_dealer=self.qijia,
                            ruleset=rules, meta=meta), self.root)
        for r, rnd in enumerate(doc["log"]):
            at = f"{self.root}.log[{r}]"
            try:
                _Round(self, rnd, at).play()
            except (BadValue, *MALFORMED) as exc:
                self.bad(exc, at)
        self.end(doc)

    def end(self, doc: dict[str, Any]) -> None:
        scores, points = doc.get("defen"), doc.get("point")
        if scores is None:  # a game that stops before its end
            return
        if not isinstance(scores, list) or len(scores) != self.n \
                or not all(type(s) is int for s in scores):  # a bool is no score
            self.diag("bad-value", f"final scores are not {self.n} integers: the game's end "
                      "is not read", f"{self.root}.defen")
            return
        pts: tuple[float, ...] | None = None
        if isinstance(points, list) and len(points) == self.n and any(points):
            try:
                pts = tuple(float(p) for p in points)
            except (TypeError, ValueError):
                self.diag("bad-value", "final points are not numbers", f"{self.root}.point")
        self.emit(GameEnd(scores=tuple(scores), points=pts), f"{self.root}.defen")


class _Round:
    """One round, its moves in order: every tile followed so that it has its id."""

    def __init__(self, reader: _Reader, rnd: Any, at: str) -> None:
        self.r = reader
        self.at = at
        self.n = reader.n
        if not isinstance(rnd, list) or not rnd or not isinstance(rnd[0], dict) \
                or not isinstance(rnd[0].get("qipai"), dict):
            raise BadValue(f"{at}[0]", "a round starts with its qipai")
        self.moves = rnd
        self.tiles = Tiles(self.n, reader.red)
        self.melds: list[list[Meld]] = [[] for _ in range(self.n)]
        self.drawn = [-1] * self.n
        self.last: Event | None = None
        self.riichi_pending = -1
        self.rinshan = False
        self.indicators: list[Tile] = []
        self.dealer = self.honba = self.sticks = 0
        self.scores: list[int] = []
        self.done = False
        self.scores_after: list[int] = []

    # -- helpers

    def seat(self, value: Any, path: str) -> int:
        """The player of a seat counted from the dealer."""
        if not isinstance(value, int) or not 0 <= value < self.n:
            raise BadValue(path, f"seat {value!r} is not at this table")
        return (self.dealer + value) % self.n

    def kind(self, text: Any, path: str) -> tuple[Kind, bool]:
        try:
            return tile_kind(str(text)[:2])
        except ValueError as exc:
            raise BadValue(path, str(exc)) from None

    def by_seat(self, values: Any, path: str) -> tuple[int, ...]:
        """A list counted from the dealer, in seat order."""
        if not isinstance(values, list) or len(values) != self.n \
                or not all(isinstance(v, int) for v in values):
            raise BadValue(path, f"expected {self.n} integers")
        return tuple(values[(p - self.dealer) % self.n] for p in range(self.n))

    # -- the round

    def play(self) -> None:
        self.deal(self.moves[0]["qipai"], f"{self.at}[0].qipai")
        for i, move in enumerate(self.moves[1:], 1):
            if not isinstance(move, dict) or len(move) != 1:
                raise BadValue(f"{self.at}[{i}]", "a move is an object with one key")
            ((key, data),) = move.items()
            handler = getattr(self, f"on_{key}", None)
            path = f"{self.at}[{i}].{key}"
            if handler is None or not isinstance(data, dict):
                raise BadValue(path, f"{key!r} is not a move mjlog reads")
            handler(data, path)
        if self.done:
            self.r.emit(RoundEnd(scores=tuple(self.scores_after)),
                        f"{self.at}[{len(self.moves) - 1}]")
        else:
            self.r.diag("no-result", "a round without a result", self.at, Severity.WARNING)
            self.r.emit(RoundEnd(scores=None), self.at)

    def deal(self, q: dict[str, Any], at: str) -> None:
        wind, jushu = q.get("zhuangfeng", 0), q.get("jushu", 0)
        honba, sticks = q.get("changbang", 0), q.get("lizhibang", 0)
        if not all(isinstance(x, int) for x in (wind, jushu, honba, sticks)) \
                or not 0 <= jushu < self.n:
            raise BadValue(at, "zhuangfeng, jushu, changbang and lizhibang must be small integers")
        self.dealer = (self.r.qijia + jushu) % self.n
        self.honba, self.sticks = honba, sticks
        self.scores = list(self.by_seat(q.get("defen"), f"{at}.defen"))
        hands = q.get("shoupai")
        if not isinstance(hands, list) or len(hands) != self.n:
            raise BadValue(f"{at}.shoupai", f"expected {self.n} hands")
        dealt: list[tuple[Tile, ...]] = [()] * self.n
        for rel, text in enumerate(hands):
            p = self.seat(rel, at)
            try:
                kinds = tiles_of(str(text))
            except ValueError as exc:
                raise BadValue(f"{at}.shoupai[{rel}]", str(exc)) from None
            if len(kinds) != 13:
                raise BadValue(f"{at}.shoupai[{rel}]", f"a hand of {len(kinds)} tiles, not 13")
            dealt[p] = tuple(sorted(self.tiles.fresh(p, k, f"{at}.shoupai[{rel}]") for k in kinds))
        self.indicators = [self.tiles.fresh(-1, self.kind(q.get("baopai"), f"{at}.baopai"),
                                      f"{at}.baopai")]
        self.r.emit(RoundStart(round_wind=wind, round_number=jushu + 1, honba=honba,
                               kyotaku=sticks, dealer=self.dealer, scores=tuple(self.scores),
                               dora_indicator=self.indicators[0], hands=tuple(dealt)), at)

    def stand(self, path: str) -> None:
        """A riichi declared with the last discard stands: nobody won on it."""
        p = self.riichi_pending
        if p >= 0:
            self.riichi_pending = -1
            self.scores[p] -= 1000
            self.sticks += 1
            self.r.emit(RiichiAccepted(player=p, scores=tuple(self.scores)), path)

    def on_zimo(self, data: dict[str, Any], path: str) -> None:
        self.stand(path)
        p = self.seat(data.get("l"), f"{path}.l")
        tile = self.tiles.fresh(p, self.kind(data.get("p"), f"{path}.p"), f"{path}.p")
        self.r.emit(Draw(player=p, tile=tile, rinshan=self.rinshan), path)
        self.rinshan = False
        self.drawn[p] = tile

    def on_gangzimo(self, data: dict[str, Any], path: str) -> None:
        self.rinshan = True
        self.on_zimo(data, path)

    def on_dapai(self, data: dict[str, Any], path: str) -> None:
        p = self.seat(data.get("l"), f"{path}.l")
        text = str(data.get("p", ""))
        moqie = "_" in text[2:]
        tile = self.tiles.take(p, self.kind(text, f"{path}.p"), f"{path}.p",
                         self.drawn[p] if moqie else -1)
        self.drawn[p] = -1
        ev = Discard(player=p, tile=tile, tsumogiri=moqie, riichi="*" in text[2:])
        self.r.emit(ev, path)
        self.last = ev
        if ev.riichi:
            self.riichi_pending = p

    def on_fulou(self, data: dict[str, Any], path: str) -> None:
        self.stand(path)
        p = self.seat(data.get("l"), f"{path}.l")
        text = str(data.get("m", ""))
        last = self.last
        marker = next((c for c in text if c in _FROM), "")
        if not isinstance(last, Discard) or not marker \
                or (p + _FROM[marker]) % self.n != last.player:
            raise BadValue(f"{path}.m", f"{text!r} does not take the last discard")
        try:
            kinds = tiles_of(text)
            called_at = len(tiles_of(text[:text.index(marker)])) - 1
        except ValueError as exc:
            raise BadValue(f"{path}.m", str(exc)) from None
        own = [self.tiles.take(p, k, f"{path}.m") for i, k in enumerate(kinds) if i != called_at]
        tiles = tuple(sorted([*own, last.tile]))
        cls: type[Chi | Pon | OpenKan] = OpenKan if len(kinds) == 4 else (
            Pon if len({k for k, _ in kinds}) == 1 else Chi)
        ev = cls(player=p, from_player=last.player, called=last.tile, tiles=tiles)
        self.melds[p].append(ev)
        self.r.emit(ev, path)
        self.last = ev

    def on_gang(self, data: dict[str, Any], path: str) -> None:
        p = self.seat(data.get("l"), f"{path}.l")
        text = str(data.get("m", ""))
        try:
            kinds = tiles_of(text)
        except ValueError as exc:
            raise BadValue(f"{path}.m", str(exc)) from None
        if len(kinds) != 4 or len({k for k, _ in kinds}) != 1:
            raise BadValue(f"{path}.m", f"{text!r} is not a kan")
        ev: Meld
        if not any(c in _FROM for c in text):
            tiles = tuple(sorted(self.tiles.take(p, k, f"{path}.m", self.drawn[p]) for k in kinds))
            ev = ClosedKan(player=p, tiles=tiles)
            self.melds[p].append(ev)
        else:
            pon = next((m for m in self.melds[p] if isinstance(m, Pon)
                        and KIND_OF[m.called] == kinds[0][0]), None)
            if pon is None:
                raise BadValue(f"{path}.m", f"seat {p} adds to a pon they do not have")
            added = self.tiles.take(p, kinds[-1], f"{path}.m", self.drawn[p])
            ev = AddedKan(player=p, from_player=pon.from_player, called=pon.called,
                          added=added, tiles=tuple(sorted((*pon.tiles, added))))
            self.melds[p][self.melds[p].index(pon)] = ev
        self.drawn[p] = -1
        self.r.emit(ev, path)
        self.last = ev

    def on_kaigang(self, data: dict[str, Any], path: str) -> None:
        at = f"{path}.baopai"
        tile = self.tiles.fresh(-1, self.kind(data.get("baopai"), at), at)
        self.indicators.append(tile)
        self.r.emit(DoraReveal(indicator=tile), path)

    def on_hule(self, data: dict[str, Any], path: str) -> None:
        w = self.seat(data.get("l"), f"{path}.l")
        tsumo = data.get("baojia") is None
        frm = w if tsumo else self.seat(data.get("baojia"), f"{path}.baojia")
        if self.done:  # a second winner of the same discard
            before = tuple(self.scores_after)
        else:
            self.riichi_pending = -1 if not tsumo and frm == self.riichi_pending else \
                self.riichi_pending
            self.stand(path)
            before = tuple(self.scores)
        if tsumo and self.drawn[w] < 0:
            self.deduce_draw(w, data.get("shoupai"), path)
        hand, win_tile = winning_hand(self.tiles.held(w), tsumo, self.drawn[w], self.last)
        self.check_hand(data.get("shoupai"), hand, w, f"{path}.shoupai")
        ura = self.ura(data.get("fubaopai"), f"{path}.fubaopai")
        yaku = self.yaku(data.get("hupai"), w, f"{path}.hupai")
        deltas = self.by_seat(data.get("fenpei"), f"{path}.fenpei")
        han, fu = _int(data.get("fanshu")), _int(data.get("fu"))
        yakuman = _int(data.get("damanguan"))
        points = _int(data.get("defen"))
        if tsumo:  # the record gives a tsumo's ron value; its payments give its sum
            points = worked_back(deltas[w], sticks=0 if self.done else self.sticks,
                                 honba=self.honba, players=self.n)
        self.r.emit(Win(
            winner=w, from_player=frm, hand=hand, win_tile=win_tile,
            melds=tuple(meld_tiles(m) for m in self.melds[w]), yaku=yaku, fu=fu,
            han=13 * yakuman if yakuman else han, points=points,
            limit=limit_of(han, fu, bool(yakuman)), deltas=deltas, scores_before=before,
            honba=self.honba, kyotaku=0 if self.done else self.sticks,
            dora_indicators=tuple(self.indicators), ura_indicators=ura), path)
        self.finish(before, deltas)

    def ura(self, texts: Any, path: str) -> tuple[Tile, ...]:
        """The ura indicators a win shows; one that cannot be in the dead wall (all its
        copies are in play) is a ``bad-value`` and left out, and the win is still read."""
        out = []
        for i, text in enumerate(texts if isinstance(texts, list) else []):
            try:
                out.append(self.tiles.fresh(-1, self.kind(text, f"{path}[{i}]"), f"{path}[{i}]"))
            except BadValue as exc:
                self.r.diag("bad-value", f"ura indicator {text!r}: {exc} (left out)",
                            exc.path)
        return tuple(out)

    def deduce_draw(self, w: int, text: Any, path: str) -> None:
        """A tsumo whose draw the record leaves out: the winning hand's last tile is drawn
        here, with a ``draw-deduced`` warning."""
        try:
            kind = tiles_of(str(text).split(",")[0])[-1]
        except (ValueError, IndexError):
            raise BadValue(f"{path}.shoupai", "a tsumo without its draw or winning tile") from None
        tile = self.tiles.fresh(w, kind, f"{path}.shoupai")
        self.r.diag("draw-deduced", f"seat {w} wins by tsumo without a draw before it: the "
                    f"draw of {tile_text(tile, self.r.red)} (the winning hand's last tile) is "
                    "supplied", f"{path}.shoupai", Severity.WARNING)
        self.r.emit(Draw(player=w, tile=tile, rinshan=self.rinshan), f"{path}.shoupai")
        self.rinshan = False
        self.drawn[w] = tile

    def check_hand(self, text: Any, hand: tuple[Tile, ...], w: int, path: str) -> None:
        """The winner's hand as the record shows it must be the hand held."""
        try:
            concealed = tiles_of(str(text).split(",")[0])
        except ValueError as exc:
            raise BadValue(path, str(exc)) from None
        held = [(KIND_OF[t], t in RED_FIVE_IDS and self.r.red) for t in hand]
        if sorted(concealed) != sorted(held):
            raise BadValue(path, f"seat {w}'s winning hand {text!r} is not the hand they hold")

    def yaku(self, hupai: Any, w: int, path: str) -> tuple[YakuClaim, ...]:
        out = []
        seat = (w - self.dealer) % self.n
        for i, h in enumerate(hupai if isinstance(hupai, list) else []):
            if not isinstance(h, dict):
                raise BadValue(f"{path}[{i}]", "a yaku is an object with a name")
            text = str(h.get("name", ""))
            value = h.get("fanshu", 0)
            name = _yaku_name(text, self.wind, seat)
            if name is None:
                self.r.diag("unknown-yaku", f"unknown yaku {text!r} (kept as written)",
                            f"{path}[{i}]", Severity.WARNING)
                name = text
            han = 13 * str(value).count("*") if isinstance(value, str) else _int(value)
            out.append(YakuClaim(name=name, han=han))
        return tuple(out)

    @property
    def wind(self) -> int:
        rs = next(e for e in reversed(self.r.rec.events) if isinstance(e, RoundStart))
        return rs.round_wind

    def finish(self, before: tuple[int, ...], deltas: tuple[int, ...]) -> None:
        """A result's payments: several winners of one discard add theirs up."""
        if not self.done:
            self.done = True
            self.scores_after = list(before)
        self.scores_after = [s + d for s, d in zip(self.scores_after, deltas, strict=True)]

    def on_pingju(self, data: dict[str, Any], path: str) -> None:
        name = str(data.get("name", ""))
        kind = PINGJU.get(name)
        if kind is None:
            self.r.diag("unknown-result", f"unknown draw {name!r}", f"{path}.name")
            kind = "draw"
        if kind in ("draw", "nagashi", "four-riichi"):  # the fourth riichi's stick is paid
            self.stand(path)
        shown_text = data.get("shoupai") if isinstance(data.get("shoupai"), list) else []
        assert isinstance(shown_text, list)
        shown = tuple(tuple(sorted(self.tiles.held(p)))
                      if len(shown_text) == self.n and shown_text[(p - self.dealer) % self.n]
                      else None for p in range(self.n))
        deltas = self.by_seat(data.get("fenpei") or [0] * self.n, f"{path}.fenpei")
        before = tuple(self.scores)
        ev: Event
        if kind in ("draw", "nagashi"):
            ev = ExhaustiveDraw(hands=shown, deltas=deltas, scores_before=before,
                                nagashi=kind == "nagashi", honba=self.honba,
                                kyotaku=self.sticks)
        else:
            ev = AbortiveDraw(kind=kind, hands=shown, deltas=deltas, scores_before=before,
                              honba=self.honba, kyotaku=self.sticks)
        self.r.emit(ev, path)
        self.finish(before, deltas)


def _yaku_name(text: str, wind: int, seat: int) -> str | None:
    if text in _SEAT_WIND:
        return f"seat-wind-{_WINDS[seat % 4]}"
    if text in _ROUND_WIND:
        return f"round-wind-{_WINDS[wind % 4]}"
    return _OTHER_NAMES.get(text) or yaku_from_text(text, wind, seat)


def _int(value: Any) -> int:
    return value if isinstance(value, int) else 0



# ---------------------------------------------------------------- writing


def _hand_text(tiles: Iterable[int], red: bool) -> str:
    """A hand string: each suit's letter, then its digits in order (a red five as 0,
    before the other fives)."""
    by_suit: dict[str, list[tuple[int, int]]] = {s: [] for s in _SUITS}
    for t in tiles:
        kind = KIND_OF[t]
        suit, n = divmod(kind, 9)
        digit = 0 if red and t in RED_FIVE_IDS else n + 1
        by_suit[_SUITS[suit]].append((n + 1, digit))
    return "".join(s + "".join(str(d) for _, d in sorted(v)) for s, v in by_suit.items() if v)


def _set_text(ev: Meld, red: bool, n: int) -> str:
    """A set as kobalab writes it: the called tile followed by who it came from."""
    if isinstance(ev, ClosedKan):
        return _hand_text(ev.tiles, red)
    if isinstance(ev, Kita):
        return tile_text(ev.tile, red)
    marker = {v: k for k, v in _FROM.items()}[(ev.from_player - ev.player) % n]
    own = sorted((t for t in ev.tiles if t != ev.called
                  and not (isinstance(ev, AddedKan) and t == ev.added)), key=KIND_OF.__getitem__)
    called = tile_text(ev.called, red)
    digits = [tile_text(t, red)[1] for t in own]
    if isinstance(ev, Chi):  # the run in order, the called tile marked in its place
        run = sorted([*own, ev.called], key=KIND_OF.__getitem__)
        return called[0] + "".join(tile_text(t, red)[1] + (marker if t == ev.called else "")
                                   for t in run)
    text = called[0] + "".join(digits) + called[1] + marker
    return text + tile_text(ev.added, red)[1] if isinstance(ev, AddedKan) else text


class CannotWrite(ValueError):
    """A game the format cannot hold as it is; the message says what is missing."""


class _Writer:
    """Builds one game's kobalab object from its events."""

    def __init__(self, start: GameStart) -> None:
        rules = start.ruleset
        self.n = rules.players
        self.red = rules.red_fives
        self.qijia = start.first_dealer
        self.doc: dict[str, Any] = {}
        for key, value in start.meta:
            if key.startswith("kobalab."):
                try:
                    self.doc[key[8:]] = json.loads(value)
                except json.JSONDecodeError:
                    self.doc[key[8:]] = value
        self.doc.setdefault("title", "")
        self.doc["player"] = [p.name for p in start.players]
        self.doc["qijia"] = self.qijia
        self.doc["log"] = []
        self.moves: list[dict[str, Any]] = []
        self.dealer = 0
        self.melds: dict[int, list[Meld]] = {}

    def rel(self, p: int) -> int:
        return (p - self.dealer) % self.n

    def by_rel(self, values: Sequence[int]) -> list[int]:
        return [values[(self.dealer + k) % self.n] for k in range(self.n)]

    def add(self, key: str, value: dict[str, Any]) -> None:
        self.moves.append({key: value})

    def start(self, ev: RoundStart) -> None:
        self.dealer = ev.dealer
        self.melds = {p: [] for p in range(self.n)}
        self.moves = []
        self.doc["log"].append(self.moves)
        self.add("qipai", {
            "zhuangfeng": ev.round_wind, "jushu": (ev.dealer - self.qijia) % self.n,
            "changbang": ev.honba, "lizhibang": ev.kyotaku,
            "defen": self.by_rel(ev.scores), "baopai": tile_text(ev.dora_indicator, self.red),
            "shoupai": [_hand_text(ev.hands[(self.dealer + k) % self.n], self.red)
                        for k in range(self.n)]})

    def move(self, ev: Event) -> None:
        red = self.red
        if isinstance(ev, Draw):
            self.add("gangzimo" if ev.rinshan else "zimo",
                     {"l": self.rel(ev.player), "p": tile_text(ev.tile, red)})
        elif isinstance(ev, Discard):
            mark = ("_" if ev.tsumogiri else "") + ("*" if ev.riichi else "")
            self.add("dapai", {"l": self.rel(ev.player), "p": tile_text(ev.tile, red) + mark})
        elif isinstance(ev, Chi | Pon | OpenKan):
            self.melds[ev.player].append(ev)
            self.add("fulou", {"l": self.rel(ev.player), "m": _set_text(ev, red, self.n)})
        elif isinstance(ev, ClosedKan | AddedKan):
            self.melds[ev.player] = [m for m in self.melds[ev.player] if not (
                isinstance(ev, AddedKan) and isinstance(m, Pon) and m.called == ev.called)]
            self.melds[ev.player].append(ev)
            self.add("gang", {"l": self.rel(ev.player), "m": _set_text(ev, red, self.n)})
        elif isinstance(ev, DoraReveal):
            self.add("kaigang", {"baopai": tile_text(ev.indicator, red)})

    def win(self, ev: Win) -> None:
        red = self.red
        hand = list(ev.hand)
        if ev.win_tile in hand:
            hand.remove(ev.win_tile)
        text = _hand_text(hand, red) + tile_text(ev.win_tile, red)
        sets = [_set_text(m, red, self.n) for m in self.melds.get(ev.winner, [])]
        out: dict[str, Any] = {"l": self.rel(ev.winner), "shoupai": ",".join([text, *sets])}
        if ev.from_player != ev.winner:
            out["baojia"] = self.rel(ev.from_player)
        if ev.ura_indicators:
            out["fubaopai"] = [tile_text(t, red) for t in ev.ura_indicators]
        seat = self.rel(ev.winner)
        out.update(fu=ev.fu, fanshu=ev.han if ev.limit != "yakuman" else 0)
        if ev.limit == "yakuman":
            out["damanguan"] = max(1, ev.han // 13)
        extra = dict(ev.extra)
        out["defen"] = int(extra["kobalab.defen"]) if extra.get("kobalab.defen", "").isdigit() \
            else ev.points
        out["hupai"] = [{"name": _write_name(y.name, seat),
                         "fanshu": "*" * (y.han // 13) if ev.limit == "yakuman" else y.han}
                        for y in ev.yaku]
        if len(ev.deltas) != self.n:
            raise CannotWrite("a win whose record states no payments: kobalab's hule "
                              "needs its fenpei")
        out["fenpei"] = self.by_rel(ev.deltas)
        self.add("hule", out)

    def draw(self, ev: ExhaustiveDraw | AbortiveDraw) -> None:
        kind = ev.kind if isinstance(ev, AbortiveDraw) else "nagashi" if ev.nagashi else "draw"
        shown = [_hand_text(h, self.red) if h is not None else ""
                 for h in (ev.hands or (None,) * self.n)]
        self.add("pingju", {"name": PINGJU_NAMES[kind],
                            "shoupai": self.by_rel_any(shown),
                            "fenpei": self.by_rel(ev.deltas or (0,) * self.n)})

    def by_rel_any(self, values: Sequence[str]) -> list[str]:
        return [values[(self.dealer + k) % self.n] if len(values) == self.n else ""
                for k in range(self.n)]

    def end(self, ev: GameEnd) -> None:
        if ev.scores is None:
            return
        scores = list(ev.scores)
        order = sorted(range(self.n), key=lambda p: (-scores[p], (p - self.qijia) % self.n))
        self.doc["defen"] = scores
        self.doc["rank"] = [order.index(p) + 1 for p in range(self.n)]
        self.doc["point"] = [float(x) for x in ev.points] if ev.points else [0] * self.n


def _write_name(name: str, seat: int) -> str:
    if name.startswith("seat-wind-"):
        return _SEAT_WIND[0]
    if name.startswith("round-wind-"):
        return _ROUND_WIND[0]
    return YAKU_NAMES.get(name) or TENHOU_JAPANESE.get(name, name)


def write(events: Iterable[Event]) -> str:
    """kobalab JSON of the games in ``events``, one object a line. What the format cannot
    hold is left out: physical tile ids, dice and walls, disconnections, the timing of
    riichi sticks (a riichi stands at the next draw or call), players' ranks."""
    out: list[str] = []
    w: _Writer | None = None
    for ev in events:
        if isinstance(ev, GameStart):
            if w is not None:
                out.append(json.dumps(w.doc, ensure_ascii=False, separators=(",", ":")))
            w = _Writer(ev)
        elif w is None:
            continue
        elif isinstance(ev, RoundStart):
            w.start(ev)
        elif isinstance(ev, Win):
            w.win(ev)
        elif isinstance(ev, ExhaustiveDraw | AbortiveDraw):
            w.draw(ev)
        elif isinstance(ev, GameEnd):
            w.end(ev)
        else:
            w.move(ev)
    if w is not None:
        out.append(json.dumps(w.doc, ensure_ascii=False, separators=(",", ":")))
    return "".join(line + "\n" for line in out)

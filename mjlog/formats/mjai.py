"""mjai: the JSON Lines event protocol of mahjong bots and AI reviewers.

One JSON object per line, tagged by ``type``: ``start_game``, ``start_kyoku``
(with the dealt ``tehais``), ``tsumo``, ``dahai``, ``chi``/``pon``/
``daiminkan``/``kakan``/``ankan``/``nukidora`` (with ``consumed`` tiles),
``reach``/``reach_accepted``, ``dora``, ``hora``, ``ryukyoku``,
``end_kyoku``, ``end_game``. Tiles are ``1m``..``9s``, ``5mr`` for a red
five, ``E S W N P F C`` for the honours, ``?`` when hidden.

Dialects differ in what a result carries; :data:`DIALECTS` lists those
mjlog writes, and :func:`detect_dialect` tells them apart when reading:

``mortal``
    Mortal / libriichi: ``hora`` and ``ryukyoku`` with ``deltas``,
    ``ura_markers``.
``mjai``
    the original mjai (gimite): ``hora`` with ``hora_tehais``,
    ``uradora_markers``, ``fu``, ``fan``, ``yakus``, ``hora_points``,
    ``deltas`` and ``scores``; ``ryukyoku`` with ``reason``, ``tehais``,
    ``tenpais``; ``reach_accepted`` with ``deltas`` and ``scores``.
``mjai.app``
    arena logs: like ``mortal``, ``start_game`` carries the wall's ``seed``;
    a game a bot broke ends with an ``error`` event.
``mjai-legacy``
    the archive dump of early mjai (its ``test.mjlog.golden.log``):
    ``start_kyoku`` with only ``oya`` and ``dora_marker``, the hands in
    ``haipai`` events, no ``tsumogiri``, results without values. Written
    only: it holds no scores, so it cannot be read back into a game.
``akochan``
    the logs of akochan's own game manager: ``start_game`` with ``aka_flag``
    and ``kyoku_first`` (4 an east-only game, 0 a hanchan); ``hora`` with
    ``hora_tehais``, ``fan``, ``fu`` before rounding (38 for a 40-fu hand),
    ``scores`` after the win and, for a riichi hand, ``uradora_marker``
    (singular), but no ``yakus``, ``deltas`` or points; ``ryukyoku`` with
    ``scores`` and no ``deltas``. Read only: a win's payments are the change of
    ``scores``, its fu rounded as akochan rounds it (up to 10, 25 kept).

Reading gives every tile a physical id (see :mod:`mjlog.formats.kinds`);
an ``error`` event and unknown event types are kept as
:class:`~mjlog.core.events.Unknown` events. Per-event bot annotations (``logs``,
``meta``) are not kept: a diagnostic says how many events carried them.
This module does no file I/O.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable, Iterator
from typing import Any, Final

from mjlog.core.diagnostics import Diagnostic, InputError, Severity, Src
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
    Unknown,
    Win,
    YakuClaim,
    discard_of,
    draw_of,
)
from mjlog.core.record import GameRecord
from mjlog.core.ruleset import PRESETS, Ruleset
from mjlog.core.tiles import KIND_OF, RED_FIVE_IDS, UNKNOWN, Kind, Tile, TileError
from mjlog.families.riichi.scoring.fast import hand_value
from mjlog.families.riichi.scoring.yaku import BY_NAME
from mjlog.formats import jsontext
from mjlog.formats.kinds import (
    COPY_ORDER,
    Hands,
    Meld,
    meld_tiles,
    shape_tenpai,
    winning_hand,
    yaku_from_text,
)
from mjlog.formats.review import review_of

FORMAT = "mjai"
DIALECTS: Final = ("mortal", "mjai", "mjai.app", "mjai-legacy")
DIAGNOSTIC_CODES: Final = frozenset({
    "bad-encoding", "json-syntax", "bad-event", "bad-value", "no-game-start",
    "unsupported-dialect", "annotations-dropped", "error-event",
})
"""Codes of the diagnostics :func:`read` gives."""

_HONOURS: Final = ("E", "S", "W", "N", "P", "F", "C")
_WINDS: Final = {"E": 0, "S": 1, "W": 2, "N": 3}

# ---------------------------------------------------------------- tiles


def tile_name(tile: int, red_fives: bool = True) -> str:
    """mjai's name of a physical tile: ``5mr`` for a red five, ``E`` .. ``C`` for honours."""
    if tile == UNKNOWN:
        return "?"
    kind = KIND_OF[tile]
    if kind >= 27:
        return _HONOURS[kind - 27]
    name = f"{kind % 9 + 1}{'mps'[kind // 9]}"
    return name + "r" if red_fives and tile in RED_FIVE_IDS else name


_CODES: Final[dict[str, tuple[Kind, bool]]] = {
    **{h: (27 + i, False) for i, h in enumerate(_HONOURS)},
    **{f"{n}{s}": (i * 9 + n - 1, False) for i, s in enumerate("mps") for n in range(1, 10)},
    **{f"5{s}r": (i * 9 + 4, True) for i, s in enumerate("mps")},
}
"""Every mjai tile name and its ``(kind, red)``."""


def parse_tile(name: Any) -> tuple[Kind, bool]:
    """``(kind, red)`` of an mjai tile name. Raises ``ValueError`` if it names none."""
    if not isinstance(name, str):
        raise ValueError(f"expected a tile name, got {name!r}")
    code = _CODES.get(name)
    if code is None:
        raise ValueError(f"{name!r} is not an mjai tile")
    return code


# ---------------------------------------------------------------- yaku names

MJAI_YAKU: Final[dict[str, str]] = {
    "menzenchin_tsumoho": "menzen-tsumo", "reach": "riichi", "ippatsu": "ippatsu",
    "chankan": "chankan", "rinshankaiho": "rinshan-kaihou", "haiteiraoyue": "haitei",
    "hoteiraoyui": "houtei", "pinfu": "pinfu", "tanyaochu": "tanyao", "ipeko": "iipeikou",
    "double_reach": "double-riichi", "chitoitsu": "chiitoitsu", "honchantaiyao": "chanta",
    "ikkitsukan": "ittsu", "sanshokudojun": "sanshoku", "sanshokudoko": "sanshoku-doukou",
    "sankantsu": "sankantsu", "toitoiho": "toitoi", "sananko": "sanankou",
    "shosangen": "shousangen", "honroto": "honroutou", "ryanpeko": "ryanpeikou",
    "junchantaiyao": "junchan", "honiso": "honitsu", "chiniso": "chinitsu",
    "renho": "renhou", "tenho": "tenhou", "chiho": "chiihou", "daisangen": "daisangen",
    "suanko": "suuankou", "suanko_tanki": "suuankou-tanki", "tsuiso": "tsuuiisou",
    "ryuiso": "ryuuiisou", "chinroto": "chinroutou", "churenpoton": "chuuren-poutou",
    "junsei_churenpoton": "junsei-chuuren-poutou", "kokushimuso": "kokushi",
    "kokushimuso_jusanmen": "kokushi-13", "daisushi": "daisuushii", "shosushi": "shousuushii",
    "sukantsu": "suukantsu", "dora": "dora", "uradora": "ura-dora", "akadora": "aka-dora",
    "haku": "haku", "hatsu": "hatsu", "chun": "chun", "nukidora": "kita-dora",
}
"""The original mjai's yaku names to mjlog's (winds are ``jikaze`` and ``bakaze``)."""
_TO_MJAI: Final = {v: k for k, v in MJAI_YAKU.items()}

_REASONS: Final[dict[str, str]] = {
    "fanpai": "exhaustive", "ryukyoku": "exhaustive", "exhaustive": "exhaustive",
    "nagashimangan": "nagashi", "nagashi_mangan": "nagashi",
    "kyushukyuhai": "nine-terminals", "kyushu_kyuhai": "nine-terminals",
    "kyuushukyuuhai": "nine-terminals",
    "suchareach": "four-riichi", "suucha_riichi": "four-riichi", "sucha_reach": "four-riichi",
    "sanchaho": "triple-ron", "sancha_ho": "triple-ron", "sanchahou": "triple-ron",
    "sukaikan": "four-kans", "suukaikan": "four-kans", "su_kaikan": "four-kans",
    "sufonrenta": "four-winds", "suufonrenda": "four-winds", "sufon_renta": "four-winds",
}
_REASON_OF: Final = {"exhaustive": "fanpai", "nagashi": "nagashimangan",
                     "nine-terminals": "kyushukyuhai", "four-riichi": "suchareach",
                     "triple-ron": "sanchaho", "four-kans": "sukaikan",
                     "four-winds": "sufonrenta"}


def detect_dialect(objs: Iterable[dict[str, Any]]) -> str:
    """The dialect of an mjai game's events (see the module's documentation); ``akochan``
    is read only (it is not in :data:`DIALECTS`)."""
    seen = "mortal"
    for o in objs:
        t = o.get("type")
        if t == "haipai":
            return "mjai-legacy"
        if (t == "start_game" and _AKOCHAN_GAME.intersection(o)) \
                or (t == "hora" and _akochan_hora(o)):
            return "akochan"
        if t == "start_game" and "seed" in o:
            seen = "mjai.app"
        if t == "hora":
            if "uradora_markers" in o or "hora_tehais" in o or "yakus" in o:
                return "mjai"
            if "ura_markers" in o:
                return seen
        if t == "error":
            seen = "mjai.app"
    return seen


_AKOCHAN_GAME: Final = frozenset({"aka_flag", "kyoku_first", "first_kyoku"})
"""The members of akochan's ``start_game`` that no other dialect has."""
_KYOKU_FIRST: Final = {4: "east", 0: "south"}
"""akochan's ``kyoku_first``: the game's length."""


def _akochan_hora(o: dict[str, Any]) -> bool:
    """Whether a ``hora`` is akochan's: its value as ``fan`` and ``scores`` after the win,
    with no ``yakus`` and no ``deltas`` (or its ura indicators as ``uradora_marker``)."""
    return "uradora_marker" in o or (
        "fan" in o and "scores" in o and "yakus" not in o and "deltas" not in o)


def _akochan_fu(fu: int) -> int:
    """akochan's fu as a record states it: rounded up to 10, except chiitoitsu's 25."""
    return fu if fu % 10 == 0 or fu == 25 else fu + 10 - fu % 10


# ---------------------------------------------------------------- reading


class _Bad(Exception):
    """An event that cannot be read."""


class _Reader:
    """Builds games from mjai events."""

    def __init__(self, path: str, strict: bool) -> None:
        self.path = path
        self.strict = strict
        self.records: list[GameRecord] = []
        self.rec: GameRecord | None = None
        self.line = 0
        self.n = 4
        self.red = True
        self.red_in_file = True
        """Whether the file names a red five anywhere: mjai states no rules, so a file
        that never does is read as a game without them."""
        self.hands = Hands(4, True)
        self.annotated = 0
        self.round_open = False
        self.scores: list[int] = []
        self.ruleset = Ruleset()
        self.akochan = False
        """Whether the game is in akochan's dialect: its results state ``scores``, not
        ``deltas``, which are read as the change of the scores."""

    # -- output

    def emit(self, ev: Event) -> None:
        if self.rec is None:
            self.start_game({})
            assert self.rec is not None
            self.rec.diagnostics.append(Diagnostic(
                code="no-game-start", message="events before any start_game",
                severity=Severity.WARNING, src=Src(line=self.line)))
        self.rec.events.append(ev)
        self.rec.positions.append(self.line)

    def diag(self, code: str, message: str, severity: Severity = Severity.ERROR,
             path: str = "") -> None:
        d = Diagnostic(code=code, message=message, severity=severity,
                       src=Src(line=self.line, path=path))
        if self.strict and severity is Severity.ERROR:
            raise InputError(d)
        if self.rec is None:
            self.rec = GameRecord(path=self.path, format=FORMAT, position_kind="jsonl")
            self.records.append(self.rec)
        self.rec.diagnostics.append(d)

    # -- helpers

    def tile(self, name: Any, key: str) -> tuple[Kind, bool]:
        try:
            return parse_tile(name)
        except ValueError as exc:
            raise _Bad(f"$.{key}: {exc}") from None

    def player(self, o: dict[str, Any], key: str) -> int:
        v = o.get(key)
        if not isinstance(v, int) or isinstance(v, bool) or not 0 <= v < self.n:
            raise _Bad(f"$.{key}: expected a seat 0..{self.n - 1}, got {v!r}")
        return v

    def remove(self, p: int, code: tuple[Kind, bool], prefer: int = -1) -> Tile:
        try:
            return self.hands.take(p, code[0], code[1], prefer)
        except TileError as exc:
            if UNKNOWN in self.hands.hands[p]:  # a hidden hand: the tile was one of the unknown
                self.hands.hands[p].remove(UNKNOWN)
                return self.new(code)
            raise _Bad(str(exc)) from None

    def new(self, code: tuple[Kind, bool]) -> Tile:
        try:
            return self.hands.new(*code)
        except TileError as exc:
            raise _Bad(str(exc)) from None

    # -- events

    def event(self, o: dict[str, Any]) -> None:
        t = o.get("type")
        if "logs" in o or "meta" in o:
            self.annotated += 1
        handler = _HANDLERS.get(t) if isinstance(t, str) else None
        if handler is not None and t not in _OUTSIDE and not self.round_open:
            raise _Bad(f"{t} outside a round (no start_kyoku before it)")
        if handler is None:
            if t == "error":
                self.diag("error-event", f"the game stops with an error event: "
                          f"{json.dumps(o, ensure_ascii=False)[:200]}", Severity.WARNING)
            self.emit(Unknown(tag=f"mjai:{t}", attrs=tuple(
                (k, json.dumps(v, ensure_ascii=False)) for k, v in o.items() if k != "type")))
            return
        handler(self, o)

    def start_game(self, o: dict[str, Any]) -> None:
        self.finish_game()
        self.rec = GameRecord(path=self.path, format=FORMAT, position_kind="jsonl")
        self.records.append(self.rec)
        names = o.get("names") if isinstance(o.get("names"), list) else []
        assert isinstance(names, list)
        self.n = 3 if len(names) == 3 else 4
        self.akochan = bool(_AKOCHAN_GAME.intersection(o))
        aka = o.get("aka_flag")  # akochan states its red fives (a red five named wins)
        self.red = aka is True or self.red_in_file
        meta = tuple((f"mjai.{k}", json.dumps(v, ensure_ascii=False, separators=(",", ":")))
                     for k, v in o.items() if k not in ("type", "names", "logs", "meta"))
        base = PRESETS.get("tenhou-sanma" if self.n == 3 else "tenhou", Ruleset())
        self.ruleset = base.with_options(players=self.n, red_fives=self.red)
        if o.get("kyoku_first") in _KYOKU_FIRST:  # akochan: 4 east-only, 0 a hanchan
            self.ruleset = self.ruleset.with_options(length=_KYOKU_FIRST[o["kyoku_first"]])
        self.rec.events.append(GameStart(
            source=FORMAT, players=tuple(PlayerInfo(name=str(names[i]) if i < len(names) else "")
                                         for i in range(self.n)),
            ruleset=self.ruleset, meta=meta))
        self.rec.positions.append(self.line)
        self.scores = []
        self.round_open = False

    def start_kyoku(self, o: dict[str, Any]) -> None:
        if "tehais" not in o:
            raise _Bad("start_kyoku without tehais (the mjai-legacy dialect, whose hands are in "
                       "haipai events and which has no scores, is not read)")
        tehais = o["tehais"]
        if not isinstance(tehais, list) or len(tehais) < self.n:
            raise _Bad("$.tehais: expected a hand for each player")
        if len(tehais) == 3 and self.n == 4:
            self.n = 3
        n = self.n
        dealt = self.deal(tehais)
        scores = o.get("scores")
        if scores is None:  # some bots leave them out: carried from the last round
            scores = self.scores if len(self.scores) == n else [
                35000 if n == 3 else 25000] * n
        if not isinstance(scores, list) or len(scores) < n or not all(
                isinstance(s, int) for s in scores[:n]):
            raise _Bad("$.scores: expected a score for each player")
        bakaze = o.get("bakaze", "E")
        if not isinstance(bakaze, str) or bakaze not in _WINDS:
            raise _Bad(f"$.bakaze: {bakaze!r} is not a wind")
        indicator = self.new(self.tile(o.get("dora_marker"), "dora_marker"))
        rs = RoundStart(
            round_wind=_WINDS[bakaze], round_number=_int(o, "kyoku", 1),
            honba=_int(o, "honba", 0), kyotaku=_int(o, "kyotaku", 0),
            dealer=self.player(o, "oya"), scores=tuple(scores[:n]), dora_indicator=indicator,
            hands=tuple(dealt))
        self.start_game_from(rs)
        self.emit(rs)
        self.rs = rs
        self.round_open = True
        self.scores = list(rs.scores)
        self.sticks = rs.kyotaku
        self.indicators = [indicator]
        self.melds: list[list[Meld]] = [[] for _ in range(n)]
        self.last_draw = [-1] * n
        self.last: Event | None = None
        self.riichi_pending = [False] * n
        self.riichi = [False] * n
        self.rinshan = False
        self.result = False
        self.draws = 0
        self.kans: list[int] = []
        self.ura: tuple[Tile, ...] | None = None
        self.before_result: list[int] = []
        """The scores before the round's first result: akochan states each win of a
        double ron as these scores and its own payments."""

    def deal(self, tehais: list[Any]) -> list[tuple[Tile, ...]]:
        """The dealt hands of ``tehais`` (``?`` for a tile nobody shows), by seat."""
        self.hands = Hands(self.n, self.red)
        dealt = []
        for p in range(self.n):
            hand = tehais[p]
            if not isinstance(hand, list):
                raise _Bad(f"$.tehais[{p}]: expected a list")
            for i, name in enumerate(hand):
                if name == "?":
                    self.hands.hands[p].append(UNKNOWN)
                else:
                    try:
                        self.hands.add(p, *parse_tile(name))
                    except (ValueError, TileError) as exc:
                        raise _Bad(f"$.tehais[{p}][{i}]: {exc}") from None
            dealt.append(tuple(sorted(self.hands.hands[p])))
        return dealt

    def start_game_from(self, rs: RoundStart) -> None:
        """The game's first round states its players, first dealer and starting score."""
        if self.rec is not None and len(self.rec.events) == 1 and len(set(rs.scores)) == 1 \
                and rs.round_wind == 0 and rs.round_number == 1 and rs.honba == 0:
            gs = self.rec.events[0]
            if isinstance(gs, GameStart):
                self.rec.events[0] = GameStart(
                    source=gs.source, players=gs.players[:self.n], first_dealer=rs.dealer,
                    ruleset=gs.ruleset.with_options(players=self.n,
                                                    starting_score=rs.scores[0]),
                    meta=gs.meta)

    def tsumo(self, o: dict[str, Any]) -> None:
        p = self.player(o, "actor")
        name = o.get("pai")
        self.draw(p, None if name == "?" else self.tile(name, "pai"))

    def draw(self, p: int, code: tuple[Kind, bool] | None) -> None:
        """Seat ``p`` (a seat of the game) draws a tile of ``code`` (None: hidden)."""
        if code is None:
            tile = UNKNOWN
            self.hands.hands[p].append(tile)
        else:
            try:
                tile = self.hands.add(p, *code)
            except TileError as exc:
                raise _Bad(str(exc)) from None
        self.emit(draw_of(p, tile, self.rinshan))
        self.rinshan = False
        self.last_draw[p] = tile
        self.draws += 1

    def usual(self, move: _Move) -> bool:
        """Make a draw or discard of a seat of the game, in a round, when it is the usual
        case: a copy of the kind is left to draw, or the discarded tile is in the hand.
        Returns False, having changed nothing, when it is not (:meth:`draw` and
        :meth:`discard` then take it, with their diagnostics). What those two do, written
        out in one place: most of a game's lines come here."""
        rec = self.rec
        if rec is None:
            return False
        discard, p, (kind, five), tg = move
        hands, last_draw = self.hands, self.last_draw
        hand = hands.hands[p]
        if not discard:
            for tile in COPY_ORDER[kind * 4] if kind < 34 and not five else ():
                if tile not in hands.used:
                    hands.used.add(tile)
                    hand.append(tile)
                    rec.events.append(draw_of(p, tile, self.rinshan))
                    rec.positions.append(self.line)
                    self.rinshan = False
                    last_draw[p] = tile
                    self.draws += 1
                    return True
            return False
        rf = hands.red_fives
        five = five and rf
        drawn = last_draw[p] if tg is True or tg is None else -1
        got: int = drawn
        if drawn >= 0 and KIND_OF[drawn] == kind and (rf and drawn in RED_FIVE_IDS) == five \
                and drawn in hand:
            hand.remove(Tile(drawn))
        else:
            for j, tile in enumerate(hand):
                if KIND_OF[tile] == kind and (rf and tile in RED_FIVE_IDS) == five:
                    got = hand.pop(j)
                    break
            else:
                return False
        ev = discard_of(p, got, tg, self.riichi_pending[p])
        rec.events.append(ev)
        rec.positions.append(self.line)
        self.riichi_pending[p] = False
        last_draw[p] = -1
        self.last = ev
        return True

    def dahai(self, o: dict[str, Any]) -> None:
        p = self.player(o, "actor")
        self.discard(p, self.tile(o.get("pai"), "pai"), o.get("tsumogiri"))

    def discard(self, p: int, code: tuple[Kind, bool], tg: Any) -> None:
        """Seat ``p`` discards a tile of ``code``; ``tg`` is the event's ``tsumogiri``."""
        drawn = self.last_draw[p]
        prefer = drawn if tg is True or tg is None else -1
        tile = self.remove(p, code, prefer)
        tsumogiri = tg if isinstance(tg, bool) else None
        ev = discard_of(p, tile, tsumogiri, self.riichi_pending[p])
        self.emit(ev)
        self.riichi_pending[p] = False
        self.last_draw[p] = -1
        self.last = ev

    def call(self, o: dict[str, Any]) -> None:
        t = o["type"]
        p = self.player(o, "actor")
        frm = self.player(o, "target")
        last = self.last
        code = self.tile(o.get("pai"), "pai")
        if not isinstance(last, Discard) or last.player != frm:
            raise _Bad(f"{t} of a tile that is not player {frm}'s last discard")
        called = last.tile
        consumed = o.get("consumed")
        if not isinstance(consumed, list):
            raise _Bad("$.consumed: expected a list of tiles")
        own = [self.remove(p, self.tile(c, f"consumed[{i}]")) for i, c in enumerate(consumed)]
        if KIND_OF[called] != code[0] and called != UNKNOWN:
            raise _Bad(f"$.pai: {o.get('pai')!r} is not the discarded tile")
        tiles = tuple(sorted([*own, called]))
        ev: Meld
        if t == "chi":
            ev = Chi(player=p, from_player=frm, called=called, tiles=tiles)
        elif t == "pon":
            ev = Pon(player=p, from_player=frm, called=called, tiles=tiles)
        else:
            ev = OpenKan(player=p, from_player=frm, called=called, tiles=tiles)
            self.rinshan = True
            self.kans.append(p)
        self.melds[p].append(ev)
        self.last_draw[p] = -1
        self.emit(ev)

    def ankan(self, o: dict[str, Any]) -> None:
        p = self.player(o, "actor")
        consumed = o.get("consumed")
        if not isinstance(consumed, list) or len(consumed) != 4:
            raise _Bad("$.consumed: expected four tiles")
        drawn = self.last_draw[p]
        tiles = tuple(sorted(self.remove(p, self.tile(c, f"consumed[{i}]"), drawn)
                             for i, c in enumerate(consumed)))
        ev = ClosedKan(player=p, tiles=tiles)
        self.melds[p].append(ev)
        self.emit(ev)
        self.last = ev
        self.rinshan = True
        self.kans.append(p)
        self.last_draw[p] = -1

    def kakan(self, o: dict[str, Any]) -> None:
        p = self.player(o, "actor")
        kind, red = self.tile(o.get("pai"), "pai")
        pon = next((m for m in self.melds[p] if isinstance(m, Pon)
                    and KIND_OF[m.called] == kind), None)
        if pon is None:
            raise _Bad(f"player {p} adds to a pon they do not have")
        tile = self.remove(p, (kind, red), self.last_draw[p])
        ev = AddedKan(player=p, from_player=pon.from_player, called=pon.called, added=tile,
                      tiles=tuple(sorted((*pon.tiles, tile))))
        self.melds[p][self.melds[p].index(pon)] = ev
        self.emit(ev)
        self.last = ev
        self.rinshan = True
        self.kans.append(p)
        self.last_draw[p] = -1

    def nukidora(self, o: dict[str, Any]) -> None:
        p = self.player(o, "actor")
        tile = self.remove(p, self.tile(o.get("pai", "N"), "pai"), self.last_draw[p])
        ev = Kita(player=p, tile=tile)
        self.melds[p].append(ev)
        self.emit(ev)
        self.last = ev
        self.rinshan = True
        self.last_draw[p] = -1

    def dora(self, o: dict[str, Any]) -> None:
        tile = self.new(self.tile(o.get("dora_marker"), "dora_marker"))
        self.indicators.append(tile)
        self.emit(DoraReveal(indicator=tile))

    def reach(self, o: dict[str, Any]) -> None:
        self.riichi_pending[self.player(o, "actor")] = True

    def reach_accepted(self, o: dict[str, Any]) -> None:
        p = self.player(o, "actor")
        self.riichi[p] = True
        self.scores[p] -= 1000
        self.sticks += 1
        scores = o.get("scores")
        if isinstance(scores, list) and len(scores) >= self.n:
            self.scores = [int(s) for s in scores[:self.n]]
        self.emit(RiichiAccepted(player=p, scores=tuple(self.scores)))

    def hora(self, o: dict[str, Any]) -> None:
        w = self.player(o, "actor")
        frm = self.player(o, "target")
        first = not self.result
        if first:
            self.before_result = list(self.scores)
        akochan = _akochan_hora(o)
        self.akochan = self.akochan or akochan
        deltas = self.scores_change(o, self.before_result) if akochan and "deltas" not in o \
            else _deltas(o, self.n)
        if UNKNOWN in self.hands.hands[w]:
            self.reveal(o, w, frm == w)
        hand, win_tile = winning_hand(self.hands.hands[w], frm == w, self.last_draw[w], self.last)
        ura_key = next((k for k in _URA_KEYS if k in o), _URA_KEYS[0])
        ura_names = o.get(ura_key)
        if self.ura is None and isinstance(ura_names, list) and ura_names:
            self.ura = tuple(self.new(self.tile(u, ura_key)) for u in ura_names)
        yaku = self.yaku(o, w, hand)
        fu = _akochan_fu(_int(o, "fu", 0)) if akochan else _int(o, "fu", 0)
        han_total = sum(y.han for y in yaku) or _int(o, "fan", 0)
        if akochan and han_total > 13:  # akochan counts riichi and dora on top of a yakuman
            han_total = 13
        points = _int(o, "hora_points", 0)
        limit = hand_value(han_total, fu, self.ruleset)[1] if fu or han_total >= 5 \
            else _limit_of(points, w == self.rs.dealer)
        self.result = True
        melds = tuple(meld_tiles(m) for m in reversed(self.melds[w]))
        self.emit(Win(
            winner=w, from_player=frm, hand=hand, win_tile=win_tile, melds=melds,
            yaku=tuple(yaku), fu=fu, han=han_total, limit=limit,
            points=points, deltas=deltas, scores_before=tuple(self.scores),
            honba=self.rs.honba, kyotaku=self.sticks if first else 0,
            dora_indicators=tuple(self.indicators),
            ura_indicators=self.ura if self.riichi[w] and self.ura else ()))
        if deltas:
            self.scores = [s + d for s, d in zip(self.scores, deltas, strict=False)]
        self.sticks = 0

    def scores_change(self, o: dict[str, Any], before: list[int]) -> tuple[int, ...]:
        """The payments of a result that states the ``scores`` after it (akochan's
        dialect), not its ``deltas``: the change from ``before``; none when it states no
        scores."""
        scores = o.get("scores")
        if scores is None:
            return ()
        if not isinstance(scores, list) or len(scores) < self.n or not all(
                isinstance(x, int) and not isinstance(x, bool) for x in scores[:self.n]):
            raise _Bad("$.scores: expected a score for each player")
        return tuple(a - b for a, b in zip(scores[:self.n], before, strict=False))

    def reveal(self, o: dict[str, Any], w: int, tsumo: bool) -> None:
        """A hidden hand shown at its win (``hora_tehais``, with the ``pai`` of a tsumo
        when the list leaves it out): its unknown tiles become the tiles shown, so that the
        win can be valued. A list that does not hold the tiles known, or names more or
        fewer tiles than the hand, is left unread: the hand stays hidden."""
        names = o.get("hora_tehais")
        if not isinstance(names, list):
            return
        hand = self.hands.hands[w]
        shown = [self.tile(n, f"hora_tehais[{i}]") for i, n in enumerate(names)]
        win = self.tile(o.get("pai"), "pai") if tsumo else None
        if win is not None and len(shown) == len(hand) - 1:
            shown.append(win)
        for t in hand:
            if t != UNKNOWN:
                code = (KIND_OF[t], t in RED_FIVE_IDS)
                if code not in shown:
                    return
                shown.remove(code)
        if len(shown) != hand.count(UNKNOWN):
            return
        if win is not None and self.last_draw[w] == UNKNOWN and win in shown:
            shown.remove(win)  # the tile drawn is the one won on
            drawn = self.last_draw[w] = self.new(win)
            hand[hand.index(UNKNOWN)] = drawn
        new = iter([self.new(code) for code in shown])
        hand[:] = [next(new) if t == UNKNOWN else t for t in hand]

    def yaku(self, o: dict[str, Any], w: int, hand: tuple[Tile, ...]) -> list[YakuClaim]:
        """A ``hora``'s ``yakus`` as claims (a yakuman written as 1 counts 13 han)."""
        yaku: list[YakuClaim] = []
        sets = [*hand, *(t for m in self.melds[w] if not isinstance(m, Kita)
                         for t in meld_tiles(m))]
        for item in o.get("yakus") or []:
            if not (isinstance(item, list) and len(item) == 2 and isinstance(item[0], str)):
                raise _Bad(f"$.yakus: {item!r} is not a [name, han] pair")
            han = int(item[1]) if isinstance(item[1], int) else 0
            if item[0] == "sangenpai":  # one han per dragon set, the hand says which
                dragons = [k for k in (31, 32, 33)
                           if sum(1 for t in sets if KIND_OF[t] == k) >= 3]
                yaku += [YakuClaim(name=("haku", "hatsu", "chun")[k - 31], han=1)
                         for k in dragons[:han]]
                continue
            name = MJAI_YAKU.get(item[0]) or _wind_yaku(item[0], self.rs, w, self.n) \
                or yaku_from_text(item[0]) or item[0]
            info = BY_NAME.get(name)
            if info is not None and info.yakuman and han < 13:
                han *= 13  # the original mjai writes a yakuman as 1 (or 2)
            yaku.append(YakuClaim(name=name, han=han))
        return yaku

    def ryukyoku(self, o: dict[str, Any]) -> None:
        n = self.n
        deltas = _deltas(o, n)
        if self.akochan and "deltas" not in o:
            deltas = self.scores_change(o, self.scores)
        reason = o.get("reason")
        kind = _REASONS.get(str(reason).lower()) if reason is not None else self.infer_draw()
        if kind is None:
            raise _Bad(f"$.reason: unknown draw reason {reason!r}")
        before = tuple(self.scores)
        if kind in ("exhaustive", "nagashi"):
            tenpai = self.tenpai(o, deltas, kind)
            ev: Event = ExhaustiveDraw(
                hands=tuple(tuple(sorted(self.hands.hands[p])) if tenpai[p] else None
                            for p in range(n)),
                deltas=deltas, scores_before=before, nagashi=kind == "nagashi",
                honba=self.rs.honba, kyotaku=self.sticks)
        else:
            shown: tuple[tuple[Tile, ...] | None, ...] = (None,) * n
            if kind == "nine-terminals":
                # the declarer: the one player still holding a drawn tile
                p = next((q for q, t in enumerate(self.last_draw) if t >= 0), self.rs.dealer)
                shown = tuple(tuple(sorted(self.hands.hands[q])) if q == p else None
                              for q in range(n))
            elif kind == "four-riichi":
                shown = tuple(tuple(sorted(h)) for h in self.hands.hands)
            ev = AbortiveDraw(kind=kind, hands=shown, deltas=deltas, scores_before=before,
                              honba=self.rs.honba, kyotaku=self.sticks)
        self.result = True
        self.emit(ev)
        if deltas:
            self.scores = [s + d for s, d in zip(self.scores, deltas, strict=False)]

    def infer_draw(self) -> str:
        """The kind of a draw written without a reason (Mortal's ``ryukyoku``)."""
        live = (70 if self.n == 4 else 55) - len(self.kans)
        if self.draws - len(self.kans) >= live:
            return "exhaustive"
        if sum(self.riichi) + sum(self.riichi_pending) == 4:
            return "four-riichi"
        if len(self.kans) >= 4:
            return "four-kans"
        if isinstance(self.last, Discard) and self.draws == 4:
            return "four-winds"
        return "nine-terminals"

    def tenpai(self, o: dict[str, Any], deltas: tuple[int, ...], kind: str) -> list[bool]:
        n = self.n
        flags = o.get("tenpais")
        if isinstance(flags, list) and len(flags) >= n:
            return [bool(f) for f in flags[:n]]
        if kind == "exhaustive" and deltas and any(deltas):
            return [d > 0 for d in deltas]
        return [shape_tenpai(self.hands.hands[p], self.melds[p]) for p in range(n)]

    def end_kyoku(self, o: dict[str, Any]) -> None:
        if not self.round_open:
            raise _Bad("end_kyoku outside a round")
        self.emit(RoundEnd(scores=tuple(self.scores) if self.result else None))
        self.round_open = False

    def end_game(self, o: dict[str, Any]) -> None:
        scores = o.get("scores")
        final = tuple(int(s) for s in scores[:self.n]) if isinstance(scores, list) else None
        self.emit(GameEnd(scores=final))
        self.finish_game()

    def finish_game(self) -> None:
        if self.annotated and self.rec is not None:
            self.rec.diagnostics.append(Diagnostic(
                code="annotations-dropped", severity=Severity.INFO,
                message=f"{self.annotated} events carry bot annotations (logs, meta), "
                "which mjlog does not keep"))
        self.annotated = 0


_URA_KEYS: Final = ("ura_markers", "uradora_markers", "uradora_marker")
"""The names of a win's ura dora indicators: Mortal's, the original mjai's, akochan's."""
_OUTSIDE: Final = frozenset({"start_game", "start_kyoku", "end_game", "end_kyoku"})
"""Events that may come outside a round."""

_HANDLERS: Final = {
    "start_game": _Reader.start_game, "start_kyoku": _Reader.start_kyoku,
    "tsumo": _Reader.tsumo, "dahai": _Reader.dahai, "chi": _Reader.call,
    "pon": _Reader.call, "daiminkan": _Reader.call, "ankan": _Reader.ankan,
    "kakan": _Reader.kakan, "nukidora": _Reader.nukidora, "dora": _Reader.dora,
    "reach": _Reader.reach, "reach_accepted": _Reader.reach_accepted, "hora": _Reader.hora,
    "ryukyoku": _Reader.ryukyoku, "end_kyoku": _Reader.end_kyoku, "end_game": _Reader.end_game,
}


def _int(o: dict[str, Any], key: str, default: int) -> int:
    v = o.get(key, default)
    if not isinstance(v, int) or isinstance(v, bool):
        raise _Bad(f"$.{key}: expected an integer, got {v!r}")
    return v


def _deltas(o: dict[str, Any], n: int) -> tuple[int, ...]:
    d = o.get("deltas")
    if d is None:
        return ()
    if not isinstance(d, list) or len(d) < n or not all(isinstance(x, int) for x in d[:n]):
        raise _Bad("$.deltas: expected a number for each player")
    return tuple(d[:n])


def _limit_of(points: int, dealer: bool) -> str:
    """The limit of a win below 5 han that states no fu: mangan when its points are a
    mangan's (a 4-han hand of 40 fu and more, a 3-han one of 70), else none."""
    return "mangan" if points >= (12000 if dealer else 8000) else ""


def _wind_yaku(name: str, rs: RoundStart, winner: int, n: int) -> str | None:
    names = ("east", "south", "west", "north")
    if name == "bakaze":
        return f"round-wind-{names[rs.round_wind % 4]}"
    if name == "jikaze":
        return f"seat-wind-{names[(winner - rs.dealer) % n]}"
    return None


def looks_like(first: dict[str, Any]) -> bool:
    """Whether a first JSON line is an mjai event (``start_game`` and the like)."""
    return first.get("type") in ("start_game", "start_kyoku")


_REVIEW: Final = re.compile(rb'^\{[^\n]{0,2000}?"mjai_log"\s*:\s*\['  # one line
                            rb'|^\{\s*\n(?:.*\n){0,20}?\s*"mjai_log"\s*:'  # or indented
                            rb'|^\{\s*"engine"\s*:\s*"(?:Mortal|Akochan)"'  # mjai-reviewer's
                            rb'|^\{[^\n]{0,1000}?"review"\s*:\s*\{\s*"total_reviewed"\s*:')
"""A review report's start: ``mjai_log`` among its first keys (the first 20 lines), or
mjai-reviewer's ``--json`` output, whose first key is its ``engine`` and whose ``review``
(starting with ``total_reviewed``) comes before ``mjai_log``."""
_FRAGMENTS: Final = re.compile(rb'^\[\s*\{\s*"type"\s*:\s*"(?:start_game|start_kyoku)"')


def looks_like_wrapped(start: bytes) -> bool:
    """Whether the start of a file is mjai wrapped as tools save it: a Mortal or
    mjai-reviewer review report (an object whose ``mjai_log`` lists the game's events), or
    an mjai.app bot's log (each line a JSON array of events)."""
    return _REVIEW.match(start) is not None or _FRAGMENTS.match(start) is not None


def _review_log(data: bytes) -> tuple[list[Any], list[jsontext.BadNumber],
                                      dict[str, Any]] | None:
    """The events of a review report's ``mjai_log``, with the numbers in the report that
    mjlog does not read (read as null) and the whole report (its review is read by
    :func:`mjlog.formats.review.review_of`), or None for any other file."""
    if _REVIEW.match(data[:4096].lstrip()) is None:  # not a copy of the whole file
        return None
    try:
        doc, bad = jsontext.decode(data)
    except (ValueError, RecursionError):
        return None
    log = doc.get("mjai_log") if isinstance(doc, dict) else None
    return (log, bad, doc) if isinstance(log, list) and isinstance(doc, dict) else None


_RED_NAME = re.compile(rb'"5[mps]r"')

_Move = tuple[bool, int, tuple[Kind, bool], Any]
"""A draw or discard line's event, read: (a discard?, seat, the tile's code, ``tsumogiri``
as written, None when absent)."""
_MOVES: dict[str, _Move] = {}
"""The draw and discard lines met before (in any file), by their text: most of a game's
lines are a few hundred such texts, and reading one again is a look-up."""
_MOVE_KEYS: Final = (frozenset({"type", "actor", "pai"}),
                     frozenset({"type", "actor", "pai", "tsumogiri"}))


def _move(o: Any) -> _Move | None:
    """The move a parsed line stands for when it is a plain draw or discard: a seat of a
    four-player table, a tile that is named (not ``?``), a ``tsumogiri`` that is a bool or
    absent, and no other member (no bot annotation); else None."""
    if not isinstance(o, dict) or o.get("type") not in ("tsumo", "dahai"):
        return None
    discard = o["type"] == "dahai"
    actor, pai, tg = o.get("actor"), o.get("pai"), o.get("tsumogiri")
    if o.keys() not in _MOVE_KEYS or (not discard and "tsumogiri" in o) \
            or type(actor) is not int or not 0 <= actor < 4 or not isinstance(pai, str) \
            or pai not in _CODES or not (tg is None or isinstance(tg, bool)):
        return None
    return discard, actor, _CODES[pai], tg


def read(data: bytes, path: str = "", *, strict: bool = False) -> list[GameRecord]:
    """Read mjai JSON Lines: one or more games, each from ``start_game`` to ``end_game``.

    A line that is not JSON or not a readable event gives a diagnostic with its
    line (and JSON path) and is skipped; with ``strict`` it raises
    :class:`InputError`. mjai states no rules: a file that never names a red five
    (``5mr``) is read as games played without them.
    """
    r = _Reader(path, strict)
    r.red_in_file = _RED_NAME.search(data) is not None
    review = _review_log(data)
    if review is not None:  # a review report: its events, each at its place in mjai_log
        for number in review[1]:
            r.diag("bad-value", str(number), path=number.path)
        for r.line, o in enumerate(review[0], 1):
            _one(r, o)
        records = _records(r, path)
        records[0].review = review_of(review[2], review[0], records[0].positions)
        return records
    parsed: dict[str, Any] = {}  # short lines met before (draws, discards): their objects
    moves = _MOVES
    for lineno, line, bad in jsontext.text_lines(data):
        r.line = lineno
        move = moves.get(line)
        if move is not None and r.round_open and move[1] < r.n:
            try:  # what the line's event does, as event() would do it
                if not r.usual(move):
                    (r.discard(move[1], move[2], move[3]) if move[0]
                     else r.draw(move[1], move[2]))
            except _Bad as exc:
                r.diag("bad-event", f"{'dahai' if move[0] else 'tsumo'}: {exc}")
            continue
        if bad is not None:
            r.diag("bad-encoding", f"not UTF-8 at byte {bad.start + 1}: {bad.reason}")
            continue
        o = parsed.get(line)
        if o is None:
            if not line.strip():
                continue
            try:
                o = jsontext.loads(line)
            except json.JSONDecodeError as exc:
                r.diag("json-syntax", f"{exc.msg} (column {exc.colno})")
                continue
            except jsontext.BadNumber as exc:  # NaN, 1e999, 10**30: the line is not read
                r.diag("bad-value", str(exc), path=exc.path)
                continue
            if len(line) <= jsontext.SHORT_LINE:  # the reader never changes what it reads
                jsontext.remember(parsed, line, o)
                if (known := _move(o)) is not None:
                    jsontext.remember(moves, line, known)
        for one in o if isinstance(o, list) else (o,):  # a bot's log: a line of events
            _one(r, one)
    return _records(r, path)


def _one(r: _Reader, o: Any) -> None:
    """Read one parsed event at the reader's line, or say at its line why not."""
    if not isinstance(o, dict):
        r.diag("bad-event", "not a JSON object")
        return
    if o.get("type") == "haipai":
        r.diag("unsupported-dialect", "haipai events (the mjai-legacy dialect, without "
               "scores) are not read")
        return
    try:
        r.event(o)
    except _Bad as exc:
        r.diag("bad-event", f"{o.get('type')}: {exc}")


def _records(r: _Reader, path: str) -> list[GameRecord]:
    """The games read, the last one finished; one empty record when none was."""
    r.finish_game()
    if not r.records:
        r.records.append(GameRecord(path=path, format=FORMAT, position_kind="jsonl"))
    return r.records


# ---------------------------------------------------------------- writing


class _Writer:
    """Turns one game's events into mjai objects of a dialect."""

    def __init__(self, dialect: str, log_name: str | None) -> None:
        if dialect not in DIALECTS:
            raise ValueError(f"unknown mjai dialect {dialect!r}; known: {', '.join(DIALECTS)}")
        self.dialect = dialect
        self.full = dialect == "mjai"
        self.legacy = dialect == "mjai-legacy"
        self.log_name = log_name
        self.red = True
        self.n = 4
        self.scores: list[int] = []

    def name(self, t: int) -> str:
        return tile_name(t, self.red)

    def names(self, tiles: Iterable[int]) -> list[str]:
        return [tile_name(t, self.red) for t in tiles]

    def events(self, ev: Event) -> Iterator[dict[str, Any]]:
        """The mjai objects of one event (none for what mjai does not carry)."""
        write = _EVENTS.get(ev.__class__)
        if write is not None:
            yield from write(self, ev)

    def game_start(self, ev: GameStart) -> Iterator[dict[str, Any]]:
        self.red = ev.ruleset.red_fives
        self.n = ev.ruleset.players
        meta = {k[len("mjai."):]: json.loads(v) for k, v in ev.meta if k.startswith("mjai.")}
        o: dict[str, Any] = {"type": "start_game"}
        if self.legacy and self.log_name is not None:
            o["uri"] = (f"http://tenhou.net/0/?log={self.log_name}"
                        f"&tw={(4 - ev.first_dealer) % 4}")
        o["names"] = [p.name for p in ev.players]
        if not self.legacy:
            o.update({k: v for k, v in meta.items() if k not in o})
        yield o

    def round_start(self, ev: RoundStart) -> Iterator[dict[str, Any]]:
        self.scores = list(ev.scores)
        self.dealer = ev.dealer
        self.rs = ev
        self.last_draw = [-1] * self.n
        if self.legacy:
            yield {"type": "start_kyoku", "oya": ev.dealer,
                   "dora_marker": self.name(ev.dora_indicator)}
            n = len(ev.hands)
            for k in range(n):  # dealt from the dealer on
                p = (ev.dealer + k) % n
                yield {"type": "haipai", "actor": p, "pais": self.names(ev.hands[p])}
            return
        yield {"type": "start_kyoku", "bakaze": "ESWN"[ev.round_wind % 4],
               "dora_marker": self.name(ev.dora_indicator), "kyoku": ev.round_number,
               "honba": ev.honba, "kyotaku": ev.kyotaku, "oya": ev.dealer,
               "scores": list(ev.scores), "tehais": [self.names(h) for h in ev.hands]}

    def draw(self, ev: Draw) -> Iterator[dict[str, Any]]:
        self.last_draw[ev.player] = ev.tile
        yield {"type": "tsumo", "actor": ev.player, "pai": self.name(ev.tile)}

    def discard(self, ev: Discard) -> Iterator[dict[str, Any]]:
        if ev.riichi:
            yield {"type": "reach", "actor": ev.player}
        o = {"type": "dahai", "actor": ev.player, "pai": self.name(ev.tile)}
        if not self.legacy:
            o["tsumogiri"] = ev.tsumogiri if ev.tsumogiri is not None else (
                ev.tile == self.last_draw[ev.player])
        self.last_draw[ev.player] = -1
        yield o

    def call(self, ev: Chi | Pon | OpenKan) -> Iterator[dict[str, Any]]:
        t = "chi" if isinstance(ev, Chi) else "pon" if isinstance(ev, Pon) else "daiminkan"
        yield {"type": t, "actor": ev.player, "target": ev.from_player,
               "pai": self.name(ev.called),
               "consumed": self.names(x for x in ev.tiles if x != ev.called)}

    def own_call(self, ev: AddedKan | ClosedKan | Kita) -> Iterator[dict[str, Any]]:
        if isinstance(ev, AddedKan):
            yield {"type": "kakan", "actor": ev.player, "pai": self.name(ev.added),
                   "consumed": self.names(x for x in ev.tiles if x != ev.added)}
        elif isinstance(ev, ClosedKan):
            yield {"type": "ankan", "actor": ev.player, "consumed": self.names(ev.tiles)}
        else:
            yield {"type": "nukidora", "actor": ev.player, "pai": self.name(ev.tile)}

    def dora(self, ev: DoraReveal) -> Iterator[dict[str, Any]]:
        yield {"type": "dora", "dora_marker": self.name(ev.indicator)}

    def riichi(self, ev: RiichiAccepted) -> Iterator[dict[str, Any]]:
        o: dict[str, Any] = {"type": "reach_accepted", "actor": ev.player}
        self.scores[ev.player] -= 1000
        if self.full:
            deltas = [0] * self.n
            deltas[ev.player] = -1000
            o["deltas"] = deltas
            o["scores"] = list(ev.scores) if ev.scores is not None else list(self.scores)
        yield o

    def win(self, ev: Win) -> Iterator[dict[str, Any]]:
        yield self.hora(ev)

    def draw_result(self, ev: ExhaustiveDraw | AbortiveDraw) -> Iterator[dict[str, Any]]:
        yield self.ryukyoku(ev)

    def round_end(self, ev: RoundEnd) -> Iterator[dict[str, Any]]:
        yield {"type": "end_kyoku"}

    def game_end(self, ev: GameEnd) -> Iterator[dict[str, Any]]:
        o: dict[str, Any] = {"type": "end_game"}
        if self.full and ev.scores is not None:
            o["scores"] = list(ev.scores)
        yield o

    def unknown(self, ev: Unknown) -> Iterator[dict[str, Any]]:
        if ev.tag.startswith("mjai:"):
            o = {"type": ev.tag[len("mjai:"):]}
            o.update({k: json.loads(v) for k, v in ev.attrs})
            yield o

    def hora(self, ev: Win) -> dict[str, Any]:
        o: dict[str, Any] = {"type": "hora", "actor": ev.winner, "target": ev.from_player}
        if self.legacy:
            o["pai"] = self.name(ev.win_tile)
            return o
        if self.full:
            o["pai"] = self.name(ev.win_tile)
            hand = list(ev.hand)
            if ev.win_tile in hand:
                hand.remove(ev.win_tile)
            o["hora_tehais"] = self.names(hand)
            o["uradora_markers"] = self.names(ev.ura_indicators)
            if ev.fu:  # a limit hand whose record states no fu is written without one
                o["fu"] = ev.fu
            o["fan"] = ev.han
            o["yakus"] = [[_yaku_out(y.name), _han_out(y)] for y in ev.yaku if y.han]
            o["hora_points"] = ev.points
        if ev.deltas:
            o["deltas"] = list(ev.deltas)
            self.scores = [s + d for s, d in zip(self.scores, ev.deltas, strict=False)]
        if self.full:
            o["scores"] = list(self.scores)
        elif ev.ura_indicators:
            o["ura_markers"] = self.names(ev.ura_indicators)
        return o

    def ryukyoku(self, ev: ExhaustiveDraw | AbortiveDraw) -> dict[str, Any]:
        kind = "exhaustive" if isinstance(ev, ExhaustiveDraw) else ev.kind
        if isinstance(ev, ExhaustiveDraw) and ev.nagashi:
            kind = "nagashi"
        o: dict[str, Any] = {"type": "ryukyoku"}
        if self.legacy or self.full or kind != "exhaustive" or self.dialect == "mjai.app":
            o["reason"] = _REASON_OF.get(kind, kind)
        if self.legacy:
            return o
        if self.full:
            hands = list(ev.hands) + [None] * (self.n - len(ev.hands))
            o["tehais"] = [self.names(h) if h is not None else ["?"] * 13 for h in hands]
            o["tenpais"] = [h is not None for h in hands] if isinstance(ev, ExhaustiveDraw) \
                else [False] * self.n
        if ev.deltas:  # a record that states no payments is written without them
            o["deltas"] = list(ev.deltas)
            self.scores = [s + d for s, d in zip(self.scores, ev.deltas, strict=False)]
        if self.full:
            o["scores"] = list(self.scores)
        return o



_EVENTS: dict[type, Callable[[_Writer, Any], Iterator[dict[str, Any]]]] = {
    GameStart: _Writer.game_start, RoundStart: _Writer.round_start, Draw: _Writer.draw,
    Discard: _Writer.discard, Chi: _Writer.call, Pon: _Writer.call, OpenKan: _Writer.call,
    AddedKan: _Writer.own_call, ClosedKan: _Writer.own_call, Kita: _Writer.own_call,
    DoraReveal: _Writer.dora, RiichiAccepted: _Writer.riichi, Win: _Writer.win,
    ExhaustiveDraw: _Writer.draw_result, AbortiveDraw: _Writer.draw_result,
    RoundEnd: _Writer.round_end, GameEnd: _Writer.game_end, Unknown: _Writer.unknown,
}
"""How each kind of event is written (what is not here, mjai does not carry)."""

def _yaku_out(name: str) -> str:
    if name.startswith("seat-wind-"):
        return "jikaze"
    if name.startswith("round-wind-"):
        return "bakaze"
    return _TO_MJAI.get(name, name)


def _han_out(y: YakuClaim) -> int:
    info = BY_NAME.get(y.name)
    return y.han // 13 if info is not None and info.yakuman and y.han >= 13 else y.han


def to_objects(events: Iterable[Event], *, dialect: str = "mortal",
               log_name: str | None = None) -> Iterator[dict[str, Any]]:
    """The mjai objects of ``events`` in ``dialect``.

    ``log_name`` (mjai-legacy only) gives ``start_game`` the Tenhou log URI
    that dialect carries. What mjai cannot hold is left out (see
    ``docs/formats.md``): physical tile ids, walls and dice, disconnections,
    the record's yaku and fu (except in the ``mjai`` dialect).
    """
    w = _Writer(dialect, log_name)
    for ev in events:
        yield from w.events(ev)


def write(events: Iterable[Event], *, dialect: str = "mortal",
          log_name: str | None = None) -> str:
    """mjai JSON Lines of ``events`` (one object per line) in ``dialect``."""
    return "".join(json.dumps(o, ensure_ascii=False, separators=(",", ":")) + "\n"
                   for o in to_objects(events, dialect=dialect, log_name=log_name))

"""Riichi City's own record: the game record its API returns.

A file is one object::

    {"code": 0, "message": "...",
     "data": {"playerCount": 4, "initPoints": 25000, "round": 2, "gamePlay": 1001, ...,
              "handRecord": [{"changCi", "benChangNum", "quanFeng", "players": [...],
                              "handCardEncode", "handCardsSHA256", "paiShan",
                              "handEventRecord": [{"eventType", "userId", "data": "<JSON>"},
                                                  ...]}, ...]}}

Each ``handRecord`` is one round. ``handCardEncode`` is its whole wall in mpsz
(136 or 108 tiles), ``handCardsSHA256`` the sha256 of that text, published
before the round; :mod:`mjlog.wall.published` proves the round's tiles from
them. Each event's ``data`` is a JSON string; ``eventType`` says what it is
(1 a seat's deal, 2 the seat to move and its draw, 3 the calls offered to the
others, 4 a move, 5 the round's result, 6 the game's result, 7 the kan dora
indicators, 8 a riichi that stands, 9 furiten, 10 a pause, 11 the waits).
Tiles are numbers: the low four bits the number, the next four the suit (0
circles, 1 bamboo, 2 characters, 3 to 9 east to red dragon), 256 added for a
red five. ``docs/formats.md`` lists the codes of moves, results and yaku as
mjlog reads them and how many corpus records support each.

A file that holds only a list of round events without its game (players,
wall, results) is refused as ``not-a-game``: it is not a complete game
record. Problems give diagnostics with a JSON path; what was read before them
is kept. This module does no file I/O.
"""

from __future__ import annotations

import json
import re
from typing import Any, Final

from mjlog.core.diagnostics import Diagnostic, InputError, Severity
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
    Published,
    RiichiAccepted,
    RoundEnd,
    RoundStart,
    Win,
    YakuClaim,
)
from mjlog.core.record import GameRecord
from mjlog.core.ruleset import PRESETS, Ruleset
from mjlog.core.tiles import KIND_OF, Kind, Tile
from mjlog.families.riichi.scoring.payments import worked_back
from mjlog.formats import jsontext
from mjlog.formats.kinds import Meld, limit_of, meld_tiles, winning_hand
from mjlog.formats.origin import origin_of
from mjlog.formats.platform import MALFORMED, BadValue, JsonReader, Tiles, load, numbers

FORMAT = "riichicity"
DIAGNOSTIC_CODES: Final = frozenset({
    "bad-encoding", "json-syntax", "bad-value", "not-a-game", "no-result", "unknown-yaku",
    "unknown-result", "vote-termination", "unsupported-rules",
})
"""Codes of the diagnostics :func:`read` gives."""

_SIGNATURE = re.compile(rb'"handRecord"\s*:|"handEventRecord"\s*:')
_EVENTS_ONLY = re.compile(rb'^\[\s*\{\s*"hand_cards"\s*:')

FANG: Final[dict[int, str]] = {
    0: "riichi", 1: "menzen-tsumo", 2: "ippatsu", 3: "rinshan-kaihou", 4: "haitei",
    5: "houtei", 6: "chankan", 7: "chun", 8: "hatsu", 9: "haku", 12: "iipeikou",
    13: "pinfu", 14: "tanyao", 15: "double-riichi", 16: "toitoi", 17: "chiitoitsu",
    18: "sanankou", 19: "sankantsu", 20: "honroutou", 21: "chanta", 22: "ittsu",
    23: "sanshoku", 24: "shousangen", 25: "sanshoku-doukou", 26: "junchan", 27: "honitsu",
    28: "ryanpeikou", 29: "chinitsu", 31: "tenhou", 32: "chiihou", 33: "renhou",
    34: "kokushi", 35: "kokushi-13", 36: "chuuren-poutou", 37: "junsei-chuuren-poutou",
    38: "suuankou", 39: "suuankou-tanki", 40: "suukantsu", 41: "chinroutou", 42: "tsuuiisou",
    43: "daisuushii", 44: "shousuushii", 45: "daisangen", 46: "ryuuiisou", 49: "aka-dora",
    50: "dora", 51: "ura-dora", 55: "kita-dora",
}
"""Riichi City's yaku (``fang_type``) to mjlog's names; 10 and 11 are the round's and the
seat's wind, named by the round and the winner's seat."""
_ROUND_WIND_FANG: Final = 10
_SEAT_WIND_FANG: Final = 11
_YAKUMAN: Final = frozenset(range(31, 48)) - {33}
_WINDS: Final = ("east", "south", "west", "north")

END_TYPES: Final[dict[int, str]] = {
    2: "four-winds", 3: "four-kans", 4: "four-riichi", 5: "triple-ron",
    6: "nine-terminals", 1002: "four-winds", 1004: "four-riichi",
}
"""Abortive draws by ``end_type`` (1002 and 1004: three-player four winds and riichi)."""
_RON, _TSUMO, _EXHAUSTED, _VOTE = 0, 1, 7, 8
_TRIPLE_RON: Final = 5

PARTY_RULES: Final[dict[str, str]] = {
    "isKaiLiZhi": "open riichi (開立直, isKaiLiZhi)", "isLuck": "luck points (isLuck)",
    "isShaoJi": "yakitori (焼き鳥, isShaoJi)", "isGeMu": "isGeMu",
}
"""A friend room's switches for rules beyond the platform's ranked rules."""

_CHI: Final = {2: 0, 3: 1, 4: 2}
"""Chi moves by the called tile's place in the run (lowest, middle, highest)."""
_PON, _OPEN_KAN, _RON_MOVE, _CLOSED_KAN, _ADDED_KAN, _TSUMO_MOVE, _DISCARD, _KITA = (
    5, 6, 7, 8, 9, 10, 11, 13)


def looks_like(start: bytes) -> bool:
    """Whether the start of a file is Riichi City's record (a ``handRecord`` list), or a
    list of its round events alone (which :func:`read` refuses as not a game)."""
    text = start.lstrip()
    return (text.startswith(b"{") and _SIGNATURE.search(start) is not None) \
        or _EVENTS_ONLY.match(text) is not None


def tile_kind(code: Any) -> tuple[Kind, bool]:
    """``(kind, red)`` of a tile number; raises ``ValueError``."""
    if not isinstance(code, int) or isinstance(code, bool):
        raise ValueError(f"{code!r} is not a tile")
    red, suit, n = bool(code & 256), (code >> 4) & 15, code & 15
    if suit <= 2 and 1 <= n <= 9 and (not red or n == 5):
        return (9, 18, 0)[suit] + n - 1, red
    if 3 <= suit <= 9 and n == 1 and not red:
        return 27 + suit - 3, False
    raise ValueError(f"{code} is not a tile")


def ruleset_of(data: dict[str, Any]) -> Ruleset:
    """The ruleset of a game: ``riichicity`` or ``riichicity-sanma`` for its players, with
    its starting score (``initPoints``) and length (``round``: 1 east, 2 south)."""
    players = 3 if data.get("playerCount") == 3 else 4
    rules = PRESETS["riichicity-sanma" if players == 3 else "riichicity"]
    options: dict[str, Any] = {}
    if isinstance(data.get("initPoints"), int) and data["initPoints"] > 0:
        options["starting_score"] = data["initPoints"]
    if data.get("round") in (1, 2):
        options["length"] = "east" if data["round"] == 1 else "south"
    if data.get("gamePlay") == KIRIAGE_ROOMS:
        options["kiriage"] = True
        if players == 3:  # 4 of 4 draws with two ready, 3 of 3 with one (unconfirmed in 1001)
            options["noten_per_ready"] = 2000
    return rules.with_options(**options) if options else rules


KIRIAGE_ROOMS: Final = 1002
"""Riichi City's ``gamePlay`` whose rooms pay 30 fu 4 han and 60 fu 3 han as a mangan
(kiriage), though the record carries no flag: 11 of 11 such wins in 1002 rooms of held-out
records, 0 of 5 in 1001 and 1003 rooms."""


def read(data: bytes, path: str = "", *, strict: bool = False) -> list[GameRecord]:
    """Read one game. Raises :class:`InputError` (``not-a-game``) for a list of round
    events without its game. Problems give diagnostics with a JSON path; what was read
    before them is kept. With ``strict`` the first error raises :class:`InputError`."""
    reader = _Reader(path, strict)
    ok, doc = load(data, reader)
    if not ok:
        return [reader.rec]
    if isinstance(doc, list):
        raise InputError(Diagnostic(code="not-a-game", message=(
            "a list of Riichi City round events without its game (no players, wall or "
            "results): not a complete game record")))
    game, reader.root = _game_of(doc)
    if game is None:
        reader.diag("not-a-game", "not a Riichi City game: no data.handRecord list", "$.data")
        return [reader.rec]
    try:
        reader.game(game)
    except (BadValue, *MALFORMED) as exc:
        reader.bad(exc, reader.root)
    return [reader.rec]


def _game_of(doc: Any) -> tuple[dict[str, Any] | None, str]:
    """The game object of a record and its JSON path: under the API's ``data`` envelope,
    or the object itself when saved without it (as tools save the game data alone)."""
    if not isinstance(doc, dict):
        return None, "$"
    for game, root in ((doc.get("data"), "$.data"), (doc, "$")):
        if isinstance(game, dict) and isinstance(game.get("handRecord"), list):
            return game, root
    return None, "$"


class _Reader(JsonReader):
    """Builds one game from Riichi City's record."""

    def __init__(self, path: str, strict: bool) -> None:
        super().__init__(path, strict, FORMAT)
        self.n = 4
        self.red = True
        self.seats: dict[Any, int] = {}
        """Each user id's seat."""
        self.root = "$.data"
        """The JSON path of the game object (``$`` for a game saved without its envelope)."""
        self.end: GameEnd | None = None

    def seat(self, user: Any, path: str) -> int:
        if user not in self.seats:
            raise BadValue(path, f"user {user!r} does not play in this game")
        return self.seats[user]

    def game(self, data: dict[str, Any]) -> None:
        rules = ruleset_of(data)
        self.n, self.red = rules.players, rules.red_fives
        party = [k for k in PARTY_RULES if data.get(k)]
        if party:
            rules_text = ", ".join(PARTY_RULES[k] for k in party)
            self.diag("unsupported-rules", f"the room plays {rules_text}: mjlog does not know "
                      "these rules, so wins and payments under them are not what its scoring "
                      "gives", self.root, Severity.INFO)
        hands = data["handRecord"]
        first = hands[0] if hands and isinstance(hands[0], dict) else {}
        names = [PlayerInfo(name="")] * self.n
        for p in first.get("players") or []:
            if isinstance(p, dict) and isinstance(p.get("position"), int) \
                    and 0 <= p["position"] < self.n:
                self.seats[p.get("userId")] = p["position"]
                names[p["position"]] = PlayerInfo(name=str(p.get("nickname", "")))
        meta = tuple((f"riichicity.{k}", v if isinstance(v, str) else json.dumps(v))
                     for k, v in data.items() if k != "handRecord")
        self.emit(GameStart(source=FORMAT, players=tuple(names), ruleset=rules, meta=meta,
                            first_dealer=_first_dealer(first),
                            origin=origin_of(meta, source=FORMAT, ruleset_name=rules.name,
                                             path=self.rec.path)), self.root)
        for r, hand in enumerate(hands):
            at = f"{self.root}.handRecord[{r}]"
            try:
                _Round(self, hand, at).play()
            except (BadValue, *MALFORMED) as exc:
                self.bad(exc, at)
        if self.end is not None:
            self.emit(self.end, f"{self.root}.handRecord")

    def room_end(self, data: dict[str, Any], path: str) -> None:
        """The game's result: each seat's final score and points (``score`` in tenths)."""
        scores: list[int] = [0] * self.n
        points: list[float] = [0.0] * self.n
        for i, u in enumerate(data.get("user_data") or []):
            if not isinstance(u, dict):
                raise BadValue(f"{path}.user_data[{i}]", "a player's result is an object")
            p = self.seat(u.get("user_id"), f"{path}.user_data[{i}].user_id")
            scores[p] = int(u.get("point_num", 0))
            points[p] = int(u.get("score", 0)) / 10
        self.end = GameEnd(scores=tuple(scores), points=tuple(points))


class _Round:
    """One round: its events in order, every tile followed so that it has its id."""

    def __init__(self, reader: _Reader, hand: Any, at: str) -> None:
        if not isinstance(hand, dict) or not isinstance(hand.get("handEventRecord"), list):
            raise BadValue(at, "a round is an object with its handEventRecord")
        self.r = reader
        self.n = reader.n
        self.at = at
        self.hand = hand
        self.tiles = Tiles(self.n, reader.red)
        self.melds: list[list[Meld]] = [[] for _ in range(self.n)]
        self.dealt: dict[int, list[Any]] = {}
        self.deal: dict[str, Any] = {}
        self.drawn = [-1] * self.n
        self.last: Event | None = None
        self.indicators: list[Tile] = []
        self.scores: list[int] = []
        self.sticks = self.honba = self.dealer = self.wind = 0
        self.started = self.ended = False
        self.riichi = -1
        """The seat whose riichi discard is the last move, until it stands."""
        self.stood: set[int] = set()

    def fresh(self, p: int, code: Any, path: str) -> Tile:
        return self.tiles.fresh(p, self.kind(code, path), path)

    def take(self, p: int, code: Any, path: str, prefer: int = -1) -> Tile:
        return self.tiles.take(p, self.kind(code, path), path, prefer)

    def play(self) -> None:
        for i, e in enumerate(self.hand["handEventRecord"]):
            path = f"{self.at}.handEventRecord[{i}]"
            if not isinstance(e, dict):
                raise BadValue(path, "an event is an object")
            try:
                data, bad = jsontext.decode(e.get("data") or "{}")
            except (json.JSONDecodeError, TypeError):
                raise BadValue(f"{path}.data", "an event's data is a JSON object in a string") \
                    from None
            numbers(self.r, bad, f"{path}.data")
            if not isinstance(data, dict):
                raise BadValue(f"{path}.data", "an event's data is a JSON object in a string")
            kind = e.get("eventType")
            if kind != 1 and self.dealt and not self.started:
                self.start(path)
            handler = getattr(self, f"on_{kind}", None)
            if handler is not None:
                handler(e, data, f"{path}.data")
        if self.started and not self.ended:
            self.r.diag("no-result", "the round stops before its result", self.at,
                        Severity.WARNING)
            self.r.emit(RoundEnd(scores=None), self.at)

    # -- the deal

    def on_1(self, e: dict[str, Any], data: dict[str, Any], path: str) -> None:
        p = self.r.seat(e.get("userId"), f"{path[:-5]}.userId")
        cards = data.get("hand_cards")
        if not isinstance(cards, list):
            raise BadValue(f"{path}.hand_cards", "a deal lists the hand's tiles")
        self.dealt[p] = cards
        self.deal = data

    def start(self, path: str) -> None:
        d, hand, n = self.deal, self.hand, self.n
        dealer = d.get("dealer_pos")
        if not isinstance(dealer, int) or not 0 <= dealer < n or len(self.dealt) != n:
            raise BadValue(path, "the deal names no dealer or misses a seat's hand")
        self.dealer, self.started = dealer, True
        self.honba = int(d.get("ben_chang_num", 0))
        self.sticks = int(d.get("li_zhi_bang_num", 0))
        self.wind = (int(d.get("quan_feng", 49)) >> 4) - 3
        scores = [0] * n
        for i, u in enumerate(d.get("user_info_list") or []):
            scores[self.r.seat(u.get("user_id"), f"{path}.user_info_list[{i}]")] = int(
                u.get("hand_points", 0))
        self.scores = scores
        hands: list[tuple[Tile, ...]] = []
        for p in range(n):
            cards = self.dealt[p]
            want = 14 if p == dealer else 13
            if len(cards) != want:
                raise BadValue(path, f"seat {p} is dealt {len(cards)} tiles, not {want}")
            hands.append(tuple(sorted(self.fresh(p, c, path) for c in cards[:13])))
        first = self.fresh(dealer, self.dealt[dealer][13], path)
        self.indicators = [self.fresh(-1, d.get("bao_pai_card"), f"{path}.bao_pai_card")]
        extra = tuple((f"riichicity.{k}", str(hand[k])) for k in (
            "handCardEncode", "handCardsSHA256", "handID") if hand.get(k))
        number = int(d.get("chang_ci", 1))
        self.r.emit(RoundStart(
            round_wind=self.wind, round_number=number, honba=self.honba, kyotaku=self.sticks,
            dealer=dealer, scores=tuple(scores), dora_indicator=self.indicators[0],
            hands=tuple(hands), dice=tuple(d.get("dices") or ()), extra=extra,
            published=_published(hand)), path)
        self.r.emit(Draw(player=dealer, tile=first), path)
        self.drawn[dealer] = first

    # -- moves

    def on_2(self, e: dict[str, Any], data: dict[str, Any], path: str) -> None:
        if not data.get("in_card"):
            return  # the dealer's first turn: the fourteenth tile was dealt
        p = self.r.seat(e.get("userId"), f"{path[:-5]}.userId")
        self.stand(path)
        tile = self.fresh(p, data["in_card"], f"{path}.in_card")
        self.r.emit(Draw(player=p, tile=tile, rinshan=bool(data.get("is_gang_incard"))),
                    path)
        self.drawn[p] = tile

    def on_4(self, e: dict[str, Any], data: dict[str, Any], path: str) -> None:
        action = data.get("action")
        p = self.r.seat(data.get("user_id"), f"{path}.user_id")
        card = data.get("card")
        if action == _DISCARD:  # the drawn tile when it is of the kind discarded
            tile = self.take(p, card, f"{path}.card", self.drawn[p])
            riichi = bool(data.get("is_li_zhi"))
            ev: Event = Discard(player=p, tile=tile, riichi=riichi)
            self.drawn[p] = -1
            self.riichi = p if riichi else -1
        elif action in _CHI or action in (_PON, _OPEN_KAN):
            self.stand(path)
            ev = self.call(p, action, data, path)
        elif action == _CLOSED_KAN:
            kind, _red = self.kind(card, f"{path}.card")
            ev = ClosedKan(player=p, tiles=tuple(sorted(self.take_all(p, kind, f"{path}.card"))))
            self.melds[p].append(ev)
        elif action == _ADDED_KAN:
            ev = self.added(p, card, path)
        elif action == _KITA:
            ev = Kita(player=p, tile=self.take(p, card, f"{path}.card", self.drawn[p]))
            self.melds[p].append(ev)
        elif action in (_RON_MOVE, _TSUMO_MOVE):
            return  # the win: read with the round's result
        else:
            raise BadValue(f"{path}.action", f"move {action!r} is not one mjlog reads")
        self.r.emit(ev, path)
        self.last = ev

    def kind(self, code: Any, path: str) -> tuple[Kind, bool]:
        try:
            return tile_kind(code)
        except ValueError as exc:
            raise BadValue(path, str(exc)) from None

    def take_all(self, p: int, kind: Kind, path: str) -> list[Tile]:
        """The four tiles of ``kind`` a closed kan takes from ``p``'s hand."""
        hand = self.tiles.held(p)
        found = [t for t in hand if KIND_OF[t] == kind][:4]
        if len(found) != 4:
            raise BadValue(path, f"seat {p} has {len(found)} tiles for a closed kan, not 4")
        for t in found:
            hand.remove(t)
        return found

    def call(self, p: int, action: int, data: dict[str, Any], path: str) -> Meld:
        last = self.last
        if not isinstance(last, Discard):
            raise BadValue(path, f"seat {p} calls, but the last move is not a discard")
        group = data.get("group_cards")
        if not isinstance(group, list):
            raise BadValue(f"{path}.group_cards", "a call lists the tiles it takes from hand")
        own = [self.take(p, c, f"{path}.group_cards[{i}]") for i, c in enumerate(group)]
        tiles = tuple(sorted([*own, last.tile]))
        cls: type[Chi | Pon | OpenKan] = Chi if action in _CHI else (
            Pon if action == _PON else OpenKan)
        ev = cls(player=p, from_player=last.player, called=last.tile, tiles=tiles)
        self.melds[p].append(ev)
        self.drawn[p] = -1
        return ev

    def added(self, p: int, card: Any, path: str) -> AddedKan:
        kind, _red = self.kind(card, f"{path}.card")
        pon = next((m for m in self.melds[p] if isinstance(m, Pon)
                    and KIND_OF[m.called] == kind), None)
        if pon is None:
            raise BadValue(path, f"seat {p} adds to a pon they do not have")
        added = self.take(p, card, f"{path}.card", self.drawn[p])
        ev = AddedKan(player=p, from_player=pon.from_player, called=pon.called, added=added,
                      tiles=tuple(sorted((*pon.tiles, added))))
        self.melds[p][self.melds[p].index(pon)] = ev
        self.drawn[p] = -1
        return ev

    def on_7(self, e: dict[str, Any], data: dict[str, Any], path: str) -> None:
        cards = data.get("cards")
        if not isinstance(cards, list):
            raise BadValue(f"{path}.cards", "the kan dora indicators are a list")
        for i in range(len(self.indicators) - 1, len(cards)):
            tile = self.fresh(-1, cards[i], f"{path}.cards[{i}]")
            self.indicators.append(tile)
            self.r.emit(DoraReveal(indicator=tile), path)

    def on_8(self, e: dict[str, Any], data: dict[str, Any], path: str) -> None:
        """The platform's word that a riichi stands; mjlog has deposited it already if a
        draw or call came first."""
        p = self.r.seat(data.get("user_id"), f"{path}.user_id")
        if p == self.riichi:
            self.stand(path)
        elif p not in self.stood:
            raise BadValue(f"{path}.user_id", f"seat {p}'s riichi stands, but they declared none")

    def stand(self, path: str) -> None:
        """A riichi declared with the last discard stands: nobody won on it. Its stick is
        deposited before the next draw or call (as every format mjlog reads places it)."""
        p, self.riichi = self.riichi, -1
        if p < 0:
            return
        self.scores[p] -= 1000
        self.sticks += 1
        self.stood.add(p)
        self.r.emit(RiichiAccepted(player=p, scores=tuple(self.scores)), path)

    def on_6(self, e: dict[str, Any], data: dict[str, Any], path: str) -> None:
        self.r.room_end(data, path)

    # -- the result

    def on_5(self, e: dict[str, Any], data: dict[str, Any], path: str) -> None:
        end = data.get("end_type")
        deltas, stated = self.profits(data.get("user_profit"), f"{path}.user_profit")
        if end == _VOTE:
            self.r.diag("vote-termination", "the players voted to end the game in this "
                        "round: it has no result", path, Severity.INFO)
            self.r.emit(RoundEnd(scores=None), path)
            self.ended = True
            return
        if end != _RON and end != _TRIPLE_RON:  # a ron, or three, take the riichi discard:
            self.stand(path)  # its riichi is not accepted
        before = tuple(self.scores)
        after = stated or tuple(b + d for b, d in zip(before, deltas, strict=True))
        wins = data.get("win_info") if isinstance(data.get("win_info"), list) else []
        assert isinstance(wins, list)
        if end in (_RON, _TSUMO) and len(wins) > 1 and end == _RON:
            self.double_ron(wins, deltas, before, f"{path}.win_info")
        elif end in (_RON, _TSUMO):
            if len(wins) != 1:
                raise BadValue(f"{path}.win_info", "a tsumo or ron has one winner here")
            self.win(wins[0], end == _TSUMO, deltas, before, f"{path}.win_info[0]")
        elif end == _EXHAUSTED:
            shown = {self.r.seat(w.get("user_id"), f"{path}.win_info")
                     for w in wins if isinstance(w, dict)}
            self.r.emit(ExhaustiveDraw(
                hands=tuple(tuple(sorted(self.tiles.held(p))) if p in shown else None
                            for p in range(self.n)),
                deltas=deltas, scores_before=before, honba=self.honba, kyotaku=self.sticks),
                path)
        elif end in END_TYPES:
            self.r.emit(AbortiveDraw(kind=END_TYPES[end], deltas=deltas, scores_before=before,
                                     honba=self.honba, kyotaku=self.sticks), path)
        else:
            raise BadValue(f"{path}.end_type", f"result {end!r} is not one mjlog reads")
        self.r.emit(RoundEnd(scores=after), path)
        self.ended = True

    def profits(self, profits: Any, path: str) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """Every seat's change of score in the result (``point_profit``: payments, honba and
        sticks, after the riichi deposits) and, where the record states them, the scores
        after it (``user_point``; ``()`` when it does not)."""
        deltas = [0] * self.n
        after = list(self.scores)
        stated = True
        for i, u in enumerate(profits if isinstance(profits, list) else []):
            if not isinstance(u, dict):
                raise BadValue(f"{path}[{i}]", "a seat's result is an object")
            p = self.r.seat(u.get("user_id"), f"{path}[{i}].user_id")
            deltas[p] = int(u.get("point_profit", 0))
            if isinstance(u.get("user_point"), int):
                after[p] = u["user_point"]
            else:
                stated = False
        return tuple(deltas), tuple(after) if stated else ()

    def double_ron(self, wins: list[Any], deltas: tuple[int, ...], before: tuple[int, ...],
                   path: str) -> None:
        """Two or three winners of one discard, whose payments ``user_profit`` gives summed:
        each win gets its winner's change and what the discarder paid for it (the winner's
        change less the riichi sticks, which the winner first after the discarder takes),
        in turn order from the discarder; the next win's scores before are the last's
        after. Raises :class:`BadValue` when the sum cannot be told apart so."""
        last = self.last
        if not isinstance(last, Discard | AddedKan | ClosedKan | Kita):
            raise BadValue(path, "several winners, but no discard or kan to win on")
        d = last.player
        seats = {self.r.seat(w.get("user_id") if isinstance(w, dict) else None,
                             f"{path}[{i}].user_id"): (i, w) for i, w in enumerate(wins)}
        order = sorted(seats, key=lambda p: (p - d) % self.n)
        paid = [worked_back(deltas[p], sticks=self.sticks if k == 0 else 0)  # honba kept in
                for k, p in enumerate(order)]
        others = [deltas[p] for p in range(self.n) if p != d and p not in seats]
        if d in seats or any(others) or sum(paid) != -deltas[d]:
            raise BadValue(f"{path}", "the summed payments of several winners cannot be told "
                           "apart (each winner's change, the discarder paying the rest)")
        scores = before
        for k, p in enumerate(order):
            own = [0] * self.n
            own[p], own[d] = deltas[p], -paid[k]
            i, w = seats[p]
            self.win(w, False, tuple(own), scores, f"{path}[{i}]",
                     sticks=self.sticks if k == 0 else 0)
            scores = tuple(s + x for s, x in zip(scores, own, strict=True))

    def win(self, w: Any, tsumo: bool, deltas: tuple[int, ...], before: tuple[int, ...],
            path: str, sticks: int | None = None) -> None:
        if not isinstance(w, dict):
            raise BadValue(path, "a winner is an object")
        p = self.r.seat(w.get("user_id"), f"{path}.user_id")
        last = self.last
        frm = p if tsumo else (last.player if isinstance(
            last, Discard | AddedKan | ClosedKan | Kita) else p)
        hand, win_tile = winning_hand(self.tiles.held(p), tsumo, self.drawn[p], last)
        ura = tuple(self.fresh(-1, c, f"{path}.li_bao_card[{i}]")
                    for i, c in enumerate(w.get("li_bao_card") or []))
        yaku = self.yaku(w.get("fang_info"), p, f"{path}.fang_info")
        han, fu = int(w.get("all_fang_num", 0)), int(w.get("all_fu", 0))
        yakuman = any(y.han >= 13 for y in yaku)
        self.r.emit(Win(
            winner=p, from_player=frm, hand=hand, win_tile=win_tile,
            melds=tuple(meld_tiles(m) for m in self.melds[p]), yaku=yaku, fu=fu,
            han=sum(y.han for y in yaku) if yakuman else han,
            points=int(w.get("all_point", 0)), limit=limit_of(han, fu, yakuman),
            deltas=deltas, scores_before=before, honba=self.honba,
            kyotaku=self.sticks if sticks is None else sticks,
            dora_indicators=tuple(self.indicators), ura_indicators=ura), path)

    def yaku(self, fangs: Any, p: int, path: str) -> tuple[YakuClaim, ...]:
        out = []
        for i, f in enumerate(fangs if isinstance(fangs, list) else []):
            if not isinstance(f, dict) or not isinstance(f.get("fang_type"), int):
                raise BadValue(f"{path}[{i}]", "a yaku is an object with its fang_type")
            fid, num = f["fang_type"], int(f.get("fang_num", 0))
            if fid == _ROUND_WIND_FANG:
                name = f"round-wind-{_WINDS[self.wind % 4]}"
            elif fid == _SEAT_WIND_FANG:
                name = f"seat-wind-{_WINDS[(p - self.dealer) % self.n]}"
            elif fid in FANG:
                name = FANG[fid]
            else:
                self.r.diag("unknown-yaku", f"yaku {fid} is not one mjlog knows (kept as "
                            f"riichicity-{fid})", f"{path}[{i}]", Severity.WARNING)
                name = f"riichicity-{fid}"
            out.append(YakuClaim(name=name, han=13 * num if fid in _YAKUMAN else num))
        return tuple(out)


def _first_dealer(hand: dict[str, Any]) -> int:
    """The dealer of a game's first round (Riichi City need not seat them first)."""
    for e in hand.get("handEventRecord") or []:
        if isinstance(e, dict) and e.get("eventType") == 1:
            try:
                data = jsontext.decode(e.get("data") or "{}")[0]  # said when the round is read
            except (json.JSONDecodeError, TypeError):
                return 0
            dealer = data.get("dealer_pos") if isinstance(data, dict) else None
            return dealer if isinstance(dealer, int) else 0
    return 0


def _published(hand: dict[str, Any]) -> Published | None:
    """The whole wall a round publishes (``handCardEncode``) with its sha256
    (``handCardsSHA256``), or ``None``: the typed twin of the ``riichicity.*`` keys the
    round start's ``extra`` keeps."""
    if not hand.get("handCardEncode"):
        return None
    sha = hand.get("handCardsSHA256")
    return Published(platform="riichicity", wall=str(hand["handCardEncode"]),
                     sha256=str(sha) if sha else None)

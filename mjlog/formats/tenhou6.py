"""tenhou.net/6 JSON: Tenhou's viewer and editor format, and how Mahjong Soul games travel.

A game is one JSON object::

    {"title": [...], "name": [4 names], "rule": {"disp": "鳳南喰赤", "aka": 1},
     "log": [round, ...], "sc": [score, points, ...], ...}

or one such object per line, each with the rounds of one line in ``log``
(mjx writes one round per line). A round is a list::

    [[kyoku, honba, sticks], [scores x4], [dora indicators], [ura indicators],
     hand0, take0, discard0, hand1, take1, discard1, ..., [result]]

Tiles are numbers: 11-19 characters, 21-29 circles, 31-39 bamboo, 41-47
honours, 51-53 red fives. ``take`` lists what a player drew, and the calls
they made as strings (``c`` chi, ``p`` pon, ``m`` open kan; the letter's
place says from whom). ``discard`` lists the discards: 60 for the tile just
drawn, ``r``\\ *tile* a riichi, ``a``/``k`` closed and added kans, ``f`` a
kita, 0 where an open kan leaves no discard. The result is
``["和了", deltas, [winner, from, liable, "30符2飜2000点", "立直(1飜)", ...], ...]``
(one deltas/details pair per winner) or a draw (``["流局", deltas]``,
``["九種九牌"]`` ...). Result words may be Japanese, English or Chinese.

What the format cannot carry, and what reading therefore decides, is in
``docs/formats.md``: the order of moves is not written, so the reader
replays the round (a discard is followed by the call that names it, pon and
kan before chi, else by the next player's draw); which copy of a kind each
tile is (copies are numbered as they appear); when kan dora are revealed
(after the replacement draw, as Tenhou does); and the fu of a limit hand.
A call that matches no discard, or a round whose moves do not all find
their place, gives a diagnostic (``unplaceable-move``); this is the
format's known ambiguity when a player discards the same kind twice and
only the second is called. This module does no file I/O.
"""

from __future__ import annotations

import contextlib
import functools
import json
import re
from array import array
from collections.abc import Iterable, Iterator, Sequence
from typing import Any, Final, NoReturn, cast, overload

from mjlog.core.diagnostics import Diagnostic, InputError, Severity, Src
from mjlog.core.events import (
    DISCARDS,
    DRAWS,
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
    RiichiAccepted,
    RoundEnd,
    RoundStart,
    Win,
    YakuClaim,
    round_label,
)
from mjlog.core.record import GameRecord
from mjlog.core.ruleset import PRESETS, Ruleset, option_value, with_rounding_of
from mjlog.core.tiles import KIND_OF, NUM_TILES, RED_FIVE_IDS, Kind, Tile, TileError
from mjlog.families.riichi.scoring.fast import hand_value, up100
from mjlog.families.riichi.scoring.yaku import BY_NAME
from mjlog.formats import jsontext
from mjlog.formats.kinds import (
    ABORTIVE_JAPANESE,
    COPY_ORDER,
    LIMIT_JAPANESE,
    TENHOU_JAPANESE,
    Hands,
    Meld,
    limit_from_text,
    meld_tiles,
    shape_tenpai,
    winning_hand,
    yaku_from_text,
)
from mjlog.formats.origin import origin_of
from mjlog.formats.seats import from_first_dealer

FORMAT = "tenhou6"
DIAGNOSTIC_CODES: Final = frozenset({
    "bad-encoding", "json-syntax", "bad-value", "unplaceable-move", "ambiguous-call",
    "call-order-deduced", "no-result",
    "unknown-result",
    "unknown-yaku", "read-from-link", "unknown-variant",
})
"""Codes of the diagnostics :func:`read` and :func:`read_links` give."""

TSUMOGIRI: Final = 60
_PLAYER_KEYS: Final = ("name", "dan", "rate", "sx")
_EMPTY_SEAT: Final[dict[str, Any]] = {"dan": "", "rate": 0, "sx": ""}
"""What a three-player record's empty fourth seat holds unless the file says otherwise."""

# ---------------------------------------------------------------- tile codes


def code_of(tile: int, red_fives: bool = True) -> int:
    """The tenhou.net/6 number of a physical tile (51-53 for red fives)."""
    kind = KIND_OF[tile]
    if red_fives and tile in RED_FIVE_IDS:
        return 51 + kind // 9
    if kind >= 27:
        return 41 + kind - 27
    return (kind // 9 + 1) * 10 + kind % 9 + 1


def kind_of_code(code: int) -> tuple[Kind, bool]:
    """``(kind, red)`` of a tenhou.net/6 tile number. Raises ``ValueError`` if it names none."""
    if 51 <= code <= 53:
        return (code - 51) * 9 + 4, True
    suit, n = divmod(code, 10)
    if 1 <= suit <= 3 and 1 <= n <= 9:
        return (suit - 1) * 9 + n - 1, False
    if suit == 4 and 1 <= n <= 7:
        return 27 + n - 1, False
    raise ValueError(f"{code} is not a tile number")


# ---------------------------------------------------------------- results

_RESULT_WORDS: Final[dict[str, str]] = {}
for _kind, _words in {
    "win": ("和了", "agari", "ron", "tsumo", "win", "和牌"),
    "draw": ("流局", "ryuukyoku", "ryukyoku", "exhaustive draw", "draw", "荒牌流局"),
    "all-tenpai": ("全員聴牌", "全员听牌", "all tenpai", "tenpai everyone"),
    "no-tenpai": ("全員不聴", "全员未听牌", "全员不听", "all noten", "noten everyone"),
    "nagashi": ("流し満貫", "流局满贯", "nagashi mangan"),
    "nine-terminals": ("九種九牌", "九种九牌", "kyuushu kyuuhai", "kyuushukyuuhai",
                       "kyushu kyuhai", "nine terminals"),
    "four-riichi": ("四家立直", "suucha riichi", "suuchariichi", "four riichi"),
    "triple-ron": ("三家和了", "sanchahou", "sancha ron", "triple ron"),
    "four-kans": ("四槓散了", "四杠散了", "suukaikan", "suu kaikan", "four kans"),
    "four-winds": ("四風連打", "四风连打", "suufon renda", "suufonrenda", "four winds"),
}.items():
    for _w in _words:
        _RESULT_WORDS[_w.replace(" ", "").lower()] = _kind

_FU_HAN = re.compile(r"(\d+)\s*(?:符|fu)\s*(\d+)\s*(?:飜|han|番|翻)", re.IGNORECASE)
_SPLIT = re.compile(r"(\d+)\s*-\s*(\d+)")
_ALL = re.compile(r"(\d+)\s*(?:点|pts?|points?)?\s*(?:∀|all|オール)", re.IGNORECASE)
_NUMBER = re.compile(r"(\d+)")
_YAKU = re.compile(r"^\s*(.*?)\s*\(\s*(.*?)\s*\)\s*$")
_YAKUMAN_WORDS: Final = ("役満", "役满", "yakuman")


# ---------------------------------------------------------------- reading


class _Bad(Exception):
    """A value that cannot be read; ``path`` is where."""

    def __init__(self, path: str, message: str) -> None:
        super().__init__(message)
        self.path = path


def _fresh(hands: Hands, code: tuple[Kind, bool], path: str, p: int = -1) -> Tile:
    """A tile of ``code`` new to the round, dealt to player ``p`` (or an indicator when
    ``p`` is -1); a fifth copy of a kind is a bad value at ``path``."""
    try:
        return hands.add(p, *code) if p >= 0 else hands.new(*code)
    except TileError as exc:
        raise _Bad(path, str(exc)) from None


class _Stop(Exception):
    """Ends the search for the order of a round's moves."""


class JsonPaths(Sequence[str]):
    """The JSON path of each event of a tenhou.net/6 record (:attr:`GameRecord.paths`),
    kept as numbers and written out only when asked for (a path is read for a diagnostic or
    a finding; most moves never need theirs).

    A path ``$.log[r][k][i]`` (or ``$.log[r][k]``, ``$.log[r]``) is the number
    :func:`log_path` gives; any other path is kept as text (:meth:`text`).
    """

    __slots__ = ("codes", "texts")

    def __init__(self) -> None:
        self.codes: array[int] = array("q")
        self.texts: list[str] = []

    def text(self, path: str) -> int:
        """The number of a path kept as it is written."""
        self.texts.append(path)
        return -len(self.texts)

    def __len__(self) -> int:
        return len(self.codes)

    @overload
    def __getitem__(self, i: int) -> str: ...
    @overload
    def __getitem__(self, i: slice) -> list[str]: ...
    def __getitem__(self, i: int | slice) -> str | list[str]:
        if isinstance(i, slice):
            return [self[j] for j in range(*i.indices(len(self)))]
        code = self.codes[i]
        return self.texts[-1 - code] if code < 0 else log_text(code)


_MOST_ITEMS: Final = 0xFFFE
"""Items a list of a round may have, so that their index fits :func:`log_path`'s number
(a round has a few dozen moves per player)."""


def log_path(r: int, k: int = -1, i: int = -1) -> int:
    """The number :class:`JsonPaths` keeps for ``$.log[r][k][i]`` (-1: no such index)."""
    return (r << 32) | ((k + 1) << 16) | (i + 1)


def log_text(code: int) -> str:
    """The path a number of :func:`log_path` stands for."""
    r, k, i = code >> 32, (code >> 16) & 0xFFFF, code & 0xFFFF
    return f"$.log[{r}]" + (f"[{k - 1}]" if k else "") + (f"[{i - 1}]" if i else "")


_NO_DRAW: Final = Tile(-1)
"""A seat's last drawn tile when it has none (it has discarded it, or called)."""

_DRAW, _DISCARD, _AFTER = 0, 1, 2
"""The steps of a turn :meth:`_Round.walk` plays: the draw, the discard (or kan or kita),
and what follows a discard (riichi accepted, a call or the next player's draw)."""


def _meta(doc: dict[str, Any], sanma: bool) -> Pairs:
    """The document's other top-level keys, verbatim, and what a three-player file gives
    its empty fourth seat where it differs from the usual (Tenhou writes 新人, 1500, C)."""
    meta = tuple((f"tenhou6.{k}", json.dumps(v, ensure_ascii=False, separators=(",", ":")))
                 for k, v in doc.items() if k not in ("log", "sc", *_PLAYER_KEYS))
    if sanma:
        seat4 = {k: doc[k][3] for k in ("dan", "rate", "sx")
                 if isinstance(doc.get(k), list) and len(doc[k]) > 3
                 and doc[k][3] != _EMPTY_SEAT[k]}
        if seat4:
            meta += (("tenhou6.empty-seat", json.dumps(seat4, ensure_ascii=False)),)
    return meta


def _starting_score(rules: Ruleset, rounds: Any, players: int) -> Ruleset:
    """The ruleset with the starting score of a game whose first round is East 1, 0 honba,
    with every seat on the same score; else as it is. A ruleset without oka (Mahjong
    Soul's) counts the final points from that starting score."""
    first = rounds[0] if rounds and isinstance(rounds[0], list) else []
    scores = first[1] if len(first) > 1 and isinstance(first[1], list) else []
    head = scores[:players]
    if head and all(isinstance(s, int) for s in head) and len(set(head)) == 1 \
            and isinstance(first[0], list) and first[0][:2] == [0, 0]:
        no_oka = rules.return_score == rules.starting_score
        return rules.with_options(starting_score=head[0],
                                  **({"return_score": head[0]} if no_oka else {}))
    return rules


class _Reader:
    """Builds one game from one or more tenhou.net/6 objects."""

    def __init__(self, path: str, strict: bool) -> None:
        self.rec = GameRecord(path=path, format=FORMAT, position_kind="json")
        self.paths = JsonPaths()
        self.rec.paths = self.paths
        self.strict = strict
        self.line = 0
        self.players = 4
        self.red = True
        self.started = False
        self.ended = False
        self.scores: list[int] = []

    # -- output

    def emit(self, ev: Event, path: str | int) -> None:
        """Add an event read at ``path``: a JSON path, or its number (:func:`log_path`). Its
        line is written when the object it is read from ends (:meth:`document`)."""
        self.rec.events.append(ev)
        self.paths.codes.append(path if isinstance(path, int) else self.paths.text(path))

    def diag(self, code: str, message: str, path: str = "",
             severity: Severity = Severity.ERROR) -> None:
        d = Diagnostic(code=code, message=message, severity=severity,
                       src=Src(line=self.line, path=path))
        if self.strict and severity is Severity.ERROR:
            raise InputError(d)
        self.rec.diagnostics.append(d)

    def numbers(self, bad: list[jsontext.BadNumber], line: int) -> None:
        """A ``bad-value`` for each number of the object at ``line`` that mjlog does not
        read (:func:`mjlog.formats.jsontext.decode` read them as null)."""
        self.line = line
        for number in bad:
            self.diag("bad-value", str(number), number.path)

    # -- the game

    def document(self, doc: Any, line: int) -> None:
        """Read one JSON object of the file (at ``line``, 0 for a file of one object)."""
        self.line = line
        try:
            self.read_object(doc)
        finally:  # every event of the object is at its line
            rec = self.rec
            rec.positions.extend(array("i", [line]) * (len(rec.events) - len(rec.positions)))

    def read_object(self, doc: Any) -> None:
        if not isinstance(doc, dict):
            self.diag("bad-value", "not a JSON object", "$")
            return
        log = doc.get("log")
        if not isinstance(log, list):
            self.diag("bad-value", "no \"log\" list", "$.log")
            return
        variant = _variant(log)
        if variant:
            self.diag("unknown-variant", f"a tenhou.net/6-like file with {variant}: not a "
                      "variant mjlog reads", "$.log")
            return
        if not self.started:
            self.start(doc)
        for r, rnd in enumerate(log):
            try:
                self.round(rnd, r)
            except _Bad as exc:
                self.diag("bad-value", str(exc), exc.path)
        if "sc" in doc and not self.ended:
            self.end(doc["sc"])

    def start(self, doc: dict[str, Any]) -> None:
        self.started = True
        rule = doc.get("rule") if isinstance(doc.get("rule"), dict) else {}
        assert isinstance(rule, dict)
        names = doc.get("name") if isinstance(doc.get("name"), list) else []
        assert isinstance(names, list)
        rounds = doc.get("log") or []
        sanma = _is_sanma(names, rule, rounds)
        self.players = 3 if sanma else 4
        self.red = bool(rule.get("aka") or rule.get("aka51") or rule.get("aka52")
                        or rule.get("aka53")) if rule else True
        infos = []
        for i in range(self.players):
            infos.append(PlayerInfo(
                name=_str_at(names, i), rank=_str_at(doc.get("dan"), i),
                rating=_float_at(doc.get("rate"), i), sex=_str_at(doc.get("sx"), i)))
        meta = _meta(doc, sanma)
        rules = _starting_score(ruleset_from_rule(rule, doc, sanma=sanma, red=self.red),
                                rounds, self.players)
        self.emit(GameStart(source=FORMAT, players=tuple(infos), ruleset=rules, meta=meta,
                            origin=origin_of(meta, source=FORMAT, ruleset_name=rules.name,
                                             path=self.rec.path)), "$")

    def end(self, sc: Any) -> None:
        n = self.players
        if not isinstance(sc, list) or len(sc) < 2 * n or not all(
                isinstance(x, int | float) for x in sc):
            self.diag("bad-value", "sc is not a list of scores and points", "$.sc")
            return
        self.emit(GameEnd(scores=tuple(int(sc[2 * i]) for i in range(n)),
                          points=tuple(float(sc[2 * i + 1]) for i in range(n))), "$.sc")
        self.ended = True

    # -- one round

    def round(self, rnd: Any, r: int) -> None:
        n, at = self.players, f"$.log[{r}]"
        if not isinstance(rnd, list) or len(rnd) < 4 + 3 * 4:
            raise _Bad(at, "a round is a list of 4 header lists, 12 player lists and a result")
        head = _int_list(rnd[0], f"{at}[0]", 3)
        scores = _int_list(rnd[1], f"{at}[1]")[:n]
        if len(scores) != n:
            raise _Bad(f"{at}[1]", f"expected {n} scores")
        dora, ura = _codes_at(rnd, 2, at), _codes_at(rnd, 3, at)
        if not dora:
            raise _Bad(f"{at}[2]", "no dora indicator")
        kyoku, honba, sticks = head
        wind, number = divmod(kyoku, 4)
        dealer = number % n
        hands = Hands(n, self.red)
        dealt = []
        for p in range(n):
            codes = _list(rnd[4 + 3 * p], f"{at}[{4 + 3 * p}]")
            if len(codes) != 13:
                raise _Bad(f"{at}[{4 + 3 * p}]",
                           f"player {p}'s hand has {len(codes)} tiles, not 13")
            hand, used = hands.hands[p], hands.used
            for i, c in enumerate(codes):
                kind, five = (_CODES.get(c) if type(c) is int else None) or _code(
                    c, f"{at}[{4 + 3 * p}][{i}]")
                for tile in COPY_ORDER[kind * 4] if kind < 34 and not five else ():
                    if tile not in used:  # Hands.add's usual case, written out
                        used.add(tile)
                        hand.append(tile)
                        break
                else:
                    try:
                        hands.add(p, kind, five)
                    except TileError as exc:
                        raise _Bad(f"{at}[{4 + 3 * p}][{i}]", str(exc)) from None
            dealt.append(tuple(sorted(hands.hands[p])))
        indicator = _fresh(hands, dora[0], f"{at}[2][0]")
        rs = RoundStart(round_wind=wind, round_number=number + 1, honba=honba, kyotaku=sticks,
                        dealer=dealer, scores=tuple(scores), dora_indicator=indicator,
                        hands=tuple(dealt))
        self.emit(rs, log_path(r))
        result = rnd[4 + 3 * 4] if len(rnd) > 16 else []
        _Round(self, rnd, r, rs, hands, dora, ura, result).play()


class _Round:
    """Replays one round's per-player lists into events in table order."""

    def __init__(self, reader: _Reader, rnd: list[Any], r: int, rs: RoundStart,
                 hands: Hands, dora: list[tuple[Kind, bool]], ura: list[tuple[Kind, bool]],
                 result: Any) -> None:
        self.r = reader
        self.n = reader.players
        self.at = at = f"$.log[{r}]"
        self.base = log_path(r)
        self.rs = rs
        self.hands = hands
        self.dora = dora
        self.ura = ura
        self.result = result
        self.label = round_label(rs.round_wind, rs.round_number, rs.honba)
        self.takes = [_list_at(rnd, 5 + 3 * p, at) for p in range(self.n)]
        self.drops = [_list_at(rnd, 6 + 3 * p, at) for p in range(self.n)]
        for p in range(self.n):
            for k, items in ((5, self.takes[p]), (6, self.drops[p])):
                if len(items) > _MOST_ITEMS:
                    raise _Bad(f"{at}[{k + 3 * p}]", f"{len(items)} moves: more than a round "
                               "holds")
        self.callers_list = [q for q in range(self.n) if str in map(type, self.takes[q])]
        """The players some of whose takes are calls."""
        self.ti = [0] * self.n
        self.di = [0] * self.n
        self.revealed = 1
        self.indicators: list[Tile] = [rs.dora_indicator]
        self.scores = list(rs.scores)
        self.sticks = rs.kyotaku
        self.riichi = [False] * self.n
        self.melds: list[list[Meld]] = [[] for _ in range(self.n)]
        self.last_draw: list[Tile] = [_NO_DRAW] * self.n
        self.last: Event | None = None
        """The last move: the discard or added kan a win may take."""
        self.pending = False
        """An open or added kan whose indicator is still to be turned."""
        self.ura_tiles: tuple[Tile, ...] | None = None
        self.first_error: _Bad | None = None
        self.trail: list[tuple[str, str]] = []
        """Calls the first order found had to place later than their first chance."""
        self.first = len(reader.rec.events)
        """Where the round's moves start in the record."""
        self.found: tuple[tuple[Any, ...], list[Event], array[int]] | tuple[()] | None = None
        """The first order found: the state at its end and its moves, or () when it is
        the only one (the search ends there), or None."""
        self.deduced: list[tuple[str, str]] = []
        self.solutions = 0
        self.decisions = 0
        self.budget = 10_000
        """Choices the search may still try; past it, the first order found is kept."""

    # -- helpers

    def take_path(self, p: int, i: int) -> str:
        return f"{self.at}[{5 + 3 * p}][{i}]"

    def drop_path(self, p: int, i: int) -> str:
        return f"{self.at}[{6 + 3 * p}][{i}]"

    def next_take(self, p: int) -> Any:
        return self.takes[p][self.ti[p]] if self.ti[p] < len(self.takes[p]) else None

    def next_drop(self, p: int) -> Any:
        return self.drops[p][self.di[p]] if self.di[p] < len(self.drops[p]) else None

    def remove(self, p: int, code: tuple[Kind, bool], path: str, prefer: int = -1) -> Tile:
        try:
            return self.hands.take(p, code[0], code[1], prefer)
        except TileError as exc:
            raise self.fail(path, str(exc)) from None

    # -- the round

    def play(self) -> None:
        with contextlib.suppress(_Bad, _Stop):  # the search ends by raising
            self.search()
        if self.found is None:
            exc = self.first_error or _Bad(self.at, "the moves do not fit together")
            self.r.diag("unplaceable-move", f"round {self.label}: {exc} (no order of the "
                        "round's moves places them all; the round is not read)", exc.path)
            self.cut()
            self.r.emit(RoundEnd(scores=None), self.base + (17 << 16))  # $.log[r][16]
            return
        if self.found:  # the search went on past the order it found: back to that order
            self.cut()
            self.restore(self.found[0])
            self.r.rec.events.extend(self.found[1])
            self.r.paths.codes.extend(self.found[2])
        for path, what in self.deduced:
            self.r.diag("call-order-deduced", f"round {self.label}: {what}; only a later one "
                        "lets every move of the round find its place", path, Severity.INFO)
        if self.solutions > 1:
            self.r.diag(
                "ambiguous-call", f"round {self.label}: the moves fit together in more than one "
                "order (a call of a kind that was discarded more than once, where the record "
                "does not say which discard was called); mjlog reads the first order it finds, "
                "trying calls at the earliest discard", self.at, Severity.WARNING)
        self.finish()

    # The order of moves is found by a depth-first search, written as a loop: the
    # round is played forward (:meth:`walk`) and, after each discard some player's
    # next take could call, the choices are pushed on a stack (pon and kan before
    # chi, a call before no call). A move that does not fit raises :class:`_Bad`;
    # :meth:`search` then undoes the latest choice and plays on with the next one.
    # Most rounds are played through once, with no choice undone.

    def fail(self, path: str, message: str) -> _Bad:
        exc = _Bad(path, message)
        if self.first_error is None:
            self.first_error = exc
        return exc

    def search(self) -> None:
        """Play the round from the dealer's first draw, undoing choices where the moves do
        not fit; ends by raising (:class:`_Stop`, or :class:`_Bad` when no choice is left)."""
        choices: list[list[Any]] = []
        step: tuple[int, int, bool, Discard | None, int, _Caller | None] = (
            self.rs.dealer, _DRAW, False, None, 0, None)
        while True:
            try:
                self.walk(*step, choices)
            except _Bad:
                step = self.next_choice(choices)

    def next_choice(self, choices: list[list[Any]]
                    ) -> tuple[int, int, bool, Discard | None, int, _Caller | None]:
        """Undo the latest choice (its discard's call, or no call) and take the next one;
        raises :class:`_Bad` when no choice is left.

        A choice pushed without a snapshot is a call by the discarder's next player:
        not calling would have them draw with the call as their next take, which fails
        at once. That failure is noted as :meth:`walk` would have met it, and the choice
        before it is undone instead."""
        while choices:
            choice = choices[-1]
            snap, p, ev, where, options, k = choice
            if snap is None:
                choices.pop()
                q = options[0][0]
                self.fail(self.take_path(q, k), f"player {q}'s call {self.takes[q][k]!r} "
                          "follows no discard it can take")
                continue
            self.restore(snap)
            opt = options[k]
            if opt is not None:
                q, path = opt[0], log_text(where)
                self.trail.append((path, f"player {q}'s call {self.takes[q][self.ti[q]]!r} "
                                   f"does not take player {p}'s discard at {path}"))
            k += 1
            if k == len(options) - 1:
                choices.pop()  # the last choice: nothing is left to undo it for
            else:
                self.budget -= 1
                if self.budget < 0:
                    raise _Stop
                choice[0], choice[5] = self.snapshot(), k
            return p, _AFTER, False, ev, where, options[k]
        raise _Bad(self.at, "no choice is left")

    def walk(self, p: int, step: int, rinshan: bool, ev: Discard | None, where: int,
             opt: _Caller | None, choices: list[list[Any]]) -> None:
        """Play on from ``step`` of player ``p``'s turn (``_DRAW``, ``_DISCARD``, or
        ``_AFTER`` discard ``ev`` read at ``where``, called by ``opt`` or by nobody) to the
        round's end (:meth:`done`, which raises) or to a move that does not fit
        (:class:`_Bad`). Pushes the choices it makes on ``choices``. A move's place in
        the record is a number (:func:`log_path`), written out only for a diagnostic."""
        n, base, takes, drops, ti, di = self.n, self.base, self.takes, self.drops, self.ti, self.di
        last_draw, callers = self.last_draw, self.callers_list
        add_event, add_code = self.r.rec.events.append, self.r.paths.codes.append
        while True:
            if step == _DRAW:  # p draws (a replacement tile after a kan or kita)
                i = ti[p]
                where = base + ((6 + 3 * p) << 16) + i + 1  # log_path(r, 5 + 3 * p, i)
                tile = self.drawn(p, takes[p][i] if i < len(takes[p]) else None, where)
                ti[p] = i + 1
                add_event(DRAWS[(rinshan * 4 + p) * NUM_TILES + tile])
                add_code(where)
                last_draw[p] = tile
                step = _DISCARD
            if step == _DISCARD:  # p discards, or makes a kan or kita
                i = di[p]
                d = drops[p][i] if i < len(drops[p]) else None
                if d is None:
                    self.done()
                where = base + ((7 + 3 * p) << 16) + i + 1  # log_path(r, 6 + 3 * p, i)
                di[p] = i + 1
                if type(d) is str and d[:1] != "r":
                    self.own_call(p, d, where)
                    rinshan, step = True, _DRAW
                    continue
                ev = self.thrown(p, d, where)
                add_event(ev)
                add_code(where)
                opt = None
                for q in callers:  # a call is only possible where a take is a string
                    if q != p and ti[q] < len(takes[q]) and type(takes[q][ti[q]]) is str:
                        opt = self.choose(p, ev, where, choices)
                        break
            assert ev is not None  # after p's discard ev: riichi accepted or not, the call
            if ev.riichi:
                self.accept(p, opt, where)
            if opt is None:
                p, rinshan, step = (p + 1) % n, False, _DRAW
            else:
                p, rinshan, step = self.call(p, opt, ev)

    def drawn(self, p: int, t: Any, where: int) -> Tile:
        """The tile ``p`` draws, written ``t`` (read at ``where``), with the copy it is given
        (:meth:`Hands.add`, its usual case written out). A null take ends the round's
        moves, as the list's end does (:meth:`done`)."""
        if t is None:
            self.done()
        if not isinstance(t, int):
            raise self.fail(log_text(where), f"player {p}'s call {t!r} follows no discard it "
                            "can take")
        kind, five = (_CODES.get(t) if type(t) is int else None) or _code_at(t, where)
        if kind < 34 and not five:
            used = self.hands.used
            for tile in COPY_ORDER[kind * 4]:
                if tile not in used:
                    used.add(tile)
                    self.hands.hands[p].append(tile)
                    return tile
        try:
            return self.hands.add(p, kind, five)
        except TileError as exc:
            raise self.fail(log_text(where), str(exc)) from None

    def thrown(self, p: int, d: Any, where: int) -> Discard:
        """``p``'s discard, written ``d`` (a tile, 60 for the drawn one, ``r`` before it for
        riichi), taken from the hand (:meth:`Hands.take`'s usual cases written out; the
        others in :meth:`discarded`); a kan dora waiting for it is turned first."""
        riichi = type(d) is str
        value = _int_of(d[1:], where) if riichi else d
        hand, red = self.hands.hands[p], self.r.red
        if value == TSUMOGIRI and (tile := self.last_draw[p]) in hand:
            hand.remove(tile)  # the drawn tile, still in the hand
        else:
            code = _CODES.get(value) if type(value) is int else None
            tile = _NO_DRAW
            if code is not None:
                kind, five = code[0], code[1] and red
                for j, held in enumerate(hand):
                    if KIND_OF[held] == kind and (red and held in RED_FIVE_IDS) == five:
                        tile = hand.pop(j)
                        break
            if tile < 0:
                tile = self.discarded(p, value, where)
        self.last_draw[p] = _NO_DRAW
        if self.pending:
            self.pending = False
            self.reveal(where)
        ev = DISCARDS[((riichi * 2 + (value == TSUMOGIRI)) * 4 + p) * NUM_TILES + tile]
        self.last = ev
        return ev

    def choose(self, p: int, ev: Discard, where: int, choices: list[list[Any]]
               ) -> _Caller | None:
        """The first of the calls of ``p``'s discard ``ev`` (pon and kan before chi), the
        choice pushed on ``choices`` with the others (and no call); None when none fits."""
        options: list[_Caller | None] = [*self.callers(p, ev.tile), None]
        opt = options[0]
        if opt is None:
            return None
        self.decisions += 1
        self.budget -= 1
        if self.budget < 0:
            raise _Stop
        if len(options) == 2 and opt[0] == (p + 1) % self.n:
            # not calling fails at once (see next_choice): no snapshot
            choices.append([None, p, ev, where, options, self.ti[opt[0]]])
        else:
            choices.append([self.snapshot(), p, ev, where, options, 0])
        return opt

    def accept(self, p: int, opt: _Caller | None, where: int) -> None:
        """``p``'s riichi discard is accepted, unless it deals in: nobody calls it, the
        next player has nothing to draw, and the round ends on a ron."""
        if opt is None and self.next_take((p + 1) % self.n) is None and self.ron_follows():
            return
        self.riichi[p] = True
        self.scores[p] -= 1000
        self.sticks += 1
        self.r.emit(RiichiAccepted(player=p, scores=tuple(self.scores)), where)

    def call(self, p: int, opt: _Caller, ev: Discard) -> tuple[int, bool, int]:
        """The call ``opt`` of ``p``'s discard ``ev``; the caller's next step: (the caller,
        whether a replacement tile is drawn, the step)."""
        q, call = opt
        where = self.base + ((6 + 3 * q) << 16) + self.ti[q] + 1
        self.ti[q] += 1
        self.last_draw[q] = _NO_DRAW
        self.r.emit(self.open_call(q, p, call, log_text(where), ev.tile), where)
        if call[0] != "m":
            return q, False, _DISCARD
        self.pending = True
        if self.next_drop(q) != 0:
            raise self.fail(self.drop_path(q, self.di[q]),
                            f"player {q}'s open kan is not followed by 0 in the discards")
        self.di[q] += 1
        return q, True, _DRAW

    def discarded(self, p: int, value: Any, where: int) -> Tile:
        """The tile ``p`` discards, ``value`` as the record writes it (60: the drawn tile),
        when :meth:`thrown`'s usual cases do not apply: through :meth:`Hands.take`, whose
        errors are the diagnostics."""
        if value != TSUMOGIRI:
            return self.remove(p, _code_at(value, where), log_text(where))
        drawn = self.last_draw[p]
        if drawn < 0:
            raise self.fail(log_text(where), f"player {p} discards the drawn tile without "
                            "having drawn")
        return self.remove(p, (KIND_OF[drawn], drawn in RED_FIVE_IDS and self.r.red),
                           log_text(where), drawn)

    def done(self) -> NoReturn:
        """The round's moves end here: every list must be used up.

        The first order found is kept; the search goes on until a second
        one shows the record to be ambiguous or every choice has been tried.
        """
        for p in range(self.n):
            if self.ti[p] < len(self.takes[p]):
                raise self.fail(self.take_path(p, self.ti[p]),
                                f"player {p}'s draw or call {self.takes[p][self.ti[p]]!r} "
                                "finds no place")
            if self.di[p] < len(self.drops[p]):
                raise self.fail(self.drop_path(p, self.di[p]),
                                f"player {p}'s discard {self.drops[p][self.di[p]]!r} finds no "
                                "place")
        self.solutions += 1
        if self.found is None and self.decisions == 0:
            self.found = ()  # the only order: the search ends here, with the state as it is
        elif self.found is None:
            first = self.first
            self.found = (self.snapshot(), self.r.rec.events[first:],
                          self.r.paths.codes[first:])
            self.deduced = list(self.trail)
        if self.solutions > 1 or self.decisions == 0:
            raise _Stop
        raise _Bad(self.at, "looking for another order")

    def cut(self) -> None:
        """Take the round's moves out of the record."""
        del self.r.rec.events[self.first:]
        del self.r.paths.codes[self.first:]

    def snapshot(self) -> tuple[Any, ...]:
        rec = self.r.rec
        return (len(rec.events), list(self.ti), list(self.di),
                [list(h) for h in self.hands.hands], set(self.hands.used),
                [list(m) for m in self.melds], list(self.last_draw), list(self.scores),
                self.sticks, list(self.riichi), self.revealed, list(self.indicators), self.last,
                len(self.trail), self.pending)

    def restore(self, snap: tuple[Any, ...]) -> None:
        rec = self.r.rec
        (length, self.ti, self.di, self.hands.hands, self.hands.used, self.melds,
         self.last_draw, self.scores, self.sticks, self.riichi, self.revealed,
         self.indicators, self.last, trail, self.pending) = snap
        del self.trail[trail:]
        del rec.events[length:]
        del self.r.paths.codes[length:]

    def ron_follows(self) -> bool:
        """Whether the round ends on this discard: a ron (a riichi discard that deals in is
        not accepted), three rons that abort the round (三家和了: the riichi is not accepted
        either) or no result at all (a record that stops here)."""
        res = self.result
        if not isinstance(res, list) or not res or _result_kind(res[0]) == "triple-ron":
            return True
        if _result_kind(res[0]) == "win":
            for i in range(2, len(res), 2):
                info = res[i]
                if isinstance(info, list) and len(info) >= 2 and info[0] != info[1]:
                    return True
        return False

    def callers(self, p: int, tile: Tile) -> list[_Caller]:
        """Who may call ``p``'s discard ``tile`` by their next take: pon and kan first, then chi."""
        n = self.n
        first: list[_Caller] = []
        chi: list[_Caller] = []
        for k in range(1, n):
            q = (p + k) % n
            t = self.next_take(q)
            if not isinstance(t, str):
                continue
            try:
                call = _parse_call(t, self.take_path(q, self.ti[q]))
            except _Bad:
                continue
            letter, rel, _own, called = call
            if letter == "c":
                if k != 1 or n == 3:
                    continue
            elif letter not in "pm" or (q + _PLACE_TO_OFFSET[rel]) % 4 != p:
                continue
            if _matches(tile, called, self.r.red):
                (chi if letter == "c" else first).append((q, call))
        return first + chi

    def open_call(self, q: int, p: int, call: _Call, path: str, called: Tile) -> Meld:
        letter, _rel, own, _called = call
        taken = [self.remove(q, c, path) for c in own]
        tiles = tuple(sorted([*taken, called]))
        ev: Meld
        if letter == "c":
            ev = Chi(player=q, from_player=p, called=called, tiles=tiles)
        elif letter == "p":
            ev = Pon(player=q, from_player=p, called=called, tiles=tiles)
        else:
            ev = OpenKan(player=q, from_player=p, called=called, tiles=tiles)
        self.melds[q].append(ev)
        return ev

    def own_call(self, p: int, d: str, where: int) -> None:
        """A closed kan, added kan or kita written among ``p``'s discards, at ``where``."""
        path = log_text(where)
        letter, _rel, own, added = _parse_call(d, path)
        drawn = self.last_draw[p]
        was_pending, self.pending = self.pending, False
        ev: Event
        if letter == "a":
            tiles = tuple(sorted(self.remove(p, c, path, drawn) for c in [*own, added]))
            ev = ClosedKan(player=p, tiles=tiles)
            self.melds[p].append(ev)
            self.last_draw[p] = _NO_DRAW
            self.r.emit(ev, where)
            self.last = ev
            if was_pending:
                self.reveal(where)
            self.reveal(where)  # a closed kan's indicator is turned at once
            return
        elif letter == "k":
            pon = next((m for m in self.melds[p] if isinstance(m, Pon)
                        and KIND_OF[m.called] == added[0]), None)
            if pon is None:
                raise self.fail(path, f"player {p} adds to a pon of {d!r} they do not have")
            tile = self.remove(p, added, path, drawn)
            ev = AddedKan(player=p, from_player=pon.from_player, called=pon.called, added=tile,
                          tiles=tuple(sorted((*pon.tiles, tile))))
            self.melds[p][self.melds[p].index(pon)] = ev
            self.pending = True
        elif letter == "f":
            ev = Kita(player=p, tile=self.remove(p, added, path, drawn))
            self.melds[p].append(ev)
        else:
            raise self.fail(path, f"{d!r} is not a move made on one's own turn")
        self.last_draw[p] = _NO_DRAW
        self.r.emit(ev, where)
        self.last = ev
        if was_pending:
            self.reveal(where)

    def reveal(self, where: int) -> None:
        """Reveal the next kan dora, if the record lists one (read with the move at ``where``).

        The record does not say when; mjlog follows Tenhou: a closed kan's
        indicator is turned at once, an open or added kan's when its player
        next discards (just before the discard) or after their next kan or kita.
        """
        if self.revealed < len(self.dora):
            tile = _fresh(self.hands, self.dora[self.revealed], f"{self.at}[2][{self.revealed}]")
            self.revealed += 1
            self.indicators.append(tile)
            self.r.emit(DoraReveal(indicator=tile), where)

    # -- the result

    def finish(self) -> None:
        res = self.result
        rpath = f"{self.at}[16]"
        n = self.n
        if not isinstance(res, list) or not res or not isinstance(res[0], str):
            self.r.diag("no-result", f"round {self.label} has no result: the record stops "
                        "here", rpath, Severity.WARNING)
            return
        kind = _result_kind(res[0])
        before = tuple(self.scores)
        total = [0] * n
        if kind == "win":
            for i in range(1, len(res) - 1, 2):
                deltas = tuple(_int_list(res[i], f"{rpath}[{i}]")[:n])
                self.win(_list(res[i + 1], f"{rpath}[{i + 1}]"), deltas, f"{rpath}[{i + 1}]",
                         first=i == 1)
                total = [a + b for a, b in zip(total, deltas, strict=False)]
                self.scores = [s + d for s, d in zip(self.scores, deltas, strict=False)]
        elif kind in ("draw", "all-tenpai", "no-tenpai", "nagashi"):
            deltas = tuple(_int_list(res[1], f"{rpath}[1]")[:n]) if len(res) > 1 else (0,) * n
            total = list(deltas)
            tenpai = self.tenpai(kind, deltas)
            shown = tuple(tuple(sorted(self.hands.hands[p])) if tenpai[p] else None
                          for p in range(n))
            self.r.emit(ExhaustiveDraw(
                hands=shown, deltas=deltas, scores_before=before, nagashi=kind == "nagashi",
                honba=self.rs.honba, kyotaku=self.sticks), rpath)
        elif kind is not None:
            deltas = tuple(_int_list(res[1], f"{rpath}[1]")[:n]) if len(res) > 1 else (0,) * n
            total = list(deltas)
            shown = self.abortive_hands(kind)
            self.r.emit(AbortiveDraw(kind=kind, hands=shown, deltas=deltas,
                                     scores_before=before, honba=self.rs.honba,
                                     kyotaku=self.sticks), rpath)
        else:
            self.r.diag("unknown-result", f"round {self.label}: unknown result {res[0]!r}",
                        f"{rpath}[0]")
            self.r.emit(RoundEnd(scores=None), rpath)
            return
        self.r.emit(RoundEnd(scores=tuple(s + d for s, d in zip(before, total, strict=False))),
                    rpath)

    def tenpai(self, kind: str, deltas: tuple[int, ...]) -> list[bool]:
        n = self.n
        if kind == "all-tenpai":
            return [True] * n
        if kind == "no-tenpai":
            return [False] * n
        if kind == "draw" and any(deltas):
            return [d > 0 for d in deltas]
        return [shape_tenpai(self.hands.hands[p], self.melds[p]) for p in range(n)]

    def abortive_hands(self, kind: str) -> tuple[tuple[Tile, ...] | None, ...]:
        """The hands Tenhou shows at an abortive draw: the declarer's at nine terminals,
        everyone's at four riichi, none otherwise."""
        n = self.n
        if kind == "nine-terminals":
            p = self.last_actor()
            return tuple(tuple(sorted(self.hands.hands[q])) if q == p else None for q in range(n))
        if kind == "four-riichi":
            return tuple(tuple(sorted(h)) for h in self.hands.hands)
        return (None,) * n

    def last_actor(self) -> int:
        events = self.r.rec.events
        for ev in reversed(events):
            if isinstance(ev, Draw):
                return ev.player
            if isinstance(ev, RoundStart):
                break
        return self.rs.dealer

    def win(self, info: list[Any], deltas: tuple[int, ...], path: str, first: bool) -> None:
        if len(info) < 3 or not all(isinstance(x, int) for x in info[:3]):
            raise _Bad(path, "a win's details start with winner, from and liable seat")
        w, frm, liable = info[0], info[1], info[2]
        if not (0 <= w < self.n and 0 <= frm < self.n):
            raise _Bad(path, "winner or from seat out of range")
        text = info[3] if len(info) > 3 and isinstance(info[3], str) else ""
        fu, han, points, limit = self.points(text, w, frm == w, deltas)
        yaku = []
        for i, y in enumerate(info[4:], 4):
            claim = self.yaku(y, w, f"{path}[{i}]")
            if claim is not None:
                yaku.append(claim)
        if yaku:
            han = sum(c.han for c in yaku)
        hand, win_tile = winning_hand(self.hands.hands[w], frm == w, self.last_draw[w], self.last)
        melds = tuple(meld_tiles(m) for m in reversed(self.melds[w]))
        ura: tuple[Tile, ...] = ()
        if self.riichi[w] and self.ura:
            if self.ura_tiles is None:  # one set of ura indicators for every winner
                self.ura_tiles = tuple(_fresh(self.hands, c, f"{self.at}[3][{i}]")
                                       for i, c in enumerate(self.ura))
            ura = self.ura_tiles
        self.r.emit(Win(
            winner=w, from_player=frm, hand=hand, win_tile=win_tile, melds=melds,
            yaku=tuple(yaku), fu=fu, han=han, points=points, limit=limit, deltas=deltas,
            scores_before=tuple(self.scores), honba=self.rs.honba,
            kyotaku=self.sticks if first else 0, dora_indicators=tuple(self.indicators),
            ura_indicators=ura, pao=None if liable == w else liable), path)

    def points(self, text: str, w: int, tsumo: bool,
               deltas: tuple[int, ...]) -> tuple[int, int, int, str]:
        """(fu, han, points, limit) of a result string such as ``30符2飜500-1000点``."""
        fu = han = 0
        m = _FU_HAN.search(text)
        rest = text
        if m:
            fu, han = int(m.group(1)), int(m.group(2))
            rest = text[m.end():]
        limit = limit_from_text(text)
        n = self.n
        if (s := _SPLIT.search(rest)) is not None:
            child, dealer = int(s.group(1)), int(s.group(2))
            points = dealer + child * (n - 2)
        elif (a := _ALL.search(rest)) is not None:
            points = int(a.group(1)) * (n - 1)
        elif (nums := _NUMBER.findall(rest)):
            points = int(nums[-1])
            if tsumo and w == self.rs.dealer:
                points *= n - 1
        else:
            points = 0
        return fu, han, points, limit

    def yaku(self, text: Any, w: int, path: str) -> YakuClaim | None:
        parts = _yaku_parts(text) if isinstance(text, str) else None
        if parts is None:
            self.r.diag("unknown-yaku", f"{text!r} is not a yaku with its han", path,
                        Severity.WARNING)
            return None
        name_text, han = parts
        seat = (w - self.rs.dealer) % self.n
        name = yaku_from_text(name_text, self.rs.round_wind, seat)
        if name is None:
            self.r.diag("unknown-yaku", f"unknown yaku {name_text!r} (kept as written)", path,
                        Severity.WARNING)
            name = name_text
        return YakuClaim(name=name, han=han)


@functools.lru_cache(maxsize=1024)
def _yaku_parts(text: str) -> tuple[str, int] | None:
    """(the yaku's name as written, its han) of a result's yaku text such as ``立直(1飜)``,
    or None. Kept for the texts met last: a corpus uses a few dozen."""
    m = _YAKU.match(text)
    if m is None:
        return None
    name_text, value = m.group(1), m.group(2)
    if any(word in value.lower() for word in _YAKUMAN_WORDS):
        times = _NUMBER.search(value)
        return name_text, 13 * (int(times.group(1)) if times else 1)
    num = _NUMBER.search(value)
    return name_text, int(num.group(1)) if num else 0


# ---------------------------------------------------------------- parsing helpers

_Call = tuple[str, int, tuple[tuple[Kind, bool], ...], tuple[Kind, bool]]
"""A parsed call string: letter, place of the letter (0 left, 1 across, 2 right), own tiles,
the called (or added) tile."""
_Caller = tuple[int, _Call]

_PLACE_TO_OFFSET: Final = (3, 2, 1)
"""Seat offset of the player called from, by the letter's place (0 left, 1 across, 2 right),
on a table of four seats even in three-player records (whose fourth seat is empty):
the player called from is ``(caller + offset) % 4``."""


def _parse_call(text: str, path: str) -> _Call:
    """(letter, place, own tiles, called or added tile) of a call string such as ``45p4545``.
    Raises :class:`_Bad` at ``path`` for a text that is not one."""
    call = _call_of(text)
    if isinstance(call, str):
        raise _Bad(path, call)
    return call


_CALL_TEXT: Final = re.compile(r"((?:\d\d)*)([cpmakf])(\d\d)((?:\d\d)*)")


@functools.lru_cache(maxsize=1024)
def _call_of(text: str) -> _Call | str:
    """:func:`_parse_call`'s call, or why ``text`` is not one. Kept for the texts met last:
    a discard is checked against every call string waiting for it."""
    m = _CALL_TEXT.fullmatch(text)
    if m is None:
        return f"{text!r} is not a call"
    pre, letter, key, post = m.groups()
    codes = [int(x) for x in re.findall(r"\d\d", pre + post)] + [int(key)]
    bad = next((c for c in codes if c not in _CODES), None)
    if bad is not None:
        return f"expected a tile number, got {bad!r}"
    place = len(pre) // 2
    if letter == "m" and place == 3:
        place = 2
    return letter, place, tuple(_CODES[c] for c in codes[:-1]), _CODES[codes[-1]]


def _matches(tile: Tile, code: tuple[Kind, bool], red_fives: bool) -> bool:
    return KIND_OF[tile] == code[0] and (red_fives and tile in RED_FIVE_IDS) == (
        code[1] and red_fives)


_CODES: Final = {c: kind_of_code(c) for c in (*range(11, 20), *range(21, 30), *range(31, 40),
                                            *range(41, 48), 51, 52, 53)}


def _code(value: Any, path: str) -> tuple[Kind, bool]:
    code = _CODES.get(value) if type(value) is int else None
    if code is None:
        raise _Bad(path, f"expected a tile number, got {value!r}")
    return code


def _code_at(value: Any, where: int) -> tuple[Kind, bool]:
    """:func:`_code` of a move read at ``where`` (:func:`log_path`)."""
    code = _CODES.get(value) if type(value) is int else None
    return code if code is not None else _code(value, log_text(where))


def _int_of(text: str, path: str | int) -> int:
    """``text`` as a number; else :class:`_Bad` at ``path`` (or its :func:`log_path`)."""
    try:
        return int(text)
    except ValueError:
        raise _Bad(log_text(path) if isinstance(path, int) else path,
                   f"{text!r} is not a number") from None


def _codes_at(rnd: list[Any], k: int, at: str) -> list[tuple[Kind, bool]]:
    """The tiles of the list ``rnd[k]`` as codes; :class:`_Bad` at the first that is none."""
    items = _list_at(rnd, k, at)
    codes = [_CODES.get(c) if type(c) is int else None for c in items]
    if None in codes:
        i = codes.index(None)
        _code(items[i], f"{at}[{k}][{i}]")  # raises, with its path
    return cast(list[tuple[Kind, bool]], codes)


def _list_at(rnd: list[Any], k: int, at: str) -> list[Any]:
    """``rnd[k]``, a list; else :class:`_Bad` at ``at[k]``."""
    value = rnd[k]
    return value if type(value) is list else _list(value, f"{at}[{k}]")


def _list(value: Any, path: str) -> list[Any]:
    if not isinstance(value, list):
        raise _Bad(path, "expected a list")
    return value


def _int_list(value: Any, path: str, length: int = 0) -> list[int]:
    items = _list(value, path)
    if length and len(items) < length:
        raise _Bad(path, f"expected {length} numbers")
    for i, x in enumerate(items):
        if not isinstance(x, int) or isinstance(x, bool):
            raise _Bad(f"{path}[{i}]", f"expected an integer, got {x!r}")
    return items


def _str_at(values: Any, i: int) -> str:
    if isinstance(values, list) and i < len(values) and values[i] is not None:
        return str(values[i])
    return ""


def _float_at(values: Any, i: int) -> float | None:
    if isinstance(values, list) and i < len(values) and isinstance(values[i], int | float):
        return float(values[i])
    return None


def _result_kind(word: Any) -> str | None:
    if not isinstance(word, str):
        return None
    return _RESULT_WORDS.get(word.replace(" ", "").lower())


def _is_sanma(names: list[Any], rule: dict[str, Any], rounds: list[Any]) -> bool:
    disp = str(rule.get("disp", ""))
    if disp.startswith("三") or "3-Player" in disp or "sanma" in disp.lower():
        return True
    if rounds and isinstance(rounds[0], list) and len(rounds[0]) > 13:
        fourth = rounds[0][13]
        return isinstance(fourth, list) and not fourth
    return False


def is_majsoul(doc: dict[str, Any]) -> bool:
    """Whether a tenhou.net/6 object is a converted Mahjong Soul game.

    Such records (tensoul and the like) carry a Mahjong Soul room name in
    ``rule.disp`` or ``title`` (``銅の間``, ``Gold Room``, ``金の間``...) or a
    Mahjong Soul game uuid as ``ref`` (``231014-84c11a6f-...``).
    """
    rule = doc.get("rule") if isinstance(doc.get("rule"), dict) else {}
    texts = [str(rule.get("disp", "")) if isinstance(rule, dict) else ""]
    title = doc.get("title")
    if isinstance(title, list):
        texts += [str(t) for t in title]
    if any(("の間" in t or "Room" in t or "之间" in t) for t in texts):
        return True
    ref = doc.get("ref")
    return isinstance(ref, str) and re.fullmatch(r"\d{6}-[0-9a-f]{8}-[0-9a-f-]+", ref) is not None


_TENHOU_TABLE: Final = re.compile(r"三?[般上特鳳技若銀琥孔][東南]喰?赤?速?")
"""Tenhou's table codes (``鳳南喰赤``); other ``disp`` texts are titles."""


def ruleset_from_rule(rule: dict[str, Any], doc: dict[str, Any], *, sanma: bool,
                      red: bool) -> Ruleset:
    """The ruleset a record's ``rule`` (and, for Mahjong Soul, its origin) suggests."""
    disp = str(rule.get("disp", ""))
    majsoul = is_majsoul(doc)
    name = ("majsoul" if majsoul else "tenhou") + ("-sanma" if sanma else "")
    title = doc.get("title")
    if any("日本プロ麻雀連盟" in str(t) for t in (title if isinstance(title, list) else [])):
        name = "jpml"
    base = PRESETS.get(name, Ruleset(name=name))
    length = base.length
    if "東" in disp or "East" in disp:
        length = "east"
    elif "南" in disp or "South" in disp:
        length = "south"
    open_tanyao = base.riichi.open_tanyao
    if _TENHOU_TABLE.fullmatch(disp) and "喰" not in disp:
        open_tanyao = False  # a Tenhou table code without 喰: no open tanyao
    sc = doc.get("sc")
    rules = base.with_options(players=3 if sanma else 4, red_fives=red, length=length,
                              open_tanyao=open_tanyao)
    return with_rounding_of(rules, sc[1::2] if isinstance(sc, list) else ())


# ---------------------------------------------------------------- entry points


def looks_like(head: bytes) -> bool:
    """Whether the start of a file looks like tenhou.net/6 JSON (an object with ``"log"``)."""
    text = head.lstrip(b"\xef\xbb\xbf \t\r\n")
    return text.startswith(b"{") and b'"log"' in head


def read(data: bytes, path: str = "", *, strict: bool = False) -> list[GameRecord]:
    """Read a tenhou.net/6 game: one JSON object, or one object per line (per round).

    Problems give diagnostics with the line and a JSON path; what was read
    before them is kept. With ``strict`` the first error raises
    :class:`InputError`.
    """
    reader = _Reader(path, strict)
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        reader.diag("bad-encoding", f"not UTF-8: {exc.reason}")
        return [reader.rec]
    try:
        doc, bad = jsontext.decode(text)
        docs: list[tuple[Any, int, list[jsontext.BadNumber]]] = [(doc, 1, bad)]
    except json.JSONDecodeError as whole:
        docs = []
        lines = text.split("\n")
        if len([ln for ln in lines if ln.strip()]) < 2 or text.lstrip().startswith("{\n"):
            return _salvaged(reader, text, whole)
        for lineno, line in enumerate(lines, 1):
            if not line.strip():
                continue
            try:
                line_doc, line_bad = jsontext.decode(line)
            except json.JSONDecodeError as exc:
                reader.line = lineno
                reader.diag("json-syntax", f"{exc.msg} (column {exc.colno})")
                continue
            docs.append((line_doc, lineno, line_bad))
    for doc, lineno, bad in docs:
        reader.numbers(bad, lineno if len(docs) > 1 else 0)
        reader.document(doc, lineno if len(docs) > 1 else 0)
    if not reader.started and not any(d.code == "unknown-variant"
                                      for d in reader.rec.diagnostics):
        reader.diag("bad-value", "no game: no object with a \"log\" list")
    return [reader.rec]


def _variant(log: list[Any]) -> str:
    """What makes a log of tenhou.net/6's shape one mjlog does not read (tiles written as
    strings, rounds as objects), or ``""``."""
    first = log[0] if log else None
    if isinstance(first, dict):
        return "rounds as objects"
    if isinstance(first, list) and len(first) > 4 and isinstance(first[4], list) and any(
            isinstance(t, str) for t in first[4]):
        return "tiles as strings"
    return ""


def _salvaged(reader: _Reader, text: str, damage: json.JSONDecodeError) -> list[GameRecord]:
    """One object that does not parse: the ``json-syntax`` diagnostic, then the game as far
    as its members and complete rounds before the damage go (nothing after it)."""
    reader.line = damage.lineno
    reader.diag("json-syntax", damage.msg, f"column {damage.colno}")
    doc, bad = jsontext.salvage(text)
    reader.numbers(bad, 0)
    if isinstance(doc.get("log"), list) and doc["log"]:
        reader.document(doc, 0)
    return [reader.rec]


# ---------------------------------------------------------------- writing

_TABLES: Final = ("般", "上", "特", "鳳")


def rule_disp(rules: Ruleset, meta: dict[str, str]) -> str:
    """Tenhou's short description of a table (``鳳南喰赤``) from a GO type or the ruleset."""
    go = meta.get("go.type")
    if go is not None and go.isascii() and go.isdigit():
        t = int(go)
        table = _TABLES[((t & 0x20) >> 4) | ((t & 0x80) >> 7)]
        return "".join((
            "三" if t & 0x10 else "", table, "南" if t & 0x08 else "東",
            "" if t & 0x04 else "喰", "" if t & 0x02 else "赤", "速" if t & 0x40 else ""))
    return "".join(("三" if rules.players == 3 else "", "般",
                    "東" if rules.length == "east" else "南",
                    "" if option_value(rules, "open_tanyao") is False else "喰",
                    "赤" if rules.red_fives else ""))


class _Writer:
    """Collects one game's rounds as tenhou.net/6 lists."""

    def __init__(self) -> None:
        self.doc: dict[str, Any] = {}
        self.rounds: list[list[Any]] = []
        self.n = 4
        self.red = True
        self.rules = Ruleset()
        self.own = False
        """Whether the game was read from tenhou.net/6 (then zero-han yaku are kept)."""

    def game(self, ev: GameStart) -> None:
        meta = dict(ev.meta)
        self.n = ev.ruleset.players
        self.red = ev.ruleset.red_fives
        self.rules = ev.ruleset
        saved = {k[len("tenhou6."):]: json.loads(v) for k, v in ev.meta
                 if k.startswith("tenhou6.")}
        own = self.own = ev.source == FORMAT
        doc: dict[str, Any] = {} if own else {"title": ["", ""]}
        names = [p.name for p in ev.players] + [""] * (4 - len(ev.players))
        doc["name"] = names[:4]
        if not own:
            doc["rule"] = {"disp": rule_disp(ev.ruleset, meta),
                           "aka": 1 if ev.ruleset.red_fives else 0}
        empty = {**_EMPTY_SEAT, **json.loads(meta.get("tenhou6.empty-seat", "{}"))}
        if any(p.rank for p in ev.players):
            doc["dan"] = ([p.rank for p in ev.players] + [empty["dan"]] * 4)[:4]
        if any(p.rating is not None for p in ev.players):
            doc["rate"] = ([_number(p.rating or 0) for p in ev.players] + [empty["rate"]] * 4)[:4]
        if any(p.sex for p in ev.players):
            doc["sx"] = ([p.sex for p in ev.players] + [empty["sx"]] * 4)[:4]
        saved.pop("empty-seat", None)
        doc.update(saved)
        self.doc = doc

    def code(self, t: int) -> int:
        return code_of(t, self.red)

    def order(self, t: int) -> tuple[int, bool]:
        """Sort key of a hand: by kind, a red five after the other fives."""
        return KIND_OF[t], self.red and t in RED_FIVE_IDS

    def start(self, ev: RoundStart) -> None:
        pad = [0] * (4 - self.n)
        self.dealer = ev.dealer
        self.honba = ev.honba
        self.dora = [self.code(ev.dora_indicator)]
        self.ura: list[int] = []
        self.take: list[list[Any]] = [[] for _ in range(4)]
        self.drop: list[list[Any]] = [[] for _ in range(4)]
        self.hai = [[self.code(t) for t in sorted(h, key=self.order)] for h in ev.hands] \
            + [[]] * (4 - self.n)
        self.pons: dict[tuple[int, int], str] = {}
        self.last_draw = [-1] * 4
        self.result: list[Any] = []
        self.head = [[(ev.round_wind * 4 + ev.round_number - 1), ev.honba, ev.kyotaku],
                     [*ev.scores, *pad]]
        self.open = True

    def move(self, ev: Event) -> None:
        code = self.code
        if isinstance(ev, Draw):
            self.take[ev.player].append(code(ev.tile))
            self.last_draw[ev.player] = ev.tile
        elif isinstance(ev, Discard):
            p = ev.player
            tg = ev.tsumogiri if ev.tsumogiri is not None else ev.tile == self.last_draw[p]
            value: Any = TSUMOGIRI if tg else code(ev.tile)
            self.drop[p].append(f"r{value}" if ev.riichi else value)
            self.last_draw[p] = -1
        elif isinstance(ev, Chi | Pon | OpenKan):
            p = ev.player
            own_codes = [f"{code(t)}" for t in sorted(ev.tiles, key=self.order)
                         if t != ev.called]
            place = {1: 0, 2: 1, 3: 2}[(p - ev.from_player) % 4]  # four seats, as read
            letter = "c" if isinstance(ev, Chi) else "p" if isinstance(ev, Pon) else "m"
            if letter == "m" and place == 2:
                place = 3
            text = "".join(own_codes[:place]) + f"{letter}{code(ev.called)}" + "".join(
                own_codes[place:])
            self.take[p].append(text)
            if letter == "p":
                self.pons[p, KIND_OF[ev.called]] = text
            if letter == "m":
                self.drop[p].append(0)
            self.last_draw[p] = -1
        elif isinstance(ev, AddedKan):
            p = ev.player
            pon = self.pons.get((p, KIND_OF[ev.called]))
            if pon is None:
                pon = f"p{code(ev.called)}" + "".join(
                    f"{code(t)}" for t in sorted(ev.tiles, key=self.order)
                    if t not in (ev.called, ev.added))
            i = pon.index("p")
            self.drop[p].append(f"{pon[:i]}k{code(ev.added)}{pon[i + 1:]}")
            self.last_draw[p] = -1
        elif isinstance(ev, ClosedKan):
            tiles = sorted(ev.tiles, key=self.order)
            codes = [f"{code(t)}" for t in tiles]
            self.drop[ev.player].append("".join(codes[:3]) + "a" + codes[3])
            self.last_draw[ev.player] = -1
        elif isinstance(ev, Kita):
            self.drop[ev.player].append(f"f{code(ev.tile)}")
            self.last_draw[ev.player] = -1
        elif isinstance(ev, DoraReveal):
            self.dora.append(code(ev.indicator))

    def win(self, ev: Win) -> None:
        if not self.result:
            self.result = ["和了"]
        if ev.ura_indicators and not self.ura:
            self.ura = [self.code(t) for t in ev.ura_indicators]
        info: list[Any] = [ev.winner, ev.from_player,
                           ev.pao if ev.pao is not None else ev.winner,
                           self.points_text(ev)]
        for y in ev.yaku:
            if not y.han and not self.own:  # Tenhou's JSON leaves out what its XML lists at 0
                continue
            name = TENHOU_JAPANESE.get(y.name, y.name)
            info.append(f"{name}(役満)" if y.han >= 13 and _is_yakuman(y.name)
                        else f"{name}({y.han}飜)")
        self.result += [_pad(ev.deltas, 4) if ev.deltas else [], info]  # [] states none

    def points_text(self, ev: Win) -> str:
        lim = LIMIT_JAPANESE.get(ev.limit, "")
        head = lim or f"{ev.fu}符{ev.han}飜"
        n = self.n
        if ev.from_player != ev.winner:
            return f"{head}{ev.points}点"
        if ev.winner == self.dealer:
            return f"{head}{ev.points // (n - 1)}点∀"
        child, dealer = self.tsumo_split(ev)
        return f"{head}{child}-{dealer}点"

    def tsumo_split(self, ev: Win) -> tuple[int, int]:
        """What each non-dealer and the dealer pay on a non-dealer's tsumo."""
        n = self.n
        if ev.limit == "yakuman":
            base = 8000 * max(1, ev.han // 13)
        elif ev.limit:
            base = {"mangan": 2000, "haneman": 3000, "baiman": 4000, "sanbaiman": 6000}[ev.limit]
        else:
            base = hand_value(ev.han, ev.fu, self.rules)[0]
        child, dealer = up100(base), up100(2 * base)
        if dealer + child * (n - 2) == ev.points:
            return child, dealer
        if ev.deltas and ev.pao is None:
            others = [p for p in range(n) if p not in (ev.winner, self.dealer)]
            honba = 100 * self.honba
            return -ev.deltas[others[0]] - honba, -ev.deltas[self.dealer] - honba
        return child, dealer

    def draw(self, ev: ExhaustiveDraw | AbortiveDraw) -> None:
        """The round's draw; a draw whose record states no payments is written with an
        empty list of them (read back as none), never with zeros."""
        deltas = _pad(ev.deltas or (0,) * self.n, 4)
        if not ev.deltas and isinstance(ev, ExhaustiveDraw):
            self.result = ["流し満貫" if ev.nagashi else "流局", []]
        elif isinstance(ev, AbortiveDraw):
            self.result = [ABORTIVE_JAPANESE.get(ev.kind, ev.kind)]
            if any(deltas):
                self.result.append(deltas)
        elif ev.nagashi:
            self.result = ["流し満貫", deltas]
        elif not any(deltas):
            shown = [h is not None for h in ev.hands[:self.n]]
            self.result = ["全員聴牌" if shown and all(shown) else "全員不聴"]
        else:
            self.result = ["流局", deltas]

    def finish_doc(self) -> dict[str, Any]:
        """The game's object: its metadata, then ``log``, then ``sc`` when known."""
        doc = dict(self.doc)
        sc = doc.pop("sc", None)
        doc["log"] = self.rounds
        if sc is not None:
            doc["sc"] = sc
        return doc

    def close(self) -> None:
        if not getattr(self, "open", False):
            return
        rnd: list[Any] = [*self.head, self.dora, self.ura]
        for p in range(4):
            rnd += [self.hai[p], self.take[p], self.drop[p]]
        rnd.append(self.result)
        self.rounds.append(rnd)
        self.open = False


def _is_yakuman(name: str) -> bool:
    info = BY_NAME.get(name)
    return info is not None and info.yakuman


def _pad(values: Iterable[int], n: int) -> list[int]:
    out = list(values)
    return out + [0] * (n - len(out))


def _number(x: float) -> int | float:
    return int(x) if float(x).is_integer() else x


def to_documents(events: Iterable[Event]) -> Iterator[dict[str, Any]]:
    """The tenhou.net/6 object of each game in ``events`` (each starting with a game start).

    A game whose first dealer is not seat 0 is written with its seats turned
    (:func:`mjlog.formats.seats.from_first_dealer`). What the format cannot hold is left out
    (see ``docs/formats.md``):
    physical tile ids, dice and walls, disconnections, the timing of riichi
    and dora events, the tenpai hands of a draw, and moves of a round with
    no result.
    """
    w: _Writer | None = None
    for ev in from_first_dealer(events):  # the format's first dealer is seat 0
        if isinstance(ev, GameStart):
            if w is not None:
                w.close()
                yield w.finish_doc()
            w = _Writer()
            w.game(ev)
        elif w is None:
            continue
        elif isinstance(ev, RoundStart):
            w.close()
            w.start(ev)
        elif isinstance(ev, Win):
            w.win(ev)
        elif isinstance(ev, ExhaustiveDraw | AbortiveDraw):
            w.draw(ev)
        elif isinstance(ev, RoundEnd):
            w.close()
        elif isinstance(ev, GameEnd):
            w.close()
            if ev.scores is not None and ev.points is not None:
                w.doc["sc"] = [v for s, pt in zip(ev.scores, ev.points, strict=False)
                               for v in (s, _number(pt))]
                w.doc["sc"] += [0, 0] * (4 - len(ev.scores))  # the empty fourth seat
        else:
            w.move(ev)
    if w is not None:
        w.close()
        yield w.finish_doc()


def write(events: Iterable[Event], *, per_round: bool = False) -> str:
    """tenhou.net/6 JSON text of the games in ``events``: one object per game and line,
    or with ``per_round`` one object per round and line (as mjx writes them)."""
    out = []
    for doc in to_documents(events):
        if per_round:
            head = {k: v for k, v in doc.items() if k not in ("log", "sc")}
            for rnd in doc["log"]:
                out.append(json.dumps({**head, "log": [rnd]}, ensure_ascii=False,
                                      separators=(",", ":")))
        else:
            out.append(json.dumps(doc, ensure_ascii=False, separators=(",", ":")))
    return "".join(line + "\n" for line in out)




# ---------------------------------------------------------------- links

_LINK = re.compile(rb"tenhou\.net/[56]/?#json=([^\r\n]+)")


def looks_like_link(head: bytes) -> bool:
    """Whether a text (not itself JSON or XML) carries a tenhou.net viewer link with its
    game (``https://tenhou.net/6/#json={...}``), as converters' reports do."""
    start = head.lstrip(b"\xef\xbb\xbf \t\r\n")[:1]
    return start not in (b"{", b"[", b"<") and _LINK.search(head) is not None


def read_links(data: bytes, path: str = "", *, strict: bool = False) -> list[GameRecord]:
    """Every game a text carries in tenhou.net viewer links, each read as tenhou.net/6 JSON
    (percent-encoded or not), its events placed at the link's line, with a note that says
    where it was found."""
    from urllib.parse import unquote_to_bytes

    out: list[GameRecord] = []
    for m in _LINK.finditer(data):
        raw = m.group(1).strip()
        text = unquote_to_bytes(raw) if raw.startswith(b"%7B") else raw
        line = data.count(b"\n", 0, m.start()) + 1
        for rec in read(text, path, strict=strict):
            rec.positions = array("i", [line] * len(rec.positions))
            rec.diagnostics.insert(0, Diagnostic(
                code="read-from-link", severity=Severity.INFO, src=Src(line=line),
                message="the game is read from a tenhou.net viewer link in the text"))
            out.append(rec)
    return out

"""mjlog notation: a game record a person can write by hand (see ``docs/notation.md``).

Layers: text → lines and tokens (with line and column) → events. The reader
keeps a small table of its own (:class:`_Table`: hands, melds, last discard,
scores, whose turn) so that a person writes only what happened, and
everything that follows from it is filled in: whose turn it is, which tile a
call takes, the winning tile and hand, scores before and after, honba and
riichi sticks. Anything written explicitly overrides what would be filled in.

The writer is the reader run backwards: it keeps the same table, and writes a
field only when the reader would not fill in the very same value. So
``read(write(events)) == events`` for any events the reader could produce,
including records that contradict themselves (the override carries the
contradiction).

Physical tile copies: without an ``ids`` line, each tile named gets a
canonical copy (the lowest free one; a red five only when written ``0``).
The writer adds an ``ids`` line when the copies differ: one base-4 digit per
tile named in the round, in reading order, three digits to a character.

This module does no I/O and never judges legality: the replay does.
"""

from __future__ import annotations

import json
import re
from array import array
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any, Final, cast

from mjlog.diagnostics import Diagnostic, InputError, Severity, Src
from mjlog.events import (
    AbortiveDraw,
    AddedKan,
    Chi,
    ClosedKan,
    Comment,
    Discard,
    Disconnect,
    DoraReveal,
    Draw,
    Event,
    ExhaustiveDraw,
    Flower,
    GameEnd,
    GameStart,
    Kita,
    OpenKan,
    PlayerInfo,
    Pon,
    ReadyDeclared,
    Reconnect,
    RiichiAccepted,
    RoundEnd,
    RoundStart,
    Unknown,
    Win,
    YakuClaim,
    round_label,
)
from mjlog.record import GameRecord
from mjlog.ruleset import PRESETS, Ruleset, overrides, parse_option
from mjlog.scoring.fast import hand_value, up100
from mjlog.scoring.payments import noten_deltas
from mjlog.scoring.yaku import YAKU, default_han
from mjlog.taiwan import tai as tw
from mjlog.tiles import (
    FIRST_FLOWER,
    KIND_OF,
    NUM_KINDS,
    RED_FIVE_IDS,
    UNKNOWN,
    UNKNOWN_KIND,
    Tile,
    join_mpsz,
    tile_str,
)

FORMAT: Final = "notation"
MAGIC: Final = "mjlog-notation 1"
"""The first line of every notation file: the format and its version."""
EXTENSION: Final = ".mjn"

DIAGNOSTIC_CODES: Final = frozenset({
    "not-notation", "bad-header", "bad-round", "bad-token", "bad-tile", "bad-ids",
    "bad-result", "bad-encoding",
})
"""Codes of the reader's diagnostics (all of severity error)."""

WINDS: Final = "ESWN"
HONOUR_LETTERS: Final = {"E": 27, "S": 28, "W": 29, "N": 30, "H": 31, "G": 32, "R": 33}
"""Honours may be written as letters: winds E S W N, dragons H (白), G (發), R (中)."""

MACHINE_META: Final = frozenset({"shuffle.seed", "shuffle.ref", "shuffle"})
"""Metadata that :func:`write` leaves out when not ``exact``."""
_B64: Final = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
_ABORTS: Final = ("nine-terminals", "four-riichi", "triple-ron", "four-kans", "four-winds")
_TILE_RE: Final = re.compile(r"[0-9][mpsz]|[ESWNHGR]")
_JAPANESE: Final = {y.japanese: y.name for y in YAKU}


class NotationError(Exception):
    """A problem at one place of the text; becomes a diagnostic."""

    def __init__(self, code: str, message: str, line: int, column: int) -> None:
        super().__init__(message)
        self.code = code
        self.line = line
        self.column = column


# ---------------------------------------------------------------- shared table


def _copies(kind: int, red_fives: bool) -> tuple[int, ...]:
    """A kind's copies in canonical order: the red five (copy 0 of a five) last."""
    if kind >= NUM_KINDS:  # a flower: one copy
        return (FIRST_FLOWER + kind - NUM_KINDS,)
    base = kind * 4
    if red_fives and base in RED_FIVE_IDS:
        return (base + 1, base + 2, base + 3, base)
    return (base, base + 1, base + 2, base + 3)


class _Table:
    """What the reader fills in from, and what the writer compares with.

    Both apply every event to it in the same way, so that both agree on what
    goes without saying: whose draw or discard it is, the last discard, the
    tiles in each hand, scores, honba and riichi sticks.
    """

    def __init__(self, n: int, first_dealer: int, ruleset: Ruleset) -> None:
        self.n = n
        self.first_dealer = first_dealer
        self.red = ruleset.red_fives
        self.ruleset = ruleset
        self.scores = [ruleset.starting_score] * n
        self.kyotaku = 0
        self.honba = 0
        self.dealer = first_dealer
        self.hands: list[set[int]] = [set() for _ in range(n)]
        self.unknown = [0] * n
        self.melds: list[list[Event]] = [[] for _ in range(n)]
        self.used: set[int] = set()
        self.dora: list[int] = []
        self.to_draw = -1
        self.to_discard = -1
        self.last_draw = -1
        self.last_discard = -1
        self.last_discarder = -1
        self.kan_tile = -1
        self.kan_player = -1
        self.after_kan = False
        self.dealing = False
        """Taiwanese flower procedure after the deal: the dealer discards next."""
        self.flowers: list[list[int]] = [[] for _ in range(n)]
        self.ura_shown: list[int] = []

    def dealer_of(self, round_number: int) -> int:
        """The dealer a round has unless the record says otherwise."""
        return (self.first_dealer + round_number - 1) % self.n

    def seat(self, letter: str) -> int:
        """The seat of a wind letter in the current round (E is the dealer)."""
        return (self.dealer + WINDS.index(letter)) % self.n

    def wind(self, seat: int) -> str:
        return WINDS[(seat - self.dealer) % self.n] if 0 <= seat < self.n else "?"

    def fresh(self, kind: int, red: bool) -> int:
        """The canonical copy of a tile entering play (dealt, drawn, shown)."""
        if kind == UNKNOWN_KIND:
            return UNKNOWN
        if red:
            return kind * 4
        order = _copies(kind, self.red)
        return next((t for t in order if t not in self.used), order[0])

    def ura(self, kind: int, red: bool, avoid: Sequence[int]) -> int:
        """The canonical copy of an ura indicator: the one a win already showed, if any."""
        for t in self.ura_shown:
            if KIND_OF[t] == kind and (t in RED_FIVE_IDS and self.red) == red \
                    and t not in avoid:
                return t
        return self.fresh(kind, red)

    def held(self, seat: int, kind: int, red: bool, avoid: Sequence[int] = ()) -> int:
        """The canonical copy of a tile a player gives from hand (a fresh one when the
        hand does not hold it: it was among the tiles nobody wrote down)."""
        if kind == UNKNOWN_KIND:
            return UNKNOWN
        if red:
            return kind * 4
        hand = self.hands[seat] if 0 <= seat < self.n else set()
        order = _copies(kind, self.red)
        return next((t for t in order if t in hand and t not in avoid),
                    next((t for t in order if t not in self.used and t not in avoid),
                         order[0]))

    def apply(self, ev: Event) -> None:
        """Follow one event (never judges it)."""
        handler = _APPLY.get(ev.__class__)
        if handler is not None:
            handler(self, ev)

    def _draw(self, ev: Draw) -> None:
        if 0 <= ev.player < self.n:
            if ev.tile == UNKNOWN:
                self.unknown[ev.player] += 1
            else:
                self.hands[ev.player].add(ev.tile)
        self.used.add(ev.tile)
        self.last_draw = ev.tile
        self.to_discard, self.to_draw = (self.dealer if self.dealing else ev.player), -1
        self.after_kan = False
        self.kan_tile = -1

    def _discard(self, ev: Discard) -> None:
        if 0 <= ev.player < self.n:
            self._give(ev.player, ev.tile)
        self.last_discard, self.last_discarder = ev.tile, ev.player
        self.to_draw, self.to_discard = (ev.player + 1) % self.n, -1
        self.dealing = False
        self.kan_tile = -1

    def _give(self, seat: int, tile: int) -> None:
        """A tile leaves a hand: a named one, or one of the unknown ones."""
        hand = self.hands[seat]
        if tile in hand:
            hand.discard(tile)
        elif self.unknown[seat] > 0:
            self.unknown[seat] -= 1
        self.used.add(tile)

    def _call(self, ev: Chi | Pon | OpenKan) -> None:
        if 0 <= ev.player < self.n:
            for t in ev.tiles:
                if t != ev.called:
                    self._give(ev.player, t)
            self.melds[ev.player].append(ev)
        kan = isinstance(ev, OpenKan)
        self.to_discard, self.to_draw = ev.player, ev.player if kan else -1
        self.after_kan = kan

    def _own_kan(self, ev: ClosedKan | AddedKan | Kita) -> None:
        p = ev.player
        if 0 <= p < self.n:
            if isinstance(ev, ClosedKan):
                for t in ev.tiles:
                    self._give(p, t)
                self.melds[p].append(ev)
                self.kan_tile = ev.tiles[0]
            elif isinstance(ev, AddedKan):
                self._give(p, ev.added)
                ms = self.melds[p]
                i = next((i for i, m in enumerate(ms) if isinstance(m, Pon)
                          and KIND_OF[m.called] == KIND_OF[ev.added]), -1)
                if i >= 0:
                    ms[i] = ev
                else:
                    ms.append(ev)
                self.kan_tile = ev.added
            else:
                self._give(p, ev.tile)
                self.melds[p].append(ev)
                self.kan_tile = ev.tile  # a kita can be robbed (thirteen orphans)
        self.kan_player = p
        self.to_draw = p
        self.after_kan = True

    def _flower(self, ev: Flower) -> None:
        p = ev.player
        if ev.from_player is None:
            self._give(p, ev.tile)
        elif 0 <= ev.from_player < self.n and ev.tile in self.flowers[ev.from_player]:
            self.flowers[ev.from_player].remove(ev.tile)
        if 0 <= p < self.n:
            self.flowers[p].append(ev.tile)
        self.used.add(ev.tile)
        self.to_draw, self.to_discard = p, -1
        self.after_kan = True
        self.kan_tile = -1

    def flower_owner(self, tile: int) -> int:
        """The seat that has set flower ``tile`` aside, -1 when nobody has."""
        return next((p for p in range(self.n) if tile in self.flowers[p]), -1)

    def _riichi(self, ev: RiichiAccepted) -> None:
        if 0 <= ev.player < self.n:
            self.scores[ev.player] -= 1000
        self.kyotaku += 1

    def _dora(self, ev: DoraReveal) -> None:
        self.dora.append(ev.indicator)
        self.used.add(ev.indicator)

    def _round_start(self, ev: RoundStart) -> None:
        self.n = len(ev.hands)
        self.honba, self.kyotaku, self.dealer = ev.honba, ev.kyotaku, ev.dealer
        self.scores = list(ev.scores)
        self.hands = [{t for t in h if t != UNKNOWN} for h in ev.hands]
        self.unknown = [sum(1 for t in h if t == UNKNOWN) for h in ev.hands]
        self.melds = [[] for _ in range(self.n)]
        self.used = {t for h in ev.hands for t in h if t != UNKNOWN} | {ev.dora_indicator}
        self.dora = [ev.dora_indicator]
        self.to_draw, self.to_discard = ev.dealer, -1
        self.flowers = [[] for _ in range(self.n)]
        self.dealing = self.ruleset.family == "taiwan16"
        if self.dealing:  # the dealer's seventeenth tile is dealt: the dealer discards first
            self.to_draw, self.to_discard = -1, ev.dealer
        self.last_draw = self.last_discard = self.last_discarder = -1
        self.kan_tile = self.kan_player = -1
        self.after_kan = False
        self.ura_shown = []

    def _result(self, ev: Win | ExhaustiveDraw | AbortiveDraw) -> None:
        for p, d in enumerate(ev.deltas[: self.n]):
            self.scores[p] += d
        if isinstance(ev, Win):
            self.kyotaku = 0
            self.used.update(ev.ura_indicators)
            self.ura_shown.extend(t for t in ev.ura_indicators if t not in self.ura_shown)
        self.to_draw = self.to_discard = -1

    def _round_end(self, ev: RoundEnd) -> None:
        if ev.scores is not None:
            self.scores = list(ev.scores)


_APPLY: dict[type, Callable[[_Table, Any], None]] = {
    Draw: _Table._draw, Discard: _Table._discard, Chi: _Table._call, Pon: _Table._call,
    OpenKan: _Table._call, ClosedKan: _Table._own_kan, AddedKan: _Table._own_kan,
    Kita: _Table._own_kan, Flower: _Table._flower, RiichiAccepted: _Table._riichi,
    DoraReveal: _Table._dora,
    RoundStart: _Table._round_start, Win: _Table._result, ExhaustiveDraw: _Table._result,
    AbortiveDraw: _Table._result, RoundEnd: _Table._round_end,
}


# ---------------------------------------------------------------- ids packing


def pack_ids(digits: Sequence[int]) -> str:
    """Copy digits (0..3), three to a character, after their count: ``"5:Ab"``."""
    out = []
    for i in range(0, len(digits), 3):
        a, b, c = [*digits[i:i + 3], 0, 0][:3]
        out.append(_B64[a * 16 + b * 4 + c])
    return f"{len(digits)}:{''.join(out)}"


def unpack_ids(text: str) -> list[int]:
    """The digits of :func:`pack_ids`; raises ``ValueError`` on bad input."""
    count_text, sep, body = text.partition(":")
    if not sep:
        raise ValueError("ids need a count, a colon and the digits")
    count = int(count_text)
    digits: list[int] = []
    for ch in body:
        v = _B64.find(ch)
        if v < 0:
            raise ValueError(f"{ch!r} is not an ids character")
        digits.extend((v // 16, v // 4 % 4, v % 4))
    if not count <= len(digits) <= count + 2:
        raise ValueError(f"ids hold {len(digits)} digits for a count of {count}")
    return digits[:count]


# ---------------------------------------------------------------- small formats


def _q(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _pct(v: str) -> str:
    return (v.replace("%", "%25").replace(" ", "%20").replace("\n", "%0A")
            .replace("#", "%23").replace("\t", "%09"))


def _unpct(v: str) -> str:
    return re.sub(r"%([0-9A-F]{2})", lambda m: chr(int(m.group(1), 16)), v)


def _ints_str(values: Sequence[int]) -> str:
    return ",".join(map(str, values))


def _deltas_str(values: Sequence[int]) -> str:
    return ",".join(f"{d:+d}" if d else "0" for d in values)


def _default_han(name: str, open_hand: bool, rs: Ruleset) -> int:
    if rs.family == "taiwan16":
        return tw.default_tai(name, rs)
    return default_han(name, open_hand)


def _claim_str(y: YakuClaim, open_hand: bool, rs: Ruleset) -> str:
    return y.name if y.han == _default_han(y.name, open_hand, rs) else f"{y.name}:{y.han}"


def _is_open(t: _Table, seat: int) -> bool:
    return 0 <= seat < t.n and any(
        isinstance(m, Chi | Pon | OpenKan | AddedKan) for m in t.melds[seat])


def _meld_tiles(m: Event) -> tuple[Tile, ...]:
    if isinstance(m, Kita):
        return (m.tile,)
    assert isinstance(m, Chi | Pon | OpenKan | AddedKan | ClosedKan)
    return m.tiles


def _win_melds(t: _Table, seat: int) -> tuple[tuple[Tile, ...], ...]:
    """A winner's sets as a win lists them: the latest call first (as Tenhou does)."""
    if not 0 <= seat < t.n:
        return ()
    return tuple(_meld_tiles(m) for m in reversed(t.melds[seat]))


def derived_deltas(t: _Table, ev: Win | ExhaustiveDraw | AbortiveDraw,
                   first: bool) -> tuple[int, ...]:
    """The score changes a result implies, filled in when the text states none.

    A Taiwanese win pays 底 + 台 x value for the 台 it claims, with the
    dealer's 2n + 1 (:func:`mjlog.taiwan.tai.payments`); a Taiwanese draw pays
    nothing. A riichi win pays its stated points (a ron from the discarder; a tsumo split as
    Tenhou splits it, with the absent seat's share unpaid in three-player
    games), the honba (100 per honba from each payer, 300 or 200 on a ron) and
    the riichi sticks to the first winner only; with pao, as in
    :mod:`mjlog.scoring.payments`. An exhaustive draw moves the noten pool
    (3000, or 2000 with three players) from the noten to the shown (tenpai)
    hands; nagashi mangan has no filled-in payments. An abortive draw pays
    nothing.
    """
    n = t.n
    deltas = [0] * n
    if isinstance(ev, AbortiveDraw) or (t.ruleset.family == "taiwan16"
                                        and isinstance(ev, ExhaustiveDraw)):
        return tuple(deltas)
    if isinstance(ev, Win) and t.ruleset.family == "taiwan16":
        if not (0 <= ev.winner < n and 0 <= ev.from_player < n):
            return ()
        return tuple(tw.payments(n, ev.winner, None if ev.from_player == ev.winner
                                 else ev.from_player, t.dealer, ev.honba,
                                 tw.total(ev.yaku), t.ruleset))
    if isinstance(ev, ExhaustiveDraw):
        if ev.nagashi:
            return ()
        tenpai = [p < len(ev.hands) and ev.hands[p] is not None for p in range(n)]
        return tuple(noten_deltas(tenpai, 3000 if n == 4 else 2000))
    w = ev.winner
    if not 0 <= w < n or not 0 <= ev.from_player < n:
        return ()
    honba = ev.honba if first else 0
    points = ev.points
    if ev.pao is not None and 0 <= ev.pao < n and ev.pao != w:
        if ev.from_player == w:
            deltas[ev.pao] -= points + 100 * honba * (n - 1)
        else:
            deltas[ev.pao] -= points // 2
            deltas[ev.from_player] -= points - points // 2 + 100 * (n - 1) * honba
    elif ev.from_player != w:
        deltas[ev.from_player] -= points + 100 * (n - 1) * honba
    else:
        dealer = t.dealer
        if w == dealer:
            shares = {p: points // (n - 1) for p in range(n) if p != w}
        else:
            add = up100(-(-points // (4 if n == 4 else 3)))
            main = points - add * (n - 2)
            shares = {p: main if p == dealer else add for p in range(n) if p != w}
        for p, pay in shares.items():
            deltas[p] -= pay + 100 * honba
    deltas[w] -= sum(deltas)
    deltas[w] += 1000 * ev.kyotaku
    return tuple(deltas)


def _ruleset_tags(rs: Ruleset) -> tuple[str, str]:
    """(preset name, overrides) that give back ``rs``."""
    return rs.name, " ".join(overrides(rs))


# ---------------------------------------------------------------- writer


class _Writer:
    """Writes one game; see the module docstring for what is left out and why."""

    def __init__(self, events: Sequence[Event], exact: bool = True) -> None:
        self.events = events
        self.exact = exact
        self.out: list[str] = [MAGIC]
        self.t = _Table(4, 0, Ruleset())
        self.started = False
        self.digits: list[int] = []
        self.canonical = True
        self.line: list[str] = []
        self.lines: list[str] = []
        self.ids_at = -1
        self.results = False
        self.round_ended = False
        self.first_done = False

    def run(self) -> str:
        i = 0
        while i < len(self.events):
            i = self.event(i)
        self.flush_round()
        return "\n".join(self.out) + "\n"

    # -- output

    def emit(self, token: str) -> None:
        self.line.append(token)
        if len(self.line) >= 8:
            self.newline()

    def newline(self) -> None:
        if self.line:
            self.lines.append(" ".join(self.line))
            self.line = []

    def put(self, text: str) -> None:
        self.newline()
        self.lines.append(text)

    def flush_round(self) -> None:
        if self.results and not self.round_ended:
            self.put("noend")
        self.newline()
        if self.ids_at >= 0 and not self.canonical and self.exact:
            self.lines.insert(self.ids_at, "ids " + pack_ids(self.digits))
        self.out.extend(self.lines)
        self.lines, self.digits, self.canonical, self.ids_at = [], [], True, -1
        self.results = self.round_ended = self.first_done = False

    def tile(self, t: int, canonical: int) -> str:
        """A tile as written; its copy digit goes to the ``ids`` line."""
        if t == UNKNOWN:
            return "?"
        self.digits.append(t % 4 if t < FIRST_FLOWER else 0)
        self.canonical = self.canonical and t == canonical
        return tile_str(t, self.t.red)

    def tiles(self, tiles: Sequence[int], canon: Callable[[int, list[int]], int],
              sort: bool = True) -> str:
        """Several tiles in mpsz (sorted by kind when ``sort``); ``canon`` gives the copy
        the reader would pick for each, given the ones already written."""
        red = self.t.red
        items = sorted(tiles, key=lambda x: (KIND_OF[x], not (red and x in RED_FIVE_IDS), x)) \
            if sort else list(tiles)
        taken: list[int] = []
        names = []
        for x in items:
            names.append(self.tile(x, canon(x, taken)))
            taken.append(x)
        return join_mpsz(names) or "-"

    def fresh_tiles(self, tiles: Sequence[int], sort: bool = True) -> str:
        t = self.t

        def canon(x: int, _: list[int]) -> int:
            c = t.fresh(KIND_OF[x], t.red and x in RED_FIVE_IDS)
            t.used.add(x)
            return c
        return self.tiles(tiles, canon, sort)

    def held_tiles(self, seat: int, tiles: Sequence[int]) -> str:
        t = self.t
        return self.tiles(tiles, lambda x, taken: t.held(
            seat, KIND_OF[x], t.red and x in RED_FIVE_IDS, taken), sort=False)

    # -- events

    def event(self, i: int) -> int:
        ev = self.events[i]
        t = self.t
        if isinstance(ev, GameStart):
            self.game_start(ev)
            return i + 1
        if isinstance(ev, Comment):
            self.put("# " + ev.text.replace("\n", " "))
            return i + 1
        if isinstance(ev, Unknown):
            self.put("unknown " + json.dumps(
                {"tag": ev.tag, "attrs": [list(p) for p in ev.attrs], "text": ev.text},
                ensure_ascii=False))
            return i + 1
        if not self.started:
            raise ValueError("events before the game start")
        step = 1
        if isinstance(ev, RoundStart):
            self.flush_round()
            self.round_start(ev)
        elif isinstance(ev, Draw):
            step = self.draw(i, ev)
            return i + step
        elif isinstance(ev, Discard):
            step = self.discard(i, ev, self.standalone_prefix(ev))
            return i + step
        elif isinstance(ev, Chi | Pon | OpenKan):
            self.call(ev)
        elif isinstance(ev, ClosedKan | AddedKan | Kita):
            self.own_call(ev)
        elif isinstance(ev, Flower):
            self.flower(ev)
        elif isinstance(ev, RiichiAccepted):
            self.emit(f"{t.wind(ev.player)}:paid" + self.paid_scores(ev))
        elif isinstance(ev, DoraReveal):
            self.emit("dora:" + self.fresh_tiles([ev.indicator]))
        elif isinstance(ev, ReadyDeclared):
            self.emit(f"{t.wind(ev.player)}:ting")
        elif isinstance(ev, Disconnect):
            self.emit(f"{t.wind(ev.player)}:bye")
        elif isinstance(ev, Reconnect):
            self.emit(f"{t.wind(ev.player)}:back" + (f"={_pct(ev.name)}" if ev.name else ""))
        elif isinstance(ev, Win):
            self.win(ev)
        elif isinstance(ev, ExhaustiveDraw | AbortiveDraw):
            self.draw_result(ev)
        elif isinstance(ev, RoundEnd):
            self.round_end(ev)
        elif isinstance(ev, GameEnd):
            self.flush_round()
            self.game_end(ev)
        t.apply(ev)
        return i + step

    def game_start(self, ev: GameStart) -> None:
        out = self.out
        out.append(f"[Source {_q(ev.source)}]")
        out.append("[Players " + " ".join(_q(p.name) for p in ev.players) + "]")
        if any(p.rank for p in ev.players):
            out.append("[Ranks " + " ".join(_q(p.rank) for p in ev.players) + "]")
        if any(p.rating is not None for p in ev.players):
            out.append("[Ratings " + " ".join(
                _q("-" if p.rating is None else repr(p.rating)) for p in ev.players) + "]")
        if any(p.sex for p in ev.players):
            out.append("[Sexes " + " ".join(_q(p.sex) for p in ev.players) + "]")
        if ev.first_dealer:
            out.append(f"[FirstDealer {_q(str(ev.first_dealer))}]")
        name, rules = _ruleset_tags(ev.ruleset)
        out.append(f"[Ruleset {_q(name)}]")
        if rules:
            out.append(f"[Rules {_q(rules)}]")
        for k, v in ev.meta:
            if self.exact or k not in MACHINE_META:
                out.append(f"[Meta {_q(k)} {_q(v)}]")
        self.t = _Table(len(ev.players), ev.first_dealer, ev.ruleset)
        self.started = True

    def game_end(self, ev: GameEnd) -> None:
        parts = ["end"]
        if ev.scores is not None:
            parts.append("scores=" + _ints_str(ev.scores))
        if ev.points is not None:
            parts.append("points=" + ",".join(repr(p) for p in ev.points))
        self.out.append(" ".join(parts))

    def round_start(self, ev: RoundStart) -> None:
        t = self.t
        t.n = len(ev.hands)
        head = [round_label(ev.round_wind, ev.round_number, ev.honba)]
        if ev.kyotaku != t.kyotaku:
            head.append(f"sticks={ev.kyotaku}")
        if ev.dealer != t.dealer_of(ev.round_number):
            head.append(f"dealer={ev.dealer}")
        if list(ev.scores) != t.scores:
            head.append("scores=" + _ints_str(ev.scores))
        if ev.dice:
            head.append("dice=" + ",".join(map(str, ev.dice)))
        t.used = set()
        t.dealer = ev.dealer
        if ev.dora_indicator != UNKNOWN or t.ruleset.family != "taiwan16":
            head.append("dora=" + self.fresh_tiles([ev.dora_indicator]))
        head.extend(f"@{k}={_pct(v)}" for k, v in ev.extra
                    if self.exact or k not in MACHINE_META)
        self.lines.append(" ".join(head))
        n = len(ev.hands)
        self.lines.append("hands " + " ".join(
            "?" if ev.hands[(ev.dealer + k) % n] == (UNKNOWN,) * t.ruleset.dealt(k == 0)
            else self.fresh_tiles(ev.hands[(ev.dealer + k) % n]) for k in range(n)))
        if ev.wall is not None:
            self.lines.append("wall " + self.fresh_tiles(ev.wall, sort=False))
        self.ids_at = len(self.lines)

    def draw(self, i: int, ev: Draw) -> int:
        t = self.t
        token = "" if ev.player == t.to_draw else f"{t.wind(ev.player)}>"
        if ev.rinshan != t.after_kan:
            token += "~"
        token += self.fresh_tiles([ev.tile])
        t.apply(ev)
        nxt = self.events[i + 1] if i + 1 < len(self.events) else None
        if isinstance(nxt, Discard) and nxt.player == ev.player:
            return 1 + self.discard(i + 1, nxt, token)
        self.emit(token)
        return 1

    def standalone_prefix(self, ev: Discard) -> str:
        t = self.t
        return "" if ev.player == t.to_discard and t.to_draw < 0 else f"{t.wind(ev.player)}<"

    def discard(self, i: int, ev: Discard, token: str) -> int:
        """Write a discard after ``token``; returns how many events were written."""
        t = self.t
        after_draw = token and not token.endswith("<")
        if after_draw and ev.tsumogiri and ev.tile == t.last_draw:
            token += "'"
        else:
            token += self.held_tiles(ev.player, [ev.tile]) + ("'" if ev.tsumogiri else "")
        if ev.riichi:
            token += "*"
        t.apply(ev)
        self.emit(token)
        if not ev.riichi:
            return 1
        nxt = self.events[i + 1] if i + 1 < len(self.events) else None
        if isinstance(nxt, RiichiAccepted) and nxt.player == ev.player:
            if not self.paid_scores(nxt):
                t.apply(nxt)
                return 2
            return 1  # written on its own, with its scores
        if not (isinstance(nxt, Win) and nxt.from_player != nxt.winner):
            self.emit(f"{t.wind(ev.player)}:unpaid")
        return 1

    def paid_scores(self, ev: RiichiAccepted) -> str:
        expected = list(self.t.scores)
        if 0 <= ev.player < len(expected):
            expected[ev.player] -= 1000
        if ev.scores is not None and list(ev.scores) == expected:
            return ""
        return "=" + ("-" if ev.scores is None else _ints_str(ev.scores))

    def call(self, ev: Chi | Pon | OpenKan) -> None:
        t = self.t
        op = {Chi: "chi", Pon: "pon", OpenKan: "kan"}[type(ev)]
        own = [x for x in ev.tiles if x != ev.called]
        token = f"{t.wind(ev.player)}:{op}{self.held_tiles(ev.player, own)}"
        if (ev.called != t.last_discard or ev.from_player != t.last_discarder
                or len(own) != len(ev.tiles) - 1 or ev.tiles != tuple(sorted(ev.tiles))):
            token += f"!{_ints_str(ev.tiles)}/{ev.called}/{ev.from_player}"
        self.emit(token)

    def own_call(self, ev: ClosedKan | AddedKan | Kita) -> None:
        t = self.t
        p = ev.player
        token = "" if p == t.to_discard else f"{t.wind(p)}:"
        if isinstance(ev, ClosedKan):
            kind = KIND_OF[ev.tiles[0]]
            token += "ankan" + tile_str(kind * 4 + 1, False)
            if ev.tiles != tuple(range(kind * 4, kind * 4 + 4)):
                token += "!" + _ints_str(ev.tiles)
        elif isinstance(ev, AddedKan):
            token += "kakan" + self.held_tiles(p, [ev.added])
            pon = next((m for m in t.melds[p] if isinstance(m, Pon)
                        and KIND_OF[m.called] == KIND_OF[ev.added]), None) \
                if 0 <= p < t.n else None
            if (pon is None or ev.tiles != (*pon.tiles, ev.added) or ev.called != pon.called
                    or ev.from_player != pon.from_player):
                token += f"!{_ints_str(ev.tiles)}/{ev.called}/{ev.from_player}"
        else:
            token += "kita" + self.held_tiles(p, [ev.tile])
        self.emit(token)

    def flower(self, ev: Flower) -> None:
        t = self.t
        p = ev.player
        token = "" if p == t.to_discard and not t.dealing else f"{t.wind(p)}:"
        name = tile_str(ev.tile)
        if ev.from_player is None:
            self.emit(f"{token}flower{self.held_tiles(p, [ev.tile])}")
        elif ev.from_player == t.flower_owner(ev.tile):
            self.emit(f"{token}rob{name}")
        else:
            self.emit(f"{token}rob{name}!{ev.from_player}")

    # -- results

    def win(self, ev: Win) -> None:
        t = self.t
        self.results = True
        tsumo = ev.from_player == ev.winner
        parts = ["tsumo" if tsumo else "ron", t.wind(ev.winner)]
        chankan = not tsumo and t.kan_tile >= 0
        from_ = ev.winner if tsumo else (t.kan_player if chankan else t.last_discarder)
        if not tsumo and ev.from_player != from_:
            parts.append(f"from={ev.from_player}")
        win_tile = t.last_draw if tsumo else (t.kan_tile if chankan else t.last_discard)
        if ev.win_tile != win_tile:
            parts.append(f"tile={ev.win_tile}")
        hand_set = set(t.hands[ev.winner]) if 0 <= ev.winner < t.n else set()
        if not tsumo:
            hand_set.add(win_tile)
        if list(ev.hand) != sorted(hand_set):
            parts.append("hand=" + _ints_str(ev.hand))
        melds = list(_win_melds(t, ev.winner))
        if list(ev.melds) != melds:
            parts.append("melds=" + "/".join(_ints_str(m) for m in ev.melds))
        taiwan = t.ruleset.family == "taiwan16"
        if not taiwan or ev.fu:
            parts.append(f"{ev.fu}fu")
        parts.append(str(ev.points))
        if ev.han != sum(y.han for y in ev.yaku):
            parts.append(f"han={ev.han}")
        if ev.limit != ("" if taiwan else hand_value(ev.han, ev.fu, t.ruleset)[1]):
            parts.append(f"limit={ev.limit or '-'}")
        open_hand = _is_open(t, ev.winner)
        parts.extend(_claim_str(y, open_hand, t.ruleset) for y in ev.yaku)
        if ev.ura_indicators:
            t_ = self.t
            parts.append("ura=" + self.tiles(ev.ura_indicators, lambda x, taken: t_.ura(
                KIND_OF[x], t_.red and x in RED_FIVE_IDS, taken), sort=False))
        if ev.pao is not None:
            parts.append(f"pao={t.wind(ev.pao)}")
        if list(ev.dora_indicators) != t.dora:
            parts.append("dora=" + (_ints_str(ev.dora_indicators) or "-"))
        self.common(parts, ev)
        self.put(" ".join(parts))

    def common(self, parts: list[str], ev: Win | ExhaustiveDraw | AbortiveDraw) -> None:
        t = self.t
        if ev.deltas != derived_deltas(t, ev, not self.first_done):
            parts.append("deltas=" + (_deltas_str(ev.deltas) or "-"))
        self.first_done = True
        if ev.scores_before is None or list(ev.scores_before) != t.scores:
            parts.append("before=" + ("-" if ev.scores_before is None
                                      else _ints_str(ev.scores_before)))
        if ev.honba != t.honba:
            parts.append(f"honba={ev.honba}")
        if ev.kyotaku != t.kyotaku:
            parts.append(f"sticks={ev.kyotaku}")
        parts.extend(f"@{k}={_pct(v)}" for k, v in ev.extra)

    def draw_result(self, ev: ExhaustiveDraw | AbortiveDraw) -> None:
        t = self.t
        self.results = True
        parts = ["draw"] if isinstance(ev, ExhaustiveDraw) else ["abort", ev.kind]
        if isinstance(ev, ExhaustiveDraw) and ev.nagashi:
            parts.append("nagashi")
        if len(ev.hands) != t.n:
            parts.append(f"seats={len(ev.hands)}")
        shown = [p for p, h in enumerate(ev.hands) if h is not None]
        if shown:
            parts.append("shown=" + "".join(t.wind(p) for p in shown))
        for p in shown:
            h = ev.hands[p]
            assert h is not None
            if p >= t.n or list(h) != sorted(t.hands[p]):
                parts.append(f"hand{t.wind(p)}=" + _ints_str(h))
        self.common(parts, ev)
        self.put(" ".join(parts))

    def round_end(self, ev: RoundEnd) -> None:
        self.round_ended = self.results
        if not self.results or ev.scores is None or list(ev.scores) != self.t.scores:
            self.put("after " + ("-" if ev.scores is None else _ints_str(ev.scores)))


def write(events: Sequence[Event], *, exact: bool = True) -> str:
    """One game's events as notation text, in the canonical formatting.

    With ``exact`` (the default) reading the text back gives the very same
    events. Without it, what only a machine needs is left out: the ``ids``
    lines (which physical copy each tile is) and Tenhou's shuffle seed. The
    game is the same move for move and tile for tile, but copies are
    renumbered and the wall can no longer be proven. Raises ``ValueError``
    for events before a game start.
    """
    return _Writer(events, exact).run()


# ---------------------------------------------------------------- reader

_TILE: Final = r"(?:[0-9][mpszf]|[ESWNHGR]|\?)"
_MOVE_RE: Final = re.compile(
    rf"^(?:(?P<seat>[ESWN])(?P<dir>[<>]))?(?P<rinshan>~)?(?P<a>{_TILE})(?P<b>{_TILE})?"
    r"(?P<giri>')?(?P<riichi>\*)?$")
_CALL_RE: Final = re.compile(
    r"^(?P<seat>[ESWN]):(?P<op>chi|pon|kan)(?P<tiles>[^!]+)(?:!(?P<raw>.*))?$")
_OWN_RE: Final = re.compile(
    r"^(?:(?P<seat>[ESWN]):)?(?P<op>ankan|kakan|kita|flower|rob)(?P<tiles>[^!]*)(?:!(?P<raw>.*))?$")
_SEAT_OP_RE: Final = re.compile(
    r"^(?P<seat>[ESWN]):(?P<op>paid|unpaid|bye|back|ting)(?:=(?P<arg>.*))?$")
_ROUND_RE: Final = re.compile(r"^(?P<wind>[ESWN])(?P<number>[1-4])-(?P<honba>\d+)$")
_TAG_RE: Final = re.compile(
    r'^\[(?P<key>[A-Za-z][\w.-]*)(?P<values>(?:\s+"(?:[^"\\]|\\.)*")*)\s*\]$')
_VALUE_RE: Final = re.compile(r'"((?:[^"\\]|\\.)*)"')
_RESULTS: Final = ("ron", "tsumo", "draw", "abort", "after", "noend", "unknown")


def _kinds(text: str, line: int, col: int) -> list[tuple[int, bool]]:
    """mpsz (honour letters allowed) to (kind, red) pairs; raises NotationError."""
    known = _KINDS_CACHE.get(text)
    if known is not None:
        return known
    out = _parse_kinds(text, line, col)
    if len(_KINDS_CACHE) < 100_000:
        _KINDS_CACHE[text] = out
    return out


_KINDS_CACHE: dict[str, list[tuple[int, bool]]] = {}
"""Tile strings already parsed (callers never change the lists)."""


def _parse_kinds(text: str, line: int, col: int) -> list[tuple[int, bool]]:
    out: list[tuple[int, bool]] = []
    digits: list[tuple[int, int]] = []
    for i, ch in enumerate(text):
        if ch.isdigit():
            digits.append((int(ch), i))
        elif ch in "mps":
            if not digits:
                raise NotationError("bad-tile", f"suit {ch!r} without digits", line, col + i)
            base = "mps".index(ch) * 9
            out.extend((base + 4, True) if d == 0 else (base + d - 1, False) for d, _ in digits)
            digits = []
        elif ch == "f":
            for d, j in digits:
                if not 1 <= d <= 8:
                    raise NotationError("bad-tile", f"there is no flower {d}f", line, col + j)
                out.append((NUM_KINDS - 1 + d, False))
            if not digits:
                raise NotationError("bad-tile", "suit 'f' without digits", line, col + i)
            digits = []
        elif ch == "z":
            if not digits:
                raise NotationError("bad-tile", "suit 'z' without digits", line, col + i)
            for d, j in digits:
                if not 1 <= d <= 7:
                    raise NotationError("bad-tile", f"there is no honour {d}z", line, col + j)
                out.append((26 + d, False))
            digits = []
        elif ch in HONOUR_LETTERS and not digits:
            out.append((HONOUR_LETTERS[ch], False))
        elif ch == "?" and not digits:
            out.append((UNKNOWN_KIND, False))
        else:
            raise NotationError("bad-tile", f"{ch!r} is not part of a tile", line, col + i)
    if digits:
        raise NotationError("bad-tile", "digits without a suit letter", line,
                            col + digits[0][1])
    return out


def _int_list(text: str, line: int, col: int, what: str) -> tuple[int, ...]:
    try:
        return tuple(int(x) for x in text.split(",")) if text else ()
    except ValueError:
        raise NotationError("bad-result", f"{what} must be numbers separated by commas",
                            line, col) from None


_DRAWS: dict[tuple[int, int, bool], Draw] = {}
_DISCARDS: dict[tuple[int, int, bool, bool], Discard] = {}
"""Draws and discards are immutable values, shared between every place they occur."""


class _Reader:
    """Reads one notation text; collects diagnostics, keeps what it read before a problem."""

    def __init__(self, lines: list[str], path: str, strict: bool) -> None:
        self.lines = lines
        self.path = path
        self.strict = strict
        self.events: list[Event] = []
        self.pos_line = array("i")
        self.pos_col = array("i")
        self.diagnostics: list[Diagnostic] = []
        self.t = _Table(4, 0, Ruleset())
        self.started = False
        self.ids: list[int] | None = None
        self.id_pos = 0
        self.pending = -1
        self.results = False
        self.round_closed = False
        self.in_round = False
        self.win_seat = 0

    # -- plumbing

    def emit(self, ev: Event, line: int, col: int) -> None:
        self.events.append(ev)
        self.pos_line.append(line)
        self.pos_col.append(col)
        self.t.apply(ev)

    def problem(self, exc: NotationError) -> None:
        d = Diagnostic(code=exc.code, message=str(exc), severity=Severity.ERROR,
                       src=Src(line=exc.line, column=exc.column))
        if self.strict:
            raise InputError(d)
        self.diagnostics.append(d)

    def tile(self, kind: int, red: bool, canonical: int, line: int, col: int) -> Tile:
        """The physical tile for a tile named in the text (from ``ids`` when given)."""
        if kind == UNKNOWN_KIND:
            return UNKNOWN
        if self.ids is None:
            return Tile(canonical)
        if self.id_pos >= len(self.ids):
            raise NotationError("bad-ids", "the ids line has fewer copies than tiles named",
                                line, col)
        digit = self.ids[self.id_pos]
        self.id_pos += 1
        if red and digit != 0:
            raise NotationError("bad-ids", "a red five must be copy 0", line, col)
        if kind >= NUM_KINDS:
            return Tile(FIRST_FLOWER + kind - NUM_KINDS)
        return Tile(kind * 4 + digit)

    def fresh(self, text: str, line: int, col: int) -> list[Tile]:
        out = []
        for kind, red in _kinds(text, line, col):
            t = self.tile(kind, red, self.t.fresh(kind, red), line, col)
            self.t.used.add(t)
            out.append(t)
        return out

    def held(self, seat: int, text: str, line: int, col: int) -> list[Tile]:
        out: list[Tile] = []
        for kind, red in _kinds(text, line, col):
            out.append(self.tile(kind, red, self.t.held(seat, kind, red, out), line, col))
        return out

    def seat(self, letter: str) -> int:
        return self.t.seat(letter)

    # -- top level

    def run(self) -> GameRecord:
        i = self.header()
        while i < len(self.lines):
            i = self.block(i)
        self.close_round(len(self.lines), 1)
        return GameRecord(path=self.path, format=FORMAT, events=self.events,
                          diagnostics=self.diagnostics, positions=self.pos_line,
                          columns=self.pos_col, position_kind="text")

    def header(self) -> int:
        lines = self.lines
        i = 0
        while i < len(lines) and not lines[i].strip():
            i += 1
        if i >= len(lines) or lines[i].strip() != MAGIC:
            self.problem(NotationError("not-notation", f"the first line must be {MAGIC!r}",
                                       i + 1, 1))
            return len(lines)
        i += 1
        tags: list[tuple[str, list[str], int]] = []
        while i < len(lines):
            raw = lines[i].strip()
            if not raw or raw.startswith("#"):
                i += 1
                continue
            if not raw.startswith("["):
                break
            m = _TAG_RE.match(raw)
            if m is None:
                self.problem(NotationError("bad-header", "a header is [Key \"value\" ...]",
                                           i + 1, 1))
            else:
                values = [v.replace('\\"', '"').replace("\\\\", "\\")
                          for v in _VALUE_RE.findall(m.group("values"))]
                tags.append((m.group("key"), values, i + 1))
            i += 1
        try:
            self.emit(self.game_start(tags), tags[0][2] if tags else i + 1, 1)
        except NotationError as exc:
            self.problem(exc)
            self.emit(GameStart(source=FORMAT, players=tuple(
                PlayerInfo(name=n) for n in ("", "", "", ""))), i, 1)
        self.started = True
        return i

    def game_start(self, tags: list[tuple[str, list[str], int]]) -> GameStart:
        source = FORMAT
        names: list[str] = []
        ranks: list[str] = []
        ratings: list[float | None] = []
        sexes: list[str] = []
        first = 0
        preset_name = "tenhou"
        rules = ""
        meta: list[tuple[str, str]] = []
        players_line = rules_line = tags[-1][2] if tags else 2
        for key, values, line in tags:
            one = values[0] if values else ""
            if key == "Source":
                source = one
            elif key == "Players":
                names = values
                players_line = line
            elif key == "Ranks":
                ranks = values
            elif key == "Ratings":
                try:
                    ratings = [None if v == "-" else float(v) for v in values]
                except ValueError:
                    raise NotationError("bad-header", "ratings are numbers or -", line,
                                        1) from None
            elif key == "Sexes":
                sexes = values
            elif key == "FirstDealer":
                if not one.isdigit():
                    raise NotationError("bad-header", "FirstDealer is a seat number", line, 1)
                first = int(one)
            elif key == "Ruleset":
                preset_name = one
            elif key == "Rules":
                rules = one
                rules_line = line
            elif key == "Meta" and len(values) == 2:
                meta.append((values[0], values[1]))
            else:
                meta.append((key, " ".join(values)))
        if len(names) not in (3, 4):
            raise NotationError("bad-header", "[Players ...] must name 3 or 4 players",
                                players_line, 1)
        ruleset = self.ruleset(preset_name, rules, rules_line)
        n = len(names)
        players = tuple(PlayerInfo(
            name=names[k], rank=ranks[k] if k < len(ranks) else "",
            rating=ratings[k] if k < len(ratings) else None,
            sex=sexes[k] if k < len(sexes) else "") for k in range(n))
        self.t = _Table(n, first, ruleset)
        return GameStart(source=source, players=players, first_dealer=first, ruleset=ruleset,
                         meta=tuple(meta))

    def ruleset(self, name: str, rules: str, line: int) -> Ruleset:
        base = PRESETS.get(name) or Ruleset(name=name)
        changes: dict[str, object] = {}
        col = self.lines[line - 1].find(rules) + 1 if rules else 1
        for m in re.finditer(r"\S+", rules):
            key, _, value = m.group().partition("=")
            try:
                changes[key] = parse_option(key, value)
            except ValueError as exc:
                raise NotationError("bad-header", str(exc), line, col + m.start()) from None
        return base.with_options(**changes)

    # -- rounds

    def block(self, i: int) -> int:
        """Read from line ``i`` to the next round header or game end; return where it ends."""
        lines = self.lines
        raw = lines[i].strip()
        if not raw or raw.startswith("#"):
            if raw.startswith("#") and self.in_round:
                self.emit(Comment(text=raw[1:].strip()), i + 1, 1)
            return i + 1
        first = raw.split()[0]
        if first == "end":
            self.close_round(i + 1, 1)
            self.game_end(raw, i + 1)
            return i + 1
        if _ROUND_RE.match(first):
            self.close_round(i + 1, 1)
            j = i + 1
            while j < len(lines):
                w = lines[j].split()
                if w and (_ROUND_RE.match(w[0]) or w[0] == "end"):
                    break
                j += 1
            try:
                self.round(i, j)
            except NotationError as exc:
                self.problem(exc)
            return j
        if re.match(r"^[ESWN]\d+-\d+$", first):
            self.problem(NotationError("bad-round", f"{first!r}: rounds are E1..E4, S1..S4, "
                                       "W1..W4 or N1..N4, then -honba", i + 1, 1))
            return i + 1
        if self.in_round or any(ev.__class__ is RoundStart for ev in self.events):
            self.problem(NotationError("bad-round", "expected a round header such as 'E1-0'",
                                       i + 1, 1))
            return i + 1
        try:  # moves before the first round: disconnections and the like
            self.body_line(i)
        except NotationError as exc:
            self.problem(exc)
        return i + 1

    def close_round(self, line: int, col: int) -> None:
        if not self.in_round:
            return
        self.settle_riichi(line, col)
        if self.results and not self.round_closed:
            self.emit(RoundEnd(scores=tuple(self.t.scores)), line, col)
        self.in_round = False

    def round(self, start: int, stop: int) -> None:
        lines = self.lines
        t = self.t
        head = lines[start].split()
        m = _ROUND_RE.match(head[0])
        assert m is not None
        wind = WINDS.index(m.group("wind"))
        number = int(m.group("number"))
        honba = int(m.group("honba"))
        ids_line = next((k for k in range(start + 1, stop) if lines[k].startswith("ids ")), -1)
        self.ids = None
        self.id_pos = 0
        if ids_line >= 0:
            try:
                self.ids = unpack_ids(lines[ids_line][4:].strip())
            except ValueError as exc:
                raise NotationError("bad-ids", str(exc), ids_line + 1, 5) from None
        opts: dict[str, str] = {}
        extra: list[tuple[str, str]] = []
        cols: dict[str, int] = {}
        for word in head[1:]:
            key, eq, value = word.partition("=")
            if not eq:
                raise NotationError("bad-round", f"{word!r} is not key=value", start + 1,
                                    lines[start].find(word) + 1)
            if key.startswith("@"):
                extra.append((key[1:], _unpct(value)))
            else:
                opts[key] = value
                cols[key] = lines[start].find(word) + len(key) + 2
        if "dora" not in opts and t.ruleset.family == "taiwan16":
            opts["dora"], cols["dora"] = "?", 1  # no dora in Taiwanese mahjong
        if "dora" not in opts:
            raise NotationError("bad-round", "the round header needs dora=<tile>", start + 1, 1)
        line_no = start + 1
        dealer = int(opts["dealer"]) if "dealer" in opts else t.dealer_of(number)
        t.dealer = dealer
        t.used = set()
        dora = self.fresh(opts["dora"], line_no, cols["dora"])
        if len(dora) != 1:
            raise NotationError("bad-round", "dora= names one tile", line_no, cols["dora"])
        hands_line = start + 1
        if hands_line >= stop or not lines[hands_line].startswith("hands"):
            raise NotationError("bad-round", "the line after the round header must be "
                                "'hands ...'", hands_line + 1, 1)
        groups = lines[hands_line].split()[1:]
        n = t.n
        if len(groups) != n:
            raise NotationError("bad-round", f"hands must list {n} hands", hands_line + 1, 1)
        hands: list[tuple[Tile, ...]] = [()] * n
        for k, g in enumerate(groups):
            c = lines[hands_line].find(g) + 1
            tiles: tuple[Tile, ...]
            if g == "?":  # nobody wrote this hand down
                tiles = (UNKNOWN,) * t.ruleset.dealt(k == 0)
            else:
                tiles = () if g == "-" else tuple(self.fresh(g, hands_line + 1, c))
            hands[(dealer + k) % n] = tuple(sorted(tiles))
        wall = None
        body = hands_line + 1
        if body < stop and lines[body].startswith("wall "):
            wall = tuple(self.fresh(lines[body][5:].strip(), body + 1, 6))
            body += 1
        scores = (tuple(_int_list(opts["scores"], line_no, cols["scores"], "scores"))
                  if "scores" in opts else tuple(t.scores))
        dice = tuple(int(x) for x in opts["dice"].split(",")) if "dice" in opts else ()
        rs = RoundStart(
            round_wind=wind, round_number=number, honba=honba,
            kyotaku=int(opts["sticks"]) if "sticks" in opts else t.kyotaku, dealer=dealer,
            scores=scores, dora_indicator=dora[0], hands=tuple(hands), dice=dice, wall=wall,
            extra=tuple(extra))
        self.emit(rs, line_no, 1)
        self.in_round = True
        self.results = self.round_closed = False
        self.pending = -1
        for k in range(body, stop):
            if k == ids_line:
                continue
            try:
                self.body_line(k)
            except NotationError as exc:
                self.problem(exc)
        if self.ids is not None and self.id_pos != len(self.ids):
            self.problem(NotationError("bad-ids", f"the ids line has {len(self.ids)} copies "
                                       f"for {self.id_pos} tiles named", ids_line + 1, 5))

    def body_line(self, k: int) -> None:
        raw = self.lines[k]
        line = k + 1
        stripped = raw.strip()
        if not stripped:
            return
        first = stripped.split()[0]
        if first == "unknown":
            self.unknown(stripped[8:], line)
            return
        comment = ""
        if "#" in raw:
            raw, comment = raw.split("#", 1)
        if first in _RESULTS:
            self.guarded(self.result, raw, line, 1, raw, line)
        else:
            for m in re.finditer(r"\S+", raw):
                self.guarded(self.token, m.group(), line, m.start() + 1, m.group(), line,
                             m.start() + 1)
        if comment:
            self.emit(Comment(text=comment.strip()), line, len(raw) + 1)

    def guarded(self, fn: Callable[..., None], what: str, line: int, col: int,
                *args: Any) -> None:
        """Run one token's or result's reader; an unexpected shape is a ``bad-token``."""
        try:
            fn(*args)
        except NotationError as exc:
            self.problem(exc)
        except InputError:
            raise  # strict mode
        except (IndexError, KeyError, ValueError) as exc:
            self.problem(NotationError("bad-token", f"{what!r} cannot be read ({exc})", line,
                                       col))

    def unknown(self, text: str, line: int) -> None:
        try:
            obj = json.loads(text)
            ev = Unknown(tag=str(obj["tag"]), attrs=tuple((str(a), str(b))
                                                           for a, b in obj.get("attrs", [])),
                         text=str(obj.get("text", "")))
        except (ValueError, KeyError, TypeError):
            raise NotationError("bad-token", "unknown takes a JSON object with a tag", line,
                                9) from None
        self.emit(ev, line, 1)

    # -- moves

    def settle_riichi(self, line: int, col: int, *, ron: bool = False,
                      explicit: bool = False) -> None:
        """Place the riichi stick of a riichi discard unless a ron or an explicit word says."""
        p = self.pending
        if p < 0:
            return
        self.pending = -1
        if ron or explicit:
            return
        scores = list(self.t.scores)
        scores[p] -= 1000
        self.emit(RiichiAccepted(player=p, scores=tuple(scores)), line, col)

    def token(self, tok: str, line: int, col: int) -> None:
        t = self.t
        m = _MOVE_RE.match(tok)  # nine tokens in ten are a draw and a discard
        if m is not None:
            if self.pending >= 0:
                self.settle_riichi(line, col)
            self.move(m, line, col)
            return
        m = _SEAT_OP_RE.match(tok)
        if m is not None:
            p = self.seat(m.group("seat"))
            op = m.group("op")
            if op in ("paid", "unpaid"):
                self.settle_riichi(line, col, explicit=self.pending == p)
                if op == "paid":
                    arg = m.group("arg")
                    if arg is None:
                        scores = list(t.scores)
                        scores[p] -= 1000
                        sc: tuple[int, ...] | None = tuple(scores)
                    else:
                        sc = None if arg == "-" else _int_list(arg, line, col, "scores")
                    self.emit(RiichiAccepted(player=p, scores=sc), line, col)
                return
            self.settle_riichi(line, col)
            if op == "bye":
                self.emit(Disconnect(player=p), line, col)
            elif op == "ting":
                self.emit(ReadyDeclared(player=p), line, col)
            else:
                self.emit(Reconnect(player=p, name=_unpct(m.group("arg") or "")), line, col)
            return
        self.settle_riichi(line, col)
        if tok.startswith("dora:"):
            tiles = self.fresh(tok[5:], line, col + 5)
            if len(tiles) != 1:
                raise NotationError("bad-token", "dora: names one tile", line, col)
            self.emit(DoraReveal(indicator=tiles[0]), line, col)
            return
        m = _CALL_RE.match(tok)
        if m is not None:
            self.call(m, line, col)
            return
        m = _OWN_RE.match(tok)
        if m is None:
            raise NotationError("bad-token", f"{tok!r} is not a move", line, col)
        self.own_call(m, line, col)

    def move(self, m: re.Match[str], line: int, col: int) -> None:
        t = self.t
        seat = m.group("seat")
        direction = m.group("dir")
        draw_expected = t.to_draw >= 0
        is_draw = direction == ">" or (direction is None and draw_expected)
        if not is_draw:
            if m.group("b") or m.group("rinshan"):
                raise NotationError("bad-token", "a discard names one tile", line, col)
            p = self.seat(seat) if seat else t.to_discard
            if p < 0:
                raise NotationError("bad-token", "nobody is to discard here", line, col)
            self.discard(p, m.group("a"), bool(m.group("giri")), bool(m.group("riichi")),
                         line, col + (2 if seat else 0))
            return
        p = self.seat(seat) if seat else t.to_draw
        rinshan = t.after_kan != bool(m.group("rinshan"))
        a_col = col + (2 if seat else 0) + (1 if m.group("rinshan") else 0)
        tiles = self.fresh(m.group("a"), line, a_col)
        key = (p, tiles[0], rinshan)
        draw = _DRAWS.get(key)
        if draw is None:
            draw = _DRAWS[key] = Draw(player=p, tile=tiles[0], rinshan=rinshan)
        self.emit(draw, line, col)
        b = m.group("b")
        if b:
            self.discard(p, b, bool(m.group("giri")), bool(m.group("riichi")), line,
                         a_col + len(m.group("a")))
        elif m.group("giri"):
            self.emit_discard(p, tiles[0], True, bool(m.group("riichi")), line, col)
        elif m.group("riichi"):
            raise NotationError("bad-token", "riichi (*) needs a discard", line, col)

    def discard(self, p: int, text: str, giri: bool, riichi: bool, line: int,
                col: int) -> None:
        tiles = self.held(p, text, line, col)
        self.emit_discard(p, tiles[0], giri, riichi, line, col)

    def emit_discard(self, p: int, tile: Tile, giri: bool, riichi: bool, line: int,
                     col: int) -> None:
        key = (p, tile, giri, riichi)
        ev = _DISCARDS.get(key)
        if ev is None:
            ev = _DISCARDS[key] = Discard(player=p, tile=tile, tsumogiri=giri, riichi=riichi)
        self.emit(ev, line, col)
        if riichi and self.t.ruleset.family != "taiwan16":  # 地聽 pays no stick
            self.pending = p

    def call(self, m: re.Match[str], line: int, col: int) -> None:
        t = self.t
        p = self.seat(m.group("seat"))
        op = m.group("op")
        own = self.held(p, m.group("tiles"), line, col + 2 + len(op))
        raw = m.group("raw")
        if raw is not None:
            tiles, called, frm = self.raw_call(raw, line, col)
        else:
            called, frm = Tile(t.last_discard), t.last_discarder
            if called < 0:
                raise NotationError("bad-token", "there is no discard to call", line, col)
            tiles = tuple(sorted([*own, called]))
        want = 2 if op in ("chi", "pon") else 3
        if raw is None and len(own) != want:
            raise NotationError("bad-token", f"{op} takes {want} tiles from hand", line, col)
        ev: Chi | Pon | OpenKan
        if op == "chi":
            ev = Chi(player=p, from_player=frm, called=called, tiles=tiles)
        elif op == "pon":
            ev = Pon(player=p, from_player=frm, called=called, tiles=tiles)
        else:
            ev = OpenKan(player=p, from_player=frm, called=called, tiles=tiles)
        self.emit(ev, line, col)

    def raw_call(self, raw: str, line: int, col: int) -> tuple[tuple[Tile, ...], Tile, int]:
        parts = raw.split("/")
        if len(parts) != 3:
            raise NotationError("bad-token", "a call's ! part is tiles/called/from", line, col)
        tiles = tuple(Tile(x) for x in _int_list(parts[0], line, col, "tiles"))
        return tiles, Tile(int(parts[1])), int(parts[2])

    def own_call(self, m: re.Match[str], line: int, col: int) -> None:
        t = self.t
        p = self.seat(m.group("seat")) if m.group("seat") else t.to_discard
        op = m.group("op")
        tcol = col + (2 if m.group("seat") else 0) + len(op)
        raw = m.group("raw")
        if op == "ankan":
            kinds = _kinds(m.group("tiles"), line, tcol)
            if len(kinds) != 1:
                raise NotationError("bad-token", "ankan names the kind once, e.g. ankan1z",
                                    line, col)
            kind = kinds[0][0]
            tiles = tuple(Tile(x) for x in (_int_list(raw, line, col, "tiles") if raw
                                             else range(kind * 4, kind * 4 + 4)))
            self.emit(ClosedKan(player=p, tiles=tiles), line, col)
        elif op == "kakan":
            if not m.group("tiles"):
                raise NotationError("bad-token", "kakan names its tile, e.g. kakan5z", line, col)
            added = self.held(p, m.group("tiles"), line, tcol)[0]
            if raw is not None:
                tiles, called, frm = self.raw_call(raw, line, col)
            else:
                pon = next((x for x in t.melds[p] if isinstance(x, Pon)
                            and KIND_OF[x.called] == KIND_OF[added]), None)
                if pon is None:
                    raise NotationError("bad-token", "kakan needs a pon of that tile", line,
                                        col)
                tiles, called, frm = (*pon.tiles, added), pon.called, pon.from_player
            self.emit(AddedKan(player=p, from_player=frm, called=called, added=added,
                               tiles=tiles), line, col)
        elif op == "kita":
            text = m.group("tiles") or "4z"
            tile = self.held(p, text, line, tcol)[0]
            self.emit(Kita(player=p, tile=tile), line, col)
        else:
            self.flower_move(p, op, m, line, col, tcol)

    def flower_move(self, p: int, op: str, m: re.Match[str], line: int, col: int,
                    tcol: int) -> None:
        """``flower3f``: a flower set aside; ``rob3f``: the flower another set aside taken
        (from its holder, or from the seat number after ``!``)."""
        kinds = _kinds(m.group("tiles"), line, tcol)
        if len(kinds) != 1 or kinds[0][0] < NUM_KINDS:
            raise NotationError("bad-token", f"{op} names one flower, e.g. {op}1f", line, col)
        tile = Tile(FIRST_FLOWER + kinds[0][0] - NUM_KINDS)
        if op == "flower":
            self.emit(Flower(player=p, tile=self.held(p, m.group("tiles"), line, tcol)[0]),
                      line, col)
            return
        raw = m.group("raw")
        frm = int(raw) if raw and raw.isdigit() else self.t.flower_owner(tile)
        if frm < 0:
            raise NotationError("bad-token", f"nobody has set {m.group('tiles')} aside to rob",
                                line, col)
        self.emit(Flower(player=p, tile=tile, from_player=frm), line, col)

    # -- results

    def result(self, raw: str, line: int) -> None:
        words = [(mm.group(), mm.start() + 1) for mm in re.finditer(r"\S+", raw)]
        kind = words[0][0]
        if kind == "after":
            self.settle_riichi(line, 1)
            arg = words[1][0] if len(words) > 1 else "-"
            sc = None if arg == "-" else _int_list(arg, line, words[1][1], "scores")
            self.emit(RoundEnd(scores=sc), line, 1)
            self.round_closed = True
            return
        if kind == "noend":
            self.settle_riichi(line, 1)
            self.round_closed = True
            return
        self.settle_riichi(line, 1, ron=kind == "ron")
        if kind in ("ron", "tsumo"):
            self.win(kind == "tsumo", words, line)
        else:
            self.draw_result(kind, words, line)
        self.results = True

    def win(self, tsumo: bool, words: list[tuple[str, int]], line: int) -> None:
        t = self.t
        if len(words) < 2 or words[1][0] not in WINDS:
            raise NotationError("bad-result", "ron/tsumo is followed by the winner's wind",
                                line, 1)
        w = self.seat(words[1][0])
        self.win_seat = w
        chankan = not tsumo and t.kan_tile >= 0
        vals: dict[str, object] = {
            "from": w if tsumo else (t.kan_player if chankan else t.last_discarder),
            "tile": t.last_draw if tsumo else (t.kan_tile if chankan else t.last_discard),
        }
        fu = points = -1
        yaku: list[YakuClaim] = []
        extra: list[tuple[str, str]] = []
        for word, c in words[2:]:
            key, eq, value = word.partition("=")
            if eq and key.startswith("@"):
                extra.append((key[1:], _unpct(value)))
                continue
            if not eq:
                if word.endswith("fu") and word[:-2].isdigit():
                    fu = int(word[:-2])
                elif word.lstrip("-").isdigit():
                    points = int(word)
                else:
                    yaku.append(self.claim(word, line, c, _is_open(t, w)))
                continue
            vals[key] = self.field(key, value, line, c + len(key) + 1)
        taiwan = t.ruleset.family == "taiwan16"
        if taiwan:
            fu = max(fu, 0)
        elif fu < 0 or points < 0:
            raise NotationError("bad-result", "a win states its fu (e.g. 40fu) and points",
                                line, 1)
        win_tile = int(vals["tile"])  # type: ignore[call-overload]
        hand_set = set(t.hands[w]) if 0 <= w < t.n else set()
        if not tsumo:
            hand_set.add(win_tile)
        han = int(vals.get("han", sum(y.han for y in yaku)))  # type: ignore[call-overload]
        limit = vals.get("limit", "" if taiwan else hand_value(han, fu, t.ruleset)[1])
        ev = Win(
            winner=w, from_player=int(vals["from"]),  # type: ignore[call-overload]
            hand=vals.get("hand", tuple(Tile(x) for x in sorted(hand_set))),  # type: ignore[arg-type]
            win_tile=Tile(win_tile),
            melds=vals.get("melds", _win_melds(t, w)),  # type: ignore[arg-type]
            yaku=tuple(yaku), fu=fu, han=han, points=points,
            limit="" if limit == "-" else str(limit),
            deltas=(),
            scores_before=vals.get("before", tuple(t.scores)),  # type: ignore[arg-type]
            honba=int(vals.get("honba", t.honba)),  # type: ignore[call-overload]
            kyotaku=int(vals.get("sticks", t.kyotaku)),  # type: ignore[call-overload]
            dora_indicators=vals.get("dora", tuple(Tile(x) for x in t.dora)),  # type: ignore[arg-type]
            ura_indicators=vals.get("ura", ()),  # type: ignore[arg-type]
            pao=vals.get("pao"),  # type: ignore[arg-type]
            extra=tuple(extra),
        )
        deltas = vals.get("deltas")
        ev = replace(ev, deltas=derived_deltas(t, ev, not self.results)
                     if deltas is None else cast(tuple[int, ...], deltas))
        if points < 0:  # a Taiwanese win may leave its points to its 台
            ev = replace(ev, points=ev.deltas[w] if 0 <= w < len(ev.deltas) else 0)
        self.emit(ev, line, 1)

    def claim(self, word: str, line: int, col: int, open_hand: bool) -> YakuClaim:
        name, colon, han = word.partition(":")
        rs = self.t.ruleset
        name = tw.NAME_OF.get(name, name) if rs.family == "taiwan16" else _JAPANESE.get(name, name)
        if colon:
            if not han.lstrip("-").isdigit():
                raise NotationError("bad-result", f"{word!r}: han after ':' is a number", line,
                                    col)
            return YakuClaim(name=name, han=int(han))
        return YakuClaim(name=name, han=_default_han(name, open_hand, rs))

    def field(self, key: str, value: str, line: int, col: int) -> object:
        if key in ("from", "honba", "sticks", "han", "tile", "seats"):
            if not value.lstrip("-").isdigit():
                raise NotationError("bad-result", f"{key} is a number", line, col)
            return int(value)
        if key == "deltas":
            return () if value == "-" else _int_list(value, line, col, key)
        if key == "before":
            return None if value == "-" else _int_list(value, line, col, key)
        if key in ("hand", "dora") or key.startswith("hand"):
            if value == "-":
                return ()
            if key != "dora" and re.search(r"[mpszESWNHGR?]", value):
                # tiles by name: the table picks the copies
                seat = self.win_seat if key == "hand" else self.t.seat(key[4:] or "E")
                named: list[Tile] = []
                for kind, red in _kinds(value, line, col):
                    named.append(self.tile(kind, red, self.t.held(seat, kind, red, named),
                                           line, col))
                return tuple(sorted(named))
            return tuple(Tile(x) for x in _int_list(value, line, col, key))
        if key == "melds":
            return tuple(tuple(Tile(x) for x in _int_list(g, line, col, key))
                         for g in value.split("/")) if value else ()
        if key == "ura":
            out: list[Tile] = []
            for kind, red in _kinds(value, line, col):
                out.append(self.tile(kind, red, self.t.ura(kind, red, out), line, col))
            return tuple(out)
        if key == "pao":
            if value not in WINDS:
                raise NotationError("bad-result", "pao is a wind letter", line, col)
            return self.seat(value)
        if key == "limit":
            return value
        if key == "shown":
            if any(ch not in WINDS for ch in value):
                raise NotationError("bad-result", "shown lists wind letters", line, col)
            return [self.seat(ch) for ch in value]
        if key.startswith("@"):
            return (key[1:], _unpct(value))
        raise NotationError("bad-result", f"unknown field {key!r}", line, col)

    def draw_result(self, kind: str, words: list[tuple[str, int]], line: int) -> None:
        t = self.t
        rest = words[1:]
        abort_kind = ""
        if kind == "abort":
            if not rest or rest[0][0] not in _ABORTS:
                raise NotationError("bad-result", "abort names its kind: " + ", ".join(_ABORTS),
                                    line, 7)
            abort_kind = rest[0][0]
            rest = rest[1:]
        vals: dict[str, object] = {}
        extra: list[tuple[str, str]] = []
        nagashi = False
        for word, c in rest:
            key, eq, value = word.partition("=")
            if word == "nagashi" and kind == "draw":
                nagashi = True
            elif not eq:
                raise NotationError("bad-result", f"{word!r} is not key=value", line, c)
            elif key.startswith("@"):
                extra.append((key[1:], _unpct(value)))
            else:
                vals[key] = self.field(key, value, line, c + len(key) + 1)
        seats = int(vals.get("seats", t.n))  # type: ignore[call-overload]
        shown = vals.get("shown", [])
        hands: list[tuple[Tile, ...] | None] = [None] * seats
        for p in shown:  # type: ignore[attr-defined]
            if p < seats:
                hands[p] = tuple(Tile(x) for x in sorted(t.hands[p]))
        for p in range(seats):
            key = f"hand{t.wind(p)}"
            if key in vals:
                hands[p] = vals[key]  # type: ignore[call-overload]
        common: dict[str, Any] = {
            "hands": tuple(hands), "deltas": (),
            "scores_before": vals.get("before", tuple(t.scores)),
            "honba": vals.get("honba", t.honba), "kyotaku": vals.get("sticks", t.kyotaku),
            "extra": tuple(extra),
        }
        ev: Event
        if kind == "draw":
            ev = ExhaustiveDraw(nagashi=nagashi, **common)
        else:
            ev = AbortiveDraw(kind=abort_kind, **common)
        deltas = vals.get("deltas")
        ev = replace(ev, deltas=derived_deltas(t, ev, not self.results)
                     if deltas is None else cast(tuple[int, ...], deltas))
        self.emit(ev, line, 1)

    def game_end(self, raw: str, line: int) -> None:
        scores: tuple[int, ...] | None = None
        points: tuple[float, ...] | None = None
        for mm in re.finditer(r"\S+", raw):
            word = mm.group()
            if word == "end":
                continue
            key, _, value = word.partition("=")
            try:
                if key == "scores":
                    scores = tuple(int(x) for x in value.split(","))
                elif key == "points":
                    points = tuple(float(x) for x in value.split(","))
                else:
                    raise ValueError
            except ValueError:
                self.problem(NotationError("bad-result", f"{word!r}: end takes scores= and "
                                           "points=", line, mm.start() + 1))
        self.emit(GameEnd(scores=scores, points=points), line, 1)


def read(data: bytes, path: str = "", *, strict: bool = False) -> list[GameRecord]:
    """Read notation: one game, or several, each starting with its own first line.

    Problems become diagnostics with line and column, and reading goes on at
    the next token or line; with ``strict`` the first raises
    :class:`InputError`.
    """
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        d = Diagnostic(code="bad-encoding", message=f"not UTF-8: {exc.reason}",
                       src=Src(index=exc.start))
        if strict:
            raise InputError(d) from None
        return [GameRecord(path=path, format=FORMAT, diagnostics=[d], position_kind="text")]
    lines = text.replace("\r\n", "\n").split("\n")
    starts = [i for i, line in enumerate(lines) if line.strip() == MAGIC] or [0]
    starts[0] = 0
    records = []
    for k, start in enumerate(starts):
        stop = starts[k + 1] if k + 1 < len(starts) else len(lines)
        own = [""] * start + lines[start:stop]  # keeps line numbers those of the file
        records.append(_Reader(own, path, strict).run())
    return records


def looks_like(head: bytes) -> bool:
    """Whether bytes start like a notation file."""
    return head.lstrip(b"\xef\xbb\xbf \t\r\n").startswith(MAGIC.encode())

"""The notation writer: the reader run backwards.

It keeps the same :class:`~mjlog.formats.notation.table.NotationTable` as the
reader and writes a field only when the reader would not fill in the very same
value, so that ``read(write(events)) == events`` for any events the reader
could produce, including records that contradict themselves (the written
field carries the contradiction). It does no I/O.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from typing import Any, Final

from mjlog.core.events import (
    AbortiveDraw,
    AddedKan,
    Chi,
    Chombo,
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
from mjlog.core.ruleset import Ruleset, overrides
from mjlog.core.tiles import FIRST_FLOWER, KIND_OF, RED_FIVE_IDS, UNKNOWN, join_mpsz, tile_str
from mjlog.formats.notation.ids import pack_ids
from mjlog.formats.notation.lexer import MAGIC, deltas_str, ints_str, pct, quote
from mjlog.formats.notation.results import YAKUMAN, WrittenScores, round_ahead, writable_yaku
from mjlog.formats.notation.table import NotationTable

MACHINE_META: Final = frozenset({"shuffle.seed", "shuffle.ref", "shuffle"})
"""Metadata that :func:`write` leaves out when not ``exact``."""


def _by_kind(tiles: Sequence[int], red: bool) -> list[int]:
    """Tiles by kind, a red five first among its kind: the order of the ids themselves
    when every id is a tile's (0 to the unknown tile), as copy 0 is the red five."""
    if not tiles or (min(tiles) >= 0 and max(tiles) <= UNKNOWN):
        return sorted(tiles)
    return sorted(tiles, key=lambda x: (KIND_OF[x], not (red and x in RED_FIVE_IDS), x))


class _Writer:
    """Writes one game; see the module docstring for what is left out and why."""

    def __init__(self, events: Sequence[Event], exact: bool = True) -> None:
        self.events = events
        self.exact = exact
        self.out: list[str] = [MAGIC]
        self.t = NotationTable(4, 0, Ruleset())
        self.started = False
        self.digits: list[int] = []
        self.canonical = True
        self.line: list[str] = []
        self.lines: list[str] = []
        self.ids_at = -1
        self.results = False
        self.round_ended = False
        self.first_done = False
        self.results_only = False
        self.written = WrittenScores()
        self.single: Event | None = None
        """A results-only round's one result, whose deltas its ``after`` line implies."""
        self.single_deltas: tuple[int, ...] = ()
        self.dealt_any = False

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
        items = _by_kind(tiles, self.t.red) if sort else list(tiles)
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
            t.used[x] = 1
            return c
        return self.tiles(tiles, canon, sort)

    def fresh_tile(self, x: int) -> str:
        """One tile entering play (a draw): :meth:`fresh_tiles` of it alone, without the
        sorting and joining that several tiles need."""
        t = self.t
        canonical = t.fresh(KIND_OF[x], t.red and x in RED_FIVE_IDS)
        t.used[x] = 1
        return self.tile(x, canonical)

    def held_tile(self, seat: int, x: int) -> str:
        """One tile given from ``seat``'s hand (a discard): :meth:`held_tiles` of it alone."""
        t = self.t
        return self.tile(x, t.held(seat, KIND_OF[x], t.red and x in RED_FIVE_IDS))

    def held_tiles(self, seat: int, tiles: Sequence[int]) -> str:
        t = self.t
        return self.tiles(tiles, lambda x, taken: t.held(
            seat, KIND_OF[x], t.red and x in RED_FIVE_IDS, taken), sort=False)

    # -- events

    def event(self, i: int) -> int:
        """Write event ``i`` (with the events it is written together with); return the
        index of the next event to write."""
        ev = self.events[i]
        if isinstance(ev, GameStart | Comment | Unknown):
            self.outside(ev)
            return i + 1
        if not self.started:
            raise ValueError("events before the game start")
        if self.results_only and ev.__class__ in _MOVES_OF_TILES:
            raise ValueError(f"event {i} ({ev.TYPE}) is a move in a results-only round, which "
                             "notation writes with its results alone")
        if isinstance(ev, Draw):
            return i + self.draw(i, ev)
        if isinstance(ev, Discard):
            return i + self.discard(i, ev, self.standalone_prefix(ev))
        write = _WRITE.get(ev.__class__)
        if write is not None:
            write(self, ev)
        self.t.apply(ev)
        if isinstance(ev, RoundStart):
            self.written.round_start(ev)
            self.single, self.single_deltas = round_ahead(self.events, i, self.written,
                                                          self.t.n) \
                if ev.results_only else (None, ())
            self.dealt_any = True
        elif isinstance(ev, RoundEnd):
            self.written.round_end(ev)
        return i + 1

    def outside(self, ev: GameStart | Comment | Unknown) -> None:
        """What stands on a line of its own, outside the moves."""
        if isinstance(ev, GameStart):
            self.game_start(ev)
        elif isinstance(ev, Comment):
            self.put("# " + ev.text.replace("\n", " "))
        else:
            self.put("unknown " + json.dumps(
                {"tag": ev.tag, "attrs": [list(p) for p in ev.attrs], "text": ev.text},
                ensure_ascii=False))

    def game_start(self, ev: GameStart) -> None:
        out = self.out
        out.append(f"[Source {quote(ev.source)}]")
        out.append("[Players " + " ".join(quote(p.name) for p in ev.players) + "]")
        if any(p.rank for p in ev.players):
            out.append("[Ranks " + " ".join(quote(p.rank) for p in ev.players) + "]")
        if any(p.rating is not None for p in ev.players):
            out.append("[Ratings " + " ".join(
                quote("-" if p.rating is None else repr(p.rating)) for p in ev.players) + "]")
        if any(p.sex for p in ev.players):
            out.append("[Sexes " + " ".join(quote(p.sex) for p in ev.players) + "]")
        if ev.first_dealer:
            out.append(f"[FirstDealer {quote(str(ev.first_dealer))}]")
        out.append(f"[Ruleset {quote(ev.ruleset.name)}]")
        rules = " ".join(overrides(ev.ruleset))
        if rules:
            out.append(f"[Rules {quote(rules)}]")
        for k, v in ev.meta:
            if self.exact or k not in MACHINE_META:
                out.append(f"[Meta {quote(k)} {quote(v)}]")
        self.t = NotationTable(len(ev.players), ev.first_dealer, ev.ruleset)
        self.started = True

    def game_end(self, ev: GameEnd) -> None:
        self.flush_round()
        parts = ["end"]
        if ev.scores is not None:
            parts.append("scores=" + ints_str(ev.scores))
        if ev.points is not None:
            parts.append("points=" + ",".join(repr(p) for p in ev.points))
        self.out.append(" ".join(parts))

    def round_start(self, ev: RoundStart) -> None:
        self.flush_round()
        self.results_only = ev.results_only
        if ev.results_only:
            self.sheet_round(ev)
            return
        t = self.t
        head = [round_label(ev.round_wind, ev.round_number, ev.honba)]
        if ev.kyotaku != t.kyotaku:
            head.append(f"sticks={ev.kyotaku}")
        if ev.dealer != t.dealer_of(ev.round_number):
            head.append(f"dealer={ev.dealer}")
        if list(ev.scores) != t.scores:
            head.append("scores=" + ints_str(ev.scores))
        if ev.dice:
            head.append("dice=" + ",".join(map(str, ev.dice)))
        t.new_header(ev.dealer)
        if ev.dora_indicator != UNKNOWN or t.family.has_dora:
            head.append("dora=" + self.fresh_tiles([ev.dora_indicator]))
        head.extend(f"@{k}={pct(v)}" for k, v in ev.extra
                    if self.exact or k not in MACHINE_META)
        self.lines.append(" ".join(head))
        self.lines.append("hands " + " ".join(self.hand(ev, k) for k in range(len(ev.hands))))
        if ev.wall is not None:
            self.lines.append("wall " + self.fresh_tiles(ev.wall, sort=False))
        self.ids_at = len(self.lines)

    def sheet_round(self, ev: RoundStart) -> None:
        """A results-only round's header (no hands line follows: that makes it one). Raises
        ``ValueError`` for one that deals tiles."""
        if any(ev.hands) or ev.wall is not None:
            raise ValueError("a results-only round deals no tiles, and this one does")
        t = self.t
        head = [round_label(ev.round_wind, ev.round_number, ev.honba)]
        if ev.kyotaku != t.kyotaku:
            head.append(f"sticks={ev.kyotaku}")
        if ev.dealer != t.dealer_of(ev.round_number):
            head.append(f"dealer={ev.dealer}")
        if ev.scores != (() if self.dealt_any else tuple(t.scores)):
            head.append("scores=" + ints_str(ev.scores))
        if ev.dice:
            head.append("dice=" + ",".join(map(str, ev.dice)))
        t.new_header(ev.dealer)
        if ev.dora_indicator != UNKNOWN:
            head.append("dora=" + self.fresh_tiles([ev.dora_indicator]))
        head.extend(f"@{k}={pct(v)}" for k, v in ev.extra
                    if self.exact or k not in MACHINE_META)
        self.lines.append(" ".join(head))

    def hand(self, ev: RoundStart, k: int) -> str:
        """The dealt hand of the ``k``-th seat from the dealer (``?`` when nobody wrote it)."""
        hand = ev.hands[(ev.dealer + k) % len(ev.hands)]
        if hand == (UNKNOWN,) * self.t.ruleset.dealt(k == 0):
            return "?"
        return self.fresh_tiles(hand)

    def draw(self, i: int, ev: Draw) -> int:
        t = self.t
        token = "" if ev.player == t.to_draw else f"{t.wind(ev.player)}>"
        if ev.rinshan != t.rinshan_next:
            token += "~"
        token += self.fresh_tile(ev.tile)
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
            token += self.held_tile(ev.player, ev.tile) + ("'" if ev.tsumogiri else "")
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
        return "=" + ("-" if ev.scores is None else ints_str(ev.scores))

    def seat_op(self, ev: RiichiAccepted | ReadyDeclared | Disconnect | Reconnect) -> None:
        """``S:paid``, ``S:ting``, ``S:bye``, ``S:back``."""
        wind = self.t.wind(ev.player)
        if self.line[:1] == ["riichi"]:
            if isinstance(ev, RiichiAccepted) and ev.scores is None:
                self.line.append(wind)
                return
            self.newline()
        if isinstance(ev, RiichiAccepted) and self.results_only and ev.scores is None:
            self.newline()
            self.line.extend(("riichi", wind))
        elif isinstance(ev, RiichiAccepted):
            self.emit(f"{wind}:paid" + self.paid_scores(ev))
        elif isinstance(ev, ReadyDeclared):
            self.emit(f"{wind}:ting")
        elif isinstance(ev, Disconnect):
            self.emit(f"{wind}:bye")
        else:
            self.emit(f"{wind}:back" + (f"={pct(ev.name)}" if ev.name else ""))

    def dora(self, ev: DoraReveal) -> None:
        self.emit("dora:" + self.fresh_tiles([ev.indicator]))

    def call(self, ev: Chi | Pon | OpenKan) -> None:
        t = self.t
        op = {Chi: "chi", Pon: "pon", OpenKan: "kan"}[type(ev)]
        own = [x for x in ev.tiles if x != ev.called]
        token = f"{t.wind(ev.player)}:{op}{self.held_tiles(ev.player, own)}"
        if (ev.called != t.last_discard or ev.from_player != t.last_discarder
                or len(own) != len(ev.tiles) - 1 or ev.tiles != tuple(sorted(ev.tiles))):
            token += f"!{ints_str(ev.tiles)}/{ev.called}/{ev.from_player}"
        self.emit(token)

    def own_call(self, ev: ClosedKan | AddedKan | Kita) -> None:
        t = self.t
        p = ev.player
        token = "" if p == t.to_discard else f"{t.wind(p)}:"
        if isinstance(ev, ClosedKan):
            kind = KIND_OF[ev.tiles[0]]
            token += "ankan" + tile_str(kind * 4 + 1, False)
            if ev.tiles != tuple(range(kind * 4, kind * 4 + 4)):
                token += "!" + ints_str(ev.tiles)
        elif isinstance(ev, AddedKan):
            token += "kakan" + self.held_tiles(p, [ev.added]) + self.added_raw(ev)
        else:
            token += "kita" + self.held_tiles(p, [ev.tile])
        self.emit(token)

    def added_raw(self, ev: AddedKan) -> str:
        """The ``!`` part of an added kan that does not join the pon the reader finds."""
        p = ev.player
        pon = next((m for m in self.t.shown[p] if isinstance(m, Pon)
                    and KIND_OF[m.called] == KIND_OF[ev.added]), None) \
            if 0 <= p < self.t.n else None
        if (pon is None or ev.tiles != (*pon.tiles, ev.added) or ev.called != pon.called
                or ev.from_player != pon.from_player):
            return f"!{ints_str(ev.tiles)}/{ev.called}/{ev.from_player}"
        return ""

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

    def chombo(self, ev: Chombo) -> None:
        """``chombo S``: the hand ends with S's chombo."""
        self.results = self.first_done = True
        self.put(f"chombo {self.t.wind(ev.player)}")

    def sheet_win(self, ev: Win) -> None:
        """A win of a results-only round: ``ron S from N 3han 30fu …`` (reader's
        :meth:`~mjlog.formats.notation.reader._Reader.sheet_win` backwards)."""
        t = self.t
        self.results = True
        tsumo = ev.from_player == ev.winner
        parts = ["tsumo" if tsumo else "ron", t.wind(ev.winner)]
        if not tsumo:
            parts.extend(("from", t.wind(ev.from_player)))
        if ev.win_tile != UNKNOWN:
            parts.append(f"tile={ev.win_tile}")
        if ev.hand:
            parts.append("hand=" + ints_str(ev.hand))
        if ev.melds:
            parts.append("melds=" + "/".join(ints_str(m) for m in ev.melds))
        parts.extend(self.sheet_value(ev))
        parts.extend(self.ura_and_pao(ev))
        if ev.dora_indicators:
            parts.append("dora=" + ints_str(ev.dora_indicators))
        self.sheet_common(parts, ev)
        self.put(" ".join(parts))

    def ura_and_pao(self, ev: Win) -> list[str]:
        """A win's ``ura=`` and ``pao=`` items, where it has them (tile and sheet wins
        alike)."""
        t = self.t
        parts = []
        if ev.ura_indicators:
            parts.append("ura=" + self.tiles(ev.ura_indicators, lambda x, taken: t.ura(
                KIND_OF[x], t.red and x in RED_FIVE_IDS, taken), sort=False))
        if ev.pao is not None:
            parts.append(f"pao={t.wind(ev.pao)}")
        return parts

    def sheet_value(self, ev: Win) -> list[str]:
        """A results-only win's value as written: han, fu, limit and points (at least
        one of them), then its yaku, uncounted unless they carry han."""
        parts = []
        if ev.han or ev.han != sum(y.han for y in ev.yaku):
            parts.append(f"{ev.han}han")
        if ev.fu:
            parts.append(f"{ev.fu}fu")
        if ev.limit == YAKUMAN:
            parts.append(YAKUMAN)
        elif ev.limit:
            parts.append(f"limit={ev.limit}")
        if ev.points or not parts:
            parts.append(str(ev.points))
        for y in ev.yaku:
            if not writable_yaku(y.name) or self.t.family.yaku_name(y.name) != y.name:
                raise ValueError(f"the yaku {y.name!r} cannot be written on a win line")
            parts.append(f"{y.name}:{y.han}" if y.han else y.name)
        return parts

    def sheet_common(self, parts: list[str], ev: Win | ExhaustiveDraw | AbortiveDraw) -> None:
        """A results-only result's deltas, scores before, honba and sticks where they
        are not what the reader fills in."""
        t = self.t
        first = not self.first_done
        self.first_done = True
        if ev.deltas != (self.single_deltas if ev is self.single else ()):
            parts.append("deltas=" + (deltas_str(ev.deltas) or "-"))
        if ev.scores_before is not None:
            parts.append("before=" + ints_str(ev.scores_before))
        if ev.honba != (t.honba if first else 0):
            parts.append(f"honba={ev.honba}")
        if ev.kyotaku != (t.kyotaku if first else 0):
            parts.append(f"sticks={ev.kyotaku}")
        parts.extend(f"@{k}={pct(v)}" for k, v in ev.extra)

    def win(self, ev: Win) -> None:
        if self.results_only:
            self.sheet_win(ev)
            return
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
        hand_set = set(t.players[ev.winner].concealed) if 0 <= ev.winner < t.n else set()
        if not tsumo:
            hand_set.add(win_tile)
        if list(ev.hand) != sorted(hand_set):
            parts.append("hand=" + ints_str(ev.hand))
        if list(ev.melds) != list(t.win_melds(ev.winner)):
            parts.append("melds=" + "/".join(ints_str(m) for m in ev.melds))
        parts.extend(self.value(ev))
        parts.extend(self.ura_and_pao(ev))
        if list(ev.dora_indicators) != t.dora_indicators:
            parts.append("dora=" + (ints_str(ev.dora_indicators) or "-"))
        self.common(parts, ev)
        self.put(" ".join(parts))

    def value(self, ev: Win) -> list[str]:
        """A win's fu, points, han, limit and yaku, where the reader would not fill them."""
        t = self.t
        family = t.family
        parts = []
        if family.needs_value or ev.fu:
            parts.append(f"{ev.fu}fu")
        parts.append(str(ev.points))
        if ev.han != sum(y.han for y in ev.yaku):
            parts.append(f"han={ev.han}")
        if ev.limit != family.limit(ev.han, ev.fu, t.ruleset):
            parts.append(f"limit={ev.limit or '-'}")
        open_hand = t.open_hand(ev.winner)
        parts.extend(self.claim(y, open_hand) for y in ev.yaku)
        return parts

    def claim(self, y: YakuClaim, open_hand: bool) -> str:
        """A yaku as written: its name, with its han where it is not the usual."""
        t = self.t
        usual = t.family.default_han(y.name, open_hand, t.ruleset)
        return y.name if y.han == usual else f"{y.name}:{y.han}"

    def common(self, parts: list[str], ev: Win | ExhaustiveDraw | AbortiveDraw) -> None:
        t = self.t
        if ev.deltas != t.deltas_of(ev, not self.first_done):
            parts.append("deltas=" + (deltas_str(ev.deltas) or "-"))
        self.first_done = True
        if ev.scores_before is None or list(ev.scores_before) != t.scores:
            parts.append("before=" + ("-" if ev.scores_before is None
                                      else ints_str(ev.scores_before)))
        if ev.honba != t.honba:
            parts.append(f"honba={ev.honba}")
        if ev.kyotaku != t.kyotaku:
            parts.append(f"sticks={ev.kyotaku}")
        parts.extend(f"@{k}={pct(v)}" for k, v in ev.extra)

    def draw_result(self, ev: ExhaustiveDraw | AbortiveDraw) -> None:
        t = self.t
        self.results = True
        parts = ["draw"] if isinstance(ev, ExhaustiveDraw) else ["abort", ev.kind]
        if self.results_only and parts[1:] == ["unstated"]:
            parts.pop()
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
            if p >= t.n or list(h) != sorted(t.players[p].concealed):
                parts.append(f"hand{t.wind(p)}=" + ints_str(h))
        (self.sheet_common if self.results_only else self.common)(parts, ev)
        self.put(" ".join(parts))

    def round_end(self, ev: RoundEnd) -> None:
        self.round_ended = self.results
        if self.results_only:  # the round ends without scores unless an after line says
            if ev.scores is not None or not self.results:
                self.put("after " + ("-" if ev.scores is None else ints_str(ev.scores)))
            return
        if not self.results or ev.scores is None or list(ev.scores) != self.t.scores:
            self.put("after " + ("-" if ev.scores is None else ints_str(ev.scores)))


_WRITE: dict[type, Callable[[_Writer, Any], None]] = {
    RoundStart: _Writer.round_start, Chi: _Writer.call, Pon: _Writer.call,
    OpenKan: _Writer.call, ClosedKan: _Writer.own_call, AddedKan: _Writer.own_call,
    Kita: _Writer.own_call, Flower: _Writer.flower, RiichiAccepted: _Writer.seat_op,
    ReadyDeclared: _Writer.seat_op, Disconnect: _Writer.seat_op, Reconnect: _Writer.seat_op,
    DoraReveal: _Writer.dora, Win: _Writer.win, ExhaustiveDraw: _Writer.draw_result,
    AbortiveDraw: _Writer.draw_result, RoundEnd: _Writer.round_end, GameEnd: _Writer.game_end,
    Chombo: _Writer.chombo,
}
"""How each event other than a draw or discard is written (then applied to the table)."""
_MOVES_OF_TILES: Final = frozenset((Draw, Discard, Chi, Pon, OpenKan, AddedKan, ClosedKan, Kita,
                                    Flower, DoraReveal))
"""Events a results-only round cannot hold: it names no tile."""


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

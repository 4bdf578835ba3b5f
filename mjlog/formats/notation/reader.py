"""The notation reader: text to events, filling in what follows from what is written.

It keeps a :class:`~mjlog.formats.notation.table.NotationTable` so that a
person writes only what happened, and everything that follows from it is
filled in: whose turn it is, which tile a call takes, the winning tile and
hand, scores before and after, honba and riichi sticks, and the payments of a
result (from its rule family). Anything written explicitly overrides what
would be filled in. A round with no ``hands`` line is results-only
(:mod:`~mjlog.formats.notation.results`): its results state their value, and
only an ``after`` line's scores fill in what they paid. Problems become
diagnostics with line and column, and reading goes on at the next token or line.
It does no I/O and never judges.
"""

from __future__ import annotations

import difflib
import re
from array import array
from collections.abc import Callable
from dataclasses import replace
from typing import Any, cast

from mjlog.core.diagnostics import Diagnostic, InputError, Severity, Src
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
    discard_of,
    draw_of,
)
from mjlog.core.record import GameRecord
from mjlog.core.ruleset import PRESETS, Ruleset, parse_option
from mjlog.core.tiles import FIRST_FLOWER, KIND_OF, NUM_KINDS, UNKNOWN, UNKNOWN_KIND, Tile, tile_str
from mjlog.formats import jsontext
from mjlog.formats.notation.ids import unpack_ids
from mjlog.formats.notation.lexer import (
    ABORTS,
    BAD_ROUND_RE,
    CALL_RE,
    MAGIC,
    MOVE_RE,
    OWN_RE,
    RESULTS,
    ROUND_RE,
    SEAT_OP_RE,
    TAG_RE,
    WINDS,
    NotationError,
    int_list,
    is_int,
    kinds,
    number,
    tag_values,
    unpct,
    words,
)
from mjlog.formats.notation.results import LIMIT_WORDS, YAKUMAN, WrittenScores, han_word
from mjlog.formats.notation.table import NotationTable

FORMAT = "notation"
Tags = list[tuple[str, list[str], int]]
"""Header tags: (key, values, line)."""

_CALLS: dict[str, Callable[..., Chi | Pon | OpenKan]] = {"chi": Chi, "pon": Pon, "kan": OpenKan}
_SINGLE = re.compile(r"^(?:[ESWN][<>])?(?:[0-9][mpsz]|[ESWNHGR])$")


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
        self.t = NotationTable(4, 0, Ruleset())
        self.ids: list[int] | None = None
        self.id_pos = 0
        self.pending = -1
        self.results = False
        self.round_closed = False
        self.in_round = False
        self.win_seat = 0
        self.dealer_draw = -1
        """The first draw of a dealer whose hand was written with it (-1: none)."""
        self.round_at = 0
        """The index of the current round's start among the events."""
        self.results_only = False
        """Whether the current round is written with its outcome alone (no hands line)."""
        self.written = WrittenScores()
        self.stated = False
        """Whether the result being emitted states its own deltas."""
        self.dealt_any = False

    # -- plumbing

    def emit(self, ev: Event, line: int, col: int) -> None:
        self.events.append(ev)
        self.pos_line.append(line)
        self.pos_col.append(col)
        self.t.apply(ev)
        cls = ev.__class__
        if cls is RoundStart:
            self.written.round_start(cast(RoundStart, ev))
        elif cls is RoundEnd:
            self.written.round_end(cast(RoundEnd, ev))
        elif self.results_only:
            self.written.see(ev, len(self.events) - 1, self.stated)

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
        for kind, red in kinds(text, line, col):
            t = self.tile(kind, red, self.t.fresh(kind, red), line, col)
            self.t.used[t] = 1
            out.append(t)
        return out

    def held(self, seat: int, text: str, line: int, col: int) -> list[Tile]:
        out: list[Tile] = []
        for kind, red in kinds(text, line, col):
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
        i, tags = self.tags(i + 1)
        try:
            self.emit(self.game_start(tags), tags[0][2] if tags else i + 1, 1)
        except NotationError as exc:
            self.problem(exc)
            self.emit(GameStart(source=FORMAT, players=tuple(
                PlayerInfo(name=n) for n in ("", "", "", ""))), i, 1)
        return i

    def tags(self, i: int) -> tuple[int, Tags]:
        """The header tags from line ``i``; the line after them."""
        lines = self.lines
        tags: Tags = []
        while i < len(lines):
            raw = lines[i].strip()
            if not raw or raw.startswith("#"):
                i += 1
                continue
            if not raw.startswith("["):
                break
            m = TAG_RE.match(raw)
            if m is None:
                self.problem(NotationError("bad-header", "a header is [Key \"value\" ...]",
                                           i + 1, 1))
            else:
                try:
                    tags.append((m.group("key"), tag_values(raw, *m.span("values")),
                                 i + 1))
                except ValueError as exc:  # a tag of too many values
                    self.problem(NotationError("bad-header", str(exc), i + 1, 1))
            i += 1
        return i, tags

    def game_start(self, tags: Tags) -> GameStart:
        info: dict[str, Any] = {"source": FORMAT, "names": [], "ranks": [], "ratings": [],
                                "sexes": [], "first": 0, "preset": "tenhou", "rules": "",
                                "meta": []}
        players_line = rules_line = tags[-1][2] if tags else 2
        for key, values, line in tags:
            if key == "Players":
                players_line = line
            elif key == "Rules":
                rules_line = line
            _tag(info, key, values, line)
        names = info["names"]
        if len(names) not in (3, 4):
            raise NotationError("bad-header", "[Players ...] must name 3 or 4 players",
                                players_line, 1)
        ruleset = self.ruleset(info["preset"], info["rules"], rules_line)
        n = len(names)
        ranks, ratings, sexes = info["ranks"], info["ratings"], info["sexes"]
        players = tuple(PlayerInfo(
            name=names[k], rank=ranks[k] if k < len(ranks) else "",
            rating=ratings[k] if k < len(ratings) else None,
            sex=sexes[k] if k < len(sexes) else "") for k in range(n))
        self.t = NotationTable(n, info["first"], ruleset)
        return GameStart(source=info["source"], players=players, first_dealer=info["first"],
                         ruleset=ruleset, meta=tuple(info["meta"]))

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
        try:
            return base.with_options(**changes)
        except TypeError as exc:
            raise NotationError("bad-header", str(exc), line, col) from None

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
        if ROUND_RE.match(first):
            return self.round_block(i)
        if BAD_ROUND_RE.match(first):
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

    def round_block(self, i: int) -> int:
        """A round from its header at line ``i`` to the next header; return where it ends."""
        self.close_round(i + 1, 1)
        j = i + 1
        while j < len(self.lines):
            w = self.lines[j].split()
            if w and (ROUND_RE.match(w[0]) or w[0] == "end"):
                break
            j += 1
        try:
            self.round(i, j)
        except NotationError as exc:
            self.problem(exc)
        return j

    def close_round(self, line: int, col: int) -> None:
        if not self.in_round:
            return
        self.settle_riichi(line, col)
        if self.results and not self.round_closed:
            self.emit(RoundEnd(scores=None if self.results_only else tuple(self.t.scores)),
                      line, col)
        self.in_round = False
        self.results_only = False

    def round(self, start: int, stop: int) -> None:
        lines = self.lines
        self.results_only = start + 1 >= stop or not lines[start + 1].startswith("hands")
        ids_line = -1 if self.results_only else next(
            (k for k in range(start + 1, stop) if lines[k].startswith("ids ")), -1)
        self.read_ids(ids_line)
        opts, cols, extra = self.round_options(start)
        rs, body = (self.results_round(start, opts, cols, extra) if self.results_only
                    else self.deal(start, opts, cols, extra, stop))
        self.round_at = len(self.events)
        self.emit(rs, start + 1, 1)
        self.dealt_any = True
        if self.dealer_draw >= 0:  # a dealer written with 14 tiles: the 14th was drawn
            self.emit(Draw(player=rs.dealer, tile=Tile(self.dealer_draw)), start + 2, 1)
        self.in_round = True
        self.results = self.round_closed = False
        self.pending = -1
        if not self.results_only:
            self.discards_only(body, stop)
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

    def discards_only(self, body: int, stop: int) -> None:
        """Warn about a round whose moves are all single tiles: mjlog reads ``9m 1z`` as a
        draw and a discard, while its writer most likely meant two discards with the
        draws unknown (``?9m ?1z``)."""
        single = first = 0
        for k in range(body, stop):
            words = self.lines[k].split("#", 1)[0].split()
            if not words or words[0] in RESULTS or words[0] in ("ids", "end"):
                continue
            for w in words:
                if not _SINGLE.match(w):
                    return  # a move of another kind: the round is not all single tiles
                single += 1
                first = first or k + 1
        if single >= 4:
            self.diagnostics.append(Diagnostic(
                code="bad-token", severity=Severity.WARNING, src=Src(line=first, column=1),
                message="every move of this round is a single tile, which mjlog reads as "
                "a draw, then a discard: to write discards whose draws nobody noted, "
                "mark each draw unknown (?9m ?1z …), or write 9m' for a tile drawn and "
                "discarded at once"))

    def read_ids(self, ids_line: int) -> None:
        """The round's ``ids`` line (at ``ids_line``, -1 when there is none)."""
        self.ids = None
        self.id_pos = 0
        if ids_line >= 0:
            try:
                self.ids = unpack_ids(self.lines[ids_line][4:].strip())
            except ValueError as exc:
                raise NotationError("bad-ids", str(exc), ids_line + 1, 5) from None

    def round_options(self, start: int) -> tuple[dict[str, str], dict[str, int],
                                                  list[tuple[str, str]]]:
        """A round header's ``key=value`` fields, their columns, and its ``@`` extras."""
        line = self.lines[start]
        opts: dict[str, str] = {}
        extra: list[tuple[str, str]] = []
        cols: dict[str, int] = {}
        for word in line.split()[1:]:
            key, eq, value = word.partition("=")
            if not eq:
                raise NotationError("bad-round", f"{word!r} is not key=value", start + 1,
                                    line.find(word) + 1)
            if key.startswith("@"):
                extra.append((key[1:], unpct(value)))
            else:
                opts[key] = value
                cols[key] = line.find(word) + len(key) + 2
        if "dora" not in opts and (self.results_only or not self.t.family.has_dora):
            opts["dora"], cols["dora"] = "?", 1  # no dora: a sheet's round, or the family's
        if "dora" not in opts:
            raise NotationError("bad-round", "the round header needs dora=<tile>", start + 1, 1)
        return opts, cols, extra

    def deal(self, start: int, opts: dict[str, str], cols: dict[str, int],
             extra: list[tuple[str, str]], stop: int) -> tuple[RoundStart, int]:
        """The round start of the header at ``start``; the first line of its moves."""
        lines = self.lines
        head = self.head(start, opts, cols, extra)
        if start + 1 >= stop or not lines[start + 1].startswith("hands"):
            raise NotationError("bad-round", "the line after the round header must be "
                                "'hands ...'", start + 2, 1)
        hands = self.hands(start + 1, head.dealer)
        wall = None
        body = start + 2
        if body < stop and lines[body].startswith("wall "):
            wall = tuple(self.fresh(lines[body][5:].strip(), body + 1, 6))
            body += 1
        scores = (tuple(int_list(opts["scores"], start + 1, cols["scores"], "scores"))
                  if "scores" in opts else tuple(self.t.scores))
        return replace(head, scores=scores, hands=hands, wall=wall), body

    def results_round(self, start: int, opts: dict[str, str], cols: dict[str, int],
                      extra: list[tuple[str, str]]) -> tuple[RoundStart, int]:
        """The round start of a results-only round's header at ``start`` (no tile dealt;
        the scores are the game's start for its first round, else carried on unless
        stated); the first line of its results."""
        head = self.head(start, opts, cols, extra)
        scores = (tuple(int_list(opts["scores"], start + 1, cols["scores"], "scores"))
                  if "scores" in opts else () if self.dealt_any else tuple(self.t.scores))
        return replace(head, scores=scores, hands=((),) * self.t.n, results_only=True), \
            start + 1

    def head(self, start: int, opts: dict[str, str], cols: dict[str, int],
             extra: list[tuple[str, str]]) -> RoundStart:
        """What a round header at ``start`` says (round, honba, sticks, dealer, dora,
        dice, extras), as a round start with no hands and no scores yet; the table
        takes the header's dealer."""
        t = self.t
        m = ROUND_RE.match(self.lines[start].split()[0])
        assert m is not None
        line_no = start + 1
        round_number = int(m.group("number"))
        dealer = number(opts["dealer"], line_no, cols["dealer"], "dealer") \
            if "dealer" in opts else t.dealer_of(round_number)
        t.new_header(dealer)
        dora = self.fresh(opts["dora"], line_no, cols["dora"])
        if len(dora) != 1:
            raise NotationError("bad-round", "dora= names one tile", line_no, cols["dora"])
        dice = tuple(number(x, line_no, cols["dice"], "a die") for x in opts["dice"].split(",")) \
            if "dice" in opts else ()
        return RoundStart(
            round_wind=WINDS.index(m.group("wind")), round_number=round_number,
            honba=number(m.group("honba"), line_no, 4, "honba"),
            kyotaku=number(opts["sticks"], line_no, cols["sticks"], "sticks")
            if "sticks" in opts else t.kyotaku, dealer=dealer, scores=(),
            dora_indicator=dora[0], hands=(), dice=dice, extra=tuple(extra))

    def hands(self, k: int, dealer: int) -> tuple[tuple[Tile, ...], ...]:
        """The hands line at index ``k``, by seat (written from the dealer)."""
        line = self.lines[k]
        groups = line.split()[1:]
        n = self.t.n
        if len(groups) != n:
            raise NotationError("bad-round", f"hands must list {n} hands", k + 1, 1)
        hands: list[tuple[Tile, ...]] = [()] * n
        self.dealer_draw = -1
        for j, g in enumerate(groups):
            tiles: tuple[Tile, ...]
            if g == "?":  # nobody wrote this hand down
                tiles = (UNKNOWN,) * self.t.ruleset.dealt(j == 0)
            else:
                col = line.find(g) + 1
                tiles = () if g == "-" else tuple(self.fresh(g, k + 1, col))
                tiles = self.dealt_size(tiles, j, k + 1, col) if tiles else tiles
            hands[(dealer + j) % n] = tuple(sorted(tiles))
        return tuple(hands)

    def dealt_size(self, tiles: tuple[Tile, ...], j: int, line: int,
                   col: int) -> tuple[Tile, ...]:
        """A written hand checked against the deal: as many tiles as the family deals
        (13; 16, or 17 for the dealer, in Taiwanese). A riichi dealer written with 14
        holds the first draw too: the last tile written is that draw, and the dealer's
        first move is then a discard alone."""
        want = self.t.ruleset.dealt(j == 0)
        if len(tiles) == want:
            return tiles
        wind = WINDS[j]
        if j == 0 and len(tiles) == want + 1 and want == self.t.ruleset.dealt(False):
            self.dealer_draw = tiles[-1]
            return tiles[:-1]
        raise NotationError("bad-round", f"{wind}'s hand has {len(tiles)} tiles; a hand is "
                            f"dealt {want}" + (f" ({want + 1} for the dealer, who then "
                                               "discards first)" if j == 0 else "")
                            + ": add or remove tiles, or write ? for one nobody noted",
                            line, col)

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
        if first in RESULTS:
            self.guarded(self.result, raw, line, 1, raw, line)
        else:
            for word, col in words(raw):
                self.guarded(self.token, word, line, col, word, line, col)
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
            obj = jsontext.loads(text)
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
        if self.results_only and not SEAT_OP_RE.match(tok):
            raise NotationError("bad-round", f"{tok!r}: this round has no hands line, so it "
                                "is written with its results only (riichi, ron, tsumo, draw, "
                                "abort, chombo, after); deal the hands (hands ...) to write "
                                "its moves", line, col)
        m = MOVE_RE.match(tok)  # nine tokens in ten are a draw and a discard
        if m is not None:
            if self.pending >= 0:
                self.settle_riichi(line, col)
            self.move(m, line, col)
            return
        m = SEAT_OP_RE.match(tok)
        if m is not None:
            self.seat_op(m, line, col)
            return
        self.settle_riichi(line, col)
        if tok.startswith("dora:"):
            tiles = self.fresh(tok[5:], line, col + 5)
            if len(tiles) != 1:
                raise NotationError("bad-token", "dora: names one tile", line, col)
            self.emit(DoraReveal(indicator=tiles[0]), line, col)
            return
        m = CALL_RE.match(tok)
        if m is not None:
            self.call(m, line, col)
            return
        m = OWN_RE.match(tok)
        if m is None:
            raise NotationError("bad-token", f"{tok!r} is not a move", line, col)
        self.own_call(m, line, col)

    def seat_op(self, m: re.Match[str], line: int, col: int) -> None:
        """``S:paid``, ``S:unpaid``, ``S:bye``, ``S:back``, ``S:ting``."""
        p = self.seat(m.group("seat"))
        op = m.group("op")
        if op in ("paid", "unpaid"):
            self.settle_riichi(line, col, explicit=self.pending == p)
            if op == "paid":
                arg = m.group("arg")
                if arg is None:
                    scores = list(self.t.scores)
                    scores[p] -= 1000
                    sc: tuple[int, ...] | None = tuple(scores)
                else:
                    sc = None if arg == "-" else int_list(arg, line, col, "scores")
                self.emit(RiichiAccepted(player=p, scores=sc), line, col)
            return
        self.settle_riichi(line, col)
        if op == "bye":
            self.emit(Disconnect(player=p), line, col)
        elif op == "ting":
            self.emit(ReadyDeclared(player=p), line, col)
        else:
            self.emit(Reconnect(player=p, name=unpct(m.group("arg") or "")), line, col)

    def move(self, m: re.Match[str], line: int, col: int) -> None:
        t = self.t
        seat, direction, mark, a, b, giri, riichi = m.groups()  # MOVE_RE's, in order
        is_draw = direction == ">" or (direction is None and t.to_draw >= 0)
        if not is_draw:
            if b or mark:
                raise NotationError("bad-token", self.not_a_draw(), line, col)
            p = self.seat(seat) if seat else t.to_discard
            if p < 0:
                raise NotationError("bad-token", "nobody is to discard here", line, col)
            self.discard(p, a, bool(giri), bool(riichi), line, col + (2 if seat else 0))
            return
        p = self.seat(seat) if seat else t.to_draw
        rinshan = t.rinshan_next != bool(mark)
        a_col = col + (2 if seat else 0) + (1 if mark else 0)
        tiles = self.fresh(a, line, a_col)
        self.emit(draw_of(p, tiles[0], rinshan), line, col)
        if b:
            self.discard(p, b, bool(giri), bool(riichi), line, a_col + len(a))
        elif giri:
            self.emit_discard(p, tiles[0], True, bool(riichi), line, col)
        elif riichi:
            raise NotationError("bad-token", "riichi (*) needs a discard", line, col)

    def not_a_draw(self) -> str:
        """Why a draw cannot be written here: somebody holds a tile too many and is to
        discard (the dealer dealt 14, a player who called)."""
        t = self.t
        p = t.to_discard
        if p < 0:
            return "a discard names one tile"
        wind = WINDS[(p - t.dealer) % t.n]
        why = (" (the dealer was dealt 14 tiles: the 14th is the first draw)"
               if not any(isinstance(ev, Discard) for ev in self.events[self.round_at:])
               else "")
        return f"{wind} is to discard, not to draw{why}: write the discard alone, e.g. 7z"

    def discard(self, p: int, text: str, giri: bool, riichi: bool, line: int,
                col: int) -> None:
        tiles = self.held(p, text, line, col)
        self.emit_discard(p, tiles[0], giri, riichi, line, col)

    def emit_discard(self, p: int, tile: Tile, giri: bool, riichi: bool, line: int,
                     col: int) -> None:
        self.emit(discard_of(p, tile, giri, riichi), line, col)
        if riichi and self.t.family.riichi_stick:
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
        self.emit(_CALLS[op](player=p, from_player=frm, called=called, tiles=tiles), line, col)

    def raw_call(self, raw: str, line: int, col: int) -> tuple[tuple[Tile, ...], Tile, int]:
        parts = raw.split("/")
        if len(parts) != 3:
            raise NotationError("bad-token", "a call's ! part is tiles/called/from", line, col)
        tiles = tuple(Tile(x) for x in int_list(parts[0], line, col, "tiles"))
        return tiles, Tile(int(parts[1])), int(parts[2])

    def own_call(self, m: re.Match[str], line: int, col: int) -> None:
        p = self.seat(m.group("seat")) if m.group("seat") else self.t.to_discard
        op = m.group("op")
        tcol = col + (2 if m.group("seat") else 0) + len(op)
        if op == "ankan":
            self.closed_kan(p, m, line, col, tcol)
        elif op == "kakan":
            self.added_kan(p, m, line, col, tcol)
        elif op == "kita":
            tile = self.held(p, m.group("tiles") or "4z", line, tcol)[0]
            self.emit(Kita(player=p, tile=tile), line, col)
        else:
            self.flower_move(p, op, m, line, col, tcol)

    def closed_kan(self, p: int, m: re.Match[str], line: int, col: int, tcol: int) -> None:
        """``ankan5z``: four tiles of a kind (the copies after ``!`` when not 0..3)."""
        found = kinds(m.group("tiles"), line, tcol)
        if len(found) != 1:
            raise NotationError("bad-token", "ankan names the kind once, e.g. ankan1z",
                                line, col)
        kind = found[0][0]
        raw = m.group("raw")
        tiles = tuple(Tile(x) for x in (int_list(raw, line, col, "tiles") if raw
                                         else range(kind * 4, kind * 4 + 4)))
        self.emit(ClosedKan(player=p, tiles=tiles), line, col)

    def added_kan(self, p: int, m: re.Match[str], line: int, col: int, tcol: int) -> None:
        """``kakan5z``: the fourth tile joins the pon of its kind."""
        if not m.group("tiles"):
            raise NotationError("bad-token", "kakan names its tile, e.g. kakan5z", line, col)
        added = self.held(p, m.group("tiles"), line, tcol)[0]
        raw = m.group("raw")
        if raw is not None:
            tiles, called, frm = self.raw_call(raw, line, col)
        else:
            pon = next((x for x in self.t.shown[p] if isinstance(x, Pon)
                        and KIND_OF[x.called] == KIND_OF[added]), None)
            if pon is None:
                raise NotationError("bad-token", "kakan needs a pon of that tile", line, col)
            tiles, called, frm = (*pon.tiles, added), pon.called, pon.from_player
        self.emit(AddedKan(player=p, from_player=frm, called=called, added=added,
                           tiles=tiles), line, col)

    def flower_move(self, p: int, op: str, m: re.Match[str], line: int, col: int,
                    tcol: int) -> None:
        """``flower3f``: a flower set aside; ``rob3f``: the flower another set aside taken
        (from its holder, or from the seat number after ``!``)."""
        found = kinds(m.group("tiles"), line, tcol)
        if len(found) != 1 or found[0][0] < NUM_KINDS:
            raise NotationError("bad-token", f"{op} names one flower, e.g. {op}1f", line, col)
        tile = Tile(FIRST_FLOWER + found[0][0] - NUM_KINDS)
        if op == "flower":
            self.emit(Flower(player=p, tile=self.held(p, m.group("tiles"), line, tcol)[0]),
                      line, col)
            return
        raw = m.group("raw")
        frm = int(raw) if raw and is_int(raw) else self.t.flower_owner(tile)
        if frm < 0:
            raise NotationError("bad-token", f"nobody has set {m.group('tiles')} aside to rob",
                                line, col)
        self.emit(Flower(player=p, tile=tile, from_player=frm), line, col)

    # -- results

    def result(self, raw: str, line: int) -> None:
        found = words(raw)
        kind = found[0][0]
        if kind in ("riichi", "chombo"):
            self.sheet_line(kind, found, line)
            return
        if kind in ("after", "noend"):
            self.settle_riichi(line, 1)
            if kind == "after":
                arg = found[1][0] if len(found) > 1 else "-"
                sc = None if arg == "-" else int_list(arg, line, found[1][1], "scores")
                if self.results_only:
                    self.derive_deltas(sc)
                self.emit(RoundEnd(scores=sc), line, 1)
            self.round_closed = True
            return
        self.settle_riichi(line, 1, ron=kind == "ron")
        if kind in ("ron", "tsumo"):
            self.win(kind == "tsumo", found, line)
        else:
            self.draw_result(kind, found, line)
        self.results = True

    def sheet_line(self, kind: str, found: list[tuple[str, int]], line: int) -> None:
        """``riichi S W`` (a results-only round's declarations: a stick each) or
        ``chombo S`` (the hand ends with S's chombo)."""
        if kind != "chombo" and not self.results_only:  # a riichi line
            raise NotationError("bad-result", "a riichi line belongs to a results-only round "
                                "(no hands line); with moves, riichi is declared with * on "
                                "its discard", line, 1)
        if len(found) < 2 or (kind == "chombo" and len(found) > 2):
            raise NotationError("bad-result", f"{kind} names " + (
                "its offender's wind: chombo S" if kind == "chombo"
                else "the declarers' winds: riichi S W"), line, found[-1][1])
        for word, col in found[1:]:
            if word not in WINDS:
                raise NotationError("bad-result", f"{word!r} is not a wind (E, S, W, N)",
                                    line, col)
        self.settle_riichi(line, 1)
        for word, col in found[1:]:
            p = self.seat(word)
            self.emit(Chombo(player=p) if kind == "chombo" else RiichiAccepted(player=p),
                      line, col)
        self.results = self.results or kind == "chombo"

    def derive_deltas(self, after: tuple[int, ...] | None) -> None:
        """A results-only round's ``after`` line: the payments it implies go to the
        round's one result when that states none (as a score sheet's row)."""
        deltas = self.written.derived(after, self.t.n)
        if deltas and self.written.results:
            k = self.written.results[0]
            self.events[k] = replace(cast(Win, self.events[k]), deltas=deltas)

    def win(self, tsumo: bool, found: list[tuple[str, int]], line: int) -> None:
        if self.results_only:
            self.sheet_win(tsumo, found, line)
            return
        t = self.t
        if len(found) < 2 or found[1][0] not in WINDS:
            raise NotationError("bad-result", "ron/tsumo is followed by the winner's wind",
                                line, 1)
        w = self.seat(found[1][0])
        self.win_seat = w
        self.ron_or_tsumo(w, tsumo, found[1][0], line)
        chankan = not tsumo and t.kan_tile >= 0
        vals: dict[str, object] = {
            "from": w if tsumo else (t.kan_player if chankan else t.last_discarder),
            "tile": t.last_draw if tsumo else (t.kan_tile if chankan else t.last_discard),
        }
        fu, points, yaku, extra = self.win_words(found[2:], vals, line, t.open_hand(w))
        if not t.family.needs_value:
            fu = max(fu, 0)
        elif fu < 0 or points < 0:
            fu, points, yaku = self.valued(w, tsumo, yaku, extra, vals, line)
        self.emit(self.win_event(w, tsumo, fu, points, yaku, extra, vals, line), line, 1)

    def sheet_win(self, tsumo: bool, found: list[tuple[str, int]], line: int) -> None:
        """A win of a results-only round: its value as written (han, fu, points, a limit),
        its yaku uncounted unless ``:han`` says; the discarder named (``from N``); the
        honba and sticks to the round's first result; no tile."""
        t = self.t
        if len(found) < 2 or found[1][0] not in WINDS:
            raise NotationError("bad-result", "ron/tsumo is followed by the winner's wind",
                                line, 1)
        w = self.win_seat = self.seat(found[1][0])
        vals: dict[str, Any] = {"from": w} if tsumo else {}
        yaku, extra = self.sheet_win_words(found[2:], vals, line)
        if "from" not in vals:
            raise NotationError("bad-result", f"a ron of a results-only round names who dealt "
                                f"in: ron {found[1][0]} from N", line, len(found[-1][0])
                                + found[-1][1])
        if not {"han", "fu", "points", "limit"} & set(vals):
            raise NotationError("bad-result", "a win of a results-only round states its "
                                "value: 3han 30fu, 6han, mangan, yakuman or its points (8000)",
                                line, 1)
        first = not self.results
        limit = str(vals.get("limit", ""))
        ev = Win(winner=w, from_player=int(vals["from"]), hand=vals.get("hand", ()),
                 win_tile=Tile(int(vals.get("tile", UNKNOWN))), melds=vals.get("melds", ()),
                 yaku=tuple(yaku), fu=int(vals.get("fu", 0)),
                 han=int(vals.get("han", sum(y.han for y in yaku))),
                 points=int(vals.get("points", 0)), limit="" if limit == "-" else limit,
                 deltas=vals.get("deltas", ()), scores_before=vals.get("before"),
                 honba=int(vals.get("honba", t.honba if first else 0)),
                 kyotaku=int(vals.get("sticks", t.kyotaku if first else 0)),
                 dora_indicators=vals.get("dora", ()), ura_indicators=vals.get("ura", ()),
                 pao=vals.get("pao"), extra=tuple(extra))
        self.stated = "deltas" in vals
        self.emit(ev, line, 1)
        self.stated = False

    def sheet_win_words(self, found: list[tuple[str, int]], vals: dict[str, Any],
                        line: int) -> tuple[list[YakuClaim], list[tuple[str, str]]]:
        """A results-only win's words: ``from N``, ``3han``, ``30fu``, points, a limit
        (``mangan`` … ``yakuman``), overrides and yaku; the values go into ``vals``."""
        yaku: list[YakuClaim] = []
        extra: list[tuple[str, str]] = []
        k = 0
        while k < len(found):
            word, c = found[k]
            key, eq, value = word.partition("=")
            k += 1
            if word == "from":
                if k >= len(found) or found[k][0] not in WINDS:
                    raise NotationError("bad-result", "from is followed by the discarder's "
                                        "wind (E, S, W, N)", line, c)
                vals["from"] = self.seat(found[k][0])
                k += 1
            elif eq and key.startswith("@"):
                extra.append((key[1:], unpct(value)))
            elif eq:
                vals[key] = self.field(key, value, line, c + len(key) + 1)
            elif han_word(word) is not None:
                vals["han"] = han_word(word)
            elif word.endswith("fu") and is_int(word[:-2]):
                vals["fu"] = int(word[:-2])
            elif is_int(word, signed=True):
                vals["points"] = int(word)
            elif word in LIMIT_WORDS:
                vals["han"] = LIMIT_WORDS[word]
            elif word == YAKUMAN:
                vals["limit"] = YAKUMAN
            else:
                yaku.append(self.claim(word, line, c, False, counted=False))
        return yaku, extra

    def ron_or_tsumo(self, w: int, tsumo: bool, wind: str, line: int) -> None:
        """A win that contradicts the move before it: a tsumo right after a discard, or a
        ron by the player who has just drawn."""
        last = self.events[-1] if len(self.events) > self.round_at else None
        if tsumo and isinstance(last, Discard):
            who = WINDS[(last.player - self.t.dealer) % self.t.n]
            raise NotationError("bad-result", f"tsumo {wind}, but the move before is {who}'s "
                                f"discard of {tile_str(last.tile)}: a win on a discard is "
                                f"written 'ron {wind}'", line, 1)
        if not tsumo and isinstance(last, Draw) and last.player == w:
            raise NotationError("bad-result", f"ron {wind}, but {wind} has just drawn "
                                f"{tile_str(last.tile)}: a win on one's own draw is written "
                                f"'tsumo {wind}'", line, 1)

    def valued(self, w: int, tsumo: bool, yaku: list[YakuClaim], extra: list[tuple[str, str]],
               vals: dict[str, object], line: int) -> tuple[int, int, list[YakuClaim]]:
        """A win written without its fu or points, valued by mjlog (its yaku too when none
        are written), with a note that shows the value."""
        t = self.t
        draft = self.win_event(w, tsumo, 0, 0, yaku, extra, vals, line)
        found = t.family.value_win(t, self.events, self.round_at, draft, t.ruleset)
        if isinstance(found, str):
            raise NotationError("bad-result", "a win states its fu (e.g. 40fu) and points, "
                                f"unless mjlog can value it: here it cannot ({found})", line, 1)
        fu, points, computed = found
        yaku = yaku or list(computed)
        names = ", ".join(f"{y.name} {y.han}" for y in yaku)
        self.diagnostics.append(Diagnostic(
            code="valued", severity=Severity.INFO, src=Src(line=line, column=1),
            message=f"the win is written without its value: mjlog values it at {fu}fu "
            f"{points} ({names})"))
        return fu, points, yaku

    def win_words(self, found: list[tuple[str, int]], vals: dict[str, object], line: int,
                  open_hand: bool) -> tuple[int, int, list[YakuClaim], list[tuple[str, str]]]:
        """A win line's fu, points, yaku and ``@`` extras; its fields go into ``vals``."""
        fu = points = -1
        yaku: list[YakuClaim] = []
        extra: list[tuple[str, str]] = []
        for word, c in found:
            key, eq, value = word.partition("=")
            if eq and key.startswith("@"):
                extra.append((key[1:], unpct(value)))
            elif eq:
                vals[key] = self.field(key, value, line, c + len(key) + 1)
            elif word.endswith("fu") and is_int(word[:-2]):
                fu = int(word[:-2])
            elif is_int(word, signed=True):
                points = int(word)
            else:
                yaku.append(self.claim(word, line, c, open_hand))
        return fu, points, yaku, extra

    def win_event(self, w: int, tsumo: bool, fu: int, points: int, yaku: list[YakuClaim],
                  extra: list[tuple[str, str]], vals: dict[str, Any], line: int) -> Win:
        """The win of a result line, with what it leaves out filled in."""
        t = self.t
        win_tile = int(vals["tile"])
        if win_tile < 0 or int(vals["from"]) < 0:
            what = "tile" if win_tile < 0 else "from"
            raise NotationError("bad-result", f"nothing to win on here: no tile was just drawn, "
                                f"discarded or shown (write {what}=)", line, 1)
        hand_set = set(t.players[w].concealed) if 0 <= w < t.n else set()
        if not tsumo:
            hand_set.add(win_tile)
        han = int(vals.get("han", sum(y.han for y in yaku)))
        limit = vals.get("limit", t.family.limit(han, fu, t.ruleset))
        ev = Win(
            winner=w, from_player=int(vals["from"]),
            hand=vals.get("hand", tuple(Tile(x) for x in sorted(hand_set))),
            win_tile=Tile(win_tile), melds=vals.get("melds", t.win_melds(w)),
            yaku=tuple(yaku), fu=fu, han=han, points=points,
            limit="" if limit == "-" else str(limit), deltas=(),
            scores_before=vals.get("before", tuple(t.scores)),
            honba=int(vals.get("honba", t.honba)), kyotaku=int(vals.get("sticks", t.kyotaku)),
            dora_indicators=vals.get("dora", tuple(Tile(x) for x in t.dora_indicators)),
            ura_indicators=vals.get("ura", ()), pao=vals.get("pao"), extra=tuple(extra),
        )
        deltas = vals.get("deltas")
        ev = replace(ev, deltas=t.deltas_of(ev, not self.results)
                     if deltas is None else cast(tuple[int, ...], deltas))
        if points < 0:  # a win may leave its points to its value (Taiwanese 台)
            ev = replace(ev, points=ev.deltas[w] if 0 <= w < len(ev.deltas) else 0)
        return ev

    def claim(self, word: str, line: int, col: int, open_hand: bool,
              counted: bool = True) -> YakuClaim:
        """A yaku as written, with its han: after ``:``, else its usual value (0 where not
        ``counted``: a results-only round's yaku, whose han the win states)."""
        name, colon, han = word.partition(":")
        t = self.t
        name = t.family.yaku_name(name)
        if name not in t.family.yaku_names():
            self.unknown_yaku(name, line, col)
        if colon:
            if not is_int(han, signed=True):
                raise NotationError("bad-result", f"{word!r}: han after ':' is a number", line,
                                    col)
            return YakuClaim(name=name, han=int(han))
        return YakuClaim(name=name, han=t.family.default_han(name, open_hand, t.ruleset)
                         if counted else 0)

    def unknown_yaku(self, name: str, line: int, col: int) -> None:
        """Warn about a yaku name mjlog does not know (it is kept as written, and the
        audit will not find it), suggesting the closest known names."""
        known = sorted(self.t.family.yaku_names())
        close = difflib.get_close_matches(name.lower(), known, n=3, cutoff=0.5)
        self.diagnostics.append(Diagnostic(
            code="unknown-yaku", severity=Severity.WARNING, src=Src(line=line, column=col),
            message=f"{name!r} is no yaku mjlog knows" + (
                f": did you mean {' or '.join(close)}?" if close else
                " (docs/notation.md names them)") + " It is kept as written."))

    def field(self, key: str, value: str, line: int, col: int) -> object:
        if key in ("from", "honba", "sticks", "han", "tile", "seats"):
            if not is_int(value, signed=True):
                raise NotationError("bad-result", f"{key} is a number", line, col)
            return int(value)
        if key == "deltas":
            return () if value == "-" else int_list(value, line, col, key)
        if key == "before":
            return None if value == "-" else int_list(value, line, col, key)
        if key in ("hand", "dora") or key.startswith("hand"):
            return self.tiles_field(key, value, line, col)
        if key == "melds":
            return tuple(tuple(Tile(x) for x in int_list(g, line, col, key))
                         for g in value.split("/")) if value else ()
        if key == "ura":
            out: list[Tile] = []
            for kind, red in kinds(value, line, col):
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
        raise NotationError("bad-result", f"unknown field {key!r}", line, col)

    def tiles_field(self, key: str, value: str, line: int, col: int) -> tuple[Tile, ...]:
        """``hand=``, ``handS=`` or ``dora=``: tile ids, or tiles by name for a hand."""
        if value == "-":
            return ()
        if key != "dora" and re.search(r"[mpszESWNHGR?]", value):
            # tiles by name: the table picks the copies
            seat = self.win_seat if key == "hand" else self.t.seat(key[4:] or "E")
            named: list[Tile] = []
            for kind, red in kinds(value, line, col):
                named.append(self.tile(kind, red, self._hand_copy(key, seat, kind, red, named),
                                       line, col))
            return tuple(sorted(named))
        return tuple(Tile(x) for x in int_list(value, line, col, key))

    def _hand_copy(self, key: str, seat: int, kind: int, red: bool, named: list[Tile]) -> int:
        """The copy of a tile a stated hand names: one the player holds, else the discard
        won on (a ron's tile is not in the hand yet), else a fresh one."""
        t = self.t.held(seat, kind, red, named)
        last = self.t.last_discard
        if key == "hand" and 0 <= seat < self.t.n and t not in self.t.players[seat].concealed \
                and 0 <= last < len(KIND_OF) and KIND_OF[last] == kind and last not in named:
            return last
        return t

    def draw_result(self, kind: str, found: list[tuple[str, int]], line: int) -> None:
        t = self.t
        rest = found[1:]
        abort_kind = ""
        if kind == "abort":
            if rest and rest[0][0] in ABORTS:
                abort_kind = rest[0][0]
                rest = rest[1:]
            elif self.results_only:
                abort_kind = "unstated"
            else:
                raise NotationError("bad-result", "abort names its kind: " + ", ".join(ABORTS),
                                    line, 7)
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
                extra.append((key[1:], unpct(value)))
            else:
                vals[key] = self.field(key, value, line, c + len(key) + 1)
        common = self.draw_fields(vals, extra)
        ev: ExhaustiveDraw | AbortiveDraw = (
            ExhaustiveDraw(nagashi=nagashi, **common) if kind == "draw"
            else AbortiveDraw(kind=abort_kind, **common))
        deltas = vals.get("deltas")
        if deltas is None and not self.results_only:
            deltas = t.deltas_of(ev, not self.results)
        ev = replace(ev, deltas=cast(tuple[int, ...], deltas or ()))
        self.stated = "deltas" in vals
        self.emit(ev, line, 1)
        self.stated = False

    def draw_fields(self, vals: dict[str, Any], extra: list[tuple[str, str]]) -> dict[str, Any]:
        """What a draw's line states or leaves to the table: hands shown, scores, sticks."""
        t = self.t
        seats = int(vals.get("seats", t.n))
        hands: list[tuple[Tile, ...] | None] = [None] * seats
        for p in vals.get("shown", []):
            if p < seats:
                hands[p] = tuple(Tile(x) for x in sorted(t.players[p].concealed))
        for p in range(seats):
            key = f"hand{t.wind(p)}"
            if key in vals:
                hands[p] = vals[key]
        sheet, first = self.results_only, not self.results
        return {"hands": tuple(hands), "deltas": (),
                "scores_before": vals.get("before", None if sheet else tuple(t.scores)),
                "honba": vals.get("honba", t.honba if first or not sheet else 0),
                "kyotaku": vals.get("sticks", t.kyotaku if first or not sheet else 0),
                "extra": tuple(extra)}

    def game_end(self, raw: str, line: int) -> None:
        scores: tuple[int, ...] | None = None
        points: tuple[float, ...] | None = None
        for word, col in words(raw):
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
                                           "points=", line, col))
        self.emit(GameEnd(scores=scores, points=points), line, 1)


def _tag(info: dict[str, Any], key: str, values: list[str], line: int) -> None:
    """Take one header tag into ``info`` (the game start's parts)."""
    one = values[0] if values else ""
    if key == "Source":
        info["source"] = one
    elif key == "Players":
        info["names"] = values
    elif key == "Ranks":
        info["ranks"] = values
    elif key == "Ratings":
        try:
            info["ratings"] = [None if v == "-" else float(v) for v in values]
        except ValueError:
            raise NotationError("bad-header", "ratings are numbers or -", line, 1) from None
    elif key == "Sexes":
        info["sexes"] = values
    elif key == "FirstDealer":
        if not is_int(one):
            raise NotationError("bad-header", "FirstDealer is a seat number", line, 1)
        info["first"] = int(one)
    elif key == "Ruleset":
        info["preset"] = one
    elif key == "Rules":
        info["rules"] = one
    elif key == "Meta" and len(values) == 2:
        info["meta"].append((values[0], values[1]))
    else:
        info["meta"].append((key, " ".join(values)))

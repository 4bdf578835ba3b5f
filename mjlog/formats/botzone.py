"""Botzone's Chinese Standard Mahjong (MCR, 国标麻将) match data, as text.

Botzone (botzone.org.cn, Peking University's AI lab) runs bot contests of Chinese Official
mahjong with one hand per match; the match data it gives its MCR course and contest (2021 on;
136 tiles, no flowers) is text, one match after another, a blank line between them (its
human-play data of 2020, ``mjdata.zip``, is another format, not read here)::

    Match 61602cb45ddc087351c04358     the match id
    Wind 1                             the round (prevalent) wind, 0..3 = E S W N
    Player 0 Deal W1 W2 ... (13)       each seat's dealt tiles; seat 0 deals, seat k's wind is k
    Player 0 Draw J3                   a draw (after a kong: its replacement)
    Player 0 Play T6                   a discard
    Player 2 Chi T5                    a chow of the last discard; T5 is its middle tile
    Player 1 Peng J1                   a pung of the last discard
    Player 3 Gang F2                   a kong of the last discard
    Player 2 AnGang B8                 a concealed kong
    Player 2 BuGang J1                 a pung made a kong with the fourth tile
    Player 1 Hu B7                     a win, on the tile named
    Fan 9 混一色*1+箭刻*1+老少副*1       its fan total and the fans, each *count
    Huang                              or: the wall ran out
    Score -8 33 -17 -8                 each seat's change

A claim may go on with ``Ignore Player N Chi T3`` (repeated): the claims that lost to it
(a pung over a chow, the first winner over a second); they are kept as a comment. Tiles:
``W1``-``W9`` characters, ``B1``-``B9`` dots, ``T1``-``T9`` bamboo, ``F1``-``F4`` the winds
east to north, ``J1`` 中 (red), ``J2`` 發 (green), ``J3`` 白 (white), as Botzone's judge and
ChineseOfficialMahjongHelper's fan calculator name them; ``H1``-``H8`` flowers (Botzone's
judge sets them aside with ``BuHua``; the published data sets play without them).

Each match is one game of one hand under the ``botzone`` ruleset (``mcr`` on 136 tiles,
without flowers): starting scores 0, the dealer seat 0, the round wind the ``Wind`` line's;
the dealer's first draw is folded into its deal where the ruleset deals the dealer
fourteen tiles (``mcr`` does). A win's fans
become its yaku claims (the notation word of the English name, ``half-flush``, and the fan
it counts, points times count); its ``han`` is the record's total. A line that cannot be
read is a ``botzone-syntax`` diagnostic at its line; a move that does not fit the tiles
read (a chow with no discard to take) is a ``botzone-move`` diagnostic; either line is
left out, everything else kept. Whether a move
was legal is the replay's to judge: a discard of a tile not in hand is read as written.
This module does no file I/O.
"""

from __future__ import annotations

import re
from array import array
from typing import Final

from mjlog.core.diagnostics import Diagnostic, InputError, Severity, Src
from mjlog.core.events import (
    AddedKan,
    Chi,
    ClosedKan,
    Comment,
    Discard,
    Draw,
    Event,
    ExhaustiveDraw,
    Flower,
    GameEnd,
    GameStart,
    OpenKan,
    PlayerInfo,
    Pon,
    RoundEnd,
    RoundStart,
    Win,
    YakuClaim,
    discard_of,
    draw_of,
)
from mjlog.core.record import GameRecord
from mjlog.core.ruleset import PRESETS, Ruleset
from mjlog.core.tiles import FIRST_FLOWER, KIND_OF, NUM_KINDS, UNKNOWN, Kind, Tile, TileError
from mjlog.families.mcr.options import BOTZONE
from mjlog.formats.kinds import Hands, winning_hand

FORMAT = "botzone"
DIAGNOSTIC_CODES: Final = frozenset({"botzone-syntax", "botzone-move", "no-result",
                                     "unknown-yaku"})
"""Codes of the diagnostics :func:`read` gives."""

_SIGNATURE = re.compile(rb"\A\s*Match[ \t]+\S+[ \t]*\r?\n\s*Wind[ \t]+[0-3][ \t]*\r?$",
                        re.MULTILINE)
_TILE = re.compile(r"([WBT])([1-9])|F([1-4])|J([1-3])|H([1-8])")
_SUITS: Final = {"W": 0, "B": 9, "T": 18}
_DRAGONS: Final = (33, 32, 31)
"""The kinds of J1 (中, red), J2 (發, green) and J3 (白, white)."""
MOVES: Final = ("Deal", "Draw", "Play", "Chi", "Peng", "Gang", "AnGang", "BuGang", "BuHua",
                "Hu")


_FAN_PAIRS: Final = (
    ("大四喜", "Big Four Winds"), ("大三元", "Big Three Dragons"), ("绿一色", "All Green"),
    ("九莲宝灯", "Nine Gates"), ("四杠", "Four Kongs"), ("连七对", "Seven Shifted Pairs"),
    ("十三幺", "Thirteen Orphans"), ("清幺九", "All Terminals"),
    ("小四喜", "Little Four Winds"), ("小三元", "Little Three Dragons"),
    ("字一色", "All Honors"), ("四暗刻", "Four Concealed Pungs"),
    ("一色双龙会", "Pure Terminal Chows"), ("一色四同顺", "Quadruple Chow"),
    ("一色四节高", "Four Pure Shifted Pungs"), ("一色四步高", "Four Pure Shifted Chows"),
    ("三杠", "Three Kongs"), ("混幺九", "All Terminals and Honors"), ("七对", "Seven Pairs"),
    ("七星不靠", "Greater Honors and Knitted Tiles"), ("全双刻", "All Even Pungs"),
    ("清一色", "Full Flush"), ("一色三同顺", "Pure Triple Chow"),
    ("一色三节高", "Pure Shifted Pungs"), ("全大", "Upper Tiles"), ("全中", "Middle Tiles"),
    ("全小", "Lower Tiles"), ("清龙", "Pure Straight"),
    ("三色双龙会", "Three-Suited Terminal Chows"), ("一色三步高", "Pure Shifted Chows"),
    ("全带五", "All Fives"), ("三同刻", "Triple Pung"), ("三暗刻", "Three Concealed Pungs"),
    ("全不靠", "Lesser Honors and Knitted Tiles"), ("组合龙", "Knitted Straight"),
    ("大于五", "Upper Four"), ("小于五", "Lower Four"), ("三风刻", "Big Three Winds"),
    ("花龙", "Mixed Straight"), ("推不倒", "Reversible Tiles"),
    ("三色三同顺", "Mixed Triple Chow"), ("三色三节高", "Mixed Shifted Pungs"),
    ("无番和", "Chicken Hand"), ("妙手回春", "Last Tile Draw"), ("海底捞月", "Last Tile Claim"),
    ("杠上开花", "Out with Replacement Tile"), ("抢杠和", "Robbing the Kong"),
    ("碰碰和", "All Pungs"), ("混一色", "Half Flush"), ("三色三步高", "Mixed Shifted Chows"),
    ("五门齐", "All Types"), ("全求人", "Melded Hand"), ("双暗杠", "Two Concealed Kongs"),
    ("双箭刻", "Two Dragon Pungs"), ("全带幺", "Outside Hand"),
    ("不求人", "Fully Concealed Hand"), ("双明杠", "Two Melded Kongs"), ("和绝张", "Last Tile"),
    ("箭刻", "Dragon Pung"), ("圈风刻", "Prevalent Wind"), ("门风刻", "Seat Wind"),
    ("门前清", "Concealed Hand"), ("平和", "All Chows"), ("四归一", "Tile Hog"),
    ("双同刻", "Double Pung"), ("双暗刻", "Two Concealed Pungs"), ("暗杠", "Concealed Kong"),
    ("断幺", "All Simples"), ("一般高", "Pure Double Chow"), ("喜相逢", "Mixed Double Chow"),
    ("连六", "Short Straight"), ("老少副", "Two Terminal Chows"),
    ("幺九刻", "Pung of Terminals or Honors"), ("明杠", "Melded Kong"),
    ("缺一门", "One Voided Suit"), ("无字", "No Honors"), ("边张", "Edge Wait"),
    ("嵌张", "Closed Wait"), ("单钓将", "Single Wait"), ("自摸", "Self-Drawn"),
    ("花牌", "Flower Tiles"), ("明暗杠", "Concealed Kong and Melded Kong"),
)
FANS: Final[dict[str, str]] = dict(_FAN_PAIRS)
"""The fans as Botzone's records name them (ChineseOfficialMahjongHelper's simplified
Chinese, the three waits without its ``独听・`` prefix) -> their canonical English names
(:data:`mjlog.families.mcr.fan.FAN_NAMES`, :data:`~mjlog.families.mcr.fan.EXTRA_FANS`)."""


class BotzoneError(Exception):
    """A line that cannot be read (``botzone-syntax``) or a move that does not fit the
    tiles read (``botzone-move``), at ``column`` of its line."""

    def __init__(self, code: str, message: str, column: int = 1) -> None:
        super().__init__(message)
        self.code = code
        self.column = column


def problem(code: str, message: str, column: int = 1) -> BotzoneError:
    """The error a bad line raises: ``botzone-syntax`` or ``botzone-move``."""
    return BotzoneError(code, message, column)


def looks_like(start: bytes) -> bool:
    """Whether a text starts with a Botzone match: a ``Match`` line, then ``Wind 0..3``."""
    return _SIGNATURE.match(start) is not None


def tile_kind(code: str) -> Kind:
    """The kind of one of Botzone's tile codes (``W1`` 1m, ``J1`` 中 …, ``H1`` the first
    flower); raises ``ValueError`` for anything else."""
    m = _TILE.fullmatch(code)
    if m is None:
        raise ValueError(f"{code!r} is not a tile (W1-W9, B1-B9, T1-T9, F1-F4, J1-J3, H1-H8)")
    suit, rank, wind, dragon, flower = m.groups()
    if suit:
        return _SUITS[suit] + int(rank) - 1
    if wind:
        return 27 + int(wind) - 1
    if dragon:
        return _DRAGONS[int(dragon) - 1]
    return 34 + int(flower) - 1


_KINDS: Final[dict[str, Kind]] = {
    code: tile_kind(code) for code in (*(f"{s}{n}" for s in "WBT" for n in range(1, 10)),
                                       *(f"F{n}" for n in range(1, 5)),
                                       *(f"J{n}" for n in range(1, 4)),
                                       *(f"H{n}" for n in range(1, 9)))}
"""Every tile code's kind, looked up for each move."""


def ruleset() -> Ruleset:
    """The ruleset a Botzone match is read under: the ``botzone`` preset, ``mcr`` on 136
    tiles without flowers as the data sets play (a ``BuHua`` line is read all the same)."""
    return PRESETS.get("botzone") or BOTZONE


def read(data: bytes, path: str = "", *, strict: bool = False) -> list[GameRecord]:
    """Every match of a Botzone data file, one record each. A line that cannot be read is
    a diagnostic at its line (raised in strict mode) and is left out."""
    text = data.decode("utf-8", "replace")
    records: list[GameRecord] = []
    match: _Match | None = None
    for number, line in enumerate(text.splitlines(), start=1):
        words = line.split()
        if not words:
            continue
        try:
            if words[0] == "Match":
                if match is not None:
                    records.append(match.close())
                match = _Match(path, number, words)
            elif match is None:
                raise problem("botzone-syntax", "a match starts with its Match line")
            else:
                match.line(number, line, words)
        except BotzoneError as exc:
            diag = Diagnostic(code=exc.code, message=str(exc), src=Src(line=number,
                                                                       column=exc.column))
            if strict:
                raise InputError(diag) from None
            if match is None:
                match = _Match(path, number, ["Match", "?"])
            match.rec.diagnostics.append(diag)
    if match is not None:
        records.append(match.close())
    return records


_Meld = Chi | Pon | OpenKan | AddedKan | ClosedKan


class _Match:
    """One match being read: its record, each seat's tiles and what the last move was."""

    def __init__(self, path: str, number: int, words: list[str]) -> None:
        self.rec = GameRecord(path=path, format=FORMAT, position_kind="text",
                              columns=array("i"))
        self.start = number
        self.match_id = words[1] if len(words) > 1 else ""
        self.wind = -1
        self.deal: list[list[Tile] | None] = [None] * 4
        self.hands = Hands(4, red_fives=False)
        self.melds: list[list[_Meld]] = [[] for _ in range(4)]
        self.drawn = [-1] * 4
        self.last: Event | None = None
        self.replacement = -1
        """The seat whose next draw replaces a kong or flower, or -1."""
        self.win: tuple[Win, int] | None = None
        self.fan: tuple[int, tuple[YakuClaim, ...]] = (0, ())
        self.draw_line = 0
        self.deal_line = 0
        self.dealt = False
        self.scored = False

    def emit(self, ev: Event, number: int, column: int = 1) -> None:
        """Add an event read at ``number``, ``column``."""
        self.rec.events.append(ev)
        self.rec.positions.append(number)
        assert self.rec.columns is not None
        self.rec.columns.append(column)

    def diag(self, code: str, message: str, number: int) -> None:
        """A warning at a line (never raised, in strict mode either)."""
        self.rec.diagnostics.append(Diagnostic(code=code, message=message,
                                               severity=Severity.WARNING,
                                               src=Src(line=number, column=1)))

    def line(self, number: int, line: str, words: list[str]) -> None:
        """One line of the match after its Match line."""
        head = words[0]
        if self.wind == -2 and head != "Wind":
            return  # the Wind line was bad: reported there, the match is not read
        if self.scored:
            raise problem("botzone-syntax", f"{head!r} after the match's Score line")
        if head == "Wind":
            self.on_wind(number, words)
        elif head == "Player":
            self.on_player(number, line, words)
        elif head == "Fan":
            self.on_fan(number, line, words)
        elif head == "Huang":
            self.on_huang(number)
        elif head == "Score":
            self.on_score(number, words)
        else:
            raise problem("botzone-syntax", f"{head!r} is no line of a Botzone match "
                          "(Wind, Player, Fan, Huang, Score)")

    def on_wind(self, number: int, words: list[str]) -> None:
        if self.wind >= 0 or len(words) != 2 or words[1] not in ("0", "1", "2", "3"):
            self.wind = self.wind if self.wind >= 0 else -2
            raise problem("botzone-syntax", "a match has one Wind line, Wind 0..3 (without "
                          "it, the match's moves are not read)")
        self.wind = int(words[1])
        self.emit(GameStart(source=FORMAT, players=tuple(PlayerInfo(name=f"Player {k}")
                                                         for k in range(4)),
                            ruleset=ruleset(), meta=(("botzone.match", self.match_id),)),
                  self.start)

    def on_player(self, number: int, line: str, words: list[str]) -> None:
        """``Player N Move [TILE …] [Ignore Player M Move TILE …]``."""
        if len(words) < 3 or words[1] not in ("0", "1", "2", "3") or words[2] not in MOVES:
            raise problem("botzone-syntax", "a move is Player 0..3 followed by one of "
                          f"{', '.join(MOVES)}")
        if self.wind < 0:
            raise problem("botzone-syntax", "a move before the match's Wind line")
        p, move = int(words[1]), words[2]
        cut = words.index("Ignore") if "Ignore" in words else len(words)
        codes = words[3:cut]
        column = line.index(words[2]) + 1
        if move == "Deal":
            self.on_deal(p, codes, number)
            return
        if not self.dealt:
            if any(d is None for d in self.deal):
                raise problem("botzone-syntax", "a move before every seat's Deal line",
                              column)
            if move != "Draw":
                raise problem("botzone-move", "the dealer, seat 0, draws first", column)
        kinds = self.kinds(codes, line)
        if move != "Hu" and len(kinds) != 1:
            raise problem("botzone-syntax", f"{move} names one tile", column)
        _HANDLERS[move](self, p, kinds, number)
        if cut < len(words):
            self.emit(Comment(text=" ".join(words[cut:])), number, line.index("Ignore") + 1)

    def kinds(self, codes: list[str], line: str) -> list[Kind]:
        """The kinds of tile codes; a bad one is an error at its column."""
        out = []
        for code in codes:
            kind = _KINDS.get(code)
            if kind is None:
                raise problem("botzone-syntax", f"{code!r} is not a tile (W1-W9, B1-B9, "
                              "T1-T9, F1-F4, J1-J3, H1-H8)", line.index(code) + 1)
            out.append(kind)
        return out

    def on_deal(self, p: int, codes: list[str], number: int) -> None:
        if self.deal[p] is not None or len(codes) != 13:
            raise problem("botzone-syntax", f"seat {p} is dealt once, 13 tiles")
        kinds = self.kinds(codes, " ".join(codes))
        try:
            self.deal[p] = [self.hands.add(p, k, False) for k in kinds]
        except TileError as exc:
            raise problem("botzone-move", str(exc)) from None
        self.deal_line = number
        if all(d is not None for d in self.deal) and ruleset().dealt(True) == 13:
            self.deal_round()

    def deal_round(self) -> None:
        """The round starts: every seat is dealt (the dealer's first draw folded into the
        deal where the ruleset deals the dealer a fourteenth tile)."""
        self.emit(RoundStart(round_wind=self.wind, round_number=1, honba=0, kyotaku=0,
                             dealer=0, scores=(0, 0, 0, 0), dora_indicator=UNKNOWN,
                             hands=tuple(tuple(sorted(d or ())) for d in self.deal)),
                  self.deal_line)
        self.dealt = True

    def own(self, p: int, kind: Kind, prefer: int = -1) -> Tile:
        """A tile of ``kind`` from ``p``'s hand; one not in play when the hand has none (the
        replay then finds it missing from the hand)."""
        try:
            return self.hands.take(p, kind, False, prefer)
        except TileError:
            pass
        try:
            return self.hands.new(kind, False)
        except TileError as exc:
            raise problem("botzone-move", f"{exc}: all four are in play") from None

    def on_draw(self, p: int, kinds: list[Kind], number: int) -> None:
        if not self.dealt and p != 0:
            raise problem("botzone-move", "the dealer, seat 0, draws first")
        try:
            tile = self.hands.add(p, kinds[0], False)
        except TileError as exc:
            raise problem("botzone-move", f"a draw of {exc}: all four are in play") \
                from None
        if not self.dealt:
            self.deal[0] = [*(self.deal[0] or ()), tile]
            self.drawn[0] = tile
            self.deal_round()
            return
        self.emit(draw_of(p, tile, self.replacement == p), number)
        self.replacement = -1
        self.drawn[p] = tile
        self.last = self.rec.events[-1]

    def on_play(self, p: int, kinds: list[Kind], number: int) -> None:
        tile = self.own(p, kinds[0], self.drawn[p])
        ev = discard_of(p, tile, None, False)
        self.drawn[p] = -1
        self.emit(ev, number)
        self.last = ev

    def discard(self, p: int, move: str) -> Discard:
        """The discard a claim takes: the last move, another seat's."""
        last = self.last
        if not isinstance(last, Discard) or last.player == p:
            raise problem("botzone-move", f"seat {p}'s {move} takes no discard: the "
                          "last move is not another seat's discard")
        return last

    def claim(self, ev: _Meld, p: int, number: int) -> None:
        self.melds[p].append(ev)
        self.emit(ev, number)
        self.last = ev
        self.drawn[p] = -1

    def on_chi(self, p: int, kinds: list[Kind], number: int) -> None:
        last = self.discard(p, "chow")
        middle, called = kinds[0], KIND_OF[last.tile]
        run = [middle - 1, middle, middle + 1]
        if middle >= 27 or middle % 9 in (0, 8) or called not in run:
            raise problem("botzone-move", f"a chow around {middle} cannot take the "
                          "discard")
        run.remove(called)
        own = [self.own(p, k) for k in run]
        self.claim(Chi(player=p, from_player=last.player, called=last.tile,
                       tiles=tuple(sorted([*own, last.tile]))), p, number)

    def on_peng(self, p: int, kinds: list[Kind], number: int) -> None:
        self.same_claim(p, kinds[0], number, Pon, 2)

    def on_gang(self, p: int, kinds: list[Kind], number: int) -> None:
        self.same_claim(p, kinds[0], number, OpenKan, 3)
        self.replacement = p

    def same_claim(self, p: int, kind: Kind, number: int, cls: type[Pon | OpenKan],
                   own: int) -> None:
        """A pung or kong of the last discard, with ``own`` tiles from hand."""
        last = self.discard(p, cls.__name__)
        if KIND_OF[last.tile] != kind:
            raise problem("botzone-move", f"seat {p} claims another tile than the "
                          "last discard")
        tiles = [self.own(p, kind) for _ in range(own)]
        self.claim(cls(player=p, from_player=last.player, called=last.tile,
                       tiles=tuple(sorted([*tiles, last.tile]))), p, number)

    def on_angang(self, p: int, kinds: list[Kind], number: int) -> None:
        tiles = [self.own(p, kinds[0], self.drawn[p]) for _ in range(4)]
        self.claim(ClosedKan(player=p, tiles=tuple(sorted(tiles))), p, number)
        self.replacement = p

    def on_bugang(self, p: int, kinds: list[Kind], number: int) -> None:
        pung = next((m for m in self.melds[p]
                     if isinstance(m, Pon) and KIND_OF[m.called] == kinds[0]), None)
        if pung is None:
            raise problem("botzone-move", f"seat {p} adds to a pung it does not have")
        added = self.own(p, kinds[0], self.drawn[p])
        ev = AddedKan(player=p, from_player=pung.from_player, called=pung.called,
                      added=added, tiles=tuple(sorted([*pung.tiles, added])))
        self.melds[p].remove(pung)
        self.claim(ev, p, number)
        self.replacement = p

    def on_buhua(self, p: int, kinds: list[Kind], number: int) -> None:
        if kinds[0] < NUM_KINDS:
            raise problem("botzone-move", "BuHua sets a flower aside (H1-H8)")
        if Tile(FIRST_FLOWER + kinds[0] - NUM_KINDS) not in self.hands.hands[p]:
            self.on_draw(p, kinds, number)  # a flower drawn: the record names it only here
        tile = self.own(p, kinds[0])
        self.emit(Flower(player=p, tile=tile), number)
        self.replacement = p
        self.last = self.rec.events[-1]

    def on_hu(self, p: int, kinds: list[Kind], number: int) -> None:
        last = self.last
        if not isinstance(last, Draw | Discard | AddedKan) or (
                (last.player == p) != isinstance(last, Draw)):
            raise problem("botzone-move", f"seat {p} wins on no tile: the last move is "
                          "neither its draw nor another seat's discard or added kong")
        tsumo = isinstance(last, Draw)
        hand, win_tile = winning_hand(self.hands.hands[p], tsumo, self.drawn[p], last)
        if kinds and KIND_OF[win_tile] != kinds[0]:
            raise problem("botzone-move", f"seat {p} wins on another tile than the one "
                          "it takes")
        win = Win(winner=p, from_player=last.player, hand=hand, win_tile=win_tile,
                  melds=tuple(m.tiles for m in self.melds[p]))
        self.win = (win, number)

    def on_fan(self, number: int, line: str, words: list[str]) -> None:
        if self.win is None or len(words) > 3 or not words[1:2] or not words[1].isdigit():
            raise problem("botzone-syntax", "a Fan line follows a win: Fan TOTAL "
                          "NAME*COUNT+…")
        claims = []
        for part in (words[2].split("+") if len(words) == 3 else ()):
            name, _, count = part.partition("*")
            if not count.isdigit():
                raise problem("botzone-syntax", f"{part!r} is not NAME*COUNT",
                              line.index(part) + 1)
            claims.append(self.claim_of(name, int(count), number))
        self.fan = (int(words[1]), tuple(claims))

    def claim_of(self, name: str, count: int, number: int) -> YakuClaim:
        """One fan as a yaku claim: its notation word (``half-flush``, as the ``mcr``
        family names claims) and the fan it counts, points times count."""
        from mjlog.families.mcr.scorer import FAN_POINTS, fan_word

        english = FANS.get(name)
        word = fan_word(english) if english is not None else ""
        if word not in FAN_POINTS:
            self.diag("unknown-yaku", f"a fan mjlog does not know, {name!r} (kept as "
                      "written)", number)
            return YakuClaim(name=name, han=0)
        return YakuClaim(name=word, han=FAN_POINTS[word] * count)

    def on_huang(self, number: int) -> None:
        if self.win is not None:
            raise problem("botzone-syntax", "Huang after a win")
        self.draw_line = number

    def on_score(self, number: int, words: list[str]) -> None:
        try:
            deltas = tuple(int(w) for w in words[1:])
        except ValueError:
            deltas = ()
        if len(deltas) != 4:
            raise problem("botzone-syntax", "Score gives each seat's change, four "
                          "integers")
        if self.win is not None:
            win, at = self.win
            total, claims = self.fan
            self.emit(Win(winner=win.winner, from_player=win.from_player, hand=win.hand,
                          win_tile=win.win_tile, melds=win.melds, yaku=claims, han=total,
                          points=deltas[win.winner], deltas=deltas,
                          scores_before=(0, 0, 0, 0)), at)
        elif self.draw_line:
            self.emit(ExhaustiveDraw(hands=(None, None, None, None), deltas=deltas,
                                     scores_before=(0, 0, 0, 0)), self.draw_line)
        else:
            raise problem("botzone-syntax", "Score before the match's result (Hu or "
                          "Huang)")
        self.emit(RoundEnd(scores=deltas), number)
        self.emit(GameEnd(scores=deltas), number)
        self.scored = True

    def close(self) -> GameRecord:
        """The record as read; a match that stops before its Score line is warned of."""
        if not self.scored:
            self.diag("no-result", "the match stops before its Score line: what was read "
                      "is kept", self.start)
        return self.rec


_HANDLERS: Final = {
    "Draw": _Match.on_draw, "Play": _Match.on_play, "Chi": _Match.on_chi,
    "Peng": _Match.on_peng, "Gang": _Match.on_gang, "AnGang": _Match.on_angang,
    "BuGang": _Match.on_bugang, "BuHua": _Match.on_buhua, "Hu": _Match.on_hu,
}

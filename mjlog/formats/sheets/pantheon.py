"""Pantheon's textlog: a tournament's game written as text, one statement per hand.

Pantheon (MahjongPantheon/pantheon, its ``Mimir`` text log import) reads games
written as words. A game starts with a line of the four players in seat order (the
first dealer first) with their final scores, ``alias:score`` each; every further
statement is one hand:

* ``ron W from L 3han 30fu`` (or ``7han``, or ``yakuman``), optionally followed by the
  yaku in parentheses, ``(riichi pinfu dora 2)``, and by ``riichi A B`` naming who
  declared riichi in the hand; a multiple ron goes on with ``also W2 2han 40fu …``,
  on the same line or the next;
* ``tsumo W 3han 30fu (…) riichi A`` likewise;
* ``draw tempai A B riichi A`` (``tempai all``, ``tempai nobody``);
* ``chombo A``; and, read here too, ``abort riichi A`` for an abortive draw.

Games in one file are separated by blank lines and each starts with its header; ``#``
starts a comment line. The scores of the header are the game's final scores (before
uma), which the replay checks. The rules are not in the text: a game is read under
the ``ema`` preset (Pantheon's European tournaments), and ``mjlog audit --rules``
chooses another. This module does no file I/O.
"""

from __future__ import annotations

import re
from typing import Final

from mjlog.core.diagnostics import Diagnostic
from mjlog.core.events import YakuClaim
from mjlog.core.record import GameRecord
from mjlog.core.ruleset import PRESETS
from mjlog.formats.kinds import yaku_from_text
from mjlog.formats.sheets import (
    Hand,
    Place,
    Sheet,
    SheetError,
    WrittenWin,
    build,
    fail,
)

FORMAT = "pantheon"
OUTCOMES: Final = ("ron", "tsumo", "draw", "chombo", "abort")
_HEADER = re.compile(r"^\s*(\S+?)\s*:\s*(-?\d+)(?:\s+(\S+?)\s*:\s*(-?\d+)){2,3}\s*$")
_PAIR = re.compile(r"(\S+?)\s*:\s*(-?\d+)")
_HAN = re.compile(r"^(\d{1,2})han$", re.IGNORECASE)
_FU = re.compile(r"^(\d{2,3})fu$", re.IGNORECASE)
_RIICHI = ("riichi", "richi")
_PANTHEON_YAKU: Final = {
    "yakuhai1": "yakuhai", "yakuhai2": "yakuhai", "yakuhai3": "yakuhai",
    "yakuhai4": "yakuhai", "sananko": "sanankou", "iipeiko": "iipeikou",
    "tsumo": "menzen-tsumo", "daburu_riichi": "double-riichi",
    "double_riichi": "double-riichi", "ittsu": "ittsu", "itsu": "ittsu",
}
"""Pantheon's spellings of yaku where mjlog's own lookup does not know them (its
``yakuhaiN`` counts yakuhai sets without saying which)."""

Token = tuple[str, Place]


def looks_like(start: bytes) -> bool:
    """Whether a text starts (past comments and blank lines) with a textlog header line
    followed by a statement."""
    lines = [ln.strip() for ln in start.decode("utf-8", "replace").splitlines()]
    lines = [ln for ln in lines if ln and not ln.startswith("#")]
    return (len(lines) >= 2 and _HEADER.match(lines[0]) is not None
            and lines[1].split()[0].lower() in OUTCOMES)


def read(data: bytes, path: str = "", *, strict: bool = False) -> list[GameRecord]:
    """Every game of a textlog. A statement that cannot be read is a ``sheet-syntax``
    diagnostic at its line and column (raised in strict mode) and is left out."""
    text = data.decode("utf-8", "replace")
    games: list[tuple[Place, str, list[list[Token]]]] = []
    for number, line in enumerate(text.splitlines(), start=1):
        stripped = line.strip()
        if not stripped or stripped.startswith("#"):
            continue
        if _HEADER.match(stripped):
            games.append(((number, line.index(stripped) + 1), line, []))
        elif games:
            tokens = _tokens(line, number)
            statements = games[-1][2]
            if tokens[0][0].lower() == "also" and statements:
                statements[-1].extend(tokens)
            else:
                statements.append(tokens)
        else:
            games.append(((number, 1), "", [_tokens(line, number)]))
    return [_game(place, header, statements, path, strict)
            for place, header, statements in games]


def _tokens(line: str, number: int) -> list[Token]:
    """The words of a line with the columns they have in it; parentheses are words of
    their own."""
    out: list[Token] = []
    at = 0
    for word in line.replace("(", " ( ").replace(")", " ) ").split():
        k = line.find(word, at)
        k = at if k < 0 else k
        out.append((word, (number, k + 1)))
        at = k + len(word)
    return out


def _game(place: Place, header: str, statements: list[list[Token]], path: str,
          strict: bool) -> GameRecord:
    """One game from its header line and statements."""
    diagnostics: list[Diagnostic] = []
    players: list[str] = []
    final: list[int] | None = None
    if header:
        pairs = _PAIR.findall(header)
        players = [p for p, _ in pairs]
        final = [int(s) for _, s in pairs]
    else:
        fail(SheetError("a textlog game starts with its players and scores "
                        "(alias:score alias:score …)", place), strict, diagnostics)
    seats = {name.lower(): k for k, name in enumerate(players)}
    hands: list[Hand] = []
    for tokens in statements:
        try:
            hands.append(_statement(tokens, seats))
        except SheetError as exc:
            fail(exc, strict, diagnostics)
    rules = PRESETS["ema"].with_options(players=len(players)) if len(players) == 3 \
        else PRESETS["ema"]
    sheet = Sheet(source=FORMAT, players=players or ["?"] * 4, ruleset=rules, hands=hands,
                  final=final, final_place=place, place=place)
    return build(sheet, path, FORMAT, diagnostics)


class _Words:
    """A statement's words, read left to right."""

    def __init__(self, tokens: list[Token], seats: dict[str, int]) -> None:
        self.tokens = tokens
        self.seats = seats
        self.i = 0

    def peek(self) -> str:
        return self.tokens[self.i][0].lower() if self.i < len(self.tokens) else ""

    def place(self) -> Place:
        k = min(self.i, len(self.tokens) - 1)
        line, column = self.tokens[k][1]
        return (line, column + (len(self.tokens[k][0]) if self.i >= len(self.tokens) else 0))

    def take(self) -> str:
        word = self.peek()
        self.i += 1
        return word

    def player(self, what: str) -> int:
        place, word = self.place(), self.take()
        if word not in self.seats:
            raise SheetError(f"{what}: {word or 'nothing'!r} is not one of the players "
                             f"({', '.join(self.seats)})", place)
        return self.seats[word]


def _statement(tokens: list[Token], seats: dict[str, int]) -> Hand:
    """One hand from a statement's words."""
    w = _Words(tokens, seats)
    place = tokens[0][1]
    outcome = w.take()
    hand = Hand(place=place, result=outcome)
    if outcome in ("ron", "tsumo"):
        _wins(w, hand, outcome)
    elif outcome == "draw":
        _draw(w, hand)
    elif outcome == "chombo":
        hand.offender = w.player("chombo")
    elif outcome != "abort":
        raise SheetError(f"a statement starts with ron, tsumo, draw, chombo or abort, not "
                         f"{outcome!r}", place)
    _riichi(w, hand)
    if w.peek():
        raise SheetError(f"{w.peek()!r} is not expected here", w.place())
    return hand


def _wins(w: _Words, hand: Hand, outcome: str) -> None:
    """``W from L value …`` (ron) or ``W value …`` (tsumo), then any ``also`` wins."""
    winner_place = w.place()
    winner = w.player(outcome)
    loser = winner
    if outcome == "ron":
        place = w.place()
        if w.take() != "from":
            raise SheetError("a ron names its discarder: ron WINNER from DISCARDER", place)
        loser_place = w.place()
        loser = w.player("ron … from")
        if loser == winner:
            raise SheetError("a ron is won off another player's discard (a self-drawn win "
                             "is a tsumo)", loser_place)
    while True:
        win = WrittenWin(winner=winner, from_player=loser, place=winner_place)
        _value(w, win)
        hand.wins.append(win)
        _riichi(w, hand)
        if w.peek() != "also":
            return
        w.take()
        if outcome != "ron":
            raise SheetError("only a ron has further winners (also)", w.place())
        winner_place = w.place()
        winner = w.player("also")


def _value(w: _Words, win: WrittenWin) -> None:
    """``3han 30fu``, ``7han`` or ``yakuman``, then a yaku list in parentheses."""
    place, word = w.place(), w.take()
    han = _HAN.match(word)
    if word == "yakuman":
        win.yakuman = True
    elif han is None:
        raise SheetError(f"a win's value is NhAN [NNfu] or yakuman, not {word!r}", place)
    else:
        win.han = int(han.group(1))
        fu = _FU.match(w.peek())
        if fu is not None:
            win.fu = int(fu.group(1))
            w.take()
        elif win.han < 5:
            raise SheetError(f"a win of {win.han} han needs its fu (e.g. {win.han}han 30fu)",
                             w.place())
    if w.peek() == "(":
        win.yaku = _yaku(w)


def _yaku(w: _Words) -> tuple[YakuClaim, ...]:
    """A yaku list ``( riichi pinfu dora 2 )``, as written: no han but the dora count."""
    open_place = w.place()
    w.take()
    found: list[YakuClaim] = []
    while w.peek() != ")":
        if not w.peek():
            raise SheetError("the yaku list has no closing parenthesis", open_place)
        word = w.take()
        if word == "dora":
            count = int(w.take()) if w.peek().isdigit() else 1
            found.append(YakuClaim(name="dora", han=count))
        else:
            found.append(YakuClaim(name=_PANTHEON_YAKU.get(word) or yaku_from_text(word)
                                   or word, han=0))
    w.take()
    return tuple(found)


def _draw(w: _Words, hand: Hand) -> None:
    """``tempai A B``, ``tempai all`` or ``tempai nobody``."""
    if not w.peek().startswith("tempai"):
        raise SheetError("a draw says who was ready: draw tempai A B (all, nobody)", w.place())
    w.take()
    if w.peek() == "all":
        w.take()
        hand.ready = sorted(set(w.seats.values()))
    elif w.peek() == "nobody":
        w.take()
    else:
        while w.peek() in w.seats:
            hand.ready.append(w.player("tempai"))
        if not hand.ready:
            raise SheetError("draw tempai names the ready players, all or nobody", w.place())


def _riichi(w: _Words, hand: Hand) -> None:
    """``riichi A B``: who declared riichi in the hand (deposited a stick)."""
    if w.peek() not in _RIICHI:
        return
    if not hand.riichi:
        hand.riichi_place = w.place()
    w.take()
    start = len(hand.riichi)
    while w.peek() in w.seats:
        hand.riichi.append(w.player("riichi"))
    if len(hand.riichi) == start:
        raise SheetError("riichi names who declared it", w.place())

"""Tenhou mjlog XML (``<mjloggm ver="2.3">``) to canonical events.

Layers: bytes (gzip or plain) → an lxml tree, parsed with entity resolution,
DTD loading and network access off → one handler per element → events.

Format facts kept in this module only:

* ``T``/``U``/``V``/``W`` + id are draws of seats 0..3, ``D``/``E``/``F``/``G``
  + id their discards; a discard of the tile just drawn is tsumogiri.
* ``N m=…`` is a meld packed in a bit field (chi bit 0x4, pon 0x8, added kan
  0x10, three-player kita 0x20, otherwise a closed or open kan); the low two
  bits give the giver relative to the caller.
* ``REACH step=1`` announces that the next discard declares riichi,
  ``step=2`` that the riichi stands (stick deposited).
* scores in ``INIT ten``, ``sc`` and ``owari`` are in hundreds.
* ``GO type`` bits: 0x02 no red fives, 0x04 no open tanyao, 0x08 hanchan,
  0x10 three players.
* A record with ``owari`` is complete; one without it stops early, which gives
  one ``truncated`` diagnostic.

The importer does not judge the game (the replay does); it reports only what
it cannot read. Everything readable before a problem is kept.

Diagnostic codes (:data:`DIAGNOSTIC_CODES`): ``xml-syntax`` (malformed XML;
what parses before it is read), ``not-mjlog`` (another XML document),
``bad-element`` (an element that cannot be read; skipped), ``unknown-element``
(info: an element mjlog does not know; kept as an ``Unknown`` event),
``missing-go`` (no ``<GO>``), ``round-without-result``, ``truncated`` (the
record stops before its game end) and ``no-final-scores`` (an empty
``owari``), ``xml-dtd-refused`` (a DOCTYPE, not read) and ``bad-gzip`` (a
damaged or cut gzip stream; what decompressed before it is read, and with
``strict`` it raises :class:`InputError`).
"""

from __future__ import annotations

from array import array
from collections.abc import Callable
from functools import lru_cache
from operator import add
from typing import Final, cast
from urllib.parse import unquote

from lxml import etree

from mjlog.core import native
from mjlog.core.diagnostics import Diagnostic, InputError, Severity, Src
from mjlog.core.events import (
    DISCARDS,
    DRAWS,
    AbortiveDraw,
    AddedKan,
    Chi,
    ClosedKan,
    Discard,
    Disconnect,
    DoraReveal,
    Event,
    ExhaustiveDraw,
    GameEnd,
    GameStart,
    Kita,
    OpenKan,
    Pairs,
    PlayerInfo,
    Pon,
    Reconnect,
    RiichiAccepted,
    RoundEnd,
    RoundStart,
    Unknown,
    Win,
    YakuClaim,
    round_label,
)
from mjlog.core.record import GameRecord
from mjlog.core.ruleset import PRESETS, Ruleset, with_rounding_of
from mjlog.core.tiles import NUM_TILES, Tile
from mjlog.families.riichi.scoring.yaku import yaku_name
from mjlog.formats.compression import gunzip
from mjlog.formats.origin import origin_of

FORMAT = "tenhou-xml"
DIAGNOSTIC_CODES = frozenset({
    "bad-gzip", "xml-dtd-refused", "xml-syntax", "not-mjlog", "bad-element",
    "unknown-element", "missing-go",
    "round-without-result", "truncated", "no-final-scores",
})

# ---------------------------------------------------------------- tables

_DRAW_LETTERS = "TUVW"
_DISCARD_LETTERS = "DEFG"

# Every draw and discard is an immutable value, so one object per (seat, tile,
# flags) serves every game (mjlog.core.events.DRAWS, DISCARDS): the hot loop looks a tag
# up and allocates nothing.
_DRAWS: Final = DRAWS[:4 * NUM_TILES]
_RINSHAN_DRAWS: Final = DRAWS[4 * NUM_TILES:]
_DISCARDS: Final = DISCARDS[:4 * NUM_TILES]
_TSUMOGIRI: Final = DISCARDS[4 * NUM_TILES:8 * NUM_TILES]

_Fast = tuple[Event, Event | None, int, int]
_FAST: Final[tuple[dict[str, _Fast], ...]] = tuple(
    {
        **{f"{_DRAW_LETTERS[p]}{t}": (_DRAWS[p * NUM_TILES + t], None, p, t)
           for p in range(players) for t in range(NUM_TILES)},
        **{f"{_DISCARD_LETTERS[p]}{t}": (_DISCARDS[p * NUM_TILES + t],
                                         _TSUMOGIRI[p * NUM_TILES + t], p, t)
           for p in range(players) for t in range(NUM_TILES)},
    }
    for players in range(5)
)
"""The hot loop's move tags of a game with 0..4 players (index with the player count):
tag → (event, its tsumogiri form or None for a draw, seat, tile); e.g. "D109" → (discard of
109 by seat 0, its tsumogiri form, 0, 109)."""
_NO_MOVES: Final[dict[str, _Fast]] = {}

DAN_NAMES: Final = (
    "新人", "9級", "8級", "7級", "6級", "5級", "4級", "3級", "2級", "1級",
    "初段", "二段", "三段", "四段", "五段", "六段", "七段", "八段", "九段", "十段", "天鳳",
)
"""Tenhou's ranks by the index used in ``UN dan``."""

LIMIT_NAMES: Final = ("", "mangan", "haneman", "baiman", "sanbaiman", "yakuman")
"""``AGARI ten`` limit codes 0..5."""

ABORTIVE: Final = {
    "yao9": "nine-terminals",
    "reach4": "four-riichi",
    "ron3": "triple-ron",
    "kan4": "four-kans",
    "kaze4": "four-winds",
}
"""``RYUUKYOKU type`` values of abortive draws."""

class _RefuseAll(etree.Resolver):
    """Answers every request for an external document (a DTD, an entity) with nothing,
    so that the parser opens no file and no address, whatever a record names."""

    # lxml calls resolve(url, public id, context); lxml-stubs leave the context out
    def resolve(self, system_url: str | None, public_id: str | None,  # type: ignore[override]
                context: object) -> object:
        return self.resolve_string("", context, base_url=None)


def _parser(recover: bool) -> etree.XMLParser:
    parser = etree.XMLParser(
        resolve_entities=False, no_network=True, load_dtd=False, dtd_validation=False,
        huge_tree=False, remove_pis=True, collect_ids=False, recover=recover)
    parser.resolvers.add(_RefuseAll())
    return parser


_SAFE_PARSER: Final = _parser(recover=False)
_RECOVER_PARSER: Final = _parser(recover=True)


def _without_doctype(text: bytes) -> tuple[bytes, Diagnostic | None]:
    """``text`` with a document type declaration blanked out (newlines kept, so every
    position stays), and the ``xml-dtd-refused`` diagnostic that says where it was.

    A DOCTYPE can name external files and define entities; no Tenhou record has
    one, so mjlog reads none: the record is read as if it were not there, and
    what it names is never opened. Other text is returned as it is.
    """
    at = _doctype_at(text)
    if at < 0:
        return text, None
    end, depth, quote = at, 0, 0
    while end < len(text):
        c = text[end]
        if quote:
            quote = 0 if c == quote else quote
        elif c in b"\"'":
            quote = c
        elif c in b"[]":
            depth += 1 if c == ord("[") else -1
        elif c == ord(">") and depth <= 0:
            break
        end += 1
    blank = bytes(c if c == ord("\n") else ord(" ") for c in text[at:end + 1])
    line = text.count(b"\n", 0, at) + 1
    column = at - (text.rfind(b"\n", 0, at) + 1) + 1
    return text[:at] + blank + text[end + 1:], Diagnostic(
        code="xml-dtd-refused", severity=Severity.WARNING, src=Src(line=line, column=column),
        message="a document type declaration (DTD) is not read: nothing it names is "
                "opened and its entities are not defined")


def _doctype_at(text: bytes) -> int:
    """Where a DOCTYPE declaration starts in the prolog (before the root element), or -1."""
    at = text.find(b"<!DOCTYPE")
    if at < 0:
        return -1
    root = text.find(b"<", 0)
    while root >= 0 and text[root + 1:root + 2] in (b"?", b"!"):
        if text.startswith(b"<!DOCTYPE", root):
            return root
        close = b"-->" if text.startswith(b"<!--", root) else b">"
        root = text.find(b"<", text.find(close, root) + 1)
    return -1


_YAKU_CLAIMS: dict[tuple[int, int], YakuClaim] = {}


def _yaku_claim(yaku_id: int, han: int) -> YakuClaim:
    claim = _YAKU_CLAIMS.get((yaku_id, han))
    if claim is None:
        claim = _YAKU_CLAIMS[yaku_id, han] = YakuClaim(name=yaku_name(yaku_id), han=han)
    return claim


def ruleset_from_go(go_type: int) -> Ruleset:
    """The ruleset a Tenhou ``GO type`` suggests (players, red fives, kuitan, length).

    Bit 0x200 marks the chip (祝儀) lobbies, whose records pay 30 fu 4 han
    as a mangan (kiriage).
    """
    sanma = bool(go_type & 0x10)
    return PRESETS["tenhou-sanma" if sanma else "tenhou"].with_options(
        red_fives=not go_type & 0x02,
        open_tanyao=not go_type & 0x04,
        length="south" if go_type & 0x08 else "east",
        kiriage=bool(go_type & 0x200),
    )


_RULES_OF: dict[tuple[int, int | None], Ruleset] = {}
"""Rulesets (immutable) by ``GO type`` and the starting score, as a game start suggests them."""


# ---------------------------------------------------------------- melds


def decode_meld(who: int, m: int) -> Event:
    """Decode a Tenhou meld bit field into a call event. Raises ``ValueError`` if invalid."""
    rel = m & 3
    frm = (who + rel) % 4
    if m & 0x4:
        t = (m & 0xFC00) >> 10
        called_index, t = t % 3, t // 3
        base = (t // 7) * 9 + t % 7
        if base + 2 >= 27:
            raise ValueError(f"chi bit field {m} names no run")
        tiles = tuple(Tile((base + i) * 4 + ((m >> (3 + 2 * i)) & 3)) for i in range(3))
        return Chi(player=who, from_player=frm, called=tiles[called_index], tiles=tiles)
    if m & 0x18:
        t = (m & 0xFE00) >> 9
        called_index, t = t % 3, t // 3
        if t >= 34:
            raise ValueError(f"pon bit field {m} names no tile")
        unused = (m & 0x60) >> 5
        base = t * 4
        three = tuple(Tile(base + i) for i in range(4) if i != unused)
        if m & 0x8:
            return Pon(player=who, from_player=frm, called=three[called_index], tiles=three)
        added = Tile(base + unused)
        return AddedKan(
            player=who, from_player=frm, called=three[called_index], added=added,
            tiles=(*three, added),
        )
    if m & 0x20:
        tile = m >> 8
        if tile >= NUM_TILES:
            raise ValueError(f"kita bit field {m} names no tile")
        return Kita(player=who, tile=Tile(tile))
    hai0 = (m & 0xFF00) >> 8
    if hai0 >= NUM_TILES:
        raise ValueError(f"kan bit field {m} names no tile")
    base = hai0 // 4 * 4
    four = tuple(Tile(base + i) for i in range(4))
    if rel == 0:
        return ClosedKan(player=who, tiles=four)
    return OpenKan(player=who, from_player=frm, called=Tile(hai0), tiles=four)


# ---------------------------------------------------------------- reader


_MELD_CACHE: dict[tuple[str | None, str | None], Event] = {}
_MELD_CACHE_SIZE: Final = 2048
"""Decoded melds by their (who, m) attributes: events are immutable, so they are shared."""


_unquote: Final = lru_cache(maxsize=4096)(unquote)
"""A player's name decoded from the ``UN`` attribute, once per name (an archive's players
recur): ``unquote`` was a fifth of reading a game's header."""


class _BadElement(Exception):
    """An element that cannot be read; becomes a diagnostic, the element is skipped."""


def _ints(text: str | None, what: str) -> list[int]:
    if text is None:
        raise _BadElement(f"missing attribute {what}")
    try:
        return list(map(int, text.split(","))) if text else []
    except ValueError:
        if not text.strip():
            return []
        raise _BadElement(f"attribute {what}={text!r} is not a list of integers") from None


_TILE_OF: Final[dict[str, Tile]] = {str(t): Tile(t) for t in range(NUM_TILES)}
_tile_of = _TILE_OF.__getitem__


def _tiles(text: str | None, what: str) -> tuple[Tile, ...]:
    if not text:
        if text is None:
            raise _BadElement(f"missing attribute {what}")
        return ()
    try:
        return tuple(map(_tile_of, text.split(",")))
    except KeyError:
        raise _BadElement(f"attribute {what}={text!r} has a value that is not a tile id") from None


_SEATS: Final = {"0": 0, "1": 1, "2": 2, "3": 3}

_YAKU_OF: dict[tuple[str, str], tuple[tuple[YakuClaim, ...], int]] = {}
"""Decoded ``yaku`` and ``yakuman`` attributes with their han total (a few thousand forms)."""


def _yaku_claims(yaku_text: str | None, yakuman_text: str | None) -> tuple[
        tuple[YakuClaim, ...], int]:
    """An ``AGARI``'s claims, from ``yaku`` (id, han pairs) and ``yakuman`` (ids); their han."""
    key = (yaku_text or "", yakuman_text or "")
    found = _YAKU_OF.get(key)
    if found is not None:
        return found
    vals = _ints(yaku_text, "yaku")
    if len(vals) % 2:
        raise _BadElement("yaku has an odd number of values")
    claims = [_yaku_claim(i, h) for i, h in zip(vals[::2], vals[1::2], strict=True)]
    claims += [_yaku_claim(i, 13) for i in _ints(yakuman_text, "yakuman")]
    found = (tuple(claims), sum(y.han for y in claims))
    if len(_YAKU_OF) >= _MELD_CACHE_SIZE:  # flat memory over any archive
        _YAKU_OF.clear()
    _YAKU_OF[key] = found
    return found


_MELD_TILES: dict[str, tuple[Tile, ...]] = {}
"""The tiles of a meld by its bit field as written (an ``AGARI``'s ``m`` lists them)."""


def _meld_tiles_of(text: str) -> tuple[tuple[Tile, ...], ...]:
    """Decode an ``AGARI``'s ``m`` (meld bit fields) to each meld's tiles."""
    if not text or text.isspace():
        return ()
    melds = []
    for code in text.split(","):
        tiles = _MELD_TILES.get(code)
        if tiles is None:
            try:
                tiles = _meld_tiles(decode_meld(0, _int(code, "m")))
            except ValueError as exc:
                raise _BadElement(str(exc)) from None
            if len(_MELD_TILES) < 200_000:
                _MELD_TILES[code] = tiles
        melds.append(tiles)
    return tuple(melds)


def _shown(tag: str) -> str:
    """A tag as a message shows it: whole up to 40 characters, cut with an ellipsis after."""
    return tag if len(tag) <= 40 else tag[:40] + "…"


def _int(text: str | None, what: str) -> int:
    vals = _ints(text, what)
    if len(vals) != 1:
        raise _BadElement(f"attribute {what}={text!r} is not one integer")
    return vals[0]


class _Reader:
    """Walks the root's children once, turning each into events."""

    def __init__(self, path: str, strict: bool, multiline: bool) -> None:
        self.rec = GameRecord(path=path, format=FORMAT, position_kind="xml")
        if multiline:
            self.rec.lines = array("i")
        self.strict = strict
        self.players = 4
        self.meta: list[tuple[str, str]] = []
        self.go_type: int | None = None
        self.player_info: list[PlayerInfo] = []
        self.first_dealer = 0
        self.started = False
        self.early: list[tuple[Event, int, int]] = []
        self.start_index = 0
        self.start_line = 0
        self.last_draw = [-1, -1, -1, -1]
        self.rinshan_next = [False, False, False, False]
        self.riichi_pending = [False, False, False, False]
        self.round = ""
        self.round_open = False
        self.round_result = False
        self.end_scores: tuple[int, ...] | None = None
        self.final_points: list[str] = []
        """The final points the record's ``owari`` states (they decide its rounding)."""
        self.ended = False
        self.index = 0
        self.line = 1
        self.last_tag = ""
        self.handlers: dict[str, Callable[[etree._Element], None]] = {
            "SHUFFLE": self._shuffle, "GO": self._go, "UN": self._un, "TAIKYOKU": self._taikyoku,
            "INIT": self._init, "N": self._meld, "REACH": self._reach, "DORA": self._dora,
            "AGARI": self._agari, "RYUUKYOKU": self._ryuukyoku, "BYE": self._bye,
        }

    # -- output

    def emit(self, ev: Event) -> None:
        if not self.started and not isinstance(ev, GameStart):
            # e.g. a <BYE> before the first round: kept, and emitted after the game start
            self.early.append((ev, self.index, self.line))
            return
        rec = self.rec
        rec.events.append(ev)
        rec.positions.append(self.index)
        if rec.lines is not None:
            rec.lines.append(self.line)

    def diag(self, code: str, message: str, severity: Severity = Severity.ERROR) -> None:
        d = Diagnostic(
            code=code, message=message, severity=severity,
            src=Src(line=self.line, index=self.index),
        )
        if self.strict and severity is Severity.ERROR:
            raise InputError(d)
        self.rec.diagnostics.append(d)

    # -- main loop

    def run(self, root: etree._Element) -> GameRecord:
        """Turn the root's children into events.

        Draws and discards (nine elements in ten) take the hot path: one table
        look-up and one append. They come in runs between other elements, each
        producing exactly one event at consecutive element indices, so their
        positions (and lines) are filled in for the whole run when the next
        other element comes, not one by one. A riichi discard or a replacement
        draw is announced by the element before it, which switches the hot
        path off until that move is read.
        """
        events = self.rec.events
        append = events.append
        lines = self.rec.lines
        source_lines = [_line(el) for el in root] if lines is not None else []
        one_line = _line(root)  # the line of every element when the document has one
        last_draw = self.last_draw
        moves = _NO_MOVES  # the move tags read on the hot path now: none outside a round
        index = -1  # the last element handled off the hot path
        emitted = 0  # len(events) after it
        for el in root:
            fast = moves.get(el.tag)
            if fast is not None:
                ev, tsumogiri, p, t = fast
                if tsumogiri is None:  # a draw
                    last_draw[p] = t
                    append(ev)
                else:
                    append(tsumogiri if last_draw[p] == t else ev)
                    last_draw[p] = -1
                continue
            start = index + 1
            index = start + len(events) - emitted
            if index > start:  # the run of draws and discards before this element
                self._fill_run(start, index, source_lines)
            tag = el.tag
            if isinstance(tag, str):  # not a comment or processing instruction
                self.index = index
                self.line = source_lines[index] if lines is not None else one_line
                self.last_tag = tag
                self._element(tag, el)
                moves = _FAST[self.players] if self.round_open and not (
                    True in self.riichi_pending or True in self.rinshan_next) else _NO_MOVES
            emitted = len(events)
        start = index + 1
        index = start + len(events) - emitted
        if index > start:  # the record ends with a run of draws and discards
            self._fill_run(start, index, source_lines)
            last = root[index - 1]
            self.index, self.line, self.last_tag = index - 1, _line(last), str(last.tag)
        self._finish()
        return self.rec

    def _fill_run(self, start: int, stop: int, source_lines: list[int]) -> None:
        """Positions (and lines) of a run of hot-path events: elements ``start..stop-1``."""
        rec = self.rec
        rec.positions.extend(range(start, stop))
        if rec.lines is not None:
            rec.lines.extend(source_lines[start:stop])

    def _element(self, tag: str, el: etree._Element) -> None:
        try:
            handler = self.handlers.get(tag)
            if handler is not None:
                handler(el)
            elif tag[:1] in "TUVWDEFG" and tag[1:].isdigit():  # any digits, ² and ٣ too
                self._move(tag)
            else:
                self._unknown(el)
        except _BadElement as exc:
            self.diag("bad-element", f"<{_shown(tag)}> skipped: {exc}")

    def _move(self, tag: str) -> None:
        """A draw or discard off the hot path: a riichi discard, a bad seat or tile, no round."""
        digits = tag[1:]
        if not (digits.isascii() and len(digits) <= 3):
            raise _BadElement("not a tile number (0 to 135)")
        letter, t = tag[0], int(digits)
        is_discard = letter in _DISCARD_LETTERS
        p = (_DISCARD_LETTERS if is_discard else _DRAW_LETTERS).index(letter)
        if not self.round_open:
            raise _BadElement("a move outside a round")
        if t >= NUM_TILES or p >= self.players:
            raise _BadElement(f"no tile {t} or no seat {p} in this game")
        k = p * NUM_TILES + t
        if not is_discard:
            rinshan, self.rinshan_next[p] = self.rinshan_next[p], False
            self.last_draw[p] = t
            self.emit((_RINSHAN_DRAWS if rinshan else _DRAWS)[k])
            return
        tsumo = self.last_draw[p] == t
        self.last_draw[p] = -1
        riichi, self.riichi_pending[p] = self.riichi_pending[p], False
        if riichi:
            self.emit(Discard(player=p, tile=Tile(t), tsumogiri=tsumo, riichi=True))
        else:
            self.emit((_TSUMOGIRI if tsumo else _DISCARDS)[k])

    def _unknown(self, el: etree._Element) -> None:
        attrs = tuple(_attributes(el))
        self.emit(Unknown(tag=str(el.tag), attrs=attrs, text=el.text or ""))
        self.diag("unknown-element", f"<{_shown(str(el.tag))}> is not a known mjlog element; kept",
                  Severity.INFO)

    # -- header

    def _shuffle(self, el: etree._Element) -> None:
        self.shuffle(_attributes(el))

    def _go(self, el: etree._Element) -> None:
        self.go(_attributes(el))

    def _un(self, el: etree._Element) -> None:
        self.un(_attributes(el))

    def _taikyoku(self, el: etree._Element) -> None:
        self.taikyoku(_attributes(el))

    # The header's elements by their attributes (in document order), which the native
    # core's statistics hand over too (:func:`game_start_of`).

    def shuffle(self, attrs: list[tuple[str, str]]) -> None:
        for k, v in attrs:
            self.meta.append((f"shuffle.{k}", v))

    def go(self, attrs: list[tuple[str, str]]) -> None:
        self.go_type = _int(dict(attrs).get("type"), "type")
        if self.go_type & 0x10:
            self.players = 3
        for k, v in attrs:
            self.meta.append((f"go.{k}", v))

    def un(self, attrs: list[tuple[str, str]]) -> None:
        if self.player_info:  # a reconnection: <UN n1="name"/>
            for key, value in attrs:
                if len(key) == 2 and key[0] == "n" and key[1] in "0123":
                    self.emit(Reconnect(player=int(key[1]), name=unquote(value)))
            return
        get = dict(attrs).get
        names = [_unquote(get(f"n{i}", "")) for i in range(4)]
        if self.go_type is None and not names[3]:
            self.players = 3
        dans = get("dan", "").split(",")
        rates = get("rate", "").split(",")
        sexes = get("sx", "").split(",")
        for i in range(self.players):
            self.player_info.append(PlayerInfo(
                name=names[i], rank=_dan(dans, i), rating=_rate(rates, i),
                sex=sexes[i] if i < len(sexes) else "",
            ))
        for k, v in attrs:
            if k not in ("n0", "n1", "n2", "n3", "dan", "rate", "sx"):
                self.meta.append((f"un.{k!s}", str(v)))

    def taikyoku(self, attrs: list[tuple[str, str]]) -> None:
        self.first_dealer = _int(dict(attrs).get("oya", "0"), "oya")
        self.start_index, self.start_line = self.index, self.line

    def _start_game(self, first_scores: list[int]) -> None:
        if self.go_type is None:  # as many players as <UN> names (three when n3 is empty)
            seats = "three" if self.players == 3 else "four"
            self.diag("missing-go", "no <GO> element before the first round; assuming "
                      f"a {seats}-player east-south game with red fives", Severity.WARNING)
        go_type = self.go_type if self.go_type is not None else 0x09 | (
            0x10 if self.players == 3 else 0)
        start = first_scores[0] if first_scores and first_scores.count(first_scores[0]) == len(
            first_scores) else None
        rules = _RULES_OF.get((go_type, start))
        if rules is None:
            rules = ruleset_from_go(go_type)
            if start is not None:
                rules = rules.with_options(starting_score=start)
            if len(_RULES_OF) < 1000:
                _RULES_OF[go_type, start] = rules
        rules = with_rounding_of(rules, self.final_points)
        players = tuple(self.player_info) or tuple(
            PlayerInfo(name="") for _ in range(self.players)
        )
        index, line = self.index, self.line
        self.index, self.line = self.start_index, self.start_line
        meta = tuple(self.meta)
        self.emit(GameStart(
            source=FORMAT, players=players, first_dealer=self.first_dealer, ruleset=rules,
            meta=meta, origin=origin_of(meta, source=FORMAT, ruleset_name=rules.name,
                                        path=self.rec.path),
        ))
        self.started = True
        for ev, at, line in self.early:
            self.index, self.line = at, line
            self.emit(ev)
        self.index, self.line = index, line

    # -- rounds

    def _close_round(self) -> None:
        if self.round_open and self.round_result:
            self.emit(RoundEnd(scores=self.end_scores))
        self.round_open = False

    def _init(self, el: etree._Element) -> None:
        keys = cast(list[str], el.keys())  # lxml gives str in Python 3
        seed_text: str | None
        ten: str | None
        oya: str | None
        texts: list[str | None]
        if keys == _INIT_ORDER:  # as Tenhou writes it: every value in one call
            seed_text, ten, oya, *texts = cast(list[str | None], el.values())
            extra: Pairs = ()
        else:
            seed_text, ten, oya = el.get("seed"), el.get("ten"), el.get("oya")
            texts = [el.get("hai0"), el.get("hai1"), el.get("hai2"), el.get("hai3")]
            extra = _extra(el, _INIT_ATTRS)
        seed = _ints(seed_text, "seed")
        if len(seed) != 6:
            raise _BadElement(f"seed={seed_text!r} does not have six values")
        n = self.players
        scores = tuple([s * 100 for s in _ints(ten, "ten")][:n])
        del texts[n:]
        if None in texts or any(t.count(",") != 12 for t in texts):  # type: ignore[union-attr]
            raise _BadElement("a dealt hand (hai0..hai3) is missing or not 13 tiles")
        dealt = _tiles(",".join(texts), "hai0..hai3")  # type: ignore[arg-type]
        hands = tuple([tuple(sorted(dealt[i:i + 13])) for i in range(0, 13 * n, 13)])
        dealer = _int(oya, "oya")
        if len(scores) != n or len(dealt) != 13 * n or not 0 <= seed[5] < NUM_TILES \
                or not 0 <= dealer < n:
            raise _BadElement("scores, hands or dora indicator do not fit the table")
        if self.round_open:
            if not self.round_result:
                self.diag("round-without-result", f"round {self.round} ends without a result")
            self._close_round()
        if not self.started:
            self._start_game(list(scores))
        wind, number = divmod(seed[0], 4)
        self.round = round_label(wind, number + 1, seed[1])
        self.emit(RoundStart(
            round_wind=wind, round_number=number + 1, honba=seed[1], kyotaku=seed[2],
            dealer=dealer, scores=scores, dora_indicator=Tile(seed[5]), hands=hands,
            dice=(seed[3] + 1, seed[4] + 1), extra=extra,
        ))
        self.round_open = True
        self.round_result = False
        self.last_draw[:] = _NO_DRAWS
        self.rinshan_next[:] = _NO_FLAGS
        self.riichi_pending[:] = _NO_FLAGS

    def _require_round(self) -> None:
        if not self.round_open:
            raise _BadElement("not inside a round")

    def _who(self, text: str | None) -> int:
        """The seat in a ``who`` (or ``fromWho``) attribute, which must be one of this game."""
        who = _SEATS.get(text)  # type: ignore[arg-type]
        if who is not None and who < self.players:
            return who
        who = _int(text, "who")
        if not 0 <= who < self.players:
            raise _BadElement(f"who={who} is not a seat of this game")
        return who

    def _meld(self, el: etree._Element) -> None:
        self._require_round()
        key = (el.get("who"), el.get("m"))
        ev = _MELD_CACHE.get(key)
        if ev is None:
            who = self._who(key[0])
            try:
                ev = decode_meld(who, _int(key[1], "m"))
            except ValueError as exc:
                raise _BadElement(str(exc)) from None
            if len(_MELD_CACHE) >= _MELD_CACHE_SIZE:  # flat memory over any archive
                _MELD_CACHE.clear()
            _MELD_CACHE[key] = ev
        elif ev.player >= self.players:  # type: ignore[union-attr]
            raise _BadElement(f"who={ev.player} is not a seat of this game")  # type: ignore[union-attr]
        who = ev.player  # type: ignore[union-attr]
        self.emit(ev)
        self.last_draw[who] = -1
        if isinstance(ev, ClosedKan | OpenKan | AddedKan | Kita):
            self.rinshan_next[who] = True

    def _reach(self, el: etree._Element) -> None:
        self._require_round()
        who = self._who(el.get("who"))
        step_text = el.get("step")
        step = 1 if step_text == "1" else _int(step_text, "step")
        if step == 1:
            self.riichi_pending[who] = True
        elif step == 2:
            ten = el.get("ten")
            scores = tuple(s * 100 for s in _ints(ten, "ten"))[: self.players] if ten else None
            self.emit(RiichiAccepted(player=who, scores=scores))
        else:
            raise _BadElement(f"step={step} is neither 1 nor 2")

    def _dora(self, el: etree._Element) -> None:
        self._require_round()
        hai = _tiles(el.get("hai"), "hai")
        if len(hai) != 1:
            raise _BadElement("hai is not one tile")
        self.emit(DoraReveal(indicator=hai[0]))

    def _score_pairs(self, text: str | None) -> tuple[tuple[int, ...], tuple[int, ...]]:
        sc = _ints(text, "sc")
        n2 = 2 * self.players
        if len(sc) < n2:
            raise _BadElement(f"sc has {len(sc)} values, {n2} expected")
        before = tuple([v * 100 for v in sc[0:n2:2]])
        deltas = tuple([v * 100 for v in sc[1:n2:2]])
        self.end_scores = tuple(map(add, before, deltas))
        return before, deltas

    def _ba(self, text: str | None) -> tuple[int, int]:
        ba = _ints(text, "ba")
        if len(ba) != 2:
            raise _BadElement("ba does not have two values")
        return ba[0], ba[1]

    def _agari(self, el: etree._Element) -> None:
        self._require_round()
        a = dict(_attributes(el))
        get = a.get
        who = self._who(get("who"))
        frm_text = get("fromWho")
        frm = _SEATS.get(frm_text)  # type: ignore[arg-type]
        if frm is None:
            frm = _int(frm_text, "fromWho")
        honba, kyotaku = self._ba(get("ba", "0,0"))
        ten = _ints(get("ten"), "ten")
        if len(ten) != 3:
            raise _BadElement("ten does not have three values")
        yaku, han = _yaku_claims(get("yaku", ""), get("yakuman", ""))
        melds = _meld_tiles_of(get("m", ""))
        machi = _tiles(get("machi"), "machi")
        before, deltas = self._score_pairs(get("sc"))
        pao = get("paoWho")
        self.emit(Win(
            winner=who, from_player=frm, hand=_tiles(get("hai"), "hai"),
            win_tile=machi[0] if machi else Tile(0), melds=melds, yaku=yaku,
            fu=ten[0], han=han, points=ten[1], limit=_limit(ten[2]),
            deltas=deltas, scores_before=before, honba=honba, kyotaku=kyotaku,
            dora_indicators=_tiles(get("doraHai", ""), "doraHai"),
            ura_indicators=_tiles(get("doraHaiUra", ""), "doraHaiUra"),
            pao=None if pao is None else _int(pao, "paoWho"),
            extra=() if _AGARI_ATTRS.issuperset(a) else _extra_of(a, _AGARI_ATTRS),
        ))
        self.round_result = True
        self._owari(get("owari"))

    def _ryuukyoku(self, el: etree._Element) -> None:
        self._require_round()
        honba, kyotaku = self._ba(el.get("ba", "0,0"))
        before: tuple[int, ...] | None = None
        deltas: tuple[int, ...] = ()
        if el.get("sc") is not None:
            before, deltas = self._score_pairs(el.get("sc"))
        else:
            self.end_scores = None
        hands = tuple(
            _tiles(el.get(f"hai{i}"), f"hai{i}") if el.get(f"hai{i}") is not None else None
            for i in range(self.players)
        )
        kind = el.get("type")
        extra = _extra(el, _RYUUKYOKU_ATTRS)
        ev: Event
        if kind is None or kind == "nm":
            extra = tuple(kv for kv in extra if kv[0] != "type")
            ev = ExhaustiveDraw(hands=hands, deltas=deltas, scores_before=before,
                                nagashi=kind == "nm", honba=honba, kyotaku=kyotaku, extra=extra)
        elif kind in ABORTIVE:
            extra = tuple(kv for kv in extra if kv[0] != "type")
            ev = AbortiveDraw(kind=ABORTIVE[kind], hands=hands, deltas=deltas,
                              scores_before=before, honba=honba, kyotaku=kyotaku, extra=extra)
        else:
            raise _BadElement(f"unknown draw type {kind!r}")
        self.emit(ev)
        self.round_result = True
        self._owari(el.get("owari"))

    def _owari(self, owari: str | None) -> None:
        if owari is None:
            return
        if not owari.strip():
            self._close_round()
            self.emit(GameEnd())
            self.ended = True
            self.diag("no-final-scores", "the game ends (empty owari) without final scores",
                      Severity.WARNING)
            return
        try:
            end = game_end_of(owari, self.players)
        except ValueError:
            raise _BadElement(f"owari={owari!r} is not a list of numbers") from None
        self._close_round()
        self.emit(end)
        self.ended = True

    def _bye(self, el: etree._Element) -> None:
        self.emit(Disconnect(player=self._who(el.get("who"))))

    # -- end

    def _finish(self) -> None:
        if self.ended:
            return
        if not self.started:
            if self.go_type is None and not self.player_info:
                self.diag("not-mjlog", "no <GO>, <UN> or <INIT>: not a Tenhou game record")
                return
            self._start_game([])
        what = f"in round {self.round}" if self.round else "before the first round"
        if self.round_open and not self.round_result:
            what += " before the round's result"
        pending = [str(p) for p in range(4) if self.riichi_pending[p]]
        if pending:
            what += f" (riichi announced by seat {', '.join(pending)} but its discard not recorded)"
        self._close_round()
        self.diag("truncated", f"record stops after <{self.last_tag}> {what}; "
                  "no game end (owari)", Severity.WARNING)


def game_end_of(owari: str, players: int) -> GameEnd:
    """The game end an ``owari`` states: final scores (in hundreds there) and points.
    Raises ``ValueError`` for a value that is not a number."""
    vals = owari.split(",")
    scores = tuple(int(v) * 100 for v in vals[0::2])[:players]
    points = tuple(float(v) for v in vals[1::2])[:players]
    return GameEnd(scores=scores, points=points)


_HEADER: Final[dict[str, Callable[[_Reader, list[tuple[str, str]]], None]]] = {
    "SHUFFLE": _Reader.shuffle, "GO": _Reader.go, "UN": _Reader.un,
    "TAIKYOKU": _Reader.taikyoku}


def game_start_of(header: list[tuple[str, list[tuple[str, str]]]], first_scores: list[int],
                  rounding_owari: str | None, path: str = "") -> GameStart | None:
    """The game start this reader makes of a game's header elements (``SHUFFLE``, ``GO``,
    the first ``UN``, ``TAIKYOKU``: tag and attributes, in order), its first round's
    scores and the ``owari`` its final points' rounding is read from; None where reading
    them gives a diagnostic. For the native core's statistics, which read the rest."""
    reader = _Reader(path, strict=False, multiline=False)
    reader.final_points = _final_points(rounding_owari)
    try:
        for tag, attrs in header:
            _HEADER[tag](reader, attrs)
    except _BadElement:
        return None
    reader._start_game(first_scores)
    start = reader.rec.events[0]
    return start if isinstance(start, GameStart) and not reader.rec.diagnostics else None


_INIT_ORDER: Final = ["seed", "ten", "oya", "hai0", "hai1", "hai2", "hai3"]
"""An ``INIT``'s attributes in the order Tenhou writes them."""
_INIT_ATTRS: Final = frozenset(_INIT_ORDER)
_NO_DRAWS: Final = (-1, -1, -1, -1)
_NO_FLAGS: Final = (False, False, False, False)
_AGARI_ATTRS: Final = frozenset((
    "ba", "hai", "m", "machi", "ten", "yaku", "yakuman", "doraHai", "doraHaiUra", "who",
    "fromWho", "sc", "owari", "paoWho",
))
_RYUUKYOKU_ATTRS: Final = frozenset(("ba", "sc", "hai0", "hai1", "hai2", "hai3", "owari"))


MAX_ATTRIBUTES = 256
"""The most attributes an element may have (Tenhou's have about 20): lxml reads a long
attribute list in time that grows with its square, so a longer one is refused."""


def _attributes(el: etree._Element) -> list[tuple[str, str]]:
    """Every attribute of ``el``, in order; more than :data:`MAX_ATTRIBUTES` make it a bad
    element (skipped with a diagnostic at its position)."""
    if (n := len(el.attrib)) > MAX_ATTRIBUTES:
        raise _BadElement(f"{n} attributes; mjlog reads elements of at most {MAX_ATTRIBUTES}")
    return [(str(k), str(v)) for k, v in el.items()]


def _extra(el: etree._Element, known: frozenset[str]) -> Pairs:
    """Attributes of ``el`` not in ``known``, kept verbatim in their order."""
    if known.issuperset(el.keys()):
        return ()
    return _extra_of(dict(_attributes(el)), known)


def _extra_of(attrs: dict[str, str], known: frozenset[str]) -> Pairs:
    """Attributes in ``attrs`` not in ``known``, kept verbatim in their order."""
    return tuple((k, v) for k, v in attrs.items() if k not in known)


def _line(el: etree._Element) -> int:
    line = el.sourceline
    return line if isinstance(line, int) else 0


def _meld_tiles(ev: Event) -> tuple[Tile, ...]:
    if isinstance(ev, Chi | Pon | OpenKan | AddedKan | ClosedKan):
        return ev.tiles
    if isinstance(ev, Kita):
        return (ev.tile,)
    raise ValueError("not a meld")


def _limit(code: int) -> str:
    if not 0 <= code < len(LIMIT_NAMES):
        raise _BadElement(f"limit code {code} is unknown")
    return LIMIT_NAMES[code]


def _dan(dans: list[str], i: int) -> str:
    try:
        return DAN_NAMES[int(dans[i])]
    except (ValueError, IndexError):
        return dans[i] if i < len(dans) else ""


def _rate(rates: list[str], i: int) -> float | None:
    try:
        return float(rates[i])
    except (ValueError, IndexError):
        return None


# ---------------------------------------------------------------- entry points


def read(data: bytes, path: str = "", *, strict: bool = False) -> GameRecord:
    """Read one Tenhou mjlog game from bytes (gzip or plain).

    Lenient by default: malformed XML gives an ``xml-syntax`` diagnostic with
    its line and column and the part before it is read; a bad element gives a
    ``bad-element`` diagnostic and is skipped. With ``strict`` the first
    error raises :class:`InputError`. Does not replay or judge the game.

    A record whose reading gives no diagnostic at all is scanned by the native core when
    this process uses it (:func:`_read_scanned`); the record is the same either way.
    """
    unpacked, damage = gunzip(data)
    if damage is not None and strict:
        raise InputError(damage)
    if damage is None:
        scanned = _read_scanned(unpacked, path)
        if scanned is not None:
            return scanned
    text, refused = _without_doctype(unpacked)
    diagnostics: list[Diagnostic] = [d for d in (damage, refused) if d is not None]
    try:
        root = etree.fromstring(text, _SAFE_PARSER)
    except etree.XMLSyntaxError as exc:
        line, column = exc.position if exc.position else (0, 0)
        d = Diagnostic(code="xml-syntax", message=str(exc.msg), src=Src(line=line, column=column))
        if strict:
            raise InputError(d) from None
        diagnostics.append(d)
        try:
            recovered: etree._Element | None = etree.fromstring(_without_cut_tag(text),
                                                               _RECOVER_PARSER)
        except etree.XMLSyntaxError:
            recovered = None
        if recovered is None:
            return GameRecord(path=path, format=FORMAT, diagnostics=diagnostics,
                              position_kind="xml")
        root = recovered
    if root.tag != "mjloggm":
        d = Diagnostic(code="not-mjlog", message=f"root element is <{root.tag!s}>, not <mjloggm>",
                       src=Src(line=_line(root)))
        if strict:
            raise InputError(d)
        return GameRecord(path=path, format=FORMAT, diagnostics=[*diagnostics, d],
                          position_kind="xml")
    multiline = b"\n" in text.strip()
    reader = _Reader(path, strict, multiline)
    reader.final_points = _owari_points(root)
    reader.rec.diagnostics.extend(diagnostics)
    return reader.run(root)


_MOVES: Final[tuple[Event, ...]] = (*DRAWS, *DISCARDS)
"""Every draw, then every discard, by the native scan's move codes (``core/src/tenhou_scan.rs``)."""


class _Scanned:
    """An element the native scan hands over: what the handlers read of an lxml element."""

    __slots__ = ("attrib", "tag", "text")

    def __init__(self, tag: str, attrs: list[tuple[str, str]]) -> None:
        self.tag, self.attrib, self.text = tag, dict(attrs), None

    def get(self, key: str, default: str | None = None) -> str | None:
        return self.attrib.get(key, default)

    def keys(self) -> list[str]:
        return list(self.attrib)

    def values(self) -> list[str]:
        return list(self.attrib.values())

    def items(self) -> list[tuple[str, str]]:
        return list(self.attrib.items())


def _read_scanned(text: bytes, path: str) -> GameRecord | None:
    """The record of ``text`` (gzip undone) read from the native core's scan: its draws and
    discards as the shared events its codes name, every other element through this
    reader's own handlers. None on the Python route, when the core declines the record,
    and when reading it gives any diagnostic: the caller then reads it from the XML tree,
    which gives the same record for every record this returns (the tests hold the two
    identical over the corpus and mutants)."""
    core = native.core()
    scan = core.tenhou_scan(text) if core is not None else ""
    if isinstance(scan, str):  # the Python route, or declined (with the reason)
        return None
    codes, others, lines, rounding = scan
    multiline = b"\n" in text.strip()
    reader = _Reader(path, False, multiline)
    reader.final_points = _final_points(rounding)
    rec = reader.rec
    start = 0
    for at, tag, attrs in others:
        _extend_moves(rec, codes, lines, start, at)
        reader.index, reader.line, reader.last_tag = at, lines[at] if multiline else 1, tag
        reader._element(tag, cast(etree._Element, _Scanned(tag, attrs)))
        start = at + 1
    _extend_moves(rec, codes, lines, start, len(codes))
    reader._finish()
    return None if rec.diagnostics else rec


def _extend_moves(rec: GameRecord, codes: list[int], lines: list[int], start: int,
                  stop: int) -> None:
    """The events, positions (and lines) of the run of moves ``codes[start:stop]``."""
    if stop > start:
        rec.events.extend(map(_MOVES.__getitem__, codes[start:stop]))
        rec.positions.extend(range(start, stop))
        if rec.lines is not None:
            rec.lines.extend(lines[start:stop])


def _without_cut_tag(text: bytes) -> bytes:
    """``text`` without a tag cut short at its end (a ``<`` no ``>`` follows): a download
    cut inside ``<E88/>`` leaves ``<E8``, which the recovering parser would read as a
    whole element, a discard of another tile by a named player."""
    cut = text.rfind(b"<")
    return text[:cut] if cut > text.rfind(b">") else text


def _owari_points(root: etree._Element) -> list[str]:
    """The final points of the ``owari`` among the last elements (none if it has none)."""
    for i in range(max(0, len(root) - 4), len(root)):
        owari = root[i].get("owari")
        if owari:
            return _final_points(owari)
    return []


def _final_points(owari: str | None) -> list[str]:
    """The final points an ``owari`` states, as written (their rounding is read from
    them); none without one."""
    return owari.split(",")[1::2] if owari else []


def looks_like(head: bytes) -> bool:
    """Whether the start of a (decompressed) file looks like a Tenhou mjlog."""
    return b"<mjloggm" in head[:4096]

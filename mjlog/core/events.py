"""The canonical event stream: one frozen dataclass per kind of event.

Every importer turns its format into a sequence of these events, and every
consumer (the replay engine, the auditor, exporters) reads them. A game is::

    GameStart
    (RoundStart  move*  result+  RoundEnd)*
    GameEnd?

where a *move* is a :class:`Draw`, :class:`Discard`, a call (:class:`Chi`,
:class:`Pon`, :class:`OpenKan`, :class:`AddedKan`, :class:`ClosedKan`,
:class:`Kita`, :class:`Flower`), :class:`RiichiAccepted`, :class:`ReadyDeclared`,
:class:`DoraReveal`,
:class:`Disconnect`/:class:`Reconnect`, :class:`Comment` or :class:`Unknown`, and a *result* is a
:class:`Win` (several for a multiple ron), an :class:`ExhaustiveDraw` or an
:class:`AbortiveDraw` (or, on a score sheet, a :class:`Chombo`).

Conventions (documented once here):

* players are seat indices 0..n-1 in the record's seat order (seat 0 is the
  first dealer's seat only when ``GameStart.first_dealer`` is 0);
* tiles are physical ids (see :mod:`mjlog.core.tiles`);
* scores and deltas are in points (25000, not 250);
* an event's ``repr`` writes its tiles in mpsz by kind, ``Discard(player=1, tile=5m)``,
  and leaves out the fields at their default. A red five shows as its five (whether
  id 16 is red is the ruleset's to say, not the event's) and the physical id is the
  field's value (``ev.tile == 16``).

Events are immutable values and carry no source position: an importer may
share one ``Draw`` object between every place it occurs. Where an event came
from is kept beside the events, in :class:`mjlog.core.record.GameRecord`.

Events only hold facts as recorded; they do not check them (the replay does).
Each class has a ``TYPE`` string, its tag in JSON Lines (see
:mod:`mjlog.formats.serialize`).
"""

from __future__ import annotations

from dataclasses import MISSING, dataclass, field, fields
from datetime import datetime
from typing import ClassVar, Final

from mjlog.core.ruleset import Ruleset
from mjlog.core.tiles import NUM_TILES, Tile, TileError, tile_str, tiles_str

Pairs = tuple[tuple[str, str], ...]
"""Ordered key/value pairs: source metadata and attributes kept verbatim."""


@dataclass(frozen=True, slots=True, kw_only=True)
class PlayerInfo:
    """A seat's player as the record names them."""

    name: str
    rank: str = ""
    rating: float | None = None
    sex: str = ""


@dataclass(frozen=True, slots=True, kw_only=True)
class YakuClaim:
    """One yaku of a win as the record states it, with its han (13 per yakuman)."""

    name: str
    han: int


@dataclass(frozen=True, slots=True, kw_only=True)
class Origin:
    """Where and when a game was played, as its record says (``None``: it does not say).

    Typed facts a reader takes from its format's own fields (and the file's name, where
    a platform names its files by game): what statistics and the wall check need, so
    that they look up no metadata key. A value only: it checks nothing.
    """

    platform: str | None = None
    """Where the game was played: ``tenhou``, ``majsoul``, ``riichicity``, ``mleague``."""
    game_id: str | None = None
    """The platform's own id of the game, after whose id it is: ``tenhou:2016010100gm-…``,
    ``majsoul:<uuid>`` (a tenhou.net/6 copy of a Tenhou game keeps Tenhou's id)."""
    date: datetime | None = None
    """When it was played (UTC; to the hour for a Tenhou id)."""
    room: str | None = None
    """The room or lobby: Tenhou's ``ippan`` … ``houou`` or ``lobby-N``, a Mahjong Soul
    room's name, Riichi City's kind of game."""
    lobby_type: int | None = None
    """Tenhou's ``GO type`` bits (the table's rules and level)."""
    shuffle_seed: str | None = None
    """Tenhou's ``SHUFFLE seed`` (the game's walls, :mod:`mjlog.wall.tenhou_shuffle`)."""
    bad_date: str | None = None
    """Why the game's id (``game_id``, then ``None``) was not read: the day it names does
    not exist (``month must be in 1..12``)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Published:
    """A round's wall as a platform publishes it, with its commitment (the record's own
    text: :mod:`mjlog.wall.published` reads and checks it; this value checks nothing).

    Mahjong Soul (``platform="majsoul"``) commits by ``md5`` of the wall, or by
    ``sha256`` of the wall and a ``salt`` it reveals after the game (with
    ``salt_sha256``); Riichi City (``riichicity``) by ``sha256`` of the wall alone.
    """

    platform: str
    wall: str
    """The tiles in mpsz, in the platform's order."""
    md5: str | None = None
    sha256: str | None = None
    salt: str | None = None
    salt_sha256: str | None = None


NOT_WRITTEN: Final = {"written": False}
"""The metadata of an event field that JSON Lines neither writes nor reads: a typed
reading of facts the event keeps verbatim elsewhere (:attr:`GameStart.origin`)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class GameStart:
    """The start of a game: who plays, under which suggested rules, and where from.

    ``meta`` keeps the source's own metadata verbatim (for Tenhou: ``go.type``,
    ``go.lobby``, ``shuffle.seed``, ``shuffle.ref`` …). ``origin`` is its reader's
    typed reading of where and when the game was played (``None`` for a game start
    made by no reader). JSON Lines does not write it (its reader reads it again from
    ``meta``); two game starts that differ in it alone are equal.
    """

    TYPE: ClassVar[str] = "game_start"
    source: str
    players: tuple[PlayerInfo, ...]
    first_dealer: int = 0
    ruleset: Ruleset = field(default_factory=Ruleset)
    meta: Pairs = ()
    origin: Origin | None = field(default=None, compare=False, repr=False,
                                  metadata=NOT_WRITTEN)


@dataclass(frozen=True, slots=True, kw_only=True)
class RoundStart:
    """A round (kyoku) is dealt.

    ``round_wind`` is 0..3 (east..north); ``round_number`` is 1..4;
    ``hands`` are the dealt tiles of each seat (13 each, sorted by id: the
    order of a hand means nothing; the dealer's first draw follows as a
    :class:`Draw`); ``dice`` as rolled, when known.

    ``wall``, when a record states it, is the physical wall before the deal:
    the walls by seat relative to the dealer (his own, the right player's, the
    opposite, the left player's), each from its right end, each stack top
    tile then bottom tile. With ``dice`` and the ruleset's ``dealing`` it
    determines the deal (:mod:`mjlog.wall.dealing`).

    ``results_only`` marks a round of a score sheet (a results-only record): no
    tile is dealt or drawn (``hands`` holds one empty hand per seat, the indicator
    is the unknown tile), its moves are riichi declarations alone, and its results
    state their value (han and fu, a limit, or points) rather than tiles. Its
    ``scores`` may be empty: the table's scores carry on from the round before.

    ``published`` is the wall a platform published for the round, typed by its reader
    from what ``extra`` keeps verbatim; JSON Lines does not write it (its reader reads it
    again from ``extra``), and two round starts that differ in it alone are equal.
    """

    TYPE: ClassVar[str] = "round_start"
    round_wind: int
    round_number: int
    honba: int
    kyotaku: int
    dealer: int
    scores: tuple[int, ...]
    dora_indicator: Tile
    hands: tuple[tuple[Tile, ...], ...]
    dice: tuple[int, ...] = ()
    wall: tuple[Tile, ...] | None = None
    extra: Pairs = ()
    results_only: bool = False
    published: Published | None = field(default=None, compare=False, repr=False,
                                        metadata=NOT_WRITTEN)


@dataclass(frozen=True, slots=True, kw_only=True)
class Draw:
    """A player draws a tile; ``rinshan`` when it comes from the dead wall after a kan or kita."""

    TYPE: ClassVar[str] = "draw"
    player: int
    tile: Tile
    rinshan: bool = False


@dataclass(frozen=True, slots=True, kw_only=True)
class Discard:
    """A player discards. ``tsumogiri``: the tile just drawn (``None``: not known).

    ``riichi`` marks the discard that declares riichi.
    """

    TYPE: ClassVar[str] = "discard"
    player: int
    tile: Tile
    tsumogiri: bool | None = None
    riichi: bool = False


@dataclass(frozen=True, slots=True, kw_only=True)
class Chi:
    """A chi: ``player`` takes ``called`` from ``from_player``; ``tiles`` is the whole run."""

    TYPE: ClassVar[str] = "chi"
    player: int
    from_player: int
    called: Tile
    tiles: tuple[Tile, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class Pon:
    """A pon: ``player`` takes ``called`` from ``from_player``; ``tiles`` is the triplet."""

    TYPE: ClassVar[str] = "pon"
    player: int
    from_player: int
    called: Tile
    tiles: tuple[Tile, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class OpenKan:
    """An open kan (daiminkan) on ``from_player``'s discard ``called``."""

    TYPE: ClassVar[str] = "open_kan"
    player: int
    from_player: int
    called: Tile
    tiles: tuple[Tile, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class AddedKan:
    """An added kan (kakan): ``added`` joins the pon of ``called`` from ``from_player``."""

    TYPE: ClassVar[str] = "added_kan"
    player: int
    from_player: int
    called: Tile
    added: Tile
    tiles: tuple[Tile, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class ClosedKan:
    """A closed kan (ankan) of four concealed tiles."""

    TYPE: ClassVar[str] = "closed_kan"
    player: int
    tiles: tuple[Tile, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class Kita:
    """Three-player: a north set aside as nuki dora (a rinshan draw follows)."""

    TYPE: ClassVar[str] = "kita"
    player: int
    tile: Tile


@dataclass(frozen=True, slots=True, kw_only=True)
class Flower:
    """Taiwanese: a flower set aside (a replacement draw from the dead wall follows).

    During the flower procedure after the deal any player may set flowers
    aside; later only the player who just drew. With ``from_player`` the
    player takes the flower that player had set aside (搶花, for 七搶一).
    """

    TYPE: ClassVar[str] = "flower"
    player: int
    tile: Tile
    from_player: int | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class RiichiAccepted:
    """A riichi stands (its discard was not won on); its stick is deposited.

    ``scores`` are the scores after the deposit when the record states them.
    """

    TYPE: ClassVar[str] = "riichi_accepted"
    player: int
    scores: tuple[int, ...] | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class ReadyDeclared:
    """Taiwanese 天聽: a player other than the dealer declares ready during the flower
    procedure, before their first draw. No discard goes with it and no stick is paid.

    地聽, declared with the first discard, is a :class:`Discard` with ``riichi`` set.
    """

    TYPE: ClassVar[str] = "ready_declared"
    player: int


@dataclass(frozen=True, slots=True, kw_only=True)
class DoraReveal:
    """A new dora indicator is turned over (after a kan)."""

    TYPE: ClassVar[str] = "dora_reveal"
    indicator: Tile


@dataclass(frozen=True, slots=True, kw_only=True)
class Win:
    """A win (agari) with the record's own valuation.

    ``from_player == winner`` for tsumo. ``hand`` is the concealed part including
    ``win_tile``; ``melds`` the called and kanned sets. ``yaku``, ``fu``, ``han``,
    ``points`` and ``limit`` (``""``, ``mangan``, ``haneman``, ``baiman``,
    ``sanbaiman``, ``yakuman``) are what the record claims; ``deltas`` each
    seat's change, including honba and riichi sticks; ``scores_before`` the
    scores the record gives before the deltas. ``pao`` is the seat the record
    names liable for the win, ``None`` when it names nobody: that says nobody is
    only for a source whose records can name one (not one in
    :data:`PAO_UNNAMED`).
    """

    TYPE: ClassVar[str] = "win"
    winner: int
    from_player: int
    hand: tuple[Tile, ...]
    win_tile: Tile
    melds: tuple[tuple[Tile, ...], ...] = ()
    yaku: tuple[YakuClaim, ...] = ()
    fu: int = 0
    han: int = 0
    points: int = 0
    limit: str = ""
    deltas: tuple[int, ...] = ()
    scores_before: tuple[int, ...] | None = None
    honba: int = 0
    kyotaku: int = 0
    dora_indicators: tuple[Tile, ...] = ()
    ura_indicators: tuple[Tile, ...] = ()
    pao: int | None = None
    extra: Pairs = ()


@dataclass(frozen=True, slots=True, kw_only=True)
class ExhaustiveDraw:
    """The wall ran out (ryuukyoku).

    ``hands`` holds each seat's shown (tenpai) hand, ``None`` where not shown;
    ``nagashi`` is true when the payments are for nagashi mangan.
    """

    TYPE: ClassVar[str] = "exhaustive_draw"
    hands: tuple[tuple[Tile, ...] | None, ...] = ()
    deltas: tuple[int, ...] = ()
    scores_before: tuple[int, ...] | None = None
    nagashi: bool = False
    honba: int = 0
    kyotaku: int = 0
    extra: Pairs = ()


ABORTIVE_KINDS = ("nine-terminals", "four-riichi", "triple-ron", "four-kans", "four-winds",
                  "unstated")
"""Kinds of :class:`AbortiveDraw` (``unstated``: a score sheet that does not say which)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class AbortiveDraw:
    """An abortive draw; ``kind`` is one of :data:`ABORTIVE_KINDS`."""

    TYPE: ClassVar[str] = "abortive_draw"
    kind: str
    hands: tuple[tuple[Tile, ...] | None, ...] = ()
    deltas: tuple[int, ...] = ()
    scores_before: tuple[int, ...] | None = None
    honba: int = 0
    kyotaku: int = 0
    extra: Pairs = ()


@dataclass(frozen=True, slots=True, kw_only=True)
class Chombo:
    """A score sheet's chombo: ``player`` committed it and the hand ends there. Nothing is
    paid at the table by the event itself; what it costs is the ruleset's ``chombo`` (the
    settlement's). Only results-only records write one; tile records show the offence."""

    TYPE: ClassVar[str] = "chombo"
    player: int


@dataclass(frozen=True, slots=True, kw_only=True)
class RoundEnd:
    """The round is over; ``scores`` are the scores after it as the record implies."""

    TYPE: ClassVar[str] = "round_end"
    scores: tuple[int, ...] | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class GameEnd:
    """The game is over: final ``scores`` and ``points`` (after uma) when recorded."""

    TYPE: ClassVar[str] = "game_end"
    scores: tuple[int, ...] | None = None
    points: tuple[float, ...] | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class Disconnect:
    """A player's connection dropped."""

    TYPE: ClassVar[str] = "disconnect"
    player: int


@dataclass(frozen=True, slots=True, kw_only=True)
class Reconnect:
    """A player came back."""

    TYPE: ClassVar[str] = "reconnect"
    player: int
    name: str = ""


@dataclass(frozen=True, slots=True, kw_only=True)
class Comment:
    """A free comment written beside a move (notation ``#``); it changes nothing."""

    TYPE: ClassVar[str] = "comment"
    text: str


@dataclass(frozen=True, slots=True, kw_only=True)
class Unknown:
    """Something the importer did not recognise, kept verbatim so nothing is lost."""

    TYPE: ClassVar[str] = "unknown"
    tag: str
    attrs: Pairs = ()
    text: str = ""


Call = Chi | Pon | OpenKan | AddedKan | ClosedKan | Kita
MOVES: tuple[type, ...] = (Draw, Discard, Chi, Pon, OpenKan, AddedKan, ClosedKan, Kita, Flower)
"""Events that count as one move of a round: what a finding's ``turn`` and
``mjlog replay --turn`` count."""
Result = Win | ExhaustiveDraw | AbortiveDraw
Event = (
    GameStart | RoundStart | Draw | Discard | Chi | Pon | OpenKan | AddedKan | ClosedKan
    | Kita | Flower | RiichiAccepted | ReadyDeclared | DoraReveal | Win | ExhaustiveDraw
    | AbortiveDraw | Chombo | RoundEnd | GameEnd | Disconnect | Reconnect | Comment | Unknown
)

Meld = Chi | Pon | OpenKan | AddedKan | ClosedKan
"""A set shown or kanned: the call events that stay on the table."""

EVENT_TYPES: dict[str, type[Event]] = {
    cls.TYPE: cls
    for cls in (
        GameStart, RoundStart, Draw, Discard, Chi, Pon, OpenKan, AddedKan, ClosedKan, Kita,
        Flower, RiichiAccepted, ReadyDeclared, DoraReveal, Win, ExhaustiveDraw, AbortiveDraw,
        Chombo, RoundEnd, GameEnd, Disconnect, Reconnect, Comment, Unknown,
    )
}
"""Every event class by its ``TYPE`` tag."""

_TILE_FIELDS: Final = frozenset({"tile", "called", "added", "win_tile", "indicator",
                                 "dora_indicator"})
_TILES_FIELDS: Final = frozenset({"tiles", "hand", "dora_indicators", "ura_indicators", "wall"})
_HANDS_FIELDS: Final = frozenset({"hands", "melds"})


def _tiles_text(tiles: object) -> str:
    """A tuple of tile ids as mpsz by kind, in its order (``()`` when empty). Raises
    ``TypeError`` or :class:`TileError` for anything else."""
    if not isinstance(tiles, tuple) or not all(type(t) is int for t in tiles):
        raise TypeError("not a tuple of tile ids")
    return tiles_str(tiles, red_fives=False, sort=False) or "()"


def _shown(name: str, value: object) -> str:
    """One field's value as an event's ``repr`` writes it: a tile field's ids in mpsz by
    kind (module docstring), anything else, or a value that is no tile id (a fuzzed
    event's), as ``repr`` writes it."""
    try:
        if name in _TILE_FIELDS and type(value) is int:
            return tile_str(value, red_fives=False)
        if name in _TILES_FIELDS and value is not None:
            return _tiles_text(value)
        if name in _HANDS_FIELDS and isinstance(value, tuple):
            items = ["None" if h is None else _tiles_text(h) for h in value]
            return f"({', '.join(items)}{',' if len(items) == 1 else ''})"
    except (TypeError, TileError):
        pass
    return repr(value)


def _at_default(f: object, value: object) -> bool:
    default = getattr(f, "default", MISSING)
    if default is MISSING:
        factory = getattr(f, "default_factory", MISSING)
        if factory is MISSING:
            return False
        default = factory()
    return type(value) is type(default) and value == default


def _event_repr(ev: Event) -> str:
    """``Discard(player=1, tile=5m)``: the event's fields but those at their default, its
    tiles in mpsz (:func:`_shown`)."""
    shown = [f"{f.name}={_shown(f.name, getattr(ev, f.name))}" for f in fields(ev)
             if f.repr and not _at_default(f, getattr(ev, f.name))]
    return f"{type(ev).__name__}({', '.join(shown)})"


for _cls in EVENT_TYPES.values():
    _cls.__repr__ = _event_repr  # type: ignore[assignment,method-assign]

PAO_UNNAMED: Final[set[str]] = set()
"""The sources (:attr:`GameStart.source`) whose wins cannot name the seat liable for
them (pao): a win of theirs that names nobody claims nothing about it. Each record
format registers itself here (``Format.pao``); any other source names it."""

_DRAWS: dict[tuple[int, int, bool], Draw] = {}
_DISCARDS: dict[tuple[int, int, bool | None, bool], Discard] = {}


def draw_of(player: int, tile: int, rinshan: bool = False) -> Draw:
    """The draw event with these values, one object for all the records that hold it:
    events are immutable, and a reader that names draws anew each time spends a tenth of
    its time building the same few thousand objects. Does not check the values."""
    key = (player, tile, rinshan)
    ev = _DRAWS.get(key)
    if ev is None:
        ev = _DRAWS[key] = Draw(player=player, tile=Tile(tile), rinshan=rinshan)
    return ev


def discard_of(player: int, tile: int, tsumogiri: bool | None, riichi: bool) -> Discard:
    """The discard event with these values, shared as :func:`draw_of` shares draws."""
    key = (player, tile, tsumogiri, riichi)
    ev = _DISCARDS.get(key)
    if ev is None:
        ev = _DISCARDS[key] = Discard(player=player, tile=Tile(tile), tsumogiri=tsumogiri,
                                      riichi=riichi)
    return ev


DRAWS: Final = tuple(draw_of(p, t, rinshan) for rinshan in (False, True) for p in range(4)
                     for t in range(NUM_TILES))
"""Every draw of a four-seat table, shared (:func:`draw_of`), at
``(rinshan * 4 + player) * NUM_TILES + tile``: a reader's hot loop looks one up."""
DISCARDS: Final = tuple(discard_of(p, t, tsumogiri, riichi) for riichi in (False, True)
                        for tsumogiri in (False, True) for p in range(4)
                        for t in range(NUM_TILES))
"""Every discard of a four-seat table, shared (:func:`discard_of`), at
``((riichi * 2 + tsumogiri) * 4 + player) * NUM_TILES + tile``."""


WIND_LETTERS = "ESWN"


def round_label(round_wind: int, round_number: int, honba: int) -> str:
    """Short label of a round: ``E2-1`` is East 2 with one honba."""
    return f"{WIND_LETTERS[round_wind % 4]}{round_number}-{honba}"

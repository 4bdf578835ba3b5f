"""The ruleset: one frozen, keyword-only value describing the table's rules.

A :class:`Ruleset` holds what every table has (players, length, starting
score, how the wall is dealt …) and one frozen group of options of its rule
family: :class:`RiichiOptions` (with :class:`SakizukeOptions` when kanzen
sakizuke is played) or :class:`TaiwanOptions`. A combination that makes no
sense, such as a Taiwanese 台 value on a riichi table, cannot be built.

Every option also has a flat name (``kuikae``, ``sakizuke_flush``,
``tw_base`` …), listed in :data:`OPTIONS`: the command line's ``--set``, the
notation's ``[Rules ...]`` header and the JSON Lines ``ruleset`` object use
those names, and :meth:`Ruleset.with_options` takes them.

A record suggests the ruleset it was played under (``GameStart.ruleset``);
the auditor can also apply another one. Each option group also states its
family's table (tiles in play, dead wall, tiles dealt), which is all the
replay needs of a family. This module only describes rules; it applies none
of them.

A family added later brings its own option group (any frozen dataclass of the
:class:`OptionGroup` shape) with its flat options and presets:
:func:`register_options` adds them here when :mod:`mjlog.families.registry` registers the
family, so the family's package is all that changes. This module looks the
registry up by itself (imports :mod:`mjlog.families.registry` by name, once) the first time
it meets a family or option name it does not know.
"""

from __future__ import annotations

import functools
import importlib
import math
import typing
from collections.abc import Iterable
from dataclasses import dataclass, field, fields, replace
from typing import ClassVar, Final, Literal, NamedTuple, Protocol

Length = Literal["one-round", "east", "south", "full"]
Dealing = Literal["one-roll", "two-rolls", "pakkoro", "automatic", "digital"]
Kazoe = Literal["yakuman", "sanbaiman", "none"]
Rounding = Literal["none", "thousands"]
Tobi = Literal["below-zero", "at-zero", "none"]
LeftoverSticks = Literal["first-place", "lost"]
Chombo = Literal["mangan", "fixed", "none"]
TieUma = Literal["seat", "split"]
KanAfterRiichi = Literal["wait", "shape", "forbidden"]
HiddenFaults = Literal["judged", "when-revealed"]
FourKans = Literal["abort", "fifth-ends", "no-abort"]
KanDora = Literal["after-discard", "immediate", "none"]
Kuikae = Literal["allowed", "same", "both"]
SeatWind = Literal["dice", "dealer"]
MenzenTsumo = Literal["counts", "not-alone", "ignored"]


@dataclass(frozen=True, slots=True)
class TableSize:
    """What a family's table holds: tiles in play, dead wall, tiles dealt to a hand."""

    tiles: int
    dead_wall: int
    hand: int


@dataclass(frozen=True, slots=True, kw_only=True)
class SakizukeOptions:
    """Kanzen sakizuke (完全先付け, ``docs/rules.md`` section 2): its variant switches."""

    flush: bool = True
    concealed: bool = True
    all_calls: bool = False
    value_first: bool = False
    incidental: bool = False
    tanyao: bool = True
    menzen_tsumo: MenzenTsumo = "counts"
    ron_only: bool = False
    oute_bisha: bool = True
    oute_bisha_yakuhai: bool = True


@dataclass(frozen=True, slots=True, kw_only=True)
class RiichiOptions:
    """The options of Japanese riichi mahjong (sections 1, 2 and 7)."""

    FAMILY: ClassVar[str] = "riichi"
    open_tanyao: bool = True
    kiriage: bool = False
    kazoe: Kazoe = "yakuman"
    double_yakuman: bool = False
    ippatsu: bool = True
    ura_dora: bool = True
    kan_after_riichi: KanAfterRiichi = "wait"
    hidden_faults: HiddenFaults = "judged"
    four_kans: FourKans = "abort"
    kan_dora: KanDora = "after-discard"
    chankan_closed_kokushi: bool = True
    open_kan_pao: bool = False
    kuikae: Kuikae = "both"
    riichi_min_score: int = 1000
    riichi_min_wall: int = 0
    noten_per_ready: int = 0
    furiten_tsumo: bool = False
    nine_terminals: bool = True
    four_winds: bool = True
    four_riichi: bool = True
    triple_ron: bool = True
    nagashi: bool = True
    sakizuke: SakizukeOptions | None = None
    """Kanzen sakizuke with its variants; ``None`` where it is not played."""

    @staticmethod
    def table(players: int) -> TableSize:
        """136 tiles (108 without 2m..8m for three players), 14 in the dead wall, 13 dealt."""
        return _RIICHI_TABLES[3 if players == 3 else 4]

    @staticmethod
    def dealt(players: int, dealer: bool) -> int:
        """Tiles dealt to a hand: 13 each (the dealer's first draw is a move)."""
        return 13


@dataclass(frozen=True, slots=True, kw_only=True)
class TaiwanOptions:
    """The options of Taiwanese 16-tile mahjong (sections 3 and 4)."""

    FAMILY: ClassVar[str] = "taiwan16"
    base: int = 50
    tai: int = 20
    seat_wind: SeatWind = "dice"
    liguligu: bool = True
    sixteen: bool = True
    seven_rob_one: bool = True
    last_discard: bool = False
    qingyise: int = 8
    four_concealed: int = 5
    five_concealed: int = 8
    all_honours: int = 8
    sixteen_tai: int = 10
    heavenly: int = 24
    heavenly_ready: int = 16
    earth_ready: int = 8
    earth_ready_first: int = 12

    @staticmethod
    def table(players: int) -> TableSize:
        """144 tiles with the eight flowers, 16 kept back, 16 dealt."""
        return _TAIWAN16_TABLE

    @staticmethod
    def dealt(players: int, dealer: bool) -> int:
        """Tiles dealt to a hand: 16, and a seventeenth to the dealer, who discards first."""
        return 17 if dealer else 16


class OptionGroup(Protocol):
    """What a rule family's option group is: a frozen dataclass naming its family
    (``FAMILY``) that states the family's table. Its fields are the family's options."""

    FAMILY: ClassVar[str]

    def table(self, players: int) -> TableSize:
        """Tiles in play, dead wall and hand size of a table of ``players`` (a static
        method, or one that reads the group's options: MCR's flowers)."""

    @staticmethod
    def dealt(players: int, dealer: bool) -> int:
        """Tiles dealt to a hand (the dealer's, with ``dealer``)."""


FamilyOptions = RiichiOptions | TaiwanOptions | OptionGroup
_TAIWAN16_TABLE: Final = TableSize(tiles=144, dead_wall=16, hand=16)
_RIICHI_TABLES: Final = {3: TableSize(tiles=108, dead_wall=14, hand=13),
                         4: TableSize(tiles=136, dead_wall=14, hand=13)}
FAMILY_OPTIONS: Final[dict[str, type[FamilyOptions]]] = {
    RiichiOptions.FAMILY: RiichiOptions, TaiwanOptions.FAMILY: TaiwanOptions}
"""Each rule family's option group by the family's name (a family added later is added
by :func:`register_options`)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Ruleset:
    """The rules of a table. Construct from a preset with :func:`preset`."""

    name: str = "tenhou"
    players: int = 4
    red_fives: bool = True
    length: Length = "south"
    starting_score: int = 25000
    dealing: Dealing = "digital"
    double_ron: bool = True
    uma: str = "10-20"
    return_score: int = 30000
    rounding: Rounding = "thousands"
    tie_uma: TieUma = "seat"
    leftover_sticks: LeftoverSticks = "first-place"
    tobi: Tobi = "below-zero"
    chombo: Chombo = "mangan"
    chombo_points: int = 20000
    chombo_replay: bool = True
    family_options: FamilyOptions = field(default_factory=RiichiOptions)
    """The options of the table's rule family; its class names the family."""

    @property
    def family(self) -> str:
        """The rule family's name (``riichi``, ``taiwan16`` …)."""
        return self.family_options.FAMILY

    @property
    def riichi(self) -> RiichiOptions:
        """The riichi options; raises ``TypeError`` on a table of another family."""
        opts = self.family_options
        if not isinstance(opts, RiichiOptions):
            raise TypeError(f"ruleset {self.name!r} is of the {self.family} family, not riichi")
        return opts

    @property
    def taiwan(self) -> TaiwanOptions:
        """The Taiwanese options; raises ``TypeError`` on a table of another family."""
        opts = self.family_options
        if not isinstance(opts, TaiwanOptions):
            raise TypeError(f"ruleset {self.name!r} is of the {self.family} family, "
                            "not taiwan16")
        return opts

    @property
    def table(self) -> TableSize:
        """The table of the ruleset's family and number of players."""
        return self.family_options.table(self.players)

    def dealt(self, dealer: bool) -> int:
        """How many tiles a hand is dealt (the dealer's, with ``dealer``)."""
        return self.family_options.dealt(self.players, dealer)

    def with_options(self, **options: object) -> Ruleset:
        """A copy with options changed, by their flat names (:data:`OPTIONS`).

        ``family`` goes first (the new family's options start from their
        defaults), then ``sakizuke``, then the rest. Raises ``TypeError`` for
        a name that is no option of the ruleset's family (a sakizuke variant
        while sakizuke is off, a Taiwanese option on a riichi table).
        """
        rs = self
        if "family" in options:
            new = options["family"]
            if new not in FAMILY_OPTIONS:
                _load_registry()
            if new not in FAMILY_OPTIONS:
                raise TypeError(f"unknown family {new!r}; known: {', '.join(FAMILY_OPTIONS)}")
            if new != rs.family:
                rs = replace(rs, family_options=FAMILY_OPTIONS[str(new)]())
        order = sorted(options, key=lambda k: (k != "sakizuke", k))
        for name in order:
            if name != "family":
                rs = _set(rs, name, options[name])
        return rs


class Option(NamedTuple):
    """One option by its flat name: the group it lives in and what it means."""

    name: str
    group: str
    """``""`` (every table), ``sakizuke``, or a family's name (``riichi``, ``taiwan16`` …)."""
    attr: str
    doc: str


MISSING: Final = object()
"""What :func:`option_value` gives for an option the ruleset's family does not have."""


def option_value(rs: Ruleset, name: str) -> object:
    """The value of option ``name`` (a flat name), or :data:`MISSING` where ``rs`` has none."""
    opt = OPTIONS[name]
    if opt.group == "":
        return rs.family if name == "family" else getattr(rs, opt.attr)
    group = _group(rs, opt.group)
    if group is None:
        return MISSING
    if name == "sakizuke":
        return _group(rs, "sakizuke") is not None
    return getattr(group, opt.attr)


def _group(rs: Ruleset, group: str) -> object | None:
    opts = rs.family_options
    if group == "riichi":
        return opts if isinstance(opts, RiichiOptions) else None
    if group == "sakizuke":
        return opts.sakizuke if isinstance(opts, RiichiOptions) else None
    return opts if group == type(opts).FAMILY else None


def _set(rs: Ruleset, name: str, value: object) -> Ruleset:
    if name not in OPTIONS:
        _load_registry()
    opt = OPTIONS.get(name)
    if opt is None or name == "family":
        raise TypeError(f"unknown rule option {name!r}")
    if opt.group == "":
        return replace(rs, **{opt.attr: value})  # type: ignore[arg-type]
    riichi = rs.family_options if isinstance(rs.family_options, RiichiOptions) else None
    if name == "sakizuke" and riichi is not None:
        on = riichi.sakizuke or SakizukeOptions()
        return replace(rs, family_options=replace(riichi, sakizuke=on if value else None))
    group = _group(rs, opt.group)
    if group is None:
        if opt.group == "sakizuke" and riichi is not None:
            raise TypeError(f"{name} is an option of sakizuke=true; ruleset {rs.name!r} "
                            "plays without sakizuke")
        family = "riichi" if opt.group == "sakizuke" else opt.group
        raise TypeError(f"{name} is an option of the {family} family; ruleset {rs.name!r} is "
                        f"of the {rs.family} family")
    changed = replace(group, **{opt.attr: value})  # type: ignore[type-var]
    if opt.group == "sakizuke":
        assert riichi is not None
        assert isinstance(changed, SakizukeOptions)
        return replace(rs, family_options=replace(riichi, sakizuke=changed))
    return replace(rs, family_options=changed)  # type: ignore[arg-type]


def _load_registry() -> None:
    """Import the registry of families (:mod:`mjlog.families.registry`, by name: this core module
    imports no family), which registers the option groups of families added later
    (:func:`register_options`). Called when a family or option name is not known yet;
    does nothing once the registry is loaded."""
    importlib.import_module("mjlog.families.registry")


def _options(*rows: tuple[str, str, str, str]) -> dict[str, Option]:
    return {r[0]: Option(*r) for r in rows}


OPTIONS: Final[dict[str, Option]] = _options(
    ("name", "", "name", "Name of the preset this ruleset derives from."),
    ("family", "", "family",
     "Rule family: 'riichi' (Japanese), 'taiwan16' (Taiwanese 16-tile) or another "
     "registered family (mjlog.families.registry)."),
    ("players", "", "players", "Number of players: 4, or 3 for three-player riichi (sanma)."),
    ("red_fives", "", "red_fives", "Whether one five of each suit is a red five (aka dora)."),
    ("open_tanyao", "riichi", "open_tanyao",
     "Whether all-simples counts with an open hand (kuitan)."),
    ("length", "", "length", "Game length: 'one-round' (a single round), 'east' "
     "(tonpuusen), 'south' (hanchan), 'full' (east to north)."),
    ("starting_score", "", "starting_score", "Each player's score at the start of the game."),
    ("dealing", "", "dealing", "How the wall is broken and dealt (see mjlog.wall.dealing): "
     "'one-roll', 'two-rolls' (二度振り), 'pakkoro' (12-sided dice), 'automatic' (the table "
     "deals the hands), or 'digital' (an online platform's own method)."),
    ("kiriage", "riichi", "kiriage",
     "Whether 4 han 30 fu and 3 han 60 fu are rounded up to mangan (切り上げ満貫)."),
    ("kazoe", "riichi", "kazoe", "What 13 han or more from ordinary yaku is worth (数え役満): "
     "'yakuman', 'sanbaiman', or 'none' (counted on: 26 han a double yakuman)."),
    ("double_yakuman", "riichi", "double_yakuman", "Whether suuankou tanki, kokushi 13-wait, "
     "junsei chuuren and daisuushii count as double yakuman."),
    ("ippatsu", "riichi", "ippatsu",
     "Whether a win within one go-around of riichi scores ippatsu (一発)."),
    ("ura_dora", "riichi", "ura_dora", "Whether a riichi winner's ura dora count (裏ドラ)."),
    ("kan_after_riichi", "riichi", "kan_after_riichi", "K4, which closed kan a riichi player "
     "may make (always with the tile just drawn, never okuri-kan): 'wait' (the winning tiles "
     "stay the same; Tenhou, Mahjong Soul), 'shape' (also: the three tiles are a triplet in "
     "every reading of the hand), 'forbidden' (none)."),
    ("hidden_faults", "riichi", "hidden_faults", "What a concealed hand hides (a riichi "
     "on a hand that is not ready, a closed kan after riichi that changes the waits or keeps "
     "the tile just drawn): 'judged' (at once, as the record shows every tile) or "
     "'when-revealed' (only when the hand is shown: its player wins, or is in riichi or "
     "ready at an exhaustive draw; a hand never shown is a note, not a violation; "
     "competition rules)."),
    ("four_kans", "riichi", "four_kans", "K2, the four-kan limit: 'abort' (四開槓: a fourth "
     "kan by more than one player ends the round after the next discard; four by one player "
     "play on, and nobody may make a fifth; Tenhou), 'fifth-ends' (as 'abort', but a fifth "
     "kan is allowed and ends the round at once), 'no-abort' (no abortive draw; no fifth "
     "kan)."),
    ("kan_dora", "riichi", "kan_dora", "K5, when a kan's dora indicator is turned: "
     "'after-discard' (a closed kan at once, an open or added kan after the discard that "
     "follows; Tenhou), 'immediate' (every kan at once, 即ノリ), 'none' (no kan dora, as in "
     "JPML's official rules)."),
    ("chankan_closed_kokushi", "riichi", "chankan_closed_kokushi",
     "K6, whether thirteen orphans may rob a closed kan."),
    ("open_kan_pao", "riichi", "open_kan_pao", "K8 (大明槓の包): whether a win on the "
     "replacement tile right after an open kan is paid entirely by the player whose discard "
     "was kanned."),
    ("kuikae", "riichi", "kuikae", "Swap-calling (喰い替え) after a chi or pon: 'allowed', "
     "'same' (the called tile may not be discarded at once), 'both' (nor the other end of "
     "the run; Tenhou)."),
    ("riichi_min_score", "riichi", "riichi_min_score",
     "Points a player needs to declare riichi (0: none)."),
    ("noten_per_ready", "riichi", "noten_per_ready", "Noten payments at an exhaustive draw: 0 "
     "for the pool (3000, or 2000 with three players) that the noten players pay the ready "
     "ones; N for N points to each ready player, which the noten players share (Riichi City's "
     "three-player tournament rooms: 2000)."),
    ("riichi_min_wall", "riichi", "riichi_min_wall", "Tiles the live wall must still hold when "
     "riichi is declared; 0: as many as there are players, so that the declarer draws again "
     "(Tenhou)."),
    ("furiten_tsumo", "riichi", "furiten_tsumo", "Whether furiten also forbids a tsumo win, "
     "and a passed win forbids one until the player's next discard (a kansaki extension)."),
    ("uma", "", "uma", "Placement bonus at the end, in thousands of points, written "
     "'SMALL-BIG': '10-20' gives +20, +10, -10, -20 to first..fourth; three players get +BIG, "
     "0, -BIG ('0-20'). 'float' (浮きウマ, four players): by how many end at or above the "
     "return score, one: +12, -1, -3, -8; two: +8, +4, -4, -8; three or four: +8, +3, +1, "
     "-12."),
    ("return_score", "", "return_score", "The score each player is counted from at the "
     "end (返し); the difference to the starting score, times the players, is the oka the "
     "first place takes."),
    ("rounding", "", "rounding", "How final scores become points: 'none' (exact, to 0.1; "
     "Tenhou since 2022, Mahjong Soul) or 'thousands' (each score to the nearest thousand, a "
     "half away from zero, before the return is taken off: 24,500 counts 25, -4,500 counts -5; "
     "Tenhou until 2022)."),
    ("tie_uma", "", "tie_uma", "Players who end on the same score: 'seat' (the seat nearer "
     "the first dealer takes the higher place; Tenhou, Mahjong Soul) or 'split' (they share "
     "the uma, and the oka where first place is among them, of the places they hold, "
     "equally; EMA RCR 2016 §3.6.1, WRC 2015 §5.9.2)."),
    ("leftover_sticks", "", "leftover_sticks", "Riichi sticks still on the table when the "
     "game ends: 'first-place' (the first place takes them; Tenhou) or 'lost' (nobody does: "
     "the final scores add up to less)."),
    ("tobi", "", "tobi", "When a player is bust (飛び) and the game ends: 'below-zero' "
     "(Tenhou), 'at-zero' (at zero or below), 'none' (play on)."),
    ("chombo", "", "chombo", "What a chombo costs: 'mangan' (満貫払い, paid at the table: a "
     "dealer pays 4000 to each other player, anyone else 4000 to the dealer and 2000 to each "
     "other player; it can change the places), 'fixed' (chombo_points taken from the "
     "offender's final points after uma, paid to nobody, places unchanged: EMA RCR 2016 "
     "§3.4.6, WRC 2015 §7.1, JPML), 'none'."),
    ("chombo_points", "", "chombo_points",
     "Points a fixed chombo costs, taken from the final tally (20000: -20 points)."),
    ("chombo_replay", "", "chombo_replay", "Whether a chombo's round is replayed: the riichi "
     "sticks deposited in it go back to their owners (its win is void either way)."),
    ("double_ron", "", "double_ron", "Whether two players may ron the same tile (else the "
     "first in turn order takes it, 頭ハネ)."),
    ("nine_terminals", "riichi", "nine_terminals", "Whether nine different terminals and "
     "honours on the first draw may abort the round (九種九牌)."),
    ("four_winds", "riichi", "four_winds", "Whether the same wind discarded by all four "
     "players on the first go-around aborts the round (四風連打)."),
    ("four_riichi", "riichi", "four_riichi",
     "Whether a fourth riichi aborts the round (四家立直)."),
    ("triple_ron", "riichi", "triple_ron",
     "Whether three players ronning the same tile aborts the round (三家和)."),
    ("nagashi", "riichi", "nagashi", "Whether nagashi mangan (流し満貫: only terminals and "
     "honours discarded, none called away) is paid at an exhaustive draw like a mangan "
     "tsumo; false: the draw is settled by tenpai and noten alone (EMA RCR 2016, WRC 2015)."),
    ("sakizuke", "riichi", "sakizuke", "Kanzen sakizuke (完全先付け): S1, an open hand's first "
     "call must carry a yaku, and S2, no one-sided win (片和了り). A win that breaks either is "
     "chombo."),
    ("sakizuke_flush", "sakizuke", "flush", "S1: whether flush and terminal yaku (混一色, "
     "清一色, 混全帯, 純全帯, 混老頭) use a first call whose tiles fit them."),
    ("sakizuke_concealed", "sakizuke", "concealed", "S1: whether a yaku complete inside the "
     "concealed part settles the hand (examples 1-3 and 1-5)."),
    ("sakizuke_all_calls", "sakizuke", "all_calls",
     "S1: whether every call, not only the first, must carry a yaku."),
    ("sakizuke_value_first", "sakizuke", "value_first", "S1: whether a hand whose only yaku "
     "are value tiles needs a value tile as its first call."),
    ("sakizuke_incidental", "sakizuke", "incidental", "Whether a win whose only yaku are "
     "incidental (海底, 河底, 嶺上, 搶槓, 一発) is allowed."),
    ("sakizuke_tanyao", "sakizuke", "tanyao", "Whether open all-simples (when allowed at all) "
     "settles a hand for sakizuke; false: it adds its han but does not count as the yaku."),
    ("sakizuke_menzen_tsumo", "sakizuke", "menzen_tsumo", "門前清自摸和 under sakizuke: "
     "'counts' (a closed tsumo is never one-sided), 'not-alone' (it is not enough alone), "
     "'ignored' (S2 is judged without it)."),
    ("sakizuke_ron_only", "sakizuke", "ron_only",
     "Whether sakizuke applies to ron only (some Kyoto rules)."),
    ("oute_bisha", "sakizuke", "oute_bisha", "S2 variant 王手飛車: whether a hand where every "
     "wait has a yaku but no yaku is common to all waits is allowed."),
    ("oute_bisha_yakuhai", "sakizuke", "oute_bisha_yakuhai", "S2 variant: whether two "
     "different value tiles in a shanpon count as one common yaku (役牌)."),
    ("tw_base", "taiwan16", "base", "Taiwanese: 底, the points every win is paid on top of "
     "its 台."),
    ("tw_tai", "taiwan16", "tai", "Taiwanese: the points one 台 is worth."),
    ("tw_seat_wind", "taiwan16", "seat_wind", "Taiwanese: whose wind is east, for 風牌 and "
     "花牌: 'dice' (the player the dice open the wall at, 開門; the source) or 'dealer'."),
    ("tw_liguligu", "taiwan16", "liguligu",
     "Taiwanese: whether seven pairs and a triplet (嚦咕嚦咕, 8 台) wins."),
    ("tw_sixteen", "taiwan16", "sixteen",
     "Taiwanese: whether 十六不搭 (sixteen unrelated tiles and a pair) wins."),
    ("tw_seven_rob_one", "taiwan16", "seven_rob_one", "Taiwanese: whether a player with seven "
     "flowers may rob the eighth (七搶一; one association dropped it in 2012)."),
    ("tw_last_discard", "taiwan16", "last_discard",
     "Taiwanese: whether a ron on the last discard scores 河底撈魚 (1 台)."),
    ("tw_qingyise", "taiwan16", "qingyise", "Taiwanese: 台 of 清一色, 8 (or 12)."),
    ("tw_four_concealed", "taiwan16", "four_concealed", "Taiwanese: 台 of 四暗刻, 5 (or 6)."),
    ("tw_five_concealed", "taiwan16", "five_concealed", "Taiwanese: 台 of 五暗刻, 8 (or 16)."),
    ("tw_all_honours", "taiwan16", "all_honours", "Taiwanese: 台 of 字一色, 8 (or 16: then its "
     "小三元 is not added and 4 is taken off a 大三元, 小四喜 or 大四喜 it holds)."),
    ("tw_sixteen_tai", "taiwan16", "sixteen_tai", "Taiwanese: 台 of 十六不搭, 10 (or 6)."),
    ("tw_heavenly", "taiwan16", "heavenly",
     "Taiwanese: 台 of 天胡, 地胡 and 人胡, 24 (or 16)."),
    ("tw_heavenly_ready", "taiwan16", "heavenly_ready", "Taiwanese: 台 of 天聽 (tenpai "
     "declared before the first draw), 16 (or 8)."),
    ("tw_earth_ready", "taiwan16", "earth_ready",
     "Taiwanese: 台 of 地聽 (tenpai declared with the first discard), 8 (or 4)."),
    ("tw_earth_ready_first", "taiwan16", "earth_ready_first", "Taiwanese: 台 of 地聽一發 (a win "
     "within a go-around of it), 12 (or 8)."),
)
"""Every option by its flat name, in the order reports and ``mjlog rules`` list them."""

OPTION_DOCS: Final[dict[str, str]] = {o.name: o.doc for o in OPTIONS.values()}
"""Each option's documentation by its flat name."""

_GROUP_CLASS: Final[dict[str, type]] = {"": Ruleset, "riichi": RiichiOptions,
                                        "sakizuke": SakizukeOptions,
                                        "taiwan16": TaiwanOptions}


def _type_of(opt: Option) -> object:
    if opt.name == "sakizuke":
        return bool
    if opt.name == "family":
        return Literal.__getitem__(tuple(FAMILY_OPTIONS))
    return typing.get_type_hints(_GROUP_CLASS[opt.group])[opt.attr]


_TYPES: Final[dict[str, object]] = {name: _type_of(o) for name, o in OPTIONS.items()}
_DEFAULTS: Final[dict[str, object]] = {
    name: (False if name == "sakizuke" else "riichi" if name == "family"
           else getattr(_GROUP_CLASS[o.group](), o.attr))
    for name, o in OPTIONS.items()}
"""Each option's value in a fresh ruleset or option group."""


def register_options(group: type[FamilyOptions], rows: Iterable[Option] = (),
                     presets: Iterable[Ruleset] = ()) -> None:
    """Add a rule family's option group, its flat options (``rows``, whose group is the
    family's name) and its presets to this module's tables (:data:`FAMILY_OPTIONS`,
    :data:`OPTIONS`, :data:`PRESETS`): what :func:`mjlog.families.registry.register` does for each
    family. Whatever is listed already (a family whose options this module lists itself)
    is left as it is. Raises ``ValueError`` for another group of the same family, a flat
    name another option has, a row of another group, or fields and rows that differ."""
    name = group.FAMILY
    if FAMILY_OPTIONS.get(name, group) is not group:
        raise ValueError(f"family {name!r} already has the option group "
                         f"{FAMILY_OPTIONS[name].__name__}, not {group.__name__}")
    rows = tuple(rows)
    for r in rows:
        if r.group != name:
            raise ValueError(f"option {r.name!r} is in group {r.group!r}, not {name!r}")
        if OPTIONS.get(r.name, r) != r:
            raise ValueError(f"option {r.name!r} is already an option of "
                             f"{OPTIONS[r.name].group or 'every table'}")
    listed = {o.attr for o in (*OPTIONS.values(), *rows) if o.group == name}
    attrs = {f.name for f in fields(typing.cast(typing.Any, group))}
    if listed != attrs:
        raise ValueError(f"{group.__name__}: fields without a flat option "
                         f"{sorted(attrs - listed)}, flat options without a field "
                         f"{sorted(listed - attrs)}")
    FAMILY_OPTIONS[name] = _GROUP_CLASS[name] = group
    fresh = group()
    for r in rows:
        if r.name not in OPTIONS:
            OPTIONS[r.name], OPTION_DOCS[r.name] = r, r.doc
            _TYPES[r.name], _DEFAULTS[r.name] = _type_of(r), getattr(fresh, r.attr)
    _TYPES["family"] = _type_of(OPTIONS["family"])
    for p in presets:
        PRESETS.setdefault(p.name, p)


def registered_options() -> dict[str, Option]:
    """:data:`OPTIONS` with the options of every registered family: the registry loaded
    first (:func:`_load_registry`), for a program that lists them all (the schema)."""
    _load_registry()
    return OPTIONS


def option_type(name: str) -> object:
    """The Python type of option ``name`` (``bool``, ``int``, ``str`` or a ``Literal``)."""
    return _TYPES[name]


def option_default(name: str) -> object:
    """The value option ``name`` has in a fresh ruleset, or a fresh group of its family."""
    return _DEFAULTS[name]


def flat(rs: Ruleset) -> dict[str, object]:
    """Every option ``rs`` has, by flat name in :data:`OPTIONS` order."""
    if rs.family not in FAMILY_OPTIONS:
        _load_registry()
    out = {}
    for name in OPTIONS:
        value = option_value(rs, name)
        if value is not MISSING:
            out[name] = value
    return out


_LEGACY_TAIWAN16: Final[dict[str, object]] = {
    "ippatsu": False, "ura_dora": False, "kan_dora": "none", "four_kans": "no-abort",
    "kuikae": "allowed", "riichi_min_score": 0, "nine_terminals": False, "four_winds": False,
    "four_riichi": False, "triple_ron": False,
}
"""Riichi options that earlier versions wrote into every ``taiwan16`` ruleset, with the
values they had there."""


def from_flat(values: dict[str, object]) -> Ruleset:
    """The ruleset of flat options (what :func:`flat` gives, or any part of it: the rest
    keep their defaults). Riichi options that earlier versions wrote into a Taiwanese
    ruleset are passed over; any other option of another family raises ``TypeError``."""
    values = dict(values)
    if values.get("family") == TaiwanOptions.FAMILY:
        for name, old in _LEGACY_TAIWAN16.items():
            if values.get(name, old) == old:
                values.pop(name, None)
    return Ruleset().with_options(**values)


PRESETS: dict[str, Ruleset] = {
    "tenhou": Ruleset(name="tenhou"),
    "tenhou-sanma": Ruleset(name="tenhou-sanma", players=3, starting_score=35000,
                            return_score=40000, uma="0-20"),
    "majsoul": Ruleset(name="majsoul", uma="5-15", return_score=25000, rounding="none",
                       family_options=RiichiOptions(double_yakuman=True)),
    "majsoul-sanma": Ruleset(name="majsoul-sanma", players=3, starting_score=35000,
                             return_score=35000, uma="0-15", rounding="none",
                             family_options=RiichiOptions(double_yakuman=True)),
    "riichicity": Ruleset(name="riichicity", uma="10-30", rounding="none"),
    "riichicity-sanma": Ruleset(name="riichicity-sanma", players=3, starting_score=35000,
                                return_score=40000, uma="0-20", rounding="none"),
    "mleague": Ruleset(name="mleague", uma="10-30", rounding="none"),
    "jpml": Ruleset(name="jpml", red_fives=False, starting_score=30000, uma="float",
                    leftover_sticks="lost",
                    rounding="none", tobi="none", chombo="fixed",
                    family_options=RiichiOptions(ippatsu=False, ura_dora=False,
                                                 kan_dora="none",
                                                 chankan_closed_kokushi=False)),
    "kansaki": Ruleset(name="kansaki", red_fives=False, dealing="two-rolls", uma="10-30",
                       rounding="none",
                       family_options=RiichiOptions(
                           open_tanyao=False, kan_after_riichi="shape", furiten_tsumo=True,
                           chankan_closed_kokushi=False,
                           sakizuke=SakizukeOptions(oute_bisha=False,
                                                    oute_bisha_yakuhai=True))),
    "ema": Ruleset(name="ema", red_fives=False, starting_score=30000, return_score=30000,
                   uma="5-15", rounding="none", tie_uma="split", tobi="none", chombo="fixed",
                   chombo_points=20000,
                   family_options=RiichiOptions(
                       kazoe="sanbaiman", four_kans="no-abort", nine_terminals=False,
                       four_winds=False, four_riichi=False, triple_ron=False,
                       nagashi=False, hidden_faults="when-revealed")),
    "wrc": Ruleset(name="wrc", red_fives=False, starting_score=30000, return_score=30000,
                   uma="5-15", rounding="none", tie_uma="split", tobi="none", chombo="fixed",
                   chombo_points=20000, double_ron=False, leftover_sticks="lost",
                   family_options=RiichiOptions(
                       kiriage=True, kazoe="sanbaiman", four_kans="no-abort",
                       nine_terminals=False, four_winds=False, four_riichi=False,
                       triple_ron=False, nagashi=False)),
    "taiwan16": Ruleset(name="taiwan16", red_fives=False, length="full", starting_score=0,
                        uma="0-0", return_score=0, rounding="none", tobi="none",
                        chombo="none",
                        dealing="one-roll", double_ron=False, family_options=TaiwanOptions()),
}
"""Named presets. ``majsoul``: Mahjong Soul's ranked rules as far as scoring goes
(double yakuman count double; points from the start, uma 5-15); ``riichicity``: Riichi
City's (25000 to start, 30000 back, uma 10-30 in tenths; three players 40000 back and
0-20), as its records' points show; ``mleague``: the M-League's (25000, 30000 back, uma
10-30, red fives); ``jpml``: the Japan Professional Mahjong League's official rules
(日本プロ麻雀連盟公式ルール: no red fives, no ippatsu, no ura or kan dora, 30000 to start,
the floating uma, sticks left at the end lost); ``kansaki``: a club "nashi-nashi" set
(完全先付け, no open tanyao, a kan after riichi only when the triplet is one in every
reading, furiten forbidding tsumo too,
王手飛車 not allowed, no red fives, dealt with two rolls); ``taiwan16``: Taiwanese 16-tile
mahjong as the source of ``docs/rules.md`` section 4 describes it (144 tiles with flowers,
one 一荘 east to north, 底 50 and 台 20, scores counted from 0), its two-valued 台 at the
common value.; ``ema``: the European Mahjong
Association's Riichi Competition Rules, 2016 edition; ``wrc``: the World Riichi
Championship Rules, 2015 rule book. :data:`PRESET_SOURCES` cites the section of each
option these two set."""

_EMA: Final = "EMA Riichi Competition Rules 2016"
_EMA_NOTES: Final = f"{_EMA}, revision notes (EMA announcement of the 2016 rules)"
_WRC: Final = "WRC Rules 2015"
PRESET_SOURCES: Final[dict[str, dict[str, str]]] = {
    "ema": {
        "red_fives": f"{_EMA} §1.3 Additional tiles; {_EMA_NOTES}: red fives removed",
        "starting_score": f"{_EMA} §3.6.1 Winner bonus (30,000 each, counted from 30,000)",
        "return_score": f"{_EMA} §3.6.1 Winner bonus (no oka)",
        "uma": f"{_EMA} §3.6.1 Winner bonus: +15,000/+5,000/-5,000/-15,000",
        "rounding": f"{_EMA} §3.6.1 Winner bonus (scores counted exactly)",
        "tie_uma": f"{_EMA} §3.6.1 Winner bonus: tied players share the uma of their places",
        "tobi": f"{_EMA} §3.6 End of the game (play goes on below zero)",
        "chombo": f"{_EMA} §3.4.6 Chombo; {_EMA_NOTES}: 20,000 deducted after uma",
        "chombo_points": f"{_EMA} §3.4.6 Chombo; {_EMA_NOTES}: 20,000 deducted after uma",
        "chombo_replay": f"{_EMA} §3.4.6 Chombo (riichi bets returned, the hand re-dealt)",
        "double_ron": f"{_EMA} §3.4.9 When a win is declared (multiple winners)",
        "kazoe": f"{_EMA} §4.1.3 Scoring tables; {_EMA_NOTES}: 13+ fan is sanbaiman",
        "kiriage": f"{_EMA_NOTES}: 4 fan 30 fu is not rounded to mangan",
        "double_yakuman": f"{_EMA} §4.2.5 Yakuman; {_EMA_NOTES}: no double yakuman",
        "open_tanyao": f"{_EMA} §4.2.1 One fan yaku; {_EMA_NOTES}: open tanyao",
        "kuikae": f"{_EMA} §3.3.2 Swap-calling (kuikae) not allowed",
        "hidden_faults": f"{_EMA} §3.4.2 Exhaustive draw (players in riichi show their "
                         "hands), §3.4.6 Chombo (an invalid riichi is found when revealed)",
        "four_kans": f"{_EMA} §3.3.10 Fourth kong, §3.4.3 Abortive draw (none)",
        "nine_terminals": f"{_EMA} §3.4.3 Abortive draw (none)",
        "four_winds": f"{_EMA} §3.4.3 Abortive draw (none)",
        "four_riichi": f"{_EMA} §3.4.3 Abortive draw (none)",
        "triple_ron": f"{_EMA} §3.4.3 Abortive draw (none), §3.4.9 (three winners paid)",
        "nagashi": f"{_EMA} §3.4.2 Exhaustive draw; {_EMA_NOTES}: no nagashi mangan",
        "leftover_sticks": f"{_EMA_NOTES}: riichi bets at the game's end go to the winner",
        "open_kan_pao": f"{_EMA} §3.3.9 Liability: dragons and winds only",
    },
    "wrc": {
        "red_fives": f"{_WRC} §3.3 Additional tiles (no red fives)",
        "starting_score": f"{_WRC} §4.1 Starting points (30,000)",
        "return_score": f"{_WRC} §5.9.2 Hanchan score and uma ((score - 30,000) / 1,000)",
        "uma": f"{_WRC} §5.9.2 Hanchan score and uma: +15/+5/-5/-15",
        "rounding": f"{_WRC} §5.9.2 Hanchan score and uma (exact)",
        "tie_uma": f"{_WRC} §5.9.2 Hanchan score and uma: tied players share the uma",
        "tobi": f"{_WRC} §5.9 End of the game (no end below zero)",
        "chombo": f"{_WRC} §7.1 Types of penalties: taken from the overall score after uma",
        "chombo_points": f"{_WRC} §7.1 Types of penalties (20 points)",
        "chombo_replay": f"{_WRC} §7.2 Fouls (riichi bets returned, the hand replayed)",
        "double_ron": f"{_WRC} §5.7.6 When a win is declared (head bump: one winner)",
        "leftover_sticks": f"{_EMA_NOTES}, differences to WRC 2015: WRC does not give the "
                           "bets left at the end to the winner",
        "kiriage": f"{_WRC} §6.1 Scoring a winning hand; {_EMA_NOTES}: WRC rounds 4-30 up",
        "kazoe": f"{_WRC} §6.1 Scoring a winning hand (11+ han is sanbaiman)",
        "double_yakuman": f"{_WRC} §6.5.6 Yakuman yaku (each a single yakuman)",
        "open_tanyao": f"{_WRC} §6.5.1 One han yaku (tanyao open or closed)",
        "kuikae": f"{_WRC} §5.4 Making a group (swap-calling not allowed)",
        "four_kans": f"{_WRC} §5.4.9 Fourth kong, §5.7.3 Abortive draw (none)",
        "nine_terminals": f"{_WRC} §5.7.3 Abortive draw (none)",
        "four_winds": f"{_WRC} §5.7.3 Abortive draw (none)",
        "four_riichi": f"{_WRC} §5.7.3 Abortive draw (none)",
        "triple_ron": f"{_WRC} §5.7.3 Abortive draw (none), §5.7.6 (head bump)",
        "nagashi": f"{_WRC} §5.7.2 Exhaustive draw (no nagashi mangan)",
        "open_kan_pao": f"{_WRC} §6.2 Liability payment (no liability for a big melded kong)",
    },
}
"""Where each option a competition preset sets comes from: a section of its rule book, by
flat option name. Options not listed keep mjlog's defaults, which the rule books do not
contradict as far as their public texts were read (``docs/rules.md`` section 9)."""


def citation(preset_name: str, option: str) -> str:
    """The rule book section an option of a preset comes from, or ``""`` where none is
    recorded (every preset but the competition ones). Does not check the value."""
    return PRESET_SOURCES.get(preset_name, {}).get(option, "")


def with_rounding_of(rules: Ruleset, points: Iterable[object]) -> Ruleset:
    """``rules`` settled as a record's final ``points`` show: exactly (``rounding=none``) when
    one of them has tenths, as Tenhou has written them since 2022 (2,152 corpus games of
    2010 to January 2022 are in whole thousands, 115 of June 2022 in tenths). Does not
    judge whether the points are right."""
    if rules.rounding == "none":
        return rules
    for value in points:
        try:
            x = float(str(value))
        except ValueError:
            continue
        if math.isfinite(x) and x % 1:
            return rules.with_options(rounding="none")
    return rules


def preset(name: str) -> Ruleset:
    """The named preset; raises ``KeyError`` with the known names otherwise."""
    try:
        return PRESETS[name]
    except KeyError:
        raise KeyError(f"unknown ruleset {name!r}; known: {', '.join(sorted(PRESETS))}") from None


def overrides(rs: Ruleset, base: Ruleset | None = None) -> list[str]:
    """``option=value`` for each option where ``rs`` differs from ``base``.

    ``base`` defaults to the preset ``rs`` is named after (the defaults when
    there is none); values are written as :func:`parse_option` reads them.
    An option ``rs`` does not have is not listed; one ``base`` does not have
    is compared with its default.
    """
    base = base or PRESETS.get(rs.name) or Ruleset(name=rs.name)
    out = []
    for name in OPTIONS:
        if name == "name":
            continue
        value = option_value(rs, name)
        if value is MISSING:
            continue
        was = option_value(base, name)
        if value != (_DEFAULTS[name] if was is MISSING else was):
            out.append(f"{name}={option_text(value)}")
    return out


@functools.lru_cache(maxsize=64)
def describe(rs: Ruleset) -> str:
    """The ruleset's name, with the options that differ from its preset in brackets
    (remembered per ruleset: an audit asks twice a game, and a game's ruleset is mostly
    a preset)."""
    base = PRESETS.get(rs.name)
    if base is None or base is rs:
        return rs.name
    diffs = overrides(rs, base)
    return f"{rs.name} ({', '.join(diffs)})" if diffs else rs.name


def option_text(value: object) -> str:
    """An option's value as written on the command line and in notation (``true``)."""
    return str(value).lower() if isinstance(value, bool) else str(value)


def option_choices(name: str) -> tuple[str, ...]:
    """The values a text option takes (empty for booleans, numbers and free text)."""
    if name == "family":
        _load_registry()
    tp = _TYPES[name]
    return tuple(typing.get_args(tp)) if typing.get_origin(tp) is Literal else ()


def parse_option(name: str, text: str) -> object:
    """The value of option ``name`` written as ``text`` (``true``, ``4``, ``shape`` …).

    Raises ``ValueError`` with a message naming what is expected.
    """
    if name not in OPTIONS or name == "family":
        _load_registry()
    if name not in OPTIONS or name == "name":
        raise ValueError(f"unknown rule option {name!r} (known: "
                         f"{', '.join(k for k in OPTIONS if k != 'name')})")
    tp = _TYPES[name]
    if tp is bool:
        if text not in ("true", "false"):
            raise ValueError(f"{name} is true or false, not {text!r}")
        return text == "true"
    if tp is int:
        if not (text.isascii() and text.isdigit()):
            raise ValueError(f"{name} is a number, not {text!r}")
        return int(text)
    choices = option_choices(name)
    if choices and text not in choices:
        raise ValueError(f"{name} is one of {', '.join(choices)}, not {text!r}")
    return text


assert {f.name for f in fields(Ruleset)} - {"family_options"} \
    == {o.attr for o in OPTIONS.values() if o.group == ""} - {"family"}
assert {f.name for f in fields(RiichiOptions)} == \
    {o.attr for o in OPTIONS.values() if o.group == "riichi"}
assert {f.name for f in fields(SakizukeOptions)} == \
    {o.attr for o in OPTIONS.values() if o.group == "sakizuke"}
assert {f.name for f in fields(TaiwanOptions)} == \
    {o.attr for o in OPTIONS.values() if o.group == "taiwan16"}, "every option is listed"

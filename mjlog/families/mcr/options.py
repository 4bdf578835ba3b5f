"""The options of Chinese Official mahjong (MCR, 国标麻将): the ``mcr`` option group.

:class:`MCROptions` states the table (what :mod:`mjlog.replay` needs of a family)
and the few values a competition may set. The rule books are the Chinese
Official rules of 2006 (中国麻将竞赛规则) and their English edition by the World
Mahjong Organization, *Mahjong Competition Rules* (the "Green Book"; chapter
three, sections 4 to 11), which the European Mahjong Association's MCR rules
follow. Sections are cited as ``MCR §N`` (the Green Book's numbering).

The table: 144 tiles, the 136 suited and honour tiles and eight flowers (MCR
§4). Thirteen tiles are dealt to each player and a fourteenth to the dealer,
who discards first (MCR §6). Flowers are set aside and replaced from the far
end of the wall (MCR §6); the wall is played to its last tile, replacements
included, with nothing kept back: a hand ends in a draw when the last tile
has been drawn and discarded (MCR §6; the last tile is the one of 妙手回春 and
海底捞月, MCR §8). So the table keeps no dead wall.

The game: four wind rounds of four hands, the deal passing after every hand,
a win or a draw alike (MCR §5; no 连庄, no honba); scores start at 0. Only one
player wins a discard: the next in turn from the discarder (截和, MCR §6).

This module describes rules; it applies none of them.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import ClassVar, Final

from mjlog.core.ruleset import Option, Ruleset, TableSize

MCR_TABLE: Final = TableSize(tiles=144, dead_wall=0, hand=13)
"""144 tiles with the eight flowers, nothing kept back (the wall is played to its end),
13 dealt."""
MCR_TABLE_WITHOUT_FLOWERS: Final = TableSize(tiles=136, dead_wall=0, hand=13)
"""136 tiles, no flowers (option ``mcr_flowers`` false: Botzone's data), nothing kept back,
13 dealt."""


@dataclass(frozen=True, slots=True, kw_only=True)
class MCROptions:
    """The options of Chinese Official mahjong (module docstring)."""

    FAMILY: ClassVar[str] = "mcr"
    minimum_fan: int = 8
    """Fan a win needs, flowers not counted (MCR §7: 8 起和)."""
    base: int = 8
    """Points each loser pays on top of the fan (MCR §9: 8 from each, the discarder the
    fan too)."""
    false_win: int = 10
    """Points a false win (错和) costs the offender, paid to each other player (MCR §11)."""
    flowers: bool = True
    """Whether the eight flowers are in play (MCR §4: 144 tiles); false: 136 tiles without
    flowers (Botzone's data sets), so the wall's last tile (妙手回春, 海底捞月) and its
    exhaustion come eight tiles sooner."""

    def table(self, players: int) -> TableSize:
        """144 tiles with the eight flowers (136 without them), none kept back, 13 dealt."""
        return MCR_TABLE if self.flowers else MCR_TABLE_WITHOUT_FLOWERS

    @staticmethod
    def dealt(players: int, dealer: bool) -> int:
        """Tiles dealt to a hand: 13, and a fourteenth to the dealer, who discards first."""
        return 14 if dealer else 13


def mcr_options(rules: Ruleset) -> MCROptions:
    """The MCR options of ``rules``; raises ``TypeError`` on a table of another family."""
    opts = rules.family_options
    if not isinstance(opts, MCROptions):
        raise TypeError(f"ruleset {rules.name!r} is of the {rules.family} family, not mcr")
    return opts


FLAT_OPTIONS: Final[tuple[Option, ...]] = (
    Option("mcr_minimum_fan", "mcr", "minimum_fan", "MCR: the fan a win needs, flowers not "
           "counted (8 起和, MCR §7); a win below it is a false win."),
    Option("mcr_base", "mcr", "base", "MCR: the points each loser pays on top of the fan (8, "
           "MCR §9): a discarder pays base + fan and the others base; a self-drawn win base "
           "+ fan from each."),
    Option("mcr_false_win", "mcr", "false_win", "MCR: the points a false win (错和) costs, "
           "paid to each of the other players (10, MCR §11)."),
    Option("mcr_flowers", "mcr", "flowers", "MCR: whether the eight flowers are in play "
           "(true: 144 tiles, MCR §4; false: 136 tiles without flowers, as Botzone's data "
           "sets play, so the wall's last tile and its exhaustion come 8 tiles sooner)."),
)
"""Each option's flat name, group, attribute and meaning (registered into
:data:`mjlog.core.ruleset.OPTIONS` with the family)."""

PRESET: Final = Ruleset(
    name="mcr", players=4, red_fives=False, length="full", starting_score=0, uma="0-0",
    return_score=0, rounding="none", tobi="none", chombo="none", dealing="digital",
    double_ron=False, family_options=MCROptions())
"""The ``mcr`` preset: Chinese Official mahjong as the 2006 rules play it (four players,
four wind rounds of four hands, scores from 0, one winner per discard, no red fives); the
riichi placement options (uma, return score, chombo) play no part."""

BOTZONE: Final = replace(PRESET, name="botzone",
                         family_options=MCROptions(flowers=False))
"""The ``botzone`` preset: ``mcr`` as Botzone's published data sets play it, 136 tiles
without flowers (``mcr_flowers`` false); the Botzone reader reads its matches under it."""

SOURCES: Final[dict[str, str]] = {
    "players": "MCR §4 (four players)",
    "red_fives": "MCR §4 (144 tiles: no red fives)",
    "length": "MCR §5 (four wind rounds of four hands, 16 hands)",
    "starting_score": "MCR §9 (scores counted from 0)",
    "double_ron": "MCR §6 (截和: the player next in turn from the discarder wins alone)",
    "mcr_minimum_fan": "MCR §7 (8 fan to win, flowers not counted)",
    "mcr_base": "MCR §9 (8 points from each loser)",
    "mcr_false_win": "MCR §11 (错和: 10 points to each other player)",
    "mcr_flowers": "MCR §4 (144 tiles, eight flowers among them)",
}
"""Where each option the ``mcr`` preset sets comes from, by flat option name."""

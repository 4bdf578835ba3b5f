"""The ruleset: one frozen, keyword-only value describing the table's rules.

A record suggests the ruleset it was played under (``GameStart.ruleset``); the
auditor can also apply another one. Options are added here as checks come to
need them; each is documented in :data:`OPTION_DOCS`.

This module only describes rules; it applies none of them.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Literal

Family = Literal["riichi", "taiwan16"]
Length = Literal["one-round", "east", "south", "full"]
Dealing = Literal["one-roll", "two-rolls", "pakkoro", "automatic", "digital"]
Kazoe = Literal["yakuman", "sanbaiman", "none"]


@dataclass(frozen=True, slots=True, kw_only=True)
class Ruleset:
    """The rules of a table. Construct from a preset with :func:`preset`."""

    name: str = "tenhou"
    family: Family = "riichi"
    players: int = 4
    red_fives: bool = True
    open_tanyao: bool = True
    length: Length = "south"
    starting_score: int = 25000
    dealing: Dealing = "digital"
    kiriage: bool = False
    kazoe: Kazoe = "yakuman"
    double_yakuman: bool = False
    ippatsu: bool = True
    ura_dora: bool = True

    def with_options(self, **options: object) -> Ruleset:
        """A copy with some options changed (unknown names raise ``TypeError``)."""
        return replace(self, **options)  # type: ignore[arg-type]


OPTION_DOCS: dict[str, str] = {
    "name": "Name of the preset this ruleset derives from.",
    "family": "Rule family: 'riichi' (Japanese) or 'taiwan16' (Taiwanese 16-tile).",
    "players": "Number of players: 4, or 3 for three-player riichi (sanma).",
    "red_fives": "Whether one five of each suit is a red five (aka dora).",
    "open_tanyao": "Whether all-simples counts with an open hand (kuitan).",
    "length": "Game length: 'one-round' (a single round), 'east' (tonpuusen), "
    "'south' (hanchan), 'full' (east to north).",
    "starting_score": "Each player's score at the start of the game.",
    "dealing": "How the wall is broken and dealt (see mjlog.wall.dealing): 'one-roll', "
    "'two-rolls' (二度振り), 'pakkoro' (12-sided dice), 'automatic' (the table deals the "
    "hands), or 'digital' (an online platform's own method).",
    "kiriage": "Whether 4 han 30 fu and 3 han 60 fu are rounded up to mangan (切り上げ満貫).",
    "kazoe": "What 13 han or more from ordinary yaku is worth (数え役満): 'yakuman', "
    "'sanbaiman', or 'none' (counted on: 26 han a double yakuman).",
    "double_yakuman": "Whether suuankou tanki, kokushi 13-wait, junsei chuuren and "
    "daisuushii count as double yakuman.",
    "ippatsu": "Whether a win within one go-around of riichi scores ippatsu (一発).",
    "ura_dora": "Whether a riichi winner's ura dora count (裏ドラ).",
}

PRESETS: dict[str, Ruleset] = {
    "tenhou": Ruleset(name="tenhou"),
    "tenhou-sanma": Ruleset(name="tenhou-sanma", players=3, starting_score=35000),
    "majsoul": Ruleset(name="majsoul", double_yakuman=True),
    "majsoul-sanma": Ruleset(name="majsoul-sanma", players=3, starting_score=35000,
                             double_yakuman=True),
    "jpml": Ruleset(name="jpml", red_fives=False, starting_score=30000, ippatsu=False,
                    ura_dora=False),
}
"""Named presets. ``majsoul``: Mahjong Soul's ranked rules as far as scoring goes
(double yakuman count double); ``jpml``: the Japan Professional Mahjong League's
official rules (日本プロ麻雀連盟公式ルール: no red fives, no ippatsu, no ura dora,
30000 to start)."""


def preset(name: str) -> Ruleset:
    """The named preset; raises ``KeyError`` with the known names otherwise."""
    try:
        return PRESETS[name]
    except KeyError:
        raise KeyError(f"unknown ruleset {name!r}; known: {', '.join(sorted(PRESETS))}") from None

"""Walls a platform publishes with each round, and the commitment it made to them.

Mahjong Soul's ``RecordNewRound`` gives the round's wall (``paishan``, mpsz): in
records of about 2021 the wall after the deal (83 tiles at a four-player table), in
those of 2022 on the whole wall, the deal included (136 tiles; dealt as Riichi City
deals, see :func:`_dealt_wall`: so in 64 of 64 rounds of 5 records outside the corpus;
108-tile three-player walls are read the same way, unconfirmed until a record shows
one), and a commitment
published before the round: ``md5`` = md5(paishan) in records of about
2021, ``sha256`` = sha256(paishan + salt) in later ones, with the ``salt``
revealed after the game (and ``saltSha256`` = sha256(salt)). Its reader keeps
them verbatim in the round start's ``extra`` (``majsoul.paishan`` ...) and typed in its
``published`` (:class:`mjlog.core.events.Published`), which is what this module reads.

The layout, as the corpus supports it: draws come from the front, the
dealer's fourteenth dealt tile before them; the last 14 tiles are the dead
wall, read from the end: replacement draws at the last 4 places (8 with
three players, whose kita draw there too), last first, the dora indicators at
the 5th, 7th, ... from the end (9th, 11th, ... with three players) and each
ura under its dora, one place nearer the front. Mahjong Soul's one record
(9 rounds, four players, no kan) has every dora and ura where this layout
puts them; Riichi City's 41 rounds of 11 records (three and four players)
have every dora, kan dora, ura and replacement draw there.

These walls name kinds, not physical copies: :class:`PublishedWall` compares
tiles by kind and red (``by_kind``). The dealt hands are proven by the rest of
the set: the hands, the dealer's first draw and the wall together are the
whole set of tiles, each exactly once.
"""

from __future__ import annotations

import hashlib
from collections import Counter
from dataclasses import dataclass
from typing import Final

from mjlog.core.events import Published, RoundStart
from mjlog.core.ruleset import Ruleset
from mjlog.core.tiles import (
    KIND_OF,
    RED_FIVE_IDS,
    Kind,
    Tile,
    TileError,
    assign_ids,
    kind_str,
    parse_kinds,
)

KindTile = tuple[Kind, bool]
PUBLISHED: Final = frozenset({"majsoul.paishan", "riichicity.handCardEncode"})
"""The round start keys under which a platform's published wall is kept verbatim (its
typed reading: :func:`mjlog.formats.origin.published_of`)."""
Problem = tuple[str, str]
"""A problem found with a published wall: its code and message."""
_REPLACEMENTS: Final = {3: 8, 4: 4}
"""Replacement tiles at the dead wall's end, by players (three-player: kita draw too);
the rest of the dead wall's 14 are dora and ura indicators in pairs."""


def problem(code: str, message: str) -> Problem:
    """A problem with its code (listed in :mod:`mjlog.core.catalogue`)."""
    return code, message


@dataclass(frozen=True, slots=True)
class PublishedWall:
    """A round's wall in drawing order, read with the platform's dead-wall layout."""

    live: tuple[Tile, ...]
    """The live wall in drawing order, the dealer's first draw first."""
    dead: tuple[Tile, ...]
    """The dead wall as the record lists it (front to end)."""
    replacements: int
    dealt: tuple[tuple[Tile, ...], ...]
    dice: tuple[int, ...] = ()
    """The recorded dice: no published wall says how the dice fell."""
    by_kind: bool = True

    @property
    def counts(self) -> tuple[int, int, int]:
        pairs = (len(self.dead) - self.replacements) // 2
        return self.replacements, pairs, pairs

    @property
    def live_count(self) -> int:
        return len(self.live)

    def hands(self, dealer: int) -> tuple[tuple[Tile, ...], ...]:
        """Each seat's dealt tiles as the wall deals them (Riichi City, Mahjong Soul's
        whole walls), or the recorded hands where the wall is what was left after the
        deal (Mahjong Soul's 83-tile walls: :func:`majsoul_wall` proves that deal against
        it as a whole)."""
        return self.dealt

    def draw(self, k: int) -> Tile:
        return self.live[k] if k < len(self.live) else Tile(-1)

    def rinshan(self, k: int) -> Tile:
        return self.dead[-1 - k]

    def dora(self, k: int) -> Tile:
        return self.dead[-1 - self.replacements - 2 * k]

    def ura(self, k: int) -> Tile:
        return self.dead[-2 - self.replacements - 2 * k]


def full_set(rules: Ruleset) -> Counter[KindTile]:
    """Every tile of the ruleset's table by kind and red."""
    table = rules.table
    kinds = [k for k in range(34) if table.tiles != 108 or not 1 <= k <= 7]
    out: Counter[KindTile] = Counter()
    for k in kinds:
        red = rules.red_fives and k in (4, 13, 22)
        out[(k, False)] += 3 if red else 4
        if red:
            out[(k, True)] += 1
    return out


def key(tile: int, red_fives: bool = True) -> KindTile:
    """A physical tile by kind and red, as a published wall names it."""
    return KIND_OF[tile], red_fives and tile in RED_FIVE_IDS


def commitment(published: Published) -> Problem | None:
    """(code, message) of a round's commitment (Mahjong Soul's: md5, or sha256 with a
    salt) that does not match its wall, or of one that cannot be checked; ``None`` when it
    matches."""
    wall, md5, sha, salt = published.wall, published.md5, published.sha256, published.salt
    if md5 is not None:
        got = hashlib.md5(wall.encode(), usedforsecurity=False).hexdigest()
        if got != md5.lower():
            return problem("wall-commitment-mismatch", f"md5 of the wall is {got}, the "
                           f"round committed to {md5}")
        return None
    if sha is None:
        return problem("wall-uncommitted", "the record gives the wall but no commitment to it")
    if salt is None:
        return problem("wall-uncommitted", "the round commits to its wall by sha256 with a "
                       "salt the record does not reveal: the commitment is not checked")
    salted = published.salt_sha256
    if salted is not None and hashlib.sha256(salt.encode()).hexdigest() != salted.lower():
        return problem("wall-commitment-mismatch", "the revealed salt is not the one committed "
                       "to")
    got = hashlib.sha256((wall + salt).encode()).hexdigest()
    if got != sha.lower():
        return problem("wall-commitment-mismatch", f"sha256 of the wall and salt is {got}, "
                       f"the round committed to {sha}")
    return None


def majsoul_wall(rs: RoundStart, published: Published, first_draw: Tile, rules: Ruleset
                 ) -> tuple[PublishedWall | None, list[Problem]]:
    """The wall a Mahjong Soul round start publishes (``published``) and the problems
    found with it: its commitment (:func:`commitment`) and whether hands, first draw and
    wall make up the whole set of tiles (``wall-dealt-mismatch``). ``None`` when it
    cannot be read (``wall-undealable``)."""
    text = published.wall
    problems: list[Problem] = []
    found = commitment(published)
    if found is not None:
        problems.append(found)
    try:
        kinds = parse_kinds(text)
        tiles = assign_ids([(k, r and rules.red_fives) for k, r in kinds])
    except TileError as exc:
        return None, [*problems, problem("wall-undealable", f"the wall cannot be read: {exc}")]
    dead_size = 14
    if len(tiles) == rules.table.tiles:  # the whole wall, the deal included (2022 on)
        return _dealt_wall(tiles, rs, rules), problems
    if len(tiles) <= dead_size:
        return None, [*problems, problem("wall-undealable", f"the wall has {len(tiles)} tiles")]
    held = [t for hand in rs.hands for t in hand] + [first_draw]
    have = Counter(key(t, rules.red_fives) for t in held) + Counter(
        key(t, rules.red_fives) for t in tiles)
    want = full_set(rules)
    if have != want:
        extra_tiles = sorted((have - want).elements())
        missing = sorted((want - have).elements())
        problems.append(problem("wall-dealt-mismatch", "the dealt hands and the wall are not "
                                f"the whole set of tiles: {_names(extra_tiles)} too many, "
                                f"{_names(missing)} missing"))
    live = (first_draw, *tiles[:len(tiles) - dead_size])
    wall = PublishedWall(live=live, dead=tuple(tiles[len(tiles) - dead_size:]),
                         replacements=_REPLACEMENTS[rules.players], dealt=rs.hands,
                         dice=tuple(rs.dice))
    return wall, problems


def _names(tiles: list[KindTile]) -> str:
    return " ".join(("0" + kind_str(k)[1:]) if red else kind_str(k) for k, red in tiles) \
        or "none"


def riichicity_wall(rs: RoundStart, published: Published, rules: Ruleset
                    ) -> tuple[PublishedWall | None, list[Problem]]:
    """The whole wall a Riichi City round publishes (``handCardEncode``) and the problems
    found with it: whether it is the one its sha256 (``handCardsSHA256``) committed to.

    The deal, as all 46 corpus rounds show it: four tiles at a time to each seat from
    the dealer on, three times, then one each, the dealer's fourteenth after them; the
    draws follow from the front, the dead wall is at the end as in :func:`majsoul_wall`.
    """
    text = published.wall
    problems: list[Problem] = []
    committed = published.sha256
    got = hashlib.sha256(text.encode()).hexdigest()
    if committed is None:
        problems.append(problem("wall-uncommitted", "the record gives the wall but no "
                                "commitment to it"))
    elif got != committed.lower():
        problems.append(problem("wall-commitment-mismatch", f"sha256 of the wall is {got}, "
                                f"the round committed to {committed}"))
    try:
        tiles = assign_ids([(k, r and rules.red_fives) for k, r in parse_kinds(text)])
    except TileError as exc:
        return None, [*problems, problem("wall-undealable", f"the wall cannot be read: {exc}")]
    if len(tiles) != rules.table.tiles:
        return None, [*problems, problem("wall-undealable", f"the wall has {len(tiles)} "
                                         f"tiles, not {rules.table.tiles}")]
    return _dealt_wall(tiles, rs, rules), problems


def _dealt_wall(tiles: list[Tile], rs: RoundStart, rules: Ruleset) -> PublishedWall:
    """A whole wall (the deal included) read as Riichi City's 46 corpus rounds and Mahjong
    Soul's whole walls deal it: four tiles at a time to each seat from the dealer on,
    three times, then one each; the dealer's fourteenth (its first draw) and the draws
    follow from the front; the dead wall is the last 14, read as :func:`majsoul_wall`
    reads it."""
    n = len(rs.hands)
    dealt: list[list[Tile]] = [[] for _ in range(n)]
    for k in range(n):
        seat = (rs.dealer + k) % n
        for r in range(3):
            start = 4 * k + 4 * n * r
            dealt[seat].extend(tiles[start:start + 4])
        dealt[seat].append(tiles[12 * n + k])
    return PublishedWall(live=tuple(tiles[13 * n:len(tiles) - 14]),
                         dead=tuple(tiles[len(tiles) - 14:]),
                         replacements=_REPLACEMENTS[rules.players],
                         dealt=tuple(tuple(h) for h in dealt), dice=tuple(rs.dice))

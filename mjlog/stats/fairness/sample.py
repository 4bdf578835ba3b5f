"""What one game gives the fairness report: each round's wall by kind, deal, dice and ura.

:func:`sample_game` reads a replayed record's events (it changes nothing and
runs no engine) and the walls :func:`mjlog.wall.verify.walls_for` finds for it.
A round's wall is *proven* when the platform committed to it (Tenhou's shuffle
seed, Mahjong Soul's and Riichi City's hashes) and every dealt, drawn and shown
tile the record gives is the wall's; a *mismatch* when it was committed but the
record or the commitment disagrees; *unreadable* when a wall is given but
cannot be read or dealt; *uncommitted* when the record states a wall
nobody committed to; *unknown* when only the deal and the draws are known.

Positions are in drawing order, whatever the platform's own array order is:
the hands of the seats from the dealer on (13 tiles each, one position each),
the live wall (the dealer's fourteenth tile first), the replacement tiles, the
dora indicators and the ura indicators; only as many indicators as the dead
wall holds beside its replacement tiles (three-player walls: 3 of each).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from mjlog.core import native
from mjlog.core.events import (
    Discard,
    DoraReveal,
    Draw,
    Event,
    GameStart,
    RoundStart,
    Win,
    round_label,
)
from mjlog.core.record import GameRecord
from mjlog.core.tiles import KIND_OF
from mjlog.families.riichi.hand.shape import shanten
from mjlog.families.riichi.scoring.fast import next_kind
from mjlog.formats.origin import round_published
from mjlog.stats.facts import game_key, key_of, native_tenhou, where_and_when
from mjlog.wall.source import WallSource
from mjlog.wall.tenhou_shuffle import SeedError, TenhouWall, parse_seed
from mjlog.wall.verify import differs, not_dealt, round_starts, round_walls, seed_text

Layout = tuple[int, int, int, int, int]
"""How a wall's positions are laid out: players, live tiles, replacement tiles, dora
indicators, ura indicators."""
Ura = tuple[int, int, float, float]
"""A riichi win's ura: the winner's seat, ura dora hit, expected hits, their variance."""
STATUSES = ("proven", "mismatch", "unreadable", "uncommitted", "unknown")
_WRONG = frozenset({"wall-commitment-mismatch", "wall-dealt-mismatch"})
"""Problems that make a committed wall a mismatch."""
"""What a round's wall is (see the module's docstring)."""


@dataclass(frozen=True, slots=True)
class RoundSample:
    """One round as the fairness report counts it."""

    label: str
    status: str
    """One of :data:`STATUSES`."""
    why: str
    """For a mismatch, what disagrees; empty otherwise."""
    dealer: int
    layout: Layout | None
    kinds: bytes | None
    """The wall's tile kinds in position order (see the module), when the wall is known
    and not a mismatch."""
    dice: tuple[int, ...]
    """Dice the wall rolled (Tenhou's shuffle) or, for an unproven round, the record's."""
    shanten: tuple[int | None, ...]
    """Each seat's starting shanten (the dealer's with his fourteenth tile); ``None``
    where the deal is not known."""
    pairs: tuple[int | None, ...]
    """Each seat's kinds held two or more times as dealt (the dealer's with his fourteenth
    tile); ``None``
    where the deal is not known."""
    ura: tuple[Ura, ...]


@dataclass(frozen=True, slots=True)
class GameSample:
    """One game's rounds, with what the report groups them by."""

    key: int
    platform: str
    players: int
    month: str | None
    source: str
    names: tuple[str, ...]
    rounds: tuple[RoundSample, ...]


def sample_game(record: GameRecord, index: int = 0) -> GameSample | None:
    """The game's samples; ``None`` for a record that is not a riichi game (13-tile
    hands at a 136- or 108-tile table) or has no game start."""
    events = record.events
    if not events or not isinstance(events[0], GameStart):
        return None
    start = events[0]
    n = len(start.players)
    if start.ruleset.table.tiles not in (108, 136) or n not in (3, 4):
        return None
    starts = round_starts(events)
    walls, said = round_walls(record, starts)
    rounds = []
    bounds = [*starts, len(events)]
    for r, i in enumerate(starts):
        wall = walls[r] if r < len(walls) else None
        codes = {code: msg for code, msg, _ in said[r]} if r < len(said) else {}
        rounds.append(_round(events[i:bounds[r + 1]], wall, codes, start.ruleset.red_fives))
    platform, date = where_and_when(record.path, start)
    return GameSample(
        key=game_key(start, events), platform=platform or "unknown", players=n,
        month=f"{date.year:04d}-{date.month:02d}" if date else None,
        source=record.path if index == 0 else f"{record.path}#{index + 1}",
        names=tuple(p.name for p in start.players), rounds=tuple(rounds))


def sample_native(data: bytes, path: str) -> GameSample | None:
    """The game of a Tenhou XML file sampled by the native core: the twin of
    :func:`mjlog.formats.read_bytes` then :func:`sample_game`. None on the Python route,
    for another format, a seed of another form than 2009 on, and any game the core
    declines (see ``core/src/tenhou_fairness.rs``: a mismatch among them), which the
    Python route then samples."""
    found = native_tenhou(data, path)
    if found is None:
        return None
    text, game, start = found
    seed = seed_text(start)
    try:
        parsed = parse_seed(seed) if seed is not None else None
    except SeedError:
        return None
    core = native.core()
    if parsed is None or parsed.form == "mt19937ar" or core is None:
        return None
    rounds = core.tenhou_fairness(text, list(parsed.words), parsed.form == "hex",
                                  len(start.players))
    if isinstance(rounds, str):  # declined, with the reason
        return None
    platform, date = where_and_when(path, start)
    return GameSample(
        key=key_of(start, game.first_hands), platform=platform or "unknown",
        players=len(start.players),
        month=f"{date.year:04d}-{date.month:02d}" if date else None, source=path,
        names=tuple(p.name for p in start.players),
        rounds=tuple(RoundSample(
            label=round_label(wind, number, honba), status="proven", why="", dealer=dealer,
            layout=tuple(layout), kinds=kinds, dice=tuple(dice), shanten=tuple(shanten),
            pairs=tuple(pairs), ura=tuple(tuple(u) for u in ura))
            for wind, number, honba, dealer, layout, kinds, dice, shanten, pairs, ura in rounds))


def _round(events: Sequence[Event], wall: WallSource | None, codes: dict[str, str],
           red: bool) -> RoundSample:
    """One round's sample: ``events`` from its start to the next; ``codes``: the problems
    :func:`mjlog.wall.verify.round_walls` found with its wall."""
    rs = events[0]
    assert isinstance(rs, RoundStart)
    n = len(rs.hands)
    wrong = [msg for code, msg in codes.items() if code in _WRONG]
    why = wrong[0] if wrong else ""
    if wrong:
        status = "mismatch"
    elif wall is None and (codes.get("wall-undealable") or round_published(rs) is not None):
        status = "unreadable"
        why = codes.get("wall-undealable") or "the published wall cannot be read"
    elif wall is None:
        status = "unknown"
    elif "wall-uncommitted" in codes or rs.wall is not None:
        why = _disagreement(events, wall, red)
        status = "mismatch" if why else "uncommitted"
    else:
        why = _disagreement(events, wall, red)
        status = "mismatch" if why else "proven"
    kinds = layout = None
    if wall is not None and status != "mismatch":
        layout, kinds = _positions(wall, rs.dealer, n)
    dice = tuple(wall.dice) if isinstance(wall, TenhouWall) and status == "proven" else \
        tuple(rs.dice) if status != "proven" else ()
    label = round_label(rs.round_wind, rs.round_number, rs.honba)
    return RoundSample(label=label, status=status, why=why, dealer=rs.dealer, layout=layout,
                       kinds=kinds, dice=dice, **_starting(events),
                       ura=tuple(_ura(events, n)))



def wall_round(wall: WallSource, dealer: int, status: str = "proven",
               label: str = "E1-0") -> RoundSample:
    """A round known by its wall alone, dealt as the wall deals it, with no play (no
    ura): what a simulation of a shuffle gives the report."""
    hands = wall.hands(dealer)
    rs = RoundStart(round_wind=0, round_number=1, honba=0, kyotaku=0, dealer=dealer,
                    scores=(), dora_indicator=wall.dora(0), hands=hands)
    layout, kinds = _positions(wall, dealer, len(hands))
    return RoundSample(label=label, status=status, why="", dealer=dealer, layout=layout,
                       kinds=kinds, dice=tuple(wall.dice),
                       **_starting([rs, Draw(player=dealer, tile=wall.draw(0))]), ura=())


def _positions(wall: WallSource, dealer: int, n: int) -> tuple[Layout, bytes]:
    """The layout and the tile kinds of ``wall`` in drawing order (see the module)."""
    hands = wall.hands(dealer)
    rin, dora, _ = wall.counts
    live = wall.live_count
    size = 13 * n + live + 14
    pairs = min(dora, (size - 13 * n - live - rin) // 2)
    out = bytearray()
    for k in range(n):
        out.extend(KIND_OF[t] for t in hands[(dealer + k) % n])
    out.extend(KIND_OF[wall.draw(k)] for k in range(live))
    out.extend(KIND_OF[wall.rinshan(k)] for k in range(rin))
    out.extend(KIND_OF[wall.dora(k)] for k in range(pairs))
    out.extend(KIND_OF[wall.ura(k)] for k in range(pairs))
    return (n, live, rin, pairs, pairs), bytes(out)


def _disagreement(events: Sequence[Event], wall: WallSource, red: bool) -> str:
    """What the record gives that its wall does not (dealt hands, live and replacement
    draws, dora and ura indicators, in that order); empty when everything agrees. Compared
    by kind and red for a wall that names kinds only."""
    rs = events[0]
    assert isinstance(rs, RoundStart)

    def same(got: int, want: int) -> bool:
        return not differs(wall, red, got, want)

    for seat, (want, got) in enumerate(zip(wall.hands(rs.dealer), rs.hands, strict=False)):
        if len(want) != len(got) or not_dealt(wall, red, want, got):
            return f"seat {seat}'s dealt hand"
    draws = rinshan = 0
    doras = [rs.dora_indicator]
    for ev in events:
        if type(ev) is Draw:
            if ev.rinshan:
                if rinshan >= wall.counts[0] or not same(ev.tile, wall.rinshan(rinshan)):
                    return f"replacement draw {rinshan + 1}"
                rinshan += 1
            else:
                if not same(ev.tile, wall.draw(draws)):
                    return f"live-wall draw {draws + 1}"
                draws += 1
        elif type(ev) is DoraReveal:
            doras.append(ev.indicator)
        elif type(ev) is Win and any(k >= wall.counts[2] or not same(t, wall.ura(k))
                                     for k, t in enumerate(ev.ura_indicators)):
            return "an ura indicator"
    if any(k < wall.counts[1] and not same(t, wall.dora(k)) for k, t in enumerate(doras)):
        return "a dora indicator"
    return ""


def _starting(events: Sequence[Event]) -> dict[str, tuple[int | None, ...]]:
    """Each seat's shanten and pairs as dealt (``shanten``, ``pairs``): 13 tiles, the
    dealer's with his first draw (``None`` for a seat whose hand is not known, and for
    the dealer when the round does not start with his draw)."""
    rs = events[0]
    assert isinstance(rs, RoundStart)
    first = events[1] if len(events) > 1 else None
    shantens: list[int | None] = []
    pairs: list[int | None] = []
    for seat, hand in enumerate(rs.hands):
        tiles = list(hand)
        if seat == rs.dealer and type(first) is Draw and first.player == seat:
            tiles.append(first.tile)
        if len(tiles) != (14 if seat == rs.dealer else 13) or \
                any(t < 0 or t >= 136 for t in tiles):
            shantens.append(None)
            pairs.append(None)
            continue
        counts = [0] * 34
        for t in tiles:
            counts[KIND_OF[t]] += 1
        shantens.append(shanten(counts))
        pairs.append(34 - counts.count(0) - counts.count(1))
    return {"shanten": tuple(shantens), "pairs": tuple(pairs)}


def _ura(events: Sequence[Event], n: int) -> list[Ura]:
    """For each riichi win that shows its ura indicators: the ura dora it hit, and the
    mean and variance of the hits were each indicator any tile of the wall not yet dealt,
    drawn or shown (:func:`expected_hits`). Under a uniform shuffle those tiles are
    exchangeable: nobody's decisions depended on them. Nothing for a round whose deal
    is not wholly known."""
    rs = events[0]
    assert isinstance(rs, RoundStart)
    three = n == 3
    left = [0 if three and 1 <= k <= 7 else 4 for k in range(34)]
    for tile in (*(t for hand in rs.hands for t in hand), rs.dora_indicator):
        if not 0 <= tile < 136:
            return []
        left[KIND_OF[tile]] -= 1
    riichi: set[int] = set()
    out: list[Ura] = []
    for ev in events[1:]:
        if type(ev) is Draw or type(ev) is DoraReveal:
            tile = ev.indicator if isinstance(ev, DoraReveal) else ev.tile
            if not 0 <= tile < 136:
                return out
            left[KIND_OF[tile]] -= 1
        elif type(ev) is Discard and ev.riichi:
            riichi.add(ev.player)
        elif type(ev) is Win and ev.winner in riichi and ev.ura_indicators:
            out.append(_ura_of(ev, left, three))
    return out


def _ura_of(win: Win, left: list[int], three: bool) -> Ura:
    """A riichi win's ura hits and their expectation given the tiles ``left`` unseen."""
    mine = [0] * 34
    for tile in (*win.hand, *(t for meld in win.melds for t in meld)):
        mine[KIND_OF[tile]] += 1
    mean, var = expected_hits([max(0, u) for u in left], mine, three)
    m = len(win.ura_indicators)
    hits = sum(mine[next_kind(KIND_OF[t], three)] for t in win.ura_indicators)
    return win.winner, hits, m * mean, m * var


def expected_hits(unseen: Sequence[int], mine: Sequence[int], three: bool
                  ) -> tuple[float, float]:
    """Mean and variance of the dora a hand of kinds ``mine`` holds for one indicator
    drawn uniformly from the ``unseen`` tiles (counts by kind). Several indicators add
    their means and, as if drawn with replacement, their variances (slightly more than
    drawn without, so a test on them errs to the cautious side)."""
    total = sum(unseen)
    if total == 0:
        return 0.0, 0.0
    mean = sum(u * mine[next_kind(k, three)] for k, u in enumerate(unseen)) / total
    second = sum(u * mine[next_kind(k, three)] ** 2 for k, u in enumerate(unseen)) / total
    return mean, second - mean * mean

"""Prove a Tenhou record's tiles from its shuffle seed: dealt hands, draws, indicators, dice.

Reads the events of one game (consumer only: it changes nothing) and returns
findings. The walls come from :mod:`mjlog.wall.tenhou_shuffle`. A record that
starts later than its seed's first deal (an excerpt) is found by trying the
seed's first :data:`SEARCH_DEALS` walls; that gives one ``wall-excerpt`` note.

Codes (``error`` unless said):

A record that states its physical wall (``RoundStart.wall`` with its dice) is
checked the same way against the deal :mod:`mjlog.wall.dealing` computes under
the ruleset's ``dealing`` method.

========================  =====================================================
``wall-dealt-mismatch``   a seat's dealt hand is not the one the shuffle deals
``wall-dice-mismatch``    the recorded dice differ from the shuffle's
``wall-dora-mismatch``    a dora indicator (first or after a kan) differs
``wall-draw-mismatch``    a draw from the live wall is not the shuffle's tile
``wall-rinshan-mismatch`` a replacement draw is not the shuffle's tile
``wall-ura-mismatch``     an ura indicator shown at a win differs
``wall-undealable``       a stated wall and dice that cannot be dealt
``wall-unverifiable``     info: no seed whose shuffle is known and no stated
                          wall (one per round)
``wall-excerpt``          info: the record starts at a later deal of its seed
========================  =====================================================
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from mjlog.diagnostics import Finding, Severity, Src
from mjlog.events import (
    MOVES,
    DoraReveal,
    Draw,
    Event,
    GameStart,
    RoundStart,
    Win,
    round_label,
)
from mjlog.record import GameRecord
from mjlog.tiles import Tile, tile_str
from mjlog.wall.dealing import RIICHI, TAIWAN, Deal, DealError, deal
from mjlog.wall.source import WallSource
from mjlog.wall.tenhou_shuffle import SeedError, TenhouSeed, TenhouShuffler, parse_seed

SEARCH_DEALS = 64
"""How many deals of a seed are tried to place a record's first round."""


def seed_text(start: GameStart) -> str | None:
    """The ``SHUFFLE seed`` a Tenhou game start carries, if any."""
    return dict(start.meta).get("shuffle.seed")


@dataclass(frozen=True, slots=True)
class DealtWall:
    """A physical :class:`~mjlog.wall.dealing.Deal` seen through :class:`WallSource`."""

    deal: Deal
    dice: tuple[int, ...]

    @property
    def counts(self) -> tuple[int, int, int]:
        d = self.deal
        return len(d.rinshan), len(d.dora_indicators), len(d.ura_indicators)

    @property
    def live_count(self) -> int:
        return len(self.deal.live)

    def hands(self, dealer: int) -> tuple[tuple[Tile, ...], ...]:
        n = len(self.deal.hands)
        return tuple(self.deal.hands[(seat - dealer) % n] for seat in range(n))

    def draw(self, k: int) -> Tile:
        live = self.deal.live
        return live[k] if k < len(live) else Tile(-1)

    def rinshan(self, k: int) -> Tile:
        return self.deal.rinshan[k]

    def dora(self, k: int) -> Tile:
        return self.deal.dora_indicators[k]

    def ura(self, k: int) -> Tile:
        return self.deal.ura_indicators[k]


def _stated_wall(rs: RoundStart, start: GameStart) -> DealtWall:
    """The deal a round's stated wall and dice give; raises :class:`DealError`."""
    assert rs.wall is not None
    rules = start.ruleset
    geometry = TAIWAN if rules.family == "taiwan16" else RIICHI
    if len(rs.hands) != geometry.players:
        raise DealError(f"physical dealing is defined for {geometry.players} players")
    per_wall = geometry.stacks * 2
    if len(rs.wall) != per_wall * geometry.players:
        raise DealError(f"the wall has {len(rs.wall)} tiles, not {per_wall * geometry.players}")
    walls = [
        [(rs.wall[w * per_wall + 2 * k], rs.wall[w * per_wall + 2 * k + 1])
         for k in range(geometry.stacks)]
        for w in range(geometry.players)
    ]
    method = "one-roll" if rules.dealing == "digital" else rules.dealing
    rel_hands = [rs.hands[(rs.dealer + k) % len(rs.hands)] for k in range(len(rs.hands))]
    return DealtWall(deal(walls, rs.dice, method=method, geometry=geometry,
                          hands=rel_hands if method == "automatic" else None), tuple(rs.dice))


def walls_for(record: GameRecord) -> tuple[list[WallSource | None], list[Finding]]:
    """The wall of each round of ``record`` (``None`` where unknown) and the notes made.

    A Tenhou game seed gives every round's wall; otherwise a round's own seed
    (early 2009) or its stated wall does.
    """
    events = record.events
    if not events or not isinstance(events[0], GameStart):
        return [], []
    start = events[0]
    rounds = [(i, e) for i, e in enumerate(events) if isinstance(e, RoundStart)]
    notes: list[Finding] = []

    def note(code: str, msg: str, i: int, rs: RoundStart,
             severity: Severity = Severity.INFO) -> None:
        notes.append(Finding(code=code, message=msg, severity=severity,
                             round=round_label(rs.round_wind, rs.round_number, rs.honba),
                             src=record.src(i)))

    walls: list[WallSource | None] = [None] * len(rounds)
    why = "the record has no shuffle seed"
    text = seed_text(start)
    seeded = False  # a known seed form: its failure to match was reported already
    if text is not None:
        try:
            seed = parse_seed(text)
        except SeedError as exc:
            why = str(exc)
        else:
            seeded = True
            walls = _seeded(seed, rounds, len(start.players), note)
    for r, (i, rs) in enumerate(rounds):
        if walls[r] is not None:
            continue
        if rs.wall is not None:
            try:
                walls[r] = _stated_wall(rs, start)
            except DealError as exc:
                note("wall-undealable", f"the stated wall cannot be dealt: {exc}", i, rs,
                     Severity.ERROR)
            continue
        if seeded:
            continue
        per_round = dict(rs.extra).get("shuffle")
        if per_round is not None:  # early 2009: each round carries its own seed
            try:
                walls[r] = TenhouShuffler(parse_seed(per_round)).next_wall(len(rs.hands))
                continue
            except SeedError as exc:
                why = f"this round's shuffle: {exc}"
        note("wall-unverifiable", f"the wall cannot be verified: {why}", i, rs)
    return walls, notes


def _seeded(
    seed: TenhouSeed, rounds: list[tuple[int, RoundStart]], n: int,
    note: Callable[..., None],
) -> list[WallSource | None]:
    """Every round's wall from the seed, the first round placed among the seed's deals."""
    if not rounds:
        return []
    shuffler = TenhouShuffler(seed)
    i0, first = rounds[0]
    for deal_no in range(SEARCH_DEALS):  # noqa: B007 (used after the loop)
        wall = shuffler.next_wall(n)
        if _same_hands(wall, first):
            break
    else:
        note("wall-dealt-mismatch", f"no deal among the first {SEARCH_DEALS} of this seed "
             "gives the recorded hands: the record's tiles do not come from its seed",
             i0, first, Severity.ERROR)
        return [None] * len(rounds)
    if deal_no:
        note("wall-excerpt", f"the record's first round is deal {deal_no + 1} of its seed "
             "(the record is an excerpt)", i0, first)
    walls: list[WallSource | None] = [wall]
    walls.extend(shuffler.next_wall(n) for _ in rounds[1:])
    return walls


def _same_hands(wall: WallSource, rs: RoundStart) -> bool:
    dealt = wall.hands(rs.dealer)
    return all(sorted(a) == sorted(b) for a, b in zip(dealt, rs.hands, strict=False))


def verify(record: GameRecord) -> list[Finding]:
    """Findings from comparing every dealt, drawn and shown tile with the seed's walls."""
    walls, findings = walls_for(record)
    if all(w is None for w in walls):
        return findings
    checker = _Checker(record, findings)
    r = -1
    for i, ev in enumerate(record.events):
        if isinstance(ev, RoundStart):
            r += 1
            checker.start_round(walls[r] if r < len(walls) else None, ev, i)
        elif checker.wall is not None:
            checker.event(ev, i)
    return findings


class _Checker:
    """Walks one game's events with the current round's wall."""

    def __init__(self, record: GameRecord, findings: list[Finding]) -> None:
        self.src_of: Callable[[int], Src | None] = record.src
        self.findings = findings
        self.wall: WallSource | None = None
        self.label = ""
        self.turn = self.draws = self.rinshan = self.doras = 0
        start = record.events[0]
        self.red = start.ruleset.red_fives if isinstance(start, GameStart) else True

    def find(self, code: str, msg: str, i: int, player: int | None = None) -> None:
        self.findings.append(Finding(code=code, message=msg, round=self.label, turn=self.turn,
                                     player=player, src=self.src_of(i)))

    def t(self, tile: int) -> str:
        return f"{tile_str(tile, self.red)} (id {tile})"

    def start_round(self, wall: WallSource | None, rs: RoundStart, i: int) -> None:
        self.wall = wall
        self.label = round_label(rs.round_wind, rs.round_number, rs.honba)
        self.turn = self.draws = self.rinshan = self.doras = 0
        if wall is None:
            return
        for seat, (want, got) in enumerate(zip(wall.hands(rs.dealer), rs.hands, strict=False)):
            if sorted(want) != sorted(got):
                extra = sorted(set(got) - set(want))
                self.find("wall-dealt-mismatch",
                          f"seat {seat} is dealt {', '.join(self.t(x) for x in extra)}, which "
                          "the shuffle does not deal to it", i, seat)
        if rs.dice and tuple(rs.dice) != wall.dice:
            self.find("wall-dice-mismatch", f"dice {list(rs.dice)} recorded, the shuffle "
                      f"rolls {list(wall.dice)}", i)
        self._dora(rs.dora_indicator, i)

    def _dora(self, tile: int, i: int) -> None:
        assert self.wall is not None
        want = self.wall.dora(self.doras)
        if tile != want:
            self.find("wall-dora-mismatch", f"dora indicator {self.doras + 1} is "
                      f"{self.t(tile)}, the shuffle shows {self.t(want)}", i)
        self.doras += 1

    def event(self, ev: Event, i: int) -> None:
        wall = self.wall
        assert wall is not None
        if isinstance(ev, MOVES):
            self.turn += 1
        if isinstance(ev, Draw):
            if ev.rinshan:
                want = wall.rinshan(self.rinshan) if self.rinshan < wall.counts[0] else None
                self.rinshan += 1
                if ev.tile != want:
                    self.find("wall-rinshan-mismatch", f"replacement draw {self.rinshan} is "
                              f"{self.t(ev.tile)}, the shuffle gives "
                              f"{self.t(want) if want is not None else 'none'}", i, ev.player)
            else:
                want = wall.draw(self.draws)
                self.draws += 1
                if ev.tile != want:
                    self.find("wall-draw-mismatch", f"live-wall draw {self.draws} is "
                              f"{self.t(ev.tile)}, the shuffle gives {self.t(want)}", i,
                              ev.player)
        elif isinstance(ev, DoraReveal):
            if self.doras < wall.counts[1]:
                self._dora(ev.indicator, i)
        elif isinstance(ev, Win):
            for k, tile in enumerate(ev.ura_indicators[: wall.counts[2]]):
                if tile != wall.ura(k):
                    self.find("wall-ura-mismatch", f"ura indicator {k + 1} is {self.t(tile)}, "
                              f"the shuffle shows {self.t(wall.ura(k))}", i, ev.winner)

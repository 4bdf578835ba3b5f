"""Prove a Tenhou record's tiles from its shuffle seed: dealt hands, draws, indicators, dice.

Reads the events of one game (consumer only: it changes nothing) and returns
findings. The walls come from :mod:`mjlog.wall.tenhou_shuffle`. A record that
starts later than its seed's first deal (an excerpt) is found by trying the
seed's first :data:`SEARCH_DEALS` walls; that gives one ``wall-excerpt`` note.

Codes (``error`` unless said):

========================  =====================================================
``wall-dealt-mismatch``   a seat's dealt hand is not the one the shuffle deals
``wall-dice-mismatch``    the recorded dice differ from the shuffle's
``wall-dora-mismatch``    a dora indicator (first or after a kan) differs
``wall-draw-mismatch``    a draw from the live wall is not the shuffle's tile
``wall-rinshan-mismatch`` a replacement draw is not the shuffle's tile
``wall-ura-mismatch``     an ura indicator shown at a win differs
``wall-unverifiable``     info: no seed whose shuffle is known (one per round)
``wall-excerpt``          info: the record starts at a later deal of its seed
========================  =====================================================
"""

from __future__ import annotations

from collections.abc import Callable

from mjlog.diagnostics import Finding, Severity, Src
from mjlog.events import (
    AddedKan,
    Chi,
    ClosedKan,
    Discard,
    DoraReveal,
    Draw,
    Event,
    GameStart,
    Kita,
    OpenKan,
    Pon,
    RoundStart,
    Win,
    round_label,
)
from mjlog.record import GameRecord
from mjlog.tiles import tile_str
from mjlog.wall.tenhou_shuffle import SeedError, TenhouShuffler, TenhouWall, parse_seed

SEARCH_DEALS = 64
"""How many deals of a seed are tried to place a record's first round."""

_MOVES = (Draw, Discard, Chi, Pon, OpenKan, AddedKan, ClosedKan, Kita)


def seed_text(start: GameStart) -> str | None:
    """The ``SHUFFLE seed`` a Tenhou game start carries, if any."""
    return dict(start.meta).get("shuffle.seed")


def walls_for(record: GameRecord) -> tuple[list[TenhouWall | None], list[Finding]]:
    """The wall of each round of ``record`` (``None`` where unknown) and the notes made."""
    events = record.events
    if not events or not isinstance(events[0], GameStart):
        return [], []
    start = events[0]
    n = len(start.players)
    rounds = [(i, e) for i, e in enumerate(events) if isinstance(e, RoundStart)]
    notes: list[Finding] = []

    def note(code: str, msg: str, i: int, rs: RoundStart) -> None:
        notes.append(Finding(code=code, message=msg, severity=Severity.INFO,
                             round=round_label(rs.round_wind, rs.round_number, rs.honba),
                             src=record.src(i)))

    try:
        seed = parse_seed(seed_text(start) or "")
    except SeedError as exc:
        for i, rs in rounds:
            per_round = dict(rs.extra).get("shuffle")
            why = (f"this round's shuffle {per_round[:24]!r}… uses a method that is not "
                   "established" if per_round else str(exc))
            note("wall-unverifiable", f"the wall cannot be verified: {why}", i, rs)
        return [None] * len(rounds), notes
    shuffler = TenhouShuffler(seed)
    if not rounds:
        return [], notes
    i0, first = rounds[0]
    for deal in range(SEARCH_DEALS):  # noqa: B007 (used after the loop)
        wall = shuffler.next_wall(n)
        if _same_hands(wall, first):
            break
    else:
        return [None] * len(rounds), [Finding(
            code="wall-dealt-mismatch", severity=Severity.ERROR,
            message=f"no deal among the first {SEARCH_DEALS} of this seed gives the recorded "
            "hands: the record's tiles do not come from its seed",
            round=round_label(first.round_wind, first.round_number, first.honba),
            src=record.src(i0))]
    if deal:
        note("wall-excerpt", f"the record's first round is deal {deal + 1} of its seed "
             "(the record is an excerpt)", i0, first)
    walls: list[TenhouWall | None] = [wall]
    walls.extend(shuffler.next_wall(n) for _ in rounds[1:])
    return walls, notes


def _same_hands(wall: TenhouWall, rs: RoundStart) -> bool:
    dealt = wall.hands(rs.dealer)
    return all(sorted(a) == sorted(b) for a, b in zip(dealt, rs.hands, strict=False))


def verify(record: GameRecord) -> list[Finding]:
    """Findings from comparing every dealt, drawn and shown tile with the seed's walls."""
    walls, findings = walls_for(record)
    if not walls or all(w is None for w in walls):
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
        self.wall: TenhouWall | None = None
        self.label = ""
        self.turn = self.draws = self.rinshan = self.doras = 0
        start = record.events[0]
        self.red = start.ruleset.red_fives if isinstance(start, GameStart) else True

    def find(self, code: str, msg: str, i: int, player: int | None = None) -> None:
        self.findings.append(Finding(code=code, message=msg, round=self.label, turn=self.turn,
                                     player=player, src=self.src_of(i)))

    def t(self, tile: int) -> str:
        return f"{tile_str(tile, self.red)} (id {tile})"

    def start_round(self, wall: TenhouWall | None, rs: RoundStart, i: int) -> None:
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
        if isinstance(ev, _MOVES):
            self.turn += 1
        if isinstance(ev, Draw):
            if ev.rinshan:
                want = wall.rinshan(self.rinshan) if self.rinshan < len(
                    wall.layout.rinshan) else None
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
            if self.doras < len(wall.layout.dora):
                self._dora(ev.indicator, i)
        elif isinstance(ev, Win):
            for k, tile in enumerate(ev.ura_indicators[: len(wall.layout.ura)]):
                if tile != wall.ura(k):
                    self.find("wall-ura-mismatch", f"ura indicator {k + 1} is {self.t(tile)}, "
                              f"the shuffle shows {self.t(wall.ura(k))}", i, ev.winner)

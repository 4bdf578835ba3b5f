"""Prove a Tenhou record's tiles from its shuffle seed: dealt hands, draws, indicators, dice.

Reads the events of one game (consumer only: it changes nothing) and returns
findings. The walls come from :mod:`mjlog.wall.tenhou_shuffle`. A record that
starts later than its seed's first deal (an excerpt) is found by trying the
seed's first :data:`SEARCH_DEALS` walls; that gives one ``wall-excerpt`` note.

A record that states its physical wall (``RoundStart.wall`` with its dice) is
checked the same way against the deal :mod:`mjlog.wall.dealing` computes under
the ruleset's ``dealing`` method. The check is an observer of the replay
(:class:`WallCheck`); its codes (``wall-draw-mismatch``, ``wall-unverifiable``
…) are listed with their meaning in :mod:`mjlog.core.catalogue`.
"""

from __future__ import annotations

from bisect import bisect_left
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from mjlog.core.diagnostics import Finding, Severity, Src
from mjlog.core.events import (
    DoraReveal,
    Draw,
    Event,
    GameStart,
    Published,
    RoundStart,
    Win,
    round_label,
)
from mjlog.core.record import GameRecord
from mjlog.core.tiles import Tile, tile_str
from mjlog.families.registry import family_of
from mjlog.formats.origin import of_start, round_published
from mjlog.replay.engine import Engine
from mjlog.replay.observer import Observer
from mjlog.wall.dealing import Deal, DealError, deal
from mjlog.wall.published import (
    Problem,
    key,
    majsoul_wall,
    problem,
    riichicity_wall,
)
from mjlog.wall.source import WallSource
from mjlog.wall.tenhou_shuffle import SeedError, TenhouSeed, TenhouShuffler, parse_seed

SEARCH_DEALS = 64
"""How many deals of a seed are tried to place a record's first round."""


def seed_text(start: GameStart) -> str | None:
    """The ``SHUFFLE seed`` a Tenhou game start carries, if any (its origin's)."""
    return of_start(start, "").shuffle_seed


@dataclass(frozen=True, slots=True)
class DealtWall:
    """A physical :class:`~mjlog.wall.dealing.Deal` seen through :class:`WallSource`."""

    deal: Deal
    dice: tuple[int, ...]
    by_kind = False

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


class NoDeal(DealError):
    """A stated wall of a family that defines no physical deal
    (:meth:`mjlog.families.base.RuleFamily.wall`): unverifiable, not wrong."""


def _stated_wall(rs: RoundStart, start: GameStart) -> DealtWall:
    """The deal a round's stated wall and dice give, with the table its family builds;
    raises :class:`DealError` (:class:`NoDeal` where the family builds none)."""
    assert rs.wall is not None
    rules = start.ruleset
    geometry = family_of(rules).wall(rules.players)
    if geometry is None:
        raise NoDeal(f"mjlog defines no physical deal for the {rules.family} family")
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


def walls_for(record: GameRecord, starts: list[int] | None = None
              ) -> tuple[list[WallSource | None], list[Finding]]:
    """The wall of each round of ``record`` (``None`` where unknown) and the notes made.
    ``starts``: where its rounds start (:func:`round_starts`), when the caller has them.

    A Tenhou game seed gives every round's wall; otherwise a round's own seed
    (early 2009) or its stated wall does. A published wall's problem is noted once a
    record (``wall-uncommitted``: once for all its kinds); the rest once a round.
    """
    events = record.events
    walls, problems = round_walls(record, starts)
    rounds = [i for i in (round_starts(events) if starts is None else starts)
              if isinstance(events[i], RoundStart)]
    notes: list[Finding] = []
    told: set[str] = set()
    for i, said in zip(rounds, problems, strict=False):
        rs = events[i]
        assert isinstance(rs, RoundStart)
        for code, msg, once in said:
            if once and code in told:
                continue
            told.add(code)
            notes.append(Finding(code=code, message=msg,
                                 severity=_SEVERITY.get(code, Severity.ERROR),
                                 round=round_label(rs.round_wind, rs.round_number, rs.honba),
                                 src=record.src(i)))
    return walls, notes


_SEVERITY: dict[str, Severity] = {"wall-uncommitted": Severity.INFO,
                                  "wall-unverifiable": Severity.INFO,
                                  "wall-excerpt": Severity.INFO}
"""The severity of the wall notes that are not errors."""
Said = tuple[str, str, bool]
"""A problem with a round's wall: code, message, and whether it is said once a record."""


def round_walls(record: GameRecord, starts: list[int] | None = None
                ) -> tuple[list[WallSource | None], list[list[Said]]]:
    """Each round's wall (``None`` where unknown) and the problems found with it, round
    by round (the first round's for what concerns the whole game's seed)."""
    events = record.events
    if not events or not isinstance(events[0], GameStart):
        return [], []
    start = events[0]
    rounds = [(i, rs) for i in (round_starts(events) if starts is None else starts)
              if isinstance(rs := events[i], RoundStart)]
    said: list[list[Said]] = [[] for _ in rounds]
    first: list[Said] = said[0] if said else []

    def note(code: str, msg: str, *_: object) -> None:
        first.append((code, msg, False))

    walls, why, seeded = _from_seed(start, rounds, note)
    for r, (i, rs) in enumerate(rounds):
        if walls[r] is not None:
            continue
        if (published := round_published(rs)) is not None:
            walls[r], problems = _published(events, i, rs, published, start)
            said[r].extend((code, msg, code == "wall-uncommitted") for code, msg in problems)
        elif rs.wall is not None:
            try:
                walls[r] = _stated_wall(rs, start)
            except NoDeal as exc:
                said[r].append((*problem("wall-unverifiable", "the wall cannot be verified: "
                                         f"{exc}"), False))
            except DealError as exc:
                said[r].append((*problem("wall-undealable", "the stated wall cannot be dealt: "
                                         f"{exc}"), False))
        elif not seeded and not rs.results_only:  # a score sheet's round has no wall
            walls[r], why = _round_seed(rs, why)
            if walls[r] is None:
                said[r].append((*problem("wall-unverifiable", "the wall cannot be verified: "
                                         f"{why}"), False))
    return walls, said


def round_starts(events: Sequence[Event]) -> list[int]:
    """Where each round starts in ``events``: found in C (``list.index`` over the events'
    classes), not by a Python loop over every event."""
    kinds = list(map(type, events))
    out: list[int] = []
    at = -1
    try:
        while True:
            at = kinds.index(RoundStart, at + 1)
            out.append(at)
    except ValueError:
        return out


def _from_seed(start: GameStart, rounds: list[tuple[int, RoundStart]],
               note: Callable[..., None]) -> tuple[list[WallSource | None], str, bool]:
    """Every round's wall from the game's shuffle seed (``None`` each without one), why
    there is none, and whether the seed was of a known form (its failure to match the
    record is then noted already)."""
    text = seed_text(start)
    if text is None:
        return [None] * len(rounds), "the record has no shuffle seed", False
    try:
        seed = parse_seed(text)
    except SeedError as exc:
        return [None] * len(rounds), str(exc), False
    return _seeded(seed, rounds, len(start.players), note), "", True


def _round_seed(rs: RoundStart, why: str) -> tuple[WallSource | None, str]:
    """The wall of a round that carries its own seed (early 2009), or why there is none."""
    per_round = dict(rs.extra).get("shuffle")
    if per_round is None:
        return None, why
    try:
        return TenhouShuffler(parse_seed(per_round)).next_wall(len(rs.hands)), why
    except SeedError as exc:
        return None, f"this round's shuffle: {exc}"


def _published(events: list[Event], i: int, rs: RoundStart, published: Published,
               start: GameStart) -> tuple[WallSource | None, list[Problem]]:
    """A round's published wall (:mod:`mjlog.wall.published`) and its problems."""
    first = events[i + 1] if i + 1 < len(events) else None
    if not isinstance(first, Draw) or first.player != rs.dealer:
        return None, [problem("wall-undealable", "the round does not start with the dealer's "
                              "fourteenth tile")]
    if published.platform == "riichicity":
        return riichicity_wall(rs, published, start.ruleset)
    return majsoul_wall(rs, published, first.tile, start.ruleset)


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
    """Findings from comparing every dealt, drawn and shown tile with the seed's walls
    (one replay of ``record`` with a :class:`WallCheck`)."""
    engine = Engine(record.src)
    check = WallCheck(record, engine)
    if check.active:
        engine.run(record.events, [check])
    return check.findings


def not_dealt(wall: WallSource | None, red: bool, want: Sequence[Tile],
              got: Sequence[Tile]) -> list[Tile]:
    """The tiles of a recorded hand ``got`` that ``wall`` does not deal to it (``want``),
    compared by kind and red (``red``: whether the game has red fives) for a wall that
    names kinds only, by physical tile otherwise."""
    if wall is not None and wall.by_kind:
        left = Counter(key(t, red) for t in want)
        out = []
        for t in sorted(got):
            if left[key(t, red)] > 0:
                left[key(t, red)] -= 1
            else:
                out.append(t)
        return out
    return sorted(set(got) - set(want)) if sorted(want) != sorted(got) else []


def differs(wall: WallSource | None, red: bool, got: int, want: int | None) -> bool:
    """Whether a recorded tile ``got`` is not the wall's ``want`` (None or negative: the
    wall has no tile there), compared as :func:`not_dealt` compares."""
    if want is None or want < 0:
        return True
    if wall is not None and wall.by_kind:
        return key(got, red) != key(want, red)
    return got != want


class WallCheck(Observer):
    """Compares each round's dealt hands, dice, draws and indicators with its wall.

    The walls come from :func:`walls_for` when the check is made (its notes
    are the first findings); :attr:`active` is false when no round has one,
    and then nothing is worth replaying for it.
    """

    name = "wall"
    dormant = frozenset({"after_draw"})
    """A round's live-wall draws are checked all at once when it starts
    (:meth:`_drawn_as_dealt`); one by one only in a round where one of them differs."""

    def __init__(self, record: GameRecord, engine: Engine) -> None:
        self.events = record.events
        self.starts = round_starts(self.events)
        self.walls, self.findings = walls_for(record, self.starts)
        self.active = any(w is not None for w in self.walls)
        self.engine = engine
        self.ahead = False
        """Whether the round's live-wall draws were all found the wall's at its start."""
        self.src_of: Callable[[int], Src | None] = record.src
        self.wall: WallSource | None = None
        self.rounds = 0
        self.draws = self.rinshan = self.doras = 0
        start = record.events[0] if record.events else None
        self.red = start.ruleset.red_fives if isinstance(start, GameStart) else True

    def find(self, code: str, msg: str, player: int | None = None) -> None:
        """A finding at the current event, with the replay's round and turn."""
        engine = self.engine
        self.findings.append(Finding(code=code, message=msg, round=engine.round,
                                     turn=engine.state.turn, player=player,
                                     src=self.src_of(engine.index)))

    def t(self, tile: int) -> str:
        """A tile as a finding names it: mpsz and physical id (mpsz only for a wall that
        names kinds)."""
        if tile < 0:
            return "no tile (the live wall is used up)"
        if self.wall is not None and self.wall.by_kind:
            return tile_str(tile, self.red)
        return f"{tile_str(tile, self.red)} (id {tile})"

    def not_dealt(self, want: tuple[Tile, ...], got: tuple[Tile, ...]) -> list[Tile]:
        """:func:`not_dealt` by this round's wall."""
        return not_dealt(self.wall, self.red, want, got)

    @property
    def giver(self) -> str:
        """What gave the wall, as findings name it."""
        return "the wall" if self.wall is not None and self.wall.by_kind else "the shuffle"

    def differ(self, got: int, want: int | None) -> bool:
        """:func:`differs` by this round's wall."""
        return differs(self.wall, self.red, got, want)

    def after_round_start(self, rs: RoundStart) -> None:
        r = self.rounds
        self.rounds += 1
        self.wall = wall = self.walls[r] if r < len(self.walls) else None
        self.draws = self.rinshan = self.doras = 0
        self.ahead = wall is None or self._drawn_as_dealt(wall)
        if self.ahead:
            self.engine.rest(self, "after_draw")
        else:
            self.engine.wake(self, "after_draw")
        if wall is None:
            return
        for seat, (want, got) in enumerate(zip(wall.hands(rs.dealer), rs.hands, strict=False)):
            extra = self.not_dealt(want, got)
            if extra:
                self.find("wall-dealt-mismatch",
                          f"seat {seat} is dealt {', '.join(self.t(x) for x in extra)}, which "
                          f"{self.giver} does not deal to it", seat)
        if rs.dice and tuple(rs.dice) != wall.dice:
            self.find("wall-dice-mismatch", f"dice {list(rs.dice)} recorded, the shuffle "
                      f"rolls {list(wall.dice)}")
        self._dora(rs.dora_indicator)

    def _drawn_as_dealt(self, wall: WallSource) -> bool:
        """Whether every live-wall draw the record gives in the round starting now is the
        tile ``wall`` gives, in order (never for a wall naming kinds only: those are
        compared one by one). Looks ahead in the record; judges nothing."""
        if wall.by_kind:
            return False
        i = self.engine.index + 1
        later = bisect_left(self.starts, i)
        end = self.starts[later] if later < len(self.starts) else len(self.events)
        drawn = [ev.tile for ev in self.events[i:end] if type(ev) is Draw and not ev.rinshan]
        dealt = [wall.draw(k) for k in range(len(drawn))]
        return drawn == dealt and min(dealt, default=0) >= 0

    def _dora(self, tile: int) -> None:
        assert self.wall is not None
        want = self.wall.dora(self.doras)
        if self.differ(tile, want):
            self.find("wall-dora-mismatch", f"dora indicator {self.doras + 1} is "
                      f"{self.t(tile)}, {self.giver} shows {self.t(want)}")
        self.doras += 1

    def after_draw(self, ev: Draw) -> None:
        wall = self.wall
        if wall is None:
            return
        if ev.rinshan:
            want = wall.rinshan(self.rinshan) if self.rinshan < wall.counts[0] else None
            self.rinshan += 1
            if self.differ(ev.tile, want):
                self.find("wall-rinshan-mismatch", f"replacement draw {self.rinshan} is "
                          f"{self.t(ev.tile)}, {self.giver} gives "
                          f"{self.t(want) if want is not None else 'none'}", ev.player)
        elif not self.ahead:  # else every live-wall draw of the round is the wall's
            want = wall.draw(self.draws)
            self.draws += 1
            if self.differ(ev.tile, want):
                self.find("wall-draw-mismatch", f"live-wall draw {self.draws} is "
                          f"{self.t(ev.tile)}, {self.giver} gives {self.t(want)}", ev.player)

    def after_dora_reveal(self, ev: DoraReveal) -> None:
        if self.wall is not None and self.doras < self.wall.counts[1]:
            self._dora(ev.indicator)

    def after_win(self, ev: Win) -> None:
        wall = self.wall
        if wall is None:
            return
        for k, tile in enumerate(ev.ura_indicators[: wall.counts[2]]):
            if self.differ(tile, wall.ura(k)):
                self.find("wall-ura-mismatch", f"ura indicator {k + 1} is {self.t(tile)}, "
                          f"{self.giver} shows {self.t(wall.ura(k))}", ev.winner)

"""How many corpus records support each convention mjlog inferred from data.

Usage::

    python benchmarks/evidence.py [--corpus DIR]

Replays every Tenhou record of the corpus (XML and tenhou.net/6) and counts,
for each convention that ``docs/scoring.md``, ``docs/formats.md`` and the wall
layouts state, the wins, draws, rounds or calls that exercise it, and how many
of them the platform's record agrees with (``agree/seen``). The docs quote
these counts; a convention seen in no record or in one is "unconfirmed" there.
Every record counted here also verifies clean (the corpus tests say so), so
each count is of records that would show a wrong rule as a mismatch.

It only counts; it judges nothing and changes nothing.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from collections.abc import Iterator, Sequence
from pathlib import Path

from mjlog.core.events import (
    AbortiveDraw,
    AddedKan,
    Chi,
    ClosedKan,
    Discard,
    DoraReveal,
    Draw,
    Event,
    ExhaustiveDraw,
    GameStart,
    Kita,
    OpenKan,
    Pon,
    RiichiAccepted,
    RoundStart,
    Win,
)
from mjlog.core.tiles import KIND_OF
from mjlog.families.riichi.hand.shape import counts_of, is_complete
from mjlog.formats import read_path
from mjlog.replay.engine import Engine
from mjlog.replay.state import TableState

ROOT = Path(__file__).resolve().parent.parent
CALLS = (Chi, Pon, OpenKan, AddedKan, ClosedKan, Kita)
Tally = Counter[str]


def _records(corpus: Path) -> Iterator[tuple[str, list[Event]]]:
    """(format, events) of every Tenhou record: XML, and tenhou.net/6 by Tenhou or converted."""
    rows = [r.split("\t") for r in (corpus / "_index.tsv").read_text("utf-8").splitlines()[1:]]
    for row in rows:
        if row[1] in ("tenhou-xml", "tenhou-json", "tenhou-json-lines", "tenhou6"):
            for rec in read_path(corpus / row[0]):
                yield ("xml" if row[1] == "tenhou-xml" else "json"), rec.events


def _agree(t: Tally, key: str, ok: bool) -> None:
    t[key + " seen"] += 1
    t[key + " agree"] += ok


class Scan:
    """One record's walk: the table, what happened since each riichi and in the round."""

    def __init__(self, fmt: str, tally: Tally) -> None:
        self.fmt, self.t = fmt, tally
        self.engine = Engine()
        self.since: dict[int, list[Event]] = {}
        self.round: list[Event] = []
        self.players = 4
        self.lobby = 0
        self.ippatsu_rule = True

    @property
    def state(self) -> TableState:
        return self.engine.state

    def run(self, events: Sequence[Event]) -> None:
        """Walk the events, counting each before the table applies it."""
        results: list[Event] = []
        for i, ev in enumerate(events):
            self.look(ev, results)
            if isinstance(ev, Win | ExhaustiveDraw | AbortiveDraw):
                results.append(ev)
            elif isinstance(ev, RoundStart):
                results = []
            self.engine.apply(ev, i)
            self.remember(ev)

    def look(self, ev: Event, results: list[Event]) -> None:
        if isinstance(ev, GameStart):
            self.players = ev.ruleset.players
            self.t[f"ruleset of a {self.fmt} record: {ev.ruleset.name}"] += 1
            self.ippatsu_rule = ev.ruleset.riichi.ippatsu
            go = dict(ev.meta).get("go.type", "")
            self.lobby = int(go) if go.isdigit() else 0
        elif isinstance(ev, RoundStart):
            self.round_start(ev, results)
        elif isinstance(ev, Win):
            self.win(ev)
        elif isinstance(ev, ExhaustiveDraw):
            self.exhaustive(ev)
            self.t[f"exhaustive draw ({self.fmt})"] += 1
        elif isinstance(ev, AbortiveDraw):
            self.t[f"abortive draw ({self.fmt}): {ev.kind}"] += 1
        elif isinstance(ev, Discard) and self.fmt == "xml":
            self.kan_dora_at_discard(ev)

    def remember(self, ev: Event) -> None:
        if isinstance(ev, RoundStart):
            self.since, self.round = {}, []
        if isinstance(ev, Discard) and ev.riichi:
            self.since[ev.player] = []
        elif isinstance(ev, CALLS):
            for seen in self.since.values():
                seen.append(ev)
        self.round.append(ev)

    # ------------------------------------------------------------ wins

    def win(self, ev: Win) -> None:
        names = {y.name for y in ev.yaku}
        self.t["tenhou or chiihou"] += bool({"tenhou", "chiihou"} & names)
        self.payments(ev)
        if any(y.han >= 13 for y in ev.yaku):
            return  # a yakuman lists no ippatsu, riichi or dora
        if self.ippatsu_rule:
            self.ippatsu(ev, names)
        self.first_go(ev, names)
        self.last_tile(ev, names)
        self.replacement(ev, names)

    def ippatsu(self, ev: Win, names: set[str]) -> None:
        ps = self.state.players[ev.winner]
        if not ps.riichi or len(ps.river) != ps.riichi_index + 1 or ev.winner not in self.since:
            return
        between = self.since[ev.winner]
        robbed = ev.from_player != ev.winner and between and between[-1] is self.round[-1]
        calls = between[:-1] if robbed else between
        has = "ippatsu" in names
        if robbed:
            kind = "kita" if isinstance(between[-1], Kita) else "kan"
            _agree(self.t, f"ippatsu kept: ron on a robbed {kind}", has)
            if kind == "kita":
                _agree(self.t, "a robbed kita scores no chankan", "chankan" not in names)
        if not calls:
            _agree(self.t, "ippatsu: nothing in between", has)
            return
        first = calls[0]
        if isinstance(first, Kita):
            whose = "own" if first.player == ev.winner else "another's"
            _agree(self.t, f"ippatsu broken: {whose} kita", not has)
        else:
            _agree(self.t, f"ippatsu broken: {type(first).__name__}", not has)

    def first_go(self, ev: Win, names: set[str]) -> None:
        ps = self.state.players[ev.winner]
        if ps.riichi and ps.riichi_index == 0:
            before = [e for e in self.round if isinstance(e, CALLS)
                      and self.round.index(e) < self._riichi_at(ev.winner)]
            if not before:
                _agree(self.t, "double riichi: first discard, no call before", "double-riichi"
                       in names)
            else:
                kind = "kita" if all(isinstance(e, Kita) for e in before) else "call"
                _agree(self.t, f"plain riichi: first discard after a {kind}",
                       "riichi" in names and "double-riichi" not in names)

    def _riichi_at(self, p: int) -> int:
        return next(i for i, e in enumerate(self.round)
                    if isinstance(e, Discard) and e.player == p and e.riichi)

    def last_tile(self, ev: Win, names: set[str]) -> None:
        if self.state.live_wall:
            return
        last_draw = next((e for e in reversed(self.round) if isinstance(e, Draw)), None)
        if ev.from_player == ev.winner:
            if last_draw is not None and last_draw.rinshan:
                _agree(self.t, "rinshan on the last tile: no haitei", "haitei" not in names)
            else:
                _agree(self.t, "haitei: tsumo on the last live tile", "haitei" in names)
        else:
            _agree(self.t, "houtei: ron on the last discard", "houtei" in names)

    def replacement(self, ev: Win, names: set[str]) -> None:
        """A tsumo on the tile drawn after a kan or a kita: rinshan kaihou either way."""
        if ev.from_player != ev.winner or len(self.round) < 2:
            return
        draw, before = self.round[-1], self.round[-2]
        if isinstance(draw, Draw) and draw.rinshan:
            what = "kita" if isinstance(before, Kita) else "kan"
            _agree(self.t, f"rinshan kaihou: tsumo on the tile after a {what}",
                   "rinshan-kaihou" in names)

    def payments(self, ev: Win) -> None:
        t, n = self.t, self.players
        tsumo = ev.from_player == ev.winner
        if ev.pao is not None:
            t[f"pao {'tsumo' if tsumo else 'ron'}{' with honba' if ev.honba else ''}"] += 1
        elif not tsumo and ev.honba:
            t[f"ron with honba, {n} players"] += 1
        elif tsumo and n == 3:
            t["three-player tsumo (no share for the absent seat)"] += 1
        if self.lobby & 0x200:
            t["win in a chip lobby (kiriage)"] += 1
            t["kiriage mangan in a chip lobby"] += (ev.han, ev.fu) in ((4, 30), (3, 60)) \
                and ev.points in (8000, 12000)

    # ------------------------------------------------------------ draws and next rounds

    def exhaustive(self, ev: ExhaustiveDraw) -> None:
        t = self.t
        if ev.nagashi:
            t["nagashi mangan"] += 1
            return
        tenpai = sum(1 for h in ev.hands if h is not None)
        t[f"exhaustive draw, {self.players} players, {tenpai} tenpai"] += 1
        for p, ps in enumerate(self.state.players):
            counts = counts_of([KIND_OF[x] for x in ps.concealed])
            for k in range(34):
                if counts[k] == 4:
                    counts[k] = 5
                    if is_complete(counts, len(ps.melds)):
                        _agree(t, "karaten (waits only on a kind held four times): noten",
                               ev.hands[p] is None if ev.hands else True)
                    counts[k] = 4

    def round_start(self, ev: RoundStart, results: list[Event]) -> None:
        if not results:
            return
        s, t = self.state, self.t
        kept = ev.dealer == s.dealer
        last = results[0]
        wins = [r for r in results if isinstance(r, Win)]
        if len(wins) > 1:
            t["multiple ron"] += 1
            paid = [w for w in wins if w.deltas and w.deltas[w.winner] > w.points]
            if paid:
                first = min(wins, key=lambda w: (w.winner - w.from_player) % s.n)
                _agree(t, "multiple ron with honba or sticks: all to the first in turn",
                       paid == [first])
        if isinstance(last, Win):
            dealer_won = any(isinstance(r, Win) and r.winner == s.dealer for r in results)
            _agree(t, "next round: the dealer keeps the seat after winning" if dealer_won
                   else "next round: the deal passes after another's win", kept == dealer_won)
        elif isinstance(last, AbortiveDraw):
            _agree(t, "next round: the dealer keeps the seat after an abortive draw", kept)
        elif isinstance(last, ExhaustiveDraw) and not last.nagashi and last.hands:
            tenpai = last.hands[s.dealer] is not None
            _agree(t, "next round: dealer tenpai keeps the seat at an exhaustive draw"
                   if tenpai else "next round: dealer noten passes the deal", kept == tenpai)

    # ------------------------------------------------------------ Tenhou XML only

    def kan_dora_at_discard(self, ev: Discard) -> None:
        """Where an open or added kan's dora was turned, counted at its player's discard."""
        kan_at = next((i for i in range(len(self.round) - 1, -1, -1)
                       if isinstance(self.round[i], OpenKan | AddedKan | ClosedKan)), None)
        if kan_at is None or any(isinstance(e, Discard) for e in self.round[kan_at + 1:]):
            return
        kan = self.round[kan_at]
        if getattr(kan, "player", -1) != ev.player:
            return
        after = self.round[kan_at + 1:]
        kind = "closed" if isinstance(kan, ClosedKan) else "open or added"
        where = ("just before the discard" if after and isinstance(after[-1], DoraReveal)
                 else "at once" if any(isinstance(e, DoraReveal) for e in after) else "none")
        self.t[f"kan dora of an {kind} kan: {where}"] += 1


def _walls(fmt: str, events: Sequence[Event], t: Tally) -> None:
    start = events[0] if events else None
    if fmt != "xml" or not isinstance(start, GameStart):
        return
    seed = dict(start.meta).get("shuffle.seed", "")
    form = ("base64" if seed.startswith("mt19937ar-sha512-n288-base64,") else
            "hex" if seed.startswith("mt19937ar-sha512-n288,") else "")
    for ev in events:
        if isinstance(ev, RoundStart):
            per_round = dict(ev.extra).get("shuffle", "")
            f = form or ("mt19937ar" if per_round.startswith("mt19937ar,") else "")
            if f:
                t[f"seeded round: {start.ruleset.players} players, {f}"] += 1


def _riichi_sticks(fmt: str, events: Sequence[Event], t: Tally) -> None:
    if fmt != "xml":
        return
    for i, ev in enumerate(events):
        if isinstance(ev, Discard) and ev.riichi:
            nxt = events[i + 1] if i + 1 < len(events) else None
            if isinstance(nxt, Win):
                t["riichi discard won on: no stick"] += not any(
                    isinstance(e, RiichiAccepted) for e in events[i + 1:i + 4])


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", default=str(ROOT.parent / "shared" / "corpus"))
    args = parser.parse_args(argv)
    corpus = Path(args.corpus)
    if not (corpus / "_index.tsv").is_file():
        print(f"no corpus at {corpus}", file=sys.stderr)
        return 2
    t: Tally = Counter()
    for fmt, events in _records(corpus):
        t[f"records ({fmt})"] += 1
        Scan(fmt, t).run(events)
        _walls(fmt, events, t)
        _riichi_sticks(fmt, events, t)
    for key in sorted(t):
        print(f"{t[key]:7d}  {key}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

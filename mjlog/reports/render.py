"""Text pictures of the table, for ``mjlog replay`` and for reports.

Only reads a :class:`~mjlog.replay.state.TableState`; never changes it.

River marks: ``*`` after a tile is the riichi declaration, ``'`` a tsumogiri
(the tile just drawn), and a tile in parentheses was called by another player.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from mjlog.core.events import (
    AddedKan,
    Chi,
    ClosedKan,
    Event,
    GameStart,
    OpenKan,
    Pon,
)
from mjlog.core.tiles import join_mpsz, tile_str, tiles_str
from mjlog.replay.state import TableState
from mjlog.wall.source import WallSource

WINDS = "ESWN"
WIND_NAMES = ("East", "South", "West", "North")


def meld_str(m: Event, seat: int, n: int, red: bool) -> str:
    """One meld: its kind, tiles and (for calls) which seat it came from."""
    if isinstance(m, Chi | Pon | OpenKan | AddedKan):
        rel = ("self", "right", "across", "left")[(m.from_player - seat) % n] if n == 4 else (
            ("self", "right", "left")[(m.from_player - seat) % n])
        kind = {Chi: "chi", Pon: "pon", OpenKan: "kan", AddedKan: "added-kan"}[type(m)]
        return f"{kind} {tiles_str(m.tiles, red)} ({tile_str(m.called, red)} from {rel})"
    if isinstance(m, ClosedKan):
        return f"closed-kan {tiles_str(m.tiles, red)}"
    return "?"


def table_text(state: TableState, game: GameStart | None, *, red: bool = True,
               heading: str = "", dora: bool = True) -> str:
    """The whole table: round, sticks, dora, wall, then each seat's hand, melds and river.

    ``dora``: whether the rule family plays dora; without, the dora line is left out
    (unless the state shows indicators all the same)."""
    s = state
    lines = []
    if heading:
        lines.append(heading)
    lines.append(
        f"{WIND_NAMES[s.round_wind]} {s.round_number}, honba {s.honba}, riichi sticks "
        f"{s.kyotaku}; dealer seat {s.dealer}; turn {s.turn}; live wall {s.live_wall}"
    )
    if dora or s.dora_indicators:
        lines.append("dora indicators: " + " ".join(tile_str(t, red) for t in s.dora_indicators))
    for p, ps in enumerate(s.players):
        name = game.players[p].name if game and p < len(game.players) else ""
        wind = WINDS[(p - s.dealer) % s.n]
        flags = []
        if ps.riichi:
            flags.append("riichi")
        if s.to_discard == p:
            flags.append("to discard")
        if s.to_draw == p:
            flags.append("to draw")
        lines.append(f"seat {p} {wind} {name or '-'}  {s.scores[p]}"
                     + (f"  [{', '.join(flags)}]" if flags else ""))
        unknown = f" and {ps.unknown} not written down" if ps.unknown else ""
        lines.append(f"  hand:  {tiles_str(ps.concealed, red) or '-'}{unknown}")
        if ps.melds or ps.kita:
            melds = [meld_str(m, p, s.n, red) for m in ps.melds]
            if ps.kita:
                melds.append(f"kita x{len(ps.kita)}")
            lines.append(f"  melds: {'; '.join(melds)}")
        river = []
        for i, d in enumerate(ps.river):
            t = tile_str(d.tile, red) + ("*" if d.riichi else "") + ("'" if d.tsumogiri else "")
            river.append(f"({t})" if i in ps.called_away else t)
        lines.append(f"  river: {' '.join(river) or '-'}")
    return "\n".join(lines) + "\n"


def result_text(res: dict[str, Any], names: Sequence[str], unit: str = "han") -> str:
    """A result screen (:func:`mjlog.reports.view.captions.result_screen`) as text: a win's hand,
    yaku and value, a draw's ready hands, every payment; the final standings."""
    def who(p: int) -> str:
        return names[p] if 0 <= p < len(names) else f"seat {p}"

    def mpsz(codes: str) -> str:
        return join_mpsz(codes[i:i + 2].replace("??", "?") for i in range(0, len(codes), 2))

    lines = []
    if res["kind"] == "win":
        how = "tsumo" if res["winner"] == res["from"] else f"ron from {who(res['from'])}"
        lines.append(f"result: {who(res['winner'])} wins by {how}")
        lines.append(f"  hand:  {mpsz(res['hand'])} + {res['tile']}"
                     + "".join(f" [{mpsz(m)}]" for m in res["melds"]))
        lines.extend(f"  {name}: {han} {unit}" for name, han in res["yaku"])
        fu = f" {res['fu']} fu" if unit == "han" else ""
        limit = f", {res['limit']}" if res["limit"] else ""
        lines.append(f"  value: {res['han']} {unit}{fu}{limit}, {res['points']:,} points"
                     + (f"; ura indicators {mpsz(res['ura'])}" if res["ura"] else ""))
    elif res["kind"] == "draw":
        lines.append(f"result: {res['name']}")
        lines.extend(f"  ready: {who(p)} {mpsz(h)}" for p, h in enumerate(res["hands"]) if h)
    else:
        lines.append("final standings:")
        lines.extend(f"  {place}. {name}: {score:,}" + (f", {pts:+g} points" if pts is not None
                                                         else "")
                     for place, _, name, score, pts in res["rows"])
    if res.get("deltas"):
        lines.append("  payments: " + ", ".join(f"{who(p)} {d:+,}" for p, d in
                                                enumerate(res["deltas"])))
    return "\n".join(lines) + "\n"


def wall_text(wall: WallSource, *, draws: int, rinshan: int, doras: int, red: bool = True) -> str:
    """The wall at a moment: what the live wall still holds (next tile first) and the dead wall.

    ``draws``, ``rinshan`` and ``doras`` say how many live draws, replacement
    draws and dora indicators the round has had so far.
    """
    def tiles(ts: Sequence[int]) -> str:
        return " ".join(tile_str(t, red) for t in ts) or "-"

    n_rinshan, n_dora, n_ura = wall.counts
    live = [wall.draw(k) for k in range(draws, max(draws, wall.live_count - rinshan))]
    replacements = [wall.rinshan(k) for k in range(rinshan, n_rinshan)]
    return "\n".join([
        f"wall (dice {'+'.join(map(str, wall.dice))})" if wall.dice else "wall",
        f"  live, {len(live)} left, next first: {tiles(live)}",
        f"  replacement tiles to come: {tiles(replacements)}",
        f"  dora indicators shown: {tiles([wall.dora(k) for k in range(min(doras, n_dora))])}; "
        f"to come: {tiles([wall.dora(k) for k in range(doras, n_dora)])}",
        f"  ura indicators: {tiles([wall.ura(k) for k in range(n_ura)])}",
    ]) + "\n"

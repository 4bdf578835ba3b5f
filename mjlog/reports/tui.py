"""``mjlog replay --interactive``: step through a game in the terminal.

The game is replayed once, before the first screen: :func:`game_steps` stops the engine
after every move, exactly where ``mjlog replay --turn N`` stops, and keeps the text that
command prints there (:func:`mjlog.reports.screens.replay_text`), so each screen is that
command's output for its move. After a round's last move comes the round's end, the
screen of ``mjlog replay --round R --end``. Moves are numbered as ``--turn`` counts them
and as the audit names a position: draws, discards and calls one each, 0 the deal.

:class:`Replay` is where the viewer is (a step, the seat followed, a scroll offset) and
what each key does to it (:data:`KEYS`); it draws nothing. :func:`run` shows it with
prompt_toolkit (the ``tui`` extra): a full-screen application that leaves the terminal as
it found it. Nothing here judges the game: the screens are the replay's and the engine's.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from typing import TYPE_CHECKING, Final

from mjlog.core.events import (
    AddedKan,
    Chi,
    ClosedKan,
    Discard,
    Event,
    GameStart,
    OpenKan,
    Pon,
    RoundStart,
    Win,
    round_label,
)
from mjlog.core.record import GameRecord
from mjlog.core.textsafe import terminal
from mjlog.families.registry import engine_for
from mjlog.replay.engine import Engine
from mjlog.replay.observer import TurnLimit
from mjlog.reports.screens import BEFORE_RESULT, Walls, replay_text, to_round_end

if TYPE_CHECKING:
    from prompt_toolkit.application import Application
    from prompt_toolkit.key_binding import KeyBindings


_CALLS: Final = (Chi, Pon, OpenKan, AddedKan, ClosedKan)
"""The moves the page's ``C`` stops at."""


@dataclass(frozen=True, slots=True)
class Step:
    """One screen of the game: a move of a round, or the round's end."""

    round: int
    """The round's index in the game (0: the first)."""
    label: str
    """The round's label (``E2-1``), as ``--round`` takes it."""
    first: int
    """The index of the round's start among the record's events."""
    turn: int | None
    """The move number (``--turn``; 0: as dealt); ``None`` at the round's end."""
    who: int | None
    """The seat that made this move (``None`` for the deal and the round's end)."""
    findings: int
    """How many findings the engine has made so far in the game."""
    text: str
    """The screen: what ``mjlog replay`` prints for this point, escaped."""
    mark: str = ""
    """What the page's jumps stop at: ``call`` (a chi, pon or kan), ``riichi`` (a riichi
    discard), ``win`` (a round's end with a win); empty for the rest."""


def game_steps(rec: GameRecord, name: str, walls: Walls | None = None) -> list[Step]:
    """Every screen of a game, in order: each round's deal, each move, then its end.

    ``name`` heads each screen as ``mjlog replay`` heads it (the record's name); with
    ``walls`` (:func:`mjlog.wall.verify.walls_for`) each screen shows the wall. Replays
    the record once; reports nothing (the screens carry the engine's findings).
    """
    engine = engine_for(rec)
    steps: list[Step] = []
    done = 0
    starts = [i for i, ev in enumerate(rec.events) if isinstance(ev, RoundStart)]
    for r, first in enumerate(starts):
        engine.run(rec.events, start=done, stop=first + 1)
        screen = _Screens(rec, engine, r, first, name, walls)
        steps.append(screen.step(0, first + 1))
        done = screen.moves(first + 1, steps)
        done, results = to_round_end(engine, rec.events, done)
        won = any(isinstance(ev, Win) for ev in results)
        steps.append(screen.step(None, done, results, mark="win" if won else ""))
    return steps


@dataclass(frozen=True, slots=True)
class _Screens:
    """Makes the steps of one round from the engine as it stands."""

    rec: GameRecord
    engine: Engine
    round: int
    first: int
    name: str
    walls: Walls | None

    def step(self, turn: int | None, stop: int, results: list[Event] | None = None,
             who: int | None = None, mark: str = "") -> Step:
        """The step at move ``turn`` (``None``: the round's end, with its ``results``), the
        engine having applied the events before ``stop``."""
        rs = self.rec.events[self.first]
        assert isinstance(rs, RoundStart)
        label = round_label(rs.round_wind, rs.round_number, rs.honba)
        where = f"turn {turn}" if turn is not None else "its end"
        text = replay_text(self.rec, self.engine, f"{self.name}  {label}, {where}", self.first,
                           stop, results=results, walls=self.walls)
        return Step(self.round, label, self.first, turn, who, len(self.engine.findings), text,
                    mark)

    def moves(self, stop: int, into: list[Step]) -> int:
        """Apply the round's moves one at a time from event ``stop``, each as ``--turn``
        does, adding each move's step to ``into``; stop before the round's result (or the
        next round) and return that event's index."""
        engine, events = self.engine, self.rec.events
        while True:
            turn = engine.state.turn
            after = engine.run(events, [TurnLimit(engine, turn + 1)], start=stop,
                               pause=BEFORE_RESULT)
            if engine.state.turn == turn:
                return after
            stop = after
            ev = events[stop - 1]
            who = getattr(ev, "player", None)
            mark = ("call" if isinstance(ev, _CALLS) else
                    "riichi" if isinstance(ev, Discard) and ev.riichi else "")
            into.append(self.step(engine.state.turn, stop, who=who if isinstance(who, int)
                                  else None, mark=mark))


class Replay:
    """Where the interactive replay is, and what each key does to it. Draws nothing."""

    def __init__(self, steps: list[Step], seats: list[str], at: int = 0) -> None:
        """``steps`` from :func:`game_steps`; ``seats`` the players' names (escaped when
        shown); ``at`` the step shown first."""
        self.steps = steps
        self.seats = seats
        self.at = min(max(at, 0), len(steps) - 1)
        self.seat: int | None = None
        """The seat followed by the seat moves (``None``: the seat that just moved)."""
        self.back: int | None = None
        """The move ``r`` returns to from its round's end."""
        self.scroll = 0
        self.help = False
        self.playing = False
        """Whether ``Space`` plays the moves one after another (:meth:`tick`)."""
        self._moves = [max(s.turn or 0 for s in steps if s.round == r)
                       for r in range(steps[-1].round + 1)]

    @property
    def step(self) -> Step:
        """The step shown."""
        return self.steps[self.at]

    def go(self, k: int) -> None:
        """Show step ``k`` (held to the game's first and last); forget the scroll."""
        self.at = min(max(k, 0), len(self.steps) - 1)
        self.scroll = 0
        self.back = None

    def move(self, d: int) -> None:
        """The next (``d=1``) or previous (``-1``) step."""
        self.go(self.at + d)

    def round_move(self, d: int) -> None:
        """The next (``d=1``) or previous (``-1``) round's deal, as the page's ``↓`` and
        ``↑`` go; before the first round, the game's first move, after the last, its end."""
        r = self.step.round + d
        deals = [k for k, s in enumerate(self.steps) if s.turn == 0 and s.round == r]
        if deals:
            self.go(deals[0])
        else:
            self.go(0 if d < 0 else len(self.steps) - 1)

    def seat_move(self, d: int) -> None:
        """The next or previous move of the seat followed (or of the seat that just moved);
        stays where it is when that seat has none."""
        seat = self.seat if self.seat is not None else self.step.who
        k = self.at + d
        while 0 <= k < len(self.steps):
            if self.steps[k].who == seat and seat is not None:
                self.go(k)
                return
            k += d

    def finding_move(self, d: int) -> None:
        """The next or previous step at which the engine made a new finding."""
        k = self.at + d
        while 0 < k < len(self.steps):
            if self.steps[k].findings > self.steps[k - 1].findings:
                self.go(k)
                return
            k += d

    def mark_move(self, mark: str, d: int) -> None:
        """The next or previous step marked ``mark`` (:attr:`Step.mark`), as the page's
        ``W``, ``C`` and ``I`` go; stays where it is when there is none."""
        k = self.at + d
        while 0 <= k < len(self.steps):
            if self.steps[k].mark == mark:
                self.go(k)
                return
            k += d

    def tick(self) -> bool:
        """One move of the play (``Space``): the next step; stops the play at the game's
        end. Returns whether it moved."""
        if not self.playing or self.at == len(self.steps) - 1:
            self.playing = False
            return False
        self.at, self.scroll = self.at + 1, 0
        return True

    def result(self) -> None:
        """The round's end; pressed there, back to the move it was pressed at (else to the
        round's last move)."""
        if self.step.turn is not None:
            here = self.at
            self.go(next(k for k in range(self.at, len(self.steps))
                         if self.steps[k].turn is None))
            self.back = here
        else:
            self.go(self.back if self.back is not None else self.at - 1)

    def follow(self, seat: int | None) -> None:
        """Follow ``seat`` with the seat moves (``None``: the seat that just moved); a seat
        not at the table changes nothing."""
        if seat is None or 0 <= seat < len(self.seats):
            self.seat = seat

    def status(self, height: int = 0) -> str:
        """The status line: round, move ``N of M`` (``--turn``'s numbering), the seat
        followed, whether the screen goes on below a body ``height`` lines high, the keys."""
        s = self.step
        where = f"turn {s.turn} of {self._moves[s.round]}" if s.turn is not None else "its end"
        seat = ("" if self.seat is None else
                f"  following seat {self.seat} {terminal(self.seats[self.seat])}")
        more = "  J: more below" if height and self.scroll + height < len(self._text()) else ""
        playing = "  playing (Space: stop)" if self.playing else ""
        return (f" {s.label}, {where}  (round {s.round + 1} of {len(self._moves)}){seat}{more}"
                f"{playing}   ←/→ move  ↑/↓ round  r result  ? keys  q quit")

    def lines(self, height: int) -> list[str]:
        """The body's lines, from the scroll offset, for a body ``height`` lines high (the
        keys instead while they are asked for); keeps the offset within the text (the last
        line may go to the top: a line wider than the terminal takes two)."""
        lines = self._text()
        self.scroll = min(max(self.scroll, 0), len(lines) - 1)
        return lines[self.scroll:self.scroll + height]

    def _text(self) -> list[str]:
        """The lines shown: the step's screen, or the keys."""
        return (HELP if self.help else self.step.text).rstrip("\n").split("\n")


PLAY_DELAY: Final = 0.5
"""Seconds between two moves while ``Space`` plays."""

KEYS: Final = (
    ("→  l", "the next move (after a round's last move: the round's end)"),
    ("←  h", "the previous move"),
    ("Shift+→  Shift+←", "the next or previous move of the seat followed (else of the "
     "seat that just moved)"),
    ("↓  PgDn  n", "the next round's deal"),
    ("↑  PgUp  p", "the previous round's deal"),
    ("Home  End", "the game's first move; the last round's end"),
    ("r", "the round's result (its end); again: back to the move"),
    ("1-4  0", "follow seat 0-3 with Shift+→/← (1: seat 0); 0: the seat that just moved"),
    ("w  W", "the next or previous win (a round's end)"),
    ("c  C", "the next or previous call (chi, pon, kan)"),
    ("i  I", "the next or previous riichi"),
    ("f  F", "the next or previous move with a new finding"),
    ("Space", f"play the moves one after another, {PLAY_DELAY:g} s each; again: stop"),
    ("J  K", "scroll a screen taller than the terminal"),
    ("?", "these keys (again: back to the table)"),
    ("q  Esc  Ctrl+C", "quit"),
)
"""The keys of the interactive replay and what they do, as ``?`` lists them."""

HELP: Final = "keys\n" + "".join(f"  {keys:<18} {what}\n" for keys, what in KEYS)
"""What ``?`` shows."""


def start_step(steps: list[Step], where: tuple[int, int, bool] | None) -> int:
    """The index of the step for ``(round's first event, turn, at its end)``; 0 without."""
    if where is None:
        return 0
    first, turn, at_end = where
    for k, s in enumerate(steps):
        if s.first == first and (s.turn is None if at_end else s.turn == turn):
            return k
    return 0


def run(rec: GameRecord, name: str, where: tuple[int, int, bool] | None,
        walls: Walls | None = None) -> None:
    """Step through ``rec`` in the terminal from ``where`` (see :func:`start_step`) until
    the user quits; ``name`` and ``walls`` as :func:`game_steps` takes them. Needs
    prompt_toolkit and a terminal; checks for neither (the command line does)."""
    steps = game_steps(rec, name, walls)
    start = rec.events[0] if rec.events and isinstance(rec.events[0], GameStart) else None
    names = [p.name or f"seat {i}" for i, p in enumerate(start.players)] if start else []
    _application(Replay(steps, names, start_step(steps, where))).run()


def _application(view: Replay) -> Application[None]:
    """The full-screen prompt_toolkit application showing ``view``: the screen above, the
    status line below, the keys bound to :class:`Replay`'s moves."""
    from prompt_toolkit.application import Application, get_app
    from prompt_toolkit.layout import HSplit, Layout, Window
    from prompt_toolkit.layout.controls import FormattedTextControl

    def height() -> int:
        return max(get_app().output.get_size().rows - 1, 1)

    layout = Layout(HSplit([
        Window(FormattedTextControl(lambda: "\n".join(view.lines(height()))), wrap_lines=True),
        Window(FormattedTextControl(lambda: view.status(height())), height=1, style="reverse"),
    ]))
    return Application(layout=layout, key_bindings=_keys(view), full_screen=True,
                       mouse_support=False)


def _keys(view: Replay) -> KeyBindings:
    """The bindings of :data:`KEYS` to ``view``'s moves; every key but ``?`` and the
    scroll keys also closes the list of keys."""
    from prompt_toolkit.key_binding import KeyBindings, KeyPressEvent

    kb = KeyBindings()

    def bind(keys: tuple[str, ...], action: Callable[[], None], *, keep_help: bool = False
             ) -> None:
        def handler(event: KeyPressEvent) -> None:
            view.help = view.help and keep_help
            action()
        for key in keys:
            kb.add(key)(handler)

    bind(("right", "l"), lambda: view.move(1))
    bind(("left", "h"), lambda: view.move(-1))
    bind(("s-right",), lambda: view.seat_move(1))
    bind(("s-left",), lambda: view.seat_move(-1))
    bind(("down", "pagedown", "n"), lambda: view.round_move(1))
    bind(("up", "pageup", "p"), lambda: view.round_move(-1))
    bind(("home",), lambda: view.go(0))
    bind(("end",), lambda: view.go(len(view.steps) - 1))
    bind(("r",), view.result)
    bind(("f",), lambda: view.finding_move(1))
    bind(("F",), lambda: view.finding_move(-1))
    for key, mark in (("w", "win"), ("c", "call"), ("i", "riichi")):
        bind((key,), partial(view.mark_move, mark, 1))
        bind((key.upper(),), partial(view.mark_move, mark, -1))
    bind(("0",), lambda: view.follow(None))
    for seat in range(len(view.seats)):
        bind((str(seat + 1),), partial(view.follow, seat))
    bind(("J",), lambda: setattr(view, "scroll", view.scroll + 1), keep_help=True)
    bind(("K",), lambda: setattr(view, "scroll", view.scroll - 1), keep_help=True)
    bind(("?",), lambda: setattr(view, "help", not view.help), keep_help=True)

    player: list[asyncio.Task[None]] = []

    @kb.add("space")
    def _play(event: KeyPressEvent) -> None:
        view.help, view.playing = False, not view.playing
        if view.playing and not (player and not player[0].done()):
            player[:] = [event.app.create_background_task(_player(view, event.app))]

    @kb.add("q")
    @kb.add("escape", eager=True)
    @kb.add("c-c")
    def _quit(event: KeyPressEvent) -> None:
        event.app.exit()

    return kb


async def _player(view: Replay, app: Application[None]) -> None:
    """While ``view`` plays, a move every :data:`PLAY_DELAY` seconds, drawn."""
    while view.playing:
        await asyncio.sleep(PLAY_DELAY)
        view.tick()
        app.invalidate()

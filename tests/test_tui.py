"""``mjlog replay --interactive``, driven as a person would: in a real pseudo-terminal.

The command runs in its own process on a pseudo-terminal; pyte rebuilds the screen
from what it writes. Each wait is for a screen the test names (the status line of the
move it expects), with a deadline that fails the test only if that screen never comes.
What the screen shows is compared with ``mjlog replay --round R --turn N`` (``--end``
for a round's end), run through click's runner: the same text, line for line.
"""

from __future__ import annotations

import fcntl
import os
import re
import select
import struct
import subprocess
import sys
import termios
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from pathlib import Path

import pyte
import pytest
from click.testing import CliRunner

from mjlog.cli import main
from mjlog.core.events import RoundStart, round_label
from mjlog.formats import read_path
from mjlog.reports import tui
from mjlog.wall.verify import walls_for

from .conftest import CORPUS, CORPUS_MISSING, EXAMPLES

COLUMNS, ROWS = 160, 50
"""The pseudo-terminal's size: wide and tall enough for every screen of the games here."""

KEYS = {"right": b"\x1b[C", "left": b"\x1b[D", "down": b"\x1b[B", "up": b"\x1b[A",
        "home": b"\x1b[H", "end": b"\x1b[F", "s-right": b"\x1b[1;2C", "s-left": b"\x1b[1;2D",
        "esc": b"\x1b"}
"""What an xterm sends for each key."""

DEADLINE = 30.0
"""Seconds a screen may take to come before the test fails (a last resort: each screen
comes in milliseconds)."""

CORPUS_GAME = (CORPUS / "tenhou-xml/mjx-project-mjx/mjconvert/mjconvert/tests/resources/mjlog"
               / "2019020120gm-0009-10011-215330df.mjlog")
"""A Tenhou game of the corpus: seven rounds, players' names in Japanese (wide characters,
an ambiguous-width Ⓟ)."""


class _Screen(pyte.Screen):
    """pyte's screen, answering the terminal's reports (cursor position) as a terminal
    would."""

    def __init__(self, columns: int, lines: int, reply: Callable[[str], None]) -> None:
        super().__init__(columns, lines)
        self._reply = reply

    def write_process_input(self, data: str) -> None:
        self._reply(data)


class Terminal:
    """``mjlog replay RECORD --interactive`` on a pseudo-terminal, its screen rebuilt."""

    def __init__(self, *args: str) -> None:
        master, slave = os.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", ROWS, COLUMNS, 0, 0))
        env = {**os.environ, "TERM": "xterm-256color"}
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "mjlog.cli", "replay", *args, "--interactive"],
            stdin=slave, stdout=slave, stderr=slave, env=env, start_new_session=True)
        os.close(slave)
        self.fd = master
        self.screen = _Screen(COLUMNS, ROWS, self._reply)
        self.stream = pyte.ByteStream(self.screen)

    def _reply(self, text: str) -> None:
        os.write(self.fd, text.encode())

    def lines(self) -> list[str]:
        """The screen's lines, trailing spaces cut."""
        return [line.rstrip() for line in self.screen.display]

    def body(self) -> list[str]:
        """The lines above the status line, down to the last that is not empty."""
        lines = self.lines()[:-1]
        while lines and not lines[-1]:
            lines.pop()
        return lines

    def status(self) -> str:
        """The status line (read alone: rebuilding the whole screen takes milliseconds)."""
        line = self.screen.buffer[ROWS - 1]
        return "".join(line[x].data for x in range(COLUMNS)).strip()  # a wide character's stub: ""

    def wait_for(self, done: Callable[[], bool], what: str) -> None:
        """Read what the program writes until ``done()``; fail at :data:`DEADLINE`, or when
        the program ends first."""
        deadline = time.monotonic() + DEADLINE
        while not done():
            left = deadline - time.monotonic()
            if left <= 0:
                pytest.fail(f"no {what} after {DEADLINE} s; the screen:\n"
                            + "\n".join(self.lines()))
            if select.select([self.fd], [], [], left)[0]:
                try:
                    data = os.read(self.fd, 1 << 16)
                except OSError:  # EIO: the program has closed the terminal
                    data = b""
                if not data:
                    pytest.fail(f"the program ended before {what}; the screen:\n"
                                + "\n".join(self.lines()))
                self.stream.feed(data)

    def wait_status(self, status: str) -> None:
        """Wait for the status line to begin with ``status``: the screen above it is
        written first, so it is then whole."""
        self.wait_for(lambda: self.status().startswith(status), f"status {status!r}")

    def press(self, key: str) -> None:
        """Type a key: a name of :data:`KEYS` or a character."""
        os.write(self.fd, KEYS.get(key) or key.encode())

    def finish(self) -> int:
        """Wait for the program to end; its exit status. Fails the test (and ends the
        program) if it has not ended by the deadline."""
        deadline = time.monotonic() + DEADLINE
        while self.proc.poll() is None and time.monotonic() < deadline:
            if select.select([self.fd], [], [], 0.2)[0]:
                with suppress(OSError):
                    os.read(self.fd, 1 << 16)
        if self.proc.poll() is None:
            self.close()
            pytest.fail(f"the program had not ended {DEADLINE} s after being asked to quit")
        return self.proc.returncode

    def close(self) -> None:
        """End the program if it still runs (after a failure) and close the terminal."""
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()
        os.close(self.fd)


@contextmanager
def terminal(*args: str) -> Iterator[Terminal]:
    """A :class:`Terminal`, closed after the test whatever happens."""
    term = Terminal(*args)
    try:
        yield term
    finally:
        term.close()


def replay_output(path: Path, label: str, turn: int | None, *more: str) -> str:
    """What ``mjlog replay PATH --round LABEL --turn TURN`` prints (``--end`` for
    ``None``), with ``more`` options."""
    where = ["--turn", str(turn)] if turn is not None else ["--end"]
    result = CliRunner().invoke(main, ["replay", str(path), "--round", label, *where, *more])
    assert result.exit_code == 0, result.output
    return result.output


def replay(path: Path, label: str, turn: int | None) -> list[str]:
    """:func:`replay_output`'s lines as a screen shows them: trailing spaces cut (a
    terminal does not tell a space written from one never written)."""
    return [line.rstrip() for line in replay_output(path, label, turn).rstrip("\n").split("\n")]


def moves_of_rounds(path: Path) -> list[tuple[str, int]]:
    """Each round's label and how many moves it has, from ``mjlog replay --round R``
    (the table just before the result names its turn): found without :mod:`mjlog.reports.tui`."""
    rec = read_path(str(path))[0]
    labels = [round_label(ev.round_wind, ev.round_number, ev.honba)
              for ev in rec.events if isinstance(ev, RoundStart)]
    assert len(set(labels)) == len(labels), "--round picks the first of equal labels"
    out = []
    for label in labels:
        text = CliRunner().invoke(main, ["replay", str(path), "--round", label]).output
        found = re.search(r"; turn (\d+); ", text)
        assert found is not None, text
        out.append((label, int(found[1])))
    return out


def step_through(term: Terminal, path: Path) -> int:
    """Press → from the game's first move to the last round's end; at every move whose
    number is a multiple of 10 (the deal included) and at every round's end, the screen
    must be ``mjlog replay``'s for that move. Returns how many screens were compared."""
    compared = 0
    for r, (label, moves) in enumerate(moves_of_rounds(path)):
        for turn in [*range(moves + 1), None]:
            if (r, turn) != (0, 0):
                term.press("right")
            where = f"turn {turn} of {moves}" if turn is not None else "its end"
            term.wait_status(f"{label}, {where}")
            if turn is None or turn % 10 == 0:
                assert term.body() == replay(path, label, turn), (label, turn)
                compared += 1
    return compared


def test_arrow_key_steps_through_the_whole_game_showing_what_replay_shows(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(EXAMPLES)  # the record's name heads each screen: short, as typed
    path = Path("east-riichi.mjlog")
    rounds = moves_of_rounds(path)
    with terminal(str(path)) as term:  # every 10th move from the deal on, and each end
        assert step_through(term, path) == sum(moves // 10 + 2 for _, moves in rounds)
        term.press("right")  # past the game's end it stays there: ← is the last move
        term.press("left")
        label, moves = rounds[-1]
        term.wait_status(f"{label}, turn {moves} of {moves}")
        term.press("q")
        assert term.finish() == 0


def test_a_corpus_tenhou_game_with_names_in_wide_characters(
        monkeypatch: pytest.MonkeyPatch) -> None:
    if not CORPUS_GAME.exists():
        pytest.skip(CORPUS_MISSING)
    monkeypatch.chdir(CORPUS_GAME.parent)
    path = Path(CORPUS_GAME.name)
    with terminal(str(path)) as term:
        assert step_through(term, path) >= 7 * 2
        term.press("esc")
        assert term.finish() == 0


def test_the_pages_keys_move_in_the_terminal() -> None:
    path = EXAMPLES / "east-riichi.mjlog"
    rounds = moves_of_rounds(path)
    (e1, m1), (e2, m2) = rounds[0], rounds[1]
    with terminal(str(path), "--round", e2, "--turn", "5") as term:
        term.wait_status(f"{e2}, turn 5 of {m2}")
        for key, status in [
            ("up", f"{e1}, turn 0 of"), ("down", f"{e2}, turn 0"), ("up", f"{e1}, turn 0"),
            ("end", f"{rounds[-1][0]}, its end"), ("home", f"{e1}, turn 0 of {m1}"),
            ("l", f"{e1}, turn 1 of"), ("l", f"{e1}, turn 2 of"), ("h", f"{e1}, turn 1 of"),
            ("n", f"{e2}, turn 0"), ("p", f"{e1}, turn 0"),
            ("r", f"{e1}, its end"), ("r", f"{e1}, turn 0 of"),
            ("2", f"{e1}, turn 0 of {m1}  (round 1 of {len(rounds)})  following seat 1 Ben"),
            ("s-right", f"{e1}, turn 3 of"), ("s-right", f"{e1}, turn 4 of"),
            ("s-left", f"{e1}, turn 3 of"), ("0", f"{e1}, turn 3 of {m1}  (round 1 of"),
        ]:
            term.press(key)
            term.wait_status(status)
        term.press("home")
        term.wait_status(f"{e1}, turn 0 of {m1}")
        term.press("i")  # the page's jumps: the next riichi, win; back
        term.wait_status(f"{e1}, turn 12 of {m1}")
        assert term.body()[-1].endswith("and declares riichi")
        term.press("w")
        term.wait_status(f"{e1}, its end")
        assert "result: Ben wins by ron from Chiyo" in term.body()
        term.press("I")
        term.wait_status(f"{e1}, turn 12 of {m1}")
        term.press(" ")  # plays a move every half second until pressed again
        term.wait_status(f"{e1}, turn 13 of {m1}  (round 1 of {len(rounds)})  playing")
        term.wait_status(f"{e1}, turn 14 of {m1}  (round 1 of {len(rounds)})  playing")
        term.press(" ")
        term.wait_for(lambda: "playing" not in term.status(), "the play stopped")
        term.press("?")
        term.wait_for(lambda: term.body()[:1] == ["keys"], "the list of keys")
        assert any("Shift+→" in line for line in term.body())
        term.press("?")
        term.wait_for(lambda: term.body()[:1] != ["keys"], "the table again")
        turn = int(term.status().split("turn ", 1)[1].split(" ")[0])
        term.press("right")
        term.wait_status(f"{e1}, turn {turn + 1} of")
        assert term.body() == replay(path, e1, turn + 1)
        term.press("q")
        assert term.finish() == 0


def test_it_starts_where_replay_is_asked_to_show() -> None:
    path = EXAMPLES / "east-ron.mjlog"
    (e1, _), (e2, _) = moves_of_rounds(path)[:2]
    with terminal(str(path), "--round", e2, "--end") as term:
        term.wait_status(f"{e2}, its end")
        assert term.body() == replay(path, e2, None)
        term.press("q")
        assert term.finish() == 0
    with terminal(str(path)) as term:
        term.wait_status(f"{e1}, turn 0 of")
        term.press("q")
        assert term.finish() == 0


def test_names_from_the_record_reach_the_terminal_escaped(tmp_path: Path) -> None:
    # an OSC 52 clipboard write and a right-to-left override in a player's name
    record = tmp_path / "hostile.jsonl"
    record.write_text((EXAMPLES / "east-riichi.jsonl").read_text("utf-8").replace(
        '"name":"Ben"', '"name":"\\u001b]52;c;aGk=\\u0007Ev\\u202eil"', 1), "utf-8")
    shown = "\\x1b]52;c;aGk=\\x07Ev\\u202eil"
    with terminal(str(record)) as term:
        term.wait_status("E1-0, turn 0 of")
        assert f"seat 1 S {shown}  25000" in term.body()
        term.press("2")
        term.wait_status(f"E1-0, turn 0 of 22  (round 1 of 4)  following seat 1 {shown}")
        term.press("q")
        assert term.finish() == 0


def test_it_is_refused_off_a_terminal_and_without_prompt_toolkit(
        monkeypatch: pytest.MonkeyPatch) -> None:
    path = str(EXAMPLES / "east-riichi.mjlog")
    result = CliRunner().invoke(main, ["replay", path, "--interactive"])
    assert result.exit_code == 2
    assert "--interactive needs a terminal" in result.output
    import importlib.util
    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec",
                        lambda name, *a: None if name == "prompt_toolkit" else real(name, *a))
    result = CliRunner().invoke(main, ["replay", path, "--interactive"])
    assert result.exit_code == 2
    assert "pip install 'mjlog[tui]'" in result.output


def test_every_screen_is_replays_text_for_its_move() -> None:
    """Without a terminal: every screen of a game of each format, all of them, is
    ``mjlog replay``'s output for its move, byte for byte (with the wall where asked)."""
    for name, wall in [("east-seeded.mjlog", True), ("east-riichi.jsonl", False),
                       ("06-kan-after-riichi.mjn", True), ("17-taiwan-whole-game.mjn", False),
                       ("05-discard-not-in-hand.mjn", False)]:
        path = EXAMPLES / name
        rec = read_path(str(path))[0]
        steps = tui.game_steps(rec, str(path), walls_for(rec) if wall else None)
        more = ["--show-wall"] if wall else []
        for step in steps:
            assert step.text == replay_output(path, step.label, step.turn, *more), (name, step)
        rounds = moves_of_rounds(path)
        assert [(s.label, s.turn) for s in steps] == [
            (label, turn) for label, moves in rounds for turn in [*range(moves + 1), None]]


def _steps(*rounds: list[tuple[int | None, int | None]]) -> list[tui.Step]:
    """Steps of made-up rounds: (turn, who) each; the engine finds something at each
    round's move 3."""
    steps, found = [], 0
    for r, moves in enumerate(rounds):
        for turn, who in moves:
            found += turn == 3
            steps.append(tui.Step(r, f"E{r + 1}-0", 100 * r, turn, who, found, f"{r} {turn}"))
    return steps


def where(view: tui.Replay) -> tuple[int, int | None]:
    """The round and move shown."""
    return view.step.round, view.step.turn


def test_the_moves_of_the_keys() -> None:
    round_ = [(0, None), (1, 0), (2, 0), (3, 1), (4, 1), (None, None)]
    view = tui.Replay(_steps(round_, round_), ["A", "B"], at=2)
    view.round_move(-1)
    assert view.at == 0
    view.round_move(1)
    assert where(view) == (1, 0)
    view.move(3)
    view.round_move(-1)
    assert where(view) == (0, 0)
    view.go(3)
    view.result()
    assert where(view) == (0, None)
    view.result()
    assert view.at == 3
    view.seat_move(1)
    assert view.at == 4
    view.follow(0)
    view.seat_move(1)
    assert where(view) == (1, 1)
    view.seat_move(-1)
    assert where(view) == (0, 2)
    view.follow(7)
    assert view.seat == 0
    view.follow(None)
    assert view.seat is None
    view.go(999)
    assert where(view) == (1, None)
    view.move(1)
    assert view.at == len(view.steps) - 1
    assert view.status().startswith(" E2-0, its end  (round 2 of 2)")
    view.go(1)
    assert view.status().startswith(" E1-0, turn 1 of 4  (round 1 of 2)")
    view.go(0)
    view.finding_move(1)
    assert where(view) == (0, 3)
    view.finding_move(1)
    assert where(view) == (1, 3)
    view.finding_move(1)
    assert where(view) == (1, 3)
    view.finding_move(-1)
    assert where(view) == (0, 3)
    view.help = True
    assert view.lines(3) == ["keys", *tui.HELP.split("\n")[1:3]]


def test_f_goes_to_the_move_where_the_replay_finds_something() -> None:
    path = EXAMPLES / "05-discard-not-in-hand.mjn"
    steps = tui.game_steps(read_path(str(path))[0], str(path))
    view = tui.Replay(steps, ["Aoi", "Ben", "Chiyo", "Dai"])
    view.finding_move(1)
    first = next(k for k, s in enumerate(steps) if "finding so far: " in s.text)
    assert view.at == first > 0
    finding = steps[first].text.rsplit("finding so far: ", 1)[1]
    assert finding.startswith("error: discard-not-in-hand [E1-0, turn 4, ")
    assert view.status().startswith(" E1-0, turn 4 of ")  # one numbering: the finding's


def test_the_jumps_stop_where_the_page_stops() -> None:
    """``c`` at a chi, pon or kan, ``i`` at a riichi discard, ``w`` at a round's end with a
    win; Space plays to the game's end and stops there."""
    path = EXAMPLES / "19-sakizuke-first-call.mjn"
    steps = tui.game_steps(read_path(str(path))[0], str(path))
    calls = [s for s in steps if s.mark == "call"]
    assert calls
    for step in calls:
        assert re.search(r"^last move: \S+ (chis|pons|calls kan on|adds|declares a closed kan)",
                         step.text, re.MULTILINE), step.text
    view = tui.Replay(steps, ["Aoi", "Ben", "Chiyo", "Dai"])
    view.mark_move("call", 1)
    assert view.step == calls[0]
    view.mark_move("call", -1)
    assert view.step == calls[0]  # none before it: it stays
    view.mark_move("win", 1)
    assert view.step.turn is None and "wins by" in view.step.text
    view.go(len(steps) - 3)
    view.playing = True
    assert view.tick() and view.tick() and not view.tick()
    assert view.at == len(steps) - 1 and not view.playing

"""The progress line: what it says, and that it stays off a stream that is no terminal."""

from __future__ import annotations

import io

from mjlog.run.progress import Progress


class Terminal(io.StringIO):
    """A stream that says it is a terminal."""

    def isatty(self) -> bool:
        return True


def test_the_line_gives_games_per_second_and_the_time_left() -> None:
    p = Progress(10, "auditing", Terminal())
    p.start = 100.0
    p(4, 120)
    assert p.line(112.0) == "auditing 4/10 files, 120 games, 10 games/s, 0:18 left"
    p(6, 30)
    assert p.line(130.0) == "auditing 10/10 files, 150 games, 5 games/s, done in 0:30"


def test_hours_are_shown_past_an_hour() -> None:
    p = Progress(3, "reading", Terminal())
    p.start = 0.0
    p(1, 0)
    assert p.line(3723.0) == "reading 1/3 files, 2:04:06 left"


def test_a_message_goes_above_the_line_and_the_line_ends() -> None:
    out = Terminal()
    with Progress(2, "converting", out) as p:
        p(2)
        p.say("a.xml: not converted")
    text = out.getvalue()
    assert text.startswith("\r\x1b[Kconverting 2/2 files, done in ")
    assert text.endswith("\r\x1b[Ka.xml: not converted\n")


def test_nothing_is_drawn_on_a_stream_that_is_no_terminal() -> None:
    out = io.StringIO()
    with Progress(2, "auditing", out) as p:
        p(1, 5)
        p(1, 5)
    assert out.getvalue() == ""

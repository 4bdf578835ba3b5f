"""How far a run over many files is, on one line of standard error.

:class:`Progress` is the ``progress`` callback of audits, conversions and statistics:
called with the files just finished and the games they held, it redraws one line (on a
terminal, at most five times a second) with the files done of all, the games read, the
games per second and the time left at the pace so far. It draws nothing when standard
error is no terminal, and it does not change what the run does.
"""

from __future__ import annotations

import sys
import time
from typing import TextIO

_EVERY = 0.2
"""Seconds between two redraws."""


class Progress:
    """A progress line for ``total`` files (see the module's description); use it as a
    context manager, which ends the line."""

    def __init__(self, total: int, label: str, stream: TextIO | None = None) -> None:
        self.total, self.label = total, label
        self.stream = stream if stream is not None else sys.stderr
        self.files = self.games = 0
        self.start = self.drawn = time.monotonic()
        self.shown = False

    def __call__(self, files: int, games: int = 0) -> None:
        """Count ``files`` more files done, holding ``games`` games."""
        self.files += files
        self.games += games
        now = time.monotonic()
        if now - self.drawn >= _EVERY or self.files >= self.total:
            self.drawn = now
            self._draw(now)

    def line(self, now: float) -> str:
        """The line as it reads at time ``now``."""
        spent = max(now - self.start, 1e-9)
        parts = [f"{self.label} {self.files:,}/{self.total:,} files"]
        if self.games:
            parts.append(f"{self.games:,} games, {self.games / spent:,.0f} games/s")
        if 0 < self.files < self.total:
            parts.append(f"{_clock(spent * (self.total - self.files) / self.files)} left")
        elif self.files >= self.total:
            parts.append(f"done in {_clock(spent)}")
        return ", ".join(parts)

    def say(self, text: str) -> None:
        """Write ``text`` as a line of its own, above the progress line."""
        if self.shown:
            self.stream.write("\r\x1b[K")
            self.shown = False
        self.stream.write(text + "\n")
        self.stream.flush()

    def _draw(self, now: float) -> None:
        if self.stream.isatty():
            self.stream.write("\r\x1b[K" + self.line(now))
            self.stream.flush()
            self.shown = True

    def __enter__(self) -> Progress:
        return self

    def __exit__(self, *exc: object) -> None:
        if self.shown:
            self.stream.write("\n")
            self.stream.flush()


def _clock(seconds: float) -> str:
    """``1:02:03`` or ``2:03``."""
    s = round(seconds)
    hours, rest = divmod(s, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02}:{secs:02}" if hours else f"{minutes}:{secs:02}"

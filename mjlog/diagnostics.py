"""Places in a source and the findings mjlog reports about a record.

Two kinds of finding live here:

* :class:`Diagnostic`: the input could not be read (or read only in part):
  malformed XML, a bad attribute, a record that stops early. Importers make
  them; they never judge the game.
* :class:`Finding`: the replay found the record inconsistent with itself or
  with the table: a discard not in hand, a tile used twice, deltas that do not
  balance. The engine makes them.

* :class:`ScoreMismatch`: a value the record declares (a yaku, fu, a
  payment, the next round's dealer) differs from the one mjlog computes.
  :mod:`mjlog.scoring.verify` makes them.

* :class:`Violation`: a rule of the ruleset was broken at the table (a kan
  after riichi that changes the waits, a ron on a furiten wait, a win without
  the yaku sakizuke asks for). :mod:`mjlog.rules` makes them.

All carry a stable ``code`` and a :class:`Src`, the place in the source's own
coordinates.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class Severity(StrEnum):
    """How serious a finding is. Only ``error`` makes ``mjlog audit`` exit 1."""

    ERROR = "error"
    WARNING = "warning"
    INFO = "info"


@dataclass(frozen=True, slots=True, kw_only=True)
class Src:
    """A place in a source file.

    ``line``/``column`` are 1-based text coordinates (0 when unknown); ``index``
    is the 0-based index of the element among the root's children (XML) or of
    the line (JSON Lines); ``path`` is a JSON path such as ``$.log[2][5]``.
    """

    line: int = 0
    column: int = 0
    index: int = -1
    path: str = ""

    def __str__(self) -> str:
        parts = []
        if self.line:
            parts.append(f"line {self.line}" + (f", column {self.column}" if self.column else ""))
        if self.index >= 0:
            parts.append(f"element {self.index}")
        if self.path:
            parts.append(self.path)
        return ", ".join(parts) or "unknown position"


@dataclass(frozen=True, slots=True, kw_only=True)
class Diagnostic:
    """A problem reading the input. Everything read before it is kept."""

    code: str
    message: str
    severity: Severity = Severity.ERROR
    src: Src | None = None

    def __str__(self) -> str:
        where = f" at {self.src}" if self.src else ""
        return f"{self.severity.value}: {self.code}{where}: {self.message}"


@dataclass(frozen=True, slots=True, kw_only=True)
class Finding:
    """An inconsistency found by the replay.

    ``round`` is a label such as ``E2-1`` (East 2, honba 1); ``turn`` is the
    1-based number of the move within the round (draws, discards, calls and
    declarations each count one; 0 before the first move), the same number
    ``mjlog replay --turn`` takes.
    """

    code: str
    message: str
    severity: Severity = Severity.ERROR
    round: str = ""
    turn: int = 0
    player: int | None = None
    src: Src | None = None

    def __str__(self) -> str:
        where = _where(self.round, self.turn, self.player, self.src)
        return f"{self.severity.value}: {self.code} [{where}]: {self.message}"


def _where(round_: str, turn: int, player: int | None, src: Src | None) -> str:
    where = [round_] if round_ else []
    if turn:
        where.append(f"turn {turn}")
    if player is not None:
        where.append(f"player {player}")
    if src:
        where.append(str(src))
    return ", ".join(where)


@dataclass(frozen=True, slots=True, kw_only=True)
class ScoreMismatch:
    """A declared result that differs from the computed one, one field at a time.

    ``field`` names what differs (``fu``, ``yaku.riichi``, ``deltas[2]``,
    ``dealer`` …); ``recorded`` is the record's value and ``computed`` mjlog's
    (``None`` where one side has nothing, e.g. a yaku only one side finds).
    """

    code: str
    field: str
    recorded: bool | int | str | None
    computed: bool | int | str | None
    message: str = ""
    round: str = ""
    turn: int = 0
    player: int | None = None
    src: Src | None = None

    def __str__(self) -> str:
        where = [self.round] if self.round else []
        if self.player is not None:
            where.append(f"player {self.player}")
        if self.src:
            where.append(str(self.src))
        return (f"mismatch: {self.code} [{', '.join(where)}]: {self.field} recorded "
                f"{self.recorded!r}, computed {self.computed!r}"
                + (f" ({self.message})" if self.message else ""))


@dataclass(frozen=True, slots=True, kw_only=True)
class Violation:
    """A rule of the ruleset broken at the table, with its evidence and consequence.

    ``rule`` is the section of ``docs/rules.md`` (``"1 K4"``) and ``citation``
    a one-line statement of the rule; ``event`` is the index of the offending
    event in the record; ``evidence`` is ordered (name, text) pairs (the waits
    before and after a kan, the yaku of each wait …); ``consequence`` says what
    the ruleset makes of it (chombo, a dead hand …).
    """

    code: str
    rule: str
    citation: str
    message: str
    ruleset: str = ""
    round: str = ""
    turn: int = 0
    event: int = -1
    player: int | None = None
    src: Src | None = None
    evidence: tuple[tuple[str, str], ...] = ()
    consequence: str = ""

    def __str__(self) -> str:
        where = _where(self.round, self.turn, self.player, self.src)
        return f"violation: {self.code} (§{self.rule}) [{where}]: {self.message}"


class InputError(Exception):
    """Raised in strict mode, or when nothing at all can be read from an input."""

    def __init__(self, diagnostic: Diagnostic) -> None:
        super().__init__(str(diagnostic))
        self.diagnostic = diagnostic

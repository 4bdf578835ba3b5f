"""Places in a source and the findings mjlog reports about a record.

Every finding shares one protocol (:class:`BaseFinding`): a stable ``code``
(each listed once in :mod:`mjlog.core.catalogue`), a :class:`Severity`, and a
place: the round and turn once the replay knows them, the player, and the
position in the source (:class:`Src`). Each turns itself into its report
entry with :meth:`~BaseFinding.to_dict`. There are four kinds:

* :class:`Diagnostic`: the input could not be read (or read only in part):
  malformed XML, a bad attribute, a record that stops early. Readers make
  them; they never judge the game.
* :class:`Finding`: the replay found the record inconsistent with itself or
  with the table (a discard not in hand, a tile used twice, deltas that do not
  balance), the wall check a tile that is not the wall's, or a check failed
  with an ``internal-error``. The engine and its observers make them.
* :class:`ScoreMismatch`: a value the record declares (a yaku, fu, a
  payment, the next round's dealer) differs from the one mjlog computes.
  Score verification makes them.
* :class:`Violation`: a rule of the ruleset was broken at the table (a kan
  after riichi that changes the waits, a ron on a furiten wait, a win without
  the yaku sakizuke asks for). The rule checks make them.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any, ClassVar

PER_GAME = 1000
"""How many findings of one kind (replay findings, violations, mismatches, reading
diagnostics) one game's audit keeps; the rest are counted (``findings-capped``), so that
a record that goes wrong at every move costs bounded memory and a readable report."""


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

    def to_dict(self) -> dict[str, Any]:
        """The position as report fields: ``line``, ``column``, ``element``, ``json_path``."""
        out: dict[str, Any] = {}
        if self.line:
            out["line"] = self.line
        if self.column:
            out["column"] = self.column
        if self.index >= 0:
            out["element"] = self.index
        if self.path:
            out["json_path"] = self.path
        return out


@dataclass(frozen=True, slots=True, kw_only=True)
class BaseFinding:
    """What every finding has: a code, a severity, a message and a place.

    ``round`` is a label such as ``E2-1`` (East 2, honba 1); ``turn`` is the
    1-based number of the move within the round (draws, discards, calls and
    declarations each count one; 0 before the first move), the same number
    ``mjlog replay --turn`` takes; ``player`` a seat index.
    """

    KIND: ClassVar[str] = ""
    code: str
    message: str = ""
    severity: Severity = Severity.ERROR
    round: str = ""
    turn: int = 0
    player: int | None = None
    src: Src | None = None

    @property
    def place(self) -> str:
        """Where it is, in words: round, turn, player and source position."""
        return _where(self.round, self.turn, self.player, self.src)

    def to_dict(self) -> dict[str, Any]:
        """The report entry (``schemas/audit-report.schema.json``)."""
        raise NotImplementedError


@dataclass(frozen=True, slots=True, kw_only=True)
class Diagnostic(BaseFinding):
    """A problem reading the input. Everything read before it is kept."""

    KIND: ClassVar[str] = "diagnostic"

    def __str__(self) -> str:
        where = f" at {self.src}" if self.src else ""
        return f"{self.severity.value}: {self.code}{where}: {self.message}"

    def to_dict(self) -> dict[str, Any]:
        """``code``, ``severity``, ``message`` and the position."""
        return {"code": self.code, "severity": self.severity.value, "message": self.message,
                **(self.src.to_dict() if self.src else {})}


@dataclass(frozen=True, slots=True, kw_only=True)
class Finding(BaseFinding):
    """An inconsistency found by the replay, or by an observer of it."""

    KIND: ClassVar[str] = "finding"

    def __str__(self) -> str:
        return f"{self.severity.value}: {self.code} [{self.place}]: {self.message}"

    def to_dict(self) -> dict[str, Any]:
        """``code``, ``severity``, ``message``, ``round``, ``turn``, ``player`` and the position."""
        out: dict[str, Any] = {"code": self.code, "severity": self.severity.value,
                               "message": self.message, "round": self.round, "turn": self.turn}
        if self.player is not None:
            out["player"] = self.player
        if self.src:
            out.update(self.src.to_dict())
        return out


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
class ScoreMismatch(BaseFinding):
    """A declared result that differs from the computed one, one field at a time.

    ``field`` names what differs (``fu``, ``yaku.riichi``, ``deltas[2]``,
    ``dealer`` …); ``recorded`` is the record's value and ``computed`` mjlog's
    (``None`` where one side has nothing, e.g. a yaku only one side finds).
    A mismatch is always of severity ``error``.
    """

    KIND: ClassVar[str] = "mismatch"
    field: str
    recorded: bool | int | str | None
    computed: bool | int | str | None

    def __str__(self) -> str:
        where = [self.round] if self.round else []
        if self.player is not None:
            where.append(f"player {self.player}")
        if self.src:
            where.append(str(self.src))
        return (f"mismatch: {self.code} [{', '.join(where)}]: {self.field} recorded "
                f"{self.recorded!r}, computed {self.computed!r}"
                + (f" ({self.message})" if self.message else ""))

    def to_dict(self) -> dict[str, Any]:
        """``code``, ``field``, ``recorded``, ``computed``, the round and turn, the
        message when there is one, the player and the position."""
        out: dict[str, Any] = {"code": self.code, "field": self.field, "recorded": self.recorded,
                               "computed": self.computed, "round": self.round, "turn": self.turn}
        if self.message:
            out["message"] = self.message
        if self.player is not None:
            out["player"] = self.player
        if self.src:
            out.update(self.src.to_dict())
        return out


@dataclass(frozen=True, slots=True, kw_only=True)
class Violation(BaseFinding):
    """A rule of the ruleset broken at the table, with its evidence and consequence.

    ``rule`` is the section of ``docs/rules.md`` (``"1 K4"``) and ``citation``
    a one-line statement of the rule; ``event`` is the index of the offending
    event in the record; ``evidence`` is ordered (name, text) pairs (the waits
    before and after a kan, the yaku of each wait …); ``consequence`` says what
    the ruleset makes of it (chombo, a dead hand …). A violation is always of
    severity ``error``.
    """

    KIND: ClassVar[str] = "violation"
    rule: str
    citation: str
    ruleset: str = ""
    event: int = -1
    evidence: tuple[tuple[str, str], ...] = ()
    consequence: str = ""

    def __str__(self) -> str:
        return f"violation: {self.code} (§{self.rule}) [{self.place}]: {self.message}"

    def to_dict(self) -> dict[str, Any]:
        """The rule, citation, message, ruleset, place, evidence and consequence."""
        out: dict[str, Any] = {"code": self.code, "rule": self.rule, "citation": self.citation,
                               "message": self.message, "ruleset": self.ruleset,
                               "round": self.round, "turn": self.turn, "event": self.event}
        if self.player is not None:
            out["player"] = self.player
        out["evidence"] = [list(e) for e in self.evidence]
        out["consequence"] = self.consequence
        if self.src:
            out.update(self.src.to_dict())
        return out


class InputError(ValueError):
    """Raised in strict mode, or when nothing at all can be read from an input."""

    def __init__(self, diagnostic: Diagnostic) -> None:
        super().__init__(str(diagnostic))
        self.diagnostic = diagnostic

    def about(self, path: str) -> str:
        """The message for the input ``path``: ``path: message``, or the diagnostic's
        message alone when it already names ``path`` (an archive that cannot be opened
        says which), so that no line names its input twice."""
        message = self.diagnostic.message
        return message if path and path in message else f"{path}: {message}"

"""The facts of one decision, as values: what :func:`mjlog.families.riichi.decisions.decisions`
returns.

Two kinds of decision, each one JSON object (:meth:`DiscardDecision.to_json`,
:meth:`CallDecision.to_json`; the schema is in ``docs/review.md``):

* a **discard decision**: a seat holding 3n + 2 tiles throws one; every kind it held,
  with the shanten and ukeire discarding it leaves, the most accepting choices, the
  tile thrown and its loss against them, and the safety class of each kind held against
  each opponent in riichi;
* a **call decision**: a seat that could pon, chi or open-kan another's discard; the
  shanten and ukeire of its hand before, what it did, and after a call taken, the best
  discard of the hand the call gave.

Kinds are ints here (``mjlog.core.tiles`` numbering) and mpsz strings in JSON; ukeire are
34-bit masks here and lists of kinds in JSON. A fact that cannot be computed (a hand with
tiles nobody wrote down, ``?``) is ``None`` here and ``null`` in JSON, with the reason in
``not_computed``. This module computes nothing.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Final, NamedTuple

from mjlog.core.tiles import kind_str
from mjlog.families.riichi.hand.shape import kinds_of_mask


class Option(NamedTuple):
    """One discard choice: the kind thrown, the shanten of the hand it leaves, the kinds
    whose draw would lower that (a 34-bit mask), the copies of them the player cannot
    see (``copies``; ``None`` when a tile on the table is unknown) and whether it may be
    thrown (not right after a call that forbids it: kuikae)."""

    tile: int
    shanten: int
    ukeire: int
    copies: int | None
    allowed: bool = True


NOTHING: Final[Mapping[Any, Any]] = MappingProxyType({})
"""The empty, shared ``threats`` and ``not_computed`` of a decision that has none (one
object for the many decisions without them)."""


def note(d: DiscardDecision | CallDecision, fact: str, reason: str) -> None:
    """Mark ``fact`` of ``d`` not computed, for ``reason``."""
    d.not_computed = {**d.not_computed, fact: reason}


def _kinds(mask: int) -> list[str]:
    return [kind_str(k) for k in kinds_of_mask(mask)]


@dataclass(slots=True, kw_only=True)
class DealIn:
    """A discard that was won on: the discarder's shanten after it (0: ready) and the
    tile's safety class against each winner (:mod:`mjlog.families.riichi.decisions.safety`; against
    a
    winner not in riichi, genbutsu is only that winner's own river), and which winners
    were in riichi."""

    winners: list[int]
    shanten: int | None
    classes: dict[int, str | None]
    riichi: dict[int, bool]

    def to_json(self) -> dict[str, Any]:
        """The JSON object (``docs/review.md``)."""
        return {"winners": self.winners, "shanten": self.shanten,
                "class": {str(w): c for w, c in self.classes.items()},
                "riichi": {str(w): r for w, r in self.riichi.items()}}


@dataclass(slots=True, kw_only=True)
class DiscardDecision:
    """A discard and what each other discard would have left (module docstring).

    ``raw`` holds the options as ``(kind, shanten, ukeire mask, count)``, most accepting
    first (``None`` when the hand is not known; :attr:`options` lists them in kind
    order); ``counted`` is false when a tile on the table
    is unknown (then every count, ``best`` and ``loss`` are ``None``); ``forbidden`` the
    kinds kuikae forbids after a call. ``best`` are the most accepting allowed kinds (least
    shanten, then most unseen copies), ``loss`` (shanten lost, ukeire copies lost) of the
    kind thrown against them; ``None`` for a ``forced`` discard (after riichi)."""

    event: int
    round: str
    seat: int
    tile: int
    riichi: bool = False
    tsumogiri: bool | None = None
    forced: bool = False
    raw: list[tuple[int, int, int, int]] | None = None
    counted: bool = True
    forbidden: frozenset[int] = frozenset()
    best: list[int] | None = None
    loss: tuple[int, int] | None = None
    threats: Mapping[int, Mapping[int, str]] | None = field(default_factory=lambda: NOTHING)
    deal_in: DealIn | None = None
    not_computed: Mapping[str, str] = field(default_factory=lambda: NOTHING)

    kind = "discard"

    @property
    def options(self) -> list[Option] | None:
        """The options as :class:`Option` values in kind order (``None`` when not
        computed)."""
        if self.raw is None:
            return None
        counted, forbidden = self.counted, self.forbidden
        return [Option(k, sh, mask, n if counted else None, k not in forbidden)
                for k, sh, mask, n in sorted(self.raw)]

    def taken(self) -> Option | None:
        """The option of the tile thrown (``None`` when not computed)."""
        return next((o for o in self.options or () if o.tile == self.tile), None)

    def to_json(self) -> dict[str, Any]:
        """The JSON object of this decision (``docs/review.md``)."""
        best = set(self.best or ())
        options = None if self.options is None else [
            {"tile": kind_str(o.tile), "shanten": o.shanten, "ukeire": _kinds(o.ukeire),
             "count": o.copies, "best": o.tile in best, **({} if o.allowed else
                                                           {"forbidden": "kuikae"})}
            for o in self.options]
        taken = self.taken()
        return {
            "event": self.event, "round": self.round, "seat": self.seat, "kind": self.kind,
            "taken": kind_str(self.tile) if self.tile < 34 else None,
            "riichi": self.riichi, "tsumogiri": self.tsumogiri, "forced": self.forced,
            "shanten": taken.shanten if taken else None,
            "options": options,
            "best": None if self.best is None else [kind_str(k) for k in self.best],
            "loss": None if self.loss is None else {"shanten": self.loss[0],
                                                    "ukeire": self.loss[1]},
            "threats": None if self.threats is None else {
                str(q): {kind_str(k): c for k, c in by.items()}
                for q, by in self.threats.items()},
            "deal_in": self.deal_in.to_json() if self.deal_in else None,
            "not_computed": dict(self.not_computed),
        }


Ukeire = tuple[int, int, int | None]
"""(shanten, ukeire mask, unseen copies or ``None``) of a hand of 3n + 1 tiles."""


@dataclass(slots=True, kw_only=True)
class CallDecision:
    """A discard another seat could call (module docstring).

    ``calls`` are the calls the seat's hand allowed, each ``(type, kinds from hand)``
    (``pon``, ``chi``, ``open_kan``); ``taken`` the one made or ``None``; ``outcome``
    ``taken``, ``passed`` or ``other-call`` (another seat called the tile: whether this
    one would have is not recorded). ``before`` is the hand's :data:`Ukeire` before;
    ``after`` (``(discard kind, shanten, ukeire mask, count)``) the best discard of the
    hand after a call taken."""

    event: int
    round: str
    seat: int
    tile: int
    from_seat: int
    calls: list[tuple[str, tuple[int, ...]]]
    taken: tuple[str, tuple[int, ...]] | None = None
    outcome: str = "passed"
    before: Ukeire | None = None
    after: tuple[int, int, int, int | None] | None = None
    not_computed: Mapping[str, str] = field(default_factory=lambda: NOTHING)

    kind = "call"

    def to_json(self) -> dict[str, Any]:
        """The JSON object of this decision (``docs/review.md``)."""
        def call(c: tuple[str, tuple[int, ...]]) -> dict[str, Any]:
            return {"type": c[0], "tiles": [kind_str(k) for k in c[1]]}

        before = None if self.before is None else {
            "shanten": self.before[0], "ukeire": _kinds(self.before[1]),
            "count": self.before[2]}
        after = None if self.after is None else {
            "discard": kind_str(self.after[0]), "shanten": self.after[1],
            "ukeire": _kinds(self.after[2]), "count": self.after[3]}
        return {"event": self.event, "round": self.round, "seat": self.seat,
                "kind": self.kind, "tile": kind_str(self.tile), "from": self.from_seat,
                "calls": [call(c) for c in self.calls],
                "taken": call(self.taken) if self.taken else None, "outcome": self.outcome,
                "before": before, "after": after, "not_computed": dict(self.not_computed)}


Decision = DiscardDecision | CallDecision
"""One decision of either kind."""

__all__ = ["NOTHING", "CallDecision", "DealIn", "Decision", "DiscardDecision", "Option",
           "Ukeire", "note"]

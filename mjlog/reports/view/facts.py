"""The page's data of a game's decision facts (:mod:`mjlog.families.riichi.decisions`): what the
viewer's
"Efficiency & safety" layer draws under the tiles, under the page data's key ``facts``.

:func:`facts_view` writes each discard decision at the step of its discard, compactly
(a hanchan has about a thousand decisions of about a dozen options each)::

    {"classes": [safety class names], "reasons": [why a fact was not computed],
     "d": [[step, seat, taken, flags, held, options, best, loss, threats, deal_in, not],
           ...],
     "deal_ins": {win step: index in "d"}}

* ``taken``: the kind thrown (``mjlog.core.tiles`` numbering: 0–8 ``1m``–``9m``, 9–17 the
  pins, 18–26 the sous, 27–33 ``1z``–``7z``); ``flags``: 1 forced (after riichi),
  2 a riichi declaration, 4 drawn and thrown, 8 counted (every tile on the table known,
  so counts, ``best`` and ``loss`` exist);
* ``held``: the kinds held, a 34-bit mask in hexadecimal (the options' kinds, in order);
* ``options``: ``null`` when not computed, else one text, an option per kind held in
  kind order, separated by spaces, each ``SN.M``: ``S`` the shanten the discard leaves
  (one base-36 digit), ``N`` the unseen copies of the kinds that lower it (decimal,
  empty when not counted) and ``M`` those kinds, a 34-bit mask in hexadecimal, ``!``
  after it when kuikae forbids the discard;
* ``best``: the most accepting kinds as a 34-bit mask (``null``: not counted);
  ``loss``: ``[shanten lost, copies lost]`` or ``null`` (forced, not counted);
* ``threats``: ``null`` when not computed, else ``[[seat, classes], ...]`` for each
  opponent in riichi, ``classes`` one digit per option (its place in ``classes``);
* ``deal_in``: ``null``, or ``[shanten after the discard (null: not known),
  [[winner, class index (-1: not computed), riichi 0/1], ...]]``;
* ``not``: ``0``, or ``[[fact, reason index], ...]`` for the facts not computed.

A decision's trailing ``threats``, ``deal_in`` and ``not`` are left off when they hold
their usual ``[]``, ``null`` and ``0``.

``deal_ins`` ties each win on a discard to its decision. Call decisions are not carried
(the layer draws discards). This module computes no fact: it only writes those of
:class:`~mjlog.families.riichi.decisions.observer.DecisionFacts` and places them at steps; nothing
here
weighs a move.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

from mjlog.families.riichi.decisions.model import DiscardDecision
from mjlog.families.riichi.decisions.safety import CLASSES

FORCED: Final = 1
RIICHI: Final = 2
TSUMOGIRI: Final = 4
COUNTED: Final = 8
_DIGITS: Final = "0123456789abcdefghijklmnopqrstuvwxyz"
_KEPT: Final = 8
_TRAILING: Final[tuple[object, ...]] = (*(object(),) * _KEPT, [], None, 0)
"""The values a decision's last fields usually hold, left off its end (the page reads a
field past the end as that value)."""
WIN_WINDOW: Final = 8
"""How many steps after a discard its wins are looked for (a double or triple ron is
one win step each)."""


def _mask(kinds: Sequence[int]) -> int:
    return sum(1 << k for k in set(kinds))


class _Writer:
    """Writes decisions (module docstring), keeping the list of reasons."""

    def __init__(self) -> None:
        self.reasons: dict[str, int] = {}

    def reason(self, text: str) -> int:
        return self.reasons.setdefault(text, len(self.reasons))

    def decision(self, d: DiscardDecision, step: int) -> list[Any]:
        """One decision as the page carries it (its options read from ``raw``, as
        :attr:`~mjlog.families.riichi.decisions.model.DiscardDecision.options` reads them)."""
        raw = None if d.raw is None else sorted(d.raw)
        flags = (FORCED * d.forced | RIICHI * d.riichi | TSUMOGIRI * bool(d.tsumogiri)
                 | COUNTED * d.counted)
        kinds = [o[0] for o in raw or ()]
        counted, forbidden = d.counted, d.forbidden
        text = None if raw is None else " ".join(
            f"{_DIGITS[sh]}{n if counted else ''}.{mask:x}" + ("!" if k in forbidden else "")
            for k, sh, mask, n in raw)
        out = [step, d.seat, d.tile, flags, f"{_mask(kinds):x}", text,
               None if d.best is None else _mask(d.best),
               None if d.loss is None else list(d.loss),
               self._threats(d, kinds), self._deal_in(d),
               [[f, self.reason(r)] for f, r in d.not_computed.items()] or 0]
        while len(out) > _KEPT and out[-1] == _TRAILING[len(out) - 1]:
            out.pop()  # the usual threats, deal-in and notes left out
        return out

    @staticmethod
    def _threats(d: DiscardDecision, kinds: list[int]) -> list[list[Any]] | None:
        if d.threats is None:
            return None
        return [[q, "".join(str(CLASSES.index(by[k])) for k in kinds)]
                for q, by in d.threats.items()]

    @staticmethod
    def _deal_in(d: DiscardDecision) -> list[Any] | None:
        di = d.deal_in
        if di is None:
            return None
        return [di.shanten, [[w, -1 if di.classes.get(w) is None
                              else CLASSES.index(str(di.classes[w])), int(di.riichi.get(w, 0))]
                             for w in di.winners]]


def facts_view(facts: Sequence[object], steps: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """The page's data of the decisions ``facts`` (module docstring); ``steps`` are the
    page's steps (each names its event in ``e``). A decision whose event has no step (past
    the page's step cap) is left out."""
    step_of = {st["e"]: i for i, st in enumerate(steps) if "e" in st}
    writer = _Writer()
    out: list[list[Any]] = []
    deal_ins: dict[int, int] = {}
    for d in facts:
        if not isinstance(d, DiscardDecision) or d.event not in step_of:
            continue
        step = step_of[d.event]
        if d.deal_in is not None:
            for j in range(step + 1, min(step + 1 + WIN_WINDOW, len(steps))):
                res = steps[j].get("res") or {}
                if res.get("kind") == "win" and res.get("from") == d.seat \
                        and res.get("winner") in d.deal_in.winners:
                    deal_ins[j] = len(out)
        out.append(writer.decision(d, step))
    return {"classes": list(CLASSES), "reasons": list(writer.reasons), "d": out,
            "deal_ins": deal_ins}


__all__ = ["COUNTED", "FORCED", "RIICHI", "TSUMOGIRI", "facts_view"]

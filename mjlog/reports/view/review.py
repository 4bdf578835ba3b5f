"""The page's data of an AI's review (:class:`mjlog.core.review.Review`): what the viewer shows
beside each reviewed move, under the page data's key ``review``.

:func:`review_view` ties each reviewed move to the step of its event and writes it
compactly: ``[step, agrees (1 or 0), actual, expected, choices, junme, rank]``, an action as
``[kind, tile codes]`` (the page's mpsz codes: ``0m`` a red five) and each of the
:data:`TOP` best choices as ``[action, Q-value, probability]``, rounded. The review is the
reviewer's opinion, shown as such; nothing here weighs a move. ``rank`` is the place of
the move played among all the AI's options (0 its first choice, -1 not among them), a
red five and the order of a call's tiles aside. This module writes no page.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

from mjlog.core.review import Action, Choice, Review
from mjlog.core.tiles import kind_str

TOP: Final = 5
"""How many of the AI's choices a reviewed move shows, best first."""

_MJAI: Final = {**{h: kind_str(27 + i) for i, h in enumerate("ESWNPFC")},
                **{f"{n}{s}": f"{n}{s}" for s in "mps" for n in range(1, 10)},
                **{f"5{s}r": f"0{s}" for s in "mps"}}
"""Each mjai tile name's code on the page."""


def review_view(review: object, steps: Sequence[dict[str, Any]],
                red: bool = True) -> dict[str, Any] | None:
    """The page's data of ``review`` (module docstring), None without one (or for anything
    but a :class:`~mjlog.core.review.Review`); ``steps`` are the
    page's steps (each names its event in ``e``), ``red`` whether the game has red fives
    (without them a red five the report names is drawn as a five). A reviewed move whose
    event has no step is left out and said in the notes."""
    if not isinstance(review, Review):
        return None
    step_of = {st["e"]: i for i, st in enumerate(steps) if "e" in st}
    moves, notes = [], list(review.notes)
    for m in review.moves:
        step = step_of.get(m.event)
        if step is None:
            notes.append(f"a reviewed move (junme {m.junme}) is at an event the table "
                         "never reached")
            continue
        moves.append([step, int(m.agrees), _action(m.actual, red), _action(m.expected, red),
                      [[_action(c.action, red), round(c.q_value, 3), round(c.prob, 4)]
                       for c in m.choices[:TOP]], m.junme, _rank(m.actual, m.choices)])
    return {"engine": review.engine, "model": review.model, "version": review.version,
            "player": review.player, "temperature": review.temperature,
            "rating": review.rating, "reviewed": review.reviewed, "matches": review.matches,
            "moves": moves, "notes": notes}


def _rank(played: Action, choices: Sequence[Choice]) -> int:
    """The place of the move played among the AI's options, -1 when not among them."""
    key = _plain(played)
    return next((i for i, c in enumerate(choices) if _plain(c.action) == key), -1)


def _plain(a: Action) -> tuple[str, tuple[str, ...]]:
    """An action with its tiles sorted and a red five as its five."""
    return a.kind, tuple(sorted(t.removesuffix("r") for t in a.tiles))


def _action(a: Action, red: bool) -> list[str]:
    """An action as ``[kind, codes]``; a tile name the page cannot draw becomes ``??``."""
    codes = (_MJAI.get(t, "??") for t in a.tiles)
    return [a.kind, "".join(c if red or c[0] != "0" else "5" + c[1] for c in codes)]

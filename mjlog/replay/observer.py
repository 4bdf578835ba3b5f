"""Observers: what looks at the table while the engine replays a record.

An :class:`Observer` names the events it looks at by its methods:
``before_<type>`` runs just before the engine applies an event of that
``TYPE`` (``before_discard``, ``before_win`` …), with the table as it was,
and ``after_<type>`` just after, with the table as it is now. Rule checks,
score verification, the wall check and the text replay are observers;
:meth:`mjlog.replay.engine.Engine.run` drives any number of them in one
replay, in the order given.

Observers see the game's start and end, and every event of a round whose
start fits the table; what comes outside such a round (the moves of a damaged
record) only the engine judges. An exception inside a hook never stops the replay and is
never lost: the
engine turns it into an ``internal-error`` finding naming the observer. An event
that does not fit the table (a seat or tile outside it) is the record's fault: the
engine reports it as ``unreplayable-event`` and no observer sees it. An exception
in the engine's own handling of an event that fits is the engine's bug, an
``internal-error`` too, never blamed on the record.

This module only describes observers; it replays nothing.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from itertools import compress
from typing import Any, ClassVar

from mjlog.core.events import EVENT_TYPES

Hook = Callable[[Any], None]
Hooks = dict[type, list[tuple["Observer", Hook]]]


class Observer:
    """Base of everything that watches a replay. Subclasses define hooks by name."""

    name: str = ""
    """What an ``internal-error`` finding names (a check's code, ``scores``, ``wall`` …;
    the class name when empty)."""

    dormant: ClassVar[frozenset[str]] = frozenset()
    """Hooks on draws and discards (``before_draw`` …) that need not see a *plain move*
    until the observer wakes them (:meth:`~mjlog.replay.engine.Engine.wake`), nor after it
    puts them to rest again. A plain move is a draw from the live wall, or a discard that
    declares no riichi, made in turn and needing no finding: nine events in ten, which the
    engine then applies without calling the hook. The hook still sees every other draw
    and discard, and must do nothing on a plain move while asleep."""


_NAMES: dict[type, list[tuple[type, bool, str]]] = {}
"""Per observer class: (event class, whether before, method name) of each hook it has."""


def _hook_names(kind: type) -> list[tuple[type, bool, str]]:
    names = _NAMES.get(kind)
    if names is None:
        names = [(cls, prefix == "before_", prefix + tag) for tag, cls in EVENT_TYPES.items()
                 for prefix in ("before_", "after_") if hasattr(kind, prefix + tag)]
        _NAMES[kind] = names
    return names


def hooks_of(observers: Sequence[Observer]) -> tuple[Hooks, Hooks]:
    """Each event class's ``before`` and ``after`` hooks, in the observers' order (hooks
    are methods of the observer's class; an attribute set on an instance is not one)."""
    before: Hooks = {}
    after: Hooks = {}
    for obs in observers:
        for cls, is_before, name in _hook_names(type(obs)):
            (before if is_before else after).setdefault(cls, []).append(
                (obs, getattr(obs, name)))
    return before, after


def walk(events: Sequence[Any], observers: Sequence[Observer]) -> None:
    """Call each observer's ``before_`` and then ``after_`` hooks on every event, in
    order, without a table: for observers that need only the events (statistics).
    Exceptions go to the caller."""
    before, after = hooks_of(observers)
    calls: dict[type, list[Hook]] = {}
    for table in (before, after):  # each event's before hooks, then its after hooks
        for cls, hooks in table.items():
            calls.setdefault(cls, []).extend(fn for _, fn in hooks)
    # only the events something looks at, picked in C (most of a game is draws)
    wanted = compress(events, map(calls.__contains__, map(type, events)))
    get = calls.__getitem__
    for ev in wanted:
        for fn in get(ev.__class__):
            fn(ev)


class TurnLimit(Observer):
    """Halts a replay once a round has made ``turn`` moves (what ``mjlog replay --turn``
    shows)."""

    name = "turn limit"

    def __init__(self, engine: Any, turn: int) -> None:
        self.engine = engine
        self.turn = turn

    def _moved(self, ev: Any) -> None:
        if self.engine.state.turn >= self.turn:
            self.engine.halt()

    after_draw = after_discard = after_chi = after_pon = after_open_kan = _moved
    after_added_kan = after_closed_kan = after_kita = after_flower = _moved


def event_types(observer: type[Observer]) -> list[str]:
    """The event types an observer class looks at (``discard``, ``win`` …)."""
    return [tag for tag in EVENT_TYPES
            if hasattr(observer, "before_" + tag) or hasattr(observer, "after_" + tag)]

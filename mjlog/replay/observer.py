"""Observers: what looks at the table while the engine replays a record.

An :class:`Observer` names the events it looks at by its methods:
``before_<type>`` runs just before the engine applies an event of that
``TYPE`` (``before_discard``, ``before_win`` …), with the table as it was,
and ``after_<type>`` just after, with the table as it is now. Rule checks,
score verification, the wall check and the text replay are observers;
:meth:`mjlog.replay.engine.Engine.run` drives any number of them in one
replay, in the order given.

An exception inside a hook never stops the replay and is never lost: the
engine turns it into an ``internal-error`` finding naming the observer, unless
the event itself does not fit the table (a seat or tile outside it), which
the engine reports as ``unreplayable-event``.

This module only describes observers; it replays nothing.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from mjlog.events import EVENT_TYPES

Hook = Callable[[Any], None]
Hooks = dict[type, list[tuple["Observer", Hook]]]


class Observer:
    """Base of everything that watches a replay. Subclasses define hooks by name."""

    name: str = ""
    """What an ``internal-error`` finding names (a check's code, ``scores``, ``wall`` …;
    the class name when empty)."""


def hooks_of(observers: Sequence[Observer]) -> tuple[Hooks, Hooks]:
    """Each event class's ``before`` and ``after`` hooks, in the observers' order."""
    before: Hooks = {}
    after: Hooks = {}
    for obs in observers:
        for tag, cls in EVENT_TYPES.items():
            for prefix, table in (("before_", before), ("after_", after)):
                fn = getattr(obs, prefix + tag, None)
                if fn is not None:
                    table.setdefault(cls, []).append((obs, fn))
    return before, after


def event_types(observer: type[Observer]) -> list[str]:
    """The event types an observer class looks at (``discard``, ``win`` …)."""
    return [tag for tag in EVENT_TYPES
            if hasattr(observer, "before_" + tag) or hasattr(observer, "after_" + tag)]

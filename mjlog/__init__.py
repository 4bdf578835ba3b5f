"""mjlog: read, replay, audit and convert mahjong game records.

The flow is ``formats → events → replay → reports``: importers in
:mod:`mjlog.formats` turn a record into canonical :mod:`mjlog.events`, the
:mod:`mjlog.replay` engine steps through them with full table state, and
:mod:`mjlog.audit` reports what it finds. The core (tiles, events, ruleset,
replay) uses only the standard library.
"""

__version__ = "0.1.0"


def install_hint(extra: str) -> str:
    """How to install an optional part of mjlog (an extra of its package), from the
    package index or from a clone of its repository, as a user meets it in a message."""
    return f"pip install 'mjlog[{extra}]' (from a clone of mjlog: pip install '.[{extra}]')"

"""What mjlog says about itself: its version, and how to install an optional part of it.

A leaf: it imports nothing of mjlog, so that any module may use it without importing the
package's front (:mod:`mjlog`, which loads :mod:`mjlog.api` when one of its names is first
used) and without making a cycle of imports with it.
"""

__version__ = "0.1.0"


class MissingExtra(ImportError):
    """An optional part of mjlog is not installed; the message names it and says how to
    install it (:func:`install_hint`). The command line prints it in one line."""


def install_hint(extra: str) -> str:
    """How to install an optional part of mjlog (an extra of its package), from the
    package index or from a clone of its repository, as a user meets it in a message."""
    return f"pip install 'mjlog[{extra}]' (from a clone of mjlog: pip install '.[{extra}]')"

"""Which core runs: the native one (``mjlog._native``, built from ``core/``) or pure Python.

The Python implementation is the specification: every function of the native core has a
Python twin, and the differential tests hold the two identical. This module only decides
which route a process takes, once, when it is first asked:

* ``MJLOG_PURE=1`` (any value but empty or ``0``) forces the Python route;
* otherwise the native core is used when it was built at install (cargo present);
* otherwise the Python route, and :func:`warn_if_missing` says so in one line.

It computes nothing itself.
"""

from __future__ import annotations

import importlib
import os
import sys
from functools import cache
from types import ModuleType
from typing import Final

PURE_VARIABLE: Final = "MJLOG_PURE"
"""The environment variable that forces the Python route (worker processes inherit it)."""


def pure_requested() -> bool:
    """Whether the environment asks for the Python route (``MJLOG_PURE`` set, not ``0``)."""
    return os.environ.get(PURE_VARIABLE, "") not in ("", "0")


@cache
def _built() -> ModuleType | None:
    """The native extension when it was built, else None; imported once per process."""
    try:
        return importlib.import_module("mjlog._native")
    except ImportError:
        return None


@cache
def core() -> ModuleType | None:
    """The native core this process uses, or None for the Python route. Decided once per
    process (:data:`PURE_VARIABLE`, then whether it was built); does not warn. A benchmark
    that measures both routes in one process sets the variable and calls
    ``core.cache_clear()``."""
    return None if pure_requested() else _built()


def describe() -> str:
    """One line naming the core this process uses and why (``mjlog --version``)."""
    built = _built()
    if pure_requested():
        return f"core: pure Python ({PURE_VARIABLE} is set)"
    if built is None:
        return "core: pure Python (the native core was not built: no cargo at install)"
    return f"core: native {built.__version__} (Rust)"


_warned = False


def warn_if_missing() -> None:
    """Write one line to standard error, once per process, when the native core was not
    built and the Python route was not asked for; otherwise write nothing."""
    global _warned
    if _warned or pure_requested() or _built() is not None:
        return
    _warned = True
    print("mjlog: warning: the native core was not built (cargo was not found when mjlog "
          "was installed); running pure Python, which is slower. Install Rust and "
          "reinstall mjlog to build it.", file=sys.stderr)

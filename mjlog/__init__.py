"""mjlog: read, replay, audit and convert mahjong game records.

The flow is ``formats → events → replay → reports``: importers in
:mod:`mjlog.formats` turn a record into canonical :mod:`mjlog.core.events`, the
:mod:`mjlog.replay` engine steps through them with full table state, and
:mod:`mjlog.reports.audit` reports what it finds. The core (:mod:`mjlog.core`: tiles,
events, ruleset, findings, records) and the replay use only the standard library.

In Python and notebooks (``docs/api.md``, :mod:`mjlog.api`)::

    import mjlog
    report = mjlog.audit("examples/12-sakizuke.mjn", rules="kansaki")
    print(report)                 # the game's part of `mjlog audit`
    games = mjlog.read("game.mjlog")

``mjlog.read``, ``mjlog.audit``, ``mjlog.Report``, ``mjlog.Game`` and
``mjlog.InputError`` are loaded when first used: ``import mjlog`` imports this file and
:mod:`mjlog.core.about` only, none of the readers, the scoring library, polars or the page
templates, so that a program that wants one submodule pays for that one.

``mjlog.audit`` is also the module :mod:`mjlog.audit`, the auditor, as it always was
(``mjlog.audit.audit_record``): that name is the module :mod:`mjlog.reports.audit`
itself. This package makes that module callable when it is bound here, by anyone and in
any order: calling it is calling :func:`mjlog.api.audit`.
"""

from __future__ import annotations

import sys
from types import ModuleType
from typing import TYPE_CHECKING, Any

from mjlog.core.about import __version__, install_hint

if TYPE_CHECKING:
    from mjlog.api import Game, InputError, Report, audit, read

__all__ = ["Game", "InputError", "Report", "__version__", "audit", "install_hint", "read"]

_API = frozenset({"Game", "InputError", "Report", "read"})


def __getattr__(name: str) -> Any:
    """A name of the API (:mod:`mjlog.api`), or the callable module :mod:`mjlog.audit`,
    imported when first asked for."""
    if name == "audit":
        import mjlog.audit as auditor  # bound here, it is made callable (_Package)

        return auditor
    if name in _API:
        from mjlog import api

        return getattr(api, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:
    """What completion in a notebook offers: the API's names, the submodules imported so
    far and the module's dunders (not the names this file imports for itself)."""
    here = globals()
    subs = {n for n, v in here.items()
            if isinstance(v, ModuleType) and v.__name__ == f"{__name__}.{n}"}
    return sorted({*__all__, *subs, *(n for n in here if n.startswith("__"))})


class _Auditor(ModuleType):
    """The class of the module :mod:`mjlog.audit`: a module that can be called."""

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        """Audit a game or a file: :func:`mjlog.api.audit` (its arguments, its result)."""
        from mjlog.api import audit

        return audit(*args, **kwargs)


class _Package(ModuleType):
    """The class of this package: it makes :mod:`mjlog.audit` callable as the import
    system binds it here, the first time anything imports it."""

    def __setattr__(self, name: str, value: Any) -> None:
        if name == "audit" and type(value) is ModuleType:
            value.__class__ = _Auditor
        super().__setattr__(name, value)


sys.modules[__name__].__class__ = _Package

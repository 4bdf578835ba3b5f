"""``mjlog.audit``: the auditor's documented name (``docs/api.md``), which is the very
module :mod:`mjlog.reports.audit`.

It is kept because ``from mjlog.audit import audit_record, audit_items`` and the callable
``mjlog.audit(...)`` are public: importing this module puts :mod:`mjlog.reports.audit`
in its place in ``sys.modules``, so that both names are one module object (which
:mod:`mjlog` makes callable when it is bound there). It defines nothing of its own.
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

from mjlog.reports import audit as _auditor

if TYPE_CHECKING:
    from mjlog.reports.audit import AuditReport as AuditReport
    from mjlog.reports.audit import Checks as Checks
    from mjlog.reports.audit import FileReport as FileReport
    from mjlog.reports.audit import GameReport as GameReport
    from mjlog.reports.audit import Options as Options
    from mjlog.reports.audit import audit as audit
    from mjlog.reports.audit import audit_file as audit_file
    from mjlog.reports.audit import audit_file_lazily as audit_file_lazily
    from mjlog.reports.audit import audit_items as audit_items
    from mjlog.reports.audit import audit_record as audit_record
    from mjlog.reports.audit import counted as counted
    from mjlog.reports.audit import format_text as format_text

sys.modules[__name__] = _auditor

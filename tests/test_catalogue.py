"""One catalogue of codes: every code the sources report is in it, and every code in it is
reported somewhere; the docs and the report schema list exactly those codes."""

from __future__ import annotations

import ast
import json
from pathlib import Path

from mjlog.core.catalogue import CODES
from mjlog.families.docgen import catalogue, stale
from mjlog.families.registry import violation_codes

from .conftest import ROOT

_REPORTERS = {"find", "note", "mismatch", "diag", "NotationError", "problem"}
"""Functions whose first argument is the code they report."""


def _reported() -> set[str]:
    """Codes passed to a reporting call or as ``code=`` anywhere in ``mjlog/``."""
    found: set[str] = set()
    for path in sorted((ROOT / "mjlog").rglob("*.py")):
        if path.name == "catalogue.py":
            continue
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            if not isinstance(node, ast.Call):
                continue
            name = node.func.attr if isinstance(node.func, ast.Attribute) else \
                node.func.id if isinstance(node.func, ast.Name) else ""
            args = [node.args[0]] if name in _REPORTERS and node.args else []
            args += [k.value for k in node.keywords if k.arg == "code"]
            found.update(a.value for a in args
                         if isinstance(a, ast.Constant) and isinstance(a.value, str))
    return found


def test_every_code_reported_is_catalogued_and_every_catalogued_code_is_reported() -> None:
    reported = _reported() | {r.code for r in violation_codes()}
    known = {c.code for c in catalogue()}
    assert reported - known == set(), "reported but not in mjlog/core/catalogue.py"
    # a code in the catalogue that nothing reports any more is stale
    assert {c.code for c in CODES} - reported == set()


def test_codes_are_listed_once_per_kind() -> None:
    keys = [(c.kind, c.code) for c in CODES]
    assert len(keys) == len(set(keys))


def test_docs_and_schema_are_generated_from_the_catalogue() -> None:
    assert stale() == [], "out of date: python -m mjlog.families.docgen"
    schema = json.loads((ROOT / "schemas" / "audit-report.schema.json").read_text("utf-8"))
    for kind in ("diagnostic", "finding", "mismatch", "violation"):
        listed = set(schema["$defs"][f"{kind}-code"]["enum"])
        assert listed == {c.code for c in catalogue() if c.kind == kind}
    doc = Path(ROOT / "docs" / "findings.md").read_text("utf-8")
    assert all(f"`{c.code}`" in doc for c in catalogue())

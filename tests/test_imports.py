"""What reading one record imports: the format registry loads a reader when a format is
first used, and the ``mahjong`` scoring library waits until a win is valued.

Each test runs a fresh interpreter (a subprocess), since this one has long imported
everything. The count is of mjlog's own modules (its ``.py`` files) in ``sys.modules``.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import mjlog.formats
from mjlog.formats import FORMATS, MJAI_DIALECTS, NOTATION_MAGIC

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "mjlog"
EXAMPLE = ROOT / "examples" / "east-riichi.mjlog"

_PROBE = """
import json, sys
def loaded():
    return sorted(m for m in sys.modules if m == "mjlog" or m.startswith("mjlog."))
import mjlog.formats as formats
data = open(sys.argv[1], "rb").read()
found = formats.detect(data)
records = formats.read_path(sys.argv[1])
after_read = {"format": found, "modules": loaded(), "mahjong": "mahjong" in sys.modules,
              "wins": sum(type(e).__name__ == "Win" for e in records[0].events)}
from mjlog.families.riichi.scoring.verify import verify
_engine, report = verify(records[0])
print(json.dumps({"read": after_read, "valued": "mahjong" in sys.modules,
                  "checked": report.wins_verified}))
"""


def _package_modules() -> int:
    """How many modules mjlog has: its ``.py`` files (a package counts by its
    ``__init__.py``)."""
    return sum(1 for p in PACKAGE.rglob("*.py") if "__pycache__" not in p.parts)


def _probe(path: Path) -> dict[str, Any]:
    """What a fresh interpreter imports to detect and read ``path`` and then to verify
    its scores."""
    done = subprocess.run([sys.executable, "-c", _PROBE, str(path)], capture_output=True,
                          text=True, check=True, cwd=ROOT, timeout=120)
    result: dict[str, Any] = json.loads(done.stdout)
    return result


def test_reading_a_tenhou_file_imports_half_of_mjlog_at_most() -> None:
    result = _probe(EXAMPLE)
    read = result["read"]
    assert read["format"] == "tenhou-xml"
    assert read["wins"] > 0, "the example must have a win for the second half to mean much"
    total = _package_modules()
    assert len(read["modules"]) <= total // 2, (len(read["modules"]), total, read["modules"])
    others = {f.module for f in FORMATS.values()} - {"mjlog.formats.tenhou_xml",
                                                      "mjlog.formats.serialize"}
    assert not others & set(read["modules"]), "another format's reader was imported"
    assert not read["mahjong"], "reading imported the mahjong scoring library"
    assert result["checked"] > 0
    assert result["valued"], "valuing a win did not import the mahjong scoring library"


_API_PROBE = """
import json, sys
import mjlog
games = mjlog.read(sys.argv[1])
after_read = {"mahjong": "mahjong" in sys.modules, "audit": "mjlog.reports.audit" in sys.modules,
              "wins": sum(type(e).__name__ == "Win" for e in games[0].events)}
import mjlog.families.base
after_base = "mahjong" in sys.modules
report = mjlog.audit(games[0])
print(json.dumps({"read": after_read, "base": after_base, "audited": "mahjong" in sys.modules,
                  "wins": report.game_report.wins}))
"""


def test_the_api_reads_a_tenhou_file_without_the_auditor_or_mahjong() -> None:
    done = subprocess.run([sys.executable, "-c", _API_PROBE, str(EXAMPLE)], capture_output=True,
                          text=True, check=True, cwd=ROOT, timeout=120)
    result = json.loads(done.stdout)
    assert result["read"]["wins"] > 0
    assert not result["read"]["mahjong"], "mjlog.read imported the mahjong scoring library"
    assert not result["read"]["audit"], "mjlog.read imported the auditor"
    assert not result["base"], "the rule family's base imported the mahjong scoring library"
    assert result["audited"] and result["wins"] > 0, "auditing did not value the wins"


def test_registry_copies_agree_with_their_formats() -> None:
    """The registry knows two facts of the notation and mjai modules without importing
    them; they must be those modules' own."""
    from mjlog.formats import mjai, notation

    assert notation.MAGIC.encode() == NOTATION_MAGIC
    assert MJAI_DIALECTS == mjai.DIALECTS
    assert FORMATS["notation"].extension == notation.EXTENSION


def test_every_format_names_a_module_that_has_its_reader() -> None:
    for name, fmt in FORMATS.items():
        module = fmt.reader()
        assert module.__name__ == fmt.module, name
        assert hasattr(module, "read"), name
    assert mjlog.formats.FORMATS is FORMATS

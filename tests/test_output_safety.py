"""Names from records are shown safely wherever mjlog writes them: a terminal report never
receives a control or bidirectional character raw and never gets a line it did not write;
a CSV cell never starts as a spreadsheet formula; a Markdown table keeps its rows."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from mjlog.cli import main
from mjlog.core.textsafe import terminal

from .conftest import EXAMPLES

HOSTILE = ["=HYPERLINK(\"http://x\")", "Ben\n# forged heading\nfinding: none",
           "\x1b]52;c;Zm9v\x07Chi", "Dai\u202e0.55 sewo"]
"""Player names: a formula, newlines that forge lines, an OSC 52 clipboard write, a
right-to-left override."""
RAW = ("\x1b", "\x07", "\u202e")


@pytest.fixture
def record(tmp_path: Path) -> Path:
    """A game of our own whose players carry the hostile names."""
    lines = (EXAMPLES / "east-riichi.jsonl").read_text("utf-8").splitlines()
    start = json.loads(lines[0])
    for player, name in zip(start["players"], HOSTILE, strict=True):
        player["name"] = name
    path = tmp_path / "hostile.jsonl"
    path.write_text("\n".join([json.dumps(start), *lines[1:]]) + "\n", "utf-8")
    return path


def _run(*args: str) -> str:
    result = CliRunner().invoke(main, list(args))
    assert result.exit_code in (0, 1), result.output
    return result.output


def test_terminal_escapes_controls_and_leaves_text_alone() -> None:
    assert terminal("Aoi 東 [0]") == "Aoi 東 [0]"
    assert terminal("a\x1b[2Jb\nc\u202ed") == "a\\x1b[2Jb\\x0ac\\u202ed"


def test_the_audit_report_shows_hostile_names_escaped_on_its_own_lines(
        record: Path, tmp_path: Path) -> None:
    hostile = _run("audit", str(record), "--all")
    plain = _run("audit", str(EXAMPLES / "east-riichi.jsonl"), "--all")
    assert not any(c in hostile for c in RAW)
    assert len(hostile.splitlines()) == len(plain.splitlines())  # no forged line
    assert "Ben\\x0a# forged heading" in hostile and "Dai\\u202e0.55" in hostile


def test_replay_shows_hostile_names_escaped(record: Path) -> None:
    out = _run("replay", str(record), "--end")
    assert not any(c in out for c in RAW)
    assert "\\x1b]52;c;Zm9v\\x07Chi" in out


def test_statistics_csv_and_markdown_keep_names_inert(record: Path, tmp_path: Path) -> None:
    csv = _run("stats", str(record), "--format", "csv", "--min-games", "1",
               "--include-incomplete")
    cells = [line.split(",", 1)[0] for line in csv.splitlines()[1:]]
    assert "'=HYPERLINK(\"\"http://x\"\")" in csv and not any(c.startswith("=") for c in cells)
    md = _run("stats", str(record), "--format", "markdown", "--min-games", "1",
              "--include-incomplete")
    table = [line for line in md.splitlines() if line.startswith("|")]
    assert len(table) == 2 + 4  # header, rule and one row per player: no row broken
    assert not any(line.startswith("#") for line in md.splitlines())
    text = _run("stats", str(record), "--min-games", "1", "--include-incomplete")
    assert not any(c in text for c in RAW)

"""Incremental statistics: facts updated with the games an archive gained equal facts
computed over everything at once, and so does the table."""

from __future__ import annotations

import json
import zipfile
from pathlib import Path

import polars as pl
import pytest
from polars.testing import assert_frame_equal

from mjlog.stats import run
from mjlog.stats.facts import TABLES
from tests.conftest import CORPUS, CORPUS_MISSING

LOGS = CORPUS / "tenhou-xml/thewaxmango-mahjong-hands/log-libraries/logs"


def _zip(path: Path, files: list[Path]) -> Path:
    with zipfile.ZipFile(path, "w") as z:
        for f in files:
            z.write(f, f.name)
    return path


def _facts(folder: Path) -> dict[str, pl.DataFrame]:
    return {t: pl.read_parquet(folder / t).sort(pl.all()) for t in TABLES}


def test_an_update_equals_a_run_over_everything(tmp_path: Path) -> None:
    if not LOGS.exists():
        pytest.skip(CORPUS_MISSING)
    files = sorted(LOGS.glob("*.txt"))[:40]
    archive = tmp_path / "houou.zip"
    _zip(archive, files[:25])  # the archive as it was ...
    first = run([archive], by=["player"], facts_dir=tmp_path / "facts")
    assert first.census.games == 25
    _zip(archive, files)  # ... and after it grew (with one game twice: the first again)
    _zip(tmp_path / "again.zip", files[:1])
    later = run([archive, tmp_path / "again.zip"], by=["player"],
                facts_dir=tmp_path / "facts", update=True)
    assert later.census.games == 16  # only the new games were read (15, and the copy)
    whole = run([archive, tmp_path / "again.zip"], by=["player"],
                facts_dir=tmp_path / "whole")
    # the same counts; sums of real numbers the same to the last few bits (added in
    # another order)
    assert_frame_equal(later.table.sort("player"), whole.table.sort("player"),
                       check_exact=False, rel_tol=1e-12)
    updated, full = _facts(tmp_path / "facts"), _facts(tmp_path / "whole")
    assert all(updated[t].equals(full[t]) for t in TABLES)
    manifest = json.loads((tmp_path / "facts" / "_manifest.json").read_text("utf-8"))
    assert len(manifest["files"]) == 41 and manifest["games_read"] == 41
    assert manifest["duplicates_dropped"] == 1


def test_an_update_under_other_filters_is_refused(tmp_path: Path) -> None:
    if not LOGS.exists():
        pytest.skip(CORPUS_MISSING)
    files = sorted(LOGS.glob("*.txt"))[:3]
    run(files, facts_dir=tmp_path / "facts")
    with pytest.raises(ValueError, match="other filters"):
        run(files, facts_dir=tmp_path / "facts", update=True, dedupe=False)
    with pytest.raises(FileExistsError):
        run(files, facts_dir=tmp_path / "facts")


def test_the_command_updates_facts(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from mjlog.cli import main

    if not LOGS.exists():
        pytest.skip(CORPUS_MISSING)
    files = [str(f) for f in sorted(LOGS.glob("*.txt"))[:4]]
    runner = CliRunner()
    facts = str(tmp_path / "facts")
    assert runner.invoke(main, ["stats", *files[:2], "--facts", facts, "-o", "-",
                                "--format", "csv"]).exit_code == 0
    again = runner.invoke(main, ["stats", *files, "--facts", facts, "-o", "-", "--format",
                                 "csv"])
    assert again.exit_code == 2 and "--update" in again.output
    updated = runner.invoke(main, ["stats", *files, "--facts", facts, "--update", "-o", "-",
                                   "--format", "csv"])
    assert updated.exit_code == 0, updated.output
    manifest = json.loads((tmp_path / "facts" / "_manifest.json").read_text("utf-8"))
    assert manifest["files"] == files and manifest["games_read"] == 4
    alone = runner.invoke(main, ["stats", *files, "--update"])
    assert alone.exit_code == 2 and "--facts" in alone.output


GAMES = sorted((Path(__file__).resolve().parent.parent / "examples").glob("*.mjn"))
"""Records of our own: the tests below need no corpus."""


def test_overwrite_never_replaces_a_folder_mjlog_did_not_write(tmp_path: Path) -> None:
    """``--overwrite`` of a folder without a manifest, of a facts folder the user added a
    file to, or of one that holds an input of the run: refused, every file still there."""
    plain = tmp_path / "notes"
    plain.mkdir()
    (plain / "notes.txt").write_text("mine", "utf-8")
    with pytest.raises(FileExistsError, match="holds no facts mjlog wrote"):
        run(GAMES[:2], by=["player"], facts_dir=plain, overwrite=True)
    facts = tmp_path / "facts"
    run(GAMES[:2], by=["player"], facts_dir=facts)
    (facts / "notes.txt").write_text("mine", "utf-8")
    with pytest.raises(FileExistsError, match="files mjlog did not write"):
        run(GAMES[:2], by=["player"], facts_dir=facts, overwrite=True)
    (facts / "notes.txt").unlink()
    inside = facts / "game.mjn"
    inside.write_bytes(GAMES[0].read_bytes())
    with pytest.raises(FileExistsError):
        run([inside], by=["player"], facts_dir=facts, overwrite=True)
    assert (plain / "notes.txt").read_text("utf-8") == "mine" and inside.exists()
    inside.unlink()
    assert run(GAMES[2:4], by=["player"], facts_dir=facts, overwrite=True).census.games == 2


_KILL_AT_RENAME = """
import os, sys
from pathlib import Path
from mjlog.stats import run
real, calls, at = os.replace, [0], int(sys.argv[1])
def replace(src, dst):
    calls[0] += 1
    if calls[0] == at:  # the process dies here, as under SIGKILL: no cleanup runs
        os._exit(9)
    real(src, dst)
os.replace = replace
run([Path(p) for p in sys.argv[3:]], by=["player"], facts_dir=Path(sys.argv[2]), update=True)
"""


@pytest.mark.parametrize("at", [1, 2])
def test_a_crash_at_either_rename_of_an_update_loses_nothing(tmp_path: Path, at: int) -> None:
    """An update killed at the first or the second rename of its commit: the next run
    finds the facts folder old or new, never missing, and its update counts every game."""
    import subprocess
    import sys

    facts = tmp_path / "facts"
    run(GAMES[:3], by=["player"], facts_dir=facts)
    died = subprocess.run([sys.executable, "-c", _KILL_AT_RENAME, str(at), str(facts),
                           *map(str, GAMES[:6])], capture_output=True, check=False)
    assert died.returncode == 9, died.stderr
    later = run(GAMES[:8], by=["player"], facts_dir=facts, update=True)
    manifest = json.loads((facts / "_manifest.json").read_text("utf-8"))
    assert manifest["games_read"] == 8 and later.census.games in (2, 5)
    assert not list(tmp_path.glob(".facts.*"))  # no staging folder left behind

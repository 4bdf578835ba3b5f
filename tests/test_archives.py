"""Records inside archives: a zip, a gzip tar and a houou-logs database of real records
give the same audit and statistics as the same records as files, each record named
``ARCHIVE!MEMBER``."""

from __future__ import annotations

import gzip
import json
import sqlite3
import tarfile
import zipfile
from pathlib import Path
from typing import Any

import pytest

from mjlog.core.diagnostics import InputError
from mjlog.formats import expand, file_bytes, read_path
from mjlog.reports.audit import audit
from mjlog.run import archives
from mjlog.stats import summarize
from tests.conftest import CORPUS, CORPUS_MISSING, EXAMPLES

LOGS = CORPUS / "tenhou-xml/thewaxmango-mahjong-hands/log-libraries/logs"


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Twenty real games as files, and the same in a zip (with a README), a gzip tar and
    a houou-logs database (the downloader's table; records gzipped, one not downloaded)."""
    if not LOGS.exists():
        pytest.skip(CORPUS_MISSING)
    files = sorted(LOGS.glob("*.txt"))[:20]
    root = tmp_path_factory.mktemp("archives")
    (root / "plain").mkdir()
    for f in files:
        (root / "plain" / f.name).write_bytes(f.read_bytes())
    with zipfile.ZipFile(root / "games.zip", "w", zipfile.ZIP_DEFLATED) as z:
        for f in files:
            z.write(f, f"logs/{f.name}")
        z.writestr("logs/README.md", "not a record")
    with tarfile.open(root / "games.tar.gz", "w:gz") as t:
        for f in files:
            t.add(f, f"logs/{f.name}")
    with sqlite3.connect(root / "2022.db") as db:
        db.execute("CREATE TABLE logs (id TEXT PRIMARY KEY, date TEXT NOT NULL, num_players "
                   "INTEGER NOT NULL, is_tonpu INTEGER NOT NULL, is_processed INTEGER NOT "
                   "NULL, was_error INTEGER NOT NULL, log BLOB) WITHOUT ROWID")
        db.executemany("INSERT INTO logs VALUES (?, ?, 4, 0, 1, 0, ?)",
                       [(f.stem, "2022-01-01", gzip.compress(f.read_bytes())) for f in files])
        db.execute("INSERT INTO logs VALUES ('2022010100gm-0000-0000-00000000', "
                   "'2022-01-01', 4, 0, 0, 0, NULL)")
    return root


def _games(report: Any) -> list[tuple[str, str]]:
    """Each game's report without its path, by the record's own name."""
    out = []
    for g in report.to_dict()["games"]:
        name = Path(g.pop("path").split("!")[-1]).stem
        out.append((name, json.dumps(g, sort_keys=True)))
    return sorted(out)


@pytest.mark.parametrize("archive", ["games.zip", "games.tar.gz", "2022.db"])
def test_an_archive_audits_as_its_files(folder: Path, archive: str) -> None:
    plain = audit([folder / "plain"])
    inside = audit([folder / archive], jobs=2)
    assert len(plain.games) == 20 and _games(inside) == _games(plain)
    assert inside.summary.games == plain.summary.games
    assert all("!" in g.path for g in inside.games)
    assert inside.skipped == ([f"{folder / archive}!logs/README.md"]
                              if archive == "games.zip" else [])


@pytest.mark.parametrize("archive", ["games.zip", "games.tar.gz", "2022.db"])
def test_an_archive_gives_the_statistics_of_its_files(folder: Path, archive: str) -> None:
    plain = summarize([str(folder / "plain")], by=["player"])
    inside = summarize([str(folder / archive)], by=["player"])
    assert plain.sort("player").equals(inside.sort("player"))


def test_records_in_an_archive_are_named_archive_and_member(folder: Path) -> None:
    names = [str(p) for p, explicit in expand([folder / "2022.db"]) if not explicit]
    assert len(names) == 20  # the record not downloaded (no log) is not listed
    assert names[0] == f"{folder / '2022.db'}!{sorted((folder / 'plain').iterdir())[0].stem}"
    (rec,) = read_path(names[0])
    assert rec.path == names[0] and rec.complete
    with pytest.raises(InputError) as caught:
        read_path(f"{folder / 'games.zip'}!logs/missing.mjlog")
    assert caught.value.diagnostic.code == "unreadable"


def test_a_converted_archive_is_written_under_its_name(folder: Path, tmp_path: Path) -> None:
    from click.testing import CliRunner

    from mjlog.cli import main

    out = CliRunner().invoke(main, ["convert", str(folder / "games.zip"), "-t", "jsonl",
                                    "-o", str(tmp_path / "out")])
    assert out.exit_code == 0, out.output
    written = sorted(p.relative_to(tmp_path / "out") for p in (tmp_path / "out").rglob("*.jsonl"))
    assert len(written) == 20 and all(p.parts[:2] == ("games.zip", "logs") for p in written)
    (back,) = read_path(tmp_path / "out" / written[0])
    (want,) = read_path(folder / "plain" / (written[0].stem + ".txt"))
    assert back.events == want.events


@pytest.mark.parametrize("method", [zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED,
                                    zipfile.ZIP_BZIP2])
def test_a_member_is_read_from_its_entry_without_the_directory(tmp_path: Path,
                                                               method: int) -> None:
    """A worker given a batch's entries reads its members straight from where they are:
    with the archive's directory then destroyed, they still read the same."""
    zip_path = tmp_path / "games.zip"
    records = {f"r{i}.mjn": (EXAMPLES / name).read_bytes()
               for i, name in enumerate(["07-dealer-tsumo.mjn", "12-sakizuke.mjn"])}
    with zipfile.ZipFile(zip_path, "w", method) as z:
        for name, data in records.items():
            z.writestr(name, data)
    names = [f"{zip_path}!{name}" for name in records]
    known = archives.entries(names)
    assert sorted(known) == sorted(names)
    data = zip_path.read_bytes()
    directory = data.rindex(b"PK\x01\x02", 0, data.index(b"PK\x05\x06"))
    zip_path.write_bytes(data[:data.index(b"PK\x01\x02")] + b"\0" * (len(data) - directory))
    with archives.located(known):
        for name, member in zip(names, records, strict=True):
            assert file_bytes(name) == records[member]
    with pytest.raises(InputError):
        file_bytes(names[0])  # without the entries, the damaged directory is read


def test_a_damaged_member_read_from_its_entry_is_an_error(tmp_path: Path) -> None:
    zip_path = tmp_path / "games.zip"
    with zipfile.ZipFile(zip_path, "w", zipfile.ZIP_STORED) as z:
        z.writestr("a.mjn", (EXAMPLES / "07-dealer-tsumo.mjn").read_bytes())
    name = f"{zip_path}!a.mjn"
    known = archives.entries([name])
    data = bytearray(zip_path.read_bytes())
    data[60] ^= 0xFF  # a byte of the record
    zip_path.write_bytes(bytes(data))
    with archives.located(known), pytest.raises(InputError, match="bad CRC"):
        file_bytes(name)


@pytest.mark.parametrize("command", ["audit", "stats"])
def test_a_damaged_archive_in_a_folder_is_an_unreadable_input(folder: Path, tmp_path: Path,
                                                              command: str) -> None:
    """A zip whose directory cannot be read is reported with the reason, exit status 2 (it
    was a traceback): the audit still reads the folder's other records; statistics stop,
    as for any named file they cannot read, rather than count without it."""
    from click.testing import CliRunner

    from mjlog.cli import main

    mixed = tmp_path / "mixed"
    mixed.mkdir()
    for f in sorted((folder / "plain").iterdir())[:3]:
        (mixed / f.name).write_bytes(f.read_bytes())
    (mixed / "broken.zip").write_bytes((folder / "games.zip").read_bytes()[:3000])
    out = CliRunner().invoke(main, [command, str(mixed), *(
        ["--format", "json"] if command == "audit" else ["--min-games", "1"])])
    assert out.exit_code == 2, out.output
    assert out.exception is None or isinstance(out.exception, SystemExit), out.exception
    assert f"cannot open {mixed / 'broken.zip'}" in out.output
    if command == "audit":
        report = json.loads(out.stdout)
        assert report["summary"]["games"] == 3 and report["summary"]["unreadable_files"] == 1


HOSTILE_NAMES = ["../../../escaped.mjn", "/tmp/absolute.mjn", "ok/../../up.mjn", "./././dot.mjn"]
"""Archive member names that point outside the folder they are extracted to."""


def _hostile_archives(root: Path) -> list[Path]:
    """A zip, a gzip tar and a houou-logs database whose records are named to escape."""
    record = (EXAMPLES / "01-double-east.mjn").read_bytes()
    tenhou = (EXAMPLES / "east-riichi.mjlog").read_bytes()
    with zipfile.ZipFile(root / "evil.zip", "w") as z:
        for name in HOSTILE_NAMES:
            z.writestr(name, record)
    with tarfile.open(root / "evil.tar.gz", "w:gz") as t:
        for name in HOSTILE_NAMES:
            info = tarfile.TarInfo(name)
            info.size = len(record)
            t.addfile(info, __import__("io").BytesIO(record))
    with sqlite3.connect(root / "evil.db") as db:
        db.execute("CREATE TABLE logs (id TEXT PRIMARY KEY, date TEXT NOT NULL, num_players "
                   "INTEGER NOT NULL, is_tonpu INTEGER NOT NULL, is_processed INTEGER NOT "
                   "NULL, was_error INTEGER NOT NULL, log BLOB) WITHOUT ROWID")
        db.execute("INSERT INTO logs VALUES (?, '2022-01-01', 4, 1, 1, 0, ?)",
                   ("../../../escaped-db", gzip.compress(tenhou)))
    return [root / "evil.zip", root / "evil.tar.gz", root / "evil.db"]


@pytest.mark.parametrize("command", [["convert", "-t", "jsonl"], ["view"]])
def test_archive_member_names_never_leave_the_output_folder(tmp_path: Path,
                                                            command: list[str]) -> None:
    """Every file ``convert`` and ``view`` write for records of a zip, a tar or a houou-logs
    database named ``../..``, absolutely or through ``x/../..`` lands inside the output
    folder, and nothing is written beside it or at the absolute name."""
    from click.testing import CliRunner

    from mjlog.cli import main

    work = tmp_path / "work"
    work.mkdir()
    sources = _hostile_archives(work)
    out = work / "deep" / "out"
    before = {p for p in tmp_path.rglob("*")}
    result = CliRunner().invoke(main, [command[0], *map(str, sources), *command[1:],
                                       "-o", str(out)])
    assert result.exit_code in (0, 1), result.output
    new = {p for p in tmp_path.rglob("*")} - before
    written = [p for p in new if p.is_file()]
    assert len(written) >= 2 * len(HOSTILE_NAMES)
    assert all(out in p.parents for p in written), sorted(map(str, written))
    assert not Path("/tmp/absolute.jsonl").exists() and not Path("/tmp/absolute.html").exists()


@pytest.mark.parametrize("method", [zipfile.ZIP_DEFLATED, zipfile.ZIP_BZIP2])
def test_a_member_that_inflates_past_its_declared_size_is_refused_without_inflating(
        tmp_path: Path, method: int) -> None:
    """A member declaring 100 bytes whose data inflates to 200 MB: an error naming it, read
    in bounded memory (the whole 200 MB is never held; bzip2 alone held gigabytes)."""
    import subprocess
    import sys

    bomb = tmp_path / "bomb.zip"
    with zipfile.ZipFile(bomb, "w", method) as z, z.open("logs/bomb.mjlog", "w") as member:
        for _ in range(200):  # a megabyte at a time: the probe's peak is its own
            member.write(bytes(2**20))
    data = bytearray(bomb.read_bytes())
    info = zipfile.ZipFile(bomb).getinfo("logs/bomb.mjlog")
    for at in (info.header_offset + 22, data.rfind(b"PK\x01\x02") + 24):  # both sizes: 100
        data[at:at + 4] = (100).to_bytes(4, "little")
    bomb.write_bytes(bytes(data))
    # the probe's own peak (VmHWM): ru_maxrss would carry the test process's over exec
    probe = ("import re, sys\nfrom mjlog.run import archives\ntry:\n"
             "    archives.read(sys.argv[1], 'logs/bomb.mjlog', 2**28)\n"
             "except archives.ArchiveError as exc:\n    print('refused:', exc)\n"
             "print(re.search(r'VmHWM:\\s+(\\d+)', open('/proc/self/status').read())[1])")
    done = subprocess.run([sys.executable, "-c", probe, str(bomb)], capture_output=True,
                          text=True, check=True)
    refused, peak = done.stdout.splitlines()
    assert refused.startswith("refused:") and "bomb.mjlog" in refused
    assert int(peak) < 150 * 1024, f"peak {int(peak) // 1024} MB"  # KiB: far below 200 MB


@pytest.mark.parametrize("kind", ["zip", "tar"])
def test_two_members_of_one_name_are_both_read(tmp_path: Path, kind: str) -> None:
    """An archive may hold two members of one name: each is a record, the second named
    ``NAME#2``, and each is read from its own bytes (the second was read twice and the
    first never)."""
    import io
    import warnings

    first = (EXAMPLES / "east-riichi.jsonl").read_bytes()
    second = (EXAMPLES / "east-ron.jsonl").read_bytes()
    path = tmp_path / f"twice.{kind}"
    if kind == "zip":
        with warnings.catch_warnings(), zipfile.ZipFile(path, "w") as z:
            warnings.simplefilter("ignore")  # zipfile warns of the duplicate name
            z.writestr("game.jsonl", first)
            z.writestr("game.jsonl", second)
    else:
        with tarfile.open(path, "w") as t:
            for data in (first, second):
                info = tarfile.TarInfo("game.jsonl")
                info.size = len(data)
                t.addfile(info, io.BytesIO(data))
    names = [name for name, _ in expand([path])]
    assert names == [f"{path}!game.jsonl", f"{path}!game.jsonl#2"]
    assert [file_bytes(name) for name in names] == [first, second]
    report = audit([path])
    assert [g.path for g in report.games] == names

"""Records in an object store (``s3://``), read through fsspec: a real S3 server on loopback.

The same real records, as local files and as objects (a folder, a zip and a gzip tar in
a bucket), give the same audit, conversion and statistics; only the names differ, by
the prefix. A zip's members are read by ranged requests, without its directory where a
batch brings its entries. A store that cannot be read is one line and exit status 2.
"""

from __future__ import annotations

import filecmp
import json
import os
import shutil
import subprocess
import sys
import tarfile
import zipfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from mjlog.formats import expand, file_bytes, read_path, write
from mjlog.run import archives

from .conftest import CORPUS, CORPUS_MISSING, ROOT
from .objectstore import REASON, S3Server, Unavailable

OTHERS = ("majsoul-raw", "riichicity-json", "mjai", "tenhou-json", "kobalab-majiang-json")
"""A record of each of these formats goes in beside the Tenhou logs."""
BUCKET = "s3://records"


@pytest.fixture(scope="module")
def s3() -> Iterator[S3Server]:
    try:
        server = S3Server()
    except Unavailable:
        pytest.skip(REASON)
    saved = dict(os.environ)
    os.environ.update(server.env)
    try:
        yield server
    finally:
        os.environ.clear()
        os.environ.update(saved)
        server.stop()


@pytest.fixture(scope="module")
def local(tmp_path_factory: pytest.TempPathFactory, s3: S3Server) -> Path:
    """Real records of six formats in a folder (a sub-folder, a JSON Lines file of twelve
    games, a hidden file and a README among them), the same in a zip and a gzip tar, all
    put in the bucket too."""
    logs = CORPUS / "tenhou-xml/thewaxmango-mahjong-hands/log-libraries/logs"
    if not logs.exists():
        pytest.skip(CORPUS_MISSING)
    root = tmp_path_factory.mktemp("store")
    games = root / "games"
    (games / "tenhou").mkdir(parents=True)
    for f in sorted(logs.glob("*.txt"))[:12]:
        shutil.copy(f, games / "tenhou" / f.name)
    rows = [line.split("\t") for line in
            (CORPUS / "_index.tsv").read_text(encoding="utf-8").splitlines()[1:]]
    for fmt in OTHERS:
        path = CORPUS / next(r[0] for r in rows if r[1] == fmt)
        shutil.copy(path, games / f"{fmt}-{path.name}")
    (games / "all.jsonl").write_text("".join(  # JSON Lines: read a game at a time
        write("jsonl", rec.events) for f in sorted((games / "tenhou").iterdir())
        for rec in read_path(f)))
    (games / "README.md").write_text("not a record\n")
    (games / ".hidden.xml").write_bytes((games / "tenhou").iterdir().__next__().read_bytes())
    with zipfile.ZipFile(root / "games.zip", "w", zipfile.ZIP_DEFLATED) as z:
        for f in sorted(games.rglob("*")):
            if f.is_file() and not f.name.startswith("."):
                z.write(f, f.relative_to(games).as_posix())
    with tarfile.open(root / "games.tar.gz", "w:gz") as t:
        t.add(games / "tenhou", "tenhou")
    for name in ("games", "games.zip", "games.tar.gz"):
        s3.put(root / name, f"{BUCKET}/{name}")
    return root


def mjlog(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "mjlog.cli", *args], cwd=ROOT,
                          env={**os.environ, "PYTHONPATH": str(ROOT)},
                          capture_output=True, text=True, timeout=600)


def _report(args: list[str], prefix: str) -> dict[str, Any]:
    """``audit --format json``'s report with ``prefix`` taken off every name."""
    done = mjlog("audit", *args, "--format", "json")
    assert done.returncode in (0, 1), done.stderr
    return json.loads(done.stdout.replace(prefix, "<here>"))  # type: ignore[no-any-return]


def test_a_bucket_folder_lists_as_the_local_folder(local: Path) -> None:
    here = [(name.removeprefix(str(local)), named) for name, named in expand([local / "games"])]
    there = [(name.removeprefix(BUCKET), named) for name, named in expand([f"{BUCKET}/games"])]
    assert there == here and len(here) == 12 + len(OTHERS) + 2
    assert not any(".hidden" in name for name, _ in there)


@pytest.mark.parametrize("name", ["games", *(pytest.param(n, marks=pytest.mark.slow)  # ~5 s each
                                             for n in ("games.zip", "games.tar.gz"))])
def test_records_in_a_bucket_audit_as_local_files(local: Path, name: str) -> None:
    here = _report([str(local / name)], str(local))
    there = _report([f"{BUCKET}/{name}", "--jobs", "2"], BUCKET)
    assert there == here
    assert here["summary"]["games"] >= (24 if name == "games" else 12)
    assert here["summary"]["unreadable_files"] == 0
    assert all(g["path"].startswith(f"<here>/{name}") for g in there["games"])


def test_a_conversion_from_a_bucket_writes_the_local_files(local: Path, tmp_path: Path) -> None:
    for source, out in ((str(local / "games"), "here"), (f"{BUCKET}/games", "there")):
        done = mjlog("convert", source, "-t", "tenhou6", "-o", str(tmp_path / out))
        assert done.returncode == 0, done.stderr
    compared = filecmp.dircmp(tmp_path / "here", tmp_path / "there")
    assert not compared.left_only and not compared.right_only and not compared.diff_files
    assert len(list((tmp_path / "there").rglob("*.json"))) >= 12


def test_statistics_from_a_bucket_are_the_local_ones(local: Path) -> None:
    outputs = []
    for source in (str(local / "games.zip"), f"{BUCKET}/games.zip"):
        done = mjlog("stats", source, "--format", "csv", "--min-games", "1")
        assert done.returncode == 0, done.stderr
        outputs.append(done.stdout)
    assert outputs[0] == outputs[1] and outputs[0].count("\n") > 4


def test_a_zip_member_in_a_bucket_is_read_from_its_entry(local: Path, s3: S3Server) -> None:
    """With its batch's entries, a member is read by one ranged request of about its size:
    the zip's directory is never opened (a worker holds none), and the bytes are the
    member's."""
    members = [n for n, _ in expand([f"{BUCKET}/games.zip"])]
    known = archives.entries(members)
    assert set(known) == set(members)
    archives._LOCAL.__dict__.pop("open", None)  # no archive open in this thread
    data: list[bytes] = []
    with archives.located(known):
        requests = s3.recorded(lambda: data.extend(file_bytes(n) for n in members))
    assert not archives._LOCAL.__dict__.get("open")
    assert [r["method"] for r in requests] == ["GET"] * len(members)
    ranges = [r["headers"]["Range"].removeprefix("bytes=").split("-") for r in requests]
    assert sum(int(b) - int(a) + 1 for a, b in ranges) < sum(
        e.stored + 30 + 512 + len(n) for n, e in known.items())
    with zipfile.ZipFile(local / "games.zip") as z:
        assert data == [z.read(n.split("!", 1)[1]) for n in members]


@pytest.mark.slow  # four runs of the command, each importing the S3 client: ~8 s
def test_what_cannot_be_read_is_one_line(local: Path, s3: S3Server, tmp_path: Path) -> None:
    database = tmp_path / "2022.db"
    database.write_bytes(b"SQLite format 3\x00" + bytes(4096))
    s3.put(database, f"{BUCKET}/2022.db")
    damaged = tmp_path / "damaged.zip"
    damaged.write_bytes((local / "games.zip").read_bytes()[:2000])
    s3.put(damaged, f"{BUCKET}/damaged.zip")
    cases = {f"{BUCKET}/no/such/record.xml": "no such file or object",
             "nosuch://bucket/games": "Protocol not known",
             f"{BUCKET}/2022.db": "SQLite reads no URL",
             f"{BUCKET}/damaged.zip": "cannot open"}
    for url, said in cases.items():
        done = mjlog("audit", url)
        assert done.returncode == 2, (url, done.stdout, done.stderr)
        assert said in done.stderr + done.stdout and "Traceback" not in done.stderr, url


def test_a_record_in_a_zip_in_a_bucket_replays(local: Path) -> None:
    """``replay`` takes a record by the name reports give it, here or in a bucket."""
    member = sorted(n for n in zipfile.ZipFile(local / "games.zip").namelist()
                    if n.startswith("tenhou/"))[0]
    shown = [mjlog("replay", f"{where}!{member}", "--round", "E1")
             for where in (str(local / "games.zip"), f"{BUCKET}/games.zip")]
    assert [s.returncode for s in shown] == [0, 0], shown[1].stderr
    assert shown[1].stdout.split("\n", 1)[1] == shown[0].stdout.split("\n", 1)[1]
    assert shown[1].stdout.startswith(f"{BUCKET}/games.zip!{member}  E1-0")

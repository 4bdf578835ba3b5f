"""``--cluster``: audit, convert and statistics on a real Dask cluster on loopback.

The module starts a scheduler and two workers (each with its nanny, one thread each) as
separate processes, the workers with ``tests/cluster/poison.py`` preloaded, and runs the
commands through them over a third of the Tenhou records of the corpus (every third file
of each of its sources: 870 games from all twelve sources). Every result is compared
with the same command run locally: the same report, the same converted files, the same
statistics and the same fact tables after sorting. The corpus tests read the whole
corpus; here all of it would make each of the seven runs three times as long and prove
nothing more about the cluster. One test kills a worker in the middle
of a run, one gives the cluster a record that makes its workers exit, one has the workers
read a zip from an S3 store on loopback (moto's server, a process of its own).
"""

from __future__ import annotations

import contextlib
import datetime
import filecmp
import ipaddress
import json
import os
import signal
import subprocess
import sys
import time
import zipfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import polars as pl
import pytest

from mjlog.run.cluster import TLS_VARIABLES

from .cluster.poison import MARK
from .conftest import CORPUS, CORPUS_MISSING, EXAMPLES, ROOT
from .objectstore import REASON, S3Server, Unavailable

pytestmark = pytest.mark.slow  # a real scheduler and workers: CI runs them, the inner loop not

distributed = pytest.importorskip("distributed", reason="the cluster tests need Dask "
                                  "distributed: pip install -e '.[test]' installs it")
XML = CORPUS / "tenhou-xml"
ENV = {**os.environ, "PYTHONPATH": str(ROOT),
       # a worker holds only the task it runs: a dying worker takes no other batch with it
       "DASK_DISTRIBUTED__SCHEDULER__WORKER_SATURATION": "1.0",
       "DASK_DISTRIBUTED__COMM__TIMEOUTS__CONNECT": "3s"}


class Cluster:
    """A scheduler and two workers, each a process of its own, on 127.0.0.1."""

    def __init__(self, folder: Path, workers: int = 2, tls: tuple[str, ...] = ()) -> None:
        """``tls``: the scheduler's and workers' TLS options (``--tls-ca-file`` …): then
        they listen on ``tls://`` only, and :meth:`client` connects with ``security``."""
        self.file = folder / "scheduler.json"
        self.security: Any = None
        self.procs = [self._start("dask_scheduler", "--host", "127.0.0.1", "--port", "0",
                                  "--no-dashboard", "--scheduler-file", str(self.file),
                                  *(("--protocol", "tls", *tls) if tls else ()))]
        try:
            self.address = self._address()
            for _ in range(workers):
                self.procs.append(self._start(
                    "dask_worker", self.address, "--nthreads", "1", "--host", "127.0.0.1",
                    "--no-dashboard", "--memory-limit", "0", *tls,
                    "--preload", str(ROOT / "tests" / "cluster" / "poison.py")))
            if tls:
                ca, cert, key = (tls[tls.index(f"--tls-{k}") + 1]
                                 for k in ("ca-file", "cert", "key"))
                self.security = distributed.security.Security(
                    tls_ca_file=ca, tls_client_cert=cert, tls_client_key=key,
                    require_encryption=True)
            with self.client() as client:
                client.wait_for_workers(workers, timeout=60)
        except BaseException:
            self.stop()  # a cluster that did not start leaves no process behind
            raise

    def _address(self) -> str:
        """The scheduler's address, once its file is written: the file exists, empty, for
        a moment before it is (a read in that moment failed one run)."""
        deadline = time.monotonic() + 60
        while True:
            with contextlib.suppress(OSError, ValueError, KeyError):
                return str(json.loads(self.file.read_text())["address"])
            assert time.monotonic() < deadline, "the scheduler wrote no address in a minute"
            time.sleep(0.1)

    @staticmethod
    def _start(module: str, *args: str) -> subprocess.Popen[bytes]:
        return subprocess.Popen([sys.executable, "-m", f"distributed.cli.{module}", *args],
                                env=ENV, stdout=subprocess.DEVNULL,
                                stderr=subprocess.DEVNULL, start_new_session=True)

    def client(self) -> Any:
        """A client of this cluster (a context manager)."""
        return distributed.Client(self.address, timeout="20s", set_as_default=False,
                                  security=self.security)

    def worker_pids(self) -> dict[str, int]:
        """Each worker's process (not its nanny) by address."""
        with self.client() as client:
            return dict(client.run(os.getpid))

    def stop(self) -> None:
        for proc in reversed(self.procs):
            os.killpg(proc.pid, signal.SIGTERM)
        for proc in self.procs:
            try:
                proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait()


@pytest.fixture(scope="module")
def store() -> Iterator[S3Server | None]:
    """An S3 store on loopback, started before the workers so that they are told where it
    is as a real deployment tells them (``None`` without s3fs and moto)."""
    try:
        server = S3Server()
    except Unavailable:
        yield None
        return
    ENV.update(server.env)
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture(scope="module")
def cluster(tmp_path_factory: pytest.TempPathFactory, store: S3Server | None
            ) -> Iterator[Cluster]:
    if not XML.is_dir():
        pytest.skip(CORPUS_MISSING)
    c = Cluster(tmp_path_factory.mktemp("cluster"))
    try:
        yield c
    finally:
        c.stop()


def mjlog(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "mjlog.cli", *args], cwd=cwd, env=ENV,
                          capture_output=True, text=True, timeout=900)


def started(*args: str) -> subprocess.Popen[str]:
    return subprocess.Popen([sys.executable, "-m", "mjlog.cli", *args], cwd=ROOT, env=ENV,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


@pytest.fixture(scope="module")
def sample(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder of every third file of each source of the Tenhou corpus, in their folders."""
    if not XML.is_dir():
        pytest.skip(CORPUS_MISSING)
    folder = tmp_path_factory.mktemp("sample")
    for source in sorted(p for p in XML.iterdir() if p.is_dir()):
        for path in sorted(p for p in source.rglob("*") if p.is_file())[::3]:
            copy = folder / path.relative_to(XML)
            copy.parent.mkdir(parents=True, exist_ok=True)
            copy.write_bytes(path.read_bytes())
    return folder


@pytest.fixture(scope="module")
def local_audit(tmp_path_factory: pytest.TempPathFactory, sample: Path) -> str:
    out = tmp_path_factory.mktemp("local") / "audit.json"
    done = mjlog("audit", str(sample), "--format", "json", "--jobs", "2", "-o", str(out))
    assert done.returncode in (0, 1), done.stderr
    return out.read_text()


def test_audit_on_the_cluster_is_the_local_audit(cluster: Cluster, local_audit: str,
                                                 sample: Path, tmp_path: Path) -> None:
    out = tmp_path / "audit.json"
    done = mjlog("audit", str(sample), "--format", "json", "--cluster", cluster.address,
                 "-o", str(out))
    assert done.returncode in (0, 1), done.stderr
    assert f"cluster {cluster.address}: 2 workers" in done.stderr
    assert json.loads(local_audit)["summary"]["games"] > 800
    assert out.read_text() == local_audit


def test_a_worker_killed_mid_run_changes_nothing(cluster: Cluster, local_audit: str,
                                                 sample: Path, tmp_path: Path) -> None:
    before = cluster.worker_pids()
    out = tmp_path / "audit.json"
    run = started("audit", str(sample), "--format", "json", "--cluster", cluster.address,
                  "-o", str(out))
    victim = _busy_worker(cluster, before)
    os.kill(before[victim], signal.SIGKILL)
    killed_mid_run = run.poll() is None
    _, err = run.communicate(timeout=900)
    assert killed_mid_run, "the run ended before the worker was killed"
    assert run.returncode in (0, 1), err
    assert out.read_text() == local_audit
    assert cluster.worker_pids().get(victim) != before[victim]  # its nanny started another


def _busy_worker(cluster: Cluster, workers: dict[str, int]) -> str:
    """A worker of ``workers`` that is running one of the run's batches: waits until one
    has a task on its call stack (executing it, not only assigned it by the scheduler),
    however long the machine takes to get there, and returns at once."""
    with cluster.client() as client:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            running = [w for w, stacks in client.call_stack().items() if stacks and w in workers]
            if running:
                return str(running[0])
            time.sleep(0.05)
    raise AssertionError("no worker ran a batch within two minutes")


def test_convert_on_the_cluster_writes_the_local_files(cluster: Cluster, sample: Path,
                                                       tmp_path: Path) -> None:
    here, there = tmp_path / "local", tmp_path / "cluster"
    done = mjlog("convert", str(sample), "-o", str(here), "--keep-extension", "--jobs", "2")
    assert done.returncode == 0, done.stderr
    done = mjlog("convert", str(sample), "-o", str(there), "--keep-extension",
                 "--cluster", cluster.address)
    assert done.returncode == 0, done.stderr
    files = sorted(p.relative_to(here) for p in here.rglob("*") if p.is_file())
    assert len(files) > 800
    assert sorted(p.relative_to(there) for p in there.rglob("*") if p.is_file()) == files
    _, differ, errors = filecmp.cmpfiles(here, there, [str(f) for f in files], shallow=False)
    assert differ == errors == []


def test_stats_and_facts_on_the_cluster_are_the_local_ones(cluster: Cluster, sample: Path,
                                                           tmp_path: Path) -> None:
    runs = {}
    for name, engine in (("local", ["--jobs", "1"]), ("cluster", ["--cluster",
                                                                  cluster.address])):
        table, facts = tmp_path / f"{name}.csv", tmp_path / f"{name}-facts"
        done = mjlog("stats", str(sample), "--metrics", "all", "-o", str(table),
                     "--facts", str(facts), *engine)
        assert done.returncode == 0, done.stderr
        runs[name] = (table.read_text(), _facts(facts))
    assert runs["cluster"][0] == runs["local"][0]
    assert runs["local"][1]["games"].height > 800
    for name, frame in runs["local"][1].items():
        assert runs["cluster"][1][name].equals(frame), name


def test_fairness_on_the_cluster_is_the_local_report(cluster: Cluster, sample: Path,
                                                    tmp_path: Path) -> None:
    """The fairness report of games sampled on the workers is the one sampled here, byte
    for byte (the same batches, in the same order, counted here)."""
    pytest.importorskip("scipy", reason="the fairness report needs scipy")
    runs = {}
    for name, engine in (("local", ["--jobs", "1"]), ("cluster", ["--cluster",
                                                                  cluster.address])):
        out = tmp_path / f"{name}.json"
        done = mjlog("fairness", str(sample), "-o", str(out), *engine)
        assert done.returncode in (0, 2), done.stderr
        runs[name] = out.read_text()
    assert runs["cluster"] == runs["local"]
    assert json.loads(runs["local"])["games"] > 800


def test_stats_counted_on_the_workers_are_the_local_ones(cluster: Cluster, sample: Path,
                                                         tmp_path: Path) -> None:
    """With no duplicate check, no facts and no report, the workers count their batches
    and only counters travel: the same table, and a census that names what was read when
    nothing matched (the pool's census is compared field by field in test_stats)."""
    some = tmp_path / "some"  # a quarter of the sample, from every source
    for path in sorted(p for p in sample.rglob("*") if p.is_file())[::4]:
        (some / path.relative_to(sample)).parent.mkdir(parents=True, exist_ok=True)
        (some / path.relative_to(sample)).symlink_to(path)
    tables = {}
    for name, engine in (("local", ["--jobs", "1"]), ("cluster", ["--cluster",
                                                                  cluster.address])):
        table = tmp_path / f"{name}.csv"
        done = mjlog("stats", str(some), "--keep-duplicates", "--metrics", "all",
                     "--by", "player,room", "--min-games", "1", "-o", str(table), *engine)
        assert done.returncode == 0, done.stderr
        tables[name] = table.read_text()
    assert tables["cluster"] == tables["local"] and tables["local"].count("\n") > 100
    none = mjlog("stats", str(some), "--keep-duplicates", "--room", "houuo", "--cluster",
                 cluster.address)
    assert none.returncode == 1
    assert "no room named 'houuo' in these records; closest: houou" in none.stderr, none.stderr


def _facts(folder: Path) -> dict[str, pl.DataFrame]:
    """Each fact table of a ``--facts`` folder, its parts together, rows sorted."""
    tables = {}
    for table in sorted(p for p in folder.iterdir() if p.is_dir()):
        frame = pl.read_parquet(table / "*.parquet")
        tables[table.name] = frame.sort(frame.columns, nulls_last=True)
    return tables


def test_a_zip_in_a_bucket_audits_on_the_cluster_as_here(cluster: Cluster,
                                                         store: S3Server | None,
                                                         tmp_path: Path) -> None:
    """Workers read the members of a zip in an S3 bucket by ranged requests, with the
    credentials and endpoint of their own environment."""
    if store is None:
        pytest.skip(REASON)
    archive = tmp_path / "houou.zip"
    with zipfile.ZipFile(archive, "w", zipfile.ZIP_DEFLATED) as z:
        for path in sorted(XML.rglob("*.mjlog"))[:200]:
            z.write(path, path.relative_to(XML).as_posix())
    store.put(archive, "s3://archives/houou.zip")
    reports = []
    for source, engine in ((str(archive), ["--jobs", "1"]),
                           ("s3://archives/houou.zip", ["--cluster", cluster.address])):
        done = mjlog("audit", source, "--format", "json", *engine)
        assert done.returncode in (0, 1), done.stderr
        reports.append(json.loads(done.stdout.replace(source, "<archive>")))
    assert reports[1] == reports[0]
    assert reports[0]["summary"]["games"] == 200 and reports[0]["unreadable"] == []


def test_a_record_that_ends_its_workers_is_reported(cluster: Cluster, tmp_path: Path) -> None:
    folder = tmp_path / "records"
    folder.mkdir()
    for path in sorted(XML.rglob("*.mjlog"))[:63]:  # batches of 3 files: 2 go with it
        (folder / path.name).write_bytes(path.read_bytes())
    poison = folder / sorted(p.name for p in folder.iterdir())[30]
    poison.write_bytes(poison.read_bytes() + b"<!-- " + MARK + b" -->")
    done = mjlog("audit", str(folder), "--format", "json", "--cluster", cluster.address)
    assert done.returncode == 2, done.stderr  # an input could not be read
    report = json.loads(done.stdout)
    [unreadable] = report["unreadable"]
    assert unreadable["path"] == str(poison)
    assert unreadable["code"] == "worker-died"
    assert "a batch of 3 files was on workers that died" in done.stderr  # 63 // 16 a batch
    stats = mjlog("stats", str(folder), "--format", "csv", "--cluster", cluster.address)
    assert stats.returncode == 0, stats.stderr
    assert f"warning: {poison}: left out: the worker processes reading it exited" \
        in stats.stderr
    poison.unlink()
    local = json.loads(mjlog("audit", str(folder), "--format", "json").stdout)
    assert len(local["games"]) == 62
    assert report["games"] == local["games"]
    assert len(cluster.worker_pids()) == 2  # the nannies started new workers


def test_ctrl_c_cancels_the_cluster_tasks_and_writes_nothing(cluster: Cluster,
                                                             tmp_path: Path) -> None:
    facts = tmp_path / "facts"
    run = subprocess.Popen([sys.executable, "-m", "mjlog.cli", "stats", str(XML), "-o",
                            str(tmp_path / "table.csv"), "--facts", str(facts),
                            "--cluster", cluster.address],
                           cwd=tmp_path, env=ENV, stdout=subprocess.DEVNULL,
                           stderr=subprocess.PIPE, start_new_session=True)
    _busy_worker(cluster, cluster.worker_pids())
    os.killpg(run.pid, signal.SIGINT)
    _, err = run.communicate(timeout=60)
    assert run.returncode == 130, err
    assert not facts.exists() and sorted(p.name for p in tmp_path.iterdir()) == []
    with cluster.client() as client:
        deadline = time.monotonic() + 20
        while _tasks(client) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert _tasks(client) == 0, "the interrupted run's tasks are still on the cluster"


def _tasks(client: Any) -> int:
    """The tasks the scheduler holds (a watching client holds none)."""
    return int(client.run_on_scheduler(lambda dask_scheduler: len(dask_scheduler.tasks)))


def test_no_cluster_at_the_address_is_one_line(tmp_path: Path) -> None:
    done = mjlog("audit", str(EXAMPLES), "--cluster", "tcp://127.0.0.1:9", cwd=tmp_path)
    assert done.returncode == 2
    assert "no cluster at tcp://127.0.0.1:9" in done.stderr
    assert "Traceback" not in done.stderr


# ---------------------------------------------------------------- TLS


def _certificates(folder: Path) -> tuple[Path, Path, Path]:
    """A certificate authority made here, and one certificate for 127.0.0.1 it signed
    (with its key), which the scheduler, the workers and mjlog all present."""
    pytest.importorskip("cryptography", reason="the TLS test makes its own certificates "
                        "with cryptography (pip install -e '.[test]')")
    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import NameOID

    now = datetime.datetime.now(datetime.UTC)

    def made(name: str, key: Any, issuer: Any, signer: Any, ca: bool) -> Any:
        builder = (x509.CertificateBuilder()
                   .subject_name(x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, name)]))
                   .issuer_name(issuer).public_key(key.public_key())
                   .serial_number(x509.random_serial_number())
                   .not_valid_before(now - datetime.timedelta(minutes=5))
                   .not_valid_after(now + datetime.timedelta(days=1))
                   .add_extension(x509.BasicConstraints(ca=ca, path_length=None), critical=True))
        if not ca:
            builder = builder.add_extension(x509.SubjectAlternativeName(
                [x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]), critical=False)
        return builder.sign(signer, hashes.SHA256())

    ca_key, key = ec.generate_private_key(ec.SECP256R1()), ec.generate_private_key(ec.SECP256R1())
    ca = made("mjlog test CA", ca_key, x509.Name([x509.NameAttribute(NameOID.COMMON_NAME,
                                                                     "mjlog test CA")]),
              ca_key, True)
    cert = made("127.0.0.1", key, ca.subject, ca_key, False)
    pem = serialization.Encoding.PEM
    paths = folder / "ca.pem", folder / "cert.pem", folder / "key.pem"
    paths[0].write_bytes(ca.public_bytes(pem))
    paths[1].write_bytes(cert.public_bytes(pem))
    paths[2].write_bytes(key.private_bytes(pem, serialization.PrivateFormat.PKCS8,
                                           serialization.NoEncryption()))
    return paths


def test_a_tls_cluster_audits_as_here_and_refuses_a_client_without_certificates(
        tmp_path: Path) -> None:
    """A scheduler and a worker that speak TLS only (certificates made by the test): mjlog
    given the certificates in Dask's configuration audits the examples as a local run
    does; without them it says in one line what to set; a client with no certificate
    cannot reach the scheduler at all."""
    ca, cert, key = _certificates(tmp_path)
    tls = ("--tls-ca-file", str(ca), "--tls-cert", str(cert), "--tls-key", str(key))
    cluster = Cluster(tmp_path, workers=1, tls=tls)
    try:
        assert cluster.address.startswith("tls://127.0.0.1:")
        local = mjlog("audit", str(EXAMPLES), "--format", "json")
        names = dict(zip(TLS_VARIABLES, (str(ca), str(cert), str(key)), strict=True))
        ENV.update(names)
        try:
            done = mjlog("audit", str(EXAMPLES), "--format", "json", "--cluster",
                         cluster.address)
        finally:
            for name in names:
                del ENV[name]
        assert done.returncode == local.returncode == 1, done.stderr
        assert f"cluster {cluster.address}: 1 workers" in done.stderr
        assert json.loads(done.stdout) == json.loads(local.stdout)
        refused = mjlog("audit", str(EXAMPLES), "--cluster", cluster.address)
        assert refused.returncode == 2 and "Traceback" not in refused.stderr
        assert f"{cluster.address} is a TLS cluster: set {TLS_VARIABLES[0]}" in refused.stderr
        plain = cluster.address.replace("tls://", "tcp://")
        refused = mjlog("audit", str(EXAMPLES), "--cluster", plain)
        assert refused.returncode == 2 and f"no cluster at {plain}" in refused.stderr
    finally:
        cluster.stop()


def test_an_open_cluster_off_this_machine_is_named_so(tmp_path: Path) -> None:
    """A tcp:// address that is not loopback gets a warning that its port runs code for
    whoever reaches it (the connection then fails: nothing listens there)."""
    done = mjlog("audit", str(EXAMPLES), "--cluster", "tcp://192.0.2.1:8786", cwd=tmp_path)
    assert done.returncode == 2
    assert "tcp://192.0.2.1:8786 is neither encrypted nor authenticated" in done.stderr
    assert "no cluster at tcp://192.0.2.1:8786" in done.stderr
    local = mjlog("audit", str(EXAMPLES), "--cluster", "tcp://127.0.0.1:9", cwd=tmp_path)
    assert "neither encrypted" not in local.stderr

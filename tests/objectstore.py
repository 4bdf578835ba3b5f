"""An S3 object store on loopback for the tests and benchmarks: moto's server, a process
of its own.

mjlog reads it as it would read Amazon S3, through fsspec and s3fs, told where it is by
the standard ``AWS_ENDPOINT_URL`` variable (:attr:`S3Server.env`), with made-up
credentials. Nothing here is mjlog's: the tests only put objects in the store.
"""

from __future__ import annotations

import importlib.util
import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Callable
from pathlib import Path
from typing import Any

REASON = ("the object-store tests need fsspec, s3fs and moto's server: "
          "pip install -e '.[test]' installs them")


class Unavailable(RuntimeError):
    """s3fs or moto's server is not installed (:data:`REASON`)."""


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class S3Server:
    """moto's S3 server on 127.0.0.1; :attr:`env` points s3fs (and boto) at it."""

    def __init__(self) -> None:
        if not all(importlib.util.find_spec(m) for m in ("s3fs", "moto", "flask")):
            raise Unavailable(REASON)
        port = _free_port()
        self.url = f"http://127.0.0.1:{port}"
        self.env = {"AWS_ENDPOINT_URL": self.url, "AWS_ACCESS_KEY_ID": "test",
                    "AWS_SECRET_ACCESS_KEY": "test", "AWS_DEFAULT_REGION": "us-east-1"}
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "moto.server", "-H", "127.0.0.1", "-p", str(port)],
            env={**os.environ, "MOTO_RECORDER_FILEPATH": f"{tempfile.gettempdir()}/"
                 f"moto-recording-{port}.jsonl"}, cwd=tempfile.gettempdir(),
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
        deadline = time.monotonic() + 60
        while not self._answers(port):
            if time.monotonic() > deadline or self.proc.poll() is not None:
                self.stop()
                raise RuntimeError("moto's S3 server did not start")
            time.sleep(0.1)

    @staticmethod
    def _answers(port: int) -> bool:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
        except OSError:
            return False
        return True

    def filesystem(self) -> Any:
        """An s3fs file system of this store, for putting objects in it."""
        import s3fs

        return s3fs.S3FileSystem(key="test", secret="test", endpoint_url=self.url,
                                 skip_instance_cache=True)

    def put(self, local: Path, url: str) -> None:
        """Upload a file, or a folder with everything in it (hidden files too)."""
        fs = self.filesystem()
        bucket = url.removeprefix("s3://").split("/", 1)[0]
        if not fs.exists(bucket):
            fs.mkdir(bucket)
        fs.put(str(local), url.removeprefix("s3://"), recursive=local.is_dir())

    def recorded(self, during: Callable[[], object]) -> list[dict[str, Any]]:
        """The requests the server answered while ``during`` ran (moto's recorder: each
        with its method, URL and headers)."""
        self._recorder("reset-recording")
        self._recorder("start-recording")
        try:
            during()
        finally:
            self._recorder("stop-recording")
        text = self._recorder("download-recording")
        return [json.loads(line) for line in text.splitlines() if line.strip()]

    def _recorder(self, action: str) -> str:
        verb = "GET" if action == "download-recording" else "POST"
        request = urllib.request.Request(f"{self.url}/moto-api/recorder/{action}",
                                         method=verb, data=b"" if verb == "POST" else None)
        with urllib.request.urlopen(request, timeout=30) as answer:
            return str(answer.read().decode())

    def stop(self) -> None:
        os.killpg(self.proc.pid, signal.SIGTERM)
        try:
            self.proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait()

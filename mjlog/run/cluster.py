"""The same batches of files on the workers of a Dask distributed cluster (``--cluster``).

:func:`map_batches` cuts the files into batches for the cluster's threads, as a local
pool's are cut for its processes, sends them to the scheduler a window at a time (so
that results wait on the workers for no more than a window's worth) and yields each
batch's results in the order of the batches: a run gives what a local run gives, whatever
the number of workers and whatever order they finish in.

A worker that dies mid-batch has its batch run again elsewhere by the scheduler. A batch
the scheduler gives up on (it was running on more dying workers than the scheduler's
``distributed.scheduler.allowed-failures``, 3 by default) is split into its files, each
sent alone; a file that kills workers on its own is given to ``poisoned`` (reported, not
retried forever), and the run goes on. Closing the iterator (an error, Ctrl-C) cancels
the tasks still on the cluster.

Workers read the files themselves: they must see them at the path the client gives, or
below the client's folder for a relative path (a shared file system), and have mjlog
installed. ``distributed`` is an optional dependency (``pip install 'mjlog[cluster]'``).
"""

from __future__ import annotations

import pickle
import sys
import urllib.request
from collections import deque
from collections.abc import Callable, Generator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Generic, TypeVar

from mjlog.core.about import install_hint
from mjlog.formats import paths_under
from mjlog.formats.compression import limited, record_limit
from mjlog.run import archives

T = TypeVar("T")
Item = TypeVar("Item", bound=tuple[str, bool])
"""A file (or an archive's record) and whether it was named."""
WINDOW_PER_THREAD = 4
"""Batches sent ahead of the one the client waits for, per worker thread."""


class ClusterError(RuntimeError):
    """No cluster at the address, or ``distributed`` is not installed."""


@dataclass(frozen=True, slots=True)
class Raised:
    """An exception a batch raised on a worker, brought back as a value: the client raises
    it again, as a local run would have raised it. (Left to the engine, an exception whose
    traceback does not travel can leave the client waiting forever.)"""

    error: Exception


@dataclass(frozen=True, slots=True)
class Remote(Generic[Item, T]):
    """``fn`` as a worker runs it: relative paths opened under the client's folder, the
    client's record size limit in force (not the worker's environment), zip members read
    from the entries the client sends (:func:`mjlog.run.archives.located`: a worker holds no
    archive's directory), and an exception returned as :class:`Raised`."""

    fn: Callable[[list[Item]], T]
    root: Path
    limit: int

    def __call__(self, batch: list[Item], known: dict[str, archives.Entry]) -> T | Raised:
        try:
            with paths_under(self.root), limited(self.limit), archives.located(known):
                return self.fn(batch)
        except Exception as exc:  # raised again by the client
            return Raised(_travelling(exc))


def _travelling(exc: Exception) -> Exception:
    """``exc`` if it survives pickling, else a ``RuntimeError`` that says what it was."""
    try:
        pickle.loads(pickle.dumps(exc))
    except Exception:  # any failure to pickle
        return RuntimeError(f"on a cluster worker: {exc!r}")
    return exc


def _value(result: T | Raised) -> T:
    if isinstance(result, Raised):
        raise result.error
    return result


def map_batches(address: str, fn: Callable[[list[Item]], T],
                cut: Callable[[int], list[list[Item]]], poisoned: Callable[[Item], T]
                ) -> Generator[tuple[list[Item], list[T]], None, None]:
    """Each batch (of ``cut(threads)``) with its results, run on the cluster whose scheduler
    is at ``address`` (see the module's description). Raises :class:`ClusterError` when there is no
    cluster there, or no worker joins it within a minute."""
    client = _connect(address)
    with client:
        width = _threads(client)
        print(f"cluster {address}: {len(client.scheduler_info()['workers'])} workers, "
              f"{width} threads; {_dashboard(client.dashboard_link)}", file=sys.stderr)
        remote = Remote(fn, Path.cwd(), record_limit())
        batches = iter(cut(width))
        window: deque[tuple[list[Item], Any]] = deque()
        try:
            while True:
                while len(window) < width * WINDOW_PER_THREAD:
                    batch = next(batches, None)
                    if batch is None:
                        break
                    known = archives.entries(name for name, _ in batch)
                    window.append((batch, client.submit(remote, batch, known, pure=False)))
                if not window:
                    return
                batch, future = window.popleft()
                yield batch, _results(client, remote, batch, future, poisoned)
        finally:
            client.cancel([future for _, future in window])


def _connect(address: str) -> Any:
    """A client of the scheduler at ``address``, over TLS for a ``tls://`` address with
    the certificates of Dask's configuration (:func:`_security`)."""
    try:
        from distributed import Client
    except ImportError:
        raise ClusterError("--cluster needs Dask distributed: " + install_hint("cluster")) \
            from None
    security = _security(address)
    _warn_if_open(address)
    try:
        return Client(address, security=security,  # type: ignore[no-untyped-call]
                      set_as_default=False)
    except (OSError, TimeoutError, ValueError) as exc:
        raise ClusterError(f"no cluster at {address}: {exc}") from None


TLS_VARIABLES = ("DASK_DISTRIBUTED__COMM__TLS__CA_FILE",
                 "DASK_DISTRIBUTED__COMM__TLS__CLIENT__CERT",
                 "DASK_DISTRIBUTED__COMM__TLS__CLIENT__KEY")
"""Where mjlog, as Dask's client, finds the cluster's certificate authority and its own
certificate and key (or in Dask's configuration files: ``distributed.comm.tls``)."""


def _security(address: str) -> Any:
    """Dask's ``Security`` from its configuration (``distributed.comm.tls``: the
    variables of :data:`TLS_VARIABLES` or a configuration file). Raises
    :class:`ClusterError` for a ``tls://`` address when no certificate authority or no
    client certificate is configured; checks no certificate itself (Dask does, on
    connecting)."""
    from distributed.security import Security

    security = Security()  # type: ignore[no-untyped-call]
    configured = all(getattr(security, f"tls_{name}", None) for name in ("ca_file", "client_cert"))
    if address.startswith("tls://") and not configured:
        raise ClusterError(f"{address} is a TLS cluster: set {', '.join(TLS_VARIABLES)} to "
                           "its certificate authority and this client's certificate and key "
                           "(docs/scale.md says how)")
    return security


def _warn_if_open(address: str) -> None:
    """Say once on standard error that a ``tcp://`` cluster off this machine is open:
    Dask's protocol carries pickled code with no authentication, so whoever reaches the
    scheduler's port runs code on every worker."""
    scheme, _, rest = address.partition("://")
    host = rest.rsplit(":", 1)[0].strip("[]") if rest else scheme
    if (scheme if rest else "tcp") == "tcp" and host not in ("127.0.0.1", "localhost", "::1"):
        print(f"mjlog: {address} is neither encrypted nor authenticated: whoever reaches that "
              "port can run code on the cluster's machines; use tls:// (docs/scale.md)",
              file=sys.stderr)


def _dashboard(link: str) -> str:
    """Where the engine's dashboard is, when its page answers (the scheduler serves it
    when it has ``bokeh``)."""
    try:
        with urllib.request.urlopen(link, timeout=2):
            return f"dashboard: {link}"
    except (OSError, ValueError):
        return "no dashboard (the scheduler serves one when it has bokeh installed)"


def _threads(client: Any) -> int:
    """The worker threads of the cluster, once at least one worker has joined."""
    try:
        client.wait_for_workers(1, timeout=60)
    except TimeoutError:
        raise ClusterError("the cluster has no worker (none joined within a minute)") from None
    return sum(w["nthreads"] for w in client.scheduler_info()["workers"].values()) or 1


def _results(client: Any, fn: Remote[Item, T], batch: list[Item], future: Any,
             poisoned: Callable[[Item], T]) -> list[T]:
    """The batch's result; when the scheduler gave the batch up (it was on too many dying
    workers), its files' results, each file run alone."""
    from distributed import KilledWorker

    try:
        return [_value(future.result())]
    except KilledWorker:
        if len(batch) == 1:
            return [poisoned(batch[0])]
    print(f"cluster: a batch of {len(batch)} files was on workers that died; its files "
          "are run one by one", file=sys.stderr)
    singles = [client.submit(fn, [item], archives.entries([item[0]]), pure=False)
               for item in batch]
    out = []
    for item, single in zip(batch, singles, strict=True):
        try:
            out.append(_value(single.result()))
        except KilledWorker:
            out.append(poisoned(item))
    return out

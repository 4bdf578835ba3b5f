"""Where records are read from: local files, or object-store URLs through fsspec.

A name with a scheme (``s3://bucket/2024/``, ``gs://bucket/games.zip``,
``file:///data/x.mjlog``) is read through fsspec and the package of its store (s3fs
for ``s3://``, gcsfs for ``gs://``), when they are installed; any other name is a
path on this machine. Credentials and endpoints are the store package's own
(``AWS_PROFILE``, ``AWS_ENDPOINT_URL``, ``GOOGLE_APPLICATION_CREDENTIALS``…) or
fsspec's ``FSSPEC_<PROTOCOL>_<OPTION>`` variables: mjlog passes none. A URL is read
where the work runs, so each worker of a cluster needs the packages and credentials.

This module only reads; nothing is written to a store. What :mod:`mjlog.run.archives`
and :mod:`mjlog.formats` make of the bytes is the same wherever they came from.
"""

from __future__ import annotations

import io
import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Any, Final, TypeVar

from mjlog.core.about import install_hint

T = TypeVar("T")
_URL: Final = re.compile(r"[A-Za-z][A-Za-z0-9+.-]+://")
INSTALL: Final = ("mjlog reads URLs with fsspec and the store's own package (s3fs for s3://, "
                  f"gcsfs for gs://): {install_hint('cloud')}, and the store's package")


class StorageError(OSError):
    """A URL that cannot be read: no fsspec, no package for its store, or the store's
    own error (no such object, access denied)."""


def is_url(name: str) -> bool:
    """Whether ``name`` is read through fsspec (it has a scheme: ``s3://``, ``file://``)."""
    return _URL.match(name) is not None


def _fs(url: str) -> tuple[Any, str]:
    """The fsspec file system of ``url`` and the path in it."""
    try:
        import fsspec
    except ImportError:
        raise StorageError(f"{url}: {INSTALL}") from None
    try:
        fs, path = fsspec.core.url_to_fs(url)
    except ImportError as exc:
        raise StorageError(f"{url}: {exc}; {INSTALL}") from None
    except ValueError as exc:
        raise StorageError(f"{url}: {exc}") from None
    return fs, path


def _store(url: str, action: Callable[[Any, str], T]) -> T:
    """``action(file system, path)`` of ``url``, its errors as ``OSError``:
    ``FileNotFoundError`` when nothing is there, else :class:`StorageError`."""
    fs, path = _fs(url)
    try:
        return action(fs, path)
    except FileNotFoundError:
        raise FileNotFoundError(f"{url}: no such file or object") from None
    except StorageError:
        raise
    except Exception as exc:  # the store's own errors, of many kinds
        raise StorageError(f"{url}: {type(exc).__name__}: {exc}") from None


def is_dir(name: str) -> bool:
    """Whether ``name`` is a folder (a URL: a prefix that holds objects)."""
    if not is_url(name):
        return Path(name).is_dir()
    return _store(name, lambda fs, path: bool(fs.isdir(path)))


def is_file(name: str) -> bool:
    """Whether ``name`` is a file (a URL: an object). A URL found once is remembered by
    this process: a store is asked once per archive, not once per record read from it."""
    if not is_url(name):
        return Path(name).is_file()
    if name in _FOUND:
        return True
    try:
        found = _store(name, lambda fs, path: bool(fs.isfile(path)))
    except OSError:  # an unreadable URL is not a file; reading it says why
        return False
    if found:
        if len(_FOUND) >= _FOUND_MOST:
            _FOUND.clear()
        _FOUND.add(name)
    return found


_BLOCK: Final = 2**20
"""How much an open URL reads at a time (s3fs reads 50 MB by default, for a 16-byte look
at an archive's first bytes too)."""
_FOUND: Final[set[str]] = set()
_FOUND_MOST: Final = 4096


def files_under(folder: str) -> list[str]:
    """The files below a URL's folder, as URLs, in the order of a local folder's (name by
    name, a folder's files where its name sorts), leaving out hidden files and folders (a
    name part starting with ``.``)."""
    base = _fs(folder)[1].rstrip("/") + "/"
    found = _store(folder, lambda fs, path: fs.find(path))
    below = sorted((p[len(base):] for p in found if p.startswith(base)),
                   key=lambda p: p.split("/"))  # as a local folder is listed
    return [f"{folder.rstrip('/')}/{p}" for p in below
            if not any(part.startswith(".") for part in p.split("/"))]


def read_bytes(name: str) -> bytes:
    """The whole of a file or object. Raises ``OSError`` (:class:`StorageError` for a
    URL; ``FileNotFoundError`` when nothing is there)."""
    if not is_url(name):
        return Path(name).read_bytes()
    return _store(name, lambda fs, path: bytes(fs.cat_file(path)))


def read_range(name: str, start: int, end: int) -> bytes:
    """Bytes ``start`` to ``end`` (exclusive) of a file or object, fewer at its end: one
    ranged request for a URL."""
    if not is_url(name):
        with open(name, "rb") as f:
            f.seek(start)
            return f.read(end - start)
    return _store(name, lambda fs, path: bytes(fs.cat_file(path, start=start, end=end)))


@contextmanager
def opened(name: str) -> Iterator[IO[bytes]]:
    """A file or object opened for reading, closed when the block ends (see
    :func:`open_kept`). Raises ``OSError``."""
    with open_kept(name) as f:
        yield f


def open_kept(name: str) -> IO[bytes]:
    """A file or object opened for reading, seekable, for the caller to close (an archive
    kept open). A URL's reads are ranged requests of at least :data:`_BLOCK` bytes.
    Raises ``OSError``."""
    if not is_url(name):
        return open(name, "rb")  # the caller closes it
    raw = _store(name, lambda fs, path: fs.open(path, "rb", block_size=_BLOCK))
    return io.BufferedReader(raw)  # the file interface in full (readline(size))

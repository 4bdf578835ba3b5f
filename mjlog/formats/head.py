"""The start of a file, as format detection looks at it (:mod:`mjlog.formats`)."""

from __future__ import annotations

from typing import Any

from mjlog.formats import jsontext

_BLANK = b"\xef\xbb\xbf \t\r\n"


class Head:
    """A (decompressed) file's first 4096 bytes after any byte-order mark and white space,
    and its first line read as JSON, parsed once however many formats ask. When the first
    line is not JSON, the first of the next three lines that is a JSON object stands in for
    it, so that one damaged line does not hide a file of one object per line."""

    def __init__(self, data: bytes) -> None:
        self.data = data
        self.start = data[:4096].lstrip(_BLANK)
        self._first: Any = None
        self._parsed = False
        self._failed = False

    def _parse(self) -> None:
        if self._parsed:
            return
        self._parsed = True
        if not self.start.startswith(b"{"):
            return
        lines = self.data.lstrip(_BLANK).split(b"\n", 4)[:4]
        for i, line in enumerate(lines):
            try:  # a bad byte is the reader's to report at its line: detection looks past it
                found = jsontext.decode(line.decode("utf-8", "replace"))[0]  # NaN: null
            except (ValueError, UnicodeDecodeError):  # e.g. one object over several lines
                self._failed = self._failed or i == 0
                continue
            if i == 0 or isinstance(found, dict):
                self._first = found
                return

    def first_object(self) -> dict[str, Any]:
        """The first line as a JSON object, or the object standing in for a first line that
        is not JSON (``{}`` when there is none)."""
        self._parse()
        return self._first if isinstance(self._first, dict) else {}

    def first_object_fails(self) -> bool:
        """Whether the file starts with ``{`` but its first line is not JSON."""
        self._parse()
        return self._failed

    def first_type(self) -> str:
        """The first object's ``type`` when it is a string (``""`` otherwise)."""
        value = self.first_object().get("type")
        return value if isinstance(value, str) else ""

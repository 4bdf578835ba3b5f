"""Coverage-guided fuzzing of one format: read → audit → every writer → read, for minutes.

Usage (atheris is not a dependency of mjlog: install it beside mjlog, in a
separate environment)::

    python3 -m venv /tmp/fuzz && /tmp/fuzz/bin/pip install atheris -e .
    /tmp/fuzz/bin/python benchmarks/fuzz_formats.py FORMAT [--seconds 600] [--out DIR]

FORMAT is one of the formats mjlog reads (``tenhou-xml``, ``jsonl``,
``notation``, ``tenhou6``, ``mjai``). The seeds are records of our own in that
format (the examples, written in it). Every input goes through
:func:`mjlog.formats.read_bytes`, the audit with every check, every writer in
every dialect, and the reader of each output. The only outcomes allowed are
the documented ones (see ``tests/test_fuzz_writers.py``, which runs the same
round trip under hypothesis in the test suite); anything else, and any input
that takes more than 20 seconds, is a crash that libFuzzer saves under
``--out``. The last lines printed give the runs made and the crashes found.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import atheris  # noqa: E402

with atheris.instrument_imports(include=["mjlog"]):
    from mjlog.core.diagnostics import InputError
    from mjlog.formats import FORMATS, WriteOptions, read_bytes, write, writers
    from mjlog.reports.audit import audit_record

READ_ERRORS = {"unknown-format", "bad-gzip", "too-large"}
OPTIONS = [(fmt, WriteOptions()) for fmt in writers()] + [
    ("notation", WriteOptions(plain=True)), ("tenhou6", WriteOptions(per_round=True)),
    *(("mjai", WriteOptions(dialect=d)) for d in FORMATS["mjai"].dialects)]


class Failure(Exception):
    """An outcome that is not one of the documented ones."""


def one_input(data: bytes) -> None:
    """The round trip of one input; raises :class:`Failure` on an undocumented outcome."""
    try:
        records = read_bytes(data, "fuzz")
    except InputError as exc:
        if exc.diagnostic.code not in READ_ERRORS:
            raise Failure(str(exc)) from exc
        return
    for rec in records:
        failures = [str(d) for d in rec.diagnostics if d.code == "internal-error"]
        report = audit_record(rec, wall=False)
        failures += [str(f) for f in report.findings if f.code == "internal-error"]
        for fmt, options in OPTIONS:
            try:
                text = write(fmt, rec.events, options)
            except InputError as exc:
                if "writer failed" in exc.diagnostic.message:
                    failures.append(exc.diagnostic.message)
                continue
            for back in read_bytes(text.encode(), "back", fmt=fmt):
                failures += [str(d) for d in back.diagnostics if d.code == "internal-error"]
        if failures:
            raise Failure("; ".join(failures))


def seeds(fmt: str, folder: Path) -> None:
    """Write the seed records of ``fmt`` into ``folder``."""
    examples = ROOT / "examples"
    if fmt == "tenhou-xml":
        for f in examples.glob("*.mjlog"):
            (folder / f.name).write_bytes(f.read_bytes())
        return
    if fmt == "notation":
        for f in examples.glob("*.mjn"):
            (folder / f.name).write_bytes(f.read_bytes())
        return
    for f in examples.glob("*.jsonl"):
        for i, rec in enumerate(read_bytes(f.read_bytes())):
            (folder / f"{f.stem}-{i}").write_text(write(fmt, rec.events), "utf-8")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("format", choices=list(FORMATS))
    parser.add_argument("--seconds", type=int, default=600)
    parser.add_argument("--out", default=tempfile.mkdtemp(prefix="mjlog-fuzz-"))
    args = parser.parse_args()
    corpus = Path(tempfile.mkdtemp(prefix=f"mjlog-fuzz-{args.format}-"))
    seeds(args.format, corpus)
    print(f"fuzzing {args.format} for {args.seconds} s; seeds and finds in {corpus}, "
          f"crashes in {args.out}", flush=True)
    atheris.Setup([sys.argv[0], str(corpus), f"-max_total_time={args.seconds}", "-timeout=20",
                   "-rss_limit_mb=2048", f"-artifact_prefix={args.out}/", "-print_final_stats=1"],
                  one_input)
    atheris.Fuzz()


if __name__ == "__main__":
    main()

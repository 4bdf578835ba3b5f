"""Does this version behave exactly as an earlier one? Compares what users see, byte for byte.

Usage::

    python benchmarks/same_behaviour.py --base REV [--corpus DIR] [--jobs N] [--quick]

Runs the ``mjlog`` command line of two versions side by side, the commit
``REV`` (checked out into a temporary git worktree) and the working tree, on
the same inputs from the same folder, and compares their outputs byte for byte:

* ``audit --format json`` of the whole corpus and of ``examples/``, under each
  record's own ruleset and under ``--rules kansaki``;
* ``convert`` of the corpus and the examples to every format mjlog writes
  (JSON Lines, notation exact and plain, tenhou.net/6, mjai in each dialect),
  and each conversion read back to JSON Lines (the round trip);
* ``stats --metrics all --format csv`` of the corpus and the examples, per player and
  per ruleset with incomplete games (every metric of every group, from the fact tables);
* ``generate`` under each family's presets (the generated games' texts).

It prints one line per output (``same`` or ``DIFFERS`` with the first
differing lines) and exits 1 when anything differs. ``--quick`` takes every
tenth corpus file. The base version's outputs are kept in a cache folder
keyed by its commit, so a second comparison against the same base only runs
the working tree.
"""

from __future__ import annotations

import argparse
import difflib
import hashlib
import os
import shutil
import subprocess
import sys
import tempfile
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CACHE = Path(tempfile.gettempdir()) / "mjlog-same-behaviour"
WRITERS = [("jsonl", []), ("notation", []), ("notation-plain", ["--plain"]),
           ("tenhou6", []), ("tenhou6-rounds", ["--per-round"]),
           ("mjai", ["--dialect", "mortal"]), ("mjai-mjai", ["--dialect", "mjai"]),
           ("mjai-app", ["--dialect", "mjai.app"]),
           ("mjai-legacy", ["--dialect", "mjai-legacy"])]
GENERATED = [("tenhou", 12), ("tenhou-sanma", 8), ("kansaki", 8), ("jpml", 4), ("taiwan16", 3)]


def _run(tree: Path, args: list[str], out: Path, cwd: Path) -> None:
    """Run ``python -m mjlog.cli ARGS`` from ``tree``; keep stdout, stderr and the status."""
    env = {**os.environ, "PYTHONPATH": str(tree), "PYTHONHASHSEED": "0"}
    proc = subprocess.run([sys.executable, "-m", "mjlog.cli", *args], cwd=cwd, env=env,
                          capture_output=True, check=False)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_bytes(proc.stdout)
    err = proc.stderr.decode("utf-8", "replace")
    if "Traceback (most recent call last)" in err:  # its lines and files differ by version
        err = "a traceback, ending: " + err.strip().splitlines()[-1] + "\n"
    out.with_suffix(out.suffix + ".err").write_text(f"exit {proc.returncode}\n{err}", "utf-8")


def _inputs(corpus: Path, quick: bool, work: Path) -> tuple[str, str]:
    """The corpus (or every tenth file of it, linked into ``work``) and the examples."""
    if not quick:
        return str(corpus), str(ROOT / "examples")
    sample = work / "corpus-sample"
    if not sample.exists():
        files = sorted(p for p in corpus.rglob("*") if p.is_file())
        for p in files[::10]:
            dst = sample / p.relative_to(corpus)
            dst.parent.mkdir(parents=True, exist_ok=True)
            dst.symlink_to(p)
    return str(sample), str(ROOT / "examples")


def produce(tree: Path, dest: Path, corpus: str, examples: str, jobs: int) -> None:
    """Every output of one version into ``dest``.

    The outputs are written to one staging folder whatever the version, then
    moved to ``dest``, so that the paths they name are the same for both.
    """
    stage = dest.parent / "stage"
    shutil.rmtree(stage, ignore_errors=True)
    _produce(tree, stage, corpus, examples, jobs)
    shutil.rmtree(dest, ignore_errors=True)
    stage.rename(dest)


def _produce(tree: Path, dest: Path, corpus: str, examples: str, jobs: int) -> None:
    dest.mkdir(parents=True)
    cwd = Path(corpus).parent
    j = ["--jobs", str(jobs)]
    for name, src in (("corpus", corpus), ("examples", examples)):
        for rules, extra in (("own", []), ("kansaki", ["--rules", "kansaki"])):
            out = dest / f"audit-{rules}-{name}.json"
            _run(tree, ["audit", src, "--format", "json", *j, *extra, "-o", str(out)],
                 dest / f"audit-{rules}-{name}.log", cwd)
        for by, extra in (("player", []), ("ruleset", ["--include-incomplete"])):
            _run(tree, ["stats", src, "--metrics", "all", "--format", "csv", "--min-games",
                        "1", "--by", by, *extra, *j], dest / f"stats-{by}-{name}.csv", cwd)
        keep = _keeps_extensions(tree, cwd)
        for fmt, opts in WRITERS:
            target = fmt.split("-")[0]
            folder = dest / f"convert-{fmt}-{name}"
            _run(tree, ["convert", src, "-t", target, *opts, *keep, "-o", str(folder)],
                 dest / f"convert-{fmt}-{name}.log", cwd)
            _old_names(folder, bool(keep))
            back = dest / f"back-{fmt}-{name}"
            _run(tree, ["convert", str(folder), "-t", "jsonl", *keep, "-o", str(back)],
                 dest / f"back-{fmt}-{name}.log", cwd)
            _old_names(back, bool(keep))
    for preset, n in GENERATED:
        _run(tree, ["generate", "--rules", preset, "-n", str(n), "--seed", "7"],
             dest / f"generate-{preset}.mjn", cwd)


def _keeps_extensions(tree: Path, cwd: Path) -> list[str]:
    """``--keep-extension`` where the version has it: since it refuses two inputs that would
    write one output (hanchan.xml and hanchan.json), a folder converts only with it."""
    env = {**os.environ, "PYTHONPATH": str(tree)}
    proc = subprocess.run([sys.executable, "-m", "mjlog.cli", "convert", "--help"], cwd=cwd,
                          env=env, capture_output=True, text=True)
    return ["--keep-extension"] if "--keep-extension" in proc.stdout else []


def _old_names(folder: Path, kept: bool) -> None:
    """Rename ``game.xml.jsonl`` to ``game.jsonl``, the name earlier versions gave it, where
    no other output takes that name (those that would clash keep their whole names)."""
    if not kept or not folder.is_dir():
        return
    files = [p for p in folder.rglob("*") if p.is_file()]
    wanted = {p: p.with_name(p.stem).with_suffix(p.suffix) for p in files}
    taken = Counter(wanted.values())
    for p, new in wanted.items():
        if taken[new] == 1 and p != new:
            p.rename(new)


def _files(folder: Path) -> Iterator[Path]:
    for p in sorted(folder.rglob("*")):
        if p.is_file():
            yield p.relative_to(folder)


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def compare(base: Path, new: Path) -> int:
    """Print each output's verdict; return how many differ."""
    differ = 0
    names = sorted({p.parts[0] for p in _files(base)} | {p.parts[0] for p in _files(new)})
    for name in names:
        a, b = base / name, new / name
        if a.is_dir() or b.is_dir():
            fa = {p: _digest(a / p) for p in _files(a)} if a.is_dir() else {}
            fb = {p: _digest(b / p) for p in _files(b)} if b.is_dir() else {}
            bad = sorted(p for p in fa.keys() | fb.keys() if fa.get(p) != fb.get(p))
            verdict = f"same ({len(fa)} files)" if not bad else \
                f"DIFFERS in {len(bad)} of {len(fa)} files, e.g. {bad[0]}"
            print(f"{name:40} {verdict}")
            if bad:
                differ += 1
                _show(a / bad[0], b / bad[0])
            continue
        same = a.exists() and b.exists() and a.read_bytes() == b.read_bytes()
        print(f"{name:40} {'same' if same else 'DIFFERS'}")
        if not same:
            differ += 1
            _show(a, b)
    return differ


def _show(a: Path, b: Path) -> None:
    """The first differing lines. difflib's diff of two large reports takes quadratic time
    (over ten minutes for the corpus audit), so it sees only the lines around the first
    difference."""
    la = a.read_text("utf-8", "replace").splitlines() if a.exists() else []
    lb = b.read_text("utf-8", "replace").splitlines() if b.exists() else []
    pairs = enumerate(zip(la, lb, strict=False))
    first = next((i for i, (x, y) in pairs if x != y), min(len(la), len(lb)))
    lo = max(0, first - 1)
    window_a, window_b = la[lo:first + 40], lb[lo:first + 40]
    for line in list(difflib.unified_diff(window_a, window_b, "base", "new", n=1,
                                          lineterm=""))[:16]:
        print("    " + line[:160])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--base", required=True, help="the commit to compare with")
    parser.add_argument("--corpus", default=str(ROOT.parent / "shared" / "corpus"))
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--quick", action="store_true", help="every tenth corpus file")
    args = parser.parse_args()
    rev = subprocess.run(["git", "rev-parse", args.base], cwd=ROOT, capture_output=True,
                         text=True, check=True).stdout.strip()
    work = CACHE / ("quick" if args.quick else "full")
    work.mkdir(parents=True, exist_ok=True)
    corpus, examples = _inputs(Path(args.corpus).resolve(), args.quick, work)
    base_out = work / f"base-{rev[:12]}"
    if not (base_out / "done").exists():
        tree = Path(tempfile.mkdtemp(prefix="mjlog-base-"))
        subprocess.run(["git", "worktree", "add", "--detach", str(tree), rev], cwd=ROOT,
                       check=True, capture_output=True)
        try:
            produce(tree, base_out, corpus, examples, args.jobs)
            (base_out / "done").write_text(rev)
        finally:
            subprocess.run(["git", "worktree", "remove", "--force", str(tree)], cwd=ROOT,
                           check=False, capture_output=True)
    new_out = work / "new"
    produce(ROOT, new_out, corpus, examples, args.jobs)
    (new_out / "done").write_text(rev)
    differ = compare(base_out, new_out)
    print(f"\n{differ} outputs differ from {args.base} ({rev[:12]})")
    sys.exit(1 if differ else 0)


if __name__ == "__main__":
    main()

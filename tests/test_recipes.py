"""The "How to add …" recipes of ``docs/design.md``, followed literally.

In a copy of the tree (``mjlog/``, ``docs/``, ``schemas/``) a toy fourth rule family
``toy`` (one option, one check, payments, a valuation that values no win, random
players that play one round to an exhaustive draw) and a toy
format ``toyfmt`` (a reader and a writer) are added by writing exactly the files the
recipes name: the family's package and its line in the registry of families, the
format's module and its line in the registry of formats. A test first checks that the
copy differs from this tree only in files the recipe paragraphs name; then, running
mjlog from the copy in a child process, that the toy family's games are generated,
audited (its check finds a violation planted by an option at the discard that breaks
it), written and read back in JSON Lines and notation, and documented by
``python -m mjlog.families.docgen``; and that the toy format is detected, read and written. A
change any other file would need makes the child fail, so the recipe's claim ("its
own files and one line") is what is tested.

Also: a family that lacks a method, or whose options do not fit, fails when it is
registered, with a message naming what is wrong.
"""

from __future__ import annotations

import filecmp
import json
import os
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

import pytest

from mjlog.core.events import RoundStart, round_label
from mjlog.core.ruleset import (
    FAMILY_OPTIONS,
    OPTIONS,
    Option,
    RiichiOptions,
    TableSize,
    register_options,
)
from mjlog.families.base import RuleFamily
from mjlog.families.registry import FAMILIES, register
from mjlog.families.riichi.family import RIICHI, Riichi
from mjlog.wall.dealing import TAIWAN, Geometry, deal
from mjlog.wall.verify import verify

from .conftest import ROOT
from .test_wall_dealing import _stated_record, _walls

DESIGN = ROOT / "docs" / "design.md"
FAMILY = "toy"
FORMAT = "toyfmt"

TOY_PACKAGE: dict[str, str] = {
    "__init__.py": '''"""A toy rule family: riichi's table, one rule (a kind not discarded)."""
''',
    "options.py": '''"""The toy family's option group, its flat option and its preset."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from mjlog.core.ruleset import Option, Ruleset, TableSize


@dataclass(frozen=True, slots=True, kw_only=True)
class ToyOptions:
    """The toy options: the tile kind nobody may discard."""

    FAMILY: ClassVar[str] = "toy"
    forbidden: int = 33

    @staticmethod
    def table(players: int) -> TableSize:
        """136 tiles, 14 in the dead wall, 13 dealt."""
        return TableSize(tiles=136, dead_wall=14, hand=13)

    @staticmethod
    def dealt(players: int, dealer: bool) -> int:
        """13 tiles to every hand."""
        return 13


ROWS = (Option("toy_forbidden", "toy", "forbidden",
               "Toy: the tile kind (0..33) nobody may discard."),)
PRESET = Ruleset(name="toy", red_fives=False, length="one-round", uma="0-0", rounding="none",
                 tobi="none", family_options=ToyOptions())
''',
    "checks.py": '''"""The toy family's one check."""

from __future__ import annotations

from mjlog.families.check import Check, Referee, Rule
from mjlog.core.events import Discard
from mjlog.core.tiles import KIND_OF, tile_str
from mjlog.families.toy.options import ToyOptions


class ForbiddenDiscard(Check[Referee]):
    """No discard of the forbidden kind (the option ``toy_forbidden``)."""

    RULES = (Rule("toy-forbidden-discard", "toy", "No discard of the forbidden kind.",
                  False),)
    OPTION = "toy_forbidden"

    def before_discard(self, ev: Discard) -> None:
        opts = self.ref.rules.family_options
        assert isinstance(opts, ToyOptions)
        if KIND_OF[ev.tile] == opts.forbidden:
            self.ref.violation(self.RULES[0], f"discards {tile_str(ev.tile)}", ev.player)
''',
    "play.py": '''"""The toy family's random players: one round, drawn to its end, never a forbidden
discard."""

from __future__ import annotations

import random

from mjlog.core.events import (
    Discard,
    Draw,
    Event,
    ExhaustiveDraw,
    GameEnd,
    GameStart,
    PlayerInfo,
    RoundEnd,
    RoundStart,
)
from mjlog.core.record import GameRecord
from mjlog.core.ruleset import Ruleset
from mjlog.core.tiles import UNKNOWN, Tile
from mjlog.families.toy.options import ToyOptions


def toy_deltas(players: int, dealer: int) -> tuple[int, ...]:
    """A drawn round's payments: the dealer pays 100 to each other player."""
    return tuple(100 * (1 - players) if p == dealer else 100 for p in range(players))


def play(rs: Ruleset, seed: int) -> GameRecord:
    """One round of random draws and discards to an exhaustive draw."""
    rng, n = random.Random(seed), rs.players
    opts = rs.family_options
    assert isinstance(opts, ToyOptions)
    table = rs.table
    tiles = [Tile(t) for t in range(table.tiles)]
    rng.shuffle(tiles)
    hands = [sorted(tiles[table.hand * k: table.hand * (k + 1)]) for k in range(n)]
    live = tiles[table.hand * n: table.tiles - table.dead_wall]
    scores = (rs.starting_score,) * n
    events: list[Event] = [
        GameStart(source="toy", players=tuple(PlayerInfo(name=f"toy-{k}") for k in range(n)),
                  ruleset=rs, meta=(("seed", str(seed)),)),
        RoundStart(round_wind=0, round_number=1, honba=0, kyotaku=0, dealer=0, scores=scores,
                   dora_indicator=UNKNOWN, hands=tuple(tuple(h) for h in hands))]
    for i, tile in enumerate(live):
        p = i % n
        hands[p].append(tile)
        out = rng.choice([t for t in hands[p] if t // 4 != opts.forbidden])
        hands[p].remove(out)
        events += [Draw(player=p, tile=tile), Discard(player=p, tile=out, tsumogiri=out == tile)]
    deltas = toy_deltas(n, 0)
    after = tuple(s + d for s, d in zip(scores, deltas, strict=True))
    events += [ExhaustiveDraw(deltas=deltas, scores_before=scores), RoundEnd(scores=after),
               GameEnd(scores=after)]
    return GameRecord(path=f"toy:{rs.name}:{seed}", format="generated", events=events)
''',
    "family.py": '''"""The toy family: riichi's table and wall, one check, no wins."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

from mjlog.families.check import Check, Referee
from mjlog.core.events import Event, Win, YakuClaim
from mjlog.families.base import Judging, Result, RuleFamily
from mjlog.families.riichi.players import Style
from mjlog.core.record import GameRecord
from mjlog.replay.engine import Engine
from mjlog.replay.state import TableState
from mjlog.core.ruleset import Ruleset
from mjlog.families.toy.checks import ForbiddenDiscard
from mjlog.families.toy.options import PRESET, ROWS, ToyOptions
from mjlog.families.toy.play import play, toy_deltas
from mjlog.wall.dealing import RIICHI, Geometry


class Toy(RuleFamily):
    """The toy family."""

    name: ClassVar[str] = "toy"
    options = ToyOptions
    option_rows = ROWS
    presets = (PRESET,)
    title = "Toy (`--rules toy`)"
    has_dora = False
    riichi_stick = False
    needs_value = False

    def wall(self, players: int) -> Geometry | None:
        return RIICHI

    def checks(self) -> Sequence[type[Check[Any]]]:
        return (ForbiddenDiscard,)

    def referee(self, record: GameRecord, ruleset: Ruleset, engine: Engine) -> Referee:
        return Referee(record, ruleset, engine)

    def judging(self, record: GameRecord, ruleset: Ruleset, engine: Engine, *, rules: bool,
                scores: bool) -> Judging:
        ref = Referee(record, ruleset, engine)
        j = Judging(observers=[ref], violations=ref.violations)
        if rules:
            j.observers.extend(c(ref) for c in self.checks() if c.enabled(ruleset))
        return j

    def random_game(self, ruleset: Ruleset, seed: int, style: Style) -> GameRecord:
        return play(ruleset, seed)

    def default_han(self, name: str, open_hand: bool, ruleset: Ruleset) -> int:
        return 1

    def yaku_name(self, word: str) -> str:
        return word

    def value_win(self, state: TableState, events: Sequence[Event], round_start: int,
                  win: Win, ruleset: Ruleset) -> tuple[int, int, tuple[YakuClaim, ...]] | str:
        return "a toy win is worth what it claims"

    def yaku_names(self) -> frozenset[str]:
        return frozenset({"toy-win"})

    def limit(self, han: int, fu: int, ruleset: Ruleset) -> str:
        return ""

    def readiness(self, counts: Sequence[int], melds: int, ruleset: Ruleset) -> tuple[int, int]:
        return 8, 0

    def result_deltas(self, ev: Result, *, players: int, dealer: int, first: bool,
                      ruleset: Ruleset) -> tuple[int, ...]:
        return toy_deltas(players, dealer)


TOY = Toy()
''',
}
"""The toy family's package, ``mjlog/families/toy/``."""

TOY_FORMAT = '''"""A toy record format: a magic line, then mjlog's JSON Lines."""

from __future__ import annotations

from collections.abc import Sequence

from mjlog.formats import serialize
from mjlog.core.events import Event
from mjlog.core.record import GameRecord

MAGIC = b"toyfmt 1\\n"


def read(data: bytes, path: str, strict: bool) -> list[GameRecord]:
    """The games after the magic line."""
    return serialize.read(data[len(MAGIC):], path, strict=strict)


def write(events: Sequence[Event]) -> str:
    """The magic line and the events."""
    return MAGIC.decode() + "".join(serialize.write_lines(events))
'''

FAMILY_IMPORT = "from mjlog.families.toy.family import TOY\n"
FAMILY_ENTRY = "    TOY,\n"
FORMAT_ENTRY = (
    '    Format(name="toyfmt", title="a toy format", module="mjlog.formats.toyfmt",\n'
    '           looks_like=lambda h: h.start.startswith(b"toyfmt 1\\n"),\n'
    '           read=lambda d, p, s: _module("toyfmt").read(d, p, s),\n'
    '           write=lambda ev, o: _module("toyfmt").write(ev), extension=".toy",\n'
    '           positions="jsonl"),\n')


def _insert_after(path: Path, anchor: str, text: str) -> None:
    """Insert ``text`` after the one line of ``path`` that starts with ``anchor``."""
    lines = path.read_text("utf-8").splitlines(keepends=True)
    at = [i for i, line in enumerate(lines) if line.startswith(anchor)]
    assert len(at) == 1, f"{path}: {len(at)} lines start with {anchor!r}"
    lines.insert(at[0] + 1, text)
    path.write_text("".join(lines), "utf-8")


def _add_toys(tree: Path) -> None:
    """Follow the recipes in ``tree``: the toy family's package and its registry line,
    the toy format's module and its registry line (with the imports they need)."""
    package = tree / "mjlog" / "families" / FAMILY
    package.mkdir()
    for name, text in TOY_PACKAGE.items():
        (package / name).write_text(text, "utf-8")
    families = tree / "mjlog" / "families" / "registry.py"
    _insert_after(families, "from mjlog.families.taiwan16.family import", FAMILY_IMPORT)
    _insert_after(families, "FAMILIES: dict[str, RuleFamily] = register(", FAMILY_ENTRY)
    (tree / "mjlog" / "formats" / f"{FORMAT}.py").write_text(TOY_FORMAT, "utf-8")
    _insert_after(tree / "mjlog" / "formats" / "__init__.py", "FORMATS: dict[str, Format] =",
                  FORMAT_ENTRY)


def _recipe_paths(title: str, name: str) -> list[str]:
    """The paths of ``mjlog/`` that the recipe ``**A TITLE.**`` of ``docs/design.md``
    names, with ``NAME`` as ``name`` (a folder ends with ``/``)."""
    text = DESIGN.read_text("utf-8")
    start = text.index(f"**A {title}.**")
    stop = text.find("\n\n", start)
    return [p.replace("NAME", name) for p in re.findall(r"`(mjlog/[^`\s]*)`", text[start:stop])]


def _changed(tree: Path) -> list[str]:
    """The files of ``tree/mjlog`` that differ from ``tree/pristine/mjlog`` (the copy
    taken before the toys were added) or are new; deleted files too."""
    before = tree / PRISTINE
    files = {p.relative_to(tree).as_posix() for p in (tree / "mjlog").rglob("*") if p.is_file()}
    files |= {p.relative_to(before).as_posix() for p in (before / "mjlog").rglob("*")
              if p.is_file()}
    return sorted(rel for rel in files if "__pycache__" not in rel and not (
        (tree / rel).is_file() and (before / rel).is_file()
        and filecmp.cmp(tree / rel, before / rel, shallow=False)))


PRISTINE = "pristine"
"""Where the copy keeps ``mjlog/`` as it was copied, before the toys: other work may change
this tree's files meanwhile."""


@pytest.fixture(scope="module")
def tree(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A copy of this tree's ``mjlog/``, ``docs/`` and ``schemas/`` with the toys added
    (and ``pristine/mjlog/``, the same copy without them)."""
    root = tmp_path_factory.mktemp("recipes")
    for name in ("mjlog", "docs", "schemas"):
        shutil.copytree(ROOT / name, root / name, ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copytree(root / "mjlog", root / PRISTINE / "mjlog")
    _add_toys(root)
    return root


DRIVER = """
import json
from click.testing import CliRunner
from mjlog.cli import main
from mjlog.formats import detect

def run(*args):
    result = CliRunner().invoke(main, list(args), catch_exceptions=False)
    return {"exit": result.exit_code, "out": result.output}

out = {"generate": run("generate", "--rules", "toy", "--seed", "3", "-o", "generated")}
out["audit"] = run("audit", "generated/random-toy-3.mjn", "--format", "json")
out["jsonl"] = run("convert", "generated/random-toy-3.mjn", "--to", "jsonl", "-o", "game.jsonl")
out["notation"] = run("convert", "game.jsonl", "--to", "notation", "-o", "again.mjn")
out["toyfmt"] = run("convert", "game.jsonl", "--to", "toyfmt", "-o", "game.toy")
out["detected"] = detect(open("game.toy", "rb").read())
out["toyfmt-back"] = run("convert", "game.toy", "--to", "jsonl", "-o", "back.jsonl")
discards = [e for e in map(json.loads, open("game.jsonl", encoding="utf-8"))
            if e["type"] == "discard"]
out["kind"] = discards[9]["tile"] // 4
out["planted"] = run("audit", "game.jsonl", "--format", "json", "--set",
                     f"toy_forbidden={out['kind']}")
import mjlog.families.docgen, mjlog.formats.schema
mjlog.families.docgen.main()
mjlog.formats.schema.main([])
print(json.dumps(out))
"""
"""What the child process runs in the copy: the toy family's games generated, audited,
converted and read back, audited under its option too (forbidding the kind of the tenth
discard); the toy format written, detected and read; the generated docs and schemas
renewed."""


def _drive(tree: Path) -> dict[str, Any]:
    """Run :data:`DRIVER` with mjlog from ``tree``, in ``tree``; its results."""
    env = {**os.environ, "PYTHONPATH": str(tree)}
    proc = subprocess.run([sys.executable, "-c", DRIVER], cwd=tree, env=env,
                          capture_output=True, text=True, check=False, timeout=300)
    assert proc.returncode == 0, proc.stderr[-3000:]
    result: dict[str, Any] = json.loads(proc.stdout.splitlines()[-1])
    return result


def test_the_recipes_name_every_file_the_toys_change(tree: Path) -> None:
    allowed = _recipe_paths("family", FAMILY) + _recipe_paths("format", FORMAT)
    assert f"mjlog/families/{FAMILY}/" in allowed and "mjlog/families/registry.py" in allowed
    assert f"mjlog/formats/{FORMAT}.py" in allowed and "mjlog/formats/__init__.py" in allowed
    changed = _changed(tree)
    outside = [p for p in changed
               if not any(p == a or (a.endswith("/") and p.startswith(a)) for a in allowed)]
    assert outside == [], f"the toys change files the recipes do not name: {outside}"
    assert changed == sorted([f"mjlog/families/{FAMILY}/{n}" for n in TOY_PACKAGE]
                             + ["mjlog/families/registry.py", "mjlog/formats/__init__.py",
                                f"mjlog/formats/{FORMAT}.py"])


def _discards(jsonl: Path) -> list[tuple[int, int, int]]:
    """Each discard of a JSON Lines file: its line, player and tile kind."""
    out = []
    for line, text in enumerate(jsonl.read_text("utf-8").splitlines(), 1):
        ev = json.loads(text)
        if ev["type"] == "discard":
            out.append((line, ev["player"], ev["tile"] // 4))
    return out


def test_a_toy_family_and_format_work_end_to_end(tree: Path) -> None:
    out = _drive(tree)
    discards = _discards(tree / "game.jsonl")
    kind = out["kind"]
    assert kind == discards[9][2]
    assert out["generate"]["exit"] == 0, out["generate"]
    clean = json.loads(out["audit"]["out"])["games"][0]
    assert out["audit"]["exit"] == 0 and clean["ruleset"] == "toy"
    assert clean["violations"] == [] and clean["complete"]
    # the option plants a violation at every discard of its kind, the first one first
    planted = json.loads(out["planted"]["out"])["games"][0]
    want = [(line, player) for line, player, k in discards if k == kind]
    assert out["planted"]["exit"] == 1
    assert [(v["line"], v["player"]) for v in planted["violations"]] == want
    assert {v["code"] for v in planted["violations"]} == {"toy-forbidden-discard"}
    assert planted["ruleset"] == f"toy (toy_forbidden={kind})"
    # the notation leaves the draw's payments to the family; read back, they are its
    notation = (tree / "generated" / "random-toy-3.mjn").read_text("utf-8")
    assert "\ndraw seats=0\n" in notation and "deltas=" not in notation
    draw = [json.loads(x) for x in (tree / "game.jsonl").read_text("utf-8").splitlines()][-3]
    assert draw == {"type": "exhaustive_draw", "deltas": [-300, 100, 100, 100],
                    "scores_before": [25000] * 4}
    # notation and JSON Lines hold the toy game exactly; the toy format too
    assert (tree / "again.mjn").read_bytes() == (
        tree / "generated" / "random-toy-3.mjn").read_bytes()
    assert out["detected"] == FORMAT
    assert (tree / "game.toy").read_bytes().startswith(b"toyfmt 1\n")
    assert (tree / "back.jsonl").read_bytes() == (tree / "game.jsonl").read_bytes()
    # docgen gave the family its section, its code its entries; the schema its name
    checks = (tree / "docs" / "rule-checks.md").read_text("utf-8")
    section = checks[checks.index("## Toy (`--rules toy`)"):]
    assert "<!-- checks:toy -->" in section and "`toy-forbidden-discard`" in section
    assert "`toy-forbidden-discard`" in (tree / "docs" / "findings.md").read_text("utf-8")
    assert "toy-forbidden-discard" in (
        tree / "schemas" / "audit-report.schema.json").read_text("utf-8")
    events_schema = json.loads((tree / "schemas" / "events.schema.json").read_text("utf-8"))
    assert '"toy"' in json.dumps(events_schema) and '"toy_forbidden"' in json.dumps(events_schema)


def test_a_family_missing_a_method_fails_when_made_not_mid_replay() -> None:
    """Riichi's methods but one: the family cannot be made, and the error names it."""
    body = {k: v for k, v in vars(Riichi).items() if k not in ("wall", "__dict__")}
    no_wall = type("NoWall", (RuleFamily,), body)
    with pytest.raises(TypeError, match=r"Can't instantiate abstract class NoWall with "
                                        r"abstract method wall$"):
        no_wall()
    assert type("Whole", (RuleFamily,), {**body, "wall": Riichi.wall})().wall(4) is not None


def test_registering_a_family_says_what_does_not_fit() -> None:
    class Misnamed(Riichi):
        name = "misnamed"

    with pytest.raises(TypeError, match="its options RiichiOptions are of family 'riichi'"):
        register(Misnamed())
    with pytest.raises(TypeError, match="two rule families are named 'riichi'"):
        register(RIICHI, RIICHI)
    with pytest.raises(TypeError, match="is not a RuleFamily instance"):
        register(Riichi)  # type: ignore[arg-type]
    assert list(FAMILIES) == ["riichi", "taiwan16", *list(FAMILIES)[2:]]


@dataclass(frozen=True, slots=True, kw_only=True)
class _Half:
    """An option group with a field no flat option names."""

    FAMILY: ClassVar[str] = "half"
    listed: int = 0
    unlisted: int = 0

    @staticmethod
    def table(players: int) -> TableSize:
        return RiichiOptions.table(players)

    @staticmethod
    def dealt(players: int, dealer: bool) -> int:
        return 13


def test_an_option_group_must_list_each_field_once() -> None:
    row = Option("half_listed", "half", "listed", "listed")
    with pytest.raises(ValueError, match=r"fields without a flat option \['unlisted'\]"):
        register_options(_Half, (row,))
    with pytest.raises(ValueError, match="option 'half_listed' is in group 'riichi'"):
        register_options(_Half, (row._replace(group="riichi"),))
    assert "half" not in FAMILY_OPTIONS and "half_listed" not in OPTIONS
    wrong = Option("kuikae", "riichi", "kuikae", "another doc")
    with pytest.raises(ValueError, match="'kuikae' is already an option of riichi"):
        register_options(RiichiOptions, (wrong,))


@pytest.mark.parametrize(("geometry", "code", "why"), [
    (None, "wall-unverifiable", "mjlog defines no physical deal for the riichi family"),
    (TAIWAN, "wall-undealable", "the wall has 136 tiles, not 144"),
])
def test_the_wall_check_deals_with_the_familys_geometry(
        monkeypatch: pytest.MonkeyPatch, geometry: Geometry | None, code: str,
        why: str) -> None:
    """A stated riichi wall that deals cleanly with riichi's table cannot be dealt once the
    family states another table, nor verified when it states none: the table comes from
    the family, not from the number of tiles."""
    walls = _walls(11)
    rec = _stated_record(deal(walls, (3, 4)), walls, (3, 4))
    assert verify(rec) == []
    monkeypatch.setattr(Riichi, "wall", lambda self, players: geometry)
    [found] = verify(rec)
    start = rec.events[1]
    assert isinstance(start, RoundStart)
    label = round_label(start.round_wind, start.round_number, start.honba)
    assert (found.code, found.round, found.turn) == (code, label, 0)
    assert why in found.message

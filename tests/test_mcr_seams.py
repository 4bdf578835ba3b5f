"""The loose ends of the MCR family (issue #53): a false win's penalty in the rulebook,
no dora line on a table without dora, and the wall without flowers (Botzone's 136 tiles)
on which the last tile's fans are judged.
"""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from mjlog.cli import main
from mjlog.core.events import GameStart, Published, RoundStart, Win
from mjlog.core.ruleset import PRESETS, option_value
from mjlog.core.tiles import Tile
from mjlog.families.docgen import rule_entry
from mjlog.families.registry import family_of
from mjlog.formats import read_bytes
from mjlog.replay.engine import Engine

from .conftest import EXAMPLES, ROOT
from .test_botzone import MATCH1

NEEDS_FAN = pytest.mark.skipif(importlib.util.find_spec("MahjongGB") is None,
                               reason="the MCR fan counter (PyMahjongGB) is not installed")

# ---------------------------------------------------------------- 1. penalty wording


@pytest.mark.parametrize("code", ["no-winning-shape", "fan-below-minimum", "rob-concealed-kong"])
def test_a_false_win_is_stated_with_its_penalty_in_the_rulebook(code: str) -> None:
    entry = rule_entry(code)
    assert "(mcr)" in entry
    assert "No penalty" not in entry
    assert "A false win (错和) when broken" in entry and "`mcr_false_win`" in entry
    out = CliRunner().invoke(main, ["rules", code])
    assert out.exit_code == 0 and "A false win (错和) when broken" in out.output


def test_a_record_error_still_says_it_costs_nothing() -> None:
    for code in ("double-ron", "flower-kept"):  # MCR rules that are no false win
        assert "No penalty when broken" in rule_entry(code)
    assert "Chombo when broken." in rule_entry("kan-after-riichi")


# ---------------------------------------------------------------- 3. no dora line

_GAME = """mjlog-notation 1
[Players "A" "B" "C" "D"]
[Ruleset "mcr"]
E1-0
hands 1488999p1122336z 123456789m23p55s 456789m567p4569s 123456m123567p8s
1p
"""


def test_replay_leaves_out_the_dora_line_where_the_family_has_none(tmp_path: Path) -> None:
    path = tmp_path / "g.mjn"
    path.write_text(_GAME, "utf-8")
    for game in (path, EXAMPLES / "17-taiwan-whole-game.mjn"):
        out = CliRunner().invoke(main, ["replay", str(game)])
        assert out.exit_code == 0, out.output
        assert "dealer seat" in out.output and "  hand:  " in out.output
        assert "dora indicators" not in out.output


def test_replay_keeps_the_dora_line_for_riichi() -> None:
    out = CliRunner().invoke(main, ["replay", str(EXAMPLES / "east-ron.mjlog")])
    assert out.exit_code == 0
    assert "\ndora indicators: " in out.output


# ---------------------------------------------------------------- 5. 136 tiles

HANDS = ("1488999p1122336z", "123456m123567p8s", "456789m567p4569s", "123456789m23p55s")
"""N waits on 1p and 4p (123456789m 23p 55s: a Pure Straight)."""


def _kinds(hand: str) -> list[str]:
    out: list[str] = []
    digits: list[str] = []
    for c in hand:
        if c.isdigit():
            digits.append(c)
        else:
            out += [d + c for d in digits]
            digits = []
    return out


def _last_tile_game(preset: str, flowers: int) -> str:
    """A hand in notation where every tile of the 136 not dealt is drawn and thrown, N
    drawing the last of them, 1p, and winning on it; ``flowers`` flowers are drawn and
    replaced on the way (each takes one more tile of the wall). E throws 6z first; no one
    but N ever draws one of N's waits."""
    held = Counter(k for h in HANDS for k in _kinds(h))
    pool = [f"{n}{s}" for s in "mpsz" for n in range(1, 8 if s == "z" else 10)
            for _ in range(4 - held[f"{n}{s}"])]
    pool.remove("1p")  # the last tile
    waits = [k for k in pool if k in ("1p", "4p")]
    rest = [k for k in pool if k not in ("1p", "4p")]
    moves = ["6z"]
    spare = list(range(1, flowers + 1))
    for k in range(1, len(pool) + 1):  # draw k is S's, W's, N's, E's in turn
        n_draws = k % 4 == 3
        tile = rest.pop(0) if n_draws or not waits else waits.pop(0)
        if not n_draws and spare:
            f = spare.pop(0)
            moves.append(f"{f}f flower{f}f {tile}'")
        else:
            moves.append(f"{tile}'")
    assert not waits and not rest and not spare
    moves.append("1p")
    return "\n".join(["mjlog-notation 1", '[Players "A" "B" "C" "D"]',
                      f'[Ruleset "{preset}"]', "E1-0", "hands " + " ".join(HANDS),
                      " ".join(moves), "tsumo N", ""])


def _valued(text: str) -> tuple[int, int, set[str]]:
    """The live wall when the win comes, the winner's gain and the fans the family values
    it at."""
    rec = read_bytes(text.encode(), "t.mjn")[0]
    assert rec.diagnostics == []
    start = rec.events[0]
    assert isinstance(start, GameStart)
    engine = Engine()
    first = 0
    for i, ev in enumerate(rec.events):
        if isinstance(ev, RoundStart):
            first = i
        if isinstance(ev, Win):
            valued = family_of(start.ruleset).value_win(engine.state, rec.events, first, ev,
                                                        start.ruleset)
            assert not isinstance(valued, str), valued
            return engine.state.live_wall, valued[1], {c.name for c in valued[2]}
        engine.apply(ev, i)
    raise AssertionError("no win")


def test_the_botzone_preset_plays_136_tiles_without_flowers() -> None:
    mcr, botzone = PRESETS["mcr"], PRESETS["botzone"]
    assert (mcr.table.tiles, botzone.table.tiles) == (144, 136)
    assert (option_value(mcr, "mcr_flowers"), option_value(botzone, "mcr_flowers")) == (True,
                                                                                       False)
    assert botzone.family == "mcr" and botzone.dealt(True) == 14
    start = read_bytes(MATCH1.encode(), "m.txt")[0].events[0]
    assert isinstance(start, GameStart)
    assert start.ruleset.name == "botzone" and start.ruleset.table.tiles == 136


@NEEDS_FAN
def test_the_last_tile_of_a_136_tile_wall_is_valued_on_that_wall() -> None:
    live, gain, fans = _valued(_last_tile_game("botzone", 0))
    assert live == 0 and "last-tile-draw" in fans
    # the same moves on the 144-tile wall leave its eight flowers: not the last tile
    live, gain_144, fans_144 = _valued(_last_tile_game("mcr", 0))
    assert live == 8 and "last-tile-draw" not in fans_144
    assert fans - fans_144 == {"last-tile-draw"} and gain - gain_144 == 8 * 3


@NEEDS_FAN
def test_the_last_tile_of_a_144_tile_wall_comes_after_the_flowers() -> None:
    live, gain, fans = _valued(_last_tile_game("mcr", 8))
    assert live == 0 and "last-tile-draw" in fans
    assert gain == (8 + 16 + 8 + 4 + 2 + 1) * 3  # base 8 and each fan from all three


# ---------------------------------------------------------------- 6. typed published wall


def _round_start(published: Published | None = None,
                 extra: tuple[tuple[str, str], ...] = ()) -> RoundStart:
    hands = tuple(tuple(Tile(t) for t in range(13 * s, 13 * s + 13)) for s in range(4))
    return RoundStart(round_wind=0, round_number=1, honba=0, kyotaku=0, dealer=0,
                      scores=(25000,) * 4, dora_indicator=Tile(100), hands=hands, extra=extra,
                      published=published)


def test_the_fairness_sample_reads_the_typed_published_wall() -> None:
    from mjlog.stats.fairness.sample import _round

    typed = Published(platform="majsoul", wall="not a wall")
    # the reader's typed wall alone (no verbatim key): unreadable, not unknown
    assert _round([_round_start(published=typed)], None, {}, True).status == "unreadable"
    # a round start made by no reader: its verbatim keys, as before
    kept = _round_start(extra=(("majsoul.paishan", "not a wall"),))
    assert _round([kept], None, {}, True).status == "unreadable"
    assert _round([_round_start()], None, {}, True).status == "unknown"


# ---------------------------------------------------------------- 8. one exception per interrupt

_QUERY_INTERRUPTED = """
import os, signal, sys, threading
from mjlog.run import parallel
signal.signal(signal.SIGINT, parallel.interrupted)  # as mjlog.cli.run does
import mjlog.stats  # polars, imported after the handler is set
pl = mjlog.stats.pl
df = pl.DataFrame({"a": range(2_000_000)})
threading.Timer(0.3, lambda: os.kill(os.getpid(), signal.SIGINT)).start()
try:
    for _ in range(10_000):
        df.lazy().with_columns((pl.col("a") * 7 % 1000).alias("b")).sort("b").collect()
except BaseException as first:
    try:
        print("caught", type(first).__name__, flush=True)  # the cleanup's first step
    finally:
        print("cleaned up", flush=True)
    raise
"""


def test_an_interrupt_in_a_polars_query_is_one_exit_not_two() -> None:
    """mjlog's handler stays in front of polars' (imported after it was set): a SIGINT in
    a query is one ``SystemExit(130)``, not polars' ``KeyboardInterrupt`` followed by a
    second exception in the middle of the cleanup."""
    import subprocess
    import sys

    from .conftest import ROOT

    done = subprocess.run([sys.executable, "-c", _QUERY_INTERRUPTED], capture_output=True,
                          text=True, cwd=ROOT, timeout=120)
    assert done.returncode == 130, done.stderr[-2000:]
    assert done.stdout.splitlines() == ["caught SystemExit", "cleaned up"]


_RON = """mjlog-notation 1
[Players "A" "B" "C" "D"]
[Ruleset "mcr"]
E1-0
hands 1488999p1122336z {south} 456789m567p4569s 123456m123567p8s
1p
ron S pure-straight all-chows concealed-hand mixed-double-chow
"""


def _unjudged_win(south: str, folder: Path) -> dict[str, Any]:
    """The audit (JSON) of a ron by South on the dealer's first discard, South's hand as
    written (``?`` for a tile nobody wrote down)."""
    game = folder / "ron.mjn"
    game.write_text(_RON.format(south=south))
    out = CliRunner().invoke(main, ["audit", str(game), "--format", "json"])
    games: list[dict[str, Any]] = json.loads(out.stdout)["games"]
    return games[0]


@NEEDS_FAN
def test_a_win_whose_hand_nobody_wrote_down_is_not_judged_false(tmp_path: Path) -> None:
    """Unknown means unjudged: a win by a hand with tiles nobody wrote down gets an
    ``unjudged`` note for each false-win rule at the win, no violation, no payment judged."""
    known = _unjudged_win("123456789m23p55s", tmp_path)
    assert known["violations"] == [] and known["mismatches"] == []
    hidden = _unjudged_win("123456789m23p5s?", tmp_path)
    assert hidden["violations"] == [] and hidden["mismatches"] == []
    notes = [(f["code"], f["round"], f["turn"], f["player"], f["message"].split(":")[0])
             for f in hidden["findings"] if f["code"] == "unjudged"]
    assert notes == [("unjudged", "E1-0", 1, 1, "no-winning-shape not judged"),
                     ("unjudged", "E1-0", 1, 1, "fan-below-minimum not judged")]


def test_without_the_fan_library_a_win_is_not_judged_and_generate_says_so(
        tmp_path: Path) -> None:
    """Where PyMahjongGB cannot be imported, an MCR win is not judged (notes naming the
    install command, no violation, no internal error) and ``mjlog generate --rules mcr``
    stops with one line saying what to install, not a traceback."""
    (tmp_path / "MahjongGB.py").write_text('raise ImportError("not built")\n')
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(tmp_path), str(ROOT)])}
    record = tmp_path / "ron.mjn"
    record.write_text(_RON.format(south="123456789m23p55s"))
    audit = subprocess.run([sys.executable, "-m", "mjlog.cli", "audit", str(record), "--format",
                            "json"], capture_output=True, text=True, env=env)
    game = json.loads(audit.stdout)["games"][0]
    assert game["violations"] == [] and game["mismatches"] == []
    codes = [(f["code"], f["turn"], f.get("player")) for f in game["findings"]]
    assert ("unjudged", 1, 1) in codes and "internal-error" not in [c for c, _, _ in codes]
    assert "pip install 'mjlog[mcr]'" in json.dumps(game["findings"])
    gen = subprocess.run([sys.executable, "-m", "mjlog.cli", "generate", "--rules", "mcr",
                          "-n", "1", "-o", str(tmp_path / "g")], capture_output=True,
                         text=True, env=env)
    assert gen.returncode == 2 and "Traceback" not in gen.stderr
    assert gen.stderr.startswith("Error: MCR fan counting needs PyMahjongGB")

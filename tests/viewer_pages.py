"""Helpers of the viewer's tests: the sample records of every format, writing a page,
opening it offline in Chromium and reading the table it shows, and the text replay to
compare it with."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from click.testing import CliRunner

from mjlog.cli import main
from mjlog.core.ruleset import PRESETS
from mjlog.families.registry import random_game
from mjlog.formats import write

from .conftest import CORPUS, EXAMPLES, corpus_paths

SAMPLES = {
    "tenhou-xml": "tenhou-xml/Jim137-Tenhou-Paifu-Logger/test/test_data/"
                  "2022060222gm-0001-0000-a87679bc&tw=3.mjlog",
    "tenhou-xml three-player": "tenhou-xml/dnovikoff-tenhou/log/test_data/sanma2.xml",
    "tenhou.net/6": "majsoul/MahjongPantheon-pantheon/Mimir/tests/helpers/onlineLog/testdata/"
                    "format6/tensoul_usual.json",
    "tenhou.net/6 three-player kita": "tenhou-json/hidacow-mjai-reviewer3p/convlog/tests/"
                                      "testdata/double_nukidora.json",
    "mjai": "mjai/Apricot-S-mjai-manue-go/docs/2025-08-23-085608.mjson",
    "mahjong soul": "majsoul-raw/Fat-pig-Cui-misc-code/paipu/"
                    "paipu_210815-6da08e40-2605-42fb-a5e3-f8aa5940362a.json",
    "riichi city": "other/0num4-paifu-playground-riichicity/4ma_gin_han_sample.json",
    "m-league": "other/Preserver6166-MleaguePaifuParser/src/main/resources/"
                "L001_S014_0012_02A.umd.json",
    "kobalab": "other/zhengye1-paipuconverter/paipu/セガサミーフェニックスNo1_決定戦.json",
}
OURS = {
    "taiwanese, generated": Path("random-taiwan16-7.mjn"),
    "notation, partial": EXAMPLES / "11-discards-only.mjn",
    "canonical json lines": EXAMPLES / "east-riichi.jsonl",
}


def sample(name: str, tmp_path: Path) -> Path:
    """The sample record ``name`` (a generated one is written into ``tmp_path``)."""
    if name.endswith("generated"):  # a whole Taiwanese game of the random players
        out = tmp_path / OURS[name]
        out.write_text(write("notation", random_game(PRESETS["taiwan16"], 7).events),
                       encoding="utf-8")
        return out
    if name in OURS:
        return OURS[name]
    corpus_paths("tenhou-xml")  # skips, saying why, without the corpus
    return CORPUS / SAMPLES[name]


def page_of(tmp_path: Path, record: Path, *args: str) -> Path:
    out = tmp_path / (re.sub(r"\W+", "-", record.stem) + ".html")
    result = CliRunner().invoke(main, ["view", str(record), "-o", str(out), *args])
    assert result.exit_code == 0, result.output
    return out


def open_page(browser: Any, page_file: Path, fragment: str = "",
              viewport: dict[str, int] | None = None) -> tuple[Any, Any, list[str]]:
    """The page opened offline (1400×1000 unless ``viewport`` says), with the console's
    errors and any request that is neither a file nor inline data collected."""
    context = browser.new_context(offline=True,
                                  viewport=viewport or {"width": 1400, "height": 1000})
    page = context.new_page()
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("request",
            lambda r: None if r.url.startswith(("file://", "data:")) else errors.append(r.url))
    page.goto(page_file.as_uri() + fragment, wait_until="load")
    return context, page, errors


_SEAT_LINE = re.compile(r"^seat (\d+) [ESWN] .*  (-?\d+)(  \[.*\])?$")


def _replayed(record: Path, label: str, turn: int) -> dict[int, dict[str, Any]]:
    """What ``mjlog replay --round LABEL --turn N`` prints of each seat."""
    result = CliRunner().invoke(main, ["replay", str(record), "--round", label,
                                       "--turn", str(turn)])
    assert result.exit_code == 0, result.output
    seats: dict[int, dict[str, Any]] = {}
    p = -1
    for line in result.output.splitlines():
        if m := _SEAT_LINE.match(line):
            p = int(m[1])
            seats[p] = {"score": int(m[2])}
        elif line.startswith("  hand:"):
            text, _, unknown = line.split(":", 1)[1].strip().partition(" and ")
            tiles = _expand(text) + ["??"] * int(unknown.split()[0] if unknown else 0)
            seats[p]["hand"] = sorted(tiles)
        elif line.startswith("  river:"):
            seats[p]["river"] = [_river_token(t) for t in line.split(":", 1)[1].split()
                                 if t != "-"]
    return seats


def _expand(mpsz: str) -> list[str]:
    out, digits = [], ""
    for ch in "" if mpsz == "-" else mpsz:
        if ch.isdigit():
            digits += ch
        else:
            out += [d + ch for d in digits]
            digits = ""
    return out


def _river_token(token: str) -> tuple[str, bool, bool, bool]:
    called = token.startswith("(")
    token = token.strip("()")
    return token[:2], "'" in token, "*" in token, called


def _dom_river(text: str) -> list[tuple[str, bool, bool, bool]]:
    return [(t[:2], "'" in t, "*" in t, "^" in t) for t in re.findall(r"..['*^]*", text)]


def shown(page: Any) -> dict[str, Any]:
    seen: dict[str, Any] = page.evaluate("""() => {
        const t = document.getElementById('table');
        const seats = {};
        for (const s of t.querySelectorAll('.seat')) seats[s.dataset.seat] = {
            hand: s.querySelector('.hand').dataset.tiles,
            river: s.querySelector('.river').dataset.river,
            score: +s.querySelector('.score').dataset.score};
        return {step: +t.dataset.step, turn: +t.dataset.turn, round: t.dataset.round, seats};
    }""")
    return seen


def step_through_a_round(page: Any, record: Path, data: dict[str, Any]) -> int:
    """Go to a round with the keyboard and step through it; compare sampled moves with the
    text replay. Returns how many moves were compared."""
    rounds = data["rounds"]
    ends = [r[2] for r in rounds[1:]] + [len(data["steps"])]
    target = max(range(len(rounds)), key=lambda r: min(ends[r], 400) - rounds[r][2])  # longest
    page.keyboard.press("Home")
    for _ in range(target + 1):
        page.keyboard.press("PageDown")
    label, compared, last_turn = rounds[target][0], 0, -1
    every = 4 if ends[target] - rounds[target][2] > 30 else 1  # a short round: every move
    seen = shown(page)
    while seen["round"] == label:
        if seen["turn"] != last_turn and seen["turn"] % every == 1 % every:
            want = _replayed(record, label, seen["turn"])
            for p, s in want.items():
                dom = seen["seats"][str(p)]
                assert sorted(re.findall("..", dom["hand"])) == s["hand"], (record, seen, p)
                assert _dom_river(dom["river"]) == s["river"], (record, seen["turn"], p)
                assert dom["score"] == s["score"]
            compared += 1
        last_turn = seen["turn"]
        before = seen["step"]
        page.keyboard.press("ArrowRight")
        seen = shown(page)
        if seen["step"] == before:  # the game's end
            break
    return compared

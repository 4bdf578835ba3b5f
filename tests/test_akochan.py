"""akochan's mjai dialect (#48 item 5), built from games of our own.

akochan's game manager (``critter-mj/akochan``: ``share/make_move.cpp``,
``mjai_manager.cpp``, its ``match_result/haifu_log_*.json``) writes a win as
``hora`` with ``hora_tehais``, ``fan``, ``fu`` before rounding and the ``scores``
after it (``uradora_marker``, singular, for a riichi hand), with no ``yakus``,
``deltas`` or points; a draw as ``ryukyoku`` with ``reason``, ``tenpais``,
``tehais`` and ``scores``; ``reach_accepted`` bare; ``start_game`` with
``aka_flag`` and ``kyoku_first``. Each of its ``hora`` of one round states the
scores before the round's result plus that win's own payments. The tests write
our games in the ``mjai`` dialect and reshape them so.
"""

from __future__ import annotations

import json
import re
from typing import Any

from mjlog.core.events import AbortiveDraw, ExhaustiveDraw, GameStart, Win
from mjlog.core.record import GameRecord
from mjlog.core.ruleset import PRESETS
from mjlog.families.riichi.players import RandomGame
from mjlog.formats import detect, mjai, read_bytes, read_path
from mjlog.reports.audit import audit_record
from tests.conftest import EXAMPLES

_HORA_KEYS = ("type", "actor", "target", "pai", "hora_tehais", "fan")


def _unrounded(fu: int) -> int:
    """A fu as akochan writes it before rounding: 38 for 40 (30, 25 and 20 as they are)."""
    return fu - 2 if fu > 30 and fu % 10 == 0 else fu


def _akochan_hora(o: dict[str, Any], base: list[int]) -> dict[str, Any]:
    out = {k: o[k] for k in _HORA_KEYS}
    out["fu"] = _unrounded(o["fu"])
    out["scores"] = [b + d for b, d in zip(base, o["deltas"], strict=True)]
    if o["uradora_markers"]:
        out["uradora_marker"] = o["uradora_markers"]
    return out


def _akochan(objs: list[dict[str, Any]], length: str) -> list[dict[str, Any]]:
    """The ``mjai`` dialect's objects of a game reshaped as akochan writes them."""
    out: list[dict[str, Any]] = []
    base: list[int] | None = None  # the scores before the round's first result
    for o in objs:
        t = o["type"]
        if t == "start_game":
            o = {"type": t, "aka_flag": True, "kyoku_first": 4 if length == "east" else 0}
        elif t == "start_kyoku":
            base = None
        elif t == "reach_accepted":
            o = {"type": t, "actor": o["actor"]}
        elif t == "hora":
            if base is None:
                base = [s - d for s, d in zip(o["scores"], o["deltas"], strict=True)]
            o = _akochan_hora(o, base)
        elif t == "ryukyoku":
            o = {k: o[k] for k in ("type", "reason", "tenpais", "tehais", "scores")}
        elif t == "end_game":
            o = {"type": t, "scores": o["scores"]}
        out.append(o)
    return out


def _games() -> list[GameRecord]:
    """Games of our own with riichi, ura dora, rons, tsumos, chiitoitsu, paid draws and
    (seed 40) a double ron."""
    (example,) = read_path(EXAMPLES / "east-riichi.mjlog")
    return [example, *(RandomGame(PRESETS["tenhou"], seed).play() for seed in (0, 3, 40))]


def _both(rec: GameRecord) -> tuple[list[dict[str, Any]], bytes]:
    """A game's objects in the ``mjai`` dialect and its akochan file."""
    start = rec.events[0]
    assert isinstance(start, GameStart)
    objs = list(mjai.to_objects(rec.events, dialect="mjai"))
    ako = _akochan(objs, start.ruleset.length)
    return objs, "".join(json.dumps(o) + "\n" for o in ako).encode()


def _results(rec: GameRecord) -> list[tuple[Any, ...]]:
    """What a game's results state that akochan's dialect can state too."""
    return [(e.winner, e.from_player, e.hand, e.win_tile, e.fu, e.han, e.limit, e.deltas,
             e.ura_indicators) if isinstance(e, Win) else (type(e).__name__, e.deltas)
            for e in rec.events if isinstance(e, Win | ExhaustiveDraw | AbortiveDraw)]


def test_akochan_logs_are_detected_and_read_as_the_games_they_are() -> None:
    """The payments are the change of ``scores``, the fu is rounded, the ura indicators
    are read: every result states what the ``mjai`` dialect's did, and the games audit
    clean (read before as the ``mjai`` dialect, the four gave 46 false win-yaku, 25
    start-scores-mismatch, 20 win-points, 10 win-fu, 5 win-han and more)."""
    fu_seen: set[int] = set()
    for rec in _games():
        objs, data = _both(rec)
        fu_seen |= {json.loads(x)["fu"] for x in data.splitlines() if b'"hora"' in x}
        assert detect(data) == "mjai"
        assert mjai.detect_dialect(json.loads(x) for x in data.splitlines()) == "akochan"
        (ako,) = read_bytes(data, "ako.json")
        (full,) = read_bytes("".join(json.dumps(o) + "\n" for o in objs).encode(), "full.mjson")
        assert _results(ako) == _results(full)
        assert all(not e.yaku and not e.points for e in ako.events if isinstance(e, Win))
        report = audit_record(ako)
        assert report.mismatches == [] and report.violations == [] and report.problems == []
        assert report.wins_verified == report.wins > 0
    assert 38 in fu_seen and 25 in fu_seen  # unrounded fu, and chiitoitsu's kept
    doubles = [i for i, e in enumerate(rec.events[1:], 1)
               if isinstance(e, Win) and isinstance(rec.events[i - 1], Win)]
    assert doubles  # the last game's double ron: each hora's scores are its own payments


def test_a_wrong_fan_in_an_akochan_log_is_caught_at_its_line() -> None:
    rec = RandomGame(PRESETS["tenhou"], 3).play()
    lines = _both(rec)[1].decode().splitlines()
    at = next(i for i, x in enumerate(lines) if '"hora"' in x)
    hora = json.loads(lines[at])
    hora["fan"] += 1
    lines[at] = json.dumps(hora)
    (ako,) = read_bytes("\n".join(lines).encode(), "wrong.json")
    found = [(m.code, m.src.line if m.src else None) for m in audit_record(ako).mismatches]
    assert ("win-han", at + 1) in found
    assert {code for code, _ in found} <= {"win-han", "win-limit", "win-deltas"}


def test_akochans_start_game_states_red_fives_and_the_length() -> None:
    """``aka_flag`` says whether red fives are played (where no tile names one, the file
    could not say) and ``kyoku_first`` the game's length (4 east-only, 0 a hanchan)."""
    rec = read_path(EXAMPLES / "east-riichi.mjlog")[0]
    text = re.sub(r'"5([mps])r"', r'"5\1"', _both(rec)[1].decode()).splitlines()
    for aka, first, length in ((True, 4, "east"), (False, 0, "south")):
        text[0] = json.dumps({"type": "start_game", "aka_flag": aka, "kyoku_first": first})
        (got,) = read_bytes("\n".join(text).encode(), "x.json")
        start = got.events[0]
        assert isinstance(start, GameStart)
        assert (start.ruleset.red_fives, start.ruleset.length) == (aka, length)

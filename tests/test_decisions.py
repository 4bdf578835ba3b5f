"""The decision facts (``mjlog.families.riichi.decisions``): shanten and ukeire of every discard
choice
against a brute-force count on real games, the native kernel against its Python twin,
the records' shape, unknown tiles, and ``mjlog review`` end to end."""

from __future__ import annotations

import itertools
import json
import random
from collections.abc import Callable, Iterator
from functools import lru_cache
from pathlib import Path

import pytest
from click.testing import CliRunner

from mjlog.cli import main
from mjlog.core import native
from mjlog.core.events import AddedKan, ClosedKan, Discard
from mjlog.core.record import GameRecord
from mjlog.core.tiles import KIND_OF
from mjlog.families.riichi.decisions import CallDecision, DiscardDecision, decisions
from mjlog.families.riichi.decisions.efficiency import (
    py_call_offers,
    py_discard_facts,
    py_discard_options,
    py_hand_ukeire,
    py_offer_ukeire,
)
from mjlog.families.riichi.hand.shape import shanten, standard_shanten
from mjlog.formats import notation, read_path, tenhou_xml
from mjlog.replay.engine import Engine
from mjlog.replay.observer import Observer

from .conftest import CORPUS, EXAMPLES, corpus_paths

ALL = (1 << 34) - 1


# ---------------------------------------------------------------- brute force


class Witness(Observer):
    """At each discard, the discarder's hand, calls and what they can see, counted from the
    table the engine holds (rivers, melds, kita, indicators): independent of the
    observer under test, which counts the same tiles as they appear."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self.seen: dict[int, tuple[list[int], int, list[int], int]] = {}

    def before_discard(self, ev: Discard) -> None:
        s = self.engine.state
        ps = s.players[ev.player]
        if ps.unknown:
            return
        visible = [0] * 34
        shown = [*s.dora_indicators, *(d.tile for q in s.players for d in q.river),
                 *(t for q in s.players for t in q.kita)]
        for q in s.players:
            for m in q.melds:
                if isinstance(m, ClosedKan):
                    shown.extend(m.tiles)
                elif isinstance(m, AddedKan):
                    shown.extend(t for t in m.tiles if t != m.called)
                else:
                    shown.extend(t for t in m.tiles if t != m.called)
        counts = [0] * 34
        for t in ps.concealed:
            counts[KIND_OF[t]] += 1
        for t in [*shown, *ps.concealed]:
            if KIND_OF[t] < 34:
                visible[KIND_OF[t]] += 1
        here = sum(1 << k for k in range(34) if s.here[4 * k])
        unseen = [4 - visible[k] if here >> k & 1 else 0 for k in range(34)]
        self.seen[self.engine.index] = (counts, len(ps.melds), unseen, here)


@lru_cache(maxsize=1 << 18)
def _shanten(counts: bytes, melds: int) -> int:
    return shanten(counts, melds)


@lru_cache(maxsize=1 << 16)
def _shanten16(counts: bytes, melds: int) -> int:
    """Taiwanese: the standard shape over five sets; a hand one short that is ready only
    on kinds it holds four of is 1 (as the riichi count has it)."""
    sh = standard_shanten(counts, melds, sets=5)
    if sh == 0 and sum(counts) % 3 == 1:
        h = bytearray(counts)
        for k in range(34):
            if h[k] < 4:
                h[k] += 1
                done = standard_shanten(h, melds, sets=5) == -1
                h[k] -= 1
                if done:
                    return 0
        return 1
    return sh


def brute_force(counts: list[int], melds: int, unseen: list[int], here: int,
                measure: Callable[[bytes, int], int] = _shanten
                ) -> dict[int, tuple[int, int, int]]:
    """Each discard's (shanten, ukeire mask, count) by drawing every kind into the hand
    left and counting its shanten again (:func:`mjlog.families.riichi.hand.shape.shanten` by
    default)."""
    out = {}
    for d in range(34):
        if not counts[d]:
            continue
        h = list(counts)
        h[d] -= 1
        base = measure(bytes(h), melds)
        mask = count = 0
        for k in range(34):
            if h[k] >= 4 or not here >> k & 1:
                continue
            h[k] += 1
            if measure(bytes(h), melds) < base:
                mask |= 1 << k
                count += unseen[k]
            h[k] -= 1
        out[d] = (base, mask, count)
    return out


def _agreement(rec: GameRecord, measure: Callable[[bytes, int], int] = _shanten
               ) -> tuple[int, int]:
    """Compare every discard decision of ``rec`` with the brute force; return (decisions,
    options) compared. Fails at the first difference, naming it."""
    engine = Engine(rec.src)
    witness = Witness(engine)
    engine.run(rec.events, [witness])
    found = [d for d in decisions(rec) if isinstance(d, DiscardDecision)]
    n_dec = n_opt = 0
    for d in found:
        if d.raw is None or not d.counted:
            continue
        counts, melds, unseen, here = witness.seen[d.event]
        expected = brute_force(counts, melds, unseen, here, measure)
        got = {k: (sh, mask, n) for k, sh, mask, n in d.raw}
        assert got == expected, f"{rec.path} event {d.event} ({d.round}, seat {d.seat})"
        n_dec += 1
        n_opt += len(got)
    return n_dec, n_opt


def _tenhou_games(n: int) -> Iterator[GameRecord]:
    """The first ``n`` Tenhou corpus games by path, four- and three-player alike."""
    paths = sorted(corpus_paths("tenhou-xml"))
    if not paths:
        pytest.skip("no Tenhou records in the corpus")
    for path in paths[:n]:
        yield tenhou_xml.read(path.read_bytes(), str(path))


def test_ukeire_equals_the_brute_force_on_three_games() -> None:
    """Every discard of three real games: shanten, ukeire kinds and unseen copies of every
    option are what drawing each kind into the hand left gives."""
    n_dec = n_opt = 0
    for rec in _tenhou_games(3):
        d, o = _agreement(rec)
        n_dec, n_opt = n_dec + d, n_opt + o
    assert n_dec > 300 and n_opt > 8 * n_dec


@pytest.mark.slow
@pytest.mark.parametrize("part", range(10))
def test_ukeire_equals_the_brute_force_on_300_games(part: int) -> None:
    """The same over 300 Tenhou games, four- and three-player, in ten parts of 30 (so
    that the suite's workers share them; about a minute each)."""
    n_dec = 0
    for rec in itertools.islice(_tenhou_games(300), 30 * part, 30 * part + 30):
        n_dec += _agreement(rec)[0]
    assert n_dec > 5_000  # the fewest: part 6, 5,530 discards counted (three-player games)


def test_sanma_has_no_two_to_eight_man() -> None:
    """In three-player games (the corpus index's players column) no ukeire is a 2m to 8m:
    the tiles are not at the table; the brute force agrees on every option."""
    index = CORPUS / "_index.tsv"
    if not index.exists():
        pytest.skip("no corpus index")
    rows = [line.split("\t") for line in index.read_text(encoding="utf-8").splitlines()[1:]]
    three = sorted(CORPUS / r[0] for r in rows if r[1] == "tenhou-xml" and r[2] == "3")[:2]
    if not three:
        pytest.skip("no three-player Tenhou record in the corpus")
    middle = sum(1 << k for k in range(1, 8))
    for path in three:
        rec = tenhou_xml.read(path.read_bytes(), str(path))
        assert _agreement(rec)[0] > 100
        for d in decisions(rec):
            if isinstance(d, DiscardDecision) and d.raw:
                assert all(not mask & middle for _, _, mask, _ in d.raw)


def test_taiwanese_hands_count_five_sets() -> None:
    """The Taiwanese example games: every discard of a known hand has its options (17
    tiles, five sets and a pair), equal to the brute force over five sets; no count is
    held back for want of a dora indicator (the table has none)."""
    n = 0
    for path in sorted(EXAMPLES.glob("1[3-7]-taiwan-*.mjn")):
        for rec in read_path(str(path)):
            n += _agreement(rec, _shanten16)[0]
            for d in decisions(rec):
                if isinstance(d, DiscardDecision) and d.raw is not None:
                    assert d.counted and d.best
    assert n >= 10


# ---------------------------------------------------------------- native == Python


def _random_hands(n: int, seed: int) -> Iterator[tuple[bytes, int, int]]:
    rng = random.Random(seed)
    pools = [[k for k in range(34) for _ in range(4)],
             [k for k in (0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33, 1, 2) for _ in range(4)],
             [k for k in range(9) for _ in range(4)]]
    for i in range(n):
        sets = 5 if i % 5 == 0 else 4
        melds = rng.choice([0, 0, 0, 1, 2, 3, 4])
        wall = list(rng.choice(pools))
        rng.shuffle(wall)
        counts = bytearray(34)
        for k in wall[:3 * (sets - melds) + 2]:
            counts[k] += 1
        yield bytes(counts), melds, sets


def test_native_and_python_agree_on_random_hands() -> None:
    core = native.core()
    if core is None or not hasattr(core, "discard_options"):
        pytest.skip("the native core is not built")
    rng = random.Random(7)
    for counts, melds, sets in _random_hands(500, 3):
        unseen = bytes(rng.randint(0, 4) for _ in range(34))
        here = rng.choice([ALL, ALL & ~sum(1 << k for k in range(1, 8))])
        assert core.discard_options(counts, melds, sets, here, unseen) == \
            py_discard_options(counts, melds, sets, here, unseen), (counts, melds, sets)
        d = next(k for k in range(34) if counts[k])
        short = bytearray(counts)
        short[d] -= 1
        assert core.hand_ukeire(bytes(short), melds, sets, here, unseen) == \
            py_hand_ukeire(short, melds, sets, here, unseen)


def _native_and_pure(recs: list[GameRecord], monkeypatch: pytest.MonkeyPatch
                     ) -> tuple[list[list[dict[str, object]]], list[list[dict[str, object]]]]:
    """The JSON of every decision of ``recs``, on the native core and on pure Python
    (``MJLOG_PURE=1``)."""
    core = native.core()
    if core is None or not hasattr(core, "discard_facts"):
        pytest.skip("the native core is not built")
    fast = [[d.to_json() for d in decisions(r)] for r in recs]
    monkeypatch.setenv("MJLOG_PURE", "1")
    native.core.cache_clear()
    try:
        pure = [[d.to_json() for d in decisions(r)] for r in recs]
    finally:
        monkeypatch.delenv("MJLOG_PURE")
        native.core.cache_clear()
    return fast, pure


def test_native_and_python_agree_on_corpus_hands(monkeypatch: pytest.MonkeyPatch) -> None:
    """The facts of real games, native and pure Python (``MJLOG_PURE=1``), are equal."""
    fast, pure = _native_and_pure(list(_tenhou_games(3)), monkeypatch)
    assert fast == pure and sum(map(len, fast)) > 500


@pytest.mark.slow
def test_decisions_json_is_the_same_native_and_pure_on_20_games(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The JSON of :func:`decisions` over 20 corpus games (four- and three-player) is the
    same on the native route (one ``discard_facts`` call per discard, ``call_offers`` and
    ``offer_ukeire`` for the calls) and on their Python twins; deal-ins, threats and
    call decisions are among them (about 15 seconds: the pure route)."""
    fast, pure = _native_and_pure(list(_tenhou_games(20)), monkeypatch)
    assert sum(map(len, fast)) > 8_000
    rows = [row for game in fast for row in game]
    assert any(r.get("deal_in") for r in rows) and any(r.get("threats") for r in rows)
    assert any(r["kind"] == "call" and r["taken"] for r in rows)
    for i, (a, b) in enumerate(zip(fast, pure, strict=True)):
        assert a == b, f"game {i}: the first difference is at decision " \
            f"{next(j for j, (x, y) in enumerate(zip(a, b, strict=False)) if x != y)}"


def _random_rest(rng: random.Random, counts: bytes) -> bytearray:
    """Copies left on the table for a hand of ``counts``: mostly at least what it holds,
    sometimes fewer (a record that reuses a tile)."""
    return bytearray(min(4, c + rng.randint(0, 4 - c)) if rng.random() > 0.02
                     else rng.randint(0, 4) for c in counts)


def test_discard_facts_native_and_python_agree() -> None:
    """``discard_facts`` and its twin on random hands given as tile ids: options, best
    under a kuikae mask, loss of a kind held or not, unseen copies, and ``None`` for a
    hand they do not count (a flower, a size that does not discard, too few copies left)."""
    core = native.core()
    if core is None or not hasattr(core, "discard_facts"):
        pytest.skip("the native core is not built")
    rng = random.Random(11)
    nones = 0
    for counts, melds, sets in _random_hands(400, 5):
        tiles = [4 * k + i for k in range(34) for i in range(counts[k])]
        roll = rng.random()
        if roll < 0.03:
            tiles.append(136 + rng.randint(0, 8))  # a flower or the unknown tile
        elif roll < 0.06:
            tiles.pop()
        rest = _random_rest(rng, counts)
        here = rng.choice([ALL, ALL & ~sum(1 << k for k in range(1, 8))])
        forbidden = rng.choice([0, 0, 1 << rng.randrange(34),
                                sum(1 << k for k in range(34) if counts[k])])
        tile = rng.choice([k for k in range(34) if counts[k]] + [rng.randrange(34), 255])
        args = (set(tiles), melds, sets, here, rest, forbidden, tile)
        got = core.discard_facts(*args)
        assert got == py_discard_facts(*args), args
        nones += got is None
    assert 10 < nones < 100


def test_call_offers_and_offer_ukeire_native_and_python_agree() -> None:
    """``call_offers`` (pon, open kan, the three chi shapes, seats left out) and
    ``offer_ukeire`` (with its reasons 1 and 2) equal their twins on random hands."""
    core = native.core()
    if core is None or not hasattr(core, "call_offers"):
        pytest.skip("the native core is not built")
    rng = random.Random(13)
    offered = kans = 0
    chis: set[int] = set()
    reasons: set[object] = set()
    for counts, melds, sets in _random_hands(300, 9):
        short = bytearray(counts)
        short[next(k for k in range(34) if counts[k])] -= 1
        kind, chi_seat = rng.randrange(35), rng.choice([-1, 0, 1, 2, 3])
        hands: list[set[int] | None] = []
        for _ in range(4):  # tiles around the kind thrown, and a flower now and then
            pool = {t for t in range(4 * kind - 8, 4 * kind + 12) if rng.random() < 0.3}
            pool |= {rng.randrange(144) for _ in range(6)}
            hands.append(None if rng.random() < 0.2 else {t for t in pool if t >= 0})
        got = core.call_offers(hands, kind, chi_seat)
        assert got == py_call_offers(hands, kind, chi_seat), (hands, kind, chi_seat)
        offered += len(got)
        kans += sum(o[2] for o in got)
        chis |= {o[3] for o in got}
        tiles = {4 * k + i for k in range(34) for i in range(short[k])}
        if rng.random() < 0.05:
            tiles.add(140)
        rest = _random_rest(rng, bytes(short))
        args = (tiles, melds, sets, ALL, rest)
        ukeire = core.offer_ukeire(*args)
        assert ukeire == py_offer_ukeire(*args), args
        reasons.add(ukeire if isinstance(ukeire, int) else "counted")
    assert offered > 100 and kans > 5 and {1, 2, 4} <= chis
    assert reasons == {1, 2, "counted"}


def test_a_hand_ready_only_on_its_own_four_tiles() -> None:
    """6666s with three calls waits only on a fifth 6s: 1 from ready, as
    :func:`~mjlog.families.riichi.hand.shape.shanten` counts it, and every other kind lowers
    that."""
    counts = [0] * 34
    counts[23], counts[0] = 4, 1
    unseen = [4] * 34
    expected = brute_force(counts, 3, unseen, ALL)
    assert expected[0][0] == 1 and expected[0][1] == ALL & ~(1 << 23)
    got = {k: (sh, m, n) for k, sh, m, n in py_discard_options(counts, 3, 4, ALL,
                                                                bytes(unseen))}
    assert got == expected
    core = native.core()
    if core is not None and hasattr(core, "discard_options"):
        assert {k: (sh, m, n) for k, sh, m, n in core.discard_options(
            bytes(counts), 3, 4, ALL, bytes(unseen))} == expected


def test_native_refuses_a_hand_of_the_wrong_size() -> None:
    core = native.core()
    if core is None or not hasattr(core, "discard_options"):
        pytest.skip("the native core is not built")
    with pytest.raises(ValueError):
        core.discard_options(bytes([1] * 13 + [0] * 21), 0, 4, ALL, bytes(34))
    with pytest.raises(ValueError):
        core.discard_options(bytes([5] + [1] * 9 + [0] * 24), 0, 4, ALL, bytes(34))
    with pytest.raises(ValueError):
        core.hand_ukeire(bytes([1] * 13), 0, 4, ALL, bytes(34))


# ---------------------------------------------------------------- shape of the records

HEAD = """mjlog-notation 1
[Players "Aoi" "Ben" "Chiyo" "Dai"]
[Ruleset "tenhou"]
"""


def _game(body: str) -> GameRecord:
    (rec,) = notation.read((HEAD + body).encode())
    assert rec.diagnostics == [], rec.diagnostics
    return rec


def test_a_discard_decision_names_its_best_and_loss() -> None:
    """Aoi holds 123m456p789s1122z + 9m: throwing 9m keeps the hand ready on 1z/2z; 1m
    loses the wait. The record's own loss is the difference of unseen copies."""
    rec = _game("E1-0 dora=9p\nhands 123m456p789s1122z 234m567p234s5566z "
                "456m789p345s3344z 789m123p678s7777z\n9m1m 1m' 8p' 5z'\n"
                "draw\n")
    first = next(d for d in decisions(rec) if isinstance(d, DiscardDecision))
    assert (first.event, first.round, first.seat, first.tile) == (3, "E1-0", 0, 0)
    taken = first.taken()
    assert taken is not None and taken.shanten == 1
    assert first.best == [8]  # 9m
    best = next(o for o in first.options or () if o.tile == 8)
    assert best.shanten == 0 and best.ukeire == (1 << 27) | (1 << 28)
    assert first.loss == (1, (best.copies or 0) - (taken.copies or 0))
    row = first.to_json()
    assert row["taken"] == "1m" and row["best"] == ["9m"] and row["loss"]["shanten"] == 1
    assert [o["tile"] for o in row["options"]] == sorted(
        (o["tile"] for o in row["options"]), key=lambda t: ("mpsz".index(t[1]), t[0]))
    json.dumps(row)  # JSON-able


def test_after_riichi_the_discards_are_forced() -> None:
    rec = _game("E1-0 dora=9p\nhands 123m456p789s1122z 234m567p234s5566z "
                "456m789p345s3344z 789m123p678s7777z\n9m' 1m'* 8p' 9s'\n3m' 6m'\n")
    ben = [d for d in decisions(rec) if isinstance(d, DiscardDecision) and d.seat == 1]
    assert [(d.riichi, d.forced) for d in ben] == [(True, False), (False, True)]
    assert ben[1].loss is None and ben[1].best is not None and ben[0].loss is not None


def test_a_deal_in_carries_the_discarders_shanten_and_class() -> None:
    text = (EXAMPLES / "10-riichi-ura.mjn").read_bytes()
    (rec,) = notation.read(text)
    dealt = [d for d in decisions(rec) if isinstance(d, DiscardDecision) and d.deal_in]
    assert len(dealt) == 1
    d = dealt[0]
    assert d.seat == 3 and d.deal_in is not None and d.deal_in.winners == [1]
    assert d.deal_in.riichi == {1: True}
    assert d.deal_in.classes[1] == "none"  # 5z: one copy visible, Ben's river has none
    assert set(d.threats or {}) == {1}
    taken = d.taken()
    assert taken is not None and d.deal_in.shanten == taken.shanten


def test_call_decisions_taken_and_passed() -> None:
    """S pons 5z from Aoi's discard: a call decision taken, its ``after`` the best discard
    of the hand it gave; W could have chi'd 4m from S's discard and passed."""
    rec = _game("E1-0 dora=9p\nhands 123m456p789s1155z 234m567p234s5566z "
                "56m789p345s33447z 789m123p678s7777z\n9m5z S:pon55z 4m 1s' \n")
    calls = [d for d in decisions(rec) if isinstance(d, CallDecision)]
    ben = next(c for c in calls if c.seat == 1)
    assert ben.outcome == "taken" and ben.taken == ("pon", (31, 31))
    assert ben.before is not None and ben.after is not None and ben.after[0] != 31
    chiyo = next(c for c in calls if c.seat == 2)
    assert chiyo.outcome == "passed" and ("chi", (4, 5)) in chiyo.calls
    assert chiyo.tile == 3 and chiyo.from_seat == 1
    json.dumps([c.to_json() for c in calls])


def test_unknown_tiles_make_facts_not_computed() -> None:
    """A hand with a tile nobody wrote down has no options; a discard of an unknown tile on
    the table makes every count null, never a wrong number."""
    rec = _game("E1-0 dora=9p\nhands 123m456p789s1122z ? ? ?\n9m' ?1z ?2z ?3z 1m'\n")
    found = [d for d in decisions(rec) if isinstance(d, DiscardDecision)]
    assert found[1].raw is None and "options" in found[1].not_computed
    assert found[1].to_json()["options"] is None
    hidden = _game("E1-0 dora=9p\nhands 123m456p789s1122z ? ? ?\n9m' ?? ?? ?? 1m'\n")
    last = [d for d in decisions(hidden) if isinstance(d, DiscardDecision)][-1]
    assert last.raw is not None and not last.counted and "counts" in last.not_computed
    assert all(o["count"] is None for o in last.to_json()["options"])
    assert last.best is None and last.loss is None


# ---------------------------------------------------------------- the command


def test_review_writes_json_lines_for_the_examples(tmp_path: Path) -> None:
    out = tmp_path / "facts.jsonl"
    result = CliRunner().invoke(main, ["review", str(EXAMPLES), "-o", str(out)])
    assert result.exit_code == 0, result.output
    rows = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    files = {r["file"] for r in rows}
    assert len(files) >= 15 and {"discard", "call"} <= {r["kind"] for r in rows}
    games = {(r["file"], r["game"]) for r in rows}
    expected = sum(len([d for d in decisions(rec)]) for path, _ in sorted(games)
                   for rec in read_path(path)[:1])
    assert len(rows) == expected


def test_review_prints_a_summary_and_filters_a_player() -> None:
    path = str(EXAMPLES / "10-riichi-ura.mjn")
    result = CliRunner().invoke(main, ["review", path])
    assert result.exit_code == 0
    assert "E1-0" in result.output and "deal-in: Dai's 5z" in result.output
    only = CliRunner().invoke(main, ["review", path, "--player", "Ben"])
    assert "Ben:" in only.output and "Aoi:" not in only.output
    seat = CliRunner().invoke(main, ["review", path, "--seat", "0"])
    assert "Aoi:" in seat.output and "Ben:" not in seat.output


def test_review_of_a_corpus_file(tmp_path: Path) -> None:
    path = next(iter(sorted(corpus_paths("tenhou-xml"))), None)
    if path is None or not CORPUS.exists():
        pytest.skip("no Tenhou records in the corpus")
    out = tmp_path / "facts.jsonl"
    result = CliRunner().invoke(main, ["review", str(path), "-o", str(out)])
    assert result.exit_code == 0, result.output
    rows = out.read_text(encoding="utf-8").splitlines()
    assert len(rows) == len(decisions(read_path(str(path))[0]))


def test_review_of_bad_input_is_one_line(tmp_path: Path) -> None:
    bad = tmp_path / "bad.mjlog"
    bad.write_text("not a record\n", encoding="utf-8")
    result = CliRunner().invoke(main, ["review", str(bad)])
    assert result.exit_code == 2
    assert "Traceback" not in result.output and str(bad) in result.output

"""The Tenhou mjlog importer on small records written for the tests."""

from __future__ import annotations

import gzip
import os
import subprocess
import sys
from pathlib import Path

import pytest

from mjlog.core.diagnostics import InputError, Severity
from mjlog.core.events import (
    AddedKan,
    Chi,
    ClosedKan,
    Discard,
    Disconnect,
    DoraReveal,
    Draw,
    GameEnd,
    GameStart,
    Kita,
    OpenKan,
    Pon,
    Reconnect,
    RiichiAccepted,
    RoundEnd,
    RoundStart,
    Unknown,
    Win,
    YakuClaim,
)
from mjlog.core.tiles import Tile
from mjlog.formats import detect, read_bytes, read_path, tenhou_xml
from mjlog.formats.compression import gunzip
from mjlog.formats.tenhou_xml import decode_meld, ruleset_from_go

from .conftest import EXAMPLES, ROOT


def T(*ids: int) -> tuple[Tile, ...]:
    """Tile ids as a typed tuple."""
    return tuple(Tile(i) for i in ids)

HANDS = (
    "0,4,8,12,20,24,28,32,36,40,44,48,56",
    "1,5,9,13,21,25,29,33,37,41,45,49,57",
    "2,6,10,14,22,26,30,34,38,42,46,50,58",
    "3,7,11,15,23,27,31,35,39,43,47,51,59",
)
INIT = ('<INIT seed="1,2,1,0,5,100" ten="250,240,260,250" oya="1" '
        + " ".join(f'hai{i}="{h}"' for i, h in enumerate(HANDS)) + "/>")
MINI = (
    '<mjloggm ver="2.3"><SHUFFLE seed="mt19937ar-sha512-n288-base64,AAAA" ref=""/>'
    '<GO type="169" lobby="0"/><UN n0="%E3%81%82" n1="b" n2="c" n3="d" dan="16,17,18,20" '
    'rate="2000.5,2100,2200,2300" sx="M,F,M,C"/><TAIKYOKU oya="0"/>' + INIT
    + '<U60/><E60/><N who="2" m="50217"/><BYE who="3"/><UN n3="d"/><F61/>'
    '<W62/><REACH who="3" step="1"/><G62/><REACH who="3" ten="250,240,260,240" step="2"/>'
    '<T63/><D63/><MYSTERY x="1"/><U64/>'
    '<AGARI ba="2,2" hai="1,5,9,13,21,25,29,33,37,41,45,49,57,64" machi="64" ten="30,5800,1" '
    'yaku="0,1,8,1,52,2" doraHai="100" who="1" fromWho="1" sc="250,-20,240,62,260,-20,240,-20" '
    'owari="230,-7.0,302,50.2,240,-16.0,220,-27.2"/></mjloggm>'
)


def test_mini_record_events() -> None:
    rec = tenhou_xml.read(MINI.encode(), "mini")
    ev = rec.events
    assert [d.code for d in rec.diagnostics] == ["unknown-element"]
    assert rec.diagnostics[0].severity is Severity.INFO
    start = ev[0]
    assert isinstance(start, GameStart)
    assert [p.name for p in start.players] == ["あ", "b", "c", "d"]
    assert [p.rank for p in start.players] == ["七段", "八段", "九段", "天鳳"]
    assert start.players[1].rating == 2100.0 and start.players[3].sex == "C"
    assert start.ruleset.length == "south" and start.ruleset.red_fives
    assert ("go.type", "169") in start.meta and ("shuffle.ref", "") in start.meta
    rs = ev[1]
    assert isinstance(rs, RoundStart)
    assert (rs.round_wind, rs.round_number, rs.honba, rs.kyotaku) == (0, 2, 2, 1)
    assert rs.scores == (25000, 24000, 26000, 25000) and rs.dealer == 1
    assert rs.dice == (1, 6) and rs.dora_indicator == 100 and rs.hands[0][0] == 0
    assert ev[2] == Draw(player=1, tile=Tile(60))
    assert ev[3] == Discard(player=1, tile=Tile(60), tsumogiri=True)
    assert ev[4] == Pon(player=2, from_player=3, called=Tile(131), tiles=T(128, 130, 131))
    assert ev[5] == Disconnect(player=3)
    assert ev[6] == Reconnect(player=3, name="d")
    assert ev[7] == Discard(player=2, tile=Tile(61), tsumogiri=False)
    assert ev[9] == Discard(player=3, tile=Tile(62), tsumogiri=True, riichi=True)
    assert ev[10] == RiichiAccepted(player=3, scores=(25000, 24000, 26000, 24000))
    assert ev[13] == Unknown(tag="MYSTERY", attrs=(("x", "1"),))
    win = ev[15]
    assert isinstance(win, Win)
    assert win.winner == win.from_player == 1 and win.win_tile == 64
    assert win.yaku == (YakuClaim(name="menzen-tsumo", han=1), YakuClaim(name="tanyao", han=1),
                        YakuClaim(name="dora", han=2))
    assert (win.fu, win.han, win.points, win.limit) == (30, 4, 5800, "mangan")
    assert win.deltas == (-2000, 6200, -2000, -2000) and win.honba == 2 and win.kyotaku == 2
    assert isinstance(ev[16], RoundEnd) and ev[16].scores == (23000, 30200, 24000, 22000)
    assert ev[17] == GameEnd(scores=(23000, 30200, 24000, 22000), points=(-7.0, 50.2, -16.0, -27.2))
    assert len(ev) == 18 and rec.complete
    assert rec.src(4) is not None and rec.src(4).index == 7  # type: ignore[union-attr]


@pytest.mark.parametrize(("who", "m", "expected"), [
    # hand-decoded: pon of 6z (tiles 128,130,131) calling 131 from the player on the right
    (1, 50217, Pon(player=1, from_player=2, called=Tile(131), tiles=T(128, 130, 131))),
    # chi 1m2m3m calling the 1m (copy 0 of each) from the left
    (0, 0x4 | 3, Chi(player=0, from_player=3, called=Tile(0), tiles=T(0, 4, 8))),
    # the same run calling the 3m: (t*3 + 2) << 10
    (1, (2 << 10) | 0x4 | 3, Chi(player=1, from_player=0, called=Tile(8), tiles=T(0, 4, 8))),
    # closed kan of the four east winds
    (2, 108 << 8, ClosedKan(player=2, tiles=T(108, 109, 110, 111))),
    # open kan of 9p (ids 68..71) on the 70 from the player across
    (0, (70 << 8) | 2, OpenKan(player=0, from_player=2, called=Tile(70), tiles=T(68, 69, 70, 71))),
    # added kan on a pon of 6z whose unused copy (1) is added
    (1, 50217 - 0x8 + 0x10, AddedKan(player=1, from_player=2, called=Tile(131), added=Tile(129),
                                     tiles=T(128, 130, 131, 129))),
    # three-player kita of the north 121
    (0, (121 << 8) | 0x20, Kita(player=0, tile=Tile(121))),
])
def test_decode_meld(who: int, m: int, expected: object) -> None:
    assert decode_meld(who, m) == expected


def test_ruleset_from_go() -> None:
    r = ruleset_from_go(185)
    assert (r.players, r.length, r.red_fives, r.name) == (3, "south", True, "tenhou-sanma")
    r = ruleset_from_go(0x01 | 0x02 | 0x04)
    assert (r.players, r.length, r.red_fives, r.riichi.open_tanyao) == (4, "east", False, False)


def test_gzip_and_detection(example_xml: bytes) -> None:
    packed = gzip.compress(example_xml)
    assert detect(packed) == detect(example_xml) == "tenhou-xml"
    assert tenhou_xml.read(packed).events == tenhou_xml.read(example_xml).events
    with pytest.raises(InputError) as err:
        tenhou_xml.read(packed[:40], strict=True)
    assert err.value.diagnostic.code == "bad-gzip"


def test_a_cut_or_damaged_gzip_keeps_what_decompressed_before(example_xml: bytes) -> None:
    whole = tenhou_xml.read(example_xml)
    packed = gzip.compress(example_xml)
    cut = read_bytes(packed[:len(packed) * 2 // 3], "cut.mjlog.gz")[0]
    assert [d.code for d in cut.diagnostics][:2] == ["bad-gzip", "xml-syntax"]
    assert "what came before is read" in cut.diagnostics[0].message
    kept = [e for e in cut.events if isinstance(e, Discard)]
    assert 0 < len(kept) < sum(isinstance(e, Discard) for e in whole.events)
    assert cut.events[:len(kept)] == whole.events[:len(kept)]
    flipped = bytearray(packed)
    flipped[-6] ^= 0xFF  # the checksum: every byte decompressed, the stream is damaged
    damaged = read_bytes(bytes(flipped), "damaged.mjlog.gz")[0]
    assert damaged.diagnostics[0].code == "bad-gzip" and damaged.events == whole.events
    with pytest.raises(InputError) as err:  # nothing readable: the damage is the error
        read_bytes(packed[:12])
    assert err.value.diagnostic.code == "bad-gzip"


def test_gzip_members_and_a_bomb() -> None:
    two = gzip.compress(b"<mjloggm ") + gzip.compress(b'ver="2.3"/>')
    assert gunzip(two) == (b'<mjloggm ver="2.3"/>', None)
    bomb = gzip.compress(bytes(10 * 2**20))
    with pytest.raises(InputError) as err:
        gunzip(bomb, limit=2**20)
    assert err.value.diagnostic.code == "too-large"
    assert gunzip(bomb, limit=10 * 2**20) == (bytes(10 * 2**20), None)


def test_pretty_printed_with_comment_gives_lines(example_xml: bytes) -> None:
    text = example_xml.decode().replace("><", ">\n  <")
    rec = tenhou_xml.read(("<!-- a comment -->\n" + text).encode())
    plain = tenhou_xml.read(example_xml)
    assert rec.events == plain.events and not rec.diagnostics
    src = rec.src(1)
    assert src is not None and (src.line, src.index) == (6, 3)  # the INIT, after 5 lines


def test_malformed_xml_keeps_what_was_read(example_xml: bytes) -> None:
    text = example_xml.decode()
    cut = text.index("<D", 2000)
    broken = text[:cut] + "<D12 <<" + text[cut:]
    rec = tenhou_xml.read(broken.encode())
    first = rec.diagnostics[0]
    assert first.code == "xml-syntax" and first.src is not None
    assert first.src.line == 1 and first.src.column > cut
    assert len(rec.events) > 20  # the part before the damage is kept
    with pytest.raises(InputError):
        tenhou_xml.read(broken.encode(), strict=True)


def test_bad_attribute_skips_one_element() -> None:
    rec = tenhou_xml.read(MINI.replace('m="50217"', 'm="pon"').encode())
    codes = [d.code for d in rec.diagnostics]
    assert "bad-element" in codes
    bad = next(d for d in rec.diagnostics if d.code == "bad-element")
    assert bad.src is not None and bad.src.index == 7 and "m='pon'" in bad.message
    assert len(rec.events) == 17 and rec.complete


def test_truncated_record_gives_one_diagnostic(example_xml: bytes) -> None:
    text = example_xml.decode()
    cut = text.index("<AGARI")
    rec = tenhou_xml.read((text[:cut] + "</mjloggm>").encode())
    assert [d.code for d in rec.diagnostics] == ["truncated"]
    assert "before the round's result" in rec.diagnostics[0].message
    assert not rec.complete


def test_not_mjlog() -> None:
    rec = tenhou_xml.read(b"<html><body/></html>")
    assert [d.code for d in rec.diagnostics] == ["not-mjlog"] and not rec.events


def test_no_entity_expansion() -> None:
    evil = (b'<?xml version="1.0"?><!DOCTYPE r [<!ENTITY x SYSTEM "file:///etc/passwd">]>'
            b'<mjloggm ver="2.3"><GO type="9" lobby="&x;"/></mjloggm>')
    rec = tenhou_xml.read(evil)
    start = rec.events[0] if rec.events else None
    assert isinstance(start, GameStart)
    assert all("root:" not in v for _, v in start.meta)


def test_empty_owari_ends_the_game_without_scores() -> None:
    rec = tenhou_xml.read(MINI.replace('owari="230,-7.0,302,50.2,240,-16.0,220,-27.2"',
                                       'owari=""').encode())
    assert rec.events[-1] == GameEnd()
    assert "no-final-scores" in [d.code for d in rec.diagnostics]


def test_dora_reveal_and_three_players() -> None:
    hands = ['hai0="0,4,8,12,72,76,80,84,88,92,96,100,104"',
             'hai1="1,5,9,13,73,77,81,85,89,93,97,101,105"',
             'hai2="2,6,10,14,74,78,82,86,90,94,98,102,106"', 'hai3=""']
    xml = ('<mjloggm ver="2.3"><GO type="185" lobby="0"/><UN n0="a" n1="b" n2="c" n3="" '
           'dan="1,1,1,0" rate="1,1,1,0" sx="M,M,M,C"/><TAIKYOKU oya="0"/>'
           '<INIT seed="0,0,0,1,1,3" ten="350,350,350,0" oya="0" ' + " ".join(hands) + "/>"
           '<T120/><N who="0" m="30752"/><T121/><D121/><DORA hai="7"/></mjloggm>')
    rec = tenhou_xml.read(xml.encode())
    assert len(rec.events[0].players) == 3  # type: ignore[union-attr]
    rs = rec.events[1]
    assert isinstance(rs, RoundStart) and rs.scores == (35000, 35000, 35000)
    assert rec.events[3] == Kita(player=0, tile=Tile(120))
    assert rec.events[4] == Draw(player=0, tile=Tile(121), rinshan=True)
    assert rec.events[6] == DoraReveal(indicator=Tile(7))


# -- a record's DOCTYPE is never read: nothing it names is opened, nothing leaks

def _with_doctype(example_xml: bytes, system: str) -> bytes:
    doctype = f'<?xml version="1.0"?>\n<!DOCTYPE mjloggm SYSTEM "{system}">\n'.encode()
    return doctype + example_xml.replace(b'n0="', b'n0="&secret;', 1)


def _run(args: list[str], cwd: Path, stdin: int | None = None) -> tuple[int, str]:
    proc = subprocess.run([sys.executable, "-m", "mjlog.cli", *args], cwd=cwd, stdin=stdin,
                          capture_output=True, text=True, timeout=60,
                          env={**os.environ, "PYTHONPATH": str(ROOT)})
    return proc.returncode, proc.stdout + proc.stderr


@pytest.mark.slow  # twelve runs of the command in subprocesses: ~6 s
def test_a_dtd_naming_a_file_leaks_nothing_and_says_the_same_without_it(
        example_xml: bytes, tmp_path: Path) -> None:
    (tmp_path / "game.mjlog").write_bytes(_with_doctype(example_xml, "local.dtd"))
    seen = []
    for exists in (True, False):
        if exists:
            (tmp_path / "local.dtd").write_text('<!ENTITY secret "TOPSECRET">\n')
        else:
            (tmp_path / "local.dtd").unlink()
        outputs = [_run(["audit", "game.mjlog"], tmp_path),
                   _run(["audit", "game.mjlog", "--format", "json"], tmp_path)]
        for target in ("jsonl", "notation", "tenhou6", "mjai"):
            outputs.append(_run(["convert", "game.mjlog", "-t", target], tmp_path))
        assert all("TOPSECRET" not in text for _, text in outputs)
        seen.append(outputs)
    assert seen[0] == seen[1]  # the same text whether or not the named file exists
    assert "xml-dtd-refused" in seen[0][0][1] and "Entity 'secret' not defined" in seen[0][0][1]
    (rec,) = read_path(tmp_path / "game.mjlog")
    assert [d.code for d in rec.diagnostics][:2] == ["xml-dtd-refused", "xml-syntax"]
    assert rec.diagnostics[0].src is not None and rec.diagnostics[0].src.line == 2


def test_a_dtd_of_stdin_or_a_fifo_returns_at_once(example_xml: bytes, tmp_path: Path) -> None:
    fifo = tmp_path / "pipe.dtd"
    os.mkfifo(fifo)
    for i, system in enumerate(("/dev/stdin", str(fifo))):
        (tmp_path / f"g{i}.mjlog").write_bytes(_with_doctype(example_xml, system))
        # stdin is a pipe nobody writes to: reading it, or the FIFO, would block for ever
        status, text = _run(["audit", f"g{i}.mjlog"], tmp_path, stdin=subprocess.PIPE)
        assert status == 1 and "xml-dtd-refused" in text


def test_an_internal_subset_is_refused_with_what_follows_it_read(example_xml: bytes) -> None:
    text = b'<!-- a comment --><!DOCTYPE mjloggm [<!ENTITY a "x>y">]>' + example_xml
    rec = tenhou_xml.read(text)
    assert [d.code for d in rec.diagnostics] == ["xml-dtd-refused"]
    assert rec.events == tenhou_xml.read(example_xml).events


@pytest.mark.parametrize("digits", ["9" * 5000, "١", "1٣", "१२"])
def test_a_move_tag_with_odd_digits_skips_one_element(example_xml: bytes, digits: str) -> None:
    text = example_xml.decode()
    first = text.index("<T", text.index("<INIT"))
    end = text.index("/>", first)
    rec = tenhou_xml.read((text[:first] + f"<T{digits}" + text[end:]).encode())
    bad = [d for d in rec.diagnostics if d.code == "bad-element"]
    assert len(bad) == 1 and "not a tile number" in bad[0].message
    assert len(bad[0].message) < 120  # a long tag is cut in the message
    assert "internal-error" not in {d.code for d in rec.diagnostics} and rec.complete


def test_a_missing_go_with_three_names_is_a_three_player_game(example_xml: bytes) -> None:
    three = tenhou_xml.read(
        b'<mjloggm ver="2.3"><UN n0="A" n1="B" n2="C" n3=""/><TAIKYOKU oya="0"/>'
        b'<INIT seed="0,0,0,2,3,108" ten="350,350,350" oya="0" hai0="0,1,2,3,4,5,6,7,8,9,10,'
        b'11,12" hai1="13,14,15,16,17,18,19,20,21,22,23,24,25" hai2="26,27,28,29,30,31,32,33,'
        b'34,35,36,37,38"/></mjloggm>')
    start = three.events[0]
    assert isinstance(start, GameStart) and len(start.players) == 3
    assert start.ruleset.players == 3
    assert "three-player" in three.diagnostics[0].message


def test_a_record_too_large_for_one_game_is_refused_at_once(
        example_xml: bytes, tmp_path: Path) -> None:
    """17 MB of Tenhou XML (rounds repeated) is refused before it is parsed; the limit of a
    record can be lowered, and then holds for gzip too."""
    text = example_xml.decode()
    body = text[text.index("<INIT"):text.rindex("<RYUUKYOKU")]
    big = tmp_path / "big.mjlog"
    big.write_text(text.replace(body, body * (17 * 2**20 // len(body) + 1), 1))
    with pytest.raises(InputError) as err:
        read_path(big)
    assert err.value.diagnostic.code == "too-large"
    assert "for one game" in err.value.diagnostic.message
    small = tmp_path / "small.mjlog.gz"
    small.write_bytes(gzip.compress(example_xml * (2 * 2**20 // len(example_xml))))  # 2 MB
    proc = subprocess.run([sys.executable, "-m", "mjlog.cli", "--max-record-mb", "1", "audit",
                           str(small)], capture_output=True, text=True, check=False,
                          env={**os.environ, "PYTHONPATH": str(Path(__file__).parent.parent)})
    assert proc.returncode == 2 and "expands past 1 MB" in proc.stdout + proc.stderr


def test_an_element_with_endless_attributes_is_skipped_at_once(example_xml: bytes) -> None:
    """lxml reads a long attribute list in quadratic time (100,000 took minutes): an element
    with more than MAX_ATTRIBUTES is a bad element, and the rest of the record is read."""
    many = " ".join(f'a{i}="1"' for i in range(tenhou_xml.MAX_ATTRIBUTES + 1))
    rec = tenhou_xml.read(example_xml.replace(b"<GO ", f"<GO {many} ".encode(), 1))
    bad = [d for d in rec.diagnostics if d.code == "bad-element"]
    assert len(bad) == 1 and "259 attributes" in bad[0].message and bad[0].src is not None
    assert bad[0].src.index == 0 and rec.complete
    assert tenhou_xml.read(example_xml.replace(b"<GO ", b'<GO a1="1" ', 1)).complete


def test_a_tag_cut_at_the_end_of_a_download_is_never_read_as_a_move() -> None:
    """A record cut inside its last discard (``<E8`` of ``<E88/>``): the cut tag is
    dropped, with the syntax and truncation diagnostics, and no player is convicted of
    discarding a tile they do not hold."""
    from mjlog.core.events import Discard
    from mjlog.reports.audit import audit_record

    text = (EXAMPLES / "east-riichi.mjlog").read_bytes()
    at = text.index(b"<E", len(text) // 2)
    whole = tenhou_xml.read(text[:at])
    cut = tenhou_xml.read(text[:at + 3])  # "<E" and the tile's first digit
    assert [e for e in cut.events if isinstance(e, Discard)] == \
        [e for e in whole.events if isinstance(e, Discard)]
    assert {"xml-syntax", "truncated"} <= {d.code for d in cut.diagnostics}
    assert "discard-not-in-hand" not in {f.code for f in audit_record(cut).findings}

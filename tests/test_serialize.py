"""JSON Lines: exact round trips, the generated schema, and errors with positions."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import jsonschema
import pytest

from mjlog.core.events import Discard, Draw, Event, GameStart, discard_of, draw_of
from mjlog.core.ruleset import PRESETS
from mjlog.formats import detect, iter_path, jsontext, read_path, schema, serialize, tenhou_xml

from .conftest import EXAMPLES, ROOT


def _validator() -> jsonschema.Draft202012Validator:
    return jsonschema.Draft202012Validator(
        json.loads((ROOT / "schemas" / "events.schema.json").read_text(encoding="utf-8")))


def test_committed_schema_is_the_generated_one() -> None:
    committed = (ROOT / "schemas" / "events.schema.json").read_text(encoding="utf-8")
    assert committed == schema.render(), "run: python -m mjlog.formats.schema"
    jsonschema.Draft202012Validator.check_schema(json.loads(committed))


@pytest.mark.parametrize("name", ["east-ron", "east-riichi"])
def test_examples_round_trip_and_validate(name: str) -> None:
    rec = tenhou_xml.read((EXAMPLES / f"{name}.mjlog").read_bytes())
    text = "".join(serialize.write_lines(rec.events))
    assert text == (EXAMPLES / f"{name}.jsonl").read_text(encoding="utf-8")
    back = serialize.read(text.encode())
    assert len(back) == 1 and back[0].events == rec.events and not back[0].diagnostics
    v = _validator()
    for line in text.splitlines():
        v.validate(json.loads(line))
    assert detect(text.encode()) == "jsonl"


def test_defaults_are_left_out() -> None:
    assert serialize.dumps(Draw(player=1, tile=5)) == '{"type":"draw","player":1,"tile":5}'  # type: ignore[arg-type]


def test_a_draw_or_discard_line_at_speed_is_the_general_paths_line_and_event() -> None:
    events: list[Event] = []
    for p in range(4):
        for t in (0, 16, 135, 136, 144):
            events += [draw_of(p, t), draw_of(p, t, True)]
            events += [discard_of(p, t, giri, riichi)
                       for giri in (None, True, False) for riichi in (False, True)]
    odd_events: list[Event] = [Draw(player=True, tile=5), Draw(player=1, tile=5, rinshan=1),  # type: ignore[arg-type]
                               Discard(player=1, tile=5, tsumogiri=0),  # type: ignore[arg-type]
                               Discard(player=1, tile=5, riichi=1)]  # type: ignore[arg-type]
    for ev in [*events, *odd_events]:  # the writer's own fast path, and its way out
        assert serialize._common_line(ev) == serialize.dumps(ev) + "\n", ev
    written = [serialize.dumps(ev) for ev in events]
    odd = ['{"type":"draw","player":1,"tile":145}', '{"type":"draw","player":4,"tile":5}',
           '{"type":"draw","player":1,"tile":5,"tsumogiri":true}',
           '{"type":"discard","player":1,"tile":5,"rinshan":true}',
           '{"type":"draw","player":1,"tile":5,"riichi":true}',
           '{"type":"draw","player":1,"tile":05}', '{"type":"draw", "player":1,"tile":5}',
           '{"type":"discard","player":1,"tile":5,"riichi":false}']
    for line in [*written, *odd]:
        fast = serialize._compact(line)
        try:
            general: object = serialize.event_from_dict(json.loads(line))
        except ValueError as exc:  # bad JSON, or a ConversionError
            general = exc
        assert fast is None or fast == general, line
        if line in written:  # what the writer writes never takes the general path
            assert fast is not None and fast == general, line
    assert {serialize._compact(line) for line in odd} == {None}


def test_several_games_in_one_file() -> None:
    one = (EXAMPLES / "east-ron.jsonl").read_bytes()
    recs = serialize.read(one + b"\n" + one)
    assert len(recs) == 2 and recs[0].events == recs[1].events
    assert isinstance(recs[1].events[0], GameStart)
    assert recs[1].src(0) is not None and recs[1].src(0).line == one.count(b"\n") + 2  # type: ignore[union-attr]


@pytest.mark.parametrize(("line", "code", "where"), [
    ('{"type":"draw","player":1', "json-syntax", ("column", 26)),
    ('{"type":"teleport"}', "bad-event", ("path", "$.type")),
    ('{"type":"draw","player":"one","tile":5}', "bad-event", ("path", "$.player")),
    ('{"type":"draw","player":1,"tile":500}', "bad-event", ("path", "$.tile")),
    ('{"type":"draw","player":1}', "bad-event", ("path", "$")),
    ('{"type":"draw","player":1,"tile":5,"colour":"red"}', "bad-event", ("path", "$")),
    ('[1,2]', "bad-event", ("path", "$")),
])
def test_bad_lines_give_positions_and_the_rest_is_read(
    line: str, code: str, where: tuple[str, object]
) -> None:
    good = (EXAMPLES / "east-ron.jsonl").read_text(encoding="utf-8").splitlines()
    text = "\n".join([*good[:3], line, *good[3:]])
    recs = serialize.read(text.encode())
    assert len(recs) == 1
    [d] = recs[0].diagnostics
    assert d.code == code and d.src is not None and d.src.line == 4
    assert getattr(d.src, where[0]) == where[1]
    assert len(recs[0].events) == len(good)


def test_nested_path_in_error() -> None:
    good = (EXAMPLES / "east-ron.jsonl").read_text(encoding="utf-8").splitlines()
    obj = json.loads(good[1])
    obj["hands"][2][5] = "5m"
    [d] = serialize.read("\n".join([good[0], json.dumps(obj)]).encode())[0].diagnostics
    assert d.src is not None and d.src.path == "$.hands[2][5]"


def test_not_utf8() -> None:
    [rec] = serialize.read(b'{"type":"draw"}\xff\xfe')
    assert rec.diagnostics[0].code == "bad-encoding"


def test_schema_rejects_what_the_reader_rejects(tmp_path: Path) -> None:
    v = _validator()
    assert not v.is_valid({"type": "draw", "player": 1, "tile": 500})
    assert not v.is_valid({"type": "draw", "player": 1})
    assert v.is_valid({"type": "draw", "player": 1, "tile": 5})


def test_the_ruleset_is_flat_in_json_and_nonsense_is_refused() -> None:
    kansaki = PRESETS["kansaki"].with_options(sakizuke_all_calls=True)
    obj = serialize.ruleset_to_dict(kansaki)
    assert obj["sakizuke"] is True and obj["sakizuke_all_calls"] is True
    assert serialize.ruleset_from_dict(obj, "$.ruleset") == kansaki
    taiwan = PRESETS["taiwan16"].with_options(tw_base=100)
    obj = serialize.ruleset_to_dict(taiwan)
    assert "ippatsu" not in obj and obj["tw_base"] == 100
    # what earlier versions wrote into a taiwan16 ruleset reads as the same ruleset
    legacy = {**obj, "ippatsu": False, "kuikae": "allowed", "riichi_min_score": 0}
    assert serialize.ruleset_from_dict(legacy, "$.ruleset") == taiwan
    for bad in ({**obj, "kuikae": "same"}, {"tw_base": 60}, {"sakizuke_flush": False}):
        with pytest.raises(serialize.ConversionError, match="option of"):
            serialize.ruleset_from_dict(bad, "$.ruleset")


def test_every_example_written_down_goes_through_json_lines_and_back() -> None:
    """Notation examples, partial records (unknown tiles, 144) and Taiwanese games included:
    the JSON Lines mjlog writes, it reads back to the same events without a diagnostic."""
    for path in sorted(EXAMPLES.glob("*.mjn")):
        for rec in read_path(path):
            text = "".join(serialize.write_lines(rec.events))
            (back,) = serialize.read(text.encode(), path.name)
            assert back.diagnostics == [] and back.events == rec.events, path.name


def _games(n: int) -> bytes:
    one = (EXAMPLES / "east-ron.jsonl").read_bytes()
    return one * n


def test_a_file_of_many_games_is_read_one_game_at_a_time(tmp_path: Path) -> None:
    """iter_path gives the games read_path gives, and the reader yields each game as soon
    as the next begins: it has consumed one line past the first game when it yields it."""
    many = tmp_path / "many.jsonl"
    many.write_bytes(_games(5))
    assert list(iter_path(many)) == read_path(many)
    consumed = 0

    def counted() -> Iterator[tuple[int, str, Exception | None]]:
        nonlocal consumed
        for line in jsontext.text_lines(_games(3)):
            consumed += 1
            yield line

    games = serialize.read_lines(counted())
    first = next(games)
    per_game = len((EXAMPLES / "east-ron.jsonl").read_bytes().splitlines())
    assert len(first.events) == per_game and consumed == per_game + 1
    assert len(list(games)) == 2


def test_a_line_too_long_is_refused_at_its_line_and_the_rest_read(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(jsontext, "LINE_LIMIT", 4096)
    lines = (EXAMPLES / "east-ron.jsonl").read_bytes().splitlines(keepends=True)
    long = b'{"type":"comment","text":"' + b"x" * 10_000 + b'"}\n'
    path = tmp_path / "long.jsonl"
    path.write_bytes(b"".join([*lines[:5], long, *lines[5:]]))
    (rec,) = list(iter_path(path))
    assert [(d.code, d.src.line if d.src else 0) for d in rec.diagnostics] == [("too-large", 6)]
    assert len(rec.events) == len(lines) and rec.complete

"""``mjlog find``: the query language, the exact route on records, the fast route on a facts
folder (equal to the exact one), the output, and the shared corpus counted against its
index."""

from __future__ import annotations

import csv
import io
import json
import re
from collections import Counter
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from mjlog.cli import main
from mjlog.core.events import ClosedKan
from mjlog.formats import expand, read_path
from mjlog.reports.view.model import game_view
from mjlog.stats import Filters, summarize
from mjlog.stats.find.command import placed, query_of
from mjlog.stats.find.exact import CHECKS, search_records
from mjlog.stats.find.fast import NeedsRecords, search_facts, split_source
from mjlog.stats.find.match import Match, page_name
from mjlog.stats.find.output import render, write
from mjlog.stats.find.query import QueryError, parse

from .conftest import CORPUS, CORPUS_MISSING, EXAMPLES

PANTHEON = CORPUS / "tenhou-xml/MahjongPantheon-pantheon/Mimir/tests/helpers/onlineLog/testdata"
SEMINAR = CORPUS / "tenhou-xml/Riichi-Mahjong-Statistics-Seminar-tenhou-paifu-to-json/samples"
MJX = CORPUS / "tenhou-xml/mjx-project-mjx/tests_py/resources/mjlog"


def run(*args: str) -> tuple[int, str, str]:
    """The command's exit status, standard output and standard error."""
    result = CliRunner().invoke(main, list(args))
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    return result.exit_code, result.stdout, result.stderr


def find(paths: Sequence[Path | str], text: str) -> list[Match]:
    """The exact route's matches; fails on a file it could not read."""
    out = list(search_records(list(expand(paths)), parse(text)))
    assert all(isinstance(m, Match) for m in out), out
    return [m for m in out if isinstance(m, Match)]


def need_corpus() -> None:
    if not (CORPUS / "_index.tsv").exists():
        pytest.skip(CORPUS_MISSING)


# ------------------------------------------------------------------ the query


@pytest.mark.parametrize("text", [
    "yakuman", "yaku=kokushi limit>=haneman", "ron>=2 and date>=2022-01-01, platform=tenhou",
    'dealin>=12000 player="A B"', "draw=kaze4", "kan-after-riichi code=furiten-ron",
    "yaku=国士無双", "yaku=KokushiMusou", "limit=kazoe", "date=2022-01", "double-ron nagashi"])
def test_queries_parse(text: str) -> None:
    q = parse(text)
    assert q.terms and all(t.column >= 1 for t in q.terms)


def test_names_are_read_as_mjlogs() -> None:
    assert {t.value for t in parse("yaku=国士無双 yaku=KOKUSHI yaku=KokushiMusou").terms} == {
        "kokushi"}
    assert parse("draw=九種九牌").terms[0].value == "nine-terminals"
    assert parse("draw=ron3").terms[0].value == "triple-ron"
    assert parse("limit=kazoe").terms[0].value == "counted-yakuman"
    assert [(t.field, t.op, t.value) for t in parse("double-ron").terms] == [("ron", ">=", "2")]
    assert parse('player="a \\"b\\" c"').terms[0].value == 'a "b" c'


@pytest.mark.parametrize(("text", "column", "words"), [
    ("yakumn", 1, "closest: yakuman"),
    ("yakuman dealin>=12k", 17, "whole number"),
    ("ron=>2", 5, "ron= needs a value, found '>'"),
    ("ron>=", 6, "ron>= needs a value"),
    ("yaku=kokushy", 6, "closest: kokushi"),
    ("limit>=haneman and date>=2022-13-01", 26, "date"),
    ("draw>four-winds", 5, "draw takes = !="),
    ('player="open', 8, "unclosed quote"),
    ("   ", 1, "empty"),
    ("yakuman , , limit", 13, "limit needs an operator"),
    ("code=furiten", 6, "closest: furiten-ron"),
    ("colour=red", 1, "unknown field"),
])
def test_a_mistake_is_one_line_with_its_column(text: str, column: int, words: str) -> None:
    with pytest.raises(QueryError) as info:
        parse(text)
    assert info.value.column == column
    assert words in str(info.value)
    assert "\n" not in str(info.value) and str(info.value).startswith(f"at column {column}:")


def test_a_mistake_on_the_command_line_is_one_line_and_status_2() -> None:
    code, _, err = run("find", str(EXAMPLES), "-w", "yakuman", "-w", "dealin>=x")
    assert (code, err) == (2, "Error: --where #2: at column 9: expected a whole number, "
                              "found 'x'\n")
    code, _, err = run("find", str(EXAMPLES), "-w", "yakuman ron")
    assert (code, err) == (2, "Error: --where: at column 9: ron needs an operator and a value, "
                              "e.g. ron>=2\n")


def test_several_wheres_are_joined() -> None:
    q = query_of(["yakuman", "ron>=2"])
    assert [t.field for t in q.terms] == ["yakuman", "ron"]


# ------------------------------------------------------------------ exact route, examples


def test_a_kan_after_riichi_is_found_at_the_viewers_step() -> None:
    path = EXAMPLES / "06-kan-after-riichi.mjn"
    [m] = find([path], "kan-after-riichi")
    rec = read_path(path)[0]
    view = game_view(rec)
    kan = next(i for i, e in enumerate(rec.events) if isinstance(e, ClosedKan))
    assert m.step is not None and view["steps"][m.step]["e"] == kan
    assert (m.round, m.kind, m.player, m.link) == (
        "E1-0", "kan", "Ben", f"06-kan-after-riichi.html#step={m.step}")
    assert m.turn == _turn_at(view["steps"], m.step)


def test_a_finding_is_placed_where_the_viewer_places_it() -> None:
    path = EXAMPLES / "18-furiten-riichi-ron.mjn"
    [m] = find([path], "code=furiten-ron")
    [f] = [f for f in game_view(read_path(path)[0])["findings"] if f["code"] == "furiten-ron"]
    assert (m.step, m.seat, m.kind) == (f["step"], f["seat"], "finding")
    assert m.what.startswith("furiten-ron: ")


def test_an_abortive_draw_and_terms_that_fail() -> None:
    [m] = find([EXAMPLES], "draw=nine-terminals")
    assert (Path(m.source).name, m.round, m.kind, m.what) == (
        "08-nine-terminals.mjn", "E1-0", "round", "draw: nine-terminals")
    assert find([EXAMPLES], "draw=九種九牌 player=Nobody") == []
    assert find([EXAMPLES], "draw=nine-terminals date>=2000") == []  # no date: no match


def test_deal_ins_by_value() -> None:
    found = find([EXAMPLES], "dealin>=8000")
    assert found and all(" ron from " in m.what and m.kind == "win" for m in found)
    values = {int(re.search(r": ([\d,]+)", m.what)[1].replace(",", "")) for m in found}  # type: ignore[index]
    assert min(values) >= 8000
    lower = find([EXAMPLES], "dealin>=1000")
    assert {m.key() for m in found} < {m.key() for m in lower}


def test_a_game_term_alone_lists_games() -> None:
    path = EXAMPLES / "06-kan-after-riichi.mjn"
    found = find([path], "player=Ben")
    assert [(m.kind, m.game, m.round) for m in found] == [("game", 1, "")]
    view = game_view(read_path(path)[0])
    assert found[0].step == view["rounds"][0][2]  # the first deal, where the page opens


# ------------------------------------------------------------------ exact route, corpus


def _labels_of_wins(path: Path) -> list[str]:
    """Each AGARI's round label, read from the XML itself (INIT seed: round, honba)."""
    text = path.read_text("utf-8").replace("\n", " ")
    out, label = [], ""
    for tag in re.finditer(r"<(INIT|AGARI)\b[^>]*>", text):
        if tag[1] == "INIT":
            r, honba = (int(x) for x in re.search(r'seed="(\d+),(\d+)', tag[0]).groups())  # type: ignore[union-attr]
            label = f"{'ESWN'[r // 4]}{r % 4 + 1}-{honba}"
        else:
            out.append(label)
    return out


def _turn_at(steps: list[dict[str, Any]], i: int) -> int:
    while "t" not in steps[i]:
        i -= 1
    return int(steps[i]["t"])


@pytest.mark.parametrize(("path", "query", "count"), [
    (PANTHEON / "tripleyakuman.xml", "yakuman", 1),
    (SEMINAR / "fukugou.xml", "yakuman", 2),
    (PANTHEON / "doubleron.xml", "yakuman", 2),
    (MJX / "double-ron.mjlog", "ron>=2", 1),
    (PANTHEON / "doubleron_and_riichi.xml", "double-ron", 1),
])
def test_corpus_games_with_known_wins(path: Path, query: str, count: int) -> None:
    """The round label is the XML's own; the step is the viewer's result of that win."""
    need_corpus()
    found = find([path], query)
    assert len(found) == count
    view = game_view(read_path(path)[0])
    labels = _labels_of_wins(path)
    for m in found:
        assert m.round in labels and m.step is not None and m.turn is not None
        res = view["steps"][m.step]["res"]
        assert res["kind"] == "win"
        assert view["labels"][m.step] == m.round
        assert m.turn == _turn_at(view["steps"], m.step)
        if m.kind == "win":
            assert res["winner"] == m.seat
    if query == "yakuman" and path.name == "tripleyakuman.xml":
        assert found[0].yakuman == 3


# ------------------------------------------------------------------ fast route


SAMPLE_QUERIES = ["yakuman", "ron>=2", "ron=1", "draw=abortive", "draw=four-winds", "nagashi",
                  "dealin>=12000", "limit>=haneman", "limit=counted-yakuman", "yaku=riichi",
                  "yaku!=riichi limit=mangan", "yakuman ron>=2", "date>=2022-01-05",
                  "date<=2010", "platform=tenhou ron>=2", "draw!=exhaustive ron=0"]


@pytest.fixture(scope="module")
def sample(tmp_path_factory: pytest.TempPathFactory) -> tuple[list[str], Path]:
    """A few corpus records with yakuman, double ron and draws, their facts folder."""
    need_corpus()
    files = [PANTHEON / n for n in ("tripleyakuman.xml", "doubleron.xml", "four_wind_draw.xml",
                                    "nagashi.xml", "triple_ron_draw.xml", "pao_ron.xml")]
    files += [SEMINAR / "fukugou.xml", MJX / "double-ron.mjlog"]
    logs = sorted((CORPUS / "tenhou-xml/thewaxmango-mahjong-hands/log-libraries/logs").iterdir())
    files += logs[:12]
    files += [CORPUS / "tenhou-json/MahjongPantheon-pantheon/Mimir/tests/helpers/onlineLog/"
              "testdata/format6/doubleron.json"]
    inputs = [str(f) for f in files]
    folder = tmp_path_factory.mktemp("find") / "facts"
    summarize(inputs, facts_dir=folder, dedupe=False, filters=Filters(include_incomplete=True))
    return inputs, folder


@pytest.mark.parametrize("text", SAMPLE_QUERIES)
def test_the_fast_route_equals_the_exact_route(sample: tuple[list[str], Path],
                                               text: str) -> None:
    inputs, folder = sample
    exact = find(list(inputs), text)
    fast = search_facts(folder, parse(text))
    assert sorted(m.key() for m in fast) == sorted(m.key() for m in exact)
    assert sorted((m.key(), m.yakuman, m.player) for m in fast) == sorted(
        (m.key(), m.yakuman, m.player) for m in exact)


@pytest.mark.parametrize("text", ["yakuman", "ron>=2", "draw=abortive"])
def test_steps_for_a_facts_folder_are_the_exact_routes(sample: tuple[list[str], Path],
                                                       text: str) -> None:
    inputs, folder = sample
    fast = search_facts(folder, parse(text))
    unreadable: list[str] = []
    found = placed(fast, parse(text), 1, CHECKS, unreadable)
    assert unreadable == [] and found and all(m.step is not None for m in found)
    assert sorted(found, key=Match.key) == sorted(find(inputs, text), key=Match.key)


def test_a_player_on_the_fast_route(sample: tuple[list[str], Path]) -> None:
    inputs, folder = sample
    name = find([inputs[0]], "yakuman")[0].player
    fast = search_facts(folder, parse(f'player="{name}" yakuman'))
    assert fast and {m.key() for m in fast} == {m.key() for m in find(inputs,
                                                                    f'player="{name}" yakuman')}


def test_a_tenhou_guest_is_found_by_the_records_name(tmp_path: Path) -> None:
    """Statistics name each guest apart; find takes the record's name on both routes."""
    need_corpus()
    inputs = [str(PANTHEON.parent.parent.parent / "models/testdata/hanchan_with_noname.xml"),
              str(PANTHEON / "doubleron.xml")]
    summarize(inputs, facts_dir=tmp_path / "f", dedupe=False,
              filters=Filters(include_incomplete=True))
    for text in ("player=NoName", "player!=NoName", "player=NoName ron=1"):
        exact = find(inputs, text)
        assert exact and {m.key() for m in search_facts(tmp_path / "f", parse(text))} == {
            m.key() for m in exact}


def test_the_facts_cannot_answer_kans_and_findings(sample: tuple[list[str], Path]) -> None:
    _, folder = sample
    with pytest.raises(NeedsRecords, match="give the records instead"):
        search_facts(folder, parse("kan-after-riichi"))
    code, out, err = run("find", str(folder), "-w", "code=furiten-ron")
    assert code == 2 and out == "" and err.count("\n") == 1


def test_the_command_takes_a_facts_folder(sample: tuple[list[str], Path]) -> None:
    _, folder = sample
    code, out, _ = run("find", str(folder), "-w", "yakuman", "--format", "json")
    rows = json.loads(out)
    assert code == 0 and rows and all(r["kind"] == "win" and r["step"] is None for r in rows)
    assert all(r["link"].endswith(".html") for r in rows)


def test_split_source() -> None:
    assert split_source("a/b.mjlog") == ("a/b.mjlog", 1)
    assert split_source("a/b#c.jsonl#3") == ("a/b#c.jsonl", 3)


# ------------------------------------------------------------------ output and links


HOSTILE = Match(source="logs/\x1b]52;c;x\x07.mjn", game=1, round="E1-0", turn=3, step=5,
                kind="win", seat=0, player="=HYPERLINK(\"http://x\")",
                what="=HYPERLINK(\"http://x\") tsumo", link="x.html#step=5")


def test_text_is_escaped_for_the_terminal() -> None:
    text = render([HOSTILE], "text")
    assert "\x1b" not in text and "\x07" not in text and "\\x1b" in text
    assert text.count("\n") == 1


def test_csv_is_escaped_against_formulas(tmp_path: Path) -> None:
    out = tmp_path / "m.csv"
    write([HOSTILE], "csv", out)
    [row] = list(csv.DictReader(io.StringIO(out.read_text("utf-8"))))
    assert row["player"].startswith("'=") and row["what"].startswith("'=")
    assert row["step"] == "5" and row["round"] == "E1-0"


def test_json_and_csv_from_the_command(tmp_path: Path) -> None:
    code, out, err = run("find", str(EXAMPLES), "-w", "kan-after-riichi", "--format", "json",
                         "-o", str(tmp_path / "k.json"), "--pages", "pages")
    [row] = json.loads((tmp_path / "k.json").read_text("utf-8"))
    assert code == 0 and row["link"] == f"pages/06-kan-after-riichi.html#step={row['step']}"
    assert (out, err) == ("", "1 match in 1 game of 1 file\n")
    code, out, err = run("find", str(EXAMPLES), "-w", "yakuman")
    assert (code, out, err) == (1, "", "0 matches in 0 games of 0 files\n")


def test_records_in_an_archive_and_a_folder_link_to_view_s_pages(tmp_path: Path) -> None:
    """The link names the page `mjlog view INPUT -o pages/` writes for the game."""
    import zipfile

    with zipfile.ZipFile(tmp_path / "t.zip", "w") as z:
        z.write(EXAMPLES / "06-kan-after-riichi.mjn", "sub/06-kan-after-riichi.mjn")
    code, out, _ = run("find", str(tmp_path / "t.zip"), str(EXAMPLES), "-w",
                       "kan-after-riichi", "--format", "json", "--jobs", "2")
    rows = json.loads(out)
    assert code == 0 and [r["link"].split("#")[0] for r in rows] == [
        "t.zip/sub/06-kan-after-riichi.html", "06-kan-after-riichi.html"]
    assert rows[0]["source"].endswith("t.zip!sub/06-kan-after-riichi.mjn")
    assert rows[0]["step"] == rows[1]["step"]
    view = tmp_path / "pages"
    assert run("view", str(tmp_path / "t.zip"), "-o", str(view))[0] == 0
    assert (view / rows[0]["link"].split("#")[0]).is_file()


def test_an_output_never_replaces_an_input(tmp_path: Path) -> None:
    record = tmp_path / "logs" / "a.mjn"
    record.parent.mkdir()
    record.write_bytes((EXAMPLES / "06-kan-after-riichi.mjn").read_bytes())
    for named in (record, record.parent):
        code, _, err = run("find", str(named), "-w", "kan-after-riichi", "-o", str(record))
        assert code == 2 and "is an input; nothing was written" in err
        assert record.read_bytes() == (EXAMPLES / "06-kan-after-riichi.mjn").read_bytes()


def test_page_names_follow_mjlog_view() -> None:
    assert page_name("logs/a/b.mjlog", 1, 1, [("logs", False)]) == "a/b.html"
    assert page_name("logs/a/b.jsonl", 2, 3, [("logs", False)]) == "a/b-game2.html"
    assert page_name("b.mjlog", 1, 1, []) == "b.html"
    assert page_name("x/t.zip!in/c.xml", 1, 1, [("x/t.zip", True)]) == "t.zip/in/c.html"


# ------------------------------------------------------------------ the whole corpus


NOTED: dict[str, tuple[str, ...]] = {"yakuman_agari": ("tenhou-xml",),
                                     "multi_ron": ("tenhou-xml", "tenhou-json"),
                                     "kan_after_riichi": ("tenhou-xml",)}
"""The formats whose rows of ``_index.tsv`` carry each note. The other rows' notes are of
another kind: an mjai row counts its events (``hora:14`` over ``start_kyoku:13``), a
tenhou.net/6 JSON-lines row of mjx is the conversion of an mjlog whose own row has the
note, a tenhou.net/6 JSON row (and the JSON twin of Pantheon's ``regress/hanchan.xml``,
which lies among the XML files) names its special results only (三家和了 …)."""


def _index_rows() -> list[list[str]]:
    need_corpus()
    return [line.split("\t") for line in
            (CORPUS / "_index.tsv").read_text("utf-8").splitlines()[1:]]


def _as_index(rows: list[list[str]], note: str, found: Iterable[Match | str]) -> None:
    """Every file's count equals the index's note, exactly, over the rows of the formats
    that carry it; a file of another format found too is explained (:data:`NOTED`)."""
    got: Counter[str] = Counter()
    for m in found:
        assert isinstance(m, Match), m
        got[Path(m.source).relative_to(CORPUS).as_posix()] += (
            m.yakuman if note == "yakuman_agari" else 1)
    fmt = {r[0]: r[1] for r in rows}
    want: Counter[str] = Counter()
    for r in rows:
        notes = dict(x.split("=", 1) for x in r[9].split(";") if "=" in x)
        if note in notes:
            want[r[0]] = int(notes[note])
    assert Counter({p: n for p, n in got.items() if fmt[p] in NOTED[note]}) == want
    if note == "multi_ron":
        for p in (p for p in got if fmt[p] not in NOTED[note]):
            twin = [q for q in want if Path(q).stem.split("&")[0] == Path(p).stem]
            events = dict(x.split(":") for x in rows[[r[0] for r in rows].index(p)][9]
                          .removeprefix("events=").split(",") if ":" in x)
            assert twin or int(events.get("hora", 0)) > int(events.get("start_kyoku", 0)), p


QUERIES_OF = (("yakuman_agari", "yakuman"), ("multi_ron", "ron>=2"))


@pytest.mark.slow
@pytest.mark.parametrize(("note", "text"), [*QUERIES_OF,
                                            ("kan_after_riichi", "kan-after-riichi")])
def test_every_yakuman_and_double_ron_of_the_corpus(note: str, text: str) -> None:
    """The exact route over every file of the index: ``yakuman_agari`` counts the yakuman
    ids of each ``AGARI`` (a triple yakuman is 3), ``multi_ron`` the rounds with several
    ``AGARI``, ``kan_after_riichi`` the kans after a ``REACH``."""
    rows = _index_rows()
    _as_index(rows, note, search_records([(str(CORPUS / r[0]), False) for r in rows],
                                         parse(text), jobs=2))


@pytest.mark.slow
def test_the_fast_route_counts_the_corpus_as_the_index(tmp_path: Path) -> None:
    """The same counts from a facts folder of every file of the index (every game kept)."""
    rows = _index_rows()
    summarize([str(CORPUS / r[0]) for r in rows], facts_dir=tmp_path / "facts", dedupe=False,
              filters=Filters(include_incomplete=True), jobs=2)
    for note, text in QUERIES_OF:
        _as_index(rows, note, search_facts(tmp_path / "facts", parse(text)))

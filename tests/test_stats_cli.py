"""``mjlog stats`` as a user meets it: a table that fits, chosen metrics, sorting, every
output format, a clear message when nothing matched, and fact tables that never mix runs.

Each test here stands for a defect found by using the command: numbers broken mid-value in
a squeezed box, one-game players in name order, a silent empty table, facts of two runs in
one folder, tables that disagreed on which games they hold.
"""

from __future__ import annotations

import csv
import io
import json
import re
from pathlib import Path

import polars as pl
import pytest
from click.testing import CliRunner

from mjlog.cli import main
from mjlog.formats import serialize

from .conftest import EXAMPLES
from .test_stats import game_one, game_three

GENERATED = sorted(str(p) for p in EXAMPLES.glob("east-*.mjlog"))


def run(*args: str, columns: int = 100) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, list(args), env={"COLUMNS": str(columns)})
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    return result.exit_code, result.stdout, result.stderr


@pytest.fixture
def games(tmp_path: Path) -> Path:
    """Two complete games of our own (A B C D) as JSON Lines."""
    folder = tmp_path / "games"
    folder.mkdir()
    for name, rec in (("one", game_one()), ("three", game_three())):
        (folder / f"{name}.jsonl").write_text("".join(serialize.write_lines(rec.events)),
                                             "utf-8")
    return folder


@pytest.mark.parametrize("columns", [60, 80, 160])
def test_the_table_fits_the_terminal_and_keeps_numbers_whole(games: Path, columns: int) -> None:
    code, out, _ = run("stats", str(games), "--metrics", "all", columns=columns)
    assert code == 0
    body = out.split("\nconventions:")[0]
    assert max(len(line) for line in body.splitlines()) <= columns
    assert "50.0% [" in out and "2,000" in out  # rates as percentages, points with commas
    for value in re.findall(r"\d[\d,.]*%?", body):  # no number cut at a line's end
        assert not value.endswith((",", "."))


def test_metrics_sets_sort_and_min_games(games: Path) -> None:
    code, out, _ = run("stats", str(games), "--metrics", "riichi", "--sort", "riichi_rate",
                       columns=250)
    assert code == 0 and "first_riichi_rate" in out and " win_rate " not in out
    names = [line.split(" · ")[0] for line in out.splitlines() if " · 4p" in line]
    assert names[0] == "B" and sorted(names[1:]) == ["A", "C", "D"], out  # 25%, then 12.5%
    code, out, _ = run("stats", str(games), "--sort", "riichi_rate:asc", "--format", "csv")
    rows = pl.read_csv(io.StringIO(out))
    assert rows["riichi_rate"].to_list() == sorted(rows["riichi_rate"].to_list())
    code, out, err = run("stats", str(games), "--min-games", "3")
    assert code == 0 and "4 groups with fewer than 3 games left out" in out
    code, _, err = run("stats", str(games), "--metrics", "win_rte")
    assert code == 2 and "did you mean win_rate" in err
    code, _, err = run("stats", str(games), "--sort", "colour")
    assert code == 2 and "cannot sort by 'colour'" in err


@pytest.mark.parametrize("name", ["deal_in_rate", "deal_in_rate__double_ron_once",
                                  "deal_in_rate[double-ron=once]"])
def test_columns_are_sql_names_and_sort_takes_every_name_of_one(games: Path, name: str) -> None:
    """A metric's column is named in letters, digits and underscores (its convention after
    two underscores); --sort takes the metric's name, its column's, or the former
    bracketed one."""
    code, out, _ = run("stats", str(games), "--sort", name + ":asc", "--format", "csv")
    assert code == 0
    rows = pl.read_csv(io.StringIO(out))
    assert all(re.fullmatch(r"[a-z0-9_]+", c) for c in rows.columns), rows.columns
    values = rows["deal_in_rate__double_ron_once"].to_list()
    assert values == sorted(values) and len(values) == 4


@pytest.mark.parametrize("fmt", ["csv", "json", "markdown", "parquet", "table"])
def test_every_format_to_standard_output(games: Path, fmt: str) -> None:
    result = CliRunner().invoke(main, ["stats", str(games), "--format", fmt, "-o", "-"])
    assert result.exit_code == 0, result.output
    raw = result.stdout_bytes
    if fmt == "parquet":
        df = pl.read_parquet(io.BytesIO(raw))
    elif fmt == "csv":
        df = pl.read_csv(io.BytesIO(raw))
    elif fmt == "json":
        df = pl.DataFrame(json.loads(raw))
    else:
        text = raw.decode()
        assert ("| group |" in text) == (fmt == "markdown") and "A · 4p" in text
        return
    assert df.height == 4 and {"win_rate", "win_rate_lo", "win_rate_hi", "stable_dan"} <= set(
        df.columns)  # files get every metric, raw, with intervals


def test_nothing_matched_says_why_and_exits_1(games: Path, tmp_path: Path) -> None:
    code, out, err = run("stats", str(games), "--player", "Aa", "--player", "D")
    assert code == 0 and "D · 4p" in out  # one of the two exists
    code, out, err = run("stats", str(games), "--player", "Bee")
    assert code == 1 and "no player named 'Bee'" in err and "closest: B" in err and not out
    code, _, err = run("stats", str(games), "--room", "houuo")
    assert code == 1 and "no room named 'houuo'" in err
    partial = tmp_path / "partial.jsonl"
    partial.write_text("".join(serialize.write_lines(game_one().events[:-1])), "utf-8")
    code, _, err = run("stats", str(partial))
    assert code == 1 and "try --include-incomplete" in err
    code, out, _ = run("stats", str(partial), "--include-incomplete")
    assert code == 0 and "A · 4p" in out


def test_facts_never_mix_runs_and_hold_the_same_games(games: Path, tmp_path: Path) -> None:
    facts = tmp_path / "facts"
    code, _, _ = run("stats", str(games), "--facts", str(facts))
    assert code == 0
    manifest = json.loads((facts / "_manifest.json").read_text("utf-8"))
    assert manifest["facts_version"] == 2 and manifest["games_read"] == 2
    assert len(manifest["files"]) == 2 and manifest["options"]["options"]["double_ron"] == "once"
    ids = {t: set(pl.read_parquet(facts / t)["game_id"]) for t in
           ("games", "rounds", "player_rounds", "wins", "yaku")}
    assert all(v == ids["games"] for v in ids.values()) and len(ids["games"]) == 2
    before = sorted(p.name for p in facts.rglob("*"))
    code, _, err = run("stats", *GENERATED, "--facts", str(facts))
    assert code == 2 and "--overwrite" in err
    assert sorted(p.name for p in facts.rglob("*")) == before  # untouched
    code, _, _ = run("stats", *GENERATED, "--facts", str(facts), "--overwrite")
    assert code == 0
    assert pl.read_parquet(facts / "games")["source"].str.contains("east-").all()
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []


def test_tenhou6_records_know_their_room_and_platform(tmp_path: Path) -> None:
    out = tmp_path / "ron.json"
    code, _, _ = run("convert", str(EXAMPLES / "east-ron.mjlog"), "-t", "tenhou6", "-o", str(out))
    assert code == 0
    facts = tmp_path / "facts"
    run("stats", str(out), str(EXAMPLES / "east-ron.mjlog"), "--facts", str(facts),
        "--keep-duplicates")
    games = pl.read_parquet(facts / "games").unique("source").sort("source")
    assert games["room"].to_list()[0] == games["room"].to_list()[1] != "tenhou6"
    assert games["platform"].to_list() == ["tenhou", "tenhou"]


def test_yaku_frequencies_by_hand(games: Path) -> None:
    """D won three times: tanyao (game one's E1); riichi, ippatsu, menzen-tsumo, tanyao and
    an ura dora (E4-1); kokushi (game three). Dora are counts of a win, not yaku."""
    code, out, _ = run("stats", str(games), "--yaku", "--player", "D", "--format", "csv")
    assert code == 0
    df = pl.read_csv(io.StringIO(out))
    shares = dict(zip(df["yaku"].to_list(), df["share"].to_list(), strict=True))
    assert shares == pytest.approx({"tanyao": 2 / 3, "riichi": 1 / 3, "ippatsu": 1 / 3,
                                    "menzen-tsumo": 1 / 3, "kokushi": 1 / 3})
    assert set(df["wins"]) == {3} and df["yaku"][0] == "tanyao"
    code, out, _ = run("stats", str(games), "--yaku", "--player", "D")
    assert "66.7% [" in out and "2 of 3" in out


def test_wide_letters_keep_the_columns_straight() -> None:
    """Names in Japanese take two terminal columns per letter: the columns still line up."""
    from mjlog.stats import BY_NAME
    from mjlog.stats.table import Selection, render_text, width

    df = pl.DataFrame({"player": ["鳳凰卓の人", "Ben"], "players": [4, 4], "games": [12, 3],
                       "rounds": [100, 30], "win_rate": [0.25, 0.125],
                       "win_rate_lo": [0.1, 0.05], "win_rate_hi": [0.4, 0.3]})
    text = render_text(df, Selection(["player", "players"], [BY_NAME["win_rate"]], {}))
    lines = text.splitlines()
    assert width("鳳凰") == 4 and len({width(line) for line in lines}) == 1, text
    end_12 = width(lines[2][:lines[2].index("12") + 2])
    assert end_12 == width(lines[3][:lines[3].index(" 3 ") + 2])  # games right-aligned


def test_the_same_games_give_the_same_report_byte_for_byte(tmp_path: Path) -> None:
    """Written twice from the same games, the report is the same file: no date in its
    pictures, their ids from their content, and yaku of equal counts in name order (a
    report could differ from run to run in all three)."""
    pages = []
    for k in (1, 2):
        page = tmp_path / f"report-{k}.html"
        code, _, err = run("stats", str(EXAMPLES), "--report", str(page),
                           "-o", str(tmp_path / f"table-{k}.csv"))
        assert code == 0, err
        pages.append(page.read_bytes())
    assert pages[0].count(b"<svg") >= 4 * 3  # four players, three pictures or more each
    assert pages[0] == pages[1]


def test_yaku_of_equal_counts_are_drawn_in_name_order() -> None:
    """The yaku picture of the same counts, whatever order the rows come in."""
    from mjlog.stats.report import _yaku_chart

    rows = {"yaku": ["riichi", "chanta", "tanyao", "sanshoku", "pinfu"], "n": [5, 2, 5, 2, 3]}
    one = pl.DataFrame(rows)
    drawn = [_yaku_chart(one, 10), _yaku_chart(one.reverse(), 10),
             _yaku_chart(one.sort("yaku", descending=True), 10)]
    assert drawn[0] is not None and drawn[0] == drawn[1] == drawn[2]
    names = re.findall(r">(chanta|pinfu|riichi|sanshoku|tanyao)</text>", drawn[0])
    assert names == ["sanshoku", "chanta", "pinfu", "tanyao", "riichi"]  # from the bottom up


def test_a_damaged_archive_is_named_and_the_rest_is_counted(tmp_path: Path) -> None:
    """A damaged zip among the inputs (named, or in a folder): it is named on standard
    error, the table of the other games is printed, and the exit status is 2."""
    folder = tmp_path / "records"
    folder.mkdir()
    (folder / "game.mjn").write_bytes((EXAMPLES / "01-double-east.mjn").read_bytes())
    (folder / "damaged.zip").write_bytes(b"PK\x03\x04 not a zip")
    result = CliRunner().invoke(main, ["stats", str(folder), "--min-games", "1",
                                       "--include-incomplete", "--format", "csv"])
    assert result.exit_code == 2
    assert "damaged.zip: cannot read" in result.output
    rows = [line for line in result.output.splitlines() if line.count(",") > 5]
    assert len(rows) == 1 + 4  # the header and the four players of the readable game


def test_a_date_filter_says_how_many_games_give_no_date_and_can_keep_them(
        tmp_path: Path) -> None:
    """--since leaves out the games whose record gives no date: it says how many, and
    --keep-undated counts them (92 player-games became 4 without a word before)."""
    folder = tmp_path / "records"
    folder.mkdir()
    game = (EXAMPLES / "east-riichi.mjlog").read_bytes()
    (folder / "2016010100gm-0009-0000-0123abcd.mjlog").write_bytes(game)  # dated by its id
    (folder / "undated.mjlog").write_bytes(game.replace(b"Aoi", b"Ayu"))
    args = ["stats", str(folder), "--since", "2015-01-01", "--min-games", "1",
            "--format", "csv"]
    dated = CliRunner().invoke(main, args)
    assert dated.exit_code == 0
    assert "1 game(s) give no date" in dated.output and "--keep-undated" in dated.output
    players = {line.split(",")[0] for line in dated.output.splitlines()[2:] if "," in line}
    assert "Aoi" in players and "Ayu" not in players
    both = CliRunner().invoke(main, [*args, "--keep-undated"])
    assert both.exit_code == 0 and "give no date" not in both.output
    assert "Ayu" in both.output and "Aoi" in both.output
    none = CliRunner().invoke(main, ["stats", str(folder / "undated.mjlog"), "--since",
                                     "2015-01-01"])
    assert none.exit_code == 1 and "try --keep-undated" in none.output


def test_a_dollar_in_a_yaku_name_is_drawn_as_text_in_the_report(tmp_path: Path) -> None:
    """Names from records reach the report's pictures: ``$`` is no formula there (an
    unbalanced one failed the whole report)."""
    pytest.importorskip("matplotlib")
    lines = (EXAMPLES / "east-riichi.jsonl").read_text("utf-8").splitlines()
    events = [json.loads(line) for line in lines]
    win = next(e for e in events if e["type"] == "win")
    win["yaku"][0]["name"] = "odd-$\\frac$-yaku"
    record = tmp_path / "dollar.jsonl"
    record.write_text("\n".join(json.dumps(e) for e in events) + "\n", "utf-8")
    page = tmp_path / "report.html"
    result = CliRunner().invoke(main, ["stats", str(record), "--min-games", "1",
                                       "--report", str(page)])
    assert result.exit_code == 0, result.output
    assert "odd-$\\frac$-yaku" in page.read_text("utf-8")


def test_install_hints_work_from_a_clone_too() -> None:
    from mjlog import install_hint

    hint = install_hint("report")
    assert "pip install 'mjlog[report]'" in hint and "pip install '.[report]'" in hint


@pytest.mark.parametrize("pure", [False, True])
def test_tenhou_guests_are_never_pooled_as_one_player(tmp_path: Path, pure: bool,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """Two games with a guest (Tenhou's ``NoName``) at the first seat: two players of one
    game each, named by game and seat, on the native route and on the Python route."""
    if pure:
        monkeypatch.setenv("MJLOG_PURE", "1")
    for name in ("east-riichi", "east-ron"):
        text = (EXAMPLES / f"{name}.mjlog").read_text("utf-8")
        (tmp_path / f"{name}.mjlog").write_text(text.replace('n0="Aoi"', 'n0="NoName"'), "utf-8")
    code, out, err = run("stats", str(tmp_path), "--format", "csv", "--metrics", "headline")
    assert code == 0, err
    rows = list(csv.DictReader(io.StringIO(out)))
    guests = [r for r in rows if r["player"].startswith("NoName")]
    assert len(guests) == 2 and {r["games"] for r in guests} == {"1"}
    assert all(re.fullmatch(r"NoName \(hash:[0-9a-f]{16}, seat 0\)", r["player"]) for r in guests)
    assert next(r for r in rows if r["player"] == "Ben")["games"] == "2"


def test_the_python_example_of_the_statistics_docs_runs(tmp_path: Path) -> None:
    """docs/statistics.md's Python example runs as written, on files that exist (the
    examples), and writes its facts folder."""
    import subprocess
    import sys

    docs = (EXAMPLES.parent / "docs" / "statistics.md").read_text("utf-8")
    code = re.search(r"## Python\n\n```python\n(.*?)```", docs, re.S)
    assert code is not None
    (tmp_path / "examples").symlink_to(EXAMPLES)
    (tmp_path / "example.py").write_text(code.group(1), "utf-8")
    done = subprocess.run([sys.executable, "example.py"], cwd=tmp_path, capture_output=True,
                          text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "facts").is_dir()

"""The Python API (``mjlog.read``, ``mjlog.audit``, ``mjlog.Report``, ``mjlog.Game``).

* ``docs/api.md`` and the README's Python section run, and print what they show; the
  worked example prints the chombo of ``examples/12-sakizuke.mjn`` under ``kansaki``:
  its violation, its place and the settlement, as ``mjlog audit`` prints them;
* ``read`` gives the games the readers give, on notation, Tenhou XML, JSON Lines and a
  corpus file; ``audit`` gives, game for game, the JSON entry of ``mjlog audit
  --format json`` under the same rules and options;
* ``to_polars`` has the same columns for every report, a row per finding;
* ``_repr_html_`` is a sandboxed page with the players and the findings, which works in
  Chromium (the viewer keeps its move in the frame's address without an error);
* bad input raises ``InputError`` with its position, bad rules ``ValueError``;
* ``import mjlog`` loads nothing heavy, and ``mjlog.audit`` is the auditor's module,
  callable, whatever was imported first;
* events' ``repr`` writes tiles in mpsz.
"""

from __future__ import annotations

import contextlib
import io
import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import polars as pl
import pytest
from click.testing import CliRunner

import mjlog
from mjlog.api import COLUMNS, Game, Report, framed
from mjlog.cli import main
from mjlog.core.diagnostics import InputError
from mjlog.core.events import AbortiveDraw, Discard, Draw, GameStart, Pon, Win
from mjlog.core.tiles import UNKNOWN, Tile
from mjlog.formats import read_path
from mjlog.reports.audit import audit_record

from .conftest import EXAMPLES, ROOT, corpus_paths

SAKIZUKE = EXAMPLES / "12-sakizuke.mjn"
HEADLESS = ("E1-0 dice=3,4 dora=9p\n"
            "hands 123m456p789s1122z 22m345m5679p88s55z 456m789p345s3344z 789m123p678s7777z\n")
"""A round of notation without the file's first line."""
RECORDS = sorted(p for p in EXAMPLES.iterdir() if p.suffix in (".mjn", ".mjlog", ".jsonl"))


def _cli_json(*args: str) -> dict[str, Any]:
    result = CliRunner().invoke(main, ["audit", "--format", "json", *args])
    assert result.exit_code in (0, 1), result.output
    out: dict[str, Any] = json.loads(result.output)
    return out


def _one(report: Report | list[Report]) -> Report:
    """The report of a file of one game."""
    assert isinstance(report, Report)
    return report


def _entries(report: Report | list[Report]) -> list[dict[str, Any]]:
    """The reports' JSON entries as JSON gives them back (tuples become lists)."""
    reports = report if isinstance(report, list) else [report]
    return [json.loads(json.dumps(r.to_dict(), ensure_ascii=False)) for r in reports]


# ---------------------------------------------------------------- the docs run


_BLOCK = re.compile(r"^```(\w*)\n(.*?)^```\n", re.MULTILINE | re.DOTALL)


def _run_page(text: str) -> list[tuple[str, str, str | None]]:
    """Run a page's python blocks in order, in one namespace, in the repository's folder;
    each block with what it printed and the ``text`` block after it (None without one)."""
    blocks = [(m.group(1), m.group(2)) for m in _BLOCK.finditer(text)]
    namespace: dict[str, Any] = {}
    out = []
    for k, (lang, code) in enumerate(blocks):
        if lang != "python":
            continue
        printed = io.StringIO()
        with contextlib.redirect_stdout(printed):
            exec(compile(code, f"block {k}", "exec"), namespace)
        shown = blocks[k + 1][1] if k + 1 < len(blocks) and blocks[k + 1][0] == "text" else None
        out.append((code, printed.getvalue(), shown))
    return out


def _python_section(readme: str) -> str:
    return readme.split("\n## Python\n", 1)[1].split("\n## ", 1)[0]


@pytest.mark.parametrize("page", ["docs/api.md", "README.md"])
def test_the_docs_print_what_they_show(page: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    text = (ROOT / page).read_text(encoding="utf-8")
    ran = _run_page(_python_section(text) if page == "README.md" else text)
    assert ran, f"{page} has no python block"
    for code, printed, shown in ran:
        if shown is not None:
            assert printed == shown, f"{page}: this block prints otherwise than shown:\n{code}"


def _sakizuke_violation() -> dict[str, Any]:
    """The violation ``mjlog audit --rules kansaki`` finds in the sakizuke example."""
    games = _cli_json("examples/12-sakizuke.mjn", "--rules", "kansaki")["games"]
    (violation,) = games[0]["violations"]
    assert violation["code"] == "sakizuke-one-sided"
    return dict(violation)


def test_the_worked_example_prints_the_sakizuke_chombo_and_its_settlement(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """``docs/api.md`` prints what ``mjlog audit --rules kansaki`` says of the game: the
    violation's code at its round and turn (from the JSON report), and the settlement's
    lines (from the text report)."""
    monkeypatch.chdir(ROOT)
    printed = "".join(p for _, p, _ in _run_page((ROOT / "docs/api.md").read_text("utf-8")))
    v = _sakizuke_violation()
    assert f"violation: {v['code']} " in printed
    assert f"[{v['round']}, turn {v['turn']}, Ben [1]" in printed
    cli = CliRunner().invoke(main, ["audit", "examples/12-sakizuke.mjn", "--rules", "kansaki"])
    settlement = cli.output.split("  settlement:\n", 1)[1].split("\n\n", 1)[0].splitlines()
    assert len(settlement) == 5 and "chombo by Ben [1]" in settlement[0]
    for line in settlement:
        assert line in printed.splitlines()


def test_the_readme_prints_a_finding_with_its_place(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    printed = "".join(p for _, p, _ in _run_page(_python_section(readme)))
    v = _sakizuke_violation()
    assert f"{v['code']} {v['round']}, turn {v['turn']}, player {v['player']}" in printed


# ---------------------------------------------------------------- read


@pytest.mark.parametrize("path", RECORDS, ids=lambda p: p.name)
def test_read_gives_the_readers_games_with_their_places(path: Path) -> None:
    games = mjlog.read(path)
    records = read_path(str(path))
    assert [g.index for g in games] == list(range(len(records))) and games
    for game, rec in zip(games, records, strict=True):
        assert isinstance(game, Game) and game.path == str(path) == rec.path
        assert game.format == rec.format and game.events == rec.events
        assert game.diagnostics == rec.diagnostics and list(game.positions) == list(rec.positions)


def test_read_of_a_corpus_record() -> None:
    paths = corpus_paths("tenhou-xml")[:1] + corpus_paths("tenhou-json")[:1]
    for path in paths:
        games = mjlog.read(path)
        assert [g.events for g in games] == [r.events for r in read_path(str(path))]
        for g in games:
            start = g.events[0]
            assert isinstance(start, GameStart)
            assert g.players == [p.name for p in start.players]
            assert len(g.players) == start.ruleset.players


def test_a_games_repr_is_one_line_with_its_players() -> None:
    game = mjlog.read(SAKIZUKE)[0]
    assert repr(game) == (f"<Game {SAKIZUKE} (notation, 1 round, 10 events; Aoi [0], Ben [1], "
                          "Chiyo [2], Dai [3])>")


# ---------------------------------------------------------------- audit


def test_audit_is_the_cli_json_game_for_game() -> None:
    """Every example under its own rules, under kansaki, and under tenhou with an option
    set: each report's dict is the JSON report's entry for that game."""
    cases: list[tuple[tuple[str, ...], str | None, dict[str, Any]]] = [
        ((), None, {}), (("--rules", "kansaki"), "kansaki", {}),
        (("--rules", "tenhou", "--set", "sakizuke=true", "--set", "kuikae=same"), "tenhou",
         {"sakizuke": True, "kuikae": "same"})]
    for args, rules, options in cases:
        cli = _cli_json(*map(str, RECORDS), *args)["games"]
        mine = [e for path in RECORDS for e in _entries(mjlog.audit(path, rules, **options))]
        assert mine == cli, args
    assert any(g["violations"] for g in cli) and any(g["mismatches"] for g in cli)


def test_audit_of_a_game_is_the_audit_of_its_file(tmp_path: Path) -> None:
    """A file of two games gives a list, each report at its game's place; auditing the
    games one by one gives the same reports."""
    both = tmp_path / "two.jsonl"
    both.write_text((EXAMPLES / "east-riichi.jsonl").read_text(encoding="utf-8")
                    + (EXAMPLES / "east-ron.jsonl").read_text(encoding="utf-8"),
                    encoding="utf-8")
    reports = mjlog.audit(both, rules="tenhou")
    assert isinstance(reports, list) and [r.index for r in reports] == [0, 1]
    assert _entries(reports) == _cli_json(str(both), "--rules", "tenhou")["games"]
    one_by_one = [mjlog.audit(g, rules="tenhou") for g in mjlog.read(both)]
    assert _entries(one_by_one) == _entries(reports)
    assert repr(reports[1]).startswith(f"<Report {both} game 2 under tenhou: ")
    plain = read_path(str(both))[1]  # a GameRecord that is no Game: its place is 0
    assert mjlog.audit(plain, rules="tenhou").index == 0


def test_audit_of_a_corpus_record_is_the_cli_json() -> None:
    path = corpus_paths("tenhou-xml")[0]
    assert _entries(mjlog.audit(path)) == _cli_json(str(path))["games"]


def test_a_report_reads_the_audits_own_report() -> None:
    report = _one(mjlog.audit(SAKIZUKE, rules="kansaki"))
    g = audit_record(read_path(str(SAKIZUKE))[0], preset="kansaki")
    assert report.to_dict() == g.to_dict()
    assert [v.code for v in report.violations] == ["sakizuke-one-sided"]
    assert report.violations[0].round == "E1-0" and report.players[1] == "Ben"
    assert report.settlement is not None and report.settlement.corrected == [29000, 17000,
                                                                             27000, 27000]
    assert not report.ok and report.problems == [] and len(report.findings) == 1
    assert _one(mjlog.audit(SAKIZUKE, rules="tenhou")).ok
    assert str(report) == report.describe() and "settlement:" in str(report)
    assert "wall-unverifiable" not in report.describe()
    assert "info: wall-unverifiable [E1-0, line 16:1]" in report.describe(notes=True)
    clean = _one(mjlog.audit(EXAMPLES / "east-riichi.mjlog"))
    assert clean.ok and clean.describe() == (
        f"{EXAMPLES / 'east-riichi.mjlog'} (tenhou-xml, 4 rounds, ruleset tenhou (length=east); "
        "Aoi [0], Ben [1], Chiyo [2], Dai [3])\n  ok")


def test_the_checks_can_be_left_out() -> None:
    full = _one(mjlog.audit(SAKIZUKE, rules="kansaki"))
    bare = _one(mjlog.audit(SAKIZUKE, rules="kansaki", judge=False, scores=False, wall=False))
    assert full.violations and not bare.violations
    assert bare.game_report.wins_verified == 0 < full.game_report.wins_verified
    assert bare.checks.rules is False and bare.checks.preset == "kansaki"


def test_a_preset_of_another_family_applies_only_with_force() -> None:
    kept = _one(mjlog.audit(SAKIZUKE, rules="taiwan16"))
    forced = _one(mjlog.audit(SAKIZUKE, rules="taiwan16", force=True))
    assert "ruleset-not-applied" in [f.code for f in kept.findings]
    assert kept.ruleset.startswith("tenhou") and forced.ruleset.startswith("taiwan16")


# ---------------------------------------------------------------- to_polars


def test_to_polars_has_a_row_per_finding_and_fixed_columns() -> None:
    report = _one(mjlog.audit(EXAMPLES / "02-miscounted-payment.mjn"))
    frame = report.to_polars()
    assert frame.columns == list(COLUMNS)
    assert dict(frame.schema) == {name: pl.Int64 if kind is int else pl.String
                                  for name, kind in COLUMNS.items()}
    g = report.game_report
    assert frame["kind"].to_list() == (["violation"] * len(g.violations)
                                       + ["mismatch"] * len(g.mismatches)
                                       + ["finding"] * len(g.findings)
                                       + ["diagnostic"] * len(g.diagnostics))
    m = g.mismatches[0]
    row = frame.filter(kind="mismatch").row(0, named=True)
    assert (row["code"], row["field"], row["recorded"], row["computed"], row["round"]) == (
        m.code, m.field, str(m.recorded), str(m.computed), m.round)
    chombo = _one(mjlog.audit(SAKIZUKE, rules="kansaki"))
    v = chombo.to_polars().row(0, named=True)
    assert (v["kind"], v["code"], v["round"], v["turn"], v["player"], v["player_name"],
            v["line"], v["column"], v["rule"]) == ("violation", "sakizuke-one-sided", "E1-0",
                                                   6, 1, "Ben", 19, 1, "2 S2")
    assert v["evidence"].startswith("waits: 8s5z; ") and v["consequence"].startswith("chombo")


def test_to_polars_of_a_clean_game_is_empty_with_the_same_columns() -> None:
    clean = _one(mjlog.audit(EXAMPLES / "east-riichi.mjlog", wall=False))
    assert not clean.game_report.findings
    frame = clean.to_polars()
    assert frame.height == 0 and frame.columns == list(COLUMNS)


def test_to_polars_of_a_diagnostic_keeps_its_position(tmp_path: Path) -> None:
    typo = tmp_path / "typo.mjn"
    typo.write_text(SAKIZUKE.read_text(encoding="utf-8").replace("S:pon22m 9p", "S:pon22m 9x"),
                    encoding="utf-8")
    report = _one(mjlog.audit(typo))
    row = report.to_polars().filter(kind="diagnostic").row(0, named=True)
    assert (row["code"], row["line"], row["column"]) == ("bad-token", 18, 14)


# ---------------------------------------------------------------- notebook display


def _srcdoc(shown: str) -> str:
    """The page inside one sandboxed iframe, and nothing outside it."""
    m = re.fullmatch(r'<iframe srcdoc="([^"]*)" title="[^"]*" sandbox="allow-scripts" '
                     r'style="[^"]*"></iframe>', shown)
    assert m is not None, shown[:200]
    import html

    return html.unescape(m.group(1))


def test_a_game_shows_its_replay_and_a_report_the_referees_page() -> None:
    game = mjlog.read(SAKIZUKE)[0]
    page = _srcdoc(game._repr_html_())
    assert page.lstrip().lower().startswith("<!doctype html>")
    assert '<base href="about:srcdoc">' in page
    assert all(name in page for name in ("Aoi", "Ben", "Chiyo", "Dai"))
    report = _one(mjlog.audit(SAKIZUKE, rules="kansaki"))
    referee = _srcdoc(report._repr_html_())
    assert "sakizuke-one-sided" in referee and "Who owes what" in referee
    assert all(name in referee for name in ("Aoi", "Ben", "Chiyo", "Dai"))
    assert "sakizuke-one-sided" not in _srcdoc(_one(mjlog.audit(SAKIZUKE))._repr_html_())


def test_a_report_of_a_game_made_in_memory_shows_without_its_file() -> None:
    """The referee's page replays ``report.record``, not the file it names."""
    game = mjlog.read(SAKIZUKE)[0]
    game.path = "nowhere/at-all.mjn"
    report = mjlog.audit(game, rules="kansaki")
    referee = _srcdoc(report._repr_html_())
    assert "nowhere/at-all.mjn" in referee and "sakizuke-one-sided" in referee


def test_the_pages_work_in_their_frames(browser: Any, tmp_path: Path) -> None:
    """In Chromium, the viewer in its frame steps with the keys and keeps its move in the
    frame's address without an error, and the referee's page shows the finding."""
    game = mjlog.read(EXAMPLES / "east-riichi.mjlog")[0]
    report = _one(mjlog.audit(SAKIZUKE, rules="kansaki"))
    notebook = tmp_path / "notebook.html"
    notebook.write_text("<!DOCTYPE html><html><body>" + game._repr_html_()
                        + report._repr_html_() + "</body></html>", encoding="utf-8")
    context = browser.new_context(offline=True)
    page = context.new_page()
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(notebook.as_uri(), wait_until="load")
    viewer, referee = page.frames[1], page.frames[2]
    viewer.wait_for_function("document.querySelector('#caption').textContent.length > 0")
    first = viewer.evaluate("document.querySelector('#caption').textContent")
    viewer.evaluate("document.dispatchEvent(new KeyboardEvent('keydown', {key: 'ArrowRight'}))")
    viewer.wait_for_function(f"document.querySelector('#caption').textContent !== {first!r}")
    assert viewer.evaluate("location.href").startswith("about:srcdoc#step=")
    codes = referee.eval_on_selector_all(".finding .code", "cs => cs.map(c => c.textContent)")
    assert codes == ["sakizuke-one-sided"]
    assert page.evaluate("typeof window.G") == "undefined"  # the page's data stays inside
    context.close()
    assert errors == []


def test_framed_puts_the_base_in_the_pages_head() -> None:
    page = _srcdoc(framed('<html><head lang="x"><title>t</title></head></html>', "t",
                          height=10))
    assert page == '<html><head lang="x"><base href="about:srcdoc"><title>t</title></head></html>'


# ---------------------------------------------------------------- errors


def test_input_that_is_no_record_raises_with_its_position(tmp_path: Path) -> None:
    headless = tmp_path / "headless.mjn"
    headless.write_text(HEADLESS, encoding="utf-8")
    for call in (mjlog.read, mjlog.audit):
        with pytest.raises(InputError) as caught:
            call(headless)
        d = caught.value.diagnostic
        assert d.code == "not-notation" and d.src is not None and d.src.line == 1
        assert "mjlog-notation 1" in str(caught.value)
    with pytest.raises(mjlog.InputError) as unknown:
        mjlog.read(ROOT / "pyproject.toml")
    assert unknown.value.diagnostic.code == "unknown-format"
    with pytest.raises(InputError) as missing:
        mjlog.audit(tmp_path / "missing.mjn")
    assert missing.value.diagnostic.code == "unreadable"


def test_a_problem_inside_a_game_raises_only_when_strict(tmp_path: Path) -> None:
    typo = tmp_path / "typo.mjn"
    typo.write_text(SAKIZUKE.read_text(encoding="utf-8").replace("S:pon22m 9p", "S:pon22m 9x"),
                    encoding="utf-8")
    (game,) = mjlog.read(typo)
    assert [d.code for d in game.diagnostics] == ["bad-token"] and game.events
    with pytest.raises(InputError) as caught:
        mjlog.read(typo, strict=True)
    src = caught.value.diagnostic.src
    assert src is not None and (src.line, src.column) == (18, 14)


@pytest.mark.parametrize(("rules", "options", "says"), [
    ("nope", {}, "unknown preset 'nope'; known: botzone, ema, jpml, kansaki"),
    ("kansaki", {"kuikae": "never"}, "kuikae is one of allowed, same, both, not 'never'"),
    ("kansaki", {"tw_base": 3}, "tw_base is an option of the taiwan16 family"),
    (None, {"nosuch": 1}, "unknown rule option 'nosuch'"),
    (None, {"kiriage": "yes"}, "kiriage is true or false, not 'yes'"),
])
def test_bad_rules_raise_before_reading(rules: str | None, options: dict[str, Any],
                                        says: str) -> None:
    with pytest.raises(ValueError, match=re.escape(says)):
        mjlog.audit("no such file", rules, **options)


def test_options_take_values_or_their_text() -> None:
    as_value = _one(mjlog.audit(SAKIZUKE, rules="tenhou", sakizuke=True, starting_score=30000))
    as_text = _one(mjlog.audit(SAKIZUKE, rules="tenhou", sakizuke="true",
                               starting_score="30000"))
    assert as_value.to_dict() == as_text.to_dict()
    assert as_value.checks.options == (("sakizuke", True), ("starting_score", 30000))


# ---------------------------------------------------------------- the package


def _python(code: str) -> str:
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          cwd=ROOT, check=False, timeout=120)
    assert done.returncode == 0, done.stderr
    return done.stdout


HEAVY = ("polars", "lxml", "mahjong", "jinja2", "markupsafe", "click", "mjlog.audit",
         "mjlog.reports.audit", "mjlog.formats", "mjlog.api")


def test_import_mjlog_loads_nothing_heavy_until_used() -> None:
    out = _python(f"""
import sys
import mjlog
heavy = {HEAVY!r}
print(sorted(m for m in heavy if m in sys.modules))
report = mjlog.audit("examples/12-sakizuke.mjn", rules="kansaki")
print(sorted(m for m in ("polars", "jinja2") if m in sys.modules))
report._repr_html_()
print(sorted(m for m in ("polars", "jinja2") if m in sys.modules))
report.to_polars()
print(sorted(m for m in ("polars", "jinja2") if m in sys.modules))
""")
    assert out.splitlines() == ["[]", "[]", "['jinja2']", "['jinja2', 'polars']"]


def test_mjlog_audit_is_the_callable_module_whatever_came_first() -> None:
    for first in ("from mjlog.audit import audit_record", "import mjlog.cli",
                  "import mjlog.audit as m", "import mjlog.reports.audit", "import mjlog"):
        out = _python(f"""
{first}
import mjlog
import mjlog.audit
from mjlog.audit import audit_record
assert mjlog.audit.audit_record is audit_record
assert mjlog.audit is sys.modules["mjlog.audit"] is sys.modules["mjlog.reports.audit"]
print(repr(mjlog.audit("examples/12-sakizuke.mjn", "kansaki")).split(":")[1])
""".replace("import mjlog\n", "import sys, mjlog\n", 1))
        assert out == " 1 violation, 0 mismatches, 0 findings, 1 note>\n", first
    assert mjlog.Report is Report and mjlog.Game is Game and mjlog.InputError is InputError
    assert {"read", "audit", "Report", "Game", "InputError", "__version__"} <= set(dir(mjlog))
    with pytest.raises(AttributeError, match="has no attribute 'nothing'"):
        _ = mjlog.nothing


# ---------------------------------------------------------------- events' repr


def test_events_write_their_tiles_in_mpsz() -> None:
    assert repr(Discard(player=1, tile=Tile(16))) == "Discard(player=1, tile=5m)"
    assert repr(Discard(player=1, tile=Tile(16), tsumogiri=False, riichi=True)) == \
        "Discard(player=1, tile=5m, tsumogiri=False, riichi=True)"
    assert repr(Pon(player=2, from_player=0, called=Tile(124), tiles=(Tile(124), Tile(125),
                                                                      Tile(126)))) == \
        "Pon(player=2, from_player=0, called=5z, tiles=555z)"
    assert repr(Draw(player=0, tile=UNKNOWN)) == "Draw(player=0, tile=?)"
    assert repr(AbortiveDraw(kind="four-winds", hands=((Tile(0), Tile(4)), None))) == \
        "AbortiveDraw(kind='four-winds', hands=(12m, None))"
    win = Win(winner=0, from_player=0, hand=(Tile(0),), win_tile=Tile(0), melds=((Tile(4),) * 3,))
    assert "melds=(222m,)" in repr(win)


def test_an_events_repr_never_fails_on_values_that_are_no_tiles() -> None:
    """Fuzzed events carry anything: their repr shows it as repr would."""
    odd: list[Any] = [10**30, -1, True, "5m", None, (1, "x"), 1.5]
    for value in odd:
        assert repr(value) in repr(Draw(player=0, tile=value))
        assert repr(value) in repr(Pon(player=0, from_player=1, called=value, tiles=value))

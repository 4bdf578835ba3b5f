"""``mjlog event``: a tournament's standings and checks over its games.

The events here are generated: games played by ``mjlog generate --rules ema``, renamed
to the event's players, some kept as tile records, some written out as CSV score sheets
(from the game's own results, by :func:`sheet_of` below), some both. The standings are
compared with a reference computed here from each game's final scores with the EMA's uma
(15/5/-5/-15, 30,000 back, no oka; tied players share the uma of their places), by hand,
never by mjlog's settlement.
"""

from __future__ import annotations

import csv
import io
import json
import time
from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from mjlog.cli import main
from mjlog.core.events import AbortiveDraw, ExhaustiveDraw, GameEnd, RiichiAccepted, RoundStart, Win
from mjlog.formats import read_path
from mjlog.reports.event import EventError, EventReport, load, run
from mjlog.reports.event.output import csv_standings, markdown, text_report

from .test_sheets import PANTHEON_GAMES
from .viewer_pages import open_page

EMA_UMA = (15.0, 5.0, -5.0, -15.0)
RETURN = 30000


# ---------------------------------------------------------------- the generated games


def generate(folder: Path, games: int, seed: int) -> list[Path]:
    """``games`` games of ``mjlog generate --rules ema`` from ``seed`` on, in ``folder``."""
    result = CliRunner().invoke(main, ["generate", "--rules", "ema", "-n", str(games),
                                       "--seed", str(seed), "-o", str(folder)])
    assert result.exit_code == 0, result.output
    return [folder / f"random-ema-{seed + k}.mjn" for k in range(games)]


def renamed(path: Path, names: Sequence[str]) -> str:
    """The notation of a generated game with its players renamed."""
    lines = path.read_text("utf-8").splitlines(keepends=True)
    k = next(i for i, line in enumerate(lines) if line.startswith("[Players "))
    lines[k] = "[Players " + " ".join(f'"{n}"' for n in names) + "]\n"
    return "".join(lines)


def final_scores(path: Path) -> list[int]:
    """A generated game's final scores, as its record states them."""
    end = read_path(path)[0].events[-1]
    assert isinstance(end, GameEnd) and end.scores is not None
    return list(end.scores)


def sheet_of(path: Path, names: Sequence[str]) -> str:
    """The CSV score sheet of a generated game: one row per hand with its result, the
    riichi declared, who was ready at a draw, and the scores after the hand (the next
    hand's starting scores; the last row leaves them to the sheet's reader)."""
    rounds: list[tuple[RoundStart, list[int], list[Any]]] = []
    for ev in read_path(path)[0].events:
        if isinstance(ev, RoundStart):
            rounds.append((ev, [], []))
        elif isinstance(ev, RiichiAccepted):
            rounds[-1][1].append(ev.player)
        elif isinstance(ev, Win | ExhaustiveDraw | AbortiveDraw):
            rounds[-1][2].append(ev)
    rows = [["hand", "result", "winner", "from", "han", "fu", "points", "riichi", "ready",
             "pao", *names]]
    for k, (start, riichi, results) in enumerate(rounds):
        after = [str(s) for s in rounds[k + 1][0].scores] if k + 1 < len(rounds) else [""] * 4
        label = f"{'ESWN'[start.round_wind]}{start.round_number}-{start.honba}"
        rows.append([label, *_result(results, names), " ".join(names[p] for p in riichi),
                     *_ready(results, names), *after])
    out = io.StringIO()
    csv.writer(out, lineterminator="\n").writerows(rows)
    return "# ruleset: ema\n" + out.getvalue()


def _result(results: list[Any], names: Sequence[str]) -> list[str]:
    """result, winner, from, han, fu, points of one hand."""
    first = results[0]
    if isinstance(first, ExhaustiveDraw):
        return ["draw", "", "", "", "", ""]
    if isinstance(first, AbortiveDraw):
        return ["abort", "", "", "", "", ""]
    wins = [w for w in results if isinstance(w, Win)]
    tsumo = first.winner == first.from_player
    yakuman = any(w.limit == "yakuman" for w in wins)
    return ["tsumo" if tsumo else "ron", "+".join(names[w.winner] for w in wins),
            "" if tsumo else names[first.from_player],
            "" if yakuman else "+".join(str(w.han) for w in wins),
            "" if yakuman else "+".join(str(w.fu) for w in wins),
            "+".join(str(w.points) for w in wins) if yakuman else ""]


def _ready(results: list[Any], names: Sequence[str]) -> list[str]:
    """ready and pao of one hand."""
    first = results[0]
    if isinstance(first, ExhaustiveDraw):
        ready = [names[p] for p, h in enumerate(first.hands) if h is not None]
        return [" ".join(ready) or "none", ""]
    pao = next((w.pao for w in results if isinstance(w, Win) and w.pao is not None), None)
    return ["", names[pao] if pao is not None else ""]


# ---------------------------------------------------------------- an event of them


def player_name(k: int) -> str:
    return f"Player {k:02d}"


def alias(k: int) -> str:
    """The name a player has on score sheets (a sheet's names have no spaces)."""
    return f"p{k:02d}"


def schedule(players: int, rounds: int) -> list[list[list[int]]]:
    """Per round, its tables of four: round r seats player k at ``k * (2r + 1) % players``
    (an odd factor: a permutation), in groups of four."""
    out = []
    for r in range(rounds):
        order = sorted(range(players), key=lambda k: k * (2 * r + 1) % players)
        out.append([order[t:t + 4] for t in range(0, players, 4)])
    return out


@dataclass
class Built:
    """An event written into a folder, with what the reference needs."""

    folder: Path
    tables: list[tuple[int, int, list[int], Path]]
    """(round, table, players in seat order, generated game) per game."""


def build_event(folder: Path, games: list[Path], players: int, rounds: int,
                penalties: Sequence[tuple[int, float]] = ()) -> Built:
    """Write an event of ``players`` × ``rounds`` from ``games`` (one per table, in order):
    every third game a tile record with the players' full names, every third a CSV sheet
    with their aliases, every third both."""
    folder.mkdir(parents=True, exist_ok=True)
    toml = ['name = "Generated Open"', 'ruleset = "ema"', ""]
    for k in range(players):
        toml += ["[[players]]", f'name = "{player_name(k)}"', f'ema_id = "0401{k:04d}"',
                 f'aliases = ["{alias(k)}"]', ""]
    built = Built(folder, [])
    sched = schedule(players, rounds)
    for r, tables in enumerate(sched, start=1):
        toml += ["[[rounds]]", f"round = {r}", "tables = ["]
        toml += ["  [" + ", ".join(f'"{player_name(k)}"' for k in t) + "]," for t in tables]
        toml += ["]", ""]
    it = iter(games)
    for r, tables in enumerate(sched, start=1):
        for t, seated in enumerate(tables, start=1):
            game = next(it)
            built.tables.append((r, t, seated, game))
            toml += _game_entry(folder, len(built.tables) - 1, r, t, seated, game)
    for k, points in penalties:
        toml += ["[[penalties]]", f'player = "{alias(k)}"', f"points = {points}",
                 'reason = "late"', ""]
    (folder / "event.toml").write_text("\n".join(toml), "utf-8")
    return built


def _game_entry(folder: Path, n: int, r: int, t: int, seated: list[int],
                game: Path) -> list[str]:
    """One game's files and its ``[[games]]`` table (every other one without its round:
    the schedule places it)."""
    entry = ["[[games]]"] + ([f"round = {r}", f"table = {t}"] if n % 2 else [])
    if n % 3 != 1:
        name = f"r{r}t{t}.mjn"
        (folder / name).write_text(renamed(game, [player_name(k) for k in seated]), "utf-8")
        entry.append(f'record = "{name}"')
    if n % 3 != 0:
        name = f"r{r}t{t}.csv"
        (folder / name).write_text(sheet_of(game, [alias(k) for k in seated]), "utf-8")
        entry.append(f'sheet = "{name}"')
    return [*entry, ""]


# ---------------------------------------------------------------- the reference


def reference_points(scores: Sequence[int]) -> tuple[list[float], list[int]]:
    """Each seat's points and place under the EMA's uma, computed by hand: (score - 30,000)
    / 1,000 plus the uma of the place; players on equal scores share the uma of their
    places and the higher place."""
    order = sorted(range(4), key=lambda p: -scores[p])
    points, places = [0.0] * 4, [0] * 4
    for p in range(4):
        tied = [k for k, q in enumerate(order) if scores[q] == scores[p]]
        uma = sum(EMA_UMA[k] for k in tied) / len(tied)
        points[p] = (scores[p] - RETURN) / 1000 + uma
        places[p] = tied[0] + 1
    return points, places


def reference_standings(built: Built, penalties: Sequence[tuple[int, float]] = ()
                        ) -> dict[str, tuple[float, int, list[int]]]:
    """Per player: total points, games and places counted, from the games' final scores."""
    total: dict[str, float] = defaultdict(float)
    games: Counter[str] = Counter()
    places: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0, 0])
    for _, _, seated, game in built.tables:
        points, place = reference_points(final_scores(game))
        for seat, k in enumerate(seated):
            total[player_name(k)] += points[seat]
            games[player_name(k)] += 1
            places[player_name(k)][place[seat] - 1] += 1
    for k, pts in penalties:
        total[player_name(k)] += pts
    return {p: (round(total[p], 1), games[p], places[p]) for p in total}


def assert_standings_match(report: EventReport, expected: dict[str, tuple[float, int,
                                                                             list[int]]]) -> None:
    got = {s.player.name: (s.total, s.games, s.places) for s in report.standings}
    assert got == expected
    totals = [s.total for s in report.standings]
    assert totals == sorted(totals, reverse=True)
    assert report.standings[0].rank == 1


# ---------------------------------------------------------------- fixtures


@pytest.fixture(scope="module")
def pool(tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    """Four generated games, made once for the module's fast tests."""
    return generate(tmp_path_factory.mktemp("generated"), 4, 100)


@pytest.fixture
def small(tmp_path: Path, pool: list[Path]) -> Built:
    """8 players, 2 rounds of 2 tables: a record, a sheet, both, a record."""
    return build_event(tmp_path / "event", pool, 8, 2, penalties=[(3, -10.0)])


# ---------------------------------------------------------------- fast tests


def test_small_event_standings_equal_the_hand_reference(small: Built) -> None:
    report = run(load(small.folder))
    assert [f.code for f in report.findings] == []
    assert_standings_match(report, reference_standings(small, [(3, -10.0)]))
    assert {s.player.name: s.penalties for s in report.standings}[player_name(3)] == -10.0
    # every game is placed in the schedule, named or not
    assert [(g.round, g.table) for g in report.games] == [(1, 1), (1, 2), (2, 1), (2, 2)]


def test_record_and_sheet_of_one_game_agree_or_are_found(small: Built) -> None:
    report = run(load(small.folder))
    both = report.games[2]
    assert [s.kind for s in both.sources] == ["record", "sheet"]
    assert both.sources[0].points == both.sources[1].points
    # A sheet that says another hand was won: the game's final points differ.
    sheet = small.folder / "r2t1.csv"
    rows = sheet.read_text("utf-8").splitlines()
    k = next(i for i, row in enumerate(rows) if ",ron," in row or ",tsumo," in row)
    cells = rows[k].split(",")
    cells[2] = next(a for a in cells[10:14] if a != cells[2] and a != cells[3])
    rows[k] = ",".join(cells)
    sheet.write_text("\n".join(rows) + "\n", "utf-8")
    found = [(f.code, f.game, f.path) for f in run(load(small.folder)).findings
             if f.code == "event-sources-disagree"]
    assert found == [("event-sources-disagree", 2, "r2t1.csv")]


def test_a_player_at_two_tables_in_one_round_is_found(small: Built) -> None:
    # Round 1, table 2's record seats player 0 (who is at table 1) instead of its East.
    _, _, seated, game = small.tables[1]
    (small.folder / "r1t2.csv").write_text(sheet_of(game, [alias(0), *map(alias, seated[1:])]),
                                           "utf-8")
    report = run(load(small.folder))
    twice = [(f.round, f.player, f.game) for f in report.findings
             if f.code == "event-player-twice-in-round"]
    assert twice == [(1, player_name(0), 1)]
    counts = {f.player for f in report.findings if f.code == "event-game-count"}
    assert counts == {player_name(0), player_name(seated[0])}
    # and in the schedule itself
    text = (small.folder / "event.toml").read_text("utf-8")
    head, _, rounds = text.partition("[[rounds]]")
    (small.folder / "event.toml").write_text(head + "[[rounds]]" + rounds.replace(
        f'"{player_name(seated[0])}"', f'"{player_name(0)}"', 1), "utf-8")
    report = run(load(small.folder))
    assert ("event-player-twice-in-round", 1, player_name(0), "rounds") in {
        (f.code, f.round, f.player, f.where) for f in report.findings}


def test_a_game_that_does_not_sum_to_zero_is_found(small: Built) -> None:
    record = small.folder / "r1t1.mjn"
    text = record.read_text("utf-8")
    end = next(line for line in text.splitlines() if line.startswith("end scores="))
    scores = [int(x) for x in end.removeprefix("end scores=").split(",")]
    scores[2] += 1000
    record.write_text(text.replace(end, "end scores=" + ",".join(map(str, scores))), "utf-8")
    report = run(load(small.folder))
    zero = [f for f in report.findings if f.code == "event-game-not-zero-sum"]
    assert [(f.game, f.path, f.round, f.table) for f in zero] == [(0, "r1t1.mjn", 1, 1)]
    assert f"{sum(scores):,}" in zero[0].message and "120,000" in zero[0].message
    audit = [f.game for f in report.findings if f.code == "event-game-audit"]
    assert audit == [0]  # the audit's final-scores-mismatch, counted


TIED = """# players: ann ben cat dan
hand,result,winner,from,han,fu
E1,ron,ben,cat,mangan,
E2,ron,dan,ann,mangan,
"""


def test_tied_players_split_the_uma_under_ema(tmp_path: Path) -> None:
    # Ben and Dan end on 38,000, Ann and Cat on 22,000. ema: Ben and Dan share the uma of
    # first and second, (15 + 5) / 2, each 8 + 10 = +18; Ann and Cat share third and
    # fourth, (-5 - 15) / 2, each -8 - 10 = -18; both pairs share the higher place.
    (tmp_path / "tie.csv").write_text(TIED, "utf-8")
    (tmp_path / "event.toml").write_text(
        'ruleset = "ema"\n' + "".join(f'[[players]]\nname = "{n}"\n'
                                      for n in ("ann", "ben", "cat", "dan"))
        + '[[games]]\nsheet = "tie.csv"\n', "utf-8")
    report = run(load(tmp_path))
    got = {s.player.name: (s.rank, s.total, s.places) for s in report.standings}
    assert got == {"ben": (1, 18.0, [1, 0, 0, 0]), "dan": (1, 18.0, [1, 0, 0, 0]),
                   "ann": (3, -18.0, [0, 0, 1, 0]), "cat": (3, -18.0, [0, 0, 1, 0])}


def test_chombo_after_uma_is_in_the_total_and_its_column(tmp_path: Path) -> None:
    # Pantheon's game 13: player32 makes chombo first. Final 23,300 / 22,100 / 40,600 /
    # 34,000 under ema: player2 +10.6 + 15, player14 +4 + 5, player27 -6.7 - 5, player32
    # -7.9 - 15 and -20 for the chombo after uma.
    (tmp_path / "t1.txt").write_text(PANTHEON_GAMES[4], "utf-8")
    (tmp_path / "event.toml").write_text(
        "".join(f'[[players]]\nname = "{n}"\n'
                for n in ("player27", "player32", "player2", "player14"))
        + '[[games]]\nsheet = "t1.txt"\n', "utf-8")
    report = run(load(tmp_path))
    assert report.findings == []  # sums to zero with the chombo penalty added back
    got = {s.player.name: (s.total, s.chombo, s.places) for s in report.standings}
    assert got == {"player2": (25.6, 0.0, [1, 0, 0, 0]), "player14": (9.0, 0.0, [0, 1, 0, 0]),
                   "player27": (-11.7, 0.0, [0, 0, 1, 0]),
                   "player32": (-42.9, 20.0, [0, 0, 0, 1])}


def test_a_substitute_plays_unranked_and_the_absent_player_is_due_fewer(small: Built) -> None:
    # Round 2, table 1 (a record and a sheet): Player 00 is replaced by a substitute.
    _, _, seated, game = small.tables[2]
    sub = ["Sub" if k == 0 else player_name(k) for k in seated]
    (small.folder / "r2t1.mjn").write_text(renamed(game, sub), "utf-8")
    (small.folder / "r2t1.csv").write_text(
        sheet_of(game, ["sub" if k == 0 else alias(k) for k in seated]), "utf-8")
    path = small.folder / "event.toml"
    path.write_text(path.read_text("utf-8") + '[[players]]\nname = "Sub"\nsubstitute = true\n'
                    '[[substitutes]]\nround = 2\nplayer = "p00"\nby = "sub"\n', "utf-8")
    report = run(load(small.folder))
    assert report.findings == []
    last = report.standings[-1]
    assert (last.player.name, last.rank, last.games) == ("Sub", None, 1)
    assert {s.player.name: s.games for s in report.standings}[player_name(0)] == 1
    reference = reference_standings(small, [(3, -10.0)])
    points, _ = reference_points(final_scores(game))
    assert last.total == round(points[seated.index(0)], 1)
    assert {s.player.name: s.total for s in report.standings}[player_name(0)] == round(
        reference[player_name(0)][0] - points[seated.index(0)], 1)


def test_a_name_that_is_no_player_is_found(small: Built) -> None:
    _, _, seated, game = small.tables[0]
    (small.folder / "r1t1.mjn").write_text(
        renamed(game, ["Stranger", *map(player_name, seated[1:])]), "utf-8")
    report = run(load(small.folder))
    unknown = [(f.game, f.message) for f in report.findings if f.code == "event-unknown-player"]
    assert len(unknown) == 1 and unknown[0][0] == 0 and "'Stranger'" in unknown[0][1]
    assert {s.player.name: s.games for s in report.standings}[player_name(seated[0])] == 1


@pytest.mark.parametrize(("change", "where"), [
    ('ruleset = "ema"', "ruleset"),
    ('name = "Player 00"', "players[1].name"),
    ("[[games]]", "games["),
    ('aliases = ["p00"]', "'p01' names two players"),
])
def test_event_file_errors_name_their_place(small: Built, change: str, where: str) -> None:
    path = small.folder / "event.toml"
    text = path.read_text("utf-8")
    bad = {"ruleset": text.replace(change, 'ruleset = "nope"'),
           "players[1].name": text.replace('name = "Player 01"', 'name = "Player 00"', 1),
           "games[": text.replace("[[games]]", "[[games]]\nrecrod = 'x'", 1),
           "'p01' names two players": text.replace('aliases = ["p00"]', 'aliases = ["p01"]',
                                                   1)}[where]
    path.write_text(bad, "utf-8")
    with pytest.raises(EventError) as err:
        load(small.folder)
    assert where in str(err.value)
    result = CliRunner().invoke(main, ["event", str(small.folder)])
    assert result.exit_code == 2 and where in result.output


def test_not_toml_names_line_and_column(tmp_path: Path) -> None:
    (tmp_path / "event.toml").write_text('name = "x"\nruleset = \n', "utf-8")
    with pytest.raises(EventError, match="line 2"):
        load(tmp_path)


def test_outputs_in_every_format(small: Built, tmp_path: Path) -> None:
    runner = CliRunner()
    text = runner.invoke(main, ["event", str(small.folder)])
    assert text.exit_code == 0, text.output
    assert "Standings" in text.output and player_name(3) in text.output
    rows = list(csv.reader(io.StringIO(runner.invoke(
        main, ["event", str(small.folder), "--format", "csv"]).output)))
    assert rows[0][:5] == ["rank", "player", "ema_id", "country", "total"] and len(rows) == 9
    ema = list(csv.reader(io.StringIO(runner.invoke(
        main, ["event", str(small.folder), "--format", "ema-csv"]).output)))
    assert ema[0] == ["place", "ema_id", "name", "points"]
    assert ema[1][1].startswith("0401") and len(ema) == 9
    data = json.loads(runner.invoke(main, ["event", str(small.folder), "--format",
                                           "json"]).output)
    assert len(data["standings"]) == 8 and len(data["games"]) == 4
    assert data["seats"]["source"] == "schedule"
    md = runner.invoke(main, ["event", str(small.folder), "--format", "markdown"]).output
    assert md.startswith("# Generated Open") and "| rank | player |" in md


def test_hostile_names_are_escaped(small: Built) -> None:
    path = small.folder / "event.toml"
    text = path.read_text("utf-8").replace('name = "Player 00"',
                                           'name = "=HYPERLINK(1)|\\u001b[31m"', 1)
    path.write_text(text.replace('"Player 00"', '"p00"'), "utf-8")
    for record in small.folder.glob("*.mjn"):
        record.write_text(record.read_text("utf-8").replace('"Player 00"', '"p00"'), "utf-8")
    report = run(load(small.folder))
    assert not [f for f in report.findings if f.code == "event-unknown-player"]
    assert "\x1b" not in text_report(report) and "\\x1b" in text_report(report)
    assert "'=HYPERLINK" in csv_standings(report)
    assert "=HYPERLINK(1)\\|" in markdown(report)


def test_seat_report_counts_pairs_and_winds(small: Built) -> None:
    report = run(load(small.folder))
    seats = report.seats
    assert sum(seats.pairs.values()) == 4 * 6  # four tables of six pairs
    assert all(sum(w) == 2 for w in seats.winds.values())  # two rounds each
    expected: Counter[tuple[str, str]] = Counter()
    for _, _, seated, _ in small.tables:
        for a in seated:
            for b in seated:
                if a < b:
                    expected[(player_name(a), player_name(b))] += 1
    assert dict(seats.pairs) == dict(expected)


# ---------------------------------------------------------------- slow: the whole event


@pytest.mark.slow
def test_generated_event_32_players_8_rounds(tmp_path: Path) -> None:
    started = time.perf_counter()
    games = generate(tmp_path / "generated", 64, 2000)
    generated = time.perf_counter() - started
    built = build_event(tmp_path / "event", games, 32, 8, penalties=[(5, -20.0), (9, 5.0)])
    started = time.perf_counter()
    report = run(load(built.folder))
    ran = time.perf_counter() - started
    assert [f.code for f in report.findings] == []
    assert_standings_match(report, reference_standings(built, [(5, -20.0), (9, 5.0)]))
    assert all(s.games == 8 for s in report.standings)
    kinds = Counter(tuple(s.kind for s in g.sources) for g in report.games)
    assert kinds == {("record",): 22, ("sheet",): 21, ("record", "sheet"): 21}
    print(f"generated 64 games in {generated:.1f} s; event of 85 files in {ran:.1f} s")


@pytest.mark.slow
def test_event_page_opens_without_console_errors(small: Built, tmp_path: Path,
                                                 browser: Any) -> None:
    # A planted mistake, so that the page has a finding with its links.
    record = small.folder / "r1t1.mjn"
    text = record.read_text("utf-8")
    record.write_text(text.replace("end scores=", "end scores=1", 1), "utf-8")
    out = tmp_path / "site" / "results.html"
    result = CliRunner().invoke(main, ["event", str(small.folder), "--format", "html",
                                       "-o", str(out)])
    assert result.exit_code == 1, result.output
    assert (out.parent / "results-referee.html").exists()
    replays = sorted((out.parent / "results-referee-games").glob("*.html"))
    assert replays
    context, page, errors = open_page(browser, out)
    try:
        assert page.locator("table.standings tr").count() == 9
        links = page.locator(".finding a").evaluate_all("els => els.map(e => e.href)")
        assert any("results-referee.html#game-1" in h for h in links)
        assert any(h.endswith(replays[0].name) for h in links)
        assert errors == []
    finally:
        context.close()
    context, page, errors = open_page(browser, out.parent / "results-referee.html")
    try:
        assert page.locator("#game-1").count() == 1 and errors == []
    finally:
        context.close()

"""The referee's report as a page: ``mjlog audit … --format html -o REPORT.html``.

:class:`RefereeReport` is the audit's sink: it keeps the reports of the
games with something to show (a violation, a score mismatch, a finding or a
reading problem of warning or error severity), and every score sheet (a
``csv-sheet`` or ``pantheon`` record: a referee signs a clean sheet too), and
nothing of the other clean games. :meth:`RefereeReport.write` then replays each
of those games once more for the replay viewer
(:func:`mjlog.reports.view.model.game_view`, under the same checks), writes its viewer
page into the folder ``REPORT-games`` beside the report, and gives the
report's page: the summary, then per game and round each finding with its
rule, evidence, consequence and a picture of the table at that move, linking
to the viewer at that move, the score sheet, and who owes what.

* Players are named as the text report names them (``Aoi [0]``) wherever the
  record names them: in places, evidence, messages and the settlement.
* The mismatches and findings of one result (``win-points``, ``win-deltas``,
  ``draw-deltas``, ``deltas-unbalanced`` …) make one card that says in words who
  was paid what and what is due, and on what basis (dealer or not, ron or
  tsumo, the value, honba and sticks); the raw fields stay in a ``<details>``.
* The score sheet (:func:`_sheet`): a line per result with its payments per
  player and the running scores, every correction in red linked to its card, and
  the final scores and points of the game's :class:`~mjlog.reports.settlement.Settlement`.
  It reads the payments the record states and the corrections the settlement made
  (:func:`_settled`); it computes no payment of its own. A sheet's section shows
  it open; a tile record's, folded.

The page is written in one language (``lang``, :data:`mjlog.reports.view.words.LANGS`):
its fixed words, the findings' titles and places, the cards' and the sheet's
words, the pictures' captions and the replay pages it links to. What the
checks wrote in their own words (a finding's message, its consequence, a chombo's
correction in the settlement) stays in English.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

from markupsafe import Markup

from mjlog.core.diagnostics import Severity
from mjlog.core.events import (
    AbortiveDraw,
    Chombo,
    Event,
    ExhaustiveDraw,
    GameStart,
    RiichiAccepted,
    RoundStart,
    Win,
    round_label,
)
from mjlog.core.record import GameRecord
from mjlog.core.ruleset import Ruleset
from mjlog.families.riichi.scoring.written import written_value
from mjlog.formats import read_path
from mjlog.reports.audit import (
    AuditReport,
    Checks,
    GameReport,
    Summary,
    named,
    ruleset_for,
    settlement_lines,
    summary_line,
)
from mjlog.reports.render import WIND_NAMES
from mjlog.reports.settlement import Settlement
from mjlog.reports.view.model import game_view, merged
from mjlog.reports.view.page import asset, environment, script_json, viewer_page
from mjlog.reports.view.words import joined, phrase, place_text, t

Writer = Callable[[Path, str], None]

SHEET_FORMATS: Final = frozenset({"csv-sheet", "pantheon"})
"""Formats of score sheets: the page shows each of their games, clean or not."""

RESULTS: Final = (Win, ExhaustiveDraw, AbortiveDraw, Chombo)
"""The events a score sheet has a line for."""

_PAYMENTS: Final = ("win-deltas", "draw-deltas")
_SETTLED: Final = re.compile(r"(\S+): player (\d+)'s payment corrected from ([-+]?\d+) to "
                             r"([-+]?\d+) \(the computed value\)")
"""A payment correction as :func:`mjlog.reports.settlement.settle` writes it."""
_LINE: Final = re.compile(r"\bline (\d+)\b")
_STOPS: Final = {"en": " ", "ja": "", "zh": ""}


@dataclass
class RefereeReport:
    """The games an audit found something in, gathered for the page (module docstring)."""

    checks: Checks = field(default_factory=Checks)
    games: list[GameReport] = field(default_factory=list)
    lang: str = "en"
    """The language of the page and of the replay pages it links to."""

    def add(self, g: GameReport) -> None:
        """Keep ``g`` when it has something a referee must see, or is a score sheet."""
        serious = [x for x in (*g.findings, *g.diagnostics) if x.severity != Severity.INFO]
        if g.violations or g.mismatches or serious or g.format in SHEET_FORMATS:
            self.games.append(g)

    @staticmethod
    def folder(out: Path) -> Path:
        """The folder of the replay pages beside the report ``out``: ``OUT-games``."""
        return out.with_name(out.stem + "-games")

    def write(self, out: Path, report: AuditReport, write_text: Writer, pages: Path
              ) -> list[Path]:
        """Write the viewer page of each kept game into ``pages`` (a stage of
        :meth:`folder`, which the report links to), then the report page at ``out`` (with
        ``write_text``); return the pages written."""
        folder = self.folder(out)
        written: list[Path] = []
        sections: list[dict[str, Any]] = []
        pictures: list[dict[str, Any]] = []
        for k, g in enumerate(self.games):
            data, rec = self._view(g), self._read(g)
            name = f"{k + 1:03d}-{re.sub(r'[^A-Za-z0-9._-]+', '-', Path(g.path).stem)[:60]}.html"
            write_text(pages / name, viewer_page(data))
            written.append(folder / name)
            game = Game.of(g, data, rec, self.checks, self.lang, f"{folder.name}/{name}", k + 1)
            sections.append(_section(game, pictures))
        page = self._page(report, sections, pictures)
        write_text(out, page)
        return [*written, out]

    def _page(self, report: AuditReport, sections: list[dict[str, Any]],
              pictures: list[dict[str, Any]]) -> str:
        """The report's HTML."""
        lang, s = self.lang, report.summary
        return environment().get_template("report.html.j2").render(
            title=_count("Audit of {n} game", "Audit of {n} games", s.games, lang),
            line=_summary_line(s, lang), summary=s.to_dict(),
            games_line=_count("{n} complete, {r} round", "{n} complete, {r} rounds", s.rounds,
                              lang, n=f"{s.complete_games:,}"),
            games=sections, lang=lang, t=lambda text, **kw: t(text, lang, **kw),
            num=lambda n: f"{n:,}",
            unreadable=[(u.path, u.error.message if u.error else "") for u in report.unreadable],
            css=Markup(asset("viewer.css")), tiles_js=Markup(asset("tiles.js")),
            js=Markup(asset("report.js")), pictures=script_json(pictures),
            words=script_json({w: t(w, lang) for w in ("riichi", "dora")}))

    def _read(self, g: GameReport) -> GameRecord:
        """The record of a kept game, read again from its file."""
        return read_path(g.path)[g.game]

    def _view(self, g: GameReport) -> dict[str, Any]:
        """The viewer's data of a kept game, judged as the audit judged it."""
        c = self.checks
        return game_view(self._read(g), g.game, preset=c.preset, options=c.options,
                         force=c.force, wall=c.wall, rules=c.rules, scores=c.scores,
                         lang=self.lang)


def _count(one: str, many: str, count: int, lang: str, **fields: object) -> str:
    """``one`` or ``many`` (by ``count``, filled in as ``n``, or as ``r`` when ``fields``
    hold ``n``) in ``lang``, with thousands separators."""
    key = "r" if "n" in fields else "n"
    return t(one if count == 1 else many, lang, **{key: f"{count:,}"}, **fields)


def _summary_line(s: Summary, lang: str) -> str:
    """The audit's main line (:func:`mjlog.reports.audit.summary_line`) in ``lang``."""
    if lang == "en":
        return summary_line(s)
    kinds = [t(key, lang, n=f"{n:,}") for n, key in (
        (s.games_with_errors, "{n} with errors or warnings in the record"),
        (s.games_with_violations, "{n} with rule violations"),
        (s.games_with_mismatches, "{n} with score mismatches")) if n]
    line = t("{games} games ({complete} complete), {rounds} rounds: {clean} clean, {problems} "
             "with problems", lang, games=f"{s.games:,}", complete=f"{s.complete_games:,}",
             rounds=f"{s.rounds:,}", clean=f"{s.games - s.games_with_problems:,}",
             problems=f"{s.games_with_problems:,}")
    return line + (f"（{joined(kinds, lang)}）" if kinds else "")


def table_at(steps: list[dict[str, Any]], k: int) -> dict[str, Any]:
    """The table at step ``k``: its round's first step with the later values written over
    it (what the page does)."""
    first = k
    while first > 0 and not steps[first].get("key"):
        first -= 1
    table: dict[str, Any] = {}
    for st in steps[first:k + 1]:
        merged(table, st)
    table["c"] = steps[k].get("c", "")
    return table


def picture(data: dict[str, Any], step: int, seat: int | None, lang: str = "en"
            ) -> dict[str, Any]:
    """The table at a finding's move, as the report draws it: every hand open; its caption
    and winds in ``lang``."""
    at = table_at(data["steps"], step)
    n = data["n"]
    said = at["c"] if lang == "en" else data["captions"][lang][data["caption_at"][step]]
    return {"caption": said, "dora": at.get("d", ""), "seats": [
        {"name": data["players"][p], "wind": t(WIND_NAMES[(p - at.get("dl", 0)) % 4], lang),
         "score": (at.get("s") or [0] * n)[p], "hand": at.get(f"h{p}", ""),
         "melds": [m[1] for m in at.get(f"m{p}", [])], "river": at.get(f"v{p}", ""),
         "riichi": at.get(f"q{p}", 0), "flagged": p == seat} for p in range(n)]}


# ---------------------------------------------------------------- one game


@dataclass
class Game:
    """A kept game as the page reads it: its audit, the viewer's data and each step's
    event and source line."""

    report: GameReport
    data: dict[str, Any]
    events: list[Event]
    """Each step's event."""
    lines: list[int]
    """Each step's event's line in the record (0: none)."""
    ruleset: Ruleset
    lang: str
    href: str
    """The game's replay page, relative to the report."""
    index: int
    """The game's place on the page, from 1."""

    @classmethod
    def of(cls, g: GameReport, data: dict[str, Any], rec: GameRecord, checks: Checks,
           lang: str, href: str, index: int) -> Game:
        """The game ``g`` with the viewer's ``data`` of ``rec``, judged under ``checks``."""
        events = [rec.events[st["e"]] for st in data["steps"]]
        lines = [(src.line if (src := rec.src(st["e"])) else 0) for st in data["steps"]]
        start = rec.events[0] if rec.events and isinstance(rec.events[0], GameStart) else None
        ruleset = ruleset_for(start, checks.preset, checks.options, force=checks.force)
        return cls(g, data, events, lines, ruleset, lang, href, index)

    @property
    def sheet(self) -> bool:
        """Whether the game's rounds are results-only (a score sheet's)."""
        return any(ev.results_only for ev in self.events if isinstance(ev, RoundStart))

    def who(self, p: int | None) -> str:
        """Seat ``p`` as the text report names it: ``Aoi [0]``, or ``player 0`` unnamed."""
        if p is None:
            return "?"
        return self.say(f"player {p}") if self.lang == "en" else self.say(
            t("player {n}", self.lang, n=p))

    def say(self, text: str) -> str:
        """``text`` (in English or in the page's language) with each seat the record
        names written ``Name [N]``."""
        text = named(text, self.report.players)
        if self.lang == "en" or not any(self.report.players):
            return text
        mark = re.escape(t("player {n}", self.lang, n=0)).replace("0", r"(\d+)")
        names = self.report.players
        return re.sub(mark, lambda m: f"{names[int(m[1])]} [{m[1]}]"
                      if int(m[1]) < len(names) and names[int(m[1])] else m[0], text)

    def place(self, f: dict[str, Any]) -> str:
        """A finding's place in the page's language, its seat named."""
        return self.say(place_text(f["place"], self.lang))


def _is_result(f: dict[str, Any]) -> bool:
    """Whether finding ``f`` is about the value or payments of one result."""
    code: str = f["code"]
    return (f["kind"] == "mismatch" and code.startswith(("win-", "draw-"))) \
        or code == "deltas-unbalanced"


def _placed(game: Game) -> list[dict[str, Any]]:
    """The game's findings to show (notes left out), in order of play, each at the step
    of the result it is about: a sheet's at the result on its line (a ``next-round``
    mismatch, at the hand it labels), a result's finding at its round's next result."""
    steps, labels = game.data["steps"], game.data["labels"]
    results = [k for k in range(len(steps)) if isinstance(game.events[k], RESULTS)]
    by_line: dict[int, list[int]] = {}
    for k in results if game.sheet else ():
        by_line.setdefault(game.lines[k], []).append(k)
    out = []
    for f in game.data["findings"]:
        if f["severity"] == "info":
            continue
        step = f["step"]
        if f["kind"] != "violation" and (_is_result(f) or f["code"] == "next-round"):
            line = _LINE.search(f["place"])
            here = by_line.get(int(line[1]), []) if line else []
            step = next((k for k in here if game.data["steps"][k].get("res", {}).get("winner")
                         == f["seat"]), here[0] if here else step)
            if _is_result(f) and step not in results:
                step = next((k for k in results if k >= step and labels[k] == labels[step]),
                            step)
        out.append(dict(f, step=step))
    return sorted(out, key=lambda f: f["step"])


def _section(game: Game, pictures: list[dict[str, Any]]) -> dict[str, Any]:
    """One game's part of the report: its findings by round, a result's in one card, each
    with its picture (added to ``pictures``, the report's list; none for a score sheet,
    which has no tiles), its score sheet and its settlement, in the page's language."""
    g, lang = game.report, game.lang
    rounds: dict[str, list[dict[str, Any]]] = {}
    cards: list[dict[str, Any]] = []
    for f in _placed(game):
        last = cards[-1] if cards else None
        if last is not None and last.get("raw") and _is_result(f) and last["step"] == f["step"]:
            last["raw"].append(f)
            continue
        label = f["place"].split(",")[0] if f["place"] else t("the record", lang)
        items = rounds.setdefault(label, [])
        same = bool(items) and items[-1]["step"] == f["step"]  # drawn once per move
        card = _card(game, f, len(cards), None if same or game.sheet else len(pictures))
        if card["picture"] is not None:
            pictures.append(picture(game.data, f["step"], f["seat"], lang))
        cards.append(card)
        items.append(card)
    for card in cards:
        if card.get("raw"):
            _payment_words(game, card)
    notes = sum(1 for f in game.data["findings"] if f["severity"] == "info")
    return {"path": g.path, "game": g.game + 1, "players": g.players, "ruleset": g.ruleset,
            "href": game.href, "rounds": rounds, "notes": notes, "tiles": not game.sheet,
            "sheet": _sheet(game, cards),
            "settlement": (_settlement(g.settlement, g.players, lang, game.say) if g.rounds
                           else [t("nothing to settle (no round was read)", lang)])
            if g.settlement else []}


def _card(game: Game, f: dict[str, Any], k: int, pic: int | None) -> dict[str, Any]:
    """A finding's card: its place and evidence in the page's language, seats named; a
    result's finding starts a payment card (``raw``: the findings it gathers)."""
    lang = game.lang
    said = game.say(f["message"]) or (t(
        "{field}: written {r}, due {c}", lang, field=t(f["field"], lang),
        r=_amount(f["recorded"]), c=_amount(f["computed"])) if f.get("field") else "")
    return dict(
        f, id=f"card-{game.index}-{k + 1}", link=f"{game.href}#step={f['step']}", picture=pic,
        place=game.place(f), message=said, consequence=game.say(f.get("consequence") or ""),
        evidence=[(t(name, lang), game.say(phrase(text, lang)))
                  for name, text in f.get("evidence") or []],
        raw=[f] if _is_result(f) else None)


# ---------------------------------------------------------------- a payment card in words


def _amount(v: object) -> str:
    """A value as the page writes it: an integer with thousands separators."""
    return f"{v:,}" if isinstance(v, int) and not isinstance(v, bool) else str(v)


def _payment_words(game: Game, card: dict[str, Any]) -> None:
    """Say a result card in words (``said``), with its basis (``basis``) and the codes it
    gathers (``codes``)."""
    lang, raw = game.lang, card["raw"]
    said = []
    for f in raw:
        r, c = f.get("recorded"), f.get("computed")
        if f["code"] in _PAYMENTS and isinstance(r, int) and isinstance(c, int):
            key = ("{who} was paid {r}; {c} is due." if min(r, c) >= 0 else
                   "{who} paid {r}; {c} was due." if max(r, c) <= 0 else
                   "{who}'s score changed by {r}; {c} is due.")
            signed = min(r, c) < 0 < max(r, c)
            said.append(t(key, lang, who=game.who(f["seat"]),
                          r=f"{r:+,}" if signed else f"{abs(r):,}",
                          c=f"{c:+,}" if signed else f"{abs(c):,}"))
        elif f["code"] == "win-points":
            if any(x["code"] == "win-deltas" for x in raw):
                continue  # the payments say it, and the basis gives the value
            said.append(t("The hand was valued at {r}; it is worth {c}.", lang,
                          r=_amount(r), c=_amount(c)))
        elif f["code"] == "deltas-unbalanced":
            said.append(t("The payments written do not add up to the riichi sticks collected.",
                          lang))
        else:
            said.append(t("The record says {field} {r}; it is {c}.", lang,
                          field=t(f.get("field", ""), lang),
                          r=t(_amount(r), lang) if r is not None else t("(none)", lang),
                          c=t(_amount(c), lang) if c is not None else t("(none)", lang)))
    codes = list(dict.fromkeys(f["code"] for f in raw))
    card.update(said=_STOPS[lang].join(dict.fromkeys(said)), codes=codes,
                basis=t("Basis: {what}.", lang, what=_basis(game, card["step"], raw)),
                raw=[dict(f, place=game.place(f), message=game.say(f["message"]))
                     for f in raw])


def _computed(raw: list[dict[str, Any]], code: str) -> Any:
    """The computed value of the first finding of ``code`` in ``raw`` (None: none)."""
    return next((f.get("computed") for f in raw if f["code"] == code), None)


def _value(game: Game, k: int, raw: list[dict[str, Any]]) -> str:
    """What the result at step ``k`` is worth, as the audit computed it: a win's han and
    fu (or 台), its limit and points (a score sheet's written value as the ruleset pays
    it, :func:`mjlog.families.riichi.scoring.written.written_value`); ``""`` for other results."""
    ev, lang = game.events[k], game.lang
    res = game.data["steps"][k].get("res", {})
    if not isinstance(ev, Win):
        return ""
    han = _computed(raw, "win-han") or ev.han
    fu = _computed(raw, "win-fu") or ev.fu
    points = _computed(raw, "win-points") or ev.points
    limit = _computed(raw, "win-limit") or res.get("limit", "")
    if game.sheet:
        before = table_at(game.data["steps"], k - 1) if k else {}
        val = written_value(ev, dealer=before.get("dl", 0), players=game.data["n"],
                            ruleset=game.ruleset)
        if val is not None:
            points, limit = val.points, val.limit
    parts = []
    if han:
        parts.append(t("{han} 台", lang, han=han) if game.data["unit"] == "台" else
                     t("{han} han {fu} fu", lang, han=han, fu=fu) if fu else
                     f"{han}{t('han', lang)}" if lang != "en" else f"{han} han")
    if limit:
        parts.append(t(limit, lang))
    if points:
        parts.append(t("{n} points", lang, n=f"{points:,}"))
    return joined(parts, lang)


def _basis(game: Game, k: int, raw: list[dict[str, Any]]) -> str:
    """On what the result at step ``k`` is paid: dealer or not, ron from whom or tsumo, its
    value, honba and riichi sticks; a draw's name and who was ready."""
    ev, lang = game.events[k], game.lang
    before = table_at(game.data["steps"], k - 1) if k else {}
    if isinstance(ev, Win):
        first = not (k and isinstance(game.events[k - 1], Win))
        parts = [t("dealer" if ev.winner == before.get("dl") else "non-dealer", lang),
                 t("tsumo", lang) if ev.from_player == ev.winner
                 else t("ron from {who}", lang, who=game.who(ev.from_player))]
        value = _value(game, k, raw)
        parts += [value] if value else []
        if first and before.get("hb"):
            parts.append(t("honba {n}", lang, n=before["hb"]))
        if first and before.get("ks"):
            parts.append(t("riichi sticks {n}", lang, n=before["ks"]))
        return joined(parts, lang)
    return _draw_words(game, k)


def _draw_words(game: Game, k: int) -> str:
    """A draw's or a chombo's line in words: its name and who was ready."""
    ev, lang = game.events[k], game.lang
    if isinstance(ev, Chombo):
        return t("chombo by {who}", lang, who=game.who(ev.player))
    res = game.data["steps"][k].get("res", {})
    name = t(res.get("name", "abortive draw"), lang)
    if not isinstance(ev, ExhaustiveDraw):
        return name
    ready = [game.who(p) for p, h in enumerate(ev.hands) if h is not None]
    return joined([name, t("ready: {names}", lang, names=joined(ready, lang)) if ready
                   else t("nobody ready", lang)], lang)


# ---------------------------------------------------------------- the score sheet


def _settled(game: Game) -> dict[int, dict[int, int]]:
    """The payment corrections the settlement made, each at the step of the mismatch it
    corrects: step → seat → amount. Read from the settlement's own lines (it corrects a
    payment mismatch outside a chombo's round), matched to the mismatches by round, seat
    and values; nothing is computed here."""
    st = game.report.settlement
    made: Counter[tuple[Any, ...]] = Counter()
    for line in st.corrections if st else []:
        m = _SETTLED.fullmatch(line)
        if m:
            made[(m[1], int(m[2]), int(m[3]), int(m[4]))] += 1
    out: dict[int, dict[int, int]] = {}
    for f in _placed(game):
        key = (f["place"].split(",")[0], f["seat"], f.get("recorded"), f.get("computed"))
        if f["code"] in _PAYMENTS and made[key] > 0:
            made[key] -= 1
            seats = out.setdefault(f["step"], {})
            seats[f["seat"]] = seats.get(f["seat"], 0) + f["computed"] - f["recorded"]
    return out


def _sheet(game: Game, cards: list[dict[str, Any]]) -> dict[str, Any] | None:
    """The game as a score sheet: a line per result (its payments per player and the
    running scores, corrected as the settlement corrected them, each card of the line
    linked), the start, and the settlement's final scores and points."""
    steps, n = game.data["steps"], game.data["n"]
    fixes = _settled(game)
    raws = {c["step"]: c["raw"] for c in cards if c.get("raw")}
    rows: list[dict[str, Any]] = []
    before: list[int] | None = None
    start: list[int] = []
    deposits: list[int] = []
    total = [0] * n
    for k, ev in enumerate(game.events):
        if isinstance(ev, RoundStart) and before is None:
            before = list(table_at(steps, k).get("s") or [0] * n)
            start = before
        elif isinstance(ev, RiichiAccepted):
            deposits.append(ev.player)
        elif isinstance(ev, RESULTS) and before is not None:
            after = list(table_at(steps, k).get("s") or before)
            fix = fixes.get(k, {})
            total = [x + fix.get(p, 0) for p, x in enumerate(total)]
            rows.append(_row(game, k, [a - b for a, b in zip(after, before, strict=False)],
                             after, (fix, total), deposits, raws.get(k, [])))
            before, deposits = after, []
    if before is None:
        return None
    _link(game, rows, cards)
    return {"open": game.sheet, "players": game.data["players"], "rows": rows,
            "start": [f"{x:,}" for x in start],
            **_final(game, [a + b for a, b in zip(before, total, strict=False)])}


def _row(game: Game, k: int, change: list[int], after: list[int],
         fixed: tuple[dict[int, int], list[int]], deposits: list[int],
         raw: list[dict[str, Any]]) -> dict[str, Any]:
    """One line of the sheet: the result at step ``k`` (``raw``: its card's findings),
    what each seat's score did in it (``change``, recorded) and after it (``after``),
    corrected by ``fixed``: this line's corrections and their total up to it."""
    ev, lang = game.events[k], game.lang
    fix, total = fixed
    if isinstance(ev, Win):
        said = t("{winner} wins by tsumo", lang, winner=game.who(ev.winner)) \
            if ev.winner == ev.from_player else t(
                "{winner} wins by ron from {from}", lang,
                **{"winner": game.who(ev.winner), "from": game.who(ev.from_player)})
    else:
        said = _draw_words(game, k)
    cells = []
    for p, (ch, sc) in enumerate(zip(change, after, strict=False)):
        good = ch + fix.get(p, 0)
        cells.append({"change": f"{good:+,}" if good else "", "was": f"{ch:+,}" if p in fix
                      else None, "score": f"{sc + total[p]:,}",
                      "score_was": f"{sc:,}" if total[p] else None})
    return {"step": k, "label": game.data["labels"][k], "line": game.lines[k] or "",
            "link": f"{game.href}#step={k}", "result": said, "value": _value(game, k, raw),
            "riichi": t("riichi: {names}", lang, names=joined(
                [game.who(p) for p in deposits], lang)) if deposits else "",
            "cells": cells, "fixes": []}


def _link(game: Game, rows: list[dict[str, Any]], cards: list[dict[str, Any]]) -> None:
    """Put each card on the first line at or after its step (the last line when none is):
    its code, linked to it, and what it says."""
    if not rows:
        return
    for card in cards:
        row = next((r for r in rows if r["step"] >= card["step"]), rows[-1])
        text = card.get("said") or (card["message"] if card["kind"] == "mismatch" or game.lang
                                    == "en" else t(card["title"], game.lang))
        row["fixes"].append({"id": card["id"], "codes": card.get("codes") or [card["code"]],
                             "text": text})
        if card["code"] == "next-round" and card.get("field") in _LABEL_FIELDS:
            row["label_due"] = _label_due(game, row, card)


_LABEL_FIELDS: Final = {"round wind": "round_wind", "round number": "round_number",
                        "honba": "honba"}
"""A ``next-round`` mismatch's fields that a round's label shows, and their event field."""


def _label_due(game: Game, row: dict[str, Any], card: dict[str, Any]) -> str:
    """The label the line ``row`` is due (``E2-2`` for ``E2-1``), as the ``next-round``
    ``card`` says, over what an earlier card of the line already said."""
    start = next(ev for ev in reversed(game.events[:row["step"] + 1])
                 if isinstance(ev, RoundStart))
    due = {"round_wind": start.round_wind, "round_number": start.round_number,
           "honba": start.honba, **row.get("due", {})}
    if isinstance(card["computed"], int):
        due[_LABEL_FIELDS[card["field"]]] = card["computed"]
    row["due"] = due
    return round_label(due["round_wind"], due["round_number"], due["honba"])


def _final(game: Game, running: list[int]) -> dict[str, Any]:
    """The sheet's last lines, the settlement's: the final scores (and the difference to
    the running scores its other corrections made), the chombo penalties after uma, and
    the final points with uma."""
    st, lang = game.report.settlement, game.lang
    if st is None:
        return {"final": None}
    other = [b - a for a, b in zip(running, st.corrected, strict=False)]
    cells = [{"score": f"{c:,}", "was": f"{r:,}" if c != r else None}
             for c, r in zip(st.corrected, st.recorded, strict=False)]
    points = None if st.points is None else [
        {"score": f"{x:+.1f}", "was": f"{st.recorded_points[p]:+.1f}"
         if st.recorded_points is not None and st.recorded_points[p] != x else None}
        for p, x in enumerate(st.points)]
    rs = game.ruleset
    return {"final": cells, "points": points,
            "other": [f"{x:+,}" if x else "" for x in other] if any(other) else None,
            "penalties": [f"{-x:+g}" if x else "" for x in st.penalties]
            if any(st.penalties) else None,
            "uma": t("Final points: (score − {ret}) ÷ 1,000, plus uma {uma}; the first place "
                     "takes the oka.", lang, ret=f"{rs.return_score:,}", uma=rs.uma)
            if points else ""}


def _settlement(st: Settlement, names: list[str], lang: str,
                say: Callable[[str], str] | None = None) -> list[str]:
    """Who owes what (:func:`mjlog.reports.audit.settlement_lines`) in ``lang``: each player's line
    in ``lang``, the corrections as the settlement wrote them, read into ``lang`` where
    :mod:`mjlog.reports.view.words` knows their form (a payment's, the sticks left over), with
    ``say`` naming their seats."""
    if lang == "en":
        return [line.strip() for line in settlement_lines(st, names)[1:]]
    lines = [say(phrase(c, lang)) if say else named(c, names) for c in st.corrections]
    for p, (rec, cor) in enumerate(zip(st.recorded, st.corrected, strict=True)):
        who = named(f"player {p}", names) if any(names) else t("player {n}", lang, n=p)
        parts = [f"{who}：{cor:,}" + (t("(recorded {n})", lang, n=f"{rec:,}") if cor != rec
                                      else "")]
        if st.points is not None:
            pts = st.points[p]
            parts.append(t("{pts} final points", lang, pts=f"{pts:+.1f}") + "：" + _owed(
                pts, f"{abs(pts):.1f}", lang))
            if st.recorded_points is not None and st.recorded_points[p] != pts:
                parts[-1] += t("(recorded {n})", lang, n=f"{st.recorded_points[p]:+.1f}")
        else:
            change = cor - st.start[p] if p < len(st.start) else 0
            parts.append(t("{change} over the rounds recorded", lang, change=f"{change:+,}")
                         + "：" + _owed(change, f"{abs(change):,}", lang))
            if p < len(st.penalties) and st.penalties[p]:
                parts.append(t("and loses {n} points at the game's end", lang,
                               n=f"{st.penalties[p]:g}"))
        lines.append(joined(parts, lang) + (t("(bust)", lang) if p in st.bust else ""))
    return lines


def _owed(value: float, amount: str, lang: str) -> str:
    """What a player is owed, owes, or ``even``, in ``lang``."""
    if value > 0:
        return t("is owed {n}", lang, n=amount)
    return t("owes {n}", lang, n=amount) if value < 0 else t("even", lang)

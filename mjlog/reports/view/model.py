"""What the replay viewer shows: the table after every event of a game, as compact data.

:func:`game_view` replays a record once, through the audit
(:func:`mjlog.reports.audit.audit_record`) with a :class:`Recorder` watching the
same replay, and returns plain JSON-able data:

* ``steps``: one per event the replay applied, in order. A step holds what
  changed on the table since the step before it (a seat's hand, river,
  melds, the scores …), each value whole, never a difference to apply: the
  table at step *k* is the round's first step (``key``, holding everything)
  with the later steps' values written over it, up to *k*. A step also
  says what happened (``c``), its event's index in the record (``e``), who
  moved (``who``) and, at a win, a draw or the game's end, the result screen
  (``res``), which belong to that step alone.
* ``findings``: the audit's violations, score mismatches, findings and
  notes, each with the step it points at, its title (the catalogue's
  meaning of its code, in English: a key of ``words``) and its place in
  Japanese and Chinese (``places``).
* ``lang``, ``langs``, ``words``, ``captions``, ``caption_at`` and
  ``round_names``: the language the page opens in, the languages it can
  switch to, each language's words (:mod:`mjlog.reports.view.words`: English phrase
  to translation, empty for English: :func:`mjlog.reports.view.words.page_words`, of
  the yaku, patterns and findings' titles only this game's own), the steps'
  captions and each round's name in Japanese and Chinese (the English ones
  are ``steps[i]["c"]`` and ``rounds[r][1]``). A game says the same thing many times ("Aoi discards
  9m"), so ``captions[lang]`` lists each caption once and step *i*'s is
  ``captions[lang][caption_at[i]]`` (one index for both languages).
* ``review``: an AI's review that came with the record (a Mortal review report's), each
  reviewed move at its step (:func:`mjlog.reports.view.review.review_view`); None without one.
* ``facts``: the decision facts of every discard (shanten, ukeire, the most accepting
  choice, safety classes against riichi, deal-ins), each at its step
  (:func:`mjlog.reports.view.facts.facts_view`), computed by
  :class:`~mjlog.families.riichi.decisions.observer.DecisionFacts` in the same replay; ``{"error":
  why}``
  when that observer failed (the page then shows none).

Tiles are mpsz codes of two characters (``5m``, ``0p`` a red five, ``1z``
east, ``1f`` a flower, ``??`` a tile nobody wrote down). Everything here is
computed by mjlog's replay and referee; the page only shows it. This module
writes no page (:mod:`mjlog.reports.view.page` does).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any, Final

from mjlog.core.catalogue import CODES
from mjlog.core.diagnostics import BaseFinding, Finding, ScoreMismatch, Severity, Violation
from mjlog.core.events import (
    EVENT_TYPES,
    AddedKan,
    Chi,
    ClosedKan,
    Discard,
    Draw,
    Event,
    GameStart,
    OpenKan,
    Pon,
    RoundStart,
    round_label,
)
from mjlog.core.record import GameRecord
from mjlog.core.ruleset import Ruleset
from mjlog.core.tiles import KIND_OF, NUM_KINDS, kind_str
from mjlog.families.check import Referee
from mjlog.families.registry import family_of
from mjlog.families.riichi.decisions.observer import DecisionFacts
from mjlog.families.riichi.hand.shape import counts_of, kinds_of_mask
from mjlog.replay.engine import Engine
from mjlog.replay.observer import Observer
from mjlog.replay.state import PlayerState, TableState
from mjlog.reports.audit import GameReport, Options, audit_record, named
from mjlog.reports.view.captions import caption, code, codes, result_screen, round_name
from mjlog.reports.view.facts import facts_view
from mjlog.reports.view.review import review_view
from mjlog.reports.view.words import LANGS, page_words, place_text, t

MAX_STEPS: Final = 50_000
"""The most steps a page draws: a whole game has about 1,500; only a damaged or hostile
record has more, and its page stops there (``page-capped``), so that its size stays
bounded (the audit still judges every event)."""
ONE_STEP: Final = frozenset({"c", "e", "who", "res", "key"})
"""Step fields that belong to their step alone (the others last until overwritten)."""

OTHER_LANGS: Final = tuple(lang for lang in LANGS if lang != "en")
"""The languages whose captions a page carries beside the English of its steps."""

TITLES: Final = {(c.code, c.kind): c.meaning for c in CODES}
"""Each code's title (its meaning in the catalogue) by code and kind; a violation's title
is its rule's citation."""


class Recorder(Observer):
    """Records the table after every event the engine applies (module docstring)."""

    name = "viewer"

    def __init__(self, engine: Engine, ruleset: Ruleset, judges: Sequence[Observer],
                 names: list[str]) -> None:
        self.engine = engine
        self.ruleset = ruleset
        self.red = ruleset.red_fives
        self.family = family_of(ruleset)
        self.referee = next((o for o in judges if isinstance(o, Referee)), None)
        self.names = names
        self.steps: list[dict[str, Any]] = []
        self.labels: list[str] = []
        """Each step's round label (``E1-0``), empty before the first round."""
        self.rounds: list[tuple[str, str, int]] = []
        """Each round: its label, its name in words and its first step."""
        self.captions: dict[str, list[str]] = {lang: [] for lang in OTHER_LANGS}
        """The steps' captions in each language but English, each once."""
        self.caption_at: list[int] = []
        """Each step's caption: its place in each list of :attr:`captions`."""
        self._said: dict[tuple[str, ...], int] = {}
        self.round_names: dict[str, list[str]] = {lang: [] for lang in OTHER_LANGS}
        """Each round's name in each language but English."""
        self.left_out = 0
        """The events past :data:`MAX_STEPS`, which the page does not draw."""
        self._last: dict[str, Any] = {}
        self._ready: dict[tuple[tuple[int, ...], int], tuple[int, int]] = {}
        self._drawn: dict[int, int] = {}
        self._seats: dict[int, tuple[tuple[Any, ...], tuple[Any, ...]]] = {}
        self._keys = [(f"h{p}", f"m{p}", f"v{p}", f"k{p}", f"q{p}", f"a{p}") for p in range(4)]

    def record(self, ev: Event) -> None:
        """One step: what the event changed, what it was, and its result screen; none
        past :data:`MAX_STEPS` (counted in :attr:`left_out`)."""
        if len(self.steps) >= MAX_STEPS:
            self.left_out += 1
            return
        engine, s = self.engine, self.engine.state
        if isinstance(ev, Draw):
            self._drawn[ev.player] = ev.tile
        elif isinstance(ev, RoundStart | Discard | Chi | Pon | OpenKan):
            self._drawn.clear()
        snap = self.snapshot(s)
        key = isinstance(ev, RoundStart | GameStart)
        step = dict(snap) if key else _changed(self._last, snap)
        self._last = snap
        unit = self.family.value_unit
        step.update(c=caption(ev, s, self.names, self.red, unit), e=engine.index)
        self._caption(ev, s, unit)
        who = getattr(ev, "player", getattr(ev, "winner", None))
        if who is not None:
            step["who"] = who
        if key:
            step["key"] = 1
        res = result_screen(ev, s, self.names, self.red,
                            engine.game.first_dealer if engine.game else 0)
        if res is not None:
            step["res"] = res
        if isinstance(ev, RoundStart):
            label = round_label(ev.round_wind, ev.round_number, ev.honba)
            name = round_name(ev.round_wind, ev.round_number, ev.honba)
            self.rounds.append((label, name, len(self.steps)))
            for lang, names in self.round_names.items():
                names.append(round_name(ev.round_wind, ev.round_number, ev.honba, lang))
        self.labels.append(self.rounds[-1][0] if self.rounds else "")
        self.steps.append(step)

    def _caption(self, ev: Event, s: TableState, unit: str) -> None:
        """The step's caption in each language but English, listed once."""
        said = tuple(caption(ev, s, self.names, self.red, unit, lang) for lang in OTHER_LANGS)
        k = self._said.get(said)
        if k is None:
            k = self._said[said] = len(self._said)
            for lang, text in zip(OTHER_LANGS, said, strict=True):
                self.captions[lang].append(text)
        self.caption_at.append(k)

    def snapshot(self, s: TableState) -> dict[str, Any]:
        """Everything on the table now, field by field."""
        snap: dict[str, Any] = {
            "rw": s.round_wind, "rn": s.round_number, "hb": s.honba, "ks": s.kyotaku,
            "dl": s.dealer, "wall": s.live_wall, "t": s.turn, "s": list(s.scores),
            "d": codes(s.dora_indicators, self.red, sort=False),
            "ura": codes(s.ura_indicators, self.red, sort=False),
        }
        for p, ps in enumerate(s.players):
            seat = self._seat(p, ps, s)
            snap.update(zip(self._keys[p], seat, strict=True))
            if seat[5]:  # furiten can change while the hand does not
                snap[f"a{p}"] = [*seat[5], self.referee.furiten(p) if self.referee else ""]
        return snap

    def _seat(self, p: int, ps: PlayerState, s: TableState) -> tuple[Any, ...]:
        """A seat's hand, melds, river, set-aside tiles, riichi and readiness: worked out
        again only when something of the seat changed (most events change one seat)."""
        drawn = self._drawn.get(p, -1) if s.to_discard == p else -1
        mark = (frozenset(ps.concealed), ps.unknown, drawn, len(ps.river), len(ps.called_away),
                ps.riichi_index, tuple(map(id, ps.melds)), len(ps.kita), len(ps.flowers))
        kept = self._seats.get(p)
        if kept is not None and kept[0] == mark:
            return kept[1]
        seat = (self._hand(ps, drawn), [self._meld(m, p, s.n) for m in ps.melds],
                "".join(self._discard(ps, i) for i in range(len(ps.river))),
                codes([*ps.kita, *ps.flowers], self.red, sort=False), int(ps.riichi),
                self._analysis(ps))
        self._seats[p] = (mark, seat)
        return seat

    def _hand(self, ps: PlayerState, drawn: int) -> str:
        """The concealed tiles sorted, unknown ones after, and the tile just drawn (``-1``:
        none) apart, after ``|``."""
        apart = drawn in ps.concealed
        text = codes((t for t in ps.concealed if not apart or t != drawn), self.red)
        return text + "??" * ps.unknown + ("|" + code(drawn, self.red) if apart else "")

    def _meld(self, m: Event, p: int, n: int) -> list[Any]:
        """A meld: its kind, its tiles, the called tile and whose it was (seats to the
        right: 1 the next player, 2 across, 3 the one before; 0 a closed kan)."""
        if isinstance(m, ClosedKan):
            return ["closed_kan", codes(m.tiles, self.red), "", 0]
        assert isinstance(m, Chi | Pon | OpenKan | AddedKan)
        extra = code(m.added, self.red) if isinstance(m, AddedKan) else ""
        return [m.TYPE, codes(m.tiles, self.red), code(m.called, self.red),
                (m.from_player - p) % n, extra]

    def _discard(self, ps: PlayerState, i: int) -> str:
        """A river tile with its marks: ``'`` drawn and thrown, ``*`` riichi, ``^`` called."""
        d = ps.river[i]
        return (code(d.tile, self.red) + ("'" if d.tsumogiri else "")
                + ("*" if i == ps.riichi_index else "") + ("^" if i in ps.called_away else ""))

    def _analysis(self, ps: PlayerState) -> list[Any]:
        """Shanten and waits (codes) of a fully known hand; ``[]`` otherwise."""
        kinds = [KIND_OF[t] for t in ps.concealed]
        if ps.unknown or not kinds or max(kinds) >= NUM_KINDS:
            return []
        key = (tuple(counts_of(kinds)), len(ps.melds))
        found = self._ready.get(key)
        if found is None:
            found = self._ready[key] = self.family.readiness(key[0], key[1], self.ruleset)
        shanten, waits = found
        return [shanten, "".join(kind_str(k) for k in kinds_of_mask(waits))]


for _tag in EVENT_TYPES:  # the recorder looks at every event, after it is applied
    setattr(Recorder, "after_" + _tag, Recorder.record)


class Watching(Observer):
    """The page's one observer of the audit's replay: the decision facts
    (:class:`DecisionFacts`) then the :class:`Recorder`, hook by hook, so the page needs no
    second replay. A failure of the facts stops them (kept in :attr:`failed`, the page
    then carries none) and never the recording."""

    name = "viewer"

    def __init__(self, recorder: Recorder, facts: DecisionFacts) -> None:
        self.recorder = recorder
        self.facts: DecisionFacts | None = facts
        self.failed = ""

    def _facts(self, hook: str, ev: Event) -> None:
        """``hook`` of the facts on ``ev``; an exception ends the facts (:attr:`failed`)."""
        if self.facts is None:
            return
        try:
            getattr(self.facts, hook)(ev)
        except Exception as exc:  # mjlog's own failure: said on the page, never raised
            self.failed = ("mjlog's decision facts failed at event "
                           f"{self.recorder.engine.index}: {exc!r}")
            self.facts = None


def _watching_hooks() -> None:
    """Give :class:`Watching` a hook for each of the facts' hooks and each event's
    ``after_`` (the recorder's)."""
    def before(hook: str) -> Any:
        return lambda self, ev: self._facts(hook, ev)

    def after(hook: str) -> Any:
        def run(self: Watching, ev: Event) -> None:
            self._facts(hook, ev)
            self.recorder.record(ev)
        return run

    for tag in EVENT_TYPES:
        if hasattr(DecisionFacts, "before_" + tag):
            setattr(Watching, "before_" + tag, before("before_" + tag))
        if hasattr(DecisionFacts, "after_" + tag):
            setattr(Watching, "after_" + tag, after("after_" + tag))
        else:
            setattr(Watching, "after_" + tag, lambda self, ev: self.recorder.record(ev))


_watching_hooks()


def game_view(rec: GameRecord, index: int = 0, *, preset: str | None = None,
              options: Options = (), force: bool = False, wall: bool = True,
              rules: bool = True, scores: bool = True, lang: str = "en") -> dict[str, Any]:
    """The viewer's data of one game (module docstring), audited under ``preset`` and
    ``options`` as :func:`mjlog.reports.audit.audit_record` does, in the same replay; the page
    opens in ``lang`` and carries every language of :data:`mjlog.reports.view.words.LANGS`.
    Raises ``ValueError`` for another language before reading anything."""
    if lang not in LANGS:
        raise ValueError(f"unknown language {lang!r}; known: {', '.join(LANGS)}")
    start = rec.events[0] if rec.events and isinstance(rec.events[0], GameStart) else None
    names = [p.name or f"Seat {i + 1}" for i, p in enumerate(start.players)] if start else []
    made: list[Watching] = []

    def watch(engine: Engine, ruleset: Ruleset, judges: Sequence[Observer]) -> Observer:
        made.append(Watching(Recorder(engine, ruleset, judges, names),
                             DecisionFacts(engine, ruleset)))
        return made[0]

    report = audit_record(rec, index, preset=preset, options=options, force=force, wall=wall,
                          rules=rules, scores=scores, watch=watch)
    rec_, facts = made[0].recorder, made[0]
    n = len(names) or (rec_.engine.state.n if rec_.steps else 4)
    findings = findings_of(report, rec_)
    if rec_.left_out:
        findings.append(_finding(Finding(
            code="page-capped", severity=Severity.WARNING,
            round=rec_.labels[-1] if rec_.labels else "",
            message=f"the page draws the first {MAX_STEPS:,} moves; {rec_.left_out:,} more "
            "are left out (the audit judged them all)"), len(rec_.steps) - 1))
    used = {f["title"] for f in findings} | {
        y[0] for st in rec_.steps if st.get("res", {}).get("kind") == "win"
        for y in st["res"]["yaku"]}
    return {
        "source": rec.path, "game": index, "format": rec.format, "ruleset": report.ruleset,
        "unit": rec_.family.value_unit, "dora": rec_.family.has_dora,
        "players": names or [f"Seat {i + 1}" for i in range(n)], "n": n,
        "rounds": [list(r) for r in rec_.rounds], "labels": rec_.labels,
        "steps": rec_.steps, "findings": findings,
        "settlement": report.settlement.to_dict() if report.settlement else None,
        "lang": lang, "langs": list(LANGS), "words": {k: page_words(k, used) for k in LANGS},
        "captions": rec_.captions, "caption_at": rec_.caption_at,
        "round_names": rec_.round_names,
        "review": review_view(rec.review, rec_.steps, rec_.red),
        "facts": {"error": facts.failed} if facts.failed or facts.facts is None
        else facts_view(facts.facts.decisions, rec_.steps),
    }


def findings_of(report: GameReport, rec: Recorder) -> list[dict[str, Any]]:
    """Every finding of the audit as the page lists it, each with the step it points at:
    its event's step when it names one, else the last step of its round and turn."""
    by_event = {st["e"]: i for i, st in enumerate(rec.steps)}
    by_turn: dict[tuple[str, int], int] = {}
    results: dict[str, list[int]] = {}
    for i, label in enumerate(rec.labels):
        by_turn.setdefault((label, _turn_at(rec.steps, i)), i)
        by_turn.setdefault((label, -1), i)
        if "res" in rec.steps[i]:
            results.setdefault(label, []).append(i)
    out = []
    items: list[BaseFinding] = [*report.violations, *report.mismatches, *report.findings,
                                *report.diagnostics]
    for f in items:
        step = by_event.get(f.event, -1) if isinstance(f, Violation) else -1
        if step < 0 and isinstance(f, ScoreMismatch):
            step = _result_step(rec.steps, results.get(f.round, []), f.player)
        if step < 0:
            step = by_turn.get((f.round, f.turn), by_turn.get((f.round, -1), 0))
        out.append(_named(_finding(f, step), report.players))
    return out


def _named(found: dict[str, Any], names: Sequence[str]) -> dict[str, Any]:
    """A finding as the page lists it with each seat the record names written as the text
    report writes it (``Aoi [0]``, not ``player 0``), in its place, message and
    consequence, and in the places of the other languages."""
    if not any(names):
        return found
    for key in ("place", "message", "consequence"):
        if isinstance(found.get(key), str):
            found[key] = named(found[key], names)
    found["places"] = {lang: _named_in(text, t("player {n}", lang, n=0), names)
                       for lang, text in found.get("places", {}).items()}
    return found


def _named_in(text: str, unnamed: str, names: Sequence[str]) -> str:
    """``text`` with each seat written as ``unnamed`` says it (``プレイヤー0``) named."""
    mark = re.escape(unnamed).replace("0", r"(\d+)")
    return re.sub(mark, lambda m: f"{names[int(m[1])]} [{m[1]}]"
                  if int(m[1]) < len(names) and names[int(m[1])] else m[0], text)


def _result_step(steps: list[dict[str, Any]], results: list[int], player: int | None) -> int:
    """The result a score mismatch is about: the round's win of ``player`` when it has one,
    else its first result (-1 when the round has none)."""
    for i in results:
        if steps[i]["res"].get("winner") == player:
            return i
    return results[0] if results else -1


RIVERS: Final = frozenset(f"v{p}" for p in range(4))
"""The step fields of the rivers: a river that grew is written as what it gained, under
its field with ``+`` after it (``v0+``), so a page's size is linear in the moves."""


def _changed(last: dict[str, Any], snap: dict[str, Any]) -> dict[str, Any]:
    """The fields of ``snap`` that differ from ``last``; a river that only grew as its
    new tiles (see :data:`RIVERS`)."""
    out: dict[str, Any] = {}
    for k, v in snap.items():
        old = last.get(k)
        if old == v:
            continue
        if k in RIVERS and isinstance(old, str) and old and v.startswith(old):
            out[k + "+"] = v[len(old):]
        else:
            out[k] = v
    return out


def merged(table: dict[str, Any], step: dict[str, Any]) -> None:
    """Write ``step``'s lasting fields over ``table`` (a river's ``+`` field appended to
    it): how a page, and :func:`mjlog.reports.view.report.table_at`, rebuild the table at a
    step from its round's first step on."""
    for f, v in step.items():
        if f in ONE_STEP:
            continue
        if f.endswith("+"):
            table[f[:-1]] = table.get(f[:-1], "") + v
        else:
            table[f] = v


def _turn_at(steps: list[dict[str, Any]], i: int) -> int:
    """The round's move count at step ``i`` (the last ``t`` written up to it)."""
    while i >= 0:
        if "t" in steps[i]:
            return int(steps[i]["t"])
        i -= 1
    return 0


def _finding(f: BaseFinding, step: int) -> dict[str, Any]:
    """One finding as the page shows it."""
    out: dict[str, Any] = {"step": step, "kind": f.KIND, "code": f.code,
                           "severity": f.severity.value, "message": f.message,
                           "place": f.place, "seat": f.player,
                           "title": f.citation if isinstance(f, Violation)
                           else TITLES.get((f.code, f.KIND), ""),
                           "places": {lang: place_text(f.place, lang) for lang in OTHER_LANGS}}
    if isinstance(f, Violation):
        out.update(rule=f.rule, citation=f.citation, evidence=[list(e) for e in f.evidence],
                   consequence=f.consequence)
    elif isinstance(f, ScoreMismatch):
        out.update(field=f.field, recorded=f.recorded, computed=f.computed)
    out["severity"] = "error" if isinstance(f, Violation | ScoreMismatch) else (
        f.severity.value if isinstance(f.severity, Severity) else str(f.severity))
    return out


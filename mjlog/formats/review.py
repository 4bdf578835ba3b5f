"""Mortal's review in an mjai-reviewer report, tied to the moves of the game it reviews.

mjai-reviewer (``mjai-reviewer --json``, and Mortal's review site, which runs it) writes
one JSON object: the reviewed game's mjai events in ``mjai_log``, the reviewed seat in
``player_id``, the reviewer's ``engine`` (``Mortal``) and ``version``, and ``review``:
``model_tag``, ``temperature``, ``rating``, ``total_reviewed``, ``total_matches`` and
``kyokus``, one per round of the log in order (``kyoku`` counting from 0 for East 1,
``honba``), each with its ``entries``. An entry is one decision of the reviewed player:
``junme`` (the player's draws and chi/pon so far in the round), ``last_actor`` and
``tile`` (the seat and the tile of the event that gave the decision), ``actual`` and
``expected`` (mjai events; ``{"type": "none"}`` for a pass), ``is_equal`` and
``details``: each option weighed, ``action``, ``q_value`` and ``prob``, best first.

The reviewer writes an entry only where the player had more than one option, so the
entries are a part of the game's decisions. :func:`review_of` walks ``mjai_log`` as the
reviewer does, lists every decision the player could have had (after the player's own
draw, riichi, chi or pon, or another player's discard or kan: the event, the player's
turn count, the last actor and tile, the action that followed) and matches the entries to
them in order: an entry belongs to the first decision after the last one matched with the
same round, ``junme``, ``last_actor``, ``tile`` and actual action. An entry that matches
none is left out with a note; nothing is guessed. Akochan's reports (another shape) are
not read. This module does no I/O and never raises on a report's contents.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any, Final

from mjlog.core.review import Action, Choice, Review, ReviewedMove

_KINDS: Final = {"dahai": "discard", "reach": "riichi", "chi": "chi", "pon": "pon",
                 "daiminkan": "kan", "ankan": "kan", "kakan": "kan", "hora": "win",
                 "ryukyoku": "draw", "none": "pass"}
"""mjai's event types that answer a decision, and what mjlog calls each action."""
_SKIPPED: Final = frozenset({"dora", "reach_accepted"})
"""Events the reviewer looks past for the action that followed a decision."""
_MAX_NOTES: Final = 5


@dataclass(frozen=True, slots=True)
class _Point:
    """A decision the reviewed player may have had: after ``log[at]``, with the player's
    turn count, the last actor and tile then, the action that followed (an mjai object)
    and the place in ``mjai_log`` of the move it was (``at`` for a pass)."""

    at: int
    junme: int
    last_actor: int
    tile: str | None
    actual: dict[str, Any]
    move: int


@dataclass(slots=True)
class _Round:
    """One round of ``mjai_log``: its number from 0 (East 1), honba and decisions."""

    number: int
    honba: int
    points: list[_Point]


def review_of(doc: dict[str, Any], log: list[Any], positions: Sequence[int]) -> Review | None:
    """The review in report ``doc`` with each entry tied to the event of the record it is
    about; ``log`` is the report's ``mjai_log`` and ``positions`` the record's (event
    ``i`` read from ``log[positions[i] - 1]``). None when ``doc`` holds no review; entries
    that do not fit the game are left out, each said in :attr:`Review.notes`."""
    review = doc.get("review")
    if not isinstance(review, dict):
        return None
    engine = _text(doc.get("engine")) or ("Mortal" if "model_tag" in review else "")
    player = doc.get("player_id")
    head: dict[str, Any] = {
        "engine": engine, "model": _text(review.get("model_tag")),
        "version": _text(doc.get("version")), "temperature": _number(review.get("temperature")),
        "rating": _number(review.get("rating")), "reviewed": _count(review.get("total_reviewed")),
        "matches": _count(review.get("total_matches"))}
    if engine.lower() == "akochan":
        return Review(player=-1, moves=(), notes=("akochan's reviews are not read, only "
                                                   "Mortal's",), **head)
    if type(player) is not int or not 0 <= player < 4:
        return Review(player=-1, moves=(), notes=(f"player_id {player!r} is not a seat: "
                                                   "the review is not shown",), **head)
    kyokus = review.get("kyokus")
    notes: list[str] = []
    if not isinstance(kyokus, list):
        notes.append("the review has no list of kyokus")
        kyokus = []
    moves = list(_matched(kyokus, list(_rounds(log, player)), positions, notes))
    shown = notes[:_MAX_NOTES]
    if len(notes) > _MAX_NOTES:
        shown.append(f"and {len(notes) - _MAX_NOTES} more parts that do not fit the game")
    return Review(player=player, moves=tuple(moves), notes=tuple(shown), **head)


def _matched(kyokus: list[Any], rounds: list[_Round], positions: Sequence[int],
             notes: list[str]) -> Iterator[ReviewedMove]:
    """Each entry of each kyoku review tied to its decision in the round of the same
    place, in order; what does not fit goes to ``notes``."""
    if len(kyokus) > len(rounds):
        notes.append(f"the review has {len(kyokus)} kyokus, the game {len(rounds)} rounds:"
                     f" the last {len(kyokus) - len(rounds)} are left out")
    for i, (kyoku, rnd) in enumerate(zip(kyokus, rounds, strict=False)):
        if not isinstance(kyoku, dict) or not isinstance(kyoku.get("entries"), list):
            notes.append(f"kyoku {i + 1} of the review has no list of entries")
            continue
        if (kyoku.get("kyoku"), kyoku.get("honba")) != (rnd.number, rnd.honba):
            said = _label(kyoku.get("kyoku"), kyoku.get("honba"))
            notes.append(f"kyoku {i + 1} of the review is {said}, the game's round {i + 1} "
                         f"is {_label(rnd.number, rnd.honba)}: its entries are left out")
            continue
        yield from _entries(kyoku["entries"], rnd, positions, notes)


def _entries(entries: list[Any], rnd: _Round, positions: Sequence[int],
             notes: list[str]) -> Iterator[ReviewedMove]:
    """The entries of one round, each matched to the first decision after the last one
    matched with the same turn count, last actor, tile and action."""
    start = 0
    for n, entry in enumerate(entries, 1):
        where = f"entry {n} of {_label(rnd.number, rnd.honba)}"
        move = _move(entry, where, notes)
        if move is None:
            continue
        key, actual = move
        found = next((j for j in range(start, len(rnd.points))
                      if _key(rnd.points[j]) == key
                      and _same(rnd.points[j].actual, actual)), None)
        if found is None:
            notes.append(f"{where} (junme {key[0]}, {_said(actual)}) fits no move of the game")
            continue
        start = found + 1
        event = bisect_left(positions, rnd.points[found].move + 1)
        if event >= len(positions):
            notes.append(f"{where} is about a move the game does not hold")
            continue
        yield _reviewed(entry, rnd, key[0], event)


def _move(entry: Any, where: str,
          notes: list[str]) -> tuple[tuple[Any, ...], dict[str, Any]] | None:
    """An entry's key (junme, last actor, tile) and actual action, or None (said in
    ``notes``) when it is not an entry of the reviewer's shape."""
    if not isinstance(entry, dict):
        notes.append(f"{where} is not a JSON object")
        return None
    actual, expected, details = entry.get("actual"), entry.get("expected"), entry.get("details")
    if not (_action(actual) and _action(expected) and isinstance(details, list)
            and all(isinstance(d, dict) and _action(d.get("action")) for d in details)):
        notes.append(f"{where} lacks its actual and expected actions or its details")
        return None
    assert isinstance(actual, dict)
    return (entry.get("junme"), entry.get("last_actor"), entry.get("tile")), actual


def _reviewed(entry: dict[str, Any], rnd: _Round, junme: int, event: int) -> ReviewedMove:
    """An entry of the report's shape as a reviewed move at ``event``."""
    choices = tuple(Choice(action=_action(d["action"]) or Action("pass"),
                           q_value=_number(d.get("q_value")) or 0.0,
                           prob=_number(d.get("prob")) or 0.0) for d in entry["details"])
    actual = _action(entry["actual"]) or Action("pass")
    expected = _action(entry["expected"]) or Action("pass")
    agrees = entry.get("is_equal")
    return ReviewedMove(event=event, round=rnd.number, honba=rnd.honba, junme=junme,
                        actual=actual, expected=expected,
                        agrees=agrees if isinstance(agrees, bool) else actual == expected,
                        choices=choices)


# ---------------------------------------------------------------- the game's decisions


def _rounds(log: list[Any], player: int) -> Iterator[_Round]:
    """The rounds of ``mjai_log`` with every decision ``player`` may have had, walked as
    the reviewer walks it: the turn count goes up at the player's draws, chis and pons and
    back to 0 at each round's end; the tile is the player's last draw or anyone's last
    discard or added kan."""
    rnd: _Round | None = None
    junme, last_actor, tile = 0, 0, None
    for i, o in enumerate(log):
        t = o.get("type") if isinstance(o, dict) else None
        if t == "start_kyoku":
            rnd = _Round(_round_number(o), _int(o.get("honba")), [])
            yield rnd
            continue
        if t in ("end_kyoku", "start_game", "end_game") or rnd is None or t is None:
            junme = 0 if t == "end_kyoku" else junme
            continue
        assert isinstance(o, dict)
        actor = o.get("actor")
        if t == "tsumo" and actor == player:
            junme, tile = junme + 1, o.get("pai")
        elif t in ("chi", "pon") and actor == player:
            junme += 1
        elif t in ("dahai", "kakan"):
            tile = o.get("pai")
        if type(actor) is int:
            last_actor = actor
        answer = _answer(log, i, player) if _may_decide(t, actor, player) else None
        if answer is not None:
            rnd.points.append(_Point(i, junme, last_actor, tile, *answer))


def _may_decide(t: Any, actor: Any, player: int) -> bool:
    """Whether an event can give ``player`` a choice: the player's own draw, riichi, chi or
    pon (the discard after it), another player's discard or kan (a call or a ron)."""
    if actor == player:
        return t in ("tsumo", "reach", "chi", "pon")
    return t in ("dahai", "kakan", "ankan")


def _answer(log: list[Any], i: int, player: int) -> tuple[dict[str, Any], int] | None:
    """What ``player`` did after ``log[i]`` and where, as the reviewer finds it: a pass
    (``{"type": "none"}`` at ``i``) when another player moves or draws, the player's own
    win among several, else the player's own next move; None at the log's end."""
    k = i + 1
    while k < len(log) and isinstance(log[k], dict) and log[k].get("type") in _SKIPPED:
        k += 1
    if k >= len(log) or not isinstance(log[k], dict):
        return None
    nxt = log[k]
    if nxt.get("type") == "hora":
        for j in range(k, min(k + 3, len(log))):
            if isinstance(log[j], dict) and log[j].get("type") == "hora" \
                    and log[j].get("actor") == player:
                return log[j], j
        return {"type": "none"}, i
    if nxt.get("type") == "ryukyoku":
        return nxt, k
    if nxt.get("type") == "tsumo" or nxt.get("actor") != player:
        return {"type": "none"}, i
    return nxt, k


def _key(p: _Point) -> tuple[Any, ...]:
    return p.junme, p.last_actor, p.tile


def _same(a: dict[str, Any], b: dict[str, Any]) -> bool:
    """Whether two mjai actions are the same move as the reviewer compares them: the
    type, the tile of a discard or added kan, the tiles taken for a call (red or not)."""
    if a.get("type") != b.get("type"):
        return False
    if a.get("type") in ("dahai", "kakan"):
        return bool(a.get("pai") == b.get("pai"))
    if a.get("type") in ("chi", "pon", "daiminkan", "ankan"):
        return _plain(a.get("consumed")) == _plain(b.get("consumed"))
    return True


def _plain(tiles: Any) -> list[str]:
    """Tile names sorted, a red five as its five."""
    if not isinstance(tiles, list):
        return []
    return sorted(str(t).removesuffix("r") for t in tiles)


# ---------------------------------------------------------------- values


def _action(o: Any) -> Action | None:
    """An mjai event that answers a decision as an :class:`Action`; None for another."""
    if not isinstance(o, dict):
        return None
    t, consumed, pai = o.get("type"), o.get("consumed"), o.get("pai")
    kind = _KINDS.get(t) if isinstance(t, str) else None
    if kind is None:
        return None
    consumed = consumed if isinstance(consumed, list) else []
    pai = pai if isinstance(pai, str) else None
    if kind == "discard":
        tiles = (pai,) if pai else ()
    elif kind in ("chi", "pon", "kan"):
        tiles = (*(str(t) for t in consumed), *((pai,) if pai else ()))
    else:
        tiles = ()
    return Action(kind, tuple(tiles))


def _said(o: dict[str, Any]) -> str:
    action = _action(o)
    return " ".join((action.kind, *action.tiles)) if action else "?"


def _round_number(o: dict[str, Any]) -> int:
    """A ``start_kyoku``'s round counted from 0 as the review counts it (4: South 1)."""
    wind = "ESWN".find(str(o.get("bakaze")))
    return max(wind, 0) * 4 + _int(o.get("kyoku"), 1) - 1


def _label(number: Any, honba: Any) -> str:
    if type(number) is not int or type(honba) is not int or number < 0:
        return f"kyoku {number!r}, honba {honba!r}"
    return f"{'ESWN'[number // 4 % 4]}{number % 4 + 1}-{honba}"


def _int(v: Any, default: int = 0) -> int:
    return v if type(v) is int else default


def _count(v: Any) -> int | None:
    return v if type(v) is int and v >= 0 else None


def _number(v: Any) -> float | None:
    return float(v) if type(v) in (int, float) else None


def _text(v: Any) -> str:
    return v[:200] if isinstance(v, str) else ""

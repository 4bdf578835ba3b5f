"""Tile efficiency of one hand: shanten and ukeire of every discard, native or Python.

A hand is given as 34 kind counts (``mjlog.families.riichi.hand.shape`` numbering), its called sets
as
``melds``, and the sets a complete hand has as ``sets`` (4 in riichi, 5 in Taiwanese
16-tile). The counts hold only concealed tiles; red fives count as fives.

* :func:`discard_options`: for a hand of 3n + 2 tiles, each kind held, what discarding
  one of it leaves: ``(kind, shanten, ukeire mask, unseen copies of the ukeire)``, most
  accepting first (least shanten, then most unseen copies, then kind order);
* :func:`hand_ukeire`: the same three facts for a hand of 3n + 1 tiles.

**Shanten** is :func:`mjlog.families.riichi.hand.shape.shanten`'s for a riichi hand (the standard
shape,
and seven pairs and thirteen orphans while the hand is closed; a ready hand whose every
winning kind it holds four times is 1) and the standard shape over five sets for a
Taiwanese one (its special shapes are not counted). The **ukeire** of a hand of 3n + 1
tiles are the kinds the table holds (``here``, a 34-bit mask: a three-player table has
no 2m to 8m), held fewer than four times, whose draw lowers its shanten (a hand of 3n + 2
tiles is then counted by its shapes alone, as :func:`~mjlog.families.riichi.hand.shape.shanten`
counts
it); their count is the sum of ``unseen`` over them (copies the player cannot see: the
caller counts them). A kind with no unseen copy left is still an ukeire kind.

The native core's ``discard_options`` and ``hand_ukeire`` (``core/src/hand.rs``) are the
fast route; the functions here are their Python twins and the specification
(``MJLOG_PURE=1`` forces them). The observer makes one call per decision, from the hand's
tile ids and the copies the table has left (:func:`facts_route`): ``discard_facts``
(:func:`py_discard_facts`: the options, the best of them and the loss of the tile thrown,
:func:`judge`), ``call_offers`` (:func:`py_call_offers`) and ``offer_ukeire``
(:func:`py_offer_ukeire`). Both count by suits: the other suits' splits are combined
once, and each draw adds only its own suit's. Nothing here knows rules, rivers or
players.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Sequence
from typing import Final

from mjlog.core import native
from mjlog.families.riichi.hand.shape import (
    _SLICES,
    _blocks,
    _fewest,
    _States,
    _with_suit,
    seven_pairs_shanten,
    thirteen_orphans_shanten,
)

KINDS: Final = 34
Choice = tuple[int, int, int, int]
"""One discard: (kind, shanten left, ukeire mask, unseen copies of the ukeire)."""


def _suit(kind: int) -> int:
    return 3 if kind >= 27 else kind // 9


def _rests(b: bytes, melds: int, sets: int) -> list[_States]:
    """For each suit, the other three suits of ``b`` combined from ``melds`` sets."""
    blocks = [_blocks(b[lo:hi], i == 3) for i, (lo, hi) in enumerate(_SLICES)]
    out = []
    for s in range(4):
        states: _States = {(melds, 0): 0}
        for j, block in enumerate(blocks):
            if j != s:
                states = _with_suit(states, block, sets)
        out.append(states)
    return out


def py_hand_ukeire(counts: Sequence[int], melds: int, sets: int, here: int,
                   unseen: Sequence[int]) -> tuple[int, int, int]:
    """Python twin of the native ``hand_ukeire``: shanten, ukeire mask and unseen copies
    of the ukeire of a hand of 3n + 1 tiles (module docstring). Checks nothing."""
    b = bytes(counts)
    special = melds == 0 and sets == 4
    rests = _rests(b, melds, sets)
    lo, hi = _SLICES[3]
    base = _fewest(rests[3], _blocks(b[lo:hi], True), sets)
    if special:
        base = min(base, seven_pairs_shanten(b), thirteen_orphans_shanten(b))
    after = [99] * KINDS
    h = bytearray(b)
    for k in range(KINDS):
        if h[k] >= 4:
            continue
        s = _suit(k)
        lo, hi = _SLICES[s]
        h[k] += 1
        sh = _fewest(rests[s], _blocks(bytes(h[lo:hi]), s == 3), sets)
        if special:
            sh = min(sh, seven_pairs_shanten(h), thirteen_orphans_shanten(h))
        h[k] -= 1
        after[k] = sh
    if base == 0 and not any(v == -1 for v in after):
        base = 1  # ready on nothing but kinds it holds four of
    mask = count = 0
    for k in range(KINDS):
        if after[k] < base and here >> k & 1:
            mask |= 1 << k
            count += unseen[k]
    return base, mask, count


def py_discard_options(counts: Sequence[int], melds: int, sets: int, here: int,
                       unseen: Sequence[int]) -> list[Choice]:
    """Python twin of the native ``discard_options``: each kind held by a hand of 3n + 2
    tiles with what discarding it leaves (module docstring), most accepting first: least
    shanten, then most unseen copies, then kind order."""
    h = bytearray(counts)
    out = []
    for d in range(KINDS):
        if h[d]:
            h[d] -= 1
            out.append((d, *py_hand_ukeire(h, melds, sets, here, unseen)))
            h[d] += 1
    out.sort(key=lambda o: (o[1], -o[3], o[0]))
    return out


Facts = tuple[list[Choice], list[int], tuple[int, int] | None, bytes]
"""One discard decision's facts: options most accepting first, best kinds, loss, unseen."""


def judge(options: Sequence[Choice], forbidden: int, tile: int
          ) -> tuple[list[int], tuple[int, int] | None]:
    """The most accepting options (most accepting first) of those ``forbidden`` (a mask
    of kinds) allows, or of all when it allows none, and the loss of discarding ``tile``
    against them: (shanten lost, unseen copies lost), ``None`` when ``tile`` is not an
    option. Twin of the native ``judge`` (``core/src/hand.rs``)."""
    pool = [o for o in options if not forbidden >> o[0] & 1] or list(options)
    if not pool:
        return [], None
    sh, n = pool[0][1], pool[0][3]
    best = [o[0] for o in pool if o[1] == sh and o[3] == n]
    loss = next(((o[1] - sh, n - o[3]) for o in options if o[0] == tile), None)
    return best, loss


def py_discard_facts(concealed: Iterable[int], melds: int, sets: int, here: int,
                     rest: Sequence[int], forbidden: int, tile: int) -> Facts | None:
    """Python twin of the native ``discard_facts``: from the tile ids of a hand of 3n + 2
    tiles, the copies of each kind the table has not shown (``rest``), the kinds kuikae
    forbids (a mask) and the kind thrown, the options (:func:`py_discard_options`), best
    kinds and loss (:func:`judge`) and the unseen copies (34 bytes). ``None`` for a hand
    it does not count: a tile of no riichi kind (flower, unknown), a kind five times, a
    size that does not discard, more copies of a kind than ``rest`` has; the caller
    explains those."""
    counts = bytearray(KINDS)
    for t in concealed:
        k = t >> 2
        if k >= KINDS or counts[k] >= 4:
            return None
        counts[k] += 1
    if not (1 <= sets <= 5 and 0 <= melds <= sets) or sum(counts) != 3 * (sets - melds) + 2:
        return None
    unseen = bytes(r - c if c <= r <= 4 else 255 for r, c in zip(rest, counts, strict=True))
    if 255 in unseen:
        return None
    options = py_discard_options(counts, melds, sets, here, unseen)
    return (options, *judge(options, forbidden, tile), unseen)


def py_offer_ukeire(concealed: Iterable[int], melds: int, sets: int, here: int,
                    rest: Sequence[int]) -> tuple[int, int, int] | int:
    """Python twin of the native ``offer_ukeire``: :func:`py_hand_ukeire` of a hand
    offered a call, from its tile ids and the copies of each kind the table has not shown
    (``rest``); or why not: 1 for a hand not one tile short of complete (or holding a
    flower or an unknown tile), 2 for one holding more copies of a kind than ``rest``."""
    counts = [0] * KINDS
    for t in concealed:
        k = t >> 2
        if k >= KINDS:
            return 1
        counts[k] += 1
    if not (1 <= sets <= 5 and 0 <= melds <= sets) or sum(counts) != 3 * (sets - melds) + 1:
        return 1
    if any(c > r or r > 4 for r, c in zip(rest, counts, strict=True)):
        return 2
    unseen = bytes(r - c for r, c in zip(rest, counts, strict=True))
    return py_hand_ukeire(counts, melds, sets, here, unseen)


Offer = tuple[int, bool, bool, int]
"""The calls one seat may make on a discard: (seat, pon, open kan, chi shapes: bit 0, 1,
2 for the chi with the two kinds below, around and above the tile)."""

CHI_SHAPES: Final = ((-2, -1), (-1, 1), (1, 2))
"""The kinds a chi takes from hand, relative to the tile called, in bit order."""


def py_call_offers(hands: Sequence[Collection[int] | None], kind: int,
                   chi_seat: int) -> list[Offer]:
    """Python twin of the native ``call_offers``: for each seat whose tile ids ``hands``
    gives (``None``: not offered), the calls its hand allows on a discard of ``kind``;
    chi only for ``chi_seat`` and a number kind. Only seats allowed a call are listed."""
    out: list[Offer] = []
    if kind >= KINDS:
        return out
    for q, hand in enumerate(hands):
        if hand is None:
            continue
        held = [sum(4 * j + i in hand for i in range(4)) if 0 <= j < KINDS else 0
                for j in range(kind - 2, kind + 3)]
        chi = 0
        if q == chi_seat and kind < 27:
            n = kind % 9
            for bit, (a, b) in enumerate(CHI_SHAPES):
                if n + a >= 0 and n + b <= 8 and held[2 + a] and held[2 + b]:
                    chi |= 1 << bit
        if held[2] >= 2 or chi:
            out.append((q, held[2] >= 2, held[2] >= 3, chi))
    return out


def facts_route() -> tuple[Callable[..., Facts | None], Callable[..., list[Offer]],
                           Callable[..., tuple[int, int, int] | int]]:
    """The per-decision functions this process uses: the native core's ``discard_facts``,
    ``call_offers`` and ``offer_ukeire`` when it is built (and ``MJLOG_PURE`` is not set),
    else :func:`py_discard_facts`, :func:`py_call_offers` and :func:`py_offer_ukeire`."""
    core = native.core()
    if core is not None and hasattr(core, "offer_ukeire"):
        return core.discard_facts, core.call_offers, core.offer_ukeire
    return py_discard_facts, py_call_offers, py_offer_ukeire


def route() -> tuple[Callable[..., list[Choice]], Callable[..., tuple[int, int, int]]]:
    """The functions this process counts with: the native core's ``discard_options`` and
    ``hand_ukeire`` when it is built (and ``MJLOG_PURE`` is not set), else their Python
    twins. A caller that counts many hands looks them up once."""
    core = native.core()
    if core is not None and hasattr(core, "discard_options"):
        return core.discard_options, core.hand_ukeire
    return py_discard_options, py_hand_ukeire


def discard_options(counts: bytes, melds: int, sets: int, here: int,
                    unseen: bytes) -> list[Choice]:
    """Each discard of a hand of 3n + 2 tiles (module docstring), by the native core when
    it is built, else by :func:`py_discard_options`. ``counts`` and ``unseen`` are 34
    bytes; the native route raises ``ValueError`` for a hand of another size."""
    return route()[0](counts, melds, sets, here, unseen)


def hand_ukeire(counts: bytes, melds: int, sets: int, here: int,
                unseen: bytes) -> tuple[int, int, int]:
    """Shanten, ukeire mask and unseen copies of a hand of 3n + 1 tiles (module
    docstring), native when built."""
    return route()[1](counts, melds, sets, here, unseen)


__all__ = ["CHI_SHAPES", "Choice", "Facts", "Offer", "discard_options", "facts_route",
           "hand_ukeire", "judge", "py_call_offers", "py_discard_facts", "py_discard_options",
           "py_hand_ukeire", "py_offer_ukeire", "route"]

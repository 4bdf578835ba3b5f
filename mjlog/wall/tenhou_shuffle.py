"""Tenhou's wall shuffle: every round's wall and dice from a game's ``SHUFFLE`` seed.

The method Tenhou published: MT19937 is seeded with ``init_by_array`` on the
seed's 32-bit words; for each round, 288 outputs (1152 bytes, little-endian)
are hashed in nine 128-byte blocks with SHA-512, giving 144 32-bit words
``rnd``; a Fisher–Yates pass ``swap(yama[i], yama[i + rnd[i] % (N - i)])``
shuffles ``yama`` (``N`` = 136, or 108 in three-player games, whose ``yama``
starts as the ids without 2m..8m); the dice are ``rnd[135] % 6 + 1`` and
``rnd[136] % 6 + 1`` (three players included).

Where the tiles sit in ``yama`` (measured on every seeded round of the
corpus; see :data:`LAYOUTS`): hands are dealt from the end (``yama[N-1]``
down, blocks of four from the dealer round the table three times, then one
each); draws continue downward from there; the dora, ura and rinshan tiles
are at the start. Seed forms:

* ``mt19937ar-sha512-n288-base64,…``: 624 words in base64 (2010 on);
* ``mt19937ar-sha512-n288,HEX,…``: 32 words in hex (2009–2010); the same
  shuffle, but each dora/ura and rinshan pair is the other way round;
* ``mt19937ar,…``: the per-round ``INIT shuffle`` attribute of early 2009
  logs, eight words seeding a new generator for that round only; no SHA-512
  step (``rnd`` is the raw outputs), the hex form's layout (confirmed for
  dora, ura and replacement tiles on several thousand rounds outside the
  corpus); the dice are the two outputs after the ``N - 1`` swaps, ``rnd[N - 1]``
  and ``rnd[N]`` (``N`` = 108 in three-player games: outputs 107 and 108).

This module only computes walls; :mod:`mjlog.wall.verify` compares them with a
record.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import random
import struct
from dataclasses import dataclass
from typing import Literal, Protocol, cast

from mjlog.core import native
from mjlog.core.tiles import Tile

SeedForm = Literal["base64", "hex", "mt19937ar"]

BASE64_PREFIX = "mt19937ar-sha512-n288-base64,"
HEX_PREFIX = "mt19937ar-sha512-n288,"
ROUND_PREFIX = "mt19937ar,"

_SANMA_TILES = tuple(t for t in range(136) if not 4 <= t < 32)  # no 2m..8m


class SeedError(ValueError):
    """A seed text that is not one of the forms this module can reproduce."""


@dataclass(frozen=True, slots=True)
class TenhouSeed:
    """A parsed seed: its form and its 32-bit key words."""

    form: SeedForm
    words: tuple[int, ...]


def parse_seed(text: str) -> TenhouSeed:
    """Parse ``SHUFFLE seed`` text; raises :class:`SeedError` for other or empty forms."""
    if text.startswith(BASE64_PREFIX):
        try:
            raw = base64.b64decode(text[len(BASE64_PREFIX):], validate=True)
        except (binascii.Error, ValueError) as exc:
            raise SeedError(f"bad base64 in seed: {exc}") from None
        if len(raw) % 4 or not raw:
            raise SeedError(f"base64 seed of {len(raw)} bytes is not a list of 32-bit words")
        return TenhouSeed("base64", struct.unpack(f"<{len(raw) // 4}I", raw))
    for prefix, form in ((HEX_PREFIX, "hex"), (ROUND_PREFIX, "mt19937ar")):
        if text.startswith(prefix):
            try:
                words = tuple(int(w, 16) for w in text[len(prefix):].split(","))
            except ValueError:
                raise SeedError("bad hexadecimal word in seed") from None
            if any(w >> 32 for w in words):
                raise SeedError("hexadecimal seed word wider than 32 bits")
            return TenhouSeed(form, words)  # type: ignore[arg-type]
    what = repr(text[:30]) if text else "empty"
    raise SeedError(f"seed {what} is not a form whose shuffle is known")


def init_by_array(key: tuple[int, ...]) -> random.Random:
    """An MT19937 generator seeded by the reference ``init_by_array(key)``.

    Uses CPython's own seeding (which is ``init_by_array`` on the integer's
    32-bit words) when the key's last word is not zero; otherwise computes
    the state here. ``getrandbits(32)`` then returns ``genrand_int32()``.
    """
    if key and key[-1]:
        return random.Random(int.from_bytes(struct.pack(f"<{len(key)}I", *key), "little"))
    return _init_by_array_python(key)


def _init_by_array_python(key: tuple[int, ...]) -> random.Random:
    mt = [0] * 624
    mt[0] = 19650218
    for i in range(1, 624):
        mt[i] = (1812433253 * (mt[i - 1] ^ (mt[i - 1] >> 30)) + i) & 0xFFFFFFFF
    i, j = 1, 0
    for _ in range(max(624, len(key))):
        mt[i] = ((mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >> 30)) * 1664525)) + key[j] + j) & 0xFFFFFFFF
        i += 1
        j += 1
        if i >= 624:
            mt[0] = mt[623]
            i = 1
        if j >= len(key):
            j = 0
    for _ in range(623):
        mt[i] = ((mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >> 30)) * 1566083941)) - i) & 0xFFFFFFFF
        i += 1
        if i >= 624:
            mt[0] = mt[623]
            i = 1
    mt[0] = 0x80000000
    gen = random.Random()
    gen.setstate((3, (*mt, 624), None))
    return gen


@dataclass(frozen=True, slots=True)
class Layout:
    """Where a round's tiles sit in ``yama`` for one player count and seed form."""

    size: int
    players: int
    first_draw: int
    """Index of the dealer's first draw; later draws go down from it."""
    dora: tuple[int, ...]
    ura: tuple[int, ...]
    rinshan: tuple[int, ...]


def _layout(players: int, form: SeedForm) -> Layout:
    size = 136 if players == 4 else 108
    base = 4 if players == 4 else 8  # first ura (base64) / dora (hex) index
    rinshan_count = base
    swap = 1 if form == "base64" else 0  # hex and mt19937ar: each pair the other way round
    return Layout(
        size=size, players=players, first_draw=size - 13 * players - 1,
        dora=tuple(base + 2 * k + swap for k in range(5)),
        ura=tuple(base + 2 * k + 1 - swap for k in range(5)),
        rinshan=tuple(k ^ swap for k in range(rinshan_count)),
    )


LAYOUTS: dict[tuple[int, SeedForm], Layout] = {
    (p, f): _layout(p, f) for p in (3, 4) for f in ("base64", "hex", "mt19937ar")
}
"""Measured layouts. Four players, base64: dora ``yama[5,7,9,11,13]``, ura
``[4,6,8,10,12]``, rinshan ``[1,0,3,2]``; hex: dora ``[4,6,…]``, ura ``[5,…]``,
rinshan ``[0,1,…]``. Three players, base64: dora ``[9,11,…]``, ura ``[8,…]``,
rinshan ``[1,0,3,2,5,4,7,6]``. The early-2009 per-round form has the hex
layout. (No three-player game with a hex or per-round seed is known; their
layout follows the same pattern and is unverified.)"""


@dataclass(frozen=True, slots=True)
class TenhouWall:
    """One round's shuffled wall and dice, with the layout to read it."""

    yama: tuple[Tile, ...]
    dice: tuple[int, int]
    layout: Layout
    by_kind = False

    @property
    def counts(self) -> tuple[int, int, int]:
        """How many replacement tiles, dora and ura indicators the wall holds."""
        return len(self.layout.rinshan), len(self.layout.dora), len(self.layout.ura)

    @property
    def live_count(self) -> int:
        """Tiles of the live wall before any kan, the dealer's first draw included."""
        return self.layout.first_draw + 1 - 14

    def hands(self, dealer: int) -> tuple[tuple[Tile, ...], ...]:
        """Each seat's 13 dealt tiles (seat order, not dealing order)."""
        y, n, top = self.yama, self.layout.players, self.layout.size - 1
        out: list[list[Tile]] = [[] for _ in range(n)]
        pos = top
        for _ in range(3):
            for k in range(n):
                out[(dealer + k) % n].extend(reversed(y[pos - 3:pos + 1]))  # y[pos], y[pos-1] …
                pos -= 4
        for k in range(n):
            out[(dealer + k) % n].append(y[pos])
            pos -= 1
        return tuple(tuple(h) for h in out)

    def draw(self, k: int) -> Tile:
        """The ``k``-th (0-based) draw from the live wall, the dealer's first included; -1
        past the live wall (a record that draws on into the dead wall)."""
        return self.yama[self.layout.first_draw - k] if 0 <= k < self.live_count else Tile(-1)

    def rinshan(self, k: int) -> Tile:
        """The ``k``-th (0-based) replacement draw (after a kan or kita)."""
        return self.yama[self.layout.rinshan[k]]

    def dora(self, k: int) -> Tile:
        """The ``k``-th dora indicator (0: the round's first)."""
        return self.yama[self.layout.dora[k]]

    def ura(self, k: int) -> Tile:
        """The ``k``-th ura indicator."""
        return self.yama[self.layout.ura[k]]


class TenhouShuffler:
    """Produces one game's walls in order, one per round dealt.

    The shuffle runs in the native core when this process uses it (:mod:`mjlog.core.native`;
    its twin is :class:`PythonShuffle`, the specification), else in Python.
    """

    def __init__(self, seed: TenhouSeed) -> None:
        self.seed = seed
        raw = seed.form == "mt19937ar"
        core = native.core()
        self._shuffle: PythonShuffle | _NativeShuffle = (
            PythonShuffle(seed.words, raw) if core is None
            else core.TenhouShuffler(list(seed.words), raw))

    def next_wall(self, players: int = 4) -> TenhouWall:
        """The next round's wall (advances the generator by 288 outputs)."""
        yama, die1, die2 = self._shuffle.next_wall(players)
        return TenhouWall(
            yama=cast("tuple[Tile, ...]", tuple(yama)), dice=(die1, die2),
            layout=LAYOUTS[players, self.seed.form],
        )


class _NativeShuffle(Protocol):
    """What the native core's twin of :class:`PythonShuffle` offers."""

    def next_wall(self, players: int) -> tuple[bytes, int, int]: ...


class PythonShuffle:
    """The shuffle itself, in Python: the specification of the native core's
    ``TenhouShuffler``, which must give the same walls and dice for every key."""

    def __init__(self, words: tuple[int, ...], raw: bool) -> None:
        self._mt = init_by_array(words)
        self._raw = raw

    def next_wall(self, players: int) -> tuple[bytes, int, int]:
        """The next round's tile ids in ``yama`` order and its two dice; raises
        ``ValueError`` for a table of other than 3 or 4 players."""
        if players not in (3, 4):
            raise ValueError(f"a Tenhou wall is for 3 or 4 players, not {players}")
        if self._raw:  # early 2009: the raw outputs, no hashing
            rnd = struct.unpack("<137I", self._mt.getrandbits(137 * 32).to_bytes(548, "little"))
        else:
            src = self._mt.getrandbits(288 * 32).to_bytes(1152, "little")
            sha = hashlib.sha512
            rnd = struct.unpack("<144I", b"".join(
                sha(src[i:i + 128]).digest() for i in range(0, 1152, 128)))
        yama = list(range(136)) if players == 4 else list(_SANMA_TILES)
        n = len(yama)
        for i in range(n - 1):
            j = i + rnd[i] % (n - i)
            yama[i], yama[j] = yama[j], yama[i]
        # the dice: outputs 135 and 136 of the hashed forms whatever the table; the raw
        # per-round form takes the two outputs after the swaps (n - 1 and n)
        d = n - 1 if self._raw else 135
        return bytes(yama), rnd[d] % 6 + 1, rnd[d + 1] % 6 + 1

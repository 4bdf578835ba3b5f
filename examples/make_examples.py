"""Write the example records in this folder: games made up by mjlog, not real logs.

Run ``python examples/make_examples.py`` to regenerate them; a test checks that
the committed files are exactly what this script writes. Each game is a
consistent east-only game in Tenhou's mjlog XML format (``*.mjlog``), also
converted to mjlog JSON Lines (``*.jsonl``) by mjlog itself:

* ``east-ron.mjlog``: East 1 is won by ron on a 5p single wait (tanyao,
  40 fu 1 han, 1300); East 2 to 4 are exhaustive draws, everyone noten (so the
  deal passes on and a honba is added each time).
* ``east-riichi.mjlog``: the same, but the winner declares riichi on its
  second discard (riichi tanyao, 40 fu 2 han, 2600 plus the riichi stick).
* ``east-seeded.mjlog``: four exhaustive draws dealt from a made-up
  ``SHUFFLE`` seed with Tenhou's shuffle, so the audit can prove every tile.

Players draw and discard the tile they drew; the wall is shuffled from a fixed
seed, so the files never change unless this script does.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent

# Seat 1's hand in East 1: 234m 567m 234p 678s 5p, waiting on 5p (ids avoid red fives).
WINNER_HAND = [4, 8, 12, 17, 20, 24, 40, 44, 48, 93, 97, 101, 53]
WIN_TILE = 54  # a 5p
DORA = 108  # 1z: dora is 2z, not in the hand
URA = 116  # 3z: ura dora is 4z, not in the hand
NAMES = ("Aoi", "Ben", "Chiyo", "Dai")


def _deal(rng: random.Random, reserved: list[int]) -> tuple[list[list[int]], list[int]]:
    """Four 13-tile hands and the live wall order (70 tiles), dead wall left out."""
    rest = [t for t in range(136) if t not in reserved]
    rng.shuffle(rest)
    hands = [rest[i * 13:(i + 1) * 13] for i in range(4)]
    return hands, rest[52:52 + 70]


def _init(round_index: int, dealer: int, scores: list[int], hands: list[list[int]],
          honba: int = 0) -> str:
    ten = ",".join(str(s // 100) for s in scores)
    hai = " ".join(f'hai{i}="{",".join(map(str, h))}"' for i, h in enumerate(hands))
    return (f'<INIT seed="{round_index},{honba},0,2,3,{DORA}" ten="{ten}" oya="{dealer}" '
            f"{hai}/>")


def _sc(scores: list[int], deltas: list[int]) -> str:
    return ",".join(f"{s // 100},{d // 100}" for s, d in zip(scores, deltas, strict=True))


def _exhaustive_round(rng: random.Random, round_index: int, scores: list[int],
                      honba: int) -> list[str]:
    dealer = round_index
    hands, wall = _deal(rng, [DORA, URA])
    out = [_init(round_index, dealer, scores, hands, honba)]
    for i, tile in enumerate(wall):
        p = (dealer + i) % 4
        out.append(f"<{'TUVW'[p]}{tile}/><{'DEFG'[p]}{tile}/>")
    out.append(f'<RYUUKYOKU ba="{honba},0" sc="{_sc(scores, [0, 0, 0, 0])}"')
    return out


def game(seed: int, riichi: bool) -> str:
    """One east-only game as Tenhou mjlog XML."""
    rng = random.Random(seed)
    scores = [25000] * 4
    un = ('<UN n0="{}" n1="{}" n2="{}" n3="{}" dan="0,0,0,0" rate="1500.00,1500.00,'
          '1500.00,1500.00" sx="F,M,F,M"/>').format(*NAMES)
    parts = ['<mjloggm ver="2.3">', '<GO type="1" lobby="0"/>', un, '<TAIKYOKU oya="0"/>']
    # East 1: seat 2 discards the 5p on its third draw; seat 1 wins by ron.
    others, wall = _deal(rng, [*WINNER_HAND, WIN_TILE, DORA, URA])
    hands = [others[0], WINNER_HAND, others[1], others[2]]
    wall = [*[t for t in wall if t // 4 != WIN_TILE // 4][:10], WIN_TILE]
    parts.append(_init(0, 0, scores, hands))
    for i, tile in enumerate(wall):
        p = i % 4
        parts.append(f"<{'TUVW'[p]}{tile}/>")
        if p == 1 and riichi and i == 5:
            parts.append('<REACH who="1" step="1"/>')
        parts.append(f"<{'DEFG'[p]}{tile}/>")
        if p == 1 and riichi and i == 5:
            scores[1] -= 1000
            parts.append(f'<REACH who="1" ten="{",".join(str(s // 100) for s in scores)}" '
                         'step="2"/>')
    value = 2600 if riichi else 1300
    sticks = 1000 if riichi else 0
    deltas = [0, value + sticks, -value, 0]
    yaku = "1,1,8,1" if riichi else "8,1"
    ura = f' doraHaiUra="{URA}"' if riichi else ""
    win_hand = ",".join(map(str, sorted([*WINNER_HAND, WIN_TILE])))
    parts.append(
        f'<AGARI ba="0,{1 if riichi else 0}" hai="{win_hand}" machi="{WIN_TILE}" '
        f'ten="40,{value},0" yaku="{yaku}" doraHai="{DORA}"{ura} who="1" fromWho="2" '
        f'sc="{_sc(scores, deltas)}"/>'
    )
    scores = [s + d for s, d in zip(scores, deltas, strict=True)]
    # East 2 to 4: exhaustive draws, all noten; the deal passes on, honba go up.
    for r in (1, 2, 3):
        body = _exhaustive_round(rng, r, scores, r - 1)
        parts.extend(body[:-1])
        final = body[-1]
        if r == 3:
            order = sorted(range(4), key=lambda p: (-scores[p], p))
            uma = {order[0]: 40, order[1]: 10, order[2]: -10, order[3]: -20}
            pts = {p: round((scores[p] - 30000) / 1000 + uma[p]) for p in range(4)}
            pts[order[0]] = -sum(pts[p] for p in order[1:])
            owari = ",".join(f"{scores[p] // 100},{pts[p]:.1f}" for p in range(4))
            final += f' owari="{owari}"'
        parts.append(final + "/>")
    parts.append("</mjloggm>")
    return "".join(parts) + "\n"


def seeded_game(seed_number: int) -> str:
    """An east-only game whose walls and dice come from a made-up Tenhou seed."""
    import base64
    import struct

    sys.path.insert(0, str(HERE.parent))
    from mjlog.wall.tenhou_shuffle import TenhouShuffler, parse_seed

    rng = random.Random(seed_number)
    words = [rng.getrandbits(32) for _ in range(624)]
    seed = "mt19937ar-sha512-n288-base64," + base64.b64encode(
        struct.pack("<624I", *words)).decode()
    shuffler = TenhouShuffler(parse_seed(seed))
    un = ('<UN n0="{}" n1="{}" n2="{}" n3="{}" dan="0,0,0,0" rate="1500.00,1500.00,'
          '1500.00,1500.00" sx="F,M,F,M"/>').format(*NAMES)
    parts = ['<mjloggm ver="2.3">', f'<SHUFFLE seed="{seed}" ref=""/>',
             '<GO type="1" lobby="0"/>', un, '<TAIKYOKU oya="0"/>']
    scores = [25000] * 4
    for r in range(4):
        wall = shuffler.next_wall(4)
        hands = wall.hands(r)
        hai = " ".join(f'hai{i}="{",".join(map(str, h))}"' for i, h in enumerate(hands))
        parts.append(f'<INIT seed="{r},{r},0,{wall.dice[0] - 1},{wall.dice[1] - 1},'
                     f'{wall.dora(0)}" ten="250,250,250,250" oya="{r}" {hai}/>')
        for k in range(70):
            p, tile = (r + k) % 4, wall.draw(k)
            parts.append(f"<{'TUVW'[p]}{tile}/><{'DEFG'[p]}{tile}/>")
        end = f'<RYUUKYOKU ba="{r},0" sc="{_sc(scores, [0, 0, 0, 0])}"'
        if r == 3:
            end += ' owari="250,-5.0,250,35.0,250,-10.0,250,-20.0"'
        parts.append(end + "/>")
    parts.append("</mjloggm>")
    return "".join(parts) + "\n"


EXAMPLES = {"east-ron": (1, False), "east-riichi": (2, True)}


def render_all() -> dict[str, str]:
    """Every example file's name and text: the XML games and their JSON Lines."""
    sys.path.insert(0, str(HERE.parent))
    from mjlog.formats import serialize, tenhou_xml

    out = {}
    games = {name: game(seed, riichi) for name, (seed, riichi) in EXAMPLES.items()}
    games["east-seeded"] = seeded_game(2026)
    for name, xml in games.items():
        out[f"{name}.mjlog"] = xml
        rec = tenhou_xml.read(xml.encode(), name, strict=True)
        out[f"{name}.jsonl"] = "".join(serialize.write_lines(rec.events))
    return out


def main() -> None:
    """Write every example file next to this script."""
    for name, text in render_all().items():
        (HERE / name).write_text(text, encoding="utf-8")
        print(f"wrote examples/{name}")


if __name__ == "__main__":
    main()

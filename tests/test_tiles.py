"""The tile type: kinds, red fives, mpsz in and out."""

from __future__ import annotations

import pytest

from mjlog.core.tiles import (
    KIND_OF,
    UNKNOWN,
    UNKNOWN_KIND,
    TileError,
    assign_ids,
    is_red,
    kind_of,
    kind_str,
    parse_kinds,
    parse_tiles,
    tile_str,
    tiles_str,
)


@pytest.mark.parametrize(("tile", "text"), [
    (0, "1m"), (35, "9m"), (36, "1p"), (16, "0m"), (17, "5m"), (52, "0p"), (88, "0s"),
    (108, "1z"), (135, "7z"), (136, "1f"), (143, "8f"),
])
def test_tile_str(tile: int, text: str) -> None:
    assert tile_str(tile) == text


def test_red_fives_depend_on_the_game() -> None:
    assert tile_str(16, red_fives=False) == "5m"
    assert is_red(52) and not is_red(52, red_fives=False) and not is_red(53)


def test_kinds() -> None:
    assert kind_of(16) == 4 and kind_of(135) == 33 and kind_of(140) == 38
    assert len(KIND_OF) == 145 and KIND_OF[UNKNOWN] == UNKNOWN_KIND  # 144: a tile not written
    assert kind_str(31) == "5z"
    assert tile_str(UNKNOWN) == "?" and tiles_str([UNKNOWN, 0, 4]) == "12m?"
    with pytest.raises(TileError):
        kind_str(42)


def test_tiles_str_groups_by_suit() -> None:
    assert tiles_str([108, 0, 4, 16, 17]) == "1205m1z"
    assert tiles_str([108, 0, 4, 16, 17], sort=False) == "1z1205m"
    assert tiles_str([17, 16, 0]) == "105m"


def test_parse_and_assign() -> None:
    assert parse_kinds("12m0p7z") == [(0, False), (1, False), (13, True), (33, False)]
    used: set[int] = set()
    tiles = parse_tiles("555m0m", used)
    assert tiles == [17, 18, 19, 16]
    with pytest.raises(TileError):
        assign_ids([(4, False)], used)  # a fifth 5m


@pytest.mark.parametrize("bad", ["12", "m", "8z", "9f", "1x"])
def test_parse_errors(bad: str) -> None:
    with pytest.raises(TileError):
        parse_kinds(bad)


def test_round_trip_every_tile() -> None:
    for t in range(144):
        kinds = parse_kinds(tile_str(t))
        assert kinds == [(kind_of(t), is_red(t))]

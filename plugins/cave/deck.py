"""Which tiles a game for N players uses: every cave tile and exit marked N or less."""

from __future__ import annotations

from collections import Counter
from typing import Any

from pnp.api import PnpError

from .models import Exit, Tile, TilesFile


def player_count(value: Any, tiles: TilesFile) -> int | None:
    """The `--players` option as a whole number in the game's range (None: the full set)."""
    if value is None or value == "":
        return None
    lo, hi = tiles.players.min, tiles.players.max
    try:
        n = int(value)
        if isinstance(value, float) and n != value or isinstance(value, bool):
            raise ValueError
    except (TypeError, ValueError):
        n = None
    if n is None or not lo <= n <= hi:
        raise PnpError(f"cave: --players {value}: expected a number of players from {lo} to {hi} (players in content/cave/tiles.yaml)")
    return n


def cave_tiles(tiles: TilesFile, n: int | None) -> list[Tile]:
    return [t for t in tiles.tiles if n is None or t.players <= n]


def exits(tiles: TilesFile, n: int | None) -> list[Exit]:
    return [e for e in tiles.exits if n is None or e.players <= n]


def deck(tiles: TilesFile, n: int | None) -> list[Tile | Exit]:
    """The tiles to print for `n` players (all of them when `n` is None), exits last."""
    return [*cave_tiles(tiles, n), *exits(tiles, n)]


def tally(cave: list[Tile]) -> Counter:
    """How many tiles of each shape and room a deck holds, and `tiles` in all."""
    counts: Counter = Counter(tiles=len(cave))
    for t in cave:
        counts[t.shape] += 1
        counts[t.room] += 1
    return counts


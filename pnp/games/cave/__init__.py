"""The cave game: schemas of its content, cross-file checks, the per-player-count deck
(`--players N`) and the drawing helpers its templates call."""

from __future__ import annotations

from typing import Any

from pnp.plugin import GamePlugin

from . import deck, glyphs
from .checks import check
from .models import BoardFile, CharactersFile, EventsFile, FoodFile, TilesFile, TokensFile


def context(game, options: dict[str, Any]) -> dict[str, Any]:
    """`players` (None for the full set) and `deck`, the tiles and exits to print."""
    tiles: TilesFile = game.data["tiles"]
    n = deck.player_count(options.get("players"), tiles)
    return {"players": n, "deck": deck.deck(tiles, n)}


PLUGIN = GamePlugin(
    models={
        "tiles": TilesFile,
        "board": BoardFile,
        "events": EventsFile,
        "food": FoodFile,
        "characters": CharactersFile,
        "tokens": TokensFile,
    },
    check=check,
    context=context,
    template_globals={
        "passages": glyphs.passages,
        "speckles": glyphs.speckles,
        "icon": glyphs.icon,
    },
)

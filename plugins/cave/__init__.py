"""The cave game: schemas of its content, cross-file checks, the per-player-count deck
(`--players N`) and the drawing helpers its templates call."""

from __future__ import annotations

from typing import Any

from pnp.api import GamePlugin

from . import deck, glyphs
from .checks import check
from .models import BoardFile, CharactersFile, EventsFile, FoodFile, SummaryFile, TilesFile, TokensFile


def context(game, options: dict[str, Any]) -> dict[str, Any]:
    """`players` (None for the full set), `deck` (the tiles and exits to print) and
    `meter_markers`: an ENERGY and a SANITY marker per character."""
    tiles: TilesFile = game.data["tiles"]
    chars: CharactersFile = game.data["characters"]
    n = deck.player_count(options.get("players"), tiles)
    markers = [{"id": f"{c.id}-{meter.label.lower()}", "character": c, "label": meter.label}
               for c in chars.characters for meter in (chars.energy, chars.sanity)]
    return {"players": n, "deck": deck.deck(tiles, n), "meter_markers": markers}


PLUGIN = GamePlugin(
    models={
        "tiles": TilesFile,
        "board": BoardFile,
        "events": EventsFile,
        "food": FoodFile,
        "characters": CharactersFile,
        "tokens": TokensFile,
        "summary": SummaryFile,
    },
    check=check,
    context=context,
    template_globals={
        "passages": glyphs.passages,
        "speckles": glyphs.speckles,
        "icon": glyphs.icon,
    },
)

"""Human Harvest on a piecepack: content schemas, checks and vector glyphs."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pnp.api import GamePlugin

from . import checks
from .glyphs import glyph, pawn
from .models import ExtrasFile, PiecepackFile, SummaryFile

if TYPE_CHECKING:
    from pnp.api import GameContent


def context(game: "GameContent", options: dict[str, Any]) -> dict[str, Any]:
    """Template names: every suit-and-rank piece, the suits, and the extras by kind."""
    pack: PiecepackFile = game.data["piecepack"]
    extras: ExtrasFile = game.data["extras"]
    return {
        "pieces": pack.pieces,
        "suits": pack.suits,
        "ranks": pack.ranks,
        "tokens": {t.id: t for t in extras.tokens},
        "standees": extras.standees,
        "markers": extras.markers,
    }


PLUGIN = GamePlugin(
    models={"piecepack": PiecepackFile, "extras": ExtrasFile, "summary": SummaryFile},
    check=checks.check,
    template_globals={"glyph": glyph, "pawn": pawn},
    context=context,
)

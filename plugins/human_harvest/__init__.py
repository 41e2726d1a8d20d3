"""Human Harvest on a piecepack: content schemas, checks, vector glyphs and the end-of-game checker."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pnp.api import GamePlugin

from . import checks
from .glyphs import glyph, pawn
from .models import ExtrasFile, PiecepackFile, ScoringFile, SummaryFile

if TYPE_CHECKING:
    from pnp.api import GameContent, Located, ScoreReport


def context(game: "GameContent", options: dict[str, Any]) -> dict[str, Any]:
    """Template names: every suit-and-rank piece, the suits, the extras by kind, and a
    scoring sheet per player count the `players` option allows."""
    from .fields import seats

    low, high = seats(game)
    pack: PiecepackFile = game.data["piecepack"]
    extras: ExtrasFile = game.data["extras"]
    return {
        "pieces": pack.pieces,
        "suits": pack.suits,
        "ranks": pack.ranks,
        "tokens": {t.id: t for t in extras.tokens},
        "standees": extras.standees,
        "markers": extras.markers,
        "sheets": [{"id": f"players-{n}", "players": n} for n in range(low, high + 1)],
        "game_id": game.name,  # what a sheet file names as `game:`
    }


# The checker is imported when `pnp score` / `pnp sheet` / `pnp serve` call it: a build needs none
# of it (the printable sheet's fields and player counts are fields.py's).
def score(game: "GameContent", doc: "Located") -> "ScoreReport":
    """Check a finished game's sheet (see `scoring.py` for its format) and name the winner."""
    from .scoring import score as score_sheet

    return score_sheet(game, doc)


def sheet_template(game: "GameContent", players: int, options: dict[str, str] | None = None) -> str:
    from .scoring import template

    return template(game, players)


def sheet_schema(game: "GameContent") -> dict[str, Any]:
    from .scoring import json_schema

    return json_schema(game)


def sheet_form(game: "GameContent", rules: str | None, players: int) -> dict[str, Any]:
    from .scoring import form

    return form(game, rules, players)


PLUGIN = GamePlugin(
    models={"piecepack": PiecepackFile, "extras": ExtrasFile, "summary": SummaryFile, "scoring": ScoringFile},
    check=checks.check,
    template_globals={"glyph": glyph, "pawn": pawn},
    context=context,
    score=score,
    sheet_template=sheet_template,
    sheet_schema=sheet_schema,
    sheet_form=sheet_form,
    sheet_component="scoring-sheet",
)

"""Dietrick-taking: content schemas, cross-file checks, glyphs and the end-of-game scorer."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pnp.load.plugin import GamePlugin

from . import checks, scoring, sheet
from .glyphs import glyph
from .models import DeckFile, PlayersFile, ScoringFile
from .report import Report
from .sheet import parse_sheet

if TYPE_CHECKING:
    from pnp.load.content import GameContent
    from pnp.load.yamlio import Located


def context(game: "GameContent", options: dict[str, Any]) -> dict[str, Any]:
    """Template names: the cards, scoring cards and markers as lists of records."""
    deck: DeckFile = game.data["deck"]
    scoring: ScoringFile = game.data["scoring"]
    players: PlayersFile = game.data["players"]
    return {
        "cards": deck.cards,
        "scoring_cards": scoring.cards,
        "markers": players.markers(scoring.markers_per_player),
        "colours": players.colours,
    }


def score(game: "GameContent", doc: "Located") -> Report:
    """Score a sheet (see `sheet.py` for its format) against the printed scoring cards."""
    rules: ScoringFile = game.data["scoring"]
    return Report(scoring.score(parse_sheet(doc, rules, game.name), rules))


PLUGIN = GamePlugin(
    models={"deck": DeckFile, "scoring": ScoringFile, "players": PlayersFile},
    check=checks.check,
    template_globals={"glyph": glyph},
    context=context,
    score=score,
    sheet_template=sheet.template,
    sheet_schema=sheet.json_schema,
)

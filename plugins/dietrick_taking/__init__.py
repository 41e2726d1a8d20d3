"""Dietrick-taking: content schemas, cross-file checks, glyphs and the end-of-game scorer."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pnp.api import GamePlugin

from . import checks
from .form import sheet_form
from .glyphs import glyph
from .models import DeckFile, PlayersFile, ScoringFile

if TYPE_CHECKING:
    from pnp.api import GameContent
    from pnp.api import Located

    from .report import Report


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


# The scorer, its report (Rich tables) and the sheet's parser are imported when `pnp score`
# / `pnp sheet` call them: a build needs none of them (about 40 ms of every build's start).
def score(game: "GameContent", doc: "Located") -> "Report":
    """Score a sheet (see `sheet.py` for its format) against the printed scoring cards."""
    from .report import Report
    from .scoring import score as score_sheet
    from .sheet import parse_sheet

    rules: ScoringFile = game.data["scoring"]
    deck: DeckFile = game.data["deck"]
    return Report(score_sheet(parse_sheet(doc, rules, game.name, deck.icon_cards()), rules))


def sheet_template(game: "GameContent", players: int, options: dict[str, str] | None = None) -> str:
    from .sheet import template

    return template(game, players, options)


def sheet_schema(game: "GameContent") -> dict[str, Any]:
    from .sheet import json_schema

    return json_schema(game)


PLUGIN = GamePlugin(
    models={"deck": DeckFile, "scoring": ScoringFile, "players": PlayersFile},
    check=checks.check,
    template_globals={"glyph": glyph},
    context=context,
    score=score,
    sheet_template=sheet_template,
    sheet_schema=sheet_schema,
    sheet_form=sheet_form,
    sheet_component="scoring-sheet",
)

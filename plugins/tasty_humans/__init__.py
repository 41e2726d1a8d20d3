"""Tasty Humans: content schemas, cross-file checks and template context."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pnp.api import GamePlugin

from . import checks
from .craving_scoring import CRAVINGS
from .form import sheet_form
from .glyphs import CRAVING_PATTERNS, TEMPLATE_GLOBALS
from .models import AdventurersFile, LeadersFile, MonstersFile, ReferenceFile, RuleSet

if TYPE_CHECKING:
    from pnp.api import GameContent
    from pnp.api import Located

    from .scoring import TastyHumansReport


def context(game: "GameContent", options: dict[str, Any]) -> dict[str, Any]:
    """Template names: the selected rule version (option `rules`) and the content as lists."""
    rule_set: RuleSet = game.data["rules"]
    name = options.get("rules") or rule_set.default
    kit = rule_set.version(name).kit
    monsters = game.data["monsters"].monsters
    return {
        "rules": rule_set.version(name),
        # one scoring token per monster, in versions that have them
        "scoring_tokens": monsters if kit.scoring_tokens else [],
        "king_placeholders": [{"id": f"shared-king-{i}"} for i in range(1, kit.king_placeholders + 1)],
        "rule_version": name,
        "adventurers": game.data["adventurers"].adventurers,
        "leaders": game.data["leaders"].leaders,
        "monsters": game.data["monsters"].monsters,
        # tile types as records with an `id`, for components made one per type
        "tile_types": [{"id": k, **v.model_dump()} for k, v in rule_set.version(name).tiles.items()],
    }


# The scorer and the sheet's models are imported when `pnp score` / `pnp sheet` call them:
# a build needs neither (about 40 ms of every build's start).
def score_sheet(game: "GameContent", doc: "Located") -> "TastyHumansReport":
    from .scoring import score_sheet

    return score_sheet(game, doc)


def sheet_template(game: "GameContent", players: int, options: dict[str, str] | None = None) -> str:
    from .sheet import template

    return template(game, players, options)


def sheet_schema() -> dict[str, Any]:
    from .sheet import json_schema

    return json_schema()


PLUGIN = GamePlugin(
    models={"rules": RuleSet, "adventurers": AdventurersFile, "leaders": LeadersFile, "monsters": MonstersFile,
            "reference": ReferenceFile},
    check=checks.check,
    template_globals=TEMPLATE_GLOBALS,
    context=context,
    score=score_sheet,
    sheet_template=sheet_template,
    sheet_schema=sheet_schema,
    sheet_form=sheet_form,
    sheet_component="scoring-sheet",
    # checked by `needs:` in game.yaml: every monster has its craving scorer and diagram
    provides={"craving_scorers": CRAVINGS, "craving_diagrams": CRAVING_PATTERNS},
)

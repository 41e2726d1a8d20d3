"""`pnp serve`'s entry form for a Dietrick-taking sheet: the scoring cards to order and
the score tracks' length and the Long Game's wins, from the content."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from pnp.api import GameContent


def sheet_form(game: "GameContent", rules: str | None, players: int) -> dict[str, Any]:
    scoring = game.data["scoring"]
    track = {"kind": "track", "min": 0, "max": scoring.track_length}
    return {
        "table": {"scoring_order": {"kind": "order", "choices": [{"value": n, "label": f"card {n}"} for n in scoring.free_cards]},
                  # Fuzz's markers: the solo game's only (dietrick-taking-rules.txt:91-93)
                  # the variants as the paper sheet ticks them (scoring.yaml variants)
                  "variant": {"choices": [{"value": k, "label": v} for k, v in scoring.variants.items()]},
                  "fuzz": {"label": "Fuzz", "fields": {"yellow": track, "blue": track}, "solo_only": True},
                  # Long Game (dietrick-taking-rules.txt:87): a box for each player's earlier wins,
                  # fewer than the wins that end the match
                  "earlier_wins": {"keys_from": "players", "max": scoring.long_game_wins - 1},
                  # who the table says won: the players (Fuzz too, solo), several for a shared
                  # victory, or none (sheet.py _claimed_winner takes exactly these)
                  "claimed_winner": {"kind": "picks", "choices_from": "players", "label": "claimed winner",
                                     "help": "who won, as the table says: tap two or more for a shared victory",
                                     "choices": [{"value": "Fuzz", "label": "Fuzz"}] * (players == 1) + [{"value": "none", "label": "nobody"}],
                                     "alone": ["none"]}},
        "player": {"yellow": track, "blue": track},
    }

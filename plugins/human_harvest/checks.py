"""Checks of the Human Harvest content beyond single values: unique ids everywhere (they
become file names), and the Cyborgs scoring.yaml counts fit in one suit's coins."""

from __future__ import annotations

from typing import TYPE_CHECKING

from pnp.api import ContentError

if TYPE_CHECKING:
    from pnp.api import GameContent

# (file stem, list key) whose records become pieces named by their id
ID_LISTS = (("piecepack", "suits"), ("piecepack", "ranks"), ("extras", "tokens"), ("extras", "standees"), ("extras", "markers"))


def check(game: "GameContent") -> list[ContentError]:
    errors = []
    for stem, key in ID_LISTS:
        seen: set[str] = set()
        for i, record in enumerate(getattr(game.data[stem], key)):
            if record.id in seen:
                errors.append(game.error(stem, (key, i, "id"), f"{key[:-1]} id {record.id!r} appears twice: expected unique ids"))
            seen.add(record.id)
    # human-harvest-rules.txt line 17: a player's Cyborgs are the coins of one suit, one per rank
    coins = len(game.data["piecepack"].ranks)
    cyborgs = game.data["scoring"].cyborgs_per_player
    if cyborgs > coins:
        errors.append(game.error("scoring", ("cyborgs_per_player",), f"cyborgs_per_player is {cyborgs}: expected at most {coins}, "
                                 f"the coins of one suit (piecepack.yaml ranks), as a player's Cyborgs are (human-harvest-rules.txt line 17)"))
    return errors

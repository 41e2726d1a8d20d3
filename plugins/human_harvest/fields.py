"""What a Human Harvest scoring-sheet file holds (scoring.py reads it): its keys in order, the
values of its choices, and the player counts it allows. Apart from the scorer, as a build
reads them too (the printable sheet, checks.py) and a build imports no scorer."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pnp.api import GameContent

VARIANTS = ("basic", "advanced")
SIX_CYBORGS, BOARD_FINISHED, SIX_HUMANS = "six-cyborgs", "board-finished", "six-humans"
ENDINGS = (SIX_CYBORGS, BOARD_FINISHED, SIX_HUMANS)
TOP_KEYS = ("game", "variant", "ending", "dna_point", "players", "claimed_winner")
PLAYER_KEYS = ("name", "cyborgs", "humans")


def seats(game: "GameContent") -> tuple[int, int]:
    """The player counts game.yaml's `players` option allows (line 7: 2-4)."""
    spec = game.manifest.options.get("players")
    low = int(spec.min) if spec is not None and spec.min is not None else 1
    high = int(spec.max) if spec is not None and spec.max is not None else len(game.data["piecepack"].suits)
    return low, high

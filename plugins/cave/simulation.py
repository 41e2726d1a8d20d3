"""The cave in the balance lab: does the deck for N players bring an exit tile into
reach, or wall the players in, and how many tiles does a game lay? A player's `score` is
the tiles they laid, a measure, not a score the rules define.

The rules name no winner (content/cave/game.yaml says so), and leaving needs what an exit
asks for (cave-game-rules.txt lines 55-57: a SHOVEL; two players and a won challenge; the
ROPE and the PICKAXE), none of which is simulated: so no win rate is reported, the ending
says only that a pawn reached an exit tile, and every report lists what is left out."""

from __future__ import annotations

from typing import TYPE_CHECKING

from pnp.api import PlayerRecord, Record, no_options

from .engine import STRATEGIES, Setup, play

# The engine's endings as the report names them: an exit tile reached is not an escape.
ENDINGS = {"exit": "exit tile reached", "walled in": "walled in", "wandering": "turn limit"}

if TYPE_CHECKING:
    from pnp.api import GameContent


class CaveSimulation:
    game = "cave"
    strategies = tuple(STRATEGIES)
    score_label = "tiles laid"
    names_winners = False
    leaves_out = ("FOOD, ENERGY, SANITY, challenges, events and items, and so what an exit needs (lines 55-57): "
                  "reaching an exit tile is not leaving the cave; the rules name no winner, so no win rates")
    metrics = {
        "tiles": "cave tiles laid in the game, all players",
        "turns": "moves made, all players",
        "reshuffles": "times the discards became the draw pile",
        "ending": f"{ENDINGS['exit']}: a pawn reached an exit tile (its needs not simulated); "
                  f"{ENDINGS['walled in']}: nobody could move; {ENDINGS['wandering']}: turn limit",
    }

    def __init__(self, game: "GameContent", options: dict[str, str]):
        no_options(self.game, options)
        self.setup = Setup.from_game(game)
        self.player_counts = tuple(sorted(self.setup.tiles))
        self.default_players = 4
        self.label = "as shipped"

    def play(self, seed: int, strategies: list[str], sheet: bool = False) -> Record:
        r = play(self.setup, len(strategies), seed, strategies)
        # nobody wins: the rules name no winner, and the exits' needs are not simulated
        players = [PlayerRecord(i, s, float(r.placed[i]), False) for i, s in enumerate(r.strategies)]
        return Record(seed, players, {"tiles": sum(r.placed), "turns": r.turns, "reshuffles": r.reshuffles,
                                      "ending": ENDINGS[r.ending]})


def make(game: "GameContent", options: dict[str, str]) -> CaveSimulation:
    return CaveSimulation(game, options)

"""The cave in the balance lab: does the deck for N players lead to an exit, or wall the
players in, and how many tiles does a game lay? A player's `score` is the tiles they
laid; the one who steps onto an exit wins."""

from __future__ import annotations

from typing import TYPE_CHECKING

from pnp.simulate.base import PlayerRecord, Record, no_options

from .engine import STRATEGIES, Setup, play

if TYPE_CHECKING:
    from pnp.load.content import GameContent


class CaveSimulation:
    game = "cave"
    strategies = tuple(STRATEGIES)
    score_label = "tiles laid"
    metrics = {
        "tiles": "cave tiles laid in the game, all players",
        "turns": "moves made, all players",
        "reshuffles": "times the discards became the draw pile",
        "ending": "exit: someone stepped onto an exit; walled in: nobody could move; wandering: turn limit",
    }

    def __init__(self, game: "GameContent", options: dict[str, str]):
        no_options(self.game, options)
        self.setup = Setup.from_game(game)
        self.player_counts = tuple(sorted(self.setup.tiles))
        self.default_players = 4
        self.label = "as shipped"

    def play(self, seed: int, strategies: list[str], sheet: bool = False) -> Record:
        r = play(self.setup, len(strategies), seed, strategies)
        players = [PlayerRecord(i, s, float(r.placed[i]), r.winner == i) for i, s in enumerate(r.strategies)]
        return Record(seed, players, {"tiles": sum(r.placed), "turns": r.turns, "reshuffles": r.reshuffles, "ending": r.ending})


def make(game: "GameContent", options: dict[str, str]) -> CaveSimulation:
    return CaveSimulation(game, options)

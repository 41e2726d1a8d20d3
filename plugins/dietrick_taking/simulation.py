"""Dietrick-taking in the balance lab: tricks per game, the winner's margin, who wins.

A player's `score` is their final difference (smaller is better); a disqualified player
(a marker that never moved) has none and is tagged `disqualified`."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pnp.api import PlayerRecord, Record, no_options

from .engine import STRATEGIES, Setup, play

if TYPE_CHECKING:
    from pnp.api import GameContent


class DietrickSimulation:
    game = "dietrick-taking"
    strategies = tuple(STRATEGIES)
    score_label = "difference, smaller wins"
    metrics = {
        "tricks": "tricks played",
        "margin": "winner's margin: next best difference minus the winner's",
        "ending": "a marker reached the end square, or the deck ran out",
        "decided_by": "what decided the winner",
    }

    def __init__(self, game: "GameContent", options: dict[str, str]):
        no_options(self.game, options)
        self.setup = Setup.from_game(game)
        self.player_counts = (1, *sorted(self.setup.scoring.tricks_by_players))
        self.default_players = 3  # the rules recommend 3
        self.label = "as shipped"

    def play(self, seed: int, strategies: list[str], sheet: bool = False) -> Record:
        r = play(self.setup, seed, strategies)
        players = []
        by_name = {s.entry.name: s for s in r.verdict.standings}
        for seat, strategy in enumerate(r.strategies):
            s = by_name[f"P{seat + 1} {strategy}"]
            players.append(PlayerRecord(seat, strategy, s.difference, s.winner,
                                        {"status": "disqualified" if s.disqualified else "qualified"},
                                        {"yellow squares": float(s.entry.yellow), "blue squares": float(s.entry.blue)}))
        diffs = sorted(s.difference for s in r.verdict.standings if s.difference is not None)
        metrics: dict[str, Any] = {"tricks": r.tricks, "ending": r.ending, "decided_by": r.verdict.decided_by}
        if len(diffs) > 1 and not r.verdict.sheet.solo:
            metrics["margin"] = diffs[1] - diffs[0]
        return Record(seed, players, metrics, r.sheet if sheet else None)


def make(game: "GameContent", options: dict[str, str]) -> DietrickSimulation:
    return DietrickSimulation(game, options)

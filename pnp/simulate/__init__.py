"""The balance lab: play many games of a game's rules engine and summarise them.

Generic parts live here (the record format, the runner over all cores, statistics with
confidence intervals, the HTML/SVG report); each game's rules and players live next to
its scorer as `pnp.games.<plugin>.engine`, and its adapter to the lab as
`pnp.games.<plugin>.simulation` exposing `make(game, options) -> Simulation`.
"""

from .base import PlayerRecord, Record, Simulation, load_simulation
from .runner import Run, run_games, simulate

__all__ = ["PlayerRecord", "Record", "Simulation", "load_simulation", "Run", "run_games", "simulate"]

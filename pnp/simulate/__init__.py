"""The balance lab: play many games of a game's rules engine and summarise them.

Generic parts live here (the record format, the runner over all cores, statistics with
confidence intervals, the HTML/SVG report); each game's rules and players live next to
its scorer in the game's plugin package (`plugins/<game>/engine.py`), and its adapter to
the lab as the plugin's module `simulation` exposing `make(game, options) -> Simulation`.
"""

from .base import PlayerRecord, Record, Simulation, load_simulation
from .runner import Run, check, run_games, simulate

__all__ = ["PlayerRecord", "Record", "Simulation", "load_simulation", "Run", "check", "run_games", "simulate"]

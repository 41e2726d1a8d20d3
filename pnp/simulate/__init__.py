"""The balance lab: play many games of a game's rules engine and summarise them.

Generic parts live here (the record format, the runner over all cores, statistics with
confidence intervals, the HTML/SVG report); each game's rules and players live next to
its scorer in the game's plugin package (`plugins/<game>/engine.py`), and its adapter to
the lab as the plugin's module `simulation` exposing `make(game, options) -> Simulation`.
"""

from typing import TYPE_CHECKING, Any

from .base import PlayerRecord, Record, Simulation, load_simulation

if TYPE_CHECKING:
    from .runner import Run, check, run_games, simulate


def __getattr__(name: str) -> Any:
    """The runner's names, imported when first asked for: a build imports this package for
    `base` alone (a plugin's `from pnp.api import Record`), and the runner costs 2-3 ms."""
    if name in ("Run", "check", "run_games", "simulate"):
        from . import runner

        return getattr(runner, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

__all__ = ["PlayerRecord", "Record", "Simulation", "load_simulation", "Run", "check", "run_games", "simulate"]

"""What a game's simulation gives the lab: one `Record` per game played."""

from __future__ import annotations

import re
import sys
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

from pnp.errors import ContentError, OptionError, PnpError, pip_extra
from pnp.load.plugins import call_hook, plugin_submodule

if TYPE_CHECKING:
    from pnp.load.content import GameContent


@dataclass
class PlayerRecord:
    """One seat of one game: its strategy, score, whether it won, labels to group by
    (e.g. {"monster": "troll"}) and its points by source (e.g. {"craving": 8})."""

    seat: int
    strategy: str
    score: float | None  # None: no score (e.g. disqualified)
    win: bool
    tags: dict[str, str] = field(default_factory=dict)
    sources: dict[str, float] = field(default_factory=dict)


@dataclass
class Record:
    """One game: its seed, players and game-level metrics (numbers, or labels such as
    an ending); `sheet` is the finished game in the game's scoring-sheet format."""

    seed: int
    players: list[PlayerRecord]
    metrics: dict[str, Any] = field(default_factory=dict)
    sheet: dict[str, Any] | None = None


class Simulation(Protocol):
    """A game's adapter: built once per process from the loaded content and options."""

    game: str
    strategies: tuple[str, ...]  # names accepted by --players-as; the first is the default
    player_counts: tuple[int, ...]
    default_players: int
    # metric name -> what it means (the report's captions); numbers get histograms
    metrics: dict[str, str]
    score_label: str  # what a player's score counts, e.g. "points"
    # Optional (read with getattr): names_winners = False for a game whose rules name no
    # winner (no win rates are reported); leaves_out = what the simulation does not play,
    # printed with every report; check_players(players) raises a PnpError when an option
    # given does not fit the player count (Tasty Humans: an A.I. level, solo only);
    # setting(players) names, for the report, what a side plays at that count that no
    # option given names (Tasty Humans: the solo A.I. level played when none was given).

    def play(self, seed: int, strategies: list[str], sheet: bool = False) -> Record: ...


def no_options(game: str, options: dict[str, str]) -> None:
    """For games whose simulation takes no --set options: a one-line error if given any."""
    if options:
        raise OptionError(f"--set {', '.join(options)}: {game} takes no options")


# The modules the balance lab's extra installs (pyproject.toml, `lab`) and the lowest release
# of each it asks for (numpy 2.0: np.bitwise_count): a rules engine may use them, and one
# missing or too old is pnp's install, not the plugin's mistake.
LAB_MODULES = {"numpy": (2, 0)}
MAKE = "make(game, options)"  # how pnp calls a simulation module's `make`: the GameContent and the --set options (a dict)


def load_simulation(game: "GameContent", options: dict[str, str]) -> Simulation:
    """The game's simulation (module `simulation` of its plugin package), or a PnpError."""
    plugin = game.manifest.plugin
    try:
        module = plugin_submodule(plugin, game.project.root, "simulation") if plugin else None
    except ModuleNotFoundError as exc:
        if exc.name and exc.name.partition(".")[0] in LAB_MODULES:  # a library of the lab's extra, not installed
            raise PnpError(f"pnp simulate {game.name}: the rules engine needs {exc.name}, which the balance lab's extra installs: "
                           f"{pip_extra('lab')} (or pip install {exc.name})") from None
        raise  # any other: the plugin's own import, located as its error (`plugin_failure`), or pnp's bug
    _check_lab_versions(game.name)
    if module is None:
        raise PnpError(f"{game.name}: no rules engine to simulate this game")
    make = getattr(module, "make", None)
    if not callable(make):
        raise PnpError(ContentError(module.__file__, None, None, f"plugin {plugin}: expected a function {MAKE} "
                                    f"returning the game's simulation"))
    return call_hook(make, MAKE, (game, dict(options)), _a_simulation)


def _check_lab_versions(game: str) -> None:
    """A PnpError when the rules engine imported a library of the lab's extra older than the
    extra asks for (pip keeps an installed numpy 1.x: the engine would fail mid-game)."""
    for name, lowest in LAB_MODULES.items():
        version = getattr(sys.modules.get(name), "__version__", None)
        if isinstance(version, str) and tuple(int(n) for n in re.findall(r"\d+", version)[:2]) < lowest:
            wanted = ".".join(map(str, lowest))
            raise PnpError(f"pnp simulate {game}: the rules engine needs {name} {wanted} or later, not {version}: "
                           f"{pip_extra('lab')} (or pip install '{name}>={wanted}')")


def _a_simulation(value: Any) -> str | None:
    return None if callable(getattr(value, "play", None)) else "a pnp.api.Simulation (an object with play(seed, strategies, sheet))"

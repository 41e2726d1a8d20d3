"""`pnp score`: read a scoring-sheet file, pick the game by its `game:` key and hand the
sheet to that game's scorer (`GamePlugin.score`). Game-agnostic: each game returns its
own `ScoreReport`.
"""

from __future__ import annotations

import os
from abc import ABC, abstractmethod
from typing import TYPE_CHECKING, Any

from .content import Project, load_game
from .errors import ContentError, PnpError
from .yamlio import load_located

if TYPE_CHECKING:
    from rich.console import Console


class ScoreReport(ABC):
    """What a game's scorer returns: printable, serialisable, with an exit code."""

    game: str

    @abstractmethod
    def to_json(self) -> dict[str, Any]:
        """The whole report as plain data with stable keys."""

    @abstractmethod
    def render(self, console: "Console") -> None:
        """Print the report for people (rich tables)."""

    @property
    @abstractmethod
    def exit_code(self) -> int:
        """0 when every claimed total matches (or none was claimed), else 1."""


def score_sheet(project: Project, sheet_path: str | os.PathLike) -> ScoreReport:
    """Score a sheet file; raise PnpError (exit 2) listing every problem in it."""
    doc = load_located(sheet_path)
    if not isinstance(doc.data, dict):
        raise PnpError(doc.error((), "expected a mapping with `game:`, `players:` ..."))
    game_name = doc.data.get("game")
    if game_name is None:
        raise PnpError(doc.error((), "missing required key 'game'"))
    known = project.games()
    if game_name not in known:
        line, col = doc.where(("game",))
        raise PnpError(ContentError(doc.path, line, None, f"game: unknown game {game_name!r}: expected one of {', '.join(known) or '(none found under content/)'}"))
    game = load_game(project, game_name)
    if game.plugin.score is None:
        raise PnpError(doc.error(("game",), f"game: {game_name!r} has no scorer"))
    return game.plugin.score(game, doc)


def sheet_text(project: Project, game_name: str, players: int, *, template: bool = False, schema: bool = False, paper: str = "letter") -> str:
    """A blank YAML scoring sheet for `players` players, or the JSON Schema of sheets.

    A game offers sheets through `pnp.games.<plugin>.sheet`, a module with
    `template(game, players) -> str` and `json_schema() -> dict`.
    """
    import importlib
    import json

    name = project.resolve_games([game_name])[0]
    game = load_game(project, name)
    module = None
    if game.manifest.plugin:
        try:
            module = importlib.import_module(f"pnp.games.{game.manifest.plugin}.sheet")
        except ModuleNotFoundError:
            module = None
    if module is None:
        raise PnpError(f"{name}: this game has no scoring sheet")
    if schema:
        return json.dumps(module.json_schema(), indent=2) + "\n"
    if template:
        return module.template(game, players)
    raise PnpError(
        f"sheet {name}: the printable sheet ({paper}) is built with `pnp build {name}`; "
        "use --template for a blank YAML sheet or --schema for its JSON Schema"
    )

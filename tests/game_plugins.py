"""The shipped games' plugin modules, imported exactly as the loader imports them (one
module per file), so a test's classes are the ones a build or `pnp score` uses."""

from __future__ import annotations

from pathlib import Path
from types import ModuleType

from pnp.load.plugins import plugin_submodule

REPO = Path(__file__).resolve().parent.parent


def game_module(game: str, name: str) -> ModuleType:
    """Module `name` of the plugin `plugins/<game>/` (e.g. ("tasty_humans", "scoring"))."""
    module = plugin_submodule(f"plugins/{game}", REPO, name)
    assert module is not None, f"plugins/{game}/{name}.py"
    return module


def link_plugins(root: Path) -> None:
    """Give a scratch copy of a shipped game its plugin: a link to this repository's
    `plugins/`, which the loader resolves to the same modules as the tests import."""
    root.mkdir(parents=True, exist_ok=True)
    if not (root / "plugins").exists():
        (root / "plugins").symlink_to(REPO / "plugins", target_is_directory=True)

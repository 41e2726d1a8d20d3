"""Where the games shipped with pnp are: a wheel's `pnp/shipped/`, or a checkout's root.

A project's own game of the same name always wins; loading consults these only for a
game the project does not have (`pnp init --example` copies one: pnp/tools/shipped.py).
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent
MANIFEST = "game.yaml"


@cache
def shipped_root() -> Path | None:
    """The folder holding the shipped `content/` and `templates/`, or None."""
    wheel = PACKAGE / "shipped"
    if (wheel / "content").is_dir():
        return wheel
    checkout = PACKAGE.parent
    if (checkout / "content").is_dir() and (checkout / "pyproject.toml").is_file():
        return checkout
    return None


def games_in(root: Path) -> list[str]:
    """The games of the project folder `root`: every folder under content/ holding a game.yaml, sorted."""
    content = root / "content"
    return sorted(p.name for p in content.iterdir() if (p / MANIFEST).is_file()) if content.is_dir() else []


def shipped_games() -> list[str]:
    """Names of the shipped games, sorted."""
    root = shipped_root()
    return games_in(root) if root is not None else []

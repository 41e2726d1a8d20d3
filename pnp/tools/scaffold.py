"""`pnp new GAME`: a game folder that builds at once, to start a prototype from."""

from __future__ import annotations

from importlib import resources
from pathlib import Path

from ..load.content import Project
from ..errors import PnpError, display_path
from ..load.manifest import SLUG
from ..files import write_atomic
from ..load.project_files import led_out

# template file -> where it goes, relative to the project
FILES = {
    "game.yaml": "content/{game}/game.yaml",
    "cards.yaml": "content/{game}/cards.yaml",
    "card.svg.j2": "templates/{game}/card.svg.j2",
    "card-back.svg.j2": "templates/{game}/card-back.svg.j2",
}


def scaffold(project: Project, game: str) -> list[Path]:
    """Create the new game's files; refuse to overwrite anything."""
    if not SLUG.match(game):
        raise PnpError(f"pnp new {game}: expected a game name of lower-case letters, digits and '-', starting with a letter or digit")
    targets = {src: project.root / dst.format(game=game) for src, dst in FILES.items()}
    led_out(project.root, targets.values(), "nothing was created")
    existing = [p for p in targets.values() if p.exists()]
    if existing or (project.content_dir / game).exists():
        raise PnpError(f"{display_path(project.content_dir / game)}: game {game!r} already exists; nothing was created")
    title = game.replace("-", " ").title()
    source = resources.files("pnp").joinpath("data/scaffold")
    for src, path in targets.items():
        text = source.joinpath(src).read_text(encoding="utf-8")
        write_atomic(path, text.replace("__GAME__", game).replace("__TITLE__", title).encode("utf-8"))
    return list(targets.values())

"""The games shipped with pnp: where they are, and `pnp init --example` copying one.

A wheel carries the project's `content/`, `templates/`, `examples/` and `plugins/` in
`pnp/shipped/` (setup.py copies them at build time); a checkout (an editable install)
has them at its root. A project's own game of the same name always wins: these are only
consulted for a game the project does not have.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import yaml

from ..errors import OptionError, PnpError
from ..load.project_files import led_out
from ..load.shipped import MANIFEST, shipped_games, shipped_root


def examples(game: str) -> list[Path]:
    """The shipped example scoring sheets of `game` (`examples/<game>-*.yaml`)."""
    root = shipped_root()
    return sorted((root / "examples").glob(f"{game}-*.yaml")) if root else []


def _plugin_folder(root: Path, game: str) -> Path | None:
    """The shipped project plugin a game's game.yaml names (`plugin: plugins/<game>`)."""
    plugin = yaml.safe_load((root / "content" / game / MANIFEST).read_text(encoding="utf-8")).get("plugin")
    if not isinstance(plugin, str) or not plugin.startswith("plugins/"):
        return None
    folder = root / plugin
    return folder if folder.is_dir() else None


def example_projects() -> list[str]:
    """The shipped example projects (`examples/projects/<name>/`, a whole project folder each), sorted."""
    root = shipped_root()
    projects = root / "examples" / "projects" if root is not None else None
    return sorted(p.name for p in projects.iterdir() if p.is_dir()) if projects and projects.is_dir() else []


def known_examples() -> list[str]:
    """What `pnp init --example` copies: the shipped games and example projects, sorted."""
    return sorted(set(shipped_games()) | set(example_projects()))


def _made(path: Path) -> bool:
    """A file a checkout's example project got by being built or run (output/, compiled
    Python, dot-files such as the play-test log's): not copied."""
    return any(part in ("output", "__pycache__") or part.startswith(".") for part in path.parts) or path.suffix == ".pyc"


def init_example(target: Path, game: str) -> list[Path]:
    """Copy a shipped game's content, templates and example sheets (or a whole example
    project) into `target`, to build and edit there; refuse (copying nothing) when any of
    its files already exists."""
    known = known_examples()
    if game not in known:
        raise OptionError(f"unknown example {game!r}: expected one of {', '.join(known) or '(none shipped)'}")
    root = shipped_root()
    assert root is not None
    if game in shipped_games():
        pairs = [(src, target / src.relative_to(root)) for folder in ("content", "templates") for src in sorted((root / folder / game).rglob("*")) if src.is_file()]
        pairs += [(src, target / "examples" / src.name) for src in examples(game)]
        plugin = _plugin_folder(root, game)
        if plugin is not None:
            pairs += [(src, target / src.relative_to(root)) for src in sorted(plugin.rglob("*.py")) if "__pycache__" not in src.parts]
    else:
        project = root / "examples" / "projects" / game
        pairs = [(src, target / src.relative_to(project)) for src in sorted(project.rglob("*"))
                 if src.is_file() and not _made(src.relative_to(project))]
    led_out(target, [dst for _, dst in pairs], "nothing was copied")
    clashes = [dst for _, dst in pairs if dst.exists()]
    if clashes:
        raise PnpError([f"{dst}: already exists; nothing was copied" for dst in clashes])
    for src, dst in pairs:
        dst.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(src, dst)
    return [dst for _, dst in pairs]

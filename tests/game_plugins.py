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


def own_copy(root: Path, game: str, package: str) -> Path:
    """A scratch project holding a copy of a shipped game and of its plugin package (its
    own files, to be edited: see `edit_plugin`); returns the project's folder."""
    import shutil

    for part in ("content", "templates"):
        shutil.copytree(REPO / part / game, root / part / game)
    shutil.copytree(REPO / "plugins" / package, root / "plugins" / package, ignore=shutil.ignore_patterns("__pycache__"))
    return root


def edit_plugin(root: Path, file: str, after: str, line: str) -> int:
    """Insert `line` into the project's plugin file `file` after the line reading `after`
    (stripped), indented like the next line (or like `after` when it opens no block);
    trust the edited plugin as the user would and return the new line's number."""
    from pnp.load.trust import trust

    path = root / file
    lines = path.read_text(encoding="utf-8").splitlines()
    at = next(i for i, text in enumerate(lines) if text.strip() == after) + 1
    model = lines[at] if lines[at - 1].rstrip().endswith(":") else lines[at - 1]
    lines.insert(at, model[: len(model) - len(model.lstrip())] + line)
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    trust(root)
    return at + 1

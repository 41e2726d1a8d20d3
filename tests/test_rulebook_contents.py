"""Every game's `contents:` in game.yaml lists the rule book's component list (name,
count, rule line); the build must produce every printed one, that many pieces."""

from __future__ import annotations

from fnmatch import fnmatch
from pathlib import Path

import pytest

from pnp.build.driver import BuildOptions, build
from pnp.load.content import Project, load_game
from pnp.plan import item_id
from pnp.render.faces import ComponentRenderer

REPO = Path(__file__).resolve().parent.parent
GAMES = ["tasty-humans", "cave", "dietrick-taking", "human-harvest"]
_builds: dict[tuple, Path] = {}


def _built(tmp_path_factory, game: str, options: dict) -> Path:
    """An SVG build of one game with these options, made once per session."""
    key = (game, tuple(sorted(options.items())))
    if key not in _builds:
        out = tmp_path_factory.mktemp("contents")
        extra = {k: v for k, v in options.items() if k != "players"}
        build(Project(REPO), [game], BuildOptions(formats=("svg",), out=out, players=options.get("players"), extra=extra))
        _builds[key] = out / game
    return _builds[key]


@pytest.mark.parametrize("name", GAMES)
def test_game_lists_the_rule_books_contents(name):
    contents = load_game(Project(REPO), name).manifest.contents
    assert contents, f"{name}: game.yaml lists no rule-book contents"
    for piece in contents:
        assert piece.rule and ".txt" in piece.rule, piece


@pytest.mark.parametrize("name", GAMES)
def test_build_produces_every_listed_piece(name, tmp_path_factory):
    game = load_game(Project(REPO), name)
    for piece in game.manifest.contents:
        if piece.component is None:
            continue
        options = {"players": None, "paper": "letter", **piece.options}
        renderer = ComponentRenderer(game, options, 0.0)
        index, comp = next((i, c) for i, c in enumerate(game.manifest.components) if c.id == piece.component)
        items = [it for it in renderer.plan.items(index, comp) if fnmatch(item_id(it), piece.ids)]
        made = sum(renderer.plan.copies(index, comp, it) for it in items)
        assert made == piece.count, f"{name}: {piece.name}: rule book {piece.count} ({piece.rule}), build makes {made}"
        svg = _built(tmp_path_factory, name, piece.options) / "svg" / comp.id
        missing = [item_id(it) for it in items if not (svg / f"{item_id(it)}.svg").is_file()]
        assert not missing, f"{name}: {piece.name}: no SVG for {missing}"

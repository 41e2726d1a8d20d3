"""What each game is made of: components, sizes and piece counts, without rendering."""

from __future__ import annotations

from ..config import BuildOptions
from ..build.pipeline import Pipeline
from ..load.content import Project
from ..errors import raise_if_any
from ..units import num


def inventory(project: Project, games: list[str] | None, options: BuildOptions | None = None) -> list[tuple[str, ...]]:
    """One row per component, as a build with `options` (the default ones) plans it: game,
    component, size (a round piece's diameter), item count, piece count, back kind."""
    rows: list[tuple[str, ...]] = []
    pipeline = Pipeline(project, options or BuildOptions())
    for name in project.resolve_games(games):
        (game,) = pipeline.load([name])
        renderer = pipeline.planner(game)  # planned, not rendered
        for i, comp in enumerate(game.manifest.components):
            items = renderer.plan.items(i, comp)
            pieces = sum(renderer.plan.copies(i, comp, item) for item in items)
            back = "per item" if comp.back and comp.back_per_item else ("shared" if comp.back else "-")
            # a round piece's size is its circle's diameter (its width and height are equal)
            size = f"{num(comp.size.width)} round" if comp.shape == "round" else f"{num(comp.size.width)} x {num(comp.size.height)}"
            rows.append((name, comp.id, size, str(len(items)), str(pieces), back))
        raise_if_any(renderer.errors)
    return rows

"""The one pipeline every command runs: load the games, check the options, plan the pieces,
render the faces (reusing cached ones when a cache is given), then hand them to a stage.

`pnp build` and `pnp preview` hand the faces to the formats (pnp/build/driver.py); `validate`
only checks that they render; `list` and `pnp sheet` stop after planning; `diff` and the
golden renders compare the faces' pictures.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, TypeVar

from ..errors import PnpError
from ..load import project_files
from ..load.content import GameContent, Project, load_game

if TYPE_CHECKING:
    from ..render.faces import ComponentRenderer, Piece, RenderedComponent
    from .cache import BuildCache
    from ..config import BuildOptions
    from .driver import Tally

T = TypeVar("T")
# what a command does with one game's rendered faces
Stage = Callable[[GameContent, "list[RenderedComponent]"], T]


@dataclass(frozen=True)
class Pipeline:
    """The project and the build options every stage of a command sees."""

    project: Project
    options: "BuildOptions"

    def check(self) -> "Pipeline":
        """Fail on bad build options (format, paper, layout, bleed, dpi) before any work."""
        from .driver import check_options

        check_options(self.options)
        return self

    def load(self, names: list[str], engine_fonts: bool = True) -> list[GameContent]:
        """Load every named game, collecting all games' errors before failing. `engine_fonts`:
        check here what the PDF engine names each game's font files; a build that makes PDFs
        asks its engine instead, where it runs, as it makes them (pnp/build/driver.py)."""
        project_files.fresh()  # a build lists a folder afresh: a file renamed since the last one (`pnp watch`) is seen
        loaded, errors = [], []
        for name in names:
            try:
                game = load_game(self.project, name)
                if engine_fonts:
                    from ..formats.pdf_engine import check_font_names

                    check_font_names(game)
                loaded.append(game)
            except PnpError as exc:
                errors.extend(exc.errors)
        if errors:
            raise PnpError(errors)
        return loaded

    def values(self, games: list[GameContent]) -> dict[str, dict[str, Any]]:
        """Each game's checked options, as its templates and `items:` expressions see them."""
        return self.options.game_options(games)

    def planner(self, game: GameContent) -> "ComponentRenderer":
        """The game's renderer under its checked options, for its plan of pieces (`.plan`) or single faces."""
        from ..render.faces import ComponentRenderer

        return ComponentRenderer(game, self.values([game])[game.name], self.options.bleed)

    def render(self, game: GameContent, values: dict[str, Any] | None = None, cache: "BuildCache | None" = None,
               tally: "Tally | None" = None, each_piece: "Callable[[Piece], None] | None" = None) -> "tuple[list[RenderedComponent], int]":
        """Every component of the game rendered (faces the cache holds reused) and how many
        faces were rendered; raises PnpError listing every failure. With a cache,
        `each_piece` is told of every piece as soon as it is rendered."""
        values = self._values(game, values)
        if cache is not None:
            from .cache import render_cached

            return render_cached(game, values, self.options.bleed, cache, tally, each_piece)
        from ..render.faces import render_game

        out = render_game(game, values, self.options.bleed)
        return out, sum(len(comp.faces) for comp in out)

    def each(self, names: list[str], stage: "Stage[T]", cached_in: Path | None = None) -> list[T]:
        """Load, render and run `stage` on each game in turn; every game's errors are
        collected and raised together. With `cached_in`, faces are reused from the cache of
        `cached_in/<game>` (read only: nothing is recorded there)."""
        from .cache import BuildCache, code_stamp

        done, errors = [], []
        for name in names:
            try:
                (game,) = self.load([name])
                cache = BuildCache.open(cached_in / name, code_stamp(game)) if cached_in is not None else None
                rendered, _ = self.render(game, cache=cache)
                done.append(stage(game, rendered))
            except PnpError as exc:
                errors.extend(exc.errors)
        if errors:
            raise PnpError(errors)
        return done

    def _values(self, game: GameContent, values: dict[str, Any] | None) -> dict[str, Any]:
        return values if values is not None else self.values([game])[game.name]

"""The main job: validate games, render their faces, impose PDFs, write `output/<game>/`.

Every game named is loaded and validated before any file is written, and every file of a
game is produced in memory before the first one is written, so bad input never leaves a
half-written output tree.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from .content import GameContent, Project, load_game
from .errors import PnpError
from .impose import Paper, impose, paper
from .output import commit
from .render import RenderedComponent, render_game

Progress = Callable[[str], None]


@dataclass(frozen=True)
class BuildOptions:
    formats: tuple[str, ...] = ("svg", "pdf")
    paper: str = "letter"
    bleed: float = 3.0
    out: Path | None = None  # defaults to <project>/output
    players: int | None = None
    extra: dict[str, Any] = field(default_factory=dict)  # game options, e.g. {"rules": "0.2.8"}

    def template_options(self) -> dict[str, Any]:
        """What templates and `items:` expressions see as `options`."""
        return {"players": self.players, "paper": self.paper, **self.extra}


@dataclass(frozen=True)
class GameReport:
    game: str
    components: int
    pieces: int
    files: int
    written: int
    seconds: float


# format name -> function producing {relative path: bytes} for one game
Writer = Callable[[GameContent, list[RenderedComponent], BuildOptions, Paper], dict[str, bytes]]


def svg_files(game: GameContent, rendered: list[RenderedComponent], options: BuildOptions, sheet: Paper) -> dict[str, bytes]:
    return {face.relpath: face.svg.encode("utf-8") for comp in rendered for face in comp.faces}


def pdf_files(game: GameContent, rendered: list[RenderedComponent], options: BuildOptions, sheet: Paper) -> dict[str, bytes]:
    title = game.manifest.title
    return {
        f"pdf/{comp.spec.id}.pdf": impose(comp, sheet, f"{title}: {comp.spec.name}")
        for comp in rendered
        if comp.pieces
    }


FORMATS: dict[str, Writer] = {"svg": svg_files, "pdf": pdf_files}


def check_formats(formats: tuple[str, ...]) -> None:
    unknown = [f for f in formats if f not in FORMATS]
    if unknown or not formats:
        raise PnpError(f"unknown format {', '.join(unknown) or '(none)'}: expected some of {', '.join(FORMATS)}")


def out_root(project: Project, options: BuildOptions, game: str) -> Path:
    return (options.out or project.output_dir) / game


def produce(game: GameContent, options: BuildOptions) -> tuple[list[RenderedComponent], dict[str, bytes]]:
    """Render one game and every requested format in memory."""
    sheet = paper(options.paper)
    rendered = render_game(game, options.template_options(), options.bleed)
    files: dict[str, bytes] = {}
    for fmt in options.formats:
        files.update(FORMATS[fmt](game, rendered, options, sheet))
    return rendered, files


def build(project: Project, games: list[str] | None, options: BuildOptions, progress: Progress | None = None) -> list[GameReport]:
    """Build the named games (all when None) and return one report per game."""
    check_formats(options.formats)
    paper(options.paper)  # unknown paper fails before any work
    if options.bleed < 0:
        raise PnpError(f"--bleed must be 0 or more, got {options.bleed}")
    names = project.resolve_games(games)
    loaded = _load_all(project, names)
    produced = []
    for game in loaded:  # everything in memory first: a template error leaves output/ untouched
        start = time.perf_counter()
        if progress:
            progress(game.name)
        rendered, files = produce(game, options)
        produced.append((game, rendered, files, time.perf_counter() - start))
    scope = tuple(f"{fmt}/" for fmt in options.formats)
    reports = []
    for game, rendered, files, seconds in produced:
        start = time.perf_counter()
        written, _ = commit(out_root(project, options, game.name), files, scope)
        pieces = sum(p.copies for c in rendered for p in c.pieces)
        seconds += time.perf_counter() - start
        reports.append(GameReport(game.name, len(rendered), pieces, len(files), written, seconds))
    return reports


def _load_all(project: Project, names: list[str]) -> list[GameContent]:
    """Load every game, collecting all games' errors before failing."""
    loaded, errors = [], []
    for name in names:
        try:
            loaded.append(load_game(project, name))
        except PnpError as exc:
            errors.extend(exc.errors)
    if errors:
        raise PnpError(errors)
    return loaded

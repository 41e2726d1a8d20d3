"""`pnp preview`: build the games, then write `output/index.html`, a gallery of every
component (grouped by game and component) that shows the SVG faces and links the PDFs."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any
from urllib.parse import quote

from .build import BuildOptions, GameReport, build
from .content import Project
from .output import write_if_changed
from .pages import render_page
from .render import Face, RenderedComponent
from .textfit import num

PAGE = "index.html"


def preview(project: Project, games: list[str] | None, options: BuildOptions) -> Path:
    """Build SVG and PDF for the games (cached), write the gallery and return its path."""
    reports = build(project, games, replace(options, formats=("svg", "pdf")))
    root = options.out or project.output_dir
    page = root / PAGE
    write_if_changed(page, render_page("preview.html.j2", **gallery(project, reports, root)))
    return page


def gallery(project: Project, reports: list[GameReport], root: Path) -> dict[str, Any]:
    """What the page shows; links are relative to `root`, the folder of index.html."""
    games = []
    for report in reports:
        components = [_component(report.game, comp, root) for comp in report.parts]
        games.append({
            "name": report.game,
            "title": report.title,
            "components": components,
            "faces": sum(c["faces"] for c in components),
            "pieces": sum(c["pieces"] for c in components),
        })
    return {
        "games": games,
        "totals": {key: sum(g[key] if key != "components" else len(g[key]) for g in games) for key in ("components", "faces", "pieces")},
    }


def _link(game: str, rel: str) -> str:
    return quote(f"{game}/{rel}")


def _face(game: str, face: Face) -> dict[str, str]:
    return {"src": _link(game, face.relpath), "name": face.name}


def _component(game: str, comp: RenderedComponent, root: Path) -> dict[str, Any]:
    spec = comp.spec
    pdf = f"pdf/{spec.id}.pdf"
    shared = comp.pieces[0].back if comp.pieces and spec.back and not spec.back_per_item else None
    return {
        "id": spec.id,
        "name": spec.name,
        "size": f"{num(spec.size.width)} × {num(spec.size.height)} mm",
        "width": num(spec.size.width),
        "height": num(spec.size.height),
        "bleed": num(comp.bleed),
        "item_count": len(comp.pieces),
        "pieces": sum(p.copies for p in comp.pieces),
        "faces": len(comp.faces),
        "back": "per item" if spec.back and spec.back_per_item else ("shared" if spec.back else "none"),
        "pdf": _link(game, pdf) if (root / game / pdf).is_file() else None,
        "shared_back": _face(game, shared) if shared else None,
        "cards": [
            {
                "id": p.item_id,
                "copies": p.copies,
                "front": _face(game, p.front),
                "back": _face(game, p.back) if p.back is not None and p.back is not shared else None,
            }
            for p in comp.pieces
        ],
    }

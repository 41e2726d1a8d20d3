"""`pnp preview`: build the games, then write `output/index.html`, a gallery of every
component (grouped by game and component) that shows the SVG faces (loaded lazily) and
links every output format built so far. `pnp watch` rewrites the page and the build stamp
after each rebuild; an open page polls the stamp and reloads itself."""

from __future__ import annotations

import hashlib
import json
from dataclasses import replace
from pathlib import Path
from typing import Any, Callable, Iterable
from urllib.parse import quote

from ..build.driver import GameReport, build, check_input
from ..build.lock import output_lock
from ..config import BuildOptions, load_settings
from ..errors import ContentError
from ..load.content import Project
from ..load.project_files import output_folder
from ..build.output import write_if_changed
from ..load.seal import read_sealed, write_sealed
from ..render.pages import render_page
from ..render.faces import Face, RenderedComponent
from ..units import num

PAGE = "index.html"
STAMP = "build-stamp.js"  # rewritten by `pnp watch` after every rebuild that changed files
SHOWN = ".pnp-gallery.json"  # the games the page shows, sealed: `pnp watch GAME` keeps the others
SHOWN_FORMAT = 1


def preview(project: Project, games: list[str] | None, options: BuildOptions,
            warn: Callable[[Iterable[ContentError]], None] | None = None) -> Path:
    """Build SVG and PDF for the games (cached), write the gallery and return its path;
    `warn` takes each game's warnings, as `pnp build` prints them."""
    root = options.out or output_folder(project.root, project.output_dir)
    options = replace(options, formats=("svg", "pdf"))
    checked = check_input(project, games, options)  # a typo is said at once, not once another build lets go
    # the build's lock (build() takes it again) held until the gallery is written: a build
    # that follows must not change the files between them, nor write beside the page
    with output_lock(root):
        reports = build(project, games, options, checked=checked)
        if warn is not None:
            for r in reports:
                warn(r.warnings)
        return write_gallery(reports, root, build_dpi(project))


def build_dpi(project: Project) -> int:
    """The dpi `pnp build` makes PNG and TTS files at without `--dpi`: pnp.yaml's, or pnp's."""
    return load_settings(project.root).dpi or BuildOptions.dpi


def write_gallery(reports: list[GameReport], root: Path, dpi: int = BuildOptions.dpi, others: bool = False) -> Path:
    """Write `root/index.html` (unless it already holds exactly this page) and the build
    stamp it loads; return its path. `dpi`: what `pnp build` uses without `--dpi`.
    `others`: the games the page showed that `reports` leave out stay on it as they were
    (`pnp watch GAME` on a gallery of every game)."""
    page = root / PAGE
    context = gallery(reports, root, dpi)
    if others:
        context = _with_others(context, _shown(root), root)
    text = render_page("preview.html.j2", **context)
    write_if_changed(page, text)
    write_sealed(root / SHOWN, SHOWN, json.dumps({"format": SHOWN_FORMAT, "games": context["games"]}).encode("utf-8"))
    # the page loads the stamp as a script: pnp writes it too, never one the project shipped
    write_stamp(root, hashlib.sha256(text).hexdigest()[:16])
    return page


def write_stamp(root: Path, stamp: str) -> None:
    """Tell open gallery pages that a rebuild finished (they reload when the stamp changes)."""
    write_if_changed(root / STAMP, f"pnpBuildStamp({json.dumps(stamp)});\n".encode("utf-8"))


def gallery(reports: list[GameReport], root: Path, dpi: int = BuildOptions.dpi) -> dict[str, Any]:
    """What the page shows; links are relative to `root`, the folder of index.html. An
    out-of-date link's advice names `--dpi` when its files were made at another than `dpi`."""
    games = []
    for report in reports:
        again = {fmt: f"pnp build --format {fmt}" + (f" --dpi {made}" if (made := report.made_at.get(fmt, dpi)) != dpi else "")
                 for fmt in ("png", "tts")}
        components = [_component(report.game, comp, root, report.stale, again) for comp in report.parts]
        saved = f"tts/{report.game}.json"
        printed = f"{report.game}-print.pdf"
        links = [{"label": "Print PDF (the whole game)", "href": _link(report.game, printed),
                  "title": "every component on one PDF to print, with the how-to page and checklist"}] if (root / report.game / printed).is_file() else []
        if (root / report.game / saved).is_file():
            links.append(_marked({"label": "Tabletop Simulator object", "href": _link(report.game, saved), "title": "saved object: copy into TTS's Saved Objects folder"},
                                 again["tts"], any(rel.startswith("tts/") for rel in report.stale)))
        games.append({
            "name": report.game,
            "title": report.title,
            "components": components,
            "faces": sum(c["faces"] for c in components),
            "pieces": sum(c["pieces"] for c in components),
            "links": links,
        })
    return {
        "games": games,
        "totals": {key: sum(g[key] if key != "components" else len(g[key]) for g in games) for key in ("components", "faces", "pieces")},
        "stamp_file": STAMP,
    }


def _shown(root: Path) -> list[dict[str, Any]]:
    """The games the page showed when pnp last wrote it (none when the record is missing,
    not sealed by this user or of another shape: nothing in output/ is trusted)."""
    try:
        data = json.loads(read_sealed(root / SHOWN, SHOWN) or b"")
    except ValueError:
        return []
    games = data.get("games") if isinstance(data, dict) and data.get("format") == SHOWN_FORMAT else None
    return [g for g in games if isinstance(g, dict) and isinstance(g.get("name"), str)] if isinstance(games, list) else []


def _with_others(context: dict[str, Any], shown: list[dict[str, Any]], root: Path) -> dict[str, Any]:
    """`context` with the games of `shown` it lacks (whose outputs are still there), in the
    page's order, and the totals counted again."""
    games = {g["name"]: g for g in context["games"]}
    merged = [games.pop(g["name"], g) for g in shown if g["name"] in games or (root / g["name"]).is_dir()]
    merged += games.values()
    totals = {key: sum(len(g[key]) if key == "components" else g[key] for g in merged) for key in ("components", "faces", "pieces")}
    return {**context, "games": merged, "totals": totals}


def _link(game: str, rel: str) -> str:
    return quote(f"{game}/{rel}")


def _face(game: str, face: Face) -> dict[str, str]:
    return {"src": _link(game, face.relpath), "name": face.name}


def _formats(game: str, cid: str, root: Path, stale: tuple[str, ...] = (), again: dict[str, str] | None = None) -> list[dict[str, Any]]:
    """A link per output format built for the component: its PDF, and the folders of its
    SVG faces, PNG faces and Tabletop Simulator images; a PNG or TTS folder not made from
    the faces shown is marked (`GameReport.stale`), with the command (`again`) that remakes it."""
    candidates = [
        ("PDF", f"pdf/{cid}.pdf", "print-ready sheets"),
        ("SVG", f"svg/{cid}/", "one SVG per face"),
        ("PNG", f"png/{cid}/", "one PNG per face (pnp build --format png)"),
        ("TTS", f"tts/{cid}/", "Tabletop Simulator images (pnp build --format tts)"),
    ]
    links = []
    for label, rel, title in candidates:
        if (root / game / rel).exists():
            fmt = rel.split("/")[0]
            old = any(s == f"{fmt}/" or s.startswith(rel) for s in stale)
            command = (again or {}).get(fmt, f"pnp build --format {fmt}")
            links.append(_marked({"label": label, "href": _link(game, rel), "title": title}, command, old))
    return links


def _marked(link: dict[str, Any], command: str, stale: bool) -> dict[str, Any]:
    """`link`, marked when its files are older than the faces the page shows, with the
    `command` that makes them again."""
    if stale:
        link.update(stale=True, label=f"{link['label']} (out of date)",
                    title=f"made from older faces than these: run `{command}` to make them again")
    return link


def _component(game: str, comp: RenderedComponent, root: Path, stale: tuple[str, ...] = (),
               again: dict[str, str] | None = None) -> dict[str, Any]:
    spec = comp.spec
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
        "links": _formats(game, spec.id, root, stale, again),
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

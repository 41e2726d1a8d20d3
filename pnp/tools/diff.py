"""`pnp diff`: which faces look different from a git revision (`--since REF`) or from a
saved output tree (`--against DIR`), with a page showing before / after / difference.

Both sides are rendered by the current pnp code: for `--since`, the project's content/
and templates/ at REF are exported (pnp/load/revision.py) into a temporary folder and rendered
from there. Faces are compared as pictures; an SVG whose markup changed but whose pixels
did not counts as unchanged ("markup only"). Faces are drawn with their game's fonts, as
the PNG output is (a saved tree, which has no game.yaml, with the fonts the game has now).

A pixel counts as different when some channel moved by more than THRESHOLD, or by more
than FAINT while every pixel around it (3x3) moved by more than FAINT too. Anti-aliasing
noise (a markup change moving an edge by a fraction of a pixel) lives in lines one pixel
wide along edges, so it never fills a 3x3 block, however much those pixels change; a
recoloured area does, however slightly its colour moved (a card background 19 levels
darker, a disc 16). The whole area is then marked, its border pixels included.
"""

from __future__ import annotations

import io
import tempfile
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Iterator
from urllib.parse import quote

from ..config import DPI_RANGE, BuildOptions
from ..build.pipeline import Pipeline
from ..load.content import GameContent, Project, load_game
from ..errors import OptionError, PnpError, display_path
from ..build.driver import out_root
from ..build.lock import output_lock
from ..build.output import commit_files
from ..render.pages import render_page
from ..formats.raster import svg_to_image
from ..load import revision, trust
from ..load.fonts import DEFAULT, Fonts
from ..units import percent

if TYPE_CHECKING:
    from PIL import Image

    from ..render.faces import RenderedComponent

DIFF_DIR = "diff"
THRESHOLD = 24  # per-channel difference up to which a lone pixel counts as the same (anti-aliasing)
FAINT = 2  # a difference above this counts where it covers an area (see the module docstring)
MARK = (230, 0, 126)  # on the difference image: pixels that got darker (new ink)
GONE = (0, 122, 255)  # pixels that got lighter (ink gone) or changed colour only
BOX = (255, 59, 48)

FaceId = tuple[str, str, str]  # game, component, face name
Drawn = tuple[str, Fonts]  # a face's SVG and the fonts it is drawn with


@dataclass
class Change:
    game: str
    component: str
    name: str
    status: str  # changed, added or removed
    ratio: float = 0.0  # share of pixels that differ
    sizes: dict[str, tuple[int, int]] = field(default_factory=dict)  # before/after -> px
    images: dict[str, str] = field(default_factory=dict)  # before/after/difference -> link

    @property
    def path(self) -> str:
        return f"{self.game}/{self.component}/{self.name}"


@dataclass
class DiffReport:
    before: str  # each side, in words
    after: str
    changes: list[Change]
    unchanged: int
    markup_only: int
    page: Path

    def count(self, status: str) -> int:
        return sum(1 for c in self.changes if c.status == status)


def diff(project: Project, games: list[str] | None, options: BuildOptions, since: str | None = None,
         against: Path | None = None, dpi: int = 100) -> DiffReport:
    """Compare the current rendering with REF or DIR; write output/diff/index.html."""
    if (since is None) == (against is None):
        raise PnpError("pnp diff: give either --since GIT_REF or --against DIR")
    if not DPI_RANGE[0] <= dpi <= DPI_RANGE[1]:  # a face is drawn at this resolution, twice
        raise OptionError(f"--dpi must be between {DPI_RANGE[0]} and {DPI_RANGE[1]}, got {dpi}")
    Pipeline(project, options).check()
    out = options.out or project.output_dir
    # checked before the work, as a build checks a game's folder: a link on the way to
    # output/diff (or out of --out DIR) is refused, never written through, nor its lock
    page_dir = out_root(project, options, DIFF_DIR)
    with ExitStack() as stack:  # the exported revision's font files are drawn with until the end
        if since is not None:
            old, label = stack.enter_context(exported(project, since))
            names = _names(project, games, old.games())
            before = rendered_faces(old, [n for n in names if n in old.games()], options, out, shown_as=since)
        else:
            assert against is not None  # one of the two, checked above
            tree = saved_tree(against)
            names = _names(project, games, list(tree))
            before = saved_faces({g: p for g, p in tree.items() if g in names}, project)
            label = f"saved output {display_path(against)}"
        after = rendered_faces(project, [n for n in names if n in project.games()], options, out)
        return compare(before, after, page_dir, label, "working tree", dpi)


def _names(project: Project, games: list[str] | None, old_games: list[str]) -> list[str]:
    if not games:
        return sorted(set(project.games()) | set(old_games))
    unknown = [g for g in games if g not in project.games() and g not in old_games]
    if unknown:
        raise PnpError([f"unknown game {g!r}: found neither now nor in the other version" for g in unknown])
    return list(dict.fromkeys(games))


@contextmanager
def exported(project: Project, ref: str) -> Iterator[tuple[Project, str]]:
    """The project's content/, templates/, plugins/ (project-local game Python) and assets/
    (fonts, pictures) as they were at `ref`, in a temporary folder."""
    with tempfile.TemporaryDirectory(prefix="pnp-diff-") as tmp:
        try:
            root, commit = revision.export(project.root, ref, ["content", "templates", "plugins", "assets"], Path(tmp))
        except revision.NoRevision as exc:
            raise OptionError(f"--since {ref}: {exc}") from None
        trust.revision_of(root, project.root, ref)
        try:
            yield Project(root), f"{ref} ({commit})"
        finally:
            trust.REVISIONS.pop(str(root.resolve()), None)


def rendered_faces(project: Project, names: list[str], options: BuildOptions, out: Path, shown_as: str | None = None) -> dict[FaceId, Drawn]:
    """Every face of the games as SVG text with its game's fonts (reusing the output
    folder's cache, read-only)."""
    faces: dict[FaceId, Drawn] = {}

    def keep(game: GameContent, rendered: list[RenderedComponent]) -> None:
        faces.update({(game.name, face.component, face.name): (face.svg, face.fonts) for comp in rendered for face in comp.faces})

    try:
        Pipeline(project, options).each(names, keep, cached_in=out)
    except PnpError as exc:
        errors = [str(e) for e in exc.errors]
        if shown_as:  # name the files as `REF:content/...`, not by their temporary path
            root = display_path(project.root)
            errors = [line.replace(f"{root}/", f"{shown_as}:") for line in errors]
        raise PnpError(errors) from None
    return faces


def saved_tree(folder: Path) -> dict[str, Path]:
    """Game -> its saved output folder: FOLDER/<game>/svg/..., or FOLDER/svg/... for one game."""
    if not folder.is_dir():
        raise PnpError(f"{display_path(folder)}: no such folder: expected a saved output/ tree")
    if (folder / "svg").is_dir():
        return {folder.name: folder}
    tree = {d.name: d for d in sorted(folder.iterdir()) if (d / "svg").is_dir()}
    if not tree:
        raise PnpError(f"{display_path(folder)}: no <game>/svg/ folders found: expected a saved output/ tree")
    return tree


def saved_faces(tree: dict[str, Path], project: Project) -> dict[FaceId, Drawn]:
    """The faces of a saved output tree, drawn with the fonts of the project's game of that
    name (pnp's own for a game the project no longer has)."""
    faces: dict[FaceId, Drawn] = {}
    for game, folder in tree.items():
        fonts = load_game(project, game).fonts if game in project.games() else DEFAULT
        faces.update({(game, svg.parent.name, svg.stem): (svg.read_text(encoding="utf-8"), fonts)
                      for svg in sorted((folder / "svg").glob("*/*.svg"))})
    return faces


def compare(before: dict[FaceId, Drawn], after: dict[FaceId, Drawn], root: Path, before_label: str, after_label: str, dpi: int) -> DiffReport:
    """Classify every face, draw the images of those that differ and write the page."""
    changes: list[Change] = []
    files: dict[str, bytes] = {}
    unchanged = markup_only = 0
    for fid in sorted(set(before) | set(after)):
        old, new = before.get(fid), after.get(fid)
        if old and new and old[0] == new[0] and old[1].digest == new[1].digest:
            unchanged += 1
            continue
        change = Change(*fid, status="changed" if old and new else ("added" if new else "removed"))
        images = {side: svg_to_image(drawn[0], dpi, drawn[1]).convert("RGB") for side, drawn in (("before", old), ("after", new)) if drawn}
        if change.status == "changed":
            picture, change.ratio = difference(images["before"], images["after"])
            if picture is None:
                markup_only += 1
                continue
            images["difference"] = picture
        for side, image in images.items():
            rel = f"{'/'.join(fid)}.{side}.png"
            files[rel] = _png(image)
            change.images[side] = quote(rel)
            if side != "difference":
                change.sizes[side] = image.size
        changes.append(change)
    report = DiffReport(before_label, after_label, changes, unchanged, markup_only, root / "index.html")
    files["index.html"] = render_page("diff.html.j2", report=report, games=_grouped(changes), dpi=dpi, percent=percent)
    # one writer at a time: another `pnp diff` of this folder commits before or after this one,
    # never interleaved with it (the page, its pictures and their record would not match)
    with output_lock(root, holder="pnp diff"):
        commit_files(root, files)
    return report


def difference(before: "Image.Image", after: "Image.Image") -> tuple["Image.Image | None", float]:
    """A faded copy of `after` with changed pixels marked (MARK where they got darker, GONE
    where lighter) and boxed, and the share changed;
    (None, 0) when no pixel differs beyond anti-aliasing."""
    from PIL import Image, ImageChops, ImageDraw

    size = max(before.width, after.width), max(before.height, after.height)
    a, b = _pad(after, size), _pad(before, size)
    mask = changed_pixels(a, b)
    box = mask.getbbox()
    if box is None:
        return None, 0.0
    ratio = mask.histogram()[255] / (size[0] * size[1])
    darker = ImageChops.subtract(b.convert("L"), a.convert("L")).point(lambda v: 255 if v > 0 else 0)
    new_ink = ImageChops.multiply(mask, darker)
    picture = Image.blend(a.convert("L").convert("RGB"), Image.new("RGB", size, "white"), 0.7)
    picture.paste(Image.new("RGB", size, GONE), mask=ImageChops.subtract(mask, new_ink))
    picture.paste(Image.new("RGB", size, MARK), mask=new_ink)
    pad = 4
    ImageDraw.Draw(picture).rectangle((box[0] - pad, box[1] - pad, box[2] + pad - 1, box[3] + pad - 1), outline=BOX, width=2)
    return picture, ratio


def changed_pixels(a: "Image.Image", b: "Image.Image") -> "Image.Image":
    """255 where the pictures differ beyond anti-aliasing (module docstring), else 0."""
    from PIL import ImageChops, ImageFilter

    r, g, bl = ImageChops.difference(a, b).split()
    most = ImageChops.lighter(ImageChops.lighter(r, g), bl)
    strong = most.point(lambda v: 255 if v > THRESHOLD else 0)
    faint = most.point(lambda v: 255 if v > FAINT else 0)
    # opening: keep the faint pixels whose 3x3 block all differ, then grow them back by
    # one pixel within the faint ones (an area's border, not the edge noise beside it)
    areas = ImageChops.multiply(faint.filter(ImageFilter.MinFilter(3)).filter(ImageFilter.MaxFilter(3)), faint)
    return ImageChops.lighter(strong, areas)


def _pad(image: "Image.Image", size: tuple[int, int]) -> "Image.Image":
    if image.size == size:
        return image
    from PIL import Image

    canvas = Image.new("RGB", size, "white")
    canvas.paste(image, (0, 0))
    return canvas


def _png(image: "Image.Image") -> bytes:
    buffer = io.BytesIO()
    image.save(buffer, "PNG")
    return buffer.getvalue()


def _grouped(changes: list[Change]) -> list[dict]:
    """Changes by game, then component, in order."""
    games: dict[str, dict[str, list[Change]]] = {}
    for c in changes:
        games.setdefault(c.game, {}).setdefault(c.component, []).append(c)
    return [{"name": g, "components": [{"id": k, "changes": v} for k, v in comps.items()]} for g, comps in games.items()]

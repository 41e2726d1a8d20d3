"""Icon sets as data, and `icon()`, the one template helper that places any of them.

A set is a folder of SVG files (the id is the file name) or a YAML file mapping ids to
SVG path data (`d`, or {d, fill, viewbox}). `icon('suits', 'moon', x, y, size)` draws the
icon scaled into the square at (x, y) as a nested <svg>, so each icon keeps its own
coordinates; `fill` recolours path icons (SVG files keep their own colours). Path data,
in the YAML or on an SVG file's <path>, is checked at load (pnp/load/svgpath.py).
"""

from __future__ import annotations

import os
import xml.etree.ElementTree as ET
from xml.parsers import expat
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

from jinja2 import TemplateRuntimeError, pass_context
from jinja2.runtime import Context
from markupsafe import Markup, escape

from ..errors import ContentError, PnpError, did_you_mean
from ..limits import ICONS
from ..plaindata import helper
from ..sandbox import reports_reads
from . import project_files
from ..units import num
from .yamlio import Located, load_located
from .spec import IconSetSpec
from .paint import SHEET_PAINT, is_colour, not_a_colour, paints, sheet_paint
from .stylesheets import in_sheets
from .svgpath import path_problem, viewbox_problem
from .validation import unknown_key

SVG_NS = "http://www.w3.org/2000/svg"


@dataclass(frozen=True)
class Icon:
    viewbox: str
    body: str  # SVG markup inside the icon's <svg>
    fill: str | None = None  # path icons: the default colour


def _svg_file(project: Path, path: Path, where: ContentError) -> Icon:
    data = project_files.read_bytes(project, path, where, "icon file", ICONS)
    try:
        root = ET.fromstring(data)
    except ET.ParseError as exc:
        # expat counts columns from 0, every other located error from 1; its message ends in
        # the position the error line already gives
        line, column = exc.position if exc.position else (None, None)
        raise PnpError(ContentError(path, line, None if column is None else column + 1,
                                    f"not well-formed SVG: {expat.ErrorString(exc.code)}")) from None
    if root.tag != f"{{{SVG_NS}}}svg":
        raise PnpError(ContentError(path, 1, None, "expected an <svg> root element in the SVG namespace"))
    viewbox = root.get("viewBox")
    if viewbox is None:
        w, h = root.get("width"), root.get("height")
        if not (w and h):
            raise PnpError(ContentError(path, 1, None, "expected a viewBox (or width and height) on the <svg> element"))
        viewbox = f"0 0 {w} {h}"
    bad = _bad_path(path, data)
    if bad is not None:
        raise PnpError(bad)
    ET.register_namespace("", SVG_NS)
    body = "".join(ET.tostring(child, encoding="unicode") for child in root)
    return Icon(viewbox, body.replace(f' xmlns="{SVG_NS}"', ""))


def _box_problem(attrs: dict[str, str]) -> str | None:
    """What is wrong with the box of an icon file's <svg> root: its viewBox, or the one its
    width and height make (the renderers draw nothing in a box they cannot read: `0 0 24`, a
    width of 0), or None (a root with neither: _svg_file)."""
    if (box := attrs.get("viewBox")) is not None:
        problem = viewbox_problem(box)
        return None if problem is None else f"<svg> viewBox {problem}"
    w, h = attrs.get("width"), attrs.get("height")
    if w and h and viewbox_problem(f"0 0 {w} {h}") is not None:
        return (f"<svg> width {w!r} and height {h!r} make no viewBox: expected a viewBox on the <svg> element "
                "(or a width and height that are plain numbers above 0)")
    return None


def _bad_path(path: Path, data: bytes) -> ContentError | None:
    """The error at the first element of a well-formed SVG file with a box the icon cannot be
    drawn in, a malformed path `d`, or a fill or stroke the renderers cannot read (drawn black,
    or no line, in every face placing the icon; an attribute, `style`, or its `<style>` sheet's),
    if any (ElementTree keeps no positions: expat, which it parses with, reports them)."""
    parser = expat.ParserCreate(namespace_separator=" ")
    found: list[ContentError] = []
    sheets: list[str] = []  # the file's <style> elements: most icons have none, and cost nothing more
    first = True  # the next element is the <svg> root (_svg_file checked that), whose box the icon is scaled from

    def start(name: str, attrs: dict[str, str]) -> None:
        nonlocal first
        if name == f"{SVG_NS} style":
            sheets.append(name)
        problem = path_problem(attrs["d"]) if name == f"{SVG_NS} path" and "d" in attrs else None
        tag = name.rpartition(" ")[2]
        if problem is not None:
            problem = f"<path> d: SVG path data: {problem}"
        elif first:
            problem = _box_problem(attrs)
        first = False
        if problem is None and (bad := next(((n, v) for n, v, _ in paints(attrs) if not is_colour(v)), None)):
            problem = f"<{tag}> {not_a_colour(*bad)}"
        if problem is not None and not found:
            found.append(ContentError(path, parser.CurrentLineNumber, parser.CurrentColumnNumber + 1, problem))

    parser.StartElementHandler = start
    parser.Parse(data, True)
    # a sheet is read as text, as a template's is (pnp/render/paints.py): its lines and columns
    for declared, line, column in in_sheets(data.decode("utf-8", "replace"), SHEET_PAINT) if sheets else ():
        name, value = sheet_paint(declared)
        if not is_colour(value):
            if not found or (found[0].line or 0) > line:  # the first in the file
                return ContentError(path, line, column, f"<style> {not_a_colour(name, value)}")
            break
    return found[0] if found else None


ICON_KEYS = ("d", "fill", "viewbox")  # of an icon in an icon set's YAML file

# pictures that are not icons in an icon folder: refused, where a pack's LICENSE or README is left alone
PICTURES = frozenset({".png", ".jpg", ".jpeg", ".gif", ".webp", ".bmp", ".tif", ".tiff", ".svgz", ".eps", ".ai", ".pdf"})


def _near_folder(folder: Path) -> str:
    """` (did you mean 'icons'?)`: the folder beside a missing icon folder spelt nearest it."""
    try:
        names = sorted(p.name for p in folder.parent.iterdir() if p.is_dir() and not p.name.startswith("."))
    except OSError:  # its parent is missing too: nothing to offer
        return ""
    return did_you_mean(folder.name, names)


def load_icon_sets(project: Path, content_dir: Path, specs: dict[str, IconSetSpec], manifest: Located) -> tuple[dict[str, dict[str, Icon]], list[ContentError], set[Path]]:
    """Every declared icon set, the errors, and the files read (not data files)."""
    sets: dict[str, dict[str, Icon]] = {}
    errors: list[ContentError] = []
    used: set[Path] = set()
    for name, spec in specs.items():
        icons: dict[str, Icon] = {}
        try:
            if spec.folder is not None:
                at = manifest.error(("icons", name, "folder"), "")
                folder = project_files.join(project, content_dir, spec.folder, at, "icon folder")
                if not folder.is_dir():
                    errors.append(manifest.error(("icons", name, "folder"), f"folder not found: {spec.folder} (looked in "
                                                 f"content/{content_dir.name}/){_near_folder(folder)}"))
                    continue
                strays = []
                # hidden files (.DS_Store, macOS's ._star.svg) are the system's, not icons
                for path in project_files.listing(project, folder, "[!.]*"):
                    if path.suffix.lower() == ".svg":  # `kiwi.SVG` too: it was skipped, and its icon unknown
                        icons[path.stem] = _svg_file(project, path, at)
                    elif path.suffix.lower() in PICTURES:  # a .png left here would be ignored, and its icon missed
                        strays.append(ContentError(path, None, None, "not an SVG file: an icon folder holds one <id>.svg file per icon "
                                                                     "(convert it to SVG)"))
                errors.extend(strays)
                if not icons and not strays:
                    errors.append(manifest.error(("icons", name, "folder"), f"no .svg files in {spec.folder}: expected one file per icon, named <id>.svg"))
            else:
                assert spec.file is not None
                path = project_files.join(project, content_dir, spec.file, manifest.error(("icons", name, "file"), ""), "icon file")
                used.add(Path(os.path.realpath(path)))  # not resolve(): a symlink loop is read below, and refused there in one line
                doc = load_located(path)
                if not isinstance(doc.data, dict):
                    errors.append(doc.error((), "expected a mapping of icon id -> SVG path data (or {d, fill, viewbox})"))
                    continue
                for key, value in doc.data.items():
                    value = {"d": value} if isinstance(value, str) else value
                    if isinstance(value, dict) and (stray := [k for k in value if k not in ICON_KEYS]):
                        errors.append(doc.error((key, stray[0]), f"icon {key!r}: {unknown_key(stray[0], ICON_KEYS, value, required=('d',))}"))
                        continue
                    if not isinstance(value, dict) or not isinstance(value.get("d"), str):
                        errors.append(doc.error((key,), f"icon {key!r}: expected SVG path data, or a mapping with `d` and optional `fill`, `viewbox`"))
                        continue
                    problem = path_problem(value["d"])
                    if problem is not None:
                        errors.append(doc.error((key, "d") if isinstance(doc.data[key], dict) else (key,), f"icon {key!r}: SVG path data: {problem}"))
                        continue
                    fill = value.get("fill")  # its default fill, drawn black in every face (a number or a list too, once written)
                    if fill is not None and not (isinstance(fill, str) and is_colour(fill)):
                        errors.append(doc.error((key, "fill"), f"icon {key!r}: {not_a_colour('fill', str(fill).lower() if isinstance(fill, bool) else fill)}"))
                        continue
                    if "viewbox" in value and (problem := viewbox_problem(value["viewbox"])) is not None:  # a set's own: spec.py
                        errors.append(doc.error((key, "viewbox"), f"icon {key!r}: viewbox {problem}"))
                        continue
                    d = escape(value["d"])
                    icons[str(key)] = Icon(value.get("viewbox", spec.viewbox), f'<path d="{d}"/>', value.get("fill"))
        except PnpError as exc:
            errors.extend(e for e in exc.errors if isinstance(e, ContentError))
            continue
        sets[name] = icons
    return sets, errors, used


class UnknownIcon(TemplateRuntimeError):
    """`icon()` asked for an id its set lacks: a content mistake, most often, which the
    renderer looks for in the piece's record (`ident`, the id asked for)."""

    def __init__(self, message: str, ident: Any):
        super().__init__(message)
        self.ident = ident


def icon_helper() -> Callable[..., Markup]:
    """The `icon(set, id, x, y, size, fill=None)` template function. It takes the icon from
    the face's own `icons` name the way a template reads data (the context's lookup, the
    sandbox's getitem), so the build cache counts a face by the icons it draws
    (pnp/build/trace.py): a helper that kept the sets to itself would be read by no face."""

    @pass_context
    def icon(context: Context, set_name: Any, ident: Any, x: float, y: float, size: float, fill: str | None = None) -> Markup:
        sets = context.resolve_or_missing("icons")
        sets = sets if isinstance(sets, dict) else {}
        if set_name not in sets:
            raise TemplateRuntimeError(f"icon(): no icon set {set_name!r}: expected one of {', '.join(sets) or '(none declared under icons: in game.yaml)'}"
                                       f"{did_you_mean(str(set_name), list(sets))}")
        get = context.environment.getitem
        icons = get(sets, set_name)
        if str(ident) not in icons:
            raise UnknownIcon(f"no icon {ident!r} in set {set_name!r}: expected one of {', '.join(icons)}"
                              f"{did_you_mean(str(ident), list(icons))}", ident)
        found = get(icons, str(ident))
        colour = fill or get(found, "fill")
        paint = f' fill="{escape(colour)}"' if colour else ""
        return Markup(f'<svg x="{num(x)}" y="{num(y)}" width="{num(size)}" height="{num(size)}" '
                      f'viewBox="{escape(get(found, "viewbox"))}"{paint}>{get(found, "body")}</svg>')

    return reports_reads(helper(icon))


def plain(sets: dict[str, dict[str, Icon]]) -> dict[str, dict[str, Any]]:
    """The icon sets as plain data: what templates see as `icons` (ids, and for the cache)."""
    return {name: {k: {"viewbox": i.viewbox, "body": i.body, "fill": i.fill} for k, i in icons.items()} for name, icons in sets.items()}

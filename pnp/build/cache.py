"""The build cache: render a face only when something it read changed, and produce an
output file only when its inputs changed or the file on disk is not the one the last
build wrote. The one interface: `BuildCache` (one game's cache file), `code_stamp`,
`render_cached`, and pnp/build/witness.py for a whole build.

The cache is one JSON file per game output folder (`output/<game>/.pnp-cache.json`). It
holds the SVG of every face with what the face read while it rendered (its trace), its
pictures by `asset()` name (their bytes are read again from the art file, which the key
witnesses (5): a picture is not copied once per face into the cache), and
for every output file the digest of its inputs and its size. A missing, unreadable or
foreign cache file simply means a full rebuild; it is checked, not trusted.

The key rule, in full. A face (component id, face name, side, bleed, template name) is
rendered again exactly when one of these changed:

1. code (the game's stamp: a different stamp drops the game's whole cache): pnp's
   version and every file of its package, the installs of Jinja2, typst, pikepdf,
   resvg-py and fontTools, the game plugin's code and a package plugin's data files, the game's fonts;
2. game.yaml (parsed) and the options templates see (players, paper, every --set);
3. the source of a template the face loaded as it rendered (its own, the ones it extends,
   includes or imports, pnp/base.svg.j2 included), or a template it looked for and did
   not find now existing;
4. a value the face read (pnp/build/trace.py), found again by its path from the names
   the face resolved (a content file, a generated list, a plugin `context()` name,
   `item`, `component`, `side`...; a record at two places, `item` and its place in
   `cards`, at both when the face resolved both):
   - a name it resolved, or a key or index it read: a scalar by its value; nothing
     there (a global's name, a key a `default` stood in for) by a thing appearing;
   - a container it read further only by key or index, or gave to a filter that reads
     it only that way (`selectattr`, `map`, `first`, `length`..., and `sort`, `join`...
     given `attribute=`), by its shape: a dict's keys in order, a list's items (the
     containers among them by their shapes), which covers loops, `length` and
     truthiness. The records such a filter hands on count as reached;
   - a container it used otherwise, by its whole value: printed, given to a function,
     macro, helper, test or other filter (an iterator a filter made: what it yields),
     an operand of `%`, `*`, `**`, `~`, a comparison or `in`, a method of it looked up
     (`.items()`, a record's helper), or reached and never read by key (a loop over
     it). A helper that reads the template context (`jinja_pass_arg`) makes every name
     count whole, unless marked `reports_reads` (pnp/sandbox.py): its lookups report here
     as a template's do, so `icon()` reads the icon it draws (`icons.<set>.<id>`) alone.
     A helper counts by what it is given (a record's helper by its record too), not by
     what its own code looks up elsewhere: plugin code is in the stamp (1), the content
     it draws from must reach it as arguments or through `context()`;
5. the art it read: for every `asset()` name, the file it resolves to now and its bytes.

So editing one card or one CSV row re-renders the faces that read that record (its own,
and one that looks it up, e.g. by `selectattr`, which reads every record's key), a card
that shows `cards | length` re-renders when a card is added or removed, and a file under
content/ or assets/ that no face reads (notes, a spreadsheet's backup) renders nothing.
Content enters as parsed data, so comments and layout of the YAML don't count.
`--force` reuses no face and no file of the formats it builds; what the cache knows of a
format not built now (a PNG folder and its dpi) stays, so the preview can still judge it.

The PDFs are made from typst documents of the game's faces (pnp/formats/pdf.py
`BookPages`, a document per component): a component's PDF is keyed on its component and
its sheet, the print PDF on the whole game. Each typeset document is kept, sealed, in `output/<game>/.pnp-typeset/`
under the digest of what typst reads (the document, its faces' SVGs, and the stamp (1):
typst's release, the fonts), and reused by a later build whose book holds the same one.

A whole build (pnp/build/witness.py) is answered without loading anything when the
paths the door let it read, the folders leading to them, pnp's code and its outputs are
all unchanged.
"""

from __future__ import annotations

import base64
import json
import os
import re
import stat
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable

import jinja2

from ..load.content import GameContent
from ..errors import raise_if_any
from ..load import project_files
from ..load.plugins import plugin_files
from ..load.manifest import Component
from ..files import digest, tree_digest
from ..load.seal import read_sealed, write_sealed
from .output import CACHE_FILE, TYPESET, Inside, remove_leftover_temps
from .witness import own_code
from .trace import Trace
from ..render.hrefs import external_reference
from ..render.sharpness import Placement, is_kept
from ..render.faces import ComponentRenderer, Face, Piece, RenderedComponent

if TYPE_CHECKING:
    from .driver import Tally

CACHE_FORMAT = 5  # 4: a face's picture placements; 5: its pictures by name, not inline
_KEPT = re.compile(r"[0-9a-f]{32}\.sealed")  # a typeset document's name (`BuildCache.keep_typeset`)


def code_stamp(game: GameContent) -> str:
    """A digest of the code that shapes a game's output: pnp's, the output libraries'
    versions, the game plugin's code and data, and the game's fonts (every face's text is
    measured with them)."""
    files = plugin_files(game.manifest.plugin, game.project.root)
    # a package plugin's data files too (YAML, text it reads): an edit must rebuild
    plugin = [f.parent for f in files if f.name == "__init__.py"][:1]
    files += [p for folder in plugin for p in sorted(folder.rglob("*")) if p.is_file() and p.suffix not in (".py", ".pyc")
              and "__pycache__" not in p.parts]
    project_files.note(*files)  # plugin code is no project file, but what a build read
    root = plugin[0] if plugin and all(f.is_relative_to(plugin[0]) for f in files) else None  # names within the package
    return digest(own_code(), game.fonts.digest, tree_digest([f for f in files if f.is_file()], root))


class _SnapshotLoader(jinja2.BaseLoader):
    """Reads each template once per build, so the key and the rendering see the same text
    even when a file is saved while a build runs."""

    def __init__(self, inner: jinja2.BaseLoader):
        self.inner = inner
        self.sources: dict[str, tuple[str, str | None]] = {}

    def get_source(self, environment: jinja2.Environment, template: str) -> tuple[str, str | None, Any]:
        if template not in self.sources:
            source, filename, _ = self.inner.get_source(environment, template)
            self.sources[template] = (source, filename)
        source, filename = self.sources[template]
        return source, filename, lambda: True


class BuildCache:
    """The cache file of one game's output folder: faces by key, and output file records.

    A file record is [input key, size]. The cache is written after the files it describes,
    so a file modified since (by hand, or by a build that failed half-way) is newer than
    the cache file and gets made again. No times are stored: the cache file is as
    deterministic as the outputs."""

    def __init__(self, root: Path, stamp: str, loaded: dict[str, Any] | None = None, mtime_ns: int = 0):
        self.root = root
        self.stamp = stamp
        self.loaded = loaded if loaded and loaded.get("stamp") == stamp else None
        self.mtime_ns = mtime_ns
        old = self.loaded or {}
        self.old_faces: dict[str, list] = old.get("faces", {})
        self.old_files: dict[str, list] = old.get("files", {})
        # face -> [svg, {art name: fingerprint}, {template: digest}, [[path, kind, digest], ...], [placement, ...]]
        # (svg: [text, art name, text, ..., text], the face cut at the pictures it embeds, `by_reference`)
        # (a placement: a raster picture's size as drawn, `sharpness.Placement.kept`)
        # (a face rendered now: its facts as tuples, written the same)
        self.faces: dict[str, list] = {}
        self.files: dict[str, list] = {}
        self.touched = False  # some output file was written since the cache was read
        self._pictures_ok: dict[str, bool] = {}  # a picture (`asset()` name) refers outside nothing (`_checked`)
        self.reuse_typeset = True  # not with --force
        self.typeset_used: set[str] = set()  # the typeset documents this build's book holds
        self._typeset_new: dict[str, bytes] = {}  # those typeset now, kept when the build commits
        # the dpi each raster format (png, tts) was last made at: what its files' keys were made with
        known = old.get("dpi", {})
        self.dpi: dict[str, int] = {k: v for k, v in known.items() if isinstance(k, str) and type(v) is int} if isinstance(known, dict) else {}

    @classmethod
    def open(cls, root: Path, stamp: str) -> "BuildCache":
        """The cache under `root`; empty when the file is missing or bad."""
        path = root / CACHE_FILE
        try:
            mtime_ns = path.stat().st_mtime_ns
            data = json.loads(read_sealed(path, CACHE_FILE) or b"")
            ok = (
                isinstance(data, dict)
                and data.get("format") == CACHE_FORMAT
                and all(isinstance(k, str) and _is_face(v) for k, v in data["faces"].items())
                and all(
                    isinstance(k, str) and isinstance(v, list) and len(v) == 2 and isinstance(v[0], str) and isinstance(v[1], int)
                    for k, v in data["files"].items()
                )
            )
        except (OSError, ValueError, TypeError, KeyError, AttributeError):
            ok, mtime_ns = False, 0
        return cls(root, stamp, data if ok else None, mtime_ns)

    def forget(self, scope: tuple[str, ...]) -> None:
        """`--force`: reuse no face, and no file of the folders in `scope` (built now)."""
        self.old_faces = {}
        self.old_files = {rel: rec for rel, rec in self.old_files.items() if not rel.startswith(scope)}
        self.dpi = {fmt: dpi for fmt, dpi in self.dpi.items() if f"{fmt}/" not in scope}
        self.loaded = None
        self.reuse_typeset = False

    def face(self, key: str, fingerprint: Callable[[str], str], holds: Callable[[dict[str, str], list], bool],
             uri: Callable[[str], str | None]) -> str | None:
        """The cached SVG of a face whose art (`asset()` names) still reads the same and
        whose templates and facts still hold, marking it as still in use; its pictures are
        put back from `uri` (`Assets.uri`). The cache file is checked, not trusted: a face
        in it that refers outside itself is rendered again."""
        entry = self.old_faces.get(key)
        if entry is None or any(fingerprint(name) != known for name, known in entry[1].items()) or not holds(entry[2], entry[3]):
            return None
        pictures = {name: uri(name) for name in entry[0][1::2]}
        found = {name: picture for name, picture in pictures.items() if picture is not None}
        if len(found) < len(pictures) or not self._checked(entry[0], found):
            return None
        self.faces[key] = entry
        return _joined(entry[0], found)

    def _checked(self, parts: list[str], pictures: dict[str, str]) -> bool:
        """Whether a face cut at its pictures (`by_reference`) refers outside nothing
        (`external_reference`): its text with a picture of a few bytes of the same kind in
        each one's place, and each picture once a build. Parsing each face whole, MBs of
        picture and all, cost a deck of 300 faces a minute on every edit."""
        for name, picture in pictures.items():
            if name not in self._pictures_ok:
                self._pictures_ok[name] = external_reference(f'<svg xmlns="{SVG_NS}"><image href="{picture}"/></svg>') is None
        return all(self._pictures_ok[name] for name in pictures) and external_reference(
            _joined(parts, {name: _stand_in(picture) for name, picture in pictures.items()})) is None

    def keep_face(self, key: str, svg: str, art: dict[str, str], templates: dict[str, str], facts: list[Any], placed: list[list],
                  uris: dict[str, str]) -> None:
        """Keep a face rendered now; `uris`: the data URI of each picture it asked for, by name."""
        self.faces[key] = [by_reference(svg, uris), art, templates, facts, placed]

    def placed(self, key: str) -> list[list]:
        """The picture placements kept with a face `face` gave (`sharpness.Placement.kept`)."""
        return self.faces[key][4]

    def typeset(self, text: str, inputs: dict[str, str]) -> tuple[str, bytes | None]:
        """The key of a typst document of the game's book and its PDF as an earlier build
        typeset it (pnp.formats.pdf_engine.Kept), or None. The key is what typst reads: the
        document and its faces' SVGs, and the code stamp (typst's release, the game's fonts).
        The PDF is one this user's pnp sealed under that key (pnp/load/seal.py)."""
        key = digest(self.stamp, text, sorted(inputs.items()))
        self.typeset_used.add(key)
        checked = Inside(self.root).status(f"{TYPESET}/{key}.sealed") if self.reuse_typeset else None
        return key, read_sealed(checked[0], f"{TYPESET}/{key}.sealed") if checked and checked[1] else None

    def keep_typeset(self, key: str, data: bytes) -> None:
        """Keep a document's PDF for later builds (`typeset`), once the build commits (`save`)."""
        self._typeset_new[key] = data

    def _save_typeset(self, files: dict[str, list]) -> None:
        """Write the documents typeset now (a folder pnp may not write through keeps none)
        and remove the kept ones this build's book no longer holds; when no book was typeset
        (every PDF current, or none made now), all of them once the game has no PDF."""
        inside = Inside(self.root)
        for key, data in sorted(self._typeset_new.items()):
            checked = inside.status(f"{TYPESET}/{key}.sealed")
            try:
                if checked is not None:
                    write_sealed(checked[0], f"{TYPESET}/{key}.sealed", data)
            except OSError:  # a full disk, a folder pnp may not write: the build's files are committed, its cache only keeps less
                break
        self._typeset_new.clear()
        if not self.typeset_used and any(rel.endswith(".pdf") for rel in files):
            return
        try:
            names = os.listdir(self.root / TYPESET) if inside.status(f"{TYPESET}/x") else []
        except OSError:
            return
        # what a build killed while it wrote a document left (the file list does not name these)
        remove_leftover_temps(inside, {f"{TYPESET}/{name}" for name in names if _KEPT.fullmatch(name)} |
                              {f"{TYPESET}/{key}.sealed" for key in self.typeset_used})
        for name in names:
            checked = inside.status(f"{TYPESET}/{name}")
            # only a document pnp sealed there itself (a file of the user's named alike stays)
            if (checked and checked[1] and stat.S_ISREG(checked[1].st_mode) and _KEPT.fullmatch(name)
                    and name.partition(".")[0] not in self.typeset_used and read_sealed(checked[0], f"{TYPESET}/{name}") is not None):
                checked[0].unlink(missing_ok=True)

    def is_current(self, rel: str, key: str) -> bool:
        """True when `rel` was made from inputs with this key and is untouched since."""
        record = self.old_files.get(rel)
        if not record or record[0] != key:
            return False
        try:
            st = os.stat(self.root / rel)
        except OSError:
            return False
        if st.st_size != record[1] or st.st_mtime_ns > self.mtime_ns:
            return False
        self.files[rel] = record
        return True

    def record(self, keys: dict[str, str], written: bool) -> None:
        """Remember the files just committed (relative path -> input key)."""
        self.touched |= written
        for rel, key in keys.items():
            try:
                self.files[rel] = [key, os.stat(self.root / rel).st_size]
            except OSError:
                continue

    def save(self, scope: tuple[str, ...]) -> bool:
        """Write the cache unless nothing changed; records of files outside `scope` (formats
        not built now) are kept. True when written."""
        files = {rel: rec for rel, rec in self.old_files.items() if not rel.startswith(scope)}
        files.update(self.files)
        self._save_typeset(files)
        data: dict[str, Any] = {"format": CACHE_FORMAT, "stamp": self.stamp, "faces": self.faces, "files": files}
        if self.dpi:
            data["dpi"] = dict(sorted(self.dpi.items()))
        if data == self.loaded and not self.touched:
            return False
        text = json.dumps(data, ensure_ascii=False, separators=(",", ":"), sort_keys=True)
        write_sealed(self.root / CACHE_FILE, CACHE_FILE, text.encode("utf-8"))
        return True


def by_reference(svg: str, uris: dict[str, str]) -> list[str]:
    """`svg` cut at each picture it embeds: [text, name, text, ..., text], names at odd places.
    A face embeds its pictures whole (a few MB each): kept inline, a deck of 300 faces
    showing one picture made a cache of 300 copies, past what pnp reads back (files.MAX_RECORD)."""
    parts = [svg]
    for name, uri in sorted(uris.items(), key=lambda named: -len(named[1])):  # the longest first: one may hold another
        cut: list[str] = []
        for i, part in enumerate(parts):
            if i % 2:  # a name
                cut.append(part)
                continue
            for j, text in enumerate(part.split(uri)):
                cut += [name, text] if j else [text]
        parts = cut
    return parts


def _joined(parts: list[str], pictures: dict[str, str]) -> str:
    """The SVG `by_reference` cut, with `pictures` (a data URI by name) put back."""
    return "".join(pictures[part] if i % 2 else part for i, part in enumerate(parts))


SVG_NS = "http://www.w3.org/2000/svg"
# a picture of each kind, a few bytes long: a white pixel (Pillow reads a picture's type from its
# bytes, whatever the URI says), an empty SVG
_TINY = {"raster": "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAAAAAA6fptVAAAACklEQVQI12P4DwABAQEAG7buVgAAAABJRU5ErkJggg==",
         "svg": base64.b64encode(f'<svg xmlns="{SVG_NS}"/>'.encode()).decode("ascii")}


def _stand_in(uri: str) -> str:
    """A data URI with `uri`'s head (its kind) and a picture of a few bytes."""
    head = uri.partition(",")[0]
    return f"{head},{_TINY['svg' if head.startswith('data:image/svg+xml') else 'raster']}"


def _is_face(entry: Any) -> bool:
    def strings(d: Any) -> bool:
        return isinstance(d, dict) and all(isinstance(k, str) and isinstance(v, str) for k, v in d.items())

    return (isinstance(entry, list) and len(entry) == 5 and isinstance(entry[4], list) and all(is_kept(p) for p in entry[4]) and strings(entry[1]) and strings(entry[2])
            and isinstance(entry[0], list) and len(entry[0]) % 2 == 1 and all(isinstance(p, str) for p in entry[0])
            and all(name in entry[1] for name in entry[0][1::2])  # a picture the face's art witnesses
            and isinstance(entry[3], list) and all(isinstance(f, list) and len(f) == 3 and isinstance(f[0], list) and len(f[0]) > 0
                                                   and f[1] in ("s", "w") and isinstance(f[2], str) for f in entry[3]))


class CachedRenderer(ComponentRenderer):
    """A ComponentRenderer that takes a face from the cache when what it read last time
    reads the same now."""

    def __init__(self, game: GameContent, options: dict[str, Any], bleed: float, cache: BuildCache, tally: "Tally | None" = None):
        super().__init__(game, options, bleed)
        assert self.env.loader is not None
        self.env.loader = _SnapshotLoader(self.env.loader)
        self.trace = Trace(self.env, self.names)
        self.base = digest(game.manifest_doc.data, options)
        self.cache = cache
        self.rendered = 0
        self.tally = tally

    def face_count(self) -> int:
        """How many faces the game has: each item's front (and back), and a shared back."""
        count = 0
        for i, comp in enumerate(self.game.manifest.components):
            sides = 2 if comp.back and comp.back_per_item else 1
            count += len(self.plan.items(i, comp)) * sides + (1 if comp.back and not comp.back_per_item else 0)
        return count

    def face(self, comp: Component, template: str, name: str, item: Any, side: str, bleed: float,
             context: dict[str, Any] | None = None) -> Face | None:
        try:
            return self._face(comp, template, name, item, side, bleed, context)
        finally:
            if self.tally:
                self.tally.tick(f"{self.game.name}: {comp.id}/{name}")

    def _face(self, comp: Component, template: str, name: str, item: Any, side: str, bleed: float,
              context: dict[str, Any] | None) -> Face | None:
        key = digest(self.base, comp.id, template, name, side, bleed)
        context = context if context is not None else self.context(comp, name, item, side, bleed)  # made once: checked, traced, rendered
        svg = self.cache.face(key, self.assets.fingerprint, lambda templates, facts: self.trace.holds(templates, facts, context), self.assets.uri)
        if svg is not None:  # its pictures warn as when it was rendered
            root = self.game.project.root
            self.note_placed(comp.id, template, [Placement.from_kept(p, root) for p in self.cache.placed(key)])
            return Face(comp.id, name, svg, comp.size.width, comp.size.height, bleed, self.game.fonts, checked=True,
                        shape=comp.shape)  # BuildCache.face checked it
        self.rendered += 1
        self.trace.start(context)
        try:
            face = super().face(comp, template, name, item, side, bleed, context)
        finally:
            templates, facts = self.trace.stop()
        if face is not None:
            self.cache.keep_face(key, face.svg, {art: self.assets.fingerprint(art) for art in self.assets.used}, templates, facts,
                                 [p.kept(self.game.project.root) for p in self.placed],
                                 {art: uri for art in self.assets.used if (uri := self.assets.uris.get(art))})
        return face


def render_cached(game: GameContent, options: dict[str, Any], bleed: float, cache: BuildCache,
                  tally: "Tally | None" = None, each_piece: "Callable[[Piece], None] | None" = None) -> tuple[list[RenderedComponent], int]:
    """Like render.render_game, reusing cached faces; also returns how many faces were
    rendered. `each_piece` is told of every piece as soon as it is rendered."""
    renderer = CachedRenderer(game, options, bleed, cache, tally)
    renderer.each_piece = each_piece
    if tally:
        tally.plan(renderer.face_count(), f"{game.name}: faces")
    out = [renderer.component(i, comp) for i, comp in enumerate(game.manifest.components)]
    raise_if_any(renderer.errors)
    return renderer.warned(out), renderer.rendered

"""The build cache: render a face only when something it read changed, and produce an
output file only when its inputs changed or the file on disk is not the one the last
build wrote. The one interface: `BuildCache` (one game's cache file), `code_stamp`,
`render_cached`, and pnp/build/witness.py for a whole build.

The cache is one JSON file per game output folder (`output/<game>/.pnp-cache.json`). It
holds the SVG of every face keyed by a digest of what the face read, with the art it
read, and for every output file the digest of its inputs and its size. A missing,
unreadable or foreign cache file simply means a full rebuild.

The key rule, in full. A face is rendered again exactly when one of these changed:

1. code (the game's stamp: a different stamp drops the game's whole cache): pnp's
   version and every file of its package, the versions of Jinja2, typst, resvg-py and
   fontTools, the game plugin's code and a package plugin's data files, the game's fonts;
2. the face itself: component id, template name, face name, side and bleed;
3. the source of its template and of every template that one extends, includes or
   imports, transitively, pnp/base.svg.j2 included (all of the game's templates when a
   template names another with an expression);
4. game.yaml (parsed) and the options templates see (players, paper, every --set);
5. the item's own record (a YAML entry, a CSV or XLSX row), private attributes a plugin
   computed for it included;
6. the value of every content name and plugin `context()` name its templates use, found
   by parsing them (`{{ rules.stomach }}` uses `rules`; `{{ cards | length }}` uses
   `cards`; `icon()` uses the icon sets). Content the templates never name does not
   count: the items of a component reach its faces only as `item`, so editing one card
   or one row re-renders that card alone, while a card that shows `cards | length`
   re-renders when any card changes;
7. the art it read: for every `asset()` name, the file it resolves to now and its bytes
   (recorded when the face was rendered, checked before it is reused).

Nothing else counts: a file under content/ or assets/ that no face reads (notes, a
spreadsheet's backup) renders nothing. Content enters as parsed data, so comments and
layout of the YAML don't count. Where a value (an item, or a name of rule 6) cannot be
serialised, every content file's data stands in for it; where a plugin's template global
reads the template context, every name counts as used. `--force` ignores the cache.

A whole build (pnp/build/witness.py) is answered without loading anything when the
paths the door let it read, the folders leading to them, pnp's code and its outputs are
all unchanged.
"""

from __future__ import annotations

import dataclasses
import datetime
import enum
import json
import os
from functools import cached_property
from pathlib import Path, PurePath
from typing import TYPE_CHECKING, Any, Callable

import jinja2
from jinja2 import meta, nodes
from pydantic import BaseModel

from ..load.content import GameContent
from ..errors import raise_if_any
from ..load import project_files
from ..load.plugins import plugin_files
from ..plaindata import is_helper
from ..load.manifest import Component
from ..files import digest, write_atomic
from .witness import own_code
from ..render.hrefs import external_reference
from ..render.faces import ComponentRenderer, Face, Piece, RenderedComponent

if TYPE_CHECKING:
    from .driver import Tally

CACHE_FILE = ".pnp-cache.json"
CACHE_FORMAT = 2


def _plain(value: Any) -> Any:
    if is_helper(value):  # a record's method (pnp/plaindata.py): its data is the record's fields
        return f"<helper {value.__name__}>"
    if isinstance(value, BaseModel):  # fields one by one (nested models recurse), then private state
        fields = {name: getattr(value, name) for name in type(value).model_fields}
        return {"__model__": type(value).__name__, **fields, "__private__": value.__pydantic_private__ or {}}
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: getattr(value, f.name) for f in dataclasses.fields(value)}
    if isinstance(value, (set, frozenset)):
        return sorted(value, key=repr)
    if isinstance(value, (datetime.date, datetime.time)):
        return value.isoformat()
    if isinstance(value, enum.Enum):
        return value.value
    if isinstance(value, PurePath):
        return str(value)
    raise TypeError(f"cannot hash a {type(value).__name__}")


def canonical(value: Any) -> str | None:
    """Deterministic JSON text of plain data and pydantic models; None when not possible."""
    try:
        return json.dumps(value, sort_keys=True, default=_plain, ensure_ascii=False, separators=(",", ":"))
    except (TypeError, ValueError):
        return None


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
    return digest(own_code(), game.fonts.digest, *((_named(f, plugin), f.read_bytes()) for f in files if f.is_file()))


def _named(path: Path, folders: list[Path]) -> str:
    """A file's name within the plugin package it was found in."""
    for folder in folders:
        if path.is_relative_to(folder):
            return path.relative_to(folder).as_posix()
    return path.name


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

    def list_templates(self) -> list[str]:
        return self.inner.list_templates()


class FaceKeys:
    """Computes face keys for one game and one set of options (see the module docstring)."""

    def __init__(self, game: GameContent, env: jinja2.Environment, names: dict[str, Any], options: dict[str, Any], cache: "BuildCache"):
        self.game = game
        self.cache = cache
        self.env = env
        self.names = names
        self.options = options
        self._templates: dict[str, tuple[str, frozenset[str], dict[str, frozenset[str] | None]] | None] = {}
        self._parsed: dict[str, tuple[str, frozenset[str], tuple[str | None, ...], dict[str, frozenset[str] | None]] | None] = {}
        self._values: dict[Any, str] = {}
        # a global that reads the template context can reach any name
        self.sees_all = any(getattr(fn, "jinja_pass_arg", None) is not None for fn in env.globals.values())

    @cached_property
    def base(self) -> str:
        return digest(canonical(self.game.manifest_doc.data), canonical(self.options))

    @cached_property
    def all_content(self) -> str:
        """Every content file's parsed data: the fallback for values that can't be serialised."""
        return digest(sorted((stem, canonical(doc.data) or repr(doc.data)) for stem, doc in self.game.docs.items()))

    def value(self, name: str) -> str:
        """Digest of the value a template sees as `name`."""
        if name not in self._values:
            text = canonical(self.names[name])
            self._values[name] = digest(text) if text is not None else self.all_content
        return self._values[name]

    def part(self, name: str, key: str) -> str:
        """Digest of what a template sees as `name.key` (or `name["key"]`); the whole
        value's when that is not simply one entry of a mapping."""
        value = self.names[name]
        if not isinstance(value, dict) or key not in value or hasattr(value, key):  # `x.items` is dict.items
            return self.value(name)
        if (name, key) not in self._values:
            text = canonical(value[key])
            self._values[(name, key)] = digest(text) if text is not None else self.all_content
        return self._values[(name, key)]

    def template(self, name: str) -> tuple[str, frozenset[str], dict[str, frozenset[str] | None]] | None:
        """Digest of a template and everything it pulls in, the variables they use, and
        for each variable the keys they read of it (None: the whole value)."""
        if name not in self._templates:
            self._templates[name] = self._walk(name)
        return self._templates[name]

    def _walk(self, name: str) -> tuple[str, frozenset[str], dict[str, frozenset[str] | None]] | None:
        seen: dict[str, str] = {}
        used: set[str] = set()
        parts: dict[str, frozenset[str] | None] = {}
        todo = [name]
        while todo:
            current = todo.pop()
            if current in seen:
                continue
            parsed = self._parse(current)
            if parsed is None:
                return None  # rendering will report it
            seen[current], names, refs, keys = parsed
            used |= names
            for var in names:
                mine, known = keys.get(var), parts.get(var, frozenset())
                parts[var] = None if mine is None or known is None else known | mine
            todo.extend(self.env.list_templates() if None in refs else [r for r in refs if r is not None])  # None: named by an expression
        return digest(sorted(seen.items())), frozenset(used), parts

    def _parse(self, name: str) -> tuple[str, frozenset[str], tuple[str | None, ...], dict[str, frozenset[str] | None]] | None:
        """A template's source, the variables it uses, the templates it names and the keys
        it reads of each variable (parsing is the slow part of a cached build, so its
        result is cached by source too)."""
        if name not in self._parsed:
            try:
                assert self.env.loader is not None
                source = self.env.loader.get_source(self.env, name)[0]
                key = digest(name, source)
                found = self.cache.template(key)
                if found is None:
                    found = _analysis(self.env.parse(source, name))
                    self.cache.keep_template(key, found)
                keys = {var: (None if read is None else frozenset(read)) for var, read in found[2]}
                self._parsed[name] = source, frozenset(found[0]), tuple(found[1]), keys
            except jinja2.TemplateError:
                self._parsed[name] = None
        return self._parsed[name]

    def face(self, comp: Component, template: str, name: str, item: Any, side: str, bleed: float) -> str | None:
        """The face's key, or None when its templates can't be read (rendering reports why)."""
        found = self.template(template)
        if found is None:
            return None
        tpl, used, parts = found
        seen = set(self.names) if self.sees_all else set(used & set(self.names))
        if "icon" in used and "icons" in self.names:  # icon() draws from the icon sets
            seen.add("icons")
        values: list[tuple[str, Any]] = []
        for n in sorted(seen - {"game", "options"}):
            keys = None if self.sees_all or n == "icons" else parts.get(n)
            values.append((n, self.value(n) if keys is None else [(k, self.part(n, k)) for k in sorted(keys)]))
        record = canonical(item)
        record_key = digest(record) if record is not None else self.all_content
        return digest(self.base, comp.id, template, name, side, bleed, tpl, values, record_key)


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
        self.old_templates: dict[str, list] = old.get("templates", {})
        self.faces: dict[str, list] = {}  # key -> [svg, {art name: its fingerprint}]
        self.files: dict[str, list] = {}
        self.templates: dict[str, list] = {}  # template digest -> [names used, templates named]
        self.touched = False  # some output file was written since the cache was read

    @classmethod
    def open(cls, root: Path, stamp: str, use: bool = True) -> "BuildCache":
        """The cache under `root`; empty when `use` is False or the file is missing or bad."""
        if not use:
            return cls(root, stamp)
        path = root / CACHE_FILE
        try:
            mtime_ns = path.stat().st_mtime_ns
            data = json.loads(path.read_bytes())
            ok = (
                isinstance(data, dict)
                and all(isinstance(k, str) and _is_face(v) for k, v in data["faces"].items())
                and all(
                    isinstance(k, str) and isinstance(v, list) and len(v) == 2 and isinstance(v[0], str) and isinstance(v[1], int)
                    for k, v in data["files"].items()
                )
                and all(_is_analysis(v) for v in data["templates"].values())
            )
        except (OSError, ValueError, TypeError, KeyError, AttributeError):
            ok, mtime_ns = False, 0
        return cls(root, stamp, data if ok else None, mtime_ns)

    def face(self, key: str | None, fingerprint: Callable[[str], str]) -> str | None:
        """The cached SVG of a face whose art (`asset()` names) still reads the same,
        marking it as still in use. The cache file is checked, not trusted: a face in it
        that refers outside itself is rendered again."""
        entry = self.old_faces.get(key) if key else None
        if key is None or entry is None or any(fingerprint(name) != known for name, known in entry[1].items()):
            return None
        if external_reference(entry[0]) is not None:
            return None
        self.faces[key] = entry
        return entry[0]

    def keep_face(self, key: str, svg: str, art: dict[str, str]) -> None:
        self.faces[key] = [svg, art]

    def template(self, key: str) -> list | None:
        """What a template source uses and names, if known; marks it as still in use."""
        found = self.old_templates.get(key)
        if found is not None:
            self.templates[key] = found
        return found

    def keep_template(self, key: str, found: list[list]) -> None:
        self.templates[key] = list(found)

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
        data = {"format": CACHE_FORMAT, "stamp": self.stamp, "faces": self.faces, "files": files, "templates": self.templates}
        if data == self.loaded and not self.touched:
            return False
        text = json.dumps(data, ensure_ascii=False, separators=(",", ":"), sort_keys=True)
        write_atomic(self.root / CACHE_FILE, text.encode("utf-8"))
        return True


def _is_face(entry: Any) -> bool:
    return (isinstance(entry, list) and len(entry) == 2 and isinstance(entry[0], str) and isinstance(entry[1], dict)
            and all(isinstance(k, str) and isinstance(v, str) for k, v in entry[1].items()))


def _is_analysis(found: Any) -> bool:
    return (isinstance(found, list) and len(found) == 3 and all(isinstance(part, list) for part in found)
            and all(isinstance(n, str) for n in found[0]) and all(isinstance(n, (str, type(None))) for n in found[1])
            and all(isinstance(e, list) and len(e) == 2 and isinstance(e[0], str)
                    and (e[1] is None or (isinstance(e[1], list) and all(isinstance(k, str) for k in e[1]))) for e in found[2]))


def _analysis(ast: nodes.Template) -> list[list]:
    """What a template uses: every name it loads (the variables it leaves undeclared and its
    own, a loop's or a macro's, which at worst count one name too many; jinja2.meta's exact
    answer compiles the template, most of a cold build's keys), the templates it names, and
    for each name the keys it reads of it, when every use is `name.key` or `name["key"]`
    (else None: the template may read any of it)."""
    loads: dict[str, int] = {}
    keys: dict[str, set[str]] = {}
    wrapped: dict[str, int] = {}
    for node in ast.find_all((nodes.Name, nodes.Getattr, nodes.Getitem)):
        if isinstance(node, nodes.Name):
            if node.ctx == "load":
                loads[node.name] = loads.get(node.name, 0) + 1
            continue
        if isinstance(node, nodes.Getattr):
            inner, key = node.node, node.attr
        elif isinstance(node, nodes.Getitem) and isinstance(node.arg, nodes.Const) and isinstance(node.arg.value, str):
            inner, key = node.node, node.arg.value
        else:
            continue
        if not isinstance(inner, nodes.Name):
            continue
        keys.setdefault(inner.name, set()).add(key)
        wrapped[inner.name] = wrapped.get(inner.name, 0) + 1
    names = sorted(loads)
    read = [[name, sorted(keys[name]) if wrapped.get(name) == loads[name] else None] for name in names]
    return [names, list(meta.find_referenced_templates(ast)), read]


class CachedRenderer(ComponentRenderer):
    """A ComponentRenderer that takes faces from the cache when their key matches."""

    def __init__(self, game: GameContent, options: dict[str, Any], bleed: float, cache: BuildCache, tally: "Tally | None" = None):
        super().__init__(game, options, bleed)
        assert self.env.loader is not None
        self.env.loader = _SnapshotLoader(self.env.loader)
        self.keys = FaceKeys(game, self.env, self.names, options, cache)
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

    def face(self, comp: Component, template: str, name: str, item: Any, side: str, bleed: float) -> Face | None:
        try:
            return self._face(comp, template, name, item, side, bleed)
        finally:
            if self.tally:
                self.tally.tick(f"{self.game.name}: {comp.id}/{name}")

    def _face(self, comp: Component, template: str, name: str, item: Any, side: str, bleed: float) -> Face | None:
        key = self.keys.face(comp, template, name, item, side, bleed)
        svg = self.cache.face(key, self.assets.fingerprint)
        if svg is not None:
            return Face(comp.id, name, svg, comp.size.width, comp.size.height, bleed, self.game.fonts)
        self.rendered += 1
        face = super().face(comp, template, name, item, side, bleed)
        if face is not None and key is not None:
            self.cache.keep_face(key, face.svg, {art: self.assets.fingerprint(art) for art in self.assets.used})
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
    return out, renderer.rendered

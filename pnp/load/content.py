"""Load and validate a game's content: `content/<game>/game.yaml` plus its data files.

Everything is checked before anything is rendered, and all problems are collected so the
user sees every one of them at once.
"""

from __future__ import annotations

import difflib
import os
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any

from ..errors import ContentError, OptionError, PnpError, did_you_mean, raise_if_any
from ..limits import FONTS, TEMPLATES
from ..plaindata import Copier
from . import generate as generated, icons as icon_sets, plugins, project_files, records, variants
from .needs import check_needs
from .options import default_errors as option_default_errors
from .sheets import SHEET_SUFFIXES, combine, load_sheet
from .fonts import DEFAULT as DEFAULT_FONTS
from .fonts import Fonts, chars_named, load_face
from .manifest import Manifest, cross_check
from .plugin import GamePlugin
from .shipped import MANIFEST, games_in, shipped_games, shipped_root
from .validation import validate
from .yamlio import Located, load_located

DATA_SUFFIXES = (".yaml", *SHEET_SUFFIXES)


@dataclass(frozen=True)
class Project:
    """A folder holding `content/`, `templates/` and (generated) `output/`."""

    root: Path

    @property
    def content_dir(self) -> Path:
        return self.root / "content"

    @property
    def templates_dir(self) -> Path:
        return self.root / "templates"

    @property
    def output_dir(self) -> Path:
        return self.root / "output"

    @property
    def assets_dir(self) -> Path:
        return self.root / "assets"

    def games(self) -> list[str]:
        """Every folder under content/ that holds a game.yaml, sorted."""
        project_files.note(self.content_dir)  # before it is listed: a game added while a build runs counts
        return games_in(self.root)

    def home(self, name: str) -> "Project":
        """The project holding game `name`: this one, else pnp's shipped games (if one is
        called so), else this one (where loading then reports the missing game.yaml)."""
        if (self.content_dir / name / MANIFEST).is_file():
            return self
        root = shipped_root()
        return Project(root) if root is not None and name in shipped_games() else self

    def known_games(self) -> list[str]:
        """The project's games and the shipped ones, sorted."""
        return sorted(set(self.games()) | set(shipped_games()))

    def resolve_games(self, names: list[str] | None) -> list[str]:
        """The games named (the project's own when none), or a PnpError naming the unknown ones."""
        known = self.games()
        shipped = [n for n in shipped_games() if n not in known]
        if not names:
            if not known:
                hint = f"; `pnp init --example GAME` copies a shipped game ({', '.join(shipped)})" if shipped else ""
                raise PnpError(ContentError(self.content_dir, None, None, f"no games found: expected content/<game>/{MANIFEST} "
                                                                        f"(`pnp new GAME` starts one){hint}"))
            return known
        unknown = [n for n in names if n not in known and n not in shipped]
        if unknown:
            also = f", or a game shipped with pnp: {', '.join(shipped)}" if shipped else ""
            # a command line's mistake (said after the command's name), with the nearest name
            raise OptionError([f"unknown game {n!r}{did_you_mean(n, known + shipped)}: expected one of {', '.join(known) or '(none in this project)'}{also}"
                               for n in unknown])
        return list(dict.fromkeys(names))


@dataclass
class GameContent:
    """A validated game: its manifest, plugin, and each content file as model (or raw data)."""

    name: str
    project: Project
    manifest: Manifest
    plugin: GamePlugin
    manifest_doc: Located
    docs: dict[str, Located] = field(default_factory=dict)  # stem -> located YAML
    data: dict[str, Any] = field(default_factory=dict)  # stem -> model instance or plain data
    variant_chains: dict[str, dict[str, list[str]]] = field(default_factory=dict)  # stem -> variant -> its chain
    icons: dict[str, dict[str, icon_sets.Icon]] = field(default_factory=dict)  # set -> id -> icon

    @property
    def templates_dir(self) -> Path:
        return self.project.templates_dir / self.name

    @property
    def content_dir(self) -> Path:
        return self.project.content_dir / self.name

    def resolve_file(self, name: str, where: ContentError | None = None, what: str = "file") -> Path | None:
        """A file the game names (font, art): in its content folder, else the project's assets/;
        None when in neither. A name that leads out of the project is a PnpError at `where`."""
        for base in (self.content_dir, self.project.assets_dir):
            candidate = project_files.join(self.project.root, base, name, where, what)
            if candidate.is_file():
                return candidate
        return None

    def near_file(self, name: str) -> str:
        """` (did you mean 'art/moth.png'?)`: the file of the folder `name` names, in the game's
        folder or assets/, spelt nearest it; one differing in case alone first (found on a
        designer's Mac, missing on Linux). "" when none is near."""
        parent, _, leaf = name.rpartition("/")
        names: list[str] = []
        for base in (self.content_dir, self.project.assets_dir):
            try:
                folder = project_files.join(self.project.root, base, parent or ".", None)
                names += sorted(f.name for f in folder.iterdir() if f.is_file() and not f.name.startswith("."))
            except (PnpError, OSError):  # no such folder, or one leading out of the project: nothing to offer
                continue
        same = [n for n in names if n.casefold() == leaf.casefold()]
        near = same[:1] or difflib.get_close_matches(leaf, names, n=1)
        return f" (did you mean {(parent + '/' if parent else '') + near[0]!r}?)" if near else ""

    @cached_property
    def fonts(self) -> Fonts:
        """The font files the game's text is drawn and measured with."""
        if not self.manifest.fonts:
            return DEFAULT_FONTS
        return Fonts(tuple(p for p in (self.resolve_file(n, what="font file") for n in self.manifest.fonts) if p is not None))

    @cached_property
    def plain(self) -> Copier:
        """What copies the game's records, names and helpers into plain data for templates."""
        return Copier()

    def error(self, stem: str, at: tuple, message: str) -> ContentError:
        """A located error inside content file `stem` (e.g. error('adventurers', ('cards', 3), ...)),
        at the key of `at`: a key's own problem (unknown, repeated)."""
        return self.docs[stem].error(at, message)

    def value_error(self, stem: str, at: tuple, message: str) -> ContentError:
        """`error` about the value under `at` (`room: hall` at hall), as `Located.value_error`."""
        return self.docs[stem].value_error(at, message)

    def locate(self, record: Any, key: str) -> ContentError | None:
        """Where `key` of a record (or of its copy in plain data) is written in a content
        file, as an error without a message; None when no file holds that record."""
        original = self.plain.original(record)
        for doc in self.docs.values():
            at = doc.path_of(original)
            if at is not None:
                return doc.error(at + (key,), "")
        return None

    def data_raw(self) -> dict[str, Any]:
        """Each content file's data as loaded (plain data, before any plugin model)."""
        return {stem: doc.data for stem, doc in self.docs.items()}

    def option_defaults(self) -> dict[str, Any]:
        """Every declared option at its default; `players` is always there (None: not given)."""
        return {"players": None, **{name: spec.default for name, spec in self.manifest.options.items()}}

    def variant(self, stem: str, options: dict[str, Any]) -> tuple[str, dict[str, Any]]:
        """The variant of a variants file the options pick (its option's default, else the first)."""
        spec = self.manifest.data[stem]
        chains = self.variant_chains[stem]
        name = options.get(spec.variants or "")
        if name is None:
            name = next(iter(chains))
        if name not in chains:  # an option's choices may be a list that names a broken variant
            raise PnpError(self.manifest_doc.error(("data", stem, "variants"), f"variant {name!r} of {stem}: expected one of {', '.join(chains)}"))
        return name, variants.resolve(self.docs[stem], chains[name])

    def namespace(self, options: dict[str, Any] | None = None) -> dict[str, Any]:
        """Names that templates and `items:` expressions see: the content (a variants file
        as its selected variant), the generated lists, `icons`, `plugin` and the plugin's context."""
        options = {**self.option_defaults(), **(options or {})}
        names: dict[str, Any] = {"game": self.manifest, "options": options, **self.data}
        for stem in self.variant_chains:
            names[stem] = self.variant(stem, options)[1]
        if self.icons:
            names["icons"] = icon_sets.plain(self.icons)
        if self.plugin.provides:
            names["plugin"] = self.plugin.provides
        names = self.plain.copy(names)  # expressions see plain data, never a live object (pnp/plaindata.py)
        if self.manifest.generate:
            env = generated.expression_environment(self.plain)
            errors = []
            for list_name, spec in self.manifest.generate.items():
                records, problems = generated.generate(env, list_name, spec, names, self.manifest_doc)
                names[list_name] = self.plain.copy(records)  # shared as the content is, read only as it is
                errors += problems
            raise_if_any(errors)
        if self.plugin.context is not None:
            names.update(self.plain.copy(plugins.call_hook(self.plugin.context, "context(game, options)", (self, options), plugins.expect_mapping)))
        return names


def load_plugin(name: str | None, where: ContentError, root: Path | None = None) -> GamePlugin:
    """The game's plugin (see pnp/load/plugins.py); the empty plugin when name is None."""
    return plugins.load_plugin(name, root or Path.cwd(), where)


def _data_files(game_dir: Path, skip: set[Path]) -> dict[str, list[Path]]:
    """Data files by stem: `cards.yaml`, `cards.csv`, or a YAML file and a sheet together."""
    out: dict[str, list[Path]] = {}
    project_files.note(game_dir)  # before it is listed: a data file added while a build runs counts
    for path in sorted(game_dir.iterdir()):
        if path.name.startswith((".", "~$")):  # hidden files and office lock files
            continue
        # a link that leads nowhere is listed: reading it says so, where a skip would say "missing"
        if path.suffix in DATA_SUFFIXES and path.name != MANIFEST and (path.is_file() or path.is_symlink()) and Path(os.path.realpath(path)) not in skip:
            out.setdefault(path.stem, []).append(path)
    return out


def _load_doc(game: GameContent, stem: str, paths: list[Path]) -> Located:
    """One data file, a YAML file and a sheet of the same stem combined."""
    spec = game.manifest.data.get(stem)
    for path in paths:
        project_files.inside(game.project.root, path, None, "data file")
    sheets = [p for p in paths if p.suffix in SHEET_SUFFIXES]
    yaml_path = next((p for p in paths if p.suffix == ".yaml"), None)
    if len(sheets) > 1:
        raise PnpError(ContentError(sheets[1], None, None, f"{len(sheets)} sheets for {stem!r} ({', '.join(p.name for p in sheets)}): expected one"))
    if spec and spec.sheet and not (sheets and sheets[0].suffix == ".xlsx"):
        raise PnpError(game.manifest_doc.error(("data", stem, "sheet"), f"sheet: {spec.sheet}: {stem!r} has no workbook "
                                               f"({', '.join(p.name for p in paths)}): expected `sheet:` only for a .xlsx file"))
    yaml_doc = load_located(yaml_path) if yaml_path else None
    if not sheets:
        assert yaml_doc is not None
        return yaml_doc
    key = spec.records if spec else None
    where = game.manifest_doc.error(("data", stem, "sheet"), "") if spec and spec.sheet else None
    sheet = load_sheet(sheets[0], (key,) if key else (), spec.sheet if spec else None, where)
    return combine(yaml_doc, sheet, key, sheets[0])


# Names pnp itself gives templates and expressions (pnp/render/faces.py: the face's context and
# the environment's helpers; tests/test_template_checks.py keeps the two in step). A content file
# or generated list of such a name would hide it, or be hidden: `item.yaml` broke every
# `copies:` expression with a Python message, `wrap.yaml` every wrap() call, `options.yaml`
# every `options.players`; a generated list named as a file hid the file's records.
TEMPLATE_NAMES = {
    "game": "game.yaml", "options": "the build's options", "item": "the piece's record", "item_id": "the piece's id",
    "component": "the piece's component", "side": "the face drawn (front or back)", "width": "the piece's width",
    "height": "the piece's height", "bleed": "the bleed",
    **dict.fromkeys(("text_width", "fit_size", "fit_lines", "wrap", "check_room", "asset", "icon", "num", "Markup",
                     "font_family", "range", "dict", "namespace"), "a template helper"),
}


def _name_clashes(game: GameContent, files: dict[str, list[Path]]) -> list[ContentError]:
    """Each content file, and generated list, whose name templates already see as another thing."""
    taken = dict(TEMPLATE_NAMES)
    if game.manifest.icons:
        taken["icons"] = "the icon sets (game.yaml `icons:`)"
    if game.plugin.provides:
        taken["plugin"] = "the plugin's tables (`provides`)"
    taken.update(dict.fromkeys(game.plugin.template_globals, "a name the plugin gives templates (`template_globals`)"))
    errors = [ContentError(paths[0], None, None, f"templates already see `{stem}` as {taken[stem]}: rename the file "
                                                 "(its name without the extension is its name in templates)")
              for stem, paths in files.items() if stem in taken]
    for list_name in game.manifest.generate:
        clash = taken.get(list_name) or (f"the content file {files[list_name][0].name}" if list_name in files else None)
        if clash:
            errors.append(game.manifest_doc.error(("generate", list_name), f"generated list {list_name!r}: templates already see "
                                                                            f"`{list_name}` as {clash}: rename one of them"))
    return errors


def load_game(project: Project, name: str) -> GameContent:
    """Load, validate and cross-check one game (the project's own, else the shipped one of
    that name); raise PnpError listing every problem. What the PDF engine names its font
    files is checked above this layer (`check_engine_families`)."""
    project = project.home(name)
    game_dir = project.content_dir / name
    manifest_doc = load_located(project_files.inside(project.root, game_dir / MANIFEST, None, "game file"))
    manifest, errors = validate(manifest_doc, Manifest)
    raise_if_any(errors)
    assert manifest is not None
    raise_if_any(cross_check(manifest, manifest_doc))
    plugin = load_plugin(manifest.plugin, manifest_doc.error(("plugin",), ""), project.root)

    game = GameContent(name, project, manifest, plugin, manifest_doc)
    game.icons, errors, icon_files = icon_sets.load_icon_sets(project.root, game_dir, manifest.icons, manifest_doc)
    files = _data_files(game_dir, icon_files)
    errors += _name_clashes(game, files)
    for stem, paths in files.items():
        try:
            doc = _load_doc(game, stem, paths)
        except PnpError as exc:
            if not all(isinstance(e, ContentError) for e in exc.errors):
                raise  # a bad setting (PNP_TABLE_LIMITS), not a problem of this file
            errors.extend(e for e in exc.errors if isinstance(e, ContentError))
            continue
        game.docs[stem] = doc
        spec = manifest.data.get(stem)
        if spec is not None and spec.variants:
            game.variant_chains[stem], problems = variants.chains(doc)
            errors.extend(problems)
        elif spec is not None:
            errors.extend(records.check_file(doc, spec))
        if spec is None or not spec.variants:
            game.plain.blanks.update((id(r), (r, names)) for r, names in records.blank_fields(doc, spec))
        model = plugin.models.get(stem)
        if model is None and plugin.models and spec is None:
            expected = ", ".join(f"{s}.yaml" for s in sorted(plugin.models))
            errors.append(ContentError(paths[0], None, None, f"unknown content file: expected one of {expected}"))
            continue
        if model is None:
            game.data[stem] = doc.data
            continue
        instance, problems = validate(doc, model)
        errors.extend(problems)
        if instance is not None:
            game.data[stem] = instance
    for stem in sorted(set(plugin.models) - set(files) - set(plugin.optional_files)):
        errors.append(ContentError(game_dir / f"{stem}.yaml", None, None, "required content file is missing"))
    for stem in sorted(set(manifest.data) - set(files)):
        errors.append(manifest_doc.error(("data", stem), f"data file {stem!r} not found: expected content/{name}/{stem}.yaml, .csv or .xlsx"))
    raise_if_any(errors)
    raise_if_any(records.check_refs(game.docs, manifest.data, manifest_doc))
    raise_if_any(option_default_errors(game))  # after the data: `choices` may name a list in it
    _check_templates(game, manifest_doc)
    _check_fonts(game, manifest_doc)
    _check_labels(game, manifest_doc)
    if plugin.check is not None:
        raise_if_any(plugins.call_hook(plugin.check, "check(game)", (game,), plugins.expect_content_errors))
    if manifest.needs:
        names = game.namespace()
        raise_if_any(check_needs(manifest.needs, game.docs, names, generated.expression_environment(game.plain), manifest_doc))
    return game


def _check_templates(game: GameContent, manifest_doc: Located) -> None:
    errors: list[ContentError] = []
    for i, comp in enumerate(game.manifest.components):
        for key in ("front", "back"):
            template = getattr(comp, key)
            if not template:
                continue
            where = manifest_doc.error(("components", i, key), "")
            try:
                path = project_files.join(game.project.root, game.templates_dir, template, where, "template")
            except PnpError as exc:
                errors.extend(e for e in exc.errors if isinstance(e, ContentError))
                continue
            if not path.is_file():
                near = did_you_mean(template, _template_names(game.project.root, game.templates_dir))
                errors.append(manifest_doc.error(("components", i, key), f"template not found: templates/{game.name}/{template}{near}"))
            elif large := project_files.too_large(path, TEMPLATES, "template"):  # before Jinja reads it
                errors.append(manifest_doc.error(("components", i, key), large))
    raise_if_any(errors)


def _template_names(root: Path, folder: Path) -> list[str]:
    """The templates directly in a game's templates folder (`tiles.svg.j2` was meant as one of these)."""
    try:
        inside = project_files.inside(root, folder, None, "templates folder")
        return sorted(p.name for p in inside.iterdir() if p.name.endswith(".j2") and p.is_file())
    except (OSError, PnpError):  # no folder yet, or one leading out of the project: nothing to suggest
        return []


def _check_fonts(game: GameContent, manifest_doc: Located) -> None:
    """Every font file named exists and is a font fonttools can read, and no two are one
    family's same style (the PDF engine's names of them: `check_engine_families`)."""
    errors: list[ContentError] = []
    styles: dict[tuple[str, bool, bool], str] = {}  # a family and style -> the first file of it
    for i, name in enumerate(game.manifest.fonts):
        try:
            path = game.resolve_file(name, manifest_doc.error(("fonts", i), ""), "font file")
        except PnpError as exc:
            errors.extend(e for e in exc.errors if isinstance(e, ContentError))
            continue
        if path is None:
            errors.append(manifest_doc.error(("fonts", i), f"font file not found: {name} (looked in content/{game.name}/ and assets/){game.near_file(name)}"))
            continue
        if large := project_files.too_large(path, FONTS, "font file"):  # before fontTools reads it
            errors.append(manifest_doc.error(("fonts", i), large))
            continue
        try:
            face = load_face(path, path.stat().st_mtime)
        except Exception as exc:  # fonttools raises many kinds on a broken file
            errors.append(manifest_doc.error(("fonts", i), f"cannot read font file {name} ({type(exc).__name__}: {exc}): expected a TrueType or OpenType font (.ttf, .otf)"))
            continue
        # pnp measures a style with the first of its files, the renderers draw the one nearest normal width and weight
        if first := styles.get(style := (face.family, face.bold, face.italic)):
            errors.append(manifest_doc.error(("fonts", i), f"font file {name} is {face.name}, as {first} is: pnp would measure that "
                                                            f"text with {first}, and the renderers draw whichever is nearest normal width "
                                                            "and weight; name one file for each of a family's styles (regular, bold, "
                                                            "italic, bold italic)"))
        else:
            styles[style] = name
    raise_if_any(errors)


def check_engine_families(game: GameContent, families: dict[str, str | None]) -> None:
    """The PDF engine (typst) knows each of the game's font files by pnp's family name:
    `families`, its name of each file (pnp.formats.engine_jobs.families). typst drops words
    such as Narrow, Condensed or Light from a family's name, and draws an SVG's text in a
    family it does not know in its fallback font (Libertinus Serif; checked), with exit 0."""
    errors: list[ContentError] = []
    for i, (name, path) in enumerate(zip(game.manifest.fonts, game.fonts.files)):  # every file named was found (`_check_fonts`)
        family = load_face(path, path.stat().st_mtime).family
        typst_family = families.get(str(path))
        if typst_family is not None and typst_family.casefold() != family.casefold():
            errors.append(game.manifest_doc.error(("fonts", i), f"font file {name}: the PDF engine (typst) knows its family {family!r} as "
                                                                 f"{typst_family!r} (it drops words such as Narrow, Condensed or Light from a "
                                                                 f"family's name), so the PDF would draw text in {family!r} in another "
                                                                 "font: use a font whose family name has no such word, or rename the "
                                                                 "family in the file (its name table's IDs 1 and 16)"))
    raise_if_any(errors)


def _check_labels(game: GameContent, manifest_doc: Located) -> None:
    """The print PDF's cover, checklist and sheet labels draw the game's title and component
    names in its default family's regular face (pnp/formats/labels.py): a character that face
    lacks would print as a box, so it is an error at its game.yaml line."""
    face = game.fonts.face()
    texts = [(("title",), "title", game.manifest.title)] + [(("components", i, "name"), "component name", c.name)
                                                            for i, c in enumerate(game.manifest.components)]
    errors = [manifest_doc.error(at, f"{what} {text!r}: the print PDF's labels draw it in {face.name}, which lacks {chars_named(lacking)}: "
                                     "use other characters, or make a font that has them the first of game.yaml `fonts:`")
              for at, what, text in texts if text and (lacking := face.lacks(str(text)))]
    raise_if_any(errors)

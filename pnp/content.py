"""Load and validate a game's content: `content/<game>/game.yaml` plus its data files.

Everything is checked before anything is rendered, and all problems are collected so the
user sees every one of them at once.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any

from .errors import ContentError, PnpError, raise_if_any
from .fonts import DEFAULT as DEFAULT_FONTS
from .fonts import Fonts
from .manifest import Manifest
from .plugin import GamePlugin
from .validation import validate
from .yamlio import Located, load_located

MANIFEST = "game.yaml"
EMPTY_PLUGIN = GamePlugin()


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
        if not self.content_dir.is_dir():
            return []
        return sorted(p.name for p in self.content_dir.iterdir() if (p / MANIFEST).is_file())

    def resolve_games(self, names: list[str] | None) -> list[str]:
        """The games named (all when none), or a PnpError naming the unknown ones."""
        known = self.games()
        if not known:
            raise PnpError(ContentError(self.content_dir, None, None, f"no games found: expected content/<game>/{MANIFEST}"))
        if not names:
            return known
        unknown = [n for n in names if n not in known]
        if unknown:
            raise PnpError([f"unknown game {n!r}: expected one of {', '.join(known)}" for n in unknown])
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

    @property
    def templates_dir(self) -> Path:
        return self.project.templates_dir / self.name

    @property
    def content_dir(self) -> Path:
        return self.project.content_dir / self.name

    def resolve_file(self, name: str) -> Path | None:
        """A file the game names (font, art): in its content folder, else the project's assets/."""
        relative = Path(name)
        if relative.is_absolute() or ".." in relative.parts:
            return None
        for base in (self.content_dir, self.project.assets_dir):
            candidate = base / relative
            if candidate.is_file():
                return candidate
        return None

    @cached_property
    def fonts(self) -> Fonts:
        """The font files the game's text is drawn and measured with."""
        if not self.manifest.fonts:
            return DEFAULT_FONTS
        return Fonts(tuple(p for p in (self.resolve_file(n) for n in self.manifest.fonts) if p is not None))

    def error(self, stem: str, at: tuple, message: str) -> ContentError:
        """A located error inside content file `stem` (e.g. error('adventurers', ('cards', 3), ...))."""
        return self.docs[stem].error(at, message)

    def namespace(self, options: dict[str, Any] | None = None) -> dict[str, Any]:
        """Names that templates and `items:` expressions see."""
        options = dict(options or {})
        names: dict[str, Any] = {"game": self.manifest, "options": options, **self.data}
        if self.plugin.context is not None:
            names.update(self.plugin.context(self, options))
        return names


def load_plugin(name: str | None, where: ContentError) -> GamePlugin:
    """Import pnp.games.<name> and return its PLUGIN (the empty plugin when name is None)."""
    if name is None:
        return EMPTY_PLUGIN
    try:
        module = importlib.import_module(f"pnp.games.{name}")
    except ModuleNotFoundError:
        raise PnpError(ContentError(where.path, where.line, where.column, f"unknown plugin {name!r}: no module pnp.games.{name}")) from None
    return module.PLUGIN


def load_game(project: Project, name: str) -> GameContent:
    """Load, validate and cross-check one game; raise PnpError listing every problem."""
    game_dir = project.content_dir / name
    manifest_doc = load_located(game_dir / MANIFEST)
    manifest, errors = validate(manifest_doc, Manifest)
    raise_if_any(errors)
    assert manifest is not None
    plugin = load_plugin(manifest.plugin, manifest_doc.error(("plugin",), ""))

    game = GameContent(name, project, manifest, plugin, manifest_doc)
    errors = []
    files = sorted(p for p in game_dir.glob("*.yaml") if p.name != MANIFEST)
    found = {p.stem for p in files}
    for path in files:
        try:
            doc = load_located(path)
        except PnpError as exc:
            errors.extend(e for e in exc.errors if isinstance(e, ContentError))
            continue
        game.docs[path.stem] = doc
        model = plugin.models.get(path.stem)
        if model is None and plugin.models:
            expected = ", ".join(f"{s}.yaml" for s in sorted(plugin.models))
            errors.append(ContentError(path, None, None, f"unknown content file: expected one of {expected}"))
            continue
        if model is None:
            game.data[path.stem] = doc.data
            continue
        instance, problems = validate(doc, model)
        errors.extend(problems)
        if instance is not None:
            game.data[path.stem] = instance
    for stem in sorted(set(plugin.models) - found - set(plugin.optional_files)):
        errors.append(ContentError(game_dir / f"{stem}.yaml", None, None, "required content file is missing"))
    raise_if_any(errors)
    _check_templates(game, manifest_doc)
    _check_fonts(game, manifest_doc)
    if plugin.check is not None:
        raise_if_any(plugin.check(game))
    return game


def _check_templates(game: GameContent, manifest_doc: Located) -> None:
    errors = []
    for i, comp in enumerate(game.manifest.components):
        for key in ("front", "back"):
            template = getattr(comp, key)
            if template and not (game.templates_dir / template).is_file():
                errors.append(manifest_doc.error(("components", i, key), f"template not found: templates/{game.name}/{template}"))
    raise_if_any(errors)


def _check_fonts(game: GameContent, manifest_doc: Located) -> None:
    """Every font file named exists and is a font fonttools can read."""
    from .fonts import load_face

    errors = []
    for i, name in enumerate(game.manifest.fonts):
        path = game.resolve_file(name)
        if path is None:
            errors.append(manifest_doc.error(("fonts", i), f"font file not found: {name} (looked in content/{game.name}/ and assets/)"))
            continue
        try:
            load_face(path, path.stat().st_mtime)
        except Exception as exc:  # fonttools raises many kinds on a broken file
            errors.append(manifest_doc.error(("fonts", i), f"cannot read font file {name}: {type(exc).__name__}: {exc}"))
    raise_if_any(errors)

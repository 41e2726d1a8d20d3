"""JSON Schemas of content files, so editors (e.g. the YAML language server) can validate
and autocomplete them."""

from __future__ import annotations

import json
from pathlib import Path

from .content import MANIFEST, Project, load_plugin
from .errors import ContentError
from .manifest import Manifest
from .output import write_atomic
from .yamlio import load_located


def schemas_for(project: Project, game: str) -> dict[str, dict]:
    """File name -> JSON Schema for the game's manifest and each content file with a model."""
    doc = load_located(project.home(game).content_dir / game / MANIFEST)
    plugin_name = doc.data.get("plugin") if isinstance(doc.data, dict) else None
    plugin = load_plugin(plugin_name, ContentError(doc.path, None, None, ""))
    out = {"game.schema.json": Manifest.model_json_schema()}
    for stem, model in sorted(plugin.models.items()):
        out[f"{stem}.schema.json"] = model.model_json_schema()
    if plugin.sheet_schema is not None:
        out["sheet.schema.json"] = plugin.sheet_schema()
    return out


def write_schemas(project: Project, games: list[str] | None, out_dir: Path | None) -> list[Path]:
    """Write every schema to `<out_dir>/<game>/`; return the paths written."""
    base = out_dir or project.output_dir / "schema"
    written = []
    for game in project.resolve_games(games):
        for name, schema in schemas_for(project, game).items():
            path = base / game / name
            schema = {"$schema": "https://json-schema.org/draft/2020-12/schema", **schema}
            write_atomic(path, (json.dumps(schema, indent=2, sort_keys=True) + "\n").encode("utf-8"))
            written.append(path)
    return written

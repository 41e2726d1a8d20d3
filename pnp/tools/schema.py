"""JSON Schemas of content files, so editors (e.g. the YAML language server) can validate
and autocomplete them."""

from __future__ import annotations

import json
from pathlib import Path

from ..load.content import MANIFEST, GameContent, Project, load_game, load_plugin
from ..errors import PnpError
from ..load.jsonschema import data_schema
from ..load.sheets import SHEET_SUFFIXES
from ..load.manifest import Manifest
from ..load.plugins import takes
from ..score.dispatch import plugin_sheet_schema
from ..files import write_atomic
from ..load import project_files
from ..load.project_files import output_folder
from ..load.validation import validate
from ..load.yamlio import load_located


def schemas_for(project: Project, game: str) -> dict[str, dict]:
    """File name -> JSON Schema for the game's manifest, each content file with a plugin
    model or a `data:` declaration, and the scoring sheet. Content with errors still gets
    its schemas (ids for `ref` fields are listed only when the game loads)."""
    home = project.home(game)
    doc = load_located(project_files.inside(home.root, home.content_dir / game / MANIFEST, None, "game file"))
    plugin_name = doc.data.get("plugin") if isinstance(doc.data, dict) else None
    plugin = load_plugin(plugin_name if isinstance(plugin_name, str) else None, doc.error(("plugin",), ""), project.home(game).root)
    out = {"game.schema.json": Manifest.model_json_schema()}
    for stem, model in sorted(plugin.models.items()):
        out[f"{stem}.schema.json"] = model.model_json_schema()
    manifest, _ = validate(doc, Manifest)
    try:
        # the content, for `data:` ids and a sheet schema bounded by it (`sheet_schema(game)`)
        needed = manifest is not None and (manifest.data or plugin.sheet_schema is not None and takes(plugin.sheet_schema, (None,)))
        loaded: GameContent | None = load_game(project, game) if needed else None
    except PnpError:
        loaded = None
    if manifest is not None and manifest.data:
        docs = loaded.docs if loaded is not None else {}
        game_dir = project.content_dir / game
        for stem, spec in sorted(manifest.data.items()):
            schema = data_schema(stem, spec, docs, manifest.data)
            sheet = next((p for p in sorted(game_dir.glob(f"{stem}.*")) if p.suffix in SHEET_SUFFIXES), None)
            if sheet is not None and spec.records:  # YAML + sheet: the YAML lacks the records
                out[f"{stem}{sheet.suffix}.schema.json"] = schema["properties"][spec.records]
                mine = out.setdefault(f"{stem}.schema.json", schema)
                mine["required"] = [k for k in mine.get("required", []) if k != spec.records]
            elif sheet is not None:
                out[f"{stem}{sheet.suffix}.schema.json"] = schema
            else:
                out.setdefault(f"{stem}.schema.json", schema)
    if (sheet_schema := plugin_sheet_schema(plugin, loaded)) is not None:  # one bounded by content that does not load: none
        out["sheet.schema.json"] = sheet_schema
    return out


def write_schemas(project: Project, games: list[str] | None, out_dir: Path | None) -> list[Path]:
    """Write every schema to `<out_dir>/<game>/`; return the paths written."""
    base = out_dir or output_folder(project.root, project.output_dir / "schema")
    written = []
    for game in project.resolve_games(games):
        for name, schema in schemas_for(project, game).items():
            path = base / game / name
            schema = {"$schema": "https://json-schema.org/draft/2020-12/schema", **schema}
            write_atomic(path, (json.dumps(schema, indent=2, sort_keys=True) + "\n").encode("utf-8"))
            written.append(path)
    return written

"""What a game may add in Python: schemas for its content files, cross-file checks,
glyph helpers for its templates, extra template context and a scorer.

A game without a plugin still builds: its content files are loaded as plain YAML and its
templates see them as dictionaries. A plugin is a module with the attribute `PLUGIN`; a
game's `game.yaml` names it with `plugin:` (a project file such as `plugins/<game>.py`, an
entry point in the group `pnp.games`: see pnp/load/plugins.py).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable

from pydantic import BaseModel

if TYPE_CHECKING:
    from .content import GameContent
    from ..errors import ContentError
    from .yamlio import Located


@dataclass(frozen=True)
class GamePlugin:
    """Optional game-specific behaviour; every field may be left empty."""

    # content file stem (e.g. "adventurers" for adventurers.yaml) -> model of the whole file
    models: dict[str, type[BaseModel]] = field(default_factory=dict)
    # stems that may be absent (all others in `models` are required)
    optional_files: frozenset[str] = frozenset()
    # cross-file checks after every file validated on its own; return located errors
    check: Callable[["GameContent"], list["ContentError"]] | None = None
    # functions and values every template of the game can call, e.g. tile glyphs
    template_globals: dict[str, Any] = field(default_factory=dict)
    # extra names for templates and `items:` expressions, computed from the content and
    # the build options (e.g. the selected rule version as `rules`)
    context: Callable[["GameContent", dict[str, Any]], dict[str, Any]] | None = None
    # scorer for `pnp score`: takes the parsed sheet and returns a report object
    score: Callable[["GameContent", "Located"], Any] | None = None
    # `pnp sheet --template`: a blank, commented scoring-sheet YAML for N players under
    # the `--set` options (e.g. {"rules": "0.2.8"})
    sheet_template: Callable[["GameContent", int, dict[str, str]], str] | None = None
    # JSON Schema of the scoring-sheet file (also written by `pnp schema`): `sheet_schema(game)`,
    # bounds read from the content, or `sheet_schema()`
    sheet_schema: Callable[["GameContent"], dict[str, Any]] | Callable[[], dict[str, Any]] | None = None
    # component whose items (one per player count, with a `players` field) are the
    # printable blank scoring sheets of `pnp sheet`
    sheet_component: str | None = None
    # `pnp serve`'s entry form for a rule version (or None) and player count: choices from
    # the content that turn typing into tapping, as {"rules": [{"value", "label",
    # "differences"}], "table": {key: hint}, "player": {key: hint}, "blank_is_complete":
    # bool} (pnp/serve/forms.py)
    sheet_form: Callable[["GameContent", str | None, int], dict[str, Any]] | None = None
    # named tables keyed by content id (e.g. {"scorers": {"dragon": fn}}), seen by
    # `needs:` checks and templates as `plugin.<name>`
    provides: dict[str, Any] = field(default_factory=dict)

"""The public API for game plugins: everything a plugin may import from pnp, in one place.

A plugin is a module (or package) that defines `PLUGIN = GamePlugin(...)`; a game's
`game.yaml` names it with `plugin:`. Import from `pnp.api` only: the modules behind it
may move between releases, these names do not.

What a plugin gets
- `GamePlugin`: the record of what the game adds in Python (content models, cross-file
  checks, template helpers and context, a scorer, scoring-sheet template, schema and the
  choices `pnp serve`'s entry form offers).
- `GameContent`: the loaded game a plugin's functions receive (`game.data[stem]` holds
  each content file's validated model, `game.docs[stem]` its `Located` document).
- `Located`: a parsed YAML file that knows where every value stands; `doc.error(path,
  message)` makes a `ContentError` at the key `path` names (a tuple of keys and indexes), for
  a key's own problem; `doc.value_error(path, message)` at its value (`room: hall` at hall,
  a value on lines of its own at its key), for a wrong value; `game.error(stem, path, ...)`
  and `game.value_error(stem, path, ...)` the same in the content file `stem`.
- `ContentError` (one located problem), `PnpError` (raise it with one or many
  ContentErrors: the CLI prints each as `file:line:col: message` and exits 2), `OptionError`
  (a PnpError about an option as typed, e.g. `--players`: printed after the command's name),
  `raise_if_any`, `sorted_errors`, `display_path`, `did_you_mean` (the nearest known name),
  `counted` ("1 point", "2 points"), `as_written` (a value as YAML spells it, for a
  message: `true`, not Python's `True`).
- `ScoreReport`: what a scorer returns (`to_json()`, `render(console)`, `exit_code`, and
  `mismatch_lines()`: one line per wrong claim, as render prints them; `mismatch_places()`:
  those lines with the sheet path of each claim, where `pnp serve` shows them; `decided_text()`:
  what decided the winner in the words `render` prints, for `pnp serve`'s page).
- Content models: `StrictModel` (a pydantic model refusing unknown keys, and true or false for a number), `validate` (its
  `label` names what an error is in, e.g. a sheet's player),
  `complaint` (one pydantic error as a sentence, for a message that names the field itself),
  `unknown_key` (what every validated file says of an unknown key: the nearest allowed one),
  `meant_key` (that nearest key, for a checker that does not also report it missing),
  `mapping_at` (the mapping at a pydantic error's `loc` in the data: the keys present there),
  and the field types `Slug`, `Colour`, `Length`, `one_of`, `keys_of` (a mapping of exactly
  these keys, in order), `text_with` (`beyond_name`: the
  first placeholder of a text that is more than a name, which a text filled in must not have).
- Options: `check_value(game, name, spec, given)`, a game option's typed value or its
  located error (for a sheet that names an option, e.g. an edition); `choice_named(allowed,
  given)`, the choice a typed name means, in any case (`Published` is "published"), or None.
- Helpers: `num` (a number as a template prints it), `markup` (a file's text made safe for
  Rich), `deep_merge` (how variants merge mappings).
- Limits: `GRIDS`, the largest grid side a scoring sheet (or its `changes:`) may ask for
  (`GRIDS["side"]`, set with PNP_GRID_LIMITS; `GRIDS.hint("side")` says how).
- The balance lab: `Simulation` (what a plugin package's module `simulation` returns from
  `make(game, options)`: the protocol `pnp simulate` plays), `Record`, `PlayerRecord` (one
  simulated game and its seats), `no_options`.

A scorer is `score(game: GameContent, doc: Located) -> ScoreReport`: it raises PnpError
for a sheet it cannot score (located with `doc.error`), and returns a report otherwise.
An exception of any other kind raised by a plugin's code (`sys.exit()` too) is reported as
that plugin's error, at its file and line (exit 2), not as a bug in pnp. So is a hook pnp cannot call
as it does (e.g. `def score(doc)`) or one returning what pnp cannot use (a scorer's value
that is no ScoreReport, an `exit_code` other than 0 or 1, a `check` returning text rather
than ContentErrors, a `sheet_schema` JSON cannot write): that plugin's error at the hook's
`def` line. A ScoreReport class lacking one of its members is the plugin's error at its `class` line.
"""

from __future__ import annotations

from .errors import ContentError, OptionError, PnpError, as_written, counted, did_you_mean, display_path, raise_if_any, sorted_errors
from .load.content import GameContent
from .limits import GRIDS
from .load.manifest import Length
from .load.options import check_value, choice_named
from .load.plugin import GamePlugin
from .load.validation import Colour, Slug, StrictModel, beyond_name, complaint, keys_of, mapping_at, meant_key, one_of, text_with, unknown_key, validate
from .load.variants import deep_merge
from .load.yamlio import Located
from .units import num
from .safetext import markup
from .score.dispatch import ScoreReport
from .simulate.base import PlayerRecord, Record, Simulation, no_options

__all__ = [
    "GRIDS",
    "as_written",
    "check_value",
    "choice_named",
    "complaint",
    "unknown_key",
    "meant_key",
    "mapping_at",
    "Colour",
    "ContentError",
    "GameContent",
    "GamePlugin",
    "Length",
    "Located",
    "PlayerRecord",
    "OptionError",
    "PnpError",
    "Record",
    "ScoreReport",
    "Simulation",
    "Slug",
    "StrictModel",
    "counted",
    "deep_merge",
    "did_you_mean",
    "display_path",
    "markup",
    "no_options",
    "num",
    "one_of",
    "keys_of",
    "raise_if_any",
    "sorted_errors",
    "text_with",
    "beyond_name",
    "validate",
]

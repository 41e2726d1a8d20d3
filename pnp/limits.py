"""Bounds on what pnp reads and makes that YAML's own limits (pnp/load/yamlio.py) do not
cover: data sheets (CSV/XLSX), pictures, piece sizes, the grids a scoring sheet may ask
for, and what one game's build makes. Each is checked before the costly work starts, so a
hostile project or sheet is one located line within a second, not minutes of work, a crash
or a full memory. Defaults are far above any real game.

Each kind is set from an environment variable, like the YAML limits:
`PNP_TABLE_LIMITS="rows=500000,cell=20k"`, `PNP_BUILD_LIMITS=copies=5000,pieces=50000`;
`8M` and `512k` count in 1024s.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field

from .errors import PnpError
from .units import to_count

MIB = 1 << 20


@dataclass(frozen=True)
class Bounds:
    """Named limits of one kind of input, overridable from the environment variable `env`."""

    kind: str  # for messages: "data sheet", "picture"
    env: str
    defaults: dict[str, int] = field(default_factory=dict)

    def __getitem__(self, key: str) -> int:
        return self.values()[key]

    def values(self) -> dict[str, int]:
        """The limits with the environment's overrides applied (read at each check, so a
        test or a long `pnp watch` sees a change)."""
        out = dict(self.defaults)
        spec = os.environ.get(self.env, "").strip()
        for part in spec.split(",") if spec else []:
            key, sep, value = (x.strip() for x in part.partition("="))
            number = to_count(value) if sep else None
            if key not in out or number is None or number < 1:
                key, number = next(iter(self.defaults.items()))  # the first default, as an example
                example = f"{number // MIB}M" if number % MIB == 0 else number
                raise PnpError(f"{self.env}: {part.strip()!r}: expected KEY=NUMBER with KEY one of {', '.join(out)}, e.g. {key}={example}")
            out[key] = number
        return out

    def hint(self, key: str) -> str:
        """The end of a message about limit `key`: whose it is and how to change it."""
        return f"the limit for a {self.kind} (set {self.env}={key}=N to change it)"


# Far above any real game: the shipped data sheets have tens of rows and short cells.
TABLES = Bounds("data sheet", "PNP_TABLE_LIMITS", {"rows": 20_000, "cell": 10_000, "size": 8 * MIB, "unzipped": 64 * MIB})
# 50 million pixels: an A3 picture at 600 dpi is 42 million; 50 MiB a picture file `asset()`
# reads (card art is a few hundred KiB, that A3 picture as a JPEG about 15 MiB).
PICTURES = Bounds("picture", "PNP_PICTURE_LIMITS", {"pixels": 50_000_000, "size": 50 * MIB})
# Pixels of one image a build draws (a PNG, or a face drawn for Tabletop Simulator), from the
# piece's size and the dpi before it is drawn: the largest shipped piece (the Cave's 380 x 260 mm
# board) at the highest --dpi (1200) is 221 million; 250 million is a GiB of memory to draw.
RASTER = Bounds("rendered image", "PNP_RASTER_LIMITS", {"pixels": 250_000_000})
# A template file: the shipped ones are at most 15 KiB.
TEMPLATES = Bounds("template", "PNP_TEMPLATE_LIMITS", {"size": MIB})
# An SVG file of an icon set: an icon is a few KiB, a detailed one from a drawing program a few
# hundred; each is inlined into every face that draws it.
ICONS = Bounds("file of an icon set", "PNP_ICON_LIMITS", {"size": 4 * MIB})
# A font file a game names: Liberation Sans is 400 KiB, a font for Chinese or Japanese about 20 MiB.
FONTS = Bounds("font", "PNP_FONT_LIMITS", {"size": 50 * MIB})
# A piece's width or height in mm, with its bleed: the largest paper pnp knows (A0) is 1189 mm long.
PIECES = Bounds("piece", "PNP_PIECE_LIMITS", {"mm": 2_000})
# Rows and columns of a grid a scoring sheet's `changes:` may ask for (a stomach is 6 x 6).
GRIDS = Bounds("scoring sheet", "PNP_GRID_LIMITS", {"side": 12})
# What one game's build makes (the shipped games: at most 69 copies of a piece, 293 pieces,
# ids of 22 characters); `pieces` also bounds the records of a `generate:` list; ids name
# files, and most file systems stop at 255 bytes.
BUILD = Bounds("build", "PNP_BUILD_LIMITS", {"copies": 1_000, "pieces": 10_000, "id": 100})
# A project's files at a git revision (`pnp diff --since`, `simulate --against`), checked before
# any is read: how many, the largest, all together (this repository's four games: 122 files, half a MB).
REVISION = Bounds("revision export", "PNP_REVISION_LIMITS", {"file": 256 * MIB, "total": 1024 * MIB, "files": 100_000})
# A project plugin's files, read whole for its trust digest (pnp/load/trust.py) before the user
# trusts it (this repository's plugins: 34 files, at most 57 KB each).
PLUGINS = Bounds("plugin", "PNP_PLUGIN_LIMITS", {"file": 16 * MIB, "total": 64 * MIB, "files": 2_000})
# Characters a template may make: one text (a `~`, `+`, `*`, `replace`, `join`, `format` ...,
# checked before it is made), one face's whole output (counted as it is written: text a
# macro or `{% set %}` block makes counts there and again where it is printed), and all the
# texts and lists the operators, filters and methods of one face (or one `items:`...
# expression) make, kept or not (a list 8 characters an item). Far above any real face: a
# picture of 15 MB, as base64, fits in one text; the shipped games' faces make at most 7,000
# characters in all (`made`).
TEXTS = Bounds("template's text", "PNP_TEXT_LIMITS", {"text": 20_000_000, "face": 100_000_000, "made": 250_000_000})
# Games one `pnp simulate` plays a side: each game's record is kept for the report (about
# 16 KB of a Tasty Humans game: 1.6 GB and some minutes on two cores at the limit).
SIMULATIONS = Bounds("simulation", "PNP_SIMULATE_LIMITS", {"games": 100_000})
# The play-test log (pnp/serve/logcheck.py): a log may come with a project. A group logging
# ten games a day for five years logs 18,000; a sheet is at most 2 MiB (PNP_SHEET_LIMITS).
LOG = Bounds("play-test log", "PNP_LOG_LIMITS", {"rows": 50_000, "value": 16 * MIB, "json": 8 * MIB, "depth": 64})

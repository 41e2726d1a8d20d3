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
# 50 million pixels: an A3 picture at 600 dpi is 42 million.
PICTURES = Bounds("picture", "PNP_PICTURE_LIMITS", {"pixels": 50_000_000})
# A piece's width or height in mm: the largest paper pnp knows (A0) is 1189 mm long.
PIECES = Bounds("piece", "PNP_PIECE_LIMITS", {"mm": 2_000})
# Rows and columns of a grid a scoring sheet's `changes:` may ask for (a stomach is 6 x 6).
GRIDS = Bounds("scoring sheet", "PNP_GRID_LIMITS", {"side": 12})
# What one game's build makes (the shipped games: at most 69 copies of a piece, 293 pieces,
# ids of 22 characters); `pieces` also bounds the records of a `generate:` list; ids name
# files, and most file systems stop at 255 bytes.
BUILD = Bounds("build", "PNP_BUILD_LIMITS", {"copies": 1_000, "pieces": 10_000, "id": 100})
# The play-test log (pnp/serve/logcheck.py): a log may come with a project. A group logging
# ten games a day for five years logs 18,000; a sheet is at most 2 MiB (PNP_SHEET_LIMITS).
LOG = Bounds("play-test log", "PNP_LOG_LIMITS", {"rows": 50_000, "value": 16 * MIB, "json": 8 * MIB, "depth": 64})

"""Bounds on what one game's build makes, checked while planning (pnp/plan.py) so that a
project asking for a hundred million copies is refused in a moment, with a located line,
instead of filling the memory. Defaults far above any real game (the shipped games have at
most 69 copies of a piece, 293 pieces, ids of 22 characters); the environment variable
PNP_BUILD_LIMITS changes them, like PNP_CONTENT_LIMITS does the YAML limits
(pnp/load/yamlio.py): `PNP_BUILD_LIMITS=copies=5000,pieces=50000 pnp build`.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, fields, replace

from .errors import PnpError
from .units import to_count

ENV = "PNP_BUILD_LIMITS"


@dataclass(frozen=True)
class BuildLimits:
    copies: int = 1_000  # copies of one item
    pieces: int = 10_000  # pieces of one game's build (items times copies), and records of a generated list
    id: int = 100  # characters of an item id (a file name: most file systems stop at 255)

    @staticmethod
    def hint(key: str) -> str:
        """The end of a message about limit `key`: whose limit it is and how to change it."""
        return f"the limit for a build (set {ENV}={key}=N to change it)"

    @classmethod
    def from_env(cls) -> "BuildLimits":
        """The defaults with the overrides in PNP_BUILD_LIMITS applied."""
        limits = cls()
        spec = os.environ.get(ENV, "").strip()
        names = [f.name for f in fields(cls)]
        for part in spec.split(",") if spec else []:
            key, sep, value = (x.strip() for x in part.partition("="))
            number = to_count(value) if sep else None
            if key not in names or number is None or number < 1:
                raise PnpError(f"{ENV}: {part.strip()!r}: expected KEY=NUMBER with KEY one of {', '.join(names)}, e.g. copies=5000")
            limits = replace(limits, **{key: number})
        return limits

"""What the benchmarks share: the environment of a measured `pnp` process."""

from __future__ import annotations

import os
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def child_env() -> dict[str, str]:
    """This tree's pnp, with Python's bytecode cache on as on a user's machine
    (PYTHONDONTWRITEBYTECODE would recompile every pnp module in every process; pip
    installs packages already compiled)."""
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    return env

"""Compiled code pnp keeps between runs, outside every project: Jinja's
`FileSystemBytecodeCache`, a folder of the user's own in the system's temporary folder
(Jinja makes it 0700 and refuses one another user owns), shared by the templates'
compiled code (pnp/render/faces.py) and project plugins' (pnp/load/plugins.py), each
under its own file names. An entry holds its checksum and Python's version: one made from
other source, or by another Python, is not loaded.
"""

from __future__ import annotations

from functools import lru_cache

import jinja2


@lru_cache(maxsize=None)
def bytecode_cache(pattern: str) -> jinja2.BytecodeCache | None:
    """The cache whose files are named `pattern` (`%s`: an entry's key); None when no
    temporary folder can be used safely, and the caller compiles every time."""
    try:
        return jinja2.FileSystemBytecodeCache(pattern=pattern)
    except (OSError, RuntimeError):  # RuntimeError: Jinja finds the folder unsafe
        return None

"""Compiled code pnp keeps between runs, outside every project: Jinja's
`FileSystemBytecodeCache`, a folder of the user's own in the system's temporary folder
(Jinja makes it 0700 and refuses one another user owns), shared by the templates'
compiled code (pnp/render/faces.py) and project plugins' (pnp/load/plugins.py), each
under its own file names. An entry holds Python's version and the checksum of what was
compiled: one made from other source, or by another Python, is not loaded.
"""

from __future__ import annotations

import marshal
import pickle
from functools import lru_cache
from types import CodeType
from typing import BinaryIO

import jinja2
from jinja2.bccache import Bucket, bc_magic


class WholeBucket(Bucket):
    """Jinja's bucket, its file read at once: `marshal.load` of the open file reads it a few
    bytes a call, at four times the cost of `marshal.loads` of the bytes (every build loads
    each template of a game and each module of its plugin once). The header is compared as
    the bytes Jinja writes (`write_bytecode`), never unpickled; anything but a code object
    after it is no entry."""

    def load_bytecode(self, f: BinaryIO) -> None:
        data = f.read()
        head = bc_magic + pickle.dumps(self.checksum, 2)
        try:
            code = marshal.loads(memoryview(data)[len(head):]) if data.startswith(head) else None
        except (EOFError, ValueError, TypeError):  # cut short or spoilt
            code = None
        if isinstance(code, CodeType):
            self.code = code
        else:
            self.reset()


class WholeFileCache(jinja2.FileSystemBytecodeCache):
    """Jinja's file cache of compiled code, with `WholeBucket`s."""

    def get_bucket(self, environment: jinja2.Environment, name: str, filename: str | None, source: str) -> Bucket:
        bucket = WholeBucket(environment, self.get_cache_key(name, filename), self.get_source_checksum(source))
        self.load_bytecode(bucket)
        return bucket


@lru_cache(maxsize=None)
def bytecode_cache(pattern: str) -> WholeFileCache | None:
    """The cache whose files are named `pattern` (`%s`: an entry's key); None when no
    temporary folder can be used safely, and the caller compiles every time."""
    try:
        return WholeFileCache(pattern=pattern)
    except (OSError, RuntimeError):  # RuntimeError: Jinja finds the folder unsafe
        return None

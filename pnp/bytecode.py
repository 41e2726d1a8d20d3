"""Compiled code pnp keeps between runs, outside every project: Jinja's
`FileSystemBytecodeCache`, a folder of the user's own in the system's temporary folder
(Jinja makes it 0700 and refuses one another user owns), shared by the templates'
compiled code (pnp/render/faces.py), project plugins' (pnp/load/plugins.py) and the
fields templates guard (pnp/render/defaulted.py), each under its own file names. An entry holds Python's version and the checksum of what was
compiled: one made from other source, or by another Python, is not loaded.
"""

from __future__ import annotations

import importlib.util
import marshal
import pickle
import sys
from functools import lru_cache
from types import CodeType
from typing import Any, BinaryIO, Callable

import jinja2
from jinja2.bccache import Bucket, bc_magic

from .files import digest


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


def kept_code(pattern: str, source: bytes, path: str, compile_source: Callable[[bytes, str], Any]) -> CodeType:
    """The code `compile_source` makes of `source` (`path`: the name the code records for
    tracebacks), kept in the cache `pattern`: the cached code when its entry for `path` was
    compiled from exactly what compiling reads (these bytes, this file name, this Python's
    bytecode and optimisation level), else compiled and stored. A cache that cannot be read
    or written means compiling, silently."""
    cache = bytecode_cache(pattern)
    if cache is None:
        return compile_source(source, path)
    checksum = digest(source, path, importlib.util.MAGIC_NUMBER, sys.flags.optimize)
    bucket = WholeBucket(None, digest(path), checksum)  # type: ignore[arg-type]  # a bucket keeps its environment, never uses it
    try:
        cache.load_bytecode(bucket)  # an entry of other source or another Python is not loaded
    except OSError:  # an unreadable entry: compiled again
        bucket.reset()
    if bucket.code is not None:
        return bucket.code
    code = compile_source(source, path)
    bucket.code = code
    try:
        cache.dump_bytecode(bucket)
    except OSError:  # the folder went away or is full: the next run compiles again
        pass
    return code

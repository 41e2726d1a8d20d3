"""Files a build makes: a digest keying each, and writing one so no reader sees it half-written.

Formats plan their files (`Planned`: a key and how to make the bytes); the build, the
scoring sheet and the balance lab's reports write them with `write_atomic`.
"""

from __future__ import annotations

import errno
import hashlib
import itertools
import json
import math
import os
import re
import stat
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Iterable

_TEMP = itertools.count()  # temporary names, unique within the process (and the pid tells processes apart)
_TEMP_NAME = re.compile(r"\.(.+)\.([1-9][0-9]*)-[0-9]+\.tmp", re.DOTALL)  # what `stage` names them: .NAME.PID-N.tmp


@dataclass(frozen=True)
class Planned:
    """A file a format will make: a digest of everything it is made from, and how to make it."""

    key: str
    make: Callable[[], bytes]
    costly: bool = False  # worth handing to another process (a PDF, not an SVG encode)
    # told, before anything is made, that this file will be: a job several files share (a
    # game's PDFs, pnp.formats.pdf.SharedBook) makes only the ones a build asks for
    claim: Callable[[], None] | None = None


_ENCODER = json.JSONEncoder(sort_keys=True, default=str, ensure_ascii=False)  # made once: json.dumps makes one a call


def digest(*parts: Any) -> str:
    """A short stable hash of strings/bytes/plain data."""
    h = hashlib.sha256()
    for part in parts:
        if isinstance(part, bytes):
            h.update(part)
        elif isinstance(part, str):
            h.update(part.encode("utf-8"))
        elif type(part) is int or (type(part) is float and math.isfinite(part)):  # JSON writes them as repr does
            h.update(repr(part).encode("utf-8"))
        else:
            h.update(_ENCODER.encode(part).encode("utf-8"))
        h.update(b"\0")
    return h.hexdigest()[:32]


def tree_digest(files: Iterable[Path], root: Path | None = None, read: Callable[[Path], bytes] = Path.read_bytes) -> str:
    """SHA-256 (hex) of files by name and bytes, in the order given: each file's path
    relative to `root` (its bare name without one), its length and its bytes."""
    h = hashlib.sha256()
    prefix = os.path.join(root, "") if root is not None else ""
    for f in files:
        data = read(f)
        text = str(f)
        if not prefix:
            name = f.name
        elif text.startswith(prefix):  # most files: the name without pathlib's cost
            name = text[len(prefix):].replace(os.sep, "/")
        else:
            name = f.relative_to(root).as_posix()  # type: ignore[arg-type]
        h.update(f"{name}\0{len(data)}\0".encode("utf-8"))
        h.update(data)
    return h.hexdigest()


MAX_RECORD = 1 << 28  # 256 MiB: no cache, file list or build record of pnp's is larger


def read_record(path: Path) -> bytes | None:
    """The bytes of one of pnp's own bookkeeping files in an output folder (the build cache,
    the file list, the build record), or None when it is missing, no plain file (a link, a
    pipe) or larger than MAX_RECORD: nothing in output/ is trusted, and such a file only
    costs a full build."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_NOFOLLOW | os.O_CLOEXEC)  # a pipe must not block
    except OSError:
        return None
    try:
        found = os.fstat(fd)
        if not stat.S_ISREG(found.st_mode) or found.st_size > MAX_RECORD:  # a folder opens too: it is no record
            return None
        with os.fdopen(fd, "rb", closefd=False) as handle:
            data = handle.read(MAX_RECORD + 1)  # it may grow while it is read
    except OSError:
        return None
    finally:
        os.close(fd)
    return data if len(data) <= MAX_RECORD else None


def write_atomic(path: Path, data: bytes) -> None:
    """Write `data` to `path` so that a reader never sees a partial file: to a new temporary
    file beside it, then renamed over it (a link at `path` is replaced, never followed)."""
    tmp = stage(path, data)
    try:
        os.replace(tmp, path)
    except BaseException as exc:
        Path(tmp).unlink(missing_ok=True)
        if isinstance(exc, OSError):  # name the file asked for (a folder there?), not the temporary one
            raise named(exc, path) from None
        raise


def unmakeable(folder: Path) -> str | None:
    """Why files could not be written into `folder` (made if missing), found without making
    anything; None when they could. For a command that fails early rather than after long work."""
    found = Path(os.path.abspath(folder))
    while not os.path.lexists(found) and found != found.parent:
        found = found.parent
    if not found.is_dir():
        return os.strerror(errno.ENOTDIR)
    if not os.access(found, os.W_OK | os.X_OK):
        return os.strerror(errno.EACCES)
    return None


def temp_owner(name: str) -> tuple[str, int] | None:
    """The file the temporary file `name` (a name as `stage` makes them) was to become and
    the id of the process that made it, or None for any other name."""
    found = _TEMP_NAME.fullmatch(name)
    return (found[1], int(found[2])) if found else None


def stage(path: Path, data: bytes, folder_made: bool = False) -> str:
    """`data` in a new temporary file beside `path`, its folder made unless `folder_made`:
    the name of that file, for the caller to rename over `path` (`write_atomic`) or to remove."""
    folder, name = os.path.split(path)
    folder = folder or "."
    if not folder_made:
        os.makedirs(folder, exist_ok=True)
    while True:
        tmp = os.path.join(folder, f".{name}.{os.getpid()}-{next(_TEMP)}.tmp")
        try:
            # a new file only (O_EXCL: never one a link names); the umask gives ordinary permissions
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, 0o666)
            break
        except FileExistsError:  # left by a process that had the same id and died
            continue
        except OSError as exc:  # a read-only folder: the file asked for, not the temporary one
            raise named(exc, path) from None
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
    except BaseException as exc:
        Path(tmp).unlink(missing_ok=True)
        if isinstance(exc, OSError):  # a full disk names no file at all
            raise named(exc, path) from None
        raise
    return tmp


def named(exc: OSError, path: Path | str) -> OSError:
    """`exc` naming `path`, the file pnp meant to write (not its temporary file, or none)."""
    exc.filename, exc.filename2 = str(path), None
    return exc

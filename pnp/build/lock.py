"""One build at a time per output folder: an advisory lock on `<out>/.pnp-lock`.

Two builds writing one folder at once (`pnp build --out O & pnp build --out O --paper a4`)
interleave their commits, and the build cache then records the other build's files as its
own. A build holds this lock from reading the cache to its last record, so a second build
waits for the first and then finds the first's files (current or not) as they are.

The lock file is pnp's like its other records there: opened without following a link and
only when it is a plain file; it is removed when released (a build that waits checks that
the file it locked is still the one in place, so removing it is safe). The output folder is
made for the lock and removed again when the build that made it leaves nothing in it.
Where `fcntl` is missing (Windows) there is no lock: builds there are not serialised.
`pnp diff` locks the folder of its page (output/diff/) the same way while it writes there.
"""

from __future__ import annotations

import os
import stat
import sys
import threading
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

from ..errors import PnpError

try:
    import fcntl
except ImportError:  # Windows: no flock, no lock
    fcntl = None  # type: ignore[assignment]

LOCK = ".pnp-lock"
PATIENCE = 0.5  # seconds waited before saying so: a moment's wait is not worth a line

_held = threading.local()  # per thread: folder -> depth (a build inside `pnp build`'s own hold)


@contextmanager
def output_lock(folder: Path, quiet: bool = False, holder: str = "pnp build") -> Iterator[None]:
    """Hold the lock of output folder `folder` (made if missing) while the block runs;
    waiting, with one line on stderr when it takes more than a moment (unless `quiet`),
    while another process or thread holds it. Re-entrant within a thread. `holder`: the
    command the line says is writing the folder (the lock's other holders run the same)."""
    if fcntl is None:
        yield
        return
    key = os.path.realpath(folder)  # the same folder however named: never locked twice by one thread
    depth: dict[str, int] = _held.__dict__.setdefault("depth", {})
    if depth.get(key):
        depth[key] += 1
        try:
            yield
        finally:
            depth[key] -= 1
        return
    made = not os.path.lexists(folder)
    fd = _acquire(Path(folder), quiet, holder)
    depth[key] = 1
    try:
        yield
    finally:
        del depth[key]
        _release(Path(folder), fd, made)


def _acquire(folder: Path, quiet: bool = False, holder: str = "pnp build") -> int:
    path = folder / LOCK
    while True:
        try:
            os.makedirs(folder, exist_ok=True)
            fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC, 0o666)
        except FileNotFoundError:  # the folder went with the build that held the lock: made again
            continue
        except OSError as exc:
            raise PnpError(_refusal(path, exc)) from None
        try:
            if not stat.S_ISREG(os.fstat(fd).st_mode):
                raise PnpError(_refusal(path, None))
            _lock(fd, folder, quiet, holder)
            try:  # the file locked is still the one in place (a build that held it removes it)
                same = os.path.samestat(os.fstat(fd), os.lstat(path))
            except FileNotFoundError:
                same = False
            if same:
                return fd
        except BaseException:
            os.close(fd)
            raise
        os.close(fd)


def _lock(fd: int, folder: Path, quiet: bool = False, holder: str = "pnp build") -> None:
    assert fcntl is not None
    waited = time.monotonic() + PATIENCE
    while True:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return
        except BlockingIOError:
            pass
        if time.monotonic() >= waited:
            break
        time.sleep(0.02)
    if not quiet:
        print(f"waiting for another {holder} of {folder}", file=sys.stderr, flush=True)
    fcntl.flock(fd, fcntl.LOCK_EX)  # Ctrl-C still ends the wait (the handler's exception ends the call)


def _release(folder: Path, fd: int, made: bool) -> None:
    try:
        # while still held: a build waiting on it tries again with a new one; only this build's
        # own file (the folder removed meanwhile, another build's lock may stand in its place)
        if os.path.samestat(os.fstat(fd), os.lstat(folder / LOCK)):
            os.unlink(folder / LOCK)
    except OSError:
        pass
    finally:
        os.close(fd)
    if made:  # a build that failed before writing leaves no folder behind
        try:
            os.rmdir(folder)  # only when empty
        except OSError:
            pass


def _refusal(path: Path, exc: OSError | None) -> str:
    what = _what(path)
    if what is not None:
        return f"{path}: {what}, not pnp's lock file: remove it, or pass --out DIR to build elsewhere"
    return f"{path}: cannot make pnp's lock file: {exc.strerror if exc is not None and exc.strerror else exc}"


def _what(path: Path) -> str | None:
    """What is in the lock file's place when it is no plain file."""
    try:
        mode = os.lstat(path).st_mode
    except OSError:
        return None
    if stat.S_ISLNK(mode):
        return "a link"
    if stat.S_ISDIR(mode):
        return "a folder"
    if not stat.S_ISREG(mode):
        return "no plain file"
    return None

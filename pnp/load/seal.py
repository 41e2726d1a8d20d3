"""Seals on what pnp keeps in places a project's author or anyone else can write (the build
record and the build caches in output/): an HMAC-SHA256 under a secret key of the user's
own, kept outside every project beside the trust file (`$XDG_CONFIG_HOME/pnp/seal.key`,
made 0600 on first use). Nothing in output/ is trusted: bytes whose seal does not verify
(edited, made by another user or machine, shipped with a project) read as nothing, which
costs a full build and nothing else.

When the key cannot be kept (no config folder, a key file of another user or readable by
others) a key of this process alone is used: what it seals is simply never believed later.
"""

from __future__ import annotations

import hashlib
import hmac
import os
import stat
from pathlib import Path

from ..files import read_record, write_atomic
from .trust import trust_file

KEY_FILE = "seal.key"
KEY_BYTES = 32
MAGIC = b"pnp-seal-1 "  # then the seal in hex and a newline, then the sealed bytes
_HEX = 64
_keys: dict[str, bytes] = {}  # key file -> key: read once per process (tests change the config folder)


def key_file() -> Path:
    """Where the key is kept: beside the trust file, in the user's config folder."""
    return trust_file().parent / KEY_FILE


def _key() -> bytes:
    path = key_file()
    found = _keys.get(str(path))
    if found is None:
        found = _keys[str(path)] = _read_key(path) or _make_key(path) or _read_key(path) or os.urandom(KEY_BYTES)
    return found


def _read_key(path: Path) -> bytes | None:
    """The key, when the file is the user's own, a plain file no one else may read."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError:
        return None
    with os.fdopen(fd, "rb") as handle:
        info = os.fstat(handle.fileno())
        if not stat.S_ISREG(info.st_mode) or info.st_uid != os.getuid() or info.st_mode & 0o077 or info.st_size != KEY_BYTES:
            return None
        data = handle.read(KEY_BYTES + 1)
    return data if len(data) == KEY_BYTES else None


def _make_key(path: Path) -> bytes | None:
    """A new key, written whole before it takes the name (two pnp runs starting at once
    keep one key: a link never replaces a file)."""
    key = os.urandom(KEY_BYTES)
    tmp = path.with_name(f".{KEY_FILE}.{os.getpid()}.tmp")
    try:
        path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600)
        with os.fdopen(fd, "wb") as handle:
            handle.write(key)
        os.link(tmp, path)
    except OSError:
        return None
    finally:
        try:
            os.unlink(tmp)
        except OSError:
            pass
    return key


def mac(purpose: str, data: bytes | memoryview) -> str:
    """The seal (hex) of `data` for one use (`purpose`: a seal made for one kind of record
    is no seal of another)."""
    found = hmac.new(_key(), purpose.encode("utf-8") + b"\0", hashlib.sha256)
    found.update(data)  # not joined to the purpose: a record of 256 MiB is not copied to be checked
    return found.hexdigest()


def seal(purpose: str, data: bytes) -> bytes:
    """`data` with its seal in front."""
    return MAGIC + mac(purpose, data).encode("ascii") + b"\n" + data


def unseal(purpose: str, sealed: bytes | None) -> bytes | None:
    """The bytes `seal` sealed for `purpose`; None when there are none or the seal does not
    verify."""
    if sealed is None or not sealed.startswith(MAGIC) or sealed[len(MAGIC) + _HEX:len(MAGIC) + _HEX + 1] != b"\n":
        return None
    given = sealed[len(MAGIC):len(MAGIC) + _HEX]
    start = len(MAGIC) + _HEX + 1
    # checked in place, copied only once it is found to be pnp's own
    return sealed[start:] if hmac.compare_digest(given, mac(purpose, memoryview(sealed)[start:]).encode("ascii")) else None


def read_sealed(path: Path, purpose: str) -> bytes | None:
    """The bytes of a record pnp sealed at `path` (files.read_record: a plain file of
    bounded size); None when missing, not a plain file, too large or not sealed by this user."""
    return unseal(purpose, read_record(path))


def write_sealed(path: Path, purpose: str, data: bytes) -> None:
    """Write a record sealed, so that no reader sees it half-written (files.write_atomic),
    unless the file holds it already (a build that changed nothing writes nothing). A folder
    in its place (not pnp's: nothing in output/ is trusted) keeps the record from being
    written, which costs a full build next time and nothing else."""
    sealed = seal(purpose, data)
    try:
        found: os.stat_result | None = os.lstat(path)
    except OSError:
        found = None
    if found is not None and stat.S_ISDIR(found.st_mode):
        return
    if found is not None and stat.S_ISREG(found.st_mode) and found.st_size == len(sealed) and read_record(path) == sealed:
        return
    write_atomic(path, sealed)

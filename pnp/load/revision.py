"""A project's files as they were at a git revision, for `pnp diff --since` and `pnp simulate
--against`: read from the repository's objects into a folder, never checked out over the user's.

A project may arrive with its `.git` folder, and a repository's config can name commands
(filter drivers, textconv, core.fsmonitor, hooks, a pager, the gpg that checks signatures,
the transport of a lazy fetch). So git runs here with those switched off (`_SAFE`, `_ENV`),
and a revision's files are read raw: their modes and sizes (`git ls-tree`), then their bytes
(`git cat-file --batch`: no filter, no textconv), checked against `REVISION` limits before
any is read and written, a piece at a time, as plain files inside the folder given. A link
or a submodule in the revision is refused: it is no file the project holds.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path
from typing import IO, Iterator

from ..errors import PnpError, display_path
from ..limits import REVISION

# config that could run a command, overridden on git's command line (which wins over every
# config file): the fsmonitor hook, hooks, pagers, gpg for `log.showSignature`
_SAFE = ("-c", "core.fsmonitor=false", "-c", "core.hooksPath=/dev/null", "-c", "core.pager=cat",
         "-c", "log.showSignature=false", "--no-pager", "--literal-pathspecs")
# no transport (a partial clone would fetch a missing object through one, maybe `ext::`
# or ssh with the repository's `core.sshCommand`), no prompt, no pager, no index refresh
_ENV = {"GIT_ALLOW_PROTOCOL": "none", "GIT_TERMINAL_PROMPT": "0", "GIT_PAGER": "cat", "PAGER": "cat", "GIT_OPTIONAL_LOCKS": "0"}
_TIMEOUT = 30  # seconds for one git query: a config including a pipe must not hang pnp
_CHUNK = 1 << 20
_ENTRY = re.compile(rb"(\d{6}) (\w+) ([0-9a-f]+) +(-|\d+)\t(.+)", re.DOTALL)  # git ls-tree -l


class NoRevision(Exception):
    """git is missing, the project is in no repository, or the revision is no commit of it."""


class NoAnswer(NoRevision):
    """git gave no answer in time (a config file including a pipe, say)."""


def _command(root: Path, *args: str) -> list[str]:
    return ["git", *_SAFE, "-C", str(root), *args]


def _env() -> dict[str, str]:
    return {**os.environ, **_ENV}


def git(root: Path, *args: str) -> str:
    """git's output; NoRevision with git's last line of complaint when it fails."""
    return _run(root, *args).decode("utf-8", "replace")


def _run(root: Path, *args: str) -> bytes:
    try:
        done = subprocess.run(_command(root, *args), capture_output=True, check=True, stdin=subprocess.DEVNULL, env=_env(), timeout=_TIMEOUT)
    except subprocess.CalledProcessError as exc:
        message = exc.stderr.decode("utf-8", "replace").strip().splitlines()
        raise NoRevision(f"git {' '.join(args)}: {message[-1] if message else 'failed'}") from None
    except subprocess.TimeoutExpired:
        raise NoAnswer(f"git {' '.join(args)}: no answer within {_TIMEOUT} s") from None
    return done.stdout


def export(root: Path, rev: str, parts: list[str], into: Path) -> tuple[Path, str]:
    """Write the `parts` (paths in the project folder `root`) that exist at `rev` into the
    folder `into`: the project's folder there and the commit in words (`abc1234 subject`)."""
    if shutil.which("git") is None:
        raise NoRevision("git was not found")
    try:
        commit = git(root, "rev-parse", "--verify", "--quiet", "--end-of-options", f"{rev}^{{commit}}").strip()
    except NoAnswer:
        raise
    except NoRevision:
        raise NoRevision(f"no such commit (or {display_path(root)} is not in a git repository)") from None
    prefix = git(root, "rev-parse", "--show-prefix").strip()  # the project's folder in the repository
    if prefix and not _relative(prefix.rstrip("/").encode()):
        raise NoRevision(f"git rev-parse --show-prefix: {prefix!r} is no folder of the repository")
    entries = _listing(root, rev, commit, [prefix + p for p in parts])
    if entries:
        _write(root, rev, entries, into)
    return into / prefix, git(root, "log", "-1", "--no-show-signature", "--format=%h %s", commit, "--").strip()


def _relative(path: bytes) -> str | None:
    """`path` (a name git listed) when it is a plain relative path, else None."""
    name = os.fsdecode(path)
    pieces = name.split("/")
    return name if all(p not in {"", ".", ".."} for p in pieces) and "\0" not in name else None


def _listing(root: Path, rev: str, commit: str, paths: list[str]) -> list[tuple[str, str, int]]:
    """The files below `paths` at `commit`: (path in the repository, blob, size), each within
    the limits (a PnpError naming `rev` and the path when not), none a link or a submodule."""
    limits = REVISION.values()
    found: list[tuple[str, str, int]] = []
    total = 0
    with subprocess.Popen(_command(root, "ls-tree", "-r", "-l", "-z", "--full-tree", commit, "--", *paths),
                          stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=_env()) as child:
        try:
            assert child.stdout is not None
            for record in _records(child.stdout):
                entry = _ENTRY.fullmatch(record)
                name = _relative(entry.group(5)) if entry else None
                if entry is None or name is None:
                    raise NoRevision(f"git ls-tree {commit}: unexpected entry {record[:200]!r}")
                mode, kind, blob, size = entry.group(1).decode(), entry.group(2), entry.group(3).decode(), entry.group(4)
                if mode == "120000" or kind != b"blob":
                    what = "a link" if mode == "120000" else "a submodule" if kind == b"commit" else f"a {kind.decode()}"
                    raise PnpError(f"{rev}:{name}: {what} in that revision: pnp reads only plain files from a revision "
                                   "(what a link leads to is no file of the project), so it cannot compare with this one")
                total += int(size)
                for key, amount, what in (("files", len(found) + 1, "files"), ("file", int(size), "bytes"), ("total", total, "bytes in all")):
                    if amount > limits[key]:
                        raise PnpError(f"{rev}:{name}: {amount:,} {what}, more than {limits[key]:,}: {REVISION.hint(key)}")
                found.append((name, blob, int(size)))
        finally:
            child.kill()
    if child.returncode not in (0, -9):
        raise NoRevision(f"git ls-tree {commit}: failed")
    return found


def _records(stream: IO[bytes]) -> Iterator[bytes]:
    """The NUL-terminated records of a stream, read a piece at a time."""
    rest = b""
    while chunk := stream.read(1 << 16):
        *records, rest = (rest + chunk).split(b"\0")
        yield from records
        if len(rest) > 1 << 16:  # no path is that long
            raise NoRevision(f"git ls-tree: an entry of more than {1 << 16} bytes")
    if rest:
        yield rest


def _write(root: Path, rev: str, entries: list[tuple[str, str, int]], into: Path) -> None:
    """Copy each blob into `into` at its path, as a new plain file, never through a link."""
    with subprocess.Popen(_command(root, "cat-file", "--batch"), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                          stderr=subprocess.DEVNULL, env=_env()) as child:
        assert child.stdin is not None and child.stdout is not None
        try:
            for name, blob, size in entries:
                child.stdin.write(blob.encode() + b"\n")
                child.stdin.flush()
                header = child.stdout.readline(200).split()
                if header[1:] != [b"blob", str(size).encode()]:
                    raise NoRevision(f"git cat-file {blob} ({name}): {b' '.join(header).decode('utf-8', 'replace')}")
                target = into / name
                try:
                    target.parent.mkdir(parents=True, exist_ok=True)
                    out = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), 0o644)
                except OSError as exc:
                    raise PnpError(f"{rev}:{name}: cannot be written into {display_path(into)} ({exc.strerror})") from None
                with os.fdopen(out, "wb") as handle:
                    left = size
                    while left:
                        chunk = child.stdout.read(min(left, _CHUNK))
                        if not chunk:
                            raise NoRevision(f"git cat-file {blob} ({name}): cut short")
                        handle.write(chunk)
                        left -= len(chunk)
                child.stdout.read(1)  # the newline after each object
        except BrokenPipeError:
            raise NoRevision("git cat-file: stopped early") from None
        finally:
            child.kill()

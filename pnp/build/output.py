"""Write generated files safely: each file goes to a temporary name and is renamed into
place, unchanged files are not rewritten, and files a previous build made that this build
no longer makes are removed (tracked in a small manifest with each file's digest, so user
files are never touched: an entry is removed only while it is a regular file inside the
output folder holding exactly what pnp wrote there). The manifest is sealed like the build
record (pnp/load/seal.py): one pnp did not seal itself lists nothing, and removes nothing."""

from __future__ import annotations

import hashlib
import json
import os
import stat
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import Iterable

from ..errors import PnpError
from ..files import named, stage, temp_owner, write_atomic
from ..load.seal import read_sealed, write_sealed

MANIFEST = ".pnp-files.json"
CACHE_FILE = ".pnp-cache.json"  # pnp/build/cache.py's record of what is made
TYPESET = ".pnp-typeset"  # pnp/build/cache.py's typeset documents of the game's book


@dataclass
class Committed:
    """What `commit_files` did, as paths relative to the root."""

    written: list[str] = field(default_factory=list)
    unchanged: list[str] = field(default_factory=list)  # bytes identical or kept as current
    removed: list[str] = field(default_factory=list)


def write_if_changed(path: Path, data: bytes) -> bool:
    """Write `data` unless `path` already holds exactly it; True when written (a link at
    `path` holds nothing: it is replaced by a plain file, whatever it leads to)."""
    try:
        found = os.lstat(path)
    except OSError:
        found = None
    return _write_if_changed(path, found, data)


def _write_if_changed(path: Path, found: os.stat_result | None, data: bytes) -> bool:
    """`write_if_changed`, the file's status (None: no file) known already."""
    if _holds(path, found, data):
        return False
    write_atomic(path, data)
    return True


def _holds(path: Path, found: os.stat_result | None, data: bytes) -> bool:
    try:
        return found is not None and stat.S_ISREG(found.st_mode) and found.st_size == len(data) and path.read_bytes() == data
    except OSError:
        return False


def _digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


class Inside:
    """Paths in one output folder, checked, never trusted: a relative path is let through when
    it is plain (not absolute, no '..'), each folder on its way below the root is a real
    folder or not made yet (no link, even one that stays inside: pnp writes only through
    real folders; checked once a folder) and the file itself is no link."""

    def __init__(self, root: Path):
        self.root = root
        self._folders: dict[tuple[str, ...], bool] = {}

    def status(self, rel: str) -> tuple[Path, os.stat_result | None] | None:
        """`root / rel` and its status (None: there is no such file), or None when `rel` may
        not be written or removed."""
        parts = PurePosixPath(rel).parts
        if not rel or not parts or rel.startswith(("/", "\\")) or ".." in parts or "\\" in rel or "\0" in rel:
            return None
        folder = parts[:-1]
        if folder not in self._folders:
            self._folders[folder] = _real_folders(self.root, folder)
        if not self._folders[folder]:
            return None
        path = self.root.joinpath(*parts)
        try:
            found: os.stat_result | None = os.lstat(path)
        except OSError:
            found = None
        if found is not None and stat.S_ISLNK(found.st_mode):
            return None
        return path, found

    def __call__(self, rel: str) -> Path | None:
        """`root / rel` when `rel` may be written or removed, else None."""
        checked = self.status(rel)
        return checked[0] if checked else None


def _real_folders(root: Path, folder: tuple[str, ...]) -> bool:
    """Whether each step of `folder` below `root` is a real folder (no link, no file), up to
    the first not made yet (pnp makes it and those below it)."""
    path = root
    for step in folder:
        path = path / step
        try:
            mode = os.lstat(path).st_mode
        except FileNotFoundError:
            return True
        except OSError:
            return False
        if not stat.S_ISDIR(mode):
            return False
    return True


class Staged:
    """Files of one output folder written ahead of their commit, each to a temporary name
    beside its place: making a file is most of what writing one costs (a millisecond and
    more on a busy disk), so a game's SVGs are written while its PDFs are still being made,
    and `commit_files` only renames them. `discard()` removes what a failed build staged,
    and the folders staging made."""

    def __init__(self, root: Path):
        self.root = root
        self.inside = Inside(root)
        self.temps: dict[str, str] = {}  # relative path -> its temporary file
        self._made: list[str] = []  # folders staging created, outermost first
        self._ready: set[Path] = set()  # folders that exist

    def add(self, rel: str, data: bytes) -> None:
        """Stage `data` for `rel` (a path `commit_files` would refuse, or a file holding
        `data` already, is left to it)."""
        checked = self.inside.status(rel)
        if checked is None or _holds(*checked, data):
            return
        folder = checked[0].parent
        if folder not in self._ready:
            new, above = [], folder
            while not above.is_dir() and above != above.parent:
                new.append(str(above))
                above = above.parent
            self._made += reversed(new)
            os.makedirs(folder, exist_ok=True)
            self._ready.add(folder)
        self.temps[rel] = stage(checked[0], data, folder_made=True)

    def discard(self) -> None:
        discard_staged([self])


def discard_staged(staged: Iterable[Staged]) -> None:
    """Remove what builds staged and did not commit: every temporary file, then every folder
    staging made that is empty, the deepest first (one game's staging may have made the
    output folder the others' went into)."""
    staged = list(staged)
    for one in staged:
        for tmp in one.temps.values():
            Path(tmp).unlink(missing_ok=True)
        one.temps.clear()
    for folder in sorted({f for one in staged for f in one._made}, key=lambda f: (-f.count(os.sep), f)):
        try:
            os.rmdir(folder)  # only when empty
        except OSError:
            pass
    for one in staged:
        one._made.clear()


def _previous(root: Path, inside: Inside) -> dict[str, str]:
    """The files the previous build wrote, with the digest of each (a list pnp did not seal,
    its old form, names without digests, names no file pnp can vouch for: none of them is
    ever removed)."""
    try:
        files = json.loads(read_sealed(root / MANIFEST, MANIFEST) or b"")
    except (OSError, ValueError, TypeError):
        return {}
    if not isinstance(files, dict):
        return {}
    return {rel: sha for rel, sha in files.items() if isinstance(rel, str) and isinstance(sha, str) and inside(rel) is not None}


def _unchanged_since(path: Path, sha: str) -> bool:
    """Whether `path` is a regular file holding what pnp wrote there (its recorded digest)."""
    try:
        if not stat.S_ISREG(os.lstat(path).st_mode):
            return False
        with open(path, "rb") as handle:
            return _digest(handle.read()) == sha
    except OSError:
        return False


def commit_files(root: Path, files: dict[str, bytes], scope: tuple[str, ...] = ("",), current: Iterable[str] = (),
                 staged: Staged | None = None) -> Committed:
    """Write `files` (relative path -> bytes) under `root`.

    `current` names files this build also makes but already knows to be up to date on
    disk (the build cache vouched for them): they are neither read nor written. Files of
    earlier builds under the `scope` prefixes (e.g. ``("svg/", "pdf/")`` for the formats
    built now) that this build did not make are removed when they still hold what pnp
    wrote; others are kept. Nothing is written or removed outside `root`, or through a link.
    A file in `staged` is renamed into place."""
    done = Committed(unchanged=sorted(current))
    inside = Inside(root)
    check_files(root, files, staged, inside)  # all of them before the first rename: a refusal leaves nothing written
    previous = _previous(root, inside)
    digests: dict[str, str] = {}
    for rel in sorted(files):
        if staged is not None and rel in staged.temps:  # checked as it was staged; a rename replaces a link, never follows it
            try:
                os.replace(staged.temps.pop(rel), root / rel)
            except OSError as exc:  # name the file, not its temporary one
                raise named(exc, root / rel) from None
            done.written.append(rel)
        else:
            checked = inside.status(rel)
            if checked is None:
                raise PnpError(_refusal(root, rel))
            (done.written if _write_if_changed(*checked, files[rel]) else done.unchanged).append(rel)
        digests[rel] = _digest(files[rel])
    for rel in done.unchanged:
        if rel not in digests:
            sha = previous.get(rel)
            kept = inside(rel)
            if sha is None and kept is not None and kept.is_file():
                sha = _digest(kept.read_bytes())
            if sha is not None:
                digests[rel] = sha
    made = set(files) | set(done.unchanged)
    for rel in sorted(set(previous) - made):
        if not rel.startswith(scope):
            digests[rel] = previous[rel]
            continue
        stale = inside(rel)
        if stale is not None and _unchanged_since(stale, previous[rel]):
            stale.unlink()
            done.removed.append(rel)
            _prune_empty_dirs(stale.parent, root)
    write_sealed(root / MANIFEST, MANIFEST, (json.dumps(dict(sorted(digests.items())), indent=0) + "\n").encode("utf-8"))
    remove_leftover_temps(inside, made | set(previous) | {MANIFEST, CACHE_FILE})
    if staged is not None:
        staged.discard()  # nothing is left of it but the folders it made, which hold files now
    return done


def check_files(root: Path, files: dict[str, bytes], staged: Staged | None = None, inside: Inside | None = None) -> None:
    """A PnpError when one of `files` (those not staged) may not be written under `root`
    (see `Inside`): checked for every game of a build before any of them is committed."""
    inside = inside or Inside(root)
    for rel in sorted(files):
        if (staged is None or rel not in staged.temps) and inside.status(rel) is None:
            raise PnpError(_refusal(root, rel))


def _refusal(root: Path, rel: str) -> str:
    return (f"{root}: output file {rel!r} would leave the output folder (through '..' or a link), or is or goes through a "
            "link or file in it (pnp writes only plain files, through real folders): nothing written there")


def remove_leftover_temps(inside: Inside, files: set[str]) -> None:
    """Remove the temporary files that a build killed before its renames left (a SIGKILL, a
    power cut) beside `files` (relative to the output folder: those pnp makes or made
    there): only regular files named exactly as `files.stage` names a temporary file of one
    of `files`, inside the output folder, whose process is gone, so that a build running
    beside this one keeps its own, and a file of the user's that only looks like one (an
    `--out` folder may hold anything) stays."""
    for folder in sorted({os.path.dirname(rel) for rel in files}):
        try:
            names = sorted(entry.name for entry in os.scandir(inside.root / folder) if entry.name.endswith(".tmp"))
        except OSError:  # not there (or not a folder): nothing left in it
            continue
        for name in names:
            owner = temp_owner(name)
            if owner is None or os.path.join(folder, owner[0]) not in files:
                continue
            checked = inside.status(os.path.join(folder, name))
            if checked is None:
                continue
            path, found = checked
            if found is not None and stat.S_ISREG(found.st_mode) and not _running(owner[1]):
                path.unlink(missing_ok=True)


def _running(pid: int) -> bool:
    """Whether process `pid` may still be running (when unsure: yes)."""
    if pid == os.getpid() or os.name == "nt":  # Windows has no signal 0: os.kill would end the process
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (OSError, OverflowError):  # another user's process; an id too large for this system is no build's: kept
        return True
    return True


def _prune_empty_dirs(folder: Path, root: Path) -> None:
    base = Path(os.path.realpath(root))
    while (folder != root and not folder.is_symlink() and folder.is_dir() and Path(os.path.realpath(folder)).is_relative_to(base)
           and Path(os.path.realpath(folder)) != base and not any(folder.iterdir())):
        folder.rmdir()
        folder = folder.parent

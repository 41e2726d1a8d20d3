"""Write generated files safely: each file goes to a temporary name and is renamed into
place, unchanged files are not rewritten, and files a previous build made that this build
no longer makes are removed (tracked in a small manifest, so user files are never touched)."""

from __future__ import annotations

import json
import os
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable

MANIFEST = ".pnp-files.json"
_UMASK = os.umask(0o022)
os.umask(_UMASK)  # read the process umask once: generated files get ordinary permissions


@dataclass
class Committed:
    """What `commit_files` did, as paths relative to the root."""

    written: list[str] = field(default_factory=list)
    unchanged: list[str] = field(default_factory=list)  # bytes identical or kept as current
    removed: list[str] = field(default_factory=list)


def write_atomic(path: Path, data: bytes) -> None:
    """Write `data` to `path` so that a reader never sees a partial file."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        os.chmod(tmp, 0o666 & ~_UMASK)  # mkstemp makes files private (0600)
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def write_if_changed(path: Path, data: bytes) -> bool:
    """Write `data` unless `path` already holds exactly it; True when written."""
    try:
        if path.is_file() and path.stat().st_size == len(data) and path.read_bytes() == data:
            return False
    except OSError:
        pass
    write_atomic(path, data)
    return True


def _previous(root: Path) -> list[str]:
    try:
        files = json.loads((root / MANIFEST).read_text(encoding="utf-8"))
        return [f for f in files if isinstance(f, str)]
    except (OSError, ValueError, TypeError):
        return []


def commit_files(root: Path, files: dict[str, bytes], scope: tuple[str, ...] = ("",), current: Iterable[str] = ()) -> Committed:
    """Write `files` (relative path -> bytes) under `root`.

    `current` names files this build also makes but already knows to be up to date on
    disk (the build cache vouched for them): they are neither read nor written. Files of
    earlier builds under the `scope` prefixes (e.g. ``("svg/", "pdf/")`` for the formats
    built now) that this build did not make are removed; others are kept."""
    done = Committed(unchanged=sorted(current))
    for rel in sorted(files):
        (done.written if write_if_changed(root / rel, files[rel]) else done.unchanged).append(rel)
    made = set(files) | set(done.unchanged)
    kept = set(made)
    for rel in sorted(set(_previous(root)) - made):
        if not rel.startswith(scope):
            kept.add(rel)
            continue
        stale = root / rel
        if stale.is_file():
            stale.unlink()
            done.removed.append(rel)
            _prune_empty_dirs(stale.parent, root)
    write_if_changed(root / MANIFEST, (json.dumps(sorted(kept), indent=0) + "\n").encode("utf-8"))
    return done


def _prune_empty_dirs(folder: Path, root: Path) -> None:
    while folder != root and folder.is_dir() and not any(folder.iterdir()):
        folder.rmdir()
        folder = folder.parent

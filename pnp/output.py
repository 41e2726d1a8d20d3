"""Write generated files safely: each file goes to a temporary name and is renamed into
place, unchanged files are not rewritten, and files a previous build made that this build
no longer makes are removed (tracked in a small manifest, so user files are never touched)."""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path

MANIFEST = ".pnp-files.json"


def write_atomic(path: Path, data: bytes) -> None:
    """Write `data` to `path` so that a reader never sees a partial file."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def _previous(root: Path) -> list[str]:
    try:
        files = json.loads((root / MANIFEST).read_text(encoding="utf-8"))
        return [f for f in files if isinstance(f, str)]
    except (OSError, ValueError):
        return []


def commit(root: Path, files: dict[str, bytes], scope: tuple[str, ...] = ("",)) -> tuple[int, int]:
    """Write `files` (relative path -> bytes) under `root`; return (written, unchanged).

    Files of earlier builds under the `scope` prefixes (e.g. ``("svg/", "pdf/")`` for the
    formats built now) that this build did not make are removed; others are kept."""
    written = unchanged = 0
    for rel in sorted(files):
        path = root / rel
        data = files[rel]
        try:
            if path.is_file() and path.stat().st_size == len(data) and path.read_bytes() == data:
                unchanged += 1
                continue
        except OSError:
            pass
        write_atomic(path, data)
        written += 1
    kept = set(files)
    for rel in sorted(set(_previous(root)) - set(files)):
        if not rel.startswith(scope):
            kept.add(rel)
            continue
        stale = root / rel
        if stale.is_file():
            stale.unlink()
            _prune_empty_dirs(stale.parent, root)
    write_atomic(root / MANIFEST, (json.dumps(sorted(kept), indent=0) + "\n").encode("utf-8"))
    return written, unchanged


def _prune_empty_dirs(folder: Path, root: Path) -> None:
    while folder != root and folder.is_dir() and not any(folder.iterdir()):
        folder.rmdir()
        folder = folder.parent

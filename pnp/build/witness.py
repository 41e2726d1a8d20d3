"""The whole-build level of the build cache (pnp/build/cache.py states the rule in full):
what a `pnp build` read, and the answer to a build for which none of it changed.

The door to a project's files (pnp/load/project_files.py) notes every path it lets
through while a build runs, found or not; the build's plugin code and the user's trust
file are added. After a command-line build that succeeded, its output folder keeps
`.pnp-build.json`: for the command (working folder, arguments, the `PNP_*` environment,
Python) the digest of pnp's own code and of each of those paths and of every folder that
leads to them from the project folder (a file's bytes, a folder's entry names, or that it
is missing), split by game: what lies under a game's own `content/<game>/` and
`templates/<game>/` is that game's, with the size and modification time of every file it
left in `output/<game>/`, its report line and its warnings; the rest (pnp.yaml, assets/, plugins/, the
folders above) every game's. When the same command runs again and nothing of all that
changed, it prints the last report (warnings too) and writes nothing; when only some games' own files
changed, only those games are built. This module imports nothing heavier than the
standard library, so that answer costs a fraction of a second.
"""

from __future__ import annotations

import hashlib
import json
import os
import stat
import sys
from dataclasses import dataclass, field
from functools import lru_cache
import importlib.util
from pathlib import Path
from typing import Callable, Iterable

from .. import __version__
from ..files import tree_digest
from ..load.seal import read_sealed, write_sealed

RECORD = ".pnp-build.json"
FORMAT = 1
KEEP = 16  # commands remembered per output folder
MAX_READ = 64 << 20  # bytes of a file read for its digest; a larger one counts by size and times
PACKAGE_DIR = Path(__file__).resolve().parent.parent
OUTPUT_LIBRARIES = ("jinja2", "typst", "pikepdf", "resvg_py", "fontTools")  # an upgrade may change the bytes they make


def _digest(*parts: bytes | str) -> str:
    h = hashlib.sha256()
    for part in parts:
        h.update(part if isinstance(part, bytes) else part.encode("utf-8", "surrogateescape"))
        h.update(b"\0")
    return h.hexdigest()[:32]


@lru_cache(maxsize=1)
def own_code() -> str:
    """pnp's version, every file of its package (code, templates, presets, fonts) and the
    output libraries as installed: the same for every game of a build (and for the code a
    running `pnp watch` has loaded)."""
    found = []
    for folder, subfolders, names in os.walk(PACKAGE_DIR):
        subfolders[:] = [name for name in subfolders if name != "__pycache__"]
        found += [os.path.join(folder, name) for name in names if not name.endswith(".pyc")]
    files = [Path(name) for name in sorted(found)]
    return _digest(__version__, *map(_installed, OUTPUT_LIBRARIES), tree_digest(files, PACKAGE_DIR))


def _installed(name: str) -> str:
    """A library as installed: where, and the size and time of each file at its top (an
    upgrade or a reinstall writes them anew). Found without importing it (typst loaded
    here would keep the PDF workers from forking) and without reading package metadata,
    which would cost every build and no-op answer some 40 ms."""
    spec = importlib.util.find_spec(name)
    if spec is None or spec.origin is None:
        return f"{name} -"
    folders = list(spec.submodule_search_locations or ())
    found = []
    for path in sorted(e.path for folder in folders for e in os.scandir(folder) if e.is_file()) if folders else [spec.origin]:
        info = os.stat(path)
        found.append(f"{os.path.basename(path)} {info.st_size} {info.st_mtime_ns}")
    return f"{name} {spec.origin} " + " ".join(found)


def _key(command: Iterable[str]) -> str:
    env = sorted(f"{k}={v}" for k, v in os.environ.items() if k.startswith("PNP"))
    return _digest(json.dumps([os.getcwd(), list(command), env, sys.version]))


def _state(path: str, made: str | None = None) -> str:
    """A file's bytes, a folder's entry names, or missing: as one digest. Only a plain file
    is opened (a pipe or a device the loader skipped must not block or fill the memory),
    and one over MAX_READ only by its size and times (the status change time no one sets).
    `made`: an entry of the folder left out (the output folder a build makes in it)."""
    try:
        found = os.stat(path)
        if stat.S_ISDIR(found.st_mode):
            return "d" + _digest(*sorted(name for name in os.listdir(path) if name != made))
        if not stat.S_ISREG(found.st_mode):
            return f"o{stat.S_IFMT(found.st_mode)}"
        if found.st_size > MAX_READ:
            return f"b{found.st_size}:{found.st_mtime_ns}:{found.st_ctime_ns}:{found.st_ino}"
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)  # it may have become a pipe since
        try:
            if not stat.S_ISREG(os.fstat(fd).st_mode):
                return "o"
            return "f" + _digest(os.read(fd, found.st_size + 1))  # one byte more: grown since, it differs
        finally:
            os.close(fd)
    except OSError:
        return "-"


def _paths(root: Path, read: Iterable[Path]) -> list[str]:
    """The paths read, and every folder between the project folder and each of them (a
    new entry there may be found by a later build: a game, a data file, a picture)."""
    found = {str(root)}
    for path in read:
        found.add(str(path))
        if path.is_relative_to(root):
            found.update(str(parent) for parent in path.parents if parent.is_relative_to(root))
    return sorted(found)


def _outputs(folder: Path) -> dict[str, list[int]]:
    """Size and modification time of every file under an output folder (a link's own: one
    to nothing, put there by hand, is a stray entry like any other)."""
    found = {}
    top = len(os.path.join(os.fspath(folder), ""))  # os.walk names each folder under `folder` as it was given
    for here, dirs, files in os.walk(folder):
        dirs.sort()
        under = here[top:]  # relative to `folder`: os.path.relpath costs 10 us a file, for a few hundred files
        for name in sorted(files):
            st = os.lstat(os.path.join(here, name))
            found[os.path.join(under, name) if under else name] = [st.st_size, st.st_mtime_ns]
    return found


def _load(out: Path) -> dict:
    try:
        data = json.loads(read_sealed(out / RECORD, RECORD) or b"")
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) and data.get("format") == FORMAT and isinstance(data.get("builds"), dict) else {}


@dataclass
class Known:
    """What the record of a command says now: its games in order, and the report line of
    each game none of whose inputs or outputs changed (those need no build), with its warnings."""

    games: list[str]
    lines: dict[str, str]
    warned: dict[str, list[str]] = field(default_factory=dict)

    @property
    def unchanged(self) -> bool:
        return len(self.lines) == len(self.games)


def _same(states: dict) -> bool:
    return all(_state(path) == state for path, state in states.items())


def answer(out: Path, command: list[str]) -> Known | None:
    """What is known of the last build of `command` into `out` (see Known); None when
    there is none, or something every game read changed (pnp's code, pnp.yaml, a shared
    folder, a plugin): then every game must be built."""
    entry = _load(out).get("builds", {}).get(_key(command))
    try:
        if not entry or entry["code"] != own_code() or not _same(entry["shared"]):
            return None
        games = entry["games"]
        lines = {game: str(games[game]["line"]) for game in entry["order"]
                 if _same(games[game]["read"]) and _outputs(out / game) == games[game]["outputs"]}
        warned = {game: [str(w) for w in games[game].get("warnings", [])] for game in lines}
        return Known([str(game) for game in entry["order"]], lines, warned)
    except (KeyError, TypeError, AttributeError, OSError):
        return None


def owner(path: str, root: Path, games: list[str]) -> str | None:
    """The game whose own folders (content/<game>/, templates/<game>/) hold `path`; None
    for what every game may read (pnp.yaml, assets/, plugins/, the folders above). A game
    reads nothing of another's folders: data files name no '..' and template names are
    relative to the game's own folder (pnp/load/project_files.py)."""
    parts = Path(path).relative_to(root).parts if Path(path).is_relative_to(root) else ()
    if len(parts) >= 2 and parts[0] in ("content", "templates") and parts[1] in games:
        return parts[1]
    return None


def noting(root: Path, out: Path) -> tuple[dict[str, str], Callable[[Path], None]]:
    """The states of what a build reads, each taken the first time the door lets it through
    (before it is read), with every folder between it and the project folder `root`; and the
    door's callback that takes them (pnp.load.project_files.witnessed). The output folder
    `out`, which the build makes, is left out of its folder's entries (`_noted_state`)."""
    states: dict[str, str] = {}

    def first(path: Path) -> None:
        for seen in [path, *(parent for parent in path.parents if parent.is_relative_to(root))]:
            if str(seen) not in states:
                states[str(seen)] = _noted_state(str(seen), out)
    return states, first


def _noted_state(path: str, out: Path) -> str:
    return _state(path, out.name if path == str(out.parent) else None)


def record(out: Path, command: list[str], root: Path, read: Iterable[Path], lines: dict[str, str], started_ns: int,
           noted: dict[str, str] | None = None, made: dict[str, Iterable[str]] | None = None,
           warned: dict[str, list[str]] | None = None) -> bool:
    """Remember a successful build of `command`: for each game built (the keys of `lines`,
    in order), what it read under its own folders, what it left in `out/<game>` and the
    line and warnings (`warned`) a no-op answer prints; what every game read (under `root` and beyond: plugin
    code, the trust file) apart. Games the record knew and this build skipped keep their
    entries (answer() found them unchanged). Nothing is written when the record is
    already there, or when something read changed while the build ran (the build may
    have read either version): its state now is not the one `noted` when the build first
    reached it (`noting`: a file moved in with an older time, a folder's entries), or a file
    was modified since the build started; nor when a file the build made for a game (`made`:
    relative to `out/<game>`) is gone already. True when written."""
    paths = _paths(root, read)
    noted = noted or {}
    now = {path: _state(path) for path in paths}
    for path in paths:
        if path in noted and noted[path] != (_noted_state(path, out) if path == str(out.parent) else now[path]):
            return False
        try:  # and a file saved while it ran, even back as it was (its time says so)
            if os.stat(path).st_mtime_ns >= started_ns and not os.path.isdir(path):
                return False
        except OSError:
            continue
    outputs = {game: _outputs(out / game) for game in lines}
    if any(rel not in outputs[game] for game, rels in (made or {}).items() if game in outputs for rel in rels):
        return False  # removed while the build ran: the next build makes it again
    old = _load(out)
    builds = dict(old.get("builds", {}))
    key = _key(command)
    previous = builds.get(key) or {}
    built = list(lines)
    owners = {p: owner(p, root, built) for p in paths}  # once a path: pathlib's relative_to is not cheap
    shared = {p for p in paths if owners[p] is None}
    games: dict[str, dict] = {}
    order = built
    if previous and set(built) < set(previous.get("order", [])):  # the games that changed, of a build answer() knew
        order = list(previous["order"])
        games = {game: entry for game, entry in previous.get("games", {}).items() if game not in built}
        shared |= set(previous.get("shared", {}))
    for game in built:
        games[game] = {"read": {p: now[p] for p in paths if owners[p] == game},
                       "outputs": outputs[game], "line": lines[game], "warnings": (warned or {}).get(game, [])}
    entry = {"code": own_code(), "shared": {p: now.get(p) or _state(p) for p in sorted(shared)}, "order": order,
             "games": {g: games[g] for g in order if g in games}}
    if builds.get(key) == entry:
        return False
    builds.pop(key, None)
    builds[key] = entry
    try:
        write_sealed(out / RECORD, RECORD, json.dumps({"format": FORMAT, "builds": dict(list(builds.items())[-KEEP:])}).encode("utf-8"))
    except OSError:
        return False
    return True

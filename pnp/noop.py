"""The console-script entry point, and the no-op answer of `pnp build`.

A `pnp build` that succeeded leaves a stamp in its output folder (`.pnp-stamp.json`):
for the exact command line (and working folder), a digest of every file of the project
folder (bytes; hidden folders, `__pycache__` and the output folder aside) and of the
`PNP_*` environment, the size and modification time of every Python module the build
ran (pnp, the game plugins, the libraries, the standard library) and of pnp's own
files, and the size and modification time of every file the build left under each
game's output folder. When the same command runs again and all of that is unchanged,
nothing can differ: the command prints what the last build reported and exits, before
Typer, Jinja2, pydantic or any game's code is imported. Anything else (another option,
`--force`, a stamp that is missing or unreadable) runs the full build, whose own cache
(pnp/build/cache.py) still skips unchanged faces and files.
"""

from __future__ import annotations

import gc
import hashlib
import json
import os
import sys
from pathlib import Path

STAMP = ".pnp-stamp.json"
STAMP_FORMAT = 1
KEEP = 16  # command lines remembered per output folder
# a project folder larger than this is not stamped (hashing it would cost more than it saves)
MAX_FILES, MAX_BYTES = 20_000, 256 * 1024 * 1024
PACKAGE_DIR = Path(__file__).resolve().parent
GC_EVERY = 100_000  # new container objects between two collections of the youngest generation
COMMAND: list[str] | None = None  # the command line, when this process started from main()

# `pnp build` options taking a value; any other option (--force, --help, ...) means no quick answer
_VALUED = {"--out", "--project", "-p", "--format", "-f", "--paper", "--bleed", "--players", "--set", "--dpi", "--layout", "--back-offset"}
_FLAGS = {"--pack", "--no-pack", "--cut-file", "--no-cut-file"}
_QUIET = {"--quiet", "-q"}


def main() -> None:
    """Console-script entry point: a no-op `pnp build` answered from its stamp, else the CLI."""
    global COMMAND
    COMMAND = sys.argv[1:]
    # pydantic looks for plugins in the entry points of every installed package when it
    # makes its first model: 40 ms of each start, for content models no plugin should
    # watch. PYDANTIC_DISABLE_PLUGINS set to anything (empty too) keeps pydantic's own way.
    os.environ.setdefault("PYDANTIC_DISABLE_PLUGINS", "__all__")
    # A build makes far more objects (content models, template code, faces) than cycles to
    # free: the collector's default pace (every 700 new objects) costs about 2% of a build.
    gc.set_threshold(GC_EVERY, 50, 100)
    try:
        if not answered(COMMAND):
            from .cli import main as cli_main

            cli_main()
    finally:
        # the process ends here: its objects need no last search for cycles while the
        # interpreter shuts down (tens of milliseconds after a build)
        gc.freeze()


def _parse(argv: list[str]) -> tuple[Path, Path | None, bool] | None:
    """Project folder, output folder and quiet flag of a plain `pnp build` command line; None otherwise."""
    if not argv or argv[0] != "build":
        return None
    project, out, quiet = Path("."), None, False
    args = iter(argv[1:])
    for arg in args:
        name, eq, value = arg.partition("=") if arg.startswith("--") else (arg, "", "")
        if name in _QUIET and not eq:
            quiet = True
        elif name in _FLAGS and not eq:
            continue
        elif name in _VALUED:
            if not eq:
                following = next(args, None)
                if following is None:
                    return None
                value = following
            if name in ("--project", "-p"):
                project = Path(value)
            elif name == "--out":
                out = Path(value)
        elif arg.startswith("-"):
            return None
    return project.resolve(), out.resolve() if out else None, quiet


def _key(argv: list[str]) -> str:
    return hashlib.sha256(json.dumps([os.getcwd(), argv]).encode()).hexdigest()[:32]


def tree_digest(project: Path, out: Path) -> str | None:
    """Digest of the bytes of every file of the project folder (hidden folders at its top,
    caches and the output folder aside; links out of it by their target) and of the PNP_*
    environment; None when too large."""
    h = hashlib.sha256()
    h.update(json.dumps([STAMP_FORMAT, sys.version, sorted((k, v) for k, v in os.environ.items() if k.startswith("PNP"))]).encode())
    count = size = 0
    seen: set[tuple[int, int]] = set()
    base = os.path.realpath(project)

    def out_of_project(path: Path) -> bool:
        """A link leading out of the project (plugins/ aside): its target is stamped, never
        its files (a build refuses to read them: pnp/load/project_files.py)."""
        real = os.path.realpath(path)
        if real == base or real.startswith(base + os.sep) or path.relative_to(project).parts[0] == "plugins":
            return False  # plugins/ is code the user runs, wherever it is linked from: its data files count
        h.update(f"{path.relative_to(project).as_posix()}\0->{real}\0".encode())
        return True

    for folder, dirs, files in os.walk(project, followlinks=True):  # a linked content folder counts too
        here = Path(folder)
        st = os.stat(here)
        if (st.st_dev, st.st_ino) in seen:  # a link loop: not worth stamping
            return None
        seen.add((st.st_dev, st.st_ino))
        # hidden folders at the top (.git, .venv) are not the project's; deeper ones
        # (content/<game>/.art/) hold what a build reads
        dirs[:] = sorted(d for d in dirs if not (d.startswith(".") and here == project) and d != "__pycache__" and here / d != out
                         and not out_of_project(here / d))
        for name in sorted(files):
            count += 1
            if count > MAX_FILES:
                return None
            path = here / name
            if out_of_project(path):
                continue
            try:
                data = path.read_bytes()
            except OSError:
                return None
            size += len(data)
            if size > MAX_BYTES:
                return None
            h.update(f"{path.relative_to(project).as_posix()}\0{len(data)}\0".encode())
            h.update(data)
    return h.hexdigest()


def _stats(paths: list[str]) -> dict[str, list[int]]:
    found = {}
    for path in paths:
        try:
            st = os.stat(path)
        except OSError:
            found[path] = [-1, -1]
        else:
            found[path] = [st.st_size, st.st_mtime_ns]
    return found


def _outputs(folder: Path) -> dict[str, list[int]]:
    """Size and modification time of every file under an output folder."""
    found = {}
    for here, dirs, files in os.walk(folder):
        dirs.sort()
        for name in sorted(files):
            path = os.path.join(here, name)
            st = os.stat(path)
            found[os.path.relpath(path, folder)] = [st.st_size, st.st_mtime_ns]
    return found


def _code_files() -> list[str]:
    """pnp's own files, every module this process imported, and the PDF engine's packages,
    which only its worker processes import (pnp/formats/pdf_engine.py)."""
    from importlib.util import find_spec

    from .formats.pdf_engine import ENGINE_PACKAGES

    files = {str(p) for p in PACKAGE_DIR.rglob("*") if p.is_file() and "__pycache__" not in p.parts}
    files |= {f for m in list(sys.modules.values()) if isinstance(f := getattr(m, "__file__", None), str)}
    for name in ENGINE_PACKAGES:
        spec = find_spec(name)
        if spec is not None and spec.origin:
            folder = Path(spec.origin).parent  # an upgrade rewrites the package's files
            files |= {str(p) for p in folder.iterdir() if p.suffix in (".py", ".so", ".pyd")}
    return sorted(files)


def _read(stamp: Path) -> dict:
    try:
        data = json.loads(stamp.read_text("utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) and data.get("format") == STAMP_FORMAT else {}


def answered(argv: list[str]) -> bool:
    """Whether `argv` is a `pnp build` whose stamp shows nothing changed (its report then printed)."""
    parsed = _parse(argv)
    if parsed is None:
        return False
    project, out, quiet = parsed
    out = out or project / "output"
    entry = _read(out / STAMP).get("builds", {}).get(_key(argv))
    try:
        if not entry or _stats(list(entry["code"])) != entry["code"]:
            return False
        if any(_outputs(out / game) != files for game, files in entry["outputs"].items()):
            return False
        if tree_digest(project, out) != entry["tree"]:
            return False
        lines = entry["lines"]
    except (KeyError, TypeError, AttributeError, OSError):
        return False
    if not quiet:
        for line in lines:
            print(line)
    return True


def before_build(project: Path, out: Path) -> str | None:
    """The project's digest, taken before a build reads it (so an edit made while the build
    runs is not missed); None when this process was not started from the command line."""
    return tree_digest(project, out) if COMMAND is not None and _parse(COMMAND) is not None else None


def record(project: Path, out: Path, tree: str | None, reports: list, lines: list[str]) -> None:
    """After a successful build of the project's own games: remember what it read and wrote,
    and the `lines` a no-op answer prints."""
    argv = COMMAND
    if tree is None or argv is None or not all((project / "content" / r.game / "game.yaml").is_file() for r in reports):
        return
    entry = {"tree": tree, "code": _stats(_code_files()), "outputs": {r.game: _outputs(out / r.game) for r in reports}, "lines": lines}
    stamp = out / STAMP
    builds = _read(stamp).get("builds", {})
    builds.pop(_key(argv), None)
    builds[_key(argv)] = entry
    text = json.dumps({"format": STAMP_FORMAT, "builds": dict(list(builds.items())[-KEEP:])}, sort_keys=False)
    tmp = stamp.with_name(f"{STAMP}.{os.getpid()}.tmp")
    try:
        tmp.write_text(text, "utf-8")
        os.replace(tmp, stamp)
    except OSError:
        tmp.unlink(missing_ok=True)

"""Packs the shipped games into the wheel: the project's `content/`, `templates/`,
`examples/` and `plugins/` folders are copied to `pnp/shipped/` at build time, so an
installed pnp knows them (see pnp/tools/shipped.py). The checkout keeps its layout; everything else is in
pyproject.toml."""

import os
import shutil
from fnmatch import fnmatch
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py
from setuptools.command.egg_info import egg_info

ROOT = Path(__file__).resolve().parent
SHIPPED = ("content", "templates", "examples", "plugins")
# left out of the copies and of the sdist's grafted folders (SHIPPED and docs/, MANIFEST.in):
# what a checkout makes and git ignores (.gitignore), never a game's source: a built example's
# output/, a build's build/, dist/ and *.egg-info/, compiled Python, dot-files (.venv/,
# .mypy_cache/, .DS_Store) and the play-test log's journals. Left out here rather than by
# MANIFEST.in's excludes, which warn on every build of a clean checkout for each that matches nothing.
LEFT_OUT_DIRS = ("output", "build", "dist", "*.egg-info", "__pycache__")
LEFT_OUT_FILES = ("*.pyc", "*.sqlite-wal", "*.sqlite-shm")
GRAFTED = (*SHIPPED, "docs")


def made(dirs, name=""):
    """Whether the file `name` in the folders `dirs` (or, with no name, the folder `dirs`),
    inside a shipped folder, is one a checkout made."""
    return (any(part.startswith(".") for part in (*dirs, name))
            or any(fnmatch(d, p) for d in dirs for p in LEFT_OUT_DIRS)
            or any(fnmatch(name, p) for p in LEFT_OUT_FILES))


def left_out(folder, names):
    """shutil.copytree's `ignore`: the names in `folder` not to copy."""
    return {name for name in names if (made([name]) if (Path(folder) / name).is_dir() else made([], name))}


class BuildWithGames(build_py):
    def run(self):
        editable = getattr(self, "editable_mode", False)
        if not editable:
            # a checkout's build/lib/pnp/ from an earlier build keeps the modules removed
            # since: the wheel would ship them; pnp is copied afresh
            shutil.rmtree(Path(self.build_lib) / "pnp", ignore_errors=True)
        super().run()
        if editable:
            return  # an editable install reads the games from the checkout itself
        target = Path(self.build_lib) / "pnp" / "shipped"
        for name in SHIPPED:
            if (ROOT / name).is_dir():
                shutil.rmtree(target / name, ignore_errors=True)
                shutil.copytree(ROOT / name, target / name, ignore=left_out)


class SourcesWithoutMade(egg_info):
    """The sdist's file list (SOURCES.txt) without what a checkout made in the grafted
    folders, nor tests/ (setuptools takes tests/test*.py by default; without conftest.py
    and tests/data they cannot run)."""

    def find_sources(self):
        super().find_sources()

        def dropped(path):
            parts = path.replace(os.sep, "/").split("/")
            top, *dirs, name = parts if len(parts) > 1 else (path, "")
            return top == "tests" or top in GRAFTED and made(dirs, name)

        kept = [f for f in self.filelist.files if not dropped(f)]
        if kept != self.filelist.files:
            self.filelist.files = kept
            self.write_file("SOURCES.txt", os.path.join(self.egg_info, "SOURCES.txt"), "".join(f.replace(os.sep, "/") + "\n" for f in kept))


setup(cmdclass={"build_py": BuildWithGames, "egg_info": SourcesWithoutMade})

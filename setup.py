"""Packs the shipped games into the wheel: the project's `content/`, `templates/`,
`examples/` and `plugins/` folders are copied to `pnp/shipped/` at build time, so an
installed pnp knows them (see pnp/tools/shipped.py). The checkout keeps its layout; everything else is in
pyproject.toml."""

import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

ROOT = Path(__file__).resolve().parent
SHIPPED = ("content", "templates", "examples", "plugins")
# left out of the copies: what a checkout makes and git ignores (.gitignore), never a game's
# source: a built example's output/, a build's build/, dist/ and *.egg-info/, compiled
# Python, dot-files (.venv/, .mypy_cache/, .DS_Store), editors' backups and the play-test log's journals;
# MANIFEST.in leaves out the same from the sdist
LEFT_OUT_DIRS = ("output", "build", "dist", "*.egg-info", "__pycache__")
LEFT_OUT_FILES = ("*.pyc", "*.sqlite-wal", "*.sqlite-shm", "*~")


def left_out(folder, names):
    """shutil.copytree's `ignore`: the names in `folder` not to copy."""
    found = shutil.ignore_patterns(".*", *LEFT_OUT_FILES)(folder, names)
    dirs = [name for name in names if (Path(folder) / name).is_dir()]
    return found | shutil.ignore_patterns(*LEFT_OUT_DIRS)(folder, dirs)


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


setup(cmdclass={"build_py": BuildWithGames})

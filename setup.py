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


class BuildWithGames(build_py):
    def run(self):
        super().run()
        if getattr(self, "editable_mode", False):
            return  # an editable install reads the games from the checkout itself
        target = Path(self.build_lib) / "pnp" / "shipped"
        for name in SHIPPED:
            if (ROOT / name).is_dir():
                shutil.rmtree(target / name, ignore_errors=True)
                shutil.copytree(ROOT / name, target / name, ignore=shutil.ignore_patterns("__pycache__", "*.pyc", ".*"))


setup(cmdclass={"build_py": BuildWithGames})
